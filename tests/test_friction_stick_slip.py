"""Coulomb friction in ``eslabon.simulate`` (issue "Start in a blink, never fall over"):
Karnopp's stick–slip decided per step (``src/eslabon/sim/stick_slip.py``; D. Karnopp,
"Computer simulation of stick-slip friction in mechanical dynamic systems", ASME J. Dyn.
Sys., Meas., Control 107 (1985) 100–103).

* the block on a ramp against its closed form: it sticks where tan θ ≤ μ, slides down
  at g(sin θ − μ cos θ) otherwise, and launched up the ramp stops where v0²/(2a) puts
  it (a = g(sin θ + μ cos θ));
* a pendulum whose friction F_c exceeds its gravity torque m g l sin θ sticks exactly,
  under every integrator; with less it slides, its energy never growing;
* a joint spinning with no gravity decelerates at F_c / I and stops for good;
* a floating base with frictional joints released from rest (free fall): no joint moves
  (the plain sign(q̇) law made them chatter: the bug of the issue, the Talos' gripper),
  for a robot read from URDF with mimic joints and for the Talos itself;
* with mimic joints, the compiled loop and the Python loop agree to round-off;
* the energy check names the joint whose rate reverses on consecutive steps, and sees a
  finger's millijoules beside a falling base's kilojoules.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import eslabon as es
from checks import example_robot_data
from eslabon.sim import EnergyInjectionWarning, FrictionStepWarning
from eslabon.sim.friction_check import check_friction_energy
from eslabon.sim.stick_slip import coulomb_per_rate

METHODS = ("rk4", "euler", "dop853")
G = 9.81


def _ramp(theta, mu, mass=2.0):
    """A block of ``mass`` on a ramp at ``theta`` to the horizontal: a prismatic joint
    along the ramp (q up the slope), Coulomb friction μ N with N = m g cos θ."""
    b = es.model.ModelBuilder()
    axis = [np.cos(theta), 0.0, np.sin(theta)]
    friction = mu * mass * G * np.cos(theta)
    b.add_body(0, "prismatic", axis=axis, mass=mass, inertia=np.eye(3) * 0.01, coulomb=friction)
    return b.build(gravity=(0.0, 0.0, -G), name="ramp")


def _ramp_run(model, t_final, h, method, qd0=0.0):
    """(t, q, qd, qdd) of the block from q = 0.3: by ``simulate``, or by ``rollout``
    ("rollout-rk4", "rollout-euler")."""
    if method.startswith("rollout-"):
        runs = es.rollout(model, [[0.3]], [[qd0]], t_final, h, integrator=method[8:])
        return runs.t, runs.q[0, :, 0], runs.qd[0, :, 0], runs.qdd[0, :, 0]
    traj = es.simulate(model, [0.3], [qd0], t_final, h, integrator=method)
    return traj.t, traj.q[:, 0], traj.qd[:, 0], traj.qdd[:, 0]


RAMP_METHODS = METHODS + ("rollout-rk4", "rollout-euler")


@pytest.mark.parametrize("method", RAMP_METHODS)
def test_block_on_a_ramp_sticks_where_friction_holds_it(method):
    """tan 20° = 0.364 < μ = 0.5: released at rest it stays, to the bit, no warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        t, q, qd, qdd = _ramp_run(_ramp(np.radians(20), 0.5), 0.5, 1e-3, method)
    assert np.all(q == 0.3) and np.all(qd == 0.0) and np.all(qdd == 0.0)


@pytest.mark.parametrize("method", RAMP_METHODS)
def test_block_on_a_ramp_slides_at_the_closed_form_deceleration(method):
    """tan 30° = 0.577 > μ = 0.3: from rest it slides down at a = g(sin θ − μ cos θ)
    from the first sample on: q = q0 − a t²/2 (RK4 and DOP853 exact for a constant
    acceleration, to round-off; semi-implicit Euler its own exact sum,
    q_k = q0 − a h² k(k + 1)/2)."""
    theta, mu, h = np.radians(30), 0.3, 1e-3
    a = G * (np.sin(theta) - mu * np.cos(theta))
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        t, q, qd, qdd = _ramp_run(_ramp(theta, mu), 0.5, h, method)
    np.testing.assert_allclose(qdd, -a, rtol=1e-12)
    k = np.arange(len(t))
    exact = 0.3 - (a * h * h * k * (k + 1) / 2 if method.endswith("euler") else a * t * t / 2)
    np.testing.assert_allclose(q, exact, rtol=0, atol=1e-12)
    np.testing.assert_allclose(qd, -a * t, rtol=0, atol=1e-12)


