"""Rotation representations of Rojas Salgado (1987) §2.4: linear invariants and conversions.

Every function takes one rotation (3, 3) or a stack (..., 3, 3) and broadcasts over the
leading axes; a single input gives scalars / (3,) vectors back.  Conventions: active,
right-handed; ``R = λ0·1 + λλᵀ/(1+λ0) + [λ]×`` with ``λ = vect(R) = e sin φ`` and
``λ0 = cos φ``; Euler parameters ``(q0, q) = (cos φ/2, e sin φ/2)`` with q0 ≥ 0.  Four
misprints of the thesis's §2.4 are corrected here (each checked by rebuilding random
rotations): (2.4.12) prints the coefficient (1−λ0)/λ0, which is 1/(1+λ0); (2.4.8a)
multiplies by r = 1 + p·p, where it must divide; (2.4.2) prints c3 = −r32/s2, which is
+r32/s2; (2.4.13) prints λ = 2 λ0 q, which is λ = 2 q0 q.  Angles are extracted via
Euler parameters and atan2 (no division by s2), so they rebuild R to rounding everywhere;
singular poses are reported.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .rotations import skew

__all__ = [
    "Angles",
    "AxisAngle",
    "EulerParameters",
    "LinearInvariants",
    "RodriguesParameters",
    "angular_velocity",
    "axis_angle",
    "euler_parameters",
    "euler_parameters_from_invariants",
    "invariant_rates",
    "invariants_from_euler_parameters",
    "linear_invariants",
    "rodrigues_parameters",
    "rotation_from_axis_angle",
    "rotation_from_euler_parameters",
    "rotation_from_invariants",
    "rotation_from_rodrigues",
    "rotation_from_xyz",
    "rotation_from_zxz",
    "vect",
    "xyz_angles",
    "zxz_angles",
]

ROTATION_TOL = 1e-9  #: max |RᵀR − 1| and |det R − 1| accepted for a rotation argument
PI_AXIS_TOL = 1e-12  #: ‖λ‖ below this with λ0 < 0 counts as φ = π (axis undetermined)
SINGULAR_TOL = 1e-12  #: |sin θ2| (ZXZ), |cos θ2| (XYZ) or q0 (Rodrigues) flagged singular

_EPS = np.zeros((3, 3, 3))
for _i, _j, _k in ((0, 1, 2), (1, 2, 0), (2, 0, 1)):
    _EPS[_i, _j, _k], _EPS[_i, _k, _j] = 1.0, -1.0
_I3 = np.eye(3)
# Ry(−π/2), exact: R·Ry(−π/2) turns Bryant XYZ into proper Euler XYX (see xyz_angles).
_RY_MINUS_HALF_PI = np.array([[0.0, 0.0, -1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])


class LinearInvariants(NamedTuple):
    """The linear invariants (λ, λ0) of a rotation, Rojas (1987) §2.4, (2.4.9a–b).

    Returned by :func:`linear_invariants` and :func:`invariants_from_euler_parameters`. A named
    tuple: ``lam, lam0 = linear_invariants(R)`` unpacks it. The two satisfy
    λ0² + ‖λ‖² = 1 (2.4.11), and R = λ0·1 + λλᵀ/(1 + λ0) + [λ]× rebuilds R
    (:func:`rotation_from_invariants`).

    Attributes
    ----------
    lam : ndarray (3,) or (..., 3)
        λ = vect(R) = e sin φ (dimensionless), with e the unit axis and φ ∈ [0, π] the angle,
        in the coordinates R is written in.
    lam0 : numpy float or ndarray (...)
        λ0 = (tr R − 1)/2 = cos φ (dimensionless); a numpy scalar for a single rotation.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import linear_invariants, rot_z
    >>> lam, lam0 = linear_invariants(rot_z(0.5))
    >>> np.round(lam, 6).tolist(), round(float(lam0), 6)
    ([0.0, 0.0, 0.479426], 0.877583)
    """

    lam: np.ndarray  #: λ = vect(R) = e sin φ, shape (..., 3)
    lam0: np.ndarray  #: λ0 = (tr R − 1)/2 = cos φ, shape (...)


class AxisAngle(NamedTuple):
    """Axis and angle of a rotation, returned by :func:`axis_angle`.

    A named tuple ``(e, phi)``: R = cos φ·1 + (1 − cos φ)eeᵀ + sin φ[e]×
    (:func:`rotation_from_axis_angle`), active and right-handed.

    Attributes
    ----------
    e : ndarray (3,) or (..., 3)
        Unit rotation axis (dimensionless), in the coordinates R is written in.
    phi : numpy float or ndarray (...)
        Rotation angle φ ∈ [0, π], rad, right-handed about ``e``; a numpy scalar for a single
        rotation.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import axis_angle, rot_y
    >>> e, phi = axis_angle(rot_y(-0.7))
    >>> np.round(e, 6).tolist(), round(float(phi), 6)
    ([0.0, -1.0, 0.0], 0.7)
    """

    e: np.ndarray  #: unit axis, shape (..., 3)
    phi: np.ndarray  #: angle in [0, π], shape (...)


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


class Angles(NamedTuple):
    """Three angles of a rotation and a singularity flag, returned by :func:`zxz_angles` and
    :func:`xyz_angles`.

    A named tuple ``(angles, singular)``. The sequence is that of the function that returned
    it: R = Rz(θ1) Rx(θ2) Rz(θ3) (ZXZ Euler angles, Rojas (1987) (2.4.1)) or
    R = Rx(θ1) Ry(θ2) Rz(θ3) (XYZ Bryant angles, (2.4.3)), each an active rotation about the
    current (moving) axes.

    Attributes
    ----------
    angles : ndarray (3,) or (..., 3)
        (θ1, θ2, θ3), rad; θ1, θ3 ∈ [−π, π), θ2 ∈ [0, π] (ZXZ) or [−π/2, π/2] (XYZ).
    singular : numpy bool or ndarray of bool (...)
        True where θ1 and θ3 cannot be separated (sin θ2 ≈ 0 for ZXZ, cos θ2 ≈ 0 for XYZ):
        there θ3 is set to 0 and θ1 carries the combination that R fixes.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import rotation_from_zxz, zxz_angles
    >>> angles, singular = zxz_angles(rotation_from_zxz([0.1, 0.2, 0.3]))
    >>> np.round(angles, 6).tolist(), bool(singular)
    ([0.1, 0.2, 0.3], False)
    """

    angles: np.ndarray  #: (θ1, θ2, θ3), shape (..., 3)
    singular: np.ndarray  #: bool (...): θ1, θ3 not separable; θ3 set to 0


# ----------------------------------------------------------------------------- checks
def _scal(x):
    """0-d arrays to numpy scalars (single-rotation results)."""
    return x[()] if isinstance(x, np.ndarray) and x.ndim == 0 else x


def _array(x, name: str, tail: tuple) -> np.ndarray:
    """Float array of shape (..., *tail) with finite entries, else ValueError naming it."""
    want = "(..., " + ", ".join(map(str, tail)) + ")" if tail else "a scalar or array"
    try:
        a = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: expected a numeric array of shape {want}") from None
    if tail and (a.ndim < len(tail) or a.shape[-len(tail) :] != tail):
        raise ValueError(f"{name}: expected shape {want}, got {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name}: expected finite values, got NaN or inf")
    return a


def as_rotation(R, name: str = "R") -> np.ndarray:
    """R as a float array (..., 3, 3) of proper rotations (RᵀR = 1, det R = +1 within
    ``ROTATION_TOL``), else a ValueError naming ``name`` and the violation.

    The check every function of this module applies to a rotation argument: the largest
    ``|RᵀR − 1|`` entry and the largest ``|det R − 1|`` over the stack must both be
    ≤ ``ROTATION_TOL`` = 1e-9. R is neither copied nor re-orthonormalized.

    Parameters
    ----------
    R : array_like (3, 3) or (..., 3, 3)
        One rotation matrix or a stack (dimensionless).
    name : str
        The argument name used in the error message.

    Returns
    -------
    ndarray (3, 3) or (..., 3, 3)
        ``R`` as a float array (the same object when it already was one).

    Raises
    ------
    ValueError
        ``R`` not numeric, not of shape (..., 3, 3), with NaN or inf entries, or not a
        proper rotation to ``ROTATION_TOL`` (the message gives max ``|RᵀR − 1|``
        and max ``|det R − 1|``).

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import as_rotation, rot_z
    >>> as_rotation(np.stack([rot_z(0.1), rot_z(0.2)])).shape
    (2, 3, 3)
    >>> as_rotation(np.diag([1.0, 1.0, -1.0]), "E")
    Traceback (most recent call last):
        ...
    ValueError: E: expected a proper rotation (RᵀR = 1, det = +1);
    max |RᵀR − 1| = 0, max |det R − 1| = 2
    """
    R = _array(R, name, (3, 3))
    orth = float(np.abs(np.swapaxes(R, -1, -2) @ R - _I3).max(initial=0.0))
    det = float(np.abs(np.linalg.det(R) - 1.0).max(initial=0.0))
    if not (orth <= ROTATION_TOL and det <= ROTATION_TOL):
        raise ValueError(
            f"{name}: expected a proper rotation (RᵀR = 1, det = +1); "
            f"max |RᵀR − 1| = {orth:.3g}, max |det R − 1| = {det:.3g}"
        )
    return R


def _unit(v, name: str, tol: float = ROTATION_TOL) -> np.ndarray:
    v = _array(v, name, (3,))
    err = float(np.abs(np.linalg.norm(v, axis=-1) - 1.0).max(initial=0.0))
    if err > tol:
        raise ValueError(f"{name}: expected a unit vector; max |‖{name}‖ − 1| = {err:.3g}")
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def _outer(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a[..., :, None] * b[..., None, :]


def _wrap(a: np.ndarray) -> np.ndarray:
    """Angles to [−π, π)."""
    return np.remainder(a + np.pi, 2.0 * np.pi) - np.pi


# ------------------------------------------------------------------- linear invariants
def vect(A) -> np.ndarray:
    """Axial vector (2.4.10): vect(A)_i = ½ ε_ijk A_kj = ½[A32 − A23, A13 − A31, A21 − A12].

    ``A`` is any (..., 3, 3) matrix (only its skew part counts); returns (..., 3).
    Rojas (1987) §2.4: vect([a]×) = a, and for a rotation vect(R) = λ = e sin φ, the vector
    linear invariant (:func:`linear_invariants`).

    Parameters
    ----------
    A : array_like (3, 3) or (..., 3, 3)
        Any square matrix or stack of them, any units (the result has the units of ``A``).

    Returns
    -------
    ndarray (3,) or (..., 3)
        The axial vector of the skew part ½(A − Aᵀ).

    Raises
    ------
    ValueError
        ``A`` not numeric, not of shape (..., 3, 3), or with NaN or inf entries.

    Examples
    --------
    >>> from eslabon.spatial import skew, vect
    >>> vect(skew([1.0, 2.0, 3.0])).tolist()
    [1.0, 2.0, 3.0]
    """
    A = _array(A, "A", (3, 3))
    return 0.5 * np.einsum("ijk,...kj->...i", _EPS, A)


def linear_invariants(R) -> LinearInvariants:
    """Linear invariants (2.4.9a–b): λ = vect(R) = e sin φ (..., 3),
    λ0 = (tr R − 1)/2 = cos φ (...).

    The rotation representation of Rojas (1987) §2.4, with e the unit axis and φ ∈ [0, π]
    the angle of the active rotation R. They satisfy λ0² + ‖λ‖² = 1 (2.4.11) and determine R
    except at φ = π (λ = 0, λ0 = −1), where the axis is lost
    (:func:`rotation_from_invariants`).

    Parameters
    ----------
    R : array_like (3, 3) or (..., 3, 3)
        Proper rotation matrix or stack (dimensionless), checked by :func:`as_rotation`.

    Returns
    -------
    LinearInvariants
        ``(lam, lam0)``: λ (3,) or (..., 3) and λ0, a numpy scalar or (...), dimensionless.

    Raises
    ------
    ValueError
        ``R`` of the wrong shape, not finite or not a proper rotation (:func:`as_rotation`).

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import linear_invariants, rotation_from_invariants, rot_x
    >>> lam, lam0 = linear_invariants(rot_x(2.0))
    >>> round(float(lam0), 6), round(float(lam @ lam + lam0**2), 6)
    (-0.416147, 1.0)
    >>> bool(np.allclose(rotation_from_invariants(lam, lam0), rot_x(2.0)))
    True
    """
    R = as_rotation(R)
    return LinearInvariants(vect(R), _scal((np.trace(R, axis1=-2, axis2=-1) - 1.0) / 2.0))


def _invariants(lam, lam0, tol: float):
    """Validate (λ, λ0) against (2.4.11) and project onto it; returns λ, λ0, ‖λ‖ broadcast."""
    lam = _array(lam, "lam", (3,))
    lam0 = _array(lam0, "lam0", ())
    lam, lam0 = np.broadcast_arrays(lam, lam0[..., None])
    lam0 = lam0[..., 0]
    norm = np.sqrt(lam0**2 + np.sum(lam**2, axis=-1))
    err = float(np.abs(norm**2 - 1.0).max(initial=0.0))
    if err > tol:
        raise ValueError(
            "lam, lam0: violate the constraint λ0² + ‖λ‖² = 1 (2.4.11); "
            f"max |λ0² + ‖λ‖² − 1| = {err:.3g}"
        )
    lam, lam0 = lam / norm[..., None], np.clip(lam0 / norm, -1.0, 1.0)
    return lam, lam0, np.linalg.norm(lam, axis=-1)


def _axis_of(lam, s, c, axis, tol: float) -> np.ndarray:
    """Unit axis for the branch λ0 ≤ 0: λ/‖λ‖, or the caller's ``axis`` (needed at φ = π)."""
    if axis is None:
        if np.any((c <= 0.0) & (s < PI_AXIS_TOL)):
            raise ValueError(
                "axis: required at φ = π (λ = 0, λ0 = −1), where the invariants "
                "do not determine R; pass the unit axis e, R = −1 + 2eeᵀ (2.5.16)"
            )
        return lam / np.where(s > 0.0, s, 1.0)[..., None]
    e = _unit(axis, "axis")
    d = np.sum(e * lam, axis=-1)
    e = np.where((d < 0.0)[..., None], -e, e)
    off = float(np.linalg.norm(lam - d[..., None] * e, axis=-1).max(initial=0.0))
    if off > tol:
        raise ValueError(f"axis: expected parallel to lam; ‖λ − (λ·e)e‖ = {off:.3g}")
    return e


