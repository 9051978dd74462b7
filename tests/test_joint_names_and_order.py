"""Joint names and the joint order users expect (issue "One vocabulary").

* a URDF tree is numbered depth first, children in the file's order, so each limb's
  joints are contiguous (MuJoCo's order for the same file);
* every joint is named (URDF names kept; ``joint<i>`` by default), and q, v are named after
  the joints (``root_joint.qw``);
* ``urdf_order`` maps to Pinocchio's URDF order (depth first, children by joint name): a q
  copied from Pinocchio gives Pinocchio's τ and M on example-robot-data's floating robots;
* a name → value mapping (a ROS ``JointState``) gives the same q.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import eslabon as es
from checks import example_robot_data_root
from eslabon import load_model
from eslabon.interop.pinocchio import urdf_order
from eslabon.model import ModelBuilder, configuration_from_names, from_urdf, save_model
from eslabon.model.validate import ImplausibleInertiaWarning

TREE_URDF = """<robot name="two_legs">
  <link name="base"><inertial><mass value="2"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <joint name="right_hip" type="revolute"><parent link="base"/><child link="r_thigh"/>
    <origin xyz="0 -0.1 0"/><axis xyz="0 1 0"/></joint>
  <joint name="left_hip" type="revolute"><parent link="base"/><child link="l_thigh"/>
    <origin xyz="0 0.1 0"/><axis xyz="0 1 0"/></joint>
  <joint name="right_knee" type="revolute"><parent link="r_thigh"/><child link="r_shin"/>
    <origin xyz="0 0 -0.3"/><axis xyz="0 1 0"/></joint>
  <joint name="left_knee" type="revolute"><parent link="l_thigh"/><child link="l_shin"/>
    <origin xyz="0 0 -0.3"/><axis xyz="0 1 0"/></joint>
  <link name="r_thigh"><inertial><origin xyz="0 0 -0.15"/><mass value="1"/>
    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.002"/></inertial></link>
  <link name="l_thigh"><inertial><origin xyz="0 0 -0.15"/><mass value="1.1"/>
    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.002"/></inertial></link>
  <link name="r_shin"><inertial><origin xyz="0 0 -0.15"/><mass value="0.5"/>
    <inertia ixx="0.005" ixy="0" ixz="0" iyy="0.005" iyz="0" izz="0.001"/></inertial></link>
  <link name="l_shin"><inertial><origin xyz="0 0 -0.15"/><mass value="0.6"/>
    <inertia ixx="0.005" ixy="0" ixz="0" iyy="0.005" iyz="0" izz="0.001"/></inertial></link>
