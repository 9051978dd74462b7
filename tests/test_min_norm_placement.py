"""Keel, Fleming & Bhattacharyya's minimum-norm pole assignment (Rojas 1987, §5.6).

Rojas (1987) §5.6 cites "Keel et al. 1985" for assigning poles by minimizing the norm of
the feedback matrix over the Sylvester form (5.6.3). Checks derived here: the poles are
placed (Bauer–Fike bound from the computed T), the norm is no larger than model
assignment's (5.6.7–5.6.8) or pole placement's for the same poles, the gradient agrees
with central differences, and the result is a local minimum within the family of gains
placing the same poles (perturbing G), a check that model assignment's gain fails.
"""

import numpy as np
import pytest

import eslabon as es
from eslabon import control as ctl
from eslabon.control.min_norm import _objective
from eslabon.reproduce.t3_linear_control import (
    DISTINCT_OMEGA,
    _model_poles,
    gain_norms,
    table_state,
)
from eslabon.zoo.rojas import INITIAL_THETA_DEG

pytestmark = pytest.mark.source("Rojas (1987)", "§5.6, eq. (5.6.3) and Keel et al. (1985)")

PSI = np.sqrt(2) / 2  # Rojas (1987) §5.6: ψ = √2/2, ω = 1 in its example
EPS = np.finfo(float).eps


def placed_within_bound(A, B, res, poles):
    """Each requested pole has an eigenvalue of A − BK within the Bauer–Fike bound:
    A − BK = (TΛ + R) T⁻¹ with R = (A − BK)T − TΛ, so each eigenvalue of A − BK is
    within κ(T) ‖R T⁻¹‖ of one of Λ, plus eig's own backward error κ(T)·2n·eps·‖A − BK‖."""
    M = A - B @ res.K
    R = M @ res.T - res.T @ res.Lam
    kappa = np.linalg.cond(res.T)
    bound = kappa * (
        np.linalg.norm(R, 2) * np.linalg.norm(np.linalg.inv(res.T), 2)
        + 2 * len(poles) * EPS * np.linalg.norm(M, 2)
    )
    ev = np.linalg.eigvals(M)
    worst = max(np.abs(ev - p).min() for p in poles)
    assert worst <= bound, (worst, bound)


def worst_perturbation(A, B, Lam, G, poles, eps=1e-3, count=20, seed=3):
    """min over random directions Δ (‖Δ‖ = 1) and signs of (J(G ± εΔ) − J(G)) / J(G),
    J = ‖K‖²_F, each perturbed gain checked to place the same poles."""
    fun = _objective(A, B, Lam)
    J0 = fun(G.ravel())[0]
    rng = np.random.default_rng(seed)
    worst = np.inf
    for _ in range(count):
        D = rng.standard_normal(G.shape)
        D /= np.linalg.norm(D)
        for s in (1.0, -1.0):
            K, _ = ctl.sylvester_gain(A, B, Lam, G + s * eps * D)
            ev = np.linalg.eigvals(A - B @ K)
            assert max(np.abs(ev - p).min() for p in poles) < 1e-8
            worst = min(worst, (fun((G + s * eps * D).ravel())[0] - J0) / J0)
    return worst


@pytest.fixture(scope="module")
def planar():
    """planar2 linearized at a moving state, model-assignment poles with distinct Ω."""
    arm = es.zoo.load("planar2")
    lin = ctl.linearize(arm, [0.3, 0.3], [0.5, 0.5], [0.2, 0.2])
    omega = np.array([1.0, 3.0])
    Kp, Kd = ctl.model_assignment(lin, PSI, omega)
    return lin, _model_poles(PSI, omega), np.hstack([Kp, Kd])


def test_gradient_against_central_differences(planar):
    lin, poles, _ = planar
    res = ctl.min_norm_place_poles(lin.A, lin.B, poles)
    fun = _objective(lin.A, lin.B, res.Lam)
    G = np.random.default_rng(1).standard_normal(res.G.shape)
    D = np.random.default_rng(2).standard_normal(G.shape)
    J, grad = fun(G.ravel())
    h = 1e-6
    fd = (fun((G + h * D).ravel())[0] - fun((G - h * D).ravel())[0]) / (2 * h)
    assert abs(fd - grad @ D.ravel()) <= 1e-6 * np.linalg.norm(grad) * np.linalg.norm(D)


def test_planar_minimum_is_placed_smaller_and_local(planar):
    lin, poles, K_model = planar
    A, B = lin.A, lin.B
    res = ctl.min_norm_place_poles(A, B, poles, initial=[K_model])
    placed_within_bound(A, B, res, poles)
    others = {
        "model assignment": K_model,
        "scipy": ctl.place_poles(A, B, poles),
        "sylvester": ctl.place_poles(A, B, poles, backend="sylvester"),
    }
    for name, K in others.items():
        assert res.norm <= np.linalg.norm(K) * (1 + 1e-12), name
    assert res.norm < 0.9 * np.linalg.norm(K_model)  # a real gain, not a tie
    # a local minimum: no direction of the family lowers J by more than rounding ...
    assert worst_perturbation(A, B, res.Lam, res.G, poles) > -1e-9
    # ... while model assignment's gain has a first-order descent direction
    G_model = ctl.sylvester_parameter(A, B, K_model, res.Lam)
    assert worst_perturbation(A, B, res.Lam, G_model, poles) < -1e-4


def test_t3_thesis_poles_have_one_gain_and_distinct_ones_a_smaller_minimum():
    """With Ω = 1 every pole repeats n/2 = rank B times and the closed loop
    [[0, 1], [X, Y]] with (M − p)(M − p̄) = 0 forces X = −|p|²1, Y = 2 Re p 1: all
    methods give model assignment's gain. With distinct poles the minimum is smaller."""
    t3 = es.zoo.load("cincinnati_t3")
    q05 = table_state(t3, "5.4.1", np.radians(INITIAL_THETA_DEG))[0]
    state = table_state(t3, "5.6.2", q05)
    data, lines = gain_norms(t3, state)
    thesis = data["thesis"]
    ref = thesis["model_assignment"]["norm"]
    for key in ("scipy", "sylvester", "min_norm"):
        assert abs(thesis[key]["norm"] - ref) <= 1e-8 * ref, key
    distinct = data["distinct"]
    for key in ("model_assignment", "scipy", "sylvester"):
        assert distinct["min_norm"]["norm"] <= distinct[key]["norm"], key
    lin = ctl.linearize(t3, *state)
    poles = _model_poles(PSI, DISTINCT_OMEGA)
    Kp, Kd = ctl.model_assignment(lin, PSI, DISTINCT_OMEGA)
    res = ctl.min_norm_place_poles(lin.A, lin.B, poles, initial=[np.hstack([Kp, Kd])])
    placed_within_bound(lin.A, lin.B, res, poles)
    assert any("min_norm" in line for line in lines)


def test_bad_requests_are_named(planar):
    lin, poles, K_model = planar
    with pytest.raises(ValueError, match="initial: expected gains of shape"):
        ctl.min_norm_place_poles(lin.A, lin.B, poles, initial=[np.zeros((2, 2))])
    with pytest.raises(ValueError, match="initial: a gain does not place"):
        ctl.min_norm_place_poles(lin.A, lin.B, poles, initial=[K_model * 2])
    with pytest.raises(ValueError, match="poles: expected 4 poles"):
        ctl.min_norm_place_poles(lin.A, lin.B, poles[:3])
    with pytest.raises(ValueError, match="not controllable"):
        ctl.min_norm_place_poles(lin.A, np.zeros_like(lin.B), poles)