def rotation_from_invariants(lam, lam0, axis=None, *, tol: float = 1e-9) -> np.ndarray:
    """R from the linear invariants, corrected (2.4.12): R = λ0·1 + λλᵀ/(1+λ0) + [λ]×.

    Rojas (1987) §2.4 prints the coefficient of λλᵀ as (1 − λ0)/λ0; it is 1/(1 + λ0).
    ``lam`` (..., 3), ``lam0`` (...) must satisfy λ0² + ‖λ‖² = 1 (2.4.11) to ``tol``
    (ValueError naming them otherwise); they are projected onto it.  For λ0 ≤ 0 the
    equivalent (1 − λ0)eeᵀ, e = λ/‖λ‖, replaces λλᵀ/(1+λ0), which cancels near φ = π.
    At φ = π (‖λ‖ < PI_AXIS_TOL, λ0 ≤ 0) the invariants do not fix R: pass ``axis``
    (unit e, (..., 3); R = −1 + 2eeᵀ, (2.5.16)), else ValueError.  When given, ``axis``
    must be parallel to λ (its sign is turned to that of λ) and is the e of every λ0 ≤ 0
    entry; where λ0 > 0 it is only checked.  Note that λ fixes e only to ~1e-16/‖λ‖, so
    without ``axis`` R is accurate to ~1e-16/sin φ near π.  Returns (..., 3, 3).

    Parameters
    ----------
    lam : array_like (3,) or (..., 3)
        λ = e sin φ (dimensionless).
    lam0 : float or array_like (...)
        λ0 = cos φ (dimensionless); broadcasts with the leading axes of ``lam``.
    axis : array_like (3,) or (..., 3), optional
        Unit rotation axis e (norm 1 to 1e-9, then normalized), parallel to λ; required
        where φ = π.
    tol : float
        Accepted ``|λ0² + ‖λ‖² − 1|`` and distance ‖λ − (λ·e)e‖ of λ from ``axis``.

    Returns
    -------
    ndarray (3, 3) or (..., 3, 3)
        The proper rotation R (dimensionless), active and right-handed.

    Raises
    ------
    ValueError
        ``lam``, ``lam0`` or ``axis`` not numeric, of the wrong shape, not finite or whose
        leading shapes do not broadcast; λ0² + ‖λ‖² off 1 by more than ``tol``; φ = π
        without ``axis``; ``axis`` not a unit vector or not parallel to λ.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import rotation_from_invariants, rot_z
    >>> R = rotation_from_invariants([0.0, 0.0, np.sin(0.5)], np.cos(0.5))
    >>> bool(np.allclose(R, rot_z(0.5)))
    True
    >>> R = rotation_from_invariants([0.0, 0.0, 0.0], -1.0, axis=[0.0, 0.0, 1.0])
    >>> bool(np.allclose(R, rot_z(np.pi)))
    True
    """
    lam, c, s = _invariants(lam, lam0, tol)
    e = _axis_of(lam, s, c, axis, tol)
    pos = (c > 0.0)[..., None, None]
    sym = np.where(
        pos,
        _outer(lam, lam) / (1.0 + np.where(c > 0.0, c, 0.0))[..., None, None],
        (1.0 - c)[..., None, None] * _outer(e, e),
    )
    return c[..., None, None] * _I3 + sym + skew(lam)


