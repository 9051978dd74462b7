#!/usr/bin/env python
"""Batch rollouts: eslabon.rollout against mujoco.rollout, measured in one process.

A thin wrapper around section f of ``eslabon bench`` (``eslabon bench --only rollout``,
:mod:`eslabon.bench.rollout`), with its batch as options::

    python benchmarks/bench_rollout.py [--arms 1000] [--seconds 1.0] [--threads 2] [--repeat 3]

N arms (the zoo's PUMA 560 and Panda, each body given the least mass and inertia MuJoCo
accepts, friction dropped) start from random states and run for ``--seconds`` at 1 kHz
with zero torque, by RK4 and by semi-implicit Euler, on ``--threads`` threads, against
MuJoCo's twin of the same robot; the check is the largest difference of the final
positions. Needs ``pip install mujoco``. Not a test: no wall-clock bounds.
"""

import argparse
import os
import sys

os.environ["OPENBLAS_NUM_THREADS"] = "1"  # before numpy is imported

from eslabon.bench import print_results, run  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arms", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    overrides = {
        "rollout_arms": args.arms,
        "rollout_seconds": args.seconds,
        "threads": args.threads,
        "rollout_runs": args.repeat,
    }
    results = run(sections=("rollout",), overrides=overrides)
    print_results(results)
    return 0 if results["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
