"""Hostile names in the viewer's pages (security issue "a name runs script in a shared
page"): a robot, link, joint or body name holding a template token, ``</script>``,
``<!--``, an ``<img onerror>``, quotes and ampersands, or U+2028/U+2029 is shown as
literal text and never changes the page's structure. Every case is built from a model
file (URDF robot name, URDF link and joint name, a YAML body list with joint names, a
YAML DH row), ``Viewer.add_mobile(name=…)``, an explicit title, ``eslabon view`` and the
notebook's ``_repr_html_``; the checks without a browser parse the page (the same
elements and attributes as a plainly named page, the title and heading text equal to the
name, the scene JSON reads back the same names). A handful of pages then open in
headless Chromium (skipped when Chromium, ChromeDriver or selenium is missing): no
hostile handler runs, the scene loads, the names show as text. The demo's index page
gets the same treatment."""

import html
import json
import re
import time
import types
from html.parser import HTMLParser

import numpy as np
import pytest

import eslabon as es
from eslabon import viz

PWN = "window.__pwned=1;document.title='PWNED'"
IMG = f"<img src=x onerror={PWN}>"  # no double quote: JSON would escape it
HOSTILE = {
    "title_token": "__TITLE__",
    "three_token": "__THREE__",
    "data_token": "__DATA__",
    "script_token": "__SCRIPT__",
    "all_tokens": "__SCRIPT____DATA____THREE____TITLE__",
    "end_script": f"</script><script>{PWN}</script>",
    "end_script_upper": f"</SCRIPT ><script>{PWN}</script>",
    "comment_script": "<!--<script>",
    "img_onerror": IMG,
    "data_then_img": "__DATA__" + IMG,  # the reported exploit: the JSON spliced into <h1>
    "quotes_amp": "\"'&amp;&<>",
    "line_separators": "a\u2028b\u2029c",
}

#: where a name reaches the page
SITES = ("urdf_robot", "urdf_link", "yaml_bodies", "yaml_dh_row", "title", "add_mobile")


def _traj(nq, k=5):
    return types.SimpleNamespace(t=np.linspace(0.0, 0.4, k), q=np.zeros((k, nq)))


def _urdf(robot, link):
    r, ln = html.escape(robot, quote=True), html.escape(link, quote=True)
    return (
        f'<robot name="{r}"><link name="base"/><link name="{ln}"><inertial><mass value="1"/>'
        '<inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>'
        f'<joint name="{ln}" type="revolute"><parent link="base"/><child link="{ln}"/>'
        '<axis xyz="0 0 1"/></joint></robot>'
    )


def _yaml_bodies(model_name, names):
    rows = "".join(
        f"  - {{name: {json.dumps(n)}, joint_name: {json.dumps(n)}, parent: {i}, joint: R,"
        " axis: [0, 0, 1],"
        f" translation: [0, 0, 0.3], mass: 1.0}}\n"
        for i, n in enumerate(names)
    )
    return f"eslabon: 1\nname: {json.dumps(model_name)}\ngravity: [0, 0, -9.81]\nbodies:\n{rows}"


def _yaml_dh(row_name):
    return (
        "eslabon: 1\nname: arm\nconvention: standard\ngravity: [0, 0, -9.81]\nrows:\n"
        "  - {joint: R, theta: 0, d: 0.4, a: 0.1, alpha: 0, mass: 2}\n"
        "  - {joint: R, theta: 0, d: 0.2, a: 0.1, alpha: 0, mass: 1, "
        f"name: {json.dumps(row_name)}}}\n"
    )


@pytest.fixture(scope="module")
def mobile():
    """A small mobile manipulator run, shared by the add_mobile cases."""
    from eslabon import mobile as mb

    cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    mm = mb.MobileManipulator(cart, es.zoo.load("planar2"), mb.Mount.araujo_assumed())
    return mm, mb.simulate(mm, None, None, 0.05, 0.01, u=[150.0, 0.3])


