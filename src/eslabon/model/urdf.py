"""URDF front-end: read a URDF robot into the one :class:`~eslabon.model.Model`, write one out.

Supported (ROS URDF specification): ``revolute``, ``continuous``, ``prismatic`` and
``fixed`` joints with ``<origin xyz rpy>``, any ``<axis xyz>`` (default (1, 0, 0)),
``<limit lower upper>`` and ``<dynamics damping friction>`` (viscous and Coulomb friction);
links with ``<inertial>`` (origin, mass, inertia). rpy are fixed-axis roll, pitch, yaw:
R = Rz(yaw) Ry(pitch) Rx(roll). The root link is the fixed world; each other link
becomes the body moved by its parent joint, whose frame is the joint frame (as in URDF),
and every link is also a named frame; a massless leaf link on a fixed joint (a tool or
sensor frame) becomes a named frame only. Not supported, with an error naming the element and
its line: ``floating`` and ``planar`` joints, ``<mimic>``, closed loops (a link with two
parent joints), more than one root. A fixed base only; gravity is not part of URDF and is
given by the caller.

Export (:func:`to_urdf`) writes each body as a link (inertial at its centre of mass) and
each joint with its placement, and each named frame (DH frames, ``ee``) as a massless link
on a fixed joint — which :func:`from_urdf` reads back as a frame, not a body; a revolute
joint is written ``continuous`` (our model keeps no joint limits), rotor inertia as ``<eslabon armature="…"/>`` inside the joint (an
extension other readers ignore and :func:`from_urdf` reads back). Seed 001's sliding-COM
models cannot be expressed and are refused.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from xml.parsers import expat
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .._files import write_text_atomic
from ..conventions import FIXED, PRISMATIC, STANDARD_GRAVITY
from ..spatial import rot_x, rot_y, rot_z
from .builder import ModelBuilder

_JOINTS = {"revolute": "R", "continuous": "R", "prismatic": "P", "fixed": "F"}


@dataclass(frozen=True)
class UrdfInfo:
    """What a URDF holds beyond the dynamics model: joint limits {joint: (lower, upper)},
    per link the visual geometry [(kind, size or mesh file name, origin 4×4)], and the
    joint name of each body 1..nb (``joint_names[i - 1]``) and of each DOF."""
    robot: str
    limits: dict = field(default_factory=dict)
    visuals: dict = field(default_factory=dict)
    joint_names: list = field(default_factory=list)

    def dof_names(self, model) -> list:
        """The URDF joint name of each degree of freedom, in the model's q order."""
        return [self.joint_names[b - 1] for b in model.dof_bodies]


def _parse(text: str, where: str):
    """The element tree of ``text``, each element carrying its source line as ``_line``."""
    parser = expat.ParserCreate()
    stack, root = [], []

    def start(tag, attrs):
        elem = ET.Element(tag, attrs)
        elem.set("_line", str(parser.CurrentLineNumber))
        (stack[-1].append(elem) if stack else root.append(elem))
        stack.append(elem)

    parser.StartElementHandler = start
    parser.EndElementHandler = lambda tag: stack.pop()
    try:
        parser.Parse(text, True)
    except expat.ExpatError as exc:
        raise ValueError(f"{where}: not valid XML ({exc})") from None
    return root[0]


def _at(elem, where):
    return f"{where}: <{elem.tag}> at line {elem.get('_line')}"


def _floats(elem, attr, n, default, where):
    raw = elem.get(attr) if elem is not None else None
    if raw is None:
        return np.array(default, dtype=float)
    try:
        vals = np.array([float(x) for x in raw.split()])
    except ValueError:
        raise ValueError(f"{_at(elem, where)}: {attr}: expected {n} numbers, got {raw!r}") from None
    if vals.shape != (n,) or not np.isfinite(vals).all():
        raise ValueError(f"{_at(elem, where)}: {attr}: expected {n} finite numbers, got {raw!r}")
    return vals


def rpy_matrix(rpy):
    """R = Rz(yaw) Ry(pitch) Rx(roll) for URDF's fixed-axis roll, pitch, yaw."""
    r, p, y = rpy
    return rot_z(y) @ rot_y(p) @ rot_x(r)


def matrix_rpy(R):
    """(roll, pitch, yaw) with rpy_matrix(rpy) = R; roll = 0 at pitch = ±π/2."""
    pitch = np.arctan2(-R[2, 0], np.hypot(R[0, 0], R[1, 0]))
    if np.hypot(R[0, 0], R[1, 0]) < 1e-12:
        return np.array([0.0, pitch, np.arctan2(-R[0, 1], R[1, 1])])
    return np.array([np.arctan2(R[2, 1], R[2, 2]), pitch, np.arctan2(R[1, 0], R[0, 0])])


def _origin(elem, where):
    o = elem.find("origin") if elem is not None else None
    return (rpy_matrix(_floats(o, "rpy", 3, (0, 0, 0), where)),
            _floats(o, "xyz", 3, (0, 0, 0), where))


