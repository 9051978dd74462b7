"""Forward kinematics: body and frame poses, geometric Jacobians, link velocities and
accelerations, for one state (n,) or a batch (N, n).

Poses are 4×4 homogeneous transforms ``W_T_B`` (pose of B in the world). Twists and
Jacobian rows are ordered [angular; linear] (``docs/conventions.md``). ``reference``
is ``"world"`` (world axes) or ``"local"`` (the frame's own axes); the linear part is
always the velocity of the frame's origin.
"""

from __future__ import annotations

import numpy as np

from .._engine.joints import add_jacobian_columns
from .kinematic_pass import kinematic_pass, world_poses

REFERENCES = ("world", "local")


def _homogeneous(R, p):
    T = np.zeros(R.shape[:-2] + (4, 4))
    T[..., :3, :3] = R
    T[..., :3, 3] = p
    T[..., 3, 3] = 1.0
    return T


def forward_kinematics(model, q):
    """World poses of bodies 0..nb: (nb+1, 4, 4) or (N, nb+1, 4, 4)."""
    return _homogeneous(*world_poses(model, q))


def _frame_pose(model, R, p, frame):
    """World rotation and origin of a named frame, and the frame, from the bodies' world
    rotations R and origins p."""
    fr = model.frame(frame)
    Rb, pb = R[..., fr.body, :, :], p[..., fr.body, :]
    return Rb @ fr.rotation, pb + Rb @ fr.translation, fr


def frame_pose(model, q, frame: str = "ee"):
    """World pose of a named frame (``"ee"``, ``"dh3"``, ...): (4, 4) or (N, 4, 4)."""
    R, p, _ = _frame_pose(model, *world_poses(model, q), frame)
    return _homogeneous(R, p)


def end_effector_pose(model, q):
    """World pose of the end effector ``ee``: (4, 4) or (N, 4, 4)."""
    return frame_pose(model, q, "ee")


def frame_poses(model, q) -> dict:
    """Every named frame of the model (DH frames ``dh0..dhN``, ``ee``) -> pose."""
    R, p = world_poses(model, q)
    return {fr.name: _homogeneous(*_frame_pose(model, R, p, fr.name)[:2]) for fr in model.frames}


def _check_reference(reference):
    if reference not in REFERENCES:
        raise ValueError(f"reference: expected one of {REFERENCES}, got {reference!r}")


def jacobian(model, q, frame: str = "ee", reference: str = "world"):
    """Geometric Jacobian of a frame, [angular; linear] rows: (6, nv) or (N, 6, nv).

    Column j, for the rate v_j of a joint: [z_j; z_j × (p_f − p_j)] (revolute), [0; z_j]
    (prismatic), [z_j; z_j × (p_f − p_j) + h z_j] (helical of pitch h), z_j the axis in world
    axes and p_j a point on it; a joint of several rates has one such column per rate
    (:func:`eslabon._engine.layout.joint_rows`: a spherical joint's columns are about its
    body's axes, a free flyer's along and about them). Zero where the rate does not move
    the frame. ``reference="local"`` expresses both blocks in the frame's own axes.
    """
    _check_reference(reference)
    R, p = world_poses(model, q, rows=True)
    rows = model.body_row
    fr = model.frame(frame)
    b = int(rows[fr.body])
    Rb, pb = R[..., b, :, :], p[..., b, :]
    Rf, pf = Rb @ fr.rotation, pb + Rb @ fr.translation
    J = np.zeros(p.shape[:-2] + (6, model.engine_nv))
    add_jacobian_columns(model.packed, R, p, b, pf, J)
    if model.mimic is not None:  # a mimic joint's column adds to the one it copies
        J = J @ model.mimic.G
    if reference == "local":
        RfT = np.swapaxes(Rf, -1, -2)
        J[..., :3, :] = RfT @ J[..., :3, :]
        J[..., 3:, :] = RfT @ J[..., 3:, :]
    return J


def _to_reference(motion, local, reference):
    if reference == "local":
        return local
    R = motion.world_rotation
    out = np.empty_like(local)
    out[..., :3] = (R @ local[..., :3, None])[..., 0]
    out[..., 3:] = (R @ local[..., 3:, None])[..., 0]
    return out


def link_velocities(model, q, qd, reference: str = "local"):
    """[ω; v] of every body origin, bodies 0..nb: (nb+1, 6) or (N, nb+1, 6)."""
    _check_reference(reference)
    motion = kinematic_pass(model, q, qd)
    local = np.concatenate([motion.angular_velocity, motion.linear_velocity], axis=-1)
    return _to_reference(motion, local, reference)


def link_accelerations(model, q, qd, qdd, reference: str = "local"):
    """[ω̇; a] of every body origin (classical acceleration, no gravity), bodies 0..nb."""
    _check_reference(reference)
    motion = kinematic_pass(model, q, qd, qdd)
    local = np.concatenate([motion.angular_acceleration, motion.linear_acceleration], axis=-1)
    return _to_reference(motion, local, reference)
