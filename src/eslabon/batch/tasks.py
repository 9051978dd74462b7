"""The work of one chunk of a sweep: every sample's model and nominal motion, its task
run through the batch kernels (one inverse-dynamics or linearization call over the whole
trajectory per sample; one compiled RK4 loop per open-loop simulation), and the metrics
as columns. A sample that raises keeps its row, with the error and NaN metrics.

The nominal motion is rest to rest, q(t) = q₀ + s·(q₁ − q₀)·p(t/T) with the quintic
p(τ) = 10τ³ − 15τ⁴ + 6τ⁵ (s: ``trajectory_scale``, T: ``trajectory_duration``).
"""

from __future__ import annotations

import warnings

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


def run_sample(spec: SweepSpec, base, p, models=None) -> dict:
    """Metrics (and time series) of one sample with parameters ``p``; ``models`` caches
    the sample models of a chunk by their parameters (grids repeat them)."""
    from ..dynamics.api import inverse_dynamics
    from ..sim import simulate

    key = tuple(p[k] for k in MODEL_PARAMETERS)
    models = {} if models is None else models
    if key not in models:
        models[key] = sample_model(base, p)
    model = models[key]
    n = model.nq
    motion = QuinticMotion(spec.start, spec.goal, p["trajectory_scale"], p["trajectory_duration"])
    T = p["trajectory_duration"]
    kp, kd = p["kp"], p["kd"]
    out = {}
    if spec.task in ("inverse_dynamics", "linearize"):
        t = np.linspace(0.0, T, spec.samples)
        q, qd, qdd = motion(t)
        tau = inverse_dynamics(model, q, qd, qdd)  # one batch call
        _torque_metrics(spec, t, qd, tau, out)
    else:
        steps = max(1, int(np.ceil(T / spec.dt - 1e-9)))
        h = T / steps
        t = np.arange(steps + 1) * h
        q_n, qd_n, qdd_n = motion(t)
        e0 = np.full(n, p["initial_error"])
        if spec.task == "simulate":  # the nominal model's feedforward, open loop
            tau_ff = inverse_dynamics(base, q_n, qd_n, qdd_n)
            traj = simulate(model, T, h, q0=q_n[0] + e0, qd0=qd_n[0], torque=tau_ff)
        else:  # feedforward + PD on the error

            def law(tk, x, v):
                qn, qdn, qddn = motion(tk)
                return inverse_dynamics(base, qn, qdn, qddn) + kp * (qn - x) + kd * (qdn - v)

            traj = simulate(model, T, h, q0=q_n[0] + e0, qd0=qd_n[0], torque=law)
        q, qd, tau = traj.q, traj.qd, traj.tau
        _torque_metrics(spec, t, qd, tau, out)
        if "tracking_error" in spec.metrics:
            out["tracking_error"] = float(np.abs(q - q_n).max())
        if "final_state" in spec.metrics:
            for j in range(n):
                out[f"final_q_{j + 1}"] = q[-1, j]
                out[f"final_qd_{j + 1}"] = qd[-1, j]
    if "stability" in spec.metrics:
        out["stability"] = _stability(
            model, motion, np.linspace(0.0, T, min(spec.samples, 21)), kp, kd
        )
    if spec.time_series:
        out["t_series"] = t.tolist()
        out["tau_series"] = tau.ravel().tolist()
        out["q_series"] = q.ravel().tolist()
    return out


def run_chunk(spec: SweepSpec, first: int, end: int) -> dict:
    """Columns {name: list} of samples first..end−1 (``sample``, the varied parameters,
    the metrics, ``error``: None or the failure's type and message)."""
    base = base_model(spec)
    table = spec.sample_table()
    cols = columns(spec, base.nq)
    rows = {k: [] for k in column_names(spec)}
    fixed = {"trajectory_duration": spec.duration, "kp": spec.kp, "kd": spec.kd, **DEFAULTS}
    models = {}
    for s in range(first, end):
        p = dict(fixed, **{k: float(table[k][s]) for k in spec.vary})
        try:
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
