"""``eslabon.practica``: the MATLAB functions of *Práctica 3. Dinámica de Robots* (seed 001)
by their own names.

The equation helpers (Tabla 3.1, eqs 3.27–3.33) are chained here exactly as the notes'
``newtoneuler4`` and ``newtoneuler6`` listings chain them (Ejemplos 3.1 and 3.2), with the
listings' own parameters, and must give the library's inverse dynamics; the robot
functions are checked against the printed sessions of Ejemplo 3.3, against identities
(Walker–Orin's round trip, H's columns as Newton–Euler torques) and against
:func:`eslabon.simulate`.
"""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from eslabon import practica as p


def _book_newton_euler(kinds, theta, d, a, alfa, masses, inertias, b, qp, qpp, g, m_ext, I_ext):
    """The notes' newtoneulerN listing, for any chain: forward eqs 3.27–3.30 from v̇₀ =
    (0, 0, g), the payload as link N+1 at the last frame (q = q̇ = 0), backward eqs
    3.31–3.33, every centre of mass at factor −0.5 of pᵢ*."""
    n = len(kinds)
    R = [p.dh(theta[i], alfa[i]) for i in range(n)] + [np.eye(3)]  # ⁱ⁻¹Rᵢ, i = 1..n+1
    P = [p.ri0pi(a[i], d[i], alfa[i]) for i in range(n)] + [np.zeros(3)]
    S = [p.ri0si(a[i], d[i], alfa[i], -0.5) for i in range(n)] + [np.zeros(3)]
    m = list(masses) + [m_ext]
    I = list(inertias) + [I_ext]
    w, wp, vp = np.zeros(3), np.zeros(3), np.array([0.0, 0.0, g])
    F, N = [], []
    for i in range(n + 1):
        Rt = R[i].T
        kind = kinds[i] if i < n else "R"
        rate, acc = (qp[i], qpp[i]) if i < n else (0.0, 0.0)
        if kind == "R":
            w_new = p.ri0wi(Rt, w, rate)
            wp_new = p.ri0wpi(Rt, wp, w, rate, acc)
            vp = p.ri0vpi_r(Rt, vp, wp_new, w_new, P[i])
        else:
            w_new, wp_new = Rt @ w, Rt @ wp
            vp = p.ri0vpi_p(Rt, vp, wp_new, w_new, P[i], rate, acc)
        w, wp = w_new, wp_new
        F.append(p.ri0fi(p.ri0ai(vp, wp, w, S[i]), m[i]))
        N.append(p.ri0ni(wp, w, I[i]))
    f, nn = F[n], N[n]
    tau = np.zeros(n)
    for i in range(n - 1, -1, -1):
        R_next = R[i + 1]  # ⁱRᵢ₊₁
        p_in_next = R_next.T @ P[i]
        nn = p.ri0nia(R_next, nn, f, N[i], F[i], p_in_next, P[i], S[i])
        f = p.ri0fia(R_next, f, F[i])
        tau[i] = (p.t_r if kinds[i] == "R" else p.f_p)(
            R[i].T, nn if kinds[i] == "R" else f, qp[i], b
        )
    return tau


# the notes' listings: Ejemplo 3.1 (newtoneuler4) and Ejemplo 3.2 (newtoneuler6, whose d
# and a lines the book's own newtoneuler6.m gives)
I4 = [
    np.diag(v)
    for v in (
        (0.0191, 0.0191, 0.0068),
        (0.0031, 0.0484, 0.0484),
        (0.0606, 0.0053, 0.0606),
        (0.0022, 0.0022, 0.0014),
    )
]
I6 = [I4[0], I4[1], np.zeros((3, 3)), I4[2], np.zeros((3, 3)), I4[3]]


def _four(q, qp, qpp, g, m5, I5):
    return _book_newton_euler(
        "RPPR",
        [q[0], 0, 0, q[3]],
        [0.4, q[1], q[2], 0.2],
        [0, -0.1, 0, 0],
        [0, -np.pi / 2, 0, 0],
        [10, 5, 5, 3],
        I4,
        0.05,
        qp,
        qpp,
        g,
        m5,
        I5,
    )


def _six(q, qp, qpp, g, m7, I7):
    return _book_newton_euler(
        "RRRRRR",
        q,
        [0.315, 0, 0, 0.5, 0, 0.08],
        [0, 0.45, 0, 0, 0, 0],
        [-np.pi / 2, 0, np.pi / 2, -np.pi / 2, np.pi / 2, 0],
        [2.78, 10.25, 0, 5.57, 0, 1.98],
        I6,
        0.05,
        qp,
        qpp,
        g,
        m7,
        I7,
    )


