"""MJCF import (eslabon.model.mjcf) against MuJoCo itself.

MuJoCo compiles each file and computes M (``mj_fullM``), the bias forces
(``qfrc_bias``), inverse dynamics (``mj_inverse``) and Jacobians (``mj_jac``) with
contacts, constraints, springs and actuation disabled (pure rigid-body quantities). The
eslabon model read from the same file must give the same quantities in its own
coordinates, through the maps of ``MjcfInfo`` (v_mj = J v, τ = Jᵀ τ_mj, M = Jᵀ M_mj J,
a_mj = J a + J̇ v): 1e-10 relative to the largest entry (the two compute in double
precision from the same compiled numbers; they agree to ~1e-15). The files: this suite's
own (tests/data/mjcf) and every MJCF robot of the two model collections the test extra
installs, gymnasium's MuJoCo environments and dm_control's suite (COLLECTIONS).
"""

from __future__ import annotations

import importlib.util
import warnings
from pathlib import Path

import numpy as np
import pytest

import eslabon as es

mujoco = pytest.importorskip("mujoco")

from eslabon.constraints import constraint_jacobian, constraint_residual  # noqa: E402
from eslabon.model.mjcf import MjcfWarning, read_mjcf  # noqa: E402

DATA = Path(__file__).parent / "data" / "mjcf"
TOL = 1e-10
SITE = mujoco.mjtObj.mjOBJ_SITE
OFF = mujoco.mjtDisableBit
RIGID_ONLY = OFF.mjDSBL_CONSTRAINT | OFF.mjDSBL_CONTACT | OFF.mjDSBL_SPRING | OFF.mjDSBL_ACTUATION


#: the model collections installable here: (pip package, folder of its MJCFs inside the
#: package, {file left out: why}); the test extra installs both
COLLECTIONS = (
    ("gymnasium", "envs/mujoco/assets", {}),
    ("dm_control", "suite", {"lqr.xml": "a template without bodies, filled in by dm_control"}),
)
#: files of the collections that eslabon refuses as a whole: {(collection, file): the start
#: of the one-line reason, which names the element}. Their trees are still checked, read
#: with the refused elements (equalities, which enter none of M, the bias forces or the
#: Jacobians) removed through MuJoCo's MjSpec.
REFUSED = {
    ("dm_control", "quadruped.xml"): (
        "equality tendon 'coupling_front_left': holds a fixed tendon of 3 joints"
    ),
}


def _collection_files():
    """(collection, path) of every MJCF robot of each installed collection; (collection,
    None) for a collection whose package is absent, so its cases are skipped."""
    for package, folder, left_out in COLLECTIONS:
        spec = importlib.util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            yield package, None
            continue
        root = Path(next(iter(spec.submodule_search_locations))) / folder
        for path in sorted(root.glob("*.xml")):
            if path.name not in left_out:
                yield package, str(path)


FILES = list(_collection_files())
REFUSED_PATHS = {
    path: REFUSED[(collection, Path(path).name)]
    for collection, path in FILES
    if path is not None and (collection, Path(path).name) in REFUSED
}


def _params(keep=lambda collection, name: True, as_read: bool = True) -> list:
    """pytest params of the collections' files ``keep`` selects (by collection and file
    name), each with its collection in its id (and, ``as_read``, a refused file's with
    how it is read instead); one skipped param per absent collection."""
    out = []
    for collection, path in FILES:
        if path is None:
            skip = pytest.mark.skip(reason=f"{collection} is not installed")
            out.append(pytest.param(None, marks=skip, id=f"{collection}-absent"))
        elif keep(collection, Path(path).name):
            suffix = "-without-equalities" if as_read and path in REFUSED_PATHS else ""
            out.append(pytest.param(path, id=f"{collection}/{Path(path).name}{suffix}"))
    return out


OWN = [
    pytest.param(str(DATA / name), id=name)
    for name in ("features.xml", "pair.xml", "loops.xml", "gripper.xml", "floating.xml")
]
#: files with joint damping, and (all but the manipulator) armature
DAMPED_FILES = {
    "gymnasium": ("ant.xml", "humanoid.xml"),
    "dm_control": ("manipulator.xml", "dog.xml", "humanoid.xml", "humanoid_CMU.xml",
                   "walker.xml", "cheetah.xml", "hopper.xml"),
}  # fmt: skip
COLLECTED = _params()
DAMPED = _params(lambda collection, name: name in DAMPED_FILES[collection])
GYM_DAMPED = _params(
    lambda collection, name: collection == "gymnasium" and name in DAMPED_FILES[collection]
)


