"""Section a of ``eslabon bench``: one call at one state, eslabon against Pinocchio and MuJoCo.

Every output is first checked against Pinocchio's (and MuJoCo's, where it has the
operation: :mod:`.mujoco_twin`); then ours, Pinocchio's and MuJoCo's calls are timed
interleaved, repeat by repeat (:func:`._core.time_stmts`).
"""

from __future__ import annotations

import numpy as np

import eslabon as es

from ._core import (
    STATE_SEED,
    bench_robot,
    check,
    details,
    failed,
    log,
    pair,
    pin_orders,
    pin_twin,
    robot_states,
    row,
    sym,
    time_stmts,
)
from .mujoco_twin import MUJOCO_NOTE, per_call_twin
from .pin_frames import frame_name, pin_bias_call, pin_frame, regressor_parameters


def _dfd(got, data, ix):
    """Ours (∂q̈/∂q, ∂q̈/∂q̇, M⁻¹) against Pinocchio's ABA derivatives."""
    ours = np.concatenate([np.asarray(g)[ix] for g in got])
    return ours, np.concatenate([data.ddq_dq, data.ddq_dv, sym(data.Minv)])


def _linearized(got, data, ix):
    """Ours (A, B) against [[0, 1], [∂q̈/∂q, ∂q̈/∂q̇]] and [[0], [M⁻¹]] from Pinocchio's.
    On a floating base A's upper-left block is −ad(v̄) of the base's rates (the state's
    motion on the manifold, :func:`eslabon.control.linearize`), which Pinocchio does not
    give: that block is left out."""
    n = data.ddq_dq.shape[0]
    blocks = lambda X: [X[:n, :n], X[:n, n:], X[n:, :n], X[n:, n:]]
    A = [np.asarray(x)[ix] for x in blocks(np.asarray(got.A))]
    B = [np.asarray(got.B)[:n][ix], np.asarray(got.B)[n:][ix]]
    ref_a = [np.zeros((n, n)), np.eye(n), data.ddq_dq, data.ddq_dv]
    ref_b = [np.zeros((n, n)), sym(data.Minv)]
    if np.any(A[0]):  # a floating base: −ad(v̄), not compared
        A, ref_a = A[1:], ref_a[1:]
    return np.concatenate(A + B), np.concatenate(ref_a + ref_b)


# (figure, ours, Pinocchio's, target on fixed bases only (floating bases: the row without
# a target), target ratio (None: 0.8, 0.6 floating), compare(ours' output, Pinocchio's
# data, index of Pinocchio's order) -> (got, ref) or None: the output itself against what
# the Pinocchio statement returns)
OPS = [
    ("ID", "inverse_dynamics(m, q, qd, qdd)", "rnea(pm, data, qp, qdp, qddp)", False, None, None),
    ("M", "mass_matrix(m, q)", "crba(pm, data, qp)", False, None, None),
    ("FD", "forward_dynamics(m, q, qd, tau)", "aba(pm, data, qp, qdp, taup)", False, None, None),
    (
        "dID/dq,dqd",
        "inverse_dynamics_derivatives(m, q, qd, qdd)",
        "computeRNEADerivatives(pm, data, qp, qdp, qddp)",
        True,
        None,
        lambda got, data, ix: (
            np.concatenate([np.asarray(g)[ix] for g in got]),
            np.concatenate([data.dtau_dq, data.dtau_dv]),
        ),
    ),
    (
        "FD derivatives",
        "forward_dynamics_derivatives(m, q, qd, tau)",
        "computeABADerivatives(pm, data, qp, qdp, taup)",
        True,
        0.6,
        _dfd,
    ),
    (
        "linearize (A, B)",
        "linearize(m, q, qd, qdd_fd)",
        "computeABADerivatives(pm, data, qp, qdp, taup)",
        True,
        0.7,
        _linearized,
    ),
    # one named frame (``fr``: ``ee``, else the last body), from q alone: Pinocchio's
    # single calls that give the same matrix (each runs its forward pass itself); the
    # Jacobian in LOCAL_WORLD_ALIGNED, the velocity of the frame's origin in world axes
    # as ours, rows [linear; angular]; issue 45 sets ≤ 1.0× on the fixed-base arms
    (
        "J (frame)",
        "jacobian(m, q, fr)",
        "computeFrameJacobian(pm, data, qp, fid, LWA)",
        True,
        1.0,
        None,
    ),
    (
        "pose (frame)",
        "frame_pose(m, q, fr)",
        "framesForwardKinematics(pm, data, qp)",
        True,
        1.0,
        None,
    ),
    # task space and centroidal (compiled: eslabon.kinematics.task_kernels); issue 45
    # sets ≤ 0.7× Pinocchio per call on Solo 12 and Talos, so the target is on floating
    # bases as well
    ("A_G", "centroidal_momentum_matrix(m, q)", "ccrba(pm, data, qp, qdp)", False, 0.7, None),
    ("J_com", "com_jacobian(m, q)", "jacobianCenterOfMass(pm, data, qp)", False, 0.7, None),
    ("J̇q̇ (frame)", "bias_acceleration(m, q, qd, fr)", "pin_bias(qp, qdp)", False, 0.7, None),
    # the joint-torque regressor (compiled: eslabon.dynamics.regressor_kernel): ≤ 0.6×
    # Pinocchio's computeJointTorqueRegressor (targets named for Puma, Panda, Solo 12)
    (
        "Y (regressor)",
        "joint_torque_regressor(m, q, qd, qdd)",
        "computeJointTorqueRegressor(pm, data, qp, qdp, qddp)",
        False,
        0.6,
        None,
    ),
]


