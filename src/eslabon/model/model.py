"""The one robot model: a frozen tree of bodies stored as flat arrays (DESIGN §4).

Bodies are numbered 0..nb with 0 the fixed world and ``parent[i] < i``. Joint ``i`` moves
body ``i`` relative to ``parent[i]``: the body frame is the joint frame placed at
(``tree_rotation[i]``, ``tree_translation[i]``) in the parent frame, then moved by the
joint's coordinates ``q[q_index[i] : q_index[i] + nq_i]`` (rotated about ``axis[i]`` for a
revolute joint, translated along it for a prismatic one; every joint type and its
conventions: :mod:`eslabon._engine.joints` and ``docs/conventions.md``). Its rates are
``v[v_index[i] : v_index[i] + nv_i]``. Inertial data are expressed in the body frame.
DH tables, YAML and URDF are front-ends that compile into this model; see
:mod:`eslabon.model.dh`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._engine import layout as L
from .._engine.layout import FIXED, PRISMATIC, REVOLUTE
from .._engine.layout import JOINT_NAMES as JOINT_TYPE_NAMES
from .constraint_types import checked_constraints
from .coordinate_names import coordinate_names
from .fold import depth_first, fold_fixed
from .mimic import mimic_map
from .reframe import axes_on_z
from .validate import check_body_arrays, check_names_and_frames


def _sizes(table: dict, joint_type: np.ndarray) -> np.ndarray:
    """Each joint's size from ``table`` (layout.JOINT_NQ or JOINT_NV)."""
    return np.array([table[int(t)] for t in joint_type], dtype=np.int64)


@dataclass(frozen=True)
class Frame:
    """A named frame fixed to ``body`` at (``rotation``, ``translation``) in the body frame.

    Attributes
    ----------
    name : str
        The frame's name (``"ee"``, ``"dh3"``, a URDF link, a body's name).
    body : int
        Index of the body it is fixed to, 0..nb (0: the world).
    rotation : ndarray (3, 3)
        ``B_R_F``: its axes (columns) in the body frame's axes.
    translation : ndarray (3,)
        Its origin in the body frame [m].
    """

    name: str
    body: int
    rotation: np.ndarray
    translation: np.ndarray


@dataclass(frozen=True)
class DHTable:
    """The DH rows a model was compiled from, kept for display and export.

    Attributes
    ----------
    convention : str
        ``"standard"``, ``"modified"`` or ``"rojas"`` (:mod:`eslabon.model.dh`).
    rows : tuple of dict
        The rows as given to :func:`eslabon.from_dh`, one per joint.
    """

    convention: str
    rows: tuple


