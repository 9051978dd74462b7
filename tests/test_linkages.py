"""The zoo's closed-loop mechanisms (eslabon.zoo.linkages, eslabon.zoo.parallel): each
loads at an assembled home pose with its textbook mobility, the constrained formulations
agree on it, and three of them meet closed forms derived here by hand from their
geometry alone: the parallelogram four-bar is a pendulum, the lumped-mass Delta's
actuator torques follow from its velocity kinematics, and the massless-leg Stewart
platform's static leg forces are J⁻ᵀ W."""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from eslabon import constraints as ec

G = 9.81

# name, options, mobility, the independent (actuated) rates
MECHANISMS = {
    "four_bar": ("four_bar", {}, 1, [0]),
    "slider_crank": ("slider_crank", {}, 1, [0]),
    "five_bar": ("five_bar", {}, 2, [0, 1]),
    "delta": ("delta", {}, 3, [0, 1, 2]),
    "delta_lumped": ("delta", {"lumped": True}, 3, [0, 1, 2]),
    "stewart": ("stewart", {}, 6, list(range(18, 24))),
}


def _load(case):
    name, options, mobility, actuated = MECHANISMS[case]
    return es.zoo.load(name, **options), mobility, actuated


@pytest.mark.parametrize("case", MECHANISMS)
def test_each_mechanism_loads_assembled_with_its_mobility(case):
    """q = 0 is the home pose: φ is round-off there, assembly from it closes it to
    1e-12, and J has full row rank nv − mobility, the mechanism's mobility: 1 for the
    four-bar and the slider-crank, 2 for the five-bar, 3 for the Delta (Clavel 1988),
    6 for the Gough–Stewart platform (Stewart 1965)."""
    model, mobility, _ = _load(case)
    assert np.abs(ec.constraint_residual(model, es.neutral(model))).max() < 1e-12
    q = ec.assemble(model, es.neutral(model))
    assert np.abs(ec.constraint_residual(model, q)).max() < 1e-12
    np.testing.assert_allclose(q, es.neutral(model), atol=1e-9)
    report = ec.constraint_rank(model, q)
    assert report.mobility == mobility and report.redundant == ()
    assert report.rank == len(ec.constraint_names(model))
    assert np.linalg.eigvalsh(es.mass_matrix(model, q)).min() > 0.0


@pytest.mark.parametrize("case", MECHANISMS)
def test_the_formulations_agree_at_random_assembled_states(case):
    """At three assembled states reached from the actuated joints (the forward position
    kinematics, ``close_state``) with random consistent rates and random torques, every
    formulation gives the same q̈ and λ as KKT to 1e-10 (relative to their size), and
    the state closes (‖φ‖ < 1e-12, J q̇ = 0). Jaramillo's recursion takes serial chains
    only: the four-bar; the others (trees) are refused by name."""
    model, _, actuated = _load(case)
    rng = np.random.default_rng(len(case))
    scale = 0.05 if case == "stewart" else 0.3  # metres of leg, or radians
    for _ in range(3):
        k = len(actuated)
        s = ec.close_state(
            model, es.neutral(model), actuated, rng.uniform(-scale, scale, k), rng.uniform(-1, 1, k)
        )
        assert np.abs(ec.constraint_residual(model, s.q)).max() < 1e-12
        assert np.abs(ec.constraint_jacobian(model, s.q) @ s.qd).max() < 1e-12
        tau = rng.uniform(-1, 1, model.nv)
        ref = ec.constrained_forward_dynamics(model, s.q, s.qd, tau, algorithm="kkt")
        for alg in ec.CONSTRAINED_ALGORITHMS[1:]:
            if alg == "soa" and case != "four_bar":
                with pytest.raises(ValueError, match="serial chains|H_i is fixed"):
                    ec.constrained_forward_dynamics(model, s.q, s.qd, tau, algorithm=alg)
                continue
            out = ec.constrained_forward_dynamics(model, s.q, s.qd, tau, algorithm=alg)
            a, f = np.abs(ref.qdd).max(), np.abs(ref.force).max()
            np.testing.assert_allclose(out.qdd, ref.qdd, rtol=0, atol=1e-10 * max(1.0, a))
            np.testing.assert_allclose(out.force, ref.force, rtol=0, atol=1e-10 * max(1.0, f))


