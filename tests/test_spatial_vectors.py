"""6-D spatial operators (angular part on top), seeds 002/004 (Jaramillo Botero 1998,
*Dinámica de Manipuladores Robóticos*) eqs (1.1)–(1.54), and its Example 1 (the cuboid,
(1.13)–(1.24)).

Also guards two printed errors of the document; both must NOT be reproduced: (1.26)
prints the parallel-axis product rule Ixy_O = Ixy_cm − m x y, but with the positive
product integrals of (1.10) it is + m x y (Example 1's corner tensor needs the plus); and
(1.52) ℘ = −Ŝ̇ I_O V + İ_O V, whose linear part is identically zero, is not (1.51).
"""

import doctest

import numpy as np
import pytest

from checks import check
from eslabon import spatial as sp
from eslabon.spatial import spatial6

RNG_SEEDS = range(8)
Z3 = np.zeros((3, 3))


def rand_rotation(rng):
    e = rng.normal(size=3)
    return sp.rot_axis(e / np.linalg.norm(e), rng.uniform(-np.pi, np.pi))


def rand_body(rng):
    """m > 0, a physical centroidal inertia (principal moments m(b+c), m(a+c), m(a+b) of
    second moments a, b, c > 0, randomly rotated), s, w, ẇ, v̇_O."""
    m = rng.uniform(0.5, 3.0)
    a, b, c = rng.uniform(0.01, 0.5, 3)
    r = rand_rotation(rng)
    J = r @ np.diag(m * np.array([b + c, a + c, a + b])) @ r.T
    return m, 0.5 * (J + J.T), *rng.normal(size=(4, 3))


def dP(pd):
    """Ṗ̂ = [[0, skew(ṗ)], [0, 0]] (1.7)."""
    return np.block([[Z3, sp.skew(pd)], [Z3, Z3]])


# ------------------------------------------------------------------ (1.1), (1.4)–(1.5)
@pytest.mark.parametrize("seed", RNG_SEEDS)
def test_skew_properties_1_5(seed):
    a, b = np.random.default_rng(seed).normal(size=(2, 3))
    check(sp.skew(a) @ b, np.cross(a, b), 1e-14)
    check(-sp.skew(a) @ b, sp.skew(b) @ a, 1e-14)
    check(sp.skew(b) @ a, np.cross(b, a), 1e-14)
    check(sp.skew(a).T, -sp.skew(a), 0.0)
    check(sp.skew(a) @ a, np.zeros(3), 1e-14)
    # the stacked operators carry the same p̃ (1.4) in their upper-right block
    P = sp.translation_operator(np.stack([a, b]))
    check(P[0, :3, 3:], sp.skew(a), 0.0)
    check(P[1, :3, 3:], sp.skew(b), 0.0)


def test_spatial_vector_pack_unpack_and_power():
    rng = np.random.default_rng(1)
    N, f, w, v = rng.normal(size=(4, 5, 3))
    F, V = sp.spatial_vector(N, f), sp.spatial_vector(w, v)
    assert F.shape == (5, 6)
    assert np.array_equal(F[:, :3], N) and np.array_equal(F[:, 3:], f)  # angular on top
    back = sp.split_spatial(F)
    assert np.array_equal(back[0], N) and np.array_equal(back[1], f)
    check(sp.power(F, V), np.sum(N * w, -1) + np.sum(f * v, -1), 1e-14)
    assert isinstance(sp.power(F[0], V[0]), float)
    check(sp.power(F[0], V[0]), N[0] @ w[0] + f[0] @ v[0], 1e-14)


# ------------------------------------------------------------------------ (1.2)–(1.6)
@pytest.mark.parametrize("seed", RNG_SEEDS)
def test_translation_composition_inverse_transpose_1_6(seed):
    p12, p23 = np.random.default_rng(seed).normal(size=(2, 3))
    P12, P23 = sp.translation_operator(p12), sp.translation_operator(p23)
    check(P12 @ P23, sp.translation_operator(p12 + p23), 1e-14)  # P̂_ij P̂_jk = P̂_ik
    check(np.linalg.inv(P12), sp.translation_operator(-p12), 1e-13)  # P̂_ij⁻¹ = P̂_ji
    check(P12 @ sp.translation_operator(-p12), np.eye(6), 1e-14)
    check(P12.T, np.block([[np.eye(3), Z3], [-sp.skew(p12), np.eye(3)]]), 0.0)


