"""What the HTML viewer draws: each body's visual parts, the meshes they use, the bodies'
world poses along a trajectory, and the joint curves.

Visual parts come from the robot's URDF where it has ``<visual>`` elements — boxes,
cylinders (URDF's along z), spheres and meshes (STL, OBJ, Collada, self-contained glTF,
read by trimesh from their bytes alone: :mod:`.meshfile`), the mesh files found through
``package://`` and relative paths and only inside the model (:func:`resolve_mesh`) — with their
``<material>`` colours; a model without visuals (DH models, the zoo) gets a generated
geometry: a capsule from each body's origin to each child's joint origin (and to the
``ee`` frame), and each moving joint's axis as a short cylinder. Each mesh file is stored
once, unscaled, a part's scale in its transform; meshes with more than ``max_faces``
triangles are decimated where their silhouettes stay (:func:`decimate`), and a page
holds at most ``max_triangles`` triangles and ``max_bytes`` bytes of meshes
(:class:`MeshTable`); the sizes are reported.

Conventions: parts are placed by a 4 × 4 transform in their body's frame [m]; poses are
body-to-world positions [m] and unit quaternions (x, y, z, w), as three.js takes them.
"""

from __future__ import annotations

import base64
import os
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .meshfile import (  # noqa: F401 (importable from here)
    COMPRESSED,
    MAX_FILE_BYTES,
    MAX_READ_FACES,
    MESH_TYPES,
    collada_triangles,
    read_mesh,
)
from .meshfile import refuse as _refuse

#: the triangles a larger mesh is decimated to (where its silhouettes stay: decimate)
MAX_FACES = 12000
#: the least agreement of a decimated mesh's silhouettes with the original's (else a
#: finer decimation, or none)
MIN_SILHOUETTE = 0.95
#: the most triangles a page embeds, all its meshes together
MAX_TRIANGLES = 600_000
#: the most bytes of (base64) mesh data a page embeds
MAX_BYTES = 40_000_000
#: the colours of generated links and of URDF visuals without a material
PALETTE = ("#8da0cb", "#fc8d62", "#66c2a5", "#e78ac3", "#a6d854", "#ffd92f", "#e5c494")
JOINT_COLOR = "#404040"


def b64(array, dtype) -> str:
    """An array as base64 of its little-endian bytes (what the page decodes)."""
    return base64.b64encode(np.ascontiguousarray(array, dtype=dtype).tobytes()).decode()


@dataclass
class MeshTable:
    """Meshes used by a scene, each file stored once (unscaled: a part's scale is in its
    transform): positions (V, 3) float32 and triangle indices (F, 3) uint32, with what
    decimation removed (:attr:`report`: name, triangles before, after; :attr:`agreement`:
    the silhouettes' agreement), within the page's budget.

    Parameters
    ----------
    max_faces : int
        The triangles a larger mesh is decimated to, where its silhouettes stay
        (:func:`decimate`).
    max_triangles, max_bytes : int
        The most triangles, and bytes of base64 text, all meshes of the page together.
    max_file_bytes : int
        The largest mesh file read.
    min_silhouette : float
        The least agreement of a decimated mesh's silhouettes with the original's
        (:func:`decimate`).
    """

    max_faces: int = MAX_FACES
    max_triangles: int = MAX_TRIANGLES
    max_bytes: int = MAX_BYTES
    max_file_bytes: int = MAX_FILE_BYTES
    meshes: list = field(default_factory=list)
    index: dict = field(default_factory=dict)
    report: list = field(default_factory=list)
    agreement: list = field(default_factory=list)
    triangles: int = 0
    min_silhouette: float = MIN_SILHOUETTE

    def add(self, path: Path, filename: str | None = None, identity=None) -> int:
        """The index of the mesh file ``path`` (resolved, as :func:`resolve_mesh` gives
        it), read the first time; ``filename`` names it in messages; ``identity``
        (st_dev, st_ino) is the file's when its path was checked (:func:`read_mesh`).

        Raises
        ------
        ValueError
            The file is not a mesh of an accepted type (:func:`read_mesh`), or the page
            would go over ``max_triangles`` or ``max_bytes``.
        """
        key = str(path)
        if key in self.index:
            return self.index[key]
        filename = filename or path.name
        vertices, faces = read_mesh(path, filename, self.max_file_bytes, identity)
        before = len(faces)
        vertices, faces, agreement = decimate(vertices, faces, self.max_faces,
                                              self.min_silhouette)  # fmt: skip
        mesh = {"positions": b64(vertices, "<f4"), "indices": b64(faces, "<u4")}
        triangles = self.triangles + len(faces)
        if triangles > self.max_triangles:
            raise _refuse(filename, f"the page's meshes would have {triangles} triangles, more "
                          f"than max_triangles={self.max_triangles} (give a larger one, or a "
                          "smaller max_faces)")  # fmt: skip
        size = self.size() + len(mesh["positions"]) + len(mesh["indices"])
        if size > self.max_bytes:
            raise _refuse(filename, f"the page's meshes would take {size} bytes, more than "
                          f"max_bytes={self.max_bytes} (give a larger one, or a smaller "
                          "max_faces)")  # fmt: skip
        self.triangles = triangles
        self.report.append((path.name, before, len(faces)))
        self.agreement.append(agreement)
        self.index[key] = len(self.meshes)
        self.meshes.append(mesh)
        return self.index[key]

    def size(self) -> int:
        """Bytes of base64 text the meshes take in the page."""
        return sum(len(m["positions"]) + len(m["indices"]) for m in self.meshes)


