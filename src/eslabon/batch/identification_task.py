"""The ``identification`` task of a sweep: one identification experiment per sample.

Each sample's model (the sweep's model with its payload and friction scale,
:func:`.tasks.sample_model`) is the robot "as it is"; the sweep's model is what the
experimenter believes. The sample

1. moves along a Fourier excitation (Swevers et al. 1997, eq. 10;
   :func:`eslabon.identification.random_excitation`, seed 0, five harmonics): centre
   ``trajectory.start``, range ``trajectory_scale`` · abs(goal − start) per joint, period
   ``trajectory_duration``, rate limit 10 × range / period (the position range binds),
   sampled at ``trajectory.samples`` times of one period;
2. "measures" τ = inverse dynamics of the sample's model + Gaussian noise of standard
   deviation ``noise`` [N·m, N] on every joint, drawn from the seed of the sample's
   index (so a sweep over ``noise`` scales one and the same draw);
3. estimates the base parameters of the sweep's model by ordinary least squares
   (:func:`eslabon.identification.estimate`, q̈ exact) and compares them with the true
   ones, β = map · π of the sample's model.

Metrics: ``parameter_error`` ‖β̂ − β‖ / ‖β‖; ``max_z_score`` max_k abs(β̂_k − β_k) / σ_k
over the parameters with σ_k > 0 (0 for noise-free data, where every σ_k is 0);
``condition`` cond(W_b); ``residual_rms`` the RMS torque residual over every joint;
``peak_torque`` and ``rms_torque`` of the measured torques.
"""

from __future__ import annotations

import numpy as np

HARMONICS = 5
RATE_FACTOR = 10.0  # qd_max = this × range / period: the position range binds
IDENTIFICATION_METRICS = ("parameter_error", "max_z_score", "condition", "residual_rms")


def excitation_of(spec, p):
    """The sample's excitation and its sample times (module docstring)."""
    from ..identification import random_excitation

    T = p["trajectory_duration"]
    reach = abs(p["trajectory_scale"]) * np.abs(np.subtract(spec.goal, spec.start))
    excitation = random_excitation(
        spec.start, reach, RATE_FACTOR * reach / T, frequency=2.0 * np.pi / T,
        harmonics=HARMONICS, seed=0,
    )  # fmt: skip
    return excitation, np.arange(spec.samples) * (T / spec.samples)


def run_identification(spec, believed, truth, p, sample: int) -> dict:
    """The metrics of one identification experiment (module docstring).

    Parameters
    ----------
    spec : SweepSpec
        The sweep (task ``identification``).
    believed : Model
        The sweep's model: its kinematics and base parameters are used.
    truth : Model
        The sample's model, which makes the measured torques.
    p : dict
        The sample's parameters (``noise``, ``trajectory_scale``, ``trajectory_duration``).
    sample : int
        The sample's index, the seed of its noise.

    Returns
    -------
    dict
        The metrics the spec asks for (module docstring).
    """
    from ..dynamics.api import inverse_dynamics
    from ..identification import base_parameters, estimate, parameters

    excitation, t = excitation_of(spec, p)
    q, qd, qdd = excitation.sample(t)
    rng = np.random.default_rng(sample)
    tau = inverse_dynamics(truth, q, qd, qdd) + p["noise"] * rng.standard_normal(q.shape)
    base = base_parameters(believed)
    result = estimate(believed, q, qd, tau, qdd=qdd, weighting="ordinary", base=base)
    true_beta = base.values(parameters(truth))
    error = result.values - true_beta
    spread = result.std > 0.0
    metrics = {
        "parameter_error": float(np.linalg.norm(error) / np.linalg.norm(true_beta)),
        "max_z_score": float(np.max(np.abs(error[spread]) / result.std[spread]))
        if spread.any()
        else 0.0,
        "condition": float(result.condition),
        "residual_rms": float(np.sqrt(np.mean(result.rms**2))),
    }
    out = {k: v for k, v in metrics.items() if k in spec.metrics}
    if "peak_torque" in spec.metrics:
        for j, v in enumerate(np.abs(tau).max(axis=0)):
            out[f"peak_torque_{j + 1}"] = v
    if "rms_torque" in spec.metrics:
        for j, v in enumerate(np.sqrt(np.mean(tau**2, axis=0))):
            out[f"rms_torque_{j + 1}"] = v
    if spec.time_series:
        out["t_series"] = t.tolist()
        out["tau_series"] = tau.ravel().tolist()
        out["q_series"] = q.ravel().tolist()
    return out