@pytest.mark.parametrize("seed", RNG_SEEDS)
def test_force_velocity_duality_and_power_invariance(seed):
    rng = np.random.default_rng(seed)
    p, N2, f2, w1, v1 = rng.normal(size=(5, 3))
    P = sp.translation_operator(p)
    F1 = P @ np.r_[N2, f2]  # force at 2 moved to 1
    check(F1, np.r_[N2 + np.cross(p, f2), f2], 1e-14)
    V2 = P.T @ np.r_[w1, v1]  # velocity at 1 moved to 2
    check(V2, np.r_[w1, v1 + np.cross(w1, p)], 1e-14)
    check(sp.power(np.r_[N2, f2], V2), sp.power(F1, np.r_[w1, v1]), 1e-13)


@pytest.mark.parametrize("seed", RNG_SEEDS)
def test_derivative_identities_1_7(seed):
    p, pd = np.random.default_rng(seed).normal(size=(2, 3))
    h = 1e-6  # Ṗ̂ really is d/dt P̂(p + t ṗ)
    fd = (sp.translation_operator(p + h * pd) - sp.translation_operator(p - h * pd)) / (2 * h)
    check(fd, dP(pd), 1e-9)
    Pij, dPij, dPji = sp.translation_operator(p), dP(pd), dP(-pd)  # p_ji = −p_ij
    check(Pij @ dPij, dPij, 1e-14)
    check(dPij, -dPji, 0.0)
    check(Pij.T @ dPij.T, np.block([[Z3, Z3], [-sp.skew(pd), Z3]]), 1e-14)
    check(Pij.T @ dPij.T, -dPji.T, 1e-14)
    check(Pij @ dPji, np.block([[Z3, sp.skew(-pd)], [Z3, Z3]]), 1e-14)
    check(Pij @ dPji, -dPij, 1e-14)
    check(Pij.T @ dPji.T, np.block([[Z3, Z3], [-sp.skew(-pd), Z3]]), 1e-14)
    check(Pij.T @ dPji.T, -dPij.T, 1e-14)


# -------------------------------------------------------------- rotations, rigid moves
@pytest.mark.parametrize("seed", RNG_SEEDS)
def test_rotation_operator_and_rigid_transform(seed):
    rng = np.random.default_rng(seed)
    r, (p, N2, f2, w1, v1) = rand_rotation(rng), rng.normal(size=(5, 3))
    check(sp.rotation_operator(r), np.block([[r, Z3], [Z3, r]]), 0.0)
    X = sp.rigid_transform(r, p)
    check(X, sp.translation_operator(p) @ sp.rotation_operator(r), 1e-14)
    check(X @ np.r_[N2, f2], np.r_[r @ N2 + np.cross(p, r @ f2), r @ f2], 1e-13)
    check(X.T @ np.r_[w1, v1], np.r_[r.T @ w1, r.T @ (v1 + np.cross(w1, p))], 1e-13)
    Xs = sp.rigid_transform(np.stack([r, r.T]), p)  # stacks broadcast
    check(Xs[1], sp.rigid_transform(r.T, p), 0.0)


