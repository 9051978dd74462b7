"""URDF import and export (issue "Models in, pictures out"): round trips, floating and
planar joints, root joints, and Pinocchio as the oracle on the arm and floating-base URDFs
of the example-robot-data package.
"""

import functools
import warnings
from xml.etree import ElementTree as ET

import numpy as np
import pytest

import eslabon as es
from checks import check, example_robot_data_root
from eslabon.model import from_urdf, read_urdf, save_model, to_urdf
from eslabon.model.validate import ImplausibleInertiaWarning


def states(model, seed, k=3):
    """k seeded (q, q̇, q̈) uniform in [-1, 1]; q from es.random_configuration when it holds
    a quaternion (nq != nv)."""
    rng = np.random.default_rng(seed)
    for q, qd, qdd in rng.uniform(-1, 1, (k, 3, model.nv)):
        yield (q if model.nq == model.nv else es.random_configuration(model, rng)), qd, qdd


def same_dynamics(a, b, seed=0, tol=1e-12):
    for q, qd, qdd in states(a, seed):
        check(es.inverse_dynamics(b, q, qd, qdd), es.inverse_dynamics(a, q, qd, qdd), tol)
        check(es.mass_matrix(b, q), es.mass_matrix(a, q), tol)
        check(es.end_effector_pose(b, q), es.end_effector_pose(a, q), tol)


# URDF describes trees only: to_urdf refuses the zoo's closed-loop mechanisms (the test
# after this one), whose round trip is YAML's (tests/test_model_files.py)
TREE_ZOO = [n for n in es.zoo.names() if not es.zoo.load(n).constraints]
CLOSED_ZOO = [n for n in es.zoo.names() if es.zoo.load(n).constraints]


@pytest.mark.parametrize("name", TREE_ZOO)
def test_zoo_model_exported_and_reimported_has_identical_dynamics(name, tmp_path):
    model = es.zoo.load(name)
    back = from_urdf(to_urdf(model, tmp_path / "m.urdf"), gravity=model.gravity)
    assert back.nq == model.nq and back.nb == model.nb
    assert {f.name for f in back.frames} >= {f.name for f in model.frames}
    same_dynamics(model, back)
    same_dynamics(model, from_urdf(tmp_path / "m.urdf", gravity=model.gravity))


@pytest.mark.parametrize("name", CLOSED_ZOO)
def test_to_urdf_refuses_a_zoo_mechanism_with_closed_loops(name, tmp_path):
    """The tree would lose its loop closures, so export is refused, naming them."""
    model = es.zoo.load(name)
    loops = ", ".join(c.name for c in model.constraints)
    message = f"constraints: URDF describes trees only, and {name} has .*\\({loops}\\)"
    with pytest.raises(ValueError, match=message):
        to_urdf(model, tmp_path / "m.urdf")
    assert not (tmp_path / "m.urdf").exists()


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
            '<joint name="j2" type="ball">',
            r"<joint> at line 12 'j2': type 'ball' is not supported \(expected revolute, "
            r"continuous, prismatic, fixed, floating or planar\)",
        ),
        (
            '<joint name="j2" type="planar">',
            r"<joint> at line 12 'j2': axis '1 0 0': a planar joint's axis is the normal of "
            r"its plane, and eslabon's planar joint moves in its joint frame's xy plane: "
            r"expected axis 0 0 1 \(rotate the joint's <origin> so that its z is the normal\)$",
        ),
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


# --- floating, planar and root joints ---------------------------------------------------

BASE_LINK = """<link name="base"><inertial><origin xyz="0 0.1 -0.05"/><mass value="5"/>
    <inertia ixx="0.3" ixy="0.01" ixz="0" iyy="0.4" iyz="0" izz="0.5"/></inertial>
    <visual><geometry><sphere radius="0.2"/></geometry></visual></link>"""
BASE = TWO_LINK.replace('<link name="base"/>', BASE_LINK)


def _retyped(text, joint, kind):
    return text.replace(
        f'<joint name="{joint}" type="revolute">', f'<joint name="{joint}" type="{kind}">'
    )


