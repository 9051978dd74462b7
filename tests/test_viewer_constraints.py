"""Constrained runs in the 3-D viewer: the page of a model with loop closures, contacts or
rolling wheels carries their marks (each loop's two frame origins per sample, equal to
``frame_pose`` there; each contact's world point; each wheel's contact point) and the
run's residual and energy; a constraint's name is escaped like a robot's; a tree's page
is what the template and viewer.js alone give, with no constraint data. ``eslabon
simulate`` of a linkage keeps its constraints, ``eslabon view`` draws the saved run; in
headless Chromium the marks sit where the data says and hostile constraint names show as
text without running (skipped without a browser)."""

import base64
import json
import re
import time
import types

import numpy as np
import pytest

import eslabon as es
import eslabon.constraints as ec
from eslabon import viz
from eslabon.kinematics import frame_pose
from eslabon.viz import viewer as viewer_module

DATA_LINE = re.compile(r"^const DATA = (.*);$", re.M)
EVIL = "</script><script>alert(1)</script>"


def _scene(page):
    """The scene JSON of a page, read back from its ``const DATA = …;`` line."""
    lines = DATA_LINE.findall(page)
    assert len(lines) == 1
    assert not set(lines[0]) & set("<>&\u2028\u2029"), "unescaped in the scene JSON"
    return json.loads(lines[0])


def _xyz(text):
    return np.frombuffer(base64.b64decode(text), "<f4").reshape(-1, 3)


def _samples(traj, max_frames):
    """The samples a viewer keeps (as Viewer.add picks them)."""
    K = len(traj.t)
    return np.unique(np.linspace(0, K - 1, min(K, max_frames)).astype(int))


@pytest.fixture(scope="module")
def four_bar_run():
    bar = es.zoo.load("four_bar")
    return bar, es.simulate(bar, None, None, 1.0, 0.01)


@pytest.mark.parametrize("name, max_frames", [("four_bar", 600), ("delta", 17)])
def test_loop_marks_are_the_frames_world_origins(name, max_frames, four_bar_run):
    model, traj = four_bar_run if name == "four_bar" else (es.zoo.load(name), None)
    if traj is None:
        traj = es.simulate(model, None, None, 1.0, 0.01)
    page = viz.Viewer(model, traj, max_frames=max_frames, autoplay=False).html()
    robot = _scene(page)["robots"][0]
    idx = _samples(traj, max_frames)
    assert robot["t"] == np.round(traj.t[idx], 9).tolist()
    loops = robot["constraints"]["loops"]
    assert [lp["name"] for lp in loops] == [c.name for c in model.constraints]
    assert robot["constraints"]["contacts"] == [] and robot["constraints"]["wheels"] == []
    for lp, c in zip(loops, model.constraints, strict=True):
        a, b = _xyz(lp["a"]), _xyz(lp["b"])
        assert a.shape == b.shape == (len(idx), 3)
        want_a = frame_pose(model, traj.q[idx], c.frame_a)[:, :3, 3]
        want_b = frame_pose(model, traj.q[idx], c.frame_b)[:, :3, 3]
        assert np.allclose(a, want_a, atol=1e-5) and np.allclose(b, want_b, atol=1e-5)
        assert np.ptp(b, axis=0).max() > 0.01 or name == "four_bar"  # delta's balls move
        assert np.abs(a - b).max() < 1e-4  # on the manifold the two ends meet
    assert "constraint-key" in page and "scene.onBeforeRender" in page


def test_loop_marks_off_the_manifold_show_the_gap():
    """Configurations off the loop (not assembled): each end is its own frame's origin,
    and the two ends are apart, as the page's line between them shows."""
    bar = es.zoo.load("four_bar")
    q = np.random.default_rng(3).uniform(-1.0, 1.0, (6, bar.nq))
    traj = types.SimpleNamespace(t=np.linspace(0.0, 0.5, 6), q=q)
    (loop,) = viz.Viewer(bar, traj).data()["robots"][0]["constraints"]["loops"]
    a, b = _xyz(loop["a"]), _xyz(loop["b"])
    assert np.allclose(a, frame_pose(bar, q, "ground_pivot")[:, :3, 3], atol=1e-6)
    assert np.allclose(b, frame_pose(bar, q, "rocker_end")[:, :3, 3], atol=1e-6)
    assert np.linalg.norm(a - b, axis=1).min() > 0.05


def test_residual_and_energy_curves(four_bar_run):
    bar, traj = four_bar_run
    robot = viz.Viewer(bar, traj, max_frames=40).data()["robots"][0]
    idx = _samples(traj, 40)
    panel = robot["constraint_curves"]
    assert panel["t"] == robot["t"]
    (res, energy) = panel["curves"]
    assert (res["name"], res["unit"], energy["name"], energy["unit"]) == (
        "residual ‖φ‖∞", "m, rad", "energy T + V", "J")  # fmt: skip
    assert np.allclose(res["values"], traj.constraint_residual[idx], rtol=1e-5, atol=0)
    assert np.allclose(energy["values"], traj.energy[idx], rtol=1e-5, atol=0)
    assert max(res["values"]) > 0  # kept to 6 significant digits, not rounded to 0
    # the joint curves are the coordinates only, as for any model
    assert [c["name"] for c in viz.Viewer(bar, traj).data()["curves"]] == list(bar.q_names)


