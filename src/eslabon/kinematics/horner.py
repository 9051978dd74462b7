"""Position recursions of seed 000 (Rojas 1987, §2.6) and their analytic derivatives.

The thesis writes a serial chain as rotations Q_k and link vectors a_k (both in frame k)
and finds the end-effector point two ways:

* forward (progressive) recursion (2.6.5): P_k = P_{k−1} Q_k, u_k = u_{k−1} + P_{k−1} a_k,
  the origin of every frame in frame 1 (the world);
* backward Horner recursion (2.6.25): s_n = a_n, s_k = a_k + Q_k s_{k+1}, the vector from
  O_k to the point in frame k, so that s_1 = p.

Here the chain is the path of bodies from the world to a named frame of any
:class:`~eslabon.model.Model` (``Q_k``, ``a_k`` are each body's placement in its parent at
q). Joint k turns about, or slides along, the unit axis e_k (world) through the origin of
body k, and the thesis's derivatives (2.6.29–2.6.36, 3.3.3.6) read

    ∂s/∂θ_k        = e_k × d_k   (R)      e_k   (P)            d_k = p − O_k = P_k s_k
    ∂²s/∂θ_i∂θ_j   = e_i × ∂s/∂θ_j  for i ≤ j on the chain with joint i revolute, else 0,

symmetric in (i, j). Everything accepts one configuration (n,) or a stack (..., n) and
returns arrays with the same leading axes. Plain numpy: these feed the inverse
kinematics (:mod:`eslabon.kinematics.ik`), where a 6-DOF pose costs microseconds.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._args import vector
from .._engine.joint_types import jacobian_column, rotates


def chain(model, frame: str = "ee") -> tuple:
    """Bodies from the world's child to the body carrying ``frame`` (root first)."""
    model.require_one_dof_joints("the Horner-form kinematics (seed 000)")
    b = model.frame(frame).body
    out = []
    while b > 0:
        out.append(b)
        b = int(model.parent[b])
    return tuple(reversed(out))


def _axis_rotations(axis, angle):
    """Rodrigues' formula for a fixed unit axis (3,) and angles (...,): (..., 3, 3)."""
    k = np.asarray(axis, dtype=float)
    K = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    s = np.sin(angle)[..., None, None]
    c = np.cos(angle)[..., None, None]
    return np.eye(3) + s * K + (1.0 - c) * (K @ K)


def placements(model, q):
    """(Q, a): rotation parent <- body (..., nb+1, 3, 3) and body origin in the parent
    (..., nb+1, 3) at q, the thesis's Q_k and a_k for every body (row 0 is the world)."""
    model.require_one_dof_joints("the Horner-form kinematics (seed 000)")
    q = np.asarray(q, dtype=float)
    lead = q.shape[:-1]
    Q = np.broadcast_to(model.tree_rotation, lead + model.tree_rotation.shape).copy()
    a = np.broadcast_to(model.tree_translation, lead + model.tree_translation.shape).copy()
    for b in range(1, model.nb + 1):
        k = model.q_index[b]
        if k < 0:
            continue
        if rotates(model.joint_type[b]):
            Q[..., b, :, :] = model.tree_rotation[b] @ _axis_rotations(model.axis[b], q[..., k])
        else:
            a[..., b, :] += (model.tree_rotation[b] @ model.axis[b]) * q[..., k, None]
    return Q, a


def _configuration(model, q):
    arr, _ = vector(q, model.nq, "q")
    if not np.isfinite(arr).all():
        raise ValueError("q: expected finite joint values")
    return arr


class ChainPoses(NamedTuple):
    """Forward recursion along the chain to a frame (m bodies).

    bodies (m,); rotations P_k (..., m, 3, 3) and origins u_k (..., m, 3) of the chain's
    bodies in the world; the frame's rotation (..., 3, 3) and point (..., 3)."""

    bodies: tuple
    rotations: np.ndarray
    origins: np.ndarray
    frame_rotation: np.ndarray
    frame_position: np.ndarray


