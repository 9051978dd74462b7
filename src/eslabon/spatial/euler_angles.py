"""ZXZ Euler angles and XYZ Bryant angles of a rotation, Rojas Salgado (1987) §2.4,
(2.4.1)–(2.4.3).

R = Rz(θ1) Rx(θ2) Rz(θ3) (ZXZ) or R = Rx(θ1) Ry(θ2) Rz(θ3) (XYZ), each an active rotation
about the current (moving) axes.  The angles are read from the Euler parameters with
atan2 (no division by s2), so they rebuild R to rounding everywhere, and singular poses
are reported.  A misprint of §2.4 is corrected here: (2.4.2) prints c3 = −r32/s2, which
is +r32/s2.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .euler_parameters import _quaternion
from .invariants import SINGULAR_TOL, _array, _scal, _wrap, as_rotation

__all__ = ["Angles", "rotation_from_xyz", "rotation_from_zxz", "xyz_angles", "zxz_angles"]

# Ry(−π/2), exact: R·Ry(−π/2) turns Bryant XYZ into proper Euler XYX (see xyz_angles).
_RY_MINUS_HALF_PI = np.array([[0.0, 0.0, -1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])


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
