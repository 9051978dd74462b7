"""Tables 3.3–3.4 of Araujo (2012) (first and second derivatives of the Sheth–Uicker
transforms) and the velocity / acceleration cascades of Table A.2, by name, against
central differences of the tricycle's kinematics integrated on their own."""

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from eslabon import mobile as mb
from eslabon.mobile.transform_derivatives import (
    acceleration_cascade,
    planar_accel,
    planar_rate,
    tricycle_tables,
    velocity_cascade,
)
from eslabon.mobile.wheel_kinematics import planar_transform

pytestmark = pytest.mark.source("Araujo (2012)", "Ch. III, Tables 3.2–3.4; Annex 2, Table A.2")

H = 1e-3  # central-difference step [s]


def _cart():
    return mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())


def _pose_history(b, s0, acc, ts):
    """Integrate θ̇ = V tan β / b, ẋ = V cos θ, ẏ = V sin θ with V̇, β̈ constant (the
    tricycle's rolling constraints written here, not taken from eslabon)."""

    def f(_, s):
        x, y, th, be, V, bd = s
        return [V * np.cos(th), V * np.sin(th), V * np.tan(be) / b, bd, acc[0], acc[1]]

    out = {}
    for t in ts:
        if t == 0.0:
            out[t] = np.asarray(s0, float)
            continue
        sol = solve_ivp(f, (0.0, t), s0, method="DOP853", rtol=1e-13, atol=1e-14)
        out[t] = sol.y[:, -1]
    return out


def _differences(fun, ts):
    f = {t: fun(t) for t in ts}
    d1 = (f[H] - f[-H]) / (2 * H)
    d2 = (f[H] - 2 * f[0.0] + f[-H]) / H**2
    return d1, d2


@pytest.mark.parametrize(
    "state",
    [
        ([0.3, -0.2, 0.4, 0.35, 1.2, 0.3], [0.5, -0.8]),
        ([0.0, 0.0, -1.0, -0.6, 0.7, -0.4], [-0.3, 1.5]),
    ],
)
def test_tables_and_cascades_are_the_derivatives(state):
    s0, acc = state
    cart = _cart()
    b, r = cart.params.wheelbase, cart.params.front_wheel_radius
    ts = (-H, 0.0, H)
    hist = _pose_history(b, s0, acc, ts)
    x, y, th, be, V, bd = s0
    tab = tricycle_tables(cart, [x, y, th, be, 0, 0, 0], [V, bd], acc)
    F_T_R = {t: planar_transform(h[2], h[0], h[1]) for t, h in hist.items()}
    Rbar_T_F = np.linalg.inv(tab.F_T_Rbar)
    Cbar_T_F = np.linalg.inv(tab.F_T_Cbar)

    def Rbar_T_R(t):
        return Rbar_T_F @ F_T_R[t]

    def H_T_S(t):
        return planar_transform(hist[t][3], 0.0, 0.0)

    def Rbar_T_C(t):
        return Rbar_T_R(t) @ tab.R_T_H @ H_T_S(t) @ planar_transform(0.0, 0.0, 0.0, -r)

    def Cbar_T_C(t):
        return Cbar_T_F @ F_T_R[t] @ tab.R_T_H @ H_T_S(t) @ tab.S_T_C

    for fun, first, second in (
        (Rbar_T_R, tab.Rbar_Tdot_R, tab.Rbar_Tddot_R),  # Tables 3.3, 3.4: R̄–R
        (H_T_S, tab.H_Tdot_S, tab.H_Tddot_S),  # H–S
        (Cbar_T_C, tab.Cbar_Tdot_C, tab.Cbar_Tddot_C),  # C̄–C
        (Rbar_T_C, tab.Rbar_Tdot_C, tab.Rbar_Tddot_C),  # the cascades of Table A.2
    ):
        d1, d2 = _differences(fun, ts)
        scale = max(1.0, np.abs(second).max())
        np.testing.assert_allclose(first, d1, rtol=0, atol=1e-6 * scale)
        np.testing.assert_allclose(second, d2, rtol=0, atol=1e-5 * scale)
    np.testing.assert_array_equal(tab.Rbar_T_R, np.eye(4))
    # closing the chain, (3.6)–(3.11): R̄Ṫ_C = R̄T_C̄ C̄Ṫ_C, and the same for T̈
    Rbar_T_Cbar = Rbar_T_F @ tab.F_T_Cbar
    np.testing.assert_allclose(tab.Rbar_Tdot_C, Rbar_T_Cbar @ tab.Cbar_Tdot_C, atol=1e-12)
    np.testing.assert_allclose(tab.Rbar_Tddot_C, Rbar_T_Cbar @ tab.Cbar_Tddot_C, atol=1e-12)
    assert tab.Cbar_Tdot_C[1, 3] == pytest.approx(0.0, abs=1e-12)  # no skid
    # the lateral acceleration of R that (3.21) leaves out: R̄ÿ_R = V θ̇
    assert tab.Rbar_Tddot_R[1, 3] == pytest.approx(V * V * np.tan(be) / b, rel=1e-12)


