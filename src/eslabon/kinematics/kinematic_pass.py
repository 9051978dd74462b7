"""The outward kinematic pass by name: every body's pose, velocity and acceleration.

:func:`kinematic_pass` runs the compiled outward pass of :mod:`eslabon._engine.outward_pass`
(seed 001 Tabla 3.1, eqs (3.27)–(3.29), Luh, Walker & Paul 1980) and returns its results as a
:class:`KinematicPass` of named, read-only arrays, for code written with numpy (the
reference formulations of :mod:`eslabon.dynamics` and :mod:`eslabon.mobile`, the
functions of :mod:`.forward`). This module is the one place outside the compiled
kernels that knows how the kernels' workspace is laid out.

The base (body 0) is fixed unless a :class:`BaseMotion` is given: then it moves as the
mount of an arm on a mobile platform (seed 003, Araujo 2012, Ch. III).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, fields
from typing import Any, NamedTuple

import numpy as np

from .._args import explain_nonfinite, finite_array, require_finite, vectors
from .._engine.batch import chunk_count
from .._engine.joints import extended_of
from .._engine.lanes import WIDTH
from .._engine.outward_pass import WS_A, WS_C, WS_E, WS_PW, WS_R, WS_RW, WS_V, WS_W, WS_WD
from .._engine.status import OK
from ..model.configuration import check_configuration
from .drivers import (
    jacobian_many,
    jacobian_one,
    kinematics_many,
    kinematics_moving_base,
    kinematics_one,
    poses_many,
    poses_one,
    workspace,
)


class BaseMotion(NamedTuple):
    """Motion of the base (body 0), each (3,) in the base frame.

    Attributes
    ----------
    angular_velocity : array_like, (3,)
        ω_0 [rad/s].
    angular_acceleration : array_like, (3,)
        ω̇_0 [rad/s²].
    linear_velocity : array_like, (3,)
        Velocity of the base origin [m/s].
    linear_acceleration : array_like, (3,)
        Acceleration of the base origin [m/s²] as the pass is to see it. The pass adds no
        gravity: to fold gravity in as Luh's fictitious base acceleration (seed 001 §2.4),
        give a_0 − g, g the free-fall acceleration in the base frame.
    """

    angular_velocity: np.ndarray
    angular_acceleration: np.ndarray
    linear_velocity: np.ndarray
    linear_acceleration: np.ndarray


@dataclass(frozen=True, eq=False)
class KinematicPass:
    """Poses, velocities and accelerations of bodies 0..nb at one state or a batch.

    Every array is read-only. Its leading axes are those of the input: none for one
    state (n,), (N,) for a batch (N, n); the next axis is the body, 0..nb (row 0 is the
    base). "World" is the base frame (body 0): the world for a fixed base, the moving
    mount for a :class:`BaseMotion`. Rotations ``A_R_B`` have as columns the axes of
    frame B written in frame A (``docs/conventions.md``).

    Attributes
    ----------
    parent_rotation : ndarray, (..., nb+1, 3, 3)
        E_i = p_R_i, the rotation parent ← body i at the current q (identity for body 0).
    parent_translation : ndarray, (..., nb+1, 3)
        r_i, the origin of body i in its parent's frame (parent axes).
    world_rotation : ndarray, (..., nb+1, 3, 3)
        W_R_i, world ← body i.
    world_position : ndarray, (..., nb+1, 3)
        The origin of body i in world coordinates.
    angular_velocity : ndarray, (..., nb+1, 3)
        ω_i, in body i's frame.
    angular_acceleration : ndarray, (..., nb+1, 3)
        ω̇_i, in body i's frame.
    linear_velocity : ndarray, (..., nb+1, 3)
        Velocity of body i's origin, in body i's frame.
    linear_acceleration : ndarray, (..., nb+1, 3)
        v̇_i, the classical acceleration of body i's origin, in body i's frame. Gravity is
        not folded in (the recursion runs with a_0 = 0 for a fixed base); with a
        :class:`BaseMotion` it is whatever the base's ``linear_acceleration`` holds (the
        mobile manipulator gives a_0 − g, Luh's gravity).
    com : ndarray, (..., nb+1, 3)
        Centre of mass of body i at the current q, in body i's frame (it slides with a
        prismatic joint in seed 001's book mode; zero for body 0).

    Notes
    -----
    The arrays are views of the kernel's workspace: the values are those the compiled
    kernels compute, bit for bit.
    """

    parent_rotation: np.ndarray
    parent_translation: np.ndarray
    world_rotation: np.ndarray
    world_position: np.ndarray
    angular_velocity: np.ndarray
    angular_acceleration: np.ndarray
    linear_velocity: np.ndarray
    linear_acceleration: np.ndarray
    com: np.ndarray

    def __post_init__(self):
        for name in _FIELD_NAMES:
            getattr(self, name).flags.writeable = False

    @classmethod
    def from_workspace(cls, ws: np.ndarray) -> KinematicPass:
        """Views of a workspace (..., nb+1, WS_COLS) filled by a pass with ``poses``.

        Parameters
        ----------
        ws : ndarray (nb+1, WS_COLS) or (N, nb+1, WS_COLS)
            The compiled pass's workspace (:mod:`eslabon._engine.outward_pass`), one row
            per body; its columns hold E, r, the world pose, ω, ω̇, v, v̇ and the COM.
            The views share its memory; the views are made read-only, not ``ws``.

        Returns
        -------
        KinematicPass
            Named views of the columns (no copy).
        """
        rows = ws.shape[:-1]

        def vec(col):
            return ws[..., col : col + 3]

        def rot(col):
            return ws[..., col : col + 9].reshape(rows + (3, 3))

        return cls(
            parent_rotation=rot(WS_E),
            parent_translation=vec(WS_R),
            world_rotation=rot(WS_RW),
            world_position=vec(WS_PW),
            angular_velocity=vec(WS_W),
            angular_acceleration=vec(WS_WD),
            linear_velocity=vec(WS_V),
            linear_acceleration=vec(WS_A),
            com=vec(WS_C),
        )

    @property
    def batched(self) -> bool:
        """True for a batch of states (a leading axis before the bodies)."""
        return self.world_position.ndim == 3


_FIELD_NAMES = tuple(f.name for f in fields(KinematicPass))


def _states(model, q, qd, qdd):
    """q, q̇, q̈ checked to one shape, zeros for those not given; and whether batched."""
    given = {"q": q}
    if qd is not None:
        given["qd"] = qd
    if qdd is not None:
        given["qdd"] = qdd
    values, batched = vectors(model.nv, nq=model.nq, **given)
    checked = dict(zip(given, values, strict=True))
    if model.nq != model.nv:
        check_configuration(model, checked["q"])
    zeros = np.zeros(checked["q"].shape[:-1] + (model.nv,))  # read by the kernel only
    q, qd, qdd = checked["q"], checked.get("qd", zeros), checked.get("qdd", zeros)
    if model.mimic is not None:  # every joint's own coordinate (eslabon.model.mimic)
        mm = model.mimic
        q, qd, qdd = (
            np.ascontiguousarray(x) for x in (mm.configuration(q), mm.rates(qd), mm.rates(qdd))
        )
    return q, qd, qdd, batched


def _base_row(ws, base):
    """Write the base's motion into workspace row 0, where the moving-base kernel reads it."""
    if not isinstance(base, BaseMotion):
        raise ValueError(
            f"base: expected an eslabon.kinematics.BaseMotion, got {type(base).__name__}"
        )
    for col, name in (
        (WS_W, "angular_velocity"),
        (WS_WD, "angular_acceleration"),
        (WS_V, "linear_velocity"),
        (WS_A, "linear_acceleration"),
    ):
        ws[0, col : col + 3] = finite_array(getattr(base, name), f"base.{name}", (3,))