</robot>"""


def test_a_urdf_tree_is_numbered_depth_first_in_file_order():
    """Each leg's joints together, the legs in the order of their hips in the file
    (breadth first gave right_hip, left_hip, right_knee, left_knee)."""
    model = from_urdf(TREE_URDF, root_joint="free_flyer")
    assert model.joint_names == (
        "universe", "root_joint", "right_hip", "right_knee", "left_hip", "left_knee",
    )  # fmt: skip
    assert model.body_names[1:] == ("base", "r_thigh", "r_shin", "l_thigh", "l_shin")
    assert model.q_names == (
        "root_joint.x", "root_joint.y", "root_joint.z", "root_joint.qx", "root_joint.qy",
        "root_joint.qz", "root_joint.qw", "right_hip", "right_knee", "left_hip", "left_knee",
    )  # fmt: skip
    assert model.v_names[:6] == tuple(
        f"root_joint.{c}" for c in ("vx", "vy", "vz", "wx", "wy", "wz")
    )
    assert model.v_names[6:] == model.q_names[7:]


def test_urdf_order_sorts_children_by_joint_name():
    """Pinocchio visits left_hip before right_hip: its order is eslabon's with the legs
    swapped; a state mapped by it is the same state named the same way."""
    model = from_urdf(TREE_URDF, root_joint="free_flyer")
    q_order, v_order = urdf_order(model)
    assert [model.q_names[k] for k in q_order][7:] == [
        "left_hip", "left_knee", "right_hip", "right_knee",
    ]  # fmt: skip
    assert q_order[:7].tolist() == list(range(7)) and v_order[:6].tolist() == list(range(6))
    assert sorted(q_order) == list(range(model.nq)) and sorted(v_order) == list(range(model.nv))


def test_a_name_mapping_gives_q_in_any_order():
    """A ROS-style JointState, its names in another order: the same q as set by index;
    names it leaves out keep their value; an unknown name or a bad value is refused."""
    model = from_urdf(TREE_URDF, root_joint="free_flyer")
    rng = np.random.default_rng(3)
    q = es.random_configuration(model, rng)
    names = list(model.q_names)
    state = {n: q[k] for k, n in reversed(list(enumerate(names)))}
    assert np.array_equal(configuration_from_names(model, state), q)
    partial = configuration_from_names(model, {"left_knee": 0.4})
    expected = es.neutral(model)
    expected[names.index("left_knee")] = 0.4
    assert np.array_equal(partial, expected)
    with pytest.raises(ValueError, match=r"values: 'knee' is not a coordinate of two_legs; "):
        configuration_from_names(model, {"knee": 0.1})
    with pytest.raises(ValueError, match=r"values\['left_knee'\]: expected a finite number"):
        configuration_from_names(model, {"left_knee": float("nan")})
    with pytest.raises(ValueError, match=r"q: expected shape \(11,\)"):
        configuration_from_names(model, {}, q=np.zeros(3))


def test_joint_names_default_are_checked_and_kept_by_files(tmp_path):
    b = ModelBuilder()
    b.add_body(0, "R", mass=1.0, inertia=np.eye(3) * 0.01, joint_name="shoulder")
    b.add_body(1, "universal", axis2=(0, 1, 0), mass=1.0, inertia=np.eye(3) * 0.01)
    b.add_body(2, "spherical", mass=1.0, inertia=np.eye(3) * 0.01, joint_name="wrist")
    b.add_body(3, "planar", mass=1.0, inertia=np.eye(3) * 0.01)
    model = b.build()
    assert model.joint_names == ("universe", "shoulder", "joint2", "wrist", "joint4")
    assert model.q_names == (
        "shoulder", "joint2.q1", "joint2.q2", "wrist.qx", "wrist.qy", "wrist.qz", "wrist.qw",
        "joint4.x", "joint4.y", "joint4.theta",
    )  # fmt: skip
    assert model.v_names[3:6] == ("wrist.wx", "wrist.wy", "wrist.wz")
    assert model.v_names[6:] == ("joint4.vx", "joint4.vy", "joint4.wz")
    back = load_model(save_model(model, tmp_path / "m.yaml"))
    assert back.joint_names == model.joint_names and back.q_names == model.q_names
    with pytest.raises(ValueError, match=r"body 2.joint_name: 'shoulder' is already the name"):
        b2 = ModelBuilder()
        b2.add_body(0, "R", joint_name="shoulder")
        b2.add_body(1, "R", joint_name="shoulder")
    with pytest.raises(ValueError, match=r"joint_names\[2\]: 'shoulder' is already the name"):
        model.replace(joint_names=("universe", "shoulder", "shoulder", "a", "b"))
    with pytest.raises(ValueError, match=r"joint_names: expected a tuple of 5 names"):
        model.replace(joint_names=("universe", "a"))


def test_a_urdf_written_and_read_keeps_joint_names(tmp_path):
    model = from_urdf(TREE_URDF)
    back = load_model(save_model(model, tmp_path / "m.urdf"))
    assert back.joint_names == model.joint_names


_erd_root = example_robot_data_root


FLOATING = (
    "solo_description/robots/solo12.urdf",
    "go1_description/urdf/go1.urdf",
    "anymal_b_simple_description/robots/anymal.urdf",
    "hyq_description/robots/hyq_no_sensors.urdf",
    "talos_data/robots/talos_reduced.urdf",
    "romeo_description/urdf/romeo_small.urdf",
)


def test_q_copied_from_pinocchio_gives_pinocchios_torques_and_mass_matrix():
    """example-robot-data's floating robots read by both with a free-flyer root: a random
    Pinocchio state mapped by ``urdf_order`` gives Pinocchio's τ and M (friction aside,
    which Pinocchio's algorithms leave out), whether or not the orders differ."""
    pin = pytest.importorskip("pinocchio")
    root = _erd_root()
    if root is None:
        pytest.skip("example-robot-data is not installed")
    differ = same = 0
    for rel in FLOATING:
        path = root / rel
        if not path.is_file():
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ImplausibleInertiaWarning)
            model = from_urdf(str(path), root_joint="free_flyer")
        model = model.replace(viscous=0.0, coulomb=0.0)
        pmodel = pin.buildModelFromUrdf(str(path), pin.JointModelFreeFlyer())
        data = pmodel.createData()
        q_order, v_order = urdf_order(model)
        ours = [model.joint_names[model.dof_bodies[k]] for k in v_order]
        assert list(pmodel.names[1:]) == list(dict.fromkeys(ours))  # the same joints, in order
        if np.array_equal(v_order, np.arange(model.nv)):
            same += 1
        else:
            differ += 1
        rng = np.random.default_rng(0)
        q_pin = pin.randomConfiguration(pmodel, -np.ones(pmodel.nq), np.ones(pmodel.nq))
        v_pin, a_pin = rng.uniform(-1, 1, (2, pmodel.nv))
        q, v, a = np.empty(model.nq), np.empty(model.nv), np.empty(model.nv)
        q[q_order], v[v_order], a[v_order] = q_pin, v_pin, a_pin
        tau_pin = pin.rnea(pmodel, data, q_pin, v_pin, a_pin)
        tau = es.inverse_dynamics(model, q, v, a)
        np.testing.assert_allclose(
            tau[v_order], tau_pin, rtol=1e-9, atol=1e-9 * np.abs(tau_pin).max()
        )
        M_pin = pin.crba(pmodel, data, q_pin)
        M_pin = np.triu(M_pin) + np.triu(M_pin, 1).T
        M = es.mass_matrix(model, q)
        np.testing.assert_allclose(M[np.ix_(v_order, v_order)], M_pin, rtol=1e-9, atol=1e-9)
    assert differ and same, (differ, same)  # both cases met


