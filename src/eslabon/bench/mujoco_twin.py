"""MuJoCo beside eslabon in the speed benchmark: the robot's twin and the calls timed.

MuJoCo (``pip install mujoco``, in the bench extra) is never a runtime dependency: it is
imported here only, and when it is missing the benchmark shows "—" in its columns with a
note. The twin is the robot MuJoCo loads from the URDF eslabon writes
(:func:`eslabon.model.urdf_export.to_urdf`; no collision geometry, so no contacts, and no
joint limits, damping or armature), after :func:`mujoco_ready` has given every body the
least mass and inertia MuJoCo's compiler accepts. Before any timing the twin's M,
inverse and forward dynamics are checked against eslabon's on that same model.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np

import eslabon as es

from ..model.urdf_export import to_urdf
from ._core import check

MIN_MASS = 1e-2  # kg: the least body mass given to the twin
MIN_MOMENT = 1e-3  # kg·m²: the least principal moment of inertia


def load_mujoco():
    """(mujoco module, None), or (None, a note saying why MuJoCo is not used)."""
    try:
        import mujoco
    except Exception as exc:  # not installed, or a broken install: a note, never an error
        return None, (
            f"MuJoCo columns show —: mujoco does not import ({type(exc).__name__}: {exc}); "
            "pip install 'eslabon[bench]'"
        )
    return mujoco, None


def mujoco_ready(model):
    """``model`` with every moving body given at least :data:`MIN_MASS` and principal moments
    of at least :data:`MIN_MOMENT` meeting A + B ≥ C, which MuJoCo's compiler requires (the
    arithmetic of every algorithm is unchanged: only the numbers)."""
    mass = model.mass.copy()
    mass[1:] = np.maximum(mass[1:], MIN_MASS)
    inertia = model.inertia.copy()
    for i in range(1, len(inertia)):
        w, V = np.linalg.eigh(inertia[i])
        w = np.maximum(w, MIN_MOMENT)
        short = w[2] - w[0] - w[1]
        if short > 0:
            w[:2] += short / 2 + 1e-6
        inertia[i] = V @ np.diag(w) @ V.T
    return model.replace(mass=mass, inertia=inertia)


def mujoco_twin(mujoco, model, floating=False):
    """The MjModel of ``model`` (already :func:`mujoco_ready`), loaded from its URDF.

    With ``floating``, a model with quaternion joints too (MuJoCo reads the URDF's
    ``floating`` root as a free joint): its states go through :func:`twin_state`.

    Raises
    ------
    ValueError
        The model has quaternion joints and not ``floating`` (a free joint's rates differ
        from eslabon's in frame and order), or MuJoCo reads a different number of joints.
    """
    if model.nq != model.nv and not floating:
        raise ValueError(f"{model.name}: MuJoCo twin for fixed bases only (nq = nv)")
    with tempfile.TemporaryDirectory(prefix="eslabon-bench-mujoco-") as folder:
        path = Path(folder) / f"{model.name}.urdf"
        to_urdf(model, path)
        mj = mujoco.MjModel.from_xml_path(str(path))
    if mj.nv != model.nv or mj.nq != model.nq:
        raise ValueError(f"{model.name}: MuJoCo reads {mj.nv} joints, eslabon has {model.nv}")
    mj.opt.gravity[:] = model.gravity
    return mj


def twin_state(model, q, v):
    """(qpos, qvel) of MuJoCo's twin for eslabon's (q, v), each (..., nq) / (..., nv).

    MuJoCo orders the joints depth first, as Pinocchio does
    (:func:`eslabon.interop.pinocchio.configuration_order`), writes a quaternion scalar
    first (w, x, y, z) and a free joint's linear velocity in world axes (eslabon: body
    axes u, so ṗ = R u); the angular rates are in body axes in both. A free joint's
    frame is taken on its parent's (MuJoCo's free joint gives the body's world pose; a
    URDF read with ``root_joint="free_flyer"`` places it so)."""
    from ..interop.pinocchio import configuration_order, dof_order
    from ..model.configuration import quaternion_to_rotation
    from ..sim.manifold import chart_layout

    qpos, qvel = np.array(q, dtype=float), np.array(v, dtype=float)
    for tq, tv, rq, _ in chart_layout(model)[2]:
        if tq >= 0:
            R = quaternion_to_rotation(qpos[..., rq : rq + 4])
            qvel[..., tv : tv + 3] = np.einsum("...ij,...j->...i", R, qvel[..., tv : tv + 3])
        qpos[..., rq : rq + 4] = qpos[..., [rq + 3, rq, rq + 1, rq + 2]]
    return qpos[..., configuration_order(model)], qvel[..., dof_order(model)]


def floating_starts(model, runs: int, seed: int):
    """The floating-base rows' starts, seeded: q0 (runs, nq) = neutral ⊕ U(-0.3, 0.3) and
    v0 (runs, nv) ~ U(-0.5, 0.5) (all of q0 drawn first)."""
    import eslabon as es

    rng = np.random.default_rng(seed)
    q0 = np.stack(
        [
            es.integrate(model, es.neutral(model), rng.uniform(-0.3, 0.3, model.nv))
            for _ in range(runs)
        ]
    )
    return q0, rng.uniform(-0.5, 0.5, (runs, model.nv))


def floating_rk4_twin(mujoco, model, dt, q0, v0, threads):
    """(mj, datas, state0) to time ``mujoco.rollout`` RK4 at step ``dt`` of the twin of a
    floating-base ``model`` (the root a free joint) from eslabon's states (q0, v0), each
    (N, nq) / (N, nv): the compiled twin, one MjData per thread, the N FULLPHYSICS
    states."""
    mj = mujoco_twin(mujoco, model, floating=True)
    mj.opt.timestep, mj.opt.integrator = dt, mujoco.mjtIntegrator.mjINT_RK4
    datas = [mujoco.MjData(mj) for _ in range(threads)]
    full = mujoco.mjtState.mjSTATE_FULLPHYSICS
    state0 = np.zeros((len(q0), mujoco.mj_stateSize(mj, full)))
    for i in range(len(q0)):
        datas[0].qpos[:], datas[0].qvel[:] = twin_state(model, q0[i], v0[i])
        mujoco.mj_getState(mj, datas[0], state0[i], full)
    return mj, datas, state0


def _full_m(mujoco) -> str:
    """The call filling the dense M from MuJoCo's sparse one (its signature changed in 3.3)."""
    if "MjData" in (mujoco.mj_fullM.__doc__ or "").split("->")[0]:
        return "mj_fullM(mj, dm, Mmj)"
    return "mj_fullM(mj, Mmj, dm.qM)"


