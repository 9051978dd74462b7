"""Forward kinematics: body and frame poses, geometric Jacobians, link velocities and
accelerations, for one state (n,) or a batch (N, n).

Poses are 4×4 homogeneous transforms ``W_T_B`` (pose of B in the world). Twists and
Jacobian rows are ordered [angular; linear] (``docs/conventions.md``). ``reference``
is ``"world"`` (world axes) or ``"local"`` (the frame's own axes); the linear part is
always the velocity of the frame's origin.
"""

from __future__ import annotations

import numpy as np

from .._args import state_docs
from .._engine import entrypoints as _entrypoints
from ..model.model import Model
from .kinematic_pass import body_poses, compiled_jacobian, frame_entry, kinematic_pass

REFERENCES = ("world", "local")


def _homogeneous(R, p):
    T = np.zeros(R.shape[:-2] + (4, 4))
    T[..., :3, :3] = R
    T[..., :3, 3] = p
    T[..., 3, 3] = 1.0
    return T


@state_docs
def forward_kinematics(model, q):
    """World poses of bodies 0..nb: (nb+1, 4, 4) or (N, nb+1, 4, 4).

    The outward position recursion of the compiled kinematic pass (Práctica 3, Tabla 3.1):
    each body frame is its parent's, times the joint frame's fixed placement, times the
    joint's motion (docs/conventions.md). Body 0 is the world (the identity). Named frames
    (``ee``, the DH frames) are :func:`frame_pose` and :func:`frame_poses`.

    Parameters
    ----------
    $model
    $q

    Returns
    -------
    ndarray (nb+1, 4, 4) or (N, nb+1, 4, 4)
        ``W_T_i``, the homogeneous transform of body i's frame in the world: rotation
        (columns: the body's axes in world axes) and origin in m.

    Raises
    ------
    $state_errors

    Examples
    --------
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> T = es.forward_kinematics(arm, [0.0, 0.0])
    >>> T.shape, T[2, :3, 3].round(6).tolist()
    ((3, 4, 4), [1.0, 0.0, 0.0])
    """
    return body_poses(model, q)


def _frame_pose(model, R, p, frame):
    """World rotation and origin of a named frame, and the frame, from the bodies' world
    rotations R and origins p: W_R_F = W_R_B · B_R_F, p_F = p_B + W_R_B · B_p_F, each sum
    of three products added left to right as the compiled entry adds them
    (:func:`.drivers.frame_pose_into`), so that one state gives the same bits on the lean
    path and here."""
    fr = model.frame(frame)
    Rb, pb = R[..., fr.body, :, :], p[..., fr.body, :]
    F, t = np.asarray(fr.rotation, dtype=float), np.asarray(fr.translation, dtype=float)
    Rf = Rb[..., :, 0, None] * F[0] + Rb[..., :, 1, None] * F[1] + Rb[..., :, 2, None] * F[2]
    pf = pb + (Rb[..., :, 0] * t[0] + Rb[..., :, 1] * t[1] + Rb[..., :, 2] * t[2])
    return Rf, pf, fr


@state_docs
def frame_pose(model, q, frame: str = "ee"):
    """World pose of a named frame (``"ee"``, ``"dh3"``, ...): (4, 4) or (N, 4, 4).

    The pose of the frame's body times the frame's fixed placement on it
    (:meth:`eslabon.Model.frame`).

    Parameters
    ----------
    $model
    $q
    frame : str
        A named frame of the model (``"ee"``, the DH frames ``"dh0"`` … ``"dhN"``, a URDF
        link) or a body's name (its body frame).

    Returns
    -------
    ndarray (4, 4) or (N, 4, 4)
        ``W_T_F``, the homogeneous transform of the frame in the world (origin in m).

    Raises
    ------
    $state_errors
    ValueError
        An unknown frame (the message lists the model's frames and bodies).

    Examples
    --------
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> es.kinematics.frame_pose(arm, [0.0, 0.0], "dh1")[:3, 3].round(6).tolist()
    [1.0, 0.0, 0.0]
    """
    T = body_poses(model, q)
    R, p, _ = _frame_pose(model, T[..., :3, :3], T[..., :3, 3], frame)
    frame_entry(model, frame)  # where the lean path finds the frame from now on
    return _homogeneous(R, p)


