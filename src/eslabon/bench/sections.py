"""Sections c–e of ``eslabon bench`` (scaling, simulation, start-up); each returns
``{"title", "rows", "checks", "notes"}``. Sections a, b and f have modules of their own."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack

import numpy as np

import eslabon as es

from ._core import (
    STATE_SEED,
    check,
    failed,
    log,
    pair,
    pin_twin,
    random_chain,
    random_states,
    rigid,
    row,
    sym,
    time_stmts,
    zoo_model,
)
from .mujoco_twin import floating_rk4_twin, floating_starts, mujoco_ready, twin_state

SIM_DT, SIM_T = 1e-3, 1.0
FLOATING_SIM_ROBOT, FLOATING_SIM_SEED = "erd:solo12", 0


# --- c. scaling ------------------------------------------------------------------------
def _slope(ns, ts):
    pts = [(n, t) for n, t in zip(ns, ts, strict=True) if t is not None]
    if len(pts) < 2:
        return None
    x, y = np.log([p[0] for p in pts]), np.log([p[1] for p in pts])
    return float(np.polyfit(x, y, 1)[0])


_SCALING_OPS = [
    ("ID", "inverse_dynamics(m, q, qd, qdd)", "rnea(pm, data, q, qd, qdd)"),
    ("FD", "forward_dynamics(m, q, qd, tau)", "aba(pm, data, q, qd, tau)"),
    ("M", "mass_matrix(m, q)", "crba(pm, data, q)"),
]


def _setup_chain(n, ops, pc, glb, checks, notes, sources):
    """Put the seeded random chain of n links (and its Pinocchio twin) into ``glb`` under
    names suffixed with n, check ``ops`` against Pinocchio; the statements to time."""
    model, source = random_chain(n, seed=0)
    sources.add(source)
    m = rigid(model)
    q, qd, qdd = (np.ascontiguousarray(x) for x in random_states(m.nq, None, STATE_SEED))
    tau = es.inverse_dynamics(m, q, qd, qdd)
    pm, data = pin_twin(pc, m, notes, f"chain {n}")
    pin = pc[0] if pm is not None else None
    local = {"m": m, "q": q, "qd": qd, "qdd": qdd, "tau": tau, "pm": pm, "data": data}
    glb.update({f"{k}{n}": v for k, v in local.items()})
    stmts = {}
    for op, ours_stmt, pin_stmt in ops:
        ok = True
        if pin is not None:
            got, ref = eval(ours_stmt, glb, local), eval(pin_stmt, glb, local)
            c = check(
                f"chain {n} {op} vs pin",
                got,
                sym(ref) if op == "M" else ref,
                relative=True,
                quiet=True,
            )
            checks.append(c)
            ok = c["ok"]
            if not ok:
                log(f"check {c['what']}: {c['max_abs_diff']:.2e} FAILED")
        suffix = lambda st: re.sub(r"\b(m|q|qd|qdd|tau|pm|data)\b", rf"\g<1>{n}", st)
        stmts[(op, n)] = (suffix(ours_stmt), suffix(pin_stmt) if pin else None, ok)
    return stmts


def _time_chains(sizes, ops, pc, s, rows, checks, notes, times, sources, tag=""):
    """Time ``ops`` on random chains of every size, all statements interleaved repeat by
    repeat (a slow phase of the shared machine then touches every size alike)."""
    glb = {
        "inverse_dynamics": es.inverse_dynamics,
        "mass_matrix": es.mass_matrix,
        "forward_dynamics": es.forward_dynamics,
    }
    if pc is not None:
        glb.update(rnea=pc[0].rnea, crba=pc[0].crba, aba=pc[0].aba)
    stmts = {}
    for n in sizes:
        stmts.update(_setup_chain(n, ops, pc, glb, checks, notes, sources))
    log(f"timing {len(stmts)} chain statements{tag}, interleaved")
    flat = {}
    for (op, n), (ours_stmt, pin_stmt, _) in stmts.items():
        flat[f"ours {op} {n}"] = ours_stmt
        flat[f"pin {op} {n}"] = pin_stmt
    res = time_stmts(flat, glb, s)
    for (op, n), (_, _, ok) in stmts.items():
        p = pair({"ours": res.get(f"ours {op} {n}"), "pin": res.get(f"pin {op} {n}")})
        times.setdefault(op + tag, []).append((n, p["ours"], p["pin"]))
        r = row(
            f"{op} n={n}{tag}",
            p["ours"],
            p["pin"],
            n=n,
            op=op,
            **{k: v for k, v in p.items() if k not in ("ours", "pin")},
        )
        if not ok:
            r["met"], r["note"] = False, "check FAILED"
        rows.append(r)


def _slope_row(label, pts, target, judged, kw):
    r = row(
        label,
        _slope(*zip(*[t[:2] for t in pts], strict=True)),
        _slope(*zip(*[t[::2] for t in pts], strict=True)),
        unit="slope",
        target=target if judged else "(overhead-flattened)",
        on="ours" if judged else None,
        **kw,
    )
    r["ratio"] = None  # a ratio of slopes means nothing
    return r


def scaling(sizes, pc, s, large_from=24, m_sizes=()):
    """Per-call time on random chains of ``sizes`` links and the log-log slopes; with
    ``m_sizes`` also the mass matrix alone on longer chains, where its O(n²) pair term
    outweighs the O(n) part (up to n ≈ 100 the O(n) part still dominates)."""
    rows, checks, notes, times = [], [], [], {}
    sources = set()
    _time_chains(sizes, _SCALING_OPS, pc, s, rows, checks, notes, times, sources)
    m_kw = {"op": "~", "bound": 2.0, "tol": 0.3}
    for op, (target, kw) in {
        "ID": ("≤ 1.1", {"bound": 1.1}),
        "FD": ("≤ 1.1", {"bound": 1.1}),
        "M": ("≈ 2 (±0.3)", m_kw),
    }.items():
        pts = times.get(op, [])
        for lo in (min(sizes), large_from):
            sel = [t for t in pts if t[0] >= lo]
            if len(sel) < 2 or (lo == large_from and len(sel) == len(pts)):
                continue
            judged = lo == large_from or min(sizes) >= large_from
            rows.append(
                _slope_row(f"{op} slope n={sel[0][0]}–{sel[-1][0]}", sel, target, judged, kw)
            )
    if len(m_sizes) >= 2:
        _time_chains(
            m_sizes, _SCALING_OPS[2:], pc, s, rows, checks, notes, times, sources, tag=" (long)"
        )
        pts = times["M (long)"]
        rows.append(
            _slope_row(
                f"M slope n={pts[0][0]}–{pts[-1][0]} (long chains)", pts, "≈ 2 (±0.3)", True, m_kw
            )
        )
    notes.append("chains: " + "; ".join(sorted(sources)))
    notes.append(
        f"slopes: numpy polyfit of log t on log n; 'met' is judged on n ≥ {large_from} "
        "(per-call overhead flattens the slope at small n); every size and both "
        "libraries are timed interleaved, repeat by repeat"
    )
    return {
        "title": "c. scaling with chain length (µs per call; log-log slope)",
        "rows": rows,
        "checks": checks,
        "notes": notes,
    }


# --- d. simulation ---------------------------------------------------------------------
def simulation(robot, pc, s, mj=None, mj_note=None):
    model, label, why = zoo_model(robot)
    notes = [why] if why else []
    figure = f"simulate {label} rk4, {SIM_T:g} s @ dt {SIM_DT * 1e3:g} ms"
    n = model.nq
    q0 = np.linspace(0.5, -0.3, n)
    run = lambda: es.simulate(model, q0, None, SIM_T, SIM_DT, integrator="rk4")
    run()  # warm-up
    walls = []
    for _ in range(s.sim_runs):
        t0 = time.perf_counter()
        run()
        walls.append(time.perf_counter() - t0)
    notes.append(
        f"zero torque from q0 = {np.round(q0, 3).tolist()}; model as in the zoo "
        f"(friction kept); best of {s.sim_runs} after a warm-up"
    )
    r = row(
        figure,
        min(walls) * 1e3,
        unit="ms",
        target="≤ 10 ms",
        on="ours",
        bound=10.0,
        no_pin=True,
        median_ms=float(np.median(walls)) * 1e3,
        runs_ms=[w * 1e3 for w in walls],
    )
    rows, checks = [r], []
    if mj is not None or mj_note:
        rows.append(_floating_simulation(FLOATING_SIM_ROBOT, mj, s, checks, notes))
    if mj_note:
        notes.append(mj_note)
    return {"title": "d. simulation (ms wall)", "rows": rows, "checks": checks, "notes": notes}


def _floating_simulation(robot, mujoco, s, checks, notes):
    """One row: ``simulate`` of a floating base against ``mujoco.rollout`` (1 thread, RK4)
    on its twin, from one state, checked by the largest difference of the last state."""
    model, label, why = zoo_model(robot)
    figure = f"simulate {label} rk4 (floating base), {SIM_T:g} s @ dt {SIM_DT * 1e3:g} ms"
    if model is None:
        notes.append(why)
        return row(figure, None, unit="ms", target="≤ 0.3×mujoco", on="ratio_mujoco",
                   bound=0.3, no_pin=True, mujoco=None)  # fmt: skip
    model = mujoco_ready(rigid(model))
    (q0,), (v0,) = floating_starts(model, 1, FLOATING_SIM_SEED)
    steps = int(round(SIM_T / SIM_DT))
    glb = {"simulate": es.simulate, "model": model, "q0": q0, "v0": v0, "T": SIM_T, "dt": SIM_DT}
    ours_stmt = "simulate(model, q0, v0, T, dt)"
    ours = eval(ours_stmt, glb)
    mj_stmt, ok = None, True
    with ExitStack() as stack:
        if mujoco is not None:
            from mujoco import rollout as mj_rollout

            mj, datas, state0 = floating_rk4_twin(mujoco, model, SIM_DT, q0[None], v0[None], 1)
            glb.update(mj=mj, datas=datas, state0=state0, steps=steps)
            glb["pool"] = stack.enter_context(mj_rollout.Rollout(nthread=1))
            mj_stmt = "pool.rollout(mj, datas, state0, nstep=steps)"
            states, _ = eval(mj_stmt, glb)
            qpos, _ = twin_state(model, ours.q[-1], ours.qd[-1])
            c = check(
                f"{figure}: q at {SIM_T:g} s vs mujoco.rollout",
                qpos,
                states[0, -1, 1 : 1 + mj.nq],  # time, then qpos
                1e-6,
                against="mujoco",
            )
            checks.append(c)
            ok = c["ok"]
        res = time_stmts({"ours": ours_stmt, "mujoco": mj_stmt}, glb, s, number=1,
                         repeats=s.sim_runs)  # fmt: skip
    p = pair(res, scale=1e3)
    notes.append(
        f"{label}: zero torque from a random state (seed {FLOATING_SIM_SEED}), no friction; "
        "mujoco.rollout on 1 thread, RK4, on its twin (the URDF eslabon writes, the root a "
        "free joint); median of the interleaved runs"
    )
    r = row(figure, p["ours"], None, mujoco=p.get("mujoco"), unit="ms",
            target="≤ 0.3×mujoco", on="ratio_mujoco", bound=0.3, no_pin=True)  # fmt: skip
    return failed(r, ok)


# --- e. start-up -----------------------------------------------------------------------
_STARTUP = """
import json, sys, time
t0 = time.perf_counter()
import eslabon
t1 = time.perf_counter()
m = eslabon.zoo.load(sys.argv[1])
t2 = time.perf_counter()
import numpy as np
q = np.linspace(-1.0, 1.0, m.nq)
eslabon.inverse_dynamics(m, q, q, q)
t3 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "load_s": t2 - t1, "first_id_s": t3 - t2,
                  "total_s": t3 - t0}))
