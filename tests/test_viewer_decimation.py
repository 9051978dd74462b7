"""The viewer's decimation keeps shapes (issue 45: the UR5 lost its forearm, a Go1's legs
were shredded): each decimated mesh embedded in a page is rasterised, as a silhouette
from six directions, beside the undecimated mesh read from its file, and the two must
cover the same pixels (intersection over union ≥ 0.9 in every direction). The
rasteriser here is matplotlib's (Agg), not the viewer's own check
(:mod:`eslabon.viz.silhouette`), so the test does not grade the viewer with its own
ruler. Before the fix (a hard cap of 12,000 triangles met by decimating a mesh whose
triangles were not welded, then keeping the largest triangles), the UR5's forearm
scored 0.45 and the Go1's calf 0.41."""

import base64

import numpy as np
import pytest

import eslabon as es
from checks import example_robot_data
from eslabon import viz
from eslabon.viz import meshfile, scene

pytest.importorskip("trimesh")
pytest.importorskip("fast_simplification")
pytest.importorskip("matplotlib")

#: directions of view, none of them the viewer's own seven
DIRECTIONS = [(1, 0.2, 0.1), (0.1, 1, -0.2), (0.2, -0.1, 1), (1, 2, 0.5), (-2, 1, 1),
              (1, -1, -2)]  # fmt: skip
PIXELS = 200


def _silhouette(vertices, faces, direction, frame):
    """The pixels the mesh covers seen along ``direction`` (orthographic), on the square
    ``frame`` (its lower corner and side, in the view's plane)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.collections import PolyCollection
    from matplotlib.figure import Figure

    d = np.asarray(direction, dtype=float) / np.linalg.norm(direction)
    a = np.cross(d, [0.0, 0.0, 1.0])
    a /= np.linalg.norm(a)
    p = vertices @ np.column_stack([a, np.cross(d, a)])
    corner, side = frame if frame is not None else (p.min(0), np.ptp(p, axis=0).max())
    fig = Figure(figsize=(1, 1), dpi=PIXELS)
    canvas = FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_axis_off()
    ax.set_xlim(corner[0] - 0.02 * side, corner[0] + 1.02 * side)
    ax.set_ylim(corner[1] - 0.02 * side, corner[1] + 1.02 * side)
    ax.add_collection(PolyCollection(p[faces], facecolors="k", edgecolors="none",
                                     antialiaseds=False))  # fmt: skip
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[:, :, 0] < 128, (corner, side)


def _agreement(original, decimated):
    """Intersection over union of the silhouettes, per direction."""
    out = []
    for d in DIRECTIONS:
        a, frame = _silhouette(*original, d, None)
        b, _ = _silhouette(*decimated, d, frame)
        out.append(np.count_nonzero(a & b) / np.count_nonzero(a | b))
    return np.array(out)


def _embedded(mesh):
    v = np.frombuffer(base64.b64decode(mesh["positions"]), "<f4").reshape(-1, 3)
    f = np.frombuffer(base64.b64decode(mesh["indices"]), "<u4").reshape(-1, 3)
    return v.astype(float), f.astype(np.int64)


def _check(table, paths):
    scores = {}
    for path in paths:
        k = table.add(path, path.name)
        original = meshfile.read_mesh(path, path.name)
        decimated = _embedded(table.meshes[k])
        scores[path.name] = (len(original[1]), len(decimated[1]), _agreement(original, decimated))
    decimated = {n: s for n, s in scores.items() if s[1] < s[0]}
    assert decimated, "no mesh was decimated: the test checks nothing"
    worst = {n: round(float(s[2].min()), 3) for n, s in scores.items()}
    assert all(s[2].min() >= 0.9 for s in scores.values()), worst
    return scores


def test_the_ur5_keeps_its_forearm():
    urdf = example_robot_data("ur_description/urdf/ur5_robot.urdf")
    ur5 = es.load_model(urdf)
    traj = es.simulate(ur5, None, None, 0.02, 0.01)
    viewer = viz.Viewer(ur5, traj)
    meshes = urdf.parent.parent / "meshes" / "ur5" / "visual"
    paths = [meshes / name for name, _, _ in viewer.meshes.report]
    scores = _check(viewer.meshes, paths)
    assert scores["forearm.dae"][1] < scores["forearm.dae"][0]  # decimated, and whole


def test_the_go1_keeps_its_legs():
    meshes = example_robot_data("go1_description/urdf/go1.urdf").parent.parent / "meshes"
    paths = [meshes / n for n in ("hip.dae", "thigh.dae", "thigh_mirror.dae", "calf.dae")]
    _check(scene.MeshTable(), paths)


def test_the_viewers_own_check_sees_a_lost_part():
    """Silhouettes: a mesh against itself agrees fully; one missing a part (a second box
    far off, as the UR5's forearm was) or with a cap cut off does not; a well decimated
    sphere does."""
    import trimesh

    from eslabon.viz.silhouette import Silhouettes

    far = trimesh.creation.box().apply_translation([3, 0, 0])
    two = trimesh.util.concatenate([trimesh.creation.box(), far])
    reference = Silhouettes(two.vertices, two.faces)
    assert reference.agreement(two.vertices, two.faces) == 1.0
    assert reference.agreement(two.vertices, two.faces[:12]) < 0.6
    sphere = trimesh.creation.icosphere(subdivisions=5)  # 20,480 triangles
    reference = Silhouettes(sphere.vertices, sphere.faces)
    cut = sphere.faces[sphere.vertices[sphere.faces].mean(1)[:, 0] < 0.8]  # a cap off
    assert reference.agreement(sphere.vertices, cut) < 0.95
    v, f, agreement = scene.decimate(sphere.vertices, sphere.faces, 1000)
    assert len(f) <= 1000 and agreement == reference.agreement(v, f) >= scene.MIN_SILHOUETTE
