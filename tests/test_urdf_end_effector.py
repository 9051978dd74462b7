"""Which link of a URDF is the end effector ``ee``: the URDF's tool frame (``tool0``,
``ee_link``, …) where it has one, else its last link, or the link named with ``ee=``;
the rule that applied is in ``UrdfInfo.ee_rule`` and the model's ``source``, which
``eslabon info`` prints."""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest

import eslabon as es
from eslabon.model.urdf import TOOL_FRAMES, read_urdf

INERTIAL = """<inertial><mass value="1.0"/><origin xyz="0.1 0 0"/>
<inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>"""


def _arm(tool: str | None = "tool0") -> str:
    tool_xml = (
        f"""<link name="{tool}"/>
<joint name="tool_joint" type="fixed"><parent link="link2"/><child link="{tool}"/>
<origin xyz="0 0 0.082" rpy="0 0 1.5707963267948966"/></joint>"""
        if tool
        else ""
    )
    return f"""<robot name="arm">
<link name="base"/>
<link name="link1">{INERTIAL}</link>
<link name="link2">{INERTIAL}</link>
<joint name="j1" type="revolute"><parent link="base"/><child link="link1"/>
<axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
<joint name="j2" type="revolute"><parent link="link1"/><child link="link2"/>
<origin xyz="0.3 0 0"/><axis xyz="0 1 0"/>
<limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
{tool_xml}
</robot>"""


@pytest.mark.parametrize("tool", TOOL_FRAMES)
def test_the_tool_frame_is_the_end_effector(tool):
    model, info = read_urdf(_arm(tool))
    assert info.ee == tool and tool in info.ee_rule
    assert es.model.urdf.end_effector_rule(model).startswith(f"{tool!r}, the URDF's tool frame")
    q = np.array([0.4, -0.7])
    np.testing.assert_allclose(
        es.kinematics.frame_pose(model, q, "ee"), es.kinematics.frame_pose(model, q, tool)
    )
    link2 = es.kinematics.frame_pose(model, q, "link2")
    assert np.linalg.norm(es.end_effector_pose(model, q)[:3, 3] - link2[:3, 3]) == pytest.approx(
        0.082
    )


def test_without_a_tool_frame_the_last_link_and_a_choice():
    model, info = read_urdf(_arm(None))
    assert info.ee == "link2" and "the last link 'link2'" in info.ee_rule and "ee=" in info.ee_rule
    chosen, info = read_urdf(_arm("tool0"), ee="link1")
    assert info.ee == "link1" and "chosen with ee=" in info.ee_rule
    assert es.model.urdf.end_effector_rule(chosen) == "'link1'"
    assert "the last link 'link2'" in es.model.urdf.end_effector_rule(model)
    q = np.array([0.4, -0.7])
    np.testing.assert_allclose(
        es.end_effector_pose(chosen, q), es.kinematics.frame_pose(chosen, q, "link1")
    )


def test_an_unknown_ee_is_refused_naming_the_links(tmp_path):
    with pytest.raises(ValueError, match=r"ee: expected a link of .*'link1'.*got 'hand'"):
        read_urdf(_arm(), ee="hand")
    yaml = tmp_path / "arm.yaml"
    es.model.save_model(es.zoo.load("planar2"), yaml)
    with pytest.raises(ValueError, match="ee: applies to URDF files only"):
        es.load_model(yaml, ee="link1")


def test_the_ur5_of_example_robot_data_ends_at_tool0():
    """The UR5's last moving link is wrist_3_link; its tool0 is 8.23 cm further out, the
    frame other libraries use as the tool."""
    path = next(
        (
            p
            for base in map(__import__("pathlib").Path, sys.path)
            for p in [
                base
                / "cmeel.prefix/share/example-robot-data/robots/ur_description/urdf/ur5_robot.urdf"
            ]
            if p.is_file()
        ),
        None,
    )
    if path is None:
        pytest.skip("example-robot-data is not installed")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model, info = read_urdf(path)
    assert info.ee == "tool0"
    q = np.zeros(6)
    wrist = es.kinematics.frame_pose(model, q, "wrist_3_link")
    gap = np.linalg.norm(es.end_effector_pose(model, q)[:3, 3] - wrist[:3, 3])
    assert gap == pytest.approx(0.0823, abs=1e-4)


def test_eslabon_info_prints_the_rule_and_takes_ee(tmp_path):
    path = tmp_path / "arm.urdf"
    path.write_text(_arm())
    run = [sys.executable, "-m", "eslabon.cli.main", "info", str(path)]
    res = subprocess.run(run, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0 and "ee       'tool0', the URDF's tool frame" in res.stdout
    # a link chosen with ee= is reported as chosen, even the last link of a file that has a
    # tool frame (it once read "the last link (no tool frame …)")
    for link in ("link1", "link2"):
        res = subprocess.run(
            run + ["--opt", f"ee={link}"], capture_output=True, text=True, timeout=300
        )
        assert res.returncode == 0
        assert f"ee       link '{link}' (chosen with ee=)" in res.stdout
    res = subprocess.run(
        run + ["--opt", "payload_mass=3"], capture_output=True, text=True, timeout=300
    )
    lines = res.stderr.strip().splitlines()
    assert res.returncode == 2 and len(lines) == 1 and "a URDF file takes ee=LINK" in lines[0]


def test_a_urdf_without_moving_bodies_places_ee_at_the_named_link():
    """The rule named the last link while ee stayed at the world origin (found while
    documenting): with no moving body, ee is where that link is."""
    from eslabon.model.urdf import read_urdf

    urdf = """<robot name="stand"><link name="base"/><link name="flange"/>
      <joint name="j" type="fixed"><parent link="base"/><child link="flange"/>
      <origin xyz="0 0 1"/></joint></robot>"""
    model, info = read_urdf(urdf)
    assert info.ee == "flange"
    np.testing.assert_array_equal(model.frame("ee").translation, [0.0, 0.0, 1.0])
