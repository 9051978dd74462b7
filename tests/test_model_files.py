"""Model files (issue "Models in, pictures out"): YAML DH tables with units at the edge,
YAML body lists, URDF; every zoo model saved and reloaded exactly. ``eslabon.load_model``
reads an arm or a mobile manipulator; ``eslabon.model`` imports nothing above itself."""

import ast
from pathlib import Path

import numpy as np
import pytest

import eslabon as es
from eslabon import load_model
from eslabon.model import save_model
from eslabon.model.validate import ImplausibleInertiaWarning


@pytest.mark.parametrize("name", es.zoo.names())
def test_every_zoo_model_saves_and_reloads_exactly(name, tmp_path):
    model = es.zoo.load(name)
    back = load_model(save_model(model, tmp_path / "m.yaml"))
    assert np.array_equal(back.packed, model.packed)  # bit for bit
    assert [f.name for f in back.frames] == [f.name for f in model.frames]
    for fa, fb in zip(model.frames, back.frames, strict=True):
        assert np.array_equal(fa.rotation, fb.rotation) and np.array_equal(
            fa.translation, fb.translation
        )
    assert back.constraints == model.constraints
    if model.constraints:  # URDF describes trees only: its round trip is YAML's alone
        with pytest.raises(ValueError, match="constraints: URDF describes trees only"):
            save_model(model, tmp_path / "m.urdf")
        return
    urdf = load_model(save_model(model, tmp_path / "m.urdf"))  # gravity from the comment
    np.testing.assert_array_equal(urdf.gravity, model.gravity)
    rng = np.random.default_rng(1)
    q, qd, qdd = rng.uniform(-1, 1, (3, model.nv))
    if model.nq != model.nv:  # a quaternion (the space manipulator's free-flying base)
        q = es.random_configuration(model, rng)
    np.testing.assert_allclose(
        es.inverse_dynamics(urdf, q, qd, qdd),
        es.inverse_dynamics(model, q, qd, qdd),
        atol=1e-12,
        rtol=0,
    )


@pytest.mark.parametrize(
    "change",
    [
        lambda m: es.with_joint_friction(m, viscous=0.1, coulomb=[0.2] * 6, armature=0.3),
        lambda m: es.with_payload(m, 1.5),
        lambda m: m.replace(mass=m.mass * 1.25),
        lambda m: m.replace(gravity=(0.0, 0.0, -1.62)),
    ],
    ids=["friction", "payload", "masses", "gravity"],
)
def test_a_dh_model_changed_after_it_was_built_saves_what_it_is(change, tmp_path):
    """A DH model keeps its table after a change; the file must still hold the changed
    model, not the table's (the table would silently drop the change)."""
    model = change(es.zoo.load("puma560"))
    with pytest.warns(ImplausibleInertiaWarning):  # the Puma's link 3, as in the zoo
        back = load_model(save_model(model, tmp_path / "m.yaml"))
    for field in ("mass", "com", "inertia", "viscous", "coulomb", "armature", "gravity"):
        assert getattr(back, field).tobytes() == getattr(model, field).tobytes(), field
    assert np.array_equal(back.packed, model.packed)


def test_payload_tool_and_book_mode_survive(tmp_path):
    m = es.zoo.load("practica_4dof", payload_mass=3, payload_inertia=0.05, book_com=True)
    back = load_model(save_model(m, tmp_path / "book.yml"))
    assert np.array_equal(back.packed, m.packed) and back.has_moving_com
    tool = np.eye(4)
    tool[:3, 3] = [0.0, 0.0, 0.12]
    arm = es.zoo.load("planar2").dh
    with_tool = es.from_dh([dict(r) for r in arm.rows], "standard", tool=tool)
    again = load_model(save_model(with_tool, tmp_path / "tool.yaml"))
    np.testing.assert_array_equal(again.frame("ee").translation, with_tool.frame("ee").translation)


UNITS = """eslabon: 1
name: two
convention: standard
units: {angle: deg, length: mm}
gravity: [0, 0, -9.81]
rows:
  - {joint: R, theta: 30, d: 400, a: 0, alpha: -90, mass: 5, com: [0, 200, 0],
     inertia: [[100000, 0, 0], [0, 20000, 0], [0, 0, 100000]]}
  - {joint: P, theta: 0, d: 100, a: 500, alpha: 0, mass: 3, com: [-250, 0, 0],
     inertia: [[5000, 0, 0], [0, 70000, 0], [0, 0, 70000]]}
"""


