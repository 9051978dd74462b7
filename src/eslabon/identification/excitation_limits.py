"""An excitation designed within position, rate, acceleration and torque limits, ready to
play on a controller.

Swevers, Ganseman, Tükel, De Schutter & Van Brussel 1997, "Optimal robot excitation and
identification", IEEE Trans. Robotics and Automation 13(5), §IV: the coefficients x = (a,
b, q0) of the finite Fourier series of :mod:`.excitation` are chosen to

    minimise  log cond(W_b(x))
    subject to  q_lower ≤ q(t_k) ≤ q_upper,  abs(q̇(t_k)) ≤ q̇_max,  abs(q̈(t_k)) ≤ q̈_max,
                abs(τ(t_k)) ≤ τ_max,   q̇(0) = 0,  q̈(0) = 0,

with W_b the base regressor (:mod:`.base_parameters`) of the M design times t_k = k T / M
of one period T stacked, and τ(t_k) = Y(q, q̇, q̈) π the inverse dynamics of the model
along the trajectory (:func:`.joint_torque_regressor`, so one evaluation of Y gives both
the criterion and the torques). The position, rate and acceleration constraints and the
two rest conditions are linear in x; the torque constraints are not. Each limit is
tightened by ``margin`` of its size, and the problem is solved by SLSQP (Kraft 1988,
scipy.optimize) with forward-difference gradients of the criterion and the torques.

The rest conditions make the motion start and end (it is periodic) at rest at q(0), so a
controller can move to q(0), then play whole periods. A rate of magnitude at most
``REST_RATE`` × its joint's rate limit is taken as 0 (rest: the Coulomb column's sign q̇
is 0, and the sample's q̇ is 0) in the criterion, the checks, the exported q̇ and torques,
so none of them follows the round-off of q̇(0). After
the solve every limit is checked on ``16 M`` evenly spaced times of a period; when one
fails between the design times, M is doubled and the solve resumed from the last
coefficients (at most twice).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.optimize

from .base_parameters import BaseParameters, base_parameters
from .excitation import FourierExcitation
from .parameters import parameters
from .regressor import joint_torque_regressor

CHECK_DENSITY = 16  # times of the dense check per design time
# |q̇| at most this fraction of the joint's rate limit counts as rest: the Coulomb column
# sign(q̇) is 0 there, so at the rest start (q̇(0) = 0 up to round-off, the solver's
# equality tolerance and the 1.5e-8 forward-difference steps) it does not follow round-off
REST_RATE = 1e-6
REFINEMENTS = 2  # at most this many doublings of the design times
UNLIMITED_RANGE = np.pi  # half range of a revolute joint without position limits [rad]


@dataclass(frozen=True)
class JointLimits:
    """Per-rate limits of a fixed-base model (``inf`` where there is none).

    Attributes
    ----------
    q_lower, q_upper : ndarray ``(nv,)``
        Position limits [rad, m]; finite, lower < upper.
    qd_max : ndarray ``(nv,)``
        Rate limits [rad/s, m/s]; positive and finite.
    qdd_max : ndarray ``(nv,)``
        Acceleration limits [rad/s², m/s²]; positive, ``inf`` for none.
    tau_max : ndarray ``(nv,)``
        Torque limits [N·m, N]; positive, ``inf`` for none.
    """

    q_lower: np.ndarray
    q_upper: np.ndarray
    qd_max: np.ndarray
    qdd_max: np.ndarray
    tau_max: np.ndarray

    def __post_init__(self):
        for name in ("q_lower", "q_upper", "qd_max", "qdd_max", "tau_max"):
            object.__setattr__(self, name, np.asarray(getattr(self, name), dtype=float))
        n = self.q_lower.shape
        for name in ("q_upper", "qd_max", "qdd_max", "tau_max"):
            if getattr(self, name).shape != n:
                raise ValueError(
                    f"{name}: expected shape {n} like q_lower, got {getattr(self, name).shape}"
                )
        if not (np.all(np.isfinite(self.q_lower)) and np.all(np.isfinite(self.q_upper))):
            raise ValueError("q_lower, q_upper: expected finite position limits")
        if np.any(self.q_lower >= self.q_upper):
            raise ValueError(
                f"q_lower, q_upper: expected lower < upper, got {self.q_lower.tolist()} and "
                f"{self.q_upper.tolist()}"
            )
        if not np.all(np.isfinite(self.qd_max)) or np.any(self.qd_max <= 0.0):
            raise ValueError(f"qd_max: expected positive finite rates, got {self.qd_max.tolist()}")
        for name in ("qdd_max", "tau_max"):
            value = getattr(self, name)
            if np.any(np.isnan(value)) or np.any(value <= 0.0):
                raise ValueError(
                    f"{name}: expected positive limits (inf for none), got {value.tolist()}"
                )

    @classmethod
    def of(cls, model, *, urdf=None, q_lower=None, q_upper=None, qd_max=None, qdd_max=None,
           tau_max=None) -> JointLimits:  # fmt: skip
        """The limits of a model: those given, else the URDF's ``<limit lower upper
        velocity effort>`` of each joint by name, else defaults.

        Parameters
        ----------
        model : Model
            A fixed-base model (nq = nv).
        urdf : str or path-like, optional
            A URDF file whose joints carry the model's joint names.
        q_lower, q_upper, qd_max, qdd_max, tau_max : array_like ``(nv,)`` or float, optional
            Limits that override the file's (a float applies to every joint).

        Returns
        -------
        JointLimits
            Defaults where neither gives one: positions ±π rad (±0.5 m prismatic), rates
            2 rad/s (1 m/s), accelerations and torques unlimited.

        Raises
        ------
        ValueError
            nq ≠ nv, an unreadable file, or limits that :class:`JointLimits` refuses.

        Examples
        --------
        >>> import eslabon as es
        >>> from eslabon.identification import JointLimits
        >>> lim = JointLimits.of(es.zoo.load("planar2"), qd_max=1.5, tau_max=[30, 10])
        >>> lim.qd_max.tolist(), lim.tau_max.tolist(), lim.q_upper.round(4).tolist()
        ([1.5, 1.5], [30.0, 10.0], [3.1416, 3.1416])
        """
        from .._engine.joint_types import rotates

        if model.nq != model.nv:
            raise ValueError(
                f"model: expected nq = nv (a fixed base), got {model.nq} and {model.nv}"
            )
        nv = model.nv
        turning = rotates(model.joint_type)[np.asarray(model.dof_bodies)]
        half = np.where(turning, UNLIMITED_RANGE, 0.5)
        found = {
            "q_lower": -half,
            "q_upper": half.copy(),
            "qd_max": np.where(turning, 2.0, 1.0),
            "qdd_max": np.full(nv, np.inf),
            "tau_max": np.full(nv, np.inf),
        }
        if urdf is not None:
            for k, limits in _urdf_limits(Path(urdf)).items():
                rates = [j for j in range(nv) if model.v_names[j] == k]
                for j in rates:
                    for name, value in limits.items():
                        found[name][j] = value
        given = {"q_lower": q_lower, "q_upper": q_upper, "qd_max": qd_max, "qdd_max": qdd_max,
                 "tau_max": tau_max}  # fmt: skip
        for name, value in given.items():
            if value is not None:
                value = np.broadcast_to(np.asarray(value, dtype=float), (nv,)).copy()
                found[name] = value
        return cls(**found)


def _urdf_limits(path: Path) -> dict:
    """{joint name: {field: value}} of a URDF's revolute and prismatic ``<limit>``s."""
    import xml.etree.ElementTree as ET

    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as exc:
        raise ValueError(f"urdf: cannot read {str(path)!r}: {exc}") from None
    out = {}
    for joint in root.iter("joint"):
        limit = joint.find("limit")
        if limit is None or joint.get("type") not in ("revolute", "prismatic"):
            continue
        entry: dict[str, float] = {}
        try:
            value = {
                k: float(limit.get(k) or 0.0) for k in ("lower", "upper", "velocity", "effort")
            }
        except ValueError:
            raise ValueError(
                f"urdf: joint {joint.get('name')!r}: a <limit> attribute is not a number"
            ) from None
        for key, number in value.items():
            if not np.isfinite(number):
                raise ValueError(
                    f"urdf: joint {joint.get('name')!r}: <limit> {key}={number}; expected a "
                    "finite number"
                )
        if value["lower"] < value["upper"]:
            entry.update(q_lower=value["lower"], q_upper=value["upper"])
        for key, name in (("velocity", "qd_max"), ("effort", "tau_max")):
            if value[key] > 0.0:
                entry[name] = value[key]
        out[joint.get("name")] = entry
    return out


