"""6-D spatial operators of Jaramillo Botero (1998), seeds 002/004, eqs (1.1)–(1.54).

Convention (eq. (1.1), "Notación espacial 6-dimensional"): the ANGULAR part is on
top. A velocity is V = [w; v], an acceleration V̇ = [ẇ; v̇] with v̇ the *classical*
acceleration of the body point (not Featherstone's spatial acceleration), a force
F = [N; f]; the power pairing is Fᵀ V = N·w + f·v. ``p`` runs from point 1 to point 2:

    P̂(p) = [[1, p̃], [0, 1]]     F₁ = P̂ F₂  (N₁ = N₂ + p × f₂, f₁ = f₂)      (1.2)
                                 V₂ = P̂ᵀ V₁ (w₂ = w₁, v₂ = v₁ + w₁ × p)

Every function takes single inputs or stacks with leading axes ((..., 3), (..., 3, 3),
(..., 6), scalars (...)) that broadcast together. Invalid input (wrong shape, NaN/inf,
negative mass or length, an inertia that is not symmetric, not positive semidefinite or
whose principal moments break the triangle inequality) raises ValueError naming the
argument. Printed errors of the document not reproduced: (1.26) prints the parallel-axis
product rule Ixy_O = Ixy_cm − m x y, but with the positive product integrals of (1.10) it
is Ixy_O = Ixy_cm **+** m x y (Example 1 checks it: the corner's m b c/4 = 0 + m (c/2)(b/2));
the gyroscopic force uses the closed form (1.53), never (1.52), whose linear part is
identically zero and so differs from (1.51).
"""

from __future__ import annotations

import numpy as np

from .invariants import _array, as_rotation
from .rotations import skew

__all__ = [
    "body_force",
    "cuboid_inertia",
    "force_cross",
    "gyroscopic_force",
    "is_spatial_inertia",
    "motion_cross",
    "parallel_axis",
    "power",
    "rigid_transform",
    "rotation_operator",
    "spatial_inertia",
    "spatial_inertia_com",
    "spatial_vector",
    "split_spatial",
    "translation_operator",
]

INERTIA_TOL = 1e-9  #: relative tolerance (× max |entry|) of the inertia checks
_I3 = np.eye(3)


# ----------------------------------------------------------------------------- checks
def _vec(x, name: str) -> np.ndarray:
    return _array(x, name, (3,))


def _nonneg(x, name: str, what: str = "a non-negative number") -> np.ndarray:
    a = _array(x, name, ())
    if np.any(a < 0):
        raise ValueError(f"{name}: expected {what}, got {a[a < 0].flat[0]}")
    return a


def _lead(**arrays) -> tuple:
    """Broadcast the leading (stack) shapes; ``arrays`` maps name -> (array, tail ndim)."""
    shape = ()
    for name, (a, tail) in arrays.items():
        try:
            shape = np.broadcast_shapes(shape, a.shape[: a.ndim - tail])
        except ValueError:
            raise ValueError(
                f"{name}: leading shape {a.shape[: a.ndim - tail]} does not "
                f"broadcast with the other arguments ({shape})"
            ) from None
    return shape


def _inertia(J, name: str, tol: float = INERTIA_TOL) -> np.ndarray:
    """A 3×3 rotational inertia (..., 3, 3): symmetric, PSD and with principal moments
    obeying λ_max ≤ λ_a + λ_b (what mass distributions allow), all to ``tol`` × max |J|."""
    J = _array(J, name, (3, 3))
    t = tol * np.abs(J).max(axis=(-2, -1), initial=0.0)
    asym = np.abs(J - np.swapaxes(J, -1, -2)).max(axis=(-2, -1), initial=0.0)
    if np.any(asym > t):
        raise ValueError(
            f"{name}: expected a symmetric inertia tensor; max |J − Jᵀ| = {float(asym.max()):.3g}"
        )
    lam = np.linalg.eigvalsh(0.5 * (J + np.swapaxes(J, -1, -2)))  # ascending
    if np.any(lam[..., 0] < -t):
        raise ValueError(
            f"{name}: expected a positive semidefinite inertia tensor; "
            f"smallest eigenvalue {float(lam[..., 0].min()):.3g}"
        )
    if np.any(lam[..., 2] > lam[..., 0] + lam[..., 1] + t):
        raise ValueError(
            f"{name}: principal moments violate the triangle inequality "
            f"(largest > sum of the other two)"
        )
    return J


def _mass(m) -> np.ndarray:
    return _nonneg(m, "m", "a non-negative mass")


