"""Inverse kinematics of seed 000 (Rojas 1987) §3.3–3.5, anchored on the Cincinnati T3 tables.

Rojas Salgado (1987) §3.3 (the redundant 7×6 system 3.3.1.9 and its Jacobian 3.3.1.19,
rates 3.3.2.14, accelerations 3.3.3.5, the 7R loop of Fig. 3.3.2 and 3.3.3.7), §3.4
(singular configurations), §3.5 (the 5-DOF two-point IK); the θ, θ̇, θ̈ of Tables 5.4.1
and 5.6.2.
"""

import numpy as np
import pytest

import eslabon as es
from checks import check
from eslabon.kinematics import ik
from eslabon.spatial.invariants import vect
from eslabon.zoo import rojas
from eslabon.zoo.rojas import INITIAL_THETA_DEG
from eslabon.zoo.rojas_tables import JOINT_TABLES

pytestmark = pytest.mark.source("Rojas (1987)", "§3.3–3.5; Tables 5.4.1 and 5.6.2")

T3_R = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, -1.0], [-1.0, 0.0, 0.0]])
X, Z = 1.33125, 1.79875

# Tables 5.4.1 (t = 0.05 s) and 5.6.2 (t = 0.45 s): OT data y, ẏ, ÿ and the printed joints
TABLES = JOINT_TABLES


@pytest.fixture(scope="module")
def t3():
    return es.zoo.load("cincinnati_t3")


def significant(value, printed, digits=4, noise=1e-5):
    """Printed to 5 digits by a single-precision program: agree to ``digits`` significant
    digits; entries at noise level (|printed| < noise) must be at noise level too."""
    for x, p in zip(value, printed, strict=True):
        if abs(p) < noise:
            assert abs(x) < noise, (x, p)
        else:
            assert abs(x - p) <= 0.5 * 10.0 ** (np.floor(np.log10(abs(p))) - digits + 1), (x, p)


def solve_table(t3, table, q0):
    row = TABLES[table]
    sol = ik.newton_gauss(t3, T3_R, [X, row["y"], Z], q0)
    qd = ik.rates(t3, sol, np.zeros(3), [0.0, row["yd"], 0.0])
    qdd = ik.accelerations(t3, sol, qd, np.zeros(3), [0.0, row["ydd"], 0.0])
    return sol, qd, qdd


def test_initial_configuration_invariants(t3):
    """§4.4, Table 4.4.1: at the initial (0, 90, −135, 45, 90, 90)° the pose has the task's
    2·vect(R) = (1, 1, −1), tr R = 0."""
    T = es.end_effector_pose(t3, np.radians(INITIAL_THETA_DEG))
    check(2 * vect(T[:3, :3]), [1.0, 1.0, -1.0], 1e-12)
    assert abs(np.trace(T[:3, :3])) < 1e-12


def test_tables_5_4_1_and_5_6_2(t3):
    """Tables 5.4.1 and 5.6.2: from the initial θ, the t = 0.05 s data; from that solution
    the t = 0.45 s data, in ≤ 5 iterations each: θ within 1e-3° of the tables, θ̇ and θ̈
    to 4 significant digits."""
    sol05, qd05, qdd05 = solve_table(t3, "5.4.1", np.radians(INITIAL_THETA_DEG))
    sol45, qd45, qdd45 = solve_table(t3, "5.6.2", sol05.q)
    for sol, qd, qdd, table in ((sol05, qd05, qdd05, "5.4.1"), (sol45, qd45, qdd45, "5.6.2")):
        assert sol.converged and not sol.singular and sol.iterations <= 5, sol.message
        assert sol.residual < 1e-12
        np.testing.assert_allclose(np.degrees(sol.q), TABLES[table]["theta"], atol=1e-3)
        significant(qd, TABLES[table]["thd"])
        significant(qdd, TABLES[table]["thdd"])


def test_square_variant_solves_the_same_task(t3):
    """§3.3.3: the 6×6 variant (no trace row 3.3.1.9b) converges to the same θ."""
    q0 = np.radians(INITIAL_THETA_DEG)
    red = ik.newton_gauss(t3, T3_R, [X, 0.40082, Z], q0)
    sq = ik.newton_gauss(t3, T3_R, [X, 0.40082, Z], q0, equations="square")
    assert red.converged and sq.converged
    check(sq.q, red.q, 1e-10)


