"""Rotation representations and linear invariants of seed 000 (Rojas 1987) §2.4.

Rojas Salgado (1987) §2.4, §2.5 (2.5.16), §3.3.1–3.3.2, §3.4, and the T3 task's
orientation of §4.4 (Tables 5.4.1, 5.6.1). Misprints of §2.4 corrected and checked here:
(2.4.2) prints c3 = −r32/s2 (it is +r32/s2); (2.4.8a) multiplies by r = 1 + p·p (it
divides); (2.4.12) prints the coefficient (1 − λ0)/λ0 (it is 1/(1 + λ0)); (2.4.13)
prints λ = 2 λ0 q (it is λ = 2 q0 q).
"""

import numpy as np
import pytest

from checks import check
from eslabon.spatial import (
    angular_velocity,
    axis_angle,
    euler_parameters,
    euler_parameters_from_invariants,
    invariant_rates,
    invariants_from_euler_parameters,
    linear_invariants,
    rodrigues_parameters,
    rot_axis,
    rot_x,
    rot_y,
    rot_z,
    rotation_from_axis_angle,
    rotation_from_euler_parameters,
    rotation_from_invariants,
    rotation_from_rodrigues,
    rotation_from_xyz,
    rotation_from_zxz,
    skew,
    vect,
    xyz_angles,
    zxz_angles,
)

RNG = np.random.default_rng(20240617)
T3_R = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, -1.0], [-1.0, 0.0, 0.0]])  # 2λ = (1, 1, −1), tr 0


def random_rotations(n, rng):
    """Haar-random rotations from QR of Gaussian matrices (independent of the module)."""
    out = []
    for A in rng.normal(size=(n, 3, 3)):
        Q, T = np.linalg.qr(A)
        Q = Q * np.sign(np.diag(T))
        out.append(Q if np.linalg.det(Q) > 0 else -Q)
    return np.array(out)


def unit(v):
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


AXES = unit(RNG.normal(size=(8, 3)))
RANDOM = random_rotations(200, RNG)
SMALL = np.array([rot_axis(a, phi) for phi in (1e-9, 1e-6) for a in AXES])
HALF_PI = np.array([rot_axis(a, np.pi / 2) for a in AXES])
NEAR_PI = np.array([rot_axis(a, np.pi - 1e-7) for a in AXES])
AT_PI = np.array(
    [-np.eye(3) + 2.0 * np.outer(a, a) for a in AXES]  # (2.5.16)
    + [rot_axis(a, np.pi) for a in AXES]
)
REGULAR = np.concatenate([RANDOM, SMALL, HALF_PI, [np.eye(3), T3_R]])
ALL = np.concatenate([REGULAR, NEAR_PI, AT_PI])


def rebuild_error(A, B):
    return float(np.abs(np.asarray(A) - np.asarray(B)).max())


# ------------------------------------------------------------------ definitions (2.4.9–10)
def test_vect_definition_and_inverse_of_skew():
    A = RNG.normal(size=(5, 3, 3))
    expected = 0.5 * np.stack(
        [A[:, 2, 1] - A[:, 1, 2], A[:, 0, 2] - A[:, 2, 0], A[:, 1, 0] - A[:, 0, 1]], axis=-1
    )
    check(vect(A), expected, 1e-15)
    v = RNG.normal(size=3)
    check(vect(skew(v)), v, 1e-15)
    check(vect(np.outer(v, v)), np.zeros(3), 0.0)  # symmetric part does not count


def test_linear_invariants_are_e_sin_phi_and_cos_phi():
    for a, phi in zip(AXES, np.linspace(0.1, 3.0, len(AXES)), strict=True):
        lam, lam0 = linear_invariants(rot_axis(a, phi))
        check(lam, a * np.sin(phi), 1e-15)
        assert abs(lam0 - np.cos(phi)) < 1e-15
        assert abs(lam0**2 + lam @ lam - 1.0) < 1e-15  # (2.4.11)


