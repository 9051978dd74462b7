"""Computed torque for parallel robots (eslabon.control.parallel_computed_torque_law):
with an exact model the independent coordinates' error obeys ë + K_d ė + K_p e = 0,
whose critically damped solution e(t) = e₀ (1 + ω t) e^{−ω t} (K_p = ω², K_d = 2ω) the
simulated closed loop follows, on the five-bar (the actuated joints prescribed) and on
Clavel's Delta (the platform prescribed, the arms actuated)."""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from eslabon import constraints as ec

OMEGA = 8.0


def _hold(values, t_final=1.0):
    """A nominal that holds the independent coordinates at ``values``."""
    values = np.asarray(values, dtype=float)
    T = np.array([0.0, t_final])
    zero = np.zeros((2, len(values)))
    return es.control.Nominal(T, np.vstack([values, values]), zero, zero)


@pytest.mark.parametrize(
    ("name", "independent", "actuated", "offset"),
    [
        ("five_bar", [0, 1], [0, 1], [0.03, -0.02]),
        ("delta", [3, 4, 5], [0, 1, 2], [0.01, -0.005, 0.008]),
    ],
)
def test_the_error_decays_as_the_critically_damped_closed_form(name, independent, actuated, offset):
    robot = es.zoo.load(name)
    home = es.neutral(robot)
    goal = home[independent]
    law = es.control.parallel_computed_torque_law(
        robot, _hold(goal), OMEGA**2, 2 * OMEGA, independent=independent, actuated=actuated
    )
    start = ec.close_state(robot, home, independent, goal + offset).q
    run = es.simulate(robot, start, None, 1.0, 0.01, torque=law, integrator="dop853",
                      rtol=1e-11, atol=1e-12)  # fmt: skip
    t = run.t[:, None]
    expected = np.asarray(offset) * (1 + OMEGA * t) * np.exp(-OMEGA * t)
    error = run.q[:, independent] - goal
    assert np.abs(error - expected).max() < 1e-7
    others = np.setdiff1d(np.arange(robot.nv), actuated)  # only the actuators push
    assert np.all(run.tau[:, others] == 0.0)


def test_the_five_bar_follows_a_moving_reference():
    robot = es.zoo.load("five_bar")
    nominal = es.control.Nominal(
        *es.joint_trajectory([0.0, 0.0], [0.3, -0.2], np.linspace(0.0, 1.0, 11))
    )
    law = es.control.parallel_computed_torque_law(
        robot, nominal, 400.0, 40.0, independent=[0, 1], actuated=[0, 1]
    )
    start = ec.close_state(robot, es.neutral(robot), [0, 1], [0.0, 0.0]).q
    run = es.simulate(robot, start, None, 1.0, 0.01, torque=law, integrator="dop853",
                      rtol=1e-11, atol=1e-12)  # fmt: skip
    wanted = np.array([nominal(tk)[0] for tk in run.t])
    assert np.abs(run.q[:, :2] - wanted).max() < 1e-7


def test_a_nominal_of_the_wrong_width_is_refused():
    robot = es.zoo.load("five_bar")
    with pytest.raises(ValueError, match="nominal: expected the motion of the 2 independent"):
        es.control.parallel_computed_torque_law(robot, _hold([0.0, 0.0, 0.0]), 1.0, 1.0,
                                                independent=[0, 1])  # fmt: skip
