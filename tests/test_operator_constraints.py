"""Constraints inside the chain in Jaramillo Botero (1998)'s operator and constraint-force
forms (eslabon.constraints.operator_constraints): rows as spatial directions Γ on the
bodies, A = Γᵀ φᵀ H against the constraints package's Jacobian, q̈ and λ against its
constrained dynamics (holonomic loops and contacts), a direct KKT solve (locked and
coupled joints; a wheel rolling without slip, with −Ȧ q̇ by central differences)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import eslabon as es
from eslabon import constraints as ec
from eslabon.constraints import operator_constraints as oc
from eslabon.constraints import operator_tree as ot
from eslabon.reproduce.operator_extensions import rolling_wheel_tree
from eslabon.spatial.spatial6 import translation_operator
from eslabon.zoo import andrews

pytestmark = pytest.mark.source(
    "Jaramillo Botero (1998)",
    "Dinámica de multicuerpos seriales rígidos (holonomic and non-holonomic joints); (1.78)",
)


def _rel(a, b):
    return np.abs(a - b).max() / np.abs(b).max()


def _case(name, seed=0):
    rng = np.random.default_rng(seed)
    if name == "four_bar":
        model = es.zoo.load(name)
        q = ec.assemble(model, [0.3, 1.2, 1.9], fixed=[0])
    elif name == "andrews_squeezer":
        model, q = es.zoo.load(name), andrews.initial_state()[0]
    elif name == "rolling_wheel_tree":
        model = rolling_wheel_tree()
        q = rng.normal(size=model.nq)
    else:
        model = es.zoo.load(name)
        q = es.random_configuration(model, rng)
    N = ec.partition(model, q).N
    return model, q, N @ rng.normal(size=N.shape[1]), rng.normal(size=model.nv)


CASES = ("four_bar", "andrews_squeezer", "quadruped", "rolling_wheel_tree")


@pytest.mark.parametrize("name", CASES)
def test_rows_as_spatial_directions_give_the_packages_jacobian_and_drift(name):
    model, q, v, _ = _case(name)
    rows = oc.spatial_rows(model, q, v)
    J = ec.constraint_jacobian(model, q)
    np.testing.assert_allclose(rows.A, J, atol=1e-12 * np.abs(J).max())
    np.testing.assert_allclose(rows.gamma, ec.constraint_drift(model, q, v), atol=1e-12)
    assert rows.names == ec.constraint_names(model)


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("method", oc.METHODS)
def test_multipliers_as_body_forces_match_the_constrained_dynamics(name, method):
    model, q, v, tau = _case(name, seed=1)
    ref = ec.constrained_forward_dynamics(model, q, v, tau)
    out = oc.constrained_forward_dynamics(model, q, v, tau, method=method)
    assert _rel(out.qdd, ref.qdd) < 1e-11
    assert _rel(out.multipliers, ref.force) < 1e-11
    # Hᵀ φ F_c = Aᵀ λ: the body forces are the multipliers' generalized force (1.78)
    ops = ot.tree_operators(model, q, v)
    A = ec.constraint_jacobian(model, q)
    np.testing.assert_allclose(
        ops.H.T @ ops.phi @ out.body_forces.ravel(),
        A.T @ out.multipliers,
        atol=1e-10 * np.abs(A.T @ out.multipliers).max(),
    )


def test_a_rolling_wheel_against_a_direct_kkt_solve():
    """Non-holonomic rows: M q̈ + b = τ + Aᵀλ, A q̈ = −Ȧ q̇ with M, b from the compiled
    kernels and Ȧ q̇ from central differences of A(q ± h q̇), h = 1e-6 (error O(h²)
    ≈ 1e-12 relative, far below the tolerance)."""
    model, q, v, tau = _case("rolling_wheel_tree", seed=2)
    h = 1e-6
    A = ec.constraint_jacobian(model, q)
    A_dot = (
        ec.constraint_jacobian(model, q + h * v) - ec.constraint_jacobian(model, q - h * v)
    ) / (2 * h)
    M, b = es.mass_matrix(model, q), es.bias_forces(model, q, v)
    K = np.block([[M, -A.T], [A, np.zeros((2, 2))]])
    sol = np.linalg.solve(K, np.concatenate([tau - b, -A_dot @ v]))
    for method in oc.METHODS:
        out = oc.constrained_forward_dynamics(model, q, v, tau, method=method)
        assert _rel(out.qdd, sol[: model.nv]) < 1e-8
        assert _rel(out.multipliers, sol[model.nv :]) < 1e-8
        # the ground's force acts at the contact point: no moment about it
        d = ot.tree_data(model, q, v)
        wheel = model.body_names.index("wheel") - 1
        contact = d.origins[wheel] - np.array([0.0, 0.0, 0.35])
        at_contact = translation_operator(d.origins[wheel] - contact) @ out.body_forces[wheel]
        assert np.abs(at_contact[:3]).max() < 1e-12 * np.abs(at_contact).max()
        assert np.abs(np.delete(out.body_forces, wheel, axis=0)).max() == 0.0


def _bracket_off_the_rows(model, q, independent):
    """|A [X, Y]|: the Lie bracket of the first two fields of the null-space basis N(q)
    of coordinate partitioning (central differences, h = 1e-6), times A."""

    def fields(x):
        return ec.partition(model, x, independent=independent).N

    N, h = fields(q), 1e-6
    X, Y = N[:, 0], N[:, 1]
    dY = (fields(q + h * X)[:, 1] - fields(q - h * X)[:, 1]) / (2 * h)
    dX = (fields(q + h * Y)[:, 0] - fields(q - h * Y)[:, 0]) / (2 * h)
    return np.abs(ec.constraint_jacobian(model, q) @ (dY - dX)).max()


def test_the_rolling_rows_are_not_integrable():
    """The admissible motions of the rolling wheel are not involutive — turning the fork
    and rolling the wheel have a bracket that the rows forbid — so no φ(q) = 0 has A for
    its Jacobian; the five-bar's loop (holonomic) keeps its bracket admissible."""
    wheel = rolling_wheel_tree()
    q = np.random.default_rng(3).normal(size=wheel.nq)
    assert _bracket_off_the_rows(wheel, q, [2, 3, 4]) > 0.1  # fork, wheel, pendulum
    five = es.zoo.load("five_bar")
    q = ec.assemble(five, [0.9, 2.2, -1.0, 1.0], fixed=[0, 1])
    assert _bracket_off_the_rows(five, q, [0, 1]) < 1e-6


