"""The viewer page in a real browser (issue 45): the canvas fills the window and
follows its size; the camera follows a floating base (on by default, a box in the page
turns it off); the coordinates are named by joint (``root_joint.qx``, not an index);
the legend of a humanoid fits (in columns, scrolling, nothing past the window or its
box). Headless Chromium, skipped without it (tests/conftest.py)."""

import re
import time
from types import SimpleNamespace

import numpy as np
import pytest

import eslabon as es
from checks import example_robot_data
from eslabon import viz

pytest.importorskip("selenium.webdriver")

FLOATING = """<robot name="skid">
<link name="base"><inertial><mass value="2"/>
  <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
  <visual><geometry><box size="0.4 0.2 0.1"/></geometry></visual></link>
<link name="mast"><inertial><mass value="1"/>
  <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
  <visual><origin xyz="0 0 0.15"/><geometry><cylinder radius="0.03" length="0.3"/></geometry>
  </visual></link>
<joint name="mast_joint" type="revolute"><parent link="base"/><child link="mast"/>
  <axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
</robot>"""


def _open(browser, page):
    browser.get(page.as_uri())
    for _ in range(200):
        if browser.execute_script("return !!(window.eslabonViewer && window.eslabonViewer.ready)"):
            break
        time.sleep(0.05)
    time.sleep(0.3)  # the resize observer's first call
    return [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]


def _size(browser, width, height):
    browser.set_window_size(width, height)
    time.sleep(0.5)


def _floating_page(tmp_path, **options):
    """A box with a mast on a free flyer, driven 3 m along x in 2 s."""
    (tmp_path / "skid.urdf").write_text(FLOATING)
    model = es.load_model(tmp_path / "skid.urdf", root_joint="free_flyer")
    t = np.linspace(0.0, 2.0, 101)
    q = np.tile(es.neutral(model), (len(t), 1))
    q[:, 0] = 1.5 * t
    q[:, 7] = t
    return model, viz.Viewer(model, SimpleNamespace(t=t, q=q), autoplay=False, **options)


def test_the_canvas_fills_the_window_and_follows_its_size(browser, tmp_path):
    model = es.zoo.load("puma560")
    page = viz.Viewer(model, es.simulate(model, None, None, 0.2, 0.01), autoplay=False).save(
        tmp_path / "puma.html"
    )
    try:
        for width, height in ((1280, 720), (1000, 800), (1400, 600), (700, 900)):
            _size(browser, width, height)
            if width == 1280:
                assert _open(browser, page) == []
            inner = browser.execute_script("return [window.innerWidth, window.innerHeight]")
            v = browser.execute_script("return window.eslabonViewer.viewSize()")
            c = browser.execute_script("return window.eslabonViewer.canvasSize()")
            assert c == v, (width, height, c, v)  # the canvas takes the view's whole box
            if width >= 900:  # beside the plot: the window's height, most of its width
                assert v[0] >= 0.5 * inner[0] and v[1] >= inner[1] - 120, (inner, v)
            else:  # narrow: the plot below, the view as wide as the window
                assert v[0] >= inner[0] - 40 and v[1] >= 0.5 * inner[1], (inner, v)
            overflow = browser.execute_script(
                "return document.documentElement.scrollWidth - window.innerWidth"
            )
            assert overflow <= 0
        assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    finally:
        _size(browser, 1280, 720)