@pytest.mark.parametrize("seed", range(3))
def test_a_parallelogram_four_bar_is_a_pendulum(seed):
    """Crank = rocker = a, coupler = ground = c (Uicker, Pennock and Shigley (2011),
    §1.9: a parallelogram linkage). On its open branch the coupler translates with the
    crank's tip and the rocker stays parallel to the crank, so with θ the crank's angle
    from the ground line, T = ½ (I₁ + I₃ + m_c a²) θ̇² and V = g sin θ (m₁ a/2 + m_c a +
    m₃ a/2) (uniform rods: I = m a²/3 about the pivot; the coupler's own inertia does
    not enter), and Lagrange's equation is that of a pendulum,

        (I₁ + I₃ + m_c a²) θ̈ = τ₁ − g cos θ (m₁ a/2 + m_c a + m₃ a/2),

    with no velocity term. Every formulation meets it to 1e-10 at random θ, θ̇, τ₁."""
    a, c, m1, mc, m3, home_angle = 0.8, 2.0, 1.3, 2.1, 0.7, 1.0
    bar = es.zoo.load(
        "four_bar",
        crank=a,
        coupler=c,
        rocker=a,
        ground=c,
        crank_mass=m1,
        coupler_mass=mc,
        rocker_mass=m3,
        crank_angle=home_angle,
    )
    rng = np.random.default_rng(seed)
    offset, rate, tau1 = rng.uniform(-0.5, 0.5), rng.uniform(-2, 2), rng.uniform(-5, 5)
    s = ec.close_state(bar, es.neutral(bar), [0], [offset], [rate])
    theta = home_angle + offset
    inertia = m1 * a**2 / 3 + m3 * a**2 / 3 + mc * a**2
    expected = (tau1 - G * np.cos(theta) * (m1 * a / 2 + mc * a + m3 * a / 2)) / inertia
    for alg in ec.CONSTRAINED_ALGORITHMS:
        out = ec.constrained_forward_dynamics(bar, s.q, s.qd, [tau1, 0.0, 0.0], algorithm=alg)
        assert abs(out.qdd[0] - expected) < 1e-10, (alg, out.qdd[0] - expected)
        # the coupler does not turn: its rate and acceleration cancel the crank's
        assert abs(out.qdd[0] + out.qdd[1]) < 1e-10


def _delta_closed_form(options, q, qd, qdd):
    """The actuator torques of the lumped Delta, from its geometry alone.

    Arm i turns about the tangent tᵢ at the shoulder Sᵢ = R_b uᵢ, its angle θᵢ below
    the horizontal; the elbow Eᵢ(θᵢ) = Sᵢ + L_a (cos θᵢ uᵢ − sin θᵢ z). Each forearm's
    mass m_f is split in two points: m_f/2 at the elbow (on the arm) and m_f/2 at the
    far end, which is the platform's attachment point p + r_p uᵢ and so moves with the
    translating platform. The forearm is then massless between them, so

        τᵢ = (I_arm + m_e L_a²) θ̈ᵢ − g cos θᵢ (m_a L_a/2 + m_e L_a) + (B A⁻ᵀ F)ᵢ,

    I_arm = m_a L_a²/3 (a uniform rod about its end), m_e = m_f/2, and F = (m_p +
    3 m_f/2)(p̈ − g) the force the arms must put on the platform. The map comes from
    the loop |p + r_p uᵢ − Eᵢ| = L_b: with sᵢ = p + r_p uᵢ − Eᵢ, sᵢ · (ṗ − Eᵢ′ θ̇ᵢ) = 0,
    so A ṗ = B θ̇ (A's rows sᵢᵀ, B = diag(sᵢ · Eᵢ′)), and virtual work τ·δθ = F·δp
    gives τ = B A⁻ᵀ F (Clavel (1988) gives the architecture; the lumped forearm is the
    usual simplification of its dynamics)."""
    Rb, rp, La, Lb = (options[k] for k in ("base_radius", "platform_radius", "arm", "forearm"))
    ma, mf, mp, th0 = (
        options[k] for k in ("arm_mass", "forearm_mass", "platform_mass", "arm_angle")
    )
    me = mf / 2
    reach = Rb + La * np.cos(th0) - rp
    p = np.array([0.0, 0.0, -(La * np.sin(th0) + np.sqrt(Lb**2 - reach**2))]) + q[3:6]
    z = np.array([0.0, 0.0, 1.0])
    A, B, tau = np.zeros((3, 3)), np.zeros(3), np.zeros(3)
    for i in range(3):
        phi = 2 * np.pi * i / 3
        u = np.array([np.cos(phi), np.sin(phi), 0.0])
        th = th0 + q[i]
        elbow = Rb * u + La * (np.cos(th) * u - np.sin(th) * z)
        d_elbow = La * (-np.sin(th) * u - np.cos(th) * z)
        s = p + rp * u - elbow
        A[i], B[i] = s, s @ d_elbow
        tau[i] = (ma * La**2 / 3 + me * La**2) * qdd[i] - G * np.cos(th) * (ma * La / 2 + me * La)
    F = (mp + 3 * me) * (qdd[3:6] - np.array([0.0, 0.0, -G]))
    return tau + B * np.linalg.solve(A.T, F)