@pytest.mark.parametrize("method", ("rk4", "dop853", "rollout-rk4"))
def test_block_launched_up_the_ramp_stops_where_the_closed_form_says(method):
    """tan 20° < μ = 0.5, launched up at v0 = 1 m/s: it decelerates at
    a = g(sin θ + μ cos θ), exactly until the step where it stops, then sticks for good
    at q0 + v0²/(2a). The stop is decided at a step's start (Karnopp's band), so its
    place is off by at most a h² (the last step's share)."""
    theta, mu, h, v0 = np.radians(20), 0.5, 1e-3, 1.0
    a = G * (np.sin(theta) + mu * np.cos(theta))
    t_stop = v0 / a
    t, q, qd, qdd = _ramp_run(_ramp(theta, mu), 0.5, h, method, qd0=v0)
    moving = t < t_stop - h
    np.testing.assert_allclose(q[moving], 0.3 + v0 * t[moving] - a * t[moving] ** 2 / 2, atol=1e-11)
    np.testing.assert_allclose(qdd[moving], -a, rtol=1e-12)
    after = t > t_stop + 2 * h
    assert np.all(qd[after] == 0.0) and np.ptp(q[after]) == 0.0
    assert abs(q[-1] - (0.3 + v0**2 / (2 * a))) <= a * h * h


def test_block_launched_up_a_steep_ramp_turns_and_slides_back():
    """tan 30° > μ = 0.3, launched up at 1 m/s: up at −g(sin θ + μ cos θ), then down at
    −g(sin θ − μ cos θ) (the closed form: q(t) = q_top − a_down (t − t_top)²/2). The turn
    falls inside a step whose mode was decided at its start, so the rate after it is off
    by at most (a_up − a_down) t₁ with t₁ ≤ h μ g cos θ / a_up the part of the step still
    going up (first order in h, as Karnopp's scheme is at a transition); measured here
    and bounded."""
    theta, mu, h, v0 = np.radians(30), 0.3, 1e-3, 1.0
    up, down = G * (np.sin(theta) + mu * np.cos(theta)), G * (np.sin(theta) - mu * np.cos(theta))
    t_top = v0 / up
    top = 0.3 + v0**2 / (2 * up)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        t, q, qd, qdd = _ramp_run(_ramp(theta, mu), 0.5, h, "rk4", qd0=v0)
    later = t > t_top + 2 * h
    np.testing.assert_allclose(qdd[later], -down, rtol=1e-12)
    dv = (up - down) * h * mu * G * np.cos(theta) / up
    exact = top - down * (t[later] - t_top) ** 2 / 2
    assert np.abs(qd[later] + down * (t[later] - t_top)).max() <= dv
    assert np.abs(q[later] - exact).max() <= dv * (t[-1] - t_top) + up * h * h


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
        traj = es.simulate(model, [0.5], None, 1.0, 1e-3, integrator=method)
    assert np.all(traj.q == 0.5) and np.all(traj.qd == 0.0) and np.all(traj.qdd == 0.0)


@pytest.mark.parametrize("method", METHODS)
def test_pendulum_slides_where_friction_cannot_hold_it(method):
    """F_c = half the gravity torque: it falls, friction dissipating all the way (the
    energy never grows), slower than the frictionless pendulum."""
    hold = float(es.gravity_torques(_pendulum(0.0), [0.5])[0])
    model = _pendulum(0.5 * hold)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        traj = es.simulate(model, [0.5], None, 0.3, 1e-3, integrator=method)
    free = es.simulate(_pendulum(0.0), [0.5], None, 0.3, 1e-3, integrator=method)
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
    traj = es.simulate(model, [0.0], [2.0], span, 1e-3, integrator=method)
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
        traj = es.simulate(model, q0, None, 1.0, 1e-3, integrator=method)
    assert np.all(traj.q[:, 7:] == q0[7:])
    assert np.all(traj.qd[:, 6:] == 0.0)


