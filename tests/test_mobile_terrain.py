"""The tricycle on a slope and with a tilted steering axis: Araujo (2012), "Recomendaciones"
(surfaces that are not level, a steering axis not perpendicular to the floor), in the
coupled Gibbs–Appell model, checked against the Lagrange-multiplier DAE built the same way
(:mod:`eslabon.mobile.dae`), the work–energy balance and the level model."""

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from eslabon import mobile as mb
from eslabon.mobile import dae
from eslabon.mobile.energy import tree_potential_energy
from eslabon.mobile.tilted_steering import ground_heading, tilted_motion
from eslabon.zoo.araujo import puma560_araujo

pytestmark = pytest.mark.source("Araujo (2012)", "Recomendaciones; Ch. III, Table 3.1")

U, TAU = [150.0, 0.3], [6.0, 50.0, 10.0, -0.1, -0.5, -0.1]


@pytest.fixture(scope="module")
def arm():
    return puma560_araujo()


def _mm(arm, tilt=0.0, slope=None):
    p = mb.TricycleParams.seekur_jr_assumed(steering_tilt=tilt)
    return mb.MobileManipulator(mb.Tricycle(p), arm, mb.Mount.araujo_assumed(), ground=slope)


def _y0(mm):
    return mm.state(
        config=[0.1, -0.2, 0.2, 0.3, 0, 0, 0],
        q=[0.1, -0.5, 0.3, 0.0, 0.2, 0.0],
        nu=[0.8, 0.1],
        qd=[0.1, 0.0, 0.0, 0.0, 0.0, 0.0],
    )