def per_call_twin(mujoco, model, q, qd, qdd, label, checks, notes):
    """The names and statements that time MuJoCo's ID, M and FD of ``model`` at one state.

    Returns ``(glb, stmts, ok)``: the names the statements use, ``{"ID", "M", "FD": stmt}``
    (empty when there is no twin, with a note) and ``{op: check passed}``. The checks (against
    eslabon on the twin's numbers, relative 1e-9) go to ``checks``.
    """
    try:
        ready = mujoco_ready(model)
        mj = mujoco_twin(mujoco, ready)
    except Exception as exc:  # no twin: a note, the other columns go on
        notes.append(f"{label}: no MuJoCo twin ({exc})")
        return {}, {}, {}
    n = model.nv
    tau = es.inverse_dynamics(ready, q, qd, qdd)
    data = {op: mujoco.MjData(mj) for op in ("ID", "M", "FD")}
    for d in data.values():
        d.qpos[:], d.qvel[:] = q, qd
    data["ID"].qacc[:] = qdd
    data["FD"].qfrc_applied[:] = tau
    glb = {
        "mj": mj,
        "di": data["ID"],
        "dm": data["M"],
        "dfd": data["FD"],
        "Mmj": np.zeros((n, n)),
        **{
            f: getattr(mujoco, f)
            for f in ("mj_inverse", "mj_forward", "mj_kinematics", "mj_comPos", "mj_crb")
        },
        "mj_fullM": mujoco.mj_fullM,
    }
    stmts = {
        "ID": "mj_inverse(mj, di)",
        "M": f"mj_kinematics(mj, dm); mj_comPos(mj, dm); mj_crb(mj, dm); {_full_m(mujoco)}",
        "FD": "mj_forward(mj, dfd)",
    }
    refs = {
        "ID": (lambda: data["ID"].qfrc_inverse, tau),
        "M": (lambda: glb["Mmj"], es.mass_matrix(ready, q)),
        "FD": (lambda: data["FD"].qacc, es.forward_dynamics(ready, q, qd, tau)),
    }
    ok = {}
    for op, stmt in stmts.items():
        exec(stmt, glb)
        got, ours = refs[op]
        c = check(
            f"{label} ({n}) {op}: MuJoCo {stmt.split('(')[0]} vs eslabon",
            np.array(got()),
            ours,
            1e-9,
            relative=True,
            against="mujoco",
        )
        checks.append(c)
        ok[op] = c["ok"]
    return glb, stmts, ok


MUJOCO_NOTE = (
    "MuJoCo: ID = mj_inverse with qacc set, M = mj_kinematics + mj_comPos + mj_crb + "
    "mj_fullM, FD = mj_forward (the whole pipeline; no contacts, limits or damping); its "
    f"twin is the robot loaded from the URDF eslabon writes, each body given ≥ {MIN_MASS:g} kg "
    f"and principal moments ≥ {MIN_MOMENT:g} kg·m² meeting A + B ≥ C (MuJoCo requires it); "
    "fixed bases only"
)
