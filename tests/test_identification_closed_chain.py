"""The regressor of a closed chain's actuator torques, Y_a = Gᵀ Y (or the minimum-norm
projection for redundant actuation), against the constrained inverse dynamics on the
zoo's closed chains, and a virtual-work identity: u · v_a = (Y π) · v."""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from eslabon import constraints as ec
from eslabon.identification import (
    closed_chain_regressor,
    joint_torque_regressor,
    parameters,
    with_parameters,
)

# name, the actuated (independent) rates, the coordinates' spread from home
MECHANISMS = {
    "four_bar": ([0], 0.4),
    "slider_crank": ([0], 0.4),
    "bennett": ([0], 0.4),
    "five_bar": ([0, 1], 0.3),
    "andrews_squeezer": ([0], 0.3),
    "delta": ([0, 1, 2], 0.3),
    "stewart": (list(range(18, 24)), 0.05),
}


def _states(model, actuated, spread, seed, count=3):
    rng = np.random.default_rng(seed)
    k = len(actuated)
    states = [
        ec.close_state(
            model,
            es.neutral(model),
            actuated,
            rng.uniform(-spread, spread, k),
            rng.uniform(-1, 1, k),
            rng.uniform(-1, 1, k),
        )  # fmt: skip
        for _ in range(count)
    ]
    return (np.stack([getattr(s, f) for s in states]) for f in ("q", "qd", "qdd"))


def _heavier(model, seed):
    """The same mechanism with other, random standard parameters (each body scaled and
    its centre of mass moved), so the test does not rest on the zoo's values."""
    rng = np.random.default_rng(seed)
    pi = parameters(model).copy()
    nb = model.nb
    bodies = pi[: 10 * nb].reshape(nb, 10)
    bodies *= rng.uniform(0.5, 2.0, (nb, 1))
    return with_parameters(model, pi)


@pytest.mark.parametrize("name", sorted(MECHANISMS))
def test_projected_regressor_is_the_constrained_inverse_dynamics(name):
    actuated, spread = MECHANISMS[name]
    model = _heavier(es.zoo.load(name), 7)
    q, qd, qdd = _states(model, actuated, spread, seed=1)
    Ya = closed_chain_regressor(model, q, qd, qdd, actuated=actuated)
    assert Ya.shape == (len(q), len(actuated), len(parameters(model)))
    u = Ya @ parameters(model)
    for k in range(len(q)):
        out = ec.constrained_inverse_dynamics(model, q[k], qd[k], qdd[k], actuated=actuated)
        scale = max(1.0, float(np.abs(out.tau).max()))
        np.testing.assert_allclose(u[k], out.tau[actuated], atol=1e-8 * scale)


@pytest.mark.parametrize("name", ["four_bar", "five_bar", "delta"])
def test_virtual_work_of_the_actuators_is_that_of_the_tree(name):
    """For every allowed motion v = G v_a: u · v_a = (Y π) · v, whatever π."""
    actuated, spread = MECHANISMS[name]
    model = es.zoo.load(name)
    q, qd, qdd = _states(model, actuated, spread, seed=2, count=1)
    q, qd, qdd = q[0], qd[0], qdd[0]
    Ya = closed_chain_regressor(model, q, qd, qdd, actuated=actuated)
    Y = joint_torque_regressor(model, q, qd, qdd)
    G = ec.partition(model, q, independent=actuated).N
    rng = np.random.default_rng(3)
    v_a = rng.standard_normal(len(actuated))
    np.testing.assert_allclose(v_a @ Ya, (G @ v_a) @ Y, atol=1e-9 * np.abs(Y).max())


def test_redundant_actuation_is_the_minimum_norm_share():
    """A four-bar driven at two of its three joints: the least-effort torques."""
    model = es.zoo.load("four_bar")
    q, qd, qdd = _states(model, [0], 0.4, seed=4, count=2)
    Ya = closed_chain_regressor(model, q, qd, qdd, actuated=[0, 2])
    for k in range(len(q)):
        out = ec.constrained_inverse_dynamics(model, q[k], qd[k], qdd[k], actuated=[0, 2])
        np.testing.assert_allclose(Ya[k] @ parameters(model), out.tau[[0, 2]], atol=1e-8)


def test_the_loop_regroups_more_parameters_than_the_tree():
    """The rank of the stacked Y_a of a four-bar is below the tree's: its three links'
    parameters reach the single actuator only through the loop."""
    model = es.zoo.load("four_bar")
    q, qd, qdd = _states(model, [0], 0.9, seed=5, count=60)
    Ya = closed_chain_regressor(model, q, qd, qdd, actuated=[0]).reshape(-1, len(parameters(model)))
    Y = joint_torque_regressor(model, q, qd, qdd).reshape(-1, Ya.shape[1])

    def rank(W):
        s = np.linalg.svd(W, compute_uv=False)
        return int(np.sum(s > 1e-9 * s[0]))

    assert 0 < rank(Ya) < rank(Y)


def test_too_few_actuators_are_refused():
    model = es.zoo.load("five_bar")
    q, qd, qdd = _states(model, [0, 1], 0.3, seed=6, count=1)
    with pytest.raises(ValueError, match="actuated: 1 actuated rates for 2 degrees"):
        closed_chain_regressor(model, q[0], qd[0], qdd[0], actuated=[0])