def test_mujoco_numbers_a_urdf_tree_as_eslabon_does():
    mujoco = pytest.importorskip("mujoco")
    model = from_urdf(TREE_URDF)
    mj = mujoco.MjModel.from_xml_string(TREE_URDF)
    assert tuple(mj.joint(i).name for i in range(mj.njnt)) == model.q_names


def test_plots_and_info_name_coordinates_by_joint():
    """The viewer's curves and ``eslabon info`` use the joints' names (a quaternion's
    coordinates were ``base[3]``)."""
    from eslabon.cli.tables import model_info
    from eslabon.viz.scene import curves

    model = from_urdf(TREE_URDF, root_joint="free_flyer")
    labels, units = curves(model)
    assert labels == list(model.q_names) and units[:7] == ["m", "m", "m", "", "", "", ""]
    data, lines = model_info(model)
    assert data["q_names"] == list(model.q_names)
    assert data["joint_names"] == list(model.joint_names[1:])
    row = next(line for line in lines if " l_thigh " in line)
    assert row.split()[:4] == ["4", "l_thigh", "left_hip", "revolute"]


def test_a_trees_default_end_effector_is_the_end_of_its_deepest_chain():
    """Numbered depth first the last body is the short branch ``b``; the "last link" rule
    still takes the end of the deepest chain (breadth first), as before the order
    changed, and ``eslabon info``'s rule says so."""
    from eslabon.model.urdf import end_effector_rule, read_urdf

    def link(name):
        return (
            f'<link name="{name}"><inertial><mass value="1"/><inertia ixx="0.01" ixy="0" '
            'ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>'
        )

    def joint(name, parent, child):
        return (
            f'<joint name="{name}" type="revolute"><parent link="{parent}"/>'
            f'<child link="{child}"/><origin xyz="0 0 0.1"/><axis xyz="0 0 1"/></joint>'
        )

    urdf = (
        '<robot name="r"><link name="base"/>'
        + "".join(link(n) for n in ("a", "a2", "a3", "b"))
        + joint("ja", "base", "a") + joint("ja2", "a", "a2") + joint("ja3", "a2", "a3")
        + joint("jb", "base", "b") + "</robot>"
    )  # fmt: skip
    model, info = read_urdf(urdf)
    assert model.body_names[1:] == ("a", "a2", "a3", "b")
    assert info.ee == "a3" and model.frame("ee").body == 3
    assert end_effector_rule(model).startswith("the last link 'a3'")


