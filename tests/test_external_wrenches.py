"""External wrenches through forward dynamics (every method, batches) and simulation:
the generalized force J_fᵀ w of a wrench w the environment applies at a frame (virtual
work), the external force of step ➊ of Jaramillo Botero (1998)'s Macro Algoritmo, eq.
(1.78), and the opposite of the tip wrench of Newton–Euler (seed 001 eq. 3.34)."""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from eslabon import ExternalWrench

W = np.array([0.3, -0.2, 0.1, 5.0, -3.0, 8.0])  # [moment; force]


def _state(model, seed=0):
    rng = np.random.default_rng(seed)
    return es.random_configuration(model, rng), *rng.uniform(-1, 1, (2, model.nv))


@pytest.mark.parametrize(
    "method", ["aba", "walker_orin_3", "walker_orin_1", "lagrange", "soa", "gibbs_appell"]
)
def test_inverse_and_forward_dynamics_round_trip_with_a_wrench(method):
    """ID and FD take the same wrenches (what the world applies): ID with the world
    pushing on the tip, then FD under the same push, give the motion back."""
    model = es.zoo.load("panda").replace(armature=0.0)  # (the constraint-force method)
    q, qd, qdd = _state(model)
    tau = es.inverse_dynamics(model, q, qd, qdd, wrenches=[ExternalWrench("ee", -W, "local")])
    back = es.forward_dynamics(
        model, q, qd, tau, algorithm=method, wrenches=[ExternalWrench("ee", -W, "local")]
    )
    np.testing.assert_allclose(back, qdd, atol=1e-10)
    R = es.end_effector_pose(model, q)[:3, :3]
    world = ExternalWrench("ee", -np.concatenate([R @ W[:3], R @ W[3:]]))
    back = es.forward_dynamics(model, q, qd, tau, algorithm=method, wrenches=[world])
    np.testing.assert_allclose(back, qdd, atol=1e-10)


def test_the_generalized_force_is_the_newton_euler_pass_of_the_wrench():
    """Jᵀw (the Jacobian) equals NE(q, 0, 0) with the tip wrench minus NE(q, 0, 0): the
    kernel's inward pass of (3.31)–(3.33), an independent computation."""
    from eslabon.dynamics.wrenches import external_wrenches, wrench_torques

    model = es.zoo.load("puma560")
    q, _, _ = _state(model, 1)
    J_w = wrench_torques(model, q, external_wrenches(model, [("ee", W, "local")]))
    z = np.zeros(model.nv)
    # the Newton–Euler kernels take the wrench in their inward pass (rnea_trace)
    pushed = es.rnea_trace(model, q, z, z, wrenches=[ExternalWrench("ee", -W, "local")])
    ne = pushed.tau - es.gravity_torques(model, q)
    np.testing.assert_allclose(J_w, ne, atol=1e-12)


def test_batches_take_wrenches_and_equal_single_states():
    model = es.zoo.load("space_manipulator")
    rng = np.random.default_rng(2)
    Q = np.stack([es.random_configuration(model, rng) for _ in range(5)])
    V, T = rng.uniform(-1, 1, (2, 5, model.nv))
    wrenches = [ExternalWrench("ee", W), ExternalWrench("satellite", -W, "local")]
    batch = es.forward_dynamics(model, Q, V, T, wrenches=wrenches)
    for s in range(5):
        one = es.forward_dynamics(model, Q[s], V[s], T[s], wrenches=wrenches)
        np.testing.assert_allclose(batch[s], one, atol=1e-12)