def _viewer(site, name, folder, mobile=None):
    """(viewer, title expected, robot names expected, one curve name expected or None)."""
    folder.mkdir(parents=True, exist_ok=True)
    if site == "urdf_robot":
        (folder / "r.urdf").write_text(_urdf(name, "arm"), encoding="utf-8")
        model = es.load_model(folder / "r.urdf")
        return viz.Viewer(model, _traj(1), autoplay=False), name, [name], None
    if site == "urdf_link":
        (folder / "r.urdf").write_text(_urdf("r", name), encoding="utf-8")
        model = es.load_model(folder / "r.urdf")
        return viz.Viewer(model, _traj(1), autoplay=False), "r", ["r"], name
    if site == "yaml_bodies":
        (folder / "m.yaml").write_text(_yaml_bodies("tree", [name, "b2"]), encoding="utf-8")
        model = es.load_model(folder / "m.yaml")
        return viz.Viewer(model, _traj(2), autoplay=False), "tree", ["tree"], name
    if site == "yaml_dh_row":
        (folder / "m.yaml").write_text(_yaml_dh(name), encoding="utf-8")
        model = es.load_model(folder / "m.yaml")
        return viz.Viewer(model, _traj(2), autoplay=False), "arm", ["arm"], None
    if site == "title":
        model = es.zoo.load("planar2")
        return viz.Viewer(model, _traj(2), title=name, autoplay=False), name, ["planar2"], None
    if site == "add_mobile":
        mm, run = mobile
        viewer = viz.Viewer(autoplay=False).add_mobile(mm, run, name=name)
        return viewer, name, [name], None
    raise AssertionError(site)