@dataclass(frozen=True)
class DesignedExcitation:
    """The result of :func:`design_excitation`.

    Attributes
    ----------
    excitation : FourierExcitation
        The designed motion (starts and ends at rest when ``rest_at_start``).
    condition : float
        cond(W_b) of its base regressor stacked at the design times ``times``.
    start_condition : float
        That of the start.
    times : ndarray ``(M,)``
        The design times of one period [s].
    usage : dict
        {"q", "qd", "qdd", "tau": ndarray ``(nv,)``}: the largest fraction of each joint's
        limit used on the dense check (position: of the distance from the range's middle
        to its end; ≤ 1 means within the limit).
    limits : JointLimits
        The limits designed for.
    base : BaseParameters
        The base parameters whose regressor was conditioned.
    iterations : int
        SLSQP iterations over all solves.
    """

    excitation: FourierExcitation
    condition: float
    start_condition: float
    times: np.ndarray
    usage: dict
    limits: JointLimits
    base: BaseParameters
    iterations: int

    def trajectory(self, model, *, samples: int = 1000, periods: int = 1):
        """The motion sampled for a controller, with its inverse-dynamics torques.

        Parameters
        ----------
        model : Model
            The model designed for.
        samples : int
            Samples per period (the last period's end included once).
        periods : int
            Whole periods to play.

        Returns
        -------
        Trajectory
            t from 0, q, q̇, q̈ of the excitation (a rate of magnitude at most
            ``REST_RATE`` × its limit written as 0) and τ = :func:`eslabon.inverse_dynamics`
            along it (the feed-forward), with the model's name and coordinate names;
            ``save`` writes it as CSV (``t,q:<joint>…,qd:…,qdd:…,tau:…``) or NPZ.
        """
        from ..sim.trajectory import Trajectory

        if int(samples) < 2 or int(periods) < 1:
            raise ValueError(f"samples, periods: expected ≥ 2 and ≥ 1, got {samples}, {periods}")
        count = int(samples) * int(periods) + 1
        t = np.linspace(0.0, self.excitation.period * int(periods), count)
        q, qd, qdd = _sampled(self.excitation, t, self.limits.qd_max)
        tau = joint_torque_regressor(model, q, qd, qdd) @ parameters(model)
        return Trajectory(
            t, q, qd, qdd, tau, model_name=model.name, q_names=tuple(model.q_names),
            v_names=tuple(model.v_names),
        )  # fmt: skip