# ------------------------------------------------------------------- vectors, operators
def spatial_vector(angular, linear) -> np.ndarray:
    """[angular; linear], shape (..., 6) (1.1): V = [w; v], V̇ = [ẇ; v̇], F = [N; f].

    Jaramillo Botero (1998), eq. (1.1): the angular part on top, for motion (velocity,
    classical acceleration) and force vectors alike. Both halves are in the same coordinates
    and refer to the same body point (the point of v, or about which N is taken).

    Parameters
    ----------
    angular : array_like (3,) or (..., 3)
        w (rad/s), ẇ (rad/s²) or a moment N (N·m).
    linear : array_like (3,) or (..., 3)
        v of the point (m/s), its classical acceleration v̇ (m/s²) or a force f (N);
        leading axes broadcast with those of ``angular``.

    Returns
    -------
    ndarray (6,) or (..., 6)
        The spatial vector [angular; linear].

    Raises
    ------
    ValueError
        An argument not numeric, not of shape (..., 3) or not finite, or leading shapes that
        do not broadcast (naming the argument).

    Examples
    --------
    >>> from eslabon.spatial import spatial_vector
    >>> spatial_vector([0.0, 0.0, 1.0], [2.0, 0.0, 0.0]).tolist()
    [0.0, 0.0, 1.0, 2.0, 0.0, 0.0]
    """
    a, b = _vec(angular, "angular"), _vec(linear, "linear")
    shape = _lead(angular=(a, 1), linear=(b, 1))
    return np.concatenate(
        [np.broadcast_to(a, shape + (3,)), np.broadcast_to(b, shape + (3,))], axis=-1
    )


def split_spatial(X) -> tuple[np.ndarray, np.ndarray]:
    """(angular, linear) parts of a spatial vector X (..., 6) (1.1), each (..., 3).

    The inverse of :func:`spatial_vector` (Jaramillo Botero (1998), eq. (1.1): angular part
    first).

    Parameters
    ----------
    X : array_like (6,) or (..., 6)
        A spatial vector [angular; linear] or a stack: a velocity [w; v] (rad/s, m/s), an
        acceleration [ẇ; v̇] (rad/s², m/s²) or a force [N; f] (N·m, N).

    Returns
    -------
    (ndarray, ndarray), each (3,) or (..., 3)
        Copies of X[..., :3] (angular) and X[..., 3:] (linear).

    Raises
    ------
    ValueError
        ``X`` not numeric, not of shape (..., 6) or not finite.

    Examples
    --------
    >>> from eslabon.spatial import split_spatial
    >>> w, v = split_spatial([0.0, 0.0, 1.0, 2.0, 0.0, 0.0])
    >>> w.tolist(), v.tolist()
    ([0.0, 0.0, 1.0], [2.0, 0.0, 0.0])
    """
    X = _array(X, "X", (6,))
    return X[..., :3].copy(), X[..., 3:].copy()


def translation_operator(p) -> np.ndarray:
    """P̂(p) = [[1, p̃], [0, 1]] (1.2), shape (..., 6, 6), for p (..., 3) from point 1 to
    point 2. Forces: F₁ = P̂ F₂ (N₁ = N₂ + p × f₂). Velocities and classical
    accelerations' rigid part: V₂ = P̂ᵀ V₁ (v₂ = v₁ + w₁ × p). Algebra (1.6):
    P̂(p₁₂) P̂(p₂₃) = P̂(p₁₂ + p₂₃), P̂(p)⁻¹ = P̂(−p); p̃ as in (1.4).

    Jaramillo Botero (1998). No rotation: both points' vectors are in the same coordinates
    (see :func:`rigid_transform` for a change of frame as well).

    Parameters
    ----------
    p : array_like (3,) or (..., 3)
        Position of point 2 relative to point 1, m, in the coordinates of the vectors.

    Returns
    -------
    ndarray (6, 6) or (..., 6, 6)
        P̂(p) (dimensionless blocks on the diagonal, m in the upper-right block).

    Raises
    ------
    ValueError
        ``p`` not numeric, not of shape (..., 3) or not finite.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import spatial_vector, translation_operator
    >>> P = translation_operator([1.0, 0.0, 0.0])
    >>> F2 = spatial_vector([0.0, 0.0, 0.0], [0.0, 0.0, 1.0])  # 1 N along z at point 2
    >>> np.round(P @ F2, 6).tolist()  # about point 1: N1 = p x f = (0, -1, 0) N·m
    [0.0, -1.0, 0.0, 0.0, 0.0, 1.0]
    """
    p = _vec(p, "p")
    X = np.zeros(p.shape[:-1] + (6, 6))
    X[..., :3, :3] = X[..., 3:, 3:] = _I3
    X[..., :3, 3:] = skew(p)
    return X


