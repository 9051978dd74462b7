"""Section f of ``eslabon bench``: batch rollouts, ``eslabon.rollout`` against ``mujoco.rollout``.

N arms start from random states (seeded) and run with zero torque for a set time at
1 kHz, by RK4 and by semi-implicit Euler, on the benchmark's threads: eslabon's batch in
one compiled call, MuJoCo's with a pool of as many threads on its twin of the same robot
(:mod:`.mujoco_twin`: the URDF eslabon writes, with its integrator set to RK4 or Euler,
MuJoCo's Euler being semi-implicit, and the same step). Both run the twin's numbers.
"Same accuracy" is checked by the largest difference of the final positions between the
two engines: both integrate the same equations with the same step.
"""

from __future__ import annotations

from contextlib import ExitStack

import numpy as np

import eslabon as es

from ._core import check, details, failed, log, pair, rigid, row, time_stmts, zoo_model
from .mujoco_twin import (
    MIN_MASS,
    MIN_MOMENT,
    floating_rk4_twin,
    floating_starts,
    mujoco_ready,
    mujoco_twin,
    twin_state,
)

ROLLOUT_ROBOTS = ("puma560", "panda")
ROLLOUT_SEED = 0
ROLLOUT_DT = 1e-3
# (method, label, target ratio to MuJoCo, MuJoCo's integrator)
METHODS = (("rk4", "RK4", 0.3, "mjINT_RK4"), ("euler", "semi-implicit Euler", 1.0, "mjINT_EULER"))
Q_TOL = 1e-6  # rad: the largest |q_eslabon - q_mujoco| at the end accepted as the same run
FLOATING_ROBOT = "erd:solo12"  # a floating base: RK4 on charts, one run per thread at a time
FLOATING_SHARE = 10  # it runs rollout_arms / FLOATING_SHARE runs (each costs 3× an arm's)


def initial_states(n: int, arms: int, seed: int = ROLLOUT_SEED):
    """(q0, q̇0), each (arms, n): q0 ~ U(-1, 1) rad, q̇0 ~ U(-0.5, 0.5) rad/s."""
    rng = np.random.default_rng(seed)
    return rng.uniform(-1.0, 1.0, (arms, n)), rng.uniform(-0.5, 0.5, (arms, n))


def _mujoco_batch(mujoco, mj, integrator, q0, v0, threads):
    """Names for timing ``mujoco.rollout`` of the twin from (q0, v0), but the pool."""
    mj.opt.timestep = ROLLOUT_DT
    mj.opt.integrator = getattr(mujoco.mjtIntegrator, integrator)
    datas = [mujoco.MjData(mj) for _ in range(threads)]
    spec = mujoco.mjtState.mjSTATE_FULLPHYSICS
    state0 = np.zeros((len(q0), mujoco.mj_stateSize(mj, spec)))
    d = datas[0]
    for i in range(len(q0)):
        d.qpos[:], d.qvel[:], d.time = q0[i], v0[i], 0.0
        mujoco.mj_getState(mj, d, state0[i], spec)
    return {"mj": mj, "datas": datas, "state0": state0}


def _method(model, name, method, mujoco, mj, s, checks):
    """One row: ``method`` on ``model`` by both engines, checked then timed."""
    _, method_label, bound, integrator = next(x for x in METHODS if x[0] == method)
    n, N, T, k = model.nv, s.rollout_arms, s.rollout_seconds, s.threads
    figure = f"{name} ({n}) {method_label}, {N:,} arms × {T:g} s"
    q0, v0 = initial_states(n, N)
    glb = {"rollout": es.rollout, "model": model, "q0": q0, "v0": v0, "T": T}
    glb.update(dt=ROLLOUT_DT, method=method, steps=int(round(T / ROLLOUT_DT)))
    ours_stmt = "rollout(model, q0, v0, T, dt, integrator=method)"
    es.rollout(model, q0[:8], v0[:8], 10 * ROLLOUT_DT, ROLLOUT_DT, integrator=method)  # compile
    ours = eval(ours_stmt, glb)
    mj_stmt, ok, extra = None, True, {}
    with ExitStack() as stack:
        if mj is not None:
            from mujoco import rollout as mj_rollout

            glb.update(_mujoco_batch(mujoco, mj, integrator, q0, v0, k))
            glb["pool"] = stack.enter_context(mj_rollout.Rollout(nthread=k))
            mj_stmt = "pool.rollout(mj, datas, state0, nstep=steps)"
            states, _ = eval(mj_stmt, glb)
            c = check(
                f"{figure}: q at {T:g} s vs mujoco.rollout (rad)",
                ours.q[:, -1],
                states[:, -1, 1 : 1 + n],  # time, then qpos
                Q_TOL,
                against="mujoco",
            )
            checks.append(c)
            ok = c["ok"]
            extra["max_abs_q_diff_rad"] = c["max_abs_diff"]
        log(f"timing {figure}")
        stmts = {"ours": ours_stmt, "mujoco": mj_stmt}
        res = time_stmts(stmts, glb, s, number=1, repeats=s.rollout_runs)
    p = pair(res, scale=1e3)  # ms per batch
    r = row(
        figure,
        p["ours"],
        None,
        mujoco=p.get("mujoco"),
        unit="ms",
        target=f"≤ {bound}×mujoco",
        on="ratio_mujoco",
        bound=bound,
        no_pin=True,
        method=method,
        arms=N,
        seconds=T,
        dt=ROLLOUT_DT,
        threads=k,
        **extra,
        **details(p, "ours", "pin", "mujoco", "pin_min", "ratio_min", "stmt_pin"),
    )
    return failed(r, ok)


