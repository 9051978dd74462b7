"""Time laws s(t): how fast a path parameter is swept (seed 000, Rojas 1987, §3.6 and §5.4).

A time law maps time t to a scalar s (the path parameter γ, or the coordinate β of the
T3 task) and returns ``LawSample(s, s_dot, s_ddot)``, three float arrays with the
broadcast shape of ``t`` (numpy floats for a scalar t). Every law has ``duration``, ``start``,
``end`` (the values at the ends) and ``t0`` (the time of ``start``, 0 unless given by
the knots of :func:`spline_law`).

**Outside [t0, t0 + duration] a law is clamped:** it stays at rest at its end value
(s = start before, s = end after, s_dot = s_ddot = 0). For the rest-to-rest laws
(cycloid, quintic, spline ``ends="rest"``) this is C²; for ``"natural"`` and
``"clamped"`` splines the rate (or acceleration) jumps at the ends. The one exception
is ``ends="periodic"``, which repeats with period ``duration`` instead.

Laws:

- :func:`cycloid` — s = s0 + Δ(τ − sin 2πτ / 2π), τ = (t − t0)/T. With T = 1, s0 = 0,
  Δ = 1 it is the law the β(t) of the T3 task follows (seed 000, Rojas 1987, §4.4):
  β(0.05) = 0.00082, β̇(0.05) = 0.04894, β(0.45) = 0.40082, β̇(0.45) = 1.95106; the
  thesis's β is a 21-knot spline of it (:func:`knot_rate_law`).
- :func:`quintic` — s = s0 + Δ(10τ³ − 15τ⁴ + 6τ⁵): rest to rest.
- :func:`spline_law` — a C² cubic spline through knots (the thesis's β was "synthesized
  by splines", Angeles 1983; §3.6 asks for zero rate and acceleration at both ends).
- :func:`knot_rate_law` — the C² cubic spline with given *rates* at the knots, s(t0) and
  s̈(t0) = 0: on the 21 knots t = 0, 0.05, …, 1 s with the cycloid's rates it is the β(t)
  the thesis's tables print (β̈(0.05) = 1.95774; :func:`~eslabon.trajectory.t3_beta_law`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.interpolate import BSpline, CubicHermiteSpline, CubicSpline
from scipy.sparse.linalg import spsolve

from .._args import finite_array, finite_number

__all__ = [
    "LawSample",
    "TimeLaw",
    "cycloid",
    "quintic",
    "spline_law",
    "knot_rate_law",
    "KnotRateLaw",
    "SPLINE_ENDS",
]

#: the end conditions understood by :func:`spline_law`
SPLINE_ENDS = ("rest", "natural", "clamped", "periodic")


class LawSample(NamedTuple):
    """Value, rate and acceleration of a time law; each has the broadcast shape of t.

    What a :class:`TimeLaw` returns when called; a named tuple that unpacks as
    ``s, s_dot, s_ddot``. For a scalar t each field is a numpy float.

    Attributes
    ----------
    s : ndarray (...) or numpy.float64
        The law's value s(t), usually the path parameter γ, in its units (none for
        :func:`~eslabon.trajectory.line`, rad for a circle or helix, m for the T3 β).
    s_dot : ndarray (...) or numpy.float64
        ds/dt: units of s per second.
    s_ddot : ndarray (...) or numpy.float64
        d²s/dt²: units of s per second².

    Examples
    --------
    >>> from eslabon import trajectory as tr
    >>> s, s_dot, s_ddot = tr.cycloid()(0.45)
    >>> round(float(s), 5), round(float(s_dot), 5)
    (0.40082, 1.95106)
    """

    s: np.ndarray
    s_dot: np.ndarray
    s_ddot: np.ndarray


def _finite(x, field: str) -> float:
    return finite_number(x, field)


def _times(t) -> np.ndarray:
    return finite_array(t, "t")


class TimeLaw:
    """Base class: clamping and argument checks; subclasses give ``_eval(t)`` on [t0, t1].

    A time law s(t) is called with times t of any shape and returns a :class:`LawSample`
    (s, ṡ, s̈). On [t0, t0 + duration] it is the subclass's ``_eval``; outside it is
    clamped at rest (s = ``start`` before, ``end`` after, ṡ = s̈ = 0), unless the law
    is periodic (a ``"periodic"`` :class:`SplineLaw`), which repeats with period
    ``duration``. Build laws with :func:`cycloid`, :func:`quintic` or :func:`spline_law`;
    this base class cannot be evaluated itself (``_eval`` raises NotImplementedError).

    Parameters
    ----------
    duration : float
        T [s], > 0.
    start, end : float
        The values s(t0) and s(t0 + T), in the units of the path parameter.
    t0 : float
        The time of ``start`` [s].

    Attributes
    ----------
    periodic : bool
        True for a law that repeats instead of clamping. The parameters are kept as the
        attributes ``duration``, ``start``, ``end`` and ``t0`` (floats).

    Raises
    ------
    ValueError
        A parameter that is not a finite number, naming it, or ``duration`` ≤ 0.

    Examples
    --------
    >>> from eslabon import trajectory as tr
    >>> law = tr.cycloid(2.0, 0.0, 1.0)
    >>> isinstance(law, tr.TimeLaw), law.duration, law.t0
    (True, 2.0, 0.0)
    >>> law([-1.0, 1.0, 3.0]).s.tolist()  # clamped outside [0, 2]
    [0.0, 0.5, 1.0]
    """

    periodic = False

    def __init__(self, duration, start, end, t0=0.0):
        self.duration = _finite(duration, "duration")
        if self.duration <= 0:
            raise ValueError(f"duration: expected a positive number, got {self.duration}")
        self.start = _finite(start, "start")
        self.end = _finite(end, "end")
        self.t0 = _finite(t0, "t0")

    def _eval(self, t: np.ndarray):  # pragma: no cover - abstract
        raise NotImplementedError

    def __call__(self, t) -> LawSample:
        """(s, ṡ, s̈) at times t (any shape); clamped to rest outside [t0, t0 + duration].

        Parameters
        ----------
        t : float or array_like (...)
            Times [s], finite.

        Returns
        -------
        LawSample
            s, ṡ [per s], s̈ [per s²], each of the shape of ``t`` (numpy floats for a
            scalar ``t``).

        Raises
        ------
        ValueError
            ``t`` not finite numbers.
        """
        t = _times(t)
        t1 = self.t0 + self.duration
        if self.periodic:
            tt = self.t0 + np.mod(t - self.t0, self.duration)
            s, sd, sdd = self._eval(tt)
        else:
            tt = np.clip(t, self.t0, t1)
            s, sd, sdd = self._eval(tt)
            outside = (t < self.t0) | (t > t1)
            sd = np.where(outside, 0.0, sd)
            sdd = np.where(outside, 0.0, sdd)
            s = np.where(t < self.t0, self.start, np.where(t > t1, self.end, s))
        shape = t.shape
        return LawSample(
            *(np.asarray(x, dtype=np.float64).reshape(shape)[()] for x in (s, sd, sdd))
        )

    def __repr__(self):
        return (
            f"{type(self).__name__}(duration={self.duration}, start={self.start}, end={self.end})"
        )


class _Cycloid(TimeLaw):
    def _eval(self, t):
        T, d = self.duration, self.end - self.start
        a = 2 * np.pi * (t - self.t0) / T
        return (
            self.start + d * ((t - self.t0) / T - np.sin(a) / (2 * np.pi)),
            d / T * (1 - np.cos(a)),
            d / T**2 * 2 * np.pi * np.sin(a),
        )


class _Quintic(TimeLaw):
    def _eval(self, t):
        T, d = self.duration, self.end - self.start
        x = (t - self.t0) / T
        return (
            self.start + d * x**3 * (10 - 15 * x + 6 * x**2),
            d / T * 30 * x**2 * (1 - x) ** 2,
            d / T**2 * 60 * x * (1 - x) * (1 - 2 * x),
        )


def cycloid(duration=1.0, start=0.0, end=1.0) -> TimeLaw:
    """Cycloidal rest-to-rest law s = start + (end − start)(τ − sin(2πτ)/(2π)), τ = t/T.

    ṡ = Δ(1 − cos 2πτ)/T, s̈ = 2πΔ sin(2πτ)/T²: zero rate and acceleration at t = 0, T.
    With T = 1 s, 0 → 1 m it is the law the T3 straight line's β(t) follows (Rojas
    Salgado (1987), §4.4); the thesis's own β is a 21-knot spline of it, the task's
    default (:func:`~eslabon.trajectory.t3_beta_law`). The law starts at t0 = 0 and is
    clamped at rest outside [0, T].

    Parameters
    ----------
    duration : float
        T [s], > 0.
    start, end : float
        s(0) and s(T), in the units of the path parameter (Δ = end − start).

    Returns
    -------
    TimeLaw
        Callable: ``law(t)`` gives a :class:`LawSample` (s, ṡ, s̈) at times t [s].

    Raises
    ------
    ValueError
        A parameter that is not a finite number, or ``duration`` ≤ 0.

    Examples
    --------
    >>> from eslabon import trajectory as tr
    >>> beta = tr.cycloid(1.0, 0.0, 1.0)(0.05)  # the tables print β̈ = 1.95774: t3_beta_law
    >>> round(float(beta.s), 5), round(float(beta.s_dot), 5), round(float(beta.s_ddot), 5)
    (0.00082, 0.04894, 1.94161)
    """
    return _Cycloid(duration, start, end)


def quintic(duration=1.0, start=0.0, end=1.0) -> TimeLaw:
    """Rest-to-rest quintic s = start + Δ(10τ³ − 15τ⁴ + 6τ⁵), τ = t/T (ṡ = s̈ = 0 at both ends).

    ṡ = 30Δτ²(1 − τ)²/T, s̈ = 60Δτ(1 − τ)(1 − 2τ)/T², Δ = end − start. The law starts
    at t0 = 0 and is clamped at rest outside [0, T].

    Parameters
    ----------
    duration : float
        T [s], > 0.
    start, end : float
        s(0) and s(T), in the units of the path parameter.

    Returns
    -------
    TimeLaw
        Callable: ``law(t)`` gives a :class:`LawSample` (s, ṡ, s̈) at times t [s].

    Raises
    ------
    ValueError
        A parameter that is not a finite number, or ``duration`` ≤ 0.

    Examples
    --------
    >>> from eslabon import trajectory as tr
    >>> s, s_dot, s_ddot = tr.quintic(2.0, 0.0, 1.0)(1.0)  # half-way
    >>> float(s), float(s_dot), float(s_ddot)
    (0.5, 0.9375, 0.0)
    """
    return _Quintic(duration, start, end)


class SplineLaw(TimeLaw):
    """A cubic spline law; ``spline`` is the scipy object (callable as spline(t, nu)).

    Built by :func:`spline_law`, which checks the knots; called like every
    :class:`TimeLaw` (``law(t)`` → :class:`LawSample`). Its rate and acceleration are the
    spline's derivative splines, so the rest conditions of ``ends="rest"`` hold exactly.

    Attributes
    ----------
    t_knots : ndarray
        Shape (N + 1,): the knot times [s] (read-only).
    values : ndarray
        Shape (N + 1,): the values at the knots (read-only).
    ends : str
        The end condition: ``"rest"``, ``"natural"``, ``"clamped"`` or ``"periodic"``.
    spline : scipy.interpolate.BSpline or scipy.interpolate.CubicSpline
        The spline s(t) (a ``BSpline`` for ``"rest"``). As every time law it also has
        ``duration`` = ``t_knots[-1] − t_knots[0]`` and ``t0`` = ``t_knots[0]`` [s],
        ``start`` = ``values[0]`` and ``end`` = ``values[-1]``.
    periodic : bool
        True for ``ends="periodic"``: the law repeats with period ``duration`` instead of
        being clamped.

    Examples
    --------
    >>> from eslabon import trajectory as tr
    >>> law = tr.spline_law([0.0, 1.0, 2.0], [0.0, 1.0, 3.0])
    >>> law, law.duration, law([0.0, 1.0, 2.0]).s.tolist()
    (SplineLaw(knots=3, ends='rest'), 2.0, [0.0, 1.0, 3.0])
    """

    def __init__(self, t_knots, values, ends, spline):
        super().__init__(t_knots[-1] - t_knots[0], values[0], values[-1], t_knots[0])
        self.t_knots = t_knots
        self.values = values
        self.ends = ends
        self.spline = spline
        self.periodic = ends == "periodic"
        # derivative splines (differenced coefficients): exact zeros where they should be
        self._parts = (spline, spline.derivative(1), spline.derivative(2))

    def _eval(self, t):
        return tuple(f(t) for f in self._parts)

    def __repr__(self):
        return f"SplineLaw(knots={self.t_knots.size}, ends={self.ends!r})"


def _rest_spline(x: np.ndarray, y: np.ndarray) -> BSpline:
    """C² cubic through (x_i, y_i), i = 0..N, with s′ = s″ = 0 at both ends.

    The N + 1 knots plus 4 end conditions are N + 5 equations; a cubic spline with
    breakpoints only at the knots has N + 3 coefficients. So two simple breakpoints are
    added, at the midpoints of the first and last intervals (the thirds if there is a
    single interval), giving N + 5 B-spline coefficients c_0 … c_{N+4} on clamped
    (4-fold) end knots. In that (N + 5)×(N + 5) collocation system the four end rows
    say exactly c_0 = c_1 = c_2 (s′ = s″ = 0 at t_0) and c_{N+2} = c_{N+3} = c_{N+4}, and
    the end values give c_0 = y_0, c_{N+4} = y_N. Those rows are eliminated exactly, so
    the rest conditions hold to the last bit; the remaining N − 1 interior rows
    (``BSpline.design_matrix`` at t_1 … t_{N−1}) are solved with scipy.sparse's LU.
    """
    n = x.size
    if n == 2:
        extra = [x[0] + (x[1] - x[0]) / 3, x[0] + 2 * (x[1] - x[0]) / 3]
    else:
        extra = [(x[0] + x[1]) / 2, (x[-2] + x[-1]) / 2]
    knots = np.sort(np.r_[[x[0]] * 4, x[1:-1], extra, [x[-1]] * 4])
    m = knots.size - 4  # = N + 5 coefficients
    c = np.empty(m)
    c[:3], c[-3:] = y[0], y[-1]
    if n > 2:
        A = BSpline.design_matrix(x[1:-1], knots, 3).tocsc()  # (N − 1, N + 5)
        rhs = y[1:-1] - A[:, :3] @ c[:3] - A[:, -3:] @ c[-3:]
        inner = A[:, 3:-3]
        c[3:-3] = spsolve(inner, rhs) if inner.shape[0] > 1 else rhs / inner.toarray()[0]
    return BSpline(knots, c, 3)


def spline_law(t_knots, values, ends="rest") -> SplineLaw:
    """A C² cubic spline law through (t_knots[i], values[i]).

    The thesis's β(t) was "synthesized by splines" (Rojas Salgado (1987), §3.6, after
    Angeles 1983), with zero rate and acceleration at both ends: that is ``ends="rest"``.
    The law starts at ``t_knots[0]``; outside the knots it is clamped at rest, except a
    periodic law, which repeats.

    Parameters
    ----------
    t_knots : array_like (N + 1,)
        Strictly increasing finite times [s], N ≥ 1.
    values : array_like (N + 1,)
        Finite values s(t_i), in the units of the path parameter.
    ends : {"rest", "natural", "clamped", "periodic"}
        "rest" (ṡ = s̈ = 0 at both ends: two breakpoints are added, at the midpoints of
        the first and last intervals, and the (N + 5)×(N + 5) B-spline collocation
        system is solved), "natural" (s̈ = 0 at both ends), "clamped" (ṡ = 0 at both
        ends) or "periodic" (values[0] == values[-1]; the law then repeats in time).

    Returns
    -------
    SplineLaw
        Callable: ``law(t)`` gives a :class:`LawSample` (s, ṡ [per s], s̈ [per s²]).

    Raises
    ------
    ValueError
        Naming the argument: an unknown ``ends``; ``t_knots`` or ``values`` not a 1-D
        array of finite numbers; fewer than 2 knots; as many values as knots not given;
        unsorted or duplicate knots; a periodic law whose first and last values differ.

    Notes
    -----
    The spline passes through every knot. Natural, clamped and periodic use
    :class:`scipy.interpolate.CubicSpline`.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import trajectory as tr
    >>> t = np.linspace(0.0, 1.0, 21)
    >>> beta = tr.spline_law(t, tr.cycloid()(t).s, ends="rest")  # the thesis's 21 knots
    >>> float(beta(0.0).s_dot), float(beta(1.0).s_ddot)
    (0.0, 0.0)
    >>> round(float(beta(0.05).s), 5)
    0.00082
    """
    if not isinstance(ends, str) or ends not in SPLINE_ENDS:
        raise ValueError(f"ends: expected one of {SPLINE_ENDS}, got {ends!r}")
    arrays = []
    for field, arg in (("t_knots", t_knots), ("values", values)):
        try:
            a = np.asarray(arg, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"{field}: expected a 1-D array of numbers, got {arg!r}") from None
        if a.ndim != 1:
            raise ValueError(f"{field}: expected a 1-D array, got shape {a.shape}")
        bad = ~np.isfinite(a)
        if bad.any():
            i = int(np.argmax(bad))
            raise ValueError(f"{field}: expected finite values, got {a[i]} at index {i}")
        arrays.append(a.copy())
    x, y = arrays
    if x.size < 2:
        raise ValueError(f"t_knots: expected at least 2 knots, got {x.size}")
    if y.size != x.size:
        raise ValueError(
            f"values: expected {x.size} values (one per knot in t_knots), got {y.size}"
        )
    steps = np.diff(x)
    if np.any(steps <= 0):
        i = int(np.argmax(steps <= 0))
        what = "duplicate" if steps[i] == 0 else "unsorted"
        raise ValueError(
            f"t_knots: expected strictly increasing times, got {what} knots "
            f"t[{i}] = {x[i]}, t[{i + 1}] = {x[i + 1]}"
        )
    if ends == "periodic" and y[0] != y[-1]:
        raise ValueError(
            f"values: ends='periodic' needs values[0] == values[-1], got {y[0]} and {y[-1]}"
        )
    if ends == "rest":
        spline = _rest_spline(x, y)
    else:
        spline = CubicSpline(x, y, bc_type=ends)
    x.flags.writeable = False
    y.flags.writeable = False
    return SplineLaw(x, y, ends, spline)


class KnotRateLaw(TimeLaw):
    """A C² cubic spline law fixed by its rates at the knots (built by :func:`knot_rate_law`).

    Attributes
    ----------
    t_knots : ndarray
        Shape (N + 1,): the knot times [s].
    rates : ndarray
        Shape (N + 1,): ṡ at the knots.
    values : ndarray
        Shape (N + 1,): s at the knots, as the spline's conditions give them.
    spline : scipy.interpolate.CubicHermiteSpline
        s(t) on [t_knots[0], t_knots[-1]]; ``spline(t, nu)`` for nu = 0, 1, 2. As every
        time law it also has ``duration``, ``t0``, ``start`` = ``values[0]`` and ``end`` =
        ``values[-1]``, and is clamped at rest outside its knots.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import trajectory as tr
    >>> t = np.linspace(0.0, 1.0, 5)
    >>> law = tr.knot_rate_law(t, 3 * t**2)  # s = t³ (s̈(0) = 0)
    >>> law, round(float(law(0.5).s), 12)
    (KnotRateLaw(knots=5), 0.125)
    """

    def __init__(self, t_knots, rates, spline):
        values = spline(t_knots)
        super().__init__(t_knots[-1] - t_knots[0], values[0], values[-1], t_knots[0])
        self.t_knots, self.rates, self.values, self.spline = t_knots, rates, values, spline
        self._parts = (spline, spline.derivative(1), spline.derivative(2))

    def _eval(self, t):
        return tuple(f(t) for f in self._parts)

    def __repr__(self):
        return f"KnotRateLaw(knots={self.t_knots.size})"


def knot_rate_law(t_knots, rates, start=0.0) -> KnotRateLaw:
    """The C² cubic spline law s(t) with rate ``rates[k]`` at every knot ``t_knots[k]``,
    s(t₀) = ``start`` and s̈(t₀) = 0.

    On [t_k, t_k+1] (h_k = t_k+1 − t_k, d_k = s_k+1 − s_k, rates ṡ_k) the cubic with
    these end values and rates has s̈(t_k⁺) = 6d_k/h_k² − (4ṡ_k + 2ṡ_k+1)/h_k and
    s̈(t_k+1⁻) = −6d_k/h_k² + (2ṡ_k + 4ṡ_k+1)/h_k; s̈(t₀⁺) = 0 gives d₀ and continuity of
    s̈ at each interior knot gives d_k from d_k−1. With the cycloid's rates 1 − cos 2πt
    at the 21 knots t = 0, 0.05, …, 1 s this is the β(t) [m] of Rojas Salgado (1987),
    §4.4, as its Tables 5.4.1 and 5.6.2 print it (β̈ = 1.95774 at t = 0.05 and 0.45 s;
    :func:`~eslabon.trajectory.t3_beta_law`).

    Parameters
    ----------
    t_knots : array_like (N + 1,)
        Strictly increasing finite times [s], N ≥ 1.
    rates : array_like (N + 1,)
        ṡ(t_k) [units of s per s].
    start : float
        s(t₀).

    Returns
    -------
    KnotRateLaw
        The law (clamped at rest outside the knots, like every :class:`TimeLaw`; at rest
        there only if the end rates and s̈ at the last knot are zero).

    Raises
    ------
    ValueError
        Knots or rates not finite 1-D arrays of one length ≥ 2, knots not strictly
        increasing, or ``start`` not a finite number.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import trajectory as tr
    >>> t = np.linspace(0.0, 1.0, 21)
    >>> beta = tr.knot_rate_law(t, 1.0 - np.cos(2 * np.pi * t))
    >>> round(float(beta(0.05).s_ddot), 5), round(float(beta(0.45).s_ddot), 5)
    (1.95774, 1.95774)
    """
    t = np.asarray(t_knots, dtype=float)
    v = np.asarray(rates, dtype=float)
    if t.ndim != 1 or t.size < 2 or v.shape != t.shape:
        raise ValueError(
            f"t_knots, rates: expected 1-D arrays of one length ≥ 2, got {t.shape}, {v.shape}"
        )
    if not (np.isfinite(t).all() and np.isfinite(v).all()):
        raise ValueError("t_knots, rates: expected finite numbers")
    start = _finite(start, "start")
    h = np.diff(t)
    if np.any(h <= 0):
        raise ValueError(f"t_knots: expected strictly increasing times, got {t.tolist()}")
    d = np.empty_like(h)
    d[0] = h[0] * (4 * v[0] + 2 * v[1]) / 6
    for k in range(1, h.size):
        left = -6 * d[k - 1] / h[k - 1] ** 2 + (2 * v[k - 1] + 4 * v[k]) / h[k - 1]
        d[k] = h[k] ** 2 / 6 * (left + (4 * v[k] + 2 * v[k + 1]) / h[k])
    spline = CubicHermiteSpline(t, start + np.concatenate(([0.0], np.cumsum(d))), v)
    return KnotRateLaw(t, v, spline)