def _kinematic_maps(t, frequency, n, harmonics):
    """Matrices (N·n, 2nL + n) giving q, q̇, q̈ at times t (rows k·n + i) from
    x = (a raveled (n, L), b raveled (n, L), q0 (n,)) (module docstring)."""
    w = frequency * np.arange(1, harmonics + 1)
    s, c = np.sin(t[:, None] * w), np.cos(t[:, None] * w)
    eye = np.eye(n)
    rows = len(t) * n

    def block(P, Q, offset):
        spread = np.einsum("ij,kl->kijl", eye, P).reshape(rows, n * harmonics)
        spread_b = np.einsum("ij,kl->kijl", eye, Q).reshape(rows, n * harmonics)
        constant = np.tile(eye, (len(t), 1)) * offset
        return np.concatenate([spread, spread_b, constant], axis=1)

    return block(s / w, -c / w, 1.0), block(c, s, 0.0), block(-s * w, c * w, 0.0)


def _excitation(x, frequency, n, harmonics):
    size = n * harmonics
    return FourierExcitation(
        frequency, x[2 * size :].copy(), x[:size].reshape(n, harmonics).copy(),
        x[size : 2 * size].reshape(n, harmonics).copy(),
    )  # fmt: skip


def _sampled(excitation, t, qd_max):
    """q, q̇, q̈ at times t with rates below ``REST_RATE`` of the joint's limit set to 0."""
    q, qd, qdd = excitation.sample(t)
    return q, np.where(np.abs(qd) <= REST_RATE * qd_max, 0.0, qd), qdd


