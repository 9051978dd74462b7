"""Forward kinematics: body and frame poses, geometric Jacobians, link velocities and
accelerations, for one state (n,) or a batch (N, n).

Poses are 4×4 homogeneous transforms ``W_T_B`` (pose of B in the world). Twists and
Jacobian rows are ordered [angular; linear] (``docs/conventions.md``). ``reference``
is ``"world"`` (world axes) or ``"local"`` (the frame's own axes); the linear part is
always the velocity of the frame's origin.
"""
from __future__ import annotations

import numpy as np

from .._engine.batch import chunk_count
from .._args import explain_nonfinite, require_finite, vector, vectors
from .._engine.joints import jacobian_column
from .kernels import kinematics_many, kinematics_one, workspace
from .recursion import WS_A, WS_PW, WS_RW, WS_V, WS_W, WS_WD

REFERENCES = ("world", "local")


def _pass(model, q, qd=None, qdd=None):
    if qd is None:
        q, batched = vector(q, model.nq, "q")
        qd = qdd = np.zeros_like(q)
    else:
        (q, qd, qdd), batched = vectors(model.nq, q=q, qd=qd, qdd=qd if qdd is None else qdd)
    # a non-finite last joint value leaves every body origin finite (only the last
    # rotation turns NaN), so the inputs are checked, not only the positions
    require_finite("kinematics", q=q, qd=qd, qdd=qdd)
    P = model.packed
    if batched:
        ws = workspace(P, len(q))
        kinematics_many(P, q, qd, qdd, ws, chunk_count(len(q)))
    else:
        ws = workspace(P)
        kinematics_one(P, q, qd, qdd, ws)
    if not np.isfinite(ws[..., WS_RW:WS_RW + 9]).all() or not np.isfinite(ws[..., WS_PW]).all():
        explain_nonfinite("kinematics", q=q, qd=qd, qdd=qdd)
    return ws


def _poses(ws):
    R = ws[..., WS_RW:WS_RW + 9].reshape(ws.shape[:-1] + (3, 3))
    p = ws[..., WS_PW:WS_PW + 3]
    return R, p


def _homogeneous(R, p):
    T = np.zeros(R.shape[:-2] + (4, 4))
    T[..., :3, :3] = R
    T[..., :3, 3] = p
    T[..., 3, 3] = 1.0
    return T


def forward_kinematics(model, q):
    """World poses of bodies 0..nb: (nb+1, 4, 4) or (N, nb+1, 4, 4)."""
    return _homogeneous(*_poses(_pass(model, q)))


def _frame_from_ws(model, ws, frame):
    fr = model.frame(frame)
    R, p = _poses(ws)
    Rb, pb = R[..., fr.body, :, :], p[..., fr.body, :]
    return Rb @ fr.rotation, pb + Rb @ fr.translation, fr


def frame_pose(model, q, frame: str = "ee"):
    """World pose of a named frame (``"ee"``, ``"dh3"``, ...): (4, 4) or (N, 4, 4)."""
    R, p, _ = _frame_from_ws(model, _pass(model, q), frame)
    return _homogeneous(R, p)


def end_effector_pose(model, q):
    """World pose of the end effector ``ee``: (4, 4) or (N, 4, 4)."""
    return frame_pose(model, q, "ee")


def frame_poses(model, q) -> dict:
    """Every named frame of the model (DH frames ``dh0..dhN``, ``ee``) -> pose."""
    ws = _pass(model, q)
    return {fr.name: _homogeneous(*_frame_from_ws(model, ws, fr.name)[:2])
            for fr in model.frames}


def _check_reference(reference):
    if reference not in REFERENCES:
        raise ValueError(f"reference: expected one of {REFERENCES}, got {reference!r}")


def jacobian(model, q, frame: str = "ee", reference: str = "world"):
    """Geometric Jacobian of a frame, [angular; linear] rows: (6, n) or (N, 6, n).

    Column j: [z_j; z_j × (p_f − p_j)] for a revolute joint, [0; z_j] for a prismatic
    one, z_j the joint axis in world axes; zero if joint j does not move the frame.
    ``reference="local"`` expresses both blocks in the frame's own axes.
    """
    _check_reference(reference)
    ws = _pass(model, q)
    R, p = _poses(ws)
    Rf, pf, fr = _frame_from_ws(model, ws, frame)
    J = np.zeros(ws.shape[:-2] + (6, model.nq))
    b = fr.body
    while b > 0:
        k = model.q_index[b]
        if k >= 0:
            z = R[..., b, :, :] @ model.axis[b]
            J[..., :, k] = jacobian_column(model.joint_type[b], z, pf - p[..., b, :])
        b = model.parent[b]
    if reference == "local":
        RfT = np.swapaxes(Rf, -1, -2)
        J[..., :3, :] = RfT @ J[..., :3, :]
        J[..., 3:, :] = RfT @ J[..., 3:, :]
    return J


def _to_reference(ws, local, reference):
    if reference == "local":
        return local
    R, _ = _poses(ws)
    out = np.empty_like(local)
    out[..., :3] = (R @ local[..., :3, None])[..., 0]
    out[..., 3:] = (R @ local[..., 3:, None])[..., 0]
    return out


def link_velocities(model, q, qd, reference: str = "local"):
    """[ω; v] of every body origin, bodies 0..nb: (nb+1, 6) or (N, nb+1, 6)."""
    _check_reference(reference)
    ws = _pass(model, q, qd)
    local = np.concatenate([ws[..., WS_W:WS_W + 3], ws[..., WS_V:WS_V + 3]], axis=-1)
    return _to_reference(ws, local, reference)


def link_accelerations(model, q, qd, qdd, reference: str = "local"):
    """[ω̇; a] of every body origin (classical acceleration, no gravity), bodies 0..nb."""
    _check_reference(reference)
    ws = _pass(model, q, qd, qdd)
    local = np.concatenate([ws[..., WS_WD:WS_WD + 3], ws[..., WS_A:WS_A + 3]], axis=-1)
    return _to_reference(ws, local, reference)
