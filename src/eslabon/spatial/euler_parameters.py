"""Euler parameters (q0, q) and Rodrigues parameters p of a rotation, Rojas Salgado
(1987) §2.4, (2.4.4)–(2.4.8) and (2.4.13).

Conventions as in :mod:`.invariants`: active, right-handed; ``(q0, q) = (cos φ/2,
e sin φ/2)`` with q0 ≥ 0, scalar FIRST; ``p = q/q0 = e tan(φ/2)``.  Two misprints of
§2.4 are corrected here (each checked by rebuilding random rotations): (2.4.8a)
multiplies by r = 1 + p·p, where it must divide; (2.4.13) prints λ = 2 λ0 q, which is
λ = 2 q0 q.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .invariants import (
    _I3,
    SINGULAR_TOL,
    LinearInvariants,
    _array,
    _axis_of,
    _invariants,
    _outer,
    _scal,
    as_rotation,
)
from .rotations import skew

__all__ = [
    "EulerParameters",
    "RodriguesParameters",
    "euler_parameters",
    "euler_parameters_from_invariants",
    "invariants_from_euler_parameters",
    "rodrigues_parameters",
    "rotation_from_euler_parameters",
    "rotation_from_rodrigues",
]


class EulerParameters(NamedTuple):
    """Euler parameters (q0, q) of a rotation, Rojas (1987) (2.4.4), scalar part FIRST.

    Returned by :func:`euler_parameters` and :func:`euler_parameters_from_invariants`.
    q0 = cos(φ/2) ≥ 0 and q = e sin(φ/2), with q0² + ‖q‖² = 1. As a 4-vector this is
    (q0, q1, q2, q3); the unit quaternion of a spherical or free-flyer joint in
    ``eslabon.model`` is scalar LAST, (x, y, z, w) = (q1, q2, q3, q0) (docs/conventions.md):
    ``np.append(q, q0)``.

    Attributes
    ----------
    q0 : numpy float or ndarray (...)
        Scalar part cos(φ/2) ∈ [0, 1] (dimensionless); a numpy scalar for a single rotation.
    q : ndarray (3,) or (..., 3)
        Vector part e sin(φ/2) (dimensionless), e the unit axis in the coordinates R is
        written in.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import euler_parameters, rot_z
    >>> q0, q = euler_parameters(rot_z(np.pi / 2))
    >>> round(float(q0), 6), np.round(q, 6).tolist()
    (0.707107, [0.0, 0.0, 0.707107])
    """

    q0: np.ndarray  #: cos(φ/2) ≥ 0, shape (...)
    q: np.ndarray  #: e sin(φ/2), shape (..., 3)


class RodriguesParameters(NamedTuple):
    """Rodrigues parameters p = e tan(φ/2) of a rotation, Rojas (1987) (2.4.7).

    Returned by :func:`rodrigues_parameters`, a named tuple ``(p, singular)``. They are not
    defined at φ = π, where the ``singular`` flag is set.

    Attributes
    ----------
    p : ndarray (3,) or (..., 3)
        p = q/q0 = e tan(φ/2) (dimensionless); NaN where ``singular``.
    singular : numpy bool or ndarray of bool (...)
        True where φ ≈ π (q0 = cos(φ/2) ≤ the ``tol`` of :func:`rodrigues_parameters`).

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import rodrigues_parameters, rot_x
    >>> p, singular = rodrigues_parameters(rot_x(0.5))
    >>> np.round(p, 6).tolist(), bool(singular)
    ([0.255342, 0.0, 0.0], False)
    """

    p: np.ndarray  #: q/q0, shape (..., 3); NaN where singular
    singular: np.ndarray  #: bool (...): φ = π (q0 ≤ tol), p undefined


# ------------------------------------------------------------------------ Euler parameters
def _quaternion(R: np.ndarray) -> np.ndarray:
    """(q0, q1, q2, q3), q0 ≥ 0, of a validated R (..., 3, 3): Shepperd's method, (2.4.6)."""
    t = np.trace(R, axis1=-2, axis2=-1)
    M = np.empty(R.shape[:-2] + (4, 4))
    M[..., 0, 0] = 1.0 + t
    for a in range(3):
        M[..., a + 1, a + 1] = 1.0 + 2.0 * R[..., a, a] - t  # 4 q_a² (2.4.6b)
        b, c = (a + 1) % 3, (a + 2) % 3
        M[..., 0, a + 1] = M[..., a + 1, 0] = R[..., c, b] - R[..., b, c]  # 4 q0 q_a
        M[..., b + 1, c + 1] = M[..., c + 1, b + 1] = R[..., b, c] + R[..., c, b]
    diag = np.diagonal(M, axis1=-2, axis2=-1)
    i = np.argmax(diag, axis=-1)
    row = np.take_along_axis(M, i[..., None, None], axis=-2)[..., 0, :]
    quat = row / (2.0 * np.sqrt(np.take_along_axis(diag, i[..., None], axis=-1)))
    return np.where(quat[..., :1] < 0.0, -quat, quat)