# ----------------------------------------------------------------------------- axis-angle
def axis_angle(R) -> AxisAngle:
    """Axis e (..., 3) and angle φ ∈ [0, π] (...) of R, from (2.4.9): φ = atan2(‖λ‖, λ0).

    For λ0 > 0, e = λ/‖λ‖ (e = (0, 0, 1) for R = 1).  For λ0 ≤ 0, e is the eigenvector of
    R for eigenvalue +1 (2.5.16), read off ½(R + Rᵀ) − λ0·1 = (1 − λ0)eeᵀ (its column of
    largest diagonal), with the sign of λ; where λ = 0 exactly, that component is > 0.
    (λ, λ0) are the linear invariants of Rojas (1987) §2.4 (:func:`linear_invariants`).

    Parameters
    ----------
    R : array_like (3, 3) or (..., 3, 3)
        Proper rotation matrix or stack (dimensionless), checked by :func:`as_rotation`.

    Returns
    -------
    AxisAngle
        ``(e, phi)``: the unit axis (3,) or (..., 3), in the coordinates R is written in,
        and the angle φ, rad, a numpy scalar or (...).

    Raises
    ------
    ValueError
        ``R`` of the wrong shape, not finite or not a proper rotation (:func:`as_rotation`).

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import axis_angle, rot_x
    >>> e, phi = axis_angle(rot_x(np.pi))
    >>> np.round(e, 6).tolist(), round(float(phi), 6)
    ([1.0, 0.0, 0.0], 3.141593)
    """
    R = as_rotation(R)
    lam = vect(R)
    c = (np.trace(R, axis1=-2, axis2=-1) - 1.0) / 2.0
    s = np.linalg.norm(lam, axis=-1)
    B = 0.5 * (R + np.swapaxes(R, -1, -2)) - c[..., None, None] * _I3
    i = np.argmax(np.diagonal(B, axis1=-2, axis2=-1), axis=-1)
    col = np.take_along_axis(B, i[..., None, None], axis=-1)[..., 0]
    col = col / np.maximum(np.linalg.norm(col, axis=-1, keepdims=True), 1e-300)
    col = np.where((np.sum(col * lam, axis=-1) < 0.0)[..., None], -col, col)
    small = np.where(
        (s > 0.0)[..., None], lam / np.where(s > 0.0, s, 1.0)[..., None], np.array([0.0, 0.0, 1.0])
    )
    e = np.where((c > 0.0)[..., None], small, col)
    return AxisAngle(e, _scal(np.arctan2(s, c)))


