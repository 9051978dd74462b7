"""Andrews' squeezing mechanism (``eslabon.zoo.andrews``) against its published form: the
mass matrix M(q), the constraints g(q), the right-hand side f(q, q̇) and the consistent
initial values of E. Hairer and G. Wanner, *Solving Ordinary Differential Equations II*,
2nd ed. (Springer, 1996), §VII.7, as F. Mazzia et al.'s *Test Set for IVP Solvers*
(University of Bari), problem "Andrews' squeezing mechanism", writes them, and that
problem's reference solution at t = 0.03 s, reproduced by integrating eslabon's
constrained forward dynamics.

The published equations are written out below in the benchmark's order of coordinates
y = (β, Θ, γ, Φ, δ, Ω, ε); the model's q is (β, Θ, γ, δ, Φ, ε, Ω) and
``BENCHMARK_ORDER`` converts (``y = q[BENCHMARK_ORDER]``).
"""

from __future__ import annotations

import numpy as np
from scipy.integrate import solve_ivp

import eslabon as es
from eslabon import constraints as ec
from eslabon.zoo.andrews import (
    BENCHMARK_ORDER,
    BENCHMARK_Q0,
    PARAMETERS,
    andrews_squeezer,
    applied_forces,
    initial_state,
)

ORDER = list(BENCHMARK_ORDER)
NAMES = ("beta", "Theta", "gamma", "Phi", "delta", "Omega", "epsilon")
p = PARAMETERS

# ---- the published reference (Test Set, problem "Andrews' squeezing mechanism") --------

T_END = 0.03
#: the reference solution at t = 0.03 s, in the benchmark's order: the angles [rad], the
#: rates [rad/s], the accelerations [rad/s²] and the multipliers λ (the Test Set's y(1..27))
REF_Q = np.array([
    0.1581077119629904e2, -0.1575637105984298e2, 0.4082224013073101e-1,
    -0.5347301163226948e0, 0.5244099658805304e0, 0.5347301163226948e0,
    0.1048080741042263e1,
])  # fmt: skip
REF_QD = np.array([
    0.1139920302151208e4, -0.1424379294994111e4, 0.1103291221937134e2,
    0.1929337464421385e2, 0.5735699284790808e0, -0.1929337464421385e2,
    0.3231791658026955e0,
])  # fmt: skip
REF_QDD = np.array([
    -0.2463176316945196e5, 0.5185037701610329e5, 0.3241025686413781e6,
    0.5667493645176213e6, 0.1674362929479361e5, -0.5667493645176222e6,
    0.9826520791458422e4,
])  # fmt: skip
REF_LAMBDA = np.array([
    0.1991753333731910e3, -0.2975531228015052e2, 0.2306654119098399e2,
    0.3145271365475927e2, 0.2264249232082739e2, 0.1161740700019673e2,
])  # fmt: skip
#: the consistent initial accelerations of β and Θ and multipliers λ1, λ2 (the others zero)
INITIAL_QDD = (14222.4439199541138705911625887, -10666.8329399655854029433719415)
INITIAL_LAMBDA = (98.5668703962410896057654982170, -6.12268834425566265503114393122)


# ---- the published equations, in the benchmark's order ----------------------------------


def published_mass_matrix(y):
    b, th, ga, ph, de, om, ep = y
    m1, m2, m3, m4, m5, m6, m7 = (p[f"m{i}"] for i in range(1, 8))
    i1, i2, i3, i4, i5, i6, i7 = (p[f"i{i}"] for i in range(1, 8))
    rr, da, ra, e, ea, zt = p["rr"], p["da"], p["ra"], p["e"], p["ea"], p["zt"]
    zf, fa, u = p["zf"], p["fa"], p["u"]
    M = np.zeros((7, 7))
    M[0, 0] = m1 * ra**2 + m2 * (rr**2 - 2 * da * rr * np.cos(th) + da**2) + i1 + i2
    M[1, 0] = M[0, 1] = m2 * (da**2 - da * rr * np.cos(th)) + i2
    M[1, 1] = m2 * da**2 + i2
    M[2, 2] = m3 * (p["sa"] ** 2 + p["sb"] ** 2) + i3
    M[3, 3] = m4 * (e - ea) ** 2 + i4
    M[4, 3] = M[3, 4] = m4 * ((e - ea) ** 2 + zt * (e - ea) * np.sin(ph)) + i4
    M[4, 4] = (
        m4 * (zt**2 + 2 * zt * (e - ea) * np.sin(ph) + (e - ea) ** 2)
        + m5 * (p["ta"] ** 2 + p["tb"] ** 2)
        + i4
        + i5
    )
    M[5, 5] = m6 * (zf - fa) ** 2 + i6
    M[6, 5] = M[5, 6] = m6 * ((zf - fa) ** 2 - u * (zf - fa) * np.sin(om)) + i6
    M[6, 6] = (
        m6 * ((zf - fa) ** 2 - 2 * u * (zf - fa) * np.sin(om) + u**2)
        + m7 * (p["ua"] ** 2 + p["ub"] ** 2)
        + i6
        + i7
    )
    return M


