"""Rotation representations of Rojas Salgado (1987) §2.4: the linear invariants, axis and
angle, and their rates; the checks every rotation function of :mod:`eslabon.spatial` applies.

Every function takes one rotation (3, 3) or a stack (..., 3, 3) and broadcasts over the
leading axes; a single input gives scalars / (3,) vectors back.  Conventions: active,
right-handed; ``R = λ0·1 + λλᵀ/(1+λ0) + [λ]×`` with ``λ = vect(R) = e sin φ`` and
``λ0 = cos φ``.  A misprint of the thesis's §2.4 is corrected here (checked by rebuilding
random rotations): (2.4.12) prints the coefficient (1−λ0)/λ0, which is 1/(1+λ0).  The
Euler and Rodrigues parameters are in :mod:`.euler_parameters`, the Euler and Bryant
angles in :mod:`.euler_angles`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .rotations import skew

__all__ = [
    "AxisAngle",
    "LinearInvariants",
    "angular_velocity",
    "as_rotation",
    "axis_angle",
    "invariant_rates",
    "linear_invariants",
    "rotation_from_axis_angle",
    "rotation_from_invariants",
    "vect",
]

ROTATION_TOL = 1e-9  #: max |RᵀR − 1| and |det R − 1| accepted for a rotation argument
PI_AXIS_TOL = 1e-12  #: ‖λ‖ below this with λ0 < 0 counts as φ = π (axis undetermined)
SINGULAR_TOL = 1e-12  #: |sin θ2| (ZXZ), |cos θ2| (XYZ) or q0 (Rodrigues) flagged singular

_EPS = np.zeros((3, 3, 3))
for _i, _j, _k in ((0, 1, 2), (1, 2, 0), (2, 0, 1)):
    _EPS[_i, _j, _k], _EPS[_i, _k, _j] = 1.0, -1.0
_I3 = np.eye(3)


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