FALLER_URDF = """<robot name="faller">
  <link name="torso"><inertial><origin xyz="0.02 -0.01 0.1"/><mass value="8"/>
    <inertia ixx="0.3" ixy="0.01" ixz="0" iyy="0.25" iyz="0" izz="0.2"/></inertial></link>
  <joint name="shoulder" type="revolute"><parent link="torso"/><child link="upper"/>
    <origin xyz="0.1 0.2 0.3" rpy="0.3 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="50" velocity="5"/>
    <dynamics damping="0.2" friction="1.0"/></joint>
  <link name="upper"><inertial><origin xyz="0.15 0 0"/><mass value="1.5"/>
    <inertia ixx="0.002" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <joint name="elbow" type="revolute"><parent link="upper"/><child link="fore"/>
    <origin xyz="0.3 0 0"/><axis xyz="0 0.6 0.8"/>
    <limit lower="-3" upper="3" effort="50" velocity="5"/>
    <dynamics damping="0.1" friction="0.5"/></joint>
  <link name="fore"><inertial><origin xyz="0.1 0.02 0"/><mass value="1"/>
    <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.005" iyz="0" izz="0.005"/></inertial></link>
  <joint name="gripper" type="prismatic"><parent link="fore"/><child link="finger_l"/>
    <origin xyz="0.2 0.01 0"/><axis xyz="0 1 0"/>
    <limit lower="0" upper="0.04" effort="10" velocity="0.1"/>
    <dynamics damping="0" friction="1.0"/></joint>
  <link name="finger_l"><inertial><mass value="0.1"/>
    <inertia ixx="1e-5" ixy="0" ixz="0" iyy="1e-5" iyz="0" izz="1e-5"/></inertial></link>
  <joint name="gripper_mimic" type="prismatic"><parent link="fore"/><child link="finger_r"/>
    <origin xyz="0.2 -0.01 0"/><axis xyz="0 1 0"/><mimic joint="gripper" multiplier="-1"/>
    <limit lower="-0.04" upper="0" effort="10" velocity="0.1"/>
    <dynamics damping="0" friction="1.0"/></joint>
  <link name="finger_r"><inertial><mass value="0.1"/>
    <inertia ixx="1e-5" ixy="0" ixz="0" iyy="1e-5" iyz="0" izz="1e-5"/></inertial></link>
</robot>"""


@pytest.mark.parametrize("method", ("rk4", "dop853"))
def test_a_free_falling_urdf_robot_keeps_its_joints_still(method):
    """A robot read from URDF (``friction`` on every joint, a mimic finger) on a free
    flyer, released at rest in a bent pose: in free fall nothing loads its joints, and
    they do not move by one bit (the plain sign(q̇) law made them chatter); spinning
    slowly, the centrifugal loads stay within the friction and they hold too. The base
    falls as a free body: z = −g t²/2. No warning."""
    model = es.model.from_urdf(FALLER_URDF, root_joint="free_flyer")
    assert model.has_mimic and np.all(model.coulomb[2:] > 0)
    q0 = es.neutral(model)
    q0[7:] = [0.7, -1.1, 0.02]
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        traj = es.simulate(model, q0, None, 0.5, 1e-3, integrator=method)
        assert np.all(traj.q[:, 7:] == q0[7:]) and np.all(traj.qd[:, 6:] == 0.0)
        np.testing.assert_allclose(traj.q[:, 2], -G * traj.t**2 / 2, rtol=1e-9, atol=1e-12)
        qd0 = np.zeros(model.nv)
        qd0[3:6] = [0.05, -0.03, 0.08]  # the base's angular velocity [rad/s]
        spun = es.simulate(model, q0, qd0, 0.5, 1e-3, integrator=method)
    assert np.all(spun.q[:, 7:] == q0[7:]) and np.all(spun.qd[:, 6:] == 0.0)
    assert np.ptp(spun.q[:, 3:7], axis=0).max() > 1e-3  # the base turned


def _talos():
    path = example_robot_data("talos_data/robots/talos_reduced.urdf")
    return es.model.from_urdf(str(path), root_joint="free_flyer")


def test_the_talos_released_at_rest_keeps_its_joints_still():
    """The issue's case: the Talos (example-robot-data's ``talos_reduced.urdf``, URDF
    ``friction="1"`` on 20 joints, the gripper's fingers mimic joints) released from rest
    with no torque, RK4 at 1 ms: its frictional joints do not move by one bit, the
    others drift by round-off only; no warning. (The plain sign(q̇) law: the gripper at
    q̇ = −0.314 rad/s with q̈ = 1296 rad/s², 0.055 rad of drift in 3 s, no warning.)"""
    model = _talos()
    frictional = coulomb_per_rate(model) > 0
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        traj = es.simulate(model, None, None, 0.1, 1e-3)
    drift = np.abs(traj.q[:, 7:] - traj.q[0, 7:]).max(axis=0)
    assert np.all(drift[frictional[6:]] == 0.0) and drift.max() < 1e-12
    assert np.all(traj.qd[:, frictional] == 0.0)


