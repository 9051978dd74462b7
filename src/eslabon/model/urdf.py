"""URDF front-end: read a URDF robot into the one :class:`~eslabon.model.Model`, write one out.

Supported (ROS URDF specification): ``revolute``, ``continuous``, ``prismatic`` and
``fixed`` joints with ``<origin xyz rpy>``, any ``<axis xyz>`` (default (1, 0, 0)),
``<limit lower upper>`` and ``<dynamics damping friction>`` (viscous and Coulomb friction);
links with ``<inertial>`` (origin, and the required ``<mass value>`` and ``<inertia>``
with all six of ixx, ixy, ixz, iyy, iyz, izz). rpy are fixed-axis roll, pitch, yaw:
R = Rz(yaw) Ry(pitch) Rx(roll). The root link is the fixed world; each other link
becomes the body moved by its parent joint, whose frame is the joint frame (as in URDF),
and every link is also a named frame. A leaf link on a fixed joint with neither mass nor
inertia (a tool or sensor frame) becomes a named frame only; every other link keeps its
inertia, a massless one too (as Pinocchio does).

Joint limits: ``UrdfInfo.limits`` holds (lower, upper) of each revolute and prismatic
joint whose ``<limit>`` gives lower < upper. eslabon keeps no limits in the dynamics, and
lower >= upper (e.g. lower=0 upper=-1, or both 0, or both left out) is the common way to
say "unlimited", so such a joint is accepted and recorded as unlimited (no entry).

Refused, with an error naming the element and its line: ``floating`` and ``planar``
joints, ``<mimic>``, closed loops (a link with two parent joints, or links that no path
from the root reaches), several roots or none, a joint whose parent is its child,
duplicate link or joint names, a second ``<origin>``/``<axis>``/``<inertial>``/... where
one is allowed, numbers that are not plain decimal numbers (``1_000``, ``nan``, ``inf``)
or of the wrong count, negative masses, damping, friction and visual sizes, unexpanded
xacro elements, and a document type declaration with an internal subset (entities and
attribute defaults that other URDF readers ignore). Leading white space or a byte order
mark before ``<?xml ...?>`` is skipped (line numbers still count it). A file larger than
:data:`MAX_URDF_BYTES` is refused before it is read. A fixed base only; gravity is not part
of URDF and is given by the caller.

Export (:func:`to_urdf`) writes each body as a link (inertial at its centre of mass) and
each joint with its placement, and each named frame (DH frames, ``ee``) as a massless link
on a fixed joint — which :func:`from_urdf` reads back as a frame, not a body; a revolute
joint is written ``continuous`` (our model keeps no joint limits), rotor inertia as
``<eslabon armature="…"/>`` inside the joint (an extension other readers ignore and
:func:`from_urdf` reads back). Every name is escaped, so any model name, body or frame name
reads back as the same text; a name with a character XML cannot hold (a control character)
is refused. Seed 001's sliding-COM models cannot be expressed and are refused.
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, AnyStr, cast, overload
from xml.parsers import expat
from xml.sax.saxutils import quoteattr

import numpy as np

from .._files import write_text_atomic
from ..conventions import FIXED, PRISMATIC, REVOLUTE, STANDARD_GRAVITY
from ..spatial import rot_x, rot_y, rot_z
from .builder import ModelBuilder

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

    from .model import Model

    # one <visual> shape: (kind, {attribute: sizes} or the mesh file name, origin 4x4)
    Visual = tuple[str, dict[str, list[float]] | str, NDArray[np.float64]]
    # child link -> (its parent joint's name, that <joint>, the parent link)
    ParentOf = dict[str, tuple[str, ET.Element, str]]

MAX_URDF_BYTES = 50 * 2**20
"""Largest URDF file read (50 MiB; robot descriptions with many links are a few MB)."""

_JOINTS = {"revolute": "R", "continuous": "R", "prismatic": "P", "fixed": "F"}
# eslabon joint type -> (URDF joint type, needs <limit>): a revolute joint is written
# continuous (the model keeps no limits); URDF requires limits on a prismatic joint
_URDF_JOINTS = {
    FIXED: ("fixed", False),
    REVOLUTE: ("continuous", False),
    PRISMATIC: ("prismatic", True),
}
_NUMBER = re.compile(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_INERTIA_ATTRS = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
_SHAPES = {"box": {"size": 3}, "cylinder": {"radius": 1, "length": 1}, "sphere": {"radius": 1}}
# XML 1.0 Char production: what a document may hold at all, escaped or not
_NOT_XML_CHAR = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


@dataclass(frozen=True)
class UrdfInfo:
    """What a URDF holds beyond the dynamics model: joint limits {joint: (lower, upper)}
    (only where lower < upper; see the module docstring), per link the visual geometry
    [(kind, size or mesh file name, origin 4×4)], and the joint name of each body 1..nb
    (``joint_names[i - 1]``) and of each DOF."""

    robot: str
    limits: dict[str, tuple[float, float]] = field(default_factory=dict)
    visuals: dict[str, list[Visual]] = field(default_factory=dict)
    joint_names: list[str] = field(default_factory=list)

    def dof_names(self, model: Model) -> list[str]:
        """The URDF joint name of each degree of freedom, in the model's q order."""
        return [self.joint_names[b - 1] for b in model.dof_bodies]