def test_t3_end_effector_invariants():
    """§4.4, Table 5.4.1: 2λ = (1, 1, −1), tr R = 0, i.e. φ = 120° about (1, 1, −1)/√3."""
    lam, lam0 = linear_invariants(T3_R)
    check(2 * lam, [1.0, 1.0, -1.0], 1e-15)
    assert np.trace(T3_R) == 0.0 and lam0 == -0.5
    e, phi = axis_angle(T3_R)
    check(e, np.array([1.0, 1.0, -1.0]) / np.sqrt(3.0), 1e-15)
    assert abs(np.degrees(phi) - 120.0) < 1e-12
    check(rot_axis(e, phi), T3_R, 1e-15)


# ------------------------------------------------------------------------- round trips
def test_axis_angle_round_trip_and_against_rot_axis():
    e, phi = axis_angle(ALL)
    assert np.all((phi >= 0) & (phi <= np.pi))
    check(rotation_from_axis_angle(e, phi), ALL, 1e-12)
    check(np.einsum("nij,nj->ni", ALL, e), e, 1e-12)  # R e = e
    e_near, phi_near = axis_angle(NEAR_PI)
    check(phi_near, np.full(len(AXES), np.pi - 1e-7), 1e-12)
    check(e_near, AXES, 1e-12)  # sign follows λ = e sin φ
    e_pi, phi_pi = axis_angle(AT_PI[: len(AXES)])  # exactly −1 + 2aaᵀ
    check(phi_pi, np.full(len(AXES), np.pi), 0.0)
    check(np.abs(np.sum(e_pi * AXES, axis=-1)), np.ones(len(AXES)), 1e-14)
    largest = np.argmax(np.abs(e_pi), axis=-1)  # deterministic sign at φ = π
    assert np.all(np.take_along_axis(e_pi, largest[:, None], -1) > 0)
    for a, phi in zip(AXES, (0.3, 1.0, 2.0, 3.1), strict=False):  # the first axes only
        check(rotation_from_axis_angle(a, phi), rot_axis(a, phi), 1e-15)


def test_invariants_round_trip_and_against_rot_axis():
    lam, lam0 = linear_invariants(REGULAR)
    check(rotation_from_invariants(lam, lam0), REGULAR, 1e-12)
    for a, phi in zip(AXES, (0.2, 1.4, 2.5, 3.0), strict=False):  # the first axes only
        check(rotation_from_invariants(a * np.sin(phi), np.cos(phi)), rot_axis(a, phi), 1e-15)


def test_invariants_near_and_at_pi_need_the_axis():
    """λ fixes e only to ~1e-16/sin φ: near π the rebuild is as good as that (and far
    better than the literal λλᵀ/(1+λ0), which cancels); with the axis it is exact;
    at φ = π it cannot be done without the axis (2.5.16)."""
    lam, lam0 = linear_invariants(NEAR_PI)
    naive = (
        lam0[:, None, None] * np.eye(3)
        + lam[:, :, None] * lam[:, None, :] / (1.0 + lam0)[:, None, None]
        + np.array([skew(v) for v in lam])
    )
    assert rebuild_error(naive, NEAR_PI) > 1e-4
    check(rotation_from_invariants(lam, lam0), NEAR_PI, 1e-8)
    e, _ = axis_angle(NEAR_PI)
    check(rotation_from_invariants(lam, lam0, axis=e), NEAR_PI, 1e-12)
    lam, lam0 = linear_invariants(AT_PI)
    with pytest.raises(ValueError, match="axis"):
        rotation_from_invariants(lam, lam0)
    with pytest.raises(ValueError, match="axis"):
        euler_parameters_from_invariants(lam, lam0)
    e, _ = axis_angle(AT_PI)
    check(rotation_from_invariants(lam, lam0, axis=e), AT_PI, 1e-12)
    check(rotation_from_invariants(np.zeros(3), -1.0, axis=-AXES[0]), AT_PI[0], 1e-15)


