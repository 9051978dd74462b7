"""The compiled RK4 loop of ``eslabon.simulate`` (``src/eslabon/sim/rk4.py``).

Seed 001 §3.4 integrates the pendulum with ``walkerorinrunge3``: classical RK4, the torque
held over each step. ``simulate(method="rk4")`` runs that whole loop in one compiled call
when the torque is None, a constant (n,) or a table (K, n); a Python callable
``torque(t, q, qd)`` takes the Python loop. The module promises the same numbers both ways:

* compiled == Python loop (a callable replaying the same torques) to 1e-12, for every
  torque kind and forward-dynamics method, on puma560 and the seed-001 pendulum;
* energy: the friction-free pendulum released from rest with τ = 0 (seed 001's
  ``simula3(1, 0.001)`` of §3.4 without its dampers) conserves energy to RK4's order:
  measured drift / max T is 7.9e-11 at dt = 1e-3 and falls 15.5x per halving of dt
  (2⁴ = 16);
* a diverging run (dt far too large) raises ValueError instead of returning NaN.
"""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es

MODELS = ("puma560", "practica_pendulum3")
FD_METHODS = ("aba", "walker_orin_3", "walker_orin_1")
T_FINAL, DT = 0.3, 1e-3
K = 301


class Replay:
    """A callable torque giving, in the Python loop, what a (K, n) table gives the compiled
    loop: row k at the four stages of step k (t_k, t_k + h/2, t_k + h/2, t_k + h), then row
    k again when ``simulate`` evaluates the torque at each sample t_k for the trajectory.
    It checks that it is called in that order, so a change of protocol fails loudly."""

    def __init__(self, table, dt):
        self.table, self.dt, self.calls = np.asarray(table, float), dt, 0

    def __call__(self, t, q, qd):
        i = self.calls
        self.calls += 1
        steps = len(self.table) - 1
        if i < 4 * steps:
            k = i // 4
            stage = (0.0, 0.5, 0.5, 1.0)[i % 4]
            assert abs(t - (k + stage) * self.dt) < 1e-12, (i, t)
        else:
            k = int(round(t / self.dt))
            assert abs(t - k * self.dt) < 1e-12 and k == i - 4 * steps, (i, t)
        return self.table[k].copy()


def _initial(model):
    rng = np.random.default_rng(len(model.name))
    return rng.uniform(-1.0, 1.0, model.nq), rng.uniform(-1.0, 1.0, model.nq)


def _torques(model, q0):
    """Gentle torques: gravity at q0 plus noise of 10 % of it (the puma's wrist is light)."""
    rng = np.random.default_rng(3)
    g = es.gravity_torques(model, q0)
    size = 0.1 * max(1.0, float(np.max(np.abs(g))))
    const = g + rng.normal(0.0, size, model.nq)
    table = g + rng.normal(0.0, size, (K, model.nq))
    return const, table


def _same(a, b, what):
    for field in ("t", "q", "qd", "qdd", "tau"):
        x, y = getattr(a, field), getattr(b, field)
        assert x.shape == y.shape, f"{what} {field}: shape {x.shape} != {y.shape}"
        scale = max(1.0, float(np.max(np.abs(y))))
        err = float(np.max(np.abs(x - y)))
        assert err <= 1e-12 * scale, f"{what} {field}: {err:.3e} (scale {scale:.3e})"


@pytest.mark.parametrize("fd_method", FD_METHODS)
@pytest.mark.parametrize("name", MODELS)
@pytest.mark.parametrize("kind", ["none", "constant", "table"])
def test_compiled_loop_equals_python_loop(name, fd_method, kind):
    model = es.zoo.load(name)
    q0, qd0 = _initial(model)
    const, table = _torques(model, q0)
    n = model.nq
    compiled_arg, python_arg = {
        "none": (None, lambda t, q, qd: np.zeros(n)),
        "constant": (const, lambda t, q, qd: const.copy()),
        "table": (table, Replay(table, DT)),
    }[kind]
    fast = es.simulate(model, q0, qd0, T_FINAL, DT, torque=compiled_arg, algorithm=fd_method)
    slow = es.simulate(model, q0, qd0, T_FINAL, DT, torque=python_arg, algorithm=fd_method)
    if kind == "table":
        assert python_arg.calls == 4 * (K - 1) + K
    assert fast.q.shape == (K, n)
    assert np.max(np.abs(fast.q - q0)) > 0.01, "the robot should move"
    _same(fast, slow, f"{name}/{fd_method}/{kind}")


@pytest.mark.parametrize("name", MODELS)
def test_compiled_trajectory_is_self_consistent(name):
    """Each sample's q̈ is FD at that sample with that sample's torque; τ is the table."""
    model = es.zoo.load(name)
    q0, qd0 = _initial(model)
    _, table = _torques(model, q0)
    tr = es.simulate(model, q0, qd0, T_FINAL, DT, torque=table)
    np.testing.assert_array_equal(tr.tau, table)
    np.testing.assert_array_equal(tr.q[0], q0)
    np.testing.assert_array_equal(tr.qd[0], qd0)
    np.testing.assert_allclose(tr.t, np.arange(K) * DT, rtol=0, atol=1e-15)
    np.testing.assert_allclose(
        tr.qdd, es.forward_dynamics(model, tr.q, tr.qd, tr.tau), rtol=1e-14, atol=1e-14
    )