def rotation_from_axis_angle(e, phi) -> np.ndarray:
    """R = cos φ·1 + (1 − cos φ)eeᵀ + sin φ[e]× (Rodrigues; cf. (2.4.12)), e unit (..., 3),
    φ (...); returns (..., 3, 3).  1 − cos φ is evaluated as 2 sin²(φ/2).

    The active, right-handed rotation by φ about e (Rojas (1987) §2.4). Unlike
    :func:`rot_axis`, it checks and broadcasts its arguments.

    Parameters
    ----------
    e : array_like (3,) or (..., 3)
        Unit axis (dimensionless; norm 1 to 1e-9, then normalized).
    phi : float or array_like (...)
        Angle, rad, any real value; broadcasts with the leading axes of ``e``.

    Returns
    -------
    ndarray (3, 3) or (..., 3, 3)
        The rotation matrix (dimensionless).

    Raises
    ------
    ValueError
        ``e`` or ``phi`` not numeric, of the wrong shape or not finite; ``e`` not a unit
        vector; leading shapes that do not broadcast.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import rot_z, rotation_from_axis_angle
    >>> bool(np.allclose(rotation_from_axis_angle([0.0, 0.0, 1.0], 0.3), rot_z(0.3)))
    True
    >>> rotation_from_axis_angle([0.0, 0.0, 1.0], np.linspace(0.0, 1.0, 5)).shape
    (5, 3, 3)
    """
    e = _unit(e, "e")
    phi = _array(phi, "phi", ())[..., None, None]
    return np.cos(phi) * _I3 + 2.0 * np.sin(phi / 2.0) ** 2 * _outer(e, e) + np.sin(phi) * skew(e)


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


