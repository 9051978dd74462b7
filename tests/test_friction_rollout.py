"""Coulomb friction in ``eslabon.rollout`` (issue "Start in a blink, never fall over"):
the runs whose model has Coulomb friction take the loop ``simulate`` takes for it,
Karnopp's stick–slip decided per step (``src/eslabon/sim/stick_slip_loops.py``), so a
rollout and ``simulate`` agree on the same input: bit for bit with torque tables, to
round-off with a feedback law (``simulate`` runs ``law.as_torque`` in Python); and the
energy of every frictional run is checked, as ``simulate`` checks it."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import eslabon as es
from eslabon.sim import PD, ComputedTorque, FrictionStepWarning


def _arm(coulomb=2.0):
    arm = es.zoo.load("practica_6dof")
    return arm.replace(coulomb=np.r_[0.0, np.full(arm.nb, coulomb)])


def _states(N, seed=0):
    rng = np.random.default_rng(seed)
    return rng.uniform(-1, 1, (N, 6)), rng.uniform(-0.5, 0.5, (N, 6))


@pytest.mark.parametrize(
    "method, fd_method", [("rk4", "aba"), ("euler", "aba"), ("rk4", "walker_orin_3")]
)
def test_a_frictional_rollout_is_simulate_bit_for_bit(method, fd_method):
    """Nine runs, models with and without Coulomb friction mixed (a lanes block of the
    frictionless ones, the frictional ones one at a time), per-run torque tables (slow
    sinusoids): each run equals ``simulate`` in q, q̇, q̈, array_equal; the friction
    stuck some joints."""
    plain, stiff, mild = _arm(0.0), _arm(20.0), _arm(2.0)
    models = [stiff, plain, mild, plain, stiff, plain, plain, mild, plain]
    q0, v0 = _states(9)
    rng = np.random.default_rng(3)
    t = np.arange(101)[:, None] * 1e-3
    table = 8 * np.sin(rng.uniform(5, 30, (9, 1, 6)) * t + rng.uniform(0, 6, (9, 1, 6)))
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        runs = es.rollout(
            models, q0, v0, 0.1, 1e-3, torque=table, integrator=method, algorithm=fd_method
        )
        for i, m in enumerate(models):
            one = es.simulate(
                m, q0[i], v0[i], 0.1, 1e-3, torque=table[i], integrator=method, algorithm=fd_method
            )
            for a, b in zip(runs[1:4], (one.q, one.qd, one.qdd), strict=True):
                assert np.array_equal(a[i], b), i
    assert np.sum(runs.qd[[0, 4]] == 0.0) > 500  # the stiff friction held joints


@pytest.mark.parametrize("method", ["rk4", "euler"])
def test_a_frictional_rollout_under_a_law_is_simulate_to_round_off(method):
    """PD and computed torque inside the loop against ``simulate`` with the same law in
    Python (``law.as_torque``): both decide stick–slip per step the same way; q within
    1e-12, q̇ within 1e-10, τ within 1e-9 (the last sample's too: the torque at the
    stopped state)."""
    model = _arm(5.0)
    N, K = 4, 101
    q0, v0 = _states(N, 1)
    rng = np.random.default_rng(5)
    half = np.arange(2 * K - 1)[:, None] * 5e-4  # the half steps
    ref = 0.3 * np.sin(rng.uniform(5, 20, (N, 1, 6)) * half + rng.uniform(0, 6, (N, 1, 6)))
    laws = (
        PD(rng.uniform(5, 20, (N, 6)), 1.0, ref),
        ComputedTorque(rng.uniform(5, 20, 6), 2.0, ref[0]),
    )
    for law in laws:
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)
            runs = es.rollout(model, q0, v0, 0.1, 1e-3, torque=law, integrator=method)
        for i in range(N):
            one = es.simulate(
                model,
                q0[i],
                v0[i],
                0.1,
                1e-3,
                integrator=method,
                torque=law.as_torque(1e-3, i, model),
            )
            np.testing.assert_allclose(runs.q[i], one.q, rtol=0, atol=1e-12)
            np.testing.assert_allclose(runs.qd[i], one.qd, rtol=0, atol=1e-10)
            np.testing.assert_allclose(runs.tau[i], one.tau, rtol=0, atol=1e-9)


def test_rollout_names_the_run_and_the_joint_that_the_step_cannot_resolve():
    """A torque that flips beyond F_c every step, in runs 2 and 3 of four: one
    FrictionStepWarning names run 2, the joint's body, and counts the other run."""
    p = es.zoo.load("jaramillo_pendulum")
    model = p.replace(coulomb=np.array([0.0, 1.0]), gravity=(0.0, 0.0, 0.0))
    table = np.zeros((4, 101, 1))
    table[2:] = 5.0 * (-1.0) ** np.arange(101)[:, None]
    with pytest.warns(FrictionStepWarning) as seen:
        es.rollout(model, np.zeros((4, 1)), np.full((4, 1), -2.5e-3), 0.1, 1e-3, torque=table)
    (w,) = [w for w in seen if w.category is FrictionStepWarning]
    assert str(w.message).startswith("rollout: run 2: the step dt = 0.001 s cannot resolve")
    assert "'link1'" in str(w.message) and "(and in 1 more run)" in str(w.message)
    assert w.filename == __file__


def test_a_failing_frictional_run_is_marked_and_the_others_kept():
    """A run that diverges under stick–slip is marked failed, the others finish."""
    from eslabon.sim.rollouts import rollout_with_failures

    model = _arm(2.0)
    q0, v0 = _states(3)
    v0[1] = 1e200
    runs, failed = rollout_with_failures(model, q0, v0, 0.01, 1e-3)
    assert failed.tolist() == [False, True, False]
    assert np.isfinite(runs.q[[0, 2]]).all()


def test_the_mobile_manipulators_fixed_step_names_the_arms_frictional_joints():
    """``mobile.simulate`` integrates the arm's Coulomb friction with the plain law (no
    stick–slip on the platform-coupled dynamics): with the fixed RK4 step it says so,
    naming the joints; the adaptive default does not warn."""
    from eslabon import mobile as mb

    cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    arm = es.zoo.load("puma560_araujo")
    rough = arm.replace(coulomb=np.r_[0.0, 0.0, 1.5, 0.0, 0.0, 0.0, 0.0])
    mm = mb.MobileManipulator(cart, rough, mb.Mount((0.3, 0, 0.5)))
    with pytest.warns(FrictionStepWarning, match=r"^mobile.simulate: the arm's Coulomb friction "
                      rf"\(joint of body {rough.body_names[2]!r}\)") as seen:  # fmt: skip
        mb.simulate(mm, None, None, 0.02, 0.01, integrator="rk4")
    assert seen[0].filename == __file__
    with warnings.catch_warnings():
        warnings.simplefilter("error", FrictionStepWarning)
        mb.simulate(mm, None, None, 0.02, 0.01)
        mb.simulate(
            mb.MobileManipulator(cart, arm, mb.Mount((0.3, 0, 0.5))),
            None,
            None,
            0.02,
            0.01,
            integrator="rk4",
        )