def test_rates_and_accelerations_match_differences_of_positions(t3):
    """(3.3.2.14) and the VELAC form of (3.3.3.5) on a task with ω, ω̇ ≠ 0 and every joint
    moving: θ̇, θ̈ equal central differences of the IK positions along the task."""
    q_ref = np.radians([10.0, 80.0, -120.0, 30.0, 70.0, 40.0])
    T0 = es.end_effector_pose(t3, q_ref)
    axis = np.array([0.3, -0.5, 0.8]) / np.linalg.norm([0.3, -0.5, 0.8])

    def target(t):  # R(t) = rot(axis, 0.3 sin t) R0, p(t) = p0 + (0.1 sin 2t, …)
        a, ad, add = 0.3 * np.sin(t), 0.3 * np.cos(t), -0.3 * np.sin(t)
        R = es.spatial.rot_axis(axis, a) @ T0[:3, :3]
        w = np.array([0.1, 0.05, -0.08])
        p = T0[:3, 3] + w * np.sin(2 * t)
        return R, p, axis * ad, w * 2 * np.cos(2 * t), axis * add, -w * 4 * np.sin(2 * t)

    t, h = 0.7, 1e-4
    sols = {}
    for dt in (-h, 0.0, h):
        R, p, *_ = target(t + dt)
        sols[dt] = ik.newton_gauss(t3, R, p, q_ref)
        assert sols[dt].converged
    R, p, w, pd, wd, pdd = target(t)
    qd = ik.rates(t3, sols[0.0], w, pd)
    qdd = ik.accelerations(t3, sols[0.0], qd, wd, pdd)
    check(qd, (sols[h].q - sols[-h].q) / (2 * h), 1e-7)
    check(qdd, (sols[h].q - 2 * sols[0.0].q + sols[-h].q) / h**2, 2e-4)


def test_continuation_along_the_straight_line_task(t3):
    """§4.4: the 1 s task solved every 0.05 s from the initial θ: 1–3 iterations per pose
    (the thesis's claim), joint 6 stays at 90° with zero rate and acceleration."""
    from eslabon.trajectory import t3_straight_line_task

    path = ik.solve_path(
        t3, t3_straight_line_task(), np.arange(0.05, 1.0001, 0.05), np.radians(INITIAL_THETA_DEG)
    )
    assert path.converged.all(), path.message
    assert path.iterations.min() >= 1 and path.iterations.max() <= 3
    np.testing.assert_allclose(np.degrees(path.q[:, 5]), 90.0, atol=1e-9)
    assert np.abs(path.qd[:, 5]).max() < 1e-9 and np.abs(path.qdd[:, 5]).max() < 1e-8
    T = es.end_effector_pose(t3, path.q)
    check(
        T[:, :3, 3],
        np.column_stack(
            [np.full(20, X), t3_straight_line_task().at(path.t).p[:, 1], np.full(20, Z)]
        ),
        1e-12,
    )


def test_approach_from_a_far_start(t3):
    """Continuation from a known configuration to a far pose through intermediate poses
    (§3.3.1): where one Newton–Gauss solve from the far start need not converge."""
    q_goal = np.radians([40.0, 70.0, -100.0, 20.0, 60.0, 30.0])
    T = es.end_effector_pose(t3, q_goal)
    sol = ik.approach(t3, T[:3, :3], T[:3, 3], np.radians(INITIAL_THETA_DEG), steps=8)
    assert sol.converged, sol.message
    check(es.end_effector_pose(t3, sol.q), T, 1e-11)


def sweep_seven_r(equations):
    """(θ₁ in degrees, IK result) along θ₁ = 126 → 121 and 127 → 239°, each solve continuing
    from the last converged one, starting at the symmetric solution θ₂ = 60°."""
    chain = rojas.seven_r_chain()
    symmetric = np.radians(rojas.SEVEN_R_SYMMETRIC_DEG[1:])
    out = []
    for leg in (np.arange(126.0, 120.0, -1.0), np.arange(127.0, 240.0, 1.0)):
        q = symmetric
        for deg in leg:
            R, p = rojas.seven_r_loop_target(np.radians(deg))
            sol = ik.newton_gauss(chain, R, p, q, equations=equations)
            out.append((deg, sol, R, p))
            if sol.converged:
                q = sol.q
    return chain, out


def relation(sol, deg):
    return abs((2 + np.cos(sol.q[0])) * np.cos(np.radians(deg)) + 1.5)


def test_seven_r_mechanism_input_output_relation():
    """§3.3.3, eq. 3.3.3.7: along θ₁ ∈ (120°, 240°) the 7×6 IK satisfies
    (2 + cos θ₂) cos θ₁ = −1.5 to 1e-9. At θ₁ = 180° the loop target has φ = π: the
    invariant equations are spuriously singular and the solver says so."""
    _, sweep = sweep_seven_r("redundant")
    for deg, sol, _, _ in sweep:
        if deg == 180.0:
            assert not sol.converged and sol.singularity == "spurious", sol.message
            continue
        assert sol.converged and sol.iterations <= 10, (deg, sol.message)
        assert relation(sol, deg) < 1e-9, deg