class _Page(HTMLParser):
    """The elements (tag, attributes) and the text of <title>, <h1> and each <script>."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.elements, self.texts, self._open = [], {}, None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, tuple(attrs)))
        if tag in ("title", "h1", "script"):
            self._open = tag
            self.texts.setdefault(tag, []).append("")

    def handle_endtag(self, tag):
        if tag == self._open:
            self._open = None

    def handle_data(self, data):
        if self._open is not None:
            self.texts[self._open][-1] += data

    def handle_comment(self, data):
        self.elements.append(("<!-- comment -->", (data,)))


@pytest.fixture(scope="module")
def reference():
    """The elements of a plainly named page: every page has exactly these."""
    model = es.zoo.load("planar2")
    return _Page(viz.Viewer(model, _traj(2), title="plain").html()).elements


DATA_LINE = re.compile(r"^const DATA = (.*);$", re.M)


def check_page(page, reference, title, robot_names, curve_name):
    """The structure, title, heading and scene data of one page."""
    parsed = _Page(page)
    if parsed.elements != reference:
        # the first element that differs; None when one list is a prefix of the other
        pairs = zip(parsed.elements, reference, strict=False)
        k = next((i for i, (a, b) in enumerate(pairs) if a != b), None)
        where = parsed.elements[k] if k is not None else f"{len(parsed.elements)} elements"
        pytest.fail(f"the page's elements differ from a plain page's at {str(where)[:160]}")
    assert parsed.texts["title"] == [title] and parsed.texts["h1"] == [title]
    scripts = parsed.texts["script"]
    assert len(scripts) == 2
    assert page.lower().count("<script") == 2 and page.lower().count("</script") == 2
    assert "<!--" not in page
    for text in scripts:
        assert "\u2028" not in text and "\u2029" not in text
    lines = DATA_LINE.findall(scripts[1])
    assert len(lines) == 1
    raw = lines[0]
    assert not set(raw) & set("<>&\u2028\u2029"), "unescaped in the scene JSON"
    data = json.loads(raw)
    assert [r["name"] for r in data["robots"]] == robot_names
    if curve_name is not None:
        assert curve_name in [c["name"] for c in data["curves"]]
    return data


CASES = [(site, key) for site in SITES for key in HOSTILE]


@pytest.mark.parametrize("site, key", CASES)
def test_a_hostile_name_is_text(site, key, tmp_path, reference, request):
    name = HOSTILE[key]
    mob = request.getfixturevalue("mobile") if site == "add_mobile" else None
    viewer, title, robots, curve = _viewer(site, name, tmp_path, mob)
    page = viewer.html()
    check_page(page, reference, title, robots, curve)
    saved = viewer.save(tmp_path / "page.html").read_text(encoding="utf-8")
    assert saved == page


@pytest.mark.parametrize("key", list(HOSTILE))
def test_the_notebook_iframe_holds_the_page_exactly(key, tmp_path, reference):
    """``_repr_html_``: one iframe whose srcdoc attribute, once unescaped, is the page."""
    viewer, title, robots, curve = _viewer("urdf_robot", HOSTILE[key], tmp_path)
    out = viewer._repr_html_()
    parsed = _Page(out)
    assert [tag for tag, _ in parsed.elements] == ["iframe"]
    attrs = dict(parsed.elements[0][1])
    assert set(attrs) == {"srcdoc", "style", "sandbox"} and attrs["sandbox"] == "allow-scripts"
    assert attrs["srcdoc"] == viewer.html()
    check_page(attrs["srcdoc"], reference, title, robots, curve)


@pytest.mark.parametrize("key", ["data_then_img", "end_script", "comment_script"])
def test_eslabon_view_titles_the_page_with_the_model_name(key, tmp_path, reference):
    """A model file alone: ``eslabon view`` titles the page "<model name>: trajectory"."""
    from eslabon.cli.main import main
    from eslabon.sim import Trajectory

    name = HOSTILE[key]
    (tmp_path / "m.yaml").write_text(_yaml_bodies(name, ["b1"]), encoding="utf-8")
    k = 4
    z = np.zeros((k, 1))
    Trajectory(np.linspace(0, 0.3, k), z, z, z, z).save(tmp_path / "t.npz")
    out = tmp_path / "view.html"
    code = main(["view", str(tmp_path / "t.npz"), "--model", str(tmp_path / "m.yaml"),
                 "--out", str(out)])  # fmt: skip
    assert code in (0, None)
    check_page(out.read_text(encoding="utf-8"), reference, f"{name}: trajectory", [name], "b1")


def test_the_inlined_scripts_cannot_end_their_block():
    """The shipped scripts hold no ``</script`` nor ``<!--`` once inlined."""
    from eslabon.viz.viewer import _asset, _inline_script

    for name in ("three-eslabon.min.js", "viewer.js"):
        text = _inline_script(_asset(name))
        assert not re.search(r"</script|<!--", text, re.I), name
    assert _inline_script("a = '</SCRIPT>' + '<!--';") == "a = '\\x3c/SCRIPT>' + '\\x3c!--';"


def test_viewer_js_sets_names_as_text_only():
    """viewer.js never parses markup: names go through textContent."""
    from eslabon.viz.viewer import _asset

    js = _asset("viewer.js")
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
        assert sink not in js, sink


def test_the_demo_index_escapes_every_field(tmp_path, reference):
    from eslabon.cli.demo_page import write_index

    weird = HOSTILE["data_then_img"] + HOSTILE["quotes_amp"]
    (tmp_path / "sub").mkdir()
    page = tmp_path / "sub" / 'a"b<c>#?.html'
    page.write_text("x")
    csv = tmp_path / "sub" / "t's & <u>.csv"
    csv.write_text("x")
    path = write_index(
        tmp_path,
        [(page, None, weird, weird)],
        [(weird, {weird: csv}, [weird, HOSTILE["end_script"]])],
        [(weird, weird, 3)],
    )
    parsed = _Page(path.read_text(encoding="utf-8"))
    tags = [tag for tag, _ in parsed.elements]
    assert "script" not in tags and "img" not in tags
    for tag, attrs in parsed.elements:
        assert not any(a.startswith("on") for a, _ in attrs), (tag, attrs)
    links = [dict(attrs)["href"] for tag, attrs in parsed.elements if tag == "a"]
    assert links == ["sub/a%22b%3Cc%3E%23%3F.html", "sub/t%27s%20%26%20%3Cu%3E.csv"]
    assert parsed.texts["title"] == ["eslabon demo"]


# --- in a browser -----------------------------------------------------------------------


STATE = """
const v = window.eslabonViewer;
return {
  pwned: window.__pwned === undefined ? null : window.__pwned,
  title: document.title,
  h1: document.querySelector('header h1') ? document.querySelector('header h1').textContent : null,
  ready: !!(v && v.ready),
  canvas: document.querySelectorAll('#view canvas').length,
  parts: v ? v.partCount : 0,
  frames: v ? v.frames : 0,
  legend: Array.from(document.querySelectorAll('#plot text, #legend .label'))
    .map((e) => e.textContent),
  images: document.images.length,
};
"""


def _wait_ready(browser):
    for _ in range(200):
        if browser.execute_script("return !!(window.eslabonViewer && window.eslabonViewer.ready)"):
            return
        time.sleep(0.05)


def _check_in_browser(browser, title, robot_names, curve_name):
    _wait_ready(browser)
    time.sleep(0.2)  # an onerror of a broken image would have run by now
    state = browser.execute_script(STATE)
    assert state["pwned"] is None, "a hostile handler ran"
    assert state["title"] == title and state["h1"] == title
    assert state["ready"] and state["canvas"] == 1 and state["parts"] > 0 and state["frames"] > 1
    assert state["images"] == 0
    if curve_name is not None:
        assert f"{curve_name} [rad]" in state["legend"], state["legend"]
    if len(robot_names) > 1:
        assert all(n in state["legend"] for n in robot_names)
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []


def test_hostile_pages_in_a_browser(browser, tmp_path, mobile):
    """Four pages in one session: the exploit as reported (URDF robot name), several bodies
    of a YAML model, two mobile runs named after the tokens, and the notebook's iframe."""
    # the URDF: the robot named "__DATA__<img onerror>", a link named "</script>…"
    (tmp_path / "r.urdf").write_text(
        _urdf(HOSTILE["data_then_img"], HOSTILE["end_script"]), encoding="utf-8"
    )
    model = es.load_model(tmp_path / "r.urdf")
    page = viz.Viewer(model, _traj(1), autoplay=False).save(tmp_path / "urdf.html")
    browser.get(page.as_uri())
    _check_in_browser(browser, HOSTILE["data_then_img"], [model.name], HOSTILE["end_script"])

    # a YAML body list: one hostile name per body, the model named after a token
    names = [HOSTILE[k] for k in ("comment_script", "img_onerror", "quotes_amp",
                                  "line_separators", "script_token")]  # fmt: skip
    (tmp_path / "m.yaml").write_text(_yaml_bodies("__TITLE__", names), encoding="utf-8")
    model = es.load_model(tmp_path / "m.yaml")
    page = viz.Viewer(model, _traj(len(names)), autoplay=False).save(tmp_path / "yaml.html")
    browser.get(page.as_uri())
    _check_in_browser(browser, "__TITLE__", ["__TITLE__"], None)
    legend = browser.execute_script(STATE)["legend"]
    assert all(f"{n} [rad]" in legend for n in names), legend

    # two mobile runs in one scene
    mm, run = mobile
    a, b = HOSTILE["all_tokens"], HOSTILE["end_script_upper"]
    viewer = viz.Viewer(autoplay=False, title=HOSTILE["img_onerror"])
    viewer.add_mobile(mm, run, name=a).add_mobile(mm, run, name=b, opacity=0.4)
    page = viewer.save(tmp_path / "mobile.html")
    browser.get(page.as_uri())
    _check_in_browser(browser, HOSTILE["img_onerror"], [a, b], None)

    # the notebook's output inside a host page
    (tmp_path / "nb.urdf").write_text(_urdf(HOSTILE["data_then_img"], "arm"), encoding="utf-8")
    viewer = viz.Viewer(es.load_model(tmp_path / "nb.urdf"), _traj(1), autoplay=False)
    host = tmp_path / "notebook.html"
    host.write_text(
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>host</title></head><body>"
        + viewer._repr_html_()
        + "</body></html>",
        encoding="utf-8",
    )
    browser.get(host.as_uri())
    from selenium.webdriver.common.by import By

    assert browser.execute_script("return window.__pwned === undefined && document.title")
    browser.switch_to.frame(browser.find_element(By.TAG_NAME, "iframe"))
    try:
        _check_in_browser(browser, HOSTILE["data_then_img"], [HOSTILE["data_then_img"]], "arm")
    finally:
        browser.switch_to.default_content()
    assert browser.execute_script("return window.__pwned === undefined && document.title") == (
        "host"
    )
