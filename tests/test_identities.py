"""DESIGN §9 web of identities: every algorithm checked against the others.

Run on every zoo model (friction as shipped; the 4-DOF arm in both its physical and its
seed-001 "book" form, plus the payloads of Ejemplos 3.3/3.4) and on seeded random
serial chains of 1–8 R/P joints in all three DH conventions (``conftest.py``):

* inverse → forward dynamics round trip; Walker–Orin methods 3 and 1 agree; M is SPD;
* τ = M q̈ + b;  b − g − friction = C q̇;  Ṁ − 2C skew-symmetric (Ṁ by differences);
* T = ½ q̇ᵀ M q̇ (armature included);  g = ∂V/∂q (differences);
* Jacobians against differences of the poses, local = Rᵀ·world, link velocities and
  accelerations against differences, the last body against J q̇;
* a tip wrench costs Jᵀ w at the joints (local Jacobian, w in the ee frame);
* a batch (N, n) gives the per-state results;
* simulation: frictionless energy conservation, RK4 vs DOP853, dissipation with friction
  (seed 001, *Práctica 3, Dinámica de Robots* §3.4: ``simula3`` and its RK4 step
  ``walkerorinrunge3``; the q(t) reference values come from an independent port of them,
  since the document prints none).

Tolerances are relative to the size of the compared quantities ("scale"); finite
differences use the 5-point central stencil.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest

import eslabon as es
from checks import check
from eslabon.kinematics import (
    forward_kinematics,
    frame_pose,
    frame_poses,
    jacobian,
    link_accelerations,
    link_velocities,
)

CONVENTIONS = ("standard", "modified", "rojas")

# --- cases -------------------------------------------------------------------------------

ZOO_CASES = {
    "practica_4dof": ("practica_4dof", {}),
    "practica_4dof_book": ("practica_4dof", {"book_com": True}),
    "practica_4dof_payload": ("practica_4dof", {"payload_mass": 3.0, "payload_inertia": 0.05}),
    "practica_6dof": ("practica_6dof", {}),
    "practica_6dof_payload": ("practica_6dof", {"payload_mass": 3.0, "payload_inertia": 0.05}),
    "practica_pendulum3": ("practica_pendulum3", {}),
    "cincinnati_t3": ("cincinnati_t3", {}),
    "puma560_araujo": ("puma560_araujo", {}),
    "puma560": ("puma560", {}),
    "panda": ("panda", {}),
    "planar2": ("planar2", {}),
}
CHAIN_CASES = {
    f"chain-{conv}-{n}": (100 * k + n, n, conv)
    for k, conv in enumerate(CONVENTIONS)
    for n in range(1, 9)
}
CASES = [*ZOO_CASES, *CHAIN_CASES]
N_STATES = 4

_models: dict = {}


def build(case: str, random_chain):
    if case not in _models:
        if case in ZOO_CASES:
            name, opts = ZOO_CASES[case]
            _models[case] = es.zoo.load(name, **opts)
        else:
            _models[case] = random_chain(*CHAIN_CASES[case])
    return _models[case]


@pytest.fixture(params=CASES, scope="module")
def case(request):
    return request.param


@pytest.fixture(scope="module")
def model(case, random_chain):
    return build(case, random_chain)


@pytest.fixture(scope="module")
def states(case, model, random_states):
    return random_states(model, zlib.crc32(case.encode()), N_STATES)


@pytest.fixture
def rigid(model):
    if model.has_moving_com:
        pytest.skip("book-mode model: its sliding COM is not a rigid body (no C, no Ṁ − 2C)")
    return model


# --- helpers -----------------------------------------------------------------------------

_S = np.array([-2.0, -1.0, 1.0, 2.0])
_W = np.array([1.0, -8.0, 8.0, -1.0]) / 12.0
H = 1e-3


def rate(f, x, direction, h=H):
    """d/ds f(x + s·direction) at s = 0 (5-point stencil); ``f`` takes a batch (4, n)."""
    vals = f(x + np.outer(_S * h, direction))
    return np.tensordot(_W, vals, axes=1) / h


def gradient(f, x, h=H):
    """Jacobian of f at x by columns: (..., n) with the derivative along e_j last."""
    n = len(x)
    pts = (x[None, None, :] + _S[:, None, None] * h * np.eye(n)[None]).reshape(4 * n, n)
    vals = f(pts).reshape((4, n) + np.shape(f(x[None]))[1:])
    d = np.tensordot(_W, vals, axes=1) / h  # (n, ...)
    return np.moveaxis(d, 0, -1)


def vee(W):
    """Axial vector of the skew part of W (..., 3, 3)."""
    A = 0.5 * (W - np.swapaxes(W, -1, -2))
    return np.stack([A[..., 2, 1], A[..., 0, 2], A[..., 1, 0]], axis=-1)


def pose_twist(T, Tdot):
    """World [ω; v] of frames moving with poses T and rates Tdot (..., 4, 4)."""
    w = vee(Tdot[..., :3, :3] @ np.swapaxes(T[..., :3, :3], -1, -2))
    return np.concatenate([w, Tdot[..., :3, 3]], axis=-1)


def friction(model, qd):
    dof = model.dof_bodies
    return model.viscous[dof] * qd + model.coulomb[dof] * np.sign(qd)


def states_of(states):
    q, qd, qdd = states
    return zip(q, qd, qdd, strict=True)


# --- dynamics ----------------------------------------------------------------------------

# documented refusals of the reference formulations (numpy, seeds 000 and 002/004): the
# Lagrange model and the operator form need rigid links; the operator form needs a serial
# chain; the constraint-force method also needs invertible body inertias and no armature
REFUSALS = (
    "sliding COM",
    "slides with a prismatic",
    "serial chains",
    "armature",
    "singular 6×6 inertia",
)


def run_or_skip_refusal(fn):
    """fn(), or skip the test when the method documents that it refuses this model."""
    try:
        return fn()
    except ValueError as exc:
        if any(r in str(exc) for r in REFUSALS):
            pytest.skip(f"documented refusal: {exc}")
        raise


@pytest.mark.parametrize("method", es.dynamics.api.FORWARD_METHODS)
def test_inverse_then_forward_recovers_qdd(model, states, method):
    for q, qd, qdd in states_of(states):
        tau = es.inverse_dynamics(model, q, qd, qdd)
        back = run_or_skip_refusal(
            lambda q=q, qd=qd, tau=tau: es.forward_dynamics(model, q, qd, tau, algorithm=method)
        )
        check(back, qdd, 1e-9, what=f"q̈ after ID→FD ({method})")


def test_mass_matrix_methods_agree(model, states):
    for q, _, _ in states_of(states):
        M3 = es.mass_matrix(model, q, algorithm="walker_orin_3")
        M1 = es.mass_matrix(model, q, algorithm="walker_orin_1")
        check(M1, M3, 1e-12, what="walker_orin_1 vs walker_orin_3")


@pytest.mark.parametrize("method", es.dynamics.api.MASS_MATRIX_METHODS)
def test_mass_matrix_symmetric_positive_definite(model, states, method):
    # practica_6dof has massless links 3 and 5 and is still positive definite
    for q, _, _ in states_of(states):
        M = run_or_skip_refusal(lambda q=q: es.mass_matrix(model, q, algorithm=method))
        scale = max(1.0, float(np.max(np.abs(M))))
        check(M, M.T, 1e-13, scale, what="M − Mᵀ")
        eig = np.linalg.eigvalsh(0.5 * (M + M.T))
        assert eig.min() > 1e-9 * scale, f"M not positive definite: eigenvalues {eig}"
        np.linalg.cholesky(M)


def test_tau_is_mass_times_qdd_plus_bias(model, states):
    for q, qd, qdd in states_of(states):
        tau = es.inverse_dynamics(model, q, qd, qdd)
        M = es.mass_matrix(model, q)
        b = es.bias_forces(model, q, qd)
        scale = max(1.0, *np.abs(tau), *(np.abs(M) @ np.abs(qdd)), *np.abs(b))
        check(M @ qdd + b, tau, 1e-11, scale, what="M q̈ + b vs τ")


def test_bias_minus_gravity_minus_friction_is_coriolis(rigid, states):
    model = rigid
    for q, qd, _ in states_of(states):
        C = es.coriolis_matrix(model, q, qd)
        b = es.bias_forces(model, q, qd)
        g = es.gravity_torques(model, q)
        fr = friction(model, qd)
        scale = max(1.0, *np.abs(b), *np.abs(g), *(np.abs(C) @ np.abs(qd)))
        check(b - g - fr, C @ qd, 1e-11, scale, what="b − g − friction vs C q̇")


def test_coriolis_matrix_refuses_book_mode():
    model = es.zoo.load("practica_4dof", book_com=True)
    assert model.has_moving_com
    with pytest.raises(ValueError, match="rigid"):
        es.coriolis_matrix(model, np.zeros(4), np.ones(4))


def test_mdot_minus_two_c_is_skew(rigid, states):
    model = rigid
    for q, qd, _ in states_of(states):
        Mdot = rate(lambda Q: es.mass_matrix(model, Q), q, qd)
        C = es.coriolis_matrix(model, q, qd)
        A = Mdot - 2.0 * C
        scale = max(1.0, float(np.max(np.abs(Mdot))), float(np.max(np.abs(C))))
        check(A, -A.T, 1e-8, scale, what="(Ṁ − 2C) + (Ṁ − 2C)ᵀ")


def test_kinetic_energy_is_quadratic_form(model, states):
    for q, qd, _ in states_of(states):
        T = es.kinetic_energy(model, q, qd)
        M = es.mass_matrix(model, q)
        ref = 0.5 * qd @ M @ qd
        check(
            T,
            ref,
            1e-12,
            max(1.0, 0.5 * np.abs(qd) @ np.abs(M) @ np.abs(qd)),
            what="kinetic energy vs ½ q̇ᵀ M q̇",
        )


def test_armature_enters_kinetic_energy_and_mass_matrix(model, states):
    arm = np.linspace(0.1, 0.3, model.nq)
    heavier = model.replace(armature=model.armature[model.dof_bodies] + arm)
    for q, qd, _ in states_of(states):
        M = es.mass_matrix(model, q)
        check(
            es.mass_matrix(heavier, q) - M,
            np.diag(arm),
            1e-12,
            max(1.0, float(np.max(np.abs(M)))),
            what="ΔM from armature",
        )
        T = es.kinetic_energy(model, q, qd)
        check(
            es.kinetic_energy(heavier, q, qd) - T,
            0.5 * arm @ qd**2,
            1e-12,
            max(1.0, T),
            what="ΔT from armature",
        )


def sliding_com(model, q):
    """COM of every body in its own frame at q (seed 001 book mode: c + com_slide·q·axis)."""
    c = np.array(model.com)
    for b in model.dof_bodies:
        c[b] += model.com_slide[b] * q[model.q_index[b]] * model.axis[b]
    return c


def test_gravity_torques_are_gradient_of_potential(model, states):
    """g = ∂V/∂q for rigid links. In book mode (seed 001's ``newtoneuler4``) the COM of a
    prismatic link k slides by com_slide·q_k along the axis, which Newton–Euler, as in the
    book, does not count as motion of the link: g_k = ∂V/∂q_k + m_k·com_slide_k·gᵀz_k."""
    for q, _, _ in states_of(states):
        g = es.gravity_torques(model, q)
        dV = gradient(lambda Q: es.potential_energy(model, Q), q)
        T = forward_kinematics(model, q)
        slide = np.zeros(model.nq)
        for b in model.dof_bodies:
            z = T[b, :3, :3] @ model.axis[b]
            slide[model.q_index[b]] = model.mass[b] * model.com_slide[b] * (model.gravity @ z)
        if model.has_moving_com:
            assert np.max(np.abs(slide)) > 1.0  # the book model is not conservative
        scale = max(1.0, float(np.max(np.abs(g))))
        check(dV + slide, g, 1e-8, scale, what="∂V/∂q (+ sliding-COM term) vs gravity_torques")


def test_potential_energy_definition(model, states):
    """V = −Σ m gᵀ p_com, with the COMs placed from the body poses."""
    for q, _, _ in states_of(states):
        T = forward_kinematics(model, q)
        p = T[:, :3, 3] + np.einsum("bij,bj->bi", T[:, :3, :3], sliding_com(model, q))
        ref = -float(np.sum(model.mass * (p @ model.gravity)))
        check(es.potential_energy(model, q), ref, 1e-12, max(1.0, abs(ref)), what="V")


# --- kinematics --------------------------------------------------------------------------


def test_jacobian_world_matches_pose_differences(model, states):
    n = model.nq
    for q in states[0][:2]:
        base = frame_poses(model, q)
        np.testing.assert_array_equal(base["ee"], frame_pose(model, q, "ee"))
        # every named frame (dh0..dhN, ee), displaced along each e_j, in one batch
        pts = (q[None, None, :] + _S[:, None, None] * H * np.eye(n)[None]).reshape(4 * n, n)
        for name, T in frame_poses(model, pts).items():
            Tdot = np.tensordot(_W, T.reshape(4, n, 4, 4), axes=1) / H  # (n, 4, 4)
            Jfd = pose_twist(base[name][None], Tdot).T  # (6, n)
            check(jacobian(model, q, name, "world"), Jfd, 1e-8, what=f"world Jacobian of {name!r}")


def test_jacobian_local_is_world_rotated(model, states):
    for q, _, _ in states_of(states):
        R = frame_pose(model, q, "ee")[:3, :3]
        Jw = jacobian(model, q, "ee", "world")
        Jl = jacobian(model, q, "ee", "local")
        check(Jl[:3], R.T @ Jw[:3], 1e-13, what="local angular block")
        check(Jl[3:], R.T @ Jw[3:], 1e-13, what="local linear block")


def test_link_velocities_match_pose_differences(model, states):
    for q, qd, _ in states_of(states):
        T = forward_kinematics(model, q)
        Tdot = rate(lambda Q: forward_kinematics(model, Q), q, qd)
        V = link_velocities(model, q, qd, "world")
        check(V, pose_twist(T, Tdot), 1e-8, what="world link velocities")
        Vl = link_velocities(model, q, qd, "local")
        Rt = np.swapaxes(T[:, :3, :3], -1, -2)
        check(Vl[:, :3], np.einsum("bij,bj->bi", Rt, V[:, :3]), 1e-13, what="local ω")
        check(Vl[:, 3:], np.einsum("bij,bj->bi", Rt, V[:, 3:]), 1e-13, what="local v")


def test_last_body_velocity_is_jacobian_times_qd(model, states):
    for q, qd, _ in states_of(states):
        T = forward_kinematics(model, q)[-1]
        w, v = np.split(link_velocities(model, q, qd, "world")[-1], 2)
        p_ee = frame_pose(model, q, "ee")[:3, 3]
        ee_twist = np.concatenate([w, v + np.cross(w, p_ee - T[:3, 3])])
        check(
            jacobian(model, q, "ee", "world") @ qd,
            ee_twist,
            1e-12,
            what="J q̇ vs last body's twist moved to ee",
        )


def test_link_accelerations_match_velocity_differences(model, states):
    for q, qd, qdd in states_of(states):
        s = _S * H
        Q = q + np.outer(s, qd) + 0.5 * np.outer(s * s, qdd)
        QD = qd + np.outer(s, qdd)
        Adot = np.tensordot(_W, link_velocities(model, Q, QD, "world"), axes=1) / H
        A = link_accelerations(model, q, qd, qdd, "world")
        check(A, Adot, 1e-8, what="world link accelerations vs d/dt velocities")
        Al = link_accelerations(model, q, qd, qdd, "local")
        Rt = np.swapaxes(forward_kinematics(model, q)[:, :3, :3], -1, -2)
        check(Al[:, :3], np.einsum("bij,bj->bi", Rt, A[:, :3]), 1e-13, what="local ω̇")
        check(Al[:, 3:], np.einsum("bij,bj->bi", Rt, A[:, 3:]), 1e-13, what="local a")


def _pushed(model, q, qd, qdd, w):
    """τ of Newton–Euler's kernels (rnea_trace) with the tip pushing on the world by w
    (local axes): the world applies −w."""
    return es.rnea_trace(model, q, qd, qdd, wrenches=[es.ExternalWrench("ee", -w, "local")]).tau


def test_tip_wrench_costs_local_jacobian_transpose(model, states, case):
    rng = np.random.default_rng(zlib.crc32(case.encode()) + 1)
    z = np.zeros(model.nq)
    for q, qd, qdd in states_of(states):
        w = rng.normal(size=6) * np.array([2.0, 2.0, 2.0, 20.0, 20.0, 20.0])
        J = jacobian(model, q, "ee", "local")
        expected = J.T @ w
        scale = max(1.0, float(np.max(np.abs(J.T) @ np.abs(w))))
        static = _pushed(model, q, z, z, w) - es.inverse_dynamics(model, q, z, z)
        check(static, expected, 1e-10, scale, what="static τ(w) − τ(0) vs J_localᵀ w")
        moving = _pushed(model, q, qd, qdd, w) - es.inverse_dynamics(model, q, qd, qdd)
        check(
            moving,
            expected,
            1e-10,
            max(scale, float(np.max(np.abs(es.inverse_dynamics(model, q, qd, qdd))))),
            what="moving τ(w) − τ(0) vs J_localᵀ w",
        )


# --- batches -----------------------------------------------------------------------------


def _batch_calls(model):
    w = np.array([0.3, -0.2, 0.1, 5.0, -4.0, 3.0])
    calls = {
        "inverse_dynamics": lambda q, qd, qdd: es.inverse_dynamics(model, q, qd, qdd),
        "inverse_dynamics+wrench": lambda q, qd, qdd: es.inverse_dynamics(
            model, q, qd, qdd, wrenches=[es.ExternalWrench("ee", -w, "local")]
        ),
        "forward_dynamics_3": lambda q, qd, qdd: es.forward_dynamics(
            model, q, qd, qdd, algorithm="walker_orin_3"
        ),
        "forward_dynamics_1": lambda q, qd, qdd: es.forward_dynamics(
            model, q, qd, qdd, algorithm="walker_orin_1"
        ),
        "mass_matrix_3": lambda q, qd, qdd: es.mass_matrix(model, q, algorithm="walker_orin_3"),
        "mass_matrix_1": lambda q, qd, qdd: es.mass_matrix(model, q, algorithm="walker_orin_1"),
        "gravity_torques": lambda q, qd, qdd: es.gravity_torques(model, q),
        "bias_forces": lambda q, qd, qdd: es.bias_forces(model, q, qd),
        "kinetic_energy": lambda q, qd, qdd: es.kinetic_energy(model, q, qd),
        "potential_energy": lambda q, qd, qdd: es.potential_energy(model, q),
        "forward_kinematics": lambda q, qd, qdd: forward_kinematics(model, q),
        "frame_pose": lambda q, qd, qdd: frame_pose(model, q, "ee"),
        "jacobian_world": lambda q, qd, qdd: jacobian(model, q, "ee", "world"),
        "jacobian_local": lambda q, qd, qdd: jacobian(model, q, "ee", "local"),
        "link_velocities": lambda q, qd, qdd: link_velocities(model, q, qd, "world"),
        "link_accelerations": lambda q, qd, qdd: link_accelerations(model, q, qd, qdd, "local"),
    }
    if not model.has_moving_com:
        calls["coriolis_matrix"] = lambda q, qd, qdd: es.coriolis_matrix(model, q, qd)
    return calls


def test_batch_equals_per_state(model, case, random_states):
    q, qd, qdd = random_states(model, zlib.crc32(case.encode()) + 2, 9)
    for name, call in _batch_calls(model).items():
        batch = call(q, qd, qdd)
        single = np.stack([call(*s) for s in zip(q, qd, qdd, strict=True)])
        assert batch.shape == single.shape, name
        np.testing.assert_allclose(batch, single, rtol=1e-14, atol=1e-14, err_msg=name)


# --- simulation (seed 001 §3.4: simula3, walkerorinrunge3) ------------------------------


def total_energy(model, traj):
    return es.kinetic_energy(model, traj.q, traj.qd) + es.potential_energy(model, traj.q)


@pytest.mark.parametrize(
    "name, q0, qd0",
    [
        ("practica_pendulum3", [0.4, -0.3, 0.6], [0.5, -1.0, 0.8]),
        # swinging about the hanging equilibrium (q2 = q3 = π/2); from q = q̇ = 0 the arm
        # falls and whips its light wrist to ~70 rad/s, where RK4 at dt = 1e-3 drifts by
        # ~2e-5 J (falling as dt⁴: integrator error, not the model)
        ("practica_6dof", [0.2, 1.3, 1.2, 0.5, 0.4, 0.3], [0.5, -0.5, 0.5, -0.5, 0.5, -0.5]),
    ],
)
def test_frictionless_energy_is_conserved(name, q0, qd0):
    """With b_i = 0 energy is conserved: RK4 at dt = 1e-3 drifts by < 1e-6 J over 1 s."""
    model = es.zoo.load(name, friction=False)
    assert not np.any(model.viscous) and not np.any(model.coulomb)
    traj = es.simulate(model, q0, qd0, 1.0, 1e-3, integrator="rk4")
    E = total_energy(model, traj)
    assert np.max(np.abs(traj.q - traj.q[0])) > 0.3, "the robot should move"
    drift = float(np.max(np.abs(E - E[0])))
    assert drift < 1e-6, f"energy drift {drift:.3e} J over 1 s"


@pytest.mark.parametrize("conv", CONVENTIONS)
def test_frictionless_random_chain_conserves_energy(conv, random_chain, random_states):
    model = random_chain(7 + CONVENTIONS.index(conv), 4, conv, friction=False)
    q0, qd0, _ = random_states(model, 11, 1)
    traj = es.simulate(model, q0[0], qd0[0], 0.25, 1e-3, integrator="rk4")
    E = total_energy(model, traj)
    scale = max(1.0, float(np.max(es.kinetic_energy(model, traj.q, traj.qd))))
    check(E, np.full_like(E, E[0]), 1e-8, scale, what="total energy")


@pytest.fixture(scope="module")
def pendulum_runs():
    """``simula3(1, 0.001)``: from rest, τ = 0, friction as shipped, RK4 and DOP853."""
    model = es.zoo.load("practica_pendulum3")
    rk4 = es.simulate(model, None, None, 1.0, 1e-3, integrator="rk4")
    dop = es.simulate(model, None, None, 1.0, 1e-3, integrator="dop853", rtol=1e-12, atol=1e-12)
    return model, rk4, dop


def test_rk4_and_dop853_agree_on_pendulum(pendulum_runs):
    _, rk4, dop = pendulum_runs
    assert rk4.q.shape == dop.q.shape == (1001, 3)
    np.testing.assert_allclose(rk4.t, dop.t, rtol=0, atol=1e-15)
    assert np.max(np.abs(rk4.q - dop.q)) < 1e-6
    assert np.max(np.abs(rk4.qd - dop.qd)) < 1e-6


def test_pendulum_matches_seed_001_trajectory(pendulum_runs):
    """§3.4's ``simula3(1, 0.001)``: the document prints no numbers, so the reference is
    an independent numpy port of it, within ~1e-6."""
    _, rk4, _ = pendulum_runs
    k = {0.1: 100, 0.5: 500, 1.0: 1000}
    check(rk4.q[k[0.1]], [-0.0615113278, 0.0772601653, -0.0205853558], 1e-6, what="q(0.1)")
    check(rk4.q[k[0.5]], [-0.9449439055, 0.4305199819, 0.6107445318], 1e-6, what="q(0.5)")
    check(rk4.q[k[1.0]], [-1.8224856909, -0.4736453172, -0.1892204591], 1e-6, what="q(1)")
    check(rk4.qd[k[1.0]], [-3.6221588239, 0.8352172368, 1.7612610588], 1e-6, what="q̇(1)")


def test_pendulum_with_friction_loses_energy_monotonically():
    model = es.zoo.load("practica_pendulum3")
    b = model.viscous[model.dof_bodies]
    assert np.all(b > 0)
    traj = es.simulate(model, [0.4, -0.3, 0.6], [0.5, -1.0, 0.8], 1.0, 1e-3)
    E = total_energy(model, traj)
    dE = np.diff(E)
    assert np.all(dE <= 1e-12 * np.max(np.abs(E))), f"energy rises by up to {dE.max():.3e} J"
    # and what is lost is what the dampers dissipate: ∫ Σ b q̇² dt (Simpson's rule)
    power = (traj.qd**2) @ b
    dt = traj.t[1] - traj.t[0]
    dissipated = dt / 3 * (power[0] + power[-1] + 4 * power[1:-1:2].sum() + 2 * power[2:-1:2].sum())
    assert E[0] - E[-1] > 0.1
    check(E[0] - E[-1], dissipated, 1e-7, max(1.0, dissipated), what="energy lost")