def test_seven_r_square_variant_closes_the_loop_but_may_leave_the_branch():
    """§3.3.3 (its error plots, Figs. 3.3.3–3.3.5, are lost): the 6×6 system converges and closes
    the loop wherever it converges, and stays on the symmetric branch for θ₁ ≤ 135°; the
    redundant system is no less accurate (compare the test above, which holds it to the
    branch along the whole sweep)."""
    chain, sweep = sweep_seven_r("square")
    converged = 0
    for deg, sol, R, p in sweep:
        if deg == 180.0:
            assert sol.singular and sol.singularity == "spurious", sol.message
        if not sol.converged:
            continue
        converged += 1
        T = es.end_effector_pose(chain, sol.q)
        check(T[:3, :3], R, 1e-12)
        check(T[:3, 3], p, 1e-12)
        if deg <= 135.0:
            assert relation(sol, deg) < 1e-9, deg
    assert converged > 60


def test_singularities_are_detected_and_classified(t3):
    """§3.4: full extension is intrinsic; φ = π is spurious; φ = ±π/2 is not
    flagged by the 7×6 system but is by the square one."""
    stretched = np.radians([0.0, 90.0, 0.0, 45.0, 90.0, 90.0])  # links 2, 3 aligned
    T = es.end_effector_pose(t3, stretched)
    sol = ik.newton_gauss(t3, T[:3, :3], T[:3, 3], stretched)
    assert sol.singular and sol.singularity == "intrinsic"
    start = np.radians([10.0, 80.0, -120.0, 30.0, 70.0, 40.0])
    p = es.end_effector_pose(t3, start)[:3, 3]
    for phi, redundant_flag in ((np.pi / 2, False), (np.pi, True)):
        R = es.spatial.rot_axis(np.array([0.0, 0.6, 0.8]), phi)  # φ is the absolute angle
        reach = ik.damped_least_squares(t3, R, p, start)
        assert reach.converged, reach.message
        red = ik.newton_gauss(t3, R, p, reach.q)
        sq = ik.newton_gauss(t3, R, p, reach.q, equations="square")
        assert red.singular == redundant_flag, (phi, red.message)
        assert sq.singular and sq.singularity == "spurious", (phi, sq.message)
        if redundant_flag:
            assert red.singularity == "spurious"


def test_failure_is_reported_not_hidden(t3):
    q0 = np.radians(INITIAL_THETA_DEG)
    far = ik.newton_gauss(t3, T3_R, [9.0, 0.0, 1.0], q0)
    assert not far.converged and "newton_gauss" in far.message
    short = ik.newton_gauss(t3, T3_R, [X, 0.40082, Z], q0, max_iter=1)
    assert not short.converged and "1 iterations" in short.message
    with pytest.raises(ValueError, match="solution: the IK did not converge"):
        ik.rates(t3, far, np.zeros(3), np.zeros(3))


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(R=np.eye(3) * 1.1), "R: expected a proper rotation"),
        (dict(R=np.diag([1.0, 1.0, -1.0])), "R: expected a proper rotation"),
        (dict(R=np.eye(2)), r"R: expected shape \(\.\.\., 3, 3\)"),
        (dict(R=np.zeros((2, 3, 3)) + np.eye(3)), r"R: expected shape \(3, 3\)"),
        (dict(p=[1.0, np.nan, 0.0]), "p: expected finite"),
        (dict(q0=np.zeros(5)), "q0: expected shape"),
        (dict(equations="cubic"), "equations: expected one of"),
        (dict(tol=-1.0), "tol: expected a positive"),
    ],
)
def test_bad_targets_are_named(t3, kwargs, match):
    args = dict(R=T3_R, p=[X, 0.0, Z], q0=np.radians(INITIAL_THETA_DEG))
    args.update({k: v for k, v in kwargs.items() if k in args})
    options = {k: v for k, v in kwargs.items() if k not in args}
    with pytest.raises(ValueError, match=match):
        ik.newton_gauss(t3, args["R"], args["p"], args["q0"], **options)


