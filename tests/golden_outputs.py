"""A stored table of outputs, to check that a change to the kernels changes no number.

``python tests/golden_outputs.py OUT.npz`` writes, for every zoo model, 40 seeded random
chains and 10 seeded random trees, the outputs of the public functions at seeded states
(one state through the fast and the general path, batches, every method). The table in
``tests/data/golden_outputs.npz`` was written by the code before the engine changes of
this release, and written again when fixed joints were folded into their parents for the
per-degree-of-freedom kernels (``eslabon.model.fold.fold_fixed``): 750 entries of the
models with fixed joints moved by round-off, at most 4.2e-14 relative, none other; and
again when the body frames of joints not about +z were turned onto it for the same kernels
(``eslabon.model.reframe.axes_on_z``): 260 entries of the 10 random trees (general axes)
moved by round-off, at most 4.1e-14 relative, none other; and again when the
forward-dynamics derivatives were computed in one pass (q̈ from the derivative pass's own
M and bias, M⁻¹ by Cholesky, two matrix products) and the inertia rate J̇ in fewer
products: 353 of 2,194 entries moved, all derivatives, at most 4.8e-13 relative (to
max(1, |x|)) for ∂q̈/∂q, 2.8e-14 for ∂q̈/∂q̇ and M⁻¹, 4.8e-16 for ∂τ/∂q and ∂τ/∂q̇;
none other (M, τ, q̈, kinematics, energies: 0 ulp); and again when the Coriolis matrix
was computed entry by entry and the frame Jacobian compiled, both on lanes: 110 Coriolis
entries moved, at most 3.1e-13 relative (to max(1, |x|)), and 66 Jacobian entries, at
most 2.2e-16; none other; and again when the composite-body M was compiled with fused
multiply-adds and the kernels' rows put in depth-first order: 241 of 2,194 entries
moved, M and what is computed from it (the Walker–Orin 3 forward dynamics) at most
1.4e-13 relative (to max(1, |x|)) for M and 5.2e-12 for q̈, and 4 batches of the
Coriolis matrix of reordered trees at most 4.3e-16; none other; and again when
``simulate`` decided Karnopp's stick–slip for Coulomb friction instead of integrating
sign(q̇) (``eslabon.sim.stick_slip``): the 9 simulation entries (``sim_q``, ``sim_qd``,
``sim_qdd``) of the three random trees some of whose joints stick within the 10 steps were
written again (a change of law, not of round-off: q by up to 8.6e-5, q̇ 2.9e-2, q̈ 63,
the chattering accelerations gone); the other frictional models' simulations moved by
round-off within the tolerance and were kept; none other.
``tests/test_golden_outputs.py`` recomputes it and compares it to a tolerance the
conditioning justifies (the stored table was written on another CPU).

``python tests/golden_outputs.py --local`` writes the same outputs, with a fingerprint of
this machine, its libraries and its compile target, to ``tests/data/golden_outputs.local.npz``
(not committed): the byte-for-byte reference for a refactoring made on this machine. Only
public API of that earlier release is used here.
"""

from __future__ import annotations

import hashlib
import os
import platform
import sys
import warnings
from pathlib import Path

import numpy as np

import eslabon as es
from eslabon.model import ModelBuilder

CONVENTIONS = ("standard", "modified", "rojas")


def _rotation(rng):
    q = rng.normal(size=4)
    w, x, y, z = q / np.linalg.norm(q)
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )


def _inertia(rng, mass):
    a, b, c = rng.uniform(0.05, 0.5, 3)
    box = mass / 12.0 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])
    R = _rotation(rng)
    return R @ box @ R.T


def golden_tree(seed: int):
    """A seeded random tree: branches, arbitrary and ±z/±x axes, fixed bodies carrying
    children, friction and armature, gravity in a random direction."""
    rng = np.random.default_rng(7000 + seed)
    b = ModelBuilder()
    kinds = ["R", "F", "R", "P", "R", "P", "F", "R", "R", "P"]
    axes = [(0, 0, 1), (0, 0, -1), (1, 0, 0), (0, -1, 0)]
    for i in range(1, len(kinds) + 1):
        parent = 0 if i == 1 else (1 if i == 2 else 2 if i == 3 else int(rng.integers(0, i)))
        axis = axes[int(rng.integers(4))] if rng.random() < 0.5 else rng.normal(size=3)
        mass = rng.uniform(0.3, 4.0)
        b.add_body(
            parent,
            kinds[i - 1],
            axis=axis,
            rotation=_rotation(rng),
            translation=rng.uniform(-0.5, 0.5, 3),
            mass=mass,
            com=rng.uniform(-0.2, 0.2, 3),
            inertia=_inertia(rng, mass),
            viscous=rng.uniform(0.0, 0.4),
            coulomb=rng.uniform(0.0, 0.3),
            armature=rng.uniform(0.0, 0.05) if rng.random() < 0.5 else 0.0,
            name=f"b{i}",
        )
    g = rng.normal(size=3)
    return b.build(gravity=9.81 * g / np.linalg.norm(g), name=f"golden-tree-{seed}")


# the zoo when the table was stored (the seeds follow this order); the zoo's later models
# (the space manipulator's free flyer) have tests of their own
ZOO = (
    "cincinnati_t3",
    "jaramillo_pendulum",
    "jaramillo_rpr",
    "panda",
    "planar2",
    "practica_4dof",
    "practica_6dof",
    "practica_pendulum3",
    "puma560",
    "puma560_araujo",
)


