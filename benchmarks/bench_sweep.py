#!/usr/bin/env python
"""Throughput of a parameter sweep (eslabon.batch): samples per second serially, on a
local Dask cluster of 1 and 2 worker processes, and the single-call batch kernel over the
same states for comparison; the Dask overhead per chunk is (1-worker − serial) / chunks.

    python benchmarks/bench_sweep.py [--samples 480] [--chunk 24]

Task: inverse dynamics of the seed 003 PUMA along a 301-sample rest-to-rest motion, with
a random payload (0–5 kg) and motion scale per sample; ``--task closed_loop`` runs the
feedforward + PD loop (RK4, 2 ms) on each instead. Cluster start-up is timed apart.
Not a test: no wall-clock bounds.
"""

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import eslabon as es  # noqa: E402
from eslabon import batch  # noqa: E402
from eslabon.batch.run import WORKER_ENV  # noqa: E402
from eslabon.batch.tasks import QuinticMotion, base_model  # noqa: E402

TASK = {"task": "inverse_dynamics", "metrics": ["peak_torque", "rms_torque", "energy"]}


def spec_for(samples, chunk):
    return batch.parse_spec(
        {
            **TASK,
            "eslabon_sweep": 1,
            "name": "bench",
            "model": "puma560_araujo",
            "trajectory": {
                "start": [0.0] * 6,
                "goal": [1.2, -0.8, 1.0, 0.6, 0.8, 0.5],
                "duration": 1.5,
                "samples": 301,
            },
            "controller": {"kp": 100.0, "kd": 2.0},
            "dt": 0.002,
            "vary": {
                "payload_mass": {"range": [0.0, 5.0]},
                "trajectory_scale": {"range": [0.5, 1.0]},
            },
            "sampling": {"kind": "random", "n": samples, "seed": 0},
            "chunk_size": chunk,
        }
    )


def warm():
    """Load eslabon's compiled kernels and the model in a worker process."""
    from eslabon.batch.tasks import run_chunk

    run_chunk(spec_for(2, 2), 0, 2)


def timed_run(spec, **kw):
    out = Path(tempfile.mkdtemp(prefix="eslabon-bench-")) / "o"
    t0 = time.perf_counter()
    batch.run_sweep(spec, out, **kw)
    dt = time.perf_counter() - t0
    shutil.rmtree(out.parent)
    return dt


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=480)
    ap.add_argument("--chunk", type=int, default=24)
    ap.add_argument(
        "--task", choices=("inverse_dynamics", "closed_loop"), default="inverse_dynamics"
    )
    args = ap.parse_args()
    if args.task == "closed_loop":
        TASK.update(task="closed_loop", metrics=["peak_torque", "tracking_error"])
    from dask.distributed import Client, LocalCluster

    spec = spec_for(args.samples, args.chunk)
    chunks = len(spec.chunks())
    timed_run(spec_for(4, 2), serial=True)  # compile / load caches
    rows = [("serial (this process)", timed_run(spec, serial=True))]
    for workers in (1, 2):
        t0 = time.perf_counter()
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            env=WORKER_ENV,
        )
        client = Client(cluster)
        startup = time.perf_counter() - t0
        client.run(warm)  # imports and caches, every worker
        rows.append((f"dask, {workers} worker(s)", timed_run(spec, client=client)))
        client.close()
        cluster.close()
        print(f"cluster start-up, {workers} worker(s): {startup:.2f} s")
    # the kernel alone: every sample's states in one batch call (no payload variation)
    model = base_model(spec)
    t = np.linspace(0, 1.5, 301)
    table = spec.sample_table()
    Q, QD, QDD = (
        np.concatenate(x)
        for x in zip(
            *[QuinticMotion(spec.start, spec.goal, s, 1.5)(t) for s in table["trajectory_scale"]],
            strict=True,
        )
    )
    es.inverse_dynamics(model, Q[:10], QD[:10], QDD[:10])
    t0 = time.perf_counter()
    es.inverse_dynamics(model, Q, QD, QDD)
    rows.append(("one batch call (kernel only)", time.perf_counter() - t0))
    print(f"{args.samples} samples × 301 states, {chunks} chunks of {args.chunk}")
    print(f"{'run':<32} {'s':>8} {'samples/s':>11}")
    for name, dt in rows:
        print(f"{name:<32} {dt:>8.3f} {args.samples / dt:>11.0f}")
    overhead = (rows[1][1] - rows[0][1]) / chunks
    print(f"Dask overhead per chunk (1 worker − serial): {overhead * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
