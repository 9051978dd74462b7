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
    lam: np.ndarray  #: λ = vect(R) = e sin φ, shape (..., 3)
    lam0: np.ndarray  #: λ0 = (tr R − 1)/2 = cos φ, shape (...)


class AxisAngle(NamedTuple):
    e: np.ndarray  #: unit axis, shape (..., 3)
    phi: np.ndarray  #: angle in [0, π], shape (...)


class EulerParameters(NamedTuple):
    q0: np.ndarray  #: cos(φ/2) ≥ 0, shape (...)
    q: np.ndarray  #: e sin(φ/2), shape (..., 3)


class RodriguesParameters(NamedTuple):
    p: np.ndarray  #: q/q0, shape (..., 3); NaN where singular
    singular: np.ndarray  #: bool (...): φ = π (q0 ≤ tol), p undefined


class Angles(NamedTuple):
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
    ``ROTATION_TOL``), else a ValueError naming ``name`` and the violation."""
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
    """
    A = _array(A, "A", (3, 3))
    return 0.5 * np.einsum("ijk,...kj->...i", _EPS, A)


def linear_invariants(R) -> LinearInvariants:
    """Linear invariants (2.4.9a–b): λ = vect(R) = e sin φ (..., 3),
    λ0 = (tr R − 1)/2 = cos φ (...)."""
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

    ``lam`` (..., 3), ``lam0`` (...) must satisfy λ0² + ‖λ‖² = 1 (2.4.11) to ``tol``
    (ValueError naming them otherwise); they are projected onto it.  For λ0 ≤ 0 the
    equivalent (1 − λ0)eeᵀ, e = λ/‖λ‖, replaces λλᵀ/(1+λ0), which cancels near φ = π.
    At φ = π (‖λ‖ < PI_AXIS_TOL, λ0 < 0) the invariants do not fix R: pass ``axis``
    (unit e, (..., 3); R = −1 + 2eeᵀ, (2.5.16)), else ValueError.  When given, ``axis``
    must be parallel to λ and is used for eeᵀ everywhere.  Note that λ fixes e only to
    ~1e-16/‖λ‖, so without ``axis`` R is accurate to ~1e-16/sin φ near π.  Returns (..., 3, 3).
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
    φ (...); returns (..., 3, 3).  1 − cos φ is evaluated as 2 sin²(φ/2)."""
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
    by Shepperd's branch on the largest of q0², q_i² (2.4.6a–b)."""
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
    with q0² + ‖q‖² = 1 to ``tol`` (normalized); returns (..., 3, 3)."""
    q0, q = _parameters(q0, q, tol)
    return (2.0 * q0**2 - 1.0)[..., None, None] * _I3 + 2.0 * (
        _outer(q, q) + q0[..., None, None] * skew(q)
    )


def invariants_from_euler_parameters(q0, q, *, tol: float = 1e-9) -> LinearInvariants:
    """λ = 2 q0 q, λ0 = 2q0² − 1 (corrected (2.4.13)); q0 (...), q (..., 3)."""
    q0, q = _parameters(q0, q, tol)
    return LinearInvariants(2.0 * q0[..., None] * q, _scal(2.0 * q0**2 - 1.0))


def euler_parameters_from_invariants(lam, lam0, axis=None, *, tol: float = 1e-9) -> EulerParameters:
    """(2.4.14) with q0 ≥ 0: q0 = √((1 + λ0)/2), q = λ/(2q0) for λ0 > 0; for λ0 ≤ 0 the
    well-conditioned q = e√((1 − λ0)/2), q0 = ‖λ‖/(2√((1 − λ0)/2)).  ``axis`` as in
    rotation_from_invariants (required at φ = π).  lam (..., 3), lam0 (...)."""
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
    where q0 = cos(φ/2) ≤ ``tol`` the result has ``singular=True`` and p = NaN."""
    quat = _quaternion(as_rotation(R))
    singular = quat[..., 0] <= tol
    p = quat[..., 1:] / np.where(singular, 1.0, quat[..., 0])[..., None]
    return RodriguesParameters(np.where(singular[..., None], np.nan, p), _scal(singular))


