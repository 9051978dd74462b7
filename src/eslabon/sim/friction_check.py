"""The check after every run with Coulomb friction (:func:`eslabon.simulate`,
:func:`eslabon.rollout`, the sweeps' batched runs): friction only takes energy out, and
a step that resolves it never lets a joint's rate reverse twice in a row.

* **Energy.** The work–energy balance of the run,

      excess_k = (T_k + V_k) − (T_0 + V_0) − W_k,   W_k = Σ_{i<k} τ̄_i · Δq_i,

  with T the kinetic and V the potential energy, Δq_i the displacement of step i (in the
  tangent space for quaternion joints) and τ̄_i the applied torque over it: τ_i exactly
  for a torque held over each step (zero-order hold), else the trapezoid rule
  (τ_i + τ_{i+1}) / 2, the wrenches' torques J_fᵀ w included. Friction (viscous and
  Coulomb) only lowers the energy, so excess_k ≤ 0 up to the integrator's error; an
  :class:`EnergyInjectionWarning` reports max_k excess_k above 1 % of the energy in
  motion (the largest of the kinetic energy, the energy change and the work, with a free
  flyer's rates left out of the kinetic energy: a falling floating base trades
  kilojoules between potential and kinetic energy, which would hide the millijoules a
  chattering finger injects) and above round-off (1e-8 of the energies).
* **Chatter.** A frictional joint whose rate changes sign on two consecutive steps
  (q̇_k q̇_{k+1} < 0 and q̇_{k+1} q̇_{k+2} < 0) is one the step cannot resolve: the
  stick–slip band of :mod:`.stick_slip` did not catch it. A :class:`FrictionStepWarning`
  names its joint (by its body, as the model does).
"""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np

from .._args import caller_stacklevel
from .._engine.joint_types import free_flyers
from .stick_slip import coulomb_per_rate

INJECTION_TOLERANCE = 0.01  # of the energy in motion (module docstring)


class FrictionStepWarning(RuntimeWarning):
    """A joint's rate reversed on two consecutive steps of a run with Coulomb friction:
    the step is too large for the stick–slip of that joint (:mod:`.stick_slip`)."""


class EnergyInjectionWarning(RuntimeWarning):
    """The simulated energy grew beyond what the applied torques supplied: the friction
    model pushed instead of resisting, because the step is too large for it."""


class Findings(NamedTuple):
    """What :func:`findings` saw in one run.

    Attributes
    ----------
    chatter : list of str
        The bodies whose joint's rate reversed on consecutive steps, the most often
        first (quoted, as the messages print them).
    chatter_t : float
        When that first happened [s] (NaN when never).
    excess, excess_t : float
        The largest excess of the energy over its start plus the applied work [J], and
        when [s].
    injected : bool
        ``excess`` is beyond the tolerance of the module docstring.
    kinetic : tuple of float
        The kinetic energy at the start and at its largest [J].
    """

    chatter: list
    chatter_t: float
    excess: float
    excess_t: float
    injected: bool
    kinetic: tuple


def findings(model, t, q, qd, tau, zero_order_hold: bool, wrench_tau=None) -> Findings:
    """The energy balance and the chatter of one run (module docstring).

    Parameters
    ----------
    model : Model
        The run's model.
    t : ndarray (K,)
        Sample times [s].
    q, qd, tau : ndarray (K, nq), (K, n), (K, n)
        The run's samples and the joint torques at them.
    zero_order_hold : bool
        ``tau[k]`` was held over step k (else the trapezoid rule).
    wrench_tau : ndarray (K, n), optional
        The external wrenches' joint torques J_fᵀ w at the samples.

    Returns
    -------
    Findings
    """
    from ..dynamics import kinetic_energy, potential_energy

    T = kinetic_energy(model, q, qd)
    V = potential_energy(model, q)
    E = T + V
    if model.nq != model.nv:  # the displacement of each step in the tangent space
        from ..model.configuration import difference

        dq = difference(model, q[:-1], q[1:])
    else:
        dq = np.diff(q, axis=0)
    tau = tau[:-1] if zero_order_hold else 0.5 * (tau[:-1] + tau[1:])
    if wrench_tau is not None:
        tau = tau + 0.5 * (wrench_tau[:-1] + wrench_tau[1:])
    work = np.concatenate([[0.0], np.cumsum(np.einsum("kj,kj->k", tau, dq))])
    excess = (E - E[0]) - work
    base = np.isin(model.dof_bodies, np.flatnonzero(free_flyers(model.joint_type)))
    inner = kinetic_energy(model, q, np.where(base, 0.0, qd)) if base.any() else T
    in_motion = max(inner.max(), np.abs(E - E[0]).max(), np.abs(work).max())
    rounding = 1e-8 * max(T.max(), np.abs(V - V[0]).max(), 1e-4)
    k = int(np.argmax(excess))
    flips = (qd[:-1] * qd[1:] < 0) & (coulomb_per_rate(model) > 0)
    chatter = flips[:-1] & flips[1:]
    names = [
        repr(model.body_names[model.dof_bodies[j]])
        for j in np.argsort(-chatter.sum(axis=0), kind="stable")
        if chatter[:, j].any()
    ]
    first = float(t[int(np.argmax(chatter.any(axis=1)))]) if names else float("nan")
    injected = bool(excess[k] > INJECTION_TOLERANCE * in_motion and excess[k] > rounding)
    return Findings(
        names, first, float(excess[k]), float(t[k]), injected, (float(T[0]), float(T.max()))
    )