def _inertial(link, where):
    inertial = link.find("inertial")
    if inertial is None:
        return 0.0, np.zeros(3), np.zeros((3, 3))
    R, p = _origin(inertial, where)
    mass_el = inertial.find("mass")
    mass = float(_floats(mass_el, "value", 1, (0.0,), where)[0]) if mass_el is not None else 0.0
    i_el = inertial.find("inertia")
    names = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
    v = {k: (float(_floats(i_el, k, 1, (0.0,), where)[0]) if i_el is not None else 0.0)
         for k in names}
    I = np.array([[v["ixx"], v["ixy"], v["ixz"]], [v["ixy"], v["iyy"], v["iyz"]],
                  [v["ixz"], v["iyz"], v["izz"]]])
    return mass, p, R @ I @ R.T


def _visuals(link, where):
    out = []
    for vis in link.findall("visual"):
        R, p = _origin(vis, where)
        T = np.eye(4)
        T[:3, :3], T[:3, 3] = R, p
        geom = vis.find("geometry")
        for shape in (list(geom) if geom is not None else []):
            if shape.tag == "mesh":
                out.append(("mesh", shape.get("filename", ""), T))
            elif shape.tag in ("box", "cylinder", "sphere"):
                size = {k: [float(x) for x in v.split()] for k, v in shape.attrib.items()
                        if k != "_line"}
                out.append((shape.tag, size, T))
    return out


def read_urdf(source, *, gravity=STANDARD_GRAVITY, name=None, strict: bool = False):
    """(Model, UrdfInfo) from a URDF file path or URDF text. ``strict`` refuses an inertia
    no rigid body can have (otherwise a warning names the body)."""
    text, where = _source(source)
    robot = _parse(text, where)
    if robot.tag != "robot":
        raise ValueError(f"{where}: expected a <robot> root element, got <{robot.tag}>")
    for tag in ("loop_joint",):
        for el in robot.iter(tag):
            raise ValueError(f"{_at(el, where)}: closed loops are not supported (serial and "
                             f"tree robots only)")
    links = {}
    for link in robot.findall("link"):
        lname = link.get("name")
        if not lname:
            raise ValueError(f"{_at(link, where)}: name: missing")
        links[lname] = link
    joints, parent_of = {}, {}
    for j in robot.findall("joint"):
        jname, jtype = j.get("name"), j.get("type")
        if jtype not in _JOINTS:
            raise ValueError(f"{_at(j, where)} {jname!r}: type {jtype!r} is not supported "
                             f"(expected revolute, continuous, prismatic or fixed)")
        if j.find("mimic") is not None:
            raise ValueError(f"{_at(j.find('mimic'), where)} in joint {jname!r}: mimic joints "
                             f"are not supported")
        parent, child = j.find("parent"), j.find("child")
        if parent is None or child is None:
            raise ValueError(f"{_at(j, where)} {jname!r}: expected <parent> and <child>")
        p, c = parent.get("link"), child.get("link")
        for role, lk in (("parent", p), ("child", c)):
            if lk not in links:
                raise ValueError(f"{_at(j, where)} {jname!r}: {role} link {lk!r} is not defined")
        if c in parent_of:
            raise ValueError(f"{_at(j, where)} {jname!r}: link {c!r} already has parent joint "
                             f"{parent_of[c][0]!r} (closed loops are not supported)")
        parent_of[c] = (jname, j, p)
        joints.setdefault(p, []).append(c)
    roots = [lk for lk in links if lk not in parent_of]
    if len(roots) != 1:
        raise ValueError(f"{where}: expected one root link, found {roots or 'none (a loop)'}")
    b = ModelBuilder()
    body_of = {roots[0]: 0}
    info = UrdfInfo(robot.get("name", ""), {}, {roots[0]: _visuals(links[roots[0]], where)})
    queue = deque([roots[0]])
    while queue:
        lk = queue.popleft()
        for child in joints.get(lk, []):
            jname, j, _ = parent_of[child]
            R, p = _origin(j, where)
            if j.get("type") == "fixed" and child not in joints \
                    and _inertial(links[child], where)[0] == 0.0:
                b.add_frame(child, body_of[lk], R, p)      # a massless leaf: a named frame
                info.visuals[child] = _visuals(links[child], where)
                continue
            axis = _floats(j.find("axis"), "xyz", 3, (1.0, 0.0, 0.0), where)
            if _JOINTS[j.get("type")] != "F":
                if np.linalg.norm(axis) < 1e-12:
                    raise ValueError(f"{_at(j, where)} {jname!r}: axis: expected a non-zero vector")
                axis = axis / np.linalg.norm(axis)
            dyn = j.find("dynamics")
            mass, com, inertia = _inertial(links[child], where)
            ext = j.find("eslabon")
            body_of[child] = b.add_body(
                body_of[lk], _JOINTS[j.get("type")], axis=axis, rotation=R, translation=p,
                mass=mass, com=com, inertia=inertia,
                viscous=float(_floats(dyn, "damping", 1, (0.0,), where)[0]),
                coulomb=float(_floats(dyn, "friction", 1, (0.0,), where)[0]),
                armature=float(_floats(ext, "armature", 1, (0.0,), where)[0]),
                name=child, where=f"{_at(links[child], where)} {child!r}")
            b.add_frame(child, body_of[child])
            info.joint_names.append(jname)
            limit = j.find("limit")
            if limit is not None and j.get("type") in ("revolute", "prismatic"):
                lo = float(_floats(limit, "lower", 1, (0.0,), where)[0])
                hi = float(_floats(limit, "upper", 1, (0.0,), where)[0])
                if lo > hi:
                    raise ValueError(f"{_at(limit, where)} of {jname!r}: lower {lo} > upper {hi}")
                info.limits[jname] = (lo, hi)
            info.visuals[child] = _visuals(links[child], where)
            queue.append(child)
    model = b.build(gravity=gravity, name=name or robot.get("name") or "urdf",
                    source=f"URDF {where}", strict=strict)
    return model, info


