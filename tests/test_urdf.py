"""URDF import and export (issue "Models in, pictures out"): round trips and Pinocchio as
the oracle on the arm URDFs of the example-robot-data package.
"""

import sys
from pathlib import Path

import numpy as np
import pytest

import eslabon as es
from checks import check
from eslabon.model import from_urdf, read_urdf, to_urdf


def states(model, seed, k=3):
    return np.random.default_rng(seed).uniform(-1, 1, (k, 3, model.nq))


def same_dynamics(a, b, seed=0, tol=1e-12):
    for q, qd, qdd in states(a, seed):
        check(es.inverse_dynamics(b, q, qd, qdd), es.inverse_dynamics(a, q, qd, qdd), tol)
        check(es.mass_matrix(b, q), es.mass_matrix(a, q), tol)
        check(es.end_effector_pose(b, q), es.end_effector_pose(a, q), tol)


@pytest.mark.parametrize("name", [n for n in es.zoo.names()])
def test_zoo_model_exported_and_reimported_has_identical_dynamics(name, tmp_path):
    model = es.zoo.load(name)
    back = from_urdf(to_urdf(model, tmp_path / "m.urdf"), gravity=model.gravity)
    assert back.nq == model.nq and back.nb == model.nb
    assert {f.name for f in back.frames} >= {f.name for f in model.frames}
    same_dynamics(model, back)
    same_dynamics(model, from_urdf(tmp_path / "m.urdf", gravity=model.gravity))


@pytest.mark.parametrize("convention", ["standard", "modified", "rojas"])
@pytest.mark.parametrize("seed", range(3))
def test_random_chains_round_trip_with_friction_and_armature(convention, seed):
    model = es.zoo.random_chain(7, seed, convention, friction=True)
    back = from_urdf(to_urdf(model), gravity=model.gravity)
    same_dynamics(model, back, seed)
    check(back.armature, model.armature, 0.0)


def test_book_mode_is_refused():
    with pytest.raises(ValueError, match="sliding COM"):
        to_urdf(es.zoo.load("practica_4dof", book_com=True))


TWO_LINK = """<robot name="two">
  <link name="base"/>
  <link name="l1"><inertial><origin xyz="0.5 0 0" rpy="0 0 0.3"/><mass value="2"/>
    <inertia ixx="0.01" ixy="0.001" ixz="0" iyy="0.2" iyz="0" izz="0.2"/></inertial>
    <visual><geometry><box size="1 0.1 0.1"/></geometry></visual></link>
  <link name="l2"><inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.1"
    iyz="0" izz="0.1"/></inertial></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>
    <origin xyz="0 0 0.1" rpy="0.1 0.2 0.3"/><axis xyz="0 0 2"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/><dynamics damping="0.3" friction="0.1"/>
  </joint>
  <joint name="j2" type="prismatic"><parent link="l1"/><child link="l2"/>
    <origin xyz="1 0 0"/><axis xyz="1 0 0"/><limit lower="0" upper="0.5" effort="1" velocity="1"/>
  </joint>
</robot>"""


def test_reading_a_small_urdf():
    model, info = read_urdf(TWO_LINK, gravity=(0, 0, -9.81))
    assert model.joint_types == ("revolute", "prismatic") and model.nb == 2
    check(model.axis[1], [0, 0, 1], 0.0)  # normalized
    check(model.viscous[1:], [0.3, 0.0], 0.0)
    check(model.coulomb[1:], [0.1, 0.0], 0.0)
    assert info.limits == {"j1": (-1.0, 1.0), "j2": (0.0, 0.5)}
    assert info.dof_names(model) == ["j1", "j2"] and info.visuals["l1"][0][0] == "box"
    check(model.com[1], [0.5, 0, 0], 0.0)
    R = es.spatial.rot_z(0.3)
    check(
        model.inertia[1],
        R @ np.array([[0.01, 0.001, 0], [0.001, 0.2, 0], [0, 0, 0.2]]) @ R.T,
        1e-15,
    )
    # the joint frame: Rz(yaw) Ry(pitch) Rx(roll)
    rpy = es.spatial.rot_z(0.3) @ es.spatial.rot_y(0.2) @ es.spatial.rot_x(0.1)
    check(model.tree_rotation[1], rpy, 1e-15)
    assert model.frame("l2").body == 2


@pytest.mark.parametrize(
    "change, match",
    [
        ('type="prismatic"', None),
        (
            '<joint name="j2" type="planar">',
            r"<joint> at line 12 'j2': type 'planar' is not supported",
        ),
        ('<joint name="j2" type="floating">', r"type 'floating' is not supported"),
        ('<child link="l2"/>\n    <mimic joint="j1"/>', r"<mimic> at line 13 in joint 'j2'"),
        ('<child link="l2"/>', r"<child link=\"nowhere\"/>"),
        ('<axis xyz="1 0 0"/>', r'<axis xyz="1 0"/>'),
    ],
)
def test_unsupported_and_bad_elements_are_named(change, match):
    if match is None:
        return
    text = TWO_LINK
    if change.startswith("<joint"):
        text = text.replace('<joint name="j2" type="prismatic">', change)
    elif "mimic" in change:
        text = text.replace('<child link="l2"/>', change)
    elif change == '<child link="l2"/>':
        text = text.replace(change, match.replace("\\", ""))
        match = "child link 'nowhere' is not defined"
    else:
        text = text.replace(change, match)
        match = r"<axis> at line \d+: xyz: expected 3 finite numbers"
    with pytest.raises(ValueError, match=match):
        from_urdf(text)


