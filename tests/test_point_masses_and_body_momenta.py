"""Jaramillo Botero (1998): the point-mass moments and products of inertia (1.11)–(1.12)
and each body's spatial momentum about its centre of mass, L = I V (1.39)."""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from eslabon.spatial import cuboid_inertia, parallel_axis, point_mass_inertia, skew


@pytest.mark.source("Jaramillo Botero (1998)", "(1.11)-(1.12) against Example 1's cuboid (1.19)")
def test_particles_filling_a_cuboid_tend_to_its_tensor_about_the_corner():
    # Example 1: x in [0, c], y in [0, b], z in [0, a]; the midpoint rule on a k^3 grid
    # has error O(1/k^2) in each moment
    m, a, b, c = 6.0, 1.0, 2.0, 3.0
    errors = []
    for k in (10, 20):
        u = (np.arange(k) + 0.5) / k
        X, Y, Z = np.meshgrid(c * u, b * u, a * u, indexing="ij")
        points = np.column_stack([X.ravel(), Y.ravel(), Z.ravel()])
        I = point_mass_inertia(np.full(k**3, m / k**3), points)
        exact = cuboid_inertia(m, a, b, c, about="corner")
        errors.append(np.abs(I.tensor - exact).max())
        np.testing.assert_allclose(I.center_of_mass, [c / 2, b / 2, a / 2], atol=1e-12)
        assert I.mass == pytest.approx(m)
    assert errors[1] < errors[0] / 3.5  # second order: halving the spacing quarters it
    assert errors[1] < 1e-2 * np.abs(exact).max()


def test_products_are_the_positive_sums_and_the_tensor_obeys_the_parallel_axis_theorem():
    rng = np.random.default_rng(11)
    m = rng.uniform(0.1, 2.0, 7)
    r = rng.normal(size=(7, 3))
    I = point_mass_inertia(m, r)
    np.testing.assert_allclose(
        I.products,
        [m @ (r[:, 0] * r[:, 1]), m @ (r[:, 0] * r[:, 2]), m @ (r[:, 1] * r[:, 2])],
        rtol=1e-14,
    )
    # the tensor is Σ m (|r|² 1 − r rᵀ) = −Σ m r̃ r̃
    np.testing.assert_allclose(
        I.tensor, -np.einsum("n,nij,njk->ik", m, skew(r), skew(r)), atol=1e-13
    )
    about_com = point_mass_inertia(m, r - I.center_of_mass).tensor
    np.testing.assert_allclose(
        parallel_axis(about_com, I.mass, I.center_of_mass), I.tensor, atol=1e-12
    )


def test_point_masses_refuse_bad_input():
    with pytest.raises(ValueError, match="masses"):
        point_mass_inertia([-1.0], [[0, 0, 0]])
    with pytest.raises(ValueError, match="points"):
        point_mass_inertia([1.0, 2.0], [[0, 0, 0]])


def _com_and_rotation(model, q):
    p = es.kinematics.kinematic_pass(model, q)
    return p.world_position + np.einsum("bij,bj->bi", p.world_rotation, p.com), p.world_rotation


@pytest.mark.source(
    "Jaramillo Botero (1998)", "(1.39): L = I_cm V_cm, against the motion by central differences"
)
@pytest.mark.parametrize("name", ["puma560", "space_manipulator", "practica_4dof"])
def test_body_momenta_are_inertia_times_the_centres_motion(name):
    model = es.zoo.load(name)
    rng = np.random.default_rng(5)
    Q = np.stack([es.random_configuration(model, rng) for _ in range(3)])
    V = rng.normal(size=(3, model.nv))
    L = es.dynamics.body_momenta(model, Q, V)
    assert L.shape == (3, model.nb + 1, 6)
    h = 1e-6
    for k in range(3):
        (c1, R1), (c0, R0) = (
            _com_and_rotation(model, es.integrate(model, Q[k], s * h * V[k])) for s in (1, -1)
        )
        c_dot = (c1 - c0) / (2 * h)
        _, R = _com_and_rotation(model, Q[k])
        W = np.einsum("bij,bkj->bik", (R1 - R0) / (2 * h), R)  # Ṙ Rᵀ = ω̃
        omega = np.stack([W[:, 2, 1], W[:, 0, 2], W[:, 1, 0]], axis=-1)
        spin = np.einsum("bij,bjk,blk,bl->bi", R, model.inertia, R, omega)
        expected = np.concatenate([spin, model.mass[:, None] * c_dot], axis=-1)
        np.testing.assert_allclose(L[k], expected, atol=1e-7 * max(1.0, np.abs(expected).max()))
        np.testing.assert_allclose(L[k], es.dynamics.body_momenta(model, Q[k], V[k]), atol=1e-14)
    # shifted to the world origin and summed: the system's momentum
    c = np.stack([_com_and_rotation(model, q)[0] for q in Q])
    total = es.momentum(model, Q, V)
    np.testing.assert_allclose(L[..., 3:].sum(axis=1), total[:, 3:], atol=1e-12)
    np.testing.assert_allclose(
        (L[..., :3] + np.cross(c, L[..., 3:])).sum(axis=1), total[:, :3], atol=1e-11
    )
    assert not np.any(L[:, 0])  # the world


@pytest.mark.source("Jaramillo Botero (1998)", "eqs (1.10)–(1.12), point masses")
def test_reproduce_the_box_in_cells_errs_by_exactly_one_over_k_squared():
    """Midpoints of k cells of width a/k: Σ x² / k = (a²/12)(1 − 1/k²), derived in
    eslabon.reproduce.body_moments' docstring; the products vanish by symmetry."""
    from eslabon.reproduce.body_moments import BOX, point_masses_report

    data, lines = point_masses_report()
    mass, (a, b, c) = BOX
    largest = mass * max(b * b + c * c, a * a + c * c, a * a + b * b) / 12  # the solid's
    for row in data["cells"]:
        assert abs(row["relative_error"] - 1.0 / row["k"] ** 2) < 1e-13
        # zero by symmetry: round-off of k³ terms, relative to the largest moment
        assert row["product"] < 1e-13 * largest
    assert data["steiner"] < 1e-13
    assert len(lines) == len(data["cells"]) + 2


@pytest.mark.source("Jaramillo Botero (1998)", "eq (1.39), L = I V per body")
def test_reproduce_the_body_momenta_sum_to_the_centroidal_momentum():
    from eslabon.reproduce.body_moments import momenta_report

    data, _ = momenta_report()
    assert set(data) == {"puma560", "quadruped"}
    assert all(gap < 1e-12 for gap in data.values())
