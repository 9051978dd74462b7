"""Batch rollouts (issue "Speed, second pass"): N runs in one parallel compiled call
equal N separate `simulate` calls bit for bit, by RK4 and by semi-implicit Euler, with
torques shared or per run, constant or per step; the Euler step is the textbook one;
bad input is named."""

import numpy as np
import pytest

import eslabon as es


@pytest.fixture(scope="module")
def puma():
    return es.zoo.load("puma560")


def _states(model, N, seed=0):
    rng = np.random.default_rng(seed)
    return rng.uniform(-1, 1, (N, model.nv)), rng.uniform(-0.5, 0.5, (N, model.nv))


@pytest.mark.parametrize("method", ["rk4", "euler"])
def test_each_run_is_simulate_bit_for_bit(puma, method):
    """Run i equals simulate from (q0[i], qd0[i]) with torque i, array_equal, on 2
    threads, with a per-run constant torque and with a per-run table of torques."""
    N, K = 9, 51
    q0, v0 = _states(puma, N)
    rng = np.random.default_rng(1)
    per_run = rng.normal(size=(N, puma.nv)) * 5
    table = rng.normal(size=(N, K, puma.nv)) * 5
    es.set_num_threads(2)
    for torque, pick in ((per_run, lambda i: per_run[i]), (table, lambda i: table[i])):
        runs = es.rollout(puma, q0, v0, 0.05, 0.001, torque=torque, method=method)
        assert runs.q.shape == runs.qd.shape == runs.qdd.shape == (N, K, puma.nv)
        for i in range(N):
            one = es.simulate(puma, 0.05, 0.001, q0=q0[i], qd0=v0[i], torque=pick(i), method=method)
            assert np.array_equal(runs.q[i], one.q) and np.array_equal(runs.qd[i], one.qd)
            assert np.array_equal(runs.qdd[i], one.qdd)
        assert np.array_equal(runs.t, one.t)


def test_shared_torques_and_other_fd_methods(puma):
    """A torque (n,) or (K, n) is every run's; Walker–Orin method 3 runs too and agrees
    with ABA to round-off."""
    q0, v0 = _states(puma, 4)
    hold = es.gravity_torques(puma, q0[0])
    a = es.rollout(puma, q0, v0, 0.02, 0.001, torque=hold)
    b = es.rollout(puma, q0, v0, 0.02, 0.001, torque=np.tile(hold, (21, 1)))
    assert np.array_equal(a.q, b.q)
    c = es.rollout(puma, q0, v0, 0.02, 0.001, torque=hold, fd_method="walker_orin_3")
    np.testing.assert_allclose(c.q, a.q, rtol=0, atol=1e-12)


def test_as_many_runs_as_samples_asks_which_torque_is_meant(puma):
    """N = K: a (N, n) torque could be per run or per sample; refused, and the 3-D forms
    (N, 1, n) and (1, K, n) say which."""
    q0, v0 = _states(puma, 11)
    rows = np.random.default_rng(2).normal(size=(11, puma.nv))
    with pytest.raises(ValueError, match=r"N = K = 11.*\(11, 1, 6\) or \(1, 11, 6\)"):
        es.rollout(puma, q0, v0, 0.01, 0.001, torque=rows)
    per_sample = es.rollout(puma, q0, v0, 0.01, 0.001, torque=rows[None])
    one = es.simulate(puma, 0.01, 0.001, q0=q0[3], qd0=v0[3], torque=rows)
    assert np.array_equal(per_sample.q[3], one.q)
    per_run = es.rollout(puma, q0, v0, 0.01, 0.001, torque=rows[:, None])
    one = es.simulate(puma, 0.01, 0.001, q0=q0[3], qd0=v0[3], torque=rows[3])
    assert np.array_equal(per_run.q[3], one.q)


def test_semi_implicit_euler_is_the_textbook_step(puma):
    """q̇⁺ = q̇ + h q̈(q, q̇), q⁺ = q + h q̇⁺, step by step against forward_dynamics."""
    q0, v0 = _states(puma, 2)
    h = 0.002
    runs = es.rollout(puma, q0, v0, 0.01, h, method="euler")
    q, v = q0[1].copy(), v0[1].copy()
    for k in range(5):
        a = es.forward_dynamics(puma, q, v, np.zeros(puma.nv))
        np.testing.assert_allclose(runs.qdd[1, k], a, rtol=1e-13, atol=1e-13)
        v = v + h * a
        q = q + h * v
        np.testing.assert_allclose(runs.q[1, k + 1], q, rtol=1e-13, atol=1e-13)


def test_bad_input_is_named(puma):
    q0, v0 = _states(puma, 3)
    with pytest.raises(ValueError, match=r"q0, qd0: expected two arrays of shape \(N, 6\)"):
        es.rollout(puma, q0[:, :5], v0, 0.01, 0.001)
    with pytest.raises(ValueError, match=r"torque: expected None or shape \(6,\)"):
        es.rollout(puma, q0, v0, 0.01, 0.001, torque=np.zeros((2, 6)))
    with pytest.raises(ValueError, match="method: expected one of"):
        es.rollout(puma, q0, v0, 0.01, 0.001, method="midpoint")
    with pytest.raises(ValueError, match="dt: expected a divisor"):
        es.rollout(puma, q0, v0, 0.01, 0.003)
    with pytest.raises(ValueError, match="q0, qd0: expected finite"):
        es.rollout(puma, np.full((3, 6), np.nan), v0, 0.01, 0.001)
    from eslabon.model.builder import ModelBuilder

    b = ModelBuilder()
    b.add_body(0, "free_flyer", mass=1.0, inertia=np.eye(3))
    with pytest.raises(ValueError, match="quaternion or mimic joints"):
        es.rollout(b.build(), np.zeros((1, 7)), np.zeros((1, 6)), 0.01, 0.001)
    with pytest.raises(ValueError, match=r"run 1: "):
        huge = np.zeros((3, 6))
        huge[1] = 1e200
        es.rollout(puma, q0, huge, 0.01, 0.001)
