"""Sweeps of identification experiments (task ``identification``): a variant's torques
plus noise, identified with the nominal model's kinematics, errors reported; checked by
identities the experiment must meet, not by stored numbers."""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from eslabon import batch
from eslabon.batch.identification_task import excitation_of
from eslabon.identification import base_parameters, joint_torque_regressor

METRICS = ["parameter_error", "max_z_score", "condition", "residual_rms", "rms_torque"]


def _spec(vary, **extra):
    return batch.parse_spec(
        {
            "eslabon_sweep": 1, "model": "planar2", "task": "identification",
            "trajectory": {"start": [0.0, 0.2], "goal": [1.2, 1.4], "duration": 10.0,
                           "samples": 400},
            "vary": vary, "metrics": METRICS, "chunk_size": 8, **extra,
        }
    )  # fmt: skip


@pytest.fixture(scope="module")
def noise_sweep(tmp_path_factory):
    spec = _spec({"noise": {"values": [0.0, 0.01, 0.1]}, "payload_mass": {"values": [0.0, 2.0]}})
    out = tmp_path_factory.mktemp("ident") / "sweep"
    batch.run_sweep(spec, out, serial=True)
    return spec, batch.read_sweep(out).sort_values("sample").reset_index(drop=True)


def test_every_sample_ran(noise_sweep):
    _, df = noise_sweep
    assert len(df) == 6 and df["error"].isna().all()


def test_noise_free_data_identify_the_variant_exactly(noise_sweep):
    """With no noise the estimate is the variant's true base parameters, payload or not:
    the payload changes π of the last link, not the kinematics."""
    _, df = noise_sweep
    exact = df[df["noise"] == 0.0]
    assert np.all(exact["parameter_error"] < 1e-9)
    assert np.all(exact["residual_rms"] < 1e-9)


def test_residual_is_the_noise_and_errors_lie_within_the_confidence(noise_sweep):
    """The torque residual of a least-squares fit is the noise less what r of the N·nv
    directions absorb (here r / (N nv) ≈ 1.4 %); every estimate lies within 5 of its
    reported standard deviations."""
    _, df = noise_sweep
    for level in (0.01, 0.1):
        rows = df[df["noise"] == level]
        assert np.all((rows["residual_rms"] > 0.8 * level) & (rows["residual_rms"] < 1.2 * level))
        assert np.all(rows["max_z_score"] < 5.0)
        assert np.all(rows["parameter_error"] > 0.0)


def test_the_reported_condition_is_that_of_the_excitation(noise_sweep):
    spec, df = noise_sweep
    arm = es.zoo.load("planar2")
    p = {"trajectory_duration": spec.duration, "trajectory_scale": 1.0}
    excitation, t = excitation_of(spec, p)
    base = base_parameters(arm)
    W = base.regressor(joint_torque_regressor(arm, *excitation.sample(t))).reshape(-1, base.count)
    np.testing.assert_allclose(df["condition"], np.linalg.cond(W), rtol=1e-9)


def test_the_same_draw_scales_exactly():
    """One sample index, two noise levels: the parameter error is proportional."""
    from eslabon.batch.identification_task import run_identification

    spec = _spec({"noise": {"values": [0.01]}})
    arm = es.zoo.load("planar2")
    p = {"trajectory_duration": spec.duration, "trajectory_scale": 1.0}
    errors = [
        run_identification(spec, arm, arm, dict(p, noise=level), sample=3)["parameter_error"]
        for level in (0.01, 0.1)
    ]
    assert errors[1] == pytest.approx(10.0 * errors[0], rel=1e-6)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"trajectory": {"start": [0.0, 0.2], "goal": [0.0, 1.4], "samples": 400}},
         "trajectory.goal: the identification excitation"),
        ({"trajectory": {"goal": [1.0, 1.0], "samples": 3}}, "trajectory.samples: 3 samples"),
    ],
)  # fmt: skip
def test_bad_identification_specs_are_refused(change, message):
    data = {"eslabon_sweep": 1, "model": "planar2", "task": "identification",
            "trajectory": {"goal": [1.0, 1.0]}, **change}  # fmt: skip
    with pytest.raises(ValueError, match=message):
        batch.parse_spec(data)


def test_identification_metrics_belong_to_the_identification_task():
    with pytest.raises(ValueError, match="parameter_error does not apply"):
        batch.parse_spec(
            {"eslabon_sweep": 1, "model": "planar2", "task": "inverse_dynamics",
             "trajectory": {"goal": [1.0, 1.0]}, "metrics": ["parameter_error"]}
        )  # fmt: skip
