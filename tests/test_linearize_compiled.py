"""``linearize`` in one compiled call (``derivatives.linearization_into``): the same U, V,
W, A, B and M⁻¹ as the step-by-step path (mass matrix, analytic derivatives, then
(5.2.3–4) of Rojas 1987 by numpy), a batch equal to its single states bit for bit, and
the errors of the general path."""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from eslabon.control import linearize
from eslabon.control.linearize import state_matrices


@pytest.mark.parametrize("name", ["puma560", "panda", "cincinnati_t3", "practica_4dof"])
def test_the_compiled_linearization_is_the_step_by_step_one(name):
    model = es.zoo.load(name)
    rng = np.random.default_rng(3)
    q, qd, qdd = (rng.uniform(-1.5, 1.5, model.nv) for _ in range(3))
    lin = linearize(model, q, qd, qdd)
    U = es.mass_matrix(model, q)
    W, V = es.inverse_dynamics_derivatives(model, q, qd, qdd)
    A, B, M_inv = state_matrices(U, V, W)
    for got, want in (
        (lin.U, U),
        (lin.V, V),
        (lin.W, W),
        (lin.A, A),
        (lin.B, B),
        (lin.M_inv, M_inv),
    ):
        assert np.abs(got - want).max() <= 1e-11 * max(1.0, np.abs(want).max())
    Q, QD, QDD = (rng.uniform(-1.5, 1.5, (9, model.nv)) for _ in range(3))
    batch = linearize(model, Q, QD, QDD)
    for k in range(9):
        one = linearize(model, Q[k], QD[k], QDD[k])
        for field in ("U", "V", "W", "A", "B", "M_inv"):
            assert getattr(batch, field)[k].tobytes() == getattr(one, field).tobytes(), field


def test_bad_states_are_explained():
    model = es.zoo.load("puma560")
    with pytest.raises(ValueError, match="q"):
        linearize(model, np.full(6, np.nan), np.zeros(6), np.zeros(6))
    massless = model.replace(mass=np.zeros(model.nb + 1), inertia=np.zeros((model.nb + 1, 3, 3)))
    with pytest.raises(ValueError, match="not positive definite"):
        linearize(massless, np.zeros(6), np.zeros(6), np.zeros(6))


def test_a_floating_base_drifts_in_the_upper_left_block_as_documented():
    """On a free flyer moving at v̄, A's upper-left block is −ad(v̄) (δq in the tangent
    space), not 0; the docstring of linearize says so."""
    from eslabon._engine.joint_tangent import tangent_drift

    b = es.model.ModelBuilder()
    b.add_body(0, "free_flyer", mass=2.0, inertia=np.diag([0.1, 0.2, 0.3]), name="base")
    b.add_body(1, "R", mass=1.0, com=(0.3, 0, 0), inertia=np.diag([0.01, 0.02, 0.02]))
    model = b.build()
    q = es.neutral(model)
    qd = np.array([0.4, -0.2, 0.1, 0.5, -0.3, 0.7, 0.2])
    lin = linearize(model, q, qd, np.zeros(model.nv))
    D = lin.A[: model.nv, : model.nv]
    assert np.abs(D[:6, :6]).max() > 0.1
    assert np.array_equal(D, tangent_drift(model, qd))
    assert np.array_equal(lin.A[: model.nv, model.nv :], np.eye(model.nv))
    doc = " ".join(es.control.linearize.__doc__.split())
    assert "``A`` = [[D, 1], [−U⁻¹W, −U⁻¹V]]" in doc and "D, A's upper-left block, is −ad(v̄)" in doc
