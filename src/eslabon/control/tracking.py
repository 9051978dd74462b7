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
from .._deprecation import renamed_keywords, warn_renamed
from ..dynamics import bias_forces, gravity_torques, inverse_dynamics, mass_matrix
from ..sim import simulate
from .design import model_assignment, spd_matrix
from .linearize import linearize


class Nominal:
    """A nominal motion (θ, θ̇, θ̈)(t) through samples: per joint a C² piecewise quintic
    matching θ, θ̇ and θ̈ at every sample (scipy ``BPoly.from_derivatives``), so that
    θ̇ and θ̈ between samples are exactly the derivatives of θ and the nominal torque
    τ_nom = ID(θ, θ̇, θ̈) reproduces it exactly. Attributes t (T,), q, qd, qdd (T, n);
    call ``nominal(t) -> (q, qd, qdd)``.

    ``nominal(t)`` takes one time t (s) in [t₀, t_T] (1e-12 s of slack) and returns
    three (n,) arrays; a time outside raises a ValueError. The reference of the control
    laws of this module and of :func:`simulate_closed_loop`. Vector coordinates only
    (revolute and prismatic joints: q and q̇ of the same length).

    Parameters
    ----------
    t : array_like (T,)
        Sample times (s), increasing, T ≥ 2.
    q : array_like (T, n)
        Joint positions at the samples: rad (revolute), m (prismatic).
    qd : array_like (T, n)
        Joint rates: rad/s, m/s.
    qdd : array_like (T, n)
        Joint accelerations: rad/s², m/s².

    Attributes
    ----------
    t : ndarray ``(T,)``
        The sample times (s).
    q : ndarray ``(T, n)``
        The positions at the samples, as given (rad, m).
    qd : ndarray ``(T, n)``
        The rates at the samples (rad/s, m/s).
    qdd : ndarray ``(T, n)``
        The accelerations at the samples (rad/s², m/s²).

    Raises
    ------
    ValueError
        Fewer than two or non-increasing times; q and qd of different lengths (a
        quaternion joint); samples not of shape (T, n) or not finite.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> traj = es.joint_trajectory([0.0, 0.0], [1.0, -0.5], np.linspace(0.0, 1.0, 11))
    >>> nominal = es.control.Nominal(*traj)
    >>> q, qd, qdd = nominal(0.5)
    >>> np.round(q, 6), np.round(qd, 6)
    (array([ 0.5 , -0.25]), array([ 1.875 , -0.9375]))
    """

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
    def from_trajectory(cls, trajectory) -> Nominal:
        """From anything with t, q, qd, qdd (a Trajectory, an IK PathSolution).

        Parameters
        ----------
        trajectory : object
            Anything with attributes ``t`` (T,) (s) and ``q``, ``qd``, ``qdd`` (T, n)
            (rad, rad/s, rad/s² or m, m/s, m/s²): a :class:`~eslabon.sim.Trajectory`, a
            :class:`~eslabon.JointTrajectory`, an IK path solution.

        Returns
        -------
        Nominal
            The interpolating nominal through those samples.

        Raises
        ------
        ValueError
            What :class:`Nominal` refuses (see there).

        Examples
        --------
        >>> import numpy as np, eslabon as es
        >>> traj = es.joint_trajectory([0.0], [1.0], np.linspace(0.0, 2.0, 5))
        >>> es.control.Nominal.from_trajectory(traj).t.shape
        (5,)
        """
        return cls(trajectory.t, trajectory.q, trajectory.qd, trajectory.qdd)

    def __call__(self, t):
        if not (self.t[0] - 1e-12 <= t <= self.t[-1] + 1e-12):
            raise ValueError(f"t: {t} is outside the nominal [{self.t[0]}, {self.t[-1]}]")
        return tuple(
            np.array([float(p(t)) for p in polys]) for polys in (self._q, self._qd, self._qdd)
        )


