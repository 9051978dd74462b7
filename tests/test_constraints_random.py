"""The constrained formulations on random trees with random loop and contact sets: KKT,
the Schur complement on the articulated-body algorithm, the null space and
Udwadia–Kalaba give one q̈ and one λ (the minimum-norm λ where rows are redundant),
to 1e-10 relative, on trees with revolute, prismatic, fixed, helical, universal, planar,
spherical and free-flyer joints; Jaramillo's recursion ("soa") joins them on serial
chains. Each set is built to hold at a random configuration (the frames are placed so
that φ = 0 there), so no assembly, and no rounding, decides what is tested."""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from eslabon import constraints as ec
from eslabon.model.model import Frame

TREE_FORMULATIONS = ("kkt", "schur", "null_space", "udwadia_kalaba")
AXIS_SETS = (
    "point",
    "weld",
    "revolute",
    "planar_pin",
    ("x", "z", "rx", "ry"),
    ("y",),
    ("z", "rx", "ry"),
)


def _pose(model, q, body: int):
    return es.kinematics.frame_pose(model, q, model.body_names[body])


def _closed(model, q, rng, loops: int, contacts: int):
    """``model`` with random loop closures between two bodies (or a body and the world)
    and random contacts, each placed to hold at q: frame A on a random body at a random
    offset, frame B on the other body where A is at q."""
    frames, constraints = list(model.frames), []
    movers = [b for b in range(1, model.nb + 1)]
    for k in range(loops + contacts):
        a = int(rng.choice(movers))
        offset = np.eye(4)
        offset[:3, :3] = np.linalg.qr(rng.normal(size=(3, 3)))[0] * np.sign(rng.uniform(-1, 1))
        if np.linalg.det(offset[:3, :3]) < 0:
            offset[:3, 0] *= -1
        offset[:3, 3] = rng.uniform(-0.3, 0.3, 3)
        world_a = _pose(model, q, a) @ offset
        axes = AXIS_SETS[int(rng.integers(len(AXIS_SETS)))]
        frames.append(Frame(f"fa{k}", a, offset[:3, :3], offset[:3, 3]))
        if k < loops:
            b = int(rng.choice([0] + [m for m in movers if m != a]))
            world_b = np.eye(4) if b == 0 else _pose(model, q, b)
            placed = np.linalg.solve(world_b, world_a)
            frames.append(Frame(f"fb{k}", b, placed[:3, :3], placed[:3, 3]))
            constraints.append(ec.LoopClosure(f"loop{k}", f"fb{k}", f"fa{k}", axes))
        else:
            constraints.append(
                ec.Contact(
                    f"foot{k}", f"fa{k}", axes, position=world_a[:3, 3], rotation=world_a[:3, :3]
                )  # fmt: skip
            )
    return model.replace(frames=tuple(frames), constraints=tuple(constraints))


def _condition(model, q):
    """κ(J M⁻¹ Jᵀ) over the independent rows: the multipliers' system, whose rounding
    bounds how closely formulations that solve it differ. The 12 random sets draw
    redundant rows (loops across fixed joints, welds over locked rotations) on 8 seeds;
    κ < 4e4 on 11 seeds (the tolerance is 1e-10) and 6.3e9 on seed 11 (6.3e-6)."""
    report = ec.constraint_rank(model, q)
    names = ec.constraint_names(model)
    J = ec.constraint_jacobian(model, q)[
        [i for i, n in enumerate(names) if n not in report.redundant]
    ]
    return float(np.linalg.cond(J @ np.linalg.solve(es.mass_matrix(model, q), J.T)))


@pytest.mark.parametrize("seed", range(12))
def test_the_formulations_agree_on_random_trees_with_random_loops(seed):
    rng = np.random.default_rng(seed)
    letters = "RPHULSRRPRF" if seed % 3 else "BRRURSRPRLR"
    joints = "".join(rng.permutation(list(letters)))
    if "B" in joints:  # a free flyer is the root
        joints = "B" + joints.replace("B", "")
    tree = es.zoo.random_tree(rng, joints, friction=False)
    q = es.random_configuration(tree, rng)
    model = _closed(tree, q, rng, loops=1 + seed % 3, contacts=seed % 2)
    assert np.abs(ec.constraint_residual(model, q)).max() < 1e-12
    J = ec.constraint_jacobian(model, q)
    null = np.linalg.svd(J)[2][np.linalg.matrix_rank(J) :].T
    qd = null @ rng.normal(size=null.shape[1]) if null.size else np.zeros(model.nv)
    tau = rng.normal(size=model.nv)
    out = {
        a: ec.constrained_forward_dynamics(model, q, qd, tau, algorithm=a)
        for a in TREE_FORMULATIONS
    }
    ref = out["kkt"]
    scale_a = max(1.0, np.abs(ref.qdd).max())
    scale_f = max(1.0, np.abs(ref.force).max())
    tol = max(1e-10, 1e-15 * _condition(model, q))
    for a, o in out.items():
        assert np.abs(o.qdd - ref.qdd).max() < tol * scale_a, a
        assert np.abs(o.force - ref.force).max() < tol * scale_f, a
    # the motion obeys the rows and the forces explain it
    np.testing.assert_allclose(J @ ref.qdd, ec.constraint_drift(model, q, qd), atol=1e-9 * scale_a)
    M, b = es.mass_matrix(model, q), es.bias_forces(model, q, qd)
    np.testing.assert_allclose(M @ ref.qdd + b, tau + J.T @ ref.force, atol=1e-9 * scale_a)


@pytest.mark.parametrize("seed", range(4))
def test_jaramillos_recursion_joins_them_on_random_chains(seed):
    rng = np.random.default_rng(100 + seed)
    chain = es.zoo.random_chain(6, seed=seed)
    q = rng.uniform(-np.pi, np.pi, chain.nv)
    model = _closed(chain, q, rng, loops=1, contacts=0)
    J = ec.constraint_jacobian(model, q)
    null = np.linalg.svd(J)[2][np.linalg.matrix_rank(J) :].T
    qd = null @ rng.normal(size=null.shape[1]) if null.size else np.zeros(model.nv)
    tau = rng.normal(size=model.nv)
    ref = ec.constrained_forward_dynamics(model, q, qd, tau, algorithm="kkt")
    soa = ec.constrained_forward_dynamics(model, q, qd, tau, algorithm="soa")
    assert np.abs(soa.qdd - ref.qdd).max() < 1e-10 * max(1.0, np.abs(ref.qdd).max())
    assert np.abs(soa.force - ref.force).max() < 1e-10 * max(1.0, np.abs(ref.force).max())