def rotation_from_rodrigues(p) -> np.ndarray:
    """R = [(1 − p·p)·1 + 2ppᵀ + 2[p]×]/(1 + p·p): (2.4.8) divided (not multiplied) by
    r = 1 + p·p; p (..., 3) finite, returns (..., 3, 3)."""
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
    """Euler angles (2.4.1): R = Rz(θ1) Rx(θ2) Rz(θ3); angles (..., 3) -> (..., 3, 3)."""
    a = _array(angles, "angles", (3,))
    return _elementary(2, a[..., 0]) @ _elementary(0, a[..., 1]) @ _elementary(2, a[..., 2])


def zxz_angles(R, *, tol: float = SINGULAR_TOL) -> Angles:
    """ZXZ Euler angles of R (the inverse (2.4.2), in atan2 form, c3 = +r32/s2).

    θ2 ∈ [0, π], θ1, θ3 ∈ [−π, π).  Singular where ``|sin θ2| ≤ tol`` (θ2 ≈ kπ; only
    θ1 + θ3 or θ1 − θ3 is defined): flagged, θ3 = 0 and θ1 = θ1 ± θ3, which rebuilds R to
    rounding plus ~4·tol.  Away from it the angles rebuild R to rounding (θ1 and θ3 alone
    have sensitivity ``~1e-16/|sin θ2|``)."""
    a, b, g, singular, near_zero = _proper_euler(_quaternion(as_rotation(R)), 2, 0, tol)
    return _finish(a, b, g, singular, near_zero)


def rotation_from_xyz(angles) -> np.ndarray:
    """Bryant angles (2.4.3): R = Rx(θ1) Ry(θ2) Rz(θ3); angles (..., 3) -> (..., 3, 3)."""
    a = _array(angles, "angles", (3,))
    return _elementary(0, a[..., 0]) @ _elementary(1, a[..., 1]) @ _elementary(2, a[..., 2])


def xyz_angles(R, *, tol: float = SINGULAR_TOL) -> Angles:
    """XYZ Bryant angles of R (2.4.3), θ2 ∈ [−π/2, π/2], θ1, θ3 ∈ [−π, π).

    Since Rz(θ3) = Ry(−π/2) Rx(θ3) Ry(π/2), R·Ry(−π/2) = Rx(θ1) Ry(θ2 − π/2) Rx(θ3) is a
    proper XYX sequence.  Singular where ``|cos θ2| ≤ tol``: flagged, θ3 = 0 and θ1 carries
    θ1 ± θ3 (as in zxz_angles)."""
    R = as_rotation(R) @ _RY_MINUS_HALF_PI
    a, b, g, singular, near_zero = _proper_euler(_quaternion(R), 0, 1, tol)
    # the branch (α + π, −β, γ + π) of the XYX solution puts θ2 = π/2 − β in [−π/2, π/2]
    return _finish(a + np.pi, np.pi / 2.0 - b, g + np.pi, singular, near_zero)


# --------------------------------------------------------------------------------- rates
def angular_velocity(R, Rdot) -> np.ndarray:
    """ω = vect(Ṙ Rᵀ) (3.3.2.1), i.e. Ṙ = [ω]× R with ω in the reference (fixed) frame;
    R (..., 3, 3) rotation, Rdot (..., 3, 3); returns (..., 3).  Only the skew part of
    ṘRᵀ counts."""
    R = as_rotation(R)
    Rdot = _array(Rdot, "Rdot", (3, 3))
    return vect(Rdot @ np.swapaxes(R, -1, -2))


def invariant_rates(R, omega):
    """Rates of the linear invariants for Ṙ = [ω]× R: returns (λ̇ (..., 3), λ̇0 (...)).

    λ̇ = vect(Ṙ) = vect([ω]×R) = ½[tr(R)·1 − R]ω (3.3.2.6, using (3.3.1.14); the text's
    middle term "vect(ṘRᵀ)" would be ω itself) and
    λ̇0 = ½ tr(Ṙ) = −λ·ω (from tr(SP) = −2 vect(S)·vect(P); = −sin φ φ̇ with φ̇ = eᵀω)."""
    R = as_rotation(R)
    omega = _array(omega, "omega", (3,))
    t = np.trace(R, axis1=-2, axis2=-1)[..., None]
    lam_dot = 0.5 * (t * omega - np.einsum("...ij,...j->...i", R, omega))
    return lam_dot, _scal(-np.sum(vect(R) * omega, axis=-1))