def rotation_operator(r) -> np.ndarray:
    """R = diag(r, r) (1.3), shape (..., 6, 6), for a proper rotation r (..., 3, 3)
    ("projects coordinates of frame 2 onto frame 1": x₁ = r x₂, for both halves).

    Jaramillo Botero (1998). The same point, a change of coordinates only; R⁻¹ = Rᵀ, so it
    maps motion and force vectors alike.

    Parameters
    ----------
    r : array_like (3, 3) or (..., 3, 3)
        Proper rotation r₁₂ (the axes of frame 2 in frame 1), checked by
        :func:`as_rotation`.

    Returns
    -------
    ndarray (6, 6) or (..., 6, 6)
        diag(r, r) (dimensionless).

    Raises
    ------
    ValueError
        ``r`` of the wrong shape, not finite or not a proper rotation (naming ``r``).

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import rot_z, rotation_operator
    >>> X = rotation_operator(rot_z(0.3))
    >>> X.shape, bool(np.allclose(X[3:, 3:], rot_z(0.3))), bool(np.allclose(X[:3, 3:], 0.0))
    ((6, 6), True, True)
    """
    r = as_rotation(r, "r")
    X = np.zeros(r.shape[:-2] + (6, 6))
    X[..., :3, :3] = X[..., 3:, 3:] = r
    return X


def rigid_transform(r, p) -> np.ndarray:
    """X = P̂(p)·R(r) = [[r, p̃ r], [0, r]] (1.2)·(1.3), force direction as in (1.59),
    shape (..., 6, 6). With r = r₁₂ (axes of frame 2 in frame 1) and p = p₁₂ in frame-1
    coordinates: F₁ = X F₂ takes a force at point 2 in frame-2 coordinates to point 1 in
    frame-1 coordinates, and V₂ = Xᵀ V₁ the velocity back (the duality of (1.55)/(1.59)).

    Jaramillo Botero (1998); the product of :func:`translation_operator` and
    :func:`rotation_operator`. Xᵀ maps a velocity (or the rigid part of a classical
    acceleration) at point 1, frame-1 coordinates, to point 2 in frame-2 coordinates, so the
    power is kept: (X F₂)ᵀ V₁ = F₂ᵀ (Xᵀ V₁).

    Parameters
    ----------
    r : array_like (3, 3) or (..., 3, 3)
        Proper rotation r₁₂ (dimensionless), checked by :func:`as_rotation`.
    p : array_like (3,) or (..., 3)
        p₁₂, the position of point 2 relative to point 1, m, in frame-1 coordinates; leading
        axes broadcast with those of ``r``.

    Returns
    -------
    ndarray (6, 6) or (..., 6, 6)
        The force transform X (dimensionless diagonal blocks, m in the upper-right block).

    Raises
    ------
    ValueError
        ``r`` not a proper rotation, ``p`` of the wrong shape or not finite, or leading
        shapes that do not broadcast.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import power, rigid_transform, rot_z
    >>> X = rigid_transform(rot_z(0.5), [0.1, 0.2, 0.3])
    >>> F2 = np.array([0.0, 1.0, 0.0, 2.0, 0.0, -1.0])
    >>> V1 = np.array([0.3, 0.0, 1.0, 0.0, -0.5, 0.2])
    >>> bool(np.isclose(power(X @ F2, V1), power(F2, X.T @ V1)))
    True
    """
    Xr = rotation_operator(r)
    Xp = translation_operator(p)
    _lead(r=(Xr, 2), p=(Xp, 2))
    return Xp @ Xr


def motion_cross(V) -> np.ndarray:
    """(V ×) for motion vectors, [w; v] order: [[w̃, 0], [ṽ, w̃]], shape (..., 6, 6).
    Standard spatial algebra (Featherstone's crm with the halves swapped; not printed in
    the document): motion_cross(V₁) V₂ = −motion_cross(V₂) V₁, and for a velocity
    transform X: motion_cross(X V) = X motion_cross(V) X⁻¹.

    "The document" is Jaramillo Botero (1998); the spatial cross product is that of
    Featherstone, *Rigid Body Dynamics Algorithms* (2008), §2.9, with the [angular; linear]
    order of (1.1).

    Parameters
    ----------
    V : array_like (6,) or (..., 6)
        A spatial velocity [w; v] (rad/s, m/s).

    Returns
    -------
    ndarray (6, 6) or (..., 6, 6)
        The matrix of V× acting on motion vectors (1/s in the diagonal blocks).

    Raises
    ------
    ValueError
        ``V`` not numeric, not of shape (..., 6) or not finite.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import motion_cross
    >>> V1 = np.array([0.1, 0.2, 0.3, 1.0, 0.0, 0.0])
    >>> V2 = np.array([0.0, -0.4, 0.5, 0.0, 2.0, 1.0])
    >>> bool(np.allclose(motion_cross(V1) @ V2, -motion_cross(V2) @ V1))
    True
    >>> bool(np.allclose(motion_cross(V1) @ V1, 0.0))
    True
    """
    V = _array(V, "V", (6,))
    w, v = skew(V[..., :3]), skew(V[..., 3:])
    X = np.zeros(V.shape[:-1] + (6, 6))
    X[..., :3, :3] = X[..., 3:, 3:] = w
    X[..., 3:, :3] = v
    return X


