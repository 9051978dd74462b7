"""Section b of ``eslabon bench``: a batch of random states on the benchmark's threads.

ID and FD against Pinocchio's parallel ``rneaInParallel`` / ``abaInParallel`` (a
ModelPool); M and the ID and FD derivatives, which Pinocchio has no batch call for,
against a Python loop of its single-state call. Each output is checked against Pinocchio's
first (the whole batch for ID and FD, a few states for the others).
"""

from __future__ import annotations

import numpy as np

import eslabon as es

from ..identification import parameter_count
from ..identification.regressor import regressor_into
from ..interop.pinocchio import body_order
from ._core import (
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
from .pin_frames import frame_name, pin_bias_call, pin_frame, regressor_parameters

BATCH_SEED = 7  # the batch of random states
LOOP_BOUND = 0.25  # target ratio against a Python loop of Pinocchio's call
# the rows issue 27 set LOOP_BOUND for, on its fixed-base arms; a floating base's rows
# have no target (issue "General joints" sets the batch ID and FD only)
TARGETED = ("M", "dID/dq,dqd", "FD derivatives")
# the task-space and centroidal rows: ≤ 0.2× the loop on every base (issue 45)
TASK_OPS = ("A_G", "J_com", "J̇q̇ (frame)")
TASK_BOUND = 0.2
# the joint-torque regressor: ≤ 0.2× a loop of computeJointTorqueRegressor; its (N, nv, p)
# output is skipped above this many bytes (a humanoid's would be gigabytes)
REGRESSOR = "Y (regressor)"
REGRESSOR_BOUND = 0.2
REGRESSOR_BYTES = 1e9
# the memory floor of a batch regressor: numpy filling the same (N, nv, p) buffer, no
# target (what a batch that returns Y cannot go below, whatever it computes)
REGRESSOR_FLOOR = REGRESSOR + ": writing its array alone"
SWAP = [3, 4, 5, 0, 1, 2]  # Pinocchio's spatial rows [linear; angular]
CHECKED_STATES = 3  # states of the batch checked against the looped Pinocchio call

# (figure, ours, Pinocchio looped, fixed bases only); each output is checked on a few
# states against the single-state Pinocchio call (_reference)
LOOPED_OPS = [
    ("M", "mass_matrix(m, Q)", "for a in QP: crba(pm, data, a)", False),
    (
        "dID/dq,dqd",
        "inverse_dynamics_derivatives(m, Q, QD, QDD)",
        "for a, b, c in zip(QP, QDP, QDDP): computeRNEADerivatives(pm, data, a, b, c)",
        False,
    ),
    (
        "FD derivatives",
        "forward_dynamics_derivatives(m, Q, QD, TAU)",
        "for a, b, c in zip(QP, QDP, TAUP): computeABADerivatives(pm, data, a, b, c)",
        False,
    ),
    (
        "C",
        "coriolis_matrix(m, Q, QD)",
        "for a, b in zip(QP, QDP): computeCoriolisMatrix(pm, data, a, b)",
        True,
    ),
    (
        "Jacobian, last body",
        "jacobian(m, Q, last_name)",
        "for a in QP: computeJointJacobians(pm, data, a); getJointJacobian(pm, data, last, LWA)",
        True,
    ),
    ("FK", "forward_kinematics(m, Q)", "for a in QP: forwardKinematics(pm, data, a)", True),
    (
        "A_G",
        "centroidal_momentum_matrix(m, Q)",
        "for a, b in zip(QP, QDP): ccrba(pm, data, a, b)",
        False,
    ),
    ("J_com", "com_jacobian(m, Q)", "for a in QP: jacobianCenterOfMass(pm, data, a)", False),
    (
        "J̇q̇ (frame)",
        "bias_acceleration(m, Q, QD, fr)",
        "for a, b in zip(QP, QDP): pin_bias(a, b)",
        False,
    ),
    (
        REGRESSOR,
        "joint_torque_regressor(m, Q, QD, QDD)",
        "for a, b, c in zip(QP, QDP, QDDP): computeJointTorqueRegressor(pm, data, a, b, c)",
        False,
    ),
    (  # the same into one (N, nv, p) buffer, as Pinocchio's loop reuses its data
        REGRESSOR + " into a reused buffer",
        "regressor_into(m, Q, QD, QDD, out=YBUF)",
        "for a, b, c in zip(QP, QDP, QDDP): computeJointTorqueRegressor(pm, data, a, b, c)",
        False,
    ),
    (  # the floor of the two rows above: writing that buffer, nothing computed
        REGRESSOR_FLOOR,
        "YBUF.fill(0.0)",
        "for a, b, c in zip(QP, QDP, QDDP): computeJointTorqueRegressor(pm, data, a, b, c)",
        False,
    ),
]


def _reference(op, glb, i):
    """Pinocchio's output(s) of ``op`` at state i, in its order and conventions."""
    pin, pm, data = glb["pin"], glb["pm"], glb["data"]
    q, v = glb["QP"][i], glb["QDP"][i]
    if op == "M":
        return [sym(pin.crba(pm, data, q))]
    if op == "dID/dq,dqd":
        pin.computeRNEADerivatives(pm, data, q, v, glb["QDDP"][i])
        return [np.array(data.dtau_dq), np.array(data.dtau_dv)]  # copies: data is reused
    if op == "FD derivatives":
        pin.computeABADerivatives(pm, data, q, v, glb["TAUP"][i])
        return [np.array(data.ddq_dq), np.array(data.ddq_dv), sym(data.Minv)]
    if op == "C":
        return [np.array(pin.computeCoriolisMatrix(pm, data, q, v))]
    if op == "A_G":
        return [np.array(pin.ccrba(pm, data, q, v))]
    if op == "J_com":
        return [np.array(pin.jacobianCenterOfMass(pm, data, q))]
    if op == "J̇q̇ (frame)":
        a = glb["pin_bias"](q, v)
        return [np.concatenate([a.angular, a.linear])]
    if op.startswith(REGRESSOR):  # Y π, the rigid-body τ (pin_frames.regressor_parameters)
        Y = pin.computeJointTorqueRegressor(pm, data, q, v, glb["QDDP"][i])
        return [np.asarray(Y) @ glb["pi_pin"]]
    if op == "FK":
        pin.forwardKinematics(pm, data, q)
        return [data.oMi[pm.njoints - 1].homogeneous]
    pin.computeJointJacobians(pm, data, q)
    J = pin.getJointJacobian(pm, data, pm.njoints - 1, pin.LOCAL_WORLD_ALIGNED)
    return [np.vstack([J[3:], J[:3]])]  # Pinocchio's rows are [linear; angular]


def _ours(op, got, i, vo, glb):
    """Our output(s) of ``op`` at state i in Pinocchio's order of rates."""
    if op == "FK":
        return [np.asarray(got)[i, glb["last_body"]]]
    if op == "A_G":
        return [np.asarray(got)[i][SWAP][:, vo]]
    if op == "J_com":
        return [np.asarray(got)[i][:, vo]]
    if op == "J̇q̇ (frame)":
        return [np.asarray(got)[i]]
    if op.startswith(REGRESSOR):
        mine = glb["pi_ours"]
        return [(np.asarray(got)[i][:, : mine.size] @ mine)[vo]]
    if op.startswith("Jacobian"):
        return [np.asarray(got)[i][:, vo]]
    got = [got] if op in ("M", "C") else got
    return [np.asarray(g)[i][np.ix_(vo, vo)] for g in got]


def _parallel_ops(glb, pin, pm, k, vo, co, notes):
    """Put Pinocchio's parallel inputs into ``glb``; False when this pin has none."""
    if not (hasattr(pin, "rneaInParallel") and hasattr(pin, "ModelPool")):
        notes.append("this pin has no rneaInParallel/ModelPool (built without OpenMP?)")
        return False
    F = lambda X: np.asfortranarray(X.T)  # pin wants (n, N) column-major
    Q, QD, QDD, TAU = (glb[x] for x in ("Q", "QD", "QDD", "TAU"))
    glb.update(
        pool=pin.ModelPool(pm, k),
        QT=F(Q[:, co]),
        QDT=F(QD[:, vo]),
        QDDT=F(QDD[:, vo]),
        TAUT=F(TAU[:, vo]),
        OUTT=np.empty((QD.shape[1], Q.shape[0]), order="F"),  # nv rows
        rneaInParallel=pin.rneaInParallel,
        abaInParallel=pin.abaInParallel,
    )
    return True


def _check_looped(figure, op, got, glb, vo):
    """Ours on a few states of the batch against the single-state Pinocchio call."""
    N = glb["Q"].shape[0]
    ours, ref = [], []
    for i in np.linspace(0, N - 1, CHECKED_STATES).round().astype(int):
        ours += [x.ravel() for x in _ours(op, got, i, vo, glb)]
        ref += [np.ravel(x) for x in _reference(op, glb, i)]
    return check(
        f"{figure}: {CHECKED_STATES} states vs pin",
        np.concatenate(ours),
        np.concatenate(ref),
        1e-8,
        relative=True,
    )


def _time_row(figure, stmts, glb, s, N, k, bound, ok):
    log(f"timing {figure}")
    res = time_stmts(stmts, glb, s, number=1, repeats=s.batch_runs)
    p = pair(res, scale=N)
    r = row(
        figure,
        p["ours"],
        p["pin"],
        unit="µs/state",
        target=f"≤ {bound}×pin" if bound is not None else "—",
        on="ratio",
        bound=bound,
        threads=k,
        batch=N,
        **details(p, "ours", "pin"),
    )
    return failed(r, ok)


def batch(robots, pc, s):
    """Section b: ``{"title", "rows", "checks", "notes"}``."""
    rows, checks, notes = [], [], []
    N, k = s.batch_size, s.threads
    previous = es.get_num_threads()
    looped_floating = False
    try:
        es.set_num_threads(k)
        for spec in robots:
            m, label = bench_robot(spec, notes)
            if m is None:
                continue
            n = m.nv
            floating = m.nq != n
            Q, QD, QDD = (np.ascontiguousarray(x) for x in robot_states(m, N, BATCH_SEED))
            bound = 0.3 if floating else 0.35  # a floating base: issue "General joints"
            TAU = es.inverse_dynamics(m, Q, QD, QDD)
            es.forward_dynamics(m, Q, QD, TAU)
            pm, data = pin_twin(pc, m, notes, label)
            pin = pc[0] if pm is not None else None
            # the body of Pinocchio's last joint: the last moving body its twin adds
            last_body = int([i for i in body_order(m) if m.q_index[i] >= 0][-1])
            glb = {
                "m": m,
                "last_body": last_body,
                "last_name": m.body_names[last_body],
                "Q": Q,
                "QD": QD,
                "QDD": QDD,
                "TAU": TAU,
                "k": k,
                "inverse_dynamics": es.inverse_dynamics,
                "forward_dynamics": es.forward_dynamics,
                "mass_matrix": es.mass_matrix,
                "inverse_dynamics_derivatives": es.inverse_dynamics_derivatives,
                "forward_dynamics_derivatives": es.forward_dynamics_derivatives,
                "coriolis_matrix": es.coriolis_matrix,
                "jacobian": es.jacobian,
                "forward_kinematics": es.forward_kinematics,
                "centroidal_momentum_matrix": es.centroidal_momentum_matrix,
                "com_jacobian": es.com_jacobian,
                "bias_acceleration": es.kinematics.bias_acceleration,
                "joint_torque_regressor": es.identification.joint_torque_regressor,
                "regressor_into": regressor_into,
                "fr": frame_name(m),
            }
            parallel = False
            vo = None
            if pin is not None:
                vo, co = pin_orders(m)  # a tree's rates in Pinocchio's depth-first order
                # the timed frame of J̇q̇ added to the twin as in the per-call section
                pm, data, fid = pin_frame(pin, pm, m, glb["fr"])
                C = lambda X, order: np.ascontiguousarray(X[:, order])
                glb.update(
                    pin=pin,
                    pm=pm,
                    data=data,
                    QP=C(Q, co),
                    QDP=C(QD, vo),
                    QDDP=C(QDD, vo),
                    TAUP=C(TAU, vo),
                    crba=pin.crba,
                    computeRNEADerivatives=pin.computeRNEADerivatives,
                    computeABADerivatives=pin.computeABADerivatives,
                    computeCoriolisMatrix=pin.computeCoriolisMatrix,
                    computeJointJacobians=pin.computeJointJacobians,
                    getJointJacobian=pin.getJointJacobian,
                    forwardKinematics=pin.forwardKinematics,
                    last=pm.njoints - 1,
                    LWA=pin.LOCAL_WORLD_ALIGNED,
                    ccrba=pin.ccrba,
                    jacobianCenterOfMass=pin.jacobianCenterOfMass,
                    pin_bias=pin_bias_call(pin, pm, data, fid, np.zeros(n)),
                    computeJointTorqueRegressor=pin.computeJointTorqueRegressor,
                )
                glb["pi_ours"], glb["pi_pin"] = regressor_parameters(m, pm)
                parallel = _parallel_ops(glb, pin, pm, k, vo, co, notes)
            for op, ours_stmt, pin_stmt in (
                (
                    "ID",
                    "inverse_dynamics(m, Q, QD, QDD)",
                    "rneaInParallel(k, pool, QT, QDT, QDDT, OUTT)",
                ),
                (
                    "FD",
                    "forward_dynamics(m, Q, QD, TAU)",
                    "abaInParallel(k, pool, QT, QDT, TAUT, OUTT)",
                ),
            ):
                figure = f"{label} ({n}) {op} batch {N:,}, {k} thr"
                ok = True
                got = eval(ours_stmt, glb)
                if parallel:
                    eval(pin_stmt, glb)
                    c = check(
                        f"{figure}: vs pin.{pin_stmt.split('(')[0]}",
                        np.asarray(got)[:, vo],
                        glb["OUTT"].T,
                        relative=True,
                    )
                    checks.append(c)
                    ok = c["ok"]
                stmts = {"ours": ours_stmt, "pin": pin_stmt if parallel else None}
                rows.append(_time_row(figure, stmts, glb, s, N, k, bound, ok))
            for op, ours_stmt, pin_stmt, fixed_only in LOOPED_OPS:
                if fixed_only and floating:
                    looped_floating = True
                    continue
                if op.startswith(REGRESSOR):
                    if N * n * parameter_count(m) * 8 > REGRESSOR_BYTES:
                        if op == REGRESSOR:
                            notes.append(f"{label}: Y batch not timed (N nv p doubles > 1 GB)")
                        continue
                    if "YBUF" not in glb:  # touched once, so no page is new when timed
                        glb["YBUF"] = np.zeros((N, n, parameter_count(m)))
                figure = f"{label} ({n}) {op} batch {N:,}, {k} thr"
                ok = True
                got = eval(ours_stmt, glb)
                if pin is not None and op != REGRESSOR_FLOOR:
                    c = _check_looped(figure, op, got, glb, vo)
                    checks.append(c)
                    ok = c["ok"]
                stmts = {"ours": ours_stmt, "pin": pin_stmt if pin is not None else None}
                target = LOOP_BOUND if op in TARGETED and not floating else None
                target = TASK_BOUND if op in TASK_OPS else target
                target = REGRESSOR_BOUND if op.startswith(REGRESSOR) else target
                target = None if op == REGRESSOR_FLOOR else target
                rows.append(_time_row(figure, stmts, glb, s, N, k, target, ok))
    finally:
        es.set_num_threads(previous)
    notes.append(
        "ID, FD: pin.rneaInParallel / abaInParallel on the same threads; M, dID/dq,dqd, "
        "FD derivatives, C, Jacobian and FK: a Python loop of pin.crba / "
        "computeRNEADerivatives / computeABADerivatives / computeCoriolisMatrix / "
        "computeJointJacobians + getJointJacobian (LOCAL_WORLD_ALIGNED; all joints' columns, "
        "where ours computes one body's) / forwardKinematics (one thread), checked on "
        f"{CHECKED_STATES} states; the Jacobian and FK of the body of Pinocchio's last joint; "
        "C, Jacobian, FK have no target, nor have M and the derivatives of a floating base "
        "(≤ 0.25× for fixed-base arms); A_G, J_com, J̇q̇: a Python loop of "
        "pin.ccrba / jacobianCenterOfMass / forwardKinematics at a = 0 + "
        f"getFrameClassicalAcceleration of the per-call section's frame, ≤ {TASK_BOUND}× "
        "on every base; Y (regressor): a Python loop of computeJointTorqueRegressor, "
        f"≤ {REGRESSOR_BOUND}×, checked through Y π (the rigid-body τ); ours returns a new "
        "(N, nv, p) array, or (into a reused buffer) writes one made and touched before "
        "the timing, as Pinocchio's loop overwrites its data; 'writing its array alone' "
        "is numpy filling that buffer, the memory floor of both (no target)"
    )
    if looped_floating:
        notes.append("C, Jacobian and FK in batch: fixed bases only")
    return {
        "title": f"b. batch of {N:,} random states, {k} threads (µs per state; median "
        f"of {s.batch_runs})",
        "rows": rows,
        "checks": checks,
        "notes": notes,
    }
