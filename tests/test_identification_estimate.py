"""End to end: simulate a known robot along a Fourier excitation with noisy torques, estimate
its base parameters, and check them against the truth in units of their reported standard
deviations, and the torque prediction on a separate validation trajectory.

Statistical checks (fixed seeds, so each run is the same; the probabilities say how often a
correct estimator would fail them over seeds): with Gaussian noise of known per-joint
levels and exact accelerations, the weighted estimate β̂ − β ~ N(0, Σ_β), so

- the Mahalanobis distance (β̂ − β)ᵀ Σ̂⁻¹ (β̂ − β) is below the χ²_r quantile at 1 − 1e-6;
- every abs(β̂_k − β_k) / σ_k is below the two-sided Bonferroni bound of the normal
  distribution for a total false-failure probability of 1e-4 over the r parameters
  (about 4.8 σ for r = 52): a check of "within a few reported standard deviations" that a
  correct estimator passes with probability 1 − 1e-4.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats

import eslabon as es
from eslabon.identification import (
    FourierExcitation,
    base_parameters,
    consistent_estimate,
    estimate,
    joint_accelerations,
    joint_torque_regressor,
    optimize_excitation,
    parameters,
    pseudo_inertia,
    random_excitation,
    with_parameters,
)
from eslabon.identification.consistent import _bodies_of, _from_pseudo_inertia, _theta_of

FALSE_FAILURE = 1e-4  # of the per-parameter check, over seeds
MAHALANOBIS_FALSE_FAILURE = 1e-6


def _within_stated_confidence(result, truth):
    beta = result.base.values(parameters(truth))
    error = result.values - beta
    r = len(beta)
    distance = float(error @ np.linalg.solve(result.covariance, error))
    assert distance < scipy.stats.chi2.isf(MAHALANOBIS_FALSE_FAILURE, r)
    bound = scipy.stats.norm.isf(FALSE_FAILURE / (2 * r))
    worst = np.abs(error) / result.std
    assert np.all(worst < bound), (result.names[int(np.argmax(worst))], worst.max(), bound)


def _puma():
    arm = es.zoo.load("puma560")
    return es.with_joint_friction(
        arm,
        viscous=[1.5, 1.2, 1.0, 0.2, 0.2, 0.1],
        coulomb=[2.0, 1.5, 1.0, 0.3, 0.2, 0.1],
        armature=[0.3, 0.2, 0.1, 0.01, 0.01, 0.005],
    )


# joint limits of the trajectories: abs(q) ≤ 1.5 rad about zero, abs(q̇) ≤ 2 rad/s
PUMA_RANGE, PUMA_RATE = np.full(6, 1.5), np.full(6, 2.0)
PUMA_NOISE = np.array([0.5, 0.5, 0.3, 0.05, 0.05, 0.05])  # N·m, per joint


def test_fourier_excitation_derivatives_and_limits():
    e = random_excitation([0.2, -0.1, 0.0], [1.0, 0.5, 2.0], [1.0, 3.0, 0.5], frequency=0.7)
    t = np.linspace(0.0, e.period, 2001)
    q, qd, qdd = e.sample(t)
    h = 1e-5
    qp, qdp, _ = e.sample(t + h)
    qm, qdm, _ = e.sample(t - h)
    assert np.allclose((qp - qm) / (2 * h), qd, atol=1e-8)
    assert np.allclose((qdp - qdm) / (2 * h), qdd, atol=1e-8)
    q_bound, qd_bound, qdd_bound = e.bounds()
    assert np.all(np.abs(q - e.q0) <= q_bound + 1e-12)
    assert np.all(np.abs(qd) <= qd_bound + 1e-12)
    assert np.all(np.abs(qdd) <= qdd_bound + 1e-12)
    # each joint meets the tighter of its two limits
    tight = np.minimum(q_bound / [1.0, 0.5, 2.0], qd_bound / [1.0, 3.0, 0.5])
    assert np.allclose(np.maximum(q_bound / [1.0, 0.5, 2.0], qd_bound / [1.0, 3.0, 0.5]), 1.0)
    assert np.all(tight <= 1.0 + 1e-12)
    # periodic
    q_end, qd_end, _ = e.sample([e.period])
    assert np.allclose(q_end, q[0]) and np.allclose(qd_end, qd[0])


def test_puma_recovers_base_parameters_within_stated_confidence():
    truth = _puma()
    rng = np.random.default_rng(7)
    e = random_excitation(np.zeros(6), PUMA_RANGE, PUMA_RATE, frequency=0.2 * np.pi, seed=1)
    q, qd, qdd = e.sample(np.arange(0.0, e.period, 0.01))  # 1000 samples
    tau = es.inverse_dynamics(truth, q, qd, qdd) + PUMA_NOISE * rng.standard_normal(q.shape)
    result = estimate(truth, q, qd, tau, qdd=qdd, weighting="joint")
    assert result.base.count == 52
    assert result.names == result.base.expressions
    _within_stated_confidence(result, truth)
    # the weighted residual has unit variance; the per-joint noise is found
    assert abs(result.sigma - 1.0) < 0.1
    assert np.allclose(result.joint_sigma, PUMA_NOISE, rtol=0.1)
    # validation: another trajectory, another noise draw
    v = random_excitation(np.zeros(6), PUMA_RANGE, PUMA_RATE, frequency=0.3 * np.pi, seed=2)
    qv, qdv, qddv = v.sample(np.arange(0.0, v.period, 0.01))
    clean = es.inverse_dynamics(truth, qv, qdv, qddv)
    measured = clean + PUMA_NOISE * rng.standard_normal(qv.shape)
    rms = result.validate(qv, qdv, qddv, measured)
    # sampling spread of an RMS of 666 samples is 1/sqrt(2·666) ≈ 3 %: ±10 % is 3.6 of it
    assert np.all(np.abs(rms / PUMA_NOISE - 1.0) < 0.1), rms / PUMA_NOISE
    # the prediction error itself is far below the noise (its variance ~ σ² r / N)
    error = np.sqrt(np.mean((result.predict(qv, qdv, qddv) - clean) ** 2, axis=0))
    assert np.all(error < 0.3 * PUMA_NOISE), error / PUMA_NOISE


def test_ordinary_least_squares_and_residuals_from_the_factors():
    truth = es.with_joint_friction(es.zoo.load("planar2"), viscous=0.3, coulomb=0.2)
    rng = np.random.default_rng(3)
    e = random_excitation([0.0, 0.0], [2.0, 2.0], [3.0, 3.0], frequency=0.5, seed=4)
    q, qd, qdd = e.sample(np.linspace(0.0, 3 * e.period, 3000))
    noise = 0.05  # the same on both joints: ordinary least squares' covariance holds
    tau = es.inverse_dynamics(truth, q, qd, qdd) + noise * rng.standard_normal(q.shape)
    result = estimate(truth, q, qd, tau, qdd=qdd)
    _within_stated_confidence(result, truth)
    assert np.all(result.weights == 1.0)
    assert abs(result.sigma / noise - 1.0) < 0.1
    # the residual of any β from the factors equals the residual of the data
    beta = result.values + rng.standard_normal(result.base.count)
    direct = np.sqrt(np.mean((tau - result.predict(q, qd, qdd, beta)) ** 2, axis=0))
    assert np.allclose(result.residual_rms(beta), direct, rtol=1e-9)
    assert np.allclose(result.rms, result.validate(q, qd, qdd, tau), rtol=1e-9)
    # the standard deviation equals sigma · sqrt(diag((W_bᵀ W_b)⁻¹)) formed directly
    Wb = result.base.regressor(joint_torque_regressor(truth, q, qd, qdd)).reshape(
        -1, result.base.count
    )
    direct_std = result.sigma * np.sqrt(np.diag(np.linalg.inv(Wb.T @ Wb)))
    assert np.allclose(result.std, direct_std, rtol=1e-6)
    assert "base parameters from 3000 samples" in str(result)


def test_accelerations_from_the_filter():
    truth = es.with_joint_friction(es.zoo.load("planar2"), viscous=0.3, coulomb=0.2)
    rng = np.random.default_rng(5)
    e = random_excitation([0.0, 0.0], [2.0, 2.0], [3.0, 3.0], frequency=0.5, seed=6)
    dt = 0.002
    t = np.arange(0.0, 3 * e.period, dt)
    q, qd, qdd = e.sample(t)
    qd_measured = qd + 1e-3 * rng.standard_normal(qd.shape)
    # harmonics up to 5 ω_f = 0.4 Hz; cut-off 5 Hz; the first and last 3 / 5 s are the
    # filter's transient (left out by estimate)
    found = joint_accelerations(t, qd_measured, cutoff=5.0)
    inner = slice(300, -300)
    assert np.max(np.abs(found[inner] - qdd[inner])) < 0.02 * np.max(np.abs(qdd))
    tau = es.inverse_dynamics(truth, q, qd, qdd) + 0.05 * rng.standard_normal(q.shape)
    filtered = estimate(truth, q, qd_measured, tau, t=t, cutoff=5.0)
    exact = estimate(truth, q, qd, tau, qdd=qdd)
    assert filtered.samples == len(t) - 2 * 300
    assert np.all(filtered.rms < 1.05 * exact.rms)
    assert np.allclose(filtered.values, exact.values, atol=3 * exact.std)


def test_bad_estimation_input():
    arm = es.zoo.load("planar2")
    q = np.zeros((50, 2))
    with pytest.raises(ValueError, match="qd: 49 samples, but q has 50"):
        estimate(arm, q, q[:49], q, qdd=q)
    bad = q.copy()
    bad[17, 1] = np.nan
    with pytest.raises(ValueError, match="tau: not finite at row 17"):
        estimate(arm, q, q, bad, qdd=q)
    with pytest.raises(ValueError, match=r"q: expected shape \(N, 2\)"):
        estimate(arm, np.zeros((50, 3)), q, q, qdd=q)
    with pytest.raises(ValueError, match="give the accelerations or both t and cutoff"):
        estimate(arm, q, q, q)
    rng = np.random.default_rng(0)
    q1, qd1, qdd1 = rng.uniform(-1, 1, (3, 50, 2))
    with pytest.raises(ValueError, match="weighting"):
        estimate(arm, q1, qd1, qd1, qdd=qdd1, weighting="robust")
    with pytest.raises(ValueError, match="weighting: expected 2 positive noise levels"):
        estimate(arm, q1, qd1, qd1, qdd=qdd1, weighting=[1.0, -1.0])
    with pytest.raises(ValueError, match="2 samples give 4 equations for 11 base parameters"):
        estimate(arm, q[:2], q[:2], q[:2], qdd=q[:2])
    # standing still: friction and inertia are not excited, and the message names them
    still = rng.uniform(-1, 1, (50, 2))
    with pytest.raises(ValueError, match=r"do not determine every base parameter.*fv"):
        estimate(arm, still, q, q, qdd=q)
    with pytest.raises(ValueError, match="t: expected evenly spaced"):
        joint_accelerations(np.r_[0.0, 0.1, 0.3, 0.4], np.zeros((4, 1)), cutoff=1.0)
    with pytest.raises(ValueError, match="cutoff"):
        joint_accelerations(np.arange(100) * 0.01, np.zeros((100, 1)), cutoff=80.0)


def test_excitation_refuses_bad_limits():
    with pytest.raises(ValueError, match="q_range"):
        random_excitation([0.0], [0.0], [1.0], frequency=1.0)
    with pytest.raises(ValueError, match="frequency"):
        random_excitation([0.0], [1.0], [1.0], frequency=-1.0)
    assert FourierExcitation(2.0, np.zeros(1), np.ones((1, 1)), np.zeros((1, 1))).period == np.pi


def _physical_puma():
    """The zoo's Puma 560 made a real robot: its link 1 (no mass) and link 3 (inertia
    breaking a triangle inequality) get a positive-definite pseudo-inertia; friction and
    armature as in _puma()."""
    zoo = _puma()
    pi = parameters(zoo)
    J = pseudo_inertia(pi, zoo.nb)
    for i in range(zoo.nb):
        values, vectors = np.linalg.eigh(J[i])
        J[i] = vectors @ np.diag(np.maximum(values, 1e-3)) @ vectors.T
    J[0] += np.diag([0.01, 0.01, 0.01, 1.0])
    pi[: 10 * zoo.nb] = _from_pseudo_inertia(J).ravel()
    truth = with_parameters(zoo, pi)
    assert np.all(np.linalg.eigvalsh(pseudo_inertia(parameters(truth), zoo.nb)) > 0)
    return truth


def test_consistent_estimate_is_physical_and_fits_like_least_squares(tmp_path):
    truth = _physical_puma()
    drawing = es.zoo.load("puma560")  # no friction, two bodies not physical: the start
    rng = np.random.default_rng(11)
    e = random_excitation(np.zeros(6), PUMA_RANGE, PUMA_RATE, frequency=0.2 * np.pi, seed=1)
    q, qd, qdd = e.sample(np.arange(0.0, e.period, 0.01))
    tau = es.inverse_dynamics(truth, q, qd, qdd) + PUMA_NOISE * rng.standard_normal(q.shape)
    result = estimate(drawing, q, qd, tau, qdd=qdd, weighting="joint")
    _within_stated_confidence(result, truth)
    found = consistent_estimate(result)
    J = pseudo_inertia(found.pi, truth.nb)
    assert np.all(np.linalg.eigvalsh(J) > 0)
    assert np.all(found.model.mass[1:] > 0)
    assert np.all(found.pi[10 * truth.nb :] >= 0)
    # the truth is physical and lies about r (χ²_r) from β̂: the consistent fit is closer
    assert found.distance < scipy.stats.chi2.isf(MAHALANOBIS_FALSE_FAILURE, result.base.count)
    assert np.all(found.rms < 1.01 * result.rms)
    # its model predicts the torques: inverse dynamics of the written-back model
    v = random_excitation(np.zeros(6), PUMA_RANGE, PUMA_RATE, frequency=0.3 * np.pi, seed=2)
    qv, qdv, qddv = v.sample(np.arange(0.0, v.period, 0.01))
    measured = es.inverse_dynamics(truth, qv, qdv, qddv) + PUMA_NOISE * rng.standard_normal(
        qv.shape
    )
    path = found.save(tmp_path / "identified.yaml")
    back = es.load_model(path)
    predicted = es.inverse_dynamics(back, qv, qdv, qddv)
    rms = np.sqrt(np.mean((measured - predicted) ** 2, axis=0))
    assert np.all(rms < 1.02 * result.validate(qv, qdv, qddv, measured)), rms / PUMA_NOISE


def test_log_cholesky_round_trip_and_derivative():
    rng = np.random.default_rng(2)
    A = rng.standard_normal((4, 4, 4))
    J = A @ np.swapaxes(A, 1, 2) + 0.1 * np.eye(4)
    theta = _theta_of(J)
    pi = _bodies_of(theta).ravel()
    assert np.allclose(pseudo_inertia(pi, 4), J, rtol=1e-12, atol=1e-12)
    _, derivative = _bodies_of(theta, derivative=True)
    h = 1e-6
    for k in range(10):
        step = h * np.eye(10)[k]
        central = (_bodies_of(theta + step) - _bodies_of(theta - step)) / (2 * h)
        assert np.allclose(derivative[:, :, k], central, atol=1e-7)


def test_optimized_excitation_is_better_conditioned_and_within_limits():
    arm = es.with_joint_friction(es.zoo.load("planar2"), viscous=0.3, coulomb=0.2)
    q_center, q_range, qd_max = np.array([0.3, -0.2]), np.array([1.5, 1.0]), np.array([2.0, 3.0])
    found = optimize_excitation(
        arm, q_center, q_range, qd_max, frequency=0.6, harmonics=3, max_iterations=10
    )
    e = found.excitation
    assert found.condition < 0.9 * found.start_condition
    q, qd, _ = e.sample(np.linspace(0.0, e.period, 5001))
    assert np.all(np.abs(q - q_center) <= q_range + 1e-12)
    assert np.all(np.abs(qd) <= qd_max + 1e-12)
    # the reported condition number is that of the stacked base regressor at 100 times
    base = base_parameters(arm)
    t = np.arange(100) * (e.period / 100)
    W = base.regressor(joint_torque_regressor(arm, *e.sample(t))).reshape(-1, base.count)
    assert np.isclose(np.linalg.cond(W), found.condition, rtol=1e-8)
    with pytest.raises(ValueError, match="samples: 5 times give 10 rows"):
        optimize_excitation(arm, q_center, q_range, qd_max, frequency=0.6, samples=5)


def test_consistent_estimate_refuses_bad_input():
    arm = es.zoo.load("planar2")
    rng = np.random.default_rng(0)
    q, qd, qdd = rng.uniform(-1, 1, (3, 50, 2))
    result = estimate(arm, q, qd, es.inverse_dynamics(arm, q, qd, qdd) + 0.01 * qd, qdd=qdd)
    with pytest.raises(ValueError, match="prior_weight"):
        consistent_estimate(result, prior_weight=-1.0)
    with pytest.raises(ValueError, match="start: expected a model with the estimate's bodies"):
        consistent_estimate(result, start=es.zoo.load("puma560"))


def test_the_consistent_estimate_of_noise_free_torques_stays_at_their_fit():
    """Exact torques leave σ at round-off: the consistent estimate must not divide by it
    (no overflow, no warning) and must fit them as well as a physical model can."""
    import warnings

    arm = es.with_joint_friction(es.zoo.load("planar2"), viscous=0.3, coulomb=0.2)
    rng = np.random.default_rng(3)
    q, qd, qdd = rng.standard_normal((3, 200, 2))
    tau = es.inverse_dynamics(arm, q, qd, qdd)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        found = consistent_estimate(estimate(es.zoo.load("planar2"), q, qd, tau, qdd=qdd))
    assert np.all(np.isfinite(found.pi)) and np.isfinite(found.distance)
    assert np.all(found.rms < 1e-6 * np.abs(tau).max())
