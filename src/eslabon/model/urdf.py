"""URDF front-end: read a URDF robot into the one :class:`~eslabon.model.Model`.

Supported (ROS URDF specification): ``revolute``, ``continuous``, ``prismatic``,
``fixed``, ``floating`` and ``planar`` joints with ``<origin xyz rpy>``, any ``<axis xyz>``
(default (1, 0, 0)), ``<limit lower upper>`` and ``<dynamics damping friction>`` (viscous
and Coulomb friction); links with ``<inertial>`` (origin, and the required ``<mass value>``
and ``<inertia>`` with all six of ixx, ixy, ixz, iyy, iyz, izz). rpy are fixed-axis roll,
pitch, yaw: R = Rz(yaw) Ry(pitch) Rx(roll). The root link is the fixed world; each other
link becomes the body moved by its parent joint, whose frame is the joint frame (as in
URDF), and every link is also a named frame. A leaf link on a fixed joint with neither mass
nor inertia (a tool or sensor frame) becomes a named frame only; every other link keeps its
inertia, a massless one too (as Pinocchio does).

A ``floating`` joint is a ``free_flyer`` (its ``<axis>`` is ignored, as URDF says). A
``planar`` joint's ``<axis>`` is the normal of its plane, and eslabon's planar joint moves
in its joint frame's xy plane: the axis must be +z (0 0 1 after normalising; rotate the
joint's ``<origin>`` so that its z is the normal), any other is refused. Conventions of
both: ``docs/conventions.md``. ``read_urdf(..., root_joint="free_flyer")`` (or
``"planar"``) makes the root link a body on that joint from the world at the identity
placement, named ``root_joint``: Pinocchio's ``buildModel(urdf, JointModelFreeFlyer())``.

Joint limits: ``UrdfInfo.limits`` holds (lower, upper) of each revolute and prismatic
joint whose ``<limit>`` gives lower < upper. eslabon keeps no limits in the dynamics, and
lower >= upper (e.g. lower=0 upper=-1, or both 0, or both left out) is the common way to
say "unlimited", so such a joint is accepted and recorded as unlimited (no entry).

Mimic joints: ``<mimic joint multiplier offset>`` (defaults 1 and 0) makes a joint's
value multiplier · (the named joint's) + offset (:mod:`eslabon.model.mimic`); it is
refused when the named joint is not a moving joint of the same type, or the mimics loop,
and ignored on a fixed joint (as Pinocchio does: such a joint does not move).

Refused, with an error naming the element and its line: other joint types, a planar
joint whose axis is not +z, closed loops (a link with two parent joints, or
links that no path from the root reaches), several roots or none, a joint whose parent is
its child, duplicate link or joint names, a second ``<origin>``/``<axis>``/``<inertial>``/...
where one is allowed, numbers that are not plain decimal numbers (``1_000``, ``nan``,
``inf``) or of the wrong count, negative masses, damping, friction and visual sizes,
unexpanded xacro elements, and a document type declaration with an internal subset
(entities and attribute defaults that other URDF readers ignore). Leading white space or a
byte order mark before ``<?xml ...?>`` is skipped (line numbers still count it). A file
larger than :data:`MAX_URDF_BYTES` is refused before it is read. Gravity is not part of
URDF and is given by the caller.

Export: :func:`to_urdf` (:mod:`eslabon.model.urdf_export`, re-exported here).
"""

from __future__ import annotations

import re
import weakref
import xml.etree.ElementTree as ET
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .._engine.layout import JOINT_NAMES
from ..conventions import STANDARD_GRAVITY
from .builder import ModelBuilder
from .urdf_elements import (  # rpy_matrix importable from here
    _at,
    _floats,
    _inertial,
    _named,
    _nonnegative,
    _one,
    _origin,
    _visual_styles,
    _visuals,
    rpy_matrix,
)
from .urdf_end_effector import (  # noqa: F401 (importable from here)
    TOOL_FRAMES,
    _end_effector,
    end_effector_rule,
)
from .urdf_export import _comment, matrix_rpy, to_urdf  # noqa: F401 (importable from here)
from .urdf_xml import MAX_URDF_BYTES, parse_urdf_xml, urdf_source
from .validate import short_repr

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

    from .model import Model
    from .urdf_elements import Visual

    # child link -> (its parent joint's name, that <joint>, the parent link)
    ParentOf = dict[str, tuple[str, ET.Element, str]]