def _floating(mujoco, s, checks, notes):
    """One row: RK4 rollouts of a floating base (:data:`FLOATING_ROBOT`) by both engines
    from random states near the neutral one, checked then timed."""
    model, label, why = zoo_model(FLOATING_ROBOT)
    N, T, k = max(2, s.rollout_arms // FLOATING_SHARE), s.rollout_seconds, s.threads
    figure = f"{label} (floating base, {model.nv if model else '?'}) RK4, {N:,} runs × {T:g} s"
    if model is None:
        notes.append(why)
        return row(figure, None, unit="ms", target="≤ 0.3×mujoco", on="ratio_mujoco",
                   bound=0.3, no_pin=True, mujoco=None)  # fmt: skip
    model = mujoco_ready(rigid(model))
    q0, v0 = floating_starts(model, N, ROLLOUT_SEED)
    glb = {"rollout": es.rollout, "model": model, "q0": q0, "v0": v0, "T": T}
    glb.update(dt=ROLLOUT_DT, steps=int(round(T / ROLLOUT_DT)))
    ours_stmt = "rollout(model, q0, v0, T, dt)"
    ours = eval(ours_stmt, glb)
    mj_stmt, ok = None, True
    with ExitStack() as stack:
        if mujoco is not None:
            from mujoco import rollout as mj_rollout

            mj, datas, state0 = floating_rk4_twin(mujoco, model, ROLLOUT_DT, q0, v0, k)
            glb.update(mj=mj, datas=datas, state0=state0)
            glb["pool"] = stack.enter_context(mj_rollout.Rollout(nthread=k))
            mj_stmt = "pool.rollout(mj, datas, state0, nstep=steps)"
            states, _ = eval(mj_stmt, glb)
            last = np.stack([twin_state(model, ours.q[i, -1], ours.qd[i, -1])[0] for i in range(N)])
            c = check(f"{figure}: q at {T:g} s vs mujoco.rollout", last,
                      states[:, -1, 1 : 1 + mj.nq], Q_TOL, against="mujoco")  # fmt: skip
            checks.append(c)
            ok = c["ok"]
        log(f"timing {figure}")
        res = time_stmts({"ours": ours_stmt, "mujoco": mj_stmt}, glb, s, number=1,
                         repeats=s.rollout_runs)  # fmt: skip
    p = pair(res, scale=1e3)
    notes.append(
        f"{label}: zero torque from q0 = neutral ⊕ U(-0.3, 0.3), q̇0 ~ U(-0.5, 0.5) (seed "
        f"{ROLLOUT_SEED}); RK4 on charts against mujoco.rollout's RK4 on its twin (the root "
        "a free joint)"
    )
    r = row(figure, p["ours"], None, mujoco=p.get("mujoco"), unit="ms", target="≤ 0.3×mujoco",
            on="ratio_mujoco", bound=0.3, no_pin=True, arms=N, seconds=T, dt=ROLLOUT_DT,
            threads=k)  # fmt: skip
    return failed(r, ok)


def rollout(robots, s, mujoco=None, mujoco_note=None):
    """Section f: ``{"title", "rows", "checks", "notes"}``; ``mujoco`` is the module or None
    (then ``mujoco_note`` says why and only eslabon is timed)."""
    rows, checks, notes = [], [], []
    previous = es.get_num_threads()
    try:
        es.set_num_threads(s.threads)
        for name in robots:
            model = mujoco_ready(rigid(es.zoo.load(name)))
            mj = None
            if mujoco is not None:
                try:
                    mj = mujoco_twin(mujoco, model)
                except Exception as exc:  # no twin: a note, eslabon's column goes on
                    notes.append(f"{name}: no MuJoCo twin ({exc})")
            for method, *_ in METHODS:
                rows.append(_method(model, name, method, mujoco, mj, s, checks))
        rows.append(_floating(mujoco, s, checks, notes))
    finally:
        es.set_num_threads(previous)
    if mujoco_note:
        notes.append(mujoco_note)
    notes.append(
        f"zero torque from q0 ~ U(-1, 1) rad, q̇0 ~ U(-0.5, 0.5) rad/s (seed {ROLLOUT_SEED}); "
        f"both engines on the twin (each body ≥ {MIN_MASS:g} kg, principal moments ≥ "
        f"{MIN_MOMENT:g} kg·m² meeting A + B ≥ C; no friction, contacts or limits); "
        f"mujoco.rollout with a pool of {s.threads} threads and FULLPHYSICS states; the check "
        f"is the largest |q_eslabon − q_mujoco| at the end (< {Q_TOL:g} rad)"
    )
    return {
        "title": f"f. batch rollouts at {1 / ROLLOUT_DT:g} Hz, {s.threads} threads (ms per "
        f"batch; median of {s.rollout_runs}; ratio to mujoco = ours / MuJoCo)",
        "rows": rows,
        "checks": checks,
        "notes": notes,
    }
