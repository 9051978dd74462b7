"""Task-space quantities of a frame (issue 45): velocity, classical and bias acceleration,
the Jacobian's time derivative J̇, and the operational-space record (Λ, μ, p, J̄, N).

Identities between the functions (J̇ against central differences of J along q̇; J̇ q̇ the
classical acceleration at q̈ = 0; Λ⁻¹ = J M⁻¹ Jᵀ, J J̄ = 1, N J̄ = 0 and Khatib's task
equation through the forward dynamics), Pinocchio (``getFrameJacobianTimeVariation``,
``getFrameClassicalAcceleration``) and MuJoCo (``mj_jacDot``) on example-robot-data's
robots, and batches against single states.
"""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from checks import check, example_robot_data
from eslabon.kinematics import (
    bias_acceleration,
    frame_acceleration,
    frame_velocity,
    jacobian_time_derivative,
)
from task_space_cases import SWAP, Twin, along, last_frame, models, state

MODELS = models()
IDS = [name for name, _ in MODELS]


@pytest.mark.parametrize("reference", ["world", "local"])
@pytest.mark.parametrize("case", MODELS, ids=IDS)
def test_jacobian_derivative_is_the_rate_of_the_jacobian(case, reference):
    """J̇ = d/dt J(q ⊕ q̇ t) by central differences (step 1e-5: truncation ~1e-10 · |J'''|,
    round-off ~1e-11), on every joint type and a mimic joint."""
    _, model = case
    q, qd, _ = state(model)
    frame = last_frame(model)
    Jdot = jacobian_time_derivative(model, q, qd, frame, reference)
    numeric = along(model, q, qd, lambda x, _v: es.jacobian(model, x, frame, reference))
    check(Jdot, numeric, 1e-8, what=f"J̇ {reference}")


@pytest.mark.parametrize("case", MODELS, ids=IDS)
def test_bias_acceleration_is_jdot_qd_and_the_acceleration_at_rest(case):
    """The bias is J̇ q̇ with world axes, the classical acceleration at q̈ = 0 in both; the
    acceleration is J q̈ + J̇ q̇ (world), J_L q̈ + J̇_L q̇ + [0; ω × v] (the frame's axes); the
    velocity is J q̇; the local ones are the world ones turned."""
    _, model = case
    q, qd, qdd = state(model, 1)
    frame = last_frame(model)
    R = es.kinematics.frame_pose(model, q, frame)[:3, :3]
    for reference in ("world", "local"):
        J = es.jacobian(model, q, frame, reference)
        Jdot = jacobian_time_derivative(model, q, qd, frame, reference)
        bias = bias_acceleration(model, q, qd, frame, reference)
        check(bias, frame_acceleration(model, q, qd, np.zeros(model.nv), frame, reference), 1e-13)
        V = frame_velocity(model, q, qd, frame, reference)
        check(V, J @ qd, 1e-13, what="v = J q̇")
        a = frame_acceleration(model, q, qd, qdd, frame, reference)
        drift = Jdot @ qd
        if reference == "world":
            check(bias, drift, 1e-12, what="bias = J̇ q̇")
            world = (a, V)
        else:
            drift[3:] += np.cross(V[:3], V[3:])
            for local, w in zip((a, V), world, strict=True):
                check(local, np.concatenate([R.T @ w[:3], R.T @ w[3:]]), 1e-12)
        check(a, J @ qdd + drift, 1e-12, what=f"a = J q̈ + J̇ q̇ ({reference})")


def test_frame_acceleration_is_the_second_derivative_of_the_position():
    """The classical acceleration: the origin's position differentiated twice in time along
    q(t) = q ⊕ (q̇ t + q̈ t²/2), by central differences of the velocity."""
    model = es.zoo.load("quadruped")
    q, qd, qdd = state(model, 2)
    a = frame_acceleration(model, q, qd, qdd, "FL_FOOT")
    numeric = along(model, q, qd, lambda x, v: frame_velocity(model, x, v, "FL_FOOT"), qdd=qdd)
    check(a, numeric, 1e-8)


