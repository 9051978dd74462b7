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

#: a turn within this of a half turn (rad) has no axis sign the data decide: the sign of
#: vect(R P₀ᵀ), of size sin φ, is then rounding noise (about 1e-16), so both ways round
#: are considered (:func:`_turn`); 1e-6 leaves ten orders of magnitude above that noise
HALF_TURN_BAND = 1e-6

#: halvings of a continuation step that fails, at most (:func:`approach`)
HALVINGS = 6

#: the largest joint motion (rad or m) accepted between two poses of a continuation: a
#: Newton solve near a singularity can converge to another branch of the inverse
#: kinematics, whole turns or thousands of degrees away; the march follows one branch
MAX_JOINT_STEP = np.pi / 2


def _spurious_distance(phi, equations):
    """Distance (rad) of absolute rotation angles ``phi`` from the spurious singularities
    of the invariant equations (module docstring of ``newton_gauss``, §3.4): φ = π for
    both systems, and φ = π/2 too for the square one (no trace row)."""
    d = np.pi - phi
    if equations == "square":
        d = np.minimum(d, np.abs(phi - np.pi / 2))
    return d


def _turn(axis, angle, start, equations):
    """(axis, angle) of the continuation's turn from ``start`` (3, 3).

    Away from a half turn, the turn of :func:`axis_angle` (the short way round). Within
    :data:`HALF_TURN_BAND` of a half turn both (e, φ) and (−e, 2π − φ) reach the target
    exactly, and the sign of e comes from rounding: two machines, or two forward-kinematics
    routines, may disagree on it. Then the way round whose intermediate orientations keep
    furthest from the equations' spurious singularities (:func:`_spurious_distance`,
    sampled at 65 points of the path) is taken; where both keep equally far (to 1e-9
    rad), the one whose axis has its first component of magnitude above 1e-6 positive.
    So the path does not depend on the last bits of ``R`` or of the start."""
    if np.pi - angle >= HALF_TURN_BAND:
        return axis, angle
    fractions = np.linspace(0.0, 1.0, 65)[:, None, None]

    def clearance(e, phi):
        path = rotation_from_axis_angle(np.broadcast_to(e, (65, 3)), fractions[:, 0, 0] * phi)
        absolute = axis_angle(path @ start).phi
        return float(np.min(_spurious_distance(absolute, equations)))

    short, long = clearance(axis, angle), clearance(-axis, 2 * np.pi - angle)
    if abs(short - long) > 1e-9:
        return (axis, angle) if short > long else (-axis, 2 * np.pi - angle)
    lead = axis[np.argmax(np.abs(axis) > 1e-6)]
    return (axis, angle) if lead > 0 else (-axis, 2 * np.pi - angle)