# ----------------------------------------------------------------- spatial cross products
@pytest.mark.parametrize("seed", RNG_SEEDS)
def test_motion_force_cross_duality(seed):
    rng = np.random.default_rng(seed)
    V, M, F = rng.normal(size=(3, 6))
    w, v = V[:3], V[3:]
    check(sp.motion_cross(V), np.block([[sp.skew(w), Z3], [sp.skew(v), sp.skew(w)]]), 0.0)
    check(sp.force_cross(V), -sp.motion_cross(V).T, 0.0)
    check(sp.force_cross(V), np.block([[sp.skew(w), sp.skew(v)], [Z3, sp.skew(w)]]), 0.0)
    check(sp.power(sp.force_cross(V) @ F, M), -sp.power(F, sp.motion_cross(V) @ M), 1e-13)
    check(sp.motion_cross(V) @ V, np.zeros(6), 1e-14)
    check(sp.motion_cross(V) @ M, -sp.motion_cross(M) @ V, 1e-14)
    # covariance under a rigid velocity transform Xm = Xᵀ (motion vectors 1 -> 2)
    Xm = sp.rigid_transform(rand_rotation(rng), rng.normal(size=3)).T
    check(sp.motion_cross(Xm @ V), Xm @ sp.motion_cross(V) @ np.linalg.inv(Xm), 1e-12)
    check(sp.motion_cross(np.stack([V, M]))[1], sp.motion_cross(M), 0.0)


@pytest.mark.parametrize("seed", RNG_SEEDS)
def test_time_derivative_of_a_moving_transform(seed):
    """Frame 2 moves: r(t) = r0·rot(e, θ0 + ω t) (body angular velocity e ω), p(t) a
    parabola; then Ẋ = X force_cross(V₂) with V₂ = [e ω; r(t)ᵀ ṗ(t)], so a force fixed in
    frame 2 changes in frame 1 as d/dt(X F₂) = X (V₂ ×* F₂), and Ẋᵀ = −(V₂×) Xᵀ."""
    rng = np.random.default_rng(seed)
    r0, (e, p0, p1, p2), om = rand_rotation(rng), rng.normal(size=(4, 3)), rng.normal()
    e /= np.linalg.norm(e)
    r = lambda t: r0 @ sp.rot_axis(e, 0.2 + om * t)
    p = lambda t: p0 + p1 * t + p2 * t * t
    X = lambda t: sp.rigid_transform(r(t), p(t))
    t, h = 0.3, 1e-5
    Xd = (X(t + h) - X(t - h)) / (2 * h)
    V2 = np.r_[e * om, r(t).T @ (p1 + 2 * p2 * t)]
    check(Xd, X(t) @ sp.force_cross(V2), 1e-8)
    check(Xd.T, -sp.motion_cross(V2) @ X(t).T, 1e-8)
    F2 = rng.normal(size=6)
    check((X(t + h) @ F2 - X(t - h) @ F2) / (2 * h), X(t) @ (sp.force_cross(V2) @ F2), 1e-8)


# ----------------------------------------------------------------- inertia (1.8)–(1.46)
def test_cuboid_example_1_numbers():
    corner = sp.cuboid_inertia(6, 1, 2, 3, about="corner")
    check(corner, [[10, -9, -4.5], [-9, 20, -3], [-4.5, -3, 26]], 1e-15)
    check(sp.cuboid_inertia(6, 1, 2, 3), np.diag([2.5, 5.0, 6.5]), 1e-15)
    check(sp.cuboid_inertia(6, 1, 2, 3, about="centroid"), np.diag([2.5, 5.0, 6.5]), 1e-15)
    stack = sp.cuboid_inertia([6.0, 12.0], 1, 2, 3, about="corner")
    assert stack.shape == (2, 3, 3)
    check(stack[1], 2 * corner, 1e-15)


@pytest.mark.parametrize("seed", range(4))
def test_cuboid_equals_integrals_1_9_1_10(seed):
    """Gauss–Legendre quadrature (exact for these quadratics) of (1.10) over x ∈ [0, c],
    y ∈ [0, b], z ∈ [0, a], laid out as (1.9), against (1.19); centred box against (1.24)."""
    rng = np.random.default_rng(seed)
    m, (a, b, c) = rng.uniform(0.5, 4.0), rng.uniform(0.1, 2.0, 3)
    xg, wg = np.polynomial.legendre.leggauss(3)
    for about, lo in (("corner", 0.0), ("centroid", -0.5)):
        xs, ys, zs = [(lo + (xg + 1) / 2) * L for L in (c, b, a)]
        X, Y, Z = np.meshgrid(xs, ys, zs, indexing="ij")
        W = np.einsum("i,j,k->ijk", wg, wg, wg) / 8 * m  # ρ dv, total m
        Ixx, Iyy, Izz = [np.sum(W * q) for q in (Y**2 + Z**2, X**2 + Z**2, X**2 + Y**2)]
        Ixy, Ixz, Iyz = [np.sum(W * q) for q in (X * Y, X * Z, Y * Z)]
        ref = [[Ixx, -Ixy, -Ixz], [-Ixy, Iyy, -Iyz], [-Ixz, -Iyz, Izz]]
        check(sp.cuboid_inertia(m, a, b, c, about=about), ref, 1e-13, what=about)