def _g_terms():
    """g(y) as its terms c·cos(a·y) or c·sin(a·y), each (row, c, "cos"/"sin", a): the
    point E reached through bodies 1–2 minus E reached through body 3 (rows 0, 1), through
    bodies 5–4 (rows 2, 3) and through bodies 7–6 (rows 4, 5)."""
    be, th, ga, ph, de, om, ep = np.eye(7)
    rr, d, ss, e, zt, zf, u = (p[k] for k in ("rr", "d", "ss", "e", "zt", "zf", "u"))
    terms = []
    for row in (0, 2, 4):
        terms += [(row, rr, "cos", be), (row, -d, "cos", be + th)]
        terms += [(row + 1, rr, "sin", be), (row + 1, -d, "sin", be + th)]
    terms += [(0, -ss, "sin", ga), (1, ss, "cos", ga)]
    terms += [(2, -e, "sin", ph + de), (2, -zt, "cos", de), (3, e, "cos", ph + de)]
    terms += [(3, -zt, "sin", de), (4, -zf, "cos", om + ep), (4, -u, "sin", ep)]
    terms += [(5, -zf, "sin", om + ep), (5, u, "cos", ep)]
    return terms


G_TERMS = _g_terms()
G_CONSTANT = -np.array([p["xb"], p["yb"], p["xa"], p["ya"], p["xa"], p["ya"]])


def published_constraints(y, v=None):
    """g(y), its Jacobian G(y) and g's second time derivative at ÿ = 0, d²g/dt² = G ÿ + …
    (the drift term; needs the rates v)."""
    g, G, drift = G_CONSTANT.copy(), np.zeros((6, 7)), np.zeros(6)
    for row, c, kind, a in G_TERMS:
        angle = a @ y
        value, slope = (
            (np.cos(angle), -np.sin(angle)) if kind == "cos" else (np.sin(angle), np.cos(angle))
        )
        g[row] += c * value
        G[row] += c * slope * a
        if v is not None:
            drift[row] -= c * value * (a @ v) ** 2
    return g, G, drift


def published_forces(y, v):
    """f(y, ẏ): the motor torque, the spring's force on body 3 and the velocity terms."""
    b, th, ga, ph, de, om, ep = y
    bep, thp, _, php, dep, omp, epp = v
    sd, sc, xb, yb, xc, yc = (p[k] for k in ("sd", "sc", "xb", "yb", "xc", "yc"))
    xd, yd = sd * np.cos(ga) + sc * np.sin(ga) + xb, sd * np.sin(ga) - sc * np.cos(ga) + yb
    length = np.hypot(xd - xc, yd - yc)
    fx, fy = -p["c0"] * (length - p["l0"]) / length * np.array([xd - xc, yd - yc])
    m2da_rr = p["m2"] * p["da"] * p["rr"]
    k4 = p["m4"] * p["zt"] * (p["e"] - p["ea"])
    k6 = p["m6"] * p["u"] * (p["zf"] - p["fa"])
    return np.array([
        p["mom"] - m2da_rr * thp * (thp + 2 * bep) * np.sin(th),
        m2da_rr * bep**2 * np.sin(th),
        fx * (sc * np.cos(ga) - sd * np.sin(ga)) + fy * (sd * np.cos(ga) + sc * np.sin(ga)),
        k4 * dep**2 * np.cos(ph),
        -k4 * php * (php + 2 * dep) * np.cos(ph),
        -k6 * epp**2 * np.cos(om),
        k6 * omp * (omp + 2 * epp) * np.cos(om),
    ])  # fmt: skip


def published_accelerations(y, v):
    """ÿ and λ of M ÿ = f − Gᵀ λ, G ÿ = −(d²g/dt² at ÿ = 0) (the index-1 form)."""
    _, G, drift = published_constraints(y, v)
    K = np.block([[published_mass_matrix(y), G.T], [G, np.zeros((6, 6))]])
    out = np.linalg.solve(K, np.concatenate([published_forces(y, v), -drift]))
    return out[:7], out[7:]


def rotation(angle):
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s], [s, c]])