@pytest.mark.source("Práctica 3", "Tabla 3.1, eqs 3.27-3.33; Ejemplos 3.1 and 3.2 listings")
@pytest.mark.parametrize("n", [4, 6])
def test_the_equation_helpers_chained_as_the_listings_give_the_library(n):
    rng = np.random.default_rng(7 + n)
    book, lib = (_four, p.newtoneuler4) if n == 4 else (_six, p.newtoneuler6)
    for _ in range(5):
        q, qp, qpp = rng.uniform(-1, 1, (3, n))
        g, m_ext = rng.uniform(5, 12), rng.uniform(0, 4)
        # a rigid payload: principal moments (b + c, a + c, a + b) in random axes
        a_, b_, c_ = rng.uniform(0.001, 0.02, 3)
        Q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
        I_ext = Q @ np.diag([b_ + c_, a_ + c_, a_ + b_]) @ Q.T
        expected = book(q, qp, qpp, g, m_ext, I_ext)
        got = lib(q, qp, qpp, g, m_ext, I_ext)
        np.testing.assert_allclose(got, expected, rtol=1e-11, atol=1e-11 * np.abs(expected).max())


@pytest.mark.source("Práctica 3", "Ejemplo 3.3, the printed tau = newtoneuler4(...) session")
def test_newtoneuler4_reproduces_the_printed_session_of_ejemplo_3_3():
    q, qp, qpp = (
        [0.9355, 0.9169, 0.4103, 0.8936],
        [0.0579, 0.3529, 0.8132, 0.0099],
        [0.1389, 0.2028, 0.1987, 0.6038],
    )
    tau = p.newtoneuler4(q, qp, qpp, 9.8, 3, 0.05 * np.eye(3))
    # printed to 4 decimals from inputs drawn with rand and printed to 4 decimals
    np.testing.assert_allclose(tau, [0.5229, 160.0619, 2.0591, 0.0315], atol=1e-3)
    np.testing.assert_allclose(p.walkerorin4(q, qp, tau, 3, 0.05), qpp, atol=1e-9)


@pytest.mark.source("Práctica 3", "Ejemplo 3.1, the 156 N that joint 2 holds at rest")
def test_newtoneuler4_at_rest_holds_the_weight_on_joint_2():
    tau = p.newtoneuler4(np.zeros(4), np.zeros(4), np.zeros(4), 9.8, 3, 0.05)
    assert tau[1] == pytest.approx((5 + 5 + 3 + 3) * 9.8, rel=1e-12)


@pytest.mark.parametrize("n", [3, 4, 6])
def test_h_columns_are_newton_euler_torques_and_walkerorin_inverts_newtoneuler(n):
    ne, h, wo = {
        3: (p.newtoneuler3, p.h3, p.walkerorin3),
        4: (p.newtoneuler4, p.h4, p.walkerorin4),
        6: (p.newtoneuler6, p.h6, p.walkerorin6),
    }[n]
    rng = np.random.default_rng(n)
    q, qp, qpp = rng.uniform(-1, 1, (3, n))
    z = np.zeros(n)
    H = h(q, 2.0, 0.03)
    columns = np.column_stack([ne(q, z, e, 0.0, 2.0, 0.03) for e in np.eye(n)])
    np.testing.assert_allclose(H, columns, rtol=1e-12, atol=1e-12)
    tau = ne(q, qp, qpp, 9.8, 2.0, 0.03)
    np.testing.assert_allclose(wo(q, qp, tau, 2.0, 0.03), qpp, rtol=1e-9, atol=1e-10)


def test_denavit_chains_to_the_models_dh_frames():
    arm = es.zoo.load("practica_6dof")
    q = np.random.default_rng(3).uniform(-1, 1, 6)
    d, a = [0.315, 0, 0, 0.5, 0, 0.08], [0, 0.45, 0, 0, 0, 0]
    alfa = [-np.pi / 2, 0, np.pi / 2, -np.pi / 2, np.pi / 2, 0]
    T = np.eye(4)
    for i in range(6):
        T = T @ p.denavit(q[i], d[i], a[i], alfa[i])
    np.testing.assert_allclose(T, es.kinematics.frame_pose(arm, q, "dh6"), atol=1e-13)


@pytest.mark.source("Práctica 3", "§3.4, simula3 and walkerorinrunge3 (RK4 at 1 ms, from rest)")
def test_simula3_is_the_library_simulation_at_the_same_step():
    mat_q = p.simula3(0.2, 0.001)
    assert mat_q.shape == (3, 201)
    traj = es.simulate(es.zoo.load("practica_pendulum3"), None, None, 0.2, 0.001)
    # the notes round each step to 1e-13; 200 steps keep the difference far below 1e-9
    np.testing.assert_allclose(mat_q.T, traj.q, atol=1e-9)


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="q: expected 4 numbers"):
        p.newtoneuler4([0, 0, 0], [0] * 4, [0] * 4, 9.8, 0, 0)
    with pytest.raises(ValueError, match="masaext"):
        p.h6([0] * 6, -1.0, 0)
    with pytest.raises(ValueError, match="inerciaext"):
        p.walkerorin3([0] * 3, [0] * 3, [0] * 3, 1.0, np.zeros((2, 2)))
    with pytest.raises(ValueError, match="tsim, pint"):
        p.simula3(1.0, 0.0)
    with pytest.raises(ValueError, match="mat_q"):
        p.animacion3(np.zeros((2, 5)))