# -------------------------------------------------------------------- Euler/Bryant angles
def _elementary(axis: int, angle: np.ndarray) -> np.ndarray:
    """Broadcasting rot_x / rot_y / rot_z (axis 0, 1, 2): (...,) -> (..., 3, 3)."""
    c, s = np.cos(angle), np.sin(angle)
    R = np.zeros(np.shape(angle) + (3, 3))
    j, k = (axis + 1) % 3, (axis + 2) % 3
    R[..., axis, axis] = 1.0
    R[..., j, j] = R[..., k, k] = c
    R[..., k, j], R[..., j, k] = s, -s
    return R


def _proper_euler(quat: np.ndarray, i: int, j: int, tol: float):
    """(α, β, γ) with R = R_i(α) R_j(β) R_i(γ), β ∈ [0, π], from Euler parameters:
    q0 = cos(β/2)cos(σ/2), q_i = cos(β/2)sin(σ/2), q_j = sin(β/2)cos(δ/2),
    q_k = ε sin(β/2)sin(δ/2), σ = α + γ, δ = α − γ, ε = e_k·(e_i × e_j).
    Also |sin β| ≤ tol (singular) and whether β is near 0 (vs π)."""
    k = 3 - i - j
    sign = 1.0 if (j - i) % 3 == 1 else -1.0
    q0, qi, qj, qk = quat[..., 0], quat[..., 1 + i], quat[..., 1 + j], sign * quat[..., 1 + k]
    cos_half, sin_half = np.hypot(q0, qi), np.hypot(qj, qk)
    beta = 2.0 * np.arctan2(sin_half, cos_half)
    half_sigma, half_delta = np.arctan2(qi, q0), np.arctan2(qk, qj)
    singular = 2.0 * sin_half * cos_half <= tol
    return half_sigma + half_delta, beta, half_sigma - half_delta, singular, cos_half > sin_half


