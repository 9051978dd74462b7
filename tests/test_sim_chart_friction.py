"""simulate of a model with quaternion joints and Coulomb friction runs RK4 on charts with
Karnopp's stick–slip in one compiled call (eslabon.sim.chart_stick_slip): the Python loop
on charts (a callable torque) makes the same decisions, so both agree to round-off, both
computed here in the same run."""

import sys
import warnings

import numpy as np
import pytest

import eslabon as es
from eslabon.sim import chart_stick_slip


def _rough_flyer(coulomb):
    return es.with_joint_friction(es.zoo.load("space_manipulator"), coulomb=coulomb)


@pytest.mark.parametrize("fd_method", ["aba", "walker_orin_3"])
def test_compiled_loop_on_charts_equals_the_python_loop(fd_method, monkeypatch):
    model = _rough_flyer(0.5)
    rng = np.random.default_rng(0)
    q0 = es.random_configuration(model, rng)
    v0 = rng.uniform(-1, 1, model.nv)
    v0[6:] *= 0.05  # slow joints: some stick, some slip
    tau = rng.uniform(-1, 1, model.nv)
    calls = []
    loop = chart_stick_slip.chart_stick_slip_loop
    module = sys.modules["eslabon.sim.simulate"]  # (the package exports the function)
    monkeypatch.setattr(module, "chart_stick_slip_loop", lambda *a: calls.append(1) or loop(*a))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # friction takes energy out: no energy warning
        compiled = es.simulate(model, q0, v0, 0.2, 1e-3, torque=tau, algorithm=fd_method)
        python = es.simulate(
            model, q0, v0, 0.2, 1e-3, algorithm=fd_method, torque=lambda t, q, v: tau
        )
    assert calls == [1]  # the table ran compiled, the callable in Python
    joints = compiled.qd[:, 6:]
    assert (joints == 0).any() and (joints != 0).any()  # stuck and sliding samples
    assert np.array_equal(joints == 0, python.qd[:, 6:] == 0)  # the same decisions
    np.testing.assert_allclose(compiled.q, python.q, rtol=0, atol=1e-13)
    np.testing.assert_allclose(compiled.qd, python.qd, rtol=0, atol=1e-13)
    np.testing.assert_allclose(compiled.qdd, python.qdd, rtol=0, atol=1e-11)
    quaternion = compiled.q[:, 3:7]
    assert np.allclose(np.linalg.norm(quaternion, axis=1), 1.0, rtol=0, atol=1e-14)


def test_a_stuck_joint_stays_still_to_the_bit():
    """Friction larger than any torque the motion asks for: every joint sticks from the
    first step and its coordinate is carried over unchanged while the base tumbles."""
    model = _rough_flyer(50.0)
    rng = np.random.default_rng(1)
    q0 = es.random_configuration(model, rng)
    v0 = np.zeros(model.nv)
    v0[:6] = rng.uniform(-0.5, 0.5, 6)  # the base moves, the joints start at rest
    run = es.simulate(model, q0, v0, 0.1, 1e-3)
    assert (run.qd[:, 6:] == 0).all() and (run.qdd[:, 6:] == 0).all()
    assert (run.q[:, 7:] == q0[7:]).all()
    assert np.abs(run.q[-1, :3] - q0[:3]).max() > 1e-3  # the base did move
