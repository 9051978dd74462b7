"""Body frames turned so that every joint axis is +z: the last step of the packed model
the kernels of per-degree-of-freedom results read (``Model.packed_dynamics``).

τ, M, q̈ and their derivatives do not depend on where each body's frame points. A joint
about +z places its body with six multiplications (``joints.placement``'s shortcut, the
rotation's third column is the axis); about any other axis with a full 3 × 3 product.
URDF arms and legged robots turn about x and y as often as about z (22 of the G1
humanoid's 29 joints, all 12 of Solo 12's), so each row whose axis is not +z gets its frame
turned by a rotation Q with Q e_z = axis, every quantity of the row and of its children
re-expressed in it. Figures: docs/performance.md, "Joint axes turned onto z".
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .._engine.layout import (
    AXIS,
    COM,
    H_NB,
    INERTIA,
    PARENT,
    POS,
    ROT,
    Z_AXIS,
    body_offset,
    on_own_axis,
)


def axis_frame(axis: NDArray[np.float64]) -> NDArray[np.float64]:
    """A rotation Q (3 × 3) whose third column is the unit ``axis``: a permutation of the
    coordinate axes (exact) when ``axis`` is ±x, ±y or ±z, else completed by cross
    products."""
    a = np.asarray(axis, dtype=float)
    for k in range(3):
        if abs(a[k]) == 1.0 and not np.any(np.delete(a, k)):
            e = np.eye(3)
            u, w = e[(k + 1) % 3], e[(k + 2) % 3]
            return np.column_stack([u, w, a] if a[k] > 0 else [w, u, a])
    helper = np.eye(3)[int(np.argmin(np.abs(a)))]
    x = np.cross(helper, a)
    x /= np.linalg.norm(x)
    return np.column_stack([x, np.cross(a, x), a])


def axes_on_z(P: NDArray[np.float64]) -> NDArray[np.float64]:
    """The packed model ``P`` with the frame of every row placed by its own revolute,
    prismatic or helical joint value turned so that its axis is +z: with Q_i that
    rotation (Q_i = 1 for the other rows) and p the parent row, the joint's rotation at
    q = 0 becomes Q_pᵀ E Q_i, its origin Q_pᵀ r, the centre of mass Q_iᵀ c and the inertia
    Q_iᵀ Ī Q_i. Rows placed by a quaternion and the rows inside a spherical or free-flyer
    joint keep their frames (their rates are about body axes). Returns ``P`` itself when
    every such axis is +z already."""
    nb = int(P[H_NB])
    turns: list[NDArray[np.float64] | None] = [None] * (nb + 1)
    for i in range(1, nb + 1):
        o = body_offset(i)
        if on_own_axis(P, o) and P[o + Z_AXIS] == 0.0:
            turns[i] = axis_frame(P[o + AXIS : o + AXIS + 3])
    if all(t is None for t in turns):
        return P
    F = P.copy()
    for i in range(1, nb + 1):
        o = body_offset(i)
        Qp = turns[int(P[o + PARENT])]
        if Qp is not None:
            F[o + ROT : o + ROT + 9] = (Qp.T @ P[o + ROT : o + ROT + 9].reshape(3, 3)).ravel()
            F[o + POS : o + POS + 3] = Qp.T @ P[o + POS : o + POS + 3]
        Q = turns[i]
        if Q is None:
            continue
        F[o + ROT : o + ROT + 9] = (F[o + ROT : o + ROT + 9].reshape(3, 3) @ Q).ravel()
        F[o + AXIS : o + AXIS + 3] = (0.0, 0.0, 1.0)
        F[o + Z_AXIS] = 1.0
        F[o + COM : o + COM + 3] = Q.T @ P[o + COM : o + COM + 3]
        inertia = P[o + INERTIA : o + INERTIA + 9].reshape(3, 3)
        F[o + INERTIA : o + INERTIA + 9] = (Q.T @ inertia @ Q).ravel()
    return F