def euler_parameters(R) -> EulerParameters:
    """Euler parameters (2.4.4) q0 = cos(φ/2) ≥ 0 (...), q = e sin(φ/2) (..., 3) of R,
    by Shepperd's branch on the largest of q0², q_i² (2.4.6a–b).

    Rojas (1987) §2.4. The sign is fixed by q0 ≥ 0 (at φ = π, q0 = 0, the sign of q is
    that of the branch taken). Order: scalar part first; the model's joint quaternions are
    (x, y, z, w) = (q, q0), scalar last (see :class:`EulerParameters`).

    Parameters
    ----------
    R : array_like (3, 3) or (..., 3, 3)
        Proper rotation matrix or stack (dimensionless), checked by :func:`as_rotation`.

    Returns
    -------
    EulerParameters
        ``(q0, q)``: q0 a numpy scalar or (...), q (3,) or (..., 3), dimensionless, with
        q0² + ‖q‖² = 1.

    Raises
    ------
    ValueError
        ``R`` of the wrong shape, not finite or not a proper rotation (:func:`as_rotation`).

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import euler_parameters, rot_x
    >>> q0, q = euler_parameters(rot_x(1.0))
    >>> round(float(q0), 6), np.round(q, 6).tolist()
    (0.877583, [0.479426, 0.0, 0.0])
    """
    quat = _quaternion(as_rotation(R))
    return EulerParameters(_scal(quat[..., 0]), quat[..., 1:])


def _parameters(q0, q, tol: float):
    q = _array(q, "q", (3,))
    q0 = _array(q0, "q0", ())
    q, q0 = np.broadcast_arrays(q, q0[..., None])
    n = np.sqrt(q0[..., 0] ** 2 + np.sum(q**2, axis=-1))
    err = float(np.abs(n - 1.0).max(initial=0.0))
    if err > tol:
        raise ValueError(
            "q0, q: expected unit Euler parameters (q0² + ‖q‖² = 1); "
            f"max |√(q0² + ‖q‖²) − 1| = {err:.3g}"
        )
    return q0[..., 0] / n, q / n[..., None]


def rotation_from_euler_parameters(q0, q, *, tol: float = 1e-9) -> np.ndarray:
    """R = (2q0² − 1)·1 + 2(qqᵀ + q0[q]×), the corrected (2.4.5); q0 (...), q (..., 3)
    with q0² + ‖q‖² = 1 to ``tol`` (normalized); returns (..., 3, 3).

    Rojas (1987) §2.4. (q0, q) and (−q0, −q) give the same R; q0 < 0 is accepted.

    Parameters
    ----------
    q0 : float or array_like (...)
        Scalar part cos(φ/2) (dimensionless).
    q : array_like (3,) or (..., 3)
        Vector part e sin(φ/2) (dimensionless); broadcasts with ``q0``.
    tol : float
        Accepted ``|√(q0² + ‖q‖²) − 1|``.

    Returns
    -------
    ndarray (3, 3) or (..., 3, 3)
        The rotation matrix (dimensionless).

    Raises
    ------
    ValueError
        ``q0`` or ``q`` not numeric, of the wrong shape or not finite, leading shapes that
        do not broadcast, or not of unit norm to ``tol``.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import rot_z, rotation_from_euler_parameters
    >>> R = rotation_from_euler_parameters(np.cos(0.25), [0.0, 0.0, np.sin(0.25)])
    >>> bool(np.allclose(R, rot_z(0.5)))
    True
    """
    q0, q = _parameters(q0, q, tol)
    return (2.0 * q0**2 - 1.0)[..., None, None] * _I3 + 2.0 * (
        _outer(q, q) + q0[..., None, None] * skew(q)
    )