def test_floating_joint_is_a_free_flyer():
    model, info = read_urdf(_retyped(TWO_LINK, "j1", "floating"), gravity=(0, 0, -9.81))
    assert model.joint_types == ("free_flyer",) * 6 + ("prismatic",)
    assert (model.nq, model.nv) == (8, 7)
    assert info.dof_names(model) == ["j1"] * 6 + ["j2"]
    assert info.limits == {"j2": (0.0, 0.5)}  # a floating joint has no limits
    check(model.viscous[1:], [0.3, 0.0], 0.0)  # its <dynamics> is read
    q = es.neutral(model)
    q[:3] = (0.1, -0.2, 0.3)
    R0 = es.spatial.rot_z(0.3) @ es.spatial.rot_y(0.2) @ es.spatial.rot_x(0.1)
    check(es.forward_kinematics(model, q)[1][:3, 3], [0, 0, 0.1] + R0 @ q[:3], 1e-15)


def test_planar_joint_moves_in_its_joint_frames_xy_plane():
    model, info = read_urdf(_retyped(TWO_LINK, "j1", "planar"), gravity=(0, 0, -9.81))
    assert model.joint_types == ("planar",) * 3 + ("prismatic",)
    assert info.dof_names(model) == ["j1"] * 3 + ["j2"] and info.limits == {"j2": (0.0, 0.5)}
    x, y, theta = 0.3, -0.4, 0.7
    T = es.forward_kinematics(model, np.array([x, y, theta, 0.1]))[1]
    R0 = es.spatial.rot_z(0.3) @ es.spatial.rot_y(0.2) @ es.spatial.rot_x(0.1)
    check(T[:3, :3], R0 @ es.spatial.rot_z(theta), 1e-15)
    check(T[:3, 3], [0, 0, 0.1] + R0 @ [x, y, 0], 1e-15)


@pytest.mark.parametrize("kind, urdf_type", [("free_flyer", "floating"), ("planar", "planar")])
def test_root_joint_hangs_the_root_link_from_the_world(kind, urdf_type):
    model, info = read_urdf(BASE, root_joint=kind, gravity=(0, 0, -9.81))
    nv = {"free_flyer": 6, "planar": 3}[kind]
    assert model.body_names == ("world", "base", "l1", "l2") and list(model.parent) == [-1, 0, 1, 2]
    assert model.joint_types == (kind,) * nv + ("revolute", "prismatic")
    assert info.joint_names == ["root_joint", "j1", "j2"]
    assert info.dof_names(model) == ["root_joint"] * nv + ["j1", "j2"]
    assert model.frame("base").body == 1 and info.visuals["base"][0][0] == "sphere"
    check(model.tree_rotation[1], np.eye(3), 0.0)
    check(model.tree_translation[1], np.zeros(3), 0.0)
    check(model.mass[1], 5.0, 0.0)
    check(model.com[1], [0, 0.1, -0.05], 0.0)
    check(model.inertia[1], [[0.3, 0.01, 0], [0.01, 0.4, 0], [0, 0, 0.5]], 0.0)
    # the same as a world link with that joint, written out
    explicit = BASE.replace(
        "<link",
        '<link name="world"/><joint name="root_joint" type="' + urdf_type + '"><parent '
        'link="world"/><child link="base"/><axis xyz="0 0 1"/></joint>\n  <link',
        1,
    )
    written, written_info = read_urdf(explicit, gravity=(0, 0, -9.81))
    assert written.packed.tobytes() == model.packed.tobytes()
    assert written_info.joint_names == info.joint_names
    assert [(f.name, f.body) for f in written.frames] == [(f.name, f.body) for f in model.frames]
    back = from_urdf(to_urdf(model), gravity=model.gravity)
    same_dynamics(model, back)


def test_root_joint_refusals():
    for bad in ("spherical", "fixed", "FreeFlyer", 1):
        with pytest.raises(
            ValueError, match="^root_joint: expected None, 'free_flyer' or 'planar', got"
        ):
            read_urdf(BASE, root_joint=bad)
    named = BASE.replace('<joint name="j2"', '<joint name="root_joint"')
    with pytest.raises(
        ValueError,
        match=r"<joint> at line \d+ 'root_joint': root_joint='planar' adds a joint named "
        r"'root_joint' between the world and the root link 'base'; this joint has that name "
        r"already \(rename it\)",
    ):
        from_urdf(named, root_joint="planar")
    assert read_urdf(named)[1].joint_names == ["j1", "root_joint"]  # without the option: a name


