#!/usr/bin/env python
"""Time eslabon's dynamics against Pinocchio, side by side in one run (DESIGN §9).

Functions: ``inverse_dynamics`` (vs ``pin.rnea``), ``mass_matrix`` (vs ``pin.crba``) and
``forward_dynamics`` (vs ``pin.aba``), on

* a 6-DOF arm: zoo ``puma560_araujo`` (modified DH, friction-free already), and
* a 7-DOF arm: a Franka-Panda-like model built here with ``es.from_dh`` (modified DH with
  the Panda's kinematics; the masses, COMs and inertias are APPROXIMATE, plausible values
  chosen for this benchmark, not identified parameters of the real robot).

Modes: one state per call (µs per call), and a batch of 10,000 states per call
(µs per state) with 1 and 2 threads (``es.set_num_threads``). Pinocchio's batch
counterparts are ``pin.rneaInParallel`` / ``pin.abaInParallel`` with a ``ModelPool``
(same thread counts); there is no parallel CRBA in Pinocchio's Python API, so the
``mass_matrix`` batch is compared with a Python loop of ``pin.crba`` (marked "loop"; that
ratio mostly measures Python call overhead, read it as such). The ratio column is
eslabon / Pinocchio: below 1 means eslabon is faster.

Method: ``timeit.Timer.autorange`` picks the number of calls per run (>= 0.2 s), then the
median of 7 runs is reported. Inputs are preallocated C-contiguous float64 arrays
(Pinocchio's batch inputs are the same numbers, preallocated column-major (n, N) as its
API expects). Every function is called once before timing (Numba compiles or loads its
cache), and its output is checked against Pinocchio (relative error < 1e-8) before any
timing; a mismatch aborts the run. Without Pinocchio only eslabon is timed.

Usage: ``python benchmarks/bench_dynamics.py [--json] [--batch N]``.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
import timeit
from pathlib import Path

import numba
import numpy as np

import eslabon as es

sys.path.insert(0, str(Path(__file__).resolve().parent))
try:
    import pinocchio as pin

    from pinocchio_model import dof_order, to_pinocchio
except ImportError:
    pin = None

REPEATS = 7
TOL = 1e-8
SEED = 20240607


# --- models ----------------------------------------------------------------------------
def panda_like():
    """A 7-DOF Franka-Panda-like arm, modified (Craig) DH.

    Kinematics are the Panda's published modified-DH values (a, d, α below, θ offsets 0;
    the flange offset d = 0.107 m is left out). Masses (kg), COMs (m, in each link's DH
    frame) and diagonal inertias about the COM (kg·m²) are APPROXIMATE: rounded, plausible
    magnitudes for a ~18 kg 7-DOF arm, chosen only so the benchmark has realistic
    structure. Do not use them for control.
    """
    a = [0.0, 0.0, 0.0, 0.0825, -0.0825, 0.0, 0.088]
    d = [0.333, 0.0, 0.316, 0.0, 0.384, 0.0, 0.0]
    alpha = [0.0, -np.pi / 2, np.pi / 2, np.pi / 2, -np.pi / 2, np.pi / 2, np.pi / 2]
    mass = [4.0, 4.0, 3.0, 3.0, 2.5, 1.5, 0.6]
    com = [(0.0, -0.03, -0.07), (0.0, -0.07, 0.03), (0.04, 0.03, -0.07),
           (-0.05, 0.05, 0.03), (0.0, 0.04, -0.11), (0.05, -0.01, 0.0), (0.0, 0.0, 0.08)]
    inertia = [(0.030, 0.030, 0.008), (0.030, 0.008, 0.030), (0.020, 0.020, 0.008),
               (0.020, 0.020, 0.008), (0.030, 0.025, 0.008), (0.004, 0.006, 0.006),
               (0.002, 0.002, 0.002)]
    rows = [{"joint": "R", "alpha": alpha[i], "a": a[i], "theta": 0.0, "d": d[i],
             "mass": mass[i], "com": com[i], "inertia": np.diag(inertia[i]),
             "name": f"link{i + 1}"} for i in range(7)]
    return es.from_dh(rows, "modified", gravity=(0.0, 0.0, -9.81), name="panda_like",
                      source="benchmarks/bench_dynamics.py (approximate inertial data)")


def models():
    puma = es.zoo.load("puma560_araujo")
    panda = panda_like()
    out = []
    for m in (puma, panda):
        out.append(m.replace(viscous=np.zeros(m.nq), coulomb=np.zeros(m.nq)))
    return out


# --- helpers ---------------------------------------------------------------------------
def log(*args):
    print(*args, file=sys.stderr, flush=True)


def seconds_per_call(fn) -> float:
    """Median over REPEATS runs of the time of one call, autoranged to >= 0.2 s per run."""
    timer = timeit.Timer(fn)
    number, _ = timer.autorange()
    return statistics.median(timer.repeat(REPEATS, number)) / number


def check(name, got, ref):
    scale = max(1.0, float(np.max(np.abs(ref))))
    err = float(np.max(np.abs(np.asarray(got) - ref))) / scale
    if not err < TOL:
        raise SystemExit(f"MISMATCH {name}: relative error {err:.3e} >= {TOL} "
                         f"(eslabon and Pinocchio disagree; not timing)")
    return err


def symmetric(H):
    return np.triu(H) + np.triu(H, 1).T


def thread_counts():
    return [k for k in (1, 2) if k <= numba.config.NUMBA_NUM_THREADS]


# --- one model -------------------------------------------------------------------------
def bench_model(model, n_batch: int):
    rng = np.random.default_rng(SEED)
    n = model.nq
    q = rng.uniform(-np.pi, np.pi, (n_batch, n))
    qd = rng.normal(0.0, 1.0, (n_batch, n))
    qdd = rng.normal(0.0, 2.0, (n_batch, n))
    tau = es.inverse_dynamics(model, q, qd, qdd)          # realistic torques for FD
    q1, qd1, qdd1, tau1 = (np.ascontiguousarray(x[0]) for x in (q, qd, qdd, tau))
    threads = thread_counts()
    rows = []
    label = f"{model.name} ({n}-DOF)"

    def row(function, mode, es_s, pin_s=None, pin_api=None, scale=1.0):
        r = {"model": model.name, "nq": n, "function": function, "mode": mode,
             "eslabon_us": es_s * 1e6 / scale,
             "pin_us": None if pin_s is None else pin_s * 1e6 / scale,
             "pin_api": pin_api,
             "ratio": None if pin_s is None else es_s / pin_s}
        rows.append(r)

    # warm-up: compile (or load the Numba cache) every path that will be timed
    for k in threads:
        es.set_num_threads(k)
        es.inverse_dynamics(model, q, qd, qdd)
        es.mass_matrix(model, q)
        es.forward_dynamics(model, q, qd, tau)
    es.set_num_threads(threads[0])
    es.inverse_dynamics(model, q1, qd1, qdd1)
    es.mass_matrix(model, q1)
    es.forward_dynamics(model, q1, qd1, tau1)

    have_pin = pin is not None
    if have_pin:
        pm = to_pinocchio(model)
        if not np.array_equal(dof_order(model), np.arange(n)):
            raise SystemExit(f"{model.name}: not a chain; the benchmark expects one")
        data = pm.createData()
        # --- verify single state
        check("inverse_dynamics/rnea single", es.inverse_dynamics(model, q1, qd1, qdd1),
              pin.rnea(pm, data, q1, qd1, qdd1))
        check("mass_matrix/crba single", es.mass_matrix(model, q1),
              symmetric(pin.crba(pm, data, q1)))
        check("forward_dynamics/aba single", es.forward_dynamics(model, q1, qd1, tau1),
              pin.aba(pm, data, q1, qd1, tau1))
        # --- batch inputs for Pinocchio: (n, N) column-major, same numbers
        qT, qdT, qddT, tauT = (np.asfortranarray(x.T) for x in (q, qd, qdd, tau))
        tau_outT = np.asfortranarray(np.empty((n, n_batch)))
        acc_outT = np.asfortranarray(np.empty((n, n_batch)))
        pool = pin.ModelPool(pm, max(threads))
        has_parallel = hasattr(pin, "rneaInParallel") and hasattr(pin, "abaInParallel")
        M_loop = np.array([symmetric(pin.crba(pm, data, q[i])) for i in range(n_batch)])
        for k in threads:
            es.set_num_threads(k)
            check(f"mass_matrix batch {k}T vs pin.crba loop", es.mass_matrix(model, q), M_loop)
            tau_es = es.inverse_dynamics(model, q, qd, qdd)
            acc_es = es.forward_dynamics(model, q, qd, tau)
            if has_parallel:
                pin.rneaInParallel(k, pool, qT, qdT, qddT, tau_outT)
                pin.abaInParallel(k, pool, qT, qdT, tauT, acc_outT)
                check(f"inverse_dynamics batch {k}T vs rneaInParallel", tau_es, tau_outT.T)
                check(f"forward_dynamics batch {k}T vs abaInParallel", acc_es, acc_outT.T)
            else:
                check(f"forward_dynamics batch {k}T vs qdd", acc_es, qdd)
        del M_loop
        log(f"{label}: outputs agree with Pinocchio (< {TOL:g} relative)")

    # --- single state
    es.set_num_threads(threads[0])
    log(f"{label}: timing single-state calls")
    specs = [
        ("inverse_dynamics", lambda: es.inverse_dynamics(model, q1, qd1, qdd1),
         (lambda: pin.rnea(pm, data, q1, qd1, qdd1)) if have_pin else None, "pin.rnea"),
        ("mass_matrix", lambda: es.mass_matrix(model, q1),
         (lambda: pin.crba(pm, data, q1)) if have_pin else None, "pin.crba"),
        ("forward_dynamics", lambda: es.forward_dynamics(model, q1, qd1, tau1),
         (lambda: pin.aba(pm, data, q1, qd1, tau1)) if have_pin else None, "pin.aba"),
    ]
    for function, es_fn, pin_fn, api in specs:
        es_s = seconds_per_call(es_fn)
        pin_s = seconds_per_call(pin_fn) if pin_fn else None
        row(function, "single", es_s, pin_s, api if pin_fn else None)

    # --- batch
    if have_pin:
        def crba_loop():
            for i in range(n_batch):
                pin.crba(pm, data, q[i])
        log(f"{label}: timing the Python loop of pin.crba over {n_batch} states")
        crba_loop_s = seconds_per_call(crba_loop)
    for k in threads:
        es.set_num_threads(k)
        log(f"{label}: timing batches of {n_batch}, {k} thread(s)")
        batch_specs = [
            ("inverse_dynamics", lambda: es.inverse_dynamics(model, q, qd, qdd),
             (lambda: pin.rneaInParallel(k, pool, qT, qdT, qddT, tau_outT))
             if have_pin and has_parallel else None, "pin.rneaInParallel"),
            ("mass_matrix", lambda: es.mass_matrix(model, q), None, None),
            ("forward_dynamics", lambda: es.forward_dynamics(model, q, qd, tau),
             (lambda: pin.abaInParallel(k, pool, qT, qdT, tauT, acc_outT))
             if have_pin and has_parallel else None, "pin.abaInParallel"),
        ]
        for function, es_fn, pin_fn, api in batch_specs:
            es_s = seconds_per_call(es_fn)
            if function == "mass_matrix" and have_pin:
                row(function, f"batch {k}T", es_s, crba_loop_s, "loop of pin.crba (1T)",
                    scale=n_batch)
                continue
            pin_s = seconds_per_call(pin_fn) if pin_fn else None
            row(function, f"batch {k}T", es_s, pin_s, api if pin_fn else None, scale=n_batch)
    es.set_num_threads(threads[0])
    return rows


# --- output ----------------------------------------------------------------------------
def meta(n_batch):
    return {"eslabon": es.__version__, "numpy": np.__version__, "numba": numba.__version__,
            "pinocchio": getattr(pin, "__version__", None) if pin else None,
            "python": platform.python_version(), "machine": platform.machine(),
            "processor": platform.processor(), "cpu_count": os.cpu_count(),
            "numba_threads": numba.config.NUMBA_NUM_THREADS, "batch": n_batch,
            "repeats": REPEATS, "statistic": "median", "seed": SEED}


def table(rows, info):
    def f(x, fmt):
        width = int(fmt.split(".")[0])
        return f"{'—':>{width}}" if x is None else format(x, fmt)
    head = (f"{'model':<22}{'function':<18}{'mode':<10}{'eslabon':>10}{'pinocchio':>11}"
            f"{'es/pin':>8}  pinocchio call")
    lines = [f"eslabon {info['eslabon']} vs Pinocchio {info['pinocchio'] or '(not installed)'}"
             f" | numba {info['numba']}, numpy {info['numpy']}, Python {info['python']},"
             f" {info['cpu_count']} CPU(s)",
             f"single: µs per call; batch kT: µs per state over {info['batch']} states with "
             f"k threads; median of {info['repeats']}",
             head, "-" * (len(head) + 24)]
    last = None
    for r in rows:
        model = f"{r['model']} ({r['nq']})"
        if last is not None and model != last:
            lines.append("")
        lines.append(f"{model if model != last else '':<22}{r['function']:<18}{r['mode']:<10}"
                     f"{f(r['eslabon_us'], '10.3f')}{f(r['pin_us'], '11.3f')}"
                     f"{f(r['ratio'], '8.2f')}  {r['pin_api'] or ''}")
        last = model
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--batch", type=int, default=10_000, help="states per batch call")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    rows = []
    for model in models():
        rows += bench_model(model, args.batch)
    info = meta(args.batch)
    info["wall_seconds"] = round(time.perf_counter() - start, 1)
    if args.json:
        print(json.dumps({"meta": info, "results": rows}, indent=2))
    else:
        print(table(rows, info))
        print(f"\n({info['wall_seconds']} s wall)")


if __name__ == "__main__":
    main()
