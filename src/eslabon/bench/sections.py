"""The five measurements of ``eslabon bench``; each returns ``{"rows", "checks", "notes"}``."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

import eslabon as es

from ._core import (
    bench_robot,
    check,
    log,
    random_chain,
    random_states,
    rigid,
    robot_states,
    row,
    time_stmts,
    zoo_model,
)

STATE_SEED = 0  # the fixed per-call state
BATCH_SEED = 7  # the batch of random states
SIM_DT, SIM_T = 1e-3, 1.0


def _sym(H):
    H = np.asarray(H)
    return np.triu(H) + np.triu(H, 1).T


def _pin_model(pc, model, notes, label):
    """(pin model, data) or (None, None) with a note when the model has no Pinocchio twin."""
    if pc is None:
        return None, None
    pin, to_pinocchio, _ = pc
    try:
        pm = to_pinocchio(model)
    except (ValueError, AssertionError) as exc:
        notes.append(f"{label}: no Pinocchio model ({exc})")
        return None, None
    return pm, pm.createData()


def _pair(res, *, scale=1.0):
    """Medians and mins of ours / pin from a time_stmts result, in µs per ``scale``."""
    o, p = res.get("ours"), res.get("pin")
    f = lambda t, k: None if t is None else t[k] * 1e6 / scale
    return {
        "ours": f(o, "median_s"),
        "pin": f(p, "median_s"),
        "ours_min": f(o, "min_s"),
        "pin_min": f(p, "min_s"),
        "ratio_min": (o["min_s"] / p["min_s"]) if o and p else None,
        "stmt_ours": o and o["stmt"],
        "stmt_pin": p and p["stmt"],
    }


def _pin_orders(model):
    """(rates, coordinates) of ``model`` in the order of its Pinocchio twin: the identity
    for a chain, depth-first for a tree (:func:`eslabon.interop.pinocchio.dof_order`)."""
    from ..interop.pinocchio import configuration_order, dof_order

    return dof_order(model), configuration_order(model)


# --- a. per call -----------------------------------------------------------------------
def per_call(robots, pc, s):
    rows, checks, notes = [], [], []
    dID = es.inverse_dynamics_derivatives
    for spec in robots:
        m, label = bench_robot(spec, notes)
        if m is None:
            continue
        n = m.nv
        q, qd, qdd = (np.ascontiguousarray(x) for x in robot_states(m, None, STATE_SEED))
        bound = 0.6 if m.nq != n else 0.8  # a floating base: issue "General joints"
        tau = es.inverse_dynamics(m, q, qd, qdd)
        pm, data = _pin_model(pc, m, notes, label)
        pin = pc[0] if pm is not None else None
        glb = {
            "m": m,
            "q": q,
            "qd": qd,
            "qdd": qdd,
            "tau": tau,
            "pm": pm,
            "data": data,
            "inverse_dynamics": es.inverse_dynamics,
            "mass_matrix": es.mass_matrix,
            "forward_dynamics": es.forward_dynamics,
            "inverse_dynamics_derivatives": dID,
        }
        if pin is not None:
            vo, co = _pin_orders(m)  # a tree's rates in Pinocchio's depth-first order
            glb.update(qp=q[co], qdp=qd[vo], qddp=qdd[vo], taup=tau[vo])
            glb.update(
                rnea=pin.rnea,
                crba=pin.crba,
                aba=pin.aba,
                computeRNEADerivatives=pin.computeRNEADerivatives,
            )
        ops = [
            ("ID", "inverse_dynamics(m, q, qd, qdd)", "rnea(pm, data, qp, qdp, qddp)"),
            ("M", "mass_matrix(m, q)", "crba(pm, data, qp)"),
            ("FD", "forward_dynamics(m, q, qd, tau)", "aba(pm, data, qp, qdp, taup)"),
            (
                "dID/dq,dqd",
                "inverse_dynamics_derivatives(m, q, qd, qdd)",
                "computeRNEADerivatives(pm, data, qp, qdp, qddp)",
            ),
        ]
        for op, ours_stmt, pin_stmt in ops:
            figure = f"{label} ({n}) {op}"
            ok = True
            if op.startswith("dID") and m.nq != n:
                rows.append(row(figure, target="n/a", note="quaternion joints: not yet"))
                continue
            if ours_stmt:
                got = eval(ours_stmt, glb)  # warm-up: compile or load the cache
            if pin is not None:
                ref = eval(pin_stmt, glb)
                if ours_stmt:
                    if op == "M":
                        got = np.asarray(got)[np.ix_(vo, vo)]
                        c = check(f"{figure}: mass_matrix vs crba", got, _sym(ref))
                    elif op.startswith("dID"):
                        c = check(
                            f"{figure}: derivatives vs data.dtau_dq, dtau_dv",
                            np.concatenate([np.asarray(got[0]), np.asarray(got[1])]),
                            np.concatenate([data.dtau_dq, data.dtau_dv]),
                        )
                    else:
                        got = np.asarray(got)[vo]
                        c = check(f"{figure}: vs pin.{pin_stmt.split('(')[0]}", got, ref)
                    checks.append(c)
                    ok = c["ok"]
                    log(
                        f"check {c['what']}: max|diff| {c['max_abs_diff']:.2e} "
                        f"{'ok' if ok else 'FAILED'} (< {c['tol']:g})"
                    )
            else:
                pin_stmt = None
            if not ours_stmt and not pin_stmt:
                rows.append(row(figure, target="≤ 0.8×pin", note="n/a"))
                continue
            log(f"timing {figure}")
            p = _pair(time_stmts({"ours": ours_stmt, "pin": pin_stmt}, glb, s))
            r = row(
                figure,
                p["ours"],
                p["pin"],
                target=f"≤ {bound}×pin",
                on="ratio",
                bound=bound,
                **{k: v for k, v in p.items() if k not in ("ours", "pin")},
            )
            if not ok:
                r["met"], r["note"] = False, "check FAILED"
            rows.append(r)
    return {
        "title": "a. per call, one state (µs per call)",
        "rows": rows,
        "checks": checks,
        "notes": notes,
    }


# --- b. batch --------------------------------------------------------------------------
def batch(robots, pc, s):
    rows, checks, notes = [], [], []
    N, k = s.batch_size, s.threads
    previous = es.get_num_threads()
    for spec in robots:
        m, label = bench_robot(spec, notes)
        if m is None:
            continue
        n = m.nv
        Q, QD, QDD = (np.ascontiguousarray(x) for x in robot_states(m, N, BATCH_SEED))
        bound = 0.3 if m.nq != n else 0.35  # a floating base: issue "General joints"
        es.set_num_threads(k)
        TAU = es.inverse_dynamics(m, Q, QD, QDD)
        es.forward_dynamics(m, Q, QD, TAU)
        pm, _ = _pin_model(pc, m, notes, label)
        pin = pc[0] if pm is not None else None
        glb = {
            "m": m,
            "Q": Q,
            "QD": QD,
            "QDD": QDD,
            "TAU": TAU,
            "k": k,
            "inverse_dynamics": es.inverse_dynamics,
            "forward_dynamics": es.forward_dynamics,
        }
        parallel = pin is not None and hasattr(pin, "rneaInParallel") and hasattr(pin, "ModelPool")
        if pin is not None and not parallel:
            notes.append("this pin has no rneaInParallel/ModelPool (built without OpenMP?)")
        if parallel:
            F = lambda X: np.asfortranarray(X.T)  # pin wants (n, N) column-major
            vo, co = _pin_orders(m)  # a tree's rates in Pinocchio's depth-first order
            glb.update(
                pool=pin.ModelPool(pm, k),
                QT=F(Q[:, co]),
                QDT=F(QD[:, vo]),
                QDDT=F(QDD[:, vo]),
                TAUT=F(TAU[:, vo]),
                OUTT=np.empty((n, N), order="F"),  # nv rows
                rneaInParallel=pin.rneaInParallel,
                abaInParallel=pin.abaInParallel,
            )
        ops = [
            (
                "ID",
                "inverse_dynamics(m, Q, QD, QDD)",
                "rneaInParallel(k, pool, QT, QDT, QDDT, OUTT)",
                TAU,
            ),
            (
                "FD",
                "forward_dynamics(m, Q, QD, TAU)",
                "abaInParallel(k, pool, QT, QDT, TAUT, OUTT)",
                QDD,
            ),
        ]
        for op, ours_stmt, pin_stmt, _ in ops:
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
                log(
                    f"check {c['what']}: max|diff|/max(1,|ref|) {c['max_abs_diff']:.2e} "
                    f"{'ok' if ok else 'FAILED'} (< {c['tol']:g})"
                )
            log(f"timing {figure}")
            res = time_stmts(
                {"ours": ours_stmt, "pin": pin_stmt if parallel else None},
                glb,
                s,
                number=1,
                repeats=s.batch_runs,
            )
            p = _pair(res, scale=N)
            r = row(
                figure,
                p["ours"],
                p["pin"],
                unit="µs/state",
                target=f"≤ {bound}×pin",
                on="ratio",
                bound=bound,
                threads=k,
                batch=N,
                **{k2: v for k2, v in p.items() if k2 not in ("ours", "pin")},
            )
            if not ok:
                r["met"], r["note"] = False, "check FAILED"
            rows.append(r)
    es.set_num_threads(previous)
    return {
        "title": f"b. batch of {N:,} random states, {k} threads (µs per state; median "
        f"of {s.batch_runs})",
        "rows": rows,
        "checks": checks,
        "notes": notes,
    }


# --- c. scaling ------------------------------------------------------------------------
def _slope(ns, ts):
    pts = [(n, t) for n, t in zip(ns, ts) if t is not None]
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
    pm, data = _pin_model(pc, m, notes, f"chain {n}")
    pin = pc[0] if pm is not None else None
    local = {"m": m, "q": q, "qd": qd, "qdd": qdd, "tau": tau, "pm": pm, "data": data}
    glb.update({f"{k}{n}": v for k, v in local.items()})
    stmts = {}
    for op, ours_stmt, pin_stmt in ops:
        ok = True
        if pin is not None:
            got, ref = eval(ours_stmt, glb, local), eval(pin_stmt, glb, local)
            c = check(f"chain {n} {op} vs pin", got, _sym(ref) if op == "M" else ref, relative=True)
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
        p = _pair({"ours": res.get(f"ours {op} {n}"), "pin": res.get(f"pin {op} {n}")})
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
        _slope(*zip(*[t[:2] for t in pts])),
        _slope(*zip(*[t[::2] for t in pts])),
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
def simulation(robot, pc, s):
    model, label, why = zoo_model(robot)
    notes = [why] if why else []
    figure = f"simulate {label} rk4, {SIM_T:g} s @ dt {SIM_DT * 1e3:g} ms"
    n = model.nq
    q0 = np.linspace(0.5, -0.3, n)
    run = lambda: es.simulate(model, SIM_T, SIM_DT, q0=q0, method="rk4")
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
    return {"title": "d. simulation (ms wall, best)", "rows": [r], "checks": [], "notes": notes}


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
            target="≤ 1.5 s",
            on="ours",
            bound=1.5,
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
    return {"title": title, "rows": rows, "checks": [], "notes": notes}