def test_load_model_takes_a_root_joint(tmp_path):
    path = tmp_path / "base.urdf"
    path.write_text(BASE)
    model = es.load_model(path, root_joint="free_flyer")
    assert model.joint_types[:6] == ("free_flyer",) * 6 and model.body_names[1] == "base"
    assert es.load_model(path, root_joint="planar").joint_types[0] == "planar"
    assert es.load_model(path).nb == 2
    save_model(model, tmp_path / "m.yaml")
    with pytest.raises(ValueError, match=r"m\.yaml: root_joint: applies to URDF files only"):
        es.load_model(tmp_path / "m.yaml", root_joint="free_flyer")
    with pytest.raises(ValueError, match="root_joint: expected None, 'free_flyer' or 'planar'"):
        es.load_model(path, root_joint="floating")


@pytest.mark.parametrize("seed", range(3))
def test_free_flyer_and_planar_joints_round_trip(seed):
    model = es.zoo.random_tree(seed, "BRLPFRLR")
    text = to_urdf(model)
    types = {j.get("type"): j for j in ET.fromstring(text.split("\n", 1)[1]).iter("joint")}
    assert types["floating"].find("axis") is None
    assert types["planar"].find("axis").get("xyz") == "0.0 0.0 1.0"
    back = from_urdf(text, gravity=model.gravity)
    # the reader numbers the bodies depth first, in file order: match them by name
    i = [back.body_names.index(n) for n in model.body_names]
    check(back.joint_type[i], model.joint_type, 0.0)
    check(back.mass[i], model.mass, 0.0)
    moving = model.joint_bodies  # a fixed joint's friction is not written (it has none)
    for key in ("viscous", "coulomb", "armature"):
        check(getattr(back, key)[i][moving], getattr(model, key)[moving], 0.0)
    qi, vi = _renumbering(model, back)
    for q, qd, qdd in states(model, seed):
        tau = es.inverse_dynamics(model, q, qd, qdd)
        q_b, qd_b, qdd_b = np.empty(back.nq), np.empty(back.nv), np.empty(back.nv)
        q_b[qi], qd_b[vi], qdd_b[vi] = q, qd, qdd
        check(es.inverse_dynamics(back, q_b, qd_b, qdd_b)[vi], tau, 1e-12)
        check(es.mass_matrix(back, q_b)[np.ix_(vi, vi)], es.mass_matrix(model, q), 1e-12)


def _renumbering(model, back):
    """(back's coordinate of each of model's, back's rate of each of model's): the same
    bodies (by name) numbered in another order."""
    nq = {"free_flyer": 7, "spherical": 4}
    qi, vi = [], []
    for i in model.joint_bodies:
        j = back.body_names.index(model.body_names[i])
        n_v = int(np.count_nonzero(model.dof_bodies == i))
        n_q = nq.get(model.joint_types[int(model.v_index[i])], n_v)
        qi += range(int(back.q_index[j]), int(back.q_index[j]) + n_q)
        vi += range(int(back.v_index[j]), int(back.v_index[j]) + n_v)
    return np.array(qi), np.array(vi)


@pytest.mark.parametrize("letter, kind", [("S", "spherical"), ("U", "universal"), ("H", "helical")])
def test_joints_urdf_has_not_are_refused_by_to_urdf(letter, kind):
    model = es.zoo.random_tree(0, "R" + letter + "R")
    with pytest.raises(ValueError) as err:
        to_urdf(model)
    assert str(err.value) == (
        f"body_names[2]: body 'body2' has a {kind} joint, which URDF cannot express (URDF "
        f"has no {kind} joint type; to_urdf writes fixed, revolute, prismatic, planar and "
        "free_flyer joints)"
    )


# --- Pinocchio as the oracle --------------------------------------------------------------


