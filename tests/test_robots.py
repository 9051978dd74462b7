"""Robots by name (``eslabon.robots``, issue 45): every robot of the table that is installed
loads with its documented nq, nv, base and end effector, its meshes found where the
viewer looks; Pinocchio's ``buildModelFromUrdf`` of the same file (a free flyer for a
floating robot) has the same sizes and the same moving mass, and a floating robot's
total mass is the sum of the file's ``<mass>`` entries; bad names get messages that say
what exists or what to install; ``eslabon info --robots`` lists what is installed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from eslabon import robots
from eslabon.conventions import JOINT_TYPE_NAMES
from eslabon.model.urdf import urdf_read_from
from eslabon.model.validate import ImplausibleInertiaWarning
from eslabon.robots import sources

DOCS = Path(__file__).resolve().parents[1] / "docs" / "robots.md"


def _load(name, **kw):
    # CAD inertias of real robots: some break the triangle inequality by rounding, each
    # named in a warning (the file's, not the loader's)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ImplausibleInertiaWarning)
        return robots.load(name, **kw)


def _installed(name):
    if name not in robots.available():
        pytest.skip(f"{robots.info(name).package} ({name}) is not installed")


def test_the_table():
    names = robots.names()
    assert len(names) == len(set(names)) >= 60
    assert {"solo12", "solo8", "go1", "go2", "a1", "anymal", "hyq", "talos", "talos_arm",
            "panda", "ur3", "ur5", "ur10", "kinova", "tiago", "icub", "romeo",
            "double_pendulum"} <= set(names)  # fmt: skip
    for r in robots.ROBOTS.values():
        assert r.category in robots.CATEGORIES, r
        assert r.package in sources.SOURCES, r
        assert r.path.endswith(".urdf") and r.name == r.name.lower(), r
        assert r.nq == r.nv + (1 if r.floating else 0), r  # one quaternion: the free flyer
    assert not set(robots.NOT_OFFERED) & set(names)


@pytest.mark.parametrize("name", robots.names())
def test_each_installed_robot_loads_as_documented(name):
    _installed(name)
    r = robots.info(name)
    model = _load(name)
    assert (model.nq, model.nv) == (r.nq, r.nv)
    kinds = [JOINT_TYPE_NAMES[int(t)] for t in model.joint_type[1:]]
    assert (kinds[0] == "free_flyer") is r.floating
    assert kinds.count("free_flyer") == int(r.floating)
    # the end effector is the table's link, placed where that link is
    ee, link = model.frame("ee"), model.frame(r.ee)
    assert ee.body == link.body
    np.testing.assert_allclose(ee.translation, link.translation, atol=1e-12)
    np.testing.assert_allclose(ee.rotation, link.rotation, atol=1e-12)
    # the model remembers its file: the viewer draws its meshes from there
    info, path = urdf_read_from(model)
    assert path == robots.path(name).resolve()


@pytest.mark.parametrize("name", robots.names())
def test_each_installed_robots_meshes_are_found(name):
    """Every mesh of the file resolves as the viewer resolves it (``package://``
    example-robot-data/... in the package's folder; Talos' full model writes
    ``package:///``, an empty host, read as Pinocchio reads it)."""
    from eslabon.viz.scene import resolve_mesh

    _installed(name)
    info, path = urdf_read_from(_load(name))
    meshes = [size for visuals in info.visuals.values() for kind, size, _ in visuals
              if kind == "mesh"]  # fmt: skip
    for filename in meshes:
        assert resolve_mesh(filename, path.parent).is_file()


def _file_mass(path: Path) -> float:
    return sum(float(m.get("value")) for m in ET.parse(path).getroot().iter("mass"))


def _moving_mass(model) -> float:
    """The mass of the bodies a moving joint carries (not welded to the world)."""
    kinds = [JOINT_TYPE_NAMES[int(t)] for t in model.joint_type]
    moves = [False] * (model.nb + 1)
    for i in range(1, model.nb + 1):
        moves[i] = kinds[i] != "fixed" or moves[int(model.parent[i])]
    return float(sum(model.mass[i] for i in range(1, model.nb + 1) if moves[i]))


@pytest.mark.parametrize("name", robots.names())
def test_each_installed_robot_against_pinocchio(name):
    """Pinocchio's model of the same file (JointModelFreeFlyer for a floating robot) has
    the same nv and nq (Pinocchio: one more coordinate per continuous joint, (cos, sin);
    its mimic joints as eslabon's where it builds them, else as joints of their own), the
    same mass on moving joints (``computeTotalMass``, the universe's left out) and, on a
    floating base, both equal the sum of the file's ``<mass>`` entries."""
    pin = pytest.importorskip("pinocchio")
    _installed(name)
    r, model, path = robots.info(name), _load(name), str(robots.path(name))
    root = [pin.JointModelFreeFlyer()] if r.floating else []
    mimics = int(np.sum(model.mimic_joint >= 0))
    try:
        pmodel, extra = pin.buildModelFromUrdf(path, *root, mimic=bool(mimics)), 0
    except ValueError:  # e.g. a mimic joint whose joint Pinocchio cannot find in the tree
        pmodel, extra = pin.buildModelFromUrdf(path, *root), mimics
    continuous = sum(1 for j in pmodel.joints[1:] if (j.nq, j.nv) == (2, 1))
    assert (pmodel.nv, pmodel.nq) == (model.nv + extra, model.nq + extra + continuous)
    moving = _moving_mass(model)
    assert moving == pytest.approx(pin.computeTotalMass(pmodel), rel=1e-12)
    if r.floating:
        assert float(model.mass.sum()) == pytest.approx(moving, rel=1e-15)
        assert moving == pytest.approx(_file_mass(Path(path)), rel=1e-12)


def test_load_takes_another_end_effector_and_gravity():
    _installed("go2")
    model = _load("go2", ee="RR_foot", gravity=[0.0, 0.0, -1.62])
    assert model.frame("ee").body == model.frame("RR_foot").body
    np.testing.assert_array_equal(model.gravity, [0.0, 0.0, -1.62])


def test_names_are_forgiving_about_case_and_dashes():
    assert robots.info("Solo12") is robots.info("solo12")
    assert robots.info(" anymal-kinova ") is robots.info("anymal_kinova")


# --- bad input ----------------------------------------------------------------------------


def test_an_unknown_name_lists_the_close_ones_first_then_all():
    with pytest.raises(ValueError) as err:
        robots.load("sollo12")
    text = str(err.value)
    assert text.startswith("robots: unknown robot 'sollo12'; did you mean 'solo12'")
    listed = text.split("known robots: ", 1)[1].split(", ")
    close = text.split("did you mean ", 1)[1].split("?")[0].replace("'", "").split(", ")
    assert sorted(listed + close) == sorted(robots.names())


def test_an_unknown_name_with_nothing_close_lists_all():
    with pytest.raises(ValueError, match=r"^robots: unknown robot 'zzz'; known robots: panda, "):
        robots.load("zzz")


@pytest.mark.parametrize("bad", [3, None, b"solo12", ["solo12"]])
def test_a_name_that_is_not_a_string(bad):
    with pytest.raises(ValueError, match=r"^robots: name: expected a robot name \(a str\), got "):
        robots.load(bad)


def test_a_known_robot_whose_package_is_missing_names_the_install(monkeypatch):
    erd = sources.SOURCES[sources.EXAMPLE_ROBOT_DATA]
    monkeypatch.setitem(
        sources.SOURCES, sources.EXAMPLE_ROBOT_DATA,
        sources.Source(erd.package, erd.format, erd.readable, lambda: None),
    )  # fmt: skip
    assert robots.available() == ()
    with pytest.raises(ValueError) as err:
        robots.load("solo12")
    assert str(err.value) == (
        "robots: 'solo12' comes with the example-robot-data package, which is not installed "
        "here (pip install example-robot-data)"
    )


def test_an_older_package_without_the_file(monkeypatch, tmp_path):
    erd = sources.SOURCES[sources.EXAMPLE_ROBOT_DATA]
    monkeypatch.setitem(
        sources.SOURCES, sources.EXAMPLE_ROBOT_DATA,
        sources.Source(erd.package, erd.format, erd.readable, lambda: tmp_path),
    )  # fmt: skip
    with pytest.raises(ValueError, match=r"^robots: 'go2': the installed example-robot-data .* "
                       r"has no go2_description/urdf/go2.urdf \(another version"):  # fmt: skip
        robots.path("go2")


def test_names_not_offered_say_why():
    for name, why in robots.NOT_OFFERED.items():
        with pytest.raises(ValueError) as err:
            robots.load(name)
        assert str(err.value) == f"robots: {name!r} is not offered: {why}"


def test_a_menagerie_model_says_it_is_not_loaded_by_name_yet(monkeypatch):
    monkeypatch.setattr(sources.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ValueError) as err:
        robots.load("unitree_go2")
    assert str(err.value) == (
        "robots: 'unitree_go2' is the MuJoCo Menagerie model 'unitree_go2' (pip install "
        "mujoco-menagerie ships it), but eslabon does not load Menagerie models by name yet "
        "(give its MJCF file to es.load_model); "
        "example-robot-data's 'go2' is the same robot in URDF"
    )
    with pytest.raises(ValueError, match="'h1' is the MuJoCo Menagerie model 'unitree_h1' .*"
                       "robots.names\\(\\) lists the robots it loads by name$"):  # fmt: skip
        robots.load("h1")


def test_the_menagerie_packages_names_join_when_it_is_installed(monkeypatch):
    fake = type(sys)("mujoco_menagerie")
    fake.names = lambda: ["acme_walker"]
    monkeypatch.setitem(sys.modules, "mujoco_menagerie", fake)
    monkeypatch.setattr(sources, "menagerie_installed", lambda: True)
    monkeypatch.setattr("eslabon.robots.lookup.menagerie_installed", lambda: True)
    assert sources.menagerie_names() == ("acme_walker",)
    with pytest.raises(ValueError, match="^robots: 'walker' is the MuJoCo Menagerie model "
                       "'acme_walker': its pip package is installed here, but eslabon does "
                       "not load Menagerie models by name yet"):  # fmt: skip
        robots.load("walker")


def test_the_example_robot_data_folder_is_found_without_importing_it():
    root = sources.example_robot_data_root()
    if root is None:
        pytest.skip("example-robot-data is not installed")
    assert (root / "solo_description").is_dir() and root.name == "robots"
    assert "example_robot_data" not in sys.modules


def test_the_docs_list_every_robot_as_the_table_does():
    """docs/robots.md has one row per robot: name, category, base, nq, nv, ee."""
    rows = {}
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) >= 6 and cells[0] in robots.ROBOTS:
            rows[cells[0]] = cells[1:6]
    assert list(rows) == list(robots.names())
    for name, (category, base, nq, nv, ee) in rows.items():
        r = robots.info(name)
        assert (category, base, int(nq), int(nv), ee) == (
            r.category, "floating" if r.floating else "fixed", r.nq, r.nv, r.ee,
        )  # fmt: skip