def approach(model, R, p, q0, *, steps: int = 10, frame: str = "ee", **options):
    """Solve for (R, p) from ``q0`` through ``steps`` intermediate poses. The result's
    ``iterations`` counts all Newton steps; it stops at a pose that fails even after
    :data:`HALVINGS` halvings of its step.

    Continuation (Rojas Salgado 1987, §3.3.1, after 3.3.1.12): from the frame's pose
    (P₀, s₀) at ``q0``, pose k of ``steps`` turns P₀ about the fixed axis of R P₀ᵀ by the
    fraction k/steps of its angle and moves the point to (1 − k/steps) s₀ + (k/steps) p,
    so the last pose is the target. Each pose is solved by :func:`newton_gauss` from the
    previous solution. Two additions to the thesis's fixed march make its outcome
    independent of rounding:

    * a pose that does not converge, or converges after a joint moved by more than
      :data:`MAX_JOINT_STEP` (onto another branch of the inverse kinematics), is retried
      from the last solved pose through a pose half way to it, up to :data:`HALVINGS`
      times (near the spurious singularity φ = π of the invariant equations, §3.4, Newton
      converges slowly or wanders, and whether it converges within ``max_iter``, and
      where, could turn on the last bits);
    * a target a half turn from P₀ (to :data:`HALF_TURN_BAND`) is reached the way round
      that keeps furthest from that singularity, not the way the rounding of the axis's
      sign would pick (:func:`_turn`).

    A pose solved at a singular configuration does not stop the march (check
    ``singular`` on the result).

    Parameters
    ----------
    model : Model
        As for :func:`newton_gauss`: revolute, prismatic and fixed joints, at most 6 on
        the chain to ``frame``.
    R : array_like (3, 3)
        Target rotation of ``frame``, world ← frame (a proper rotation).
    p : array_like (3,)
        Target position of ``frame``'s origin, m, world axes.
    q0 : array_like (n,)
        Start, n = ``model.nq``: rad (revolute), m (prismatic).
    steps : int, optional
        Number of poses, the target included (default 10; 1 is a plain
        :func:`newton_gauss`, halvings aside).
    frame : str, optional
        The frame to place (default ``"ee"``).
    **options
        ``equations``, ``tol`` and ``max_iter``, passed to :func:`newton_gauss` for each
        pose.

    Returns
    -------
    IKResult
        The result of the last pose solved (the target's when ``converged``), with
        ``iterations`` the total over the poses, failed tries included, and ``message``
        ``"approach: N poses, K iterations"`` (``"N poses (H halvings), …"`` when steps
        were halved), or naming the pose that failed and why.

    Raises
    ------
    ValueError
        ``R``, ``p`` or ``q0`` invalid (as for :func:`newton_gauss`), ``steps`` not a
        positive integer, an unknown ``frame``, and whatever :func:`newton_gauss` refuses
        (``equations``, ``tol``, ``max_iter``, more than 6 joints on the chain).
    TypeError
        An option :func:`newton_gauss` does not take.

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon.kinematics import ik
    >>> from eslabon.zoo.rojas import INITIAL_THETA_DEG
    >>> t3 = es.zoo.load("cincinnati_t3")
    >>> q_star = np.radians([10.0, 80.0, -120.0, 30.0, 70.0, 40.0])
    >>> T = es.end_effector_pose(t3, q_star)
    >>> sol = ik.approach(t3, T[:3, :3], T[:3, 3], np.radians(INITIAL_THETA_DEG), steps=5)
    >>> sol.converged, bool(np.allclose(sol.q, q_star))
    (True, True)
    >>> sol.message.startswith("approach: 5 poses")
    True
    """
    R = targets.rotation(R, "R")
    p = targets.point(p, "p")
    q = targets.start(model, q0)
    if int(steps) != steps or steps < 1:
        raise ValueError(f"steps: expected a positive integer, got {steps!r}")
    steps = int(steps)
    here = point_derivatives(model, q, frame)
    axis, angle = axis_angle(R @ here.rotation.T)
    axis, angle = _turn(axis, angle, here.rotation, options.get("equations", "redundant"))
    # fractions of the way as whole numbers over `whole`, so halving is exact
    whole = steps << HALVINGS
    pending = [k << HALVINGS for k in range(1, steps + 1)]
    reached, total, halvings = 0, 0, 0
    while pending:
        n = pending[0]
        f = n / whole
        sol = newton_gauss(
            model,
            R if n == whole else rotation_from_axis_angle(axis, f * angle) @ here.rotation,
            p if n == whole else (1 - f) * here.position + f * p,
            q,
            frame=frame,
            **options,
        )
        total += sol.iterations
        jump = float(np.max(np.abs(sol.q - q))) if sol.converged else 0.0
        if sol.converged and jump <= MAX_JOINT_STEP:
            q, reached = sol.q, n
            pending.pop(0)
            continue
        if sol.converged:
            sol = dataclasses.replace(
                sol,
                converged=False,
                message=f"a joint moved {jump:.3g} (more than {MAX_JOINT_STEP:.3g}) "
                "from the last pose solved: another branch",
            )
        if (n - reached) % 2 or n - reached == 1:
            pose = -(-n * steps // whole)
            return dataclasses.replace(
                sol,
                iterations=total,
                message=f"approach: pose {pose} of {steps}, its step halved {halvings} "
                f"times in all: {sol.message}",
            )
        pending.insert(0, reached + (n - reached) // 2)
        halvings += 1
    done = f"{steps} poses" + (f" ({halvings} halvings)" if halvings else "")
    return dataclasses.replace(
        sol, iterations=total, message=f"approach: {done}, {total} iterations"
    )


class PathSolution(NamedTuple):
    """Joint histories along a task: t (T,), q, qd, qdd (T, n), iterations (T,),
    residual (T,), converged (T,) bool, and the first failure's message (or "").

    What :func:`solve_path` returns (a named tuple). From the first sample that fails on,
    ``q``, ``qd``, ``qdd`` and ``residual`` are NaN and ``converged`` is False; the
    failing sample itself keeps its ``iterations`` and ``residual``.

    Attributes
    ----------
    t : ndarray
        ``(T,)``: the sample times, s.
    q : ndarray
        ``(T, n)``: joint positions θ, rad (revolute) or m (prismatic).
    qd : ndarray
        ``(T, n)``: joint rates θ̇, rad/s or m/s.
    qdd : ndarray
        ``(T, n)``: joint accelerations θ̈, rad/s² or m/s².
    iterations : ndarray
        ``(T,)`` int64: Newton steps at each sample (0 after the first failure).
    residual : ndarray
        ``(T,)``: ‖f‖∞ of the position solve at each sample (dimensionless and m rows;
        NaN after the first failure).
    converged : ndarray
        ``(T,)`` bool: True where ``q``, ``qd`` and ``qdd`` were computed.
    message : str
        ``"t = …: <the solver's message>"`` for the first failure, ``""`` when none.

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon import trajectory as tr
    >>> from eslabon.kinematics import ik
    >>> from eslabon.zoo.rojas import INITIAL_THETA_DEG
    >>> t3 = es.zoo.load("cincinnati_t3")
    >>> out = ik.solve_path(t3, tr.t3_straight_line_task(), [0.0, 0.5, 1.0],
    ...                     np.radians(INITIAL_THETA_DEG))
    >>> out.q.shape, out.converged.tolist(), out.message
    ((3, 6), [True, True, True], '')
    """

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
    computed anyway; the thesis restarts from θ alone).

    The thesis's main loop (Rojas Salgado 1987, routines PERIOD → TRAYE → NLLS → VELAC;
    §3.3.1–3.3.3): at each time :func:`newton_gauss` for θ, then :func:`rates` and
    :func:`accelerations` with its factor. The path stops at the first sample whose solve
    does not converge or converges at a singular configuration.

    Parameters
    ----------
    model : Model
        As for :func:`newton_gauss`: revolute, prismatic and fixed joints, at most 6 on
        the chain to ``frame``.
    task : object with ``at(t)``
        ``task.at(t)`` for a float t returns R (3, 3), p (3,) m, omega (3,) rad/s, p_dot
        (3,) m/s, omega_dot (3,) rad/s², p_ddot (3,) m/s² as attributes, world axes
        (:class:`eslabon.trajectory.TaskState`).
    times : array_like (T,)
        Sample times, s: finite, in the order they are solved (each seeds the next).
    q0 : array_like (n,)
        Start for the first sample, n = ``model.nq``: rad (revolute), m (prismatic).
    frame : str, optional
        The frame that follows the task (default ``"ee"``).
    **options
        ``equations``, ``tol`` and ``max_iter``, passed to :func:`newton_gauss`.

    Returns
    -------
    PathSolution
        t (T,) s; q, qd, qdd (T, n) in rad, rad/s, rad/s² (m, m/s, m/s² for prismatic
        joints); iterations, residual and converged (T,); and the first failure's
        ``message`` (``""`` when every sample converged).

    Raises
    ------
    ValueError
        ``times`` not a 1-D array of finite numbers; ``q0`` invalid; task data
        :func:`newton_gauss` refuses (a rotation that is not proper, a non-finite point)
        or rates and accelerations the chain cannot produce (fewer than 6 joints on the
        chain to ``frame``); what :func:`newton_gauss` refuses of ``model``, ``frame``
        and ``options``.
    TypeError
        An option :func:`newton_gauss` does not take.

    Examples
    --------
    The Cincinnati T3 along its straight-line task (§4.4), every 0.1 s:

    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon import trajectory as tr
    >>> from eslabon.kinematics import ik
    >>> from eslabon.zoo.rojas import INITIAL_THETA_DEG
    >>> t3, task = es.zoo.load("cincinnati_t3"), tr.t3_straight_line_task()
    >>> times = np.linspace(0.0, 1.0, 11)
    >>> out = ik.solve_path(t3, task, times, np.radians(INITIAL_THETA_DEG))
    >>> bool(out.converged.all()), out.qdd.shape, bool(out.iterations.max() <= 5)
    (True, (11, 6), True)
    >>> end = es.end_effector_pose(t3, out.q[-1])
    >>> bool(np.allclose(end[:3, 3], task.at(1.0).p))
    True
    """
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
