"""Model files (issue "Models in, pictures out"): YAML DH tables with units at the edge,
YAML body lists, URDF; every zoo model saved and reloaded exactly. ``eslabon.load_model``
reads an arm or a mobile manipulator; ``eslabon.model`` imports nothing above itself."""

import ast
from pathlib import Path

import numpy as np
import pytest

import eslabon as es
from eslabon.model import load_model, save_model


@pytest.mark.parametrize("name", es.zoo.names())
def test_every_zoo_model_saves_and_reloads_exactly(name, tmp_path):
    model = es.zoo.load(name)
    back = load_model(save_model(model, tmp_path / "m.yaml"))
    assert np.array_equal(back.packed, model.packed)  # bit for bit
    assert [f.name for f in back.frames] == [f.name for f in model.frames]
    for fa, fb in zip(model.frames, back.frames):
        assert np.array_equal(fa.rotation, fb.rotation) and np.array_equal(
            fa.translation, fb.translation
        )
    urdf = load_model(save_model(model, tmp_path / "m.urdf"), gravity=model.gravity)
    q, qd, qdd = np.random.default_rng(1).uniform(-1, 1, (3, model.nq))
    np.testing.assert_allclose(
        es.inverse_dynamics(urdf, q, qd, qdd),
        es.inverse_dynamics(model, q, qd, qdd),
        atol=1e-12,
        rtol=0,
    )


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


EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "seekur_puma.yaml"
SOURCE = Path(es.__file__).resolve().parent


def test_the_loader_reads_both_kinds_and_the_model_package_arms_only(tmp_path):
    """``eslabon.load_model`` gives an arm or a mobile manipulator; the model package's
    own ``load_model`` refuses the mobile file, naming it."""
    arm = save_model(es.zoo.load("planar2"), tmp_path / "arm.yaml")
    assert es.load_model(arm).packed.tobytes() == load_model(arm).packed.tobytes()
    mm = es.load_model(EXAMPLE)
    assert isinstance(mm, es.mobile.MobileManipulator)
    with pytest.raises(ValueError, match=f"{EXAMPLE}: is a mobile manipulator, not an arm"):
        load_model(EXAMPLE)


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