def _source(path):
    """The file, or for a refused one (REFUSED) its MJCF text without its equalities."""
    if str(path) not in REFUSED_PATHS:
        return path
    spec = mujoco.MjSpec.from_file(str(path))
    for equality in list(spec.equalities):
        spec.delete(equality)
    return spec.to_xml()


def _read(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MjcfWarning)
        return read_mjcf(path)


def _rel(a, b) -> float:
    """The largest difference relative to b's largest entry (0 when both are zero)."""
    gap = float(np.abs(np.asarray(a) - b).max())
    return gap / float(np.abs(b).max()) if gap else 0.0


def _both(path, damping: bool):
    """(Model, MjcfInfo, MjModel, MjData) of one file (a refused one without its
    equalities, :func:`_source`), MuJoCo's with only the rigid-body terms (and damping)."""
    source = _source(path)
    model, info = _read(source)
    if source is path:
        m = mujoco.MjModel.from_xml_path(str(path))
    else:
        m = mujoco.MjModel.from_xml_string(source)
    m.opt.disableflags |= RIGID_ONLY | (0 if damping else OFF.mjDSBL_DAMPER)
    return model, info, m, mujoco.MjData(m)


def _rate_map(info, q, nv):
    """J (nv_mujoco, nv): qvel = J v at q."""
    return np.stack([info.qvel_from_v(q, e) for e in np.eye(nv)], axis=1)


@pytest.mark.parametrize("path", OWN + COLLECTED)
def test_dynamics_equal_mujoco(path):
    model, info, m, d = _both(path, damping=False)
    rigid = model.replace(viscous=0.0, coulomb=0.0)
    rng = np.random.default_rng(7)
    for _ in range(3):
        q = es.random_configuration(model, rng)
        v, a = rng.normal(size=model.nv), rng.normal(size=model.nv)
        d.qpos[:] = info.qpos_from_q(q)
        d.qvel[:] = info.qvel_from_v(q, v)
        d.qacc[:] = info.qacc_from_a(q, v, a)
        mujoco.mj_inverse(m, d)
        M_mj = np.zeros((m.nv, m.nv))
        mujoco.mj_fullM(m, d, M_mj)
        J = _rate_map(info, q, model.nv)
        assert _rel(es.mass_matrix(rigid, q), J.T @ M_mj @ J) < TOL
        tau = info.tau_from_qfrc(q, d.qfrc_inverse)
        assert _rel(es.inverse_dynamics(rigid, q, v, a), tau) < TOL
        # qfrc_bias is at qacc_mj = 0; eslabon's bias at a = 0, i.e. qacc_mj = J̇ v
        drift = info.qacc_from_a(q, v, np.zeros(model.nv))
        bias = info.tau_from_qfrc(q, d.qfrc_bias + M_mj @ drift)
        assert _rel(es.bias_forces(rigid, q, v), bias) < TOL
        for body in range(1, m.nbody):
            jacp, jacr = np.zeros((3, m.nv)), np.zeros((3, m.nv))
            mujoco.mj_jac(m, d, jacp, jacr, d.xpos[body], body)
            J_es = es.jacobian(rigid, q, info.body_names[body], "world")
            assert _rel(J_es, np.vstack([jacr, jacp]) @ J) < TOL, info.body_names[body]
        for site, frame in info.site_frames.items():
            jacp, jacr = np.zeros((3, m.nv)), np.zeros((3, m.nv))
            mujoco.mj_jacSite(m, d, jacp, jacr, mujoco.mj_name2id(m, SITE, site))
            J_es = es.jacobian(rigid, q, frame, "world")
            assert _rel(J_es, np.vstack([jacr, jacp]) @ J) < TOL, site