def test_pinocchio_aba_with_fext_agrees():
    pin = pytest.importorskip("pinocchio")
    from eslabon.interop.pinocchio import to_pinocchio

    model = es.zoo.load("panda")
    pm = to_pinocchio(model)
    pd = pm.createData()
    q, qd, tau = _state(model, 3)
    T_ee = es.end_effector_pose(model, q)
    b = model.frame("ee").body
    T_b = es.forward_kinematics(model, q)[b]
    R, p = T_b[:3, :3], T_b[:3, 3]
    n_w, f_w = W[:3], W[3:]  # world axes, moment about the ee origin
    n_b = R.T @ (n_w + np.cross(T_ee[:3, 3] - p, f_w))  # about the body origin, body axes
    fext = [pin.Force.Zero() for _ in range(pm.njoints)]
    fext[b] = pin.Force(R.T @ f_w, n_b)  # body b is Pinocchio's joint b (a serial arm)
    ref = pin.aba(pm, pd, q, qd, tau, fext)
    ours = es.forward_dynamics(model, q, qd, tau, wrenches=[ExternalWrench("ee", W)])
    np.testing.assert_allclose(ours, ref, atol=1e-9 * max(1.0, np.abs(ref).max()))


def test_a_free_flyer_gains_the_momentum_its_wrench_gives():
    """A free-flying system in zero gravity, arm driven: its linear momentum grows by the
    applied force's impulse, ∫F dt, a constant force and a time-varying one."""
    model = es.zoo.load("space_manipulator")
    F = np.array([0.0, 0.0, 0.0, 20.0, -10.0, 5.0])
    arm = np.r_[np.zeros(6), np.full(model.nv - 6, 0.1)]  # the base's rates: no force

    def ramp(t, q, qd):
        return F * t

    for value, impulse in ((F, F[3:] * 0.2), (ramp, F[3:] * 0.2**2 / 2)):
        run = es.simulate(
            model, None, None, 0.2, 0.002, torque=arm, wrenches=[ExternalWrench("satellite", value)]
        )
        h = es.momentum(model, run.q, run.qd)
        np.testing.assert_allclose(h[-1, 3:] - h[0, 3:], impulse, rtol=1e-8, atol=1e-9)
        assert run.tau.shape == (len(run.t), model.nv)  # the joint torques alone


@pytest.mark.parametrize(
    "wrenches, message",
    [
        ([("hand", W)], "^frame: unknown frame 'hand'"),
        ([("ee", W, "body")], r"^wrenches\[0\]\.axes: expected one of \('world', 'local'\)"),
        ([("ee", W[:3])], r"^wrenches\[0\]\.value: expected 6 finite numbers"),
        ([("ee", [np.nan] * 6)], r"^wrenches\[0\]\.value: expected 6 finite numbers"),
        ([("ee", lambda t, q, qd: W)], r"^wrenches\[0\]\.value: a callable needs the time"),
        (5.0, "^wrenches: expected a list of ExternalWrench"),
        ([42], r"^wrenches\[0\]: expected an ExternalWrench or \(frame, value\[, axes\]\)"),
    ],
)
def test_bad_wrenches_are_named(wrenches, message):
    model = es.zoo.load("puma560")
    z = np.zeros(6)
    with pytest.raises(ValueError, match=message):
        es.forward_dynamics(model, z, z, z, wrenches=wrenches)


def _fd_jacobians(model, q, qd, tau, wrenches, h=1e-6, t=None):
    """∂q̈/∂x (tangent space) and ∂q̈/∂τ of forward dynamics with the wrenches, by central
    differences; a callable wrench is evaluated at time t through simulate's path."""

    def qdd(qq, vv, tt):
        if t is None:
            return es.forward_dynamics(model, qq, vv, tt, wrenches=wrenches)
        from eslabon.dynamics.wrenches import external_wrenches, wrench_torques

        extra = wrench_torques(model, qq, external_wrenches(model, wrenches), t, vv)
        return es.forward_dynamics(model, qq, vv, np.asarray(tt) + extra)

    n = model.nv
    A, B = np.zeros((n, 2 * n)), np.zeros((n, n))
    for j in range(n):
        e = np.zeros(n)
        e[j] = h
        A[:, j] = (
            qdd(es.integrate(model, q, e), qd, tau) - qdd(es.integrate(model, q, -e), qd, tau)
        ) / (2 * h)
        A[:, n + j] = (qdd(q, qd + e, tau) - qdd(q, qd - e, tau)) / (2 * h)
        B[:, j] = (qdd(q, qd, tau + e) - qdd(q, qd, tau - e)) / (2 * h)
    return A, B


