"""Coulomb friction in ``eslabon.simulate`` (issue "Start in a blink, never fall over"):
Karnopp's stick–slip decided per step (``src/eslabon/sim/stick_slip.py``).

* a pendulum whose friction F_c exceeds its gravity torque m g l sin θ sticks exactly,
  under every integrator; with less it slides, its energy never growing;
* a joint spinning with no gravity decelerates at F_c / I and stops for good;
* a floating base with frictional joints released from rest (free fall): no joint moves
  (the plain sign(q̇) law made them chatter: the bug of the issue, the Talos' gripper);
* the energy check names the joint whose rate reverses on consecutive steps, and sees a
  finger's millijoules beside a falling base's kilojoules.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import eslabon as es
from eslabon.sim import EnergyInjectionWarning, FrictionStepWarning
from eslabon.sim.simulate import _check_friction_energy

METHODS = ("rk4", "euler", "dop853")


def _pendulum(coulomb):
    p = es.zoo.load("jaramillo_pendulum")
    return p.replace(coulomb=np.array([0.0, coulomb]), viscous=np.zeros(2))


def _energy(model, traj):
    return es.kinetic_energy(model, traj.q, traj.qd) + es.potential_energy(model, traj.q)


@pytest.mark.parametrize("method", METHODS)
def test_pendulum_sticks_where_friction_holds_it(method):
    """m g l sin(0.5) = 4.30 N·m; F_c = 5 holds the pendulum where it starts, exactly."""
    hold = float(es.gravity_torques(_pendulum(0.0), [0.5])[0])
    model = _pendulum(1.2 * hold)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        traj = es.simulate(model, 1.0, 1e-3, q0=[0.5], method=method)
    assert np.all(traj.q == 0.5) and np.all(traj.qd == 0.0) and np.all(traj.qdd == 0.0)


@pytest.mark.parametrize("method", METHODS)
def test_pendulum_slides_where_friction_cannot_hold_it(method):
    """F_c = half the gravity torque: it falls, friction dissipating all the way (the
    energy never grows), slower than the frictionless pendulum."""
    hold = float(es.gravity_torques(_pendulum(0.0), [0.5])[0])
    model = _pendulum(0.5 * hold)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        traj = es.simulate(model, 0.3, 1e-3, q0=[0.5], method=method)
    free = es.simulate(_pendulum(0.0), 0.3, 1e-3, q0=[0.5], method=method)
    assert traj.q[-1, 0] < 0.5 - 0.05  # it moved
    assert free.q[-1, 0] < traj.q[-1, 0]  # less than without friction
    E = _energy(model, traj)
    assert np.all(np.diff(E) <= 1e-12 * np.abs(E).max())
    # the acceleration is gravity's less F_c / I from the first sample on
    inertia = float(es.mass_matrix(model, [0.5])[0, 0])
    assert traj.qdd[0, 0] == pytest.approx(-(hold - 0.5 * hold) / inertia, rel=1e-9)


@pytest.mark.parametrize("method", METHODS)
def test_spinning_joint_stops_at_coulomb_deceleration_and_stays(method):
    """No gravity, q̇0 = 2 rad/s, F_c = 1 N·m: q̈ = −F_c / I until it stops at
    t = 2 I / F_c, then q̇ = 0 exactly to the end; the energy only falls."""
    model = _pendulum(1.0).replace(gravity=(0.0, 0.0, 0.0))
    inertia = float(es.mass_matrix(model, [0.0])[0, 0])
    stop = 2.0 * inertia / 1.0
    span = int(np.ceil(2 * stop / 1e-3)) * 1e-3
    traj = es.simulate(model, span, 1e-3, q0=[0.0], qd0=[2.0], method=method)
    moving = traj.t < stop - 2e-3
    assert np.allclose(traj.qdd[moving, 0], -1.0 / inertia, rtol=1e-9)
    after = traj.t > stop + 2e-3
    assert np.all(traj.qd[after, 0] == 0.0) and np.ptp(traj.q[after, 0]) == 0.0
    assert traj.q[-1, 0] == pytest.approx(2.0 * stop / 2, rel=2e-3)  # v0² / (2 F/I)
    assert np.all(np.diff(_energy(model, traj)) <= 1e-12)


@pytest.mark.parametrize("method", ("rk4", "dop853"))
def test_floating_base_with_friction_released_at_rest_keeps_its_joints(method):
    """A free-flying base with three frictional joints in free fall from rest: no joint
    moves (drift 0; the plain law's chatter moved them), no warning."""
    model = es.zoo.random_tree(1, "BRRR", friction=True)
    model = model.replace(coulomb=np.array([0.0, 0.0, 0.5, 0.3, 0.4]))
    q0 = es.neutral(model)
    q0[7:] = [0.4, -0.3, 0.2]
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        traj = es.simulate(model, 1.0, 1e-3, q0=q0, method=method)
    assert np.all(traj.q[:, 7:] == q0[7:])
    assert np.all(traj.qd[:, 6:] == 0.0)


def test_the_compiled_loop_and_the_python_loop_agree_with_friction():
    """A fixed-base chain with friction from rest under gravity: the compiled RK4 loop and
    the Python loop (a callable torque) give the same trajectory, joints stuck and
    sliding alike."""
    model = es.zoo.random_chain(4, 2, "standard", friction=True)
    model = model.replace(coulomb=np.r_[0.0, np.full(model.nb, 2.0)])
    q0 = np.array([0.3, -0.5, 0.8, 0.2])
    fast = es.simulate(model, 0.2, 1e-3, q0=q0)
    slow = es.simulate(model, 0.2, 1e-3, q0=q0, torque=lambda t, q, qd: np.zeros(4))
    assert np.allclose(fast.q, slow.q, rtol=0, atol=1e-10)
    assert np.allclose(fast.qdd, slow.qdd, rtol=0, atol=1e-7)


def test_a_joint_whose_rate_reverses_every_step_is_named():
    """A torque that flips every step beyond F_c: the friction cannot be resolved at that
    step; the warning names the joint's body."""
    model = _pendulum(1.0).replace(gravity=(0.0, 0.0, 0.0))
    table = 5.0 * (-1.0) ** np.arange(101)[:, None]
    with pytest.warns(FrictionStepWarning, match=r"cannot resolve the Coulomb friction of "):
        es.simulate(model, 0.1, 1e-3, q0=[0.0], qd0=[-2.5e-3], torque=table)


def test_energy_check_sees_a_finger_beside_a_falling_base():
    """The tolerance leaves out the free flyer's rates: a joint gaining energy while the
    base falls (joules traded between potential and kinetic energy) is reported."""
    model = es.zoo.random_tree(1, "BRRR", friction=True)
    model = model.replace(coulomb=np.array([0.0, 0.0, 0.5, 0.3, 0.4]), viscous=np.zeros(5))
    traj = es.simulate(model, 1.0, 1e-3)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        _check_friction_energy(model, traj, True)
    qd = traj.qd.copy()
    push = 0.3 * np.sign((es.mass_matrix(model, traj.q[500]) @ traj.qd[500])[7] or 1.0)
    qd[500:, 7] += push  # the joint's rate and the kinetic energy both grow
    q = traj.q.copy()
    q[500:, 8] += push * (traj.t[500:] - traj.t[500])
    forged = es.Trajectory(t=traj.t, q=q, qd=qd, qdd=traj.qdd, tau=traj.tau)
    with pytest.warns(EnergyInjectionWarning, match=r"^simulate: Coulomb friction injected"):
        _check_friction_energy(model, forged, True)