def weld(vertices, faces):
    """The mesh with its coincident corners merged into one vertex (trimesh's merge, to
    1e-8 of the mesh's units): a Collada or STL file gives each triangle corners of its
    own, and a decimator sees such a mesh as loose triangles, each collapsed alone."""
    import trimesh

    welded = trimesh.Trimesh(np.asarray(vertices, dtype=float), np.asarray(faces))
    if not len(welded.faces):
        return np.asarray(vertices, dtype=float), np.asarray(faces, dtype=np.int64)
    return np.asarray(welded.vertices, dtype=float), np.asarray(welded.faces, dtype=np.int64)


def decimate(vertices, faces, max_faces: int, min_silhouette: float = MIN_SILHOUETTE):
    """(vertices, faces, agreement): the mesh, its corners welded (:func:`weld`), with
    about ``max_faces`` triangles where quadric decimation (fast-simplification) keeps its
    shape, else more, else all.

    A mesh of at most ``max_faces`` triangles is kept whole (agreement 1). Above, it is
    decimated to ``max_faces`` triangles, then to twice as many, four times…, and the
    first result whose silhouettes from seven directions agree with the original's to
    at least ``min_silhouette`` (intersection over union,
    :class:`.silhouette.Silhouettes`) is kept; where none does, or fast-simplification
    is not installed, the mesh is kept whole. So a decimated mesh never loses a part or
    opens a hole the silhouettes would show; it may keep more than ``max_faces``
    triangles (quadric decimation stops short on some meshes), and the page's budget
    (:class:`MeshTable`) bounds the whole.
    """
    vertices, faces = weld(vertices, faces)
    if len(faces) <= max_faces:
        return vertices, faces, 1.0
    try:
        from fast_simplification import simplify
    except ImportError:
        return vertices, faces, 1.0
    from .silhouette import Silhouettes

    reference = Silhouettes(vertices, faces)
    target = max(int(max_faces), 1)
    while target < len(faces):  # at most log2(F / max_faces) tries, each smaller than F
        try:
            v, f = simplify(vertices, faces, target_count=target)
        except Exception:  # a degenerate mesh: kept whole
            break
        if 0 < len(f) < len(faces):
            v, f = _compact(v, f)
            agreement = reference.agreement(v, f)
            if agreement >= min_silhouette:
                return v, f, agreement
        target *= 2
    return vertices, faces, 1.0


def _compact(vertices, faces):
    """Only the vertices the faces use."""
    used, inverse = np.unique(np.asarray(faces), return_inverse=True)
    return np.asarray(vertices)[used], inverse.reshape(-1, 3)


def _inside(path: Path, root: Path) -> bool:
    return path == root or path.is_relative_to(root)


def model_root(urdf_dir: Path) -> Path:
    """The folder a URDF's meshes may come from: the ROS package it sits in (the nearest
    folder with a ``package.xml``, the URDF's own or up to three above it), else the
    URDF's folder; resolved."""
    here = Path(urdf_dir).resolve()
    for folder in [here, *here.parents][:4]:
        if (folder / "package.xml").is_file():
            return folder
    return here