def force_cross(V) -> np.ndarray:
    """(V ×*) = −motion_cross(V)ᵀ = [[w̃, ṽ], [0, w̃]] for force vectors, (..., 6, 6).
    Duality: power(force_cross(V) F, M) = −power(F, motion_cross(V) M); for a moving
    force transform X(t) = rigid_transform(r(t), p(t)) with frame-2 velocity V₂ (frame-2
    coordinates, at point 2), Ẋ = X force_cross(V₂).

    The dual of :func:`motion_cross` (Featherstone, *Rigid Body Dynamics Algorithms* (2008),
    §2.9, in the [angular; linear] order of Jaramillo Botero (1998), eq. (1.1)).

    Parameters
    ----------
    V : array_like (6,) or (..., 6)
        A spatial velocity [w; v] (rad/s, m/s).

    Returns
    -------
    ndarray (6, 6) or (..., 6, 6)
        The matrix of V×* acting on force vectors [N; f].

    Raises
    ------
    ValueError
        ``V`` not numeric, not of shape (..., 6) or not finite.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import force_cross, motion_cross
    >>> V = np.array([0.1, 0.2, 0.3, 1.0, 0.0, -2.0])
    >>> bool(np.allclose(force_cross(V), -motion_cross(V).T))
    True
    """
    return -np.swapaxes(motion_cross(V), -1, -2)


# -------------------------------------------------------------------------- inertia
def parallel_axis(J_cm, m, s) -> np.ndarray:
    """``J_O = J_cm + m(|s|² 1 − s sᵀ) = J_cm − m s̃ s̃`` (1.25), corrected (1.26), (1.46);
    shape (..., 3, 3). s (..., 3) runs from O to the centre of mass. Entry-wise:
    Ixx_O = Ixx_cm + m(y² + z²) and Ixy_O = Ixy_cm + m x y for the positive product
    integrals of (1.10) (the tensor holds −Ixy; the printed (1.26) has a wrong minus).

    Jaramillo Botero (1998). ``J_cm`` is checked to be a rotational inertia: symmetric,
    positive semidefinite and with principal moments obeying the triangle inequality, all
    to ``INERTIA_TOL`` (1e-9) × ``max |J_cm|``.

    Parameters
    ----------
    J_cm : array_like (3, 3) or (..., 3, 3)
        Rotational inertia about the centre of mass, kg·m², in the coordinates of ``s``.
    m : float or array_like (...)
        Mass, kg, ≥ 0.
    s : array_like (3,) or (..., 3)
        Position of the centre of mass relative to O, m.

    Returns
    -------
    ndarray (3, 3) or (..., 3, 3)
        J_O, the rotational inertia about O, kg·m², same axes.

    Raises
    ------
    ValueError
        An argument not numeric, of the wrong shape or not finite; ``J_cm`` not symmetric,
        not positive semidefinite or breaking the triangle inequality; a negative ``m``;
        leading shapes that do not broadcast.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import parallel_axis
    >>> parallel_axis(np.zeros((3, 3)), 2.0, [1.0, 0.0, 0.0]).tolist()  # a point mass
    [[0.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 2.0]]
    """
    J, m, s = _inertia(J_cm, "J_cm"), _mass(m), _vec(s, "s")
    _lead(J_cm=(J, 2), m=(m, 0), s=(s, 1))
    ss = np.sum(s * s, axis=-1)[..., None, None]
    return J + m[..., None, None] * (ss * _I3 - s[..., :, None] * s[..., None, :])