def test_units_at_the_edge(tmp_path):
    (tmp_path / "mm.yaml").write_text(UNITS)
    model = load_model(tmp_path / "mm.yaml")
    si = es.from_dh(
        [
            {
                "joint": "R",
                "theta": np.radians(30),
                "d": 0.4,
                "a": 0.0,
                "alpha": np.radians(-90),
                "mass": 5,
                "com": [0, 0.2, 0],
                "inertia": np.diag([0.1, 0.02, 0.1]),
            },
            {
                "joint": "P",
                "theta": 0.0,
                "d": 0.1,
                "a": 0.5,
                "alpha": 0.0,
                "mass": 3,
                "com": [-0.25, 0, 0],
                "inertia": np.diag([0.005, 0.07, 0.07]),
            },
        ],
        "standard",
        gravity=(0, 0, -9.81),
    )
    np.testing.assert_allclose(model.packed, si.packed, atol=1e-15)
    (tmp_path / "bad.yaml").write_text(UNITS.replace("deg", "grad"))
    with pytest.raises(ValueError, match="units.angle: expected rad or deg, got 'grad'"):
        load_model(tmp_path / "bad.yaml")


def test_bodies_format_errors_name_the_field(tmp_path):
    path = save_model(es.zoo.load("jaramillo_rpr"), tmp_path / "rpr.yaml")
    text = path.read_text()
    assert "bodies:" in text and "convention" not in text
    (tmp_path / "bad.yaml").write_text(text.replace("mass: 2.0", "mass: -2.0", 1))
    with pytest.raises(ValueError, match=r"bodies\[1\]\.mass"):
        load_model(tmp_path / "bad.yaml")
    with pytest.raises(ValueError, match="path: expected a .yaml, .yml or .urdf file name"):
        save_model(es.zoo.load("planar2"), tmp_path / "m.json")


EVERY_JOINT = """eslabon: 1
name: every-joint
gravity: [0, 0, -9.81]
bodies:
  - {name: base, parent: 0, joint: free_flyer, mass: 10,
     inertia: [[1, 0, 0], [0, 2, 0], [0, 0, 2]]}
  - {name: shoulder, joint: spherical, translation: [0.3, 0, 0], mass: 1,
     inertia: [[0.01, 0, 0], [0, 0.01, 0], [0, 0, 0.01]]}
  - {name: wrist, joint: universal, axis: [0, 0, 2], axis2: [0, 1, 0], mass: 0.5,
     inertia: [[0.01, 0, 0], [0, 0.01, 0], [0, 0, 0.01]]}
  - {name: screw, joint: helical, axis: [1, 0, 0], pitch: 0.01, mass: 0.2,
     inertia: [[0.001, 0, 0], [0, 0.001, 0], [0, 0, 0.001]]}
  - {name: slider, parent: 1, joint: planar, translation: [0, 0.2, 0], mass: 0.3,
     inertia: [[0.001, 0, 0], [0, 0.001, 0], [0, 0, 0.001]]}
  - {name: hinge, joint: continuous, axis: [0, 1, 0], mass: 0.1}
"""


def _every_joint_by_builder():
    b = es.model.ModelBuilder()
    small = np.eye(3) * 0.001
    b.add_body(0, "free_flyer", mass=10, inertia=np.diag([1.0, 2, 2]), name="base")
    b.add_body(1, "spherical", translation=(0.3, 0, 0), mass=1, inertia=small * 10, name="shoulder")
    b.add_body(
        2, "universal", axis=(0, 0, 1), axis2=(0, 1, 0), mass=0.5, inertia=small * 10, name="wrist"
    )
    b.add_body(3, "helical", axis=(1, 0, 0), pitch=0.01, mass=0.2, inertia=small, name="screw")
    b.add_body(1, "planar", translation=(0, 0.2, 0), mass=0.3, inertia=small, name="slider")
    b.add_body(5, "revolute", axis=(0, 1, 0), mass=0.1, name="hinge")
    return b.build(gravity=(0, 0, -9.81), name="every-joint")


