"""Time-varying LQR along a linearized trajectory (backward Riccati differential equation).

For δẋ = A(t)δx + B(t)δu on [t₀, T], minimizing δx(T)ᵀQ_f δx(T) + ∫ δxᵀQδx + δuᵀRδu
gives δu = −K(t)δx with K = R⁻¹BᵀP and

    −Ṗ = AᵀP + PA − PBR⁻¹BᵀP + Q,     P(T) = Q_f

integrated backwards by scipy's ``solve_ivp`` (DOP853) with A(t), B(t) interpolated
linearly between the samples of a :class:`~eslabon.control.Linearization` with sample times ``t``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.integrate import solve_ivp

from .design import _weights


class TVLQR(NamedTuple):
    """Gains K (T, m, n) and Riccati solutions P (T, n, n) at the sample times t (T,).

    What :func:`tvlqr` returns (a named tuple). For a robot's linearization the state has
    n = 2 × joints entries (δx = [δq; δq̇]) and the input m = joints (u = δτ); the
    feedback is δτ(t) = −K(t) δx, e.g. through :func:`gain_schedule_law`.

    Attributes
    ----------
    t : ndarray ``(T,)``
        The sample times (s), those of the linearization.
    K : ndarray ``(T, m, n)``
        The gains K(t) = R⁻¹B(t)ᵀP(t) (N·m/rad and N·m·s/rad for revolute joints).
    P : ndarray ``(T, n, n)``
        The solution of the Riccati differential equation, P(t_T) = Q_f.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> traj = es.joint_trajectory([0.0, 0.0], [1.0, -0.5], np.linspace(0.0, 1.0, 11))
    >>> gains = es.control.tvlqr(es.control.linearize_along(arm, traj), np.eye(4), np.eye(2))
    >>> gains.t.shape, gains.K.shape, gains.P.shape
    ((11,), (11, 2, 4), (11, 4, 4))
    """

    t: np.ndarray
    K: np.ndarray
    P: np.ndarray


def tvlqr(lin, Q, R, Qf=None, *, rtol: float = 1e-10, atol: float = 1e-10) -> TVLQR:
    """Time-varying LQR gains at the samples of ``lin`` (from :func:`linearize_along`).

    Integrates −Ṗ = AᵀP + PA − PBR⁻¹BᵀP + Q backwards from P(t_T) = Q_f with scipy's
    ``solve_ivp`` (DOP853, Ṗ symmetrized at every evaluation), A(t) and B(t) linear
    between the samples, and returns P and K = R⁻¹BᵀP at the sample times. The gains
    minimize δx(t_T)ᵀQ_f δx(t_T) + ∫ δxᵀQδx + δuᵀRδu dt over the horizon of ``lin``.

    Parameters
    ----------
    lin : Linearization
        Along a trajectory (:func:`linearize_along`): ``t`` (T,) increasing, T ≥ 2,
        ``A`` (T, n, n), ``B`` (T, n, m).
    Q : array_like (n, n)
        Symmetric positive-semidefinite state weight.
    R : float or array_like (m,) or (m, m)
        Symmetric positive-definite input weight (see :func:`spd_matrix`).
    Qf : array_like (n, n), optional
        Symmetric positive-semidefinite final weight; zero by default.
    rtol, atol : float
        The integrator's tolerances.

    Returns
    -------
    TVLQR
        ``t`` (T,) (s), ``K`` (T, m, n) and ``P`` (T, n, n) at the samples.

    Raises
    ------
    ValueError
        ``lin`` without sample times (from :func:`linearize`), with fewer than two or
        not increasing; weights (``Q``, ``R``, ``Qf``) of the wrong shape or
        definiteness; an integration that fails.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> traj = es.joint_trajectory([0.0, 0.0], [1.0, -0.5], np.linspace(0.0, 1.0, 11))
    >>> lin = es.control.linearize_along(arm, traj)
    >>> gains = es.control.tvlqr(lin, np.eye(4), 1.0)
    >>> gains.K.shape, bool(np.allclose(gains.K[-1], 0.0))  # Q_f = 0: no gain at the end
    ((11, 2, 4), True)
    """
    if lin.t is None:
        raise ValueError("lin: expected a linearization along a trajectory (linearize_along)")
    t = np.asarray(lin.t, dtype=float)
    if t.ndim != 1 or len(t) < 2 or not np.all(np.diff(t) > 0):
        raise ValueError("lin: expected at least two samples at increasing times")
    A, B = np.asarray(lin.A), np.asarray(lin.B)
    n, m = B.shape[-2:]
    Q, R = _weights(Q, R, n, m)
    Qf = np.zeros((n, n)) if Qf is None else _weights(Qf, R, n, m, "Qf")[0]
    R_inv = np.linalg.inv(R)

    def at(tt):
        k = int(np.clip(np.searchsorted(t, tt) - 1, 0, len(t) - 2))
        w = (tt - t[k]) / (t[k + 1] - t[k])
        return (1 - w) * A[k] + w * A[k + 1], (1 - w) * B[k] + w * B[k + 1]

    def rhs(tt, p):
        P = p.reshape(n, n)
        Ak, Bk = at(tt)
        dP = -(Ak.T @ P + P @ Ak - P @ Bk @ R_inv @ Bk.T @ P + Q)
        return (0.5 * (dP + dP.T)).ravel()

    sol = solve_ivp(
        rhs, (t[-1], t[0]), Qf.ravel(), method="DOP853", t_eval=t[::-1], rtol=rtol, atol=atol
    )
    if not sol.success:
        raise ValueError(f"lin: the Riccati equation could not be integrated ({sol.message})")
    P = sol.y.T[::-1].reshape(len(t), n, n)
    K = R_inv @ np.swapaxes(B, -1, -2) @ P
    return TVLQR(t, K, P)