def model_assignment_law(model, nominal: Nominal, psi, omega):
    """The thesis's controller (5.6.5–5.6.8) as a law (t, q, qd) -> τ.

    τ = τ_nom(t) − K_p(t)(q − q̄) − K_d(t)(q̇ − q̄̇), with τ_nom = ID(q̄, q̄̇, q̄̈) and the gains
    of :func:`model_assignment` (Rojas 1987, §5.6) computed afresh at every call from
    :func:`linearize` at the nominal state at t: exact at any t, no gain table, but one
    linearization per call.

    Parameters
    ----------
    model : Model
        Revolute and prismatic joints (q − q̄ is taken as a vector).
    nominal : Nominal
        The reference q̄(t), q̄̇(t), q̄̈(t).
    psi : float, array_like (n,) or (n, n)
        Damping ratio Ψ (dimensionless), symmetric positive definite.
    omega : float, array_like (n,) or (n, n)
        Natural frequency Ω (rad/s), symmetric positive definite.

    Returns
    -------
    callable
        ``law(t, q, qd) -> tau``: t (s), q (n,) (rad, m), qd (n,) (rad/s, m/s) to τ (n,)
        (N·m, N), for :func:`simulate_closed_loop` or :func:`eslabon.simulate`. It raises
        a ValueError for a t outside the nominal.

    Raises
    ------
    ValueError
        A model with a spherical or free-flyer joint; ``psi`` or ``omega`` not symmetric
        positive definite.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> nominal = es.control.Nominal(*es.joint_trajectory([0.0, 0.0], [1.0, -0.5],
    ...                                                   np.linspace(0.0, 1.0, 11)))
    >>> law = es.control.model_assignment_law(arm, nominal, np.sqrt(2) / 2, 1.0)
    >>> q, qd, qdd = nominal(0.5)  # on the nominal: τ = τ_nom
    >>> bool(np.allclose(law(0.5, q, qd), es.inverse_dynamics(arm, q, qd, qdd)))
    True
    """
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
    interpolated linearly.

    Gain scheduling from a table, e.g. the time-varying LQR gains of :func:`tvlqr`. Before
    the first and after the last time of ``t_gains`` the end gains are held.

    Parameters
    ----------
    model : Model
        Revolute and prismatic joints (q − q̄ is taken as a vector).
    nominal : Nominal
        The reference q̄(t), q̄̇(t), q̄̈(t); τ_nom = ID(q̄, q̄̇, q̄̈).
    t_gains : array_like (T,)
        Times of the gains (s), increasing, T ≥ 2 (not checked).
    K : array_like (T, n, 2n)
        Gains [K_q, K_q̇] at those times (N·m/rad and N·m·s/rad for revolute joints).

    Returns
    -------
    callable
        ``law(t, q, qd) -> tau``: t (s), q (n,), qd (n,) to τ (n,) (N·m, N). It raises a
        ValueError for a t outside the nominal.

    Raises
    ------
    ValueError
        A model with a spherical or free-flyer joint; ``t_gains`` not at least two
        finite, strictly increasing times; ``K`` not finite or not of shape (T, n, 2n).

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> traj = es.joint_trajectory([0.0, 0.0], [1.0, -0.5], np.linspace(0.0, 1.0, 11))
    >>> nominal = es.control.Nominal(*traj)
    >>> K = np.tile(np.hstack([100.0 * np.eye(2), 20.0 * np.eye(2)]), (2, 1, 1))
    >>> law = es.control.gain_schedule_law(arm, nominal, [0.0, 1.0], K)
    >>> q, qd, qdd = nominal(0.5)
    >>> tau = law(0.5, q + [0.01, 0.0], qd)  # 0.01 rad off on joint 1: −100 × 0.01 more
    >>> bool(np.allclose(tau - es.inverse_dynamics(arm, q, qd, qdd), [-1.0, 0.0]))
    True
    """
    model.require_vector_space("gain_schedule_law (q − q̄ as a vector)")
    t_gains = np.asarray(t_gains, dtype=float)
    K = np.asarray(K, dtype=float)
    n = model.nq
    if (
        t_gains.ndim != 1
        or len(t_gains) < 2
        or not np.isfinite(t_gains).all()
        or not (np.diff(t_gains) > 0).all()
    ):
        raise ValueError(
            "t_gains: expected at least two finite, strictly increasing times [s], "
            f"got {t_gains.tolist()!r}"
        )
    if not np.isfinite(K).all():
        raise ValueError("K: expected finite gains")
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
    """τ = M(q)(q̈_d + K_d(q̇_d − q̇) + K_p(q_d − q)) + b(q, q̇) (exact linearization).

    With an exact model the error e = q_d − q obeys ë + K_d ė + K_p e = 0 at every
    state. M is :func:`eslabon.mass_matrix`, b is :func:`eslabon.bias_forces` (Coriolis,
    centrifugal, gravity and friction), both at the measured state.

    Parameters
    ----------
    model : Model
        Revolute and prismatic joints (q − q̄ is taken as a vector).
    nominal : Nominal
        The desired motion q_d(t), q̇_d(t), q̈_d(t).
    kp : float, array_like (n,) or (n, n)
        Position gain K_p (1/s²), symmetric positive definite.
    kd : float, array_like (n,) or (n, n)
        Rate gain K_d (1/s), symmetric positive definite.

    Returns
    -------
    callable
        ``law(t, q, qd) -> tau``: t (s), q (n,), qd (n,) to τ (n,) (N·m, N). It raises a
        ValueError for a t outside the nominal.

    Raises
    ------
    ValueError
        A model with a spherical or free-flyer joint; ``kp`` or ``kd`` not symmetric
        positive definite.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> nominal = es.control.Nominal(*es.joint_trajectory([0.0, 0.0], [1.0, -0.5],
    ...                                                   np.linspace(0.0, 1.0, 11)))
    >>> law = es.control.computed_torque_law(arm, nominal, 100.0, 20.0)
    >>> q, qd, qdd = nominal(0.5)
    >>> bool(np.allclose(law(0.5, q, qd), es.inverse_dynamics(arm, q, qd, qdd)))
    True
    """
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
    """τ = K_p(q_d − q) − K_d q̇ + g(q): PD with gravity compensation (regulation).

    Drives the robot to a fixed ``q_goal`` (no nominal motion); g is
    :func:`eslabon.gravity_torques` at the measured q.

    Parameters
    ----------
    model : Model
        Revolute and prismatic joints (q − q̄ is taken as a vector).
    q_goal : array_like (n,)
        The goal configuration q_d: rad (revolute), m (prismatic).
    kp : float, array_like (n,) or (n, n)
        Position gain K_p (N·m/rad, N/m), symmetric positive definite.
    kd : float, array_like (n,) or (n, n)
        Rate gain K_d (N·m·s/rad, N·s/m), symmetric positive definite.

    Returns
    -------
    callable
        ``law(t, q, qd) -> tau``: t (s, unused), q (n,), qd (n,) to τ (n,) (N·m, N).

    Raises
    ------
    ValueError
        A model with a spherical or free-flyer joint; ``kp`` or ``kd`` not symmetric
        positive definite; ``q_goal`` not n finite numbers.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> law = es.control.pd_gravity_law(arm, [0.5, 0.0], 100.0, 20.0)
    >>> tau = law(0.0, [0.5, 0.0], [0.0, 0.0])  # at rest on the goal: gravity alone
    >>> bool(np.allclose(tau, es.gravity_torques(arm, [0.5, 0.0])))
    True
    """
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
    tracking errors q − q_nom, q̇ − q̇_nom at its samples (K, n).

    What :func:`simulate_closed_loop` returns (a named tuple).

    Attributes
    ----------
    trajectory : Trajectory
        The simulated motion: ``t`` (K,) (s), ``q``, ``qd``, ``qdd``, ``tau`` (K, n).
    error : ndarray ``(K, n)``
        q − q̄ at the samples (rad, m).
    error_rate : ndarray ``(K, n)``
        q̇ − q̄̇ at the samples (rad/s, m/s).

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> nominal = es.control.Nominal(*es.joint_trajectory([0.0, 0.0], [1.0, -0.5],
    ...                                                   np.linspace(0.0, 0.5, 6)))
    >>> law = es.control.computed_torque_law(arm, nominal, 100.0, 20.0)
    >>> run = es.control.simulate_closed_loop(arm, nominal, law, dt=0.01)
    >>> run.trajectory.t.shape, run.error.shape, bool(abs(run.error).max() < 1e-6)
    ((51,), (51, 2), True)
    """

    trajectory: object
    error: np.ndarray
    error_rate: np.ndarray