def test_trajectory_files_and_plots_carry_the_names(tmp_path):
    """simulate's trajectory names its columns; NPZ and CSV keep the names (CSV header
    ``q:root_joint.qw``), and a numbered CSV header of earlier files still reads."""
    from eslabon.sim import Trajectory

    model = from_urdf(TREE_URDF, root_joint="free_flyer")
    traj = es.simulate(model, None, None, 0.01, 0.005)
    assert traj.q_names == model.q_names and traj.v_names == model.v_names
    for suffix in ("npz", "csv"):
        back = Trajectory.load(traj.save(tmp_path / f"t.{suffix}"))
        assert back.q_names == model.q_names and back.v_names == model.v_names
        assert np.array_equal(back.q, traj.q) and np.array_equal(back.tau, traj.tau)
    header = (tmp_path / "t.csv").read_text().splitlines()[0].split(",")
    assert header[:2] == ["t", "q:root_joint.x"] and "q:root_joint.qw" in header
    assert "qd:root_joint.wz" in header and header[-1] == "tau:left_knee"
    unnamed = Trajectory(traj.t, traj.q, traj.qd, traj.qdd, traj.tau)
    old = Trajectory.load(unnamed.save(tmp_path / "old.csv"))
    assert old.q_names == () and (tmp_path / "old.csv").read_text().startswith("t,q1,q2,")
    odd = Trajectory(traj.t, traj.q, traj.qd, traj.qdd, traj.tau, "m",
                     ("a,b",) + model.q_names[1:], model.v_names)  # fmt: skip
    assert (odd.save(tmp_path / "odd.csv").read_text()).startswith("t,q1,")
    fig = traj.plot("qd")
    assert [line.get_label() for line in fig.axes[0].lines] == list(model.v_names)


def test_edge_cases_of_names(tmp_path):
    """Names a CSV header holds in UTF-8 (θ1) round trip, a name with a space at an end
    falls back to numbered columns; coordinate names may not collide; a JointState's
    mimic joints are accepted and left out, a bool is not a value; urdf_order refuses a
    mimic model; to_urdf keeps a frame's fixed joint apart from a joint of that name."""
    from eslabon.model import to_urdf
    from eslabon.sim import Trajectory

    b = ModelBuilder()
    b.add_body(0, "R", mass=1.0, inertia=np.eye(3) * 0.01, joint_name="θ1")
    b.add_body(1, "R", mass=1.0, inertia=np.eye(3) * 0.01, joint_name="frame_ee")
    model = b.build()
    traj = es.simulate(model, None, None, 0.01, 0.005)
    back = Trajectory.load(traj.save(tmp_path / "t.csv"))
    assert back.q_names == ("θ1", "frame_ee")
    spaced = Trajectory(traj.t, traj.q, traj.qd, traj.qdd, traj.tau, "", ("a ", "b"), ("a ", "b"))
    assert spaced.save(tmp_path / "s.csv").read_text(encoding="utf-8").startswith("t,q1,q2,")
    again = from_urdf(to_urdf(model))
    assert again.joint_names == model.joint_names and "frame_ee" not in again.body_names[1:]
    u = ModelBuilder()
    u.add_body(0, "universal", axis2=(0, 1, 0), mass=1.0, inertia=np.eye(3) * 0.01, joint_name="a")
    u.add_body(1, "R", mass=1.0, inertia=np.eye(3) * 0.01, joint_name="a.q1")
    with pytest.raises(ValueError, match=r"two coordinates would both be named 'a.q1'"):
        u.build()
    mimic = model.replace(
        mimic_joint=np.array([-1, -1, 1]),
        mimic_multiplier=np.array([1.0, 1.0, -1.0]),
        mimic_offset=np.zeros(3),
    )
    q = configuration_from_names(mimic, {"θ1": 0.3, "frame_ee": -0.3})
    assert q.tolist() == [0.3]
    with pytest.raises(ValueError, match=r"values\['θ1'\]: expected a finite number, got True"):
        configuration_from_names(mimic, {"θ1": True})
    with pytest.raises(ValueError, match="urdf_order"):
        urdf_order(mimic)


