"""Frenet–Serret orientation synthesis (seed 000, Rojas 1987, §3.6).

The end effector's axes (i, j, k) are made to coincide with the tangent, normal and
binormal of its path p(γ), ′ = d/dγ:

    e_t = p′/‖p′‖,  e_b = (p′ × p″)/‖p′ × p″‖,  e_n = e_b × e_t       (3.6.1–3)
    R = [e_t, e_n, e_b]  (columns)
    s′ = ds/dγ = ‖p′‖,   s″ = (p′·p″)/‖p′‖ = e_t·p″                    (3.6.9, 3.6.14)
    κ = ‖p′ × p″‖/‖p′‖³,  τ = p′·(p″ × p‴)/‖p′ × p″‖²                   (3.6.17)
    δ = τ e_t + κ e_b  (Darboux vector)                                 (3.6.7)

The derivatives of κ and τ with respect to γ (the thesis's κ′(γ), τ′(γ)) are

    κ′(γ) = [e_n·p‴ − 3(p′·p″)κ]/(p′·p′)                                (3.6.15)
    τ′(γ) = p′·(p″ × p⁗)/[(p′·p′)³κ²] − 6τ(p′·p″)/(p′·p′) − 2κ′τ/κ      (3.6.18, corrected)

The printed (3.6.18) lacks the τ in the middle term and has p‴ where p⁗ belongs; the
version above follows from differentiating (3.6.16), p′·(p″ × p‴) = s′⁶κ²τ. The
:class:`FrenetFrame` reports the arclength rates dκ/ds = κ′(γ)/s′ and dτ/ds = τ′(γ)/s′.

With γ = γ(t), ṡ = s′γ̇ and s̈ = s″γ̇² + s′γ̈:

    ω = ‖p′‖ γ̇ δ = ṡ δ                                                  (3.6.25)
    ω̇ = (e_t·p″ γ̇² + ‖p′‖ γ̈) δ + ‖p′‖ γ̇² (τ′(γ) e_t + κ′(γ) e_b)       (3.6.26, corrected)

(the thesis prints ‖p′‖γ̇ for ‖p′‖γ̈ in (3.6.26)). The frame does not exist where
p′ × p″ = 0 (a straight stretch, an inflection point, or p′ = 0): there a ValueError
names the γ value instead of returning NaN.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .paths import Path, _params

__all__ = ["FrenetFrame", "FrenetMotion", "frenet_frame", "frenet_motion", "RTOL"]

#: the frame is declared undefined where ‖p′×p″‖ ≤ RTOL·‖p′‖·(‖p′‖ + ‖p″‖ + ‖p‴‖)
RTOL = 1e-9


class FrenetFrame(NamedTuple):
    """The Frenet–Serret quantities at γ (shape (...) of γ).

    R (..., 3, 3) = [e_t, e_n, e_b] as columns; kappa, tau (...); kappa_dot = dκ/ds and
    tau_dot = dτ/ds (..., rates along arclength, NOT time); darboux (..., 3) = τe_t + κe_b;
    speed (...) = ‖p′‖ = ds/dγ.

    What :func:`frenet_frame` returns (Rojas Salgado (1987), §3.6, eqs 3.6.1–3.6.18). The
    vectors are in the frame of the path's points (the base frame in a
    :class:`~eslabon.trajectory.Task`); lengths in m.

    Attributes
    ----------
    R : ndarray (..., 3, 3)
        The rotation whose columns are the tangent e_t, normal e_n and binormal e_b
        (proper: det R = +1).
    kappa : ndarray (...)
        Curvature κ = ‖p′ × p″‖/‖p′‖³ [1/m], > 0.
    tau : ndarray (...)
        Torsion τ = p′·(p″ × p‴)/‖p′ × p″‖² [1/m].
    kappa_dot : ndarray (...)
        dκ/ds, the rate of the curvature along the arclength s [1/m²] (not a time rate).
    tau_dot : ndarray (...)
        dτ/ds [1/m²] (eq 3.6.18 corrected).
    darboux : ndarray (..., 3)
        The Darboux vector δ = τ e_t + κ e_b [1/m] (3.6.7): the frame's angular velocity
        per unit arclength.
    speed : ndarray (...)
        ‖p′‖ = ds/dγ [m per unit of γ].

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import trajectory as tr
    >>> frame = tr.frenet_frame(tr.helix(1.0, 2 * np.pi), [0.0, 0.3])
    >>> frame.R.shape, frame.kappa.shape, frame.darboux.shape
    ((2, 3, 3), (2,), (2, 3))
    """

    R: np.ndarray
    kappa: np.ndarray
    tau: np.ndarray
    kappa_dot: np.ndarray
    tau_dot: np.ndarray
    darboux: np.ndarray
    speed: np.ndarray


class FrenetMotion(NamedTuple):
    """Orientation R (..., 3, 3), angular velocity ω and acceleration ω̇ (..., 3).

    What :func:`frenet_motion` returns: the end effector's orientation and its rates when
    its axes follow the Frenet–Serret frame of the path as γ(t) sweeps it (Rojas Salgado
    (1987), §3.6, eqs 3.6.25–3.6.26). Vectors are in the frame of the path's points (the
    base frame in a :class:`~eslabon.trajectory.Task`).

    Attributes
    ----------
    R : ndarray (..., 3, 3)
        [e_t, e_n, e_b] as columns.
    omega : ndarray (..., 3)
        Angular velocity ω = ‖p′‖ γ̇ δ [rad/s].
    omega_dot : ndarray (..., 3)
        Angular acceleration ω̇ [rad/s²] (3.6.26, corrected).

    Examples
    --------
    >>> from eslabon import trajectory as tr
    >>> R, omega, omega_dot = tr.frenet_motion(tr.circle(radius=2.0), 1.0, 2.0, 0.5)
    >>> R.shape, omega.shape, omega_dot.shape
    ((3, 3), (3,), (3,))
    """

    R: np.ndarray
    omega: np.ndarray
    omega_dot: np.ndarray


def _dot(a, b):
    return np.einsum("...i,...i->...", a, b)


def _frame(d: np.ndarray, gamma: np.ndarray, rtol: float, field: str):
    """Frame from derivatives d = [p, p′, p″, p‴, p⁗] (5, ..., 3).

    Returns (FrenetFrame, dκ/dγ, dτ/dγ, s″).
    """
    p1, p2, p3, p4 = d[1], d[2], d[3], d[4]
    sp = np.linalg.norm(p1, axis=-1)
    c = np.cross(p1, p2)
    cn = np.linalg.norm(c, axis=-1)
    scale = sp * (sp + np.linalg.norm(p2, axis=-1) + np.linalg.norm(p3, axis=-1))
    bad = ~(cn > rtol * scale) | ~(sp > 0)
    if np.any(bad):
        g = gamma[tuple(np.argwhere(bad)[0])] if gamma.ndim else gamma
        why = "p′ = 0" if not sp[bad].flat[0] > 0 else "curvature ≈ 0: p′ × p″ vanishes"
        raise ValueError(
            f"{field}: the Frenet frame is undefined at gamma = {float(g):.17g} "
            f"({why}; a straight stretch or an inflection point); use a "
            f"fixed orientation there"
        )
    et = p1 / sp[..., None]
    eb = c / cn[..., None]
    en = np.cross(eb, et)
    pp = sp**2
    p12 = _dot(p1, p2)
    kappa = cn / sp**3  # κ
    tau = _dot(p1, np.cross(p2, p3)) / cn**2  # (3.6.17)
    kappa_g = (_dot(en, p3) - 3 * p12 * kappa) / pp  # (3.6.15)
    tau_g = (
        _dot(p1, np.cross(p2, p4)) / cn**2  # (3.6.18) corrected;
        - 6 * tau * p12 / pp
        - 2 * kappa_g * tau / kappa
    )  # (p′·p′)³κ² = ‖p′×p″‖²
    R = np.stack([et, en, eb], axis=-1)
    darboux = tau[..., None] * et + kappa[..., None] * eb  # (3.6.7)
    frame = FrenetFrame(R, kappa, tau, kappa_g / sp, tau_g / sp, darboux, sp)
    return frame, kappa_g, tau_g, p12 / sp


def _rtol(rtol):
    r = float(rtol)
    if not (np.isfinite(r) and r >= 0):
        raise ValueError(f"rtol: expected a finite number ≥ 0, got {rtol!r}")
    return r


def _derivs(path, g):
    if not isinstance(path, Path):
        raise ValueError(f"path: expected an eslabon.trajectory Path, got {type(path).__name__}")
    if path.order < 4:
        raise ValueError(
            f"path: the Frenet synthesis needs p′ … p⁗ (τ′ uses p⁗); "
            f"{path.name!r} has derivatives up to order {path.order}"
        )
    return path.derivatives(g, order=4)


def frenet_frame(path: Path, gamma, rtol: float = RTOL) -> FrenetFrame:
    """Frenet–Serret frame, κ, τ, dκ/ds, dτ/ds, Darboux vector and ‖p′‖ at γ (any shape).

    Rojas Salgado (1987), §3.6: e_t = p′/‖p′‖, e_b = p′ × p″/‖p′ × p″‖, e_n = e_b × e_t
    (3.6.1–3), κ and τ (3.6.17), κ′ (3.6.15) and τ′ (3.6.18, corrected: the printed
    equation lacks the τ of the middle term and has p‴ where p⁗ belongs), reported as
    rates along the arclength. Raises ValueError (naming the γ) where the frame is
    undefined, i.e. where ‖p′ × p″‖ ≤ rtol·‖p′‖·(‖p′‖ + ‖p″‖ + ‖p‴‖); never returns NaN.

    Parameters
    ----------
    path : Path
        A path with analytic derivatives up to p⁗ (``path.order`` = 4); its points [m]
        in any frame, which the frame's vectors are then expressed in.
    gamma : float or array_like (...)
        Path parameter values (the path's units, e.g. rad for a circle).
    rtol : float
        The relative threshold, ≥ 0, below which the frame counts as undefined.

    Returns
    -------
    FrenetFrame
        R (..., 3, 3), κ, τ [1/m], dκ/ds, dτ/ds [1/m²] (...), δ (..., 3) [1/m] and
        ‖p′‖ (...) [m per unit of γ].

    Raises
    ------
    ValueError
        ``path`` not a :class:`Path` or with derivatives to order < 4; ``gamma`` not
        finite; ``rtol`` negative or not finite; the frame undefined at some γ (p′ = 0
        or p′ × p″ ≈ 0: a straight stretch or an inflection point), naming that γ.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import trajectory as tr
    >>> frame = tr.frenet_frame(tr.helix(radius=1.0, pitch=2 * np.pi), 0.3)
    >>> round(float(frame.kappa), 6), round(float(frame.tau), 6), round(float(frame.speed), 6)
    (0.5, 0.5, 1.414214)
    >>> bool(np.allclose(frame.R.T @ frame.R, np.eye(3)))
    True
    """
    g = _params(gamma)
    return _frame(_derivs(path, g), g, _rtol(rtol), "path")[0]


def frenet_motion(path: Path, gamma, gamma_dot, gamma_ddot, rtol: float = RTOL) -> FrenetMotion:
    """R = [e_t, e_n, e_b], ω (3.6.25) and ω̇ (3.6.26, corrected) for γ(t), γ̇, γ̈.

    gamma, gamma_dot, gamma_ddot broadcast together to a shape (...); the results are
    (..., 3, 3), (..., 3), (..., 3). With ṡ = ‖p′‖γ̇ and s̈ = (e_t·p″)γ̇² + ‖p′‖γ̈
    (Rojas Salgado (1987), §3.6):

        ω = ṡ δ,   ω̇ = s̈ δ + ‖p′‖ γ̇² (τ′(γ) e_t + κ′(γ) e_b)

    (the thesis prints ‖p′‖γ̇ for ‖p′‖γ̈ in (3.6.26), and swaps κ′ and τ′ in the line
    before it).

    Parameters
    ----------
    path : Path
        A path with analytic derivatives up to p⁗; its points [m] in the frame the
        results are expressed in (the base frame for a task).
    gamma : float or array_like (...)
        Path parameter γ (the path's units).
    gamma_dot : float or array_like (...)
        γ̇ [units of γ per s].
    gamma_ddot : float or array_like (...)
        γ̈ [units of γ per s²].
    rtol : float
        The relative threshold, ≥ 0, below which the frame counts as undefined
        (:func:`frenet_frame`).

    Returns
    -------
    FrenetMotion
        R (..., 3, 3), ω (..., 3) [rad/s] and ω̇ (..., 3) [rad/s²].

    Raises
    ------
    ValueError
        As :func:`frenet_frame`: a bad ``path`` or ``rtol``, non-finite γ, γ̇ or γ̈
        (naming it), a frame undefined at some γ; also shapes that do not broadcast.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import trajectory as tr
    >>> motion = tr.frenet_motion(tr.circle(radius=2.0), [0.0, 1.0], 2.0, 0.5)
    >>> bool(np.allclose(motion.omega, [0.0, 0.0, 2.0]))  # ω = γ̇ about the normal z
    True
    >>> bool(np.allclose(motion.omega_dot, [0.0, 0.0, 0.5]))
    True
    """
    g, gd, gdd = np.broadcast_arrays(_params(gamma), _params(gamma_dot), _params(gamma_ddot))
    return _motion(_derivs(path, g), g, gd, gdd, _rtol(rtol), "path")


def _motion(d, g, gd, gdd, rtol, field) -> FrenetMotion:
    frame, kappa_g, tau_g, s2 = _frame(d, g, rtol, field)
    et, eb = frame.R[..., 0], frame.R[..., 2]
    sp = frame.speed
    omega = (sp * gd)[..., None] * frame.darboux  # (3.6.25)
    s_ddot = s2 * gd**2 + sp * gdd  # e_t·p″γ̇² + ‖p′‖γ̈
    omega_dot = (
        s_ddot[..., None] * frame.darboux  # (3.6.26)
        + (sp * gd**2)[..., None] * (tau_g[..., None] * et + kappa_g[..., None] * eb)
    )
    return FrenetMotion(frame.R, omega, omega_dot)
