"""What the general joints must not break elsewhere: the lean path with mimic joints,
files, the command line, sweeps, mobile arms, control and plots (each either right or a
clear refusal)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import eslabon as es


def _mimic_model():
    base = es.zoo.random_tree(3, "RRRPR", friction=False)
    return base.replace(
        mimic_joint=np.array([-1, -1, -1, 1, -1, -1]),
        mimic_multiplier=np.array([1, 1, 1, -0.7, 1, 1.0]),
        mimic_offset=np.array([0, 0, 0, 0.2, 0, 0.0]),
    )


def test_the_lean_path_hands_mimic_models_to_the_general_one():
    """A q of the uncoupled length (every joint's own) is refused, not run uncoupled."""
    m = _mimic_model()
    with pytest.raises(ValueError, match=r"q: expected shape \(4,\)"):
        es.inverse_dynamics(m, np.zeros(5), np.zeros(5), np.zeros(5))
    assert es.inverse_dynamics.__self__.fast(m, np.zeros(4), np.zeros(4), np.zeros(4)) is None
    tau = es.inverse_dynamics(m, np.zeros(4), np.zeros(4), np.zeros(4))
    assert tau.shape == (4,)


def test_yaml_refuses_what_it_cannot_hold(tmp_path):
    with pytest.raises(ValueError, match="YAML has no mimic keys"):
        es.model.save_model(_mimic_model(), tmp_path / "m.yaml")


def test_crosscheck_takes_a_mimic_model():
    report = es.crosscheck(_mimic_model())
    assert report.ok, report.table()
    skipped = {c.name for c in report.checks if c.skipped}
    assert "ABA round trip to q̈" in skipped


def test_simulate_picks_a_method_that_takes_mimic_joints():
    run = es.simulate(_mimic_model(), 0.02, 0.01)
    assert run.q.shape == (3, 4)


@pytest.mark.parametrize("command", ["id", "fd", "simulate", "crosscheck"])
def test_the_cli_takes_a_floating_base(command, tmp_path):
    args = [sys.executable, "-m", "eslabon", command, "space_manipulator"]
    if command == "simulate":
        args += ["--t-final", "0.02", "--dt", "0.01", "--out", str(tmp_path / "t.npz")]
    r = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr


def test_what_needs_vector_coordinates_refuses_a_quaternion_joint():
    m = es.zoo.load("space_manipulator")
    q = es.neutral(m)
    with pytest.raises(ValueError, match="'satellite' is free_flyer"):
        es.control.pd_gravity_law(m, q, 1.0, 1.0)
    with pytest.raises(ValueError, match="'satellite' is free_flyer"):
        es.mobile.MobileManipulator(
            es.mobile.Tricycle(es.mobile.TricycleParams.seekur_jr_assumed()), m
        )


def test_perturbation_check_in_the_tangent_space():
    m = es.zoo.load("space_manipulator")
    rng = np.random.default_rng(0)
    q = es.random_configuration(m, rng)
    v, a = rng.normal(size=(2, m.nv))
    dx = 1e-6 * rng.normal(size=m.nv)
    check = es.control.perturbation_check(m, (q, v, a), (es.integrate(m, q, dx), v, a))
    assert np.abs(check.predicted - check.actual).max() < 1e-9