@renamed_keywords(method="integrator")
def simulate_closed_loop(
    model,
    nominal: Nominal,
    law,
    q0=None,
    qd0=None,
    t_final: float | None = None,
    dt: float = 1e-3,
    *,
    integrator: str = "rk4",
    dq0=None,
    dqd0=None,
) -> ClosedLoop:
    """Run a feedback ``law`` on the nonlinear robot from an initial state (the nominal
    start by default) and return the tracking error.

    After ``nominal`` and ``law``, the arguments are :func:`eslabon.simulate`'s, in its
    order: ``q0, qd0, t_final, dt``, then ``integrator=``.

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
    q0, qd0 : array_like (n,), optional
        Initial state (rad, m; rad/s, m/s); the nominal's at t = 0 by default.
    t_final : float, optional
        End time (s); the nominal's last sample by default.
    dt : float
        The integrator's step (s).
    integrator : str
        :func:`eslabon.simulate`'s integrator (``"rk4"`` by default; ``method=`` is its
        old name).
    dq0, dqd0 : array_like (n,), optional
        Deprecated (they warn): the initial error, q0 = q̄(0) + dq0, qd0 = q̄̇(0) + dqd0.

    Returns
    -------
    ClosedLoop
        Named fields ``trajectory`` (the simulated :class:`~eslabon.sim.Trajectory`),
        ``error`` = q − q̄ and ``error_rate`` = q̇ − q̄̇ at its samples, (K, n).

    Raises
    ------
    ValueError
        A model with a spherical or free-flyer joint; a nominal that does not start at
        t = 0; a ``t_final`` that is not a positive number, or beyond the nominal's last
        sample (the nominal refuses the times past it); what :func:`eslabon.simulate`
        refuses (a ``dt`` that does not divide ``t_final``, a law returning other than n
        finite numbers, …).

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> nominal = es.control.Nominal(*es.joint_trajectory([0.0, 0.0], [1.0, -0.5],
    ...                                                   np.linspace(0.0, 0.5, 6)))
    >>> law = es.control.computed_torque_law(arm, nominal, 100.0, 20.0)
    >>> q0, qd0, _ = nominal(0.0)
    >>> run = es.control.simulate_closed_loop(arm, nominal, law, q0 + [0.05, 0.0], qd0,
    ...                                       dt=0.01)
    >>> round(float(run.error[0, 0]), 6), bool(abs(run.error[-1]).max() < 0.01)
    (0.05, True)
    """
    model.require_vector_space("simulate_closed_loop (q − q̄ as a vector)")
    if nominal.t[0] != 0.0:
        raise ValueError("nominal: expected samples starting at t = 0")
    t_final = nominal.t[-1] if t_final is None else finite_number(t_final, "t_final", True)
    start, start_rate, _ = nominal(0.0)
    q0 = _initial(q0, dq0, start, "q0", "dq0")
    qd0 = _initial(qd0, dqd0, start_rate, "qd0", "dqd0")
    traj = simulate(model, q0, qd0, t_final, dt, torque=law, integrator=integrator)
    ref = [nominal(t) for t in traj.t]
    return ClosedLoop(
        traj, traj.q - np.array([r[0] for r in ref]), traj.qd - np.array([r[1] for r in ref])
    )


def _initial(x0, error, nominal_start, field: str, old: str):
    """The initial ``field``: given, the nominal start plus the deprecated ``old`` error,
    or the nominal start."""
    if error is None:
        return nominal_start if x0 is None else x0
    warn_renamed(
        f"simulate_closed_loop({old}=e) (an error from the nominal start)",
        f"simulate_closed_loop(model, nominal, law, {field}=nominal_start + e)",
    )
    if x0 is not None:
        raise TypeError(f"simulate_closed_loop: give {field}= alone ({old}= is deprecated)")
    return nominal_start + np.asarray(error, dtype=float)