def five_r():
    """A 5-DOF arm: the T3's first four joints and a fifth link of length 0.25 m and
    offset 0.1 m carrying the tool axis (O₅ = frame dh4, O₆ = frame dh5). The Héxiflex
    of §3.5 cannot be used: its α_i and b_i are not in the seed (Fig. 3.5.2 is lost; the
    text gives only the relation 3.5.2.7)."""
    t3 = es.zoo.load("cincinnati_t3")
    rows = [dict(r) for r in t3.dh.rows[:4]]
    rows.append(dict(rows[3], d=0.25, b=0.1, alpha=np.radians(90.0), name="tool link"))
    return es.from_dh(rows, "rojas")


def test_two_point_ik_solves_a_five_r_arm_with_rates_and_accelerations():
    """§3.5 (3.5.1.3–4, 3.5.2.2, 3.5.2.5): two points on the tool axis at fixed distance."""
    arm = five_r()
    rng = np.random.default_rng(3)
    q_star, qd_star, qdd_star = rng.uniform(-1, 1, (3, 5)) + np.array([0, 1.5, -2, 0.5, 1.0])
    h, s = (es.kinematics.frame_pose(arm, q_star, f)[:3, 3] for f in ("dh4", "dh5"))
    sol = ik.two_point(arm, h, s, q_star + 0.05)
    assert sol.converged, sol.message
    check(sol.q, q_star, 1e-10)
    # rates and accelerations of the two points, by differences of the forward kinematics
    eps = 1e-4

    def points(t):
        q = q_star + qd_star * t + 0.5 * qdd_star * t * t
        return [es.kinematics.frame_pose(arm, q, f)[:3, 3] for f in ("dh4", "dh5")]

    # the point velocities and accelerations from central differences of the forward
    # kinematics along q(t) = q* + q̇* t + ½ q̈* t² (not from the library's own Hessian)
    (hm, sm), (hp, sp) = points(-eps), points(eps)
    v = [(hp - hm) / (2 * eps), (sp - sm) / (2 * eps)]
    a = [(hp - 2 * h + hm) / eps**2, (sp - 2 * s + sm) / eps**2]
    # the differences carry O(eps²) and O(1e-16/eps²) errors: project them on the tool's
    # rigidity before use (the solver checks rigidity to 1e-9)
    d = h - s
    v1 = v[1] + d * ((d @ (v[0] - v[1])) / (d @ d))  # d·(ṗ − ṗ′) = 0
    rel = v[0] - v1
    a1 = a[1] + d * ((d @ (a[0] - a[1]) + rel @ rel) / (d @ d))  # d·(p̈ − p̈′) + |ṗ − ṗ′|² = 0
    qd = ik.two_point_rates(arm, sol, h, s, v[0], v1)
    check(qd, qd_star, 1e-6)
    check(ik.two_point_accelerations(arm, sol, qd, h, s, v[0], v1, a[0], a1), qdd_star, 1e-5)


def test_two_point_rejects_non_rigid_data():
    arm = five_r()
    q = np.array([0.1, 1.4, -2.0, 0.5, 1.0])
    h, s = (es.kinematics.frame_pose(arm, q, f)[:3, 3] for f in ("dh4", "dh5"))
    with pytest.raises(ValueError, match="p_prime: the two points do not move as one rigid"):
        ik.two_point(arm, h, s + [0.0, 0.0, 0.01], q)
    sol = ik.two_point(arm, h, s, q)
    with pytest.raises(ValueError, match="p_prime_dot"):
        ik.two_point_rates(arm, sol, h, s, np.zeros(3), h - s)  # stretches the tool


def test_damped_least_squares_on_a_redundant_arm_and_position_only():
    """The general solver: a 7-DOF Panda pose and a T3 point, from poor starts."""
    panda = es.zoo.load("panda")
    q_star = np.array([0.3, -0.5, 0.2, -2.0, 0.4, 1.5, -0.3])
    T = es.end_effector_pose(panda, q_star)
    sol = ik.damped_least_squares(panda, T[:3, :3], T[:3, 3], np.zeros(7))
    assert sol.converged, sol.message
    check(es.end_effector_pose(panda, sol.q), T, 1e-11)
    t3 = es.zoo.load("cincinnati_t3")
    pt = ik.damped_least_squares(t3, None, [1.0, 0.5, 1.2], np.radians(INITIAL_THETA_DEG))
    assert pt.converged
    check(es.end_effector_pose(t3, pt.q)[:3, 3], [1.0, 0.5, 1.2], 1e-11)
    out = ik.damped_least_squares(t3, None, [5.0, 0.0, 1.0], np.radians(INITIAL_THETA_DEG))
    assert not out.converged and "out of reach" in out.message