def _finish(t1, t2, t3, singular, near_zero) -> Angles:
    """θ3 = 0 convention where singular: R depends on θ1 + θ3 (β ≈ 0) or θ1 − θ3 (β ≈ π)."""
    t1 = np.where(singular, t1 + np.where(near_zero, t3, -t3), t1)
    t3 = np.where(singular, 0.0, t3)
    return Angles(np.stack([_wrap(t1), t2, _wrap(t3)], axis=-1), _scal(singular))


def rotation_from_zxz(angles) -> np.ndarray:
    """Euler angles (2.4.1): R = Rz(θ1) Rx(θ2) Rz(θ3); angles (..., 3) -> (..., 3, 3).

    Rojas (1987) §2.4: successive active rotations about z, the new x and the new z (moving
    axes), the product of :func:`rot_z`, :func:`rot_x`, :func:`rot_z`.

    Parameters
    ----------
    angles : array_like (3,) or (..., 3)
        (θ1, θ2, θ3), rad.

    Returns
    -------
    ndarray (3, 3) or (..., 3, 3)
        The rotation matrix (dimensionless).

    Raises
    ------
    ValueError
        ``angles`` not numeric, of the wrong shape, or with NaN or inf entries.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import rot_x, rot_z, rotation_from_zxz
    >>> R = rotation_from_zxz([0.1, 0.2, 0.3])
    >>> bool(np.allclose(R, rot_z(0.1) @ rot_x(0.2) @ rot_z(0.3)))
    True
    """
    a = _array(angles, "angles", (3,))
    return _elementary(2, a[..., 0]) @ _elementary(0, a[..., 1]) @ _elementary(2, a[..., 2])