def test_euler_parameters_round_trip_and_thesis_relations():
    q0, q = euler_parameters(ALL)
    assert np.all(q0 >= 0)
    check(q0**2 + np.sum(q * q, axis=-1), np.ones(len(ALL)), 1e-15)
    check(rotation_from_euler_parameters(q0, q), ALL, 1e-12)
    tr = np.trace(ALL, axis1=1, axis2=2)
    check(q0**2, (1.0 + tr) / 4.0, 1e-15)  # (2.4.6a)
    check(q**2, np.diagonal(ALL, axis1=1, axis2=2) / 2 - (tr[:, None] - 1) / 4, 1e-15)
    for a, phi in zip(AXES, (0.4, 1.7, 2.9), strict=False):  # the first axes only
        q0, q = euler_parameters(rot_axis(a, phi))  # (2.4.4)
        assert abs(q0 - np.cos(phi / 2)) < 1e-15
        check(q, a * np.sin(phi / 2), 1e-15)
        check(
            rotation_from_euler_parameters(np.cos(phi / 2), a * np.sin(phi / 2)),
            rot_axis(a, phi),
            1e-15,
        )


def test_invariants_and_euler_parameters_convert_both_ways():
    """(2.4.13–14) corrected: λ = 2 q0 q, λ0 = 2q0² − 1, q0 = √((1 + λ0)/2)."""
    lam, lam0 = linear_invariants(ALL)
    q0, q = euler_parameters(ALL)
    L, L0 = invariants_from_euler_parameters(q0, q)
    check(L, lam, 1e-15)
    check(L0, lam0, 1e-15)
    check(L, 2 * q0[:, None] * q, 1e-15)
    e, _ = axis_angle(ALL)
    Q0, Q = euler_parameters_from_invariants(lam, lam0, axis=e)
    check(rotation_from_euler_parameters(Q0, Q), ALL, 1e-12)
    Q0, Q = euler_parameters_from_invariants(*linear_invariants(REGULAR))
    check(Q0, np.sqrt((1 + linear_invariants(REGULAR).lam0) / 2), 1e-13)
    check(Q0, euler_parameters(REGULAR).q0, 1e-15)
    check(rotation_from_euler_parameters(Q0, Q), REGULAR, 1e-12)
    printed = 2 * lam0[:200, None] * q[:200]  # the misprinted λ = 2 λ0 q
    assert rebuild_error(printed, lam[:200]) > 0.1


def test_rodrigues_round_trip_singular_at_pi_and_thesis_matrix():
    p, singular = rodrigues_parameters(ALL)
    assert not np.any(singular[: -len(AT_PI)]) and np.all(singular[-len(AT_PI) :])
    assert np.all(np.isnan(p[singular])) and np.all(np.isfinite(p[~singular]))
    check(rotation_from_rodrigues(p[~singular]), ALL[~singular], 1e-12)
    for a, phi in zip(AXES, (0.5, 2.0, 3.0), strict=False):  # the first axes only
        p = rodrigues_parameters(rot_axis(a, phi)).p
        check(p, a * np.tan(phi / 2), 1e-13)
        check(rotation_from_rodrigues(p), rot_axis(a, phi), 1e-15)
    p1, p2, p3 = p  # (2.4.8a)
    M = np.array(
        [
            [1 + p1**2 - p2**2 - p3**2, 2 * (p1 * p2 - p3), 2 * (p1 * p3 + p2)],
            [2 * (p1 * p2 + p3), 1 - p1**2 + p2**2 - p3**2, 2 * (p2 * p3 - p1)],
            [2 * (p1 * p3 - p2), 2 * (p2 * p3 + p1), 1 - p1**2 - p2**2 + p3**2],
        ]
    )
    r = 1 + p @ p
    check(M / r, rotation_from_rodrigues(p), 1e-15)
    assert rebuild_error(M * r, rotation_from_rodrigues(p)) > 1.0  # printed "r[…]"