def invariants_from_euler_parameters(q0, q, *, tol: float = 1e-9) -> LinearInvariants:
    """λ = 2 q0 q, λ0 = 2q0² − 1 (corrected (2.4.13)); q0 (...), q (..., 3).

    Rojas (1987) §2.4 prints λ = 2 λ0 q; it is λ = 2 q0 q. The parameters must have unit norm
    to ``tol`` and are normalized first.

    Parameters
    ----------
    q0 : float or array_like (...)
        Scalar part cos(φ/2) (dimensionless).
    q : array_like (3,) or (..., 3)
        Vector part e sin(φ/2) (dimensionless); broadcasts with ``q0``.
    tol : float
        Accepted ``|√(q0² + ‖q‖²) − 1|``.

    Returns
    -------
    LinearInvariants
        ``(lam, lam0)``: λ (3,) or (..., 3) and λ0, a numpy scalar or (...), dimensionless.

    Raises
    ------
    ValueError
        ``q0`` or ``q`` not numeric, of the wrong shape or not finite, leading shapes that
        do not broadcast, or not of unit norm to ``tol``.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import invariants_from_euler_parameters
    >>> lam, lam0 = invariants_from_euler_parameters(np.cos(0.25), [0.0, 0.0, np.sin(0.25)])
    >>> np.round(lam, 6).tolist(), round(float(lam0), 6)
    ([0.0, 0.0, 0.479426], 0.877583)
    """
    q0, q = _parameters(q0, q, tol)
    return LinearInvariants(2.0 * q0[..., None] * q, _scal(2.0 * q0**2 - 1.0))


def euler_parameters_from_invariants(lam, lam0, axis=None, *, tol: float = 1e-9) -> EulerParameters:
    """(2.4.14) with q0 ≥ 0: q0 = √((1 + λ0)/2), q = λ/(2q0) for λ0 > 0; for λ0 ≤ 0 the
    well-conditioned q = e√((1 − λ0)/2), q0 = ‖λ‖/(2√((1 − λ0)/2)).  ``axis`` as in
    rotation_from_invariants (required at φ = π).  lam (..., 3), lam0 (...).

    Rojas (1987) §2.4. For λ0 ≤ 0, e = λ/‖λ‖ or the given ``axis``. The invariants are
    checked and projected as in :func:`rotation_from_invariants`.

    Parameters
    ----------
    lam : array_like (3,) or (..., 3)
        λ = e sin φ (dimensionless).
    lam0 : float or array_like (...)
        λ0 = cos φ (dimensionless); broadcasts with the leading axes of ``lam``.
    axis : array_like (3,) or (..., 3), optional
        Unit rotation axis e (norm 1 to 1e-9), parallel to λ; required where φ = π.
    tol : float
        Accepted ``|λ0² + ‖λ‖² − 1|`` and distance of λ from ``axis``.

    Returns
    -------
    EulerParameters
        ``(q0, q)``: q0 ≥ 0, a numpy scalar or (...), and q (3,) or (..., 3),
        dimensionless.

    Raises
    ------
    ValueError
        As :func:`rotation_from_invariants`: bad shape or values, λ0² + ‖λ‖² off 1 by more
        than ``tol``, φ = π without ``axis``, an ``axis`` not unit or not parallel to λ.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import euler_parameters_from_invariants
    >>> q0, q = euler_parameters_from_invariants([0.0, 0.0, 0.0], -1.0, axis=[1.0, 0.0, 0.0])
    >>> round(float(q0), 6), np.round(q, 6).tolist()
    (0.0, [1.0, 0.0, 0.0])
    """
    lam, c, s = _invariants(lam, lam0, tol)
    e = _axis_of(lam, s, c, axis, tol)
    half_sin = np.sqrt((1.0 - c) / 2.0)
    q0 = np.where(c > 0.0, np.sqrt((1.0 + c) / 2.0), s / (2.0 * np.maximum(half_sin, 0.5)))
    q = np.where(
        (c > 0.0)[..., None],
        lam / (2.0 * np.where(c > 0.0, q0, 1.0))[..., None],
        half_sin[..., None] * e,
    )
    return EulerParameters(_scal(q0), q)


