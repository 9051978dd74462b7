"""Trajectory tracking: a nominal motion, control laws as pure functions of (t, q, q̇),
and closed-loop simulation on the nonlinear robot (seed 000 §5.6).

A control law is any callable ``law(t, q, qd) -> tau`` (what :func:`eslabon.simulate`
takes). The laws here:

* :func:`model_assignment_law` — the thesis's: τ = τ_nom(t) − K_p(t)δθ − K_d(t)δθ̇ with
  (5.6.7–8) evaluated at the nominal state at t (exact at any t, no gain table);
* :func:`gain_schedule_law` — τ_nom(t) − K(t)[δθ; δθ̇] with K interpolated from samples
  (e.g. time-varying LQR);
* :func:`computed_torque_law` — τ = M(q)(q̈_d + K_d ė + K_p e) + b(q, q̇);
* :func:`pd_gravity_law` — τ = K_p (q_d − q) − K_d q̇ + g(q), for regulation.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.interpolate import BPoly

from .._args import finite_number
from ..dynamics import bias_forces, gravity_torques, inverse_dynamics, mass_matrix
from ..sim import simulate
from .design import model_assignment, spd_matrix
from .linearize import linearize


class Nominal:
    """A nominal motion (θ, θ̇, θ̈)(t) through samples: per joint a C² piecewise quintic
    matching θ, θ̇ and θ̈ at every sample (scipy ``BPoly.from_derivatives``), so that
    θ̇ and θ̈ between samples are exactly the derivatives of θ and the nominal torque
    τ_nom = ID(θ, θ̇, θ̈) reproduces it exactly. Attributes t (T,), q, qd, qdd (T, n);
    call ``nominal(t) -> (q, qd, qdd)``."""

    def __init__(self, t, q, qd, qdd):
        t = np.asarray(t, dtype=float)
        q, qd, qdd = (np.asarray(x, dtype=float) for x in (q, qd, qdd))
        if t.ndim != 1 or len(t) < 2 or not np.all(np.diff(t) > 0):
            raise ValueError("t: expected at least two increasing sample times")
        if qd.shape[-1:] != q.shape[-1:]:
            raise ValueError(
                f"q, qd: a nominal interpolates each coordinate of q with its rate, so q and "
                f"qd need the same length, got {q.shape[-1]} and {qd.shape[-1]} (a model "
                "with a quaternion joint has nq ≠ nv: not supported yet)"
            )
        for name, x in (("q", q), ("qd", qd), ("qdd", qdd)):
            if x.shape != (len(t), q.shape[-1]) or not np.isfinite(x).all():
                raise ValueError(f"{name}: expected finite samples of shape ({len(t)}, n)")
        self.t, self.q, self.qd, self.qdd = t, q, qd, qdd
        self._q = [
            BPoly.from_derivatives(t, np.stack([q[:, j], qd[:, j], qdd[:, j]], -1))
            for j in range(q.shape[1])
        ]
        self._qd = [p.derivative() for p in self._q]
        self._qdd = [p.derivative(2) for p in self._q]

    @classmethod
    def from_trajectory(cls, trajectory) -> "Nominal":
        """From anything with t, q, qd, qdd (a Trajectory, an IK PathSolution)."""
        return cls(trajectory.t, trajectory.q, trajectory.qd, trajectory.qdd)

    def __call__(self, t):
        if not (self.t[0] - 1e-12 <= t <= self.t[-1] + 1e-12):
            raise ValueError(f"t: {t} is outside the nominal [{self.t[0]}, {self.t[-1]}]")
        return tuple(
            np.array([float(p(t)) for p in polys]) for polys in (self._q, self._qd, self._qdd)
        )


def model_assignment_law(model, nominal: Nominal, psi, omega):
    """The thesis's controller (5.6.5–5.6.8) as a law (t, q, qd) -> τ."""
    model.require_vector_space("model_assignment_law (q − q̄ as a vector)")
    n = model.nq
    spd_matrix(psi, n, "psi")
    spd_matrix(omega, n, "omega")

    def law(t, q, qd):
        qn, qdn, qddn = nominal(t)
        Kp, Kd = model_assignment(linearize(model, qn, qdn, qddn), psi, omega)
        return inverse_dynamics(model, qn, qdn, qddn) - Kp @ (q - qn) - Kd @ (qd - qdn)

    return law


