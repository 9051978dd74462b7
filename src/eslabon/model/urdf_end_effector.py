"""The end effector of a URDF model (:mod:`eslabon.model.urdf`): which link
:func:`~eslabon.model.urdf.read_urdf` names ``"ee"``, and the rule that chose it, read back
from a model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from .builder import ModelBuilder
from .validate import short_repr

if TYPE_CHECKING:
    from .model import Model

# the names a URDF gives its tool frame, in the order read_urdf looks for them
TOOL_FRAMES = ("tool0", "ee_link", "tool_frame", "end_effector", "tcp")
"""The link names :func:`read_urdf` takes as the tool frame ``ee``, the first found wins."""


def last_body(parent: Sequence[int] | np.ndarray) -> int:
    """The body a URDF's "last link" is: the last in breadth-first order, children in
    index order (the file's), so the end of the deepest chain; 0 without bodies. Breadth
    first rather than the bodies' depth-first numbering, so that a tree's default end
    effector stays the link it was when the reader numbered bodies breadth first."""
    children: list[list[int]] = [[] for _ in range(len(parent))]
    for i in range(1, len(parent)):
        children[int(parent[i])].append(i)
    last, level = 0, [0]
    while level:
        level = [c for p in level for c in children[p]]
        if level:
            last = level[-1]
    return last


def _end_effector(b: ModelBuilder, ee: str | None, where: str) -> tuple[str, str]:
    """Name the frame ``"ee"`` (read_urdf's ``ee``): (the link or frame it is, the rule)."""
    frames = {f.name: f for f in b._frames}
    if "ee" in frames:  # a link of that name is the end effector already
        if ee not in (None, "ee"):
            raise ValueError(
                f"ee: {where} has a link named 'ee', which is the end effector; got {ee!r}"
            )
        return "ee", "ee: the URDF's link 'ee'"
    if ee is not None:
        if not isinstance(ee, str) or ee not in frames:
            raise ValueError(
                f"ee: expected a link of {where}, one of {sorted(frames)}; got {short_repr(ee)}"
            )
        name, rule = ee, f"ee: link {ee!r} (chosen with ee=)"
    else:
        found = next((n for n in TOOL_FRAMES if n in frames), None)
        if found is None:
            parents = [x["parent"] for x in b._bodies]
            last = b._bodies[last_body(parents)]["name"] if b.nb else next(iter(frames), "world")
            if last in frames:  # ee where that link is (no body: the root link's frame)
                f = frames[last]
                b.add_frame("ee", f.body, f.rotation, f.translation)
            return last, (
                f"ee: the last link {last!r} (the URDF has no tool frame: none of "
                f"{', '.join(TOOL_FRAMES)}; choose one with ee=)"
            )
        name = found
        rule = f"ee: {found!r}, the URDF's tool frame (the first of {', '.join(TOOL_FRAMES)})"
    f = frames[name]
    b.add_frame("ee", f.body, f.rotation, f.translation)
    return name, rule


def end_effector_rule(model: Model, chosen: str | None = None) -> str:
    """Which frame of ``model`` its end effector ``"ee"`` is, and by which rule.

    The rule of :func:`read_urdf` is read from the model itself (its frames): the tool
    frame, the last link, or another link; ``chosen`` the link given as read_urdf's
    ``ee``, if any. What ``eslabon info`` prints for a URDF model (line ``ee``).

    The frames placed exactly where ``"ee"`` is are compared with :data:`TOOL_FRAMES` and
    the last body's own frame; otherwise the first frame at that place is named, or, when
    there is none, the body ``"ee"`` is fixed to.

    Parameters
    ----------
    model : Model
        A model, usually read by :func:`read_urdf`; it must have a frame ``"ee"``.
    chosen : str, optional
        The link given as ``ee=`` when the model was read; it is then named as chosen.

    Returns
    -------
    str
        The rule, e.g. ``"'tool0', the URDF's tool frame (...)"``,
        ``"the last link 'wrist' (...)"`` or ``"link 'hand' (chosen with ee=)"``.

    Raises
    ------
    ValueError
        When the model has no frame ``"ee"`` (:meth:`Model.frame`).

    Examples
    --------
    >>> from eslabon.model.urdf import end_effector_rule, read_urdf
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
    >>> model, info = read_urdf(urdf)
    >>> end_effector_rule(model)
    "'tool0', the URDF's tool frame (the first of tool0, ee_link, tool_frame, end_effector, tcp)"
    """
    if chosen:
        return f"link {chosen!r} (chosen with ee=)"
    ee = model.frame("ee")
    same = [
        f.name
        for f in model.frames
        if f.name != "ee"
        and f.body == ee.body
        and np.array_equal(f.rotation, ee.rotation)
        and np.array_equal(f.translation, ee.translation)
    ]
    tool = next((n for n in TOOL_FRAMES if n in same), None)
    if tool is not None:
        return f"{tool!r}, the URDF's tool frame (the first of {', '.join(TOOL_FRAMES)})"
    name = model.body_names[ee.body]
    if name in same and ee.body == last_body(model.parent):
        return (
            f"the last link {name!r} (no tool frame: none of {', '.join(TOOL_FRAMES)}; "
            "choose one with ee=)"
        )
    return f"{same[0]!r}" if same else f"a frame of body {name!r}"