def test_locked_and_coupled_joints_against_a_direct_kkt_solve():
    model = es.zoo.load("jaramillo_rpr")
    rng = np.random.default_rng(5)
    q, v, tau = rng.normal(size=3), rng.normal(size=3), rng.normal(size=3)
    for coupling in (oc.JointCoupling("lock", 1), oc.JointCoupling("gear", 0, 2, 0.5)):
        a = np.zeros(3)
        a[coupling.rate] = 1.0
        if coupling.coupled_to is not None:
            a[coupling.coupled_to] -= coupling.ratio
        v_ok = v - a * (a @ v) / (a @ a)
        M, b = es.mass_matrix(model, q), es.bias_forces(model, q, v_ok)
        K = np.block([[M, -a[:, None]], [a[None, :], np.zeros((1, 1))]])
        sol = np.linalg.solve(K, np.r_[tau - b, 0.0])
        for method in oc.METHODS:
            out = oc.constrained_forward_dynamics(
                model, q, v_ok, tau, constraints=(), couplings=[coupling], method=method
            )
            assert _rel(out.qdd, sol[:3]) < 1e-11
            assert _rel(out.multipliers, sol[3:]) < 1e-11
    lock = oc.constrained_forward_dynamics(
        model, q, v_ok * 0, tau, constraints=(), couplings=[oc.JointCoupling("lock", 1)]
    )
    assert abs(lock.qdd[1]) < 1e-12


def test_bad_arguments_are_named():
    model, q, v, tau = _case("four_bar")
    with pytest.raises(ValueError, match="method"):
        oc.constrained_forward_dynamics(model, q, v, tau, method="fast")
    with pytest.raises(ValueError, match="lock.rate"):
        oc.spatial_rows(model, q, v, constraints=(), couplings=[oc.JointCoupling("lock", 7)])
    with pytest.raises(ValueError, match="no rows"):
        oc.spatial_rows(model, q, v, constraints=())
    with pytest.raises(ValueError, match="tau"):
        oc.constrained_forward_dynamics(model, q, v, tau[:2])


def test_batches_are_the_single_states_stacked():
    model = rolling_wheel_tree()
    states = [_case("rolling_wheel_tree", seed=s)[1:] for s in range(3)]
    q, v, tau = (np.array([s[k] for s in states]) for k in range(3))
    out = oc.constrained_forward_dynamics(model, q, v, tau)
    for k in range(3):
        one = oc.constrained_forward_dynamics(model, q[k], v[k], tau[k])
        np.testing.assert_array_equal(out.qdd[k], one.qdd)
        np.testing.assert_array_equal(out.body_forces[k], one.body_forces)
    assert out.names == one.names


@pytest.mark.parametrize("method", oc.METHODS)
def test_duplicated_rows_share_their_force_as_the_minimum_norm_multipliers(method):
    """Every loop closure given twice: A has exactly dependent rows; λ is the minimum-norm
    one (each pair carries half the force) and equals the package's constrained dynamics."""
    model, q, v, tau = _case("quadruped", seed=2)
    twice = [*model.constraints, *(replace(c, name=c.name + "_again") for c in model.constraints)]
    ref = ec.constrained_forward_dynamics(model, q, v, tau, constraints=twice)
    out = oc.constrained_forward_dynamics(model, q, v, tau, constraints=twice, method=method)
    assert _rel(out.qdd, ref.qdd) < 1e-11
    assert _rel(out.multipliers, ref.force) < 1e-10
    half = len(out.multipliers) // 2
    np.testing.assert_allclose(
        out.multipliers[:half],
        out.multipliers[half:],
        atol=1e-10 * np.abs(out.multipliers).max(),
    )


def test_nearly_duplicated_rows_are_dependent_at_the_rank_tolerance(monkeypatch):
    """A row repeated with a 1e-12 relative change is dependent at the rank test's rtol 1e-9:
    λ must split over the pair (minimum norm at that cut-off), not be decided by round-off
    (numpy's default cut-off ≈ nv·eps would invert the 1e-12 singular value)."""
    model, q, v, tau = _case("four_bar", seed=3)
    rows = oc.spatial_rows(model, q, v)
    rng = np.random.default_rng(4)
    extra = rows.A[0] * (1.0 + 1e-12 * rng.normal(size=model.nv))
    near = oc.SpatialRows(
        np.concatenate([rows.directions, rows.directions[:1]]),
        np.vstack([rows.A, extra]),
        np.append(rows.gamma, rows.gamma[0]),
        (*rows.names, "copy"),
    )
    monkeypatch.setattr(oc, "spatial_rows", lambda *a, **k: near)
    out = oc.constrained_forward_dynamics(model, q, v, tau)
    scale = np.abs(out.multipliers).max()
    assert abs(out.multipliers[0] - out.multipliers[-1]) < 1e-6 * scale