def test_parallel_axis_reproduces_corner_and_printed_1_26_does_not():
    m, a, b, c = 6.0, 1.0, 2.0, 3.0
    J_cm = sp.cuboid_inertia(m, a, b, c)
    s = np.array([c / 2, b / 2, a / 2])  # corner -> centre of mass
    corner = sp.cuboid_inertia(m, a, b, c, about="corner")
    check(sp.parallel_axis(J_cm, m, s), corner, 1e-14)
    # erratum of (1.26): printed Ixy_O = Ixy_cm − m x y, tensor entry −Ixy_O
    x, y, z = s
    Ixy, Ixz, Iyz = -J_cm[0, 1] - m * x * y, -J_cm[0, 2] - m * x * z, -J_cm[1, 2] - m * y * z
    printed = np.diag(np.diag(sp.parallel_axis(J_cm, m, s)))
    printed += -np.array([[0, Ixy, Ixz], [Ixy, 0, Iyz], [Ixz, Iyz, 0]])
    assert np.abs(printed - corner).max() > 8.0  # off by 2 m x y = 18 in Ixy


@pytest.mark.parametrize("seed", RNG_SEEDS)
def test_spatial_inertia_block_form_1_45(seed):
    rng = np.random.default_rng(seed)
    m, J_cm, s, w, v, _ = rand_body(rng)
    I_cm = sp.spatial_inertia_com(m, J_cm)
    check(I_cm, np.block([[J_cm, Z3], [Z3, m * np.eye(3)]]), 0.0)  # (1.8)
    S = sp.translation_operator(s)
    I_O = sp.spatial_inertia(m, J_cm, s)
    check(I_O, S @ I_cm @ S.T, 1e-13)  # (1.45)
    J_O = J_cm - m * sp.skew(s) @ sp.skew(s)  # (1.46)
    check(I_O, np.block([[J_O, m * sp.skew(s)], [-m * sp.skew(s), m * np.eye(3)]]), 1e-13)
    check(sp.parallel_axis(J_cm, m, s), J_O, 1e-13)
    assert sp.is_spatial_inertia(I_O) is True and sp.is_spatial_inertia(I_cm) is True
    # kinetic energy about O equals ½ m |v_cm|² + ½ wᵀ J_cm w  (V at O = [w; v])
    v_cm = v + np.cross(w, s)
    check(0.5 * np.r_[w, v] @ I_O @ np.r_[w, v], 0.5 * m * v_cm @ v_cm + 0.5 * w @ J_cm @ w, 1e-13)
    stack = sp.spatial_inertia([m, 2 * m], J_cm, s)
    check(stack[0], I_O, 0.0)
    check(stack[1], sp.spatial_inertia(2 * m, J_cm, s), 0.0)
    assert sp.is_spatial_inertia(np.stack([I_O, I_O])).tolist() == [True, True]