def zxz_angles(R, *, tol: float = SINGULAR_TOL) -> Angles:
    """ZXZ Euler angles of R (the inverse (2.4.2), in atan2 form, c3 = +r32/s2).

    θ2 ∈ [0, π], θ1, θ3 ∈ [−π, π).  Singular where ``|sin θ2| ≤ tol`` (θ2 ≈ kπ; only
    θ1 + θ3 or θ1 − θ3 is defined): flagged, θ3 = 0 and θ1 = θ1 ± θ3, which rebuilds R to
    rounding plus ~4·tol.  Away from it the angles rebuild R to rounding (θ1 and θ3 alone
    have sensitivity ``~1e-16/|sin θ2|``).

    Rojas (1987) §2.4 prints c3 = −r32/s2 in (2.4.2); it is +r32/s2. The angles are read
    from the Euler parameters with atan2 (no division by sin θ2). The inverse of
    :func:`rotation_from_zxz`.

    Parameters
    ----------
    R : array_like (3, 3) or (..., 3, 3)
        Proper rotation matrix or stack (dimensionless), checked by :func:`as_rotation`.
    tol : float
        Threshold on ``|sin θ2|`` at or below which the pose is flagged singular (default
        ``SINGULAR_TOL`` = 1e-12).

    Returns
    -------
    Angles
        ``(angles, singular)``: (θ1, θ2, θ3) (3,) or (..., 3), rad, and a numpy bool or
        (...) bool array.

    Raises
    ------
    ValueError
        ``R`` of the wrong shape, not finite or not a proper rotation (:func:`as_rotation`).

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import rot_z, rotation_from_zxz, zxz_angles
    >>> angles, singular = zxz_angles(rotation_from_zxz([0.1, 0.2, 0.3]))
    >>> np.round(angles, 6).tolist(), bool(singular)
    ([0.1, 0.2, 0.3], False)
    >>> angles, singular = zxz_angles(rot_z(0.4))
    >>> np.round(angles, 6).tolist(), bool(singular)
    ([0.4, 0.0, 0.0], True)
    """
    a, b, g, singular, near_zero = _proper_euler(_quaternion(as_rotation(R)), 2, 0, tol)
    return _finish(a, b, g, singular, near_zero)


def rotation_from_xyz(angles) -> np.ndarray:
    """Bryant angles (2.4.3): R = Rx(θ1) Ry(θ2) Rz(θ3); angles (..., 3) -> (..., 3, 3).

    Rojas (1987) §2.4: successive active rotations about x, the new y and the new z (moving
    axes), the product of :func:`rot_x`, :func:`rot_y`, :func:`rot_z`.

    Parameters
    ----------
    angles : array_like (3,) or (..., 3)
        (θ1, θ2, θ3), rad.

    Returns
    -------
    ndarray (3, 3) or (..., 3, 3)
        The rotation matrix (dimensionless).

    Raises
    ------
    ValueError
        ``angles`` not numeric, of the wrong shape, or with NaN or inf entries.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import rot_x, rot_y, rot_z, rotation_from_xyz
    >>> R = rotation_from_xyz([0.1, 0.2, 0.3])
    >>> bool(np.allclose(R, rot_x(0.1) @ rot_y(0.2) @ rot_z(0.3)))
    True
    """
    a = _array(angles, "angles", (3,))
    return _elementary(0, a[..., 0]) @ _elementary(1, a[..., 1]) @ _elementary(2, a[..., 2])


def xyz_angles(R, *, tol: float = SINGULAR_TOL) -> Angles:
    """XYZ Bryant angles of R (2.4.3), θ2 ∈ [−π/2, π/2], θ1, θ3 ∈ [−π, π).

    Since Rz(θ3) = Ry(−π/2) Rx(θ3) Ry(π/2), R·Ry(−π/2) = Rx(θ1) Ry(θ2 − π/2) Rx(θ3) is a
    proper XYX sequence.  Singular where ``|cos θ2| ≤ tol``: flagged, θ3 = 0 and θ1 carries
    θ1 ± θ3 (as in zxz_angles).

    Rojas (1987) §2.4. The angles are read from Euler parameters with atan2. The inverse of
    :func:`rotation_from_xyz`.

    Parameters
    ----------
    R : array_like (3, 3) or (..., 3, 3)
        Proper rotation matrix or stack (dimensionless), checked by :func:`as_rotation`.
    tol : float
        Threshold on ``|cos θ2|`` at or below which the pose is flagged singular (default
        ``SINGULAR_TOL`` = 1e-12).

    Returns
    -------
    Angles
        ``(angles, singular)``: (θ1, θ2, θ3) (3,) or (..., 3), rad, and a numpy bool or
        (...) bool array.

    Raises
    ------
    ValueError
        ``R`` of the wrong shape, not finite or not a proper rotation (:func:`as_rotation`).

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import rotation_from_xyz, xyz_angles
    >>> angles, singular = xyz_angles(rotation_from_xyz([0.1, -0.2, 0.3]))
    >>> np.round(angles, 6).tolist(), bool(singular)
    ([0.1, -0.2, 0.3], False)
    """
    R = as_rotation(R) @ _RY_MINUS_HALF_PI
    a, b, g, singular, near_zero = _proper_euler(_quaternion(R), 0, 1, tol)
    # the branch (α + π, −β, γ + π) of the XYX solution puts θ2 = π/2 − β in [−π/2, π/2]
    return _finish(a + np.pi, np.pi / 2.0 - b, g + np.pi, singular, near_zero)


