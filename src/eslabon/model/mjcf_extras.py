"""What an MJCF holds beside the body tree: sites, equalities, geoms, and the list of
what eslabon does not represent.

- Sites become named frames at ``site_pos``, ``site_quat`` on their body.
- Equalities (MuJoCo's ``<equality>``): ``connect`` holds a point of body 1 (``eq_data[0:3]``,
  body 1's frame) on a point of body 2 (``eq_data[3:6]``), a :class:`LoopClosure` of axes
  ``"point"``; ``weld`` holds body 2's frame shifted to the anchor ``eq_data[0:3]`` at body
  1's frame moved by (``eq_data[3:6]``, ``eq_data[6:10]``), a ``"weld"``; both with sites
  instead of bodies hold the two sites' frames together. A ``joint`` equality
  q₁ − q₁⁰ = a₀ + a₁ (q₂ − q₂⁰) (linear ``polycoef``) is a mimic joint (eslabon's
  coordinates are q − qpos0: :mod:`eslabon.model.mjcf`), and so is a ``tendon`` equality
  L − L⁰ = a₀ on a fixed tendon c₁ q₁ + c₂ q₂ of two hinges or two slides. MuJoCo's
  equalities are soft (``solref``, ``solimp``); eslabon's hold exactly.
- Geoms go to the viewer as the visuals a URDF's links have (:class:`UrdfInfo`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from .mjcf_tree import HINGE, JOINT_KIND, SLIDE, TreeMap, object_name, quat_matrix, unique

# mujoco.mjtEq and mjtObj values used here
EQ_CONNECT, EQ_WELD, EQ_JOINT, EQ_TENDON = 0, 1, 2, 3
WRAP_JOINT = 1  # mujoco.mjtWrap.mjWRAP_JOINT: a fixed tendon's joint
TRN_TENDON = 3  # mujoco.mjtTrn.mjTRN_TENDON: an actuator on a tendon
#: the mesh files the viewer reads (eslabon.viz.meshfile.MESH_TYPES); others are drawn
#: as their geom's bounding box
VIEWER_MESHES = (".stl", ".obj", ".dae", ".gltf", ".glb")
EQ_KIND = {0: "connect", 1: "weld", 2: "joint", 3: "tendon", 4: "flex"}
# mujoco.mjtGeom
G_PLANE, G_HFIELD, G_SPHERE, G_CAPSULE, G_ELLIPSOID, G_CYLINDER, G_BOX, G_MESH = range(8)


def add_sites(m: Any, b: Any, tree: TreeMap) -> dict[str, str]:
    """Each site as a named frame on its body; {site name: frame name} (a site named like
    a body or an earlier frame gets ``_2``, … appended; an unnamed one ``site<i>``)."""
    out: dict[str, str] = {}
    for s in range(int(m.nsite)):
        name = object_name(m, "site", s) or f"site{s}"
        frame = unique(name, tree.taken)
        b.add_frame(
            frame,
            tree.body_of[int(m.site_bodyid[s])],
            quat_matrix(m.site_quat[s]),
            m.site_pos[s],
            where=f"site {name!r}",
        )
        out[name] = frame
    return out


def _eq_frame(b: Any, tree: TreeMap, name: str, body: int, R: Any, p: Any) -> str:
    frame = unique(name, tree.taken)
    b.add_frame(frame, tree.body_of[body], R, p, where=f"equality frame {frame!r}")
    return frame


def equalities(
    m: Any, b: Any, tree: TreeMap, site_frames: dict[str, str], site_obj: int
) -> tuple[dict[int, tuple[int, float, float]], list[Any], list[str]]:
    """({mimic body: (copied body, multiplier, offset)}, [LoopClosure], [equalities not
    applied, described]) of ``m``'s equalities; frames they need are added to ``b``. An
    equality eslabon cannot hold is refused naming it (module docstring)."""
    from .constraint_types import LoopClosure

    mimics: dict[int, tuple[int, float, float]] = {}
    labels: dict[int, str] = {}
    joint_name = dict(zip(tree.joint_body, tree.joint_names, strict=False))
    loops: list[Any] = []
    loop_names: set[str] = set()
    skipped: list[str] = []
    for e in range(int(m.neq)):
        kind = int(m.eq_type[e])
        name = object_name(m, "eq", e) or f"equality{e}"
        label = f"equality {EQ_KIND.get(kind, str(kind))} {name!r}"
        if kind not in (EQ_CONNECT, EQ_WELD, EQ_JOINT, EQ_TENDON):
            raise ValueError(
                f"{label}: eslabon holds connect, weld, linear joint equalities and fixed "
                "tendons of two joints only (a flex equality couples what its model does "
                "not have)"
            )
        if not bool(m.eq_active0[e]):
            skipped.append(f"{label} (inactive at the start)")
            continue
        o1, o2, data = int(m.eq_obj1id[e]), int(m.eq_obj2id[e]), np.asarray(m.eq_data[e])
        if kind in (EQ_JOINT, EQ_TENDON):
            coupling = (_mimic if kind == EQ_JOINT else _tendon_mimic)(m, tree, label, o1, o2, data)
            for body in coupling:
                if body in mimics:
                    raise ValueError(
                        f"{label}: joint {joint_name[body]!r} is already coupled by "
                        f"{labels[body]}; eslabon holds one coupling per joint"
                    )
                labels[body] = label
            mimics.update(coupling)
            continue
        if int(m.eq_objtype[e]) == site_obj:
            names = [site_frames[object_name(m, "site", s) or f"site{s}"] for s in (o1, o2)]
        elif kind == EQ_CONNECT:
            names = [
                _eq_frame(b, tree, f"{name}.a", o1, None, data[0:3]),
                _eq_frame(b, tree, f"{name}.b", o2, None, data[3:6]),
            ]
        else:
            names = [
                _eq_frame(b, tree, f"{name}.a", o1, quat_matrix(data[6:10]), data[3:6]),
                _eq_frame(b, tree, f"{name}.b", o2, None, data[0:3]),
            ]
        axes = "point" if kind == EQ_CONNECT else "weld"
        loops.append(LoopClosure(unique(name, loop_names), names[0], names[1], axes))
    for body, (target, _, _) in mimics.items():
        if target in mimics:
            raise ValueError(
                f"{labels[body]}: couples joint {joint_name[body]!r} to "
                f"{joint_name[target]!r}, which itself copies another joint "
                f"({labels[target]}); chains of joint equalities are not read: couple each "
                "joint to the one that moves"
            )
    return mimics, loops, skipped


def _mimic(
    m: Any, tree: TreeMap, label: str, j1: int, j2: int, data: Any
) -> dict[int, tuple[int, float, float]]:
    """{body of joint j1: (body of joint j2, a₁, a₀)} for a linear joint equality."""
    names = [tree.joint_names[j] if j >= 0 else "" for j in (j1, j2)]
    if j2 < 0:
        raise ValueError(
            f"{label}: holds joint {names[0]!r} at a constant (no joint2); eslabon cannot "
            "hold a coordinate fixed: make the joint fixed in the file instead"
        )
    if np.any(data[2:5] != 0.0):
        raise ValueError(
            f"{label}: polycoef {data[0:5].tolist()} is not linear; eslabon's mimic joints "
            "are q1 = a0 + a1 q2 (polycoef with zero 3rd to 5th entries)"
        )
    kinds = [int(m.jnt_type[j]) for j in (j1, j2)]
    if kinds[0] not in (HINGE, SLIDE) or kinds[0] != kinds[1]:
        raise ValueError(
            f"{label}: couples a {JOINT_KIND[kinds[0]]} joint {names[0]!r} to a "
            f"{JOINT_KIND[kinds[1]]} joint {names[1]!r}; eslabon's mimic joints couple a "
            "hinge to a hinge or a slide to a slide"
        )
    return {tree.joint_body[j1]: (tree.joint_body[j2], float(data[1]), float(data[0]))}


def _tendon_mimic(
    m: Any, tree: TreeMap, label: str, t1: int, t2: int, data: Any
) -> dict[int, tuple[int, float, float]]:
    """A tendon equality without tendon2 on a fixed tendon c₁ q₁ + c₂ q₂ of two hinges or
    two slides: L − L⁰ = a₀, i.e. (eslabon's q = qpos − qpos0) c₁ q₁ + c₂ q₂ = a₀, so the
    later joint mimics the earlier one: q₂ = −(c₁/c₂) q₁ + a₀/c₂."""
    adr, num = int(m.tendon_adr[t1]), int(m.tendon_num[t1])
    joints = [int(j) for j in m.wrap_objid[adr : adr + num]]
    fixed = bool(np.all(m.wrap_type[adr : adr + num] == WRAP_JOINT))
    kinds = {int(m.jnt_type[j]) for j in joints} if fixed else set()
    coef = np.asarray(m.wrap_prm[adr : adr + num], dtype=float)
    if t2 >= 0 or not fixed or num != 2 or len(kinds) != 1 or kinds - {HINGE, SLIDE}:
        what = (
            "couples two tendons" if t2 >= 0
            else "is on a spatial tendon" if not fixed
            else f"holds a fixed tendon of {num} joints" if num != 2
            else "holds a tendon of a hinge and a slide (or of ball joints)"
        )  # fmt: skip
        raise ValueError(
            f"{label}: {what}; eslabon represents a tendon equality only as a mimic joint: "
            "a fixed tendon of two hinges or two slides, without tendon2"
        )
    if joints[0] == joints[1] or np.any(coef == 0.0):
        raise ValueError(f"{label}: its tendon's coefficients {coef.tolist()} couple no pair")
    first, second = sorted(range(2), key=lambda k: joints[k])
    multiplier = -coef[first] / coef[second]
    offset = float(data[0]) / coef[second]
    return {
        tree.joint_body[joints[second]]: (
            tree.joint_body[joints[first]],
            float(multiplier),
            float(offset),
        )
    }


def _only_coupling(m: Any, t: int) -> bool:
    """True when tendon ``t`` does nothing but what a tendon equality read as a mimic joint
    holds: a fixed tendon without stiffness, damping, friction, armature, limits or an
    actuator, named by an active tendon equality."""
    held = any(
        int(m.eq_type[e]) == EQ_TENDON and bool(m.eq_active0[e]) and int(m.eq_obj1id[e]) == t
        for e in range(int(m.neq))
    )
    forces = [m.tendon_stiffness[t], m.tendon_damping[t], m.tendon_frictionloss[t]]
    forces.append(getattr(m, "tendon_armature", np.zeros(int(m.ntendon)))[t])
    driven = np.any((m.actuator_trntype == TRN_TENDON) & (m.actuator_trnid[:, 0] == t))
    return held and not np.any(forces) and not m.tendon_limited[t] and not driven


def _listed(m: Any, kind: str, count: int, limit: int = 6) -> str:
    names = [object_name(m, kind, i) or "unnamed" for i in range(count)]
    shown = ", ".join(names[:limit]) + (", …" if count > limit else "")
    return f"{count} ({shown})"


def not_represented(m: Any, tree: TreeMap) -> list[str]:
    """What compiled model ``m`` holds that eslabon's :class:`Model` does not, one entry
    per kind of element (what the single warning of :func:`read_mjcf` lists)."""
    out: list[str] = []
    colliding = int(np.count_nonzero((m.geom_contype != 0) | (m.geom_conaffinity != 0)))
    if colliding or m.npair:
        out.append(
            f"contacts ({colliding} colliding geoms, {int(m.npair)} <pair>, "
            f"{int(m.nexclude)} <exclude>)"
        )
    limited = [tree.joint_names[j] for j in range(int(m.njnt)) if m.jnt_limited[j]]
    if limited:
        out.append(f"joint limits of {len(limited)} joints (kept in MjcfInfo.limits)")
    if m.nu:
        out.append(f"actuators {_listed(m, 'actuator', int(m.nu))}: give the torques yourself")
    for what in ("actuator_armature", "tendon_armature"):  # MuJoCo adds these to its M
        if np.any(np.asarray(getattr(m, what, 0.0)) != 0.0):
            out.append(f"{what.replace('_', ' ')} (MuJoCo adds it to its mass matrix)")
    acting = [t for t in range(int(m.ntendon)) if not _only_coupling(m, t)]
    if acting:
        names = [object_name(m, "tendon", t) or "unnamed" for t in acting]
        out.append(f"tendons {len(names)} ({', '.join(names[:6])}{', …' * (len(names) > 6)})")
    if m.nsensor:
        out.append(f"sensors {_listed(m, 'sensor', int(m.nsensor))}")
    springs = [tree.joint_names[j] for j in range(int(m.njnt)) if m.jnt_stiffness[j] != 0.0]
    if springs:
        out.append(f"joint springs (stiffness, springref) of {springs}")
    for what, values in (("jnt_stiffnesspoly", "jnt_stiffnesspoly"),
                         ("dof_dampingpoly", "dof_dampingpoly")):  # fmt: skip
        if hasattr(m, values) and np.any(np.asarray(getattr(m, values)) != 0.0):
            out.append(f"nonlinear spring or damper terms ({what})")
    if np.any(m.body_gravcomp != 0.0):
        out.append(f"gravity compensation of {int(np.count_nonzero(m.body_gravcomp))} bodies")
    mocap = [tree.body_names[i] for i in range(int(m.nbody)) if m.body_mocapid[i] >= 0]
    if mocap:
        out.append(f"mocap bodies {mocap} (read as fixed to their parent)")
    if m.opt.density or m.opt.viscosity or np.any(m.opt.wind != 0.0):
        out.append("fluid forces (option density, viscosity, wind)")
    for count, what in ((m.nflex, "flexes"), (m.nskin, "skins"), (m.nplugin, "plugins")):
        if count:
            out.append(f"{int(count)} {what}")
    return out


def visuals(m: Any, tree: TreeMap, folder: Path) -> tuple[dict, dict, dict]:
    """({body name: [(kind, size, 4×4)]}, {body name: rgba}, {body name: [scale]}) of the
    geoms the viewer draws, as :class:`UrdfInfo` holds a URDF's visuals: boxes, spheres,
    cylinders, capsules (a cylinder and two spheres), ellipsoids (a sphere of the largest
    semi-axis) and meshes from STL, OBJ, Collada or glTF files (placed where MuJoCo placed
    its compiled copy: ``mesh_pos``, ``mesh_quat``, ``mesh_scale``); a mesh given inline or
    in MuJoCo's ``.msh`` format as its geom's bounding box. Planes and height fields are
    not drawn. When some geoms can neither collide nor be collided with
    (``contype = conaffinity = 0``: visual geoms), only those are drawn."""
    shapes: dict[str, list] = {name: [] for name in tree.body_names}
    scales: dict[str, list] = {name: [] for name in tree.body_names}
    colors: dict[str, list[float]] = {}
    visual_only = (m.geom_contype == 0) & (m.geom_conaffinity == 0)
    drawn = visual_only if visual_only.any() else np.ones(int(m.ngeom), dtype=bool)
    for g in np.flatnonzero(drawn):
        kind, size = int(m.geom_type[g]), np.asarray(m.geom_size[g], dtype=float)
        T = np.eye(4)
        T[:3, :3], T[:3, 3] = quat_matrix(m.geom_quat[g]), m.geom_pos[g]
        body = tree.body_names[int(m.geom_bodyid[g])]
        parts: list[tuple[Any, Any, Any]] = []
        if kind == G_BOX:
            parts.append(("box", {"size": (2 * size).tolist()}, T))
        elif kind in (G_SPHERE, G_ELLIPSOID):
            radius = size[:3].max() if kind == G_ELLIPSOID else size[0]  # a sphere: size[0]
            parts.append(("sphere", {"radius": [float(radius)]}, T))
        elif kind in (G_CYLINDER, G_CAPSULE):
            parts.append(("cylinder", {"radius": [size[0]], "length": [2 * size[1]]}, T))
            for sign in (1.0, -1.0) if kind == G_CAPSULE else ():
                end = T.copy()
                end[:3, 3] = T[:3, 3] + sign * size[1] * T[:3, 2]
                parts.append(("sphere", {"radius": [size[0]]}, end))
        elif kind == G_MESH:
            mesh = int(m.geom_dataid[g])
            file = _mesh_file(m, mesh)
            if Path(file).suffix.lower() in VIEWER_MESHES:
                parts += _mesh_part(m, mesh, file, T, folder)
            else:  # inline vertices, or MuJoCo's .msh: the geom's bounding box
                box = T.copy()  # (geom_aabb: centre and half sizes in the geom frame)
                box[:3, 3] = T[:3, :3] @ m.geom_aabb[g][:3] + T[:3, 3]
                parts.append(("box", {"size": (2 * m.geom_aabb[g][3:]).tolist()}, box))
        for part in parts:
            shapes[body].append(part)
            mesh_scale = m.mesh_scale[int(m.geom_dataid[g])] if part[0] == "mesh" else (1, 1, 1)
            scales[body].append(tuple(float(x) for x in mesh_scale))
        if parts and body not in colors:
            mat = int(m.geom_matid[g])
            rgba = m.mat_rgba[mat] if mat >= 0 else m.geom_rgba[g]
            colors[body] = [float(c) for c in rgba]
    return shapes, colors, scales


def _mesh_part(m: Any, mesh: int, file: str, T: Any, folder: Path) -> list:
    """The mesh file as a visual, placed where MuJoCo placed its compiled copy: the
    compiled vertices are the file's, scaled, less ``mesh_pos``, turned by ``mesh_quat``
    inverse, so the file's frame is the geom's times that offset inverted."""
    offset = np.eye(4)
    offset[:3, :3], offset[:3, 3] = quat_matrix(m.mesh_quat[mesh]), m.mesh_pos[mesh]
    path = Path(file).resolve()  # MuJoCo keeps the path it opened
    try:
        shown = path.relative_to(folder.resolve()).as_posix()
    except ValueError:  # outside the model's folder: the viewer decides
        shown = path.as_posix()
    return [("mesh", shown, T @ np.linalg.inv(offset))]


def _mesh_file(m: Any, mesh: int) -> str:
    adr = int(m.mesh_pathadr[mesh])
    if adr < 0:
        return ""
    raw = bytes(m.paths[adr:])
    return raw.split(b"\x00", 1)[0].decode("utf-8", errors="replace")


__all__ = ["add_sites", "equalities", "not_represented", "visuals"]