@state_docs
def end_effector_pose(model, q):
    """World pose of the end effector ``ee``: (4, 4) or (N, 4, 4).

    ``frame_pose(model, q, "ee")``: for a DH model the last DH frame times the ``tool``
    transform given to :func:`eslabon.from_dh`.

    Parameters
    ----------
    $model
    $q

    Returns
    -------
    ndarray (4, 4) or (N, 4, 4)
        ``W_T_ee``, the homogeneous transform of the end effector in the world: rotation
        (columns: its axes in world axes) and origin in m.

    Raises
    ------
    $state_errors
    ValueError
        A model without an ``ee`` frame.

    Examples
    --------
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> es.end_effector_pose(arm, [0.0, 0.0])[:3, 3].round(6).tolist()
    [1.8, 0.0, 0.0]
    """
    return frame_pose(model, q, "ee")


@state_docs
def frame_poses(model, q) -> dict:
    """Every named frame of the model (DH frames ``dh0..dhN``, ``ee``) -> pose.

    One kinematic pass for all of ``model.frames`` (bodies are not included: their poses
    are :func:`forward_kinematics`).

    Parameters
    ----------
    $model
    $q

    Returns
    -------
    dict of str to ndarray (4, 4) or (N, 4, 4)
        Frame name → ``W_T_F``, its homogeneous transform in the world (origin in m), in
        the order of ``model.frames``.

    Raises
    ------
    $state_errors

    Examples
    --------
    >>> import eslabon as es
    >>> poses = es.kinematics.frame_poses(es.zoo.load("planar2"), [0.0, 0.0])
    >>> list(poses), poses["ee"][:3, 3].round(6).tolist()
    (['dh0', 'dh1', 'dh2', 'ee'], [1.8, 0.0, 0.0])
    """
    T = body_poses(model, q)
    R, p = T[..., :3, :3], T[..., :3, 3]
    return {fr.name: _homogeneous(*_frame_pose(model, R, p, fr.name)[:2]) for fr in model.frames}


def _check_reference(reference):
    if reference not in REFERENCES:
        raise ValueError(f"reference: expected one of {REFERENCES}, got {reference!r}")


@state_docs
def jacobian(model, q, frame: str = "ee", reference: str = "world"):
    """Geometric Jacobian of a frame, [angular; linear] rows: (6, nv) or (N, 6, nv).

    Column j, for the rate v_j of a joint: [z_j; z_j × (p_f − p_j)] (revolute), [0; z_j]
    (prismatic), [z_j; z_j × (p_f − p_j) + h z_j] (helical of pitch h), z_j the axis in world
    axes and p_j a point on it; a joint of several rates has one such column per rate
    (:func:`eslabon._engine.layout.joint_rows`: a spherical joint's columns are about its
    body's axes, a free flyer's along and about them). Zero where the rate does not move
    the frame. ``reference="local"`` expresses both blocks in the frame's own axes.
    A mimic joint's column is added to the column of the joint it copies, times its
    multiplier. The twist of the frame is [ω; v] = J q̇, v the velocity of its origin.

    Parameters
    ----------
    $model
    $q
    frame : str
        A named frame of the model (``"ee"`` by default, ``"dh3"``, a URDF link) or a
        body's name.
    reference : {"world", "local"}
        The axes of both blocks: the world's, or the frame's own.

    Returns
    -------
    ndarray (6, n) or (N, 6, n)
        Rows [angular; linear]: rad/s and m/s of the frame per unit rate (per rad/s or
        m/s of each joint).

    Raises
    ------
    $state_errors
    ValueError
        An unknown frame or ``reference``.

    Examples
    --------
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> J = es.jacobian(arm, [0.0, 0.0])
    >>> J.shape, J[2].tolist(), J[4].round(6).tolist()
    ((6, 2), [1.0, 1.0], [1.8, 0.8])
    """
    _check_reference(reference)
    J = compiled_jacobian(model, q, frame, reference == "local")
    if model.mimic is not None:  # a mimic joint's column adds to the one it copies
        J = J @ model.mimic.G
    return J