def package_dirs_default(urdf_dir: Path) -> list[Path]:
    """Where ``package://name/...`` is looked for after ``package_dirs``:
    ``ROS_PACKAGE_PATH`` and the ``share`` folders of the Python environment (cmeel,
    ament), absolute entries only (``''`` in ``sys.path``, the current folder, and other
    relative ones are skipped). (The URDF's own package, and packages inside its folder,
    are found too: :func:`resolve_mesh`.)"""
    ros = os.environ.get("ROS_PACKAGE_PATH", "").split(os.pathsep)
    dirs = [Path(p) for p in ros if p and os.path.isabs(p)]
    for base in map(Path, (p for p in sys.path if isinstance(p, str) and os.path.isabs(p))):
        dirs += [base / "cmeel.prefix" / "share", base.parent / "share"]
    return dirs


def resolve_mesh(filename: str, urdf_dir: Path, package_dirs=()) -> Path:
    """The file a URDF ``<mesh filename=...>`` names, resolved (symlinks and ``..``), if
    it is inside the model (docs/viewer.md, "Where meshes come from"):

    - ``package://pkg/rest`` (also written ``package:///pkg/rest``): ``<dir>/pkg/rest``
      for the first ``<dir>`` of
      ``package_dirs``, then :func:`package_dirs_default`, that has a folder ``pkg``, or
      the ROS package the URDF sits in when it is named ``pkg``, or a folder ``pkg``
      inside the URDF's tree; the folder ``pkg``, resolved, must stay inside the folder
      it was looked for in (``<dir>``, or the model's root), and the file inside it;
    - ``file://`` and absolute paths, and relative ones from the URDF's folder: inside
      :func:`model_root` or one of ``package_dirs``;
    - a regular file with an extension of :data:`MESH_TYPES`.

    Raises
    ------
    ValueError
        Naming the mesh and the rule: another extension or URI scheme, outside the
        model, not found (the places looked in are named), not a regular file.
    """
    return _resolve(filename, urdf_dir, package_dirs)[0]


def _resolve(filename: str, urdf_dir: Path, package_dirs=()):
    """(:func:`resolve_mesh`'s path, its (st_dev, st_ino) when checked)."""
    if not isinstance(filename, str) or not filename.strip():
        raise _refuse(str(filename), "an empty file name")
    scheme = filename.split("://", 1)[0].lower() if "://" in filename else None
    if scheme not in (None, "package", "file"):
        raise _refuse(filename, f"{scheme}:// is not read (package://, file:// and paths are)")
    suffix = Path(filename.split("://", 1)[-1]).suffix.lower()
    if suffix not in MESH_TYPES:
        raise _refuse(filename, f"{suffix or 'no extension'} is not a mesh type the viewer "
                      "reads (STL, OBJ, Collada .dae, self-contained glTF .gltf/.glb)")  # fmt: skip
    urdf_dir = Path(urdf_dir)
    root = model_root(urdf_dir)
    if scheme == "package":
        return _regular(_resolve_package(filename, urdf_dir, root, package_dirs), filename)
    path = Path(filename[len("file://") :] if scheme == "file" else filename)
    path = path if path.is_absolute() else urdf_dir / path
    if not os.path.lexists(path):
        raise _refuse(filename, f"no file {path}")
    real = path.resolve()
    roots = [root] + [Path(d).resolve() for d in package_dirs]
    if not any(_inside(real, r) for r in roots):
        raise _refuse(filename, f"{real} is outside the model's folders "
                      f"({', '.join(map(str, roots))}; give package_dirs= to add one)")  # fmt: skip
    return _regular(real, filename)