def test_the_docs_example_runs():
    _installed("solo12")
    text = DOCS.read_text(encoding="utf-8")
    code = text.split("```python\n", 1)[1].split("```", 1)[0]
    space: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ImplausibleInertiaWarning)
        exec(compile(code, str(DOCS), "exec"), space)
    assert (space["solo"].nq, space["solo"].nv) == (19, 18)
    assert space["arm"].frame("ee").body == space["arm"].frame("tool0").body


def test_the_benchmark_takes_its_floating_robots_from_here(monkeypatch):
    from eslabon.bench._core import zoo_model

    _installed("solo12")
    model, label, note = zoo_model("erd:solo12")
    assert (label, note, model.nq, model.nv) == ("solo12", None, 19, 18)
    monkeypatch.setattr(robots, "available", lambda: ())
    assert zoo_model("erd:g1") == (
        None, "g1", "g1: example-robot-data is not installed (bench extra)"
    )  # fmt: skip


# --- command line -------------------------------------------------------------------------


def _cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "eslabon.cli.main", *args], capture_output=True, text=True
    )


def test_info_robots_lists_what_is_installed():
    res = _cli("info", "--robots")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    installed = robots.available()
    listed = [line.split()[0] for line in lines if line.startswith("  ")]
    assert listed == list(installed)
    if installed:
        assert lines[0] == f"{len(installed)} robots installed (eslabon.robots.load(name))"
        r = robots.info(installed[0])
        base = "floating" if r.floating else "fixed"
        assert lines[1].split() == [
            r.name, *r.category.split(), base, f"nq={r.nq}", f"nv={r.nv}", r.package
        ]  # fmt: skip
    assert lines[-1].startswith("MuJoCo Menagerie: ")
    data = json.loads(_cli("info", "--robots", "--json").stdout)
    assert [row["name"] for row in data["robots"]] == list(installed)