@overload
def _skip_leading_space(data: str) -> tuple[str, int, int]: ...
@overload
def _skip_leading_space(data: bytes) -> tuple[bytes, int, int]: ...


def _skip_leading_space(data: AnyStr) -> tuple[AnyStr, int, int]:
    """``data`` without a leading byte order mark and white space, and the (lines,
    columns) skipped, so that line numbers still count from the file's first line."""
    bom, space = ("\ufeff", " \t\r\n") if isinstance(data, str) else (b"\xef\xbb\xbf", b" \t\r\n")
    body = data[len(bom) :] if data.startswith(bom) else data
    body = body.lstrip(space)
    skipped = data[: len(data) - len(body)]
    text = skipped.decode("utf-8", "replace") if isinstance(skipped, bytes) else skipped
    breaks = text.replace("\r\n", "\n").replace("\r", "\n")
    return body, breaks.count("\n"), len(breaks.rsplit("\n", 1)[-1].lstrip("\ufeff"))


def _parse(data: str | bytes, where: str) -> ET.Element:
    """The element tree of ``data`` (text or bytes), each element carrying its source line
    as ``_line``."""
    data, line_offset, column_offset = _skip_leading_space(data)
    parser = expat.ParserCreate()
    stack: list[ET.Element] = []
    root: list[ET.Element] = []

    def line() -> int:
        return parser.CurrentLineNumber + line_offset

    def start(tag: str, attrs: dict[str, str]) -> None:
        if tag.startswith("xacro:"):
            raise ValueError(
                f"{where}: <{tag}> at line {line()}: this is a xacro file; "
                "expand it into plain URDF first (xacro FILE > robot.urdf)"
            )
        elem = ET.Element(tag, attrs)
        elem.set("_line", str(line()))
        (stack[-1].append(elem) if stack else root.append(elem))
        stack.append(elem)

    def doctype(
        name: str, system_id: str | None, public_id: str | None, has_internal_subset: bool
    ) -> None:
        if has_internal_subset:
            raise ValueError(
                f"{where}: <!DOCTYPE {name} [...]> at line {line()}: a document "
                "type declaration with an internal subset (entities, attribute "
                "defaults) is not supported in URDF"
            )

    parser.StartElementHandler = start
    parser.EndElementHandler = lambda tag: stack.pop()
    parser.StartDoctypeDeclHandler = doctype
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        column = exc.offset + 1 + (column_offset if exc.lineno == 1 else 0)
        raise ValueError(
            f"{where}: not valid XML ({expat.ErrorString(exc.code)}: line "
            f"{exc.lineno + line_offset}, column {column})"
        ) from None
    return root[0]


def _at(elem: ET.Element, where: str) -> str:
    return f"{where}: <{elem.tag}> at line {elem.get('_line')}"


def _one(elem: ET.Element | None, tag: str, where: str) -> ET.Element | None:
    """The one ``<tag>`` child of ``elem`` (None if there is none); a second is refused."""
    if elem is None:
        return None
    found = elem.findall(tag)
    if len(found) > 1:
        raise ValueError(
            f"{_at(found[1], where)}: a second <{tag}> in the <{elem.tag}> at "
            f"line {elem.get('_line')} (one is allowed)"
        )
    return found[0] if found else None