def test_compiled_loop_is_one_rk4_step_by_hand():
    """One step of the classical RK4 tableau written out with ``forward_dynamics``."""
    model = es.zoo.load("practica_pendulum3")
    q, v = np.array([0.4, -0.3, 0.6]), np.array([0.5, -1.0, 0.8])
    tau = np.array([1.0, -2.0, 0.5])
    h = 0.01
    fd = lambda x, y: es.forward_dynamics(model, x, y, tau)  # noqa: E731
    a1 = fd(q, v)
    a2 = fd(q + h / 2 * v, v + h / 2 * a1)
    a3 = fd(q + h / 2 * (v + h / 2 * a1), v + h / 2 * a2)
    a4 = fd(q + h * (v + h / 2 * a2), v + h * a3)
    q1 = q + h / 6 * (v + 2 * (v + h / 2 * a1) + 2 * (v + h / 2 * a2) + (v + h * a3))
    v1 = v + h / 6 * (a1 + 2 * a2 + 2 * a3 + a4)
    tr = es.simulate(model, q, v, h, h, torque=tau)
    np.testing.assert_allclose(tr.q[1], q1, rtol=1e-14, atol=1e-14)
    np.testing.assert_allclose(tr.qd[1], v1, rtol=1e-14, atol=1e-14)
    np.testing.assert_allclose(tr.qdd[0], a1, rtol=1e-14, atol=1e-14)


@pytest.mark.parametrize("fd_method", ["lagrange", "soa", "gibbs_appell"])
def test_reference_formulations_take_the_python_loop(fd_method):
    """The numpy formulations have no compiled loop: a constant torque runs them in the
    Python loop (it was a KeyError), along ABA's trajectory (on a random chain: the zoo's
    arms have bodies of singular inertia, which the constraint-force method refuses)."""
    model = es.zoo.random_chain(4, seed=1)
    q0, qd0 = _initial(model)
    tau = es.gravity_torques(model, q0)
    ref = es.simulate(model, q0, qd0, 0.05, DT, torque=tau)
    got = es.simulate(model, q0, qd0, 0.05, DT, torque=tau, algorithm=fd_method)
    for field in ("q", "qd", "qdd", "tau"):
        np.testing.assert_allclose(
            getattr(got, field),
            getattr(ref, field),
            rtol=1e-9,
            atol=1e-9,
            err_msg=f"{fd_method} {field}",
        )


# --- energy -----------------------------------------------------------------------------


def _drift(model, dt, fd_method):
    tr = es.simulate(model, None, None, 1.0, dt, algorithm=fd_method)
    T = es.kinetic_energy(model, tr.q, tr.qd)
    E = T + es.potential_energy(model, tr.q)
    return float(np.max(np.abs(E - E[0]))) / float(np.max(T)), tr


@pytest.mark.parametrize("fd_method", FD_METHODS)
def test_frictionless_pendulum_conserves_energy_to_rk4_order(fd_method):
    model = es.zoo.load("practica_pendulum3", friction=False)
    rel, tr = _drift(model, 1e-3, fd_method)
    assert np.max(np.abs(tr.q)) > 1.0, "released from rest, the pendulum should swing"
    assert rel < 1e-9, f"energy drift / max T = {rel:.3e} over 1 s at dt = 1e-3"
    coarse, _ = _drift(model, 2e-3, fd_method)
    ratio = coarse / rel
    assert 10.0 < ratio < 24.0, f"halving dt divides the drift by {ratio:.1f}, not ~16"


# --- divergence and bad models -----------------------------------------------------------


@pytest.mark.parametrize("fd_method", FD_METHODS)
@pytest.mark.parametrize("kind", ["none", "constant", "table", "callable"])
def test_diverging_simulation_raises(fd_method, kind):
    """dt = 0.5 s on the friction-free pendulum blows up within a few steps (measured: the
    state overflows at t = 1.5 s); dt = 0.1 s still returns a finite trajectory."""
    model = es.zoo.load("practica_pendulum3", friction=False)
    q0, qd0 = [0.4, -0.3, 0.6], [0.5, -1.0, 0.8]
    torque = {
        "none": None,
        "constant": np.zeros(3),
        "table": np.zeros((401, 3)),
        "callable": lambda t, q, qd: np.zeros(3),
    }[kind]
    with pytest.raises(ValueError, match="diverged|not finite"):
        es.simulate(model, q0, qd0, 200.0, 0.5, torque=torque, algorithm=fd_method)
    ok = es.simulate(model, q0, qd0, 2.0, 0.1, algorithm=fd_method)
    assert np.isfinite(ok.q).all() and np.isfinite(ok.qd).all() and np.isfinite(ok.qdd).all()


def test_compiled_loop_refuses_a_joint_moving_no_mass():
    rows = [
        {
            "joint": "R",
            "theta": 0.0,
            "d": 0.0,
            "a": 1.0,
            "alpha": 0.0,
            "mass": 1.0,
            "com": [-0.5, 0, 0],
            "inertia": np.diag([0.0, 0.1, 0.1]),
        },
        {
            "joint": "R",
            "theta": 0.0,
            "d": 0.0,
            "a": 1.0,
            "alpha": 0.0,
            "mass": 0.0,
            "com": [0, 0, 0],
            "inertia": np.zeros((3, 3)),
        },
    ]
    model = es.from_dh(rows, "standard")
    for fd_method in FD_METHODS:
        with pytest.raises(ValueError, match="positive definite"):
            es.simulate(model, None, None, 0.01, 0.001, torque=np.ones(2), algorithm=fd_method)