def test_seven_r_symmetric_solution_closes_the_loop():
    """§3.3.3: θ₂ = 60° gives θ₁ = θ₇ = 126.869898°, θ₄ = 253.739795° by 3.3.3.7 (stored to 6
    decimals of a degree, so the loop closes to about 1e-7)."""
    sym = np.radians(rojas.SEVEN_R_SYMMETRIC_DEG)
    R, p = rojas.seven_r_loop_target(sym[0])
    T = es.end_effector_pose(rojas.seven_r_chain(), sym[1:])
    check(T[:3, :3], R, 1e-7)
    check(T[:3, 3], p, 1e-7)
    assert abs((2 + np.cos(sym[1])) * np.cos(sym[0]) + 1.5) < 1e-7


def test_other_rotations_meeting_the_invariant_equations_are_not_convergence(t3):
    """Review finding: the square system is met by φ′ = π − φ about the same axis, and at
    φ = π both systems are met by any half-turn; neither may be reported as converged."""
    q = np.radians([10.0, 80.0, -120.0, 30.0, 70.0, 40.0])
    T = es.end_effector_pose(t3, q)
    e, phi = es.spatial.axis_angle(T[:3, :3])
    mirror = es.spatial.rotation_from_axis_angle(e, np.pi - phi)
    sq = ik.newton_gauss(t3, mirror, T[:3, 3], q, equations="square")
    assert not sq.converged and "another one" in sq.message
    red = ik.newton_gauss(t3, mirror, T[:3, 3], q)
    assert not red.converged or np.allclose(
        es.end_effector_pose(t3, red.q)[:3, :3], mirror, atol=1e-8
    )
    half = [
        es.spatial.rotation_from_axis_angle(np.array(a) / np.linalg.norm(a), np.pi)
        for a in ((0, 0.6, 0.8), (0, 0.8, 0.6))
    ]
    start = ik.damped_least_squares(t3, half[0], T[:3, 3], q)
    assert start.converged
    other = ik.newton_gauss(t3, half[1], T[:3, 3], start.q)
    assert not other.converged


def test_rates_keep_the_solution_frame_and_refuse_unreachable_data(t3):
    """Review findings: the frame and equations travel with the solution; rates a 5-joint
    chain cannot produce are an error naming the data, not a least-squares compromise."""
    q = np.radians([10.0, 80.0, -120.0, 30.0, 70.0, 40.0])
    T = es.kinematics.frame_pose(t3, q, "dh5")
    sol = ik.newton_gauss(t3, T[:3, :3], T[:3, 3], q + 0.01, frame="dh5")
    assert sol.converged and sol.frame == "dh5" and sol.joints == tuple(range(5))
    assert sol.q[5] == pytest.approx(q[5] + 0.01)  # joint 6 is off the chain: held
    J = es.jacobian(t3, q, "dh5")
    qd = np.array([0.1, -0.2, 0.3, 0.1, -0.1, 0.0])
    check(ik.rates(t3, sol, *(J @ qd)[:3].reshape(1, 3), (J @ qd)[3:]), qd, 1e-9)
    with pytest.raises(ValueError, match="frame: the solution was found for frame 'dh5'"):
        ik.rates(t3, sol, np.zeros(3), np.zeros(3), frame="ee")
    with pytest.raises(ValueError, match="omega, p_dot: not reachable by the 5 joints"):
        ik.rates(t3, sol, [0.0, 0.0, 1.0], [0.3, 0.0, 0.0])


def test_two_point_rates_refuse_a_singular_solution():
    arm = five_r()
    q = np.array([0.0, 1.2, 0.0, 0.5, 1.0])  # links 2 and 3 aligned
    h, s = (es.kinematics.frame_pose(arm, q, f)[:3, 3] for f in ("dh4", "dh5"))
    sol = ik.two_point(arm, h, s, q)
    assert sol.singular
    with pytest.raises(ValueError, match="singular"):
        ik.two_point_rates(arm, sol, h, s, np.zeros(3), np.zeros(3))