def _floats(
    elem: ET.Element | None, attr: str, n: int, default: ArrayLike | None, where: str
) -> NDArray[np.float64]:
    """``n`` finite decimal numbers from attribute ``attr`` (``default`` when it is absent;
    a required attribute has default None)."""
    raw = elem.get(attr) if elem is not None else None
    if raw is None:
        if default is None:  # a required attribute is only asked of an element present
            raise ValueError(
                f"{_at(cast(ET.Element, elem), where)}: {attr}: missing ({n} number"
                f"{'s' if n > 1 else ''} expected)"
            )
        return np.array(default, dtype=float)
    tokens = raw.split()
    vals = np.array([float(t) for t in tokens if _NUMBER.fullmatch(t)])
    if len(tokens) != n or len(vals) != n or not np.isfinite(vals).all():
        raise ValueError(
            f"{_at(cast(ET.Element, elem), where)}: {attr}: expected {n} finite number"
            f"{'s' if n > 1 else ''}, got {raw!r}"
        )
    return vals


def _nonnegative(elem: ET.Element | None, attr: str, where: str) -> float:
    """An optional attribute holding one number >= 0 (0 when absent)."""
    value = float(_floats(elem, attr, 1, (0.0,), where)[0])
    if value < 0.0:  # read from the attribute, so elem is an element
        raise ValueError(
            f"{_at(cast(ET.Element, elem), where)}: {attr}: expected a number >= 0, got {value}"
        )
    return value + 0.0


def rpy_matrix(rpy: Iterable[float]) -> NDArray[np.float64]:
    """R = Rz(yaw) Ry(pitch) Rx(roll) for URDF's fixed-axis roll, pitch, yaw."""
    r, p, y = rpy
    return rot_z(y) @ rot_y(p) @ rot_x(r)


def matrix_rpy(R: NDArray[np.float64]) -> NDArray[np.float64]:
    """(roll, pitch, yaw) with rpy_matrix(rpy) = R; roll = 0 at pitch = ±π/2."""
    pitch = np.arctan2(-R[2, 0], np.hypot(R[0, 0], R[1, 0]))
    if np.hypot(R[0, 0], R[1, 0]) < 1e-12:
        return np.array([0.0, pitch, np.arctan2(-R[0, 1], R[1, 1])])
    return np.array([np.arctan2(R[2, 1], R[2, 2]), pitch, np.arctan2(R[1, 0], R[0, 0])])


def _origin(elem: ET.Element | None, where: str) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    o = _one(elem, "origin", where) if elem is not None else None
    return (
        rpy_matrix(_floats(o, "rpy", 3, (0, 0, 0), where)),
        _floats(o, "xyz", 3, (0, 0, 0), where),
    )


def _inertial(
    link: ET.Element, where: str
) -> tuple[float, NDArray[np.float64], NDArray[np.float64]]:
    """(mass, COM, inertia about the COM in link axes); zeros without ``<inertial>``."""
    inertial = _one(link, "inertial", where)
    if inertial is None:
        return 0.0, np.zeros(3), np.zeros((3, 3))
    R, p = _origin(inertial, where)
    parts = {tag: _one(inertial, tag, where) for tag in ("mass", "inertia")}
    for tag, elem in parts.items():
        if elem is None:
            raise ValueError(
                f"{_at(inertial, where)}: <{tag}> missing (an <inertial> needs "
                "<mass value> and <inertia ixx ixy ixz iyy iyz izz>)"
            )
    mass = float(_floats(parts["mass"], "value", 1, None, where)[0])
    v = {k: float(_floats(parts["inertia"], k, 1, None, where)[0]) for k in _INERTIA_ATTRS}
    I = np.array(
        [
            [v["ixx"], v["ixy"], v["ixz"]],
            [v["ixy"], v["iyy"], v["iyz"]],
            [v["ixz"], v["iyz"], v["izz"]],
        ]
    )
    return mass, p, R @ I @ R.T


def _visuals(link: ET.Element, where: str) -> list[Visual]:
    out: list[Visual] = []
    for vis in link.findall("visual"):
        R, p = _origin(vis, where)
        T = np.eye(4)
        T[:3, :3], T[:3, 3] = R, p
        geom = _one(vis, "geometry", where)
        for shape in list(geom) if geom is not None else []:
            if shape.tag == "mesh":
                filename = shape.get("filename")
                if not filename:
                    raise ValueError(f"{_at(shape, where)}: filename: missing")
                out.append(("mesh", filename, T))
            elif shape.tag in _SHAPES:
                size: dict[str, list[float]] = {}
                for attr, n in _SHAPES[shape.tag].items():
                    values = _floats(shape, attr, n, None, where)
                    if (values < 0).any():
                        raise ValueError(
                            f"{_at(shape, where)}: {attr}: expected sizes >= 0, "
                            f"got {shape.get(attr)!r}"
                        )
                    size[attr] = values.tolist()
                out.append((shape.tag, size, T))
    return out