def from_urdf(source, *, gravity=STANDARD_GRAVITY, name=None, strict: bool = False):
    """A :class:`Model` from a URDF file path or URDF text (see :func:`read_urdf`)."""
    return read_urdf(source, gravity=gravity, name=name, strict=strict)[0]


def _source(source):
    if isinstance(source, Path) or (isinstance(source, str) and not source.lstrip().startswith("<")):
        path = Path(source)
        if not path.is_file():
            raise ValueError(f"path: no such URDF file {str(path)!r}")
        return path.read_text(), str(path)
    if not isinstance(source, str):
        raise ValueError(f"source: expected a URDF file path or URDF text, got {type(source)}")
    return source, "URDF text"


def _fmt(v):
    return " ".join(repr(float(x)) for x in np.ravel(v))


def to_urdf(model, path=None) -> str:
    """URDF text for ``model`` (written to ``path`` too when given)."""
    if model.has_moving_com:
        raise ValueError("model: a sliding COM (seed 001 book mode) cannot be written as URDF")
    names = ["world"] + [f"{model.body_names[i]}" for i in range(1, model.nb + 1)]
    if len(set(names)) != len(names):
        names = ["world"] + [f"{n}_{i}" for i, n in enumerate(names[1:], start=1)]
    out = ['<?xml version="1.0"?>', f'<robot name="{model.name}">',
           f'  <!-- written by eslabon; gravity {list(map(float, model.gravity))} is not part '
           f'of URDF -->', '  <link name="world"/>']
    for i in range(1, model.nb + 1):
        I = model.inertia[i]
        out += [f'  <link name="{names[i]}">', '    <inertial>',
                f'      <origin xyz="{_fmt(model.com[i])}" rpy="0 0 0"/>',
                f'      <mass value="{_fmt(model.mass[i])}"/>',
                f'      <inertia ixx="{_fmt(I[0, 0])}" ixy="{_fmt(I[0, 1])}" '
                f'ixz="{_fmt(I[0, 2])}" iyy="{_fmt(I[1, 1])}" iyz="{_fmt(I[1, 2])}" '
                f'izz="{_fmt(I[2, 2])}"/>',
                '    </inertial>', '  </link>']
        jt = model.joint_type[i]
        kind = "fixed" if jt == FIXED else ("prismatic" if jt == PRISMATIC else "continuous")
        out += [f'  <joint name="joint_{names[i]}" type="{kind}">',
                f'    <parent link="{names[model.parent[i]]}"/>',
                f'    <child link="{names[i]}"/>',
                f'    <origin xyz="{_fmt(model.tree_translation[i])}" '
                f'rpy="{_fmt(matrix_rpy(model.tree_rotation[i]))}"/>']
        if jt != FIXED:
            out.append(f'    <axis xyz="{_fmt(model.axis[i])}"/>')
            if jt == PRISMATIC:
                out.append('    <limit lower="-1e9" upper="1e9" effort="1e9" velocity="1e9"/>')
            out.append(f'    <dynamics damping="{_fmt(model.viscous[i])}" '
                       f'friction="{_fmt(model.coulomb[i])}"/>')
            if model.armature[i]:
                out.append(f'    <eslabon armature="{_fmt(model.armature[i])}"/>')
        out.append('  </joint>')
    for fr in model.frames:
        if fr.name in names:
            continue
        out += [f'  <link name="{fr.name}"/>',
                f'  <joint name="frame_{fr.name}" type="fixed">',
                f'    <parent link="{names[fr.body]}"/>', f'    <child link="{fr.name}"/>',
                f'    <origin xyz="{_fmt(fr.translation)}" rpy="{_fmt(matrix_rpy(fr.rotation))}"/>',
                '  </joint>']
    out.append('</robot>')
    text = "\n".join(out) + "\n"
    if path is not None:
        write_text_atomic(path, text)
    return text