@pytest.mark.parametrize("path", OWN[:2] + DAMPED)
def test_damping_and_armature_as_mujoco(path):
    """With MuJoCo's joint damping on, mj_inverse adds damping·qvel, as eslabon's viscous
    friction does (τ = Jᵀ D J v with D isotropic on a free joint is D v); armature is in M
    (here and in test_dynamics_equal_mujoco)."""
    model, info, m, d = _both(path, damping=True)
    assert np.any(m.dof_damping != 0)
    assert np.any(m.dof_armature != 0) or Path(path).name == "manipulator.xml"
    rng = np.random.default_rng(3)
    q = es.random_configuration(model, rng)
    v, a = rng.normal(size=model.nv), rng.normal(size=model.nv)
    d.qpos[:], d.qvel[:] = info.qpos_from_q(q), info.qvel_from_v(q, v)
    d.qacc[:] = info.qacc_from_a(q, v, a)
    mujoco.mj_inverse(m, d)
    tau = es.inverse_dynamics(model.replace(coulomb=0.0), q, v, a)
    assert _rel(tau, info.tau_from_qfrc(q, d.qfrc_inverse)) < TOL


@pytest.mark.parametrize("path", OWN + COLLECTED)
def test_frames_are_mujocos(path):
    """Every MuJoCo body is an eslabon body with MuJoCo's frame; every site a frame."""
    model, info, m, d = _both(path, damping=False)
    q = es.random_configuration(model, np.random.default_rng(5))
    d.qpos[:] = info.qpos_from_q(q)
    mujoco.mj_kinematics(m, d)
    poses = es.forward_kinematics(model, q)
    for body in range(1, m.nbody):
        T = poses[model.body_names.index(info.body_names[body])]
        assert np.abs(T[:3, 3] - d.xpos[body]).max() < TOL
        assert np.abs(T[:3, :3] - d.xmat[body].reshape(3, 3)).max() < TOL
    for site, frame in info.site_frames.items():
        T = es.kinematics.frame_pose(model, q, frame)
        s = mujoco.mj_name2id(m, SITE, site)
        assert np.abs(T[:3, 3] - d.site_xpos[s]).max() < TOL
        assert np.abs(T[:3, :3] - d.site_xmat[s].reshape(3, 3)).max() < TOL


