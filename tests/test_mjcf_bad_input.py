"""Bad MJCF input: what MuJoCo refuses (its message, the file and the line), what MuJoCo
accepts but eslabon cannot represent (the element named, and why), and MuJoCo not
installed (the extra to install); each as one line through the CLI."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import eslabon as es

pytest.importorskip("mujoco")

from eslabon.model.mjcf import MjcfWarning, read_mjcf  # noqa: E402

DATA = Path(__file__).parent / "data" / "mjcf"

HINGES = """<mujoco><worldbody>
  <body name="a"><joint name="ja" type="{ta}"/><geom size="0.1"/>
    <body name="b" pos="0.3 0 0"><joint name="jb" type="{tb}"/><geom size="0.1"/></body>
  </body></worldbody>
  <equality>{eq}</equality>
</mujoco>"""

UNREPRESENTABLE = {
    "nonlinear": (
        HINGES.format(ta="hinge", tb="hinge",
                      eq='<joint name="e" joint1="jb" joint2="ja" polycoef="0 1 0.5 0 0"/>'),
        r"equality joint 'e': polycoef \[0\.0, 1\.0, 0\.5, 0\.0, 0\.0\] is not linear",
    ),
    "locked": (
        HINGES.format(ta="hinge", tb="hinge", eq='<joint name="e" joint1="jb"/>'),
        r"equality joint 'e': holds joint 'jb' at a constant",
    ),
    "mixed_mimic": (
        HINGES.format(ta="hinge", tb="slide", eq='<joint name="e" joint1="jb" joint2="ja"/>'),
        r"equality joint 'e': couples a slide joint 'jb' to a hinge joint 'ja'",
    ),
    "tendon_of_three": (
        """<mujoco><worldbody><body name="a"><joint name="j1"/><geom size="0.1"/>
        <body name="b"><joint name="j2"/><geom size="0.1"/>
        <body name="c"><joint name="j3"/><geom size="0.1"/></body></body></body></worldbody>
        <tendon><fixed name="t"><joint joint="j1" coef="1"/><joint joint="j2" coef="1"/>
        <joint joint="j3" coef="1"/></fixed></tendon>
        <equality><tendon name="e" tendon1="t"/></equality></mujoco>""",
        r"equality tendon 'e': holds a fixed tendon of 3 joints; eslabon represents a tendon "
        r"equality only as a mimic joint",
    ),
    "free_frictionloss": (
        """<mujoco><worldbody><body name="a"><joint name="f" type="free" frictionloss="1"/>
        <geom size="0.1"/></body></worldbody></mujoco>""",
        r"joint 'f': frictionloss on a free joint acts on its world-axis velocities",
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(UNREPRESENTABLE))
def test_accepted_by_mujoco_but_not_representable(tmp_path, case):
    text, message = UNREPRESENTABLE[case]
    path = tmp_path / f"{case}.xml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=f"^{path}: {message}"):
        read_mjcf(path)
    with pytest.raises(ValueError, match=f"^MJCF text: {message}"):
        read_mjcf(text)


REFUSED = {
    "zero_axis": (
        '<mujoco>\n<worldbody>\n<body name="b">\n<joint axis="0 0 0"/>\n<geom size="0.1"/>\n'
        "</body></worldbody></mujoco>",
        r"MuJoCo refuses it: Error: axis too small in joint; .*line 4$",
    ),
    "unknown_element": (
        '<mujoco>\n<worldbody>\n<body name="b">\n<jont type="hinge"/>\n'
        "</body></worldbody></mujoco>",
        r"MuJoCo refuses it: XML Error: Schema violation: unrecognized element; "
        r"Element 'jont', line 4$",
    ),
    "nested_free": (
        '<mujoco><worldbody><body name="a"><joint/><geom size="0.1"/>\n'
        '<body name="b"><freejoint/><geom size="0.1"/></body></body></worldbody></mujoco>',
        r"MuJoCo refuses it: Error: free joint can only be used on top level; .*line 2$",
    ),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_by_mujoco(tmp_path, case):
    text, message = REFUSED[case]
    path = tmp_path / f"{case}.xml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=f"^{path}: {message}") as caught:
        es.load_model(path)
    assert "\n" not in str(caught.value)


def test_no_such_file_and_urdf_options(tmp_path):
    with pytest.raises(ValueError, match="no such model file"):
        es.load_model(tmp_path / "missing.xml")
    with pytest.raises(ValueError, match="no such MJCF file"):
        read_mjcf(tmp_path / "missing.xml")
    with pytest.raises(ValueError, match="root_joint: applies to URDF files only"):
        es.load_model(DATA / "pair.xml", root_joint="free_flyer")


def test_mujoco_not_installed(monkeypatch):
    monkeypatch.setitem(sys.modules, "mujoco", None)  # import mujoco raises ImportError
    with pytest.raises(ValueError, match=r"pip install 'eslabon\[mjcf\]'"):
        es.load_model(DATA / "pair.xml")


def _cli(args, block_mujoco=False):
    code = (
        "import sys; sys.modules['mujoco'] = None; " if block_mujoco else "import sys; "
    ) + "from eslabon.cli.main import run; sys.argv = ['eslabon', *sys.argv[1:]]; run()"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True)


@pytest.mark.parametrize("case", ["nonlinear", "zero_axis", "no_mujoco"])
def test_cli_one_line(tmp_path, case):
    text = {**UNREPRESENTABLE, **REFUSED}.get(case, (None, None))[0]
    path = tmp_path / "m.xml"
    if text is None:
        path = DATA / "pair.xml"
    else:
        path.write_text(text, encoding="utf-8")
    res = _cli(["info", str(path)], block_mujoco=case == "no_mujoco")
    assert res.returncode == 2, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and str(path) in lines[0]
    assert "Traceback" not in res.stderr


def test_warning_lists_each_kind_once():
    """The gymnasium-style ant: contacts, limits and actuators in one warning."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        read_mjcf(
            """<mujoco><worldbody><body name="a"><freejoint/><geom size="0.1"/>
            <body name="b"><joint name="j" range="-1 1" limited="true"/><geom size="0.1"/>
            </body></body></worldbody><actuator><motor name="m" joint="j"/></actuator>
            </mujoco>"""
        )
    ours = [w for w in caught if issubclass(w.category, MjcfWarning)]
    assert len(ours) == 1
    text = str(ours[0].message)
    assert "contacts (2 colliding geoms" in text
    assert "joint limits of 1 joints" in text and "actuators 1 (m)" in text
    assert "armature" not in text