def test_batches_equal_single_states():
    model = es.zoo.load("humanoid")
    states = [state(model, s) for s in range(3)]
    Q, QD, QDD = (np.stack(x) for x in zip(*states, strict=True))
    frame = last_frame(model)
    for reference in ("world", "local"):
        batch = (
            jacobian_time_derivative(model, Q, QD, frame, reference),
            bias_acceleration(model, Q, QD, frame, reference),
            frame_velocity(model, Q, QD, frame, reference),
            frame_acceleration(model, Q, QD, QDD, frame, reference),
        )
        for k, (q, qd, qdd) in enumerate(states):
            one = (
                jacobian_time_derivative(model, q, qd, frame, reference),
                bias_acceleration(model, q, qd, frame, reference),
                frame_velocity(model, q, qd, frame, reference),
                frame_acceleration(model, q, qd, qdd, frame, reference),
            )
            for b, o in zip(batch, one, strict=True):
                np.testing.assert_allclose(b[k], o, rtol=0, atol=1e-13)
    osc = es.operational_space(model, Q, QD, frame)
    for k, (q, qd, _) in enumerate(states):
        one = es.operational_space(model, q, qd, frame)
        for name in ("J", "Jdot_qd", "Lambda", "mu", "p", "J_bar", "N"):
            check(getattr(osc, name)[k], getattr(one, name), 1e-12, what=name)
        assert osc.damped[k] == one.damped
        check(osc.condition[k], one.condition, 1e-9, scale=one.condition)


# --- Pinocchio and MuJoCo ---------------------------------------------------------------


@pytest.mark.parametrize("key", ["solo12", "talos", "panda"])
def test_frame_derivatives_equal_pinocchios(key):
    """``getFrameJacobianTimeVariation`` and ``getFrameClassicalAcceleration`` with
    LOCAL_WORLD_ALIGNED ("world") and LOCAL ("local"), rows swapped, to 1e-10."""
    twin = Twin(key)
    pin, pm, data, model = twin.pin, twin.pm, twin.data, twin.model
    for seed in range(3):
        (q, v, a), (qp, vp, ap) = twin.states(seed)
        pin.computeJointJacobiansTimeVariation(pm, data, qp, vp)
        pin.forwardKinematics(pm, data, qp, vp, ap)
        pin.updateFramePlacements(pm, data)
        fid = pm.getFrameId(twin.frame)
        for reference, axes in (("world", pin.LOCAL_WORLD_ALIGNED), ("local", pin.LOCAL)):
            dJ = pin.getFrameJacobianTimeVariation(pm, data, fid, axes)
            ours = jacobian_time_derivative(model, q, v, twin.frame, reference)
            check(ours[SWAP][:, twin.v_order], dJ, 1e-10, what=f"{key} J̇ {reference}")
            acc = pin.getFrameClassicalAcceleration(pm, data, fid, axes).vector
            ours = frame_acceleration(model, q, v, a, twin.frame, reference)
            check(ours[SWAP], acc, 1e-10, what=f"{key} classical acceleration {reference}")