def _named(elements: Iterable[ET.Element], kind: str, where: str) -> dict[str, ET.Element]:
    """{name: element} of the ``<link>`` or ``<joint>`` elements; each needs a name that no
    other element of its kind has."""
    named: dict[str, ET.Element] = {}
    for elem in elements:
        name = elem.get("name")
        if not name:
            raise ValueError(f"{_at(elem, where)}: name: missing")
        if name in named:
            raise ValueError(
                f"{_at(elem, where)}: name {name!r} is already the name of the "
                f"<{kind}> at line {named[name].get('_line')}; {kind} names must "
                "differ"
            )
        named[name] = elem
    return named


def _loop_through(link: str, parent_of: ParentOf) -> list[str]:
    """The links of the joint loop that ``link`` is in or hangs from."""
    path: list[str] = []
    while link not in path:
        path.append(link)
        link = parent_of[link][2]
    return path[path.index(link) :]


def _joint_tree(
    robot: ET.Element, links: Mapping[str, ET.Element], where: str
) -> tuple[str, dict[str, list[str]], ParentOf]:
    """(root link, {parent link: [child links]}, {child link: (joint name, joint, parent)})
    from the ``<joint>`` elements; a joint that cannot be part of a tree is refused."""
    joints = _named(robot.findall("joint"), "joint", where)
    children: dict[str, list[str]] = {}
    parent_of: ParentOf = {}
    for jname, j in joints.items():
        jtype = j.get("type")
        if jtype is None:
            raise ValueError(
                f"{_at(j, where)} {jname!r}: type: missing (expected revolute, "
                "continuous, prismatic or fixed)"
            )
        if jtype not in _JOINTS:
            raise ValueError(
                f"{_at(j, where)} {jname!r}: type {jtype!r} is not supported "
                f"(expected revolute, continuous, prismatic or fixed)"
            )
        mimic = _one(j, "mimic", where)
        if mimic is not None:
            raise ValueError(
                f"{_at(mimic, where)} in joint {jname!r}: mimic joints are not supported"
            )
        ends: dict[str, str] = {}
        for role in ("parent", "child"):
            elem = _one(j, role, where)
            if elem is None:
                raise ValueError(f"{_at(j, where)} {jname!r}: expected <parent> and <child>")
            link = elem.get("link")
            if link is None:
                raise ValueError(f"{_at(elem, where)} in joint {jname!r}: link: missing")
            if link not in links:
                raise ValueError(f"{_at(j, where)} {jname!r}: {role} link {link!r} is not defined")
            ends[role] = link
        p, c = ends["parent"], ends["child"]
        if p == c:
            raise ValueError(
                f"{_at(j, where)} {jname!r}: link {c!r} is both its parent and its child"
            )
        if c in parent_of:
            raise ValueError(
                f"{_at(j, where)} {jname!r}: link {c!r} already has parent joint "
                f"{parent_of[c][0]!r} (closed loops are not supported)"
            )
        parent_of[c] = (jname, j, p)
        children.setdefault(p, []).append(c)
    roots = [lk for lk in links if lk not in parent_of]
    if not roots:
        loop = _loop_through(next(iter(links)), parent_of)
        raise ValueError(
            f"{where}: no root link: every link has a parent joint; the joints "
            f"{[parent_of[lk][0] for lk in loop]} form a loop through the links "
            f"{loop} (closed loops are not supported)"
        )
    if len(roots) > 1:
        listed = ", ".join(f"{lk!r} (line {links[lk].get('_line')})" for lk in roots)
        raise ValueError(
            f"{where}: expected one root link (a link that is no joint's "
            f"child), found {len(roots)}: {listed}"
        )
    reached, queue = {roots[0]}, deque([roots[0]])
    while queue:
        for child in children.get(queue.popleft(), []):
            reached.add(child)
            queue.append(child)
    apart = [lk for lk in links if lk not in reached]
    if apart:
        loop = _loop_through(apart[0], parent_of)
        raise ValueError(
            f"{where}: link(s) {apart} are not connected to the root link "
            f"{roots[0]!r}: the joints {[parent_of[lk][0] for lk in loop]} form a "
            f"loop through the links {loop} (closed loops are not supported)"
        )
    return roots[0], children, parent_of