_erd_root = example_robot_data_root


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
# legged, humanoid and aerial robots: a floating base (cassie's package holds SDF only)
FLOATING = tuple(
    f"{name}_description"
    for name in (
        "a1 alex alexander anymal_b_simple anymal_c_simple b1 bolt borinot cassie centauro g1 "
        "go1 go2 hector hextilt human hyq icub iris laikago quadruped romeo simple_humanoid solo"
    ).split()
) + ("talos_data",)


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


def _floating_urdfs():
    root = _erd_root()
    if root is None:
        return []
    return sorted(
        p
        for d in FLOATING
        for p in (root / d).rglob("*.urdf")
        if not (d == "talos_data" and "arm" in p.name)  # talos' arm alone: with the arms
    )


def _pin_layout(pmodel, joint_names, model):
    """Our model against a Pinocchio model of the same URDF, joints matched by name
    (``joint_names[i - 1]`` is body i's joint): (the function of our q giving Pinocchio's
    q, our rate of each Pinocchio rate). A continuous joint is (cos, sin) in Pinocchio; a
    free flyer has the same coordinates and rates on both sides."""
    body = {name: i for i, name in enumerate(joint_names, start=1)}
    order, parts = [], []
    for j in range(1, pmodel.njoints):
        i, joint = body[pmodel.names[j]], pmodel.joints[j]
        order += range(int(model.v_index[i]), int(model.v_index[i]) + joint.nv)
        parts.append((int(model.q_index[i]), joint.nq, joint.nv))

    def pin_q(q):
        return np.concatenate(
            [
                [np.cos(q[k]), np.sin(q[k])] if (nq, nv) == (2, 1) else q[k : k + nq]
                for k, nq, nv in parts
            ]
        )

    assert sorted(order) == list(range(model.nv))
    return pin_q, np.array(order)


def _against_pinocchio(pin, pmodel, model, joint_names, seed, k):
    """Inverse dynamics, mass matrix and forward dynamics against Pinocchio's rnea, crba
    (symmetrised) and aba on k seeded states, to 1e-9 relative; the largest relative error.

    Forward dynamics is as exact as the mass matrix is well conditioned: two correct
    solvers differ by up to cond(M) times the rounding error, and iCub's mass matrix has
    cond(M) ~ 4e8 (links of a few grams). So aba is compared to max(1e-9, 1e-16 cond(M))
    and, independently of the conditioning, Pinocchio's rnea of our q̈ must give back τ
    to 1e-9."""
    data = pmodel.createData()
    pin_q, order = _pin_layout(pmodel, joint_names, model)
    worst = 0.0
    for q, qd, qdd in states(model, seed, k):
        pq, pv, pa = pin_q(q), qd[order], qdd[order]
        tau = es.inverse_dynamics(model, q, qd, qdd)[order]
        scale = max(1.0, np.abs(tau).max())
        check(tau, pin.rnea(pmodel, data, pq, pv, pa), 1e-9, scale=scale, what="rnea")
        M = pin.crba(pmodel, data, pq)
        M = np.triu(M) + np.triu(M, 1).T
        ours = es.mass_matrix(model, q)[np.ix_(order, order)]
        check(ours, M, 1e-9, what="crba")
        tau_all = np.empty(model.nv)
        tau_all[order] = tau
        # with a mimic joint: the coupled system by Cholesky (ABA cannot take it), and
        # Pinocchio's rnea of our q̈ gives back τ (its aba is not asked to take mimics)
        method = "walker_orin_3" if model.has_mimic else "aba"
        fd = es.forward_dynamics(model, q, qd, tau_all, algorithm=method)[order]
        fd_scale = max(1.0, np.abs(qdd).max())
        rtol = max(1e-9, 1e-16 * np.linalg.cond(M))
        if not model.has_mimic:
            check(fd, pin.aba(pmodel, data, pq, pv, tau), rtol, scale=fd_scale, what="aba")
        check(pin.rnea(pmodel, data, pq, pv, fd), tau, 1e-9, scale=scale, what="rnea(our q̈)")
        worst = max(
            worst,
            np.abs(tau - pin.rnea(pmodel, data, pq, pv, pa)).max() / scale,
            np.abs(ours - M).max() / max(1.0, np.abs(M).max()),
        )
    return worst


