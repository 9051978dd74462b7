"""The Gibbs function S itself (Araujo 2012, eq. 2.25): its gradient in q̈ is the
frictionless Newton–Euler torque (Appell's equations) and its Hessian the mass matrix."""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from eslabon.dynamics.gibbs_appell import gibbs_function


@pytest.mark.source("Araujo (2012)", "eq. 2.25 and (3.34)-(3.35): dS/dq̈ = τ, d²S/dq̈² = D")
@pytest.mark.parametrize("name", ["puma560", "practica_4dof", "random_tree"])
def test_the_gradient_of_s_is_the_torque_and_its_hessian_the_mass_matrix(name):
    base = es.zoo.random_tree(21, "RFPRRFPRR") if name == "random_tree" else es.zoo.load(name)
    model = base.replace(viscous=0.0, coulomb=0.0, armature=0.07)
    rng = np.random.default_rng(2)
    n = model.nv
    q, qd, qdd = rng.uniform(-1, 1, (3, n))
    # S is quadratic in q̈: central differences are exact up to round-off
    h = 1e-3
    grad = np.array(
        [
            (gibbs_function(model, q, qd, qdd + h * e) - gibbs_function(model, q, qd, qdd - h * e))
            / (2 * h)
            for e in np.eye(n)
        ]
    )
    tau = es.inverse_dynamics(model, q, qd, qdd)
    np.testing.assert_allclose(grad, tau, atol=1e-8 * max(1.0, np.abs(tau).max()))
    S0 = gibbs_function(model, q, qd, qdd)
    hess = np.array(
        [
            [
                (
                    gibbs_function(model, q, qd, qdd + h * (a + b))
                    - gibbs_function(model, q, qd, qdd + h * a)
                    - gibbs_function(model, q, qd, qdd + h * b)
                    + S0
                )
                / h**2
                for b in np.eye(n)
            ]
            for a in np.eye(n)
        ]
    )
    M = es.mass_matrix(model, q)
    np.testing.assert_allclose(hess, M, atol=1e-5 * np.abs(M).max())
    batch = gibbs_function(model, np.stack([q, q]), np.stack([qd, qd]), np.stack([qdd, -qdd]))
    assert batch.shape == (2,) and batch[0] == pytest.approx(S0, rel=1e-14)


def test_gibbs_function_refuses_multi_rate_joints():
    with pytest.raises(ValueError, match="Gibbs function"):
        model = es.zoo.load("space_manipulator")
        gibbs_function(model, es.neutral(model), np.zeros(model.nv), np.zeros(model.nv))


@pytest.mark.numerics  # central differences of S: their error is round-off alone
@pytest.mark.source("Araujo (2012)", "eq (2.25), (3.34): the Gibbs function")
def test_reproduce_araujo_prints_s_its_gradient_and_hessian():
    from eslabon.reproduce.araujo_extensions import _gibbs_function

    lines, data = [], {}
    _gibbs_function(es.zoo.load("puma560_araujo"), lines, data)
    assert data["gibbs_function"]["gradient"] < 1e-11
    assert data["gibbs_function"]["hessian"] < 1e-11
    assert "S (2.25) with r̈ − g, the terms free of q̈ kept" in lines[0]