def combined_body(m1, c1, J1, m2, c2, J2) -> tuple:
    """(m, c, J_c): one rigid body made of two, each given by its mass, centre of mass
    (3,) and rotational inertia about its centre of mass (3, 3) in the same axes: the
    total mass, the mass-weighted centre c and the inertia about c, J_c = Σ J_k +
    ``m_k(|d_k|² 1 − d_k d_kᵀ)`` with d_k = c_k − c ((1.25) for each body). A massless body
    (inertia alone, as a URDF may give) leaves the centre where the other's is. No check
    of the inertias: what is combined is what the caller validated.

    Jaramillo Botero (1998), (1.25). Single bodies only (no stacks). Where m2 = 0 or the
    total mass is 0, c is a copy of c1. The returned J_c is symmetrized, ½(J + Jᵀ).

    Parameters
    ----------
    m1, m2 : float
        Masses, kg (not checked to be ≥ 0).
    c1, c2 : array_like (3,)
        Centres of mass, m, in a common frame.
    J1, J2 : array_like (3, 3)
        Rotational inertias about c1 and c2, kg·m², in the axes of that frame.

    Returns
    -------
    tuple of (float, ndarray (3,), ndarray (3, 3))
        (m, c, J_c): total mass (kg), combined centre of mass (m) and rotational inertia
        about it (kg·m²), in the same frame.

    Raises
    ------
    TypeError
        A mass that is not a single number.
    ValueError
        Centres or inertias of incompatible shapes (numpy's message).

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import combined_body
    >>> J = 0.01 * np.eye(3)
    >>> m, c, Jc = combined_body(1.0, [0.0, 0.0, 0.0], J, 1.0, [1.0, 0.0, 0.0], J)
    >>> m, c.tolist(), np.round(np.diag(Jc), 6).tolist()
    (2.0, [0.5, 0.0, 0.0], [0.02, 0.52, 0.52])
    """
    c1, c2 = np.asarray(c1, dtype=float), np.asarray(c2, dtype=float)
    m = float(m1) + float(m2)
    c = (m1 * c1 + m2 * c2) / m if m2 != 0.0 and m != 0.0 else c1.copy()

    def about(mass, d):
        return mass * (d @ d * _I3 - np.outer(d, d))

    J = np.asarray(J1, dtype=float) + about(m1, c1 - c) + np.asarray(J2) + about(m2, c2 - c)
    return m, c, 0.5 * (J + J.T)


def spatial_inertia_com(m, J_cm) -> np.ndarray:
    """I_cm = diag(J_cm, m 1) (1.8), shape (..., 6, 6), about the centre of mass.

    Jaramillo Botero (1998), in the [angular; linear] order of (1.1): the momentum of a body
    moving with [w; v_cm] is I_cm [w; v_cm] = [J_cm w; m v_cm]. ``J_cm`` is checked as in
    :func:`parallel_axis`.

    Parameters
    ----------
    m : float or array_like (...)
        Mass, kg, ≥ 0.
    J_cm : array_like (3, 3) or (..., 3, 3)
        Rotational inertia about the centre of mass, kg·m².

    Returns
    -------
    ndarray (6, 6) or (..., 6, 6)
        The spatial inertia about the centre of mass (kg·m² upper-left, kg lower-right).

    Raises
    ------
    ValueError
        A negative ``m``; ``J_cm`` not symmetric, not positive semidefinite or breaking the
        triangle inequality; bad shapes or values; leading shapes that do not broadcast.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import spatial_inertia_com
    >>> np.diag(spatial_inertia_com(2.0, np.diag([0.1, 0.2, 0.3]))).tolist()
    [0.1, 0.2, 0.3, 2.0, 2.0, 2.0]
    """
    m, J = _mass(m), _inertia(J_cm, "J_cm")
    shape = _lead(m=(m, 0), J_cm=(J, 2))
    I = np.zeros(shape + (6, 6))
    I[..., :3, :3] = J
    I[..., 3:, 3:] = m[..., None, None] * _I3
    return I