def _frictionless(model):
    """Pinocchio's rnea / crba / aba leave joint friction (<dynamics>) out: so do we here."""
    return model.replace(viscous=np.zeros(model.nb + 1), coulomb=np.zeros(model.nb + 1))


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
    try:
        pmodel = pin.buildModelFromXML(text, mimic=model.has_mimic)
    except ValueError as exc:  # e.g. a mimic joint whose joint is not its ancestor
        pytest.skip(f"Pinocchio cannot build it: {exc}")
    _against_pinocchio(pin, pmodel, _frictionless(model), info.joint_names, 5, 2)


@functools.cache
def _read_floating(path):
    """(text, model without friction, info) of a floating-base URDF read with a free-flyer
    root joint, or eslabon's refusal (a string)."""
    text = path.read_text()
    with warnings.catch_warnings():
        # CAD inertias of real robots: some break the triangle inequality by rounding
        warnings.simplefilter("ignore", ImplausibleInertiaWarning)
        try:
            model, info = read_urdf(path, root_joint="free_flyer", gravity=(0, 0, -9.81))
        except ValueError as exc:
            return str(exc).replace(f"{_erd_root()}/", "")
    return text, _frictionless(model), info


@pytest.mark.parametrize("path", _floating_urdfs(), ids=lambda p: p.name)
def test_example_robot_data_floating_bases_against_pinocchio(path):
    """Every floating-base URDF of example-robot-data, read with a free-flyer root joint,
    gives the inverse dynamics, mass matrix and forward dynamics of Pinocchio's
    ``buildModelFromXML(urdf, JointModelFreeFlyer())`` on 3 random states; files with what
    eslabon refuses (mimic joints, an inertia that is not positive semi-definite) are
    skipped with the refusal."""
    pin = pytest.importorskip("pinocchio")
    read = _read_floating(path)
    if isinstance(read, str):
        pytest.skip(f"refused by eslabon: {read}")
    text, model, info = read
    try:
        pmodel = pin.buildModelFromXML(text, pin.JointModelFreeFlyer(), mimic=model.has_mimic)
    except ValueError as exc:  # e.g. a mimic joint whose joint is not its ancestor
        pytest.skip(f"Pinocchio cannot build it: {exc}")
    assert pmodel.names[1] == "root_joint" and (pmodel.nq, pmodel.nv) == (model.nq, model.nv)
    _against_pinocchio(pin, pmodel, model, info.joint_names, 7, 3)


def test_floating_base_urdfs_were_found():
    if _erd_root() is None:
        pytest.skip("example-robot-data is not installed")
    read = [p.name for p in _floating_urdfs() if not isinstance(_read_floating(p), str)]
    assert len(read) >= 10, read


