"""Excitation trajectories: a finite Fourier series per joint, with exact derivatives.

Swevers, Ganseman, Tükel, De Schutter & Van Brussel 1997, "Optimal robot excitation and
identification", IEEE Trans. Robotics and Automation 13(5), eq. 10: joint i follows

    q_i(t)  = q_i0 + Σ_{l=1}^{L} ( a_il / (ω_f l) sin(ω_f l t) − b_il / (ω_f l) cos(ω_f l t) )
    q̇_i(t)  = Σ_l ( a_il cos(ω_f l t) + b_il sin(ω_f l t) )
    q̈_i(t)  = Σ_l ω_f l ( −a_il sin(ω_f l t) + b_il cos(ω_f l t) )

periodic with period 2π / ω_f, so measurements can be averaged over periods and the
spectrum of the excitation is known. Each term's amplitude bounds the motion:

    |q_i − q_i0| ≤ Σ_l sqrt(a_il² + b_il²) / (ω_f l),  |q̇_i| ≤ Σ_l sqrt(a_il² + b_il²),
    |q̈_i| ≤ Σ_l ω_f l sqrt(a_il² + b_il²),

which :func:`random_excitation` uses to stay within the limits it is given.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class FourierExcitation:
    """A finite Fourier series per joint (module docstring).

    Attributes
    ----------
    frequency : float
        The base angular frequency ω_f [rad/s]; the period is 2π / ω_f.
    q0 : ndarray ``(n,)``
        The offset of each joint.
    a, b : ndarray ``(n, L)``
        The sine and cosine coefficients of q̇ [rad/s or m/s], L harmonics.
    """

    frequency: float
    q0: np.ndarray
    a: np.ndarray
    b: np.ndarray

    @property
    def period(self) -> float:
        """2π / ω_f [s]."""
        return 2.0 * np.pi / self.frequency

    def bounds(self):
        """Upper bounds on the motion, from the amplitudes (module docstring).

        Returns
        -------
        q_bound, qd_bound, qdd_bound : ndarray ``(n,)``
            Bounds on abs(q − q0), abs(q̇) and abs(q̈) of each joint.
        """
        w = self.frequency * np.arange(1, self.a.shape[1] + 1)
        size = np.hypot(self.a, self.b)
        return (size / w).sum(axis=1), size.sum(axis=1), (size * w).sum(axis=1)

    def sample(self, t):
        """q, q̇, q̈ at times ``t``.

        Parameters
        ----------
        t : array_like ``(N,)``
            Times [s].

        Returns
        -------
        q, qd, qdd : ndarray ``(N, n)``
            Position, rate and acceleration of each joint (module docstring).

        Examples
        --------
        >>> import numpy as np
        >>> from eslabon.identification import FourierExcitation
        >>> e = FourierExcitation(1.0, np.zeros(1), np.array([[1.0]]), np.array([[0.0]]))
        >>> q, qd, qdd = e.sample([0.0, np.pi / 2])
        >>> np.round(q[:, 0], 12).tolist(), np.round(qd[:, 0], 12).tolist()
        ([0.0, 1.0], [1.0, 0.0])
        """
        t = np.asarray(t, dtype=float).reshape(-1)
        w = self.frequency * np.arange(1, self.a.shape[1] + 1)
        s, c = np.sin(t[:, None] * w), np.cos(t[:, None] * w)
        q = self.q0 + s @ (self.a / w).T - c @ (self.b / w).T
        qd = c @ self.a.T + s @ self.b.T
        qdd = -s @ (self.a * w).T + c @ (self.b * w).T
        return q, qd, qdd


def random_excitation(
    q_center, q_range, qd_max, *, frequency: float, harmonics: int = 5, seed: int = 0
):
    """A random Fourier excitation scaled to stay within position and rate limits.

    Parameters
    ----------
    q_center : array_like ``(n,)``
        The middle of each joint's range (q0).
    q_range : array_like ``(n,)``
        The largest allowed abs(q − q_center) of each joint (> 0).
    qd_max : array_like ``(n,)``
        The largest allowed abs(q̇) of each joint (> 0).
    frequency : float
        ω_f [rad/s] (> 0).
    harmonics : int
        L, the number of harmonics (≥ 1).
    seed : int
        Seed of the standard-normal coefficients.

    Returns
    -------
    FourierExcitation
        Coefficients drawn standard normal, then each joint scaled by one factor so that
        the bounds of :meth:`FourierExcitation.bounds` meet the tighter of its two limits.

    Raises
    ------
    ValueError
        Limits not positive and finite, shapes that differ, a frequency or harmonics out
        of range.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.identification import random_excitation
    >>> e = random_excitation([0.0, 0.5], [1.0, 1.0], [2.0, 2.0], frequency=0.5)
    >>> q, qd, _ = e.sample(np.linspace(0.0, e.period, 500))
    >>> bool(np.all(np.abs(q - [0.0, 0.5]) <= 1.0)), bool(np.all(np.abs(qd) <= 2.0))
    (True, True)
    """
    center = np.asarray(q_center, dtype=float).reshape(-1)
    n = center.size
    rng_ = np.asarray(q_range, dtype=float)
    vel = np.asarray(qd_max, dtype=float)
    for name, value in (("q_range", rng_), ("qd_max", vel)):
        if value.shape != (n,) or not np.all(np.isfinite(value)) or np.any(value <= 0.0):
            raise ValueError(f"{name}: expected {n} positive finite values, got {value.tolist()}")
    if not np.all(np.isfinite(center)):
        raise ValueError(f"q_center: not finite: {center.tolist()}")
    if not (np.isfinite(frequency) and frequency > 0.0):
        raise ValueError(f"frequency: expected a positive ω_f in rad/s, got {frequency}")
    if int(harmonics) < 1:
        raise ValueError(f"harmonics: expected at least 1, got {harmonics}")
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((n, int(harmonics)))
    b = rng.standard_normal((n, int(harmonics)))
    unit = FourierExcitation(float(frequency), center, a, b)
    q_bound, qd_bound, _ = unit.bounds()
    scale = np.minimum(rng_ / q_bound, vel / qd_bound)[:, None]
    return FourierExcitation(float(frequency), center, a * scale, b * scale)
