"""Simulation of a model with constraints (loop closures, contacts, rolling wheels): what
:func:`eslabon.simulate` runs when the model carries ``constraints`` or is given them.

Each step integrates the constrained forward dynamics
(:func:`eslabon.constraints.constrained_forward_dynamics`) over one sample interval, on
a chart of the configuration space when q holds quaternions (:mod:`.manifold`), by the
chosen integrator: classical RK4, semi-implicit Euler, or scipy's adaptive
Dormand–Prince 8(5,3) / 5(4) with ``rtol``/``atol``.

The acceleration constraint J q̈ = γ keeps φ̈ = 0 only: rounding and the integrator's
error let φ and J q̇ drift. Baumgarte ("Stabilization of constraints and integrals of
motion in dynamical systems", Comput. Methods Appl. Mech. Eng. 1 (1972)) replaces it by

    J q̈ = γ − 2 α J q̇ − β² φ                                                    (1)

so that φ̈ + 2α φ̇ + β² φ = 0: a drift decays (critically damped for α = β) instead of
growing. On the manifold (φ = 0, J q̇ = 0), (1) is the exact constraint, so the motion is
unchanged; α = β = 0 turns the stabilization off. Gains too large for the step add
error instead: on the four-bar of the tests over 1 s, at dt = 0.01 s the largest ‖φ‖ is
8.7e-7 without stabilization, 2.1e-7 with (5, 5) (the default) and 1.8e-6 with (20, 20);
at dt = 0.005 s 5.5e-8, 1.3e-8 and 1.1e-7.

``projection=True`` moves q back onto φ = 0 after each sample interval (damped Newton,
every coordinate free) and q̇ onto J q̇ = 0 by the M-orthogonal projection
q̇ − M⁻¹Jᵀ(J M⁻¹ Jᵀ)⁻¹ J q̇, the one that removes the least kinetic energy.

The trajectory records, per sample, the constraint forces λ by row name, the residual
‖φ‖∞ and the energy T + V (constant for an undamped chain without torques, up to the
integrator's error). The loop runs in Python: every stage solves the numpy
formulations of :mod:`eslabon.constraints.dynamics`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..constraints import (
    assemble,
    constrained_forward_dynamics,
    constraint_jacobian,
    constraint_names,
    constraint_rank,
    constraint_residual,
)
from ..constraints.dynamics import CONSTRAINED_ALGORITHMS, stabilization_gains
from ..dynamics import kinetic_energy, mass_matrix, potential_energy
from ..model.configuration import neutral
from ..model.constraint_types import checked


def constrained_trajectory(model, q0, qd0, t, *, integrator, applied, constraints, algorithm,
                           stabilization, projection, rtol, atol, steps_on_charts):  # fmt: skip
    """The fields of the :class:`~eslabon.sim.Trajectory` of ``model`` under
    ``constraints``, but t, τ and the joint names (:func:`eslabon.simulate` builds it).

    Parameters
    ----------
    model : Model
    q0 : ndarray (nq,) or None
        None: :func:`eslabon.neutral` assembled onto φ = 0.
    qd0 : ndarray (nv,) or None
        None: at rest. The start must satisfy φ = 0 and J q̇ = 0.
    t : ndarray (K,)
        The sample times, evenly spaced from 0.
    integrator : {"rk4", "euler", "dop853", "rk45"}
    applied : callable
        ``applied(t, k, q, qd) -> (nv,)``: the generalized forces (torques plus the
        wrenches' share) at time t in sample interval k.
    constraints : LoopClosure, Contact, RollingWheel, a list of them, or None
        None: the model's own.
    algorithm : str or None
        One of :data:`eslabon.constraints.CONSTRAINED_ALGORITHMS`; None: ``"kkt"``.
    stabilization : (float, float)
        Baumgarte's (α, β) [1/s].
    projection : bool
        Project q and q̇ back onto the constraints after each sample interval.
    rtol, atol : float
        The adaptive integrators' tolerances.
    steps_on_charts : callable
        :func:`eslabon.sim.simulate._steps_on_charts` (passed in: that module calls this
        one).

    Returns
    -------
    dict
        ``q``, ``qd``, ``qdd``, ``constraint_names``, ``constraint_force``,
        ``constraint_residual`` and ``energy``.
    """
    given = checked(model, constraints)  # once: every stage reuses the checked rows
    algorithm = "kkt" if algorithm is None else algorithm
    if algorithm not in CONSTRAINED_ALGORITHMS:
        raise ValueError(
            f"algorithm: a model with constraints takes one of {CONSTRAINED_ALGORITHMS} "
            f"(eslabon.constraints.constrained_forward_dynamics), got {algorithm!r}"
        )
    if integrator == "euler" and model.nq != model.nv:
        raise ValueError(
            "integrator: 'euler' takes models without quaternion joints; use 'rk4' or 'dop853'"
        )
    alpha, beta = stabilization_gains(stabilization)
    n = model.nv
    if q0 is None:
        try:
            q0 = assemble(model, neutral(model), constraints=given)
        except ValueError as exc:
            raise ValueError(
                f"q0: None starts from the neutral configuration, which does not assemble "
                f"({exc}); give q0 on the constraints (eslabon.constraints.assemble)"
            ) from None
    if qd0 is None:
        qd0 = np.zeros(n)
    _check_start(model, given, q0, qd0)
    dt = float(t[1] - t[0])
    K = len(t)
    q, qd = np.empty((K, model.nq)), np.empty((K, n))
    q[0], qd[0] = q0, qd0

    def accel(tk, k, x, v, tau=None):
        return constrained_forward_dynamics(
            model, x, v, applied(tk, k, x, v) if tau is None else tau, constraints=given,
            algorithm=algorithm, stabilization=(alpha, beta),
        )  # fmt: skip

    def after(k):
        if projection and k > 0:
            q[k], qd[k] = _project(model, given, q[k], qd[k])

    if integrator == "euler":
        for k in range(K - 1):
            after(k)
            qd[k + 1] = qd[k] + dt * accel(t[k], k, q[k], qd[k]).qdd
            q[k + 1] = q[k] + dt * qd[k + 1]
    else:
        steps_on_charts(
            model, integrator, lambda tk, k, x, v: accel(tk, k, x, v).qdd, t, q, qd, dt,
            rtol, atol, after, chart=model.nq != n,
        )  # fmt: skip
    after(K - 1)
    names = constraint_names(model, constraints=given)
    qdd, force = np.empty((K, n)), np.empty((K, len(names)))
    residual = np.empty(K)
    for k in range(K):
        out = accel(t[k], k, q[k], qd[k])
        qdd[k], force[k] = out.qdd, out.force
        residual[k] = np.abs(constraint_residual(model, q[k], constraints=given)).max()
    energy = np.asarray(kinetic_energy(model, q, qd) + potential_energy(model, q), dtype=float)
    return dict(
        q=q, qd=qd, qdd=qdd, constraint_names=names, constraint_force=force,
        constraint_residual=residual, energy=energy,
    )  # fmt: skip


def _check_start(model, given, q0, qd0):
    phi = constraint_residual(model, q0, constraints=given)
    J = constraint_jacobian(model, q0, constraints=given)
    if np.abs(phi).max() > 1e-8 or np.abs(J @ qd0).max() > 1e-8:
        raise ValueError(
            f"q0, qd0: the start is off the constraints (‖φ‖ = {np.abs(phi).max():.3g}, "
            f"‖J q̇‖ = {np.abs(J @ qd0).max():.3g}); assemble it first "
            "(eslabon.constraints.close_state)"
        )


def _project(model, given, q, v):
    """q on φ = 0 and v on J v = 0 (M-orthogonal), after a step."""
    q = assemble(model, q, constraints=given, tol=1e-12)
    J = constraint_jacobian(model, q, constraints=given)
    report = constraint_rank(model, q, constraints=given)
    names = constraint_names(model, constraints=given)
    J = J[[i for i, name in enumerate(names) if name not in report.redundant]]
    M = mass_matrix(model, q)
    MJ = np.linalg.solve(M, J.T)
    return q, v - MJ @ np.linalg.solve(J @ MJ, J @ v)


class ConstrainedRollout(NamedTuple):
    """The runs of :func:`rollout` for a model with constraints: :class:`Rollout`'s
    fields, then what :class:`eslabon.Trajectory` records of a constrained run.

    Attributes
    ----------
    t, q, qd, qdd, tau : ndarray
        As :class:`Rollout`: (K,), (N, K, nq) and (N, K, n).
    constraint_names : tuple of str
        The rows, ``"<constraint>.<axis>"``.
    constraint_force : ndarray
        λ per run, sample and row [N, N·m], (N, K, m).
    constraint_residual : ndarray
        ‖φ‖∞ per run and sample [m, rad], (N, K).
    energy : ndarray
        T + V per run and sample [J], (N, K).
    """

    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    tau: np.ndarray
    constraint_names: tuple
    constraint_force: np.ndarray
    constraint_residual: np.ndarray
    energy: np.ndarray


def _read_once(model):
    """A Model as it is; any other iterable (a generator of models) as a list, so that the
    checks and the run read the same models."""
    if hasattr(model, "packed_dynamics") or isinstance(model, (list, tuple)):
        return model
    try:
        return list(model)
    except TypeError:
        return model  # not iterable: _run names it


def _is_constrained(model) -> bool:
    """Whether the model, or any model of a sequence, carries constraints."""
    if hasattr(model, "packed_dynamics"):
        return bool(model.constraints)
    try:
        return any(bool(getattr(m, "constraints", ())) for m in model)
    except TypeError:
        return False


__all__ = ["constrained_trajectory", "ConstrainedRollout"]