@pytest.mark.parametrize("seed", range(4))
def test_the_lumped_delta_meets_its_closed_form_inverse_dynamics(seed):
    """Random platform positions, velocities and accelerations near home (the inverse
    kinematics by ``close_state`` with the platform's coordinates independent); the
    constrained inverse dynamics with the three arms actuated equals the closed form of
    ``_delta_closed_form`` to 1e-9."""
    options = dict(
        base_radius=0.2,
        platform_radius=0.05,
        arm=0.35,
        forearm=0.8,
        arm_mass=0.6,
        forearm_mass=0.15,
        platform_mass=0.4,
        arm_angle=0.5,
    )
    rng = np.random.default_rng(seed)
    options.update(forearm_mass=rng.uniform(0.1, 0.5), platform_mass=rng.uniform(0.2, 2.0))
    robot = es.zoo.load("delta", lumped=True, **options)
    s = ec.close_state(
        robot,
        es.neutral(robot),
        [3, 4, 5],
        rng.uniform(-0.08, 0.08, 3),
        rng.uniform(-1, 1, 3),
        rng.uniform(-10, 10, 3),
    )
    out = ec.constrained_inverse_dynamics(robot, *s, actuated=[0, 1, 2])
    expected = _delta_closed_form(options, s.q, s.qd, s.qdd)
    assert np.all(out.tau[3:] == 0.0)
    np.testing.assert_allclose(out.tau[:3], expected, rtol=0, atol=1e-9)


def _rotation(yaw, pitch, roll):
    def about(axis, angle):
        c, s = np.cos(angle), np.sin(angle)
        i, j = [k for k in range(3) if k != axis]
        R = np.eye(3)
        R[i, i], R[i, j], R[j, i], R[j, j] = c, -s, s, c
        return R if axis != 1 else R.T  # about y the sine's sign turns

    return about(2, yaw) @ about(1, pitch) @ about(0, roll)


def _free_flyer_state(chain, flyer, q, pose):
    """The free-flyer Stewart platform's q for the chain model's q at ``pose`` (x, y, z
    from home, yaw, pitch, roll): the position, the quaternion (x, y, z, w) of
    R_z(yaw) R_y(pitch) R_x(roll) by Hamilton's product, and the legs' joints as they
    are."""
    quat = np.array([0.0, 0.0, 0.0, 1.0])
    for axis, angle in ((2, pose[3]), (1, pose[4]), (0, pose[5])):
        v, w = np.zeros(3), np.cos(angle / 2)
        v[axis] = np.sin(angle / 2)
        quat = np.r_[quat[3] * v + w * quat[:3] + np.cross(quat[:3], v), quat[3] * w - quat[:3] @ v]
    out = np.r_[pose[:3], quat, q[6:]]
    assert out.shape == (flyer.nq,) and chain.nq + 1 == flyer.nq
    return out


