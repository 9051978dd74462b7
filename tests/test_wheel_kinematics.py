"""Sheth–Uicker wheel kinematics, seed 003 (Araujo 2012) eqs 3.4–3.21 (Ch. III,
"Cinemática de la plataforma móvil"):
the sign-corrected wheel Jacobian against the transform chain it comes from, the
composite least-squares Jacobian and slip residual, the tricycle's 3.18–3.21."""

import functools

import numpy as np
import pytest

from eslabon.mobile import wheel_kinematics as su

R_WHEEL, L_HALF, B = 0.2, 0.314, 0.9


def _pose(T):
    return np.array([T[0, 3], T[1, 3], np.arctan2(T[1, 0], T[0, 0])])


def _F_T_C(t, body, steer_rate, hinge, steer, contact):
    """F→R→H→S→C at time ``t``: R moving at ``body`` (ẋ_R, ẏ_R, θ̇_R in R, at t = 0), the
    steering angle ``steer`` turning at ``steer_rate``; ``hinge`` and ``contact`` (θ, x, y)."""
    F_T_R = su.planar_transform(body[2] * t, body[0] * t, body[1] * t)  # R̄ = R at 0
    return (
        F_T_R
        @ su.planar_transform(*hinge)
        @ su.planar_transform(steer + steer_rate * t, 0, 0)
        @ su.planar_transform(*contact)
    )


def test_wheel_jacobian_matches_the_transform_chain():
    """Eq 3.13: F→R→H→S→C composed from Table 3.2 transforms; the contact frame's
    velocity relative to the floor, in C, and its yaw rate, obtained by central differences
    of the chain over a small time step, give back the body velocity through J̄ (1e-8)."""
    rng = np.random.default_rng(2)
    for _ in range(20):
        th_H, xh, yh = rng.uniform(-np.pi, np.pi), *rng.uniform(-1, 1, 2)
        th_S, th_SC, xs, ys = rng.uniform(-1, 1), rng.uniform(-0.5, 0.5), *rng.uniform(-0.2, 0.2, 2)
        body = rng.normal(size=3)  # ẋ_R, ẏ_R, θ̇_R (in R, at t = 0)
        steer_rate = rng.normal()

        F_T_C = functools.partial(
            _F_T_C,
            body=body,
            steer_rate=steer_rate,
            hinge=(th_H, xh, yh),
            steer=th_S,
            contact=(th_SC, xs, ys),
        )

        h = 1e-6
        dp = (_pose(F_T_C(h)) - _pose(F_T_C(-h))) / (2 * h)
        C0 = F_T_C(0.0)
        v_in_C = C0[:2, :2].T @ dp[:2]
        qd = np.array([v_in_C[0], v_in_C[1], dp[2], steer_rate])
        x_c, y_c, th_c = _pose(C0)
        J = su.wheel_jacobian(th_c, (x_c, y_c), (xh, yh))
        np.testing.assert_allclose(J @ qd, body, atol=1e-8)


@pytest.mark.parametrize("beta_deg", [-80, -30, 0, 15, 60, 80])
def test_tricycle_composite_velocity_and_slip(beta_deg):
    """Eqs 3.15–3.19: consistent wheel rates give ṗ = [cos β, 0, sin β / b] ẋ_C with a
    residual < 1e-12; perturbing any one wheel rate by 1e-3 gives a residual > 1e-6."""
    beta = np.radians(beta_deg)
    J = su.tricycle_wheel_jacobians(beta, R_WHEEL, L_HALF, B)
    rates = su.tricycle_wheel_rates(beta, 0.8, 0.3, R_WHEEL, L_HALF, B)
    res = su.composite(J, rates)
    xc = rates[2][0]
    np.testing.assert_allclose(
        res.body_velocity, su.tricycle_body_velocity(beta, xc, B), atol=1e-12
    )
    np.testing.assert_allclose(res.body_velocity, [0.8, 0, 0.8 * np.tan(beta) / B], atol=1e-12)
    assert np.abs(res.residual).max() < 1e-12
    for w in range(3):
        for k in range(len(rates[w])):
            bad = [r.copy() for r in rates]
            bad[w][k] += 1e-3
            assert su.slip_residual_norm(J, bad) > 1e-6, (w, k)


def test_tricycle_acceleration_is_the_inertial_one():
    """Eqs 3.20–3.21: the default equals the inertial acceleration of R (finite differences
    of the floor-frame velocity along a smooth β(t), ẋ_C(t), rotated into R) to 1e-7; the
    thesis's form differs exactly by the lateral V θ̇."""
    beta = lambda t: 0.4 + 0.3 * np.sin(2 * t)
    xc = lambda t: 1.0 + 0.5 * t**2
    t0, h = 0.7, 1e-5

    def heading(t):  # θ(t) = ∫ ẋ_C sin β / b, by fine quadrature
        s = np.linspace(0.0, t, 20001)
        f = xc(s) * np.sin(beta(s)) / B
        return np.sum((f[1:] + f[:-1]) / 2) * (s[1] - s[0])

    def floor_velocity(t):
        v = su.tricycle_body_velocity(beta(t), xc(t), B)
        th = heading(t)
        return np.array(
            [np.cos(th) * v[0] - np.sin(th) * v[1], np.sin(th) * v[0] + np.cos(th) * v[1], v[2]]
        )

    a_floor = (floor_velocity(t0 + h) - floor_velocity(t0 - h)) / (2 * h)
    th = heading(t0)
    a_R = np.array(
        [
            np.cos(th) * a_floor[0] + np.sin(th) * a_floor[1],
            -np.sin(th) * a_floor[0] + np.cos(th) * a_floor[1],
            a_floor[2],
        ]
    )
    bd = 0.6 * np.cos(2 * t0)
    acc = su.tricycle_body_acceleration(beta(t0), bd, xc(t0), t0, B)
    np.testing.assert_allclose(acc, a_R, atol=1e-7)
    thesis = su.tricycle_body_acceleration(beta(t0), bd, xc(t0), t0, B, thesis=True)
    V, yaw = xc(t0) * np.cos(beta(t0)), xc(t0) * np.sin(beta(t0)) / B
    np.testing.assert_allclose(acc - thesis, [0, V * yaw, 0], atol=1e-14)


@pytest.mark.parametrize(
    "call, message",
    [
        (
            lambda: su.tricycle_wheel_jacobians(np.pi / 2, R_WHEEL, L_HALF, B),
            r"beta: the steering angle",
        ),
        (lambda: su.tricycle_wheel_rates(0.1, np.nan, 0.0, R_WHEEL, L_HALF, B), r"V: "),
        (
            lambda: su.tricycle_wheel_jacobians(0.1, 0.0, L_HALF, B),
            r"r: the wheel radius must be > 0",
        ),
        (lambda: su.tricycle_body_velocity(0.1, 1.0, -1.0), r"b: the wheelbase must be > 0"),
        (lambda: su.wheel_jacobian(0.0, (1.0, 2.0, 3.0)), r"contact"),
        (lambda: su.composite([np.eye(3)], [np.ones(2)]), r"wheel_rates\[0\]"),
    ],
)
def test_bad_input_is_named(call, message):
    with pytest.raises(ValueError, match=message):
        call()
