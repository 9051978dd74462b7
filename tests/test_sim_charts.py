"""The compiled RK4 loop on charts (``src/eslabon/sim/chart_loop.py``): ``simulate`` of a
model whose configuration holds quaternions (free-flyer and spherical joints).

The loop promises the numbers of the Python step on :class:`eslabon.sim.manifold.Chart`
(a callable torque takes that path): the same on this machine, to the bit (both call the
same compiled chart functions and forward dynamics, in the same order of operations). It
also keeps RK4's fourth order, unit quaternions, a free-flying system's momentum, and
reports a divergence as the Python loop does.
"""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es

FD_METHODS = ("aba", "walker_orin_3", "walker_orin_1")


def _space():
    model = es.zoo.load("space_manipulator")
    rng = np.random.default_rng(2)
    q0 = es.integrate(model, es.neutral(model), rng.uniform(-0.5, 0.5, model.nv))
    qd0 = rng.uniform(-0.1, 0.1, model.nv)
    scale = np.array([2.0, 2.0, 1.0, 0.01, 0.01, 0.005])  # the Puma's wrist is light
    tau = np.concatenate([np.zeros(6), rng.uniform(-1.0, 1.0, 6) * scale])
    return model, q0, qd0, tau


def _tree():
    """A floating base carrying spherical, helical, universal and revolute joints."""
    model = es.zoo.random_tree(5, "BSHURS", friction=False)
    rng = np.random.default_rng(5)
    q0 = es.integrate(model, es.neutral(model), rng.uniform(-0.5, 0.5, model.nv))
    qd0 = rng.uniform(-0.5, 0.5, model.nv)
    return model, q0, qd0, 0.05 * rng.uniform(-1.0, 1.0, model.nv)


CASES = {"space_manipulator": _space, "floating_tree": _tree}


class Replay:
    """A callable torque giving the Python loop row k of a table at the four stages of
    step k, then row k at each sample (as ``simulate`` asks)."""

    def __init__(self, table, dt):
        self.table, self.dt, self.calls = table, dt, 0

    def __call__(self, t, q, qd):
        i, steps = self.calls, len(self.table) - 1
        self.calls += 1
        k = i // 4 if i < 4 * steps else i - 4 * steps
        return self.table[k].copy()


@pytest.mark.parametrize("fd_method", FD_METHODS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_compiled_loop_on_charts_equals_the_python_loop(case, fd_method):
    model, q0, qd0, tau = CASES[case]()
    K, dt = 201, 1e-3
    table = tau * (1.0 + 0.1 * np.sin(np.arange(K)))[:, None]
    for compiled, python in ((tau, lambda t, q, qd: tau.copy()), (table, Replay(table, dt))):
        fast = es.simulate(model, q0, qd0, 0.2, dt, torque=compiled, algorithm=fd_method)
        slow = es.simulate(model, q0, qd0, 0.2, dt, torque=python, algorithm=fd_method)
        for field in ("q", "qd", "qdd", "tau"):
            np.testing.assert_array_equal(getattr(fast, field), getattr(slow, field), field)
        assert np.abs(es.difference(model, fast.q[0], fast.q[-1])).max() > 1e-3  # it moved


def test_quaternions_stay_unit_and_momentum_is_kept():
    """No gravity acts on the space manipulator: its momentum is constant (to RK4's error);
    every quaternion leaves each step unit to the last ulp."""
    model, q0, qd0, tau = _space()
    run = es.simulate(model, q0, qd0, 1.0, 0.005, torque=tau)
    assert np.abs(np.linalg.norm(run.q[:, 3:7], axis=1) - 1.0).max() < 1e-15
    h = es.momentum(model, run.q, run.qd)
    scale = max(1.0, np.abs(h[0]).max())
    assert np.abs(h - h[0]).max() < 1e-8 * scale


def test_the_loop_converges_at_fourth_order():
    model, q0, qd0, tau = _tree()
    ref = es.simulate(
        model,
        q0,
        qd0,
        0.4,
        0.4,
        torque=lambda t, q, qd: tau,
        integrator="dop853",
        rtol=1e-12,
        atol=1e-14,
    )
    errors = []
    for dt in (0.02, 0.01):
        run = es.simulate(model, q0, qd0, 0.4, dt, torque=tau)
        errors.append(np.abs(es.difference(model, run.q[-1], ref.q[-1])).max())
    assert 12.0 < errors[0] / errors[1] < 20.0, errors  # 2⁴ = 16


def test_a_diverging_run_names_the_last_finite_state():
    model, q0, qd0, _ = _space()
    with pytest.raises(ValueError, match=r"diverged after t = .*last finite state q = \["):
        es.simulate(model, q0, qd0 * 1e4, 1.0, 0.1, torque=np.full(model.nv, 1e8))
