"""The viewer's meshes come from inside the model only, and pages stay bounded (security
issue "meshes from anywhere"): hostile URDF folders built in ``tmp_path``.

Refused, each with a message naming the mesh and the rule: a path outside the URDF's
folder tree and the package roots (absolute, ``../``, ``file://``,
``package://pkg/../../x``, a symlink leaving the tree), what is not a regular file (a FIFO,
a directory), a file that is not a mesh (a symlink ``.stl`` to a text file), extensions
off the list (OFF, XYZ, ZIP, PLY) and compressed containers, a glTF with an external
buffer, a Collada file with a DOCTYPE (external entities), a file above the size limit,
a page above its triangle or byte budget. An OBJ whose ``mtllib`` is a FIFO must not hang
(its material is never read). A YAML model's ``source:`` line pulls no URDF's meshes.

Accepted: meshes next to the URDF, ``package://`` inside a package root (given folders,
``ROS_PACKAGE_PATH``, the ROS package the URDF sits in), a symlink inside the tree, the
UR5 of example-robot-data; a mesh above the per-mesh cap comes out at most at the cap;
a mesh used by many links at many scales is embedded once, each part scaled in its
transform.
"""

import base64
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import eslabon as es
from eslabon import viz
from eslabon.viz import scene

trimesh = pytest.importorskip("trimesh")

SECRET = "-----BEGIN KEY----- 1 2 3 4 5 6 7 8 9 10 11 12 -----END KEY-----\n"

LINK = """<link name="{name}"><inertial><mass value="1"/>
  <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
  {visuals}</link>
<joint name="j_{name}" type="revolute"><parent link="{parent}"/><child link="{name}"/>
  <axis xyz="0 0 1"/></joint>"""
VISUAL = '<visual><geometry><mesh filename="{f}" scale="{s} {s} {s}"/></geometry></visual>'


@pytest.fixture(autouse=True)
def no_hang():
    """Every test in this module ends within 60 s: a blocked open() of a FIFO fails."""

    def fail(*_):
        # not an OSError, which a mesh reader may catch and go on
        pytest.fail("the viewer blocked (a FIFO was opened?)")

    old = signal.signal(signal.SIGALRM, fail)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


@contextlib.contextmanager
def _fifo(path: Path):
    """A FIFO at ``path``, watched: whoever opens it for reading (and would block there)
    is let go by a writer opening and closing it, and the test then fails."""
    os.mkfifo(path)
    opened, done = [], threading.Event()

    def watch():
        while not done.wait(0.05):
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)  # ENXIO while no reader
            except OSError:
                continue
            opened.append(True)
            os.close(fd)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    try:
        yield path
    finally:
        done.set()
        thread.join()
    assert not opened, f"{path.name} was opened for reading (it blocks until a writer comes)"


def _urdf(path: Path, meshes, scales=None) -> Path:
    """A URDF at ``path``: a base link and one link per entry of ``meshes`` (a filename or
    a list of them: one visual each), each at its scale (``scales``, default 1)."""
    links = []
    for k, names in enumerate(meshes):
        names = [names] if isinstance(names, str) else names
        s = (scales or [1.0] * len(meshes))[k]
        s = s if isinstance(s, (list, tuple)) else [s] * len(names)
        visuals = "".join(VISUAL.format(f=f, s=v) for f, v in zip(names, s, strict=True))
        links.append(LINK.format(name=f"l{k}", parent="base" if k == 0 else f"l{k - 1}",
                                 visuals=visuals))  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('<robot name="r"><link name="base"/>' + "".join(links) + "</robot>")
    return path


def _traj(model):
    return SimpleNamespace(t=np.array([0.0, 0.1]), q=np.zeros((2, model.nq)))


def _data(urdf: Path, **options) -> dict:
    model = es.load_model(urdf)
    return viz.Viewer(model, _traj(model), **options).data()


def _cube(path: Path, size=0.1) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    trimesh.creation.box(extents=(size, size, size)).export(path)
    return path


def _binary_stl(path: Path, triangles: np.ndarray) -> Path:
    """Triangles (F, 3, 3) as a binary STL, written with numpy."""
    rec = np.zeros(len(triangles), dtype=[("n", "<f4", 3), ("v", "<f4", (3, 3)), ("a", "<u2")])
    rec["v"] = triangles
    with open(path, "wb") as f:
        f.write(b"\0" * 80 + np.uint32(len(triangles)).tobytes() + rec.tobytes())
    return path


def _grid_triangles(n: int) -> np.ndarray:
    """A wavy height field of 2 n² connected triangles."""
    x, y = np.meshgrid(np.linspace(0, 1, n + 1), np.linspace(0, 1, n + 1), indexing="ij")
    z = 0.05 * np.sin(12 * x) * np.cos(9 * y)
    p = np.stack([x, y, z], -1)
    a, b, c, d = p[:-1, :-1], p[1:, :-1], p[1:, 1:], p[:-1, 1:]
    tri = np.concatenate([np.stack([a, b, c], -2), np.stack([a, c, d], -2)])
    return tri.reshape(-1, 3, 3)