def test_two_point_with_a_prismatic_joint_between_the_points():
    """The rigidity check applies only when the two points keep their distance."""
    rows = [dict(r) for r in es.zoo.load("cincinnati_t3").dh.rows[:4]]
    rows.append(dict(rows[3], joint="P", b=0.1, d=0.0, alpha=0.0, name="slide"))
    arm = es.from_dh(rows, "rojas")
    q_star = np.array([0.2, 1.4, -2.0, 0.5, 0.3])
    h, s = (es.kinematics.frame_pose(arm, q_star, f)[:3, 3] for f in ("dh4", "dh5"))
    sol = ik.two_point(arm, h, s, q_star + 0.02)
    assert sol.converged, sol.message
    # the rates and accelerations skip it too (they refused exact data before)
    qd, qdd = np.array([0.3, -0.2, 0.1, 0.4, 0.5]), np.array([1.0, 0.5, -0.5, 0.2, 0.3])

    def motion(frame, eps=1e-6):
        J = es.jacobian(arm, sol.q, frame)[3:]
        dJ = es.jacobian(arm, sol.q + eps * qd, frame) - es.jacobian(arm, sol.q - eps * qd, frame)
        return J @ qd, J @ qdd + dJ[3:] @ qd / (2 * eps)

    (v, a), (v1, a1) = motion("dh4"), motion("dh5")
    check(ik.two_point_rates(arm, sol, h, s, v, v1), qd, 1e-9)
    check(ik.two_point_accelerations(arm, sol, qd, h, s, v, v1, a, a1), qdd, 1e-6)
    with pytest.raises(ValueError, match="frames: the solution was solved for"):
        ik.two_point_rates(arm, sol, h, s, v, v1, frames=("dh3", "dh5"))


def test_newton_gauss_on_a_tree_solves_the_chain_to_the_frame():
    """Review finding: only the joints on the chain to the frame are unknowns."""
    b = es.model.ModelBuilder()
    t3 = es.zoo.load("cincinnati_t3")
    for arm in range(2):
        parent = 0
        for i in range(1, 7):
            parent = b.add_body(
                parent,
                "R",
                rotation=t3.tree_rotation[i],
                translation=t3.tree_translation[i] + ([0.0, 1.0 * arm, 0.0] if i == 1 else 0.0),
                mass=t3.mass[i],
                com=t3.com[i],
                inertia=t3.inertia[i],
            )
        fr = t3.frame("ee")
        b.add_frame(f"ee{arm}", parent, fr.rotation, fr.translation)
    tree = b.build(gravity=(0, 0, -9.81))
    q = np.tile(np.radians([10.0, 80.0, -120.0, 30.0, 70.0, 40.0]), 2)
    T = es.kinematics.frame_pose(tree, q, "ee1")
    sol = ik.newton_gauss(tree, T[:3, :3], T[:3, 3], q + 0.01, frame="ee1")
    assert sol.converged and sol.joints == tuple(range(6, 12)), sol.message
    check(sol.q[:6], q[:6] + 0.01, 0.0)


@pytest.mark.parametrize("seed", [1, 2, 4, 7, 10])
def test_rates_and_accelerations_with_prismatic_joints_payload_and_tool(seed):
    """(3.3.2.14), (3.3.3.5) on random R/P chains with a payload and a tool: the rates and
    accelerations of a known motion are recovered (its twist rate by central differences
    of the geometric Jacobian, an independent route)."""
    model = es.zoo.random_chain(6, seed, payload=True, tool=True)
    q, qd, qdd = np.random.default_rng(seed).uniform(-1, 1, (3, 6))
    T = es.end_effector_pose(model, q)
    sol = ik.newton_gauss(model, T[:3, :3], T[:3, 3], q + 0.01)
    assert sol.converged and not sol.singular, sol.message
    J = es.jacobian(model, q)
    h = 1e-6
    twist_rate = J @ qdd + (
        es.jacobian(model, q + h * qd) - es.jacobian(model, q - h * qd)
    ) @ qd / (2 * h)
    got_qd = ik.rates(model, sol, (J @ qd)[:3], (J @ qd)[3:])
    check(got_qd, qd, 1e-10)
    check(ik.accelerations(model, sol, got_qd, twist_rate[:3], twist_rate[3:]), qdd, 1e-7)


def test_seven_r_exact_rates_against_central_differences():
    """Rojas (1987) eq. 3.3.3.7 differentiated: θ̇₂ and θ̈₂ of ``seven_r_exact`` against
    central differences of θ₂ along a motion θ₁(t), and the loop's ω against the
    rotation's own rate."""
    t1, t1d, t1dd = np.radians(131.0), 0.7, -0.4

    def theta2(h):
        return rojas.seven_r_exact(t1 + t1d * h + 0.5 * t1dd * h * h, 0.0, 0.0)[0]

    th2, th2d, th2dd = rojas.seven_r_exact(t1, t1d, t1dd)
    h = 1e-4
    assert th2d == pytest.approx((theta2(h) - theta2(-h)) / (2 * h), rel=1e-6)
    assert th2dd == pytest.approx((theta2(h) - 2 * th2 + theta2(-h)) / h**2, rel=1e-6)
    R, p, w, p_dot, w_dot, p_ddot = rojas.seven_r_loop_motion(t1, t1d, t1dd)
    R1 = rojas.seven_r_loop_target(t1 + t1d * 1e-7)[0]
    R0 = rojas.seven_r_loop_target(t1 - t1d * 1e-7)[0]
    W = (R1 - R0) / 2e-7 @ R.T
    np.testing.assert_allclose([W[2, 1], W[0, 2], W[1, 0]], w, atol=1e-8)
    assert not p_dot.any() and not p_ddot.any()
    np.testing.assert_allclose(w_dot, w * t1dd / t1d, rtol=1e-15)