@pytest.mark.parametrize("rel", ["solo_description/robots/solo12.urdf", "zoo:panda"])
def test_jacobian_derivative_equals_mujocos_jacdot(rel):
    """``mj_jacDot`` at a frame's origin on the robot MuJoCo reads from eslabon's URDF
    (fixed bases: MuJoCo's rates are then eslabon's, in its depth-first order)."""
    mujoco = pytest.importorskip("mujoco")
    from eslabon.bench.mujoco_twin import mujoco_ready, mujoco_twin, twin_state

    if rel.startswith("zoo:"):
        model, frame = es.zoo.load(rel[4:]), "ee"
    else:
        model, frame = es.model.from_urdf(str(example_robot_data(rel))), "HR_LOWER_LEG"
    model = mujoco_ready(model.replace(viscous=0.0, coulomb=0.0))
    mj = mujoco_twin(mujoco, model)
    data = mujoco.MjData(mj)
    fr = model.frame(frame)
    body = mujoco.mj_name2id(mj, mujoco.mjtObj.mjOBJ_BODY, model.body_names[fr.body])
    assert body > 0
    for seed in range(3):
        q, v, _ = _fixed_state(model, seed)
        data.qpos[:], data.qvel[:] = twin_state(model, q, v)
        mujoco.mj_forward(mj, data)
        point = es.kinematics.frame_pose(model, q, frame)[:3, 3]
        jacp, jacr = np.zeros((3, mj.nv)), np.zeros((3, mj.nv))
        mujoco.mj_jacDot(mj, data, jacp, jacr, point, body)
        _, v_order = twin_state(model, q, np.arange(model.nv, dtype=float))
        order = v_order.astype(int)
        ours = jacobian_time_derivative(model, q, v, frame)[:, order]
        check(ours, np.vstack([jacr, jacp]), 1e-10, what="mj_jacDot")


def _fixed_state(model, seed):
    rng = np.random.default_rng(seed)
    return rng.uniform(-1, 1, model.nq), rng.uniform(-1, 1, model.nv), None


# --- operational space ------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, rows", [("puma560", None), ("panda", None), ("panda", "linear"), ("humanoid", (0, 4))]
)
def test_operational_space_identities(name, rows):
    """Λ⁻¹ = J M⁻¹ Jᵀ, J J̄ = 1, N J̄ = 0, J N = 0 and N² = N, away from singularities
    (no damping applied)."""
    model = es.zoo.load(name)
    q, qd, _ = state(model, 3)
    frame = last_frame(model)
    task = es.operational_space(model, q, qd, frame, rows=rows)
    assert not task.damped and np.isfinite(task.condition)
    M = es.mass_matrix(model, q)
    m = len(task.rows)
    J = es.jacobian(model, q, frame)[list(task.rows)]
    check(task.J, J, 1e-13, what="J")
    Lambda_inv = J @ np.linalg.solve(M, J.T)
    tol = 1e-12 * task.condition  # an inverse loses log10(condition) digits
    check(np.linalg.inv(task.Lambda), Lambda_inv, tol, what="Λ⁻¹")
    check(task.Lambda @ Lambda_inv, np.eye(m), tol, what="Λ Λ⁻¹")
    check(task.J @ task.J_bar, np.eye(m), tol, what="J J̄")
    check(task.N @ task.J_bar, np.zeros((model.nv, m)), tol, what="N J̄")
    check(task.J @ task.N, np.zeros((m, model.nv)), tol, what="J N")
    check(task.N @ task.N, task.N, tol, what="N²")
    check(task.J_bar, np.linalg.solve(M, J.T) @ task.Lambda, 1e-12, what="J̄")
    names = task.tagged()
    assert names[f"W_Lambda_{frame}"] is task.Lambda and f"W_J_{frame}" in names


@pytest.mark.parametrize("name, reference", [("puma560", "world"), ("panda", "local")])
def test_the_task_equation_holds_through_the_forward_dynamics(name, reference):
    """Khatib's Λ ẍ + μ + p = F: joint torques τ = Jᵀ F (+ Nᵀ τ₀ on the redundant arm,
    which must not change ẍ) give, through forward dynamics, ẍ = J q̈ + J̇ q̇ with exactly
    that F. Friction is left out of μ, so the dynamics run without it."""
    model = es.zoo.load(name)
    plain = model.replace(viscous=0.0, coulomb=0.0)
    q, qd, _ = state(model, 4)
    task = es.operational_space(model, q, qd, "ee", reference)
    assert not task.damped
    F = np.random.default_rng(5).uniform(-20, 20, 6)
    tau0 = np.random.default_rng(6).uniform(-5, 5, model.nv)
    tau = task.J.T @ F + task.N.T @ tau0
    qdd = es.forward_dynamics(plain, q, qd, tau)
    xdd = task.J @ qdd + task.Jdot_qd
    scale = np.abs(F).max() * task.condition
    check(task.Lambda @ xdd + task.mu + task.p, F, 1e-12, scale=scale, what="Λ ẍ + μ + p")
    plain_task = es.operational_space(plain, q, qd, "ee", reference)
    check(plain_task.mu, task.mu, 1e-12, what="μ without friction")


