"""Continuation: each IK solution seeds the next (seed 000 §3.3.1, after 3.3.1.12).

* :func:`approach` marches from a known configuration to a target pose through ``steps``
  intermediate poses (the rotation turned about one fixed axis, the point on a straight
  line), so that a far target is reached through small Newton problems.
* :func:`solve_path` follows a task sampled in time — positions by Newton–Gauss, then rates
  and accelerations from the same factor — as the thesis's main loop does
  (PERIOD → TRAYE → NLLS → VELAC).
"""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

import numpy as np

from ...spatial.invariants import axis_angle, rotation_from_axis_angle
from ..horner import point_derivatives
from . import targets
from .newton_gauss import accelerations, newton_gauss, rates


def approach(model, R, p, q0, *, steps: int = 10, frame: str = "ee", **options):
    """Solve for (R, p) from ``q0`` through ``steps`` intermediate poses. The result's
    ``iterations`` counts all Newton steps; it stops at the first pose that fails."""
    R = targets.rotation(R, "R")
    p = targets.point(p, "p")
    q = targets.start(model, q0)
    if int(steps) != steps or steps < 1:
        raise ValueError(f"steps: expected a positive integer, got {steps!r}")
    here = point_derivatives(model, q, frame)
    axis, angle = axis_angle(R @ here.rotation.T)
    total = 0
    for k in range(1, int(steps) + 1):
        f = k / steps
        sol = newton_gauss(
            model,
            rotation_from_axis_angle(axis, f * angle) @ here.rotation,
            (1 - f) * here.position + f * p,
            q,
            frame=frame,
            **options,
        )
        total += sol.iterations
        if not sol.converged:
            return dataclasses.replace(
                sol, iterations=total, message=f"approach: pose {k} of {steps}: {sol.message}"
            )
        q = sol.q
    return dataclasses.replace(
        sol, iterations=total, message=f"approach: {steps} poses, {total} iterations"
    )


class PathSolution(NamedTuple):
    """Joint histories along a task: t (T,), q, qd, qdd (T, n), iterations (T,),
    residual (T,), converged (T,) bool, and the first failure's message (or "")."""

    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    iterations: np.ndarray
    residual: np.ndarray
    converged: np.ndarray
    message: str


def solve_path(model, task, times, q0, *, frame: str = "ee", **options) -> PathSolution:
    """θ, θ̇, θ̈ at each of ``times`` (T,) for a ``task`` whose ``at(t)`` gives R, p, omega,
    p_dot, omega_dot, p_ddot (e.g. :class:`eslabon.trajectory.Task`), continuing from
    ``q0``. Samples after a failure are NaN and ``converged`` is False there.

    Each solve starts from the previous solution advanced by its own rates and
    accelerations, θ + θ̇Δt + ½θ̈Δt² (a second-order predictor, free since θ̇ and θ̈ are
    computed anyway; the thesis restarts from θ alone)."""
    times = np.asarray(times, dtype=float)
    if times.ndim != 1 or not np.isfinite(times).all():
        raise ValueError(f"times: expected a 1-D array of finite times, got shape {times.shape}")
    q = targets.start(model, q0)
    n, T = model.nq, len(times)
    out = {k: np.full((T, n), np.nan) for k in ("q", "qd", "qdd")}
    iters = np.zeros(T, dtype=np.int64)
    resid = np.full(T, np.nan)
    ok = np.zeros(T, dtype=bool)
    message = ""
    guess = q
    for i, t in enumerate(times):
        x = task.at(t)
        sol = newton_gauss(model, x.R, x.p, guess, frame=frame, **options)
        iters[i], resid[i] = sol.iterations, sol.residual
        if not sol.converged or sol.singular:
            message = f"t = {t:g}: {sol.message}"
            break
        q = sol.q
        qd = rates(model, sol, x.omega, x.p_dot)
        qdd = accelerations(model, sol, qd, x.omega_dot, x.p_ddot)
        out["q"][i], out["qd"][i], out["qdd"][i], ok[i] = q, qd, qdd, True
        if i + 1 < T:
            dt = times[i + 1] - t
            guess = q + qd * dt + 0.5 * qdd * dt * dt
    return PathSolution(times, out["q"], out["qd"], out["qdd"], iters, resid, ok, message)