def test_info_robots_without_the_package_names_the_install(monkeypatch):
    from eslabon.cli.robot_list import robot_listing

    erd = sources.SOURCES[sources.EXAMPLE_ROBOT_DATA]
    monkeypatch.setitem(
        sources.SOURCES, sources.EXAMPLE_ROBOT_DATA,
        sources.Source(erd.package, erd.format, erd.readable, lambda: None),
    )  # fmt: skip
    monkeypatch.setattr(sources.importlib.util, "find_spec", lambda name: None)
    data, lines = robot_listing()
    assert data["robots"] == [] and data["not_installed"] == {
        "example-robot-data": list(robots.names())
    }
    assert lines == [
        f"not installed: {len(robots.names())} robots of example-robot-data (pip install "
        "example-robot-data): " + ", ".join(robots.names()),
        "MuJoCo Menagerie: not installed (pip install mujoco-menagerie); its MJCF models are "
        "not read by name yet",
    ]


def test_the_cli_takes_a_robot_by_name():
    _installed("solo12")
    data = json.loads(_cli("info", "robot:solo12", "--json").stdout)
    assert (data["nq"], data["dof"], data["q_names"][:1]) == (19, 18, ["root_joint.x"])
    _installed("go2")
    assert json.loads(_cli("info", "go2", "--opt", "ee=RR_foot", "--json").stdout)["dof"] == 18


@pytest.mark.parametrize(
    "args, line",
    [
        (["info", "robot:sollo12"], "error: robots: unknown robot 'sollo12'; did you mean "
                                    "'solo12'"),
        (["info", "solo12", "--robots"], "error: --robots: lists the installed robots; give "
                                         "no MODEL nor --list"),
        (["info", "go2", "--opt", "mass=3"], "error: --opt: mass: a robot by name takes "
                                             "ee=LINK only"),
        (["info", "robot:cassie"], "error: robots: 'cassie' is not offered: "),
    ],
)  # fmt: skip
def test_cli_bad_robot_input_is_one_line(args, line):
    res = _cli(*args)
    assert res.returncode == 2
    assert res.stderr.count("\n") == 1 and res.stderr.startswith(line), res.stderr
