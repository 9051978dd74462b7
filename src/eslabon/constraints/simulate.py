"""Simulation of a constrained system: the constrained forward dynamics integrated by
RK4 on charts of the configuration space, the drift of φ held by Baumgarte's
stabilization.

The acceleration constraint J q̈ = γ keeps φ̈ = 0 only: rounding and the integrator's
error let φ and J q̇ drift. Baumgarte ("Stabilization of constraints and integrals of
motion in dynamical systems", Comput. Methods Appl. Mech. Eng. 1 (1972)) replaces it by

    J q̈ = γ − 2 α J q̇ − β² φ                                                    (1)

so that φ̈ + 2α φ̇ + β² φ = 0: a drift decays (critically damped for α = β) instead of
growing. On the manifold (φ = 0, J q̇ = 0), (1) is the exact constraint, so the motion is
unchanged; α = β = 0 turns the stabilization off. Gains too large for the step add
error instead: on the four-bar of the tests over 1 s, at dt = 0.01 s the largest ‖φ‖ is
8.7e-7 without stabilization, 2.1e-7 with (5, 5) (the default) and 1.8e-6 with (20, 20);
at dt = 0.005 s 5.5e-8, 1.3e-8 and 1.1e-7. The torque is a constant or a
callable of (t, q, q̇); the loop runs in Python (every step solves the forward dynamics
of :mod:`.dynamics`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._args import finite_array, finite_number
from ..dynamics import kinetic_energy, mass_matrix, potential_energy
from ..model.constraint_types import checked, row_names
from ..sim.manifold import Chart, chart_layout
from ..sim.rk4 import rk4_step
from ..sim.trajectory import Trajectory
from .dynamics import CONSTRAINED_ALGORITHMS, constrained_forward_dynamics, stabilization_gains
from .kinematics import _Frames, _independent_rows, _jacobian, assemble, constraint_residual


class ConstrainedRun(NamedTuple):
    """What :func:`simulate_constrained` returns.

    Attributes
    ----------
    trajectory : Trajectory
        t (K,), q, q̇, q̈ and τ, as :func:`eslabon.simulate` gives them.
    force : ndarray
        λ at each sample, (K, m), the rows named by ``names``.
    names : tuple of str
    residual : ndarray
        ‖φ‖∞ at each sample, (K,) [m, rad]: how far the integration strayed from the
        constraints.
    energy : ndarray
        T + V at each sample, (K,) [J] (the constraints do no work: with no torque and
        no friction it is constant up to the integrator's error).
    """

    trajectory: Trajectory
    force: np.ndarray
    names: tuple
    residual: np.ndarray
    energy: np.ndarray


def simulate_constrained(
    model,
    q0,
    qd0,
    t_final: float,
    dt: float = 1e-3,
    *,
    torque=None,
    constraints=None,
    algorithm: str = "kkt",
    stabilization: tuple = (5.0, 5.0),
    projection: bool = False,
) -> ConstrainedRun:
    """Simulate ``model`` under its constraints from (q0, qd0), RK4 with step ``dt``.

    The arguments are :func:`eslabon.simulate`'s, in its order.

    Parameters
    ----------
    model : Model
    q0 : array_like (nq,)
        On the constraint manifold (:func:`assemble`, :func:`close_state`).
    qd0 : array_like (nv,) or None
        With J q̇ = 0; None: at rest.
    t_final : float
        Duration [s].
    dt : float
        Step and sample spacing [s], a divisor of ``t_final``.
    torque : None, array_like (nv,) or callable, optional
        Joint torques: zero, constant, or ``torque(t, q, qd) -> (nv,)``.
    constraints : LoopClosure, Contact or a list of them, optional
        By default the model's own.
    algorithm : {"kkt", "schur", "null_space", "udwadia_kalaba"}
        The constrained forward dynamics (:func:`constrained_forward_dynamics`).
    stabilization : (float, float)
        Baumgarte's (α, β) [1/s] (module docstring); (0, 0) for none. Keep α h, β h
        well below 1.
    projection : bool
        After each step, move q back onto φ = 0 (:func:`assemble`, every coordinate
        free) and q̇ onto J q̇ = 0 (the M-orthogonal projection q̇ − M⁻¹Jᵀ(J M⁻¹ Jᵀ)⁻¹
        J q̇, which removes the least kinetic energy); with it the residual stays at
        the assembly's tolerance whatever the step.

    Returns
    -------
    ConstrainedRun

    Raises
    ------
    ValueError
        A bad argument (naming it); a start off the constraints (‖φ‖ > 1e-8 or
        ‖J q̇‖ > 1e-8); what the forward dynamics refuse.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon import constraints as ec
    >>> arm = es.zoo.load("planar2")
    >>> rail = ec.Contact("rail", "ee", ["y"], position=[0.0, 1.0, 0.0])  # tip on y = 1 m
    >>> q = ec.assemble(arm, [0.5, 0.5], constraints=rail, fixed=[0])
    >>> run = ec.simulate_constrained(arm, q, None, 0.5, 0.001, constraints=rail)
    >>> run.trajectory.q.shape, bool(run.residual.max() < 1e-9)
    ((501, 2), True)
    """
    rows = checked(model, constraints)
    if algorithm not in CONSTRAINED_ALGORITHMS:
        raise ValueError(f"algorithm: expected one of {CONSTRAINED_ALGORITHMS}, got {algorithm!r}")
    t_final = finite_number(t_final, "t_final", positive=True)
    dt = finite_number(dt, "dt", positive=True)
    steps = int(round(t_final / dt))
    if steps < 1 or abs(steps * dt - t_final) > 1e-9 * max(1.0, t_final):
        raise ValueError(f"dt: expected a divisor of t_final = {t_final}, got {dt}")
    alpha, beta = stabilization_gains(stabilization)
    n, nq = model.nv, model.nq
    q0 = finite_array(q0, "q0", (nq,)).copy()
    qd0 = np.zeros(n) if qd0 is None else finite_array(qd0, "qd0", (n,)).copy()
    given = model.constraints if constraints is None else constraints
    phi0 = constraint_residual(model, q0, constraints=given)
    J0 = _jacobian(model, rows, q0, _Frames(model, q0))
    if np.abs(phi0).max() > 1e-8 or np.abs(J0 @ qd0).max() > 1e-8:
        raise ValueError(
            f"q0, qd0: the start is off the constraints (‖φ‖ = {np.abs(phi0).max():.3g}, "
            f"‖J q̇‖ = {np.abs(J0 @ qd0).max():.3g}); assemble it first "
            "(eslabon.constraints.close_state)"
        )
    law = _torque(torque, n)
    names = row_names(rows)

    def accel(t, q, v, tau=None):
        tau = law(t, q, v) if tau is None else tau
        return constrained_forward_dynamics(
            model, q, v, tau, constraints=given, algorithm=algorithm,
            stabilization=(alpha, beta),
        )  # fmt: skip

    K = steps + 1
    t = np.arange(K) * dt
    Q, V, A = np.empty((K, nq)), np.empty((K, n)), np.empty((K, n))
    F, R, T = np.empty((K, len(names))), np.empty(K), np.empty((K, n))
    Q[0], V[0] = q0, qd0
    layout = chart_layout(model) if nq != n else None
    for k in range(K):
        T[k] = law(t[k], Q[k], V[k])  # once per sample: the τ applied is the τ recorded
        out = accel(t[k], Q[k], V[k], T[k])
        A[k], F[k] = out.qdd, out.force
        R[k] = np.abs(constraint_residual(model, Q[k], constraints=given)).max()
        if k == steps:
            break
        chart = Chart(model, Q[k], layout) if layout is not None else None

        def rate(tk, y, chart=chart):
            c, v = y[:n], y[n:]
            x = chart.configuration(c) if chart is not None else c
            dc = chart.rate(c, x, v) if chart is not None else v
            return np.concatenate([dc, accel(tk, x, v).qdd])

        start = chart.start() if chart is not None else Q[k]
        y = rk4_step(rate, t[k], np.concatenate([start, V[k]]), dt)
        Q[k + 1] = chart.finish(y[:n]) if chart is not None else y[:n]
        V[k + 1] = y[n:]
        if projection:
            Q[k + 1], V[k + 1] = _project(model, rows, given, Q[k + 1], V[k + 1])
    traj = Trajectory(t=t, q=Q, qd=V, qdd=A, tau=T, model_name=model.name,
                      q_names=model.q_names, v_names=model.v_names)  # fmt: skip
    energy = kinetic_energy(model, Q, V) + potential_energy(model, Q)
    return ConstrainedRun(traj, F, names, R, np.asarray(energy, dtype=float))


def _project(model, rows, given, q, v):
    """q on φ = 0 and v on J v = 0 (M-orthogonal), after a step."""
    q = assemble(model, q, constraints=given, tol=1e-12)
    J = _jacobian(model, rows, q, _Frames(model, q))
    J = J[_independent_rows(J)]
    M = mass_matrix(model, q)
    MJ = np.linalg.solve(M, J.T)
    return q, v - MJ @ np.linalg.solve(J @ MJ, J @ v)


def _torque(torque, n: int):
    if torque is None:
        zero = np.zeros(n)
        return lambda t, q, v: zero
    if callable(torque):

        def law(t, q, v):
            tau = np.asarray(torque(t, q.copy(), v.copy()), dtype=float)
            if tau.shape != (n,) or not np.all(np.isfinite(tau)):
                raise ValueError(
                    f"torque: the callable returned {tau!r} at t = {t}; expected {n} finite numbers"
                )
            return tau

        return law
    tau = np.asarray(torque, dtype=float)
    if tau.shape != (n,) or not np.all(np.isfinite(tau)):
        raise ValueError(f"torque: expected None, a callable or {n} finite numbers")
    return lambda t, q, v: tau
