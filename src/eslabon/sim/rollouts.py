"""Many runs at once: N initial states, each with its torques or a feedback law and
optionally its own model, simulated in one parallel compiled call (what reinforcement
learning, model-predictive control, Monte-Carlo studies and parameter sweeps need;
MuJoCo's ``mujoco.rollout`` is the anchor).

Each run is the compiled fixed-step loop of :func:`eslabon.simulate` — classical RK4
(:func:`.rk4.rk4_loop`) or semi-implicit Euler (:func:`.rk4.euler_loop`) — run on its own
thread's share of the batch, so a rollout equals N separate ``simulate`` calls bit for
bit (``tests/test_rollout.py``). The torque of each run is a constant or one row per step
held over it (zero-order hold), given once for every run or per run; or a feedback law of
:mod:`.laws` (:class:`~.laws.PD`, :class:`~.laws.ComputedTorque`) evaluated at every
stage inside the loop, equal to ``simulate`` with the law as a Python callable
(:meth:`~.laws.PD.as_torque`).

The runs may have models of their own: N models of one structure (the same joint tree,
so the same packed layout) whose parameters differ — inertias, payload, friction,
geometry, gravity. Their packed arrays are stacked once per distinct model.

With the articulated-body algorithm, :data:`~eslabon._engine.lanes.WIDTH` arms of one
model run in lock step (:func:`.rollout_kernels.lanes_block`): the same stages on
(n, WIDTH) blocks, the ABA (and the Newton–Euler of computed torque) compiled for lanes,
each lane the one-arm loop's operations in its order, so still bit for bit. Runs are
grouped into blocks by model: the lanes kernel reads one packed model for the whole block
(per-lane parameters would need the ABA kernel itself to read them per lane). A block of
fewer arms costs about what a full one does, and a run whose model no other run shares
takes the one-arm loop, so runs whose models all differ run at the one-arm loop's speed.
A block whose dynamics fail is run again arm by arm, which reports the failing arm.

A run whose model has Coulomb friction takes the loop ``simulate`` takes for it
(:func:`.stick_slip_loops.stick_slip_loop`: Karnopp's stick–slip decided per step,
:mod:`.stick_slip`), one arm at a time, with a torque table or a law alike; so it equals
``simulate`` bit for bit with a table, and to round-off with a law (``simulate`` runs
:meth:`~.laws.PD.as_torque` in its Python loop). After the runs :func:`rollout` checks
the energy of each frictional run, as ``simulate`` does (:mod:`.friction_check`).

A model with quaternion joints (a free flyer, a ball joint) or mimic joints runs the loop
``simulate`` takes for it, one run at a time (:func:`.rollout_kernels.rollout_general`):
RK4 on charts (:mod:`.chart_loop`) when q holds quaternions, the coupled forward dynamics
with mimic joints; its q has nq entries per sample. Such runs take torque tables;
with Coulomb friction, the stick–slip loop (on charts, :mod:`.chart_stick_slip`), with
mimic joints too. A law is refused.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._args import check_history_bytes, finite_number, real_array
from .._deprecation import renamed_keywords
from .._engine.joints import extended_of
from .._engine.lanes import WIDTH
from .._engine.layout import H_EXTENDED, H_MIMIC, H_NB, H_NQ, H_NV, JOINT_NAMES
from ..conventions import algorithm_name, integrator_name
from ..dynamics.coupled_fd import coupling_arrays
from ..model.configuration import check_configuration, normalize
from .constrained import ConstrainedRollout, _is_constrained, _read_once
from .friction_check import check_runs
from .laws import CT_LAW, NO_LAW, _Law
from .manifold import chart_layout
from .rk4 import FD_CODES
from .rollout_kernels import rollout_arms, rollout_general, rollout_lanes
from .stick_slip import coulomb_per_rate, without_coulomb

METHODS = ("rk4", "euler")  # the integrators it compiles (eslabon.conventions)


class Rollout(NamedTuple):
    """The runs of :func:`rollout`.

    Attributes
    ----------
    t : ndarray
        Sample times [s], shape (K,).
    q : ndarray
        Per run and sample: the configuration [rad, m; unit quaternions], (N, K, nq).
    qd, qdd : ndarray
        Per run and sample: rates [/s] and accelerations [/s²], each (N, K, n).
    tau : ndarray
        The torques at each sample [N·m, N], (N, K, n): a feedback law's value at the
        sample's state, or the given torques (then a read-only broadcast view).
    """

    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    tau: np.ndarray


_HEADER_FIELDS = {
    H_NB: "number of packed rows",
    H_NQ: "number of coordinates",
    H_NV: "number of rates",
    H_MIMIC: "mimic joints",
    H_EXTENDED: "joint set (helical or ball joints)",
}


def _structure_difference(m0, m):
    """What in the joint tree of model m differs from m0's (the bodies, their parents
    and joints, the packed layout the kernels read), or None."""
    if m.nb != m0.nb:
        return f"the number of bodies ({m.nb}, not {m0.nb})"
    for i in range(1, m0.nb + 1):
        if m.parent[i] != m0.parent[i]:
            return f"the parent of body {i} ({m.parent[i]}, not {m0.parent[i]})"
        if m.joint_type[i] != m0.joint_type[i]:
            kinds = (JOINT_NAMES[int(x.joint_type[i])] for x in (m, m0))
            return "the joint of body {} ({}, not {})".format(i, *kinds)
    P0, P = m0.packed_dynamics, m.packed_dynamics
    if len(P) != len(P0):
        return f"the packed layout ({len(P)} numbers, not {len(P0)})"
    for h, what in _HEADER_FIELDS.items():
        if P[h] != P0[h]:
            return f"the {what} ({P[h]:g}, not {P0[h]:g})"
    return None


def _check_general(m, models, torque, integrator, algorithm, field):
    """Refuse what the loop of a model with quaternion or mimic joints does not run
    (``models``: every run's; their mimic maps are not in the packed arrays)."""
    if isinstance(torque, _Law):
        raise ValueError(
            f"torque: a feedback law runs in the compiled loop of models without quaternion "
            f"or mimic joints, and {m.name} has them; give a torque table, or simulate each "
            "run with the law's as_torque"
        )
    if m.nq != m.nv and integrator == "euler":
        raise ValueError("integrator: 'euler' takes models without quaternion joints; use 'rk4'")
    if m.mimic is not None and algorithm == "aba":
        raise ValueError(
            "algorithm: the articulated-body algorithm cannot take the mimic joints of "
            f"{m.name}; use 'crba' (the default for such a model)"
        )
    seen = set()
    for i, d in enumerate(models):
        if id(d) in seen:
            continue
        seen.add(id(d))
        where = field if len(models) == 1 else f"model: models[{i}] ({d.name})"
        if m.mimic is not None and not all(
            np.array_equal(getattr(m.mimic, f), getattr(d.mimic, f))
            for f in ("q_from", "q_scale", "q_offset", "G")
        ):
            raise ValueError(f"{where}: its mimic joints differ from those of models[0]")


def _models(model, N):
    """(the model of each run, Ps (M, L) the distinct packed arrays, which (N,), models
    (M,) the distinct models)."""
    if hasattr(model, "packed_dynamics"):
        P = np.array(model.packed_dynamics[None])
        return [model] * N, P, np.zeros(N, dtype=np.int64), [model]
    seq = list(model)
    if len(seq) != N:
        raise ValueError(
            f"model: expected one Model or a sequence of N = {N} models (one per run), "
            f"got {len(seq)}"
        )
    rows: list = []
    index: dict = {}
    which, distinct = np.empty(N, dtype=np.int64), []
    seen = set()
    for i, m in enumerate(seq):
        if not hasattr(m, "packed_dynamics"):
            raise ValueError(f"model: models[{i}] is not a Model, got {type(m).__name__}")
        if id(m) not in seen:
            seen.add(id(m))
            what = _structure_difference(seq[0], m)
            if what is not None:
                raise ValueError(
                    f"model: models[{i}] ({m.name}) differs from models[0] ({seq[0].name}) "
                    f"in {what}; the runs of one rollout share one joint tree and may "
                    "differ only in parameters (inertia, friction, geometry, gravity)"
                )
        key = m.packed_dynamics.tobytes()
        if key not in index:
            index[key] = len(rows)
            rows.append(m.packed_dynamics)
            distinct.append(m)
        which[i] = index[key]
    return seq, np.array(rows), which, distinct


def _friction(distinct):
    """(P0s (M, L), Fs (M, n)): each distinct model's packed array without Coulomb
    friction and the Coulomb friction of each rate (:mod:`.stick_slip`); a model without
    it keeps its own packed array (its runs take the plain loops)."""
    Fs = np.array([coulomb_per_rate(m) for m in distinct])
    P0s = np.array(
        [
            without_coulomb(m).packed_dynamics if np.any(F > 0) else m.packed_dynamics
            for m, F in zip(distinct, Fs, strict=True)
        ]
    )
    return P0s, Fs


def _blocks(which, M, alone=None):
    """(runs, starts): the runs ordered by model and the bounds of the lanes blocks, at
    most WIDTH runs each, every block of one model; the runs of a model with ``alone[m]``
    (Coulomb friction: the stick–slip loop runs one arm) in blocks of one."""
    N = len(which)
    runs = np.argsort(which, kind="stable").astype(np.int64)
    starts, pos = [0], 0
    for m, count in enumerate(np.bincount(which, minlength=M)):
        end = pos + int(count)
        width = 1 if alone is not None and alone[m] else WIDTH
        starts.extend(range(pos + width, end, width))
        if end > pos:
            starts.append(end)
        pos = end
    assert pos == N
    return runs, np.array(starts, dtype=np.int64)


def _torques(torque, N, K, n):
    """(N or 1, K or 1, n) torques from None, (n,), (N, n), (K, n) or (N, K, n)."""
    if torque is None:
        return np.zeros((1, 1, n))
    T = real_array(torque, "torque")
    if not np.all(np.isfinite(T)):
        raise ValueError("torque: expected finite values")
    if T.shape == (n,):
        return T.reshape(1, 1, n)
    if T.ndim == 2 and N == K and T.shape == (N, n):
        raise ValueError(
            f"torque: with as many runs as samples (N = K = {N}) an array ({N}, {n}) could "
            f"be one constant per run or one row per sample; give ({N}, 1, {n}) or "
            f"(1, {K}, {n})"
        )
    if T.shape in ((1, K, n), (N, 1, n), (1, 1, n)):
        return np.ascontiguousarray(T)
    if T.shape == (N, n):
        return np.ascontiguousarray(T.reshape(N, 1, n))
    if T.shape == (K, n):
        return np.ascontiguousarray(T.reshape(1, K, n))
    if T.shape == (N, K, n):
        return np.ascontiguousarray(T)
    raise ValueError(
        f"torque: expected None or shape ({n},) (all runs, constant), ({N}, {n}) or "
        f"({N}, 1, {n}) (per run), ({K}, {n}) or (1, {K}, {n}) (all runs, one row per "
        f"sample) or ({N}, {K}, {n}), got {T.shape}"
    )


def _run(model, q0, qd0, t_final, dt, torque, integrator, algorithm):
    """Check the arguments and run; (Rollout, status, step, the model of each run, the
    torque table of each run or None)."""
    integrator = integrator_name(integrator, METHODS)
    if algorithm is not None:
        algorithm = algorithm_name(algorithm, tuple(FD_CODES), "rollout")
    first = model
    if not hasattr(model, "packed_dynamics"):  # one model per run
        try:
            model = list(model)
        except TypeError:
            model = []
        if not model:
            raise ValueError(
                f"model: expected a Model or a sequence of models, got {type(first).__name__}"
            )
        first = model[0]
        if not hasattr(first, "packed_dynamics"):
            raise ValueError(f"model: models[0] is not a Model, got {type(first).__name__}")
    if algorithm is None:  # ABA; a mimic joint (which ABA cannot take): CRBA
        algorithm = "crba" if first.has_mimic else "aba"
    n, nq = first.nv, first.nq
    Q0 = real_array(q0, "q0")
    V0 = real_array(qd0, "qd0")
    if Q0.ndim != 2 or Q0.shape[1] != nq or V0.shape != (len(Q0), n):
        raise ValueError(
            f"q0, qd0: expected arrays of shapes (N, {nq}) and (N, {n}), got {Q0.shape} "
            f"and {V0.shape}"
        )
    if not (np.all(np.isfinite(Q0)) and np.all(np.isfinite(V0))):
        raise ValueError("q0, qd0: expected finite values")
    if nq != n:
        check_configuration(first, Q0, "q0")  # unit quaternions, else the joint is named
        Q0 = normalize(first, Q0)  # as simulate: to the last bit
    N = Q0.shape[0]
    seq, Ps, which, distinct = _models(model, N)
    general = nq != n or first.mimic is not None  # quaternion or mimic joints
    if general:
        _check_general(first, seq, torque, integrator, algorithm, "model")
    P0s, Fs = _friction(distinct)
    t_final = finite_number(t_final, "t_final", positive=True)
    dt = finite_number(dt, "dt", positive=True)
    steps = int(round(t_final / dt))
    if steps < 1 or abs(steps * dt - t_final) > 1e-9 * max(1.0, t_final):
        raise ValueError(f"dt: expected a divisor of t_final = {t_final}, got {dt}")
    K = steps + 1
    # q, q̇, q̈ and τ (a law's values; or the given table, at most one more such array)
    check_history_bytes(
        (3.0 * n + nq) * N * K * 8,
        "q0, t_final, dt",
        f"N = {N} runs of K = {K} samples of {n} rates, whose histories (q ({N}, {K}, {nq}); "
        f"q̇, q̈, τ: three arrays ({N}, {K}, {n}))",
        "use fewer runs per call, a larger dt or a shorter t_final",
    )
    none = np.zeros((1, n))
    if isinstance(torque, _Law):
        law = torque.code
        KP, KD, (R0, R1, R2) = torque.resolve(N, K, n)
        T, TAU = np.zeros((1, 1, n)), np.empty((N, K, n))
        Pcs = Ps
        control_model = getattr(torque, "model", None)  # ComputedTorque's
        if law == CT_LAW and control_model is not None:
            what = _structure_difference(seq[0], control_model)
            if what is not None:
                raise ValueError(
                    f"ComputedTorque.model: {control_model.name} differs from the runs' model "
                    f"({seq[0].name}) in {what}"
                )
            Pcs = np.array(control_model.packed_dynamics[None])
    elif callable(torque):
        laws = "" if general else ", a law of eslabon.sim.laws (PD, ComputedTorque)"
        raise ValueError(
            f"torque: a Python callable cannot run in the compiled loop; give an array{laws}, "
            "or simulate each run"
        )
    else:
        law, T = NO_LAW, _torques(torque, N, K, n)
        KP = KD = none
        R0 = R1 = R2 = TAU = none[None]
        Pcs = Ps
    Q = np.empty((N, K, nq))
    QD = np.empty((N, K, n))
    QDD = np.empty((N, K, n))
    Q[:, 0], QD[:, 0] = Q0, V0
    status = np.zeros(N, dtype=np.int64)
    step = np.full(N, -1, dtype=np.int64)
    extended = extended_of(Ps[0])
    data = (T, KP, KD, R0, R1, R2)
    arrays = (float(dt), Q, QD, QDD, TAU, extended)
    if general:
        layout = chart_layout(first) if nq != n else None
        coupling = coupling_arrays(first) if first.mimic is not None else None
        euler = integrator == "euler"
        rollout_general(Ps, which, P0s, Fs, FD_CODES[algorithm], euler, T, float(dt),
                        Q, QD, QDD, layout, extended, coupling, status, step)  # fmt: skip
    elif algorithm == "aba":
        runs, starts = _blocks(which, len(Ps), np.any(Fs > 0, axis=1))
        rollout_lanes(Ps, which, P0s, Fs, Pcs, integrator == "euler", law, data, *arrays, runs,
                      starts, status, step)  # fmt: skip
    else:
        code = FD_CODES[algorithm]
        euler = integrator == "euler"
        rollout_arms(Ps, which, P0s, Fs, Pcs, code, euler, law, data, *arrays, status,
                     step)  # fmt: skip
    tau = TAU if law != NO_LAW else np.broadcast_to(T, (N, K, n))
    runs = Rollout(np.arange(K) * dt, Q, QD, QDD, tau)
    return runs, status, step, seq, (T if law == NO_LAW else None)


@renamed_keywords(method="integrator", fd_method="algorithm")
def rollout_with_failures(model, q0, qd0, t_final: float, dt: float, *, torque=None,
                          integrator: str = "rk4", algorithm: str | None = None):  # fmt: skip
    """:func:`rollout` that marks the runs that fail instead of raising: for batches in
    which one run may diverge (a parameter sweep) without costing the others.

    Parameters
    ----------
    model, q0, qd0, t_final, dt, torque, integrator, algorithm
        As :func:`rollout`.

    Returns
    -------
    runs : Rollout
        As :func:`rollout`; the rows of a failed run past its failure are not defined.
    failed : ndarray of bool
        (N,): True for a run whose state or dynamics stopped being finite (or whose mass
        matrix stopped being positive definite).

    Notes
    -----
    Unlike :func:`rollout` it does not check the energy of runs with Coulomb friction:
    the caller does, run by run, as the sweeps do
    (:func:`eslabon.sim.friction_check.check_friction_energy`).

    Raises
    ------
    ValueError
        Bad arguments, as :func:`rollout`.

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon.sim.rollouts import rollout_with_failures
    >>> arm = es.zoo.load("planar2")
    >>> qd0 = np.array([[0.0, 0.0], [1e200, 0.0]])
    >>> runs, failed = rollout_with_failures(arm, np.zeros((2, 2)), qd0, 0.01, 0.001)
    >>> failed.tolist()
    [False, True]
    """
    model = _read_once(model)
    if _is_constrained(model):
        raise ValueError(
            "model: rollout_with_failures runs the compiled loops, which do not take "
            "constraints; use eslabon.rollout (run by run under the constraints)"
        )
    runs, status, _, _, _ = _run(model, q0, qd0, t_final, dt, torque, integrator, algorithm)
    return runs, status != 0


@renamed_keywords(method="integrator", fd_method="algorithm")
def rollout(model, q0, qd0, t_final: float, dt: float, *, torque=None, integrator: str = "rk4",
            algorithm: str | None = None) -> Rollout | ConstrainedRollout:  # fmt: skip
    """Simulate N runs at once, each from its own (q0, qd0) with its torques or under a
    feedback law, of one model or each of its own.

    Run i equals ``eslabon.simulate(model_i, q0[i], qd0[i], t_final, dt,
    torque=torque_i, integrator=integrator, algorithm=algorithm)`` bit for bit, where a law's
    ``torque_i`` is ``law.as_torque(dt, i, model_i)``; the runs are shared among the
    threads (:func:`eslabon.set_num_threads`). A model with Coulomb friction is
    integrated as ``simulate`` integrates it, with stick–slip decided per step (the
    module docstring; a law then agrees with ``simulate`` to round-off, not bit for
    bit), and each such run's energy is checked after the runs.

    A model with constraints (:attr:`eslabon.Model.constraints`) runs each run by
    :func:`eslabon.simulate` under its constraints, in turn (no compiled loop yet); it
    takes torque arrays, not laws, and its integrators are ``simulate``'s.

    Parameters
    ----------
    model : Model or sequence of Model
        A robot; or N robots, one per run, of one structure (the same joint tree) with
        their own parameters (masses, inertias, friction, geometry). A robot with
        quaternion joints (free flyer, spherical) or mimic joints takes torque tables
        (module docstring).
    q0 : array_like (N, nq)
        Initial configurations [rad, m; unit quaternions (x, y, z, w)], one row per run.
    qd0 : array_like (N, n)
        Initial rates [rad/s, m/s], one row per run.
    t_final : float
        Duration [s], > 0.
    dt : float
        The step and sample spacing [s], a divisor of ``t_final``.
    torque : array_like or feedback law, optional
        Joint torques [N·m, N], held over each step: ``(n,)`` for every run and step,
        ``(N, n)`` one constant per run, ``(K, n)`` one row per sample for every run, or
        ``(N, K, n)``; K = t_final/dt + 1. When N = K a 2-D array is ambiguous and
        refused: give ``(N, 1, n)`` or ``(1, K, n)``. Or a law of :mod:`eslabon.sim.laws`
        (:class:`~eslabon.sim.laws.PD`, :class:`~eslabon.sim.laws.ComputedTorque`),
        evaluated at every stage of the loop, its references sampled at the half steps
        (2K − 1 rows). Default zero.
    integrator : {"rk4", "euler"}
        Classical RK4, or semi-implicit (symplectic) Euler: q̇⁺ = q̇ + h q̈(q, q̇),
        q⁺ = q + h q̇⁺ (RK4 only for quaternion joints, as :func:`eslabon.simulate`).
    algorithm : str, optional
        ``"aba"``, ``"crba"`` or ``"rnea_columns"`` (aliases ``"walker_orin_3"``,
        ``"walker_orin_1"``). Default: ``"aba"``, or ``"crba"`` for a model with a mimic
        joint. ``method=`` and ``fd_method=`` are the old names of ``integrator=`` and
        ``algorithm=`` (deprecated).

    Returns
    -------
    Rollout
        ``t`` (K,), ``q`` (N, K, nq), ``qd``, ``qdd``, ``tau`` (N, K, n); for a model
        with constraints a :class:`ConstrainedRollout`, with their forces, residuals and
        energies too.

    Raises
    ------
    ValueError
        Initial states of other shapes or not finite; a torque of another shape or not
        finite, a Python callable, or a law whose gains or references do not fit
        (naming the field, e.g. ``PD.q_ref``); a bad ``t_final``, ``dt``, ``integrator`` or
        ``algorithm``; histories of more than 8 GiB (q, q̇, q̈, τ: (nq + 3n)·N·K·8 bytes, the
        budget of :func:`eslabon.simulate`; the message gives N, K and the bytes); a
        model with quaternion or mimic joints under a law, or with Euler's integrator
        (quaternions); a q0 row whose
        quaternion is not unit (naming the joint); a sequence of models that is not
        one per run or whose joint trees or mimic joints differ (saying where); a run
        that diverges (naming the run, the time and its last finite state).

    Warns
    -----
    EnergyInjectionWarning, FrictionStepWarning
        With Coulomb friction, as :func:`eslabon.simulate` (naming the first run
        concerned and counting the others).

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> q0 = np.random.default_rng(0).uniform(-1, 1, (100, 2))
    >>> runs = es.rollout(arm, q0, np.zeros((100, 2)), 0.5, 0.01)
    >>> runs.q.shape
    (100, 51, 2)
    >>> one = es.simulate(arm, q0[7], None, 0.5, 0.01)
    >>> bool(np.array_equal(runs.q[7], one.q))
    True

    Four payloads, one run each:

    >>> heavier = [arm.replace(mass=arm.mass * s) for s in (1.0, 1.5, 2.0, 3.0)]
    >>> runs = es.rollout(heavier, q0[:4], np.zeros((4, 2)), 0.5, 0.01)
    >>> one = es.simulate(heavier[2], q0[2], None, 0.5, 0.01)
    >>> bool(np.array_equal(runs.q[2], one.q))
    True
    """
    model = _read_once(model)
    if _is_constrained(model):
        return _constrained_runs(model, q0, qd0, t_final, dt, torque, integrator, algorithm)
    runs, status, step, seq, T = _run(model, q0, qd0, t_final, dt, torque, integrator, algorithm)
    bad = np.flatnonzero(status)
    if len(bad):
        i = int(bad[0])
        from .simulate import _raise_step_failure

        Ti = runs.tau[i] if T is None else T[min(i, len(T) - 1)]
        try:
            _raise_step_failure(seq[i], status[i], step[i], runs.t, runs.q[i], runs.qd[i], Ti,
                                integrator)  # fmt: skip
        except ValueError as exc:
            raise ValueError(f"run {i}: {exc}") from None
    check_runs(seq, runs.t, runs.q, runs.qd, runs.tau, zero_order_hold=T is not None)
    return runs


def _constrained_runs(model, q0, qd0, t_final, dt, torque, integrator, algorithm):
    """The runs of a model with constraints (or of one model per run): :func:`eslabon.
    simulate` run by run (the constrained forward dynamics are numpy per state: no
    compiled loop yet)."""
    from .simulate import simulate

    if isinstance(torque, _Law):
        raise ValueError(
            "torque: a feedback law runs in the compiled loop, which does not take "
            "constraints; give a torque array, or simulate each run with a callable"
        )
    Q0, V0 = real_array(q0, "q0"), real_array(qd0, "qd0")
    models = [model] * len(Q0) if hasattr(model, "packed_dynamics") else list(model)
    if len(models) != len(Q0):
        raise ValueError(f"model: expected one model per run ({len(Q0)}), got {len(models)}")
    n, nq = models[0].nv, models[0].nq
    if Q0.ndim != 2 or Q0.shape[1] != nq or V0.shape != (len(Q0), n):
        raise ValueError(
            f"q0, qd0: expected arrays of shapes (N, {nq}) and (N, {n}), got {Q0.shape} "
            f"and {V0.shape}"
        )
    t_final = finite_number(t_final, "t_final", positive=True)
    dt = finite_number(dt, "dt", positive=True)
    N, K = len(Q0), int(round(t_final / dt)) + 1
    T = _torques(torque, N, K, n)
    trajs = []
    for i in range(N):
        Ti = T[min(i, len(T) - 1)]
        Ti = Ti[0] if len(Ti) == 1 else Ti
        try:
            trajs.append(simulate(models[i], Q0[i], V0[i], t_final, dt, torque=Ti,
                                  integrator=integrator, algorithm=algorithm))  # fmt: skip
        except ValueError as exc:
            raise ValueError(f"run {i}: {exc}") from None

    for i, tr in enumerate(trajs):
        if tr.constraint_names != trajs[0].constraint_names:
            raise ValueError(
                f"model: run {i}'s constraint rows {tr.constraint_names} differ from run 0's "
                f"{trajs[0].constraint_names}; one rollout takes one constraint set"
            )

    def stack(field):
        return np.stack([getattr(tr, field) for tr in trajs])

    return ConstrainedRollout(
        trajs[0].t, stack("q"), stack("qd"), stack("qdd"), stack("tau"),
        trajs[0].constraint_names, stack("constraint_force"), stack("constraint_residual"),
        stack("energy"),
    )  # fmt: skip