def models() -> dict:
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in ZOO:
            out[name] = es.zoo.load(name)
        out["practica_4dof_book"] = es.zoo.load(
            "practica_4dof", book_com=True, payload_mass=3, payload_inertia=0.05
        )
        for k in range(40):
            conv = CONVENTIONS[k % 3]
            n = 1 + k % 12
            out[f"chain-{k}"] = es.zoo.random_chain(
                n, seed=100 + k, convention=conv, friction=k % 2 == 0
            )
        for k in range(10):
            out[f"tree-{k}"] = golden_tree(k)
    return out


def outputs(model, seed: int) -> dict:
    """Named output arrays of ``model`` at states drawn from ``seed``."""
    rng = np.random.default_rng(seed)
    n = model.nq
    q, qd, qdd, tau = (rng.uniform(-1.5, 1.5, n) for _ in range(4))
    Q, QD, QDD, TAU = (rng.uniform(-1.5, 1.5, (7, n)) for _ in range(4))
    out = {
        "id": es.inverse_dynamics(model, q, qd, qdd),
        "id_list": es.inverse_dynamics(model, list(q), list(qd), list(qdd)),
        "id_batch": es.inverse_dynamics(model, Q, QD, QDD),
        "id_wrench": es.inverse_dynamics(
            model, q, qd, qdd, wrenches=[es.ExternalWrench("ee", -rng.normal(size=6), "local")]
        ),
        "bias": es.bias_forces(model, q, qd),
        "bias_batch": es.bias_forces(model, Q, QD),
        "gravity": es.gravity_torques(model, q),
        "gravity_batch": es.gravity_torques(model, Q),
        "m_wo3": es.mass_matrix(model, q),
        "m_wo1": es.mass_matrix(model, q, algorithm="walker_orin_1"),
        "m_batch": es.mass_matrix(model, Q),
        "fd_aba": es.forward_dynamics(model, q, qd, tau),
        "fd_wo3": es.forward_dynamics(model, q, qd, tau, algorithm="walker_orin_3"),
        "fd_wo1": es.forward_dynamics(model, q, qd, tau, algorithm="walker_orin_1"),
        "fd_batch": es.forward_dynamics(model, Q, QD, TAU),
        "fd_wo3_batch": es.forward_dynamics(model, Q, QD, TAU, algorithm="walker_orin_3"),
        "ke": np.atleast_1d(es.kinetic_energy(model, q, qd)),
        "pe": np.atleast_1d(es.potential_energy(model, q)),
        "ke_batch": es.kinetic_energy(model, Q, QD),
        "fk": es.forward_kinematics(model, q),
        "jac": es.jacobian(model, q),
        "jac_local": es.jacobian(model, q, reference="local"),
        "vel": es.kinematics.link_velocities(model, q, qd),
        "acc": es.kinematics.link_accelerations(model, q, qd, qdd),
    }
    did = es.inverse_dynamics_derivatives(model, q, qd, qdd)
    out["did_dq"], out["did_dv"] = did
    dfd = es.forward_dynamics_derivatives(model, q, qd, tau)
    out["dfd_dq"], out["dfd_dv"], out["dfd_minv"] = dfd
    out["did_batch_dq"] = es.inverse_dynamics_derivatives(model, Q, QD, QDD)[0]
    out["dfd_batch_dq"] = es.forward_dynamics_derivatives(model, Q, QD, TAU)[0]
    if not model.has_moving_com:
        out["coriolis"] = es.coriolis_matrix(model, q, qd)
        out["coriolis_batch"] = es.coriolis_matrix(model, Q, QD)
    traj = es.simulate(model, q, 0.1 * qd, 0.01, 0.001, torque=0.1 * tau)
    out["sim_q"], out["sim_qd"], out["sim_qdd"] = traj.q, traj.qd, traj.qdd
    return {k: np.asarray(v, dtype=np.float64) for k, v in out.items()}


def table() -> dict:
    arrays = {}
    for k, (name, model) in enumerate(sorted(models().items())):
        for key, value in outputs(model, 5000 + k).items():
            arrays[f"{name}/{key}"] = value
    return arrays


#: the byte-for-byte table of this machine (``--local``)
LOCAL = Path(__file__).parent / "data" / "golden_outputs.local.npz"


def fingerprint() -> str:
    """What fixes the last bits of the outputs besides eslabon's code: the CPU (model and
    instruction-set flags), the compile target and BLAS kernel set chosen by environment,
    and the versions of Python, numpy, numba and llvmlite."""
    import llvmlite
    import numba

    cpu = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            lines = fh.read().splitlines()
        cpu = "|".join(sorted({ln for ln in lines if ln.startswith(("model name", "flags"))}))
    except OSError:
        cpu = platform.processor()
    parts = [
        platform.machine(),
        cpu,
        os.environ.get("NUMBA_CPU_NAME", ""),
        os.environ.get("NUMBA_CPU_FEATURES", ""),
        os.environ.get("OPENBLAS_CORETYPE", ""),
        platform.python_version(),
        np.__version__,
        numba.__version__,
        llvmlite.__version__,
    ]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


if __name__ == "__main__":
    if sys.argv[1:] == ["--local"]:
        np.savez_compressed(LOCAL, __fingerprint__=np.array(fingerprint()), **table())
        print(f"wrote {LOCAL}")
    elif len(sys.argv) == 2:
        np.savez_compressed(sys.argv[1], **table())
    else:
        sys.exit("usage: python tests/golden_outputs.py OUT.npz | --local")