def read_urdf(
    source: str | Path,
    *,
    gravity: ArrayLike = STANDARD_GRAVITY,
    name: str | None = None,
    strict: bool = False,
) -> tuple[Model, UrdfInfo]:
    """(Model, UrdfInfo) from a URDF file path or URDF text. ``strict`` refuses an inertia
    no rigid body can have (otherwise a warning names the body)."""
    text, where = _source(source)
    robot = _parse(text, where)
    if robot.tag != "robot":
        raise ValueError(f"{where}: expected a <robot> root element, got <{robot.tag}>")
    for el in robot.iter("loop_joint"):
        raise ValueError(
            f"{_at(el, where)}: closed loops are not supported (serial and tree robots only)"
        )
    links = _named(robot.findall("link"), "link", where)
    if not links:
        raise ValueError(
            f"{_at(robot, where)}: no <link> element (a robot needs at least its root link)"
        )
    root, children, parent_of = _joint_tree(robot, links, where)
    b = ModelBuilder()
    body_of = {root: 0}
    info = UrdfInfo(robot.get("name", ""), {}, {root: _visuals(links[root], where)})
    queue = deque([root])
    while queue:
        lk = queue.popleft()
        for child in children.get(lk, []):
            jname, j, _ = parent_of[child]
            R, p = _origin(j, where)
            mass, com, inertia = _inertial(links[child], where)
            if (
                j.get("type") == "fixed"
                and child not in children
                and mass == 0.0
                and not inertia.any()
            ):
                b.add_frame(child, body_of[lk], R, p)  # no mass, no inertia: a named frame
                info.visuals[child] = _visuals(links[child], where)
                continue
            kind = _JOINTS[j.attrib["type"]]  # a known type: _joint_tree checked it
            axis = _floats(_one(j, "axis", where), "xyz", 3, (1.0, 0.0, 0.0), where)
            if kind != "F":
                if np.linalg.norm(axis) < 1e-12:
                    raise ValueError(f"{_at(j, where)} {jname!r}: axis: expected a non-zero vector")
                axis = axis / np.linalg.norm(axis)
            dyn = _one(j, "dynamics", where)
            ext = _one(j, "eslabon", where)
            body_of[child] = b.add_body(
                body_of[lk],
                kind,
                axis=axis,
                rotation=R,
                translation=p,
                mass=mass,
                com=com,
                inertia=inertia,
                viscous=_nonnegative(dyn, "damping", where),
                coulomb=_nonnegative(dyn, "friction", where),
                armature=_nonnegative(ext, "armature", where),
                name=child,
                where=f"{_at(links[child], where)} {child!r}",
            )
            b.add_frame(child, body_of[child])
            info.joint_names.append(jname)
            limit = _one(j, "limit", where)
            if limit is not None and j.get("type") in ("revolute", "prismatic"):
                lo = float(_floats(limit, "lower", 1, (0.0,), where)[0])
                hi = float(_floats(limit, "upper", 1, (0.0,), where)[0])
                if lo < hi:  # lower >= upper: unlimited (module docstring)
                    info.limits[jname] = (lo, hi)
            info.visuals[child] = _visuals(links[child], where)
            queue.append(child)
    model = b.build(
        gravity=gravity,
        name=name or robot.get("name") or "urdf",
        source=f"URDF {where}",
        strict=strict,
    )
    return model, info


def from_urdf(
    source: str | Path,
    *,
    gravity: ArrayLike = STANDARD_GRAVITY,
    name: str | None = None,
    strict: bool = False,
) -> Model:
    """A :class:`Model` from a URDF file path or URDF text (see :func:`read_urdf`)."""
    return read_urdf(source, gravity=gravity, name=name, strict=strict)[0]


def _source(source: str | Path) -> tuple[str | bytes, str]:
    """(bytes of the file or the text, a name for messages) of a path or URDF text."""
    if isinstance(source, Path) or (
        isinstance(source, str) and not source.lstrip("\ufeff \t\r\n").startswith("<")
    ):
        path = Path(source)
        if not path.is_file():
            raise ValueError(f"path: no such URDF file {str(path)!r}")
        size = path.stat().st_size
        if size > MAX_URDF_BYTES:
            raise ValueError(
                f"{path}: {size} bytes is larger than the {MAX_URDF_BYTES} bytes "
                "a URDF file may have"
            )
        with open(path, "rb") as handle:
            data = handle.read(MAX_URDF_BYTES + 1)
        if len(data) > MAX_URDF_BYTES:
            raise ValueError(f"{path}: larger than the {MAX_URDF_BYTES} bytes a URDF file may have")
        return data, str(path)
    if not isinstance(source, str):
        raise ValueError(f"source: expected a URDF file path or URDF text, got {type(source)}")
    return source, "URDF text"