def test_a_body_list_takes_every_joint_type(tmp_path):
    path = tmp_path / "every.yaml"
    path.write_text(EVERY_JOINT)
    model = load_model(path)
    assert model.joint_types == (
        ("free_flyer",) * 6 + ("spherical",) * 3 + ("universal",) * 2 + ("helical",)
    ) + ("planar",) * 3 + ("revolute",)
    assert (model.nq, model.nv) == (18, 16)
    assert model.packed.tobytes() == _every_joint_by_builder().packed.tobytes()
    np.testing.assert_array_equal(model.axis2[3], [0, 1, 0])
    np.testing.assert_array_equal(model.pitch, [0, 0, 0, 0, 0.01, 0, 0])
    text = save_model(model, tmp_path / "back.yaml").read_text()
    for spelling in ("joint: free_flyer", "joint: spherical", "joint: universal", "joint: R"):
        assert spelling in text, spelling
    assert text.count("axis2:") == 1 and text.count("pitch:") == 1  # only where they apply
    assert load_model(tmp_path / "back.yaml").packed.tobytes() == model.packed.tobytes()


@pytest.mark.parametrize(
    "old, new, message",
    [
        (", axis2: [0, 1, 0]", "", "bodies[2].axis2: expected the universal joint's second axis"),
        ("axis2: [0, 1, 0]", "axis2: [0, 1]", "bodies[2].axis2: expected shape (3,), got (2,)"),
        ("pitch: 0.01", "pitch: '0.01'", "bodies[3].pitch: expected a number, got '0.01'"),
        (
            "joint: planar,",
            "joint: planar, pitch: 0.1,",
            "bodies[4].pitch: a planar joint has no pitch (joints with one: helical)",
        ),
        (
            "joint: helical,",
            "joint: helical, axis2: [0, 0, 1],",
            "bodies[3].axis2: a helical joint has no second axis (joints with one: universal)",
        ),
        ("joint: spherical", "joint: ball", "bodies[1].joint: expected 'R', 'P' or 'F'"),
    ],
)
def test_general_joint_keys_are_checked(tmp_path, old, new, message):
    path = tmp_path / "bad.yaml"
    path.write_text(EVERY_JOINT.replace(old, new, 1))
    with pytest.raises(ValueError) as err:
        load_model(path)
    assert str(err.value).startswith(f"{path}: {message}"), str(err.value)


@pytest.mark.parametrize("seed", range(3))
def test_random_tree_of_every_joint_type_round_trips(seed, tmp_path):
    """A random tree with every joint type, written as a body list and read back: the same
    model (axes normalised once more: to 1e-15) and the same inverse dynamics."""
    model = es.zoo.random_tree(seed, "BRUHLSPRF")
    back = load_model(save_model(model, tmp_path / "tree.yaml"))
    assert back.joint_types == model.joint_types and back.body_names == model.body_names
    np.testing.assert_allclose(back.packed, model.packed, rtol=0, atol=1e-15)
    rng = np.random.default_rng(seed)
    for _ in range(3):
        q = es.random_configuration(model, rng)
        qd, qdd = rng.uniform(-1, 1, (2, model.nv))
        np.testing.assert_allclose(
            es.inverse_dynamics(back, q, qd, qdd),
            es.inverse_dynamics(model, q, qd, qdd),
            atol=1e-12,
            rtol=0,
        )


EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "seekur_puma.yaml"
SOURCE = Path(es.__file__).resolve().parent


def test_the_loader_reads_both_kinds_and_the_arm_loader_arms_only(tmp_path):
    """``eslabon.load_model`` gives an arm or a mobile manipulator; the model package's
    arm loader (its old public name ``eslabon.model.load_model`` warns) refuses the
    mobile file, naming it."""
    from eslabon._deprecation import EslabonDeprecationWarning
    from eslabon.model.files import load_arm_model

    arm = save_model(es.zoo.load("planar2"), tmp_path / "arm.yaml")
    assert es.load_model(arm).packed.tobytes() == load_arm_model(arm).packed.tobytes()
    mm = es.load_model(EXAMPLE)
    assert isinstance(mm, es.mobile.MobileManipulator)
    with pytest.raises(ValueError, match=f"{EXAMPLE}: is a mobile manipulator, not an arm"):
        load_arm_model(EXAMPLE)
    with pytest.warns(EslabonDeprecationWarning, match="use eslabon.load_model"):
        assert es.model.load_model is load_arm_model