# URDF joint type -> eslabon joint type
_JOINTS = {
    "revolute": "revolute",
    "continuous": "revolute",
    "prismatic": "prismatic",
    "fixed": "fixed",
    "floating": "free_flyer",
    "planar": "planar",
}
_EXPECTED_TYPES = "revolute, continuous, prismatic, fixed, floating or planar"
ROOT_JOINTS = ("free_flyer", "planar")
"""The joints ``read_urdf(..., root_joint=...)`` can hang the root link from the world on."""
ROOT_JOINT_NAME = "root_joint"
"""The name of that joint in :attr:`UrdfInfo.joint_names` (Pinocchio's name for it)."""


@dataclass(frozen=True)
class UrdfInfo:
    """What a URDF holds beyond the dynamics model.

    Joint limits {joint: (lower, upper)} (only where lower < upper; lower ≥ upper is
    URDF's usual "unlimited"), per link the visual geometry [(kind, size or mesh file
    name, origin 4×4)], the link that is the end effector ``ee`` and the rule that chose
    it (``read_urdf``'s ``ee``), and the joint name of each body 1..nb
    (``joint_names[i - 1]``) and of each DOF.

    Returned by :func:`read_urdf` beside the :class:`Model`; the model keeps no limits,
    visuals or URDF joint names.

    Attributes
    ----------
    robot : str
        The ``<robot>`` element's ``name`` (``""`` when it has none).
    limits : dict
        ``{joint name: (lower, upper)}`` [rad or m] for each ``revolute`` or ``prismatic``
        joint whose ``<limit>`` has lower < upper; an unlimited joint (lower ≥ upper, a
        ``continuous`` joint, no ``<limit>``) has no entry.
    visuals : dict
        ``{link name: [(kind, size, origin), ...]}`` for every link, the root's included
        (an empty list without ``<visual>``): ``kind`` is ``"box"``, ``"cylinder"``,
        ``"sphere"`` or ``"mesh"``; ``size`` is ``{"size": [x, y, z]}``,
        ``{"radius": [r], "length": [l]}`` or ``{"radius": [r]}`` [m], or a mesh's file
        name as written; ``origin`` is the visual's ``(4, 4)`` homogeneous transform in
        the link's frame [m].
    joint_names : list of str
        The URDF name of the joint of each body 1..nb, body i's at ``joint_names[i - 1]``
        (fixed joints included; ``"root_joint"`` for a joint added with ``root_joint=``).
        A link read as a frame only has no body and no entry.
    ee : str
        The link the model's end-effector frame ``"ee"`` is placed at.
    ee_rule : str
        Why: ``"ee: "`` followed by the rule of :func:`read_urdf` that chose it (a link
        named ``ee``, the link given as ``ee=``, the URDF's tool frame, or the last link).
    visual_colors : dict
        ``{link name: [r, g, b, a]}`` (each in [0, 1]) of the link's first visual with a
        ``<material>`` colour, given in place or by a top-level material's name.
    mesh_scales : dict
        ``{(link name, mesh file name): (sx, sy, sz)}`` for each ``<mesh scale=...>``
        (the last one where a link uses a file twice).
    visual_scales : dict
        ``{link name: [(sx, sy, sz), ...]}``, the scale of each entry of
        ``visuals[link]`` in order ((1, 1, 1) for a shape or a mesh without ``scale``).

    Examples
    --------
    >>> from eslabon.model import read_urdf
    >>> urdf = '''<robot name="arm">
    ...   <link name="base"/>
    ...   <link name="upper">
    ...     <inertial><origin xyz="0.5 0 0"/><mass value="2"/>
    ...       <inertia ixx="0" ixy="0" ixz="0" iyy="0.2" iyz="0" izz="0.2"/></inertial>
    ...   </link>
    ...   <link name="tool0"/>
    ...   <joint name="shoulder" type="revolute">
    ...     <parent link="base"/><child link="upper"/><axis xyz="0 0 1"/>
    ...     <limit lower="-2.5" upper="2.5"/>
    ...   </joint>
    ...   <joint name="flange" type="fixed">
    ...     <parent link="upper"/><child link="tool0"/><origin xyz="1 0 0"/>
    ...   </joint>
    ... </robot>'''
    >>> model, info = read_urdf(urdf, root_joint="free_flyer")
    >>> info.robot, info.limits, info.joint_names, info.ee
    ('arm', {'shoulder': (-2.5, 2.5)}, ['root_joint', 'shoulder'], 'tool0')
    >>> model.nv, info.dof_names(model)[-2:]
    (7, ['root_joint', 'shoulder'])
    """

    robot: str
    limits: dict[str, tuple[float, float]] = field(default_factory=dict)
    visuals: dict[str, list[Visual]] = field(default_factory=dict)
    joint_names: list[str] = field(default_factory=list)
    ee: str = ""  # the link or frame the model's "ee" frame is, and why (read_urdf, ee=)
    ee_rule: str = ""
    visual_colors: dict[str, list[float]] = field(default_factory=dict)
    mesh_scales: dict[tuple[str, str], tuple[float, ...]] = field(default_factory=dict)
    visual_scales: dict[str, list[tuple[float, ...]]] = field(default_factory=dict)

    def dof_names(self, model: Model) -> list[str]:
        """The URDF joint name of each rate of v.

        A joint of several degrees of freedom repeats; a root joint added by
        ``read_urdf(..., root_joint=...)`` is ``"root_joint"``.

        Parameters
        ----------
        model : Model
            The model :func:`read_urdf` returned with this ``UrdfInfo`` (its bodies are
            those of :attr:`joint_names`).

        Returns
        -------
        list of str
            ``nv`` names, entry k the joint that rate k of v (and torque k) belongs to;
            fixed and mimic joints have none.
        """
        return [self.joint_names[b - 1] for b in model.dof_bodies]


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
                f"{_at(j, where)} {jname!r}: type: missing (expected {_EXPECTED_TYPES})"
            )
        if jtype not in _JOINTS:
            raise ValueError(
                f"{_at(j, where)} {jname!r}: type {jtype!r} is not supported "
                f"(expected {_EXPECTED_TYPES})"
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


def _joint_axis(j: ET.Element, jname: str, kind: str, where: str) -> NDArray[np.float64]:
    """The ``<axis>`` of joint ``j`` for the model: unit length for a revolute or prismatic
    joint, as written for a fixed one, +z for a floating one (which has none) and for a
    planar one, whose axis (its plane's normal) must be +z."""
    elem = _one(j, "axis", where)
    axis = _floats(elem, "xyz", 3, (1.0, 0.0, 0.0), where)
    if kind in ("fixed", "free_flyer"):
        return axis if kind == "fixed" else np.array([0.0, 0.0, 1.0])
    norm = float(np.linalg.norm(axis))
    if norm < 1e-12:
        raise ValueError(f"{_at(j, where)} {jname!r}: axis: expected a non-zero vector")
    axis = axis / norm
    if kind == "planar":
        if not np.allclose(axis, (0.0, 0.0, 1.0), rtol=0.0, atol=1e-9):
            raw = elem.get("xyz") if elem is not None else None
            given = f"axis {raw!r}" if raw is not None else "no axis (URDF's default is 1 0 0)"
            raise ValueError(
                f"{_at(j, where)} {jname!r}: {given}: a planar joint's axis is the normal of "
                "its plane, and eslabon's planar joint moves in its joint frame's xy plane: "
                "expected axis 0 0 1 (rotate the joint's <origin> so that its z is the normal)"
            )
        return np.array([0.0, 0.0, 1.0])
    return axis


def _add_root(
    b: ModelBuilder,
    info: UrdfInfo,
    root: str,
    link: ET.Element,
    root_joint: str,
    parent_of: ParentOf,
    where: str,
) -> int:
    """Add the root link as a body on ``root_joint`` from the world (identity placement)
    and return its index; a URDF joint already named ``root_joint`` is refused."""
    for jname, j, _ in parent_of.values():
        if jname == ROOT_JOINT_NAME:
            raise ValueError(
                f"{_at(j, where)} {jname!r}: root_joint={root_joint!r} adds a joint named "
                f"{ROOT_JOINT_NAME!r} between the world and the root link {root!r}; this "
                "joint has that name already (rename it)"
            )
    mass, com, inertia = _inertial(link, where)
    body = b.add_body(
        0,
        root_joint,
        mass=mass,
        com=com,
        inertia=inertia,
        name=root,
        where=f"{_at(link, where)} {root!r}",
        joint_name=ROOT_JOINT_NAME,
    )
    b.add_frame(root, body)
    info.joint_names.append(ROOT_JOINT_NAME)
    return body


def _add_child(
    b: ModelBuilder,
    info: UrdfInfo,
    parent: int,
    child: str,
    link: ET.Element,
    joint: tuple[str, ET.Element, str],
    leaf: bool,
    where: str,
) -> int:
    """Add link ``child`` on its parent ``joint`` (name, element, parent link) below body
    ``parent``: a body (its index returned), or a named frame of ``parent`` when it is a
    ``leaf`` on a fixed joint without mass and inertia (``parent`` returned)."""
    jname, j, _ = joint
    R, p = _origin(j, where)
    mass, com, inertia = _inertial(link, where)
    kind = _JOINTS[j.attrib["type"]]  # a known type: _joint_tree checked it
    if kind == "fixed" and leaf and mass == 0.0 and not inertia.any():
        b.add_frame(child, parent, R, p)  # no mass, no inertia: a named frame
        info.visuals[child] = _visuals(link, where)
        return parent
    dyn = _one(j, "dynamics", where)
    ext = _one(j, "eslabon", where)
    body = b.add_body(
        parent,
        kind,
        axis=_joint_axis(j, jname, kind, where),
        rotation=R,
        translation=p,
        mass=mass,
        com=com,
        inertia=inertia,
        viscous=_nonnegative(dyn, "damping", where),
        coulomb=_nonnegative(dyn, "friction", where),
        armature=_nonnegative(ext, "armature", where),
        name=child,
        where=f"{_at(link, where)} {child!r}",
        joint_name=jname,
    )
    b.add_frame(child, body)
    info.joint_names.append(jname)
    limit = _one(j, "limit", where)
    if limit is not None and j.get("type") in ("revolute", "prismatic"):
        lo = float(_floats(limit, "lower", 1, (0.0,), where)[0])
        hi = float(_floats(limit, "upper", 1, (0.0,), where)[0])
        if lo < hi:  # lower >= upper: unlimited (module docstring)
            info.limits[jname] = (lo, hi)
    info.visuals[child] = _visuals(link, where)
    return body


#: the comment :func:`to_urdf` writes (URDF has no place for gravity)
_WRITTEN_GRAVITY = re.compile(
    r"<!-- written by eslabon; gravity \[([^\]]*)\] is not part of URDF -->"
)


def written_gravity(text: str | bytes) -> NDArray[np.float64]:
    """The gravity a URDF written by eslabon keeps in its comment (:func:`to_urdf`), else
    the standard (0, 0, −9.81): a model saved to URDF reads back with its own gravity.

    Parameters
    ----------
    text : str or bytes
        URDF text or a file's bytes (UTF-8); only the first 4096 characters are searched.

    Returns
    -------
    ndarray (3,)
        Gravity in world coordinates [m/s²].

    Examples
    --------
    >>> from eslabon.model.urdf import written_gravity
    >>> written_gravity("<robot name='r'><link name='a'/></robot>").tolist()
    [0.0, 0.0, -9.81]
    """
    head = text[:4096]
    if isinstance(head, bytes):
        head = head.decode("utf-8", errors="replace")
    found = _WRITTEN_GRAVITY.search(head)
    if found:
        try:
            values = np.array([float(x) for x in found[1].split(",")])
        except ValueError:
            values = np.zeros(0)
        if values.shape == (3,) and np.isfinite(values).all():
            return values
    return np.asarray(STANDARD_GRAVITY, dtype=float)


def read_urdf(
    source: str | Path,
    *,
    gravity: ArrayLike | None = None,
    name: str | None = None,
    strict: bool = False,
    root_joint: str | None = None,
    ee: str | None = None,
) -> tuple[Model, UrdfInfo]:
    """Read a URDF robot (supported elements and refusals: the module docstring).

    The root link is the fixed world (body 0) unless ``root_joint`` is given; every
    other link is the body moved by its parent joint, its frame the joint frame, and
    also a named frame of the model, except a leaf link on a fixed joint with neither
    mass nor inertia, which is a frame only, and its joint is the body's, by name
    (:attr:`Model.joint_names`). Bodies are numbered depth first from the root, children
    in the order of their joints in the file, so each limb's joints are contiguous (as
    MuJoCo numbers them; Pinocchio visits children in the order of their joints' names:
    :func:`eslabon.interop.pinocchio.urdf_order`). The model also gets the
    end-effector frame ``"ee"`` (see ``ee``) and, as ``mimic_*``, the ``<mimic>``
    couplings. ``docs/model-files.md`` (section URDF) describes the format.

    Parameters
    ----------
    source : str or Path
        A URDF file path, or URDF text (a string starting with ``<``).
    gravity : array_like (3,), optional
        Free-fall acceleration in world coordinates [m/s²]. URDF has none: by default the
        gravity eslabon's writer keeps in its comment (``<!-- written by eslabon; gravity
        [...] is not part of URDF -->``, :func:`to_urdf`), else (0, 0, −9.81).
    name : str, optional
        The model's name (default: the robot's name, else ``"urdf"``).
    strict : bool
        Refuse an inertia no rigid body can have (otherwise a warning names the body).
    root_joint : {None, "free_flyer", "planar"}
        None: the root link is the fixed world. "free_flyer" or "planar": the root link is
        body 1, on that joint from the world at the identity placement, with its inertia,
        name (as body and frame) and visuals; its joint is named ``"root_joint"`` in
        :attr:`UrdfInfo.joint_names` (as in Pinocchio's ``buildModel(urdf, root_joint)``).
    ee : str, optional
        The link or frame that is the model's end effector ``"ee"``. By default the
        URDF's tool frame, the first of :data:`TOOL_FRAMES` it has (``tool0``, the frame
        ROS-Industrial arms put at the flange, and what Pinocchio and MoveIt users take as
        the tool), else its last link. The rule that applied is in
        :attr:`UrdfInfo.ee_rule` (``eslabon info`` prints it, recovered from the model's
        frames by :func:`end_effector_rule`). The last link is the last body in
        breadth-first order (children in the file's order: the end of the deepest
        chain, whatever the bodies' depth-first numbering), at its frame's origin (a
        massless leaf link on a fixed joint is a frame, not a body, and is passed over
        unless it is a tool frame).
        A link named ``ee`` is the end effector itself, and then ``ee`` may only be None
        or ``"ee"``. The root link can be named only with ``root_joint`` (without it the
        root is the world, not a frame).

    Returns
    -------
    (Model, UrdfInfo)
        The model, and the joint names, limits and visuals it does not hold. The model's
        name is ``name``, else the robot's; its ``source`` is ``"URDF <path>"`` or
        ``"URDF URDF text"``.

    Raises
    ------
    ValueError
        A bad ``root_joint``, or anything wrong or unsupported in the URDF, naming the
        element and its line. Also a missing file or one over :data:`MAX_URDF_BYTES`,
        text that is not valid XML (with its line and column), a root element other than
        ``<robot>``, an ``ee`` that is not a link (or frame) of the model, and, with
        ``strict``, an implausible inertia.

    Warns
    -----
    ImplausibleInertiaWarning
        Without ``strict``, for each body whose inertia no rigid body can have.

    Examples
    --------
    A one-joint arm with a tool frame, read from text:

    >>> import eslabon as es
    >>> from eslabon.model import read_urdf
    >>> urdf = '''<robot name="arm">
    ...   <link name="base"/>
    ...   <link name="upper">
    ...     <inertial><origin xyz="0.5 0 0"/><mass value="2"/>
    ...       <inertia ixx="0" ixy="0" ixz="0" iyy="0.2" iyz="0" izz="0.2"/></inertial>
    ...   </link>
    ...   <link name="tool0"/>
    ...   <joint name="shoulder" type="revolute">
    ...     <parent link="base"/><child link="upper"/><axis xyz="0 0 1"/>
    ...     <limit lower="-2.5" upper="2.5"/>
    ...   </joint>
    ...   <joint name="flange" type="fixed">
    ...     <parent link="upper"/><child link="tool0"/><origin xyz="1 0 0"/>
    ...   </joint>
    ... </robot>'''
    >>> model, info = read_urdf(urdf, gravity=(0, -9.81, 0))
    >>> model.body_names, [f.name for f in model.frames]
    (('world', 'upper'), ['upper', 'tool0', 'ee'])
    >>> info.limits, info.ee
    ({'shoulder': (-2.5, 2.5)}, 'tool0')
    >>> es.gravity_torques(model, [0.0]).round(4).tolist()
    [9.81]
    >>> es.end_effector_pose(model, [0.0])[:3, 3].tolist()
    [1.0, 0.0, 0.0]
    """
    if root_joint is not None and (
        not isinstance(root_joint, str) or root_joint not in ROOT_JOINTS
    ):
        raise ValueError(
            f"root_joint: expected None, 'free_flyer' or 'planar', got {short_repr(root_joint)}"
        )
    text, where = urdf_source(source)
    robot = parse_urdf_xml(text, where)
    if gravity is None:
        gravity = written_gravity(text)
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
    info = UrdfInfo(robot.get("name", ""), {}, {root: _visuals(links[root], where)})
    body_of = {root: 0}
    if root_joint is not None:
        body_of[root] = _add_root(b, info, root, links[root], root_joint, parent_of, where)
    stack = list(reversed(children.get(root, [])))  # depth first: each limb contiguous
    while stack:
        child = stack.pop()
        body_of[child] = _add_child(
            b,
            info,
            body_of[parent_of[child][2]],
            child,
            links[child],
            parent_of[child],
            child not in children,
            where,
        )
        stack.extend(reversed(children.get(child, [])))
    ee_name, ee_rule = _end_effector(b, ee, where)
    colors, scales, each = _visual_styles(robot, links, where)
    info = replace(info, ee=ee_name, ee_rule=ee_rule, visual_colors=colors, mesh_scales=scales,
                   visual_scales=each)  # fmt: skip
    model = b.build(
        gravity=gravity,
        name=name or robot.get("name") or "urdf",
        source=f"URDF {where}",
        strict=strict,
    )
    model = _with_mimics(model, info, parent_of, where)
    if isinstance(text, bytes):  # read from a file, not given as text
        _READ_FROM[model] = (info, Path(where).resolve())
    return model, info


#: the models :func:`read_urdf` built from a file in this process, with the file's
#: visuals and path (what the viewer draws; a model's ``source`` text is only a label)
_READ_FROM: weakref.WeakKeyDictionary[Model, tuple[UrdfInfo, Path]] = weakref.WeakKeyDictionary()


def urdf_read_from(model: Model) -> tuple[UrdfInfo, Path] | None:
    """(UrdfInfo, resolved path) of the URDF file ``model`` itself was read from by
    :func:`read_urdf` (or :func:`from_urdf`, :func:`eslabon.load_model`) in this
    process, else None: a copy (``model.replace``), a model read from another file (a
    YAML file whose ``source`` names a URDF) or from URDF text has none.

    Parameters
    ----------
    model : Model

    Returns
    -------
    tuple or None
    """
    return _READ_FROM.get(model)


def _with_mimics(model: Model, info: UrdfInfo, parent_of: ParentOf, where: str) -> Model:
    """``model`` with the ``<mimic joint multiplier offset>`` of its joints (multiplier 1
    and offset 0 when left out): a joint whose value is multiplier · (the named joint's)
    + offset (:mod:`eslabon.model.mimic`)."""
    body_of_joint = {
        jname: model.body_names.index(child)
        for child, (jname, _, _) in parent_of.items()
        if child in model.body_names
    }
    joint = np.full(model.nb + 1, -1, dtype=np.int64)
    mult, off = np.ones(model.nb + 1), np.zeros(model.nb + 1)
    for child, (jname, j, _) in parent_of.items():
        mimic = _one(j, "mimic", where)
        if mimic is None or j.get("type") == "fixed":  # a fixed joint copies nothing
            continue
        target = mimic.get("joint")
        if not target:
            raise ValueError(f"{_at(mimic, where)} in joint {jname!r}: joint: missing")
        if target not in body_of_joint or child not in model.body_names:
            raise ValueError(
                f"{_at(mimic, where)} in joint {jname!r}: joint {target!r} is not a moving "
                "joint of this robot (a mimic joint copies a revolute, continuous or "
                "prismatic joint)"
            )
        i = model.body_names.index(child)
        k = body_of_joint[target]
        if model.joint_type[i] != model.joint_type[k]:
            kinds = [JOINT_NAMES[int(model.joint_type[b])] for b in (i, k)]
            raise ValueError(
                f"{_at(mimic, where)} in joint {jname!r}: a {kinds[0]} joint cannot mimic "
                f"the {kinds[1]} joint {target!r} (a mimic joint copies a joint of its own "
                "type)"
            )
        joint[i] = k
        mult[i] = float(_floats(mimic, "multiplier", 1, (1.0,), where)[0])
        off[i] = float(_floats(mimic, "offset", 1, (0.0,), where)[0])
    if not np.any(joint >= 0):
        return model
    try:
        return model.replace(mimic_joint=joint, mimic_multiplier=mult, mimic_offset=off)
    except ValueError as exc:
        raise ValueError(f"{where}: <mimic>: {exc}") from None


def from_urdf(
    source: str | Path,
    *,
    gravity: ArrayLike | None = None,
    name: str | None = None,
    strict: bool = False,
    root_joint: str | None = None,
    ee: str | None = None,
) -> Model:
    """A :class:`Model` from a URDF file path or URDF text.

    :func:`read_urdf` without the :class:`UrdfInfo`; the parameters are the same.

    Parameters
    ----------
    source : str or Path
        A URDF file path, or URDF text (a string starting with ``<``).
    gravity : array_like (3,), optional
        Free-fall acceleration in world coordinates [m/s²]. URDF has none: by default the
        gravity eslabon's writer keeps in its comment (``<!-- written by eslabon; gravity
        [...] is not part of URDF -->``, :func:`to_urdf`), else (0, 0, −9.81).
    name : str, optional
        The model's name (default: the robot's name, else ``"urdf"``).
    strict : bool
        Refuse an inertia no rigid body can have (otherwise a warning names the body).
    root_joint : {None, "free_flyer", "planar"}
        None: the root link is the fixed world; else the root link is body 1, on that
        joint (named ``"root_joint"``) from the world (:func:`read_urdf`).
    ee : str, optional
        The link that is the end effector ``"ee"``; by default the URDF's tool frame, the
        first of :data:`TOOL_FRAMES` it has, else its last link (:func:`read_urdf`).

    Returns
    -------
    Model
        The robot's model.

    Raises
    ------
    ValueError
        As :func:`read_urdf`: a bad ``root_joint`` or ``ee``, a missing or too large file,
        or anything wrong or unsupported in the URDF, naming the element and its line.

    Warns
    -----
    ImplausibleInertiaWarning
        Without ``strict``, for each body whose inertia no rigid body can have.

    Examples
    --------
    A zoo arm written as URDF to a temporary folder and read back (its gravity, along
    −y, comes back from the writer's comment):

    >>> import tempfile
    >>> from pathlib import Path
    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon.model import from_urdf, to_urdf
    >>> arm = es.zoo.load("planar2")
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "planar2.urdf"
    ...     _ = to_urdf(arm, path)
    ...     back = from_urdf(path)
    >>> back.name, back.nq, back.gravity.tolist()
    ('planar2', 2, [0.0, -9.81, 0.0])
    >>> q, qd, qdd = [0.3, -0.2], [0.5, 1.0], [1.0, -2.0]
    >>> np.allclose(es.inverse_dynamics(back, q, qd, qdd), es.inverse_dynamics(arm, q, qd, qdd))
    True
    """
    return read_urdf(
        source, gravity=gravity, name=name, strict=strict, root_joint=root_joint, ee=ee
    )[0]


__all__ = [
    "read_urdf",
    "from_urdf",
    "to_urdf",
    "UrdfInfo",
    "rpy_matrix",
    "matrix_rpy",
    "MAX_URDF_BYTES",
    "ROOT_JOINTS",
    "ROOT_JOINT_NAME",
    "TOOL_FRAMES",
    "end_effector_rule",
]