def test_seven_r_round_off_experiment():
    """Figs. 3.3.3–3.3.5 of Rojas (1987) §3.3.3: θ₂, θ̇₂, θ̈₂ of the 7R loop by the square
    6 × 6 and the redundant 7 × 6 systems against the exact relation (3.3.3.7). In double
    precision both are at round-off: medians below 1e-13 (measured 1.3e-15–1.4e-14), the
    worst sample below 1e-11 (measured 1.8e-12, θ̈₂ by the 7 × 6 system)."""
    from eslabon.reproduce import seven_r_loop

    t = np.linspace(0.0, 1.0, 21)
    for equations in ik.EQUATIONS:
        errors = seven_r_loop.round_off_errors(equations, t)
        for key in ("position", "rate", "acceleration"):
            assert np.median(np.abs(errors[key])) < 1e-13, (equations, key)
            assert np.abs(errors[key]).max() < 1e-11, (equations, key)
        assert errors["condition"].max() < 1e3


def test_least_condition_start_of_3_3_1_12():
    """Rojas (1987) §3.3.1, eq. 3.3.1.12: start from the θ⁰ that minimises κ(J). From the
    fourth of ``reproduce rojas``'s perturbed starts, an ill-conditioned one, the search
    ends on its tolerances (not its budget) at a local minimum of κ far below the given
    κ; the continuation to the task's first pose converges from it. Held joints stay; κ is
    the SVD's σ_max/σ_min of J."""
    from eslabon.kinematics.ik.newton_gauss import system
    from eslabon.trajectory import t3_straight_line_task

    t3 = es.zoo.load("cincinnati_t3")
    rng = np.random.default_rng(0)
    starts = [np.radians(INITIAL_THETA_DEG) + rng.uniform(-0.8, 0.8, 6) for _ in range(4)]
    q0 = starts[3]
    _, J = system(t3, q0, np.eye(3), np.zeros(3))
    assert ik.jacobian_condition(t3, q0) == pytest.approx(np.linalg.cond(J), rel=1e-12)
    found = ik.least_condition_start(t3, q0)
    assert found.condition_given == pytest.approx(np.linalg.cond(J), rel=1e-12)
    assert found.condition_given > 100 and found.condition < found.condition_given / 20
    assert found.evaluations < 5000  # ended on xatol/fatol, not on the budget
    # near a local minimum: no joint moved by ±1e-3 rad lowers κ by 0.1 % (Nelder–Mead
    # may stall short of the minimum in a flat valley: here one move lowers it by 0.007 %)
    for j in range(6):
        for step in (-1e-3, 1e-3):
            q = found.q.copy()
            q[j] += step
            assert ik.jacobian_condition(t3, q) > found.condition * (1 - 1e-3)
    first = t3_straight_line_task().at(0.0)
    assert ik.approach(t3, first.R, first.p, found.q, steps=5).converged
    kept = ik.least_condition_start(t3, q0, held=(0, 5), max_evaluations=200)
    assert kept.q[0] == q0[0] and kept.q[5] == q0[5] and kept.evaluations <= 201
    with pytest.raises(ValueError, match="held: expected joint indices"):
        ik.least_condition_start(t3, q0, held=(7,))