# --------------------------------------------------------------------------------- rates
def angular_velocity(R, Rdot) -> np.ndarray:
    """ω = vect(Ṙ Rᵀ) (3.3.2.1), i.e. Ṙ = [ω]× R with ω in the reference (fixed) frame;
    R (..., 3, 3) rotation, Rdot (..., 3, 3); returns (..., 3).  Only the skew part of
    ṘRᵀ counts.

    Rojas (1987) (3.3.2.1). For R = A_R_B, ω is the angular velocity of B relative to A in
    A's coordinates; its body-frame form is Rᵀω. ``Rdot`` is not checked to be consistent
    with R (ṘRᵀ skew).

    Parameters
    ----------
    R : array_like (3, 3) or (..., 3, 3)
        Proper rotation matrix or stack (dimensionless), checked by :func:`as_rotation`.
    Rdot : array_like (3, 3) or (..., 3, 3)
        Its time derivative Ṙ, 1/s; leading axes broadcast with those of ``R``.

    Returns
    -------
    ndarray (3,) or (..., 3)
        ω, rad/s, in the reference frame (the frame R's rows are written in).

    Raises
    ------
    ValueError
        ``R`` not a proper rotation (:func:`as_rotation`); ``Rdot`` not numeric, of the
        wrong shape or not finite; leading shapes that do not broadcast.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import angular_velocity, rot_x, skew
    >>> R, w = rot_x(0.4), np.array([0.1, -0.2, 0.3])
    >>> np.round(angular_velocity(R, skew(w) @ R), 6).tolist()
    [0.1, -0.2, 0.3]
    """
    R = as_rotation(R)
    Rdot = _array(Rdot, "Rdot", (3, 3))
    return vect(Rdot @ np.swapaxes(R, -1, -2))


def invariant_rates(R, omega):
    """Rates of the linear invariants for Ṙ = [ω]× R: returns (λ̇ (..., 3), λ̇0 (...)).

    λ̇ = vect(Ṙ) = vect([ω]×R) = ½[tr(R)·1 − R]ω (3.3.2.6, using (3.3.1.14); the text's
    middle term "vect(ṘRᵀ)" would be ω itself) and
    λ̇0 = ½ tr(Ṙ) = −λ·ω (from tr(SP) = −2 vect(S)·vect(P); = −sin φ φ̇ with φ̇ = eᵀω).

    Rojas (1987) §3.3.2; (λ, λ0) as in :func:`linear_invariants`.

    Parameters
    ----------
    R : array_like (3, 3) or (..., 3, 3)
        Proper rotation matrix or stack (dimensionless), checked by :func:`as_rotation`.
    omega : array_like (3,) or (..., 3)
        Angular velocity ω, rad/s, in the reference frame (Ṙ = [ω]× R, as returned by
        :func:`angular_velocity`); leading axes broadcast with those of ``R``.

    Returns
    -------
    tuple of (ndarray, numpy float or ndarray)
        (λ̇, λ̇0): λ̇ (3,) or (..., 3) and λ̇0, a numpy scalar or (...), both 1/s. A plain
        tuple, not a :class:`LinearInvariants`.

    Raises
    ------
    ValueError
        ``R`` not a proper rotation (:func:`as_rotation`); ``omega`` not numeric, of the
        wrong shape or not finite; leading shapes that do not broadcast.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import invariant_rates, rot_z
    >>> lam_dot, lam0_dot = invariant_rates(rot_z(0.5), [0.0, 0.0, 1.0])
    >>> np.round(lam_dot, 6).tolist(), round(float(lam0_dot), 6)
    ([0.0, 0.0, 0.877583], -0.479426)
    """
    R = as_rotation(R)
    omega = _array(omega, "omega", (3,))
    t = np.trace(R, axis1=-2, axis2=-1)[..., None]
    lam_dot = 0.5 * (t * omega - np.einsum("...ij,...j->...i", R, omega))
    return lam_dot, _scal(-np.sum(vect(R) * omega, axis=-1))