def test_a_singular_jacobian_gets_a_damped_result_and_its_condition():
    """The planar arm moves in its plane only: a 6-row task is singular. The result is
    finite, reported damped with an infinite or huge condition number, the equilibrated Λ
    stays within 1/δ and nothing of it lies in the directions the arm cannot move;
    stretched out, the linear task is singular too."""
    arm = es.zoo.load("planar2")
    q, qd = np.array([0.3, 0.7]), np.array([0.2, -0.4])
    task = es.operational_space(arm, q, qd, "ee")
    assert task.damped and task.condition > 1e12
    for name in ("Lambda", "mu", "p", "J_bar", "N"):
        assert np.isfinite(getattr(task, name)).all(), name
    M = es.mass_matrix(arm, q)
    A = task.J @ np.linalg.solve(M, task.J.T)
    d = np.sqrt(np.where(np.diag(A) > 0, np.diag(A), 1.0))
    delta = 1e-4 * np.linalg.eigvalsh(A / d[:, None] / d[None, :]).max()
    scaled = task.Lambda * d[:, None] * d[None, :]  # the inverse of the equilibrated A
    assert np.linalg.eigvalsh(scaled).max() <= (1 + 1e-9) / delta
    out_of_plane = [0, 1, 5]  # ωx, ωy, vz: rows the arm cannot move
    assert np.abs(task.Lambda[out_of_plane]).max() <= 1e-12 * np.abs(task.Lambda).max()
    planar = es.operational_space(arm, q, qd, "ee", rows=(3, 4))  # the plane's x, y
    assert not planar.damped
    stretched = es.operational_space(arm, [0.3, 0.0], qd, "ee", rows=(3, 4))  # in its plane
    assert stretched.damped and stretched.condition > 1e12
    assert np.isfinite(stretched.Lambda).all() and np.isfinite(stretched.mu).all()
    bent = es.operational_space(arm, [0.3, 0.3], qd, "ee", rows=(3, 4))
    assert not bent.damped and bent.condition < 1e3


def test_damping_is_continuous_across_its_threshold():
    """Eigenvalue by eigenvalue, σ/δ² below δ meets 1/σ above it; exact above."""
    from eslabon.dynamics.operational_space import inverse_eigenvalues

    delta = 1e-4
    below, above = inverse_eigenvalues(np.array([delta * (1 - 1e-9), delta * (1 + 1e-9)]), delta)
    check(below, above, 1e-8, scale=1 / delta)
    check(inverse_eigenvalues(np.array([0.5, 2.0]), delta), [2.0, 0.5], 1e-15)
    assert inverse_eigenvalues(np.array([0.0]), delta)[0] == 0.0
    sigma = np.linspace(0, 3 * delta, 301)
    assert np.abs(np.diff(inverse_eigenvalues(sigma, delta))).max() < 0.02 / delta


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"rows": "planar"}, "rows"),
        ({"rows": (0, 6)}, "rows"),
        ({"rows": (1, 1)}, "rows"),
        ({"rows": ()}, "rows"),
        ({"damping": 0.0}, "damping"),
        ({"damping": 1.5}, "damping"),
        ({"damping": float("nan")}, "damping"),
        ({"reference": "base"}, "reference"),
        ({"frame": "nowhere"}, "frame"),
    ],
)
def test_bad_input_is_refused_by_name(kwargs, match):
    arm = es.zoo.load("puma560")
    args = {"frame": "ee", **kwargs}
    with pytest.raises(ValueError, match=match):
        es.operational_space(arm, np.zeros(6), np.zeros(6), **args)