def spatial_inertia(m, J_cm, s) -> np.ndarray:
    """I_O = Ŝ I_cm Ŝᵀ = [[J_cm − m s̃ s̃, m s̃], [−m s̃, m 1]] (1.45)–(1.46), (..., 6, 6),
    with Ŝ = P̂(s) and s (..., 3) from the reference point O to the centre of mass.

    Jaramillo Botero (1998). The momentum of a body moving with [w; v_O] (v_O the velocity
    of O) is I_O [w; v_O] = [J_O w + m s × v_O; m (v_O + w × s)], about O.

    Parameters
    ----------
    m : float or array_like (...)
        Mass, kg, ≥ 0.
    J_cm : array_like (3, 3) or (..., 3, 3)
        Rotational inertia about the centre of mass, kg·m², in the coordinates of ``s``
        (checked as in :func:`parallel_axis`).
    s : array_like (3,) or (..., 3)
        Position of the centre of mass relative to O, m.

    Returns
    -------
    ndarray (6, 6) or (..., 6, 6)
        I_O, symmetric positive semidefinite (kg·m², kg·m and kg blocks).

    Raises
    ------
    ValueError
        As :func:`parallel_axis`: bad shapes or values, a negative ``m``, an invalid
        ``J_cm``, leading shapes that do not broadcast.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import is_spatial_inertia, spatial_inertia
    >>> I = spatial_inertia(2.0, np.diag([0.1, 0.2, 0.3]), [0.0, 0.0, 0.5])
    >>> I.shape, is_spatial_inertia(I)
    ((6, 6), True)
    >>> np.round(I @ [1.0, 0.0, 0.0, 0.0, 0.0, 0.0], 6).tolist()  # spin about x at O
    [0.6, 0.0, 0.0, 0.0, -1.0, 0.0]
    """
    J_O = parallel_axis(J_cm, m, s)
    m, s = _mass(m), _vec(s, "s")
    ms = m[..., None, None] * skew(s)
    I = np.zeros(J_O.shape[:-2] + (6, 6))
    I[..., :3, :3] = J_O
    I[..., :3, 3:] = ms
    I[..., 3:, :3] = -ms
    I[..., 3:, 3:] = m[..., None, None] * _I3
    return I


def cuboid_inertia(m, a, b, c, about: str = "centroid") -> np.ndarray:
    """Inertia tensor (1.9) of a homogeneous cuboid, Example 1 (Figure 3): x ∈ [0, c],
    y ∈ [0, b], z ∈ [0, a], mass m; shape (..., 3, 3). ``about="corner"`` gives (1.19)
    (Ixx = m(a²+b²)/3, …, Ixy = m b c/4, Ixz = m a c/4, Iyz = m a b/4, stored as −Ixy, …),
    ``about="centroid"`` gives (1.24) = diag(m(a²+b²), m(a²+c²), m(b²+c²))/12.

    Jaramillo Botero (1998). Note the edge lengths: ``c`` along x, ``b`` along y and ``a``
    along z, as in the document's figure.

    Parameters
    ----------
    m : float or array_like (...)
        Mass, kg, ≥ 0.
    a, b, c : float or array_like (...)
        Edge lengths along z, y and x, m, ≥ 0; broadcast with ``m``.
    about : {"centroid", "corner"}
        The point the tensor is taken about: the centre of the cuboid or the corner at the
        origin (axes along the edges in both cases).

    Returns
    -------
    ndarray (3, 3) or (..., 3, 3)
        The rotational inertia, kg·m².

    Raises
    ------
    ValueError
        A negative, non-finite or non-numeric mass or length; ``about`` not "centroid" or
        "corner"; shapes that do not broadcast.

    Examples
    --------
    >>> from eslabon.spatial import cuboid_inertia
    >>> cuboid_inertia(6, 1, 2, 3, about="corner").tolist()
    [[10.0, -9.0, -4.5], [-9.0, 20.0, -3.0], [-4.5, -3.0, 26.0]]
    >>> cuboid_inertia(6, 1, 2, 3).tolist()
    [[2.5, 0.0, 0.0], [0.0, 5.0, 0.0], [0.0, 0.0, 6.5]]
    """
    m = _mass(m)
    a, b, c = (_nonneg(x, n, "a non-negative length") for x, n in ((a, "a"), (b, "b"), (c, "c")))
    if about not in ("centroid", "corner"):
        raise ValueError(f"about: expected 'centroid' or 'corner', got {about!r}")
    m, a, b, c = np.broadcast_arrays(m, a, b, c)
    k = 3.0 if about == "corner" else 12.0
    J = np.zeros(m.shape + (3, 3))
    J[..., 0, 0] = m * (a * a + b * b) / k  # (1.13)/(1.20)
    J[..., 1, 1] = m * (a * a + c * c) / k  # (1.14)/(1.21)
    J[..., 2, 2] = m * (b * b + c * c) / k  # (1.15)/(1.21)
    if about == "corner":
        J[..., 0, 1] = J[..., 1, 0] = -m * b * c / 4.0  # (1.16)
        J[..., 0, 2] = J[..., 2, 0] = -m * a * c / 4.0  # (1.17)
        J[..., 1, 2] = J[..., 2, 1] = -m * a * b / 4.0  # (1.18)
    return J