def test_the_camera_follows_a_floating_base(browser, tmp_path):
    model, viewer = _floating_page(tmp_path)
    data = viewer.data()
    assert data["follow"]["body"] == 1 and data["follow"]["on"]
    assert _open(browser, viewer.save(tmp_path / "skid.html")) == []
    v = "window.eslabonViewer"
    assert browser.execute_script(f"return {v}.following()")
    assert browser.execute_script("return !document.getElementById('follow-label').hidden")
    assert browser.execute_script("return document.getElementById('follow').checked")

    def base_at(t):
        browser.execute_script(f"{v}.setTime({t})")
        return np.array(browser.execute_script(f"return {v}.baseOnScreen()"))

    start, end = base_at(0.0), base_at(2.0)
    assert np.abs(end - start).max() < 2.0, (start, end)  # the base stays put on the screen
    browser.find_element("id", "follow").click()  # the box turns following off
    assert not browser.execute_script(f"return {v}.following()")
    start, end = base_at(0.0), base_at(2.0)
    assert np.linalg.norm(end - start) > 50, (start, end)  # now it drives off
    # a fixed base: nothing to follow, no box
    arm = es.zoo.load("planar2")
    page = viz.Viewer(arm, es.simulate(arm, None, None, 0.1, 0.01)).save(tmp_path / "arm.html")
    assert _open(browser, page) == []
    assert "follow" not in viz.Viewer(arm, es.simulate(arm, None, None, 0.1, 0.01)).data()
    assert not browser.execute_script(f"return {v}.following()")
    assert browser.execute_script("return document.getElementById('follow-label').hidden")
    _, off = _floating_page(tmp_path, follow=False)
    assert "follow" not in off.data()
    with pytest.raises(ValueError, match="follow: expected a body 1 … 2"):
        _floating_page(tmp_path)[1].add(model, SimpleNamespace(t=[0.0], q=[es.neutral(model)]),
                                        follow=5)  # fmt: skip


LEGEND = """
const legend = document.getElementById('legend').getBoundingClientRect();
const box = document.getElementById('legend');
const items = Array.from(document.querySelectorAll('#legend .legend-item'))
  .map((e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; });
return {
  window: [window.innerWidth, window.innerHeight],
  legend: [legend.left, legend.top, legend.right, legend.bottom],
  scroll: [box.scrollWidth, box.clientWidth, box.scrollHeight, box.clientHeight],
  page: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
  items,
  labels: Array.from(document.querySelectorAll('#legend .label')).map((e) => e.textContent),
  titles: Array.from(document.querySelectorAll('#legend .legend-item'))
    .map((e) => e.getAttribute('title')),
};
"""


def test_a_humanoids_legend_fits_and_names_its_coordinates(browser, tmp_path):
    """Talos (39 coordinates): every legend entry inside the legend's box, which stays
    inside the window and scrolls; entries do not overlap; the coordinates are named by
    joint, the free flyer's too."""
    talos = es.load_model(
        example_robot_data("talos_data/robots/talos_reduced.urdf"), root_joint="free_flyer"
    )
    q = np.tile(es.neutral(talos), (3, 1))
    viewer = viz.Viewer(talos, SimpleNamespace(t=[0.0, 0.5, 1.0], q=q), autoplay=False)
    page = viewer.save(tmp_path / "talos.html")
    try:
        for width, height in ((1280, 720), (1000, 600), (700, 800)):
            _size(browser, width, height)
            if width == 1280:
                assert _open(browser, page) == []
            s = browser.execute_script(LEGEND)
            assert len(s["items"]) == talos.nq
            left, top, right, bottom = s["legend"]
            assert 0 <= left and right <= s["window"][0] and s["page"][0] <= s["window"][0]
            if width >= 900:  # beside the view: the whole legend box within the window
                assert bottom <= s["window"][1], s
            assert s["scroll"][0] <= s["scroll"][1]  # no sideways overflow
            assert s["scroll"][2] > s["scroll"][3] or bottom - top >= 16 * talos.nq / 4
            for x0, _, x1, _ in s["items"]:
                assert left <= x0 and x1 <= right + 0.5, (x0, x1, s["legend"])
            boxes = sorted(s["items"], key=lambda r: (round(r[1]), r[0]))
            for a, b in zip(boxes, boxes[1:], strict=False):  # rows, then columns: apart
                assert b[1] >= a[3] - 0.5 or b[0] >= a[2] - 0.5, (a, b)
        labels = s["labels"]
        assert labels[:7] == [
            "root_joint.x [m]", "root_joint.y [m]", "root_joint.z [m]",
            "root_joint.qx", "root_joint.qy", "root_joint.qz", "root_joint.qw",
        ]  # fmt: skip
        assert labels[7:] == [f"{n} [rad]" for n in talos.q_names[7:]]
        assert not any(re.search(r"\[\d+\]", n) for n in labels)
        assert s["titles"] == labels  # a name cut short shows whole on hover
    finally:
        _size(browser, 1280, 720)