def test_bad_states_and_references_are_refused():
    arm = es.zoo.load("puma560")
    with pytest.raises(ValueError, match="qd"):
        jacobian_time_derivative(arm, np.zeros(6), np.zeros(5))
    with pytest.raises(ValueError, match="reference"):
        frame_velocity(arm, np.zeros(6), np.zeros(6), "ee", "pinocchio")
    with pytest.raises(ValueError, match="frame"):
        bias_acceleration(arm, np.zeros(6), np.zeros(6), "nowhere")


@pytest.mark.parametrize("name", ["quadruped", "panda"])
def test_columns_from_the_subspaces_equal_those_of_the_leaves_jacobians(name):
    """The two ways to the world-origin columns agree: each joint's constant subspace
    turned by its body's pose, and the compiled Jacobians of the leaves moved to O."""
    from eslabon.kinematics.spatial_columns import spatial_columns

    model = es.zoo.load(name)
    q, _, _ = state(model, 6)
    check(spatial_columns(model, q), spatial_columns(model, q, from_leaves=True), 1e-14)


@pytest.mark.parametrize("key", ["panda", "solo12"])
def test_operational_space_equals_pinocchios_pieces(key):
    """Λ, μ, p, J̄ and N assembled from Pinocchio's ``crba``, ``nonLinearEffects``,
    ``computeGeneralizedGravity``, ``getFrameJacobian`` and
    ``getFrameJacobianTimeVariation`` (LOCAL_WORLD_ALIGNED), linear rows, to 1e-10 times
    the condition number."""
    twin = Twin(key)
    pin, pm, data, model = twin.pin, twin.pm, twin.data, twin.model
    order = twin.v_order
    (q, v, _), (qp, vp, _) = twin.states(1)
    task = es.operational_space(model, q, v, twin.frame, rows="linear")
    M = pin.crba(pm, data, qp)
    M = np.triu(M) + np.triu(M, 1).T
    pin.computeJointJacobiansTimeVariation(pm, data, qp, vp)
    pin.updateFramePlacements(pm, data)
    fid = pm.getFrameId(twin.frame)
    J = pin.getFrameJacobian(pm, data, fid, pin.LOCAL_WORLD_ALIGNED)[:3]
    dJ = pin.getFrameJacobianTimeVariation(pm, data, fid, pin.LOCAL_WORLD_ALIGNED)[:3]
    g = pin.computeGeneralizedGravity(pm, data, qp)
    coriolis = pin.nonLinearEffects(pm, data, qp, vp) - g
    Minv_JT = np.linalg.solve(M, J.T)
    Lambda = np.linalg.inv(J @ Minv_JT)
    J_bar = Minv_JT @ Lambda
    tol = 1e-10 * task.condition
    assert not task.damped
    check(task.Lambda, Lambda, tol, what="Λ")
    check(task.J_bar[order], J_bar, tol, what="J̄")
    check(task.mu, J_bar.T @ coriolis - Lambda @ dJ @ vp, tol, what="μ")
    check(task.p, J_bar.T @ g, tol, what="p")
    check(task.N[np.ix_(order, order)], np.eye(model.nv) - J_bar @ J, tol, what="N")


def test_a_singular_mass_matrix_is_refused_by_name():
    """A last link with no mass and no inertia makes M singular: named, not a LinAlgError."""
    arm = es.zoo.load("puma560")
    mass, inertia = arm.mass.copy(), arm.inertia.copy()
    mass[-1], inertia[-1] = 0.0, 0.0
    massless = arm.replace(mass=mass, inertia=inertia, armature=np.zeros(arm.nv))
    with pytest.raises(ValueError, match="inertia matrix is singular"):
        es.operational_space(massless, np.zeros(6), np.zeros(6), "ee")
