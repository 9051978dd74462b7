"""The work of one chunk of a sweep: every sample's model and nominal motion, its task
run through the batch kernels (one inverse-dynamics or linearization call over the whole
trajectory per sample; the simulations of a chunk in one :func:`eslabon.rollout` per step
size, the closed loop's PD law compiled), and the metrics as columns. A sample that
raises keeps its row, with the error and NaN metrics.

The nominal motion is rest to rest, q(t) = q₀ + s·(q₁ − q₀)·p(t/T) with the quintic
p(τ) = 10τ³ − 15τ⁴ + 6τ⁵ (s: ``trajectory_scale``, T: ``trajectory_duration``).
"""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np

from ..trajectory import quintic
from .models import cached_model
from .spec import DEFAULTS, SweepSpec

SERIES = ("t_series", "tau_series", "q_series")


def base_model(spec: SweepSpec):
    """The sweep's model, built from the spec's content (zoo name or model text) once per
    process and cached by its sha256 (:mod:`eslabon.batch.models`)."""
    return cached_model(spec.model_sha256, spec.model_ref, spec.model_text)


def sample_model(base, p):
    """``base`` with the sample's payload (merged into the end-effector body by the
    parallel-axis rule) and friction scale."""
    from ..spatial.spatial6 import parallel_axis

    mass, inertia, offset = p["payload_mass"], p["payload_inertia"], p["payload_offset"]
    changes = {}
    if p["friction_scale"] != 1.0:
        changes.update(
            viscous=base.viscous * p["friction_scale"], coulomb=base.coulomb * p["friction_scale"]
        )
    if mass > 0 or inertia > 0:
        ee = base.frame("ee")
        b = ee.body
        c_pay = ee.translation + ee.rotation @ np.array([0.0, 0.0, offset])
        m_b, c_b = base.mass[b], base.com[b]
        m = m_b + mass
        c = (m_b * c_b + mass * c_pay) / m if m > 0 else c_b
        I = parallel_axis(base.inertia[b], m_b, c_b - c) + parallel_axis(
            inertia * np.eye(3), mass, c_pay - c
        )
        masses, coms, inertias = base.mass.copy(), base.com.copy(), base.inertia.copy()
        masses[b], coms[b], inertias[b] = m, c, I
        changes.update(mass=masses, com=coms, inertia=inertias)
    return base.replace(**changes) if changes else base


class QuinticMotion:
    """q, q̇, q̈ of the rest-to-rest nominal at any t (arrays over t broadcast):
    q0 + scale·(goal − q0)·s(t), with s the quintic law of :mod:`eslabon.trajectory`
    from 0 to 1 over ``duration``."""

    def __init__(self, start, goal, scale, duration):
        self.q0 = np.asarray(start, dtype=float)
        self.delta = scale * (np.asarray(goal, dtype=float) - self.q0)
        self.law = quintic(duration)

    def __call__(self, t):
        s, s_dot, s_ddot = (np.asarray(x)[..., None] for x in self.law(t))
        return self.q0 + self.delta * s, self.delta * s_dot, self.delta * s_ddot


def columns(spec: SweepSpec, n: int) -> list:
    """The metric columns the spec asks for (the same for every row, failed or not)."""
    cols = []
    for m in spec.metrics:
        if m in ("peak_torque", "rms_torque"):
            cols += [f"{m}_{j + 1}" for j in range(n)]
        elif m == "final_state":
            cols += [f"final_q_{j + 1}" for j in range(n)] + [f"final_qd_{j + 1}" for j in range(n)]
        else:
            cols.append(m)
    return cols


def column_names(spec: SweepSpec) -> list:
    """Every column of a part, in order: ``sample``, the varied parameters, the metrics,
    ``error`` and (with ``time_series``) the series."""
    return [
        "sample",
        *spec.vary,
        *columns(spec, len(spec.start)),
        "error",
        *(SERIES if spec.time_series else ()),
    ]


def _torque_metrics(spec, t, q_dot, tau, out):
    if "peak_torque" in spec.metrics:
        for j, v in enumerate(np.abs(tau).max(axis=0)):
            out[f"peak_torque_{j + 1}"] = v
    if "rms_torque" in spec.metrics:
        for j, v in enumerate(np.sqrt(np.mean(tau**2, axis=0))):
            out[f"rms_torque_{j + 1}"] = v
    if "energy" in spec.metrics:  # actuator work, no regeneration: ∫ Σ|τ q̇| dt
        out["energy"] = float(np.trapezoid(np.abs(tau * q_dot).sum(axis=1), t))


def _stability(model, motion, t, kp, kd):
    """max Re λ of the frozen closed loop A − B [K_p 1, K_d 1] along the nominal."""
    from ..control.design import closed_loop_matrix
    from ..control.linearize import linearize

    q, qd, qdd = motion(t)
    lin = linearize(model, q, qd, qdd)
    n = model.nq
    K = np.hstack([kp * np.eye(n), kd * np.eye(n)])
    return float(np.linalg.eigvals(closed_loop_matrix(lin, K)).real.max())