def _glb(m, q, qd, qdd, tau, pm, data, pin, pc_orders):
    glb = {
        "m": m,
        "q": q,
        "qd": qd,
        "qdd": qdd,
        "tau": tau,
        "qdd_fd": es.forward_dynamics(m, q, qd, tau),
        "pm": pm,
        "data": data,
        "inverse_dynamics": es.inverse_dynamics,
        "mass_matrix": es.mass_matrix,
        "forward_dynamics": es.forward_dynamics,
        "inverse_dynamics_derivatives": es.inverse_dynamics_derivatives,
        "forward_dynamics_derivatives": es.forward_dynamics_derivatives,
        "linearize": es.control.linearize,
        "jacobian": es.jacobian,
        "frame_pose": es.kinematics.frame_pose,
        "centroidal_momentum_matrix": es.centroidal_momentum_matrix,
        "com_jacobian": es.com_jacobian,
        "bias_acceleration": es.kinematics.bias_acceleration,
        "joint_torque_regressor": es.identification.joint_torque_regressor,
        "fr": frame_name(m),
    }
    if pin is not None:
        vo, co = pc_orders  # a tree's rates in Pinocchio's depth-first order
        glb.update(qp=q[co], qdp=qd[vo], qddp=qdd[vo], taup=tau[vo])
        glb.update(
            rnea=pin.rnea,
            crba=pin.crba,
            aba=pin.aba,
            computeRNEADerivatives=pin.computeRNEADerivatives,
            computeABADerivatives=pin.computeABADerivatives,
            computeFrameJacobian=pin.computeFrameJacobian,
            framesForwardKinematics=pin.framesForwardKinematics,
            LWA=pin.LOCAL_WORLD_ALIGNED,
            ccrba=pin.ccrba,
            jacobianCenterOfMass=pin.jacobianCenterOfMass,
            computeJointTorqueRegressor=pin.computeJointTorqueRegressor,
        )
    return glb


def _check_pin(op, figure, got, ref, data, vo, compare, fid=None):
    """The check of one output against Pinocchio's (``fid``: the id of the timed frame
    in the twin)."""
    ix = np.ix_(vo, vo)
    if op == "J (frame)":  # Pinocchio's rows [linear; angular]
        ref = np.vstack([ref[3:], ref[:3]])
        return check(f"{figure}: vs pin.computeFrameJacobian", np.asarray(got)[:, vo], ref)
    if op == "pose (frame)":
        return check(f"{figure}: vs pin oMf", got, data.oMf[fid].homogeneous)
    swap = [3, 4, 5, 0, 1, 2]  # Pinocchio's spatial rows [linear; angular]
    if op == "A_G":
        return check(f"{figure}: vs pin.ccrba", np.asarray(got)[swap][:, vo], ref, relative=True)
    if op == "J_com":
        return check(f"{figure}: vs pin.jacobianCenterOfMass", np.asarray(got)[:, vo], ref)
    if op == "J̇q̇ (frame)":
        ref = np.concatenate([ref.angular, ref.linear])
        return check(f"{figure}: vs pin.getFrameClassicalAcceleration", got, ref, relative=True)
    if compare is not None:
        got, ref = compare(got, data, ix)
        return check(f"{figure}: vs pin (its outputs, relative)", got, ref, relative=True)
    if op == "M":
        return check(f"{figure}: mass_matrix vs crba", np.asarray(got)[ix], sym(ref))
    name = "rnea" if op == "ID" else "aba"
    return check(f"{figure}: vs pin.{name}", np.asarray(got)[vo], ref)