def gain_schedule_law(model, nominal: Nominal, t_gains, K):
    """τ = τ_nom(t) − K(t)[q − q_nom; q̇ − q̇_nom] with K (T, n, 2n) at ``t_gains``,
    interpolated linearly."""
    model.require_vector_space("gain_schedule_law (q − q̄ as a vector)")
    t_gains = np.asarray(t_gains, dtype=float)
    K = np.asarray(K, dtype=float)
    n = model.nq
    if K.shape != (len(t_gains), n, 2 * n):
        raise ValueError(f"K: expected shape ({len(t_gains)}, {n}, {2 * n}), got {K.shape}")

    def law(t, q, qd):
        qn, qdn, qddn = nominal(t)
        k = int(np.clip(np.searchsorted(t_gains, t) - 1, 0, len(t_gains) - 2))
        w = np.clip((t - t_gains[k]) / (t_gains[k + 1] - t_gains[k]), 0.0, 1.0)
        Kt = (1 - w) * K[k] + w * K[k + 1]
        return inverse_dynamics(model, qn, qdn, qddn) - Kt @ np.concatenate([q - qn, qd - qdn])

    return law


def computed_torque_law(model, nominal: Nominal, kp, kd):
    """τ = M(q)(q̈_d + K_d(q̇_d − q̇) + K_p(q_d − q)) + b(q, q̇) (exact linearization)."""
    model.require_vector_space("computed_torque_law (q − q̄ as a vector)")
    Kp = spd_matrix(kp, model.nq, "kp")
    Kd = spd_matrix(kd, model.nq, "kd")

    def law(t, q, qd):
        qn, qdn, qddn = nominal(t)
        return mass_matrix(model, q) @ (qddn + Kd @ (qdn - qd) + Kp @ (qn - q)) + bias_forces(
            model, q, qd
        )

    return law


def pd_gravity_law(model, q_goal, kp, kd):
    """τ = K_p(q_d − q) − K_d q̇ + g(q): PD with gravity compensation (regulation)."""
    model.require_vector_space("pd_gravity_law (q − q̄ as a vector)")
    Kp = spd_matrix(kp, model.nq, "kp")
    Kd = spd_matrix(kd, model.nq, "kd")
    q_goal = np.array(q_goal, dtype=float)
    if q_goal.shape != (model.nq,) or not np.isfinite(q_goal).all():
        raise ValueError(f"q_goal: expected {model.nq} finite numbers")

    def law(t, q, qd):
        return Kp @ (q_goal - q) - Kd @ qd + gravity_torques(model, q)

    return law


class ClosedLoop(NamedTuple):
    """A closed-loop run: the simulated :class:`~eslabon.sim.Trajectory` and the
    tracking errors q − q_nom, q̇ − q̇_nom at its samples (K, n)."""

    trajectory: object
    error: np.ndarray
    error_rate: np.ndarray


def simulate_closed_loop(
    model,
    nominal: Nominal,
    law,
    *,
    dt: float,
    t_final=None,
    dq0=None,
    dqd0=None,
    method: str = "rk4",
) -> ClosedLoop:
    """Run a feedback ``law`` on the nonlinear robot from the nominal start plus an initial
    error, and return the tracking error.

    Parameters
    ----------
    model : Model
        Revolute and prismatic joints (q − q̄ is taken as a vector).
    nominal : Nominal
        The reference q̄(t), q̄̇(t), q̄̈(t), sampled from t = 0.
    law : callable
        ``law(t, q, qd) -> τ`` (n,), e.g. :func:`computed_torque_law`,
        :func:`pd_gravity_law`, :func:`gain_schedule_law`. It runs in Python at every
        integrator stage (about 2–3 s per simulated second for 6 joints at dt = 1e-3).
    dt : float
        The integrator's step (s).
    t_final : float, optional
        End time (s); the nominal's last sample by default.
    dq0, dqd0 : array_like (n,), optional
        Initial error on q and q̇ (zero by default).
    method : str
        :func:`eslabon.simulate`'s method ("rk4" by default).

    Returns
    -------
    ClosedLoop
        Named fields ``trajectory`` (the simulated :class:`~eslabon.sim.Trajectory`),
        ``error`` = q − q̄ and ``error_rate`` = q̇ − q̄̇ at its samples, (K, n).

    Raises
    ------
    ValueError
        A nominal that does not start at t = 0; what :func:`eslabon.simulate` refuses.
    """
    model.require_vector_space("simulate_closed_loop (q − q̄ as a vector)")
    if nominal.t[0] != 0.0:
        raise ValueError("nominal: expected samples starting at t = 0")
    t_final = nominal.t[-1] if t_final is None else finite_number(t_final, "t_final", True)
    q0, qd0, _ = nominal(0.0)
    n = model.nq
    dq0 = np.zeros(n) if dq0 is None else np.asarray(dq0, dtype=float)
    dqd0 = np.zeros(n) if dqd0 is None else np.asarray(dqd0, dtype=float)
    traj = simulate(model, t_final, dt, q0=q0 + dq0, qd0=qd0 + dqd0, torque=law, method=method)
    ref = [nominal(t) for t in traj.t]
    return ClosedLoop(
        traj, traj.q - np.array([r[0] for r in ref]), traj.qd - np.array([r[1] for r in ref])
    )
