#!/usr/bin/env python
"""How each forward-dynamics formulation grows with the chain length (seeds 002/004 issue:
ABA and the constraint-force method are O(n); Walker–Orin 3 + Cholesky and Lagrange are
not). Times one state on seeded random revolute chains of n links and prints the time per
call and the log-log slope between consecutive sizes; with Pinocchio installed, its ``aba``
on the same chains is timed in the same run (ratio ours / pin).

    python benchmarks/bench_formulations.py [--sizes 8,16,32,64,128] [--repeat 5]

ABA and Walker–Orin are compiled kernels; ``soa`` (constraint forces) and ``lagrange``
are numpy reference formulations, so their absolute times are not comparable with the
compiled ones — the slope is what this script shows. Not a test: no wall-clock bounds.
"""

import argparse
import os
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import eslabon as es  # noqa: E402

METHODS = ("aba", "soa", "walker_orin_3", "lagrange")


def best_time(fn, repeat, min_time=0.05):
    """Best of ``repeat`` averages over enough calls to last ``min_time`` seconds."""
    fn()
    calls = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        if time.perf_counter() - t0 > min_time or calls > 1_000_000:
            break
        calls *= 4
    best = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - t0) / calls)
    return best


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="8,16,32,64,128")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    try:
        import pinocchio as pin

        from eslabon.interop.pinocchio import to_pinocchio
    except ImportError:
        pin = None
    rows = {m: [] for m in METHODS + (("pin aba",) if pin else ())}
    for n in sizes:
        model = es.zoo.random_chain(n, seed=1, joints="R" * n, payload=False, tool=False)
        q, qd, tau = np.random.default_rng(n).uniform(-1, 1, (3, n))
        for method in METHODS:
            rows[method].append(
                best_time(
                    lambda m=method, model=model, q=q, qd=qd, tau=tau: es.forward_dynamics(
                        model, q, qd, tau, algorithm=m
                    ),
                    args.repeat,
                )
            )
        if pin:
            pm = to_pinocchio(model)
            data = pm.createData()
            call = lambda pm=pm, data=data, q=q, qd=qd, tau=tau: pin.aba(pm, data, q, qd, tau)
            rows["pin aba"].append(best_time(call, args.repeat))
    print(
        "forward dynamics of one state, random revolute chains (µs per call; slope = "
        "d log t / d log n between consecutive sizes)"
    )
    print(
        f"{'method':<16}"
        + "".join(f"{'n=' + str(n):>11}" for n in sizes)
        + "   slopes (consecutive; least squares over the larger half)"
    )
    for method, times in rows.items():
        slopes = [
            np.log(times[k + 1] / times[k]) / np.log(sizes[k + 1] / sizes[k])
            for k in range(len(sizes) - 1)
        ]
        half = len(sizes) // 2
        fit = np.polyfit(np.log(sizes[half:]), np.log(times[half:]), 1)[0]
        print(
            f"{method:<16}"
            + "".join(f"{t * 1e6:>11.2f}" for t in times)
            + "   "
            + " ".join(f"{s:.2f}" for s in slopes)
            + f"; {fit:.2f}"
        )
    if pin:
        ratio = np.array(rows["aba"]) / np.array(rows["pin aba"])
        print("ratio aba / pin aba: " + " ".join(f"{r:.2f}" for r in ratio))


if __name__ == "__main__":
    main()
