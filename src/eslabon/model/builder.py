"""Build a :class:`Model` body by body (the path every front-end takes)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._engine.layout import HELICAL, PRISMATIC, REVOLUTE, UNIVERSAL
from ..conventions import JOINT_TYPE_CODES, STANDARD_GRAVITY
from .model import DHTable, Frame, Model
from .validate import (
    as_float_array,
    as_int,
    check_inertia,
    check_name,
    check_nonnegative,
    check_plausible,
    check_rotation,
    short_repr,
)

if TYPE_CHECKING:
    from numpy.typing import ArrayLike


class ModelBuilder:
    """Accumulates bodies and frames, then freezes them into a :class:`Model`.

    >>> b = ModelBuilder()
    >>> link = b.add_body(0, "revolute", axis=(0, 0, 1), mass=1.0, com=(0.5, 0, 0))
    >>> b.build(name="one-link").nq
    1
    """

    def __init__(self) -> None:
        self._bodies: list[dict[str, Any]] = [
            dict(
                parent=-1,
                joint_type=0,
                axis=np.zeros(3),
                rotation=np.eye(3),
                translation=np.zeros(3),
                mass=0.0,
                com=np.zeros(3),
                inertia=np.zeros((3, 3)),
                viscous=0.0,
                coulomb=0.0,
                armature=0.0,
                com_slide=0.0,
                name="world",
            )
        ]
        self._frames: list[Frame] = []

    @property
    def nb(self) -> int:
        return len(self._bodies) - 1

    def add_body(
        self,
        parent: int,
        joint: str,
        *,
        axis: ArrayLike = (0.0, 0.0, 1.0),
        rotation: ArrayLike | None = None,
        translation: ArrayLike = (0.0, 0.0, 0.0),
        mass: float = 0.0,
        com: ArrayLike = (0.0, 0.0, 0.0),
        inertia: ArrayLike | None = None,
        viscous: float = 0.0,
        coulomb: float = 0.0,
        armature: float = 0.0,
        com_slide: float = 0.0,
        name: str | None = None,
        where: str | None = None,
        axis2: ArrayLike = (0.0, 0.0, 0.0),
        pitch: float = 0.0,
    ) -> int:
        """Add a body moved by a ``joint``: "revolute"/"R" (also "continuous"),
        "prismatic"/"P", "fixed"/"F", "helical" (``pitch``: translation per radian along
        ``axis``), "universal" (about ``axis``, then ``axis2``), "planar" (x, y, θ in the
        joint frame's xy plane), "spherical" or "free_flyer" (conventions:
        :mod:`eslabon._engine.joints`).

        ``rotation``/``translation`` place the joint frame in the parent body frame;
        ``com`` and ``inertia`` (about the COM) are in the body frame. ``where`` prefixes
        error messages (e.g. ``"rows[2]"``). Returns the new body's index.
        """
        i = len(self._bodies)
        where = where or f"body {i}"
        parent = as_int(parent, f"{where}.parent", f"a body index in 0..{i - 1}")
        if not 0 <= parent < i:
            raise ValueError(
                f"{where}.parent: expected a body index in 0..{i - 1}, got {short_repr(parent)}"
            )
        code = JOINT_TYPE_CODES.get(joint) if isinstance(joint, str) else None
        if code is None:
            raise ValueError(
                f"{where}.joint: expected 'R', 'P' or 'F' (revolute, prismatic, fixed) or "
                "one of continuous, helical, universal, planar, spherical, free_flyer, "
                f"got {short_repr(joint)}"
            )
        name = f"body{i}" if name is None else check_name(name, f"{where}.name")
        for j, other in enumerate(self._bodies[1:], start=1):
            if other["name"] == name:
                raise ValueError(
                    f"{where}.name: {name!r} is already the name of body {j}; "
                    "bodies need different names"
                )
        body: dict[str, Any] = dict(
            parent=int(parent),
            joint_type=code,
            axis=as_float_array(axis, (3,), f"{where}.axis"),
            rotation=check_rotation(
                np.eye(3) if rotation is None else rotation, f"{where}.rotation"
            ),
            translation=as_float_array(translation, (3,), f"{where}.translation"),
            mass=check_nonnegative(mass, f"{where}.mass"),
            com=as_float_array(com, (3,), f"{where}.com"),
            inertia=check_inertia(
                np.zeros((3, 3)) if inertia is None else inertia, f"{where}.inertia"
            ),
            viscous=check_nonnegative(viscous, f"{where}.viscous"),
            coulomb=check_nonnegative(coulomb, f"{where}.coulomb"),
            armature=check_nonnegative(armature, f"{where}.armature"),
            com_slide=float(as_float_array(com_slide, (), f"{where}.com_slide")),
            name=name,
            axis2=as_float_array(axis2, (3,), f"{where}.axis2"),
            pitch=float(as_float_array(pitch, (), f"{where}.pitch")),
        )
        if (
            code in (REVOLUTE, PRISMATIC, HELICAL, UNIVERSAL)
            and np.linalg.norm(body["axis"]) < 1e-12
        ):
            raise ValueError(f"{where}.axis: expected a non-zero joint axis")
        if code == UNIVERSAL and np.linalg.norm(body["axis2"]) < 1e-12:
            raise ValueError(f"{where}.axis2: expected the universal joint's second axis")
        if code != UNIVERSAL and np.any(body["axis2"]):
            raise ValueError(f"{where}.axis2: only a universal joint has a second axis")
        if code != HELICAL and body["pitch"] != 0.0:
            raise ValueError(f"{where}.pitch: only a helical joint has a pitch")
        self._bodies.append(body)
        return i

    def add_frame(
        self,
        name: str,
        body: int,
        rotation: ArrayLike | None = None,
        translation: ArrayLike = (0.0, 0.0, 0.0),
        *,
        where: str | None = None,
    ) -> None:
        """Name a frame fixed to ``body`` (e.g. a DH frame, a tool, the end effector).
        ``where`` prefixes error messages (default ``frame 'name'``)."""
        where = where or f"frame {name!r}"
        check_name(name, f"{where}.name")
        if any(f.name == name for f in self._frames):
            raise ValueError(f"{where}.name: a frame named {name!r} exists already")
        body = as_int(body, f"{where}.body", f"a body index in 0..{self.nb}")
        if not 0 <= body < len(self._bodies):
            raise ValueError(
                f"{where}.body: expected a body index in 0..{self.nb}, got {short_repr(body)}"
            )
        R = check_rotation(np.eye(3) if rotation is None else rotation, f"{where}.rotation")
        p = as_float_array(translation, (3,), f"{where}.translation")
        self._frames.append(Frame(name, body, R, p))

    def build(
        self,
        *,
        gravity: ArrayLike = STANDARD_GRAVITY,
        name: str = "model",
        dh: DHTable | None = None,
        source: str = "",
        strict: bool = False,
    ) -> Model:
        """Freeze the bodies into a Model. A body whose inertia no rigid body can have
        (triangle inequality) gives an :class:`ImplausibleInertiaWarning` naming it, or a
        ValueError with ``strict``."""
        b = self._bodies
        for i, body in enumerate(b[1:], start=1):
            check_plausible(
                body["inertia"], body["mass"], f"{name}: body {i} ({body['name']}).inertia", strict
            )
        frames = tuple(self._frames)
        if not any(f.name == "ee" for f in frames):  # the last body's, or the body "ee"
            owner = next((i for i, x in enumerate(b) if i and x["name"] == "ee"), self.nb)
            frames = frames + (Frame("ee", owner, np.eye(3), np.zeros(3)),)
        return Model(
            name=name,
            parent=np.array([x["parent"] for x in b]),
            joint_type=np.array([x["joint_type"] for x in b]),
            axis=np.array([x["axis"] for x in b]),
            tree_rotation=np.array([x["rotation"] for x in b]),
            tree_translation=np.array([x["translation"] for x in b]),
            mass=np.array([x["mass"] for x in b]),
            com=np.array([x["com"] for x in b]),
            inertia=np.array([x["inertia"] for x in b]),
            viscous=np.array([x["viscous"] for x in b]),
            coulomb=np.array([x["coulomb"] for x in b]),
            armature=np.array([x["armature"] for x in b]),
            com_slide=np.array([x["com_slide"] for x in b]),
            axis2=np.array([x.get("axis2", np.zeros(3)) for x in b]),
            pitch=np.array([x.get("pitch", 0.0) for x in b]),
            gravity=as_float_array(gravity, (3,), "gravity"),
            body_names=tuple(x["name"] for x in b),
            frames=frames,
            dh=dh,
            source=source,
        )