MODEL_PARAMETERS = ("payload_mass", "payload_inertia", "payload_offset", "friction_scale")
SIMULATION_TASKS = ("simulate", "closed_loop")


def _model_of(base, p, models):
    """The sample's model, cached in ``models`` by its parameters (grids repeat them)."""
    key = tuple(p[k] for k in MODEL_PARAMETERS)
    if key not in models:
        models[key] = sample_model(base, p)
    return models[key]


class _Sample(NamedTuple):
    """What the metrics need of one sample: its model, its nominal motion and times (for
    a simulation task, the step count and step too)."""

    model: object
    motion: QuinticMotion
    steps: int
    h: float
    t: np.ndarray  # the sample times (steps + 1,)
    nominal: tuple  # q, q̇, q̈ of the nominal at t
    q0: np.ndarray  # the nominal start plus the initial error


def _simulation(spec, base, p, models) -> _Sample:
    """The sample of a simulation task: its model, nominal, steps and initial state."""
    model = _model_of(base, p, models)
    motion = QuinticMotion(spec.start, spec.goal, p["trajectory_scale"], p["trajectory_duration"])
    T = p["trajectory_duration"]
    steps = max(1, int(np.ceil(T / spec.dt - 1e-9)))
    h = T / steps
    t = np.arange(steps + 1) * h
    nominal = motion(t)
    q0 = nominal[0][0] + np.full(model.nq, p["initial_error"])
    return _Sample(model, motion, steps, h, t, nominal, q0)


def _metrics(spec, p, sim, q, qd, tau, out) -> dict:
    """The metrics (and series) of a sample, from its motion (K, n) and torques: the one
    tail of the per-sample and the batched paths, and of the other tasks (``q``, ``qd``
    the nominal's there)."""
    _torque_metrics(spec, sim.t, qd, tau, out)
    if spec.task in SIMULATION_TASKS:
        if "tracking_error" in spec.metrics:
            out["tracking_error"] = float(np.abs(q - sim.nominal[0]).max())
        if "final_state" in spec.metrics:
            for j in range(q.shape[1]):
                out[f"final_q_{j + 1}"] = q[-1, j]
                out[f"final_qd_{j + 1}"] = qd[-1, j]
    if "stability" in spec.metrics:
        T = p["trajectory_duration"]
        out["stability"] = _stability(
            sim.model, sim.motion, np.linspace(0.0, T, min(spec.samples, 21)), p["kp"], p["kd"]
        )
    if spec.time_series:
        out["t_series"] = sim.t.tolist()
        out["tau_series"] = tau.ravel().tolist()
        out["q_series"] = q.ravel().tolist()
    return out


def run_sample(spec: SweepSpec, base, p, models=None) -> dict:
    """Metrics (and time series) of one sample with parameters ``p``, alone: the path of
    a sample that the batched simulations (:func:`run_simulations`) could not finish, and
    their reference. ``models`` caches the sample models of a chunk by their parameters."""
    from ..dynamics.api import inverse_dynamics
    from ..sim import simulate

    models = {} if models is None else models
    out = {}
    if spec.task == "identification":
        from .identification_task import run_identification

        return run_identification(spec, base, _model_of(base, p, models), p, int(p["sample"]))
    if spec.task not in SIMULATION_TASKS:
        model = _model_of(base, p, models)
        T = p["trajectory_duration"]
        motion = QuinticMotion(spec.start, spec.goal, p["trajectory_scale"], T)
        t = np.linspace(0.0, T, spec.samples)
        nominal = motion(t)
        tau = inverse_dynamics(model, *nominal)  # one batch call
        sim = _Sample(model, motion, len(t) - 1, 0.0, t, nominal, nominal[0][0])
        return _metrics(spec, p, sim, nominal[0], nominal[1], tau, out)
    sim = _simulation(spec, base, p, models)
    q_n, qd_n, qdd_n = sim.nominal
    T = p["trajectory_duration"]
    if spec.task == "simulate":  # the nominal model's feedforward, open loop
        tau_ff = inverse_dynamics(base, q_n, qd_n, qdd_n)
        traj = simulate(sim.model, sim.q0, qd_n[0], T, sim.h, torque=tau_ff)
    else:  # feedforward + PD on the error
        kp, kd, motion = p["kp"], p["kd"], sim.motion

        def law(tk, x, v):
            qn, qdn, qddn = motion(tk)
            return inverse_dynamics(base, qn, qdn, qddn) + kp * (qn - x) + kd * (qdn - v)

        traj = simulate(sim.model, sim.q0, qd_n[0], T, sim.h, torque=law)
    return _metrics(spec, p, sim, traj.q, traj.qd, traj.tau, out)