def _fmt(v: ArrayLike) -> str:
    return quoteattr(" ".join(repr(float(x)) for x in np.ravel(v)))


def _xml_name(name: str, field: str) -> str:
    """``name`` as a quoted, escaped attribute value; a character that no XML document can
    hold (a control character) is refused."""
    bad = _NOT_XML_CHAR.search(name)
    if bad:
        raise ValueError(
            f"{field}: {name!r} holds {bad.group()!r}, a character XML cannot "
            "hold, so it cannot be written as URDF"
        )
    return quoteattr(name)


def _comment(text: str) -> str:
    """An XML comment holding ``text`` (``--`` may not appear inside one, nor end it)."""
    text = _NOT_XML_CHAR.sub("?", text)
    while "--" in text:
        text = text.replace("--", "- -")
    return f"<!-- {text} -->"


def to_urdf(model: Model, path: str | os.PathLike[str] | None = None) -> str:
    """URDF text for ``model`` (written to ``path`` too when given). Every body becomes a
    link and joint; each frame that is not a body's own becomes a massless link on a fixed
    joint; the root link is ``world`` (or ``world_1``, ... if a body or frame has that
    name)."""
    model.require_rigid_links("to_urdf (URDF links are rigid bodies)")
    body = {i: _xml_name(model.body_names[i], f"body_names[{i}]") for i in range(1, model.nb + 1)}
    taken = set(model.body_names[1:]) | {fr.name for fr in model.frames}
    root, k = "world", 0
    while root in taken:
        k += 1
        root = f"world_{k}"
    body[0] = quoteattr(root)
    joint = {
        i: _xml_name(f"joint_{model.body_names[i]}", f"body_names[{i}]")
        for i in range(1, model.nb + 1)
    }
    out = [
        '<?xml version="1.0"?>',
        f"<robot name={_xml_name(model.name, 'name')}>",
        "  "
        + _comment(
            f"written by eslabon; gravity {list(map(float, model.gravity))} is not part of URDF"
        ),
        f"  <link name={body[0]}/>",
    ]
    for i in range(1, model.nb + 1):
        I = model.inertia[i]
        out += [
            f"  <link name={body[i]}>",
            "    <inertial>",
            f'      <origin xyz={_fmt(model.com[i])} rpy="0 0 0"/>',
            f"      <mass value={_fmt(model.mass[i])}/>",
            f"      <inertia ixx={_fmt(I[0, 0])} ixy={_fmt(I[0, 1])} "
            f"ixz={_fmt(I[0, 2])} iyy={_fmt(I[1, 1])} iyz={_fmt(I[1, 2])} "
            f"izz={_fmt(I[2, 2])}/>",
            "    </inertial>",
            "  </link>",
        ]
        kind, limited = _URDF_JOINTS[int(model.joint_type[i])]
        out += [
            f'  <joint name={joint[i]} type="{kind}">',
            f"    <parent link={body[int(model.parent[i])]}/>",
            f"    <child link={body[i]}/>",
            f"    <origin xyz={_fmt(model.tree_translation[i])} "
            f"rpy={_fmt(matrix_rpy(model.tree_rotation[i]))}/>",
        ]
        if kind != "fixed":
            out.append(f"    <axis xyz={_fmt(model.axis[i])}/>")
            if limited:
                out.append('    <limit lower="-1e9" upper="1e9" effort="1e9" velocity="1e9"/>')
            out.append(
                f"    <dynamics damping={_fmt(model.viscous[i])} "
                f"friction={_fmt(model.coulomb[i])}/>"
            )
            if model.armature[i]:
                out.append(f"    <eslabon armature={_fmt(model.armature[i])}/>")
        out.append("  </joint>")
    for fr in model.frames:
        if fr.name in model.body_names[1:]:  # a body's own frame: that link already
            continue
        link = _xml_name(fr.name, f"frame {fr.name!r}")
        out += [
            f"  <link name={link}/>",
            f'  <joint name={_xml_name("frame_" + fr.name, f"frame {fr.name!r}")} type="fixed">',
            f"    <parent link={body[fr.body]}/>",
            f"    <child link={link}/>",
            f"    <origin xyz={_fmt(fr.translation)} rpy={_fmt(matrix_rpy(fr.rotation))}/>",
            "  </joint>",
        ]
    out.append("</robot>")
    text = "\n".join(out) + "\n"
    if path is not None:
        write_text_atomic(path, text)
    return text