def forward_recursion(model, q, frame: str = "ee") -> ChainPoses:
    """(2.6.4)–(2.6.5): P_k = P_{k−1} Q_k and u_k = u_{k−1} + P_{k−1} a_k, root to tip."""
    q = _configuration(model, q)
    Q, a = placements(model, q)
    bodies = chain(model, frame)
    lead = q.shape[:-1]
    P = np.empty(lead + (len(bodies), 3, 3))
    u = np.empty(lead + (len(bodies), 3))
    Pk, uk = np.broadcast_to(np.eye(3), lead + (3, 3)), np.zeros(lead + (3,))
    for m, b in enumerate(bodies):
        uk = uk + (Pk @ a[..., b, :, None])[..., 0]
        Pk = Pk @ Q[..., b, :, :]
        P[..., m, :, :], u[..., m, :] = Pk, uk
    fr = model.frame(frame)
    return ChainPoses(bodies, P, u, Pk @ fr.rotation, uk + Pk @ fr.translation)


def backward_recursion(model, q, frame: str = "ee"):
    """(2.6.25): s_k = a_k + Q_k s_{k+1}, tip to root, starting from the frame's offset in
    its body. Returns s_k of the chain's bodies, each in its own body's axes, (..., m, 3),
    and s = a_1 + Q_1 s_1, the frame's point in the world, (..., 3)."""
    q = _configuration(model, q)
    Q, a = placements(model, q)
    bodies = chain(model, frame)
    lead = q.shape[:-1]
    s = np.empty(lead + (len(bodies), 3))
    sk = np.broadcast_to(model.frame(frame).translation, lead + (3,))
    for m in range(len(bodies) - 1, -1, -1):
        s[..., m, :] = sk
        b = bodies[m]
        sk = a[..., b, :] + (Q[..., b, :, :] @ sk[..., None])[..., 0]
    return s, sk


class PointDerivatives(NamedTuple):
    """A frame point and its derivatives in world axes.

    position (..., 3) and rotation (..., 3, 3) of the frame; axes e_k of the joints
    (..., n, 3) (zero for joints off the chain); jacobian ∂s/∂θ (..., 3, n); hessian
    ∂²s/∂θ² (..., 3, n, n) when asked; revolute (n,) bool, joints on the chain that turn."""

    position: np.ndarray
    rotation: np.ndarray
    axes: np.ndarray
    jacobian: np.ndarray
    hessian: np.ndarray | None
    revolute: np.ndarray


def point_derivatives(model, q, frame: str = "ee", hessian: bool = False) -> PointDerivatives:
    """∂s/∂θ (2.6.29, 3.3.1.18) and, with ``hessian``, ∂²s/∂θ² (2.6.33–36, 3.3.3.6)."""
    q = _configuration(model, q)
    poses = forward_recursion(model, q, frame)
    s_local, p = backward_recursion(model, q, frame)
    lead = q.shape[:-1]
    n = model.nq
    e = np.zeros(lead + (n, 3))
    J = np.zeros(lead + (3, n))
    revolute = np.zeros(n, dtype=bool)
    for m, b in enumerate(poses.bodies):
        k = model.q_index[b]
        if k < 0:
            continue
        Pk = poses.rotations[..., m, :, :]
        e[..., k, :] = Pk @ model.axis[b]
        revolute[k] = rotates(model.joint_type[b])
        d = (Pk @ s_local[..., m, :, None])[..., 0]  # [s_k]_1 = p − O_k
        J[..., :, k] = jacobian_column(model.joint_type[b], e[..., k, :], d)[..., 3:]
    H = None
    if hessian:
        H = np.zeros(lead + (3, n, n))
        for i in np.flatnonzero(revolute):
            # e_i × ∂s/∂θ_j for every j at or beyond i (on a chain q indices grow outward)
            block = np.cross(e[..., i, None, :], np.swapaxes(J[..., :, i:], -1, -2))
            H[..., :, i, i:] = np.swapaxes(block, -1, -2)
            H[..., :, i:, i] = H[..., :, i, i:]
    return PointDerivatives(p, poses.frame_rotation, e, J, H, revolute)