def is_spatial_inertia(I, tol: float = INERTIA_TOL):
    """True where I (..., 6, 6) is a rigid-body spatial inertia (1.45): symmetric, positive
    semidefinite, lower-right block m 1 (m ≥ 0), upper-right block skew (m s̃), and the
    centroidal J_cm = J_O + m s̃ s̃ obeys the triangle inequality; all to ``tol × max |I|``.
    A bool for a single I, a bool array for a stack. Wrong shape or NaN raises ValueError.

    Jaramillo Botero (1998), in the layout of :func:`spatial_inertia`. m is read as
    tr(lower-right block)/3; when m ≤ ``tol × max |I|`` the upper-left block is taken as J_cm.

    Parameters
    ----------
    I : array_like (6, 6) or (..., 6, 6)
        Candidate spatial inertia about some point ([angular; linear] order; kg·m², kg·m,
        kg blocks).
    tol : float
        Relative tolerance, multiplied by ``max |I|`` of each matrix (default ``INERTIA_TOL`` =
        1e-9).

    Returns
    -------
    bool or ndarray of bool (...)
        Whether each matrix passes all the checks.

    Raises
    ------
    ValueError
        ``I`` not numeric, not of shape (..., 6, 6), or with NaN or inf entries.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import is_spatial_inertia, spatial_inertia
    >>> I = spatial_inertia(1.0, 0.01 * np.eye(3), [0.1, 0.0, 0.0])
    >>> is_spatial_inertia(I), is_spatial_inertia(-I)
    (True, False)
    """
    I = _array(I, "I", (6, 6))
    t = tol * np.maximum(np.abs(I).max(axis=(-2, -1), initial=0.0), 1e-300)
    sym = np.abs(I - np.swapaxes(I, -1, -2)).max(axis=(-2, -1)) <= t
    eig = np.linalg.eigvalsh(0.5 * (I + np.swapaxes(I, -1, -2)))
    psd = eig[..., 0] >= -t
    m = np.trace(I[..., 3:, 3:], axis1=-2, axis2=-1) / 3.0
    mass = np.abs(I[..., 3:, 3:] - m[..., None, None] * _I3).max(axis=(-2, -1)) <= t
    C = I[..., :3, 3:]
    skew_ok = np.abs(C + np.swapaxes(C, -1, -2)).max(axis=(-2, -1)) <= t
    ms_t = 0.5 * (C - np.swapaxes(C, -1, -2))  # m s̃
    heavy = (m > t)[..., None, None]
    m_safe = np.where(heavy, m[..., None, None], 1.0)
    J_cm = I[..., :3, :3] + np.where(heavy, ms_t @ ms_t / m_safe, 0.0)
    lam = np.linalg.eigvalsh(0.5 * (J_cm + np.swapaxes(J_cm, -1, -2)))
    tri = lam[..., 2] <= lam[..., 0] + lam[..., 1] + t
    ok = sym & psd & mass & skew_ok & tri & (m >= -t)
    return bool(ok) if ok.ndim == 0 else ok


# ------------------------------------------------------------------------- dynamics
def gyroscopic_force(m, J_O, s, w) -> np.ndarray:
    """℘_O = [w̃ J_O w; m w̃ w̃ s] (1.53), shape (..., 6): the velocity-dependent spatial
    force about the body point O, with J_O the inertia about O, s (..., 3) from O to the
    centre of mass, w (..., 3) the angular velocity. Equal to (1.51)
    I_O Ŝ̇ᵀ V_O + Ŝ İ_cm Ŝᵀ V_O; the printed (1.52) −Ŝ̇ I_O V + İ_O V is wrong (its linear
    part is identically zero, so it is not (1.51) in general).

    Jaramillo Botero (1998). The top is w × J_O w (N·m), the bottom m w × (w × s) (N), the
    centripetal force of the centre of mass; it does not depend on the velocity of O. All
    vectors in one set of coordinates.

    Parameters
    ----------
    m : float or array_like (...)
        Mass, kg, ≥ 0.
    J_O : array_like (3, 3) or (..., 3, 3)
        Rotational inertia about O, kg·m² (checked as in :func:`parallel_axis`).
    s : array_like (3,) or (..., 3)
        Position of the centre of mass relative to O, m.
    w : array_like (3,) or (..., 3)
        Angular velocity of the body, rad/s.

    Returns
    -------
    ndarray (6,) or (..., 6)
        ℘_O = [moment about O (N·m); force (N)].

    Raises
    ------
    ValueError
        Bad shapes or values, a negative ``m``, an invalid ``J_O``, or leading shapes that
        do not broadcast.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import gyroscopic_force
    >>> F = gyroscopic_force(2.0, np.diag([0.1, 0.2, 0.3]), [1.0, 0.0, 0.0], [0.0, 0.0, 3.0])
    >>> np.round(F, 6).tolist()  # centripetal pull m w² = 18 N towards O
    [0.0, 0.0, 0.0, -18.0, 0.0, 0.0]
    """
    m, J, s, w = _mass(m), _inertia(J_O, "J_O"), _vec(s, "s"), _vec(w, "w")
    _lead(m=(m, 0), J_O=(J, 2), s=(s, 1), w=(w, 1))
    top = np.cross(w, (J @ w[..., None])[..., 0])
    bottom = m[..., None] * np.cross(w, np.cross(w, s))
    top, bottom = np.broadcast_arrays(top, bottom)
    return np.concatenate([top, bottom], axis=-1)