def kinematic_pass(model, q, qd=None, qdd=None, *, base: BaseMotion | None = None) -> KinematicPass:
    """Run the compiled outward kinematic pass and name what it computes.

    Parameters
    ----------
    model : Model
        A fixed-base model (its packed arrays drive the kernel).
    q : array_like, (nq,) or (N, nq)
        Joint positions, one state or a batch: rad (revolute), m (prismatic), unit
        quaternions (x, y, z, w) for spherical and free-flyer joints.
    qd, qdd : array_like, (n,) or (N, n), optional
        Joint rates (rad/s, m/s) and accelerations (rad/s², m/s²), the batch shape of
        ``q``; zero when not given.
    base : BaseMotion, optional
        The base's motion, in the base frame (one state only). Without it the base is
        fixed and nothing accelerates it, not even gravity.

    Returns
    -------
    KinematicPass
        Poses, velocities and accelerations of bodies 0..nb.

    Raises
    ------
    ValueError
        A state of the wrong shape or with a non-finite value, a quaternion whose norm is
        not 1 (to 1e-6), a ``base`` with a batch or that is not a :class:`BaseMotion` of
        finite (3,) vectors, or a non-finite pose from finite inputs (a model far out of
        scale).

    Examples
    --------
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> motion = es.kinematics.kinematic_pass(arm, [0.0, 0.0], [1.0, 0.0])
    >>> motion.world_position.shape, motion.angular_velocity[2].tolist()
    ((3, 3), [0.0, 0.0, 1.0])
    >>> motion.batched
    False
    """
    return KinematicPass.from_workspace(_run(model, q, qd, qdd, base))


def body_poses(model, q) -> np.ndarray:
    """``W_T_i`` (..., nb+1, 4, 4), the homogeneous world pose of every body, from the
    compiled pass (one state or a batch, on lanes); the part of the pass the pose
    functions need, without naming the rest."""
    q, zeros, _, batched = _states(model, q, None, None)
    require_finite("kinematics", q=q)
    P = model.packed
    rows = _ROWS.get(model)
    if rows is None:  # the packed rows of the bodies: int64 for one state, float64 for a batch
        body_row = np.ascontiguousarray(model.body_row, dtype=np.int64)
        rows = _ROWS[model] = (body_row, body_row.astype(np.float64))
    T = np.empty(q.shape[:-1] + (len(rows[0]), 4, 4))
    if batched:
        poses_many(P, q, rows[1], T, chunk_count(len(q), WIDTH), extended_of(P))
    else:
        poses_one(P, q, zeros, rows[0], T, extended_of(P))
    if not np.isfinite(T).all():
        explain_nonfinite("kinematics", q=q)
    return T


