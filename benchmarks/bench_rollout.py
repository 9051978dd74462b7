#!/usr/bin/env python
"""Batch rollouts: eslabon.rollout against mujoco.rollout, measured in one process.

    python benchmarks/bench_rollout.py [--arms 1000] [--seconds 1.0] [--threads 2]

N arms (the zoo's PUMA 560 and Panda, each body given at least 10 g and principal moments
of at least 1e-3 kg·m² meeting A + B >= C, which MuJoCo requires; friction and rotor
inertia dropped) start from random states and run for ``--seconds`` at 1 kHz with zero
torque, by RK4 and by semi-implicit Euler, on ``--threads`` threads. MuJoCo loads the same
model from the URDF eslabon writes (no collision geometry: no contacts), with its
integrator set to RK4 or Euler (MuJoCo's Euler is semi-implicit) and the same step.
"Same accuracy" is checked by the largest difference of the final positions between the
two engines (RK4: both fourth order on the same equations). Needs ``pip install
mujoco``. Not a test: no wall-clock bounds.
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import eslabon as es
from eslabon.bench._core import rigid
from eslabon.model.urdf_export import to_urdf


def prepared(name):
    """The zoo robot made acceptable to MuJoCo (module docstring)."""
    m = rigid(es.zoo.load(name))
    mass = m.mass.copy()
    mass[1:] = np.maximum(mass[1:], 1e-2)
    inertia = m.inertia.copy()
    for i in range(1, len(inertia)):
        w, V = np.linalg.eigh(inertia[i])
        w = np.maximum(w, 1e-3)
        short = w[2] - w[0] - w[1]
        if short > 0:
            w[:2] += short / 2 + 1e-6
        inertia[i] = V @ np.diag(w) @ V.T
    return m.replace(mass=mass, inertia=inertia)


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arms", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    import mujoco
    from mujoco import rollout as mjr

    es.set_num_threads(args.threads)
    dt, N = 1e-3, args.arms
    steps = int(round(args.seconds / dt))
    print(
        f"eslabon {es.__version__}, mujoco {mujoco.__version__}; {N} arms x {args.seconds} s "
        f"@ {1 / dt:.0f} Hz, {args.threads} threads, best of {args.repeat}"
    )
    print(
        f"{'robot':<9} {'method':<6} {'eslabon [s]':>12} {'mujoco [s]':>11} {'ratio':>6}"
        f" {'max |q_es - q_mj|':>18}"
    )
    rng = np.random.default_rng(0)
    for name in ("puma560", "panda"):
        model = prepared(name)
        n = model.nv
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / f"{name}.urdf"
            to_urdf(model, path)
            mj = mujoco.MjModel.from_xml_path(str(path))
        q0 = rng.uniform(-1.0, 1.0, (N, n))
        v0 = rng.uniform(-0.5, 0.5, (N, n))
        for method, integrator in (
            ("rk4", mujoco.mjtIntegrator.mjINT_RK4),
            ("euler", mujoco.mjtIntegrator.mjINT_EULER),
        ):
            mj.opt.timestep = dt
            mj.opt.integrator = integrator
            datas = [mujoco.MjData(mj) for _ in range(args.threads)]
            size = mujoco.mj_stateSize(mj, mujoco.mjtState.mjSTATE_FULLPHYSICS)
            state0 = np.zeros((N, size))
            d = datas[0]
            for i in range(N):
                d.qpos[:], d.qvel[:], d.time = q0[i], v0[i], 0.0
                mujoco.mj_getState(mj, d, state0[i], mujoco.mjtState.mjSTATE_FULLPHYSICS)
            es.rollout(model, q0[:8], v0[:8], 0.01, dt, method=method)  # compile first
            t_es, ours = best(
                lambda: es.rollout(model, q0, v0, args.seconds, dt, method=method), args.repeat
            )
            with mjr.Rollout(nthread=args.threads) as pool:
                t_mj, (states, _) = best(
                    lambda: pool.rollout(mj, datas, state0, nstep=steps), args.repeat
                )
            q_mj = states[:, -1, 1 : 1 + n]  # time, then qpos
            diff = np.abs(ours.q[:, -1] - q_mj).max()
            print(
                f"{name:<9} {method:<6} {t_es:>12.3f} {t_mj:>11.3f} {t_es / t_mj:>6.2f}"
                f" {diff:>18.2e}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