def _resolve_package(filename, urdf_dir, root, package_dirs) -> Path:
    name = filename[len("package://") :]
    # package:///pkg/rest (an empty host, as some URDFs write it) is package://pkg/rest,
    # as Pinocchio reads it; one slash only, so package:////... stays refused
    name = name[1:] if name.startswith("/") else name
    pkg, _, rest = name.partition("/")
    if pkg in ("", ".", "..") or "\\" in pkg:
        raise _refuse(filename, f"{pkg!r} is not a package name, so the file is outside "
                      "any package")  # fmt: skip
    # (the folder searched, the package folder in it): the package folder, resolved, must
    # stay inside the folder searched (a link "pkg" pointing elsewhere is no package)
    searched = [Path(d).resolve() for d in package_dirs]
    searched += [d.resolve() for d in package_dirs_default(urdf_dir)]
    candidates = [(d, d / pkg) for d in searched]
    if root.name == pkg:  # the ROS package the URDF sits in
        candidates.append((root, root))
    here = urdf_dir.resolve()
    candidates += [(root, d / pkg) for d in [here, *here.parents] if _inside(d / pkg, root)]
    escaped = None
    for top, folder in candidates:
        if not folder.is_dir():
            continue
        folder = folder.resolve()
        if not _inside(folder, top):
            escaped = escaped or (f"the package folder {pkg!r} in {top} leads to "
                                  f"{folder}, outside {top} (refused: a link out of the "
                                  "folder searched)")  # fmt: skip
            continue
        path = folder / rest
        if not os.path.lexists(path):
            continue
        real = path.resolve()
        if not _inside(real, folder):
            raise _refuse(filename, f"{real} is outside the package root {folder}")
        return real
    if escaped:
        raise _refuse(filename, escaped)
    raise _refuse(filename, f"package {pkg!r} not found (or without that file); give "
                  "package_dirs= or set ROS_PACKAGE_PATH to the folder that holds it")  # fmt: skip


def _regular(path: Path, filename: str):
    """(path, its (st_dev, st_ino)) when it is a regular file."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise _refuse(filename, f"cannot read {path} ({exc.strerror})") from None
    if not stat.S_ISREG(info.st_mode):
        raise _refuse(filename, f"{path} is not a regular file")
    return path, (info.st_dev, info.st_ino)


def urdf_of(model):
    """(UrdfInfo, folder) of the URDF file this very model was read from in this process
    (:func:`eslabon.model.urdf.urdf_read_from`), else (None, None). A model's ``source``
    text is not followed: a YAML file may name any URDF there."""
    from ..model.urdf import urdf_read_from

    found = urdf_read_from(model)
    if found is None:
        return None, None
    info, path = found
    return info, path.parent


def _placement(model, link):
    """(body, 4×4 link frame in the body frame) of a URDF link, or None without one."""
    try:
        fr = model.frame(link)
    except ValueError:
        return None
    T = np.eye(4)
    T[:3, :3], T[:3, 3] = fr.rotation, fr.translation
    return fr.body, T


def urdf_parts(model, info, urdf_dir, meshes: MeshTable, package_dirs=()):
    """Parts per body (list of nb + 1 lists) from a URDF's visuals."""
    parts = [[] for _ in range(model.nb + 1)]
    for n, (link, visuals) in enumerate(info.visuals.items()):
        placed = _placement(model, link)
        if placed is None and n == 0:  # the root link is the world body (read_urdf)
            placed = (0, np.eye(4))
        if placed is None:
            continue
        body, T_link = placed
        each = (getattr(info, "visual_scales", {}) or {}).get(link, [])
        for k, (kind, size, T) in enumerate(visuals):
            part = {"T": (T_link @ T).T.ravel().tolist(), "color": _color(info, link, n)}
            if kind == "mesh":  # stored once, unscaled; the scale is in the transform
                path, identity = _resolve(size, urdf_dir, package_dirs)
                scale = each[k] if k < len(each) else _scale(info, link, size)
                S = np.diag([*np.asarray(scale, dtype=float), 1.0])
                part.update(kind="mesh", mesh=meshes.add(path, size, identity),
                            T=(T_link @ T @ S).T.ravel().tolist())  # fmt: skip
            else:
                part.update(kind=kind, **{k: v for k, v in size.items()})
            parts[body].append(part)
    return parts


def _color(info, link, n):
    colors = getattr(info, "visual_colors", {}) or {}
    rgba = colors.get(link)
    if rgba:
        r, g, b = (int(round(255 * min(max(c, 0.0), 1.0))) for c in rgba[:3])
        return f"#{r:02x}{g:02x}{b:02x}"
    return PALETTE[n % len(PALETTE)]


def _scale(info, link, filename):
    scales = getattr(info, "mesh_scales", {}) or {}
    return scales.get((link, filename), (1.0, 1.0, 1.0))