def test_a_bad_joint_name_in_a_file_is_named(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(
        "eslabon: 1\nname: m\nbodies:\n"
        "  - {name: a, joint_name: j, parent: 0, joint: R, mass: 1}\n"
        "  - {name: b, joint_name: j, parent: 1, joint: R, mass: 1}\n"
    )
    with pytest.raises(ValueError, match=r"bodies\[1\].joint_name: 'j' is already the name"):
        load_model(path)
    path.write_text(
        "eslabon: 1\nname: m\nbodies:\n  - {name: a, joint_name: 3, parent: 0, joint: R}\n"
    )
    with pytest.raises(ValueError, match=r"bodies\[0\].joint_name: expected a non-empty string"):
        load_model(path)


def test_a_registered_type_gets_numbered_coordinate_names():
    from eslabon._engine import layout

    rows = layout.JOINT_KINDS[layout.UNIVERSAL].rows
    kind = layout.JointKind(90, "twoaxis", "W", 2, 2, rows, ("rad", "rad"), axes=2)
    layout.register_joint_kind(kind)
    try:
        assert layout.JOINT_KINDS[90].q_names == ("q1", "q2")
        assert layout.JOINT_KINDS[90].v_names == ("v1", "v2")
    finally:
        layout.unregister_joint_kind(90)
    with pytest.raises(ValueError, match="twoaxis: q_names, v_names: one per coordinate"):
        layout.register_joint_kind(kind._replace(q_names=("only",)))
    assert 90 not in layout.JOINT_KINDS


def test_view_refuses_a_trajectory_whose_names_differ(tmp_path, capsys):
    """A file saved with other coordinate names (another robot, or the breadth-first order
    of earlier releases) is refused by name in one line, not played wrongly."""
    from eslabon.cli.main import main
    from eslabon.sim import Trajectory

    urdf = tmp_path / "legs.urdf"
    urdf.write_text(TREE_URDF)
    model = from_urdf(TREE_URDF)
    traj = es.simulate(model, None, None, 0.01, 0.005)
    swapped = tuple(reversed(model.q_names))
    Trajectory(traj.t, traj.q, traj.qd, traj.qdd, traj.tau, "legs", swapped, swapped).save(
        tmp_path / "old.npz"
    )
    with pytest.raises(SystemExit) as done:
        main(["view", str(tmp_path / "old.npz"), "--model", str(urdf),
              "--out", str(tmp_path / "v.html")])  # fmt: skip
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert "named otherwise than two_legs's (column 1: 'left_knee', the model's 'right_hip')" in err
    assert err.count("\n") == 1 and not (tmp_path / "v.html").exists()


def test_the_pinocchio_twin_names_its_joints_as_the_model():
    pin = pytest.importorskip("pinocchio")
    from eslabon.interop.pinocchio import body_order, to_pinocchio

    model = from_urdf(TREE_URDF, root_joint="free_flyer")
    twin = to_pinocchio(model)
    assert isinstance(twin, pin.Model)
    assert list(twin.names[1:]) == [model.joint_names[i] for i in body_order(model)]
