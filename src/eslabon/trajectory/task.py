"""End-effector tasks: pose, twist and twist rate versus time, as inverse kinematics needs them.

Seed 000 (Rojas 1987) §3.6 and §4.4/§5.4. A :class:`Task` joins

- a path p(γ) (:mod:`eslabon.trajectory.paths`),
- a time law γ(t) (:mod:`eslabon.trajectory.laws`),
- an orientation: a fixed rotation (ω = ω̇ = 0) or ``"frenet"`` (R = [e_t, e_n, e_b],
  ω and ω̇ from (3.6.25)–(3.6.26), :mod:`eslabon.trajectory.frenet`),

and gives at times t (any shape (...)):

    p = p(γ),  ṗ = p′γ̇,  p̈ = p″γ̇² + p′γ̈,  R, ω, ω̇

as a :class:`TaskState` (R (..., 3, 3); the others (..., 3)), all in the base frame.
Outside the law's time interval γ is clamped (at rest), so the task holds its end pose.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._args import finite_number
from ..spatial.invariants import as_rotation
from .frenet import RTOL, _frame, _motion
from .laws import TimeLaw, cycloid, knot_rate_law
from .paths import ParametricPath, Path, _point, line

__all__ = [
    "TaskState",
    "Task",
    "straight_line_task",
    "t3_path",
    "t3_straight_line_task",
    "t3_beta_law",
    "T3_BETA_KNOTS",
    "T3_BETA_LAWS",
    "T3_X",
    "T3_Z",
    "T3_ROTATION",
]

#: the Cincinnati T3 straight-line task of §4.4: x, z (m) and R (fixed)
T3_X = 1.33125
T3_Z = 1.79875
T3_ROTATION = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, -1.0], [-1.0, 0.0, 0.0]])
T3_ROTATION.flags.writeable = False


class TaskState(NamedTuple):
    """Pose and its rates at times t: R (..., 3, 3); p, omega, p_dot, omega_dot, p_ddot (..., 3).

    What :meth:`Task.at` returns: the end-effector data inverse kinematics consumes, all
    in the robot's base frame (the frame of the path's points), for times t of shape (...).

    Attributes
    ----------
    R : ndarray (..., 3, 3)
        End-effector orientation (base ← end effector).
    p : ndarray (..., 3)
        Position p(γ) [m].
    omega : ndarray (..., 3)
        Angular velocity [rad/s] (zero for a fixed orientation).
    p_dot : ndarray (..., 3)
        Linear velocity ṗ = p′γ̇ [m/s].
    omega_dot : ndarray (..., 3)
        Angular acceleration [rad/s²] (zero for a fixed orientation).
    p_ddot : ndarray (..., 3)
        Linear acceleration p̈ = p″γ̇² + p′γ̈ [m/s²].

    Examples
    --------
    >>> from eslabon import trajectory as tr
    >>> state = tr.t3_straight_line_task().at([0.05, 0.45])
    >>> state.R.shape, state.p.shape, state.p[:, 1].round(5).tolist()
    ((2, 3, 3), (2, 3), [0.00082, 0.40082])
    """

    R: np.ndarray
    p: np.ndarray
    omega: np.ndarray
    p_dot: np.ndarray
    omega_dot: np.ndarray
    p_ddot: np.ndarray


def _rotation(R, field: str = "orientation") -> np.ndarray:
    """One proper rotation (3, 3), read-only copy; errors name ``field``."""
    M = np.array(as_rotation(R, field), dtype=np.float64)
    if M.shape != (3, 3):
        raise ValueError(
            f"{field}: expected 'frenet' or a (3, 3) rotation matrix, got shape {M.shape}"
        )
    M.flags.writeable = False
    return M


class Task:
    """An end-effector task from a path, a time law γ(t) and an orientation.

    Rojas Salgado (1987), §3.6, §4.4 and §5.4: at times t the task gives p = p(γ),
    ṗ = p′γ̇, p̈ = p″γ̇² + p′γ̈ and the orientation R with ω, ω̇, all in the base frame
    (:meth:`at`). Outside the law's time interval γ is clamped at rest, so the task holds
    its end pose.

    Parameters
    ----------
    path : Path
        The path p(γ) [m], in the base frame, with analytic derivatives to order 2, or 4
        for ``"frenet"``.
    law : TimeLaw
        γ(t), γ̇, γ̈ (e.g. :func:`~eslabon.trajectory.cycloid`).
    orientation : array_like (3, 3) or "frenet"
        A fixed rotation (base ← end effector; then ω = ω̇ = 0), or ``"frenet"``: the end
        effector's axes follow the path's tangent, normal and binormal
        (:func:`~eslabon.trajectory.frenet_motion`). With ``"frenet"`` the frame is
        checked at 129 instants of the law on construction: a ValueError naming
        ``orientation`` and the γ value is raised where the curvature vanishes (e.g. a
        straight line). Isolated inflection points between those samples are only
        caught when :meth:`at` lands on them.

    Attributes
    ----------
    path : Path
        As given.
    law : TimeLaw
        As given.
    rotation : ndarray (3, 3) or None
        The fixed rotation (read-only), None for ``"frenet"``.
    orientation : ndarray (3, 3) or str
        The fixed rotation, or ``"frenet"``.
    duration : float
        The law's duration [s].

    Raises
    ------
    ValueError
        ``path`` not a :class:`~eslabon.trajectory.Path` or ``law`` not a
        :class:`~eslabon.trajectory.TimeLaw`; a string orientation other than
        ``"frenet"``; ``"frenet"`` on a path with derivatives to order < 4 or where the
        frame is undefined at a sampled instant; a fixed orientation on a path of order
        < 2, or a matrix that is not a proper rotation.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import trajectory as tr
    >>> e2 = tr.Task(tr.e2_sphere_cylinder(a=1.0, b=0.5), tr.quintic(60.0, 0.0, 2 * np.pi))
    >>> state = e2.at(np.arange(0.0, 60.5, 0.5))  # IK every 0.5 s, as in §3.6
    >>> state.R.shape, state.omega.shape, e2.duration
    ((121, 3, 3), (121, 3), 60.0)
    """

    def __init__(self, path: Path, law: TimeLaw, orientation="frenet"):
        if not isinstance(path, Path):
            raise ValueError(
                f"path: expected an eslabon.trajectory Path, got {type(path).__name__}"
            )
        if not isinstance(law, TimeLaw):
            raise ValueError(
                f"law: expected an eslabon.trajectory time law, got {type(law).__name__}"
            )
        self.path, self.law = path, law
        if isinstance(orientation, str):
            if orientation != "frenet":
                raise ValueError(
                    f"orientation: expected 'frenet' or a (3, 3) rotation "
                    f"matrix, got {orientation!r}"
                )
            if path.order < 4:
                raise ValueError(
                    f"orientation: 'frenet' needs a path with derivatives up "
                    f"to p⁗; {path.name!r} has order {path.order}"
                )
            self.rotation = None
            g = law(np.linspace(law.t0, law.t0 + law.duration, 129)).s
            try:
                _frame(path.derivatives(g, 4), g, RTOL, "orientation")
            except ValueError as exc:
                raise ValueError(f"{exc} (orientation 'frenet' on path {path.name!r})") from None
        else:
            if path.order < 2:
                raise ValueError(
                    f"path: a task needs p′ and p″; {path.name!r} has order {path.order}"
                )
            self.rotation = _rotation(orientation)
        self.orientation = "frenet" if self.rotation is None else self.rotation

    @property
    def duration(self) -> float:
        """Duration of the time law (s)."""
        return self.law.duration

    def at(self, t) -> TaskState:
        """The :class:`TaskState` at times t (any shape).

        Parameters
        ----------
        t : float or array_like (...)
            Times [s], finite; outside the law's interval the task holds its end pose.

        Returns
        -------
        TaskState
            R (..., 3, 3); p [m], ω [rad/s], ṗ [m/s], ω̇ [rad/s²], p̈ [m/s²] (..., 3), in
            the base frame.

        Raises
        ------
        ValueError
            ``t`` not finite; with ``"frenet"``, a time whose γ is where the frame is
            undefined (naming the γ).
        """
        g, gd, gdd = self.law(t)
        g, gd, gdd = (np.asarray(x) for x in (g, gd, gdd))
        frenet = self.rotation is None
        d = self.path.derivatives(g, 4 if frenet else 2)
        p = d[0]
        p_dot = d[1] * gd[..., None]
        p_ddot = d[2] * (gd**2)[..., None] + d[1] * gdd[..., None]
        if frenet:
            R, omega, omega_dot = _motion(d, g, gd, gdd, RTOL, "orientation")
        else:
            R = np.broadcast_to(self.rotation, g.shape + (3, 3)).copy()
            omega = np.zeros(g.shape + (3,))
            omega_dot = np.zeros(g.shape + (3,))
        return TaskState(R, p, omega, p_dot, omega_dot, p_ddot)

    def __repr__(self):
        o = "'frenet'" if self.rotation is None else "fixed"
        return f"Task(path={self.path!r}, law={self.law!r}, orientation={o})"


def straight_line_task(p0, p1, rotation, law: TimeLaw | None = None) -> Task:
    """p0 → p1 along a line with a fixed orientation; γ = law(t) must go from 0 to 1.

    ``law`` defaults to :func:`~eslabon.trajectory.laws.cycloid` with duration 1 s.

    Parameters
    ----------
    p0, p1 : array_like (3,)
        Start and end points [m], base frame.
    rotation : array_like (3, 3)
        The fixed end-effector orientation (base ← end effector), a proper rotation.
    law : TimeLaw, optional
        γ(t) from 0 to 1 (start = 0, end = 1); times in s.

    Returns
    -------
    Task
        The task, with ω = ω̇ = 0.

    Raises
    ------
    ValueError
        A law that does not run from 0 to 1 or is not a time law; points not 3 finite
        numbers, or p1 equal to p0; ``rotation`` not a proper rotation.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import trajectory as tr
    >>> task = tr.straight_line_task(
    ...     [0.5, 0.0, 0.3], [0.5, 0.4, 0.3], np.eye(3), tr.quintic(2.0, 0.0, 1.0)
    ... )
    >>> state = task.at(1.0)  # half-way
    >>> state.p.tolist(), state.p_dot.tolist()
    ([0.5, 0.2, 0.3], [0.0, 0.375, 0.0])
    """
    law = cycloid(1.0, 0.0, 1.0) if law is None else law
    if isinstance(law, TimeLaw) and (law.start != 0.0 or law.end != 1.0):
        raise ValueError(
            f"law: expected a law from 0 to 1 (the line's parameter), got "
            f"start = {law.start}, end = {law.end}"
        )
    return Task(line(p0, p1), law, _rotation(rotation, "rotation"))


def t3_path(z_wave: float = 0.0) -> ParametricPath:
    """p(β) = [1.33125, β, 1.79875 + w sin(2πβ)] (m), β ∈ [0, 1] (§4.4, §5.4).

    p^(k) = [0, δ_k1, w(2π)^k sin(2πβ + kπ/2)] for k ≥ 1. w = 0 is the nominal line of
    §4.4; w = 0.03 m the perturbed path of §5.4 (the thesis prints "sen(2πθ)"; β is meant).
    The thesis is Rojas Salgado (1987); the points are in the base frame of the
    Cincinnati Milacron T3 (zoo ``cincinnati_t3``).

    Parameters
    ----------
    z_wave : float
        w [m], the amplitude of the vertical wave.

    Returns
    -------
    ParametricPath
        Order 4, domain (0, 1), named ``"t3_line"`` (w = 0) or ``"t3_wavy_line"``; β in
        m.

    Raises
    ------
    ValueError
        ``z_wave`` not a finite number.

    Examples
    --------
    >>> from eslabon import trajectory as tr
    >>> tr.t3_path(0.03)(0.25).tolist()
    [1.33125, 0.25, 1.82875]
    """
    w = finite_number(z_wave, "z_wave")
    base = _point([T3_X, 0.0, T3_Z], "p")

    def deriv(k):
        def f(beta):
            beta = np.asarray(beta, dtype=np.float64)
            z = w * (2 * np.pi) ** k * np.sin(2 * np.pi * beta + k * np.pi / 2)
            y = beta if k == 0 else np.full_like(beta, 1.0 if k == 1 else 0.0)
            out = np.stack(np.broadcast_arrays(np.zeros_like(beta), y, z), axis=-1)
            return out + base if k == 0 else out

        return f

    return ParametricPath(
        deriv(0),
        [deriv(k) for k in range(1, 5)],
        (0.0, 1.0),
        "t3_line" if w == 0 else "t3_wavy_line",
    )


#: the 21 knots t = 0, 0.05, …, 1 s [s] of §4.4's β(t) spline (the thesis's program reads
#: 21 knots, XA, YA, AX, BX, CX, from an input file and calls SPLINE(21, 20, …))
T3_BETA_KNOTS = np.linspace(0.0, 1.0, 21)

#: the β(t) laws of :func:`t3_beta_law`; the first is the default
T3_BETA_LAWS = ("spline", "cycloid")


def t3_beta_law(kind: str = "spline") -> TimeLaw:
    """β(t) [m] of the T3 task of Rojas Salgado (1987), §4.4: 0 → 1 m over 1 s, at rest at
    both ends.

    ``"spline"`` (the default) is the thesis's: its β is "synthesized with splines" on 21
    knots (§4.4, Fig. 4.4.2), whose values are in an input file the thesis does not print.
    The spline identified from what it does print is the C² cubic spline on the knots
    t = 0, 0.05, …, 1 s taking the cycloid's rate 1 − cos 2πt at each knot, with
    β(0) = β̈(0) = 0 (:func:`~eslabon.trajectory.knot_rate_law`): it gives the printed
    β = 0.00082, 0.40082, β̇ = 0.04894, 1.95106 and β̈ = 1.95774 at t = 0.05 and 0.45 s
    (Tables 5.4.1, 5.6.2), and β(1) = 1, β̇(1) = β̈(1) = 0 to round-off. ``"cycloid"`` is
    the exact law β = t − sin(2πt)/2π those knots sample (β̈(0.05) = 1.94161); it differs
    from the spline by at most 9e-6 m in β, 2.6e-4 m/s in β̇ and 0.053 m/s² in β̈.

    Parameters
    ----------
    kind : str
        One of :data:`T3_BETA_LAWS`.

    Returns
    -------
    TimeLaw
        A :class:`~eslabon.trajectory.KnotRateLaw` (``"spline"``) or the cycloid law.

    Raises
    ------
    ValueError
        ``kind`` not one of :data:`T3_BETA_LAWS`.

    Examples
    --------
    >>> from eslabon import trajectory as tr
    >>> beta = tr.t3_beta_law()
    >>> [round(float(x), 5) for x in beta(0.05)]
    [0.00082, 0.04894, 1.95774]
    >>> round(float(tr.t3_beta_law("cycloid")(0.05).s_ddot), 5)
    1.94161
    """
    if kind == "spline":
        return knot_rate_law(T3_BETA_KNOTS, 1.0 - np.cos(2 * np.pi * T3_BETA_KNOTS), 0.0)
    if kind == "cycloid":
        return cycloid(1.0, 0.0, 1.0)
    raise ValueError(f"beta: expected one of {T3_BETA_LAWS}, got {kind!r}")


def t3_straight_line_task(z_wave: float = 0.0, beta: str = "spline") -> Task:
    """The Cincinnati T3 task of §4.4 (a straight line at fixed orientation).

    x = 1.33125 m, y = β(t), z = 1.79875 + z_wave·sin(2πβ) m, R fixed
    [[0, 1, 0], [0, 0, −1], [−1, 0, 0]] (2 vect R = (1, 1, −1), tr R = 0): Rojas Salgado
    (1987), §4.4, in the T3's base frame (zoo ``cincinnati_t3``). The constants are
    ``T3_X``, ``T3_Z`` and ``T3_ROTATION``. β(t) (0 → 1 m over 1 s) is by default the
    thesis's 21-knot spline, which gives the printed ÿ = 1.95774 at t = 0.05 s; ``beta=
    "cycloid"`` takes the exact cycloid instead (ÿ(0.05) = 1.94161): :func:`t3_beta_law`.

    z_wave = 0.03 gives the perturbed task of §5.4, whose β is "as in the example of
    §4.4" (the same spline).

    Parameters
    ----------
    z_wave : float
        The amplitude of the vertical wave [m] (0 for the straight line of §4.4).
    beta : str
        The law of β: ``"spline"`` (default) or ``"cycloid"`` (:data:`T3_BETA_LAWS`).

    Returns
    -------
    Task
        Path :func:`t3_path`, law :func:`t3_beta_law` (1 s, 0 → 1), orientation
        ``T3_ROTATION``.

    Raises
    ------
    ValueError
        ``z_wave`` not a finite number; ``beta`` not one of :data:`T3_BETA_LAWS`.

    Examples
    --------
    >>> from eslabon import trajectory as tr
    >>> state = tr.t3_straight_line_task().at(0.05)  # Tables 5.4.1, 5.6.1
    >>> round(float(state.p[1]), 5), round(float(state.p_dot[1]), 5)
    (0.00082, 0.04894)
    >>> round(float(state.p_ddot[1]), 5)
    1.95774
    >>> round(float(tr.t3_straight_line_task(beta="cycloid").at(0.05).p_ddot[1]), 5)
    1.94161
    """
    return Task(t3_path(z_wave), t3_beta_law(beta), T3_ROTATION)
