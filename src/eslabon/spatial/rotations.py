"""Elementary rotations and homogeneous transforms (numpy).

``rot_x(a) @ v`` rotates the vector ``v`` by the angle ``a`` about x (active, right-handed);
the columns of a rotation ``A_R_B`` are the axes of frame B written in frame A.
"""

from __future__ import annotations

import numpy as np


def rot_x(angle: float) -> np.ndarray:
    """Rotation about x by ``angle`` rad, shape (3, 3)."""
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def rot_y(angle: float) -> np.ndarray:
    """Rotation about y by ``angle`` rad, shape (3, 3)."""
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def rot_z(angle: float) -> np.ndarray:
    """Rotation about z by ``angle`` rad, shape (3, 3)."""
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def skew(v) -> np.ndarray:
    """Cross-product matrix [v]×, ``skew(a) @ b == np.cross(a, b)``; (3,) -> (3, 3), or
    (..., 3) -> (..., 3, 3) for a stack of vectors."""
    v = np.asarray(v, dtype=float)
    if v.shape == (3,):
        x, y, z = v
        return np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])
    out = np.zeros(v.shape[:-1] + (3, 3))
    out[..., 0, 1], out[..., 0, 2] = -v[..., 2], v[..., 1]
    out[..., 1, 0], out[..., 1, 2] = v[..., 2], -v[..., 0]
    out[..., 2, 0], out[..., 2, 1] = -v[..., 1], v[..., 0]
    return out


def rot_axis(axis, angle: float) -> np.ndarray:
    """Rodrigues' formula: rotation by ``angle`` about the unit vector ``axis``."""
    k = np.asarray(axis, dtype=float)
    K = skew(k)
    return np.eye(3) + np.sin(angle) * K + (1.0 - np.cos(angle)) * (K @ K)


def is_rotation(R, tol: float = 1e-9) -> bool:
    """True when ``R`` is a (3, 3) proper orthonormal matrix to ``tol``."""
    R = np.asarray(R, dtype=float)
    return (
        R.shape == (3, 3)
        and np.allclose(R.T @ R, np.eye(3), atol=tol)
        and abs(np.linalg.det(R) - 1.0) < tol
    )


def homogeneous(R, p) -> np.ndarray:
    """4×4 homogeneous transform from rotation ``R`` and translation ``p``."""
    T = np.eye(4)
    T[:3, :3] = R
    T[:3, 3] = p
    return T