def test_euler_and_bryant_angles_round_trip_and_thesis_matrices():
    for get, build in ((zxz_angles, rotation_from_zxz), (xyz_angles, rotation_from_xyz)):
        angles, singular = get(ALL)
        check(build(angles), ALL, 1e-12)
        assert not np.any(singular[:200])
    t = RNG.uniform(-np.pi, np.pi, (50, 3))
    t[:, 1] = np.abs(t[:, 1])  # ZXZ branch θ2 ∈ [0, π]
    check(zxz_angles(rotation_from_zxz(t)).angles, t, 1e-12)
    c, s = np.cos(t[0]), np.sin(t[0])
    zxz = np.array(
        [
            [
                c[0] * c[2] - s[0] * c[1] * s[2],
                -s[0] * c[1] * c[2] - c[0] * s[2],
                s[0] * s[1],
            ],  # (2.4.1)
            [s[0] * c[2] + c[0] * c[1] * s[2], c[0] * c[1] * c[2] - s[0] * s[2], -c[0] * s[1]],
            [s[1] * s[2], s[1] * c[2], c[1]],
        ]
    )
    check(rotation_from_zxz(t[0]), zxz, 1e-15)
    check(rotation_from_zxz(t[0]), rot_z(t[0, 0]) @ rot_x(t[0, 1]) @ rot_z(t[0, 2]), 1e-15)
    assert abs(zxz[2, 1] / s[1] - c[2]) < 1e-12  # (2.4.2) corrected c3 = +r32/s2
    assert abs(-zxz[2, 1] / s[1] - c[2]) > 0.01  # printed −r32/s2 is wrong
    t[:, 1] = RNG.uniform(-np.pi / 2, np.pi / 2, 50)
    check(xyz_angles(rotation_from_xyz(t)).angles, t, 1e-12)
    c, s = np.cos(t[0]), np.sin(t[0])
    xyz = np.array(
        [
            [c[1] * c[2], -c[1] * s[2], s[1]],  # (2.4.3)
            [c[0] * s[2] + s[0] * s[1] * c[2], c[0] * c[2] - s[0] * s[1] * s[2], -s[0] * c[1]],
            [s[0] * s[2] - c[0] * s[1] * c[2], s[0] * c[2] + c[0] * s[1] * s[2], c[0] * c[1]],
        ]
    )
    check(rotation_from_xyz(t[0]), xyz, 1e-15)
    check(rotation_from_xyz(t[0]), rot_x(t[0, 0]) @ rot_y(t[0, 1]) @ rot_z(t[0, 2]), 1e-15)


@pytest.mark.parametrize(
    "theta2, get, build, elementary",
    [
        (0.0, zxz_angles, rotation_from_zxz, (rot_z, rot_x, rot_z)),
        (np.pi, zxz_angles, rotation_from_zxz, (rot_z, rot_x, rot_z)),
        (np.pi / 2, xyz_angles, rotation_from_xyz, (rot_x, rot_y, rot_z)),
        (-np.pi / 2, xyz_angles, rotation_from_xyz, (rot_x, rot_y, rot_z)),
    ],
)
def test_angle_singularities_are_flagged_and_still_rebuild(theta2, get, build, elementary):
    A, B, C = elementary
    Rs = np.array([A(t1) @ B(theta2) @ C(t3) for t1, t3 in RNG.uniform(-3, 3, (10, 2))])
    angles, singular = get(Rs)
    assert np.all(singular)
    check(angles[:, 2], np.zeros(10), 0.0)  # θ3 = 0 convention
    check(angles[:, 1], np.full(10, theta2), 1e-12)
    check(build(angles), Rs, 1e-12)
    for offset in (1e-6, 1e-3):  # near, not at, the singularity
        angles, singular = get(A(0.4) @ B(theta2 - offset) @ C(-1.1))
        assert not singular
        check(build(angles), A(0.4) @ B(theta2 - offset) @ C(-1.1), 1e-12)