def test_contacts_and_wheels_are_marked():
    """planar2 with a contact of its ee at a fixed point (normal along the pose's z) and
    a wheel on its second body: the contact's point and normal as given, the wheel's
    contact point ``radius`` below the wheel's centre."""
    arm = es.zoo.load("planar2")
    R = np.array([[1.0, 0, 0], [0, 0, -1], [0, 1, 0]])  # z of the contact pose along -y
    model = arm.replace(constraints=(
        ec.Contact("dock", "ee", ["x"], position=[1.8, 0.0, 0.0], rotation=R),
        ec.RollingWheel("w", "dh1", 0.1, axis=(0, 0, 1)),
    ))  # fmt: skip
    q = np.array([[0.0, 0.0], [0.3, -0.2], [0.6, 0.1]])
    traj = types.SimpleNamespace(t=np.array([0.0, 0.1, 0.2]), q=q)
    marks = _scene(viz.Viewer(model, traj).html())["robots"][0]["constraints"]
    assert marks["loops"] == []
    assert marks["contacts"] == [{"name": "dock", "frame": "ee", "position": [1.8, 0.0, 0.0],
                                  "normal": [0.0, -1.0, 0.0]}]  # fmt: skip
    (wheel,) = marks["wheels"]
    assert (wheel["name"], wheel["frame"]) == ("w", "dh1")
    centre = frame_pose(model, q, "dh1")[:, :3, 3]
    assert np.allclose(_xyz(wheel["points"]), centre - [0.0, 0.0, 0.1], atol=1e-6)
    assert np.ptp(_xyz(wheel["points"]), axis=0).max() > 0.1  # it follows the body
    assert marks["colors"]["loop"] not in (marks["colors"]["contact"], marks["colors"]["wheel"])


def test_a_hostile_constraint_name_is_escaped(tmp_path):
    arm = es.zoo.load("planar2")
    model = arm.replace(constraints=(
        ec.Contact(EVIL, "ee", ["y"], position=[1.8, 0.0, 0.0]),
        ec.LoopClosure("&<!--" + EVIL, "dh0", "ee", ["x"]),
    ))  # fmt: skip
    traj = types.SimpleNamespace(t=np.array([0.0, 0.1]), q=np.zeros((2, 2)))
    viewer = viz.Viewer(model, traj, autoplay=False)
    page = viewer.html()
    assert page.lower().count("<script") == 2 and page.lower().count("</script") == 2
    assert "<!--" not in page and "alert(1)</script>" not in page
    marks = _scene(page)["robots"][0]["constraints"]
    assert [c["name"] for c in marks["contacts"]] == [EVIL]
    assert [c["name"] for c in marks["loops"]] == ["&<!--" + EVIL]
    assert "\\u003c/script\\u003e\\u003cscript\\u003ealert(1)" in page
    assert viewer.save(tmp_path / "evil.html").read_text(encoding="utf-8") == page


def test_the_constraint_script_sets_names_as_text_only():
    js = viewer_module._asset("constraints.js")
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
        assert sink not in js, sink
    assert "textContent" in js and "createTextNode" in js
    assert not re.search(r"</script|<!--", viewer_module._inline_script(js), re.I)


def test_a_tree_page_is_unchanged():
    """A tree's run: no constraint data, no constraint script; the page is the template
    filled with viewer.js alone, as before constraints were drawn."""
    arm = es.zoo.load("planar2")
    traj = es.simulate(arm, None, None, 0.2, 0.01)
    viewer = viz.Viewer(arm, traj, title="plain")
    page = viewer.html()
    data = _scene(page)
    (robot,) = data["robots"]
    assert set(robot) == {"name", "t", "parts", "positions", "quaternions", "opacity",
                          "color", "dash"}  # fmt: skip
    a = viewer_module
    assert page == a._fill_page(
        a._asset("viewer.html"),
        TITLE="plain",
        THREE=a._inline_script(a._asset("three-eslabon.min.js")),
        DATA=a._script_json(viewer.data()),
        SCRIPT=a._inline_script(a._asset("viewer.js")),
    )
    assert "constraint" not in page.split("const DATA = ", 1)[1]