def test_cascades_of_any_chain_are_the_derivatives_of_the_product():
    rng = np.random.default_rng(7)
    coef = rng.standard_normal((4, 4, 3))  # four transforms, θ x y each a quadratic in t

    def factors(t):
        return [planar_transform(*(c[:, 0] + c[:, 1] * t + c[:, 2] * t * t)[:3]) for c in coef]

    def rates(t):
        out = []
        for c in coef:
            v, d, a = (
                c[:, 0] + c[:, 1] * t + c[:, 2] * t * t,
                c[:, 1] + 2 * c[:, 2] * t,
                2 * c[:, 2],
            )
            out.append(
                (planar_rate(v[0], d[0], d[1], d[2]), planar_accel(v[0], d[0], a[0], a[1], a[2]))
            )
        return out

    t0 = 0.3

    def differences(h):
        f = {s: np.linalg.multi_dot(factors(t0 + s)) for s in (-h, 0.0, h)}
        return (f[h] - f[-h]) / (2 * h), (f[h] - 2 * f[0.0] + f[-h]) / h**2

    d1, d2 = differences(H)
    # the differences' O(h²) error at H, estimated from the step 2H (Richardson: the
    # error at 2H is 4 times that at H); their round-off, ~4 eps |Π| / H², is ~1e-9 of
    # max|d2|. The estimates are ~1e-6 and 3e-6 of max|d2| here.
    h1, h2 = differences(2 * H)
    est1, est2 = np.abs(h1 - d1).max() / 3, np.abs(h2 - d2).max() / 3
    scale = np.abs(d2).max()
    r = rates(t0)
    T = factors(t0)
    Td = [a for a, _ in r]
    Tdd = [b for _, b in r]
    np.testing.assert_allclose(velocity_cascade(T, Td), d1, rtol=0, atol=2 * est1 + 1e-8 * scale)
    np.testing.assert_allclose(
        acceleration_cascade(T, Td, Tdd), d2, rtol=0, atol=2 * est2 + 1e-8 * scale
    )


def test_bad_chains_and_platforms_are_named():
    with pytest.raises(ValueError, match="T_dot"):
        velocity_cascade([np.eye(4)] * 2, [np.eye(4)])
    with pytest.raises(ValueError, match="T\\[0\\]"):
        velocity_cascade([np.eye(3)], [np.eye(4)])
    two = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed(front_wheels=2, front_half_track=0.3))
    with pytest.raises(ValueError, match="tricycle"):
        tricycle_tables(two, np.zeros(8), [1.0, 0.0], [0.0, 0.0])
    with pytest.raises(ValueError, match="nu_dot"):
        tricycle_tables(_cart(), np.zeros(7), [1.0, 0.0], [0.0])