@pytest.mark.parametrize("free_flyer", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_the_massless_leg_stewart_platform_holds_its_weight_by_j_inverse_transpose(
    seed, free_flyer
):
    """Massless legs (mass 0, so M is singular: the inverse dynamics projects on the
    allowed motions and never inverts M). The platform's twist (v, ω) at its centre c
    maps to the leg rates by J, rows (uₖᵀ, ((aₖ − c) × uₖ)ᵀ) with uₖ the unit leg
    vector from base point bₖ to platform point aₖ (Stewart (1965); Merlet, *Parallel
    Robots* (2006)); at rest the leg forces f balance the weight, Jᵀ f + W = 0 with W
    = (m g, (c_G − c) × m g), so f = −J⁻ᵀ W, here computed from the pose (our own
    rotation matrix of the yaw, pitch and roll) and the model's attachment points. The
    constrained inverse dynamics with the six pistons actuated meets it to 1e-9 N, with
    the platform on its chain or on a free-flyer joint (the same pose, its quaternion
    built here: the loops close there as they do on the chain)."""
    mass, com = 12.0, 0.15
    options = dict(cylinder_mass=0.0, piston_mass=0.0, platform_mass=mass, platform_com=com)
    robot = es.zoo.load("stewart", **options)
    rng = np.random.default_rng(seed)
    pose = np.r_[rng.uniform(-0.1, 0.1, 3), rng.uniform(-0.2, 0.2, 3)]
    s = ec.close_state(robot, es.neutral(robot), list(range(6)), pose)
    assert np.abs(s.qd).max() == 0.0 and np.abs(s.qdd).max() < 1e-12
    if free_flyer:
        flyer = es.zoo.load("stewart", free_flyer=True, **options)
        q = _free_flyer_state(robot, flyer, s.q, pose)
        assert np.abs(ec.constraint_residual(flyer, q)).max() < 1e-12
        robot, s = flyer, ec.ClosedState(q, s.qd, s.qdd)
    with pytest.raises(np.linalg.LinAlgError):
        np.linalg.cholesky(es.mass_matrix(robot, s.q))  # the legs have no mass
    out = ec.constrained_inverse_dynamics(robot, *s, actuated=list(range(18, 24)))
    R = _rotation(*pose[3:])
    centre = np.array([0.0, 0.0, 1.2]) + pose[:3]
    rows = []
    for k in range(6):
        a = centre + R @ robot.frame(f"attach{k}").translation
        u = a - robot.frame(f"base{k}").translation
        u /= np.linalg.norm(u)
        rows.append(np.r_[u, np.cross(a - centre, u)])
    J = np.array(rows)
    weight = mass * np.array([0.0, 0.0, -G])
    W = np.r_[weight, np.cross(R @ [0.0, 0.0, com], weight)]
    np.testing.assert_allclose(out.tau[18:], -np.linalg.solve(J.T, W), rtol=0, atol=1e-9)
    assert np.all(out.tau[:18] == 0.0)


def test_the_free_flying_stewart_platform_agrees_with_itself():
    """The platform on a free-flyer joint (a quaternion, nq = 25): assembled near home
    from a random start with the pistons held, mobility 6, and the formulations agree
    with KKT to 1e-10 at random allowed rates (J q̇ = 0 through ``partition``)."""
    robot = es.zoo.load("stewart", free_flyer=True)
    rng = np.random.default_rng(7)
    for _ in range(3):
        start = es.integrate(robot, es.neutral(robot), rng.uniform(-0.05, 0.05, robot.nv))
        q = ec.assemble(robot, start, fixed=list(range(18, 24)))
        assert np.abs(ec.constraint_residual(robot, q)).max() < 1e-12
        assert ec.constraint_rank(robot, q).mobility == 6
        N = ec.partition(robot, q).N
        qd, tau = N @ rng.uniform(-1, 1, 6), rng.uniform(-1, 1, robot.nv)
        ref = ec.constrained_forward_dynamics(robot, q, qd, tau, algorithm="kkt")
        for alg in ("schur", "null_space", "udwadia_kalaba"):
            out = ec.constrained_forward_dynamics(robot, q, qd, tau, algorithm=alg)
            a, f = np.abs(ref.qdd).max(), np.abs(ref.force).max()
            np.testing.assert_allclose(out.qdd, ref.qdd, rtol=0, atol=1e-10 * max(1.0, a))
            np.testing.assert_allclose(out.force, ref.force, rtol=0, atol=1e-10 * max(1.0, f))


def test_options_of_the_wrong_kind_or_out_of_reach_are_refused():
    """A switch takes True or False, a length a number; a crank angle at which the
    links cannot close is named."""
    with pytest.raises(ValueError, match="options: delta lumped: expected true or false"):
        es.zoo.load("delta", lumped="yes")
    with pytest.raises(ValueError, match="options: four_bar crank: expected a number"):
        es.zoo.load("four_bar", crank="1.0")
    with pytest.raises(ValueError, match="stewart height: expected a positive length"):
        es.zoo.load("stewart", height=-1.0)
    with pytest.raises(ValueError, match="four_bar crank_angle: the links cannot close"):
        es.zoo.load("four_bar", crank=1.0, coupler=1.0, rocker=1.0, ground=5.0)


def test_the_four_bar_docstring_states_grashofs_condition():
    """The defaults are a Grashof crank-rocker (s + l < p + q, the crank shortest): the
    crank turns a full revolution, every crank angle assembling with full rank."""
    text = es.zoo.describe("four_bar")
    assert "s + l ≤ p + q" in text and "Grashof" in text
    bar = es.zoo.load("four_bar")
    q = es.neutral(bar)
    for offset in np.linspace(0.0, 2 * np.pi, 13)[1:]:
        q = ec.close_state(bar, q, [0], [offset]).q
        assert ec.constraint_rank(bar, q).mobility == 1