# -------------------------------------------------------------------- Rodrigues parameters
def rodrigues_parameters(R, *, tol: float = SINGULAR_TOL) -> RodriguesParameters:
    """Rodrigues parameters p = q/q0 = e tan(φ/2) (2.4.7), (..., 3).  Singular at φ = π:
    where q0 = cos(φ/2) ≤ ``tol`` the result has ``singular=True`` and p = NaN.

    Rojas (1987) §2.4; computed from the Euler parameters of :func:`euler_parameters`.

    Parameters
    ----------
    R : array_like (3, 3) or (..., 3, 3)
        Proper rotation matrix or stack (dimensionless), checked by :func:`as_rotation`.
    tol : float
        Threshold on q0 = cos(φ/2) below which (≤) the entry is flagged singular
        (default ``SINGULAR_TOL`` = 1e-12).

    Returns
    -------
    RodriguesParameters
        ``(p, singular)``: p (3,) or (..., 3), dimensionless, NaN where singular; singular a
        numpy bool or (...) bool array.

    Raises
    ------
    ValueError
        ``R`` of the wrong shape, not finite or not a proper rotation (:func:`as_rotation`).

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import rodrigues_parameters, rot_z
    >>> p, singular = rodrigues_parameters(np.stack([rot_z(0.5), rot_z(np.pi)]))
    >>> np.round(p, 6).tolist(), singular.tolist()
    ([[0.0, 0.0, 0.255342], [nan, nan, nan]], [False, True])
    """
    quat = _quaternion(as_rotation(R))
    singular = quat[..., 0] <= tol
    p = quat[..., 1:] / np.where(singular, 1.0, quat[..., 0])[..., None]
    return RodriguesParameters(np.where(singular[..., None], np.nan, p), _scal(singular))


def rotation_from_rodrigues(p) -> np.ndarray:
    """R = [(1 − p·p)·1 + 2ppᵀ + 2[p]×]/(1 + p·p): (2.4.8) divided (not multiplied) by
    r = 1 + p·p; p (..., 3) finite, returns (..., 3, 3).

    Rojas (1987) (2.4.8a) prints a multiplication by r = 1 + p·p where it must divide. Any
    finite p gives a rotation by φ = 2 atan‖p‖ < π about p/‖p‖.

    Parameters
    ----------
    p : array_like (3,) or (..., 3)
        Rodrigues parameters e tan(φ/2) (dimensionless).

    Returns
    -------
    ndarray (3, 3) or (..., 3, 3)
        The rotation matrix (dimensionless).

    Raises
    ------
    ValueError
        ``p`` not numeric, of the wrong shape, or with NaN or inf entries.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import rot_x, rotation_from_rodrigues
    >>> bool(np.allclose(rotation_from_rodrigues([np.tan(0.25), 0.0, 0.0]), rot_x(0.5)))
    True
    """
    p = _array(p, "p", (3,))
    pp = np.sum(p * p, axis=-1)[..., None, None]
    return ((1.0 - pp) * _I3 + 2.0 * _outer(p, p) + 2.0 * skew(p)) / (1.0 + pp)