def _bodies(names):
    return f"{'body ' if len(names) == 1 else 'bodies '}{', '.join(names[:5])}"


def warn(found: Findings, dt: float, who: str = "simulate", more: str = "",
         kinds=("chatter", "injected")) -> None:  # fmt: skip
    """Issue the warnings of one run's :class:`Findings` (none when it has nothing to
    report), prefixed with ``who`` (``"simulate"``, ``"rollout: run 3"``); ``more``
    closes the sentence (other runs that did the same); ``kinds``: which of the two
    warnings may be issued. The warnings point at the caller's line outside eslabon."""
    if found.chatter and "chatter" in kinds:
        warnings.warn(
            f"{who}: the step dt = {dt:g} s cannot resolve the Coulomb friction of the "
            f"joint of {_bodies(found.chatter)}: its rate reversed on consecutive steps "
            f"(first at t = {found.chatter_t:.6g} s){more}; use a smaller dt",
            FrictionStepWarning,
            stacklevel=caller_stacklevel(),
        )
    if found.injected and "injected" in kinds:
        which = f" (joint of body {found.chatter[0]})" if found.chatter else ""
        warnings.warn(
            f"{who}: Coulomb friction injected energy{which}: at t = {found.excess_t:.6g} s "
            f"the energy is {found.excess:.4g} J above its start plus the applied work "
            f"(kinetic energy {found.kinetic[0]:.4g} J at start, {found.kinetic[1]:.4g} J "
            f"at most){more}; the step dt = {dt:g} s is too large for the friction's jump "
            "at q̇ = 0: use a smaller dt",
            EnergyInjectionWarning,
            stacklevel=caller_stacklevel(),
        )


def check_friction_energy(model, traj, zero_order_hold: bool, wrench_tau=None,
                          who: str = "simulate") -> Findings:  # fmt: skip
    """:func:`findings` of a :class:`~.trajectory.Trajectory` and its warnings
    (:func:`warn`); returns the findings."""
    found = findings(model, traj.t, traj.q, traj.qd, traj.tau, zero_order_hold, wrench_tau)
    warn(found, float(traj.t[1] - traj.t[0]), who)
    return found


def check_runs(models, t, Q, QD, TAU, zero_order_hold: bool) -> None:
    """The check of :func:`eslabon.rollout`: the findings of each run whose model has
    Coulomb friction, one warning of each kind for the batch, naming the first run that
    warrants it and counting the others."""
    dt = float(t[1] - t[0])
    seen = {}
    for i, m in enumerate(models):
        if np.any(coulomb_per_rate(m) > 0):
            seen[i] = findings(m, t, Q[i], QD[i], TAU[i], zero_order_hold)
    for kind in ("chatter", "injected"):
        hits = [i for i, f in seen.items() if getattr(f, kind)]
        if hits:
            others = len(hits) - 1
            more = f" (and in {others} more run{'s' if others > 1 else ''})" if others else ""
            warn(seen[hits[0]], dt, f"rollout: run {hits[0]}", more, kinds=(kind,))