def loop_axes(y):
    """The model's rows are E(2) − E(k) in the axes of body k = 3, 4, 6, whose angles in
    the world are γ, Φ + δ, Ω + ε: T(y), block-diagonal, turns them into the world's."""
    T = np.zeros((6, 6))
    for k, angle in enumerate((y[2], y[3] + y[4], y[5] + y[6])):
        T[2 * k : 2 * k + 2, 2 * k : 2 * k + 2] = rotation(angle)
    return T


# ---- integration ---------------------------------------------------------------------


def _dop853(rhs, q0, qd0, t_final):
    n = len(q0)
    sol = solve_ivp(
        lambda t, x: np.concatenate([x[n:], rhs(t, x[:n], x[n:])]),
        (0.0, t_final),
        np.concatenate([q0, qd0]),
        method="DOP853",
        rtol=1e-12,
        atol=1e-12,
    )
    assert sol.success, sol.message
    return sol.y[:n, -1], sol.y[n:, -1]


def integrate(model, q0, qd0, t_final, tau):
    """(q, q̇) at ``t_final`` of the constrained motion from (q0, q̇0) under the applied
    forces ``tau(t, q, q̇)``: scipy's DOP853 at rtol = atol = 1e-12 over (q, q̇) with
    eslabon's constrained forward dynamics (KKT, no stabilization), in one interval:
    ``es.simulate(..., integrator="dop853")`` restarts the integrator at every sample, which
    the published reference does not."""

    def qdd(t, q, qd):
        return ec.constrained_forward_dynamics(model, q, qd, tau(t, q, qd)).qdd

    return _dop853(qdd, q0, qd0, t_final)


# ---- the model is the published one -------------------------------------------------------


def test_the_mass_matrix_is_the_published_one():
    model, rng = andrews_squeezer(), np.random.default_rng(0)
    for _ in range(20):
        y = rng.uniform(-np.pi, np.pi, 7)
        M = published_mass_matrix(y)
        ours = es.mass_matrix(model, y[ORDER])[np.ix_(ORDER, ORDER)]
        assert np.abs(ours - M).max() <= 1e-12 * np.abs(M).max()


def test_the_constraints_are_the_published_ones_in_the_bodies_axes():
    """Everywhere, g(y) = T(y) φ(q) with T(y) a rotation (block-diagonal, invertible): the
    same zero set. On it, G(y) = T(y) J(q) (φ = 0 drops the derivative of T): the same
    row space, and the same λ up to −T (checked on configurations assembled along a turn
    of the crank)."""
    model, rng = andrews_squeezer(), np.random.default_rng(1)
    for _ in range(20):
        y = rng.uniform(-np.pi, np.pi, 7)
        g, _, _ = published_constraints(y)
        phi = ec.constraint_residual(model, y[ORDER])
        assert np.abs(loop_axes(y) @ phi - g).max() <= 1e-15  # [m]; measured ≤ 9e-17
    q, _ = initial_state()
    for step in range(32):  # assembled along a turn of the crank, 0.2 rad at a time
        q[0] += 0.2
        q = ec.assemble(model, q, fixed=[0])
        if step % 4:
            continue
        y = q[ORDER]
        g, G, _ = published_constraints(y)
        assert np.abs(g).max() <= 1e-12  # assemble's tolerance
        J = ec.constraint_jacobian(model, q)[:, ORDER]
        # T J − G is T's derivative times φ: as small as the residual left (measured equal)
        assert np.abs(loop_axes(y) @ J - G).max() <= np.abs(g).max() + 1e-16


def test_the_right_hand_side_is_the_published_one():
    """τ − b(q, q̇) (the motor and the spring, less eslabon's Coriolis and centrifugal
    forces) equals the published f(y, ẏ) at random states; the spring's share is Jᵀ F
    with J the linear rows of the model's frame D's Jacobian."""
    model, rng = andrews_squeezer(), np.random.default_rng(2)
    tau = applied_forces()
    anchor = np.array([p["xc"], p["yc"], 0.0])
    for _ in range(20):
        y, v = rng.uniform(-np.pi, np.pi, 7), rng.uniform(-100, 100, 7)
        q, qd = y[ORDER], v[ORDER]
        applied = tau(0.0, q, qd)
        ours = applied - es.inverse_dynamics(model, q, qd, np.zeros(7))
        f = published_forces(y, v)
        assert np.abs(ours[ORDER] - f).max() <= 1e-12 * np.abs(f).max()
        d = es.kinematics.frame_pose(model, q, "D")[:3, 3] - anchor
        length = np.linalg.norm(d)
        spring = es.jacobian(model, q, "D")[3:].T @ (-p["c0"] * (length - p["l0"]) / length * d)
        spring[0] += p["mom"]
        assert np.abs(spring - applied).max() <= 1e-12 * np.abs(applied).max()


