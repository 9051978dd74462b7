"""Mobile manipulators, seed 003 (Araujo 2012): Martinenko's cart, the tricycle and a
differential drive as quasi-velocity maps, the thesis's one-way coupling and the coupled
Gibbs–Appell model. The thesis prints no numbers: the checks are closed forms, the
fixed-base arm and a plain-numpy Newton–Euler (tests/rnea_oracle.py) where the thesis's
coupling reduces to it, an independent Lagrange-multiplier DAE and the work–energy
balance."""

import inspect

import numpy as np
import pytest
from scipy.integrate import solve_ivp

import eslabon as es
from eslabon import mobile as mb
from eslabon.mobile import dae, steered_cart
from eslabon.zoo.araujo import puma560_araujo
from rnea_oracle import rnea as oracle_rnea

RUN1 = dict(u=[150.0, 0.3], tau=[6.0, 50.0, 10.0, -0.1, -0.5, -0.1])
RUN2 = dict(u=[300.0, 0.0], tau=np.zeros(6))
# the same inputs as simulate takes them (the arm's torques are `torque`, as in es.simulate)
SIM1 = dict(torque=RUN1["tau"], u=RUN1["u"])
SIM2 = dict(torque=RUN2["tau"], u=RUN2["u"])


@pytest.fixture(scope="module")
def arm():
    return puma560_araujo()


def _platforms():
    return [
        mb.Tricycle(mb.TricycleParams.seekur_jr_assumed()),
        mb.Tricycle(mb.TricycleParams.seekur_jr_assumed(front_wheels=2, front_half_track=0.3)),
        mb.DifferentialDrive(mb.DiffDriveParams.seekur_jr_assumed()),
    ]


def _random_state(mm, rng):
    return mm.state(
        config=rng.normal(size=mm.n_config) * 0.4,
        q=rng.normal(size=mm.n_arm),
        nu=rng.normal(size=mm.n_quasi),
        qd=rng.normal(size=mm.n_arm),
    )


# --- Martinenko's cart (3.26–3.30) -------------------------------------------------------