def run_simulations(spec: SweepSpec, base, params, models) -> dict:
    """{i: metrics} of the samples ``params[i]`` of a simulation task, run through
    :func:`eslabon.rollout` in groups that share the step count and the step: each sample
    with its own model; ``simulate`` with its feedforward table, ``closed_loop`` with the
    compiled :class:`~eslabon.sim.laws.PD` law on the feedforward, both sampled at the
    half steps (the stage times of RK4). A sample that fails anywhere is left out, for
    :func:`run_sample` to run alone and report."""
    from ..dynamics.api import inverse_dynamics
    from ..sim.friction_check import check_friction_energy
    from ..sim.laws import PD
    from ..sim.rollouts import rollout_with_failures
    from ..sim.trajectory import Trajectory

    sims, groups = {}, {}
    for i, p in enumerate(params):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", RuntimeWarning)
                sim = _simulation(spec, base, p, models)
                if spec.task == "simulate":
                    drive = inverse_dynamics(base, *sim.nominal)
                else:  # the nominal and its feedforward at t_k and t_k + h/2
                    half = np.empty(2 * sim.steps + 1)
                    half[0::2], half[1::2] = sim.t, sim.t[:-1] + sim.h / 2
                    ref = sim.motion(half)
                    drive = (ref[0], ref[1], inverse_dynamics(base, *ref))
        except Exception:
            continue
        sims[i] = (sim, drive)
        groups.setdefault((sim.steps, sim.h), []).append(i)
    results = {}
    for (steps, h), members in groups.items():
        picked = [sims[i] for i in members]
        q0 = np.array([sim.q0 for sim, _ in picked])
        qd0 = np.array([sim.nominal[1][0] for sim, _ in picked])
        if spec.task == "simulate":
            torque = np.array([drive for _, drive in picked])
        else:
            gains = [np.array([[params[i][g]] * len(q0[0]) for i in members]) for g in ("kp", "kd")]
            q_ref, qd_ref, tau_ff = (np.array([d[j] for _, d in picked]) for j in range(3))
            torque = PD(gains[0], gains[1], q_ref, qd_ref, tau_ff)
        try:
            runs, failed = rollout_with_failures(
                [sim.model for sim, _ in picked], q0, qd0, steps * h, h, torque=torque
            )
        except Exception:  # the whole group runs sample by sample
            continue
        for r, i in enumerate(members):
            if failed[r]:
                continue
            sim, p = picked[r][0], params[i]
            q, qd, tau = runs.q[r], runs.qd[r], runs.tau[r]
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("error", RuntimeWarning)
                    if np.any(sim.model.coulomb > 0):  # as simulate checks
                        traj = Trajectory(t=sim.t, q=q, qd=qd, qdd=runs.qdd[r], tau=tau)
                        check_friction_energy(sim.model, traj, spec.task == "simulate")
                    results[i] = _metrics(spec, p, sim, q, qd, tau, {})
            except Exception:
                continue
    return results


def run_chunk(spec: SweepSpec, first: int, end: int) -> dict:
    """Columns {name: list} of samples first..end−1 (``sample``, the varied parameters,
    the metrics, ``error``: None or the failure's type and message). The simulation tasks
    run batched (:func:`run_simulations`); what that leaves out runs alone
    (:func:`run_sample`)."""
    base = base_model(spec)
    table = spec.sample_table()
    cols = columns(spec, base.nq)
    rows = {k: [] for k in column_names(spec)}
    fixed = {"trajectory_duration": spec.duration, "kp": spec.kp, "kd": spec.kd, **DEFAULTS}
    models = {}
    params = [
        dict(fixed, sample=s, **{k: float(table[k][s]) for k in spec.vary})
        for s in range(first, end)
    ]
    batched = {}
    if spec.task in SIMULATION_TASKS:
        batched = run_simulations(spec, base, params, models)
    for i, s in enumerate(range(first, end)):
        p = params[i]
        try:
            if i in batched:
                result = batched[i]
            else:
                with warnings.catch_warnings():
                    warnings.simplefilter("error", RuntimeWarning)
                    result = run_sample(spec, base, p, models)
            bad = [c for c in cols if not np.isfinite(result[c])]
            if bad:
                raise FloatingPointError(f"the sample diverged: {', '.join(bad[:3])} not finite")
            error = None
        except Exception as exc:  # recorded with the sample, never dropped
            result, error = {}, f"{type(exc).__name__}: {exc}"
        rows["sample"].append(s)
        for k in spec.vary:
            rows[k].append(p[k])
        for c in cols:
            rows[c].append(float(result.get(c, np.nan)))
        rows["error"].append(error)
        if spec.time_series:
            for k in SERIES:
                rows[k].append(result.get(k, []))
    return rows
