"""The zoo's standing robots (eslabon.zoo.legged): the Solo 12 quadruped on four point
feet (Grimminger et al., IEEE RA-L 5(2), 2020; figures of example-robot-data's
solo12.urdf) and the humanoid on two flat feet (segment data of Winter, *Biomechanics and
Motor Control of Human Movement*, 4th ed. 2009, Table 4.1 and Fig. 4.1). Each stands at
q = 0: its contacts close there, the contact forces carry its weight and balance its
moment, the torques that hold it keep it still, and the constrained formulations agree
on it; the quadruped is the robot of the URDF file, the humanoid has Winter's masses
and heights."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

import eslabon as es
from eslabon import constraints as ec
from eslabon.zoo import legged

ROBOTS = {"quadruped": 6, "humanoid": 10}  # name: mobility, nv − 12
LEGS = ("FL", "FR", "HL", "HR")
FRAMES = ("left_sole", "right_sole", "left_ankle_link", "left_shank", "left_thigh", "right_thigh",
          "left_upper_arm", "right_upper_arm")  # fmt: skip


def _com(model, q) -> np.ndarray:
    """The whole robot's centre of mass in the world, from the bodies' poses."""
    T = es.kinematics.forward_kinematics(model, q)
    points = np.einsum("bij,bj->bi", T[:, :3, :3], model.com) + T[:, :3, 3]
    return model.mass @ points / model.mass.sum()


def _standing(name):
    model = es.zoo.load(name)
    q = es.neutral(model)
    zero = np.zeros(model.nv)
    return model, q, ec.constrained_inverse_dynamics(model, q, zero, zero)


@pytest.mark.parametrize("name", ROBOTS)
def test_q_zero_is_the_standing_pose_with_its_mobility(name):
    """The contacts close at q = 0 (‖φ‖ ≤ 1e-12, and assembly from there stays there),
    their 12 rows are independent (the quadruped's four 3-row points, the humanoid's two
    6-row welds), so the mobility is nv − 12: the quadruped's 6 (its base moves over
    planted feet), the humanoid's 10; the bare tree (``contacts=False``) is the same
    tree without them."""
    model = es.zoo.load(name)
    q = es.neutral(model)
    assert np.abs(ec.constraint_residual(model, q)).max() <= 1e-12
    np.testing.assert_allclose(ec.assemble(model, q), q, rtol=0, atol=1e-12)
    report = ec.constraint_rank(model, q)
    assert len(ec.constraint_names(model)) == 12 and report.rank == 12
    assert report.redundant == ()
    assert report.mobility == ROBOTS[name] == model.nv - 12
    bare = es.zoo.load(name, contacts=False)
    assert bare.constraints == () and bare.nv == model.nv
    np.testing.assert_array_equal(es.mass_matrix(bare, q), es.mass_matrix(model, q))
    soles = [c.position[2] for c in model.constraints]
    assert np.abs(soles).max() < 1e-12  # the feet on the ground plane z = 0


@pytest.mark.parametrize("name", ROBOTS)
def test_standing_still_the_feet_carry_the_weight_and_its_moment(name):
    """Still at q = 0, the inverse dynamics leave the unactuated base's six rates at
    exactly 0; the ground's forces f_i (at the contact points p_i) and moments n_i
    (the welds') balance gravity: Σ f_i = (0, 0, m g) to 1e-9 of m g, and about any
    point r, Σ (p_i − r) × f_i + n_i = (c − r) × (0, 0, m g), c the centre of mass, to
    1e-9 of m g times the robot's size. Fed back, those torques keep it still
    (q̈ ≈ 0 to 1e-8) with the same contact forces."""
    model, q, out = _standing(name)
    assert np.all(out.tau[list(model.floating_base_rates)] == 0.0)
    weight = float(model.mass.sum()) * 9.81
    forces = out.forces()
    total, moment = np.zeros(3), {}
    points = [np.zeros(3), np.array([0.3, -0.7, 0.5])]
    for r in map(tuple, points):
        moment[r] = np.zeros(3)
    for c in model.constraints:
        f = np.array([forces.get(f"{c.name}.{a}", 0.0) for a in ("x", "y", "z")])
        n = np.array([forces.get(f"{c.name}.{a}", 0.0) for a in ("rx", "ry", "rz")])
        total += f
        for r in moment:
            moment[r] += np.cross(np.asarray(c.position) - r, f) + n
    np.testing.assert_allclose(total, [0.0, 0.0, weight], rtol=0, atol=1e-9 * weight)
    com = _com(model, q)
    size = 1.0 + np.abs(points).max()
    for r, m in moment.items():
        expected = np.cross(com - np.asarray(r), [0.0, 0.0, weight])
        np.testing.assert_allclose(m, expected, rtol=0, atol=1e-9 * weight * size)
    zero = np.zeros(model.nv)
    for algorithm in ec.CONSTRAINED_ALGORITHMS[:4]:
        back = ec.constrained_forward_dynamics(model, q, zero, out.tau, algorithm=algorithm)
        assert np.abs(back.qdd).max() < 1e-8, algorithm
        np.testing.assert_allclose(back.force, out.force, rtol=0, atol=1e-9 * weight)


@pytest.mark.parametrize("name", ROBOTS)
def test_held_by_its_standing_torques_it_stays_standing(name):
    """Simulated 0.5 s (RK4, 5 ms steps) from q = 0 at rest under the constant standing
    torques of the inverse dynamics, the base moves less than 1 µm (and turns less than
    1 µrad) and the contacts' residual stays below 1e-9."""
    model, q, out = _standing(name)
    run = es.simulate(model, q, None, 0.5, 0.005, torque=out.tau)
    assert run.q.shape == (101, model.nq)
    assert np.linalg.norm(run.q[:, :3] - q[:3], axis=1).max() < 1e-6
    assert np.abs(run.q[:, 3:6]).max() < 1e-6  # the quaternion's vector part
    assert run.constraint_residual.max() < 1e-9
    assert np.abs(run.qd).max() < 1e-6


@pytest.mark.parametrize("name", ROBOTS)
def test_the_formulations_agree_at_a_random_state(name):
    """At a random assembled state near the stance (the base moved a few cm and turned,
    the joints perturbed, then closed onto φ = 0 by ``assemble``) with rates the
    contacts allow (J q̇ = 0) and random torques, the four formulations of
    ``constrained_forward_dynamics`` (KKT, Schur complement, null space,
    Udwadia–Kalaba) give the same q̈ and λ to 1e-10 relative; Jaramillo's recursion
    (serial chains only) refuses these trees by name."""
    model = es.zoo.load(name)
    rng = np.random.default_rng(7)
    step = np.concatenate(
        [
            rng.uniform(-0.03, 0.03, 3),
            rng.uniform(-0.1, 0.1, 3),
            rng.uniform(-0.2, 0.2, model.nv - 6),
        ]
    )
    q = ec.assemble(model, es.integrate(model, es.neutral(model), step))
    assert np.abs(ec.constraint_residual(model, q)).max() < 1e-12
    assert np.abs(q[:3]).max() > 1e-3  # the base did move
    N = ec.partition(model, q).N
    v = N @ rng.uniform(-1, 1, N.shape[1])
    assert np.abs(ec.constraint_jacobian(model, q) @ v).max() < 1e-12
    tau = rng.uniform(-1, 1, model.nv)
    ref = ec.constrained_forward_dynamics(model, q, v, tau, algorithm="kkt")
    a, f = np.abs(ref.qdd).max(), np.abs(ref.force).max()
    for algorithm in ec.CONSTRAINED_ALGORITHMS[1:4]:
        out = ec.constrained_forward_dynamics(model, q, v, tau, algorithm=algorithm)
        np.testing.assert_allclose(out.qdd, ref.qdd, rtol=0, atol=1e-10 * a)
        np.testing.assert_allclose(out.force, ref.force, rtol=0, atol=1e-10 * f)
    with pytest.raises(ValueError, match="serial chains"):
        ec.constrained_forward_dynamics(model, q, v, tau, algorithm="soa")


def _solo_files():
    """solo12.urdf loaded with a free flyer and the ``straight_standing`` joint values of
    solo.srdf (example-robot-data); the test is skipped without the package."""
    from checks import example_robot_data

    solo = es.load_model(example_robot_data("solo_description/robots/solo12.urdf"),
                         root_joint="free_flyer")  # fmt: skip
    srdf = ET.parse(example_robot_data("solo_description/srdf/solo.srdf"))
    state = next(s for s in srdf.iter("group_state") if s.get("name") == "straight_standing")
    stance = {j.get("name"): float(j.get("value")) for j in state if j.get("name") != "root_joint"}
    return solo, es.model.configuration_from_names(solo, stance)


def test_the_quadruped_is_solo12_of_the_urdf_in_its_stance():
    """The built-in quadruped is the robot of solo12.urdf (Grimminger et al. 2020's
    Solo 12, as example-robot-data describes it), its q = 0 the ``straight_standing``
    stance of solo.srdf: the same bodies in the same order with the same masses (the
    total, 2.50000279 kg, to 1e-9), at the stance the same world pose of every body
    (so the same leg lengths: HFE to KFE and KFE to the foot) with the feet on the
    ground, and at random joint angles (ours measured from the stance) the same mass
    matrix, whose base block is the whole robot's spatial inertia, and the same
    gravity torques."""
    solo, stance = _solo_files()
    ours = es.zoo.load("quadruped")
    assert ours.body_names == solo.body_names and ours.q_names == solo.q_names
    np.testing.assert_array_equal(ours.mass, solo.mass)
    assert float(ours.mass.sum()) == pytest.approx(float(solo.mass.sum()), rel=1e-9)
    q = es.neutral(ours)
    height = es.kinematics.forward_kinematics(ours, q)[1, 2, 3]  # the base's, from ours
    qs = stance.copy()
    qs[2] = height
    T_ours = es.kinematics.forward_kinematics(ours, q)
    T_solo = es.kinematics.forward_kinematics(solo, qs)
    np.testing.assert_allclose(T_ours, T_solo, rtol=0, atol=1e-12)
    for leg in LEGS:
        idx = [ours.body_names.index(f"{leg}_{b}") for b in ("UPPER_LEG", "LOWER_LEG", "FOOT")]
        assert abs(T_ours[idx[-1], 2, 3]) < 1e-12  # the foot on the ground
        for i, j in zip(
            idx[:-1], idx[1:], strict=True
        ):  # HFE to KFE, KFE to the foot: the file's offsets
            length = np.linalg.norm(T_ours[j, :3, 3] - T_ours[i, :3, 3])
            assert length == pytest.approx(np.linalg.norm(solo.tree_translation[j]), rel=1e-12)
    rng = np.random.default_rng(3)
    for _ in range(3):
        q = es.random_configuration(ours, rng)
        qs = q.copy()
        qs[7:] += stance[7:]
        qs[2] += height
        scale = np.abs(es.mass_matrix(solo, qs)).max()
        np.testing.assert_allclose(es.mass_matrix(ours, q), es.mass_matrix(solo, qs), rtol=0,
                                   atol=1e-12 * scale)  # fmt: skip
        g = es.gravity_torques(solo, qs)
        np.testing.assert_allclose(es.gravity_torques(ours, q), g, rtol=0,
                                   atol=1e-12 * np.abs(g).max())  # fmt: skip


def test_the_quadruped_stands_symmetrically_as_its_centre_of_mass_says():
    """Solo 12 in its stance has its feet under the HAA joints, at x = ±a, y = ±b
    (front and hind, left and right). With the feet on the ground (z = 0), the moment
    balance about the y and x axes gives the share of the weight W on each pair of
    feet from the centre of mass c alone, a (F_front − F_hind) = W c_x and
    b (F_left − F_right) = W c_y, whatever the inverse dynamics' choice among the
    statically indeterminate forces; both hold to 1e-9 W. The file's masses are
    mirrored front to hind and left to right, so c_x and c_y are round-off and the
    pairs share the weight equally. Which foot of a pair carries more is the
    indeterminate part; the robot turned half a turn about the vertical is itself (the
    file flips the right upper legs' COM x with their y, and the hind knees bend the
    other way), so the diagonal feet carry the same, FL as HR and FR as HL, to 1e-9 W."""
    model, q, out = _standing("quadruped")
    weight = float(model.mass.sum()) * 9.81
    forces = out.forces()
    feet = {c.name[:2]: np.asarray(c.position) for c in model.constraints}
    a, b = feet["FL"][0], feet["FL"][1]
    for leg, sx, sy in (("FR", 1, -1), ("HL", -1, 1), ("HR", -1, -1)):
        np.testing.assert_allclose(feet[leg][:2], [sx * a, sy * b], rtol=0, atol=1e-12)
    fz = {leg: float(forces[f"{leg}_foot.z"]) for leg in LEGS}
    com = _com(model, q)
    front_minus_hind = fz["FL"] + fz["FR"] - fz["HL"] - fz["HR"]
    left_minus_right = fz["FL"] + fz["HL"] - fz["FR"] - fz["HR"]
    assert a * front_minus_hind == pytest.approx(weight * com[0], abs=1e-9 * weight)
    assert b * left_minus_right == pytest.approx(weight * com[1], abs=1e-9 * weight)
    assert np.abs(com[:2]).max() < 1e-12
    assert fz["FL"] == pytest.approx(fz["HR"], abs=1e-9 * weight)
    assert fz["FR"] == pytest.approx(fz["HL"], abs=1e-9 * weight)


def test_the_humanoid_has_winters_masses_and_heights():
    """The humanoid scaled to H = 1.2 m and M = 30 kg has Winter's (2009) segment
    masses (Table 4.1 fractions of M: trunk–head–neck 0.578, thigh 0.100, leg 0.0465,
    foot 0.0145, upper arm 0.028, forearm and hand 0.022; M in all) and, its legs
    straightened (the stance's crouch undone), Fig. 4.1's heights above the soles:
    ankle 0.039 H, knee 0.285 H, hip 0.530 H, shoulder 0.818 H; its hips 0.191 H and
    shoulders 0.259 H apart. Another H and M scale every figure."""
    for H, M in ((1.2, 30.0), (1.75, 70.0)):
        robot = es.zoo.load("humanoid", height=H, mass=M)
        mass = dict(zip(robot.body_names, robot.mass, strict=True))
        assert float(robot.mass.sum()) == pytest.approx(M, rel=1e-12)
        for body, fraction in (("pelvis", 0.578), ("left_thigh", 0.100), ("left_shank", 0.0465),
                               ("right_foot", 0.0145), ("left_upper_arm", 0.028),
                               ("right_forearm", 0.022)):  # fmt: skip
            assert mass[body] == pytest.approx(fraction * M, rel=1e-12)
        q = es.neutral(robot)
        a = legged.HUMANOID_CROUCH
        for side in ("left", "right"):
            for joint, angle in (("hip_pitch", a), ("knee", -2 * a), ("ankle_pitch", a)):
                q[robot.q_names.index(f"{side}_{joint}")] = angle
        poses = {f: es.kinematics.frame_pose(robot, q, f)[:3, 3] for f in FRAMES}
        sole = poses["left_sole"]
        np.testing.assert_allclose(poses["right_sole"][[0, 2]], sole[[0, 2]], atol=1e-12)
        for frame, height in (("left_ankle_link", 0.039), ("left_shank", 0.285),
                              ("left_thigh", 0.530), ("left_upper_arm", 0.818)):  # fmt: skip
            assert poses[frame][2] - sole[2] == pytest.approx(height * H, rel=1e-12)
        assert poses["left_thigh"][1] - poses["right_thigh"][1] == pytest.approx(0.191 * H)
        assert poses["left_upper_arm"][1] - poses["right_upper_arm"][1] == pytest.approx(0.259 * H)
