"""Joint-space trajectories between two configurations: quintic and trapezoidal.

What the Robotics Toolbox calls ``jtraj`` (quintic) and ``mtraj`` with a trapezoidal
profile: every joint moves from q₀ to q₁ over the same times, so the motion is a straight
line in joint space, ready as the reference of a controller
(:class:`eslabon.control.tracking.Nominal`), the torques of inverse dynamics or a sweep.

quintic
    q(s) = q₀ + (q₁ − q₀) σ(s), s = (t − t₀)/T, with q̇ and q̈ zero at both ends unless
    end rates are given: σ = 10s³ − 15s⁴ + 6s⁵ (the rest-to-rest quintic); with rates
    q̇₀, q̇₁ the quintic of each joint matches q, q̇ and q̈ = 0 at both ends.
trapezoidal
    constant acceleration, cruise at V = 1.5 (q₁ − q₀)/T, constant deceleration, every
    joint reaching q₁ at the same time (blend time t_b = T/3): the linear segment with
    parabolic blends. q̈ jumps at the blends.

>>> import numpy as np, eslabon as es
>>> traj = es.joint_trajectory([0.0, 0.0], [1.0, -0.5], np.linspace(0.0, 2.0, 5))
>>> traj.q[2].tolist(), traj.qd[0].tolist()
([0.5, -0.25], [0.0, 0.0])
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._deprecation import renamed_keywords
from ..model.validate import as_float_array

PROFILES = ("quintic", "trapezoidal")  # the interpolation laws


class JointTrajectory(NamedTuple):
    """Samples of a joint-space motion: ``t`` (T,) [s]; ``q``, ``qd``, ``qdd`` (T, n).

    What :func:`joint_trajectory` returns. A named tuple: it unpacks as
    ``t, q, qd, qdd``, e.g. into :class:`eslabon.control.tracking.Nominal` (``Nominal(*traj)``)
    or into :func:`eslabon.inverse_dynamics` (``es.inverse_dynamics(model, q, qd, qdd)``).

    Attributes
    ----------
    t : ndarray
        Shape (T,): sample times [s], as given to :func:`joint_trajectory`.
    q : ndarray
        Shape (T, n): joint positions: rad (revolute), m (prismatic).
    qd : ndarray
        Shape (T, n): joint rates: rad/s, m/s.
    qdd : ndarray
        Shape (T, n): joint accelerations: rad/s², m/s².

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> t, q, qd, qdd = es.joint_trajectory([0.0, 0.0], [1.0, -0.5], np.linspace(0, 2, 5))
    >>> t.shape, q.shape, qdd.shape
    ((5,), (5, 2), (5, 2))
    """

    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray


@renamed_keywords(method="profile")
def joint_trajectory(q0, q1, t, *, profile: str = "quintic", qd0=None, qd1=None):
    """A straight-line joint motion from ``q0`` to ``q1`` sampled at ``t``.

    Every joint follows the same time law over T = ``t[-1] − t[0]``, so the motion is a
    straight line in joint space (the Robotics Toolbox's ``jtraj`` and ``mtraj``), with
    s = (t − t[0])/T:

    - ``"quintic"``: q = q₀ + (q₁ − q₀)(10s³ − 15s⁴ + 6s⁵), at rest with q̈ = 0 at both
      ends; with ``qd0``, ``qd1`` each joint's quintic instead matches q, q̇ and q̈ = 0
      at both ends (it may then overshoot q₁).
    - ``"trapezoidal"``: constant acceleration 4.5 (q₁ − q₀)/T² for T/3, cruise at
      1.5 (q₁ − q₀)/T, constant deceleration for the last T/3 (the linear segment with
      parabolic blends); q̈ jumps at the blends and at both ends.

    Parameters
    ----------
    q0, q1 : array_like (n,) or float
        Start and goal configurations: rad (revolute), m (prismatic); a number is one
        joint. For a model with quaternion joints interpolate in the tangent space instead
        (:func:`eslabon.difference`, :func:`eslabon.integrate`).
    t : array_like (T,)
        Strictly increasing sample times [s], at least two; the motion runs from ``t[0]``
        to ``t[-1]``. They need not be evenly spaced.
    profile : {"quintic", "trapezoidal"}
        The time law (above).
    qd0, qd1 : array_like (n,), optional
        Start and end rates [rad/s, m/s] (quintic only; zero by default).

    Returns
    -------
    JointTrajectory
        ``t`` (T,) [s], ``q`` (T, n) [rad, m], ``qd`` (T, n) [rad/s, m/s] and ``qdd``
        (T, n) [rad/s², m/s²].

    Raises
    ------
    ValueError
        Naming the argument: ``q1``, ``qd0`` or ``qd1`` of another length than ``q0``,
        non-finite values, fewer than two times or times that do not increase, an unknown
        ``profile``, end rates with the trapezoidal law.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> traj = es.joint_trajectory([0.0, 0.0], [1.0, -0.5], np.linspace(0.0, 2.0, 5))
    >>> traj.q[2].tolist(), traj.qd[0].tolist()
    ([0.5, -0.25], [0.0, 0.0])
    >>> trap = es.joint_trajectory(0.0, 1.0, [0.0, 1.0, 2.0, 3.0], profile="trapezoidal")
    >>> trap.qd[:, 0].tolist()
    [0.0, 0.5, 0.5, 0.0]
    """
    if profile not in PROFILES:
        raise ValueError(f"profile: expected one of {PROFILES}, got {profile!r}")
    q0 = [q0] if np.ndim(q0) == 0 else q0  # one joint
    a = as_float_array(q0, (max(np.size(q0), 1),), "q0", "a configuration (n,)")
    q1 = [q1] if np.ndim(q1) == 0 else q1
    b = as_float_array(q1, a.shape, "q1", f"numbers of shape {a.shape} (as q0)")
    times = as_float_array(t, (np.size(t),), "t", "sample times (T,)")
    if times.size < 2 or np.ndim(t) != 1 or not np.all(np.diff(times) > 0):
        raise ValueError(
            "t: expected at least two increasing sample times, e.g. np.linspace(0, 2, 201)"
        )
    T = times[-1] - times[0]
    s = ((times - times[0]) / T)[:, None]
    d = b - a
    if profile == "trapezoidal":
        if qd0 is not None or qd1 is not None:
            raise ValueError(
                "qd0, qd1: end rates are for profile='quintic'; the trapezoidal law starts "
                "and ends at rest"
            )
        return JointTrajectory(times, *_trapezoidal(a, d, s, T))
    v0 = np.zeros_like(a) if qd0 is None else as_float_array(qd0, a.shape, "qd0")
    v1 = np.zeros_like(a) if qd1 is None else as_float_array(qd1, a.shape, "qd1")
    return JointTrajectory(times, *_quintic(a, b, v0 * T, v1 * T, s, T))


def _quintic(a, b, v0, v1, s, T):
    """q(s) = Σ c_k s^k with q, q' (per unit s) and q'' = 0 at s = 0, 1."""
    c3 = 10 * (b - a) - 6 * v0 - 4 * v1
    c4 = -15 * (b - a) + 8 * v0 + 7 * v1
    c5 = 6 * (b - a) - 3 * v0 - 3 * v1
    q = a + v0 * s + c3 * s**3 + c4 * s**4 + c5 * s**5
    qd = (v0 + 3 * c3 * s**2 + 4 * c4 * s**3 + 5 * c5 * s**4) / T
    qdd = (6 * c3 * s + 12 * c4 * s**2 + 20 * c5 * s**3) / T**2
    return q, qd, qdd


def _trapezoidal(a, d, s, T):
    """Blends of a third of the time each: peak rate 1.5 d/T, acceleration 4.5 d/T²."""
    acc = 4.5 * d / T**2
    tau = s * T
    tb = T / 3.0
    rise, cruise = tau < tb, (tau >= tb) & (tau <= T - tb)
    fall = ~(rise | cruise)
    left = T - tau
    q = np.where(rise, a + 0.5 * acc * tau**2, 0.0)
    q = np.where(cruise, a + 0.5 * acc * tb**2 + 1.5 * d / T * (tau - tb), q)
    q = np.where(fall, a + d - 0.5 * acc * left**2, q)
    qd = np.where(rise, acc * tau, np.where(cruise, 1.5 * d / T, acc * left))
    qdd = np.where(rise, acc, np.where(cruise, 0.0, -acc))
    return q, qd, qdd * np.ones_like(q)
