"""Build a :class:`Model` body by body (the path every front-end takes)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._engine.layout import JOINT_KINDS
from ..conventions import JOINT_TYPE_CODES, STANDARD_GRAVITY
from .model import DHTable, Frame, Model
from .validate import (
    BODY_BOUNDS,
    MAX_LENGTH,
    MAX_MASS,
    as_float_array,
    as_int,
    check_gravity,
    check_magnitude,
    check_name,
    check_nonnegative,
    check_plausible,
    check_rotation,
    kinds_with,
    largest_moment,
    settle_inertia,
    short_repr,
    symmetric_inertia,
)

if TYPE_CHECKING:
    from numpy.typing import ArrayLike


def _length(value: ArrayLike, field: str) -> np.ndarray:
    """A point or displacement [m]: 3 finite numbers within :data:`MAX_LENGTH`."""
    p = as_float_array(value, (3,), field)
    check_magnitude(p, MAX_LENGTH, field, "m")
    return p


_BASIC = ("revolute", "prismatic", "fixed")  # named by their letters in the message


class ModelBuilder:
    """Accumulates bodies and frames, then freezes them into a :class:`Model`.

    The one path by which every front-end builds a model (:func:`~eslabon.model.from_dh`,
    :func:`~eslabon.model.read_urdf`, the body lists of :func:`eslabon.load_model`).
    Body 0 is the fixed world; :meth:`add_body` appends bodies 1, 2, … in order, each on a
    joint from an earlier body, :meth:`add_frame` names frames fixed to a body, and
    :meth:`build` checks and freezes everything into an immutable :class:`Model`. Each
    value is checked as it is added, and a ValueError names the field (prefixed by
    ``where``, e.g. ``"rows[2].mass"``). The constructor takes no arguments. Every
    quantity is in SI units; per-body data are in that body's frame (its joint frame).

    Attributes
    ----------
    nb : int
        The number of bodies added so far (the world not counted).

    Examples
    --------
    A two-link planar arm hanging in −y, with its end effector at the tip of the second
    link:

    >>> import eslabon as es
    >>> from eslabon.model import ModelBuilder
    >>> b = ModelBuilder()
    >>> upper = b.add_body(0, "R", mass=1.0, com=(0.5, 0, 0), name="upper")
    >>> fore = b.add_body(
    ...     upper, "R", translation=(1.0, 0, 0), mass=1.0, com=(0.5, 0, 0), name="fore"
    ... )
    >>> b.add_frame("ee", fore, translation=(1.0, 0, 0))
    >>> arm = b.build(gravity=(0, -9.81, 0), name="two-link")
    >>> arm.nq, arm.body_names
    (2, ('world', 'upper', 'fore'))
    >>> es.gravity_torques(arm, [0.0, 0.0]).round(4).tolist()
    [19.62, 4.905]
    >>> es.end_effector_pose(arm, [0.0, 0.0])[:3, 3].tolist()
    [2.0, 0.0, 0.0]
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
                joint_name="universe",
            )
        ]
        self._frames: list[Frame] = []
        self._constraints: list[Any] = []

    @property
    def nb(self) -> int:
        """The number of bodies added so far (the world, body 0, not counted).

        Returns
        -------
        int
            The index of the last body added; 0 before the first :meth:`add_body`.
        """
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
        joint_name: str | None = None,
    ) -> int:
        """Add a body moved by a ``joint`` and return its index.

        The joint: "revolute"/"R" (also "continuous"), "prismatic"/"P", "fixed"/"F",
        "helical" (``pitch``: translation per radian along ``axis``), "universal" (about
        ``axis``, then ``axis2``), "planar" (x, y, θ in the joint frame's xy plane),
        "spherical" or "free_flyer" (conventions: :mod:`eslabon._engine.joints`).

        ``rotation``/``translation`` place the joint frame in the parent body frame;
        ``com`` and ``inertia`` (about the COM) are in the body frame. ``where`` prefixes
        error messages (e.g. ``"rows[2]"``). Returns the new body's index.

        The body's frame is its joint frame, placed at q = 0; the joint moves it relative
        to that placement (``docs/conventions.md``, "Joint types, configurations and
        velocities"). Every value is checked here, before the body is added; the body gets
        no named frame of its own (add one with :meth:`add_frame`).

        Parameters
        ----------
        parent : int
            The body it hangs from: 0 (the world) or an earlier body, 0..:attr:`nb`.
        joint : str
            The joint type: ``"revolute"``, ``"R"`` or ``"continuous"``; ``"prismatic"``
            or ``"P"``; ``"fixed"`` or ``"F"``; ``"helical"``, ``"universal"``,
            ``"planar"``, ``"spherical"`` or ``"free_flyer"``.
        axis : array_like (3,)
            The joint axis in the joint frame (a universal joint's first axis); non-zero
            for a revolute, prismatic, helical or universal joint, and made unit length by
            the model. Ignored by the other joints. Default +z.
        rotation : array_like (3, 3), optional
            ``parent_R_joint``: the joint frame's axes (columns) in the parent body's frame,
            a proper rotation. Default the identity.
        translation : array_like (3,)
            The joint frame's origin in the parent body's frame [m].
        mass : float
            The body's mass [kg], ≥ 0.
        com : array_like (3,)
            Its centre of mass in its own frame [m].
        inertia : array_like (3, 3), optional
            Its rotational inertia about the centre of mass, in its own axes [kg·m²]:
            symmetric positive semi-definite. Default zero.
        viscous : float
            Viscous friction of the joint, ≥ 0 [N·m·s/rad or N·s/m].
        coulomb : float
            Coulomb friction of the joint, ≥ 0 [N·m or N].
        armature : float
            Rotor inertia of the joint, ≥ 0 [kg·m² or kg], added to the mass matrix's
            diagonal.
        com_slide : float
            Seed 001's book mode, prismatic joints only: the COM moves by
            ``com_slide * q`` along the axis (0 for a rigid link; checked by :meth:`build`).
        name : str, optional
            The body's name, different from every other body's; default ``"body<i>"``.
        where : str, optional
            Prefix of error messages (default ``"body <i>"``).
        axis2 : array_like (3,)
            A universal joint's second axis, in the joint frame after the rotation about
            ``axis``: required (non-zero) for a universal joint, zero for any other.
        pitch : float
            A helical joint's advance along ``axis`` per radian [m/rad]; 0 for any other
            joint.
        joint_name : str, optional
            The joint's name, different from every other joint's; default
            ``"joint<i>"``. It names the joint's coordinates (:attr:`Model.q_names`).

        Returns
        -------
        int
            The new body's index i (1..nb), the ``parent`` of the bodies that hang from it.

        Raises
        ------
        ValueError
            Naming the field (``"<where>.mass"``, …): a ``parent`` that is not an earlier
            body's index, an unknown ``joint``, an empty or repeated ``name``, a value of
            the wrong shape or not finite, a rotation that is not proper, a negative mass
            or friction or armature, an inertia that is not symmetric positive
            semi-definite, a zero ``axis`` (or ``axis2`` of a universal joint), an
            ``axis2`` on a joint other than universal, or a ``pitch`` on a joint other
            than helical.
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
            names = [n for n in JOINT_TYPE_CODES if len(n) > 1 and n not in _BASIC]
            others = ", ".join(sorted(names, key=lambda n: n != "continuous"))
            raise ValueError(
                f"{where}.joint: expected 'R', 'P' or 'F' (revolute, prismatic, fixed) or "
                f"one of {others}, got {short_repr(joint)}"
            )
        name = f"body{i}" if name is None else check_name(name, f"{where}.name")
        if joint_name is None:
            joint_name = f"joint{i}"
        else:
            joint_name = check_name(joint_name, f"{where}.joint_name")
        for j, other in enumerate(self._bodies[1:], start=1):
            if other["joint_name"] == joint_name:
                raise ValueError(
                    f"{where}.joint_name: {joint_name!r} is already the name of body {j}'s "
                    "joint; joints need different names"
                )
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
            translation=_length(translation, f"{where}.translation"),
            mass=check_nonnegative(mass, f"{where}.mass", MAX_MASS, "kg"),
            com=_length(com, f"{where}.com"),
            inertia=symmetric_inertia(
                np.zeros((3, 3)) if inertia is None else inertia, f"{where}.inertia"
            ),  # its moments: build() knows the model's scale (settle_inertia)
            **{
                key: check_nonnegative(value, f"{where}.{key}", bound, unit)
                for (key, bound, unit), value in zip(
                    BODY_BOUNDS, (viscous, coulomb, armature), strict=True
                )
            },
            com_slide=float(as_float_array(com_slide, (), f"{where}.com_slide")),
            name=name,
            joint_name=joint_name,
            where=where,
            axis2=as_float_array(axis2, (3,), f"{where}.axis2"),
            pitch=float(as_float_array(pitch, (), f"{where}.pitch")),
        )
        kind = JOINT_KINDS[code]
        if kind.axes >= 1 and np.linalg.norm(body["axis"]) < 1e-12:
            raise ValueError(f"{where}.axis: expected a non-zero joint axis")
        if kind.axes == 2 and np.linalg.norm(body["axis2"]) < 1e-12:
            raise ValueError(f"{where}.axis2: expected the {kind.name} joint's second axis")
        if kind.axes < 2 and np.any(body["axis2"]):
            raise ValueError(
                f"{where}.axis2: a {kind.name} joint has no second axis (joints with one: "
                f"{kinds_with(lambda k: k.axes == 2)})"
            )
        if not kind.pitch and body["pitch"] != 0.0:
            raise ValueError(
                f"{where}.pitch: a {kind.name} joint has no pitch (joints with one: "
                f"{kinds_with(lambda k: k.pitch)})"
            )
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

        ``where`` prefixes error messages (default ``frame 'name'``). The frame named
        ``"ee"`` is the model's end effector; without one, :meth:`build` adds it.

        Parameters
        ----------
        name : str
            The frame's name, different from every other frame's. It may be a body's name
            only when it is that body's own frame (on it, identity placement), which
            :meth:`build` checks.
        body : int
            The body it is fixed to, 0 (the world) .. :attr:`nb`.
        rotation : array_like (3, 3), optional
            ``B_R_F``: its axes (columns) in the body frame, a proper rotation; default the
            identity.
        translation : array_like (3,)
            Its origin in the body frame [m].
        where : str, optional
            Prefix of error messages (default ``"frame '<name>'"``).

        Raises
        ------
        ValueError
            An empty name or one another frame has, a ``body`` that is not a body's index,
            a rotation that is not proper, or a translation that is not 3 finite numbers.
        """
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

    def add_constraint(self, constraint: Any) -> None:
        """Close a loop, fix a contact or roll a wheel: a
        :class:`~eslabon.constraints.LoopClosure`, :class:`~eslabon.constraints.Contact` or
        :class:`~eslabon.constraints.RollingWheel` (:mod:`eslabon.constraints`).

        Its frames are checked when the model is built (they may be added later).

        Parameters
        ----------
        constraint : LoopClosure, Contact or RollingWheel

        Raises
        ------
        ValueError
            Something other than a LoopClosure, Contact or RollingWheel.
        """
        from .constraint_types import KINDS

        if not isinstance(constraint, KINDS):
            raise ValueError(
                "constraint: expected a LoopClosure, Contact or RollingWheel, got "
                f"{short_repr(constraint)}"
            )
        self._constraints.append(constraint)

    def build(
        self,
        *,
        gravity: ArrayLike = STANDARD_GRAVITY,
        name: str = "model",
        dh: DHTable | None = None,
        source: str = "",
        strict: bool = False,
    ) -> Model:
        """Freeze the bodies into a Model.

        A body whose inertia no rigid body can have (triangle inequality) gives an
        :class:`ImplausibleInertiaWarning` naming it, or a ValueError with ``strict``.

        Without a frame named ``"ee"``, one is added: on the body named ``"ee"`` if there
        is one, else on the last body (:attr:`nb`; the world if there is none), at its
        frame's origin with its axes. The builder is not changed, so it can build again.

        Parameters
        ----------
        gravity : array_like (3,)
            Free-fall acceleration in world coordinates [m/s²]; default (0, 0, −9.81).
        name : str
            The model's name.
        dh : DHTable, optional
            The DH table the bodies were compiled from (:func:`~eslabon.model.from_dh`).
        source : str
            Where the data come from (a citation, a file name).
        strict : bool
            Refuse (ValueError) an inertia whose principal moments break the triangle
            inequality, instead of warning.

        Returns
        -------
        Model
            The immutable model: bodies 0..nb, the frames in the order added, then
            ``"ee"`` if it was added here.

        Raises
        ------
        ValueError
            ``gravity`` not 3 finite numbers; with ``strict``, an implausible inertia
            (naming the model, the body and its principal moments); and whatever
            :class:`Model` refuses, e.g. a ``com_slide`` on a joint other than prismatic,
            or a frame carrying a body's name away from that body's own frame.

        Warns
        -----
        ImplausibleInertiaWarning
            Without ``strict``, for each body whose inertia no rigid body can have.
        """
        b = self._bodies
        scale = largest_moment([x["inertia"] for x in b])
        inertia = [b[0]["inertia"]]
        for i, body in enumerate(b[1:], start=1):
            what = f"{name}: body {i} ({body['name']}).inertia"
            inertia.append(settle_inertia(body["inertia"], f"{body['where']}.inertia", scale, what))
            if strict or inertia[i] is body["inertia"]:  # a clipped one was named already
                check_plausible(inertia[i], body["mass"], what, strict)
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
            inertia=np.array(inertia),
            viscous=np.array([x["viscous"] for x in b]),
            coulomb=np.array([x["coulomb"] for x in b]),
            armature=np.array([x["armature"] for x in b]),
            com_slide=np.array([x["com_slide"] for x in b]),
            axis2=np.array([x.get("axis2", np.zeros(3)) for x in b]),
            pitch=np.array([x.get("pitch", 0.0) for x in b]),
            gravity=check_gravity(gravity),
            body_names=tuple(x["name"] for x in b),
            joint_names=tuple(x["joint_name"] for x in b),
            frames=frames,
            dh=dh,
            source=source,
            constraints=tuple(self._constraints),
        )