@pytest.mark.parametrize("name", ["solo12.urdf", "anymal.urdf"])
def test_planar_root_joint_against_pinocchio(name):
    """A planar root joint against Pinocchio's JointModelPlanar, whose q is (x, y, cos θ,
    sin θ) and whose linear rates are in the body's axes: v_pin = T v with T = Rz(θ)ᵀ on
    (ẋ, ẏ), so a_pin = T a + Ṫ v, τ = Tᵀ τ_pin and M = Tᵀ M_pin T."""
    pin = pytest.importorskip("pinocchio")
    path = next((p for p in _floating_urdfs() if p.name == name), None)
    if path is None:
        pytest.skip(f"example-robot-data has no {name}")
    text = path.read_text()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ImplausibleInertiaWarning)
        model, info = read_urdf(text, root_joint="planar", gravity=(0, 0, -9.81))
    model = _frictionless(model)
    pmodel = pin.buildModelFromXML(text, pin.JointModelPlanar())
    assert pmodel.names[1] == "root_joint" and pmodel.joints[1].shortname() == "JointModelPlanar"
    data = pmodel.createData()
    body = {n: i for i, n in enumerate(info.joint_names, start=1)}
    order = np.concatenate(
        [
            model.v_index[body[pmodel.names[j]]] + np.arange(pmodel.joints[j].nv)
            for j in range(1, pmodel.njoints)
        ]
    )
    assert list(order[:3]) == [0, 1, 2]  # the root joint first on both sides
    for q, qd, qdd in states(model, 9, 3):
        c, s = np.cos(q[2]), np.sin(q[2])
        T, Td = np.eye(model.nv), np.zeros((model.nv, model.nv))
        T[:2, :2] = [[c, s], [-s, c]]
        Td[:2, :2] = qd[2] * np.array([[-s, c], [-c, -s]])
        rest = [
            [np.cos(q[k]), np.sin(q[k])] if pmodel.joints[j].nq == 2 else [q[k]]
            for j in range(2, pmodel.njoints)
            for k in [int(model.q_index[body[pmodel.names[j]]])]
        ]
        pq = np.concatenate([[q[0], q[1], c, s], *rest])
        v, a = qd[order], qdd[order]
        tau = es.inverse_dynamics(model, q, qd, qdd)[order]
        tau_pin = pin.rnea(pmodel, data, pq, T @ v, T @ a + Td @ v)
        check(tau, T.T @ tau_pin, 1e-9, scale=max(1.0, np.abs(tau).max()), what="rnea")
        M = pin.crba(pmodel, data, pq)
        M = np.triu(M) + np.triu(M, 1).T
        check(es.mass_matrix(model, q)[np.ix_(order, order)], T.T @ M @ T, 1e-9, what="crba")


@pytest.mark.parametrize("name", TREE_ZOO)
def test_zoo_dh_robots_through_to_urdf_against_pinocchio(name):
    """Issue 8: the zoo's robots, written by to_urdf and read by Pinocchio, give the same
    inverse dynamics, mass matrix and forward dynamics to 1e-9 (a free-flyer base is
    written as a floating joint, which Pinocchio reads as its free flyer)."""
    pin = pytest.importorskip("pinocchio")
    model = es.zoo.load(name)
    if model.constraints:
        pytest.skip("URDF describes trees only: to_urdf refuses a model with constraints")
    model = model.replace(
        viscous=np.zeros(model.nb + 1),
        coulomb=np.zeros(model.nb + 1),
        armature=np.zeros(model.nb + 1),
    )
    pmodel = pin.buildModelFromXML(to_urdf(model))
    pmodel.gravity.linear = model.gravity
    assert (pmodel.nv, pmodel.njoints - 1) == (model.nv, len(model.joint_bodies))
    names = list(model.joint_names[1:])  # to_urdf names the joints by joint_names
    _against_pinocchio(pin, pmodel, model, names, 11, 2)


def test_arm_urdfs_were_found():
    if _erd_root() is None:
        pytest.skip("example-robot-data is not installed")
    assert len(_arm_urdfs()) >= 5


@pytest.mark.parametrize("name", ["tiago.urdf", "tiago_dual.urdf"])
def test_tiago_antennas_rounding_is_clipped_and_named(name):
    """TIAGo's antennas (1 mg placeholders) have a principal moment of -3.5e-8 kg·m²,
    far below 1e-6 of the robot's largest moment: they load, each named in a warning,
    the moment clipped to 0 (the model's inertias positive semi-definite), and the
    dynamics are Pinocchio's (which keeps the file's tensor) to 1e-9."""
    from eslabon.model.validate import NegativeMomentWarning

    pin = pytest.importorskip("pinocchio")
    root = _erd_root()
    if root is None:
        pytest.skip("example-robot-data is not installed")
    path = root / "tiago_description" / "robots" / name
    with pytest.warns(NegativeMomentWarning) as seen:
        model, info = read_urdf(path, gravity=(0, 0, -9.81))
    texts = [str(w.message) for w in seen if w.category is NegativeMomentWarning]
    for side in ("left", "right"):
        assert any(f"(base_antenna_{side}_link).inertia: principal moment -3.53e-08" in t
                   for t in texts), texts  # fmt: skip
    assert np.linalg.eigvalsh(model.inertia).min() >= -1e-20
    pmodel = pin.buildModelFromXML(path.read_text())
    _against_pinocchio(pin, pmodel, _frictionless(model), info.joint_names, 3, 2)
