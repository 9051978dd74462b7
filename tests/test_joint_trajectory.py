"""Joint-space trajectories (``eslabon.joint_trajectory``): end conditions, rates and
accelerations that are the derivatives of the positions (central differences), the
trapezoidal law's cruise rate, and a quintic that inverse and forward dynamics carry
through (τ = ID(q, q̇, q̈) gives q̈ back)."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

import eslabon as es
from eslabon.trajectory import joint


def test_doctest():
    assert doctest.testmod(joint).failed == 0


def _derivative(t, x):
    """Central differences at the interior samples (and the samples themselves)."""
    return (x[2:] - x[:-2]) / (t[2:] - t[:-2])[:, None]


def test_quintic_rest_to_rest():
    q0, q1 = np.array([0.1, -0.4, 1.0]), np.array([1.2, 0.3, -0.5])
    t = np.linspace(0.5, 2.5, 4001)
    tr = es.joint_trajectory(q0, q1, t)
    np.testing.assert_allclose(tr.q[[0, -1]], [q0, q1], atol=1e-15)
    np.testing.assert_allclose(tr.qd[[0, -1]], 0.0, atol=1e-13)
    np.testing.assert_allclose(tr.qdd[[0, -1]], 0.0, atol=1e-12)
    np.testing.assert_allclose(tr.q[2000], 0.5 * (q0 + q1), atol=1e-15)  # symmetric
    np.testing.assert_allclose(_derivative(t, tr.q), tr.qd[1:-1], atol=1e-6)
    np.testing.assert_allclose(_derivative(t, tr.qd), tr.qdd[1:-1], atol=1e-5)
    # the rest-to-rest quintic's peak rate is 15/8 of the mean rate
    np.testing.assert_allclose(np.abs(tr.qd).max(0), 15 / 8 * np.abs(q1 - q0) / 2.0, rtol=1e-6)


def test_quintic_with_end_rates():
    t = np.linspace(0.0, 1.5, 3001)
    tr = es.joint_trajectory([0.0, 1.0], [1.0, 1.0], t, qd0=[0.5, -0.2], qd1=[0.0, 0.3])
    np.testing.assert_allclose(tr.qd[0], [0.5, -0.2], atol=1e-13)
    np.testing.assert_allclose(tr.qd[-1], [0.0, 0.3], atol=1e-13)
    np.testing.assert_allclose(tr.q[-1], [1.0, 1.0], atol=1e-14)
    np.testing.assert_allclose(_derivative(t, tr.q), tr.qd[1:-1], atol=1e-6)


def test_trapezoidal_cruises_at_one_and_a_half_times_the_mean_rate():
    t = np.linspace(0.0, 3.0, 3001)
    q0, q1 = np.array([0.0, 2.0]), np.array([1.5, -1.0])
    tr = es.joint_trajectory(q0, q1, t, profile="trapezoidal")
    np.testing.assert_allclose(tr.q[[0, -1]], [q0, q1], atol=1e-14)
    np.testing.assert_allclose(tr.qd[[0, -1]], 0.0, atol=1e-14)
    np.testing.assert_allclose(tr.qd[1500], 1.5 * (q1 - q0) / 3.0, rtol=1e-12)
    # (central differences straddling a blend miss by h |q̈| / 4 at most: 3.75e-4 here)
    np.testing.assert_allclose(_derivative(t, tr.q), tr.qd[1:-1], atol=4e-4)
    assert np.all(np.abs(np.diff(tr.qd, axis=0)) < 1e-2)  # continuous rates


def test_a_quintic_through_inverse_and_forward_dynamics():
    puma = es.zoo.load("puma560")
    t = np.linspace(0.0, 1.0, 11)
    tr = es.joint_trajectory(np.zeros(6), np.full(6, 0.8), t)
    tau = es.inverse_dynamics(puma, tr.q, tr.qd, tr.qdd)
    np.testing.assert_allclose(es.forward_dynamics(puma, tr.q, tr.qd, tau), tr.qdd, atol=1e-9)
    from eslabon.control.tracking import Nominal

    nominal = Nominal(*tr)
    q, qd, qdd = nominal(0.35)
    exact = es.joint_trajectory(np.zeros(6), np.full(6, 0.8), np.array([0.0, 0.35, 1.0]))
    np.testing.assert_allclose(q, exact.q[1], atol=1e-12)


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        (([0, 0], [1, 1, 1], [0, 1]), {}, "q1: expected shape \\(2,\\), got \\(3,\\)"),
        (([0, 0], [1, 1], [0, 0]), {}, "t: expected at least two increasing"),
        (([0, 0], [1, 1], [0, 1]), dict(profile="cubic"), "profile: expected one of"),
        (([0, 0], [1, 1], [0, 1]), dict(profile="trapezoidal", qd0=[1, 1]), "qd0, qd1"),
        (([0, np.nan], [1, 1], [0, 1]), {}, "q0: expected finite"),
    ],
)
def test_bad_arguments_are_refused_naming_them(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        es.joint_trajectory(*args, **kwargs)