def test_is_spatial_inertia_rejects_non_physical():
    m, J, s = 2.0, sp.cuboid_inertia(2.0, 1, 2, 3), np.array([0.3, -0.2, 0.5])
    I = sp.spatial_inertia(m, J, s)
    assert sp.is_spatial_inertia(I) is True
    bad = {}
    bad["nonsymmetric"] = I.copy()
    bad["nonsymmetric"][0, 1] += 0.1
    bad["lower-right"] = I.copy()
    bad["lower-right"][5, 5] += 0.1
    bad["negative mass"] = -I
    C = I.copy()
    C[:3, 3:] += np.eye(3) * 0.01
    C[3:, :3] += np.eye(3) * 0.01
    bad["coupling not skew"] = C
    bad["triangle"] = sp.spatial_inertia_com(1.0, np.diag([1.0, 1.0, 2.0])) + np.diag(
        [0, 0, 0.5, 0, 0, 0]
    )  # PSD, but J_cm = diag(1, 1, 2.5)
    for name, B in bad.items():
        assert sp.is_spatial_inertia(B) is False, name
    assert sp.is_spatial_inertia(np.stack([I, bad["triangle"]])).tolist() == [True, False]


# ------------------------------------------------------------- single body (1.27)–(1.54)
def newton_euler_at_O(m, J_cm, s, w, wd, vd_O):
    """f = m a_cm, N_cm = J ẇ + w × J w at the centre of mass, moved to O by (1.27)/(1.30)."""
    a_cm = vd_O + np.cross(wd, s) + np.cross(w, np.cross(w, s))
    f = m * a_cm
    N_cm = J_cm @ wd + np.cross(w, J_cm @ w)
    return np.r_[N_cm + np.cross(s, f), f]


@pytest.mark.parametrize("seed", range(20))
def test_body_force_equals_newton_euler_1_54(seed):
    m, J_cm, s, w, wd, vd = rand_body(np.random.default_rng(seed))
    check(sp.body_force(m, J_cm, s, w, wd, vd), newton_euler_at_O(m, J_cm, s, w, wd, vd), 1e-12)


def test_body_force_stacks():
    rng = np.random.default_rng(5)
    bodies = [rand_body(rng) for _ in range(4)]
    args = [np.array(x) for x in zip(*bodies, strict=True)]
    out = sp.body_force(*args)
    assert out.shape == (4, 6)
    for k, b in enumerate(bodies):
        check(out[k], newton_euler_at_O(*b), 1e-12)
    # one body, many velocity states
    m, J, s = bodies[0][:3]
    W = rng.normal(size=(3, 3))
    check(
        sp.body_force(m, J, s, W, bodies[0][4], bodies[0][5])[2],
        newton_euler_at_O(m, J, s, W[2], bodies[0][4], bodies[0][5]),
        1e-12,
    )


@pytest.mark.parametrize("seed", RNG_SEEDS)
def test_gyroscopic_1_53_equals_1_51_and_printed_1_52_does_not(seed):
    m, J_cm, s, w, v, _ = rand_body(np.random.default_rng(seed))
    J_O = sp.parallel_axis(J_cm, m, s)
    wp = sp.gyroscopic_force(m, J_O, s, w)
    check(wp, np.r_[np.cross(w, J_O @ w), m * np.cross(w, np.cross(w, s))], 1e-14)
    # the identity w̃ J_O w = w̃ J_cm w + m s̃ w̃ w̃ s behind (1.53)
    W, S_ = sp.skew(w), sp.skew(s)
    check(W @ J_O @ w, W @ J_cm @ w + m * S_ @ W @ W @ s, 1e-13)
    V = np.r_[w, v]
    S, I_O = sp.translation_operator(s), sp.spatial_inertia(m, J_cm, s)
    Sd = dP(np.cross(w, s))  # ṡ = w × s, s body-fixed
    Id_cm = np.block([[W @ J_cm - J_cm @ W, Z3], [Z3, Z3]])  # J̇ = w̃J − Jw̃, ṁ = 0
    Id_O = S @ Id_cm @ S.T
    check(I_O @ Sd.T @ V + Id_O @ V, wp, 1e-13)  # (1.51)
    printed = -Sd @ I_O @ V + Id_O @ V  # (1.52) as printed
    assert np.abs(printed - wp).max() > 1e-3
    check(printed[3:], np.zeros(3), 1e-15)  # its linear part vanishes
    # and the force built with it misses Newton–Euler
    wd, vd = np.random.default_rng(seed + 100).normal(size=(2, 3))
    wrong = I_O @ np.r_[wd, vd] + printed
    assert np.abs(wrong - newton_euler_at_O(m, J_cm, s, w, wd, vd)).max() > 1e-3


