"""Jaramillo Botero (1998), seeds 002/004: Figure 7 as written, every quantity in its own
body frame with the rotation operators R (1.3), and the global operators (1.62)–(1.69)
stacked tip first as the document prints them — both checked equal to the world-axes
forms."""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from eslabon.dynamics import newton_euler_body_frames, soa


def _state(model, seed):
    rng = np.random.default_rng(seed)
    return es.random_configuration(model, rng), *rng.uniform(-1.0, 1.0, (2, model.nv))


@pytest.mark.parametrize("name", ["puma560", "panda", "cincinnati_t3", "space_manipulator"])
def test_figure_7_in_body_frames_gives_the_newton_euler_torques(name):
    """Figure 7 corrected (R_{i−1,i}ᵀ outward, R_{i,i+1} inward, +℘_i): equal to the
    compiled Newton–Euler and to the world-axes operator products (1.71)–(1.72), 1e-12
    relative; a free-flying base (space manipulator) included."""
    model = es.zoo.load(name)
    for seed in range(3):
        q, qd, qdd = _state(model, seed)
        tau = newton_euler_body_frames.inverse_dynamics(model, q, qd, qdd)
        ref = es.inverse_dynamics(model, q, qd, qdd)
        scale = np.abs(ref).max()
        np.testing.assert_allclose(tau, ref, atol=1e-12 * scale)
        if model.armature.any():
            continue  # the operator products have no rotor inertia term to compare
        M, xi = soa.operator_terms(model, q, qd)
        np.testing.assert_allclose(tau, M @ qdd + xi, atol=1e-12 * scale)


@pytest.mark.parametrize("letters", ["BRHSRPR", "HHPS", "RSRFRS"])
def test_figure_7_with_multi_dof_and_helical_joints_and_refusals(letters):
    """Spherical, free-flyer and helical joints (constant maps in their body frames) on
    chains of the random tree's bodies; a tree and a batch are refused by name."""
    tree = es.zoo.random_tree(2, letters, friction=False)
    model = tree.replace(parent=np.arange(-1, tree.nb))
    for seed in range(2):
        q, qd, qdd = _state(model, seed)
        ref = es.inverse_dynamics(model, q, qd, qdd)
        np.testing.assert_allclose(
            newton_euler_body_frames.inverse_dynamics(model, q, qd, qdd),
            ref,
            atol=1e-12 * np.abs(ref).max(),
        )
    with pytest.raises(ValueError, match="one state"):
        newton_euler_body_frames.inverse_dynamics(
            model, np.tile(q, (2, 1)), np.tile(qd, (2, 1)), np.tile(qdd, (2, 1))
        )
    tree = es.zoo.random_tree(0, "RRRRR")  # bodies 4 and 5 hang from body 1
    with pytest.raises(ValueError, match="serial chains"):
        newton_euler_body_frames.inverse_dynamics(tree, *_state(tree, 0))


@pytest.mark.parametrize("name", ["puma560", "space_manipulator"])
def test_tip_first_global_operators(name):
    """(1.62)–(1.69) stacked tip first: P is block lower-bidiagonal with identity
    diagonal and −P̂ below it, ρ = P⁻¹, and M = Hᵀ ρ I ρᵀ H and ξ of (1.72) are the
    base-first matrices in reverse joint order."""
    model = es.zoo.load(name)
    q, qd, _ = _state(model, 2)
    base = soa.global_operators(model, q, qd)
    tip = soa.global_operators(model, q, qd, layout="tip_first")
    n = model.nb
    assert np.allclose(np.triu(tip.P, 1), 0.0) and np.allclose(np.tril(base.P, -1), 0.0)
    for i in range(n):
        np.testing.assert_array_equal(tip.P[6 * i : 6 * i + 6, 6 * i : 6 * i + 6], np.eye(6))
    np.testing.assert_allclose(tip.P @ tip.rho, np.eye(6 * n), atol=1e-12)

    def products(ops):
        rH = ops.rho.T @ ops.H
        return rH.T @ ops.I @ rH, rH.T @ (ops.I @ ops.rho.T @ ops.B + ops.G)

    (Mb, xb), (Mt, xt) = products(base), products(tip)
    order = np.concatenate(
        [
            np.arange(model.v_index[b], model.v_index[b] + base.H[6 * (b - 1) : 6 * b].any(0).sum())
            for b in range(n, 0, -1)
            if model.v_index[b] >= 0
        ]
    )
    np.testing.assert_allclose(Mt, Mb[np.ix_(order, order)], atol=1e-12 * np.abs(Mb).max())
    np.testing.assert_allclose(xt, xb[order], atol=1e-12 * np.abs(xb).max())
    with pytest.raises(ValueError, match="layout: expected one of"):
        soa.global_operators(model, q, qd, layout="middle_out")
