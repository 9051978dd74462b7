"""Position recursions of seed 000 (Rojas 1987) §2.5–2.6 and their derivatives.

Rojas Salgado (1987) §2.5–2.6 (forward recursion (2.6.5), backward Horner recursion
(2.6.25), ∂s/∂θ and ∂²s/∂θ² (2.6.29–2.6.36)), §3.3.1 and §3.3.3 (3.3.3.6).
"""

import numpy as np
import pytest

import eslabon as es
from checks import check
from eslabon.kinematics import horner


def three_r(L1, L2):
    """The 3R positioning arm of Fig. 2.5.4 (2.5.7), Rojas naming, unit masses."""
    rows = [
        {
            "joint": "R",
            "theta": 0.0,
            "b": 0.0,
            "d": d,
            "alpha": np.radians(a),
            "mass": 1.0,
            "inertia": np.eye(3) * 0.01,
        }
        for d, a in ((0.0, 90), (L1, -90), (L2, 90))
    ]
    return es.from_dh(rows, "rojas")


def test_three_r_example_position_formula():
    """(2.5.12): x = d₁c₁c₂ + d₂(c₁c₂c₃ − s₁s₃), y = d₁s₁c₂ + d₂(s₁c₂c₃ + c₁s₃),
    z = d₁s₂ + d₂s₂c₃ (link lengths renamed d₁, d₂ as in the text)."""
    L1, L2 = 0.7, 0.45
    model = three_r(L1, L2)
    for q in np.random.default_rng(0).uniform(-np.pi, np.pi, (20, 3)):
        c1, c2, c3 = np.cos(q)
        s1, s2, s3 = np.sin(q)
        expected = [
            L1 * c1 * c2 + L2 * (c1 * c2 * c3 - s1 * s3),
            L1 * s1 * c2 + L2 * (s1 * c2 * c3 + c1 * s3),
            L1 * s2 + L2 * s2 * c3,
        ]
        _, p = horner.backward_recursion(model, q)
        check(p, expected, 1e-14)
        check(horner.forward_recursion(model, q).frame_position, expected, 1e-14)


@pytest.mark.parametrize("name", ["cincinnati_t3", "puma560", "panda", "practica_4dof"])
def test_forward_and_backward_recursions_agree_with_forward_kinematics(name):
    """§2.6: the forward (u, 2.6.5) and backward (s, 2.6.25) recursions give the same
    end-effector point (1e-12); P_n = R."""
    model = es.zoo.load(name)
    Q = np.random.default_rng(1).uniform(-2, 2, (6, model.nq))
    T = es.end_effector_pose(model, Q)
    fwd = horner.forward_recursion(model, Q)
    s_local, p = horner.backward_recursion(model, Q)
    check(p, T[:, :3, 3], 1e-12)
    check(fwd.frame_position, T[:, :3, 3], 1e-12)
    check(fwd.frame_rotation, T[:, :3, :3], 1e-12)
    # s_k is the vector from O_k to the point, in frame k: P_k s_k + u_k = p
    back = np.einsum("nkij,nkj->nki", fwd.rotations, s_local) + fwd.origins
    check(back, np.broadcast_to(p[:, None, :], back.shape), 1e-12)


def test_t3_initial_configuration_point():
    """Table 4.4.1, §4.4: the T3 at its initial (0, 90, −135, 45, 90, 90)° reaches the task's
    start (1.33125, β(0) = 0, 1.79875)."""
    from eslabon.zoo.rojas import INITIAL_THETA_DEG

    _, p = horner.backward_recursion(es.zoo.load("cincinnati_t3"), np.radians(INITIAL_THETA_DEG))
    check(p, [1.33125, 0.0, 1.79875], 2e-6)


@pytest.mark.parametrize("seed", range(6))
def test_jacobian_and_hessian_against_central_differences(seed):
    """(2.6.29), (2.6.33–36), (3.3.3.6) on random R/P chains: ∂s/∂θ and ∂²s/∂θ² match
    central differences, the Hessian is symmetric and vanishes where the thesis says."""
    model = es.zoo.random_chain(6, seed, tool=True)
    q = np.random.default_rng(seed).uniform(-2, 2, model.nq)
    d = horner.point_derivatives(model, q, hessian=True)
    h = 1e-6
    for j in range(model.nq):
        dq = np.zeros(model.nq)
        dq[j] = h
        check(
            d.jacobian[:, j],
            (
                horner.backward_recursion(model, q + dq)[1]
                - horner.backward_recursion(model, q - dq)[1]
            )
            / (2 * h),
            1e-8,
        )
        check(
            d.hessian[:, :, j],
            (
                horner.point_derivatives(model, q + dq).jacobian
                - horner.point_derivatives(model, q - dq).jacobian
            )
            / (2 * h),
            1e-7,
        )
    check(d.hessian, np.swapaxes(d.hessian, 1, 2), 0.0)
    prismatic = np.flatnonzero(~d.revolute)
    for i in prismatic:  # a slide changes no direction: zero for j at or beyond i
        assert not d.hessian[:, i, i:].any()
    check(d.jacobian, es.jacobian(model, q)[3:], 1e-12, what="geometric Jacobian")


def test_hessian_contracts_to_the_velocity_product_term():
    """(2.6.30): s̈ = (∂s/∂θ)θ̈ + θ̇ᵀ(∂²s/∂θ²)θ̇ equals the end-effector acceleration of the
    Newton–Euler recursion (a different algorithm)."""
    model = es.zoo.load("panda")
    q, qd, qdd = np.random.default_rng(5).uniform(-1, 1, (3, 7))
    d = horner.point_derivatives(model, q, hessian=True)
    s_ddot = d.jacobian @ qdd + np.einsum("ajk,j,k->a", d.hessian, qd, qd)
    fr = model.frame("ee")
    acc = es.kinematics.link_accelerations(model, q, qd, qdd, "world")[fr.body]
    vel = es.kinematics.link_velocities(model, q, qd, "world")[fr.body]
    T = es.forward_kinematics(model, q)[fr.body]
    r = T[:3, :3] @ fr.translation
    expected = acc[3:] + np.cross(acc[:3], r) + np.cross(vel[:3], np.cross(vel[:3], r))
    check(s_ddot, expected, 1e-12)


def test_bad_configuration_is_named():
    model = es.zoo.load("puma560")
    with pytest.raises(ValueError, match="q: expected finite"):
        horner.point_derivatives(model, [0, 0, np.nan, 0, 0, 0])
    with pytest.raises(ValueError, match="q: expected shape"):
        horner.forward_recursion(model, np.zeros(5))
    with pytest.raises(ValueError, match="frame: unknown frame"):
        horner.backward_recursion(model, np.zeros(6), frame="tool9")