def test_the_compiled_loop_and_the_python_loop_agree_with_friction():
    """A fixed-base chain with friction from rest under gravity: the compiled RK4 loop and
    the Python loop (a callable torque) give the same trajectory, joints stuck and
    sliding alike."""
    model = es.zoo.random_chain(4, 2, "standard", friction=True)
    model = model.replace(coulomb=np.r_[0.0, np.full(model.nb, 2.0)])
    q0 = np.array([0.3, -0.5, 0.8, 0.2])
    fast = es.simulate(model, q0, None, 0.2, 1e-3)
    slow = es.simulate(model, q0, None, 0.2, 1e-3, torque=lambda t, q, qd: np.zeros(4))
    assert np.allclose(fast.q, slow.q, rtol=0, atol=1e-10)
    assert np.allclose(fast.qdd, slow.qdd, rtol=0, atol=1e-7)


@pytest.mark.parametrize("root_joint", [None, "free_flyer"])
def test_the_compiled_loop_and_the_python_loop_agree_with_mimic_joints(root_joint, monkeypatch):
    """The URDF robot with a mimic finger and friction on every joint, fixed or on a free
    flyer, from a bent pose under gravity and a torque on the shoulder: the compiled
    stick–slip loop (the coupled forward dynamics, M⁻¹ of the independent coordinates)
    and the Python loop (a callable torque, numpy's inverse of M) agree to round-off,
    joints stuck and sliding alike."""
    model = es.model.from_urdf(FALLER_URDF, root_joint=root_joint)
    assert model.has_mimic
    q0 = es.neutral(model)
    q0[-3:] = [0.7, -1.1, 0.02]
    tau = np.zeros(model.nv)
    tau[-3] = 1.5  # the shoulder: beyond its friction, so it slides while the rest sticks
    import importlib

    loops = importlib.import_module("eslabon.sim.simulate")
    name = "stick_slip_loop" if root_joint is None else "chart_stick_slip_loop"
    compiled, ran = getattr(loops, name), []
    monkeypatch.setattr(loops, name, lambda *a: (ran.append(a[-1]), compiled(*a))[1])
    fast = es.simulate(model, q0, None, 0.2, 1e-3, torque=tau)
    assert ran and ran[0] is not None  # the compiled loop ran, with the mimic map
    slow = es.simulate(model, q0, None, 0.2, 1e-3, torque=lambda t, q, qd: tau)
    joints = fast.qd[:, -3:]
    assert (joints == 0.0).any() and (joints != 0.0).any()
    assert np.allclose(fast.q, slow.q, rtol=0, atol=1e-10)
    assert np.allclose(fast.qd, slow.qd, rtol=0, atol=1e-8)
    assert np.array_equal(fast.qd[:, -3:] == 0.0, slow.qd[:, -3:] == 0.0)


def test_a_joint_whose_rate_reverses_every_step_is_named():
    """A torque that flips every step beyond F_c: the friction cannot be resolved at that
    step; the warning names the joint's body."""
    model = _pendulum(1.0).replace(gravity=(0.0, 0.0, 0.0))
    table = 5.0 * (-1.0) ** np.arange(101)[:, None]
    with pytest.warns(FrictionStepWarning, match=r"cannot resolve the Coulomb friction of "):
        es.simulate(model, [0.0], [-2.5e-3], 0.1, 1e-3, torque=table)


def test_energy_check_sees_a_finger_beside_a_falling_base():
    """The tolerance leaves out the free flyer's rates: a joint gaining energy while the
    base falls (joules traded between potential and kinetic energy) is reported."""
    model = es.zoo.random_tree(1, "BRRR", friction=True)
    model = model.replace(coulomb=np.array([0.0, 0.0, 0.5, 0.3, 0.4]), viscous=np.zeros(5))
    traj = es.simulate(model, None, None, 1.0, 1e-3)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        check_friction_energy(model, traj, True)
    qd = traj.qd.copy()
    push = 0.3 * np.sign((es.mass_matrix(model, traj.q[500]) @ traj.qd[500])[7] or 1.0)
    qd[500:, 7] += push  # the joint's rate and the kinetic energy both grow
    q = traj.q.copy()
    q[500:, 8] += push * (traj.t[500:] - traj.t[500])
    forged = es.Trajectory(t=traj.t, q=q, qd=qd, qdd=traj.qdd, tau=traj.tau)
    with pytest.warns(EnergyInjectionWarning, match=r"^simulate: Coulomb friction injected"):
        check_friction_energy(model, forged, True)