def _to_reference(motion, local, reference):
    if reference == "local":
        return local
    R = motion.world_rotation
    out = np.empty_like(local)
    out[..., :3] = (R @ local[..., :3, None])[..., 0]
    out[..., 3:] = (R @ local[..., 3:, None])[..., 0]
    return out


@state_docs
def link_velocities(model, q, qd, reference: str = "local"):
    """[ω; v] of every body origin, bodies 0..nb: (nb+1, 6) or (N, nb+1, 6).

    The velocities of the compiled outward pass (Práctica 3, Tabla 3.1, eqs 3.27–3.28),
    relative to the fixed world; row 0 (the world) is zero.

    Parameters
    ----------
    $model
    $q
    $qd
    reference : {"local", "world"}
        The axes of ω and v: each body's own (default) or the world's.

    Returns
    -------
    ndarray (nb+1, 6) or (N, nb+1, 6)
        Row i: [ω_i (rad/s); v_i (m/s)], the angular velocity of body i and the
        velocity of its origin.

    Raises
    ------
    $state_errors
    ValueError
        An unknown ``reference``.

    Examples
    --------
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> V = es.kinematics.link_velocities(arm, [0.0, 0.0], [1.0, 0.5], reference="world")
    >>> V.shape, V[2].round(6).tolist()
    ((3, 6), [0.0, 0.0, 1.5, 0.0, 1.0, 0.0])
    """
    _check_reference(reference)
    motion = kinematic_pass(model, q, qd)
    local = np.concatenate([motion.angular_velocity, motion.linear_velocity], axis=-1)
    return _to_reference(motion, local, reference)


@state_docs
def link_accelerations(model, q, qd, qdd, reference: str = "local"):
    """[ω̇; a] of every body origin (classical acceleration, no gravity), bodies 0..nb.

    The accelerations of the compiled outward pass (Práctica 3, Tabla 3.1, eqs
    3.27–3.29) with a fixed, unaccelerated base: the acceleration of the origin as a
    point (centripetal and Coriolis terms included), without Luh's gravity term.

    Parameters
    ----------
    $model
    $q
    $qd
    $qdd
    reference : {"local", "world"}
        The axes of ω̇ and a: each body's own (default) or the world's.

    Returns
    -------
    ndarray (nb+1, 6) or (N, nb+1, 6)
        Row i: [ω̇_i (rad/s²); a_i (m/s²)] of body i and its origin; row 0 is zero.

    Raises
    ------
    $state_errors
    ValueError
        An unknown ``reference``.

    Examples
    --------
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> A = es.kinematics.link_accelerations(arm, [0.0, 0.0], [1.0, 0.0], [0.0, 0.0], "world")
    >>> A[2, 3:].round(6).tolist()
    [-1.0, 0.0, 0.0]
    """
    _check_reference(reference)
    motion = kinematic_pass(model, q, qd, qdd)
    local = np.concatenate([motion.angular_acceleration, motion.linear_acceleration], axis=-1)
    return _to_reference(motion, local, reference)


# The public functions of one named frame are builtins (eslabon._engine.entrypoints,
# ``frames``): a float64 (nq,) q runs the compiled entry of eslabon.kinematics.entries,
# reading the frame from model.frame_placements; anything else (lists, batches, an unknown
# frame or reference, a mimic joint, a failure) comes to the functions above, the
# general paths.
def _public(general, entry: str, out_rank: int, options: tuple, choices: tuple = ()):
    plain, extended, cols, squares = _entrypoints.entry_pair("eslabon.kinematics.entries", entry)
    frames = ("frame_placements", "ee", options, choices)
    return _entrypoints.public(
        general, plain, 1, (out_rank,), Model, extended, cols, squares,
        packed="packed", frames=frames,
    )  # fmt: skip


jacobian = _public(jacobian, "jacobian_entry", 5, ("frame", "reference"), REFERENCES)
frame_pose = _public(frame_pose, "frame_pose_entry", 6, ("frame",))
end_effector_pose = _public(end_effector_pose, "frame_pose_entry", 6, ())