@dataclass(frozen=True, eq=False)
class Model:
    """Immutable articulated-body model. Per-body arrays have a leading axis of nb + 1.

    Bodies are 0..nb, body 0 the fixed world; joint i moves body i relative to
    ``parent[i]`` (module docstring, docs/conventions.md). Models are usually built by
    :func:`eslabon.zoo.load`, :func:`eslabon.from_dh`, :func:`eslabon.load_model` or
    :class:`eslabon.model.ModelBuilder`; the constructor takes the fields ``name`` to
    ``mimic_offset`` below as keyword arguments, checks and converts them (a ValueError
    names the field) and makes every array read-only. :meth:`replace` gives a changed
    copy. Every quantity is in SI units; per-body data are in the body frame.

    Attributes
    ----------
    name : str
        The model's name.
    parent : ndarray of int (nb+1,)
        ``parent[i] < i``, the body joint i hangs from; ``parent[0] = -1``.
    joint_type : ndarray of int (nb+1,)
        Joint i's type: 0 fixed, 1 revolute, 2 prismatic, 3 helical, 4 universal,
        5 planar, 6 spherical, 7 free flyer (body 0: fixed).
    axis : ndarray (nb+1, 3)
        Unit joint axis in the joint frame (revolute, prismatic, helical; a universal
        joint's first axis).
    tree_rotation : ndarray (nb+1, 3, 3)
        Rotation of joint i's frame in the parent body's frame (``parent_R_joint``).
    tree_translation : ndarray (nb+1, 3)
        Origin of joint i's frame in the parent body's frame [m].
    mass : ndarray (nb+1,)
        Body masses [kg], ≥ 0.
    com : ndarray (nb+1, 3)
        Centres of mass in the body frames [m].
    inertia : ndarray (nb+1, 3, 3)
        Rotational inertias about the centres of mass, body axes [kg·m²]; symmetric
        positive semi-definite.
    viscous, coulomb : ndarray (nb+1,)
        Joint i's viscous friction [N·m·s/rad or N·s/m] and Coulomb friction [N·m or N],
        ≥ 0: τ_f = viscous·q̇ + coulomb·sign(q̇) for each of its rates.
    armature : ndarray (nb+1,)
        Joint i's rotor inertia [kg·m² or kg], ≥ 0, added to M's diagonal.
    com_slide : ndarray (nb+1,)
        Seed 001's book mode: the COM of a prismatic joint's body moves by
        ``com_slide[i]·q`` along the axis (0 for rigid links).
    gravity : ndarray (3,)
        Free-fall acceleration in world coordinates [m/s²].
    body_names : tuple of str (nb+1,)
        ``"world"`` first; default ``body1`` … ``body<nb>``.
    joint_names : tuple of str (nb+1,)
        The name of body i's joint (a URDF joint's name), ``"universe"`` first (the
        world has none: Pinocchio's name); default ``joint1`` … ``joint<nb>``. Its
        coordinates are named after it: :attr:`q_names`, :attr:`v_names`.
    frames : tuple of Frame
        The named frames (``dh0`` … ``dhN``, ``ee``, URDF links): :meth:`frame`.
    dh : DHTable or None
        The DH table a DH model was compiled from.
    source : str
        Where the data come from (a citation, a file name).
    axis2 : ndarray (nb+1, 3)
        A universal joint's second axis (zero elsewhere).
    pitch : ndarray (nb+1,)
        A helical joint's advance per radian [m/rad] (zero elsewhere).
    mimic_joint : ndarray of int (nb+1,)
        For a mimic joint, the body whose joint it copies; −1 for the others.
    mimic_multiplier, mimic_offset : ndarray (nb+1,)
        A mimic joint's value is multiplier · (the copied joint's value) + offset [rad or
        m]; it adds no degree of freedom.
    constraints : tuple of LoopClosure, Contact and RollingWheel
        Closed loops and contacts (:mod:`eslabon.constraints`), checked against the
        frames; empty for a tree. The tree's dynamics (``eslabon.forward_dynamics``, …)
        ignore them; :mod:`eslabon.constraints` applies them, and
        :func:`eslabon.simulate` and :func:`eslabon.rollout` integrate under them.
    q_index, v_index : ndarray of int (nb+1,)
        Where joint i's coordinates start in q and its rates in v; −1 for fixed and mimic
        joints.
    nq : int
        Length of a configuration q.
    nv : int
        Length of rates, accelerations and torques (n in the shapes of the API reference);
        nq = nv unless a joint holds a quaternion. Mimic joints are not counted.

    Notes
    -----
    Derived read-only properties: ``nb``, ``dof_bodies``, ``joint_types``,
    ``joint_letters``, ``joint_bodies``, ``has_mimic``, ``has_general_joints``,
    ``floating_base_rates``, ``has_moving_com``. The fields ``engine_nq``, ``engine_nv``,
    ``engine_q_index``, ``engine_v_index`` count mimic joints too, as the compiled kernels
    see them; ``mimic``, ``body_row``, ``packed``, ``packed_dynamics`` and
    ``frame_placements`` are the kernels' internal data.

    Examples
    --------
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> arm.nq, arm.nv, arm.nb, arm.body_names
    (2, 2, 2, ('world', 'link1', 'link2'))
    >>> arm.mass.tolist(), arm.inertia.shape
    ([0.0, 2.0, 1.5], (3, 3, 3))
    """

    name: str
    parent: np.ndarray
    joint_type: np.ndarray
    axis: np.ndarray
    tree_rotation: np.ndarray
    tree_translation: np.ndarray
    mass: np.ndarray
    com: np.ndarray
    inertia: np.ndarray
    viscous: np.ndarray
    coulomb: np.ndarray
    armature: np.ndarray
    com_slide: np.ndarray
    gravity: np.ndarray
    body_names: tuple = ()
    joint_names: tuple = ()
    frames: tuple = ()
    dh: DHTable | None = None
    source: str = ""
    axis2: Any = None
    pitch: Any = None
    mimic_joint: Any = None
    mimic_multiplier: Any = None
    mimic_offset: Any = None
    constraints: tuple = ()
    q_index: np.ndarray = field(init=False)
    v_index: np.ndarray = field(init=False)
    nq: int = field(init=False)
    nv: int = field(init=False)
    # the compiled kernels see every joint with coordinates of its own, mimic ones too
    engine_q_index: np.ndarray = field(init=False, repr=False)
    engine_v_index: np.ndarray = field(init=False, repr=False)
    engine_nq: int = field(init=False, repr=False)
    engine_nv: int = field(init=False, repr=False)
    mimic: Any = field(init=False, repr=False)
    body_row: np.ndarray = field(init=False, repr=False)
    packed: np.ndarray = field(init=False, repr=False)
    # the same with fixed joints folded into their parents (model.fold.fold_fixed), rows
    # in depth-first order (model.fold.depth_first) and joint axes turned onto z
    # (model.reframe.axes_on_z): what the kernels of per-degree-of-freedom results read
    packed_dynamics: np.ndarray = field(init=False, repr=False)
    # {frame name: the packed row of its body, then its placement (13,)}, filled on first
    # use by eslabon.kinematics (kinematic_pass.frame_entry), where the lean C path of the
    # frame functions reads it
    frame_placements: dict = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        arrays = check_body_arrays(self)
        for key, value in arrays.items():
            value.setflags(write=False)
            object.__setattr__(self, key, value)
        own = self.mimic_joint < 0  # a mimic joint has no coordinate of its own
        for key, table in (("q", L.JOINT_NQ), ("v", L.JOINT_NV)):
            for prefix, size in (
                ("engine_", _sizes(table, self.joint_type)),  # every joint its own
                ("", _sizes(table, self.joint_type) * own),
            ):
                start = np.concatenate(([0], np.cumsum(size)[:-1]))
                index = np.where(size > 0, start, -1).astype(np.int64)
                index.setflags(write=False)
                object.__setattr__(self, f"{prefix}{key}_index", index)
                object.__setattr__(self, f"{prefix}n{key}", int(size.sum()))
        object.__setattr__(self, "mimic", mimic_map(self))
        for key in ("body_names", "joint_names", "frames"):  # a list given is kept as a tuple
            if isinstance(getattr(self, key), list):
                object.__setattr__(self, key, tuple(getattr(self, key)))
        if not self.body_names:
            object.__setattr__(
                self, "body_names", tuple(["world"] + [f"body{i}" for i in range(1, self.nb + 1)])
            )
        if not self.joint_names:
            object.__setattr__(
                self,
                "joint_names",
                tuple(["universe"] + [f"joint{i}" for i in range(1, self.nb + 1)]),
            )
        check_names_and_frames(self)
        object.__setattr__(self, "constraints", checked_constraints(self, self.constraints))
        for names in (self.q_names, self.v_names):  # joint "a.q1" beside a universal "a"
            seen: set = set()
            for name in names:
                if name in seen:
                    raise ValueError(
                        f"joint_names: two coordinates would both be named {name!r}; "
                        "rename the joint whose name ends like another's coordinate"
                    )
                seen.add(name)
        rows = np.array(L.body_rows(self), dtype=np.int64)
        rows.setflags(write=False)
        object.__setattr__(self, "body_row", rows)  # each body's row in the packed array
        packed = L.pack(self)
        packed.setflags(write=False)
        object.__setattr__(self, "packed", packed)
        folded = axes_on_z(depth_first(fold_fixed(packed)))
        folded.setflags(write=False)
        object.__setattr__(self, "packed_dynamics", folded)
        object.__setattr__(self, "frame_placements", {})

    # --- sizes -----------------------------------------------------------------------
    @property
    def nb(self) -> int:
        """Number of bodies, world excluded."""
        return len(self.parent) - 1

    @property
    def dof_bodies(self) -> np.ndarray:
        """Body index of each degree of freedom (each rate of v), shape (nv,)."""
        own = self.mimic_joint < 0
        return np.repeat(np.arange(self.nb + 1), _sizes(L.JOINT_NV, self.joint_type) * own)

    @property
    def q_names(self) -> tuple:
        """The name of each coordinate of q, shape (nq,). A joint of one coordinate names
        it; the coordinates of a joint of several are named after the joint
        (``root_joint.x`` … ``root_joint.qw``, ``shoulder.q1``; the suffixes are its
        type's, :data:`eslabon._engine.layout.JOINT_KINDS`)."""
        return coordinate_names(self, "q")

    @property
    def v_names(self) -> tuple:
        """The name of each rate of v (and entry of τ), shape (nv,), named as
        :attr:`q_names` are (``root_joint.vx`` … ``root_joint.wz``)."""
        return coordinate_names(self, "v")

    @property
    def joint_types(self) -> tuple:
        """Type name of each degree of freedom (each rate of v)."""
        return tuple(JOINT_TYPE_NAMES[int(t)] for t in self.joint_type[self.dof_bodies])

    @property
    def joint_letters(self) -> str:
        """One letter per moving joint: R revolute, P prismatic, H helical, U universal,
        L planar, S spherical, B free flyer (a floating base)."""
        return "".join(L.JOINT_LETTERS[int(t)] for t in self.joint_type[self.joint_bodies])

    @property
    def joint_bodies(self) -> np.ndarray:
        """Body index of each moving joint with coordinates of its own (one per joint,
        whatever its size; a mimic joint copies another's)."""
        return np.flatnonzero((self.joint_type != FIXED) & (self.mimic_joint < 0))

    @property
    def has_mimic(self) -> bool:
        """True when a joint copies another's value (``mimic_joint``)."""
        return self.mimic is not None

    @property
    def has_general_joints(self) -> bool:
        """True when a joint is other than revolute, prismatic or fixed."""
        return bool(np.any(~np.isin(self.joint_type, (FIXED, REVOLUTE, PRISMATIC))))

    @property
    def floating_base_rates(self) -> tuple:
        """The rate indices of free-flyer joints hanging from the world (a floating base:
        no actuator drives them); empty for a fixed base."""
        out: list[int] = []
        for i in range(1, self.nb + 1):
            if self.parent[i] == 0 and JOINT_TYPE_NAMES[int(self.joint_type[i])] == "free_flyer":
                start = int(self.v_index[i])
                out += range(start, start + 6) if start >= 0 else []
        return tuple(out)

    def require_one_dof_joints(self, what: str) -> None:
        """Refuse a model with a joint other than revolute, prismatic or fixed, for
        ``what`` that takes only those (a formulation of the source documents written for
        1-DOF joints, or a function not yet extended).

        Parameters
        ----------
        what : str
            What takes only those joints, named in the message (e.g.
            ``"forward_dynamics(algorithm='lagrange')"``).

        Raises
        ------
        ValueError
            ``"model: {what} takes revolute, prismatic and fixed joints; the joint of body
            'b' is spherical"``, or a mimic joint (:meth:`require_no_mimic`).
        """
        for i in range(1, self.nb + 1):
            if int(self.joint_type[i]) not in (FIXED, REVOLUTE, PRISMATIC):
                raise ValueError(
                    f"model: {what} takes revolute, prismatic and fixed joints; the joint "
                    f"of body {self.body_names[i]!r} is "
                    f"{JOINT_TYPE_NAMES[int(self.joint_type[i])]}"
                )
        self.require_no_mimic(what)

    def require_no_mimic(self, what: str) -> None:
        """Refuse a model with a mimic joint for ``what`` that cannot take one.

        Parameters
        ----------
        what : str
            What cannot take a mimic joint, named in the message.

        Raises
        ------
        ValueError
            ``"model: {what} takes joints with coordinates of their own; the joint of body
            'b' mimics that of body 'a'"``.
        """
        for i in np.flatnonzero(self.mimic_joint >= 0):
            raise ValueError(
                f"model: {what} takes joints with coordinates of their own; the joint of "
                f"body {self.body_names[i]!r} mimics that of body "
                f"{self.body_names[int(self.mimic_joint[i])]!r}"
            )

    def require_vector_space(self, what: str) -> None:
        """Refuse a model whose configuration is not a vector space (a spherical or
        free-flyer joint: q holds a quaternion, nq ≠ nv), for ``what`` that adds rates to
        coordinates.

        Parameters
        ----------
        what : str
            What needs q to be a vector space, named in the message.

        Raises
        ------
        ValueError
            ``"model: {what} takes joints whose coordinates are a vector space; the joint
            of body 'b' is spherical (a quaternion)"``.
        """
        for i in range(1, self.nb + 1):
            if int(self.joint_type[i]) in (L.SPHERICAL, L.FREE_FLYER):
                raise ValueError(
                    f"model: {what} takes joints whose coordinates are a vector space; the "
                    f"joint of body {self.body_names[i]!r} is "
                    f"{JOINT_TYPE_NAMES[int(self.joint_type[i])]} (a quaternion)"
                )

    @property
    def has_moving_com(self) -> bool:
        """True when some COM slides with its prismatic joint (seed 001 book mode)."""
        return bool(np.any(self.com_slide != 0.0))

    def require_rigid_links(self, what: str) -> None:
        """Refuse a model whose links are not rigid bodies, for ``what`` that needs them.

        Parameters
        ----------
        what : str
            What needs rigid links, named in the message (e.g. ``"coriolis_matrix"``,
            ``"the Lagrange model"``).

        Raises
        ------
        ValueError
            When a COM slides with its prismatic joint (:attr:`has_moving_com`, seed 001
            book mode): ``"model: {what} needs rigid links; ..."``.
        """
        if self.has_moving_com:
            raise ValueError(
                f"model: {what} needs rigid links; a COM of {self.name!r} "
                "slides with a prismatic joint (a sliding COM, seed 001 book "
                "mode)"
            )

    def frame(self, name: str) -> Frame:
        """The named frame ``name``, or else the frame of the body of that name (its joint
        frame, identity offset), as Pinocchio counts every body as a frame.

        Parameters
        ----------
        name : str
            A frame of ``frames`` (``"ee"``, ``"dh3"``, a URDF link) or a body's name.

        Returns
        -------
        Frame
            Its body and its placement (rotation, translation in m) in that body's frame;
            for a body's name, the body itself at the identity.

        Raises
        ------
        ValueError
            ``"frame: unknown frame 'x'; this model has frames [...] and bodies [...]"``.
        """
        for fr in self.frames:
            if fr.name == name:
                return fr
        if isinstance(name, str) and name in self.body_names:
            return Frame(name, self.body_names.index(name), np.eye(3), np.zeros(3))
        raise ValueError(
            f"frame: unknown frame {name!r}; this model has frames "
            f"{[f.name for f in self.frames]} and bodies {list(self.body_names)}"
        )

    def replace(self, **changes: Any) -> Model:
        """A new model with some fields changed, validated again (the model is immutable).

        Friction and armature may be given per moving joint, shape (number of joints,)
        (= (nv,) when every joint has one degree of freedom).

        Parameters
        ----------
        **changes
            New values of constructor fields by name (``name``, ``parent``, …,
            ``mimic_offset``: the class's Attributes), with their shapes and units.
            ``viscous``, ``coulomb`` and ``armature`` may also be one number (every moving
            joint) or one value per moving joint in ``joint_bodies`` order, instead of
            (nb+1,); the entries of the other bodies (the world, fixed and mimic joints)
            are then 0.

        Returns
        -------
        Model
            The changed copy; the derived fields (``nq``, ``q_index``, the packed arrays)
            are computed again. This model is unchanged.

        Raises
        ------
        ValueError
            An unknown field, or a value the constructor refuses (naming the field).

        Examples
        --------
        >>> import eslabon as es
        >>> arm = es.zoo.load("planar2")
        >>> floating = arm.replace(gravity=(0.0, 0.0, 0.0), viscous=0.1)
        >>> floating.viscous.tolist(), es.gravity_torques(floating, [0.3, 0.2]).tolist()
        ([0.0, 0.1, 0.1], [0.0, 0.0])
        """
        current = {
            k: getattr(self, k)
            for k in (
                "name",
                "parent",
                "joint_type",
                "axis",
                "tree_rotation",
                "tree_translation",
                "mass",
                "com",
                "inertia",
                "viscous",
                "coulomb",
                "armature",
                "com_slide",
                "gravity",
                "body_names",
                "joint_names",
                "frames",
                "dh",
                "source",
                "axis2",
                "pitch",
                "mimic_joint",
                "mimic_multiplier",
                "mimic_offset",
                "constraints",
            )
        }
        for key in ("viscous", "coulomb", "armature"):
            if (
                key in changes
                and np.size(changes[key]) in (1, len(self.joint_bodies))
                and np.size(changes[key]) != self.nb + 1
            ):
                full = np.zeros(self.nb + 1)
                full[self.joint_bodies] = changes[key]
                changes[key] = full
        unknown = set(changes) - set(current)
        if unknown:
            raise ValueError(f"replace: unknown field(s) {sorted(unknown)}")
        current.update(changes)
        return Model(**current)

    def __repr__(self) -> str:
        return (
            f"Model({self.name!r}, nq={self.nq}, nv={self.nv}, nb={self.nb}, "
            f"joints={self.joint_letters}, "
            f"gravity={tuple(float(g) for g in self.gravity)})"
        )


__all__ = ["Model", "Frame", "DHTable", "REVOLUTE", "PRISMATIC", "FIXED"]