# ---------------------------------------------------------------------------- bad input
J_OK = np.diag([1.0, 2.0, 2.5])
BAD = [
    ("p", lambda: sp.translation_operator([1.0, 2.0])),
    ("p", lambda: sp.translation_operator([1.0, np.nan, 2.0])),
    ("r", lambda: sp.rotation_operator(2 * np.eye(3))),
    ("r", lambda: sp.rigid_transform(np.eye(2), np.zeros(3))),
    ("p", lambda: sp.rigid_transform(np.stack([np.eye(3)] * 2), np.zeros((3, 3)))),
    ("V", lambda: sp.motion_cross([1.0, 2.0, 3.0])),
    ("V", lambda: sp.force_cross(np.full(6, np.inf))),
    ("m", lambda: sp.spatial_inertia_com(-1.0, J_OK)),
    ("m", lambda: sp.spatial_inertia(np.nan, J_OK, np.zeros(3))),
    (
        "J_cm",
        lambda: sp.spatial_inertia(1.0, J_OK + np.triu(np.ones((3, 3)), 1) * 0.1, np.zeros(3)),
    ),
    ("J_cm", lambda: sp.spatial_inertia_com(1.0, np.diag([1.0, 1.0, -0.1]))),
    ("J_cm", lambda: sp.spatial_inertia_com(1.0, np.diag([1.0, 1.0, 3.0]))),
    ("J_cm", lambda: sp.parallel_axis(np.eye(2), 1.0, np.zeros(3))),
    ("s", lambda: sp.parallel_axis(J_OK, 1.0, [0.0, 0.0])),
    ("s", lambda: sp.spatial_inertia(1.0, J_OK, np.zeros((2, 3)) + [[0, 0, np.nan]])),
    ("a", lambda: sp.cuboid_inertia(1.0, -1.0, 1.0, 1.0)),
    ("c", lambda: sp.cuboid_inertia(1.0, 1.0, 1.0, np.nan)),
    ("m", lambda: sp.cuboid_inertia(-2.0, 1.0, 1.0, 1.0)),
    ("about", lambda: sp.cuboid_inertia(1.0, 1.0, 1.0, 1.0, about="middle")),
    ("J_O", lambda: sp.gyroscopic_force(1.0, np.diag([1.0, 1.0, 3.0]), np.zeros(3), np.ones(3))),
    ("w", lambda: sp.gyroscopic_force(1.0, J_OK, np.zeros(3), np.ones(4))),
    ("wd", lambda: sp.body_force(1.0, J_OK, np.zeros(3), np.ones(3), [0, np.nan, 0], np.ones(3))),
    ("vd_O", lambda: sp.body_force(1.0, J_OK, np.zeros(3), np.ones(3), np.ones(3), [1.0, 2.0])),
    ("m", lambda: sp.body_force(-1.0, J_OK, np.zeros(3), np.ones(3), np.ones(3), np.ones(3))),
    ("F", lambda: sp.power(np.zeros(5), np.zeros(6))),
    ("V", lambda: sp.power(np.zeros((2, 6)), np.zeros((3, 6)))),
    ("X", lambda: sp.split_spatial(np.zeros(5))),
    ("linear", lambda: sp.spatial_vector([1.0, 2.0, 3.0], [1.0, 2.0])),
    ("I", lambda: sp.is_spatial_inertia(np.eye(3))),
    ("I", lambda: sp.is_spatial_inertia(np.full((6, 6), np.nan))),
]


@pytest.mark.parametrize("field,call", BAD, ids=[f"{i}-{f}" for i, (f, _) in enumerate(BAD)])
def test_bad_input_names_the_field(field, call):
    with pytest.raises(ValueError, match=rf"^{field}:"):
        call()


def test_module_doctest():
    failures, tried = doctest.testmod(spatial6, verbose=False)
    assert tried >= 2 and failures == 0