"""
_PIN_IMPORT = (
    "import json, time; t0 = time.perf_counter(); import pinocchio; "
    "print(json.dumps({'import_s': time.perf_counter() - t0}))"
)


def _subprocess(code, args=(), env=None):
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", **(env or {})}
    t0 = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=900
    )
    wall = time.perf_counter() - t0
    if out.returncode:
        raise RuntimeError(f"start-up subprocess failed: {out.stderr.strip()[-300:]}")
    res = json.loads(out.stdout.strip().splitlines()[-1])
    res["process_s"] = wall
    return res


def startup(robot, pc, s):
    model, label, why = zoo_model(robot)
    notes = [why] if why else []
    name = None
    if isinstance(robot, str):
        name = robot
    title = "e. start-up (s, fresh interpreter)"
    if name is None:
        why = why or "start-up needs a zoo model name"
        return {
            "title": title,
            "rows": [row("import + first ID", unit="s", note=why, no_pin=True)],
            "checks": [],
            "notes": notes,
        }
    log("start-up: warm (twice, the second kept)")
    _subprocess(_STARTUP, [name])
    warm = _subprocess(_STARTUP, [name])
    pin_imp = None
    if pc is not None:
        _subprocess(_PIN_IMPORT)
        pin_imp = _subprocess(_PIN_IMPORT)["import_s"]
    rows = [
        row(
            "import eslabon (warm)",
            warm["import_s"],
            pin_imp,
            unit="s",
            note="pin column: import pinocchio" if pin_imp else None,
        ),
        row(
            f"import + load {name} + first ID (warm cache)",
            warm["total_s"],
            unit="s",
            target="≤ 0.2 s",
            on="ours",
            bound=0.2,
            detail=warm,
            no_pin=True,
        ),
    ]
    if s.cold_start:
        log("start-up: cold (empty NUMBA_CACHE_DIR; compiles)")
        with tempfile.TemporaryDirectory(prefix="eslabon-bench-numba-") as tmp:
            cold = _subprocess(_STARTUP, [name], env={"NUMBA_CACHE_DIR": tmp})
        rows.append(
            row(
                f"import + load {name} + first ID (cold, no cache)",
                cold["total_s"],
                unit="s",
                target="(report)",
                detail=cold,
                no_pin=True,
            )
        )
    else:
        rows.append(
            row(
                f"import + load {name} + first ID (cold, no cache)",
                unit="s",
                note="skipped (--quick)",
                no_pin=True,
            )
        )
    notes.append(
        "timed inside the subprocess (interpreter start excluded; 'detail' in the "
        "JSON has the split and the whole process wall time)"
    )
    from .mjcf_load import mjcf_load_row

    rows.append(mjcf_load_row(s))
    return {"title": title, "rows": rows, "checks": [], "notes": notes}
