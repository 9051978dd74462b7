"""The 3-D HTML viewer in a real browser (issue "See the robot"): headless Chromium opens
the pages as files. The UR5 of example-robot-data draws its seven Collada meshes, the
picture is not blank and changes along the scrubber, no console error; the seed-001
pendulum's "up" follows its gravity (−y); playback runs in real time within 5 %; a
mobile manipulator draws its platform, wheels and path; hovering a legend entry
highlights its curve. Skipped when Chromium, ChromeDriver or selenium is missing
(``.ci/run`` installs the Debian packages chromium and chromium-driver)."""

import io
import time

import numpy as np
import pytest

import eslabon as es
from checks import example_robot_data
from eslabon import viz

webdriver = pytest.importorskip("selenium.webdriver")
pytest.importorskip("PIL")
pytest.importorskip("trimesh")


def _open(browser, page):
    browser.get(page.as_uri())
    for _ in range(100):
        if browser.execute_script("return !!(window.eslabonViewer && window.eslabonViewer.ready)"):
            break
        time.sleep(0.05)
    return [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]


def _view(browser):
    """The 3-D canvas's pixels (grey levels)."""
    from PIL import Image
    from selenium.webdriver.common.by import By

    png = browser.find_element(By.CSS_SELECTOR, "#view canvas").screenshot_as_png
    return np.asarray(Image.open(io.BytesIO(png)).convert("L"), dtype=float)


_erd = example_robot_data


def test_a_urdf_arm_draws_its_meshes_and_moves(browser, tmp_path):
    ur5 = es.load_model(_erd("ur_description/urdf/ur5_robot.urdf"))
    traj = es.simulate(ur5, [0, -1.0, 1.0, 0, 0.5, 0], None, 1.0, 0.01)
    viewer = viz.Viewer(ur5, traj, title="UR5", autoplay=False)
    page = viewer.save(tmp_path / "ur5.html")
    assert any("triangles" in line for line in viewer.report)
    assert _open(browser, page) == []
    assert browser.execute_script("return window.eslabonViewer.meshCount") == 7
    browser.execute_script("window.eslabonViewer.setTime(0.0)")
    first = _view(browser)
    assert first.std() > 5  # not blank
    browser.execute_script("window.eslabonViewer.setTime(0.9)")
    later = _view(browser)
    assert np.abs(later - first).mean() > 0.5  # the arm moved on the picture
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_up_follows_gravity(browser, tmp_path):
    """Seed 001's pendulum falls along −y: "up" is +y and points up on the screen; the
    PUMA's is +z."""
    for name, up in (("practica_pendulum3", [0, 1, 0]), ("puma560", [0, 0, 1])):
        model = es.zoo.load(name)
        page = viz.Viewer(model, es.simulate(model, None, None, 0.2, 0.01)).save(
            tmp_path / f"{name}.html"
        )
        assert _open(browser, page) == []
        assert np.allclose(browser.execute_script("return window.eslabonViewer.up"), up)
        assert np.allclose(browser.execute_script("return window.eslabonViewer.cameraUp()"), up)
        dx, dy = browser.execute_script("return window.eslabonViewer.screenUp()")
        assert dy < -5 * abs(dx)  # "up" is drawn upwards (screen y grows down)


def test_playback_is_real_time(browser, tmp_path):
    model = es.zoo.load("planar2")
    traj = es.simulate(model, None, None, 30.0, 0.01)
    page = viz.Viewer(model, traj, autoplay=False).save(tmp_path / "long.html")
    assert _open(browser, page) == []
    browser.execute_script("window.eslabonViewer.setTime(0); window.eslabonViewer.play()")
    time.sleep(0.3)
    a = browser.execute_script("const v = window.eslabonViewer; return [v.clock().wall, v.time()]")
    time.sleep(1.5)
    b = browser.execute_script("const v = window.eslabonViewer; return [v.clock().wall, v.time()]")
    ratio = (b[1] - a[1]) / ((b[0] - a[0]) / 1000)
    assert 0.95 < ratio < 1.05, ratio
    browser.execute_script("window.eslabonViewer.setSpeed(2)")
    time.sleep(0.2)
    c = browser.execute_script("const v = window.eslabonViewer; return [v.clock().wall, v.time()]")
    time.sleep(1.0)
    d = browser.execute_script("const v = window.eslabonViewer; return [v.clock().wall, v.time()]")
    assert 1.9 < (d[1] - c[1]) / ((d[0] - c[0]) / 1000) < 2.1


