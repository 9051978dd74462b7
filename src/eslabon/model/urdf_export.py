"""URDF export: :func:`to_urdf` writes a :class:`~eslabon.model.Model` as URDF text.

Each body becomes a link (inertial at its centre of mass) and its joint a URDF joint with
its placement; each named frame that is not a body's own (DH frames, ``ee``) becomes a
massless link on a fixed joint, which :func:`~eslabon.model.from_urdf` reads back as a
frame, not a body. Joint types:

* revolute is written ``continuous`` (the model keeps no joint limits), prismatic as
  ``prismatic`` with limits of ±1e9 (URDF requires them), fixed as ``fixed``;
* planar is written ``planar`` with ``<axis xyz="0 0 1"/>``: eslabon's planar joint moves
  in its joint frame's xy plane, and a URDF planar joint's axis is its plane's normal;
* free_flyer is written ``floating`` (no axis; ``<dynamics>`` and armature only when
  they are not zero, so that the model reads back exactly);
* helical, universal and spherical joints are refused: URDF has no such joint types.

Rotor inertia goes into ``<eslabon armature="…"/>`` inside the joint (an extension other
readers ignore and :func:`~eslabon.model.from_urdf` reads back). Every name is escaped,
so any model, body or frame name reads back as the same text; a name with a character XML
cannot hold (a control character) is refused. Seed 001's sliding-COM models cannot be
expressed and are refused.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING
from xml.sax.saxutils import quoteattr

import numpy as np

from .._files import write_text_atomic
from ..conventions import JOINT_TYPE_NAMES

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

    from .model import Model

# eslabon joint type -> (URDF joint type, needs <limit>): a revolute joint is written
# continuous (the model keeps no limits); URDF requires limits on a prismatic joint
_URDF_JOINTS = {
    "fixed": ("fixed", False),
    "revolute": ("continuous", False),
    "prismatic": ("prismatic", True),
    "planar": ("planar", False),
    "free_flyer": ("floating", False),
}
# XML 1.0 Char production: what a document may hold at all, escaped or not
_NOT_XML_CHAR = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def matrix_rpy(R: NDArray[np.float64]) -> NDArray[np.float64]:
    """(roll, pitch, yaw) with rpy_matrix(rpy) = R; roll = 0 at pitch = ±π/2.

    The inverse of :func:`~eslabon.model.urdf.rpy_matrix` (R = Rz(yaw) Ry(pitch) Rx(roll),
    URDF's fixed-axis angles), as :func:`to_urdf` writes an ``<origin rpy>``. Pitch is in
    [−π/2, π/2], roll and yaw in (−π, π]. At pitch = +π/2 only yaw − roll is defined
    (yaw + roll at −π/2): roll is then 0 and yaw takes the whole angle. R is not checked.

    Parameters
    ----------
    R : ndarray (3, 3)
        A rotation matrix.

    Returns
    -------
    ndarray (3,)
        (roll, pitch, yaw) [rad].

    Examples
    --------
    >>> from eslabon.model.urdf import rpy_matrix
    >>> from eslabon.model.urdf_export import matrix_rpy
    >>> matrix_rpy(rpy_matrix([0.1, -0.2, 0.3])).round(6).tolist()
    [0.1, -0.2, 0.3]
    """
    pitch = np.arctan2(-R[2, 0], np.hypot(R[0, 0], R[1, 0]))
    if np.hypot(R[0, 0], R[1, 0]) < 1e-12:
        return np.array([0.0, pitch, np.arctan2(-R[0, 1], R[1, 1])])
    return np.array([np.arctan2(R[2, 1], R[2, 2]), pitch, np.arctan2(R[1, 0], R[0, 0])])


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


def _joint_kinds(model: Model) -> dict[int, tuple[str, bool]]:
    """{body: (URDF joint type, needs <limit>)}; a joint URDF cannot express is refused."""
    kinds = {}
    for i in range(1, model.nb + 1):
        kind = JOINT_TYPE_NAMES[int(model.joint_type[i])]
        if kind not in _URDF_JOINTS:
            raise ValueError(
                f"body_names[{i}]: body {model.body_names[i]!r} has a {kind} joint, which "
                f"URDF cannot express (URDF has no {kind} joint type; to_urdf writes "
                "fixed, revolute, prismatic, planar and free_flyer joints)"
            )
        kinds[i] = _URDF_JOINTS[kind]
    return kinds


def _joint_lines(model: Model, i: int, kind: str, limited: bool) -> list[str]:
    """The axis, limit, dynamics and armature lines of body ``i``'s URDF joint."""
    friction = f"    <dynamics damping={_fmt(model.viscous[i])} friction={_fmt(model.coulomb[i])}/>"
    armature = f"    <eslabon armature={_fmt(model.armature[i])}/>"
    if kind == "fixed":
        return []
    if kind == "floating":  # no axis; friction and armature only when there are some
        out = [friction] if model.viscous[i] or model.coulomb[i] else []
        return out + ([armature] if model.armature[i] else [])
    axis = (0.0, 0.0, 1.0) if kind == "planar" else model.axis[i]
    out = [f"    <axis xyz={_fmt(axis)}/>"]
    if limited:
        out.append('    <limit lower="-1e9" upper="1e9" effort="1e9" velocity="1e9"/>')
    out.append(friction)
    return out + ([armature] if model.armature[i] else [])


def _mimic_line(model: Model, i: int, joint: dict[int, str]) -> list[str]:
    """``<mimic>`` of body ``i``'s joint when it copies another (``joint``: quoted names)."""
    k = int(model.mimic_joint[i])
    if k < 0:
        return []
    return [
        f"    <mimic joint={joint[k]} multiplier={_fmt(model.mimic_multiplier[i])} "
        f"offset={_fmt(model.mimic_offset[i])}/>"
    ]


def to_urdf(model: Model, path: str | os.PathLike[str] | None = None) -> str:
    """URDF text for ``model``, written to ``path`` too when it is given.

    Every body becomes a link and joint; each frame that is not a body's own becomes a
    massless link on a fixed joint; the root link is ``world`` (or ``world_1``, ... if a
    body or frame has that name). Joint types: see the module docstring.

    Body i's link carries the body's name and its inertial data (origin at the COM, axes
    the body's); its joint is named by ``joint_names``, a frame's fixed joint
    ``frame_<frame name>`` (``_1``, … after it if a joint has that name), and rotations
    are written as rpy (:func:`matrix_rpy`). The gravity, which URDF has no place for,
    is written in a comment that :func:`~eslabon.model.from_urdf` reads back (other
    readers ignore it); the model's ``source`` and DH table are not written.
    :func:`~eslabon.model.from_urdf` reads the text back with the same bodies (numbered
    depth first) and the same dynamics.

    Parameters
    ----------
    model : Model
        A model of rigid links whose joints are fixed, revolute, prismatic, planar or
        free_flyer.
    path : str or path-like, optional
        A file to write the text to (atomically), in a folder that exists; an existing
        file is replaced.

    Returns
    -------
    str
        The URDF document.

    Raises
    ------
    ValueError
        A helical, universal or spherical joint (naming the body and the joint type), a
        sliding COM (seed 001 book mode), a closed loop or contact (URDF describes trees
        only: save as YAML), or a name holding a character XML cannot hold;
        with ``path``, a folder that does not exist or a ``path`` that is a folder.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import eslabon as es
    >>> from eslabon.model import to_urdf
    >>> arm = es.zoo.load("planar2")
    >>> text = to_urdf(arm)
    >>> text.splitlines()[1], text.count("<joint ")
    ('<robot name="planar2">', 6)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "planar2.urdf"
    ...     _ = to_urdf(arm, path)
    ...     path.read_text(encoding="utf-8") == text
    True
    """
    model.require_rigid_links("to_urdf (URDF links are rigid bodies)")
    if model.constraints:
        raise ValueError(
            f"constraints: URDF describes trees only, and {model.name} has "
            f"{len(model.constraints)} constraint(s): closed loops, contacts or wheels "
            f"({', '.join(c.name for c in model.constraints)}); save it as .yaml"
        )
    kinds = _joint_kinds(model)
    body = {i: _xml_name(model.body_names[i], f"body_names[{i}]") for i in range(1, model.nb + 1)}
    taken = set(model.body_names[1:]) | {fr.name for fr in model.frames}
    root, k = "world", 0
    while root in taken:
        k += 1
        root = f"world_{k}"
    body[0] = quoteattr(root)
    joint = {
        i: _xml_name(model.joint_names[i], f"joint_names[{i}]") for i in range(1, model.nb + 1)
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
        kind, limited = kinds[i]
        out += [
            f'  <joint name={joint[i]} type="{kind}">',
            f"    <parent link={body[int(model.parent[i])]}/>",
            f"    <child link={body[i]}/>",
            f"    <origin xyz={_fmt(model.tree_translation[i])} "
            f"rpy={_fmt(matrix_rpy(model.tree_rotation[i]))}/>",
            *_joint_lines(model, i, kind, limited),
            *_mimic_line(model, i, joint),
            "  </joint>",
        ]
    taken_joints = set(model.joint_names[1:])
    for fr in model.frames:
        if fr.name in model.body_names[1:]:  # a body's own frame: that link already
            continue
        link = _xml_name(fr.name, f"frame {fr.name!r}")
        fixed, k = f"frame_{fr.name}", 0
        while fixed in taken_joints:  # a joint of the model has that name
            k += 1
            fixed = f"frame_{fr.name}_{k}"
        taken_joints.add(fixed)
        out += [
            f"  <link name={link}/>",
            f'  <joint name={_xml_name(fixed, f"frame {fr.name!r}")} type="fixed">',
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