def _positions(data, k=0):
    return np.frombuffer(base64.b64decode(data["meshes"][k]["positions"]), "<f4").reshape(-1, 3)


def _faces(data, k=0):
    return len(base64.b64decode(data["meshes"][k]["indices"])) // 12


def _mesh_parts(data):
    return [p for ps in data["robots"][0]["parts"] for p in ps if p["kind"] == "mesh"]


# --- refused: outside the model's folders -------------------------------------------------


def _outside_cases(tmp_path):
    """(URDF, options) per way out of the tree; the target is a real mesh outside."""
    outside = _cube(tmp_path / "outside" / "cube.stl")
    robot = tmp_path / "robot"
    pkgs = tmp_path / "pkgs"
    _cube(pkgs / "my_robot" / "meshes" / "inside.stl")
    _cube(pkgs / "other_robot" / "cube.stl")
    (robot / "meshes").mkdir(parents=True)
    (robot / "meshes" / "link.stl").symlink_to(outside)
    return {
        "absolute": (_urdf(robot / "a.urdf", [str(outside)]), {}),
        "dotdot": (_urdf(robot / "b.urdf", ["../outside/cube.stl"]), {}),
        "file-uri": (_urdf(robot / "c.urdf", [f"file://{outside}"]), {}),
        "package-dotdot": (
            _urdf(robot / "d.urdf", ["package://my_robot/../../outside/cube.stl"]),
            {"package_dirs": [pkgs]},
        ),
        "package-sibling": (
            _urdf(robot / "e.urdf", ["package://my_robot/../other_robot/cube.stl"]),
            {"package_dirs": [pkgs]},
        ),
        "package-name-dotdot": (
            _urdf(robot / "f.urdf", ["package://../outside/cube.stl"]),
            {"package_dirs": [pkgs]},
        ),
        "symlink-out": (_urdf(robot / "g.urdf", ["meshes/link.stl"]), {}),
        "ancestor-package": (  # "tmp_path" is a folder above the URDF, not its package
            _urdf(robot / "h.urdf", [f"package://{tmp_path.name}/outside/cube.stl"]),
            {},
        ),
    }


OUTSIDE = ["absolute", "dotdot", "file-uri", "package-dotdot", "package-sibling",
           "package-name-dotdot", "symlink-out", "ancestor-package"]  # fmt: skip


@pytest.mark.parametrize("case", OUTSIDE)
def test_a_mesh_outside_the_model_is_refused(tmp_path, case):
    urdf, options = _outside_cases(tmp_path)[case]
    rule = "not found" if case == "ancestor-package" else "outside"  # not a package root
    with pytest.raises(ValueError, match=rf"mesh '.*': .*{rule}"):
        _data(urdf, **options)


# --- refused: not a regular mesh file -----------------------------------------------------


def test_a_fifo_named_stl_is_refused_without_blocking(tmp_path):
    with _fifo(tmp_path / "pipe.stl"):
        with pytest.raises(ValueError, match=r"mesh 'pipe.stl': .*not a regular file"):
            _data(_urdf(tmp_path / "r.urdf", ["pipe.stl"]))


def test_an_obj_whose_mtllib_is_a_fifo_does_not_hang(tmp_path):
    (tmp_path / "m.obj").write_text(
        "mtllib pipe.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nusemtl x\n"
        "f 1/1 2/2 3/3\n"
    )
    with _fifo(tmp_path / "pipe.mtl"):
        data = _data(_urdf(tmp_path / "r.urdf", ["m.obj"]))  # its material is never read
    assert _faces(data) == 1


def test_a_directory_named_stl_is_refused(tmp_path):
    (tmp_path / "dir.stl").mkdir()
    with pytest.raises(ValueError, match=r"mesh 'dir.stl': .*not a regular file"):
        _data(_urdf(tmp_path / "r.urdf", ["dir.stl"]))


def test_a_symlink_stl_to_a_text_file_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text(SECRET)
    (tmp_path / "link.stl").symlink_to(tmp_path / "notes.txt")
    with pytest.raises(ValueError, match=r"mesh 'link.stl': .*(no triangles|not a mesh)"):
        _data(_urdf(tmp_path / "r.urdf", ["link.stl"]))