@pytest.mark.skipif(
    not hasattr(pytest.importorskip("mujoco").MjModel, "actuator_armature"),
    reason="actuator armature is MuJoCo 4's",
)
def test_actuator_armature_is_named():
    """MuJoCo 4 adds an actuator's armature to its M: named in the warning."""
    with pytest.warns(MjcfWarning, match="actuator armature"):
        read_mjcf(
            """<mujoco><worldbody><body><joint name="j"/><geom size="0.1"/></body>
            </worldbody><actuator><motor joint="j" armature="0.3"/></actuator></mujoco>"""
        )


_THREE_HINGES = (
    '<mujoco><worldbody><body name="a"><joint name="ja"/><geom size="0.1"/>'
    '<body name="b" pos="0 0 -0.3"><joint name="jb"/><geom size="0.1"/>'
    '<body name="c" pos="0 0 -0.3"><joint name="jc"/><geom size="0.1"/>'
    "</body></body></body></worldbody><equality>{}</equality></mujoco>"
)


@pytest.mark.parametrize(
    "equalities, message",
    [
        (
            '<joint joint1="jc" joint2="jb" polycoef="0 2 0 0 0"/>'
            '<joint joint1="jc" joint2="ja" polycoef="0 3 0 0 0"/>',
            r"joint 'jc' is already coupled by .*one coupling per joint",
        ),
        (
            '<joint joint1="jc" joint2="jb" polycoef="0 2 0 0 0"/>'
            '<joint joint1="jb" joint2="ja" polycoef="0 3 0 0 0"/>',
            r"couples joint 'jc' to 'jb', which itself copies another joint .*chains",
        ),
    ],
)
def test_a_joint_coupled_twice_or_through_a_chain_is_refused(tmp_path, equalities, message):
    """Two equalities on one joint, or one on a joint that copies another: refused by
    name, not read as the last one alone."""
    path = tmp_path / "coupled.xml"
    path.write_text(_THREE_HINGES.format(equalities), encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        es.load_model(path)