def per_call(robots, pc, s, mujoco=None, mujoco_note=None):
    """Section a: ``{"title", "rows", "checks", "notes"}``; ``pc`` is :func:`._core.load_pin`'s
    triple or None, ``mujoco`` the module or None (then ``mujoco_note`` says why)."""
    rows, checks, notes = [], [], []
    mj_twins = 0
    for spec in robots:
        m, label = bench_robot(spec, notes)
        if m is None:
            continue
        n = m.nv
        floating = m.nq != n
        q, qd, qdd = (np.ascontiguousarray(x) for x in robot_states(m, None, STATE_SEED))
        tau = es.inverse_dynamics(m, q, qd, qdd)
        pm, data = pin_twin(pc, m, notes, label)
        pin = pc[0] if pm is not None else None
        fid = None
        if pin is not None:
            pm, data, fid = pin_frame(pin, pm, m, frame_name(m))
        vo, co = pin_orders(m) if pin is not None else (None, None)
        glb = _glb(m, q, qd, qdd, tau, pm, data, pin, (vo, co))
        glb["fid"] = fid
        if pin is not None:
            glb["pin_bias"] = pin_bias_call(pin, pm, data, fid, np.zeros(n))
        mj_stmts, mj_ok = {}, {}
        if mujoco is not None and not floating:
            mj_glb, mj_stmts, mj_ok = per_call_twin(mujoco, m, q, qd, qdd, label, checks, notes)
            glb.update(mj_glb)
            mj_twins += bool(mj_stmts)
        for op, ours_stmt, pin_stmt, fixed_only, new_bound, compare in OPS:
            figure = f"{label} ({n}) {op}"
            # floating: issue "General joints" sets ID, M and FD only
            bound = None if fixed_only and floating else new_bound or (0.6 if floating else 0.8)
            got = eval(ours_stmt, glb)  # warm-up: compile or load the cache
            ok = True
            if pin is not None:
                ref = eval(pin_stmt, glb)
                if op == "Y (regressor)":
                    mine, theirs = regressor_parameters(m, pm)
                    c = check(
                        f"{figure}: Y π vs Pinocchio's Y π (rigid-body τ)",
                        (np.asarray(got)[:, : mine.size] @ mine)[vo],
                        np.asarray(ref) @ theirs,
                        relative=True,
                    )
                else:
                    c = _check_pin(op, figure, got, ref, data, vo, compare, fid)
                checks.append(c)
                ok = c["ok"]
            else:
                pin_stmt = None
            mj_stmt = mj_stmts.get(op) if mj_ok.get(op) else None
            log(f"timing {figure}")
            stmts = {"ours": ours_stmt, "pin": pin_stmt, "mujoco": mj_stmt}
            p = pair(time_stmts(stmts, glb, s))
            mj_col = {"mujoco": p.get("mujoco")} if op in ("ID", "M", "FD") else {}
            r = row(
                figure,
                p["ours"],
                p["pin"],
                target=f"≤ {bound}×pin" if bound is not None else "—",
                on="ratio",
                bound=bound,
                **mj_col,
                **details(p, "ours", "pin", "mujoco"),
            )
            failed(r, ok)
            if op in mj_stmts and not mj_ok.get(op):
                r["note"] = "; ".join(x for x in (r.get("note"), "MuJoCo check FAILED") if x)
            rows.append(r)
    if mujoco_note:
        notes.append(mujoco_note)
    if mj_twins:
        notes.append(MUJOCO_NOTE + "; ratio to mujoco = ours / MuJoCo, no target")
    return {
        "title": "a. per call, one state (µs per call)",
        "rows": rows,
        "checks": checks,
        "notes": notes,
    }
