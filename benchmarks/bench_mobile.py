#!/usr/bin/env python
"""Cost of the mobile manipulator's forward dynamics (seed 003: the PUMA 560 on the
tricycle, 8 quasi-velocities), per call, by formulation, and of a 1 s simulation.

    python benchmarks/bench_mobile.py [--repeat 5]

- ``coupled``: the Gibbs–Appell model over platform and arm (numpy reference: recursive
  partials, D and φ, Cholesky).
- ``thesis``: the thesis's one-way model (Martinenko closed form + the arm's D, φ).
- ``dae``: the unconstrained tree's M and h from eslabon's compiled CRBA/RNEA, plus the
  rolling constraints by Lagrange multipliers (KKT solve).
- ``dae/pin``: the same DAE with Pinocchio's ``crba`` and ``rnea`` on the same tree (when
  ``pin`` is installed), timed in the same run: the ratio dae / dae-pin compares the tree
  dynamics only, since Pinocchio has no rolling-wheel constraint.

Not a test: no wall-clock bounds.
"""

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_formulations import best_time  # noqa: E402

from eslabon import mobile as mb  # noqa: E402
from eslabon.mobile import dae  # noqa: E402
from eslabon.zoo.araujo import puma560_araujo  # noqa: E402

RUN1 = dict(u=[150.0, 0.3], tau=[6.0, 50.0, 10.0, -0.1, -0.5, -0.1])


def _pin_dae(mm, tree):
    """DAE accelerations with Pinocchio's M and h on the same tree (friction dropped)."""
    try:
        import pinocchio as pin

        from eslabon.interop.pinocchio import dof_order, to_pinocchio
    except ImportError:
        return None
    pm = to_pinocchio(tree)
    data = pm.createData()
    order = np.asarray(dof_order(tree))

    def accel(q, qd, u, tau):
        qp, vp = q[order], qd[order]
        M = pin.crba(pm, data, qp)
        M = np.triu(M) + np.triu(M, 1).T
        h = pin.rnea(pm, data, qp, vp, np.zeros_like(vp))
        Mf = np.empty_like(M)
        Mf[np.ix_(order, order)] = M
        hf = np.empty_like(h)
        hf[order] = h
        A = dae.constraint_matrix(mm, q)
        m = A.shape[0]
        K = np.block([[Mf, A.T], [A, np.zeros((m, m))]])
        rhs = np.concatenate(
            [dae.generalized_forces(mm, q, u, tau) - hf, -dae._A_dot_qd(mm, q, qd)]
        )
        return np.linalg.solve(K, rhs)[: len(q)]

    return accel


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    arm = puma560_araujo()
    plat = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    mm = mb.MobileManipulator(plat, arm, mb.Mount((0.3, 0.0, 0.5)))
    rng = np.random.default_rng(0)
    y = mm.state(
        config=np.r_[0, 0, 0.3, 0.4, 0, 0, 0],
        q=rng.normal(size=6),
        nu=[1.0, 0.2],
        qd=rng.normal(size=6),
    )
    config, q, nu, qd = mm.split(y)
    rates = plat.motion(config, nu)[2]
    tree = dae.tree_model(mm.with_mode("coupled"))
    qq, vv = np.r_[config, q], np.r_[rates, qd]
    u, tau = np.array(RUN1["u"]), np.array(RUN1["tau"])
    thesis = mm.with_mode("thesis")
    rows = [
        ("coupled (Gibbs–Appell)", best_time(lambda: mb.accelerations(mm, y, u, tau), args.repeat)),
        ("thesis (one-way)", best_time(lambda: mb.accelerations(thesis, y, u, tau), args.repeat)),
        (
            "dae (eslabon CRBA/RNEA)",
            best_time(lambda: dae.accelerations(mm, tree, qq, vv, u, tau), args.repeat),
        ),
    ]
    pin_accel = _pin_dae(mm, tree)
    if pin_accel is not None:
        ours, _ = dae.accelerations(mm, tree, qq, vv, u, tau)
        # friction-free arm, so Pinocchio's h is the same
        assert np.allclose(pin_accel(qq, vv, u, tau), ours, atol=1e-9)
        rows.append(
            ("dae (Pinocchio crba/rnea)", best_time(lambda: pin_accel(qq, vv, u, tau), args.repeat))
        )
    print(f"{'forward dynamics, one state':<30} {'µs/call':>10}")
    for name, t in rows:
        print(f"{name:<30} {t * 1e6:>10.1f}")
    if pin_accel is not None:
        print(f"ratio dae eslabon / dae pin: {rows[2][1] / rows[3][1]:.2f}")
    for method in ("dop853", "rk4"):
        t0 = time.perf_counter()
        mb.simulate(
            mm,
            None,
            None,
            1.0,
            1e-3 if method == "rk4" else 1e-2,
            torque=RUN1["tau"],
            integrator=method,
            u=RUN1["u"],
        )
        print(f"1 s of load case 1, {method:<7} {time.perf_counter() - t0:8.2f} s")


if __name__ == "__main__":
    main()