def body_force(m, J_cm, s, w, wd, vd_O) -> np.ndarray:
    """F_O = I_O V̇_O + ℘_O (1.54), shape (..., 6): the spatial force [N_O; f] about the
    body point O that produces the motion, with V̇_O = [ẇ; v̇_O], vd_O the classical
    acceleration of O, s from O to the centre of mass, I_O from (1.45), ℘_O from (1.53).
    Equals Newton–Euler at the centre of mass (f = m a_cm, N_cm = J_cm ẇ + w × J_cm w)
    moved to O by (1.27)/(1.30): N_O = N_cm + s × f.

    Jaramillo Botero (1998). The net external force on the body (gravity included if it
    acts); passing ``vd_O`` − g instead gives the force of everything but gravity (Luh's
    fictitious base acceleration). All vectors in one set of coordinates (e.g. body axes).

    Parameters
    ----------
    m : float or array_like (...)
        Mass, kg, ≥ 0.
    J_cm : array_like (3, 3) or (..., 3, 3)
        Rotational inertia about the centre of mass, kg·m² (checked as in
        :func:`parallel_axis`).
    s : array_like (3,) or (..., 3)
        Position of the centre of mass relative to O, m.
    w : array_like (3,) or (..., 3)
        Angular velocity, rad/s.
    wd : array_like (3,) or (..., 3)
        Angular acceleration ẇ, rad/s².
    vd_O : array_like (3,) or (..., 3)
        Classical (not spatial) linear acceleration of O, m/s².

    Returns
    -------
    ndarray (6,) or (..., 6)
        F_O = [moment about O (N·m); force (N)].

    Raises
    ------
    ValueError
        Bad shapes or values, a negative ``m``, an invalid ``J_cm``, or leading shapes that
        do not broadcast.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import body_force
    >>> J = np.diag([0.1, 0.2, 0.3])
    >>> F = body_force(2.0, J, [0.0, 0.0, 0.5], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [1.0, 0.0, 0.0])
    >>> np.round(F, 6).tolist()  # f = m a; its moment about O: s x f = (0, 1, 0) N·m
    [0.0, 1.0, 0.0, 2.0, 0.0, 0.0]
    """
    I_O = spatial_inertia(m, J_cm, s)
    J_O = I_O[..., :3, :3]
    wd, vd = _vec(wd, "wd"), _vec(vd_O, "vd_O")
    _lead(I=(I_O, 2), w=(_vec(w, "w"), 1), wd=(wd, 1), vd_O=(vd, 1))
    Vd = np.concatenate(np.broadcast_arrays(wd, vd), axis=-1)
    return (I_O @ Vd[..., None])[..., 0] + gyroscopic_force(m, J_O, s, w)


def power(F, V) -> np.ndarray:
    """Fᵀ V = N·w + f·v (1.1), shape (...): the power of F = [N; f] on V = [w; v]; it is
    invariant under the change of point, (P̂ F₂)ᵀ V₁ = F₂ᵀ (P̂ᵀ V₁).

    Jaramillo Botero (1998). F and V must refer to the same point and coordinates.

    Parameters
    ----------
    F : array_like (6,) or (..., 6)
        Spatial force [N; f] (N·m, N).
    V : array_like (6,) or (..., 6)
        Spatial velocity [w; v] (rad/s, m/s); leading axes broadcast with those of ``F``.

    Returns
    -------
    numpy float or ndarray (...)
        The power, W.

    Raises
    ------
    ValueError
        An argument not numeric, not of shape (..., 6) or not finite, or leading shapes that
        do not broadcast.

    Examples
    --------
    >>> from eslabon.spatial import power
    >>> float(power([0.0, 0.0, 2.0, 1.0, 0.0, 0.0], [0.0, 0.0, 3.0, 4.0, 0.0, 0.0]))
    10.0
    """
    F, V = _array(F, "F", (6,)), _array(V, "V", (6,))
    _lead(F=(F, 1), V=(V, 1))
    out = np.sum(F * V, axis=-1)
    return out[()] if out.ndim == 0 else out
