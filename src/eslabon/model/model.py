"""The one robot model: a frozen tree of bodies stored as flat arrays (DESIGN §4).

Bodies are numbered 0..nb with 0 the fixed world and ``parent[i] < i``. Joint ``i`` moves
body ``i`` relative to ``parent[i]``: the body frame is the joint frame placed at
(``tree_rotation[i]``, ``tree_translation[i]``) in the parent frame, then rotated by
``q`` about ``axis[i]`` (revolute) or translated by ``q`` along it (prismatic).
Inertial data are expressed in the body frame. DH tables, YAML and URDF are front-ends
that compile into this model; see :mod:`eslabon.model.dh`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._engine import layout as L
from .._engine.layout import FIXED, PRISMATIC, REVOLUTE
from .._engine.layout import JOINT_NAMES as JOINT_TYPE_NAMES
from .validate import check_body_arrays, check_names_and_frames


@dataclass(frozen=True)
class Frame:
    """A named frame fixed to ``body`` at (``rotation``, ``translation``) in the body frame."""

    name: str
    body: int
    rotation: np.ndarray
    translation: np.ndarray


@dataclass(frozen=True)
class DHTable:
    """The DH rows a model was compiled from, kept for display and export."""

    convention: str
    rows: tuple


@dataclass(frozen=True, eq=False)
class Model:
    """Immutable articulated-body model. Per-body arrays have a leading axis of nb + 1.

    Attributes (shapes): ``parent`` (nb+1,) int, ``joint_type`` (nb+1,) int (0 fixed,
    1 revolute, 2 prismatic), ``q_index`` (nb+1,) int (-1 for fixed joints),
    ``axis`` (nb+1, 3), ``tree_rotation`` (nb+1, 3, 3), ``tree_translation`` (nb+1, 3),
    ``mass`` (nb+1,), ``com`` (nb+1, 3), ``inertia`` (nb+1, 3, 3) about the COM,
    ``viscous``, ``coulomb``, ``armature``, ``com_slide`` (nb+1,), ``gravity`` (3,).
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
    frames: tuple = ()
    dh: DHTable | None = None
    source: str = ""
    q_index: np.ndarray = field(init=False)
    nq: int = field(init=False)
    packed: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        arrays = check_body_arrays(self)
        for key, value in arrays.items():
            value.setflags(write=False)
            object.__setattr__(self, key, value)
        q_index = np.full(len(self.parent), -1, dtype=np.int64)
        moving = np.flatnonzero(self.joint_type != FIXED)
        q_index[moving] = np.arange(len(moving))
        q_index.setflags(write=False)
        object.__setattr__(self, "q_index", q_index)
        object.__setattr__(self, "nq", len(moving))  # number of joint coordinates (DOF)
        for key in ("body_names", "frames"):  # a list given is kept as a tuple
            if isinstance(getattr(self, key), list):
                object.__setattr__(self, key, tuple(getattr(self, key)))
        if not self.body_names:
            object.__setattr__(
                self, "body_names", tuple(["world"] + [f"body{i}" for i in range(1, self.nb + 1)])
            )
        check_names_and_frames(self)
        packed = L.pack(self)
        packed.setflags(write=False)
        object.__setattr__(self, "packed", packed)

    # --- sizes -----------------------------------------------------------------------
    @property
    def nb(self) -> int:
        """Number of bodies, world excluded."""
        return len(self.parent) - 1

    @property
    def dof_bodies(self) -> np.ndarray:
        """Body index of each degree of freedom, shape (nq,)."""
        return np.flatnonzero(self.joint_type != FIXED)

    @property
    def joint_types(self) -> tuple:
        """Type name of each degree of freedom."""
        return tuple(JOINT_TYPE_NAMES[int(t)] for t in self.joint_type[self.dof_bodies])

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
        for fr in self.frames:
            if fr.name == name:
                return fr
        raise ValueError(
            f"frame: unknown frame {name!r}; this model has {[f.name for f in self.frames]}"
        )

    def replace(self, **changes: Any) -> Model:
        """A new model with some fields changed, validated again (the model is immutable).

        Friction and armature may be given per degree of freedom, shape (nq,).
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
                "frames",
                "dh",
                "source",
            )
        }
        for key in ("viscous", "coulomb", "armature"):
            if (
                key in changes
                and np.size(changes[key]) in (1, self.nq)
                and np.size(changes[key]) != self.nb + 1
            ):
                full = np.zeros(self.nb + 1)
                full[self.dof_bodies] = changes[key]
                changes[key] = full
        unknown = set(changes) - set(current)
        if unknown:
            raise ValueError(f"replace: unknown field(s) {sorted(unknown)}")
        current.update(changes)
        return Model(**current)

    def __repr__(self) -> str:
        return (
            f"Model({self.name!r}, nq={self.nq}, nb={self.nb}, "
            f"joints={''.join(t[0].upper() for t in self.joint_types)}, "
            f"gravity={tuple(float(g) for g in self.gravity)})"
        )


__all__ = ["Model", "Frame", "DHTable", "REVOLUTE", "PRISMATIC", "FIXED"]