def test_a_mobile_manipulator_and_two_runs(browser, tmp_path):
    from eslabon import mobile as mb

    cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"), mb.Mount.araujo_assumed())
    load = dict(u=[150.0, 0.3], torque=[6, 50, 10, -0.1, -0.5, -0.1], nu0=[1.0, 0.0])
    run = mb.simulate(mm, None, None, 1.0, 0.01, integrator="rk4", **load)
    thesis = mb.simulate(mm.with_mode("thesis"), None, None, 1.0, 0.01, integrator="rk4", **load)
    viewer = viz.Viewer(autoplay=False).add_mobile(mm, run)
    viewer.add_mobile(mm.with_mode("thesis"), thesis, opacity=0.4)
    data = viewer.data()
    assert [r["name"] for r in data["robots"]] == [
        "mobile_manipulator (coupled)",
        "mobile_manipulator (thesis)",
    ]
    names = [c["name"] for c in data["curves"][: len(data["curves"]) // 2]]
    assert names[:4] == ["x", "y", "heading", "steering"] and names[-1] == "q6"
    assert not any(c["visible"] for c in data["curves"] if c["name"].startswith("phi"))
    assert all("path" in r for r in data["robots"])
    page = viewer.save(tmp_path / "mobile.html")
    assert _open(browser, page) == []
    first = _view(browser)
    browser.execute_script("window.eslabonViewer.setTime(1.0)")
    assert np.abs(_view(browser) - first).mean() > 0.5
    width = browser.execute_script(
        "window.eslabonViewer.highlight(2);"
        "return document.querySelectorAll('#plot polyline')[2].getAttribute('stroke-width')"
    )
    assert float(width) > 3


def test_bad_input_is_named(tmp_path):
    model = es.zoo.load("planar2")
    traj = es.simulate(model, None, None, 0.1, 0.01)
    with pytest.raises(
        ValueError, match=r"traj.q: expected 6 columns \(model puma560.s coordinates\), got 2"
    ):
        viz.Viewer(es.zoo.load("puma560"), traj)
    with pytest.raises(ValueError, match="opacity"):
        viz.Viewer(model, traj, opacity=0.0)
    with pytest.raises(ValueError, match="path: expected a .html"):
        viz.Viewer(model, traj).save(tmp_path / "x.png")
    with pytest.raises(ValueError, match="no robot"):
        viz.Viewer().html()


def test_urdf_visuals_colours_scales_and_packages(tmp_path):
    """Boxes, cylinders, spheres and meshes with their material colours (in place or by
    name); a mesh's ``scale``; ``package://`` through ``package_dirs``; a missing package
    named in the error; a generated geometry for a model without visuals."""
    import base64

    import trimesh

    pkg = tmp_path / "pkgs" / "my_robot" / "meshes"
    pkg.mkdir(parents=True)
    trimesh.creation.box(extents=(100.0, 100.0, 100.0)).export(pkg / "cube.stl")
    urdf = tmp_path / "r.urdf"
    urdf.write_text(
        """<robot name="r"><material name="blue"><color rgba="0 0 1 1"/></material>
        <link name="base"><visual><geometry><cylinder radius="0.1" length="0.2"/></geometry>
          <material name="blue"/></visual></link>
        <link name="arm"><inertial><mass value="1"/>
          <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
          <visual><geometry><mesh filename="package://my_robot/meshes/cube.stl"
            scale="0.001 0.001 0.001"/></geometry>
            <material name="red"><color rgba="1 0 0 1"/></material></visual>
          <visual><geometry><sphere radius="0.05"/></geometry></visual></link>
        <joint name="j" type="revolute"><parent link="base"/><child link="arm"/>
          <axis xyz="0 0 1"/></joint></robot>"""
    )
    model = es.load_model(urdf)
    traj = es.simulate(model, None, None, 0.05, 0.01)
    data = viz.Viewer(model, traj, package_dirs=[tmp_path / "pkgs"]).data()
    parts = data["robots"][0]["parts"]
    assert [p["kind"] for p in parts[0]] == ["cylinder"] and parts[0][0]["color"] == "#0000ff"
    assert [p["kind"] for p in parts[1]] == ["mesh", "sphere"]
    assert parts[1][0]["color"] == "#ff0000"
    xyz = np.frombuffer(base64.b64decode(data["meshes"][0]["positions"]), "<f4").reshape(-1, 3)
    T = np.reshape(parts[1][0]["T"], (4, 4)).T  # the mesh is stored once, its scale in T
    placed = xyz @ T[:3, :3].T + T[:3, 3]
    assert np.isclose(np.abs(placed - T[:3, 3]).max(), 0.05)  # 100 mm cube scaled to metres
    with pytest.raises(ValueError, match="package 'my_robot' not found"):
        viz.Viewer(model, traj)
    bare = es.zoo.load("puma560")
    kinds = {
        p["kind"]
        for ps in viz.Viewer(bare, es.simulate(bare, None, None, 0.02, 0.01)).data()["robots"][0][
            "parts"
        ]
        for p in ps
    }
    assert kinds == {"cylinder", "capsule"}