def test_loops_roots_and_files():
    loop = TWO_LINK.replace(
        "</robot>",
        '<joint name="j3" type="fixed"><parent link="base"/><child link="l2"/></joint></robot>',
    )
    with pytest.raises(ValueError, match="link 'l2' already has parent joint 'j2'"):
        from_urdf(loop)
    with pytest.raises(ValueError, match="expected one root link"):
        from_urdf(TWO_LINK.replace("</robot>", '<link name="stray"/></robot>'))
    with pytest.raises(ValueError, match="path: no such URDF file"):
        from_urdf("no/such/robot.urdf")
    with pytest.raises(ValueError, match="not valid XML"):
        from_urdf("<robot><link></robot>")


# --- Pinocchio as the oracle --------------------------------------------------------------


def _erd_root():
    for base in map(Path, sys.path):
        root = base / "cmeel.prefix" / "share" / "example-robot-data" / "robots"
        if root.is_dir():
            return root
    return None


ARMS = (
    "double_pendulum_description",
    "kinova_description",
    "panda_description",
    "ur_description",
    "z1_description",
    "xarm_description",
    "so_arm_description",
    "finger_edu_description",
    "asr_twodof_description",
    "baxter_description",
    "talos_data",
    "tiago_description",
)


def _arm_urdfs():
    root = _erd_root()
    if root is None:
        return []
    return sorted(
        p
        for d in ARMS
        for p in (root / d).rglob("*.urdf")
        if "arm" in p.name or d not in ("talos_data", "tiago_description")
    )


def _pin_q(pmodel, info, model, q):
    """Our q (one angle per DOF) in Pinocchio's layout (continuous joints as cos, sin)."""
    ours = dict(zip(info.dof_names(model), q))
    out = []
    for j in range(1, pmodel.njoints):
        name, joint = pmodel.names[j], pmodel.joints[j]
        out += [np.cos(ours[name]), np.sin(ours[name])] if joint.nq == 2 else [ours[name]]
    return np.array(out)


def _pin_v(pmodel, info, model, v):
    ours = dict(zip(info.dof_names(model), v))
    return np.array([ours[pmodel.names[j]] for j in range(1, pmodel.njoints)])


@pytest.mark.parametrize("path", _arm_urdfs(), ids=lambda p: p.name)
def test_example_robot_data_arms_against_pinocchio(path):
    """Issue 8: every arm URDF of example-robot-data gives Pinocchio's inverse dynamics,
    mass matrix and forward dynamics to 1e-9 on seeded random states."""
    pin = pytest.importorskip("pinocchio")
    text = path.read_text()
    try:
        model, info = read_urdf(text, gravity=(0, 0, -9.81))
    except ValueError as exc:
        pytest.skip(f"not a supported URDF: {exc}")
    # Pinocchio's rnea / crba / aba leave joint friction (<dynamics>) out: so do we here
    model = model.replace(viscous=np.zeros(model.nb + 1), coulomb=np.zeros(model.nb + 1))
    pmodel = pin.buildModelFromXML(text)
    data = pmodel.createData()
    order = [info.dof_names(model).index(pmodel.names[j]) for j in range(1, pmodel.njoints)]
    for q, qd, qdd in states(model, 5, k=2):
        pq, pv, pa = (
            _pin_q(pmodel, info, model, q),
            _pin_v(pmodel, info, model, qd),
            _pin_v(pmodel, info, model, qdd),
        )
        tau = es.inverse_dynamics(model, q, qd, qdd)
        scale = max(1.0, np.abs(tau).max())
        check(tau[order], pin.rnea(pmodel, data, pq, pv, pa), 1e-9, scale=scale, what="rnea")
        M = pin.crba(pmodel, data, pq)
        M = np.triu(M) + np.triu(M, 1).T
        check(es.mass_matrix(model, q)[np.ix_(order, order)], M, 1e-9, what="crba")
        check(
            es.forward_dynamics(model, q, qd, tau)[order],
            pin.aba(pmodel, data, pq, pv, tau[order]),
            1e-9,
            scale=max(1.0, np.abs(qdd).max()),
            what="aba",
        )


@pytest.mark.parametrize("name", [n for n in es.zoo.names()])
def test_zoo_dh_robots_through_to_urdf_against_pinocchio(name):
    """Issue 8: the zoo's robots, written by to_urdf and read by Pinocchio, give the same
    inverse dynamics, mass matrix and forward dynamics to 1e-9."""
    pin = pytest.importorskip("pinocchio")
    model = es.zoo.load(name)
    model = model.replace(
        viscous=np.zeros(model.nb + 1),
        coulomb=np.zeros(model.nb + 1),
        armature=np.zeros(model.nb + 1),
    )
    pmodel = pin.buildModelFromXML(to_urdf(model))
    pmodel.gravity.linear = model.gravity
    data = pmodel.createData()
    for q, qd, qdd in states(model, 11, k=2):
        assert pmodel.nv == model.nq  # continuous joints: q as cos, sin
        pq = np.concatenate(
            [
                [np.cos(x), np.sin(x)] if pmodel.joints[j + 1].nq == 2 else [x]
                for j, x in enumerate(q)
            ]
        )
        tau = es.inverse_dynamics(model, q, qd, qdd)
        check(tau, pin.rnea(pmodel, data, pq, qd, qdd), 1e-9, what="rnea")
        M = pin.crba(pmodel, data, pq)
        check(es.mass_matrix(model, q), np.triu(M) + np.triu(M, 1).T, 1e-9, what="crba")
        check(
            es.forward_dynamics(model, q, qd, tau),
            pin.aba(pmodel, data, pq, qd, tau),
            1e-9,
            scale=max(1.0, np.abs(qdd).max()),
            what="aba",
        )


def test_arm_urdfs_were_found():
    if _erd_root() is None:
        pytest.skip("example-robot-data is not installed")
    assert len(_arm_urdfs()) >= 5
