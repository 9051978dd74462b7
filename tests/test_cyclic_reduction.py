"""Jaramillo Botero (1998)'s O(log₂ N) claim (eslabon.constraints.cyclic_reduction):
block cyclic reduction of step ➍ equals the serial block LDLᵀ and a dense solve, the
Macro Algoritmo with it gives the articulated-body q̈, and the counted work grows as N
while the counted depth grows by a constant per doubling of N."""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from eslabon.constraints import cyclic_reduction as cr
from eslabon.dynamics import soa
from eslabon.model import ModelBuilder
from eslabon.zoo.random_chain import random_chain

pytestmark = pytest.mark.source(
    "Jaramillo Botero (1998)", "El problema dinámico directo, Motivación; Figure 8, step 4"
)


def _system(n, b, seed=0):
    rng = np.random.default_rng(seed)
    U = rng.normal(size=(n - 1, b, b))
    D = np.empty((n, b, b))
    for i in range(n):
        X = rng.normal(size=(b, b))
        D[i] = X @ X.T + 4.0 * b * np.eye(b)  # diagonally dominant: SPD
    A = np.zeros((n * b, n * b))
    for i in range(n):
        A[i * b : i * b + b, i * b : i * b + b] = D[i]
        if i + 1 < n:
            A[i * b : i * b + b, i * b + b : i * b + 2 * b] = U[i]
            A[i * b + b : i * b + 2 * b, i * b : i * b + b] = U[i].T
    return D, U, rng.normal(size=(n, b)), A


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 33])
@pytest.mark.parametrize("b", [1, 5])
def test_cyclic_reduction_solves_the_block_tridiagonal_system(n, b):
    D, U, S, A = _system(n, b, seed=n)
    x = cr.cyclic_reduction_solve(D, U, S)
    residual = np.abs(A @ x.ravel() - S.ravel()).max()
    assert residual < 1e-13 * np.abs(A).max() * max(1.0, np.abs(x).max())
    np.testing.assert_allclose(x, cr.thomas_solve(D, U, S), atol=1e-12 * np.abs(x).max())


def _floating_chain():
    """A free-flying base carrying a spherical joint, a fixed link (folded into its
    parent) and two revolute joints: blocks of 0, 3, 5, 5 rows, padded to 5."""
    b = ModelBuilder()
    box = np.diag([0.3, 0.2, 0.1])
    i = b.add_body(0, "free_flyer", mass=5.0, inertia=box)
    i = b.add_body(
        i, "spherical", translation=(0.2, 0, 0), mass=1.0, com=(0.1, 0, 0), inertia=box / 5
    )
    i = b.add_body(i, "F", translation=(0.3, 0, 0.1), mass=0.5, com=(0, 0.1, 0), inertia=box / 9)
    i = b.add_body(
        i, "R", axis=(0, 1, 0), translation=(0.2, 0, 0), mass=0.7, com=(0.1, 0, 0), inertia=box / 7
    )
    b.add_body(
        i, "R", axis=(1, 0, 0), translation=(0.3, 0, 0), mass=0.4, com=(0, 0, 0.1), inertia=box / 11
    )
    return b.build(name="floating_chain")


MODELS = {
    "jaramillo_rpr": lambda: es.zoo.load("jaramillo_rpr"),
    "panda": lambda: es.zoo.load("panda"),
    "random8": lambda: random_chain(8, seed=2),
    "floating": _floating_chain,
}


@pytest.mark.parametrize("name", MODELS)
@pytest.mark.parametrize("solver", cr.SOLVERS)
def test_macro_algoritmo_with_either_solve_gives_aba(name, solver):
    model = MODELS[name]()
    rng = np.random.default_rng(0)
    q = es.random_configuration(model, rng)
    v, tau = (rng.normal(size=model.nv) for _ in range(2))
    qdd = cr.forward_dynamics(model, q, v, tau, solver=solver)
    ref = es.forward_dynamics(model, q, v, tau)
    assert np.abs(qdd - ref).max() < 1e-10 * np.abs(ref).max()
    serial = soa.forward_dynamics(model, q, v, tau)
    assert np.abs(qdd - serial).max() < 1e-10 * np.abs(serial).max()


def test_the_chains_system_is_the_dense_schur_block_a():
    model = es.zoo.load("jaramillo_rpr")
    q = np.array([0.5, 0.25, -0.8])
    D, U, sizes = cr.chain_system(model, q)
    assert sizes == [5, 5, 5]
    A = soa.schur_blocks(model, q).A  # (1.94), dense, W chosen per joint the same way
    n, b = D.shape[:2]
    for i in range(n):
        np.testing.assert_allclose(D[i], A[i * b : i * b + b, i * b : i * b + b], atol=1e-12)
        if i + 1 < n:
            np.testing.assert_allclose(
                U[i], A[i * b : i * b + b, i * b + b : i * b + 2 * b], atol=1e-12
            )


def test_work_is_linear_and_depth_logarithmic():
    """Counts for N = 2^k: CR's work per block tends to a constant (the levels' sum
    N/2 + N/4 + … < N); its depth and stage count grow by the same amount at every
    doubling once N ≥ 4 (one more level); Thomas's depth is its work (a recurrence),
    linear in N."""
    b, counts = 5, {}
    for k in range(2, 11):
        n = 2**k
        D = np.tile(6.0 * np.eye(b), (n, 1, 1))
        U = np.tile(np.eye(b), (n - 1, 1, 1))
        S = np.ones((n, b))
        c, t = cr.OperationCount(), cr.OperationCount()
        cr.cyclic_reduction_solve(D, U, S, c)
        cr.thomas_solve(D, U, S, t)
        counts[n] = (c, t)
    sizes = sorted(counts)
    depth_steps = [counts[2 * n][0].depth - counts[n][0].depth for n in sizes[:-1]]
    stage_steps = [counts[2 * n][0].stages - counts[n][0].stages for n in sizes[:-1]]
    np.testing.assert_allclose(depth_steps, depth_steps[0], rtol=1e-12)
    assert len(set(stage_steps)) == 1
    per_block = [counts[n][0].work / n for n in sizes]
    assert all(np.diff(per_block) > 0) and per_block[-1] / per_block[-2] < 1.01
    for n in sizes:
        c, t = counts[n]
        assert t.depth == t.work and t.stages == 4 * n - 3
        assert 1.5 < c.work / t.work < 2.5
    assert counts[1024][0].depth < counts[1024][1].depth / 40


def test_shapes_are_checked_by_name():
    D, U, S, _ = _system(4, 3)
    with pytest.raises(ValueError, match="U:"):
        cr.cyclic_reduction_solve(D, U[:2], S)
    with pytest.raises(ValueError, match="S:"):
        cr.thomas_solve(D, U, S[:, :2])
    with pytest.raises(ValueError, match="D:"):
        cr.cyclic_reduction_solve(D[:, :2], U, S)
    with pytest.raises(ValueError, match="solver"):
        cr.forward_dynamics(es.zoo.load("planar2"), [0, 0], [0, 0], [0, 0], solver="fast")
    with pytest.raises(ValueError, match="serial chain"):
        cr.chain_system(es.zoo.load("five_bar"), np.zeros(4))


def test_batches_are_the_single_states_stacked():
    model = es.zoo.load("jaramillo_rpr")
    rng = np.random.default_rng(4)
    q, v, tau = (rng.normal(size=(2, 3)) for _ in range(3))
    out = cr.forward_dynamics(model, q, v, tau)
    for k in range(2):
        np.testing.assert_array_equal(out[k], cr.forward_dynamics(model, q[k], v[k], tau[k]))