def test_approach_outcome_does_not_turn_on_rounding():
    """Same answer on every machine: the continuation's outcome may not depend on the last
    bits of its data. Two cases that did (an AVX-512 CPU failed where an AVX2 one passed):
    (a) a start whose pose 3 of 5 lies near the spurious singularity φ = π (§3.4), where
    Newton needed 27–30 of its 30 iterations, so starts 1e-13 rad apart converged or not;
    (b) a target exactly a half turn from the start (the §3.6 task), whose axis sign is
    rounding noise. With step halving and the half-turn rule, starts perturbed by 1e-13
    rad all converge to the same solution, and flipping the half turn's rounding gives
    the same path."""
    from eslabon.kinematics.horner import point_derivatives
    from eslabon.kinematics.ik.continuation import _turn
    from eslabon.reproduce import e2_task
    from eslabon.spatial import axis_angle, rot_x
    from eslabon.trajectory import t3_straight_line_task

    t3 = es.zoo.load("cincinnati_t3")
    rng = np.random.default_rng(0)
    starts = [np.radians(INITIAL_THETA_DEG) + rng.uniform(-0.8, 0.8, 6) for _ in range(4)]
    first = t3_straight_line_task().at(0.0)
    noise = np.random.default_rng(1)
    for q0 in (starts[3], ik.least_condition_start(t3, starts[3]).q):
        ends = []
        for _ in range(4):
            q = q0 + noise.uniform(-1e-13, 1e-13, 6)
            sol = ik.approach(t3, first.R, first.p, q, steps=5)
            assert sol.converged, sol.message
            ends.append(sol.q)
        np.testing.assert_allclose(ends, [ends[0]] * 4, atol=1e-9)
    # (b): the §3.6 start, a half turn from Table 4.4.1's orientation
    target = e2_task.task(t3).at(0.0)
    q_init = np.radians(INITIAL_THETA_DEG)
    here = point_derivatives(t3, q_init, "ee")
    e, phi = axis_angle(target.R @ here.rotation.T)
    assert np.pi - phi < 1e-9  # a half turn to round-off
    both = {tuple(np.round(_turn(s * e, phi, here.rotation, "redundant")[0], 12)) for s in (1, -1)}
    assert len(both) == 1
    for _ in range(3):
        q = q_init + noise.uniform(-1e-13, 1e-13, 6)
        assert ik.approach(t3, target.R, target.p, q, steps=20).converged
    # an exact half turn with a symmetric path: the tie goes to the positive axis
    axis, angle = _turn(np.array([0.0, 0.0, -1.0]), np.pi, np.eye(3), "redundant")
    assert axis[2] == 1.0 and angle == np.pi
    axis, angle = _turn(np.array([-1.0, 0.0, 0.0]), np.pi, rot_x(0.3), "redundant")
    assert angle == np.pi or angle == pytest.approx(np.pi)


def test_the_section_3_6_task_on_the_t3():
    """Rojas (1987) §3.6, Figs. 3.6.2–3.6.8: the sphere–cylinder curve with the Frenet–Serret
    orientation, one cycle in 60 s, IK every 0.5 s by the 7×6 system, on the T3
    (``reproduce rojas``). Every solve converges; the end effector is on the curve to
    1e-9 m with the Frenet rotation; J θ̇ gives the task's [ω; ṗ] (the rates of §3.3.2);
    the sixth joint turns once as the Frenet frame does around the closed curve."""
    from eslabon.reproduce import e2_task

    t3 = es.zoo.load("cincinnati_t3")
    times, sol = e2_task.solve(t3)
    task = e2_task.task(t3)
    assert len(times) == 121 and np.all(sol.converged)
    for k in range(0, 121, 10):
        s = task.at(times[k])
        T = es.end_effector_pose(t3, sol.q[k])
        assert np.abs(T[:3, 3] - s.p).max() < 1e-9 and np.abs(T[:3, :3] - s.R).max() < 1e-9
        twist = es.jacobian(t3, sol.q[k], "ee") @ sol.qd[k]
        np.testing.assert_allclose(twist, np.concatenate([s.omega, s.p_dot]), atol=1e-9)
    assert abs(abs(sol.q[-1, 5] - sol.q[0, 5]) - 2 * np.pi) < 1e-6


def test_two_point_frames_whose_names_hold_a_space():
    """Review finding: the frames were read back by splitting their joined names."""
    from eslabon.model import Frame

    rows = [dict(r) for r in es.zoo.load("cincinnati_t3").dh.rows[:5]]
    arm = es.from_dh(rows, "rojas")
    dh5 = arm.frame("dh5")
    tip = Frame("tool tip", dh5.body, dh5.rotation, dh5.translation + dh5.rotation @ [0, 0, 0.3])
    arm = arm.replace(frames=(*arm.frames, tip))
    frames = ("dh4", "tool tip")
    q = np.array([0.2, 1.4, -2.0, 0.5, 0.3])
    h, s = (es.kinematics.frame_pose(arm, q, f)[:3, 3] for f in frames)
    sol = ik.two_point(arm, h, s, q + 0.02, frames=frames)
    assert sol.converged and sol.frames == frames
    qd = np.array([0.3, -0.2, 0.1, 0.4, 0.5])
    v, v1 = (es.jacobian(arm, sol.q, f)[3:] @ qd for f in frames)
    check(ik.two_point_rates(arm, sol, h, s, v, v1), qd, 1e-9)
    check(ik.two_point_rates(arm, sol, h, s, v, v1, frames=frames), qd, 1e-9)
