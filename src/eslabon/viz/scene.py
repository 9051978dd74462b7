"""What the HTML viewer draws: each body's visual parts, the meshes they use, the bodies'
world poses along a trajectory, and the joint curves.

Visual parts come from the robot's URDF where it has ``<visual>`` elements — boxes,
cylinders (URDF's along z), spheres and meshes (STL, OBJ, Collada, read by trimesh), the
mesh files found through ``package://`` and relative paths — with their ``<material>``
colours; a model without visuals (DH models, the zoo) gets a generated geometry: a capsule
from each body's origin to each child's joint origin (and to the ``ee`` frame), and each
moving joint's axis as a short cylinder. Meshes with more than ``max_faces`` triangles are
decimated (trimesh's quadric decimation) and the sizes are reported.

Conventions: parts are placed by a 4 × 4 transform in their body's frame [m]; poses are
body-to-world positions [m] and unit quaternions (x, y, z, w), as three.js takes them.
"""

from __future__ import annotations

import base64
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

#: the most triangles kept per mesh (more are decimated)
MAX_FACES = 12000
#: the colours of generated links and of URDF visuals without a material
PALETTE = ("#8da0cb", "#fc8d62", "#66c2a5", "#e78ac3", "#a6d854", "#ffd92f", "#e5c494")
JOINT_COLOR = "#404040"


def b64(array, dtype) -> str:
    """An array as base64 of its little-endian bytes (what the page decodes)."""
    return base64.b64encode(np.ascontiguousarray(array, dtype=dtype).tobytes()).decode()


@dataclass
class MeshTable:
    """Meshes used by a scene, each stored once: positions (V, 3) float32 and triangle
    indices (F, 3) uint32, with what decimation removed."""

    max_faces: int = MAX_FACES
    meshes: list = field(default_factory=list)
    index: dict = field(default_factory=dict)
    report: list = field(default_factory=list)

    def add(self, path: Path, scale) -> int:
        key = (str(path), tuple(np.round(scale, 9)))
        if key in self.index:
            return self.index[key]
        try:
            import trimesh
        except ImportError:
            raise ValueError(
                f"{path.name}: reading meshes needs trimesh (pip install 'eslabon[viz]')"
            ) from None
        try:
            mesh = trimesh.load(str(path), force="mesh")
        except Exception as exc:  # trimesh raises many kinds for a bad file
            raise ValueError(f"{path}: not a mesh trimesh can read ({exc})") from None
        faces = len(mesh.faces)
        if faces > self.max_faces:
            mesh = mesh.simplify_quadric_decimation(face_count=self.max_faces)
        mesh.apply_scale(np.asarray(scale, dtype=float))
        self.report.append((path.name, faces, len(mesh.faces)))
        self.index[key] = len(self.meshes)
        self.meshes.append(
            {"positions": b64(mesh.vertices, "<f4"), "indices": b64(mesh.faces, "<u4")}
        )
        return self.index[key]

    def size(self) -> int:
        """Bytes of base64 text the meshes take in the page."""
        return sum(len(m["positions"]) + len(m["indices"]) for m in self.meshes)


def package_dirs_default(urdf_dir: Path) -> list[Path]:
    """Where ``package://name/...`` is looked for: ``ROS_PACKAGE_PATH``, the URDF's own
    folders upwards, and ``share`` folders of the Python environment (cmeel, ament)."""
    dirs = [Path(p) for p in os.environ.get("ROS_PACKAGE_PATH", "").split(os.pathsep) if p]
    dirs += list(urdf_dir.resolve().parents) + [urdf_dir.resolve()]
    for base in map(Path, sys.path):
        dirs += [base / "cmeel.prefix" / "share", base.parent / "share"]
    return dirs


def resolve_mesh(filename: str, urdf_dir: Path, package_dirs=()) -> Path:
    """The file a URDF ``<mesh filename=...>`` names: ``package://pkg/rest`` found as
    ``<dir>/pkg/rest`` in ``package_dirs`` (then :func:`package_dirs_default`),
    ``file://`` and absolute paths as they are, relative ones from the URDF's folder.

    Raises
    ------
    ValueError
        The file is not found (the places looked in are named).
    """
    if filename.startswith("package://"):
        rest = filename[len("package://") :]
        tried = [Path(d) for d in package_dirs] + package_dirs_default(urdf_dir)
        for d in tried:
            if (d / rest).is_file():
                return d / rest
        pkg = rest.split("/", 1)[0]
        raise ValueError(
            f"mesh {filename!r}: package {pkg!r} not found; give package_dirs= or set "
            "ROS_PACKAGE_PATH to the folder that holds it"
        )
    path = Path(filename[len("file://") :] if filename.startswith("file://") else filename)
    path = path if path.is_absolute() else urdf_dir / path
    if not path.is_file():
        raise ValueError(f"mesh {filename!r}: no file {path}")
    return path


def urdf_of(model):
    """(UrdfInfo, folder) of the URDF a model was read from (``model.source`` starting
    with ``"URDF "``, the file still there), else (None, None)."""
    source = getattr(model, "source", "") or ""
    if not source.startswith("URDF "):
        return None, None
    path = Path(source[5:].strip())
    if not path.is_file():
        return None, None
    from ..model.urdf import read_urdf

    try:
        return read_urdf(path.read_text(encoding="utf-8"))[1], path.parent
    except (OSError, ValueError):
        return None, None


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
        for kind, size, T in visuals:
            part = {"T": (T_link @ T).T.ravel().tolist(), "color": _color(info, link, n)}
            if kind == "mesh":
                path = resolve_mesh(size, urdf_dir, package_dirs)
                part.update(kind="mesh", mesh=meshes.add(path, _scale(info, link, size)))
            else:
                part.update(kind=kind, **{k: v for k, v in size.items()})
            parts[body].append(part)
    return parts


def _color(info, link, n):
    colors = getattr(info, "visual_colors", {}) or {}
    rgba = colors.get(link)
    if rgba:
        return "#%02x%02x%02x" % tuple(int(round(255 * min(max(c, 0.0), 1.0))) for c in rgba[:3])
    return PALETTE[n % len(PALETTE)]


def _scale(info, link, filename):
    scales = getattr(info, "mesh_scales", {}) or {}
    return scales.get((link, filename), (1.0, 1.0, 1.0))


def characteristic_length(model, q) -> float:
    """The span of the body origins (and ``ee``) at ``q`` [m], at least 0.1 m."""
    from ..kinematics import forward_kinematics

    pts = forward_kinematics(model, q)[:, :3, 3]
    return max(float(np.ptp(pts, axis=0).max()), 0.1)


def generated_parts(model, q):
    """Parts per body for a model without visuals: capsules between joint origins, joint
    axes as cylinders, a pedestal at the world origin."""
    from .._engine.joints import has_axis, nq_of

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
    """Names and units of the configuration's columns (``q``)."""
    from .._engine.joints import coordinate_units

    labels, units = [], []
    for i in range(1, model.nb + 1):
        if model.q_index[i] < 0:  # fixed and mimic joints have no coordinate of their own
            continue
        own = coordinate_units(model.joint_type[i])
        for k, unit in enumerate(own):
            base = str(model.body_names[i])
            labels.append(base if len(own) == 1 else f"{base}[{k}]")
            units.append(unit)
    if names is not None:
        if len(names) != len(labels):
            raise ValueError(
                f"curve_names: expected {len(labels)} names (one per column of q), got {len(names)}"
            )
        labels = [str(n) for n in names]
    return labels, units