@pytest.mark.parametrize("path", _params(lambda *file: file in REFUSED, as_read=False))
def test_refused_collection_files_name_the_element(path):
    """A collection's file eslabon cannot represent is refused in one line that starts
    with the file and names the element and why (the documented refusals)."""
    with pytest.raises(ValueError) as caught:
        read_mjcf(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: {REFUSED_PATHS[path]}"), message
    assert "\n" not in message


def test_coordinate_maps_round_trip():
    model, info = _read(DATA / "features.xml")
    rng = np.random.default_rng(11)
    q = np.array([es.random_configuration(model, rng) for _ in range(4)])  # a batch
    v = rng.normal(size=(4, model.nv))
    assert np.abs(info.q_from_qpos(info.qpos_from_q(q)) - q).max() < 1e-14
    assert np.abs(info.v_from_qvel(q, info.qvel_from_v(q, v)) - v).max() < 1e-14
    with pytest.raises(ValueError, match=r"^qpos: expected shape \(\.\.\., 18\)"):
        info.q_from_qpos(np.zeros(17))


def test_features_are_read():
    with pytest.warns(MjcfWarning) as caught:
        model, info = read_mjcf(DATA / "features.xml")
    assert len(caught) == 1  # one warning listing everything
    text = str(caught[0].message)
    for needle in ("contacts", "actuators", "sensors", "joint springs", "['knee']"):
        assert needle in text
    assert "features.xml" in text
    # the free joint, the two joints of arm1 chained, the anchors, the fixed foot
    assert model.joint_letters == "BRRPSRRP"
    assert model.body_names[:5] == ("world", "base", "hip_x", "hip_y", "arm1")
    assert model.mass[model.body_names.index("hip_x")] == 0.0
    assert model.mass[model.body_names.index("arm2")] > 0.0  # from the mesh's volume
    assert {"imu", "tip", "sole"} <= {f.name for f in model.frames}
    # the joint equality fb = 0.01 − fa is a mimic joint
    fb = model.body_names.index("finger_b")
    assert model.mimic_joint[fb] == model.body_names.index("finger_a")
    assert (model.mimic_multiplier[fb], model.mimic_offset[fb]) == (-1.0, 0.01)
    assert model.nv == 15 and info.nv_mujoco == 16
    # damping, frictionloss and armature per joint (armature from the default class)
    hip_x = model.body_names.index("hip_x")
    assert (model.viscous[hip_x], model.coulomb[hip_x], model.armature[hip_x]) == (
        0.2,
        0.1,
        0.01,
    )
    np.testing.assert_array_equal(model.gravity, [0.0, -1.0, -9.81])
    # the keyframe in eslabon's coordinates: hinge angle less its ref (10 degrees)
    home = info.keyframes["home"]
    m = mujoco.MjModel.from_xml_path(str(DATA / "features.xml"))
    assert home[model.q_names.index("hip_x")] == m.key_qpos[0][7] - m.qpos0[7]
    np.testing.assert_array_equal(info.qpos_from_q(home)[:-1], m.key_qpos[0][:-1])


@pytest.mark.parametrize(
    "path",
    [pytest.param(str(DATA / name), id=name) for name in ("features.xml", "gripper.xml")]
    + _params(lambda collection, name: name in ("manipulator.xml", "stacker.xml")),
)
def test_mimic_joints_hold_mujocos_equality(path):
    """A joint equality (features.xml) and a fixed tendon's equality (gripper.xml,
    dm_control's manipulator fingers) become mimic joints: at every eslabon configuration
    MuJoCo's equality row is zero."""
    model, info = _read(path)
    assert model.has_mimic
    m = mujoco.MjModel.from_xml_path(str(path))
    m.opt.disableflags |= OFF.mjDSBL_CONTACT | OFF.mjDSBL_LIMIT
    d = mujoco.MjData(m)
    rng = np.random.default_rng(8)
    for _ in range(3):
        d.qpos[:] = info.qpos_from_q(es.random_configuration(model, rng))
        mujoco.mj_forward(m, d)
        rows = d.efc_type[: d.nefc] == mujoco.mjtConstraint.mjCNSTR_EQUALITY
        assert rows.sum() == 1 and abs(d.efc_pos[: d.nefc][rows][0]) < TOL


@pytest.mark.parametrize(
    "stem, options, frames",
    [
        ("pair", {}, ("tool0", "ee", "payload")),
        ("floating", {"root_joint": "free_flyer"}, ("foot", "arm", "torso")),
    ],
)
def test_mjcf_and_urdf_of_one_robot(stem, options, frames):
    """pair.xml and pair.urdf describe one arm (origins, rotated inertias, a fixed
    payload, a tool frame, damping, Coulomb friction, armature); floating.xml and
    floating.urdf one floating robot (MJCF's free joint, the URDF read with
    root_joint="free_flyer"). Each pair has the same dynamics in the same coordinates:
    the free joint's q and v are eslabon's free flyer's, no map between them."""
    urdf = es.load_model(DATA / f"{stem}.urdf", **options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MjcfWarning)
        mjcf = es.load_model(DATA / f"{stem}.xml")
    assert mjcf.q_names == urdf.q_names
    rng = np.random.default_rng(2)
    for _ in range(3):
        q = es.random_configuration(urdf, rng)
        v, a = rng.normal(size=(2, urdf.nv))
        assert _rel(es.mass_matrix(mjcf, q), es.mass_matrix(urdf, q)) < TOL
        assert _rel(es.bias_forces(mjcf, q, v), es.bias_forces(urdf, q, v)) < TOL
        tau = es.inverse_dynamics(urdf, q, v, a)
        assert _rel(es.inverse_dynamics(mjcf, q, v, a), tau) < TOL
        for frame in frames:
            assert _rel(es.jacobian(mjcf, q, frame), es.jacobian(urdf, q, frame)) < TOL


ARM_URDFS = [
    "ur_description/urdf/ur5_robot.urdf",
    "panda_description/urdf/panda.urdf",
    "kinova_description/robots/kinova.urdf",
    "z1_description/urdf/z1.urdf",
    "xarm_description/urdf/xarm7.urdf",
]


@pytest.mark.parametrize("relative", ARM_URDFS, ids=lambda r: Path(r).stem)
def test_known_arms_compiled_by_mujoco_as_their_urdf(relative):
    """example-robot-data's arms: MuJoCo compiles the URDF itself (its visuals and
    collision meshes removed, whose package:// paths it cannot open; static links fused,
    the Panda's finger <mimic> an equality), and the model read from that compiled model
    has the dynamics of eslabon's own URDF reading, the coordinates named alike."""
    import re

    from checks import example_robot_data

    text = example_robot_data(relative).read_text(encoding="utf-8")
    text = re.sub(r"<(visual|collision)\b.*?</\1>", "", text, flags=re.S)
    urdf = es.model.from_urdf(text)
    mjcf, _ = _read(text)
    assert mjcf.q_names == urdf.q_names
    rng = np.random.default_rng(6)
    for _ in range(3):
        q, v, a = rng.uniform(-1.0, 1.0, size=(3, urdf.nq))
        assert _rel(es.mass_matrix(mjcf, q), es.mass_matrix(urdf, q)) < TOL
        tau = es.inverse_dynamics(urdf, q, v, a)
        assert _rel(es.inverse_dynamics(mjcf, q, v, a), tau) < TOL


def test_loop_closures_as_mujocos_equalities():
    """connect and weld (by bodies and by sites) are loop closures whose residuals match
    MuJoCo's equality rows: the same point gap (eslabon's in frame A's axes, MuJoCo's in
    the world's, so their norms), and for a weld the angle θ of eslabon's rotation vector
    against sin(θ/2), the size of MuJoCo's quaternion error."""
    path = DATA / "loops.xml"
    model, info = _read(path)
    assert [c.name for c in model.constraints] == ["close", "close_sites", "hold", "hold_side"]
    m = mujoco.MjModel.from_xml_path(str(path))
    d = mujoco.MjData(m)
    rng = np.random.default_rng(4)
    for k in range(4):
        q = info.q_from_qpos(m.qpos0) if k == 0 else es.random_configuration(model, rng)
        d.qpos[:] = info.qpos_from_q(q)
        mujoco.mj_forward(m, d)
        phi, mj = constraint_residual(model, q), d.efc_pos[:24]
        for lo, hi in ((0, 3), (3, 6), (6, 9), (12, 15)):  # points
            assert abs(np.linalg.norm(phi[lo:hi]) - np.linalg.norm(mj[lo:hi])) < TOL
        for lo in (9, 15):  # rotations
            angle = np.linalg.norm(phi[lo : lo + 3])
            assert abs(np.sin(angle / 2) - np.linalg.norm(mj[lo : lo + 3])) < TOL
    # where the four-bar is closed (qpos0), its Jacobian is −R_Aᵀ MuJoCo's (world axes)
    q0 = info.q_from_qpos(m.qpos0)
    d.qpos[:] = m.qpos0
    mujoco.mj_forward(m, d)
    assert np.abs(constraint_residual(model, q0)[:6]).max() < TOL
    R_A = es.kinematics.frame_pose(model, q0, "close.a")[:3, :3]
    J_mj = d.efc_J.reshape(d.nefc, m.nv)[:3] @ _rate_map(info, q0, model.nv)
    assert _rel(constraint_jacobian(model, q0)[:3], -R_A.T @ J_mj) < TOL


def test_load_model_and_cli_info(tmp_path):
    import subprocess
    import sys

    with pytest.warns(MjcfWarning):
        model = es.load_model(DATA / "features.xml")
    assert model.source == f"MJCF {DATA / 'features.xml'}"
    res = subprocess.run(
        [sys.executable, "-m", "eslabon.cli.main", "info", str(DATA / "features.xml")],
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stderr
    assert "features" in res.stdout and "hip_x" in res.stdout
    assert "Traceback" not in res.stderr


def test_geoms_reach_the_viewer():
    from eslabon.viz import scene

    model, info = _read(DATA / "features.xml")
    found, folder = scene.urdf_of(model)
    assert found is info.visual and folder == DATA.resolve()
    parts = scene.urdf_parts(model, found, folder, scene.MeshTable())
    kinds = {p["kind"] for body in parts for p in body}
    assert kinds == {"box", "cylinder", "sphere", "mesh"}  # the plane is not drawn
    arm2 = model.body_names.index("arm2")
    assert [p["kind"] for p in parts[arm2]] == ["mesh"]


def test_meshes_the_viewer_cannot_read_are_boxes(tmp_path):
    """A mesh given inline (or in MuJoCo's .msh format) is drawn as its geom's bounding
    box; a tendon held only by an equality is not listed as left out."""
    path = tmp_path / "inline.xml"
    path.write_text(
        """<mujoco><asset><mesh name="tet" vertex="0 0 0  0.2 0 0  0 0.1 0  0 0 0.3"/>
        </asset><worldbody><body name="b"><joint type="slide"/>
        <geom type="mesh" mesh="tet"/></body></worldbody></mujoco>""",
        encoding="utf-8",
    )
    from eslabon.viz import scene

    model, info = _read(path)
    parts = scene.urdf_parts(model, info.visual, tmp_path, scene.MeshTable())
    m = mujoco.MjModel.from_xml_path(str(path))
    (box,) = parts[1]
    assert box["kind"] == "box"
    np.testing.assert_allclose(box["size"], 2 * m.geom_aabb[0][3:], rtol=0, atol=1e-15)
    with pytest.warns(MjcfWarning) as caught:
        read_mjcf(DATA / "gripper.xml")
    assert "tendons" not in str(caught[0].message)


def test_disabled_flags_are_honoured():
    """<option><flag gravity|damper|frictionloss="disable"/> leaves those out of the model."""
    body = """<worldbody><body name="b"><joint name="j" damping="2" frictionloss="1"/>
      <geom size="0.1"/></body></worldbody>"""
    flags = '<option><flag gravity="disable" damper="disable" frictionloss="disable"/></option>'
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MjcfWarning)
        model = es.model.from_mjcf(f"<mujoco>{flags}{body}</mujoco>")
        plain = es.model.from_mjcf(f"<mujoco>{body}</mujoco>")
    np.testing.assert_array_equal(model.gravity, 0.0)
    assert model.viscous[1] == 0.0 and model.coulomb[1] == 0.0
    assert plain.viscous[1] == 2.0 and plain.coulomb[1] == 1.0 and plain.gravity[2] == -9.81


def test_visual_geoms_only_when_the_file_has_them(tmp_path):
    """The Menagerie's pattern: visual geoms (contype = conaffinity = 0) beside collision
    ones; only the visual ones are drawn, in their material's colour."""
    path = tmp_path / "classes.xml"
    path.write_text(
        """<mujoco><asset><material name="red" rgba="1 0 0 1"/></asset>
        <default><default class="visual"><geom contype="0" conaffinity="0" group="2"/>
        </default><default class="collision"><geom group="3"/></default></default>
        <worldbody><body name="link"><joint/>
        <geom class="visual" type="box" size="0.1 0.2 0.3" material="red"/>
        <geom class="collision" type="sphere" size="0.3"/></body></worldbody></mujoco>""",
        encoding="utf-8",
    )
    from eslabon.viz import scene

    model, info = _read(path)
    (part,) = scene.urdf_parts(model, info.visual, tmp_path, scene.MeshTable())[1]
    assert part["kind"] == "box" and part["size"] == [0.2, 0.4, 0.6]
    assert part["color"] == "#ff0000"


def test_a_sphere_is_drawn_at_its_radius_whatever_its_other_sizes(tmp_path):
    """MuJoCo keeps a default's three sizes on a sphere (size = [0.1, 0.5, 0.7]); its
    radius is the first; an ellipsoid is drawn as the sphere of its largest semi-axis."""
    path = tmp_path / "sphere.xml"
    path.write_text(
        '<mujoco><default><geom size="0.1 0.5 0.7"/></default><worldbody><body name="a">'
        '<joint/><geom type="sphere"/><geom type="ellipsoid"/></body></worldbody></mujoco>',
        encoding="utf-8",
    )
    with pytest.warns(UserWarning):
        _, info = es.model.read_mjcf(path)
    radii = [size["radius"][0] for kind, size, _ in info.visual.visuals["a"] if kind == "sphere"]
    assert radii == [0.1, 0.7]


@pytest.mark.parametrize("path", GYM_DAMPED)
def test_rate_maps_broadcast_a_batch_against_a_single_state(path):
    """qacc_from_a of a batch of rates with one acceleration (and the reverse) is the row by
    row result: the leading shapes of q, v and a broadcast together."""
    model, info = _read(path)
    rng = np.random.default_rng(5)
    q = np.stack([es.random_configuration(model, rng) for _ in range(3)])
    v, a = rng.normal(size=(3, model.nv)), rng.normal(size=model.nv)
    rows = np.stack([info.qacc_from_a(q[i], v[i], a) for i in range(3)])
    assert np.allclose(info.qacc_from_a(q, v, a), rows, rtol=1e-14, atol=1e-14)
    rows = np.stack([info.qacc_from_a(q[i], v[0], a) for i in range(3)])
    assert np.allclose(info.qacc_from_a(q, v[0], a), rows, rtol=1e-14, atol=1e-14)
    rows = np.stack([info.qacc_from_a(q[0], v[i], a) for i in range(3)])
    assert np.allclose(info.qacc_from_a(q[0], v, a), rows, rtol=1e-14, atol=1e-14)