def test_generated_links_reach_the_loop_frames(four_bar_run):
    """The rocker is drawn to its pin (rocker_end) and the ground link to the ground
    pivot, which the joints alone would not reach."""
    bar, traj = four_bar_run
    parts = viz.Viewer(bar, traj).data()["robots"][0]["parts"]
    for frame in ("rocker_end", "ground_pivot"):
        fr = bar.frame(frame)
        ends = [p["to"] for p in parts[fr.body] if p["kind"] == "capsule"]
        assert any(np.allclose(e, fr.translation) for e in ends), (frame, ends)


def test_cli_simulates_under_the_constraints_and_views_the_npz(tmp_path, capsys):
    from eslabon.cli.main import main
    from eslabon.sim import Trajectory

    run, page = tmp_path / "bar.npz", tmp_path / "bar.html"
    code = main(["simulate", "four_bar", "--t-final", "0.3", "--dt", "0.01",
                 "--out", str(run)])  # fmt: skip
    assert code in (0, None), capsys.readouterr()
    traj = Trajectory.load(run)
    assert traj.constraint_names == ("pin.x", "pin.y") and traj.constraint_residual.max() < 1e-6
    assert main(["view", str(run), "--model", "four_bar", "--out", str(page)]) in (0, None)
    robot = _scene(page.read_text(encoding="utf-8"))["robots"][0]
    assert [lp["name"] for lp in robot["constraints"]["loops"]] == ["pin"]
    assert np.allclose(robot["constraint_curves"]["curves"][1]["values"],
                       traj.energy, rtol=1e-5)  # fmt: skip
    # without --q0 a linkage whose neutral configuration is off its loops is assembled
    squeezer = tmp_path / "andrews.npz"
    code = main(["simulate", "andrews_squeezer", "--t-final", "0.002", "--dt", "0.0005",
                 "--out", str(squeezer)])  # fmt: skip
    assert code in (0, None), capsys.readouterr()
    assert Trajectory.load(squeezer).constraint_residual[0] < 1e-9


# --- in a browser -----------------------------------------------------------------------


def test_marks_in_a_browser(browser, tmp_path, four_bar_run):
    """No console error; the marks sit at the data's positions of the current sample;
    the key names the loop; the panel switches from the residual to the energy."""
    bar, traj = four_bar_run
    viewer = viz.Viewer(bar, traj, autoplay=False)
    robot = viewer.data()["robots"][0]
    a, b = _xyz(robot["constraints"]["loops"][0]["a"]), _xyz(robot["constraints"]["loops"][0]["b"])
    page = viewer.save(tmp_path / "bar.html")
    browser.get(page.as_uri())
    for _ in range(100):
        if browser.execute_script("return !!(window.eslabonViewer && window.eslabonViewer.ready)"):
            break
        time.sleep(0.05)
    v = "window.eslabonViewer"
    assert browser.execute_script(f"return {v}.constraintMarks") == 1
    for k in (0, 37, len(robot["t"]) - 1):
        browser.execute_script(f"{v}.setTime({robot['t'][k]})")
        time.sleep(0.1)  # the next animation frame places the marks
        (placed,) = browser.execute_script(f"return {v}.markPositions()")
        assert np.allclose(placed["loops"][0], [a[k], b[k]], atol=1e-6), k
    key = browser.execute_script("return document.getElementById('constraint-key').textContent")
    assert "loop pin" in key
    assert browser.execute_script(f"return {v}.constraintCurve()") == "residual ‖φ‖∞"
    assert browser.execute_script(f"return {v}.constraintCurve('energy T + V')") == "energy T + V"
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_hostile_constraint_names_in_a_browser(browser, tmp_path):
    """A contact and a loop named with markup: no handler runs, the key shows the names
    as text, no image is made."""
    pwn = "window.__pwned=1"
    names = [f"</script><script>{pwn}</script>", f"<img src=x onerror={pwn}>"]
    arm = es.zoo.load("planar2")
    model = arm.replace(constraints=(
        ec.Contact(names[0], "ee", ["y"], position=[1.8, 0.0, 0.0]),
        ec.LoopClosure(names[1], "dh0", "ee", ["x"]),
    ))  # fmt: skip
    traj = types.SimpleNamespace(t=np.array([0.0, 0.1]), q=np.zeros((2, 2)))
    page = viz.Viewer(model, traj, autoplay=False, title=names[1]).save(tmp_path / "evil.html")
    browser.get(page.as_uri())
    for _ in range(100):
        if browser.execute_script("return !!(window.eslabonViewer && window.eslabonViewer.ready)"):
            break
        time.sleep(0.05)
    time.sleep(0.2)  # an onerror of a broken image would have run by now
    assert browser.execute_script("return window.__pwned === undefined")
    assert browser.execute_script("return document.images.length") == 0
    rows = browser.execute_script(
        "return Array.from(document.querySelectorAll('#constraint-key > div'))"
        ".map((e) => e.textContent)"
    )
    assert rows == [f"● loop {names[1]}", f"● contact {names[0]}"]
    assert browser.execute_script("return window.eslabonViewer.constraintMarks") == 2
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