def _imported(path):
    """Every eslabon module a source file imports, as a dotted name under eslabon."""
    package = path.relative_to(SOURCE).parent.parts
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level == 0:
                base = tuple((node.module or "").split("."))
                if base[0] != "eslabon":
                    continue
                base = base[1:]
            else:
                base = package[: len(package) - node.level + 1] + tuple(
                    filter(None, (node.module or "").split("."))
                )
            if node.module is None or node.level and not node.module:
                yield from (".".join(base + (a.name,)) for a in node.names)
            else:
                yield ".".join(base)
        elif isinstance(node, ast.Import):
            yield from (
                a.name[len("eslabon.") :] for a in node.names if a.name.startswith("eslabon.")
            )


def test_the_model_package_imports_nothing_above_itself():
    """No import circle through the model files: the loader of either kind sits above
    both :mod:`eslabon.model` and :mod:`eslabon.mobile`."""
    above = ("mobile", "zoo", "dynamics", "cli", "loader", "sim", "batch", "kinematics")
    found = sorted(
        f"{path.name}: {name}"
        for path in (SOURCE / "model").glob("*.py")
        for name in _imported(path)
        if name.split(".")[0] in above
    )
    assert found == []
    assert any(name == "model.files" for name in _imported(SOURCE / "loader.py"))


def test_every_urdf_reader_takes_the_written_gravity(tmp_path):
    """Review finding: load_model read the writer's gravity comment, from_urdf and
    read_urdf did not. gravity= still overrides it; a URDF from elsewhere gets −9.81 z."""
    from eslabon.model import from_urdf, read_urdf, to_urdf

    arm = es.zoo.load("planar2")  # gravity along −y
    path = save_model(arm, tmp_path / "p.urdf")
    for model in (load_model(path), from_urdf(path), read_urdf(path)[0], from_urdf(to_urdf(arm))):
        np.testing.assert_array_equal(model.gravity, arm.gravity)
    np.testing.assert_array_equal(from_urdf(path, gravity=[0, 0, -1.62]).gravity, [0, 0, -1.62])
    text = to_urdf(arm).replace("gravity [0.0, -9.81, 0.0]", "gravity [nan, 1, 2]")
    np.testing.assert_array_equal(from_urdf(text).gravity, [0.0, 0.0, -9.81])


def _two_bodies(small):
    b = es.model.ModelBuilder()
    b.add_body(0, "R", mass=1.0, inertia=np.diag([0.1, 0.1, 0.1]), name="big")
    b.add_body(1, "R", mass=1e-3, inertia=small, name="tip")
    return b


def test_a_negative_moment_within_the_tolerance_is_clipped_and_named():
    """-1e-9 kg·m² beside a largest moment of 0.1 (1e-8 of it): rounding, clipped to 0;
    -1e-6 (1e-5 of it) is a real negative inertia, refused naming the body, however
    small; a whole Model replaced with one is settled the same way."""
    from eslabon.model.validate import NegativeMomentWarning

    near = np.diag([-1e-9, 2e-6, 2e-6])
    with pytest.warns(
        NegativeMomentWarning, match=r"body 2 \(tip\)\.inertia: principal moment -1e-09"
    ):
        model = _two_bodies(near).build(name="m")
    assert np.linalg.eigvalsh(model.inertia[2]).min() == 0.0
    assert np.allclose(model.inertia[2], np.diag([0.0, 2e-6, 2e-6]), rtol=0, atol=1e-15)
    with pytest.raises(ValueError, match=r"^body 2\.inertia: expected a positive semi-definite"):
        _two_bodies(np.diag([-1e-6, 2e-6, 2e-6])).build()
    inertia = np.array(model.inertia)
    inertia[2] = near
    with pytest.warns(NegativeMomentWarning, match=r"inertia\[2\] \(tip\): principal moment"):
        again = model.replace(inertia=inertia)
    assert np.linalg.eigvalsh(again.inertia[2]).min() == 0.0
