"""Gibbs–Appell dynamics of a fixed-base chain, seed 003 (Araujo 2012) Ch. II–III.

Araujo (2012) eqs 2.25, 3.33–3.38 and Step 6 of its "Algoritmo para resolver el problema
dinámico inverso", on the PUMA 560 of Tables A.4–A.7 at q = 0: D, φ and the q̈ of load
case 2 (τ = 0). The thesis prints no numbers; the reference values come from an
independent implementation of the same equations (D also checked against ∂τ/∂q̈, φ's
gravity part against −∂V/∂q).
"""

import numpy as np
import pytest

import eslabon as es
from checks import check
from eslabon.dynamics import gibbs_appell as ga


@pytest.fixture(scope="module")
def puma():
    return es.zoo.load("puma560_araujo")


def test_inertia_matrix_and_bias_at_zero(puma):
    """Reference values: D(q = 0) diagonal and off-diagonal entries, φ(0, 0) = gravity only."""
    z = np.zeros(6)
    t = ga.gibbs_appell_terms(puma, z, z)
    check(np.diag(t.D), [13.19329, 15.08349, 4.46101, 0.2149, 0.13494, 0.0141], 5e-6, scale=1.0)
    for (j, k), value in {
        (0, 1): -0.409646,
        (0, 2): -0.409646,
        (1, 2): 4.438261,
        (0, 3): 0.2149,
        (0, 5): 0.0141,
        (3, 5): 0.0141,
        (1, 4): 0.143764,
        (2, 4): 0.143764,
        (0, 4): -0.003047,
    }.items():
        assert t.D[j, k] == pytest.approx(value, abs=1e-6) and t.D[k, j] == t.D[j, k]
    check(t.phi, [0, -68.661685, 0.516899, 0, 0, 0], 1e-6, scale=1.0)


def test_run_2_initial_accelerations(puma):
    """Load case 2 (τ = 0, at rest at q = 0; reference values): q̈ = D⁻¹(τ − φ) (3.36)."""
    z = np.zeros(6)
    check(
        ga.forward_dynamics(puma, z, z, z),
        [-0.002693, 6.48451, -6.570506, 0.002693, 0.09156, 0.0],
        1e-6,
        scale=1.0,
    )
    check(
        es.forward_dynamics(puma, z, z, z, algorithm="gibbs_appell"),
        es.forward_dynamics(puma, z, z, z),
        1e-12,
    )


def test_partials_are_the_jacobians(puma):
    """(3.39–3.51): ∂ω̇_i/∂q̈ and ∂r̈_Gi/∂q̈ equal central differences of ω̇_i and r̈_Gi in
    q̈ (they are linear in q̈, so the difference is exact up to rounding)."""
    q, qd, qdd = np.random.default_rng(4).uniform(-1, 1, (3, 6))
    t = ga.gibbs_appell_terms(puma, q, qd)
    acc = es.kinematics.link_accelerations

    def com_and_omega_acc(x):
        a = acc(puma, q, qd, x, "local")
        c = puma.com
        w = es.kinematics.link_velocities(puma, q, qd, "local")[:, :3]
        rg = a[:, 3:] + np.cross(a[:, :3], c) + np.cross(w, np.cross(w, c))
        return a[1:, :3], rg[1:]

    for j in range(6):
        e = np.zeros(6)
        e[j] = 1.0
        (wp, rp), (wm, rm) = com_and_omega_acc(qdd + e), com_and_omega_acc(qdd - e)
        check(t.d_omega_dot[:, :, j], (wp - wm) / 2, 1e-12, what=f"∂ω̇/∂q̈_{j}")
        check(t.d_com_accel[:, :, j], (rp - rm) / 2, 1e-12, what=f"∂r̈_G/∂q̈_{j}")


@pytest.mark.parametrize("n", [1, 2, 4, 7, 12])
def test_gibbs_appell_equals_newton_euler(n):
    """Every formulation, one answer: D q̈ + φ = Newton–Euler, D = M, φ = bias, with prismatic
    joints, payloads, friction and armature; batches too."""
    for seed in range(3):
        model = es.zoo.random_chain(n, seed, friction=True)
        q, qd, qdd = np.random.default_rng(seed).uniform(-1, 1, (3, model.nq))
        t = ga.gibbs_appell_terms(model, q, qd)
        check(t.D, es.mass_matrix(model, q), 1e-12)
        check(t.phi, es.bias_forces(model, q, qd), 1e-12)
        tau = es.inverse_dynamics(model, q, qd, qdd)
        check(ga.inverse_dynamics(model, q, qd, qdd), tau, 1e-12)
        check(ga.forward_dynamics(model, q, qd, tau), qdd, 1e-10)
    Q = np.random.default_rng(9).uniform(-1, 1, (3, 4, model.nq))
    check(ga.inverse_dynamics(model, *Q), es.inverse_dynamics(model, *Q), 1e-12)


def test_refusals():
    with pytest.raises(ValueError, match="Gibbs function needs rigid links"):
        ga.gibbs_appell_terms(es.zoo.load("practica_4dof", book_com=True), np.zeros(4), np.zeros(4))
    with pytest.raises(ValueError, match="q: gibbs_appell_terms takes one state"):
        ga.gibbs_appell_terms(es.zoo.load("planar2"), np.zeros((2, 2)), np.zeros((2, 2)))