def characteristic_length(model, q) -> float:
    """The span of the body origins (and ``ee``) at ``q`` [m], at least 0.1 m."""
    from ..kinematics import forward_kinematics

    pts = forward_kinematics(model, q)[:, :3, 3]
    return max(float(np.ptp(pts, axis=0).max()), 0.1)


def generated_parts(model, q, frames=()):
    """Parts per body for a model without visuals: capsules between joint origins (and to
    the ``ee`` frame and the named ``frames``: a constrained model's loop frames), joint
    axes as cylinders, a pedestal at the world origin."""
    from .._engine.joint_types import has_axis, nq_of

    L = characteristic_length(model, q)
    r = 0.035 * L
    parts = [[] for _ in range(model.nb + 1)]
    parts[0].append(_cylinder(np.eye(4), 2.2 * r, 0.6 * r, JOINT_COLOR))
    ends = [[] for _ in range(model.nb + 1)]
    for i in range(1, model.nb + 1):
        ends[int(model.parent[i])].append(np.asarray(model.tree_translation[i], dtype=float))
    for fr in model.frames:
        if fr.name == "ee":
            ends[fr.body].append(np.asarray(fr.translation, dtype=float))
    for name in frames:  # each once, not again where a joint or ee already ends
        fr = model.frame(name)
        end = np.asarray(fr.translation, dtype=float)
        if not any(np.allclose(end, e, atol=1e-9) for e in ends[fr.body]):
            ends[fr.body].append(end)
    for i in range(model.nb + 1):
        color = PALETTE[i % len(PALETTE)]
        for end in ends[i]:
            if np.linalg.norm(end) > 1e-9:
                parts[i].append({"kind": "capsule", "from": [0.0] * 3, "to": end.tolist(),
                                 "radius": r, "color": color})  # fmt: skip
        if i and has_axis(model.joint_type[i]):
            T = _along(np.asarray(model.axis[i], dtype=float))
            parts[i].append(_cylinder(T, 1.5 * r, 4.0 * r, JOINT_COLOR))
        elif i and nq_of(model.joint_type[i]) > 1:  # a ball, a free flyer, a planar joint
            parts[i].append({"kind": "sphere", "radius": [1.6 * r], "color": JOINT_COLOR,
                             "T": np.eye(4).ravel().tolist()})  # fmt: skip
    return parts


def _along(axis):
    """A transform whose z is ``axis`` (URDF cylinders lie along z)."""
    z = axis / max(np.linalg.norm(axis), 1e-12)
    x = np.cross([0.0, 1.0, 0.0] if abs(z[1]) < 0.9 else [1.0, 0.0, 0.0], z)
    x /= np.linalg.norm(x)
    T = np.eye(4)
    T[:3, :3] = np.column_stack([x, np.cross(z, x), z])
    return T


def _cylinder(T, radius, length, color):
    return {"kind": "cylinder", "radius": [radius], "length": [length], "color": color,
            "T": np.asarray(T, dtype=float).T.ravel().tolist()}  # fmt: skip


def body_poses(model, q_samples):
    """World positions (K, nb+1, 3) and quaternions (x, y, z, w) (K, nb+1, 4)."""
    from scipy.spatial.transform import Rotation

    from ..kinematics import forward_kinematics

    T = forward_kinematics(model, np.atleast_2d(q_samples))
    K, nb1 = T.shape[:2]
    quat = Rotation.from_matrix(T[:, :, :3, :3].reshape(-1, 3, 3)).as_quat()
    return T[:, :, :3, 3], quat.reshape(K, nb1, 4)


def curves(model, names=None):
    """Names and units of the configuration's columns (``q``): :attr:`Model.q_names`
    (``FL_HAA``, ``root_joint.qw``) unless ``names`` are given."""
    from .._engine.joint_types import coordinate_units

    units = []
    for i in range(1, model.nb + 1):
        if model.q_index[i] >= 0:  # fixed and mimic joints have no coordinate of their own
            units.extend(coordinate_units(model.joint_type[i]))
    labels = list(model.q_names)
    if names is not None:
        if len(names) != len(labels):
            raise ValueError(
                f"curve_names: expected {len(labels)} names (one per column of q), got {len(names)}"
            )
        labels = [str(n) for n in names]
    return labels, units