def _usage(model, excitation, limits, t, pi):
    q, qd, qdd = _sampled(excitation, t, limits.qd_max)
    tau = joint_torque_regressor(model, q, qd, qdd) @ pi
    middle = 0.5 * (limits.q_upper + limits.q_lower)
    half = 0.5 * (limits.q_upper - limits.q_lower)
    return {
        "q": np.max(np.abs(q - middle), axis=0) / half,
        "qd": np.max(np.abs(qd), axis=0) / limits.qd_max,
        "qdd": np.max(np.abs(qdd), axis=0) / limits.qdd_max,
        "tau": np.max(np.abs(tau), axis=0) / limits.tau_max,
    }


def design_excitation(
    model,
    limits: JointLimits | None = None,
    *,
    period: float = 10.0,
    harmonics: int = 5,
    samples: int = 100,
    base: BaseParameters | None = None,
    margin: float = 0.02,
    rest_at_start: bool = True,
    max_iterations: int = 100,
    seed: int = 0,
) -> DesignedExcitation:
    """A Fourier excitation of small cond(W_b) within every limit (module docstring).

    Parameters
    ----------
    model : Model
        The robot (fixed base, nq = nv), with the parameters that predict its torques.
    limits : JointLimits, optional
        Default ``JointLimits.of(model)``.
    period : float
        T = 2π / ω_f [s].
    harmonics : int
        L, harmonics per joint.
    samples : int
        M, design times per period (M·nv > the number of base parameters).
    base : BaseParameters, optional
        Default ``base_parameters(model)`` (friction and armature included).
    margin : float
        Each limit is tightened by this fraction of its size during the solve (0 ≤ margin
        < 0.5).
    rest_at_start : bool
        Impose q̇(0) = q̈(0) = 0.
    max_iterations : int
        SLSQP iterations per solve.
    seed : int
        Seed of the random start (standard-normal coefficients scaled to half the
        kinematic limits).

    Returns
    -------
    DesignedExcitation
        The excitation, cond(W_b) at the design times, the start's, and the fraction of
        each limit used on the dense check (all ≤ 1).

    Raises
    ------
    ValueError
        nq ≠ nv, bad sizes, or no excitation within the limits found (naming the limit
        that fails, e.g. a torque limit below the gravity torque).

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon.identification import JointLimits, design_excitation
    >>> arm = es.zoo.load("planar2")
    >>> lim = JointLimits.of(arm, qd_max=2.0, qdd_max=4.0, tau_max=[40.0, 15.0])
    >>> found = design_excitation(arm, lim, period=6.0, harmonics=3, samples=40,
    ...                           max_iterations=10)
    >>> bool(found.condition <= found.start_condition)
    True
    >>> bool(max(float(np.max(u)) for u in found.usage.values()) <= 1.0)
    True
    """
    if model.nq != model.nv:
        raise ValueError(f"model: expected nq = nv (a fixed base), got {model.nq} and {model.nv}")
    limits = JointLimits.of(model) if limits is None else limits
    n = model.nv
    if limits.q_lower.shape != (n,):
        raise ValueError(f"limits: expected {n} joints' limits, got {limits.q_lower.shape[0]}")
    if not (np.isfinite(period) and period > 0.0):
        raise ValueError(f"period: expected a positive time in s, got {period}")
    if int(harmonics) < 1:
        raise ValueError(f"harmonics: expected at least 1, got {harmonics}")
    if not 0.0 <= margin < 0.5:
        raise ValueError(f"margin: expected 0 ≤ margin < 0.5, got {margin}")
    base = base_parameters(model) if base is None else base
    if int(samples) * n <= base.count:
        raise ValueError(
            f"samples: {samples} times give {int(samples) * n} rows for {base.count} base "
            "parameters; expected more"
        )
    L, frequency = int(harmonics), 2.0 * np.pi / float(period)
    pi = parameters(model)
    middle = 0.5 * (limits.q_upper + limits.q_lower)
    half = 0.5 * (limits.q_upper - limits.q_lower)
    x = _start(n, L, frequency, middle, half, limits, rest_at_start, seed)
    start_condition = None
    iterations = 0
    M = int(samples)
    for _ in range(REFINEMENTS + 1):
        t = np.arange(M) * (float(period) / M)
        solution, first = _solve(model, base, pi, limits, x, t, frequency, n, L, margin,
                                 rest_at_start, max_iterations)  # fmt: skip
        iterations += int(solution.nit)
        start_condition = first if start_condition is None else start_condition
        x = solution.x
        excitation = _excitation(x, frequency, n, L)
        dense = np.arange(CHECK_DENSITY * M) * (float(period) / (CHECK_DENSITY * M))
        usage = _usage(model, excitation, limits, dense, pi)
        worst = {k: float(np.max(v)) for k, v in usage.items()}
        if max(worst.values()) <= 1.0:
            break
        M *= 2
    else:
        kind = max(worst, key=lambda k: worst[k])
        joint = int(np.argmax(usage[kind]))
        raise ValueError(
            f"limits: no excitation found within the {kind} limit of {model.v_names[joint]} "
            f"(used {worst[kind]:.3g} of it); widen the limits, lengthen the period or "
            "lower the harmonics"
        )
    W = base.regressor(joint_torque_regressor(model, *_sampled(excitation, t, limits.qd_max)))
    condition = float(np.linalg.cond(W.reshape(-1, base.count)))
    return DesignedExcitation(
        excitation, condition, float(start_condition), t, usage, limits, base, iterations
    )