def test_martinenko_closed_form_equals_the_two_by_two_solve():
    """Seed 003 eqs 3.27–3.30 (Martinenko): the closed forms (3.29 and the corrected 3.30)
    equal A⁻¹([F, M] − h); inverse(forward) returns (F, M); the printed 3.30 (μ₀ b for
    μ₀ b²) gives another β̈."""
    k = steered_cart.mass_constants(mb.TricycleParams.seekur_jr_assumed())
    rng = np.random.default_rng(3)
    for _ in range(20):
        beta, V, bd, F, M = rng.uniform(-1.3, 1.3), *rng.normal(size=2), *rng.normal(size=2) * 50
        A, h = steered_cart.equations(k, beta, V, bd)
        acc = steered_cart.forward(k, beta, V, bd, F, M)
        np.testing.assert_allclose(acc, np.linalg.solve(A, [F, M] - h), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(
            steered_cart.inverse(k, beta, V, bd, *acc), [F, M], rtol=1e-12, atol=1e-10
        )
    beta, V, bd, F, M = 0.4, 1.0, 0.5, 100.0, 2.0
    t, c = np.tan(beta), np.cos(beta)
    mu0 = k.m + k.m0 * t * t
    delta = mu0 * k.b**2 - k.I2 * t * t
    delta_printed = mu0 * k.b - k.I2 * t * t
    printed = (
        -k.b * t / delta * F
        + k.b**2 * mu0 / (k.I2 * delta) * M
        - k.b * k.m / (c * c * delta_printed) * V * bd
    )
    assert abs(printed - steered_cart.forward(k, beta, V, bd, F, M)[1]) > 1e-3


def test_martinenko_straight_ahead():
    """β = 0: V̇ = F/m and β̈ = M/I₂ (3.29–3.30 at β = 0)."""
    k = steered_cart.mass_constants(mb.TricycleParams.seekur_jr_assumed())
    np.testing.assert_allclose(
        steered_cart.forward(k, 0.0, 2.0, 0.0, 300.0, 0.3), [300.0 / k.m, 0.3 / k.I2], rtol=1e-14
    )


@pytest.mark.source("Araujo (2012)", "the mass constants below (3.28)")
def test_mass_constants_two_front_wheels_are_martinenkos_printed_ones():
    """Below eq 3.28: m = 3m_E + 3m_F + m_C + m_B, I₂ = I_B + m_F(r_F²/2 + 3 l_F²),
    m₀ = b⁻²(I₂ + I_C + m_E r_E²/2 + m_C a² + m_B b² + 3 m_F b² + 3 m_E l_E²)."""
    p = mb.TricycleParams.seekur_jr_assumed(
        front_wheels=2, front_half_track=0.3, front_wheel_radius=0.15
    )
    k = steered_cart.mass_constants(p)
    mE, mF, mC, mB = p.rear_wheel_mass, p.front_wheel_mass, p.chassis_mass, p.steering_mass
    I2 = p.steering_inertia + mF * (0.15**2 / 2 + 3 * 0.3**2)
    b = p.wheelbase
    m0 = (
        I2
        + p.chassis_inertia
        + mE * 0.2**2 / 2
        + mC * p.chassis_com**2
        + mB * b * b
        + 3 * mF * b * b
        + 3 * mE * p.rear_half_track**2
    ) / b**2
    np.testing.assert_allclose(k, (3 * mE + 3 * mF + mC + mB, I2, m0, b), rtol=1e-14)


@pytest.mark.parametrize("front", [(1, 0.0), (2, 0.3)])
def test_body_gibbs_function_is_martinenkos(front, arm):
    """The Gibbs function summed over chassis, steering body and wheels (2.25) gives
    Martinenko's A(β) and h (3.27–3.28) exactly, for one or two steered wheels."""
    p = mb.TricycleParams.seekur_jr_assumed(front_wheels=front[0], front_half_track=front[1])
    mm = mb.MobileManipulator(mb.Tricycle(p), arm)
    k = steered_cart.mass_constants(p)
    rng = np.random.default_rng(7)
    for _ in range(10):
        y = _random_state(mm, rng)
        config, _, nu, _ = mm.split(y)
        bodies = mm.platform.motion(config, nu).bodies
        D, phi = mb.gibbs.platform_terms(mm, bodies)
        A, h = steered_cart.equations(k, config[3], *nu)
        np.testing.assert_allclose(D, A, rtol=1e-12)
        np.testing.assert_allclose(phi, h, rtol=1e-10, atol=1e-12)


# --- tricycle kinematics -----------------------------------------------------------------


def test_constant_steering_drives_a_circle():
    """θ̇ = V tan β / b (3.19): with β constant the rear-axle midpoint runs on a circle of radius
    b / tan β (to 1e-6 over one lap) and closes it after 2π R / V; β = 0 is a line."""
    plat = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    b = plat.params.wheelbase
    for beta in (0.2, -0.5, 1.0):
        R, V = b / np.tan(beta), 0.7
        period = 2 * np.pi * abs(R) / V
        f = lambda t, c, V=V: plat.motion(c, np.array([V, 0.0]))[2]
        c0 = np.array([0, 0, 0, beta, 0, 0, 0.0])
        sol = solve_ivp(
            f, (0, period), c0, method="DOP853", rtol=1e-12, atol=1e-12, dense_output=True
        )
        xy = sol.sol(np.linspace(0, period, 400))[:2]
        np.testing.assert_allclose(np.hypot(xy[0], xy[1] - R), abs(R), atol=1e-6)
        np.testing.assert_allclose(sol.y[:3, -1], [0, 0, np.sign(beta) * 2 * np.pi], atol=1e-6)
        # the rear wheels turn in the ratio of their radii of turn
        ratio = sol.y[4, -1] / sol.y[5, -1]
        l_E = plat.params.rear_half_track
        assert ratio == pytest.approx((R - l_E) / (R + l_E), rel=1e-9)
    line = solve_ivp(
        lambda t, c: plat.motion(c, np.array([0.5, 0.0]))[2],
        (0, 2),
        np.zeros(7),
        rtol=1e-12,
        atol=1e-12,
    )
    np.testing.assert_allclose(line.y[:4, -1], [1.0, 0, 0, 0], atol=1e-12)


def test_mount_sees_the_centripetal_acceleration():
    """Steady circular motion (β, V constant), a point on the chassis
    accelerates towards the centre of turn at V_p² / ρ_p."""
    plat = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    beta, V = 0.35, 1.2
    R = plat.params.wheelbase / np.tan(beta)
    ch = plat.chassis(np.array([0, 0, 0, beta, 0, 0, 0.0]), np.array([V, 0.0]))
    p = np.array([0.4, -0.2, 0.8])
    mount = ch.point(p)
    to_centre = np.array([0.0, R, 0.0]) - np.array([p[0], p[1], 0.0])
    omega = V / R
    np.testing.assert_allclose(mount.accel0, omega**2 * to_centre, atol=1e-12)


# --- the coupled model against an independent formulation --------------------------------


@pytest.mark.parametrize("plat", _platforms(), ids=["tricycle", "steered_axle", "diff_drive"])
def test_coupled_equals_lagrange_multiplier_dae_pointwise(plat, arm):
    """The coupled Gibbs–Appell accelerations equal the unconstrained tree's Newton–Euler
    M q̈ + h = Q + Aᵀλ with the rolling constraints as multipliers (1e-10), its kinetic and
    potential energy equal the tree's, and G(q) ν satisfies the Pfaffian rows."""
    from eslabon.spatial.rotations import rot_axis

    tilted = rot_axis(np.array([0.3, -0.5, 0.8]) / np.linalg.norm([0.3, -0.5, 0.8]), 0.9)
    mm = mb.MobileManipulator(plat, arm, mb.Mount((0.3, 0.1, 0.5), tilted))  # any mount
    tree = dae.tree_model(mm)
    rng = np.random.default_rng(11)
    for _ in range(5):
        y = _random_state(mm, rng)
        config, q, nu, qd = mm.split(y)
        rates = plat.motion(config, nu)[2]
        qq, vv = np.concatenate([config, q]), np.concatenate([rates, qd])
        assert np.abs(dae.constraint_matrix(mm, qq) @ vv).max() < 1e-13
        u, tau = rng.normal(size=2) * 40, rng.normal(size=6) * 5
        acc = mb.accelerations(mm, y, u, tau)
        qdd, _ = dae.accelerations(mm, tree, qq, vv, u, tau)
        np.testing.assert_allclose(acc[2:], qdd[mm.n_config :], rtol=1e-10, atol=1e-10)
        th, thd = config[2], rates[2]
        V_dot = (
            qdd[0] * np.cos(th)
            + qdd[1] * np.sin(th)
            + thd * (-vv[0] * np.sin(th) + vv[1] * np.cos(th))
        )
        assert acc[0] == pytest.approx(V_dot, abs=1e-10)
        kinetic = es.kinetic_energy(tree, qq, vv)
        assert mb.coupled_kinetic_energy(mm, y) == pytest.approx(kinetic, rel=1e-12)
        assert mb.arm_potential_energy(mm, y) == pytest.approx(
            es.potential_energy(tree, qq), rel=1e-12, abs=1e-9
        )


def test_coupled_run1_follows_the_dae_and_balances_work(arm):
    """Load case 1 for 1 s ("Ejemplo de aplicación"): the coupled model and the DAE agree to
    1e-6, and T + V − W stays constant to 1e-6 of the work done."""
    mm = mb.MobileManipulator(mb.Tricycle(mb.TricycleParams.seekur_jr_assumed()), arm)
    t = np.linspace(0, 1, 11)
    tr = mb.simulate(mm, None, None, 1.0, samples=11, rtol=1e-11, atol=1e-12, **SIM1)
    q_dae, _ = dae.simulate(mm, t, mm.state(), RUN1["u"], RUN1["tau"])
    np.testing.assert_allclose(np.hstack([tr.config, tr.q]), q_dae, atol=1e-6)
    balance = tr.energy - tr.energy[0] - tr.work
    assert np.abs(balance).max() < 1e-6 * np.abs(tr.work).max()
    assert abs(tr.config[-1, 3]) > 0.1  # it did steer and turn
    assert abs(tr.config[-1, 2]) > 1e-3


def test_diff_drive_follows_the_dae(arm):
    """The differential-drive template against the DAE, 0.5 s with unequal wheel torques."""
    mm = mb.MobileManipulator(
        mb.DifferentialDrive(mb.DiffDriveParams.seekur_jr_assumed()), arm, mb.Mount((0.2, 0.0, 0.4))
    )
    u, tau = [20.0, 35.0], [1.0, 20.0, 5.0, 0.0, 0.1, 0.0]
    tr = mb.simulate(mm, None, None, 0.5, torque=tau, rtol=1e-11, atol=1e-12, u=u, samples=6)
    q_dae, _ = dae.simulate(mm, tr.t, mm.state(), u, tau)
    np.testing.assert_allclose(np.hstack([tr.config, tr.q]), q_dae, atol=1e-6)
    assert tr.config[-1, 2] > 1e-3  # the right wheel pushes harder: turns left


def test_coupled_reduces_to_the_platform_when_the_arm_is_massless(arm):
    """Arm masses 0 (armature keeps D invertible): the platform follows Martinenko's model
    exactly, with the constants of its own (one) front wheel (the thesis mode's platform
    with ``constants="platform"``); Martinenko's printed constants (the thesis's default)
    describe another cart and give another motion."""
    light = arm.replace(
        mass=np.zeros(arm.nb + 1),
        inertia=np.zeros((arm.nb + 1, 3, 3)),
        armature=np.full(arm.nq, 0.05),
    )
    mm = mb.MobileManipulator(mb.Tricycle(mb.TricycleParams.seekur_jr_assumed()), light)
    a = mb.simulate(mm, None, None, 1.0, samples=6, **SIM1)
    b = mb.simulate(
        mm.with_mode("thesis", constants="platform"), None, None, 1.0, samples=6, **SIM1
    )
    np.testing.assert_allclose(a.config, b.config, atol=1e-9)
    np.testing.assert_allclose(a.nu, b.nu, atol=1e-9)
    printed = mb.simulate(mm.with_mode("thesis"), None, None, 1.0, samples=6, **SIM1)
    assert np.abs(printed.config[:, 0] - a.config[:, 0]).max() > 1e-3


def test_coupled_reduces_to_the_fixed_base_arm_when_the_platform_is_locked(arm):
    """Platform held (ν̇ = 0 from rest): the arm moves as :func:`eslabon.simulate` moves the
    fixed-base arm; D's arm block is the arm's mass matrix."""
    mm = mb.MobileManipulator(mb.Tricycle(mb.TricycleParams.seekur_jr_assumed()), arm)
    tr = mb.simulate(mm, None, None, 1.0, samples=11, locked=True, **SIM1)
    fixed = es.simulate(arm, None, None, 1.0, 0.1, torque=RUN1["tau"], integrator="dop853")
    np.testing.assert_allclose(tr.q, fixed.q, atol=1e-8)
    y = mm.state(q=[0.1, 0.5, -0.3, 0.2, 0.4, -0.6], qd=[0.5, -0.2, 0.3, 1.0, -0.5, 0.2])
    D, phi, _ = mb.coupled_terms(mm, y)
    _, q, _, qd = mm.split(y)
    np.testing.assert_allclose(D[2:, 2:], es.mass_matrix(arm, q), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(phi[2:], es.bias_forces(arm, q, qd), rtol=1e-11, atol=1e-11)


def test_inverse_dynamics_round_trip(arm):
    """D [ν̇; q̈] + φ returns the inputs the accelerations came from; D is SPD."""
    mm = mb.MobileManipulator(
        mb.Tricycle(mb.TricycleParams.seekur_jr_assumed()), arm, mb.Mount((0.3, 0, 0.5))
    )
    rng = np.random.default_rng(5)
    y = _random_state(mm, rng)
    acc = mb.accelerations(mm, y, **RUN1)
    np.testing.assert_allclose(
        mb.input_forces(mm, y, acc[:2], acc[2:]), np.r_[RUN1["u"], RUN1["tau"]], atol=1e-9
    )
    D = mb.coupled_terms(mm, y)[0]
    np.testing.assert_allclose(D, D.T, atol=1e-12)
    assert np.linalg.eigvalsh(D).min() > 0


# --- the thesis's one-way coupling -------------------------------------------------------


def test_thesis_mode_run2_is_the_fixed_base_arm(arm):
    """Load case 2 (F = 300 N, M = 0, τ = 0) in the thesis's coupling: driving straight
    ahead from rest the chassis has no velocity products, so the arm moves as the
    fixed-base arm (q, q̇ at 0, 0.5, 1 s against eslabon's fixed-base simulation, to 1e-8),
    and at each sample its q̈ is the one for which the plain-numpy Newton–Euler of seed 001
    Tabla 3.1 (tests/rnea_oracle.py) gives τ = 0; the platform follows V̇ = F/m with
    β ≡ 0."""
    P = mb.TricycleParams.seekur_jr_assumed()
    mm = mb.MobileManipulator(mb.Tricycle(P), arm, mode="thesis")
    tr = mb.simulate(mm, None, None, 1.0, samples=3, **SIM2)
    fixed = es.simulate(arm, None, None, 1.0, 0.5, integrator="dop853")
    np.testing.assert_allclose(tr.q, fixed.q, atol=1e-8)
    np.testing.assert_allclose(tr.qd, fixed.qd, atol=1e-8)
    assert np.abs(tr.q[-1]).max() > 1.0  # the arm falls a long way: not a trivial match
    for k in range(len(tr.t)):
        np.testing.assert_allclose(oracle_rnea(arm, tr.q[k], tr.qd[k], tr.qdd[k]), 0, atol=1e-9)
    m = steered_cart.mass_constants(P, front_wheels=2).m  # the printed constants, the default
    assert m == 3 * 8.0 + 3 * 8.0 + P.chassis_mass + P.steering_mass
    np.testing.assert_allclose(tr.nu_dot[:, 0], 300.0 / m, rtol=1e-12)
    np.testing.assert_allclose(tr.config[:, 0], 150.0 / m * tr.t**2, rtol=1e-9, atol=1e-12)
    assert np.all(tr.config[:, 3] == 0.0) and np.all(tr.config[:, 1:3] == 0.0)


def test_thesis_mode_initial_accelerations(arm):
    """q̈(0) of the arm in the thesis's coupling, load cases 1 and 2: at rest the chassis
    has no velocity products and (platform_acceleration off, as the thesis) its V̇, θ̈ do
    not reach the arm, so q̈(0) is the fixed-base arm's: the plain-numpy Newton–Euler of
    seed 001 Tabla 3.1 (tests/rnea_oracle.py) gives back the case's τ from it."""
    mm = mb.MobileManipulator(
        mb.Tricycle(mb.TricycleParams.seekur_jr_assumed()), arm, mode="thesis"
    )
    y = mm.state()
    z = np.zeros(6)
    for run in (RUN1, RUN2):
        qdd = mb.accelerations(mm, y, **run)[2:]
        np.testing.assert_allclose(oracle_rnea(arm, z, z, qdd), run["tau"], atol=1e-10)
        assert np.abs(qdd).max() > 1.0  # gravity and τ move it: not a trivial match


def test_thesis_flags_change_what_they_name(arm):
    """In a turn, the lateral V·θ̇ term (omitted by eq 3.21) and the platform's V̇, θ̈
    change the arm's accelerations; with both on and a massless arm the thesis model is the
    coupled one seen from the arm (the arm does not act back on the platform)."""
    mm = mb.MobileManipulator(
        mb.Tricycle(mb.TricycleParams.seekur_jr_assumed()),
        arm,
        mb.Mount((0.3, 0, 0.5)),
        mode="thesis",
    )
    y = mm.state(config=[0, 0, 0, 0.4, 0, 0, 0], nu=[1.0, 0.2], qd=[0.1] * 6, q=[0.2] * 6)
    base = mb.accelerations(mm, y, **RUN1)
    lat = mb.accelerations(mm.with_mode("thesis", lateral_acceleration=True), y, **RUN1)
    both = mb.accelerations(
        mm.with_mode("thesis", lateral_acceleration=True, platform_acceleration=True), y, **RUN1
    )
    assert np.abs(lat[2:] - base[2:]).max() > 1e-3
    assert np.abs(both[2:] - lat[2:]).max() > 1e-3
    np.testing.assert_array_equal(base[:2], lat[:2])
    # arm torques from the coupled model at the thesis's accelerations, platform rows aside
    tau_coupled = mb.input_forces(mm.with_mode("coupled"), y, both[:2], both[2:])[2:]
    np.testing.assert_allclose(tau_coupled, RUN1["tau"], atol=1e-9)


# --- bad input ---------------------------------------------------------------------------


def test_missing_platform_parameters_are_named():
    """The thesis leaves the mass split out (Annex 3 gives only the 350 kg total): nothing is
    invented silently."""
    with pytest.raises(ValueError, match=r"TricycleParams\.rear_half_track: missing"):
        mb.TricycleParams(wheelbase=0.9)
    with pytest.raises(ValueError, match=r"TricycleParams\.chassis_mass: expected > 0"):
        mb.TricycleParams.seekur_jr_assumed(chassis_mass=-1.0)
    with pytest.raises(ValueError, match=r"front_wheels"):
        mb.TricycleParams.seekur_jr_assumed(front_wheels=3)
    with pytest.raises(ValueError, match=r"DiffDriveParams\.wheel_radius"):
        mb.DiffDriveParams.seekur_jr_assumed(wheel_radius=float("nan"))


def test_steering_at_ninety_degrees_is_an_error_not_nan(arm):
    """β = ±90°: tan β is infinite; a clear error from every entry point."""
    for mode in mb.MODES:
        mm = mb.MobileManipulator(
            mb.Tricycle(mb.TricycleParams.seekur_jr_assumed()), arm, mode=mode
        )
        config = [0, 0, 0, np.pi / 2, 0, 0, 0]
        y = mm.state(config=config)
        with pytest.raises(ValueError, match=r"beta: the steering angle must be within"):
            mb.accelerations(mm, y, **RUN1)
        with pytest.raises(ValueError, match=r"beta: the steering angle"):
            mb.simulate(mm, None, None, 0.1, config0=config, **SIM1)


def test_bad_states_and_options_are_named(arm):
    plat = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    mm = mb.MobileManipulator(plat, arm)
    with pytest.raises(ValueError, match=r"state"):
        mb.accelerations(mm, np.zeros(5), **RUN1)
    with pytest.raises(ValueError, match=r"state"):
        mb.accelerations(mm, np.full(mm.n_state, np.nan), **RUN1)
    with pytest.raises(ValueError, match=r"u: "):
        mb.accelerations(mm, mm.state(), u=[1.0], tau=RUN1["tau"])
    with pytest.raises(ValueError, match=r"mode: expected one of"):
        mb.MobileManipulator(plat, arm, mode="loose")
    with pytest.raises(ValueError, match=r"ThesisOptions.constants: expected one of"):
        mb.ThesisOptions(constants="printed")
    with pytest.raises(ValueError, match=r"ThesisOptions.lateral_acceleration: expected True"):
        mb.ThesisOptions(lateral_acceleration="no")
    with pytest.raises(ValueError, match=r"mount\.rotation"):
        mb.Mount(rotation=np.ones((3, 3)))
    with pytest.raises(ValueError, match=r"integrator: expected one of"):
        mb.simulate(mm, None, None, 1.0, integrator="midpoint", **SIM1)


def test_a_simulation_that_steers_past_ninety_degrees_stops_with_the_reason(arm):
    """A steering torque that would turn the wheel past 90° ends the run with the
    steering error, not NaN or a silently wrapped angle."""
    mm = mb.MobileManipulator(mb.Tricycle(mb.TricycleParams.seekur_jr_assumed()), arm)
    for method in ("dop853", "rk4"):
        with pytest.raises(ValueError, match=r"beta: the steering angle must be within"):
            mb.simulate(
                mm, None, None, 2.0, 0.01, torque=RUN1["tau"], integrator=method, u=[300.0, 3.0]
            )


def test_configuration_rates_and_accelerations_are_the_derivatives(arm):
    """q̇ = G ν and q̈ = G ν̇ + Ġ ν of the pose, steering and wheel spins equal the time
    derivatives of the simulated configuration (central differences of the dense output,
    1e-6), for the tricycle and the differential drive."""
    for plat, u in (
        (
            mb.Tricycle(mb.TricycleParams.seekur_jr_assumed(front_wheels=2, front_half_track=0.3)),
            RUN1["u"],
        ),
        (mb.DifferentialDrive(mb.DiffDriveParams.seekur_jr_assumed()), [20.0, 35.0]),
    ):
        mm = mb.MobileManipulator(plat, arm, mb.Mount((0.3, 0.0, 0.5)))
        config0 = np.r_[0.0, 0.0, 0.4, 0.2, np.zeros(mm.n_config - 4)]
        tr = mb.simulate(
            mm,
            None,
            None,
            0.6,
            torque=RUN1["tau"],
            rtol=1e-12,
            atol=1e-12,
            config0=config0,
            nu0=[0.8, 0.3],
            u=u,
            samples=601,
        )
        h = tr.t[1] - tr.t[0]
        d = (tr.config[2:] - tr.config[:-2]) / (2 * h)
        dd = (tr.config_rates[2:] - tr.config_rates[:-2]) / (2 * h)
        np.testing.assert_allclose(tr.config_rates[1:-1], d, atol=2e-6)
        np.testing.assert_allclose(tr.config_accels[1:-1], dd, rtol=2e-5, atol=2e-5)  # h² error


def test_simulate_takes_the_arguments_of_eslabon_simulate(arm):
    """``mobile.simulate`` takes what :func:`eslabon.simulate` takes, in the same order and
    with the same names and kinds (the platform's arguments follow); ``q0``/``qd0`` are the
    arm's initial joints, as for the fixed-base arm."""
    shared = ("model", "q0", "qd0", "t_final", "dt", "torque", "integrator")
    fixed = list(inspect.signature(es.simulate).parameters.values())[: len(shared)]
    mobile = list(inspect.signature(mb.simulate).parameters.values())[: len(shared)]
    assert tuple(p.name for p in fixed) == shared == tuple(p.name for p in mobile)
    assert [p.kind for p in fixed] == [p.kind for p in mobile]
    assert fixed[4].default == mobile[4].default == 1e-3
    for name in ("rtol", "atol"):
        assert (
            inspect.signature(es.simulate).parameters[name].default
            == inspect.signature(mb.simulate).parameters[name].default
        )
    mm = mb.MobileManipulator(mb.Tricycle(mb.TricycleParams.seekur_jr_assumed()), arm)
    q0, qd0 = [0.1, 0.5, -0.3, 0.2, 0.4, -0.6], [0.5, -0.2, 0.3, 1.0, -0.5, 0.2]
    tr = mb.simulate(mm, q0, qd0, 0.02, 0.01, integrator="rk4", **SIM1)
    np.testing.assert_array_equal(tr.q[0], q0)
    np.testing.assert_array_equal(tr.qd[0], qd0)
    np.testing.assert_array_equal(tr.config[0], np.zeros(mm.n_config))
    for name in ("q0", "qd0", "config0", "nu0"):
        with pytest.raises(ValueError, match=f"^{name}: expected shape"):
            kw = {name: [0.0]}
            start = kw.pop("q0", None), kw.pop("qd0", None)
            mb.simulate(mm, *start, 0.02, 0.01, integrator="rk4", **kw)


@pytest.mark.parametrize("platform", ["differential_drive", "tricycle"])
def test_thesis_mode_from_a_file_on_any_platform(tmp_path, platform, arm):
    """A model file's ``mode: thesis`` is not for the tricycle only (docs/model-files.md):
    on a differential drive too the platform moves alone (its own Gibbs function, the
    tricycle by Martinenko's closed form with its own constants here), so its ν̇ is the
    coupled model's with a massless arm (armature keeps D invertible), whatever the arm
    does."""
    path = tmp_path / "m.yaml"
    thesis = "  thesis: {constants: platform}\n" if platform == "tricycle" else ""
    path.write_text(
        "eslabon: 1\nname: m\nmobile:\n"
        f"  platform: {{type: {platform}, assumed: seekur_jr}}\n"
        "  arm: puma560_araujo\n  mode: thesis\n" + thesis
    )
    mm = es.load_model(path)
    assert isinstance(mm, mb.MobileManipulator) and mm.mode == "thesis"
    light = mm.arm.replace(
        mass=np.zeros(mm.arm.nb + 1),
        inertia=np.zeros((mm.arm.nb + 1, 3, 3)),
        armature=np.full(mm.arm.nq, 0.05),
    )
    alone = mb.MobileManipulator(mm.platform, light, mm.mount)
    rng = np.random.default_rng(11)
    for _ in range(3):
        y = _random_state(mm, rng)
        u = rng.normal(size=2) * 50
        k = mm.n_quasi
        nu_dot = mb.accelerations(mm, y, u, RUN1["tau"])[:k]
        other = mb.accelerations(mm, y, u, np.zeros(6))[:k]
        np.testing.assert_allclose(nu_dot, other, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(
            nu_dot, mb.accelerations(alone, y, u, np.zeros(6))[:k], atol=1e-9
        )