def compiled_jacobian(model, q, frame: str, local: bool) -> np.ndarray:
    """The compiled Jacobian of ``frame`` (:mod:`.frame_jacobian`) at q (nq,) or (N, nq):
    (6, engine_nv) or (N, 6, engine_nv), every joint's own column (mimic joints not yet
    folded into the joints they copy)."""
    q, zeros, _, batched = _states(model, q, None, None)
    require_finite("kinematics", q=q)
    P = model.packed
    row, placed = _frame_placement(model, frame)
    J = np.empty(q.shape[:-1] + (6, model.engine_nv))
    args = (row, placed, bool(local))
    if batched:
        status = jacobian_many(P, q, *args, J, chunk_count(len(q), WIDTH), extended_of(P))
    else:
        status = jacobian_one(P, q, zeros, *args, J, extended_of(P))
    if status != OK and not np.isfinite(J).all():  # (status: the sum of J is finite)
        explain_nonfinite("kinematics", q=q)
    return J


# model -> the packed rows of its bodies, (int64, float64): models are immutable
_ROWS: weakref.WeakKeyDictionary[Any, tuple[np.ndarray, np.ndarray]] = weakref.WeakKeyDictionary()


def frame_entry(model, frame: str) -> np.ndarray:
    """The entry of ``frame`` in ``model.frame_placements``, made on first use: float64
    (13,), the packed row of the frame's body, then the frame's placement on it, the
    rotation (row-major, 9) and the origin (3), as :func:`.frame_jacobian.frame_jacobian_into`
    and the C entries of :mod:`.entries` read them."""
    known = getattr(model, "frame_placements", None)
    if known is None:  # a model unpickled from an eslabon without the table
        known = {}
        object.__setattr__(model, "frame_placements", known)
    entry = known.get(frame)
    if entry is None:
        fr = model.frame(frame)  # (an unknown name raises here, naming the frames)
        row = float(model.body_row[fr.body])
        entry = np.concatenate([[row], np.ravel(fr.rotation), np.ravel(fr.translation)])
        entry = np.ascontiguousarray(entry, dtype=np.float64)
        # (kept writable: numba types read-only arrays apart)
        known[frame] = entry
    return entry


def _frame_placement(model, frame: str) -> tuple[int, np.ndarray]:
    """The packed row of ``frame``'s body and the frame's placement on it (12,)."""
    entry = frame_entry(model, frame)
    return int(entry[0]), entry[1:]


def _run(model, q, qd, qdd, base) -> np.ndarray:
    """The checked workspace of the pass (see :func:`kinematic_pass`)."""
    q, qd, qdd, batched = _states(model, q, qd, qdd)
    require_finite("kinematics", q=q, qd=qd, qdd=qdd)
    P = model.packed
    if base is not None:
        if batched:
            raise ValueError("base: a moving base takes one state (n,), not a batch")
        ws = workspace(P)
        _base_row(ws, base)
        kinematics_moving_base(P, q, qd, qdd, ws, extended_of(P))
    elif batched:
        ws = workspace(P, len(q))
        kinematics_many(P, q, qd, qdd, ws, chunk_count(len(q), WIDTH), extended_of(P))
    else:
        ws = workspace(P)
        kinematics_one(P, q, qd, qdd, ws, extended_of(P))
    # a non-finite last joint value leaves every body origin finite (only the last
    # rotation turns NaN), so the inputs are checked above, not only the poses here
    if not np.isfinite(ws[..., WS_RW : WS_PW + 3]).all():  # world rotation, then origin
        explain_nonfinite("kinematics", q=q, qd=qd, qdd=qdd)
    return _body_rows(model, ws)


def _body_rows(model, ws: np.ndarray) -> np.ndarray:
    """The workspace rows of the bodies (a joint of several degrees of freedom is packed
    as several rows, its body the last), each body's placement in its parent body."""
    rows = model.body_row
    if rows[-1] == model.nb:
        return ws
    ws = ws[..., rows, :]
    for i in range(1, model.nb + 1):
        if rows[i] - rows[i - 1] > 1:  # a joint of several rows
            p = int(model.parent[i])
            Rp = ws[..., p, WS_RW : WS_RW + 9].reshape(ws.shape[:-2] + (3, 3))
            R = ws[..., i, WS_RW : WS_RW + 9].reshape(ws.shape[:-2] + (3, 3))
            d = ws[..., i, WS_PW : WS_PW + 3] - ws[..., p, WS_PW : WS_PW + 3]
            E = np.swapaxes(Rp, -1, -2) @ R
            ws[..., i, WS_E : WS_E + 9] = E.reshape(ws.shape[:-2] + (9,))
            ws[..., i, WS_R : WS_R + 3] = np.einsum("...ji,...j->...i", Rp, d)
    return ws