# ----------------------------------------------------------------------------- identities
def test_vect_and_trace_identities_for_skew_times_matrix():
    """(3.3.1.14): vect(SP) = ½[tr(P)1 − P]vect(S); tr(SP) = −2 vect(S)·vect(P)."""
    for v, P in zip(RNG.normal(size=(20, 3)), RNG.normal(size=(20, 3, 3)), strict=True):
        S = skew(v)
        check(vect(S @ P), 0.5 * (np.trace(P) * np.eye(3) - P) @ vect(S), 1e-14)
        assert abs(np.trace(S @ P) + 2 * vect(S) @ vect(P)) < 1e-13


def test_inverse_of_trace_matrix():
    """§3.4: [tr(R)1 − R]⁻¹ = [tr(R)R + Rᵀ]/(tr²R − 1), tr²R − 1 = 4cos φ(1 + cos φ)."""
    for R in RANDOM[:50]:
        t = np.trace(R)
        inverse = (t * R + R.T) / (t * t - 1)
        check(np.linalg.inv(t * np.eye(3) - R), inverse, 1e-9, scale=np.abs(inverse).max())
        lam0 = linear_invariants(R).lam0
        assert abs(t * t - 1 - 4 * lam0 * (1 + lam0)) < 1e-13


def test_printed_reconstruction_coefficient_does_not_rebuild_r():
    """Erratum (2.4.12): the printed (1 − λ0)/λ0 in place of 1/(1 + λ0) is wrong."""
    lam, lam0 = linear_invariants(RANDOM)
    keep = (
        (np.linalg.norm(lam, axis=-1) > 0.3) & (np.abs(lam0 - 0.618) > 0.1) & (np.abs(lam0) > 0.05)
    )
    lam, lam0 = lam[keep], lam0[keep]
    outer = lam[:, :, None] * lam[:, None, :]
    base = lam0[:, None, None] * np.eye(3) + np.array([skew(v) for v in lam])
    printed = base + ((1 - lam0) / lam0)[:, None, None] * outer
    corrected = base + (1 / (1 + lam0))[:, None, None] * outer
    check(corrected, RANDOM[keep], 1e-12)
    assert np.all(np.abs(printed - RANDOM[keep]).max(axis=(1, 2)) > 1e-3)
    T3_printed = (
        -0.5 * np.eye(3)
        + (1.5 / -0.5) * np.outer([0.5, 0.5, -0.5], [0.5, 0.5, -0.5])
        + skew([0.5, 0.5, -0.5])
    )
    assert rebuild_error(T3_printed, T3_R) > 0.5


# ------------------------------------------------------------------------------- rates
def test_angular_velocity_and_invariant_rates_against_central_differences():
    """(3.3.2.1) ω = vect(ṘRᵀ); (3.3.2.6) λ̇ = ½[tr(R)1 − R]ω; λ̇0 = −λ·ω; φ̇ = eᵀω."""
    h = 1e-5
    for a, R0 in zip(AXES[:5], RANDOM[:5], strict=True):

        def R(t, a=a, R0=R0):
            return rot_axis(a, 0.7 + 1.3 * t + 0.4 * t * t) @ R0

        t = 0.3
        phidot = 1.3 + 0.8 * t
        Rdot = (R(t + h) - R(t - h)) / (2 * h)
        omega = angular_velocity(R(t), Rdot)
        check(omega, phidot * a, 1e-9)
        lam_dot, lam0_dot = invariant_rates(R(t), omega)
        lp, l0p = linear_invariants(R(t + h))
        lm, l0m = linear_invariants(R(t - h))
        check(lam_dot, (lp - lm) / (2 * h), 1e-9)
        assert abs(lam0_dot - (l0p - l0m) / (2 * h)) < 1e-9
        e = axis_angle(R(t)).e
        phi_rate = (axis_angle(R(t + h)).phi - axis_angle(R(t - h)).phi) / (2 * h)
        assert abs(phi_rate - e @ omega) < 1e-8  # (3.3.2.8)