@pytest.mark.parametrize("name", ["m.off", "m.xyz", "m.zip", "m.ply", "m.3mf", "m.stl.gz"])
def test_a_mesh_type_off_the_list_is_refused(tmp_path, name):
    mesh = trimesh.creation.box()
    if name.endswith((".zip", ".gz", ".3mf")):
        (tmp_path / name).write_bytes(b"PK\x03\x04" + b"\0" * 64)
    elif name.endswith(".xyz"):
        (tmp_path / name).write_text(SECRET.replace(" ", "\n"))
    else:
        mesh.export(tmp_path / name)
    with pytest.raises(ValueError, match=rf"mesh '{name}': .*not a mesh type the viewer reads"):
        _data(_urdf(tmp_path / "r.urdf", [name]))


def test_a_compressed_file_with_a_mesh_extension_is_refused(tmp_path):
    import gzip
    import io
    import zipfile

    stl = trimesh.creation.box().export(file_type="stl")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("big.stl", stl)
    (tmp_path / "z.stl").write_bytes(buf.getvalue())
    obj = trimesh.creation.box().export(file_type="obj").encode()
    (tmp_path / "g.obj").write_bytes(gzip.compress(obj))
    for name in ("z.stl", "g.obj"):
        with pytest.raises(ValueError, match=rf"mesh '{name}': .*compressed"):
            _data(_urdf(tmp_path / f"{name}.urdf", [name]))


# --- refused: references and entities inside a mesh file -----------------------------------


def _gltf(buffer_uri: str) -> str:
    return json.dumps({
        "asset": {"version": "2.0"},
        "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "buffers": [{"uri": buffer_uri, "byteLength": 36}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 36}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                       "min": [0, 0, 0], "max": [1, 1, 1]}],
    })  # fmt: skip


@pytest.mark.parametrize("where", ["outside", "inside", "absolute"])
def test_a_gltf_with_an_external_buffer_is_refused(tmp_path, where):
    secret = tmp_path / "secret.bin"
    secret.write_bytes(np.eye(3, dtype="<f4").tobytes())
    robot = tmp_path / "robot"
    robot.mkdir()
    (robot / "inner.bin").write_bytes(secret.read_bytes())
    uri = {"outside": "../secret.bin", "inside": "inner.bin", "absolute": str(secret)}[where]
    (robot / "m.gltf").write_text(_gltf(uri))
    with pytest.raises(ValueError, match=r"mesh 'm.gltf': .*external"):
        _data(_urdf(robot / "r.urdf", ["m.gltf"]))


def test_a_self_contained_gltf_is_read(tmp_path):
    tri = base64.b64encode(np.eye(3, dtype="<f4").tobytes()).decode()
    (tmp_path / "m.gltf").write_text(_gltf("data:application/octet-stream;base64," + tri))
    data = _data(_urdf(tmp_path / "r.urdf", ["m.gltf"]))
    assert _faces(data) == 1


DAE = """<?xml version="1.0" encoding="utf-8"?>
{doctype}<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
<asset><unit meter="1"/><up_axis>Z_UP</up_axis></asset>
<library_geometries><geometry id="g"><mesh>
<source id="p"><float_array id="pa" count="9">{numbers}</float_array>
<technique_common><accessor source="#pa" count="3" stride="3"><param name="X" type="float"/>
<param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common>
</source><vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
<triangles count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2</p></triangles>
</mesh></geometry></library_geometries>
<library_visual_scenes><visual_scene id="s"><node id="n"><instance_geometry url="#g"/>
</node></visual_scene></library_visual_scenes><scene><instance_visual_scene url="#s"/></scene>
</COLLADA>"""


def test_a_collada_file_with_an_entity_is_refused(tmp_path):
    secret = tmp_path / "numbers.txt"
    secret.write_text("1 0 0 0 1 0 0 0 1")
    robot = tmp_path / "robot"
    robot.mkdir()
    doctype = f'<!DOCTYPE c [<!ENTITY xxe SYSTEM "file://{secret}">]>\n'
    (robot / "m.dae").write_text(DAE.format(doctype=doctype, numbers="&xxe;"))
    with pytest.raises(ValueError, match=r"mesh 'm.dae': .*DOCTYPE"):
        _data(_urdf(robot / "r.urdf", ["m.dae"]))
    (robot / "u.dae").write_bytes(DAE.format(doctype=doctype, numbers="&xxe;").encode("utf-16"))
    with pytest.raises(ValueError, match=r"mesh 'u.dae': .*(DOCTYPE|UTF-8)"):
        _data(_urdf(robot / "u.urdf", ["u.dae"]))


def test_a_plain_collada_file_is_read(tmp_path):
    (tmp_path / "m.dae").write_text(DAE.format(doctype="", numbers="0 0 0 1 0 0 0 1 0"))
    assert _faces(_data(_urdf(tmp_path / "r.urdf", ["m.dae"]))) == 1


# --- bounded pages ------------------------------------------------------------------------