@pytest.mark.parametrize("name", ["panda", "space_manipulator"])
def test_linearization_with_wrenches_against_central_differences(name):
    """Issue "the seeds, second pass": linearization takes wrenches (Práctica 3 eq. 3.34's
    Kᵀk, Jaramillo (1998) eq. 1.78's F_ext). A world-fixed push and a body-fixed thrust:
    the nominal torque τ̄ = ID − Σ J_fᵀ w reproduces q̈ through FD with the wrenches, and
    A, B equal central differences of that FD to 1e-6 relative."""
    model = es.zoo.load(name)
    q, qd, qdd = _state(model, 3)
    wrenches = [ExternalWrench("ee", W), ExternalWrench(model.body_names[2], 0.5 * W, "local")]
    lin = es.control.linearize(model, q, qd, qdd, wrenches=wrenches)
    from eslabon.dynamics.wrenches import external_wrenches, wrench_torques

    tau = es.inverse_dynamics(model, q, qd, qdd) - wrench_torques(
        model, q, external_wrenches(model, wrenches)
    )
    np.testing.assert_allclose(es.forward_dynamics(model, q, qd, tau, wrenches=wrenches), qdd)
    A, B = _fd_jacobians(model, q, qd, tau, wrenches)
    n = model.nv
    scale = np.abs(A).max()
    np.testing.assert_allclose(lin.A[n:], A, atol=1e-6 * scale)
    np.testing.assert_allclose(lin.B[n:], B, atol=1e-6 * np.abs(B).max())
    free = es.control.linearize(model, q, qd, qdd)
    assert np.abs(lin.W - free.W).max() > 1e-3  # the wrench's change with q is there
    np.testing.assert_array_equal(lin.A[:n], free.A[:n])  # the kinematic rows stay


def test_linearization_with_a_state_dependent_wrench():
    """A damper at the tip, w = −c·v_tip (a callable of the state): ∂τ_w/∂q̇ = −c JᵀJ
    enters V; linearize_along evaluates it at every sample's time."""
    model = es.zoo.load("planar2")
    c = 3.0

    def damper(t, q, qd):
        J = es.jacobian(model, q, "ee")
        return np.concatenate([np.zeros(3), -c * (J[3:] @ qd)])

    wrenches = [ExternalWrench("ee", damper)]
    q, qd, qdd = [0.3, 0.4], [0.5, -0.2], [0.1, 0.2]
    lin = es.control.linearize(model, q, qd, qdd, wrenches=wrenches, t=0.0)
    free = es.control.linearize(model, q, qd, qdd)
    J = es.jacobian(model, q, "ee")[3:]
    np.testing.assert_allclose(lin.V - free.V, c * J.T @ J, atol=1e-7)
    from eslabon.dynamics.wrenches import external_wrenches, wrench_torques

    tau = es.inverse_dynamics(model, q, qd, qdd) - wrench_torques(
        model, np.asarray(q), external_wrenches(model, wrenches), 0.0, np.asarray(qd)
    )
    A, B = _fd_jacobians(model, np.asarray(q), np.asarray(qd), tau, wrenches, t=0.0)
    np.testing.assert_allclose(lin.A[2:], A, atol=1e-6 * np.abs(A).max())
    traj = es.joint_trajectory([0.0, 0.0], [1.0, -0.5], np.linspace(0.0, 1.0, 5))
    along = es.control.linearize_along(model, traj, wrenches=wrenches)
    one = es.control.linearize(model, traj.q[2], traj.qd[2], traj.qdd[2], wrenches=wrenches, t=0.5)
    np.testing.assert_allclose(along.A[2], one.A, rtol=1e-12)
    assert along.t.shape == (5,)
    with pytest.raises(ValueError, match="t: a callable wrench needs the time"):
        es.control.linearize(model, q, qd, qdd, wrenches=wrenches)
    with pytest.raises(ValueError, match="wrenches: a callable wrench is evaluated at one state"):
        es.control.linearize(model, traj.q, traj.qd, traj.qdd, wrenches=wrenches, t=0.0)