def test_level_floor_and_vertical_axis_are_the_thesis_model(arm):
    """Slope(0) gives the level model's terms exactly; the tilted formulas at σ = 0 give
    the vertical-axis tricycle's motion to rounding."""
    level, flat = _mm(arm), _mm(arm, slope=mb.Slope(0.0, 0.7))
    rng = np.random.default_rng(3)
    for _ in range(3):
        y = _y0(level) + 0.1 * rng.standard_normal(level.n_state)
        for a, b in zip(mb.coupled_terms(level, y), mb.coupled_terms(flat, y), strict=True):
            np.testing.assert_array_equal(a, b)
        config, _, nu, _ = level.split(y)
        today = level.platform.motion(config, nu)
        general = tilted_motion(level.platform.params, config, nu)
        for name in ("rates", "accel0", "G"):
            np.testing.assert_allclose(
                getattr(general, name), getattr(today, name), rtol=1e-13, atol=1e-13
            )
        for bt, bg in zip(today.bodies, general.bodies, strict=True):
            for a, b in zip(bt[2:], bg[2:], strict=True):
                np.testing.assert_allclose(b, a, rtol=1e-12, atol=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize(
    "tilt, slope",
    [
        (np.radians(20), None),
        (0.0, mb.Slope(np.radians(8), 0.4)),
        (np.radians(20), mb.Slope(np.radians(8), 0.4)),
    ],
)
def test_gibbs_appell_follows_the_multiplier_dae(arm, tilt, slope):
    """Same trajectory, to the integrators' tolerance, from the Gibbs function in the
    quasi-velocities and from the tree's M, h with the rolling rows as multipliers."""
    mm = _mm(arm, tilt, slope)
    y0 = _y0(mm)
    t = np.linspace(0.0, 1.0, 11)
    sol = solve_ivp(
        lambda _, y: mb.state_derivative(mm, y, U, TAU),
        (0.0, 1.0),
        y0,
        method="DOP853",
        t_eval=t,
        rtol=1e-11,
        atol=1e-12,
    )
    pos, rates = dae.simulate(mm, t, y0, U, TAU)
    n = mm.n_config + mm.n_arm
    np.testing.assert_allclose(sol.y[:n].T, pos, rtol=0, atol=1e-9)
    gibbs_rates = [
        np.concatenate([mm.platform.motion(*_cv(mm, y)).rates, mm.split(y)[3]]) for y in sol.y.T
    ]
    np.testing.assert_allclose(gibbs_rates, rates, rtol=0, atol=1e-8)


def _cv(mm, y):
    config, _, nu, _ = mm.split(y)
    return config, nu


def test_work_energy_balance_on_a_slope_with_a_tilted_axis(arm):
    """E(t) − E(0) = W(t), E with every body's potential on the slope; the potential's
    change is a large part of the balance (the platform runs across the slope)."""
    mm = _mm(arm, np.radians(20), mb.Slope(np.radians(8), 0.4))
    config, q, nu, qd = mm.split(_y0(mm))
    run = mb.simulate(
        mm, q, qd, 1.0, samples=21, torque=TAU, u=U, config0=config, nu0=nu, rtol=1e-11
    )
    balance = run.energy - run.energy[0] - run.work
    V = tree_potential_energy(mm, np.hstack([run.config, run.q, run.nu, run.qd]))
    assert np.ptp(V) > 0.1 * np.abs(run.work).max()
    assert np.abs(balance).max() < 1e-7 * np.abs(run.work).max()


def test_gravity_terms_are_the_potentials_gradient(arm):
    """At rest, φ = Gᵀ ∂V/∂config on the platform rows and ∂V/∂q on the arm's: on a
    slope, and with the tilted axis on a level floor (the wheel's centre moves in height
    as it steers), by central differences of every body's potential."""
    for tilt, slope in ((np.radians(25), None), (np.radians(25), mb.Slope(0.15, 2.0))):
        mm = _mm(arm, tilt, slope)
        y = _y0(mm)
        config, q, _, _ = mm.split(y)
        y_rest = mm.state(config=config, q=q)
        _, phi, _ = mb.coupled_terms(mm, y_rest)
        G = mm.platform.motion(config, [0.0, 0.0]).G
        h = 1e-6
        grad = []
        for j in range(mm.n_config + mm.n_arm):
            e = np.zeros(mm.n_state)
            e[j] = h
            V = tree_potential_energy(mm, np.stack([y_rest + e, y_rest - e]))
            grad.append((V[0] - V[1]) / (2 * h))
        grad = np.array(grad)
        expected = np.concatenate([G.T @ grad[: mm.n_config], grad[mm.n_config :]])
        scale = np.abs(expected).max()
        np.testing.assert_allclose(phi, expected, rtol=0, atol=1e-7 * scale)
        if slope is None:
            assert abs(phi[1]) > 1e-3  # the steering feels gravity through the tilt


def test_ground_heading_of_a_leaning_wheel():
    """tan δ = cos σ tan β: the horizontal line of the wheel's plane after turning it by β
    about the tilted axis (Rodrigues), not the projection of its rolling direction."""
    from eslabon.spatial import rotation_from_axis_angle

    for sigma, beta in ((0.3, 0.4), (-0.5, -1.1), (1.2, 0.2)):
        k = [-np.sin(sigma), 0.0, np.cos(sigma)]  # the axis tilted back by σ
        n = rotation_from_axis_angle(k, beta) @ [0.0, 1.0, 0.0]
        line = np.cross(n, [0.0, 0.0, 1.0])
        assert np.isclose(np.arctan2(line[1], line[0]), ground_heading(beta, sigma))


def test_bad_ground_and_tilt_are_named(arm):
    with pytest.raises(ValueError, match="ground.angle"):
        mb.Slope(np.pi / 2)
    with pytest.raises(ValueError, match="ground: expected a Slope"):
        mb.MobileManipulator(mb.Tricycle(mb.TricycleParams.seekur_jr_assumed()), arm, ground=0.1)
    with pytest.raises(ValueError, match="steering_tilt"):
        mb.TricycleParams.seekur_jr_assumed(steering_tilt=2.0)
    with pytest.raises(ValueError, match="steering_tilt"):
        mb.TricycleParams.seekur_jr_assumed(steering_tilt=0.1, front_wheels=2, front_half_track=0.3)
    with pytest.raises(ValueError, match="mode"):
        _mm(arm, 0.2).with_mode("thesis")
    with pytest.raises(ValueError, match="mode"):
        _mm(arm, slope=mb.Slope(0.1)).with_mode("thesis")
    with pytest.raises(ValueError, match="rolling-wheel"):
        dae.rolling_constraints(_mm(arm, 0.2))