def _start(n, L, frequency, middle, half, limits, rest_at_start, seed):
    rng = np.random.default_rng(seed)
    a, b = rng.standard_normal((n, L)), rng.standard_normal((n, L))
    if rest_at_start:  # q̇(0) = Σ a_l = 0, q̈(0) = Σ ω_f l b_l = 0
        a -= a.mean(axis=1, keepdims=True)
        weights = np.arange(1, L + 1, dtype=float)
        b -= np.outer(b @ weights / (weights @ weights), weights)
        if L == 1:
            raise ValueError("harmonics: a motion at rest at t = 0 needs at least 2")
    unit = FourierExcitation(frequency, middle, a, b)
    q_bound, qd_bound, qdd_bound = unit.bounds()
    scale = 0.5 * np.minimum(np.minimum(half / q_bound, limits.qd_max / qd_bound),
                             limits.qdd_max / qdd_bound)[:, None]  # fmt: skip
    return np.concatenate([(a * scale).ravel(), (b * scale).ravel(), middle])


def _solve(model, base, pi, limits, x0, t, frequency, n, L, margin, rest_at_start, iterations):
    """One SLSQP solve at design times t; returns (solution, log-free start condition)."""
    Mq, Mqd, Mqdd = _kinematic_maps(t, frequency, n, L)
    N = len(t)
    middle = 0.5 * (limits.q_upper + limits.q_lower)
    half = 0.5 * (limits.q_upper - limits.q_lower)
    reach = np.tile(half * (1.0 - margin), N)
    center = np.tile(middle, N)
    A_lin, b_lin = [Mq, -Mq], [reach + center, reach - center]  # A x ≤ b
    for M_, bound in ((Mqd, limits.qd_max), (Mqdd, limits.qdd_max)):
        finite = np.tile(np.isfinite(bound), N)
        level = np.tile(np.where(np.isfinite(bound), bound, 0.0) * (1.0 - margin), N)
        A_lin += [M_[finite], -M_[finite]]
        b_lin += [level[finite], level[finite]]
    A = np.concatenate(A_lin)
    b_vec = np.concatenate(b_lin)
    # rows scaled by each limit's size so the constraints are of order 1
    sizes = np.concatenate(
        [np.tile(half, 2 * N)]
        + [np.tile(bound, 2 * N)[np.tile(np.isfinite(bound), 2 * N)]
           for bound in (limits.qd_max, limits.qdd_max)]
    )  # fmt: skip
    scale = 1.0 / sizes
    torque_rows = np.tile(np.isfinite(limits.tau_max), N)
    tau_level = np.tile(np.where(np.isfinite(limits.tau_max), limits.tau_max, 1.0), N)
    cache: dict = {}

    def evaluate(x):
        key = x.tobytes()
        if key not in cache:
            e = _excitation(x, frequency, n, L)
            Y = joint_torque_regressor(model, *_sampled(e, t, limits.qd_max))
            W = base.regressor(Y).reshape(-1, base.count)
            tau = (Y @ pi).reshape(-1)
            if len(cache) > 4 * len(x) + 8:
                cache.clear()
            cache[key] = (float(np.log(np.linalg.cond(W))), tau)
        return cache[key]

    def gradient(x):
        key = b"g" + x.tobytes()
        if key not in cache:
            f0, tau0 = evaluate(x)
            g = np.empty(len(x))
            J = np.empty((len(tau0), len(x)))
            for k in range(len(x)):
                h = 1.5e-8 * max(1.0, abs(x[k]))
                xk = x.copy()
                xk[k] += h
                fk, tauk = evaluate(xk)
                g[k], J[:, k] = (fk - f0) / h, (tauk - tau0) / h
            cache[key] = (g, J)
        return cache[key]

    constraints = [
        {
            "type": "ineq",
            "fun": lambda x: scale * (b_vec - A @ x),
            "jac": lambda x: -scale[:, None] * A,
        }
    ]
    if torque_rows.any():
        level = tau_level[torque_rows] * (1.0 - margin)
        rows = torque_rows

        def torque(x):
            tau = evaluate(x)[1][rows]
            return np.concatenate([level - tau, level + tau]) / np.concatenate([level, level])

        def torque_jac(x):
            J = gradient(x)[1][rows]
            return np.concatenate([-J, J]) / np.concatenate([level, level])[:, None]

        constraints.append({"type": "ineq", "fun": torque, "jac": torque_jac})
    if rest_at_start:
        E = np.zeros((2 * n, len(x0)))
        size = n * L
        weights = frequency * np.arange(1, L + 1)
        for i in range(n):
            E[i, i * L : (i + 1) * L] = 1.0
            E[n + i, size + i * L : size + (i + 1) * L] = weights
        constraints.append({"type": "eq", "fun": lambda x: E @ x, "jac": lambda x: E})
    first = float(np.exp(evaluate(x0)[0]))
    solution = scipy.optimize.minimize(
        lambda x: evaluate(x)[0], x0, jac=lambda x: gradient(x)[0], method="SLSQP",
        constraints=constraints, options={"maxiter": int(iterations), "ftol": 1e-6},
    )  # fmt: skip
    return solution, first