def test_a_mesh_above_the_target_is_decimated_keeping_its_shape(tmp_path):
    """A connected surface of 204,800 triangles comes out with far fewer and its
    silhouettes kept; a page over max_triangles is refused naming the budget. (The
    per-mesh cap was a hard one before, met by dropping triangles, which shredded
    meshes: issue 45. The page's budget is what bounds a page now.)"""
    _binary_stl(tmp_path / "big.stl", _grid_triangles(320))  # 204,800 triangles
    model = es.load_model(_urdf(tmp_path / "big.stl.urdf", ["big.stl"]))
    viewer = viz.Viewer(model, _traj(model))
    data = viewer.data()
    faces = _faces(data)
    assert 0 < faces <= 4 * scene.MAX_FACES
    assert viewer.meshes.report[0] == ("big.stl", 204800, faces)
    assert viewer.meshes.agreement[0] >= scene.MIN_SILHOUETTE
    with pytest.raises(ValueError, match=rf"mesh 'big.stl': .*{faces} triangles.*max_triangles"):
        viz.Viewer(model, _traj(model), max_triangles=faces - 1)
    data = _data(tmp_path / "big.stl.urdf", max_faces=500)
    assert 0 < _faces(data) < faces


def test_a_decimation_that_opens_holes_is_not_kept(tmp_path, monkeypatch):
    """A decimator that drops a tenth of the triangles (holes, as dropping the largest
    triangles to meet a cap made before): its silhouettes disagree, so the mesh is kept
    whole rather than shredded."""
    fs = pytest.importorskip("fast_simplification")
    monkeypatch.setattr(fs, "simplify", lambda v, f, **kw: (v, f[: max(len(f) * 9 // 10, 1)]))
    _binary_stl(tmp_path / "big.stl", _grid_triangles(100))  # 20,000 triangles
    model = es.load_model(_urdf(tmp_path / "r.urdf", ["big.stl"]))
    viewer = viz.Viewer(model, _traj(model), max_faces=1000)
    assert viewer.meshes.report[0][1:] == (20000, 20000) == (20000, _faces(viewer.data()))
    with pytest.raises(ValueError, match="min_silhouette"):
        viz.Viewer(model, _traj(model), min_silhouette=1.5)


def test_a_file_above_the_size_limit_is_refused(tmp_path):
    _binary_stl(tmp_path / "big.stl", _grid_triangles(40))  # 3,200 triangles, 160 kB
    urdf = _urdf(tmp_path / "r.urdf", ["big.stl"])
    with pytest.raises(ValueError, match=r"mesh 'big.stl': .*bytes.*max_file_bytes"):
        _data(urdf, max_file_bytes=100_000)
    assert _faces(_data(urdf)) == 3200


def test_many_links_share_one_mesh_at_many_scales(tmp_path):
    """200 links, one 5,120-triangle mesh at 200 scales: embedded once."""
    trimesh.creation.icosphere(subdivisions=4).export(tmp_path / "ball.stl")
    n = 200
    urdf = _urdf(tmp_path / "r.urdf", ["ball.stl"] * n, [0.01 * (k + 1) for k in range(n)])
    data = _data(urdf)
    assert len(data["meshes"]) == 1
    assert len(json.dumps(data)) < 1_000_000
    parts = _mesh_parts(data)
    scales = [np.linalg.norm(np.reshape(p["T"], (4, 4)).T[:3, 0]) for p in parts]
    assert np.allclose(scales, [0.01 * (k + 1) for k in range(n)], rtol=1e-6)


def test_the_same_mesh_at_two_scales_on_one_link(tmp_path):
    _cube(tmp_path / "cube.stl", 1.0)
    data = _data(_urdf(tmp_path / "r.urdf", [["cube.stl", "cube.stl"]], [[1.0, 2.0]]))
    xyz = np.c_[_positions(data), np.ones(len(_positions(data)))]
    parts = _mesh_parts(data)
    assert [p["mesh"] for p in parts] == [0, 0]
    half = [np.abs((np.reshape(p["T"], (4, 4)).T @ xyz.T)[:3]).max() for p in parts]
    assert np.allclose(half, [0.5, 1.0])


def test_the_page_budget_is_named(tmp_path):
    for k in range(3):
        _cube(tmp_path / f"c{k}.stl")
    urdf = _urdf(tmp_path / "r.urdf", [f"c{k}.stl" for k in range(3)])
    assert len(_data(urdf, max_triangles=36)["meshes"]) == 3
    with pytest.raises(ValueError, match=r"mesh 'c2.stl': .*max_triangles"):
        _data(urdf, max_triangles=35)
    with pytest.raises(ValueError, match=r"mesh 'c1.stl': .*max_bytes"):
        _data(urdf, max_bytes=500)


def test_the_cli_prints_one_line(tmp_path):
    _cube(tmp_path / "outside.stl")
    urdf = _urdf(tmp_path / "robot" / "r.urdf", ["../outside.stl"])
    traj = tmp_path / "t.npz"
    model = es.load_model(urdf)
    z = np.zeros((2, model.nq))
    es.sim.Trajectory(np.array([0.0, 0.1]), z, z, z, z).save(traj)
    env = {**os.environ, "PYTHONPATH": str(Path(es.__file__).parents[1])}
    run = subprocess.run(
        [sys.executable, "-m", "eslabon", "view", str(traj), "--model", str(urdf),
         "--out", str(tmp_path / "v.html")],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert run.returncode == 2, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "outside" in lines[0] and "Traceback" not in run.stderr
    assert not (tmp_path / "v.html").exists()


# --- the model's own file, not a claimed one -----------------------------------------------


def test_a_yaml_source_line_pulls_no_meshes(tmp_path):
    victim = _urdf(tmp_path / "victim" / "r.urdf", ["cube.stl"])
    _cube(tmp_path / "victim" / "cube.stl")
    yaml_file = tmp_path / "m.yaml"
    es.model.save_model(es.load_model(victim), yaml_file)
    text = yaml_file.read_text()
    assert f"URDF {victim}" in text  # the saved file names the URDF it came from
    model = es.load_model(yaml_file)
    assert model.source == f"URDF {victim}"
    data = viz.Viewer(model, _traj(model)).data()
    assert data["meshes"] == [] and not _mesh_parts(data)
    data = viz.Viewer(model, _traj(model), urdf=victim).data()  # explicit: drawn
    assert len(data["meshes"]) == 1


# --- accepted -----------------------------------------------------------------------------


def test_meshes_inside_the_model_are_read(tmp_path, monkeypatch):
    robot = tmp_path / "ws" / "src" / "my_robot"
    (robot / "package.xml").parent.mkdir(parents=True)
    (robot / "package.xml").write_text("<package/>")
    _cube(robot / "meshes" / "a.stl")
    _cube(robot / "urdf" / "b.stl")
    (robot / "urdf" / "alias.stl").symlink_to(robot / "meshes" / "a.stl")
    pkgs = tmp_path / "pkgs"
    _cube(pkgs / "parts" / "c.stl")
    ros = tmp_path / "ros"
    _cube(ros / "ros_parts" / "d.stl")
    monkeypatch.setenv("ROS_PACKAGE_PATH", str(ros))
    names = [
        "b.stl",  # next to the URDF
        str(robot / "urdf" / "b.stl"),  # absolute, inside
        f"file://{robot / 'urdf' / 'b.stl'}",
        "../meshes/a.stl",  # inside the ROS package the URDF sits in
        "package://my_robot/meshes/a.stl",  # the URDF's own package, found upwards
        "alias.stl",  # a symlink inside the package
        "package://parts/c.stl",  # package_dirs
        "package://ros_parts/d.stl",  # ROS_PACKAGE_PATH
        str(pkgs / "parts" / "c.stl"),  # absolute, inside a given package_dirs folder
    ]
    data = _data(_urdf(robot / "urdf" / "r.urdf", names), package_dirs=[pkgs])
    assert len(_mesh_parts(data)) == len(names)
    assert len(data["meshes"]) == 4  # a.stl, b.stl, c.stl, d.stl: each file once


def test_the_ur5_of_example_robot_data(tmp_path):
    for base in map(Path, sys.path):
        share = base / "cmeel.prefix" / "share" / "example-robot-data" / "robots"
        if share.is_dir():
            break
    else:
        pytest.skip("example-robot-data is not installed")
    ur5 = es.load_model(share / "ur_description" / "urdf" / "ur5_robot.urdf")
    viewer = viz.Viewer(ur5, _traj(ur5))
    data = viewer.data()
    assert len(_mesh_parts(data)) == 7 and len(data["meshes"]) == 7
    assert sum(after for _, _, after in viewer.meshes.report) <= 7 * scene.MAX_FACES


# --- review: package folders that are links, Collada bombs, swaps, textures, encodings ----


@pytest.mark.parametrize("how", ["package-link", "meshes-link", "given-dir-link"])
def test_a_package_folder_linking_out_is_refused(tmp_path, how):
    """``package://pkg/...`` where the folder ``pkg`` is a link out of the folder it was
    looked in: the file would be checked only against where the link points."""
    outside = tmp_path / "outside"
    _cube(outside / "sub" / "secret.stl")
    robot = tmp_path / "m" / "urdf"
    robot.mkdir(parents=True)
    pkgs = tmp_path / "pkgs"
    pkgs.mkdir()
    name, folder = {
        "package-link": ("evilpkg", robot / "evilpkg"),
        "meshes-link": ("meshes", robot / "meshes"),
        "given-dir-link": ("given", pkgs / "given"),
    }[how]
    folder.symlink_to(outside)
    with pytest.raises(ValueError, match=rf"mesh 'package://{name}/sub/secret.stl': .*outside"):
        scene.resolve_mesh(f"package://{name}/sub/secret.stl", robot, package_dirs=[pkgs])
    urdf = _urdf(robot / "r.urdf", [f"package://{name}/sub/secret.stl"])
    with pytest.raises(ValueError, match="outside"):
        _data(urdf, package_dirs=[pkgs])


def test_a_package_folder_linking_inside_its_folder_is_read(tmp_path):
    robot = tmp_path / "robot"
    _cube(robot / "real_meshes" / "a.stl")
    (robot / "meshes").symlink_to(robot / "real_meshes")
    path = scene.resolve_mesh("package://meshes/a.stl", robot)
    assert path == (robot / "real_meshes" / "a.stl").resolve()


def test_package_dirs_default_skips_relative_sys_path_entries(tmp_path, monkeypatch):
    """``''`` in sys.path is the current folder: its ``../share`` is no package folder."""
    work = tmp_path / "cwd" / "here"
    _cube(work / "share" / "cwdpkg" / "x.stl")
    _cube(work.parent / "share" / "cwdpkg" / "x.stl")
    monkeypatch.chdir(work)
    monkeypatch.setattr(sys, "path", ["", "lib", *sys.path])
    monkeypatch.setenv("ROS_PACKAGE_PATH", os.pathsep.join(["share", str(tmp_path / "ros")]))
    dirs = scene.package_dirs_default(tmp_path / "robot")
    assert dirs and all(d.is_absolute() for d in dirs)
    assert tmp_path / "ros" in dirs
    (tmp_path / "robot").mkdir()
    with pytest.raises(ValueError, match="not found"):
        scene.resolve_mesh("package://cwdpkg/x.stl", tmp_path / "robot")


def _dae(geometries: dict, scene_nodes: str, library_nodes: str = "") -> str:
    """A Collada file: ``geometries`` {id: (count attribute, triangles in <p>)}."""
    geoms = "".join(
        f'<geometry id="{gid}"><mesh><source id="{gid}s"><float_array id="{gid}a" count="9">'
        '0 0 0 1 0 0 0 1 0</float_array><technique_common><accessor source="#a" count="3" '
        'stride="3"><param name="X" type="float"/><param name="Y" type="float"/>'
        '<param name="Z" type="float"/></accessor></technique_common></source>'
        f'<vertices id="{gid}v"><input semantic="POSITION" source="#{gid}s"/></vertices>'
        f'<triangles count="{count}"><input semantic="VERTEX" source="#{gid}v" offset="0"/>'
        f"<p>{' '.join(['0 1 2'] * n)}</p></triangles></mesh></geometry>"
        for gid, (count, n) in geometries.items()
    )
    lib = f"<library_nodes>{library_nodes}</library_nodes>" if library_nodes else ""
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">'
        f"<asset><up_axis>Z_UP</up_axis></asset><library_geometries>{geoms}"
        f"</library_geometries>{lib}<library_visual_scenes><visual_scene id='sc'>"
        f"{scene_nodes}</visual_scene></library_visual_scenes>"
        '<scene><instance_visual_scene url="#sc"/></scene></COLLADA>'
    )


def _no_trimesh_load(monkeypatch):
    def load(*args, **kwargs):
        raise AssertionError("trimesh read a file that should be refused before")

    monkeypatch.setattr(trimesh, "load", load)


def test_a_collada_bomb_is_refused_before_trimesh_reads_it(tmp_path, monkeypatch):
    """100,000 triangles placed 40 times in a 0.6 MB file (trimesh copies each
    placement: hundreds of MB): counted with expat, refused naming the count."""
    inst = '<instance_geometry url="#g"/>' * 40
    (tmp_path / "bomb.dae").write_text(_dae({"g": (100_000, 100_000)}, f"<node>{inst}</node>"))
    _no_trimesh_load(monkeypatch)
    with pytest.raises(ValueError, match=r"mesh 'bomb.dae': places 4000000 triangles"):
        scene.read_mesh(tmp_path / "bomb.dae", "bomb.dae")


def test_collada_placements_through_instance_node_multiply(tmp_path, monkeypatch):
    """A library node placing the geometry 10 times, placed by 10 nodes, each placed by
    a node placed 10 times over: 1,000 placements of 3,000 triangles."""
    library = '<node id="leaf">' + '<instance_geometry url="#g"/>' * 10 + "</node>"
    library += '<node id="mid">' + '<instance_node url="#leaf"/>' * 10 + "</node>"
    top = '<node><node><instance_node url="#mid"/></node></node>'
    data = _dae({"g": (3000, 3000)}, top * 10, library)
    assert scene.collada_triangles(data.encode()) == 3_000_000
    (tmp_path / "b.dae").write_text(data)
    _no_trimesh_load(monkeypatch)
    with pytest.raises(ValueError, match=r"mesh 'b.dae': places 3000000 triangles"):
        scene.read_mesh(tmp_path / "b.dae", "b.dae")


def test_collada_triangles_are_counted_from_the_indices_not_the_count(tmp_path):
    """A ``count`` that lies does not hide triangles; a cycle of nodes is refused."""
    data = _dae({"g": (1, 5000), "h": (7, 7)}, '<node><instance_geometry url="#g"/>'
                '<instance_geometry url="#h"/><instance_geometry url="#h"/></node>')  # fmt: skip
    assert scene.collada_triangles(data.encode()) == 5000 + 2 * 7
    loop = (
        '<node id="a"><instance_node url="#b"/></node><node id="b"><instance_node url="#a"/></node>'
    )
    cyclic = _dae({"g": (1, 1)}, '<node><instance_node url="#a"/></node>', loop)
    with pytest.raises(ValueError, match="places itself"):
        scene.collada_triangles(cyclic.encode(), "c.dae")


def test_a_collada_file_placed_a_few_times_is_read(tmp_path):
    (tmp_path / "m.dae").write_text(
        _dae({"g": (1, 1)}, "<node>" + '<instance_geometry url="#g"/>' * 3 + "</node>")
    )
    vertices, faces = scene.read_mesh(tmp_path / "m.dae", "m.dae")
    assert len(faces) == 3


def test_a_file_swapped_after_its_path_was_checked_is_refused(tmp_path):
    """O_NOFOLLOW guards the last component only: a folder on the way swapped for a link
    after the check opens another file, which the identity check refuses."""
    robot = tmp_path / "robot"
    _cube(robot / "meshes" / "a.stl")
    _cube(tmp_path / "outside" / "a.stl", 0.5)
    path, identity = scene._resolve("meshes/a.stl", robot)
    (robot / "meshes").rename(robot / "old")
    (robot / "meshes").symlink_to(tmp_path / "outside")
    with pytest.raises(ValueError, match=r"mesh 'meshes/a.stl': .*not the file checked"):
        scene.MeshTable().add(path, "meshes/a.stl", identity)
    (robot / "meshes").unlink()
    (robot / "old").rename(robot / "meshes")
    assert len(scene.read_mesh(path, "meshes/a.stl", identity=identity)[1]) == 12


def test_meshes_are_read_through_the_one_safe_reader(tmp_path, monkeypatch):
    import eslabon._files as files

    calls = []
    real = files.read_regular

    def spy(path, max_bytes, **kw):
        calls.append((path, max_bytes))
        return real(path, max_bytes, **kw)

    monkeypatch.setattr(files, "read_regular", spy)
    _cube(tmp_path / "c.stl")
    scene.read_mesh(tmp_path / "c.stl", "c.stl", 10_000)
    assert calls == [(tmp_path / "c.stl", 10_000)]
    assert not hasattr(scene, "_open_regular")


def _png() -> bytes:
    import zlib

    def chunk(kind, body):
        return (len(body).to_bytes(4, "big") + kind + body
                + zlib.crc32(kind + body).to_bytes(4, "big"))  # fmt: skip

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", (1).to_bytes(4, "big") * 2 + b"\x08\x02\0\0\0")
            + chunk(b"IDAT", zlib.compress(b"\0\xff\0\0")) + chunk(b"IEND", b""))  # fmt: skip


@pytest.mark.parametrize("kind", ["gltf", "glb"])
def test_gltf_images_are_never_decoded(tmp_path, monkeypatch, kind):
    """The viewer draws the URDF's colours: a glTF's textures (``data:`` images pass the
    reference check) are dropped before trimesh reads the file, never decoded."""
    from PIL import Image

    opened = []
    real = Image.open
    monkeypatch.setattr(Image, "open", lambda *a, **k: opened.append(1) or real(*a, **k))
    triangle = base64.b64encode(np.eye(3, dtype="<f4").tobytes()).decode()
    head = json.loads(_gltf("data:application/octet-stream;base64," + triangle))
    head["meshes"][0]["primitives"][0]["material"] = 0
    head["materials"] = [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}]
    head["textures"] = [{"source": 0, "sampler": 0}]
    head["samplers"] = [{}]
    head["images"] = [{"uri": "data:image/png;base64," + base64.b64encode(_png()).decode()}]
    if kind == "gltf":
        (tmp_path / "m.gltf").write_text(json.dumps(head))
    else:
        text = json.dumps(head).encode()
        text += b" " * (-len(text) % 4)
        body = len(text).to_bytes(4, "little") + b"JSON" + text
        glb = b"glTF" + (2).to_bytes(4, "little") + (12 + len(body)).to_bytes(4, "little")
        (tmp_path / "m.glb").write_bytes(glb + body)
    assert len(scene.read_mesh(tmp_path / f"m.{kind}", f"m.{kind}")[1]) == 1
    assert opened == []


@pytest.mark.parametrize("encoding", ["cp037", "utf-7", "utf-7-bom", "utf-32", "UTF-16BE"])
def test_a_collada_file_in_another_encoding_is_refused(tmp_path, encoding):
    """The DOCTYPE check is a byte search: only UTF-8 files, declared so or not at all,
    are let through, so that no other encoding can hide a ``<!DOCTYPE``."""
    secret = tmp_path / "numbers.txt"
    secret.write_text("1 0 0 0 1 0 0 0 1")
    doctype = f'<!DOCTYPE c [<!ENTITY xxe SYSTEM "file://{secret}">]>\n'
    text = DAE.format(doctype=doctype, numbers="&xxe;")
    name = encoding.split("-bom")[0]
    text = text.replace('encoding="utf-8"', f'encoding="{name}"')
    data = text.encode(name)
    if name == "utf-7":  # Python writes "<" as itself; UTF-7 may write it "+ADw-"
        data = data.replace(b"<!", b"+ADw-!")
    if encoding == "utf-7-bom":
        data = b"+/v8" + data
    (tmp_path / "e.dae").write_bytes(data)
    with pytest.raises(ValueError, match=r"mesh 'e.dae': .*(UTF-8|DOCTYPE)"):
        scene.read_mesh(tmp_path / "e.dae", "e.dae")
    if encoding == "utf-7":  # ASCII bytes: the byte search sees no "<!DOCTYPE"
        assert b"<!doctype" not in data.lower() and b"\0" not in data
        with pytest.raises(ValueError, match=r"encoding 'utf-7' \(refused: only UTF-8"):
            scene.read_mesh(tmp_path / "e.dae", "e.dae")


def test_a_utf8_collada_file_with_a_bom_or_an_upper_case_declaration_is_read(tmp_path):
    text = DAE.format(doctype="", numbers="0 0 0 1 0 0 0 1 0")
    (tmp_path / "a.dae").write_bytes(b"\xef\xbb\xbf" + text.encode())
    (tmp_path / "b.dae").write_text(text.replace('encoding="utf-8"', "encoding='UTF-8'"))
    (tmp_path / "c.dae").write_text(text.replace(' encoding="utf-8"', ""))
    for name in ("a.dae", "b.dae", "c.dae"):
        assert len(scene.read_mesh(tmp_path / name, name)[1]) == 1


def test_a_package_uri_with_an_empty_host_is_the_same_package(tmp_path):
    """``package:///pkg/a.stl`` (Talos' full URDF of example-robot-data writes it so) is
    ``package://pkg/a.stl``, as Pinocchio reads it; a second empty segment stays no
    package, and the package folder's containment still holds."""
    pkgs = tmp_path / "pkgs"
    _cube(pkgs / "pkg" / "a.stl")
    robot = tmp_path / "robot"
    robot.mkdir()
    three = scene.resolve_mesh("package:///pkg/a.stl", robot, package_dirs=[pkgs])
    assert three == scene.resolve_mesh("package://pkg/a.stl", robot, package_dirs=[pkgs])
    with pytest.raises(ValueError, match="not a package name"):
        scene.resolve_mesh("package:////pkg/a.stl", robot, package_dirs=[pkgs])
    with pytest.raises(ValueError, match="not a package name"):
        scene.resolve_mesh("package:///../pkg/a.stl", robot, package_dirs=[pkgs])


def test_an_mjcf_mesh_outside_the_models_folder_is_refused(tmp_path):
    """MuJoCo reads an MJCF's meshes wherever ``meshdir`` points; the viewer holds them to
    the model's folder as it holds a URDF's."""
    pytest.importorskip("mujoco")
    _cube(tmp_path / "outside" / "secret.stl")
    model_dir = tmp_path / "model"
    model_dir.mkdir()
    _cube(model_dir / "inside.stl")
    xml = """<mujoco><compiler meshdir="{dir}"/>
      <asset><mesh name="m" file="{file}"/></asset>
      <worldbody><body name="b"><joint type="hinge"/>
        <geom type="mesh" mesh="m" mass="1"/></body></worldbody></mujoco>"""
    inside = model_dir / "inside.xml"
    inside.write_text(xml.format(dir=".", file="inside.stl"), encoding="utf-8")
    outside = model_dir / "outside.xml"
    outside.write_text(xml.format(dir="../outside", file="secret.stl"), encoding="utf-8")
    with pytest.warns(UserWarning):  # the MJCF elements eslabon does not represent
        ok = es.load_model(inside)
    assert len(viz.Viewer(ok, _traj(ok)).data()["meshes"]) == 1
    with pytest.warns(UserWarning):
        bad = es.load_model(outside)
    with pytest.raises(ValueError, match="outside"):
        viz.Viewer(bad, _traj(bad)).data()