def test_the_initial_values_are_consistent_and_give_the_published_accelerations():
    model = andrews_squeezer()
    q0, qd0 = initial_state()
    assert np.array_equal(q0[ORDER], BENCHMARK_Q0) and not qd0.any()
    assert np.abs(ec.constraint_residual(model, q0)).max() <= 1e-15  # [m]; measured 8e-18
    out = ec.constrained_forward_dynamics(model, q0, qd0, applied_forces()(0.0, q0, qd0))
    qdd, lam = out.qdd[ORDER], -loop_axes(q0[ORDER]) @ out.force
    np.testing.assert_allclose(qdd[:2], INITIAL_QDD, rtol=1e-12)
    np.testing.assert_allclose(lam[:2], INITIAL_LAMBDA, rtol=1e-12)
    assert np.abs(qdd[2:]).max() <= 1e-11 and np.abs(lam[2:]).max() <= 1e-12


# ---- the reference solution at t = 0.03 s -------------------------------------------------


def test_the_reference_solution_at_0_03_s():
    """The measured agreement (DOP853, rtol = atol = 1e-12, 3194 evaluations, 5–10 s on
    2 shared cores): angles within 1.43e-9 rad of the reference (Θ; β 1.15e-9, the others
    ≤ 2.1e-11), rates within 5.1e-8 relative (ε; 2.8e-8 for γ, Φ, Ω, ≤ 1.3e-10 for β, Θ),
    the accelerations and λ at the end within 1.1e-7 and 7.4e-8 of their largest entry,
    φ at the end 1.9e-14 m and J q̇ 1.6e-12 (bounds 1e-13 and 1e-11).

    What limits it is the reference, not this integration: the published equations
    integrated in the same way end 2.6e-12 rad and 7.5e-13 (of the largest rate) from
    eslabon's state, and within ~1e-11 rad of it at rtol 1e-13 and 1e-14 and by Radau,
    while the reference is 1e-9 away; the angles' difference is the motion shifted in time
    by 1.0e-12 s (to 1e-12 rad), a phase error of the reference's own integration (PSIDE at
    tolerance 1e-14, as the Test Set states). The motion is well conditioned:
    ∂q(0.03)/∂β(0) ≈ 46 along the constraints, so rounding the initial values to doubles
    moves the end by ~1e-15. The tolerances sit above the measured figures: 2e-9 rad on
    the angles, 7e-8 relative on the rates, 1.5e-7 of the largest entry on q̈ and λ."""
    model = andrews_squeezer()
    q0, qd0 = initial_state()
    tau = applied_forces()
    q, qd = integrate(model, q0, qd0, T_END, tau)
    out = ec.constrained_forward_dynamics(model, q, qd, tau(T_END, q, qd))
    y, v = q[ORDER], qd[ORDER]
    err_q = y - REF_Q
    assert np.abs(err_q).max() <= 2e-9, dict(zip(NAMES, err_q, strict=True))
    err_v = (v - REF_QD) / np.abs(REF_QD)
    assert np.abs(err_v).max() <= 7e-8, dict(zip(NAMES, err_v, strict=True))
    lam = -loop_axes(y) @ out.force
    assert np.abs(out.qdd[ORDER] - REF_QDD).max() <= 1.5e-7 * np.abs(REF_QDD).max()
    assert np.abs(lam - REF_LAMBDA).max() <= 1.5e-7 * np.abs(REF_LAMBDA).max()
    # on the constraints without stabilization: position and velocity rows
    assert np.abs(ec.constraint_residual(model, q)).max() <= 1e-13
    assert np.abs(ec.constraint_jacobian(model, q) @ qd).max() <= 1e-11

    # the difference is a shift along the motion: y_ref = y(0.03 + s), |s| ~ 1e-12 s
    shift = err_q @ REF_QD / (REF_QD @ REF_QD)
    assert abs(shift) <= 2e-12 and np.abs(err_q - shift * REF_QD).max() <= 3e-12

    # the published equations, integrated the same way, end at the same state
    def published(t, y, v):
        return published_accelerations(y, v)[0]

    y_pub, v_pub = _dop853(published, np.array(BENCHMARK_Q0), np.zeros(7), T_END)
    assert np.abs(y - y_pub).max() <= 2e-11  # measured 2.6e-12 rad
    assert np.abs(v - v_pub).max() <= 1e-11 * np.abs(v_pub).max()  # measured 7.5e-13