def test_stacks_broadcast_over_leading_axes():
    Rs = random_rotations(20, RNG).reshape(4, 5, 3, 3)
    omega = RNG.normal(size=(4, 5, 3))
    lam, lam0 = linear_invariants(Rs)
    assert lam.shape == (4, 5, 3) and lam0.shape == (4, 5)
    assert axis_angle(Rs).phi.shape == (4, 5) and zxz_angles(Rs).singular.shape == (4, 5)
    assert rotation_from_invariants(lam, lam0).shape == (4, 5, 3, 3)
    lam_dot, lam0_dot = invariant_rates(Rs, omega)
    check(lam_dot[2, 3], invariant_rates(Rs[2, 3], omega[2, 3])[0], 0.0)
    assert lam0_dot.shape == (4, 5)
    check(xyz_angles(Rs).angles[1, 4], xyz_angles(Rs[1, 4]).angles, 0.0)
    assert np.ndim(linear_invariants(T3_R).lam0) == 0 and isinstance(
        zxz_angles(T3_R).singular, (bool, np.bool_)
    )


# ---------------------------------------------------------------------------- bad input
GOOD = RANDOM[0]
SCALED = 1.2 * np.eye(3)
REFLECTION = np.diag([1.0, 1.0, -1.0])
NAN_R = GOOD.copy()
NAN_R[0, 0] = np.nan


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: linear_invariants(SCALED), r"^R: expected a proper rotation.*RᵀR − 1\| = 0\.44"),
        (lambda: euler_parameters(REFLECTION), r"^R: expected a proper rotation.*det R − 1\| = 2"),
        (lambda: axis_angle(np.eye(3)[:, :2]), r"^R: expected shape \(\.\.\., 3, 3\)"),
        (lambda: zxz_angles(NAN_R), r"^R: expected finite"),
        (lambda: xyz_angles("not a matrix"), r"^R: expected a numeric array"),
        (lambda: rodrigues_parameters(SCALED), r"^R: expected a proper rotation"),
        (lambda: angular_velocity(SCALED, GOOD), r"^R: expected a proper rotation"),
        (lambda: angular_velocity(GOOD, NAN_R), r"^Rdot: expected finite"),
        (lambda: invariant_rates(GOOD, [1.0, 2.0]), r"^omega: expected shape \(\.\.\., 3\)"),
        (lambda: vect(np.eye(2)), r"^A: expected shape"),
        (lambda: rotation_from_invariants([0.5, 0.0, 0.0], 0.5), r"^lam, lam0: .*2\.4\.11"),
        (
            lambda: euler_parameters_from_invariants([0.0, 0.0, 0.0], np.inf),
            r"^lam0: expected finite",
        ),
        (lambda: rotation_from_invariants([0.0, 0.0, 0.0], -1.0), r"^axis: required"),
        (
            lambda: rotation_from_invariants([0, 0, 0], -1.0, axis=[1.0, 1.0, 0]),
            r"^axis: expected a unit",
        ),
        (
            lambda: rotation_from_invariants([0.6, 0, 0], -0.8, axis=[0, 1.0, 0]),
            r"^axis: expected parallel",
        ),
        (lambda: rotation_from_axis_angle([1.0, 1.0, 0.0], 0.3), r"^e: expected a unit vector"),
        (lambda: rotation_from_axis_angle([1.0, 0.0, 0.0], np.nan), r"^phi: expected finite"),
        (lambda: rotation_from_euler_parameters(0.5, [0.5, 0.0, 0.0]), r"^q0, q: expected unit"),
        (lambda: invariants_from_euler_parameters(1.0, [[0.0, 0.0]]), r"^q: expected shape"),
        (lambda: rotation_from_rodrigues([np.inf, 0.0, 0.0]), r"^p: expected finite"),
        (lambda: rotation_from_zxz([0.1, 0.2]), r"^angles: expected shape"),
        (lambda: rotation_from_xyz([0.1, np.nan, 0.2]), r"^angles: expected finite"),
    ],
)
def test_bad_input_raises_value_error_naming_the_field(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_rotations_within_tolerance_are_accepted():
    nearly = GOOD + 1e-12
    assert np.isfinite(linear_invariants(nearly).lam0)
    with pytest.raises(ValueError, match="^R:"):
        linear_invariants(GOOD + 1e-6)
