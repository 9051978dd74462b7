"""Second, independent checks of eslabon.mobile.wheel_kinematics: seed 003 (Araujo 2012)
eqs 3.4–3.21 and Tables 3.2–3.3 (Ch. III, "Cinemática de la plataforma móvil"), with the
thesis's misprints there: (3.13) lost its signs; (3.15) and Ω(A) print (A·Aᵀ)⁻¹ for
(AᵀA)⁻¹; (3.18) prints the rear wheels' third rows [0, 0] for [0, 1]; the third entry
of (3.21) is garbled ("β̇/m * cos β/m" for β̇ cos β / m), and (3.21) has no lateral V θ̇.

tests/test_wheel_kinematics.py differentiates the chain from a prescribed body motion and
integrates the heading by quadrature. Here the checks run the other way, or in closed
form:
- the wheel Jacobian is checked from prescribed wheel rates through the closed chain
  F→R̄→R→H→S→C = F→C̄→C (3.6–3.7), by central differences and by the exact velocity
  cascade (3.11);
- the tricycle's Jacobians are checked against the general wheel Jacobian;
- the composite is checked against explicit A, B and Ω(A);
- the wheel rates are checked against rigid-body contact velocities;
- the acceleration is checked along a path whose heading and speed are given in closed
  form.
"""

import numpy as np
import pytest

from eslabon.mobile.wheel_kinematics import (
    composite,
    planar_transform,
    slip_residual_norm,
    tricycle_body_acceleration,
    tricycle_body_velocity,
    tricycle_wheel_jacobians,
    tricycle_wheel_rates,
    wheel_jacobian,
)

R_WHEEL, L_HALF, B = 0.2, 0.314, 0.9  # Annex 3 (Seekur Jr.): r, l = l_E, b = m
BETAS_DEG = [-79.0, -60.0, -25.0, 0.0, 10.0, 45.0, 79.0]


def _random_wheel(rng):
    """Constant ^RΠ_H, ^SΠ_C (Table 3.2), the steering angle ^Hθ_S and wheel rates q̇."""
    R_T_H = planar_transform(rng.uniform(-np.pi, np.pi), *rng.uniform(-1.5, 1.5, 2))
    S_T_C = planar_transform(rng.uniform(-0.6, 0.6), *rng.uniform(-0.3, 0.3, 2))
    steer = rng.uniform(-1.2, 1.2)
    rates = rng.normal(size=4)  # ẋ_C̄, ẏ_C̄, θ̇_C̄ (contact vs floor), θ̇_S
    return R_T_H, S_T_C, steer, rates


def _contact_geometry(R_T_H, S_T_C, steer):
    """^Rθ_C, (^Rx_C, ^Ry_C) and (^Rx_H, ^Ry_H) from the chain R→H→S→C."""
    R_T_C = R_T_H @ planar_transform(steer, 0.0, 0.0) @ S_T_C
    return np.arctan2(R_T_C[1, 0], R_T_C[0, 0]), R_T_C[:2, 3], R_T_H[:2, 3]


def _Rbar_T_R(t, F_T_Rbar, R_T_H, S_T_C, steer, qd):
    """R̄Π_R(t) = R̄Π_F·FΠ_C̄·C̄Π_C(t)·CΠ_S·SΠ_H(t)·HΠ_R (3.7). FΠ_C̄ is fixed by the closed
    chain (3.6) at t = 0. C̄Π_C(t) moves with the contact rates, and HΠ_S(t) turns at θ̇_S."""
    F_T_Cbar = F_T_Rbar @ R_T_H @ planar_transform(steer, 0, 0) @ S_T_C
    Cbar_T_C = planar_transform(qd[2] * t, qd[0] * t, qd[1] * t)
    R_T_C = R_T_H @ planar_transform(steer + qd[3] * t, 0, 0) @ S_T_C
    return np.linalg.inv(F_T_Rbar) @ F_T_Cbar @ Cbar_T_C @ np.linalg.inv(R_T_C)


def test_wheel_jacobian_from_the_closed_chain_by_differences():
    """seed 003 (Araujo 2012) eqs 3.4–3.7, 3.13: set the wheel rates, let
    C̄Π_C(t) and HΠ_S(t) move with them (the identity and the steering angle at t = 0),
    solve the closed chain for R̄Π_R(t) = R̄Π_F·FΠ_C̄·C̄Π_C·CΠ_S·SΠ_H·HΠ_R (3.7), and take
    central differences. d/dt R̄Π_R has the Table 3.3 form, and its entries
    [ẋ_R, ẏ_R, θ̇_R] equal J̄ q̇ to 1e-8 (floor pose, geometry and rates are random)."""
    rng = np.random.default_rng(3013)
    worst = 0.0
    for _ in range(25):
        R_T_H, S_T_C, steer, qd = _random_wheel(rng)
        F_T_Rbar = planar_transform(rng.uniform(-np.pi, np.pi), *rng.uniform(-5, 5, 2))
        np.testing.assert_allclose(
            _Rbar_T_R(0.0, F_T_Rbar, R_T_H, S_T_C, steer, qd), np.eye(4), atol=1e-12
        )
        h = 1e-5
        D = (
            _Rbar_T_R(h, F_T_Rbar, R_T_H, S_T_C, steer, qd)
            - _Rbar_T_R(-h, F_T_Rbar, R_T_H, S_T_C, steer, qd)
        ) / (2 * h)
        # Table 3.3 structure: skew rotational block, no z motion
        assert abs(D[0, 0]) < 1e-8 and abs(D[1, 1]) < 1e-8 and abs(D[0, 1] + D[1, 0]) < 1e-8
        assert np.abs(D[2:, :]).max() < 1e-12 and np.abs(D[:2, 2]).max() < 1e-12
        p_dot = np.array([D[0, 3], D[1, 3], D[1, 0]])
        theta_C, contact, steer_point = _contact_geometry(R_T_H, S_T_C, steer)
        J = wheel_jacobian(theta_C, contact, steer_point)
        assert J.shape == (3, 4)
        worst = max(worst, np.abs(J @ qd - p_dot).max())
    assert worst < 1e-8, worst


def test_wheel_jacobian_equals_the_velocity_cascade_and_not_the_printed_signs():
    """seed 003 (Araujo 2012) eqs 3.11–3.13 (3.13 printed without its signs): the velocity cascade
    (3.11), evaluated with exact matrices,
        R̄Π̇_R = RΠ_C·C̄Π̇_C·CΠ_R + RΠ_H·HΠ_S·(d/dt SΠ_H)·HΠ_R,
    with d/dt SΠ_H = −SΠ_H·HΠ̇_S·SΠ_H and HΠ̇_S from Table 3.3, equals the sign-corrected J̄ q̇
    to 1e-12. The 3.13 matrix as printed (all entries +) fails for generic geometry."""
    rng = np.random.default_rng(11)
    for _ in range(25):
        R_T_H, S_T_C, steer, qd = _random_wheel(rng)
        H_T_S = planar_transform(steer, 0, 0)
        R_T_C = R_T_H @ H_T_S @ S_T_C
        Cbar_dT_C = np.zeros((4, 4))  # Table 3.3, C̄–C
        Cbar_dT_C[:2, :2] = [[0.0, -qd[2]], [qd[2], 0.0]]
        Cbar_dT_C[:2, 3] = qd[:2]
        c, s = np.cos(steer), np.sin(steer)
        H_dT_S = np.zeros((4, 4))  # Table 3.3, H–S
        H_dT_S[:2, :2] = qd[3] * np.array([[-s, -c], [c, -s]])
        S_T_H = np.linalg.inv(H_T_S)
        S_dT_H = -S_T_H @ H_dT_S @ S_T_H
        D = R_T_C @ Cbar_dT_C @ np.linalg.inv(R_T_C) + R_T_H @ H_T_S @ S_dT_H @ np.linalg.inv(
            R_T_H
        )  # (3.11)
        p_dot = np.array([D[0, 3], D[1, 3], D[1, 0]])
        theta_C, (x_C, y_C), (x_H, y_H) = _contact_geometry(R_T_H, S_T_C, steer)
        np.testing.assert_allclose(
            wheel_jacobian(theta_C, (x_C, y_C), (x_H, y_H)) @ qd, p_dot, atol=1e-12
        )
        printed = np.array(
            [
                [np.cos(theta_C), -np.sin(theta_C), y_C, y_H],
                [np.sin(theta_C), np.cos(theta_C), x_C, x_H],
                [0.0, 0.0, 1.0, -1.0],
            ]
        )
        assert np.abs(printed @ qd - p_dot).max() > 1e-3


def test_fixed_wheel_drops_the_steering_column():
    """seed 003 (Araujo 2012) eq 3.13 (fixed wheels: H = S, Table 3.1): steered=False
    gives the 3×3 Jacobian of [ẋ_C, ẏ_C, θ̇_C]. It equals the first three columns and
    the full Jacobian with θ̇_S = 0."""
    rng = np.random.default_rng(5)
    theta_C, contact, steer_point = rng.uniform(-3, 3), rng.normal(size=2), rng.normal(size=2)
    full = wheel_jacobian(theta_C, contact, steer_point)
    fixed = wheel_jacobian(theta_C, contact, steer_point, steered=False)
    assert fixed.shape == (3, 3)
    np.testing.assert_array_equal(fixed, full[:, :3])
    qd = rng.normal(size=3)
    np.testing.assert_allclose(fixed @ qd, full @ np.append(qd, 0.0), atol=1e-15)


@pytest.mark.parametrize("beta_deg", BETAS_DEG)
def test_tricycle_jacobians_are_the_general_wheel_jacobian(beta_deg):
    """seed 003 (Araujo 2012) eqs 3.13 and 3.18. J1 is the fixed
    wheel at (0, −l) (right); its columns are ẋ_C = r φ̇ (scaled by r) and θ̇_C, since
    ẏ_C = 0 (no skid). J2 is the same wheel at (0, +l). J3 is the wheel steered by β with
    contact = steer point = (b, 0), columns [ẋ_C, θ̇_C, θ̇_S]. The rear third rows come out
    [0, 1], not the printed [0, 0]."""
    beta = np.radians(beta_deg)
    J1, J2, J3 = tricycle_wheel_jacobians(beta, R_WHEEL, L_HALF, B)
    rear = np.diag([R_WHEEL, 1.0])
    np.testing.assert_allclose(
        J1, wheel_jacobian(0.0, (0.0, -L_HALF), steered=False)[:, [0, 2]] @ rear, atol=1e-15
    )
    np.testing.assert_allclose(
        J2, wheel_jacobian(0.0, (0.0, L_HALF), steered=False)[:, [0, 2]] @ rear, atol=1e-15
    )
    np.testing.assert_allclose(
        J3, wheel_jacobian(beta, (B, 0.0), (B, 0.0))[:, [0, 2, 3]], atol=1e-15
    )
    assert J1[2].tolist() == [0.0, 1.0] and J2[2].tolist() == [0.0, 1.0]


def test_composite_is_the_explicit_least_squares_and_projector():
    """seed 003 (Araujo 2012) eqs 3.14–3.17 (3.15 printed with (A·Aᵀ)⁻¹). For random wheels
    with 2–4 rates each, build A = [I₃; …] and B = blockdiag(J̄_i) explicitly. ṗ equals
    lstsq(A, B q̇) and (AᵀA)⁻¹AᵀB q̇; the residual equals (A(AᵀA)⁻¹Aᵀ − I) B q̇;
    slip_residual_norm is its norm. The printed (AAᵀ) (3N×3N) has rank 3, so it cannot
    be inverted."""
    rng = np.random.default_rng(17)
    for n_wheels in (1, 2, 3, 5):
        Js = [rng.normal(size=(3, rng.integers(2, 5))) for _ in range(n_wheels)]
        qds = [rng.normal(size=J.shape[1]) for J in Js]
        A = np.vstack([np.eye(3)] * n_wheels)
        B = np.zeros((3 * n_wheels, sum(J.shape[1] for J in Js)))
        col = 0
        for i, J in enumerate(Js):
            B[3 * i : 3 * i + 3, col : col + J.shape[1]] = J
            col += J.shape[1]
        Bq = B @ np.concatenate(qds)
        result = composite(Js, qds)
        np.testing.assert_allclose(
            result.body_velocity, np.linalg.lstsq(A, Bq, rcond=None)[0], atol=1e-13
        )
        np.testing.assert_allclose(
            result.body_velocity, np.linalg.solve(A.T @ A, A.T @ Bq), atol=1e-13
        )
        Omega = A @ np.linalg.inv(A.T @ A) @ A.T - np.eye(3 * n_wheels)
        np.testing.assert_allclose(result.residual, Omega @ Bq, atol=1e-13)
        assert slip_residual_norm(Js, qds) == pytest.approx(np.linalg.norm(Omega @ Bq), abs=1e-13)
        assert np.linalg.matrix_rank(A @ A.T) == 3
        if n_wheels > 1:
            assert np.linalg.norm(result.residual) > 1e-3  # random rates: slip


@pytest.mark.parametrize("beta_deg", BETAS_DEG)
@pytest.mark.parametrize("V, beta_dot", [(0.8, 0.3), (-1.1, -0.7)])
def test_tricycle_consistent_rates_give_3_19_and_no_slip(beta_deg, V, beta_dot):
    """seed 003 (Araujo 2012) eqs 3.15–3.19 (r = 0.2, l = 0.314, b = 0.9: Annex 3).
    The rates match rigid-body contact velocities v_R + ω×ρ: the right rear wheel at
    (0, −l) spins at (V + l θ̇)/r and the left at (V − l θ̇)/r. The front contact moves at
    ẋ_C = V/cos β along β, so its spin is V/(r cos β). θ̇_C = θ̇ at the rear and θ̇ + β̇ at
    the front, and θ̇_S = β̇. composite(...) gives [cos β, 0, sin β/b] ẋ_C (3.19) =
    [V, 0, V tan β/b] with residual < 1e-12. Perturbing any one rate by 1e-3 gives a
    residual > 1e-6."""
    beta = np.radians(beta_deg)
    yaw = V * np.tan(beta) / B
    rear_right, rear_left, front = tricycle_wheel_rates(beta, V, beta_dot, R_WHEEL, L_HALF, B)

    def contact_velocity(x, y):  # v_R + ω × ρ, in R
        return np.array([V - yaw * y, yaw * x])

    np.testing.assert_allclose(R_WHEEL * rear_right[0], contact_velocity(0, -L_HALF)[0], atol=1e-13)
    np.testing.assert_allclose(R_WHEEL * rear_left[0], contact_velocity(0, L_HALF)[0], atol=1e-13)
    v_front = contact_velocity(B, 0.0)
    np.testing.assert_allclose(
        front[0] * np.array([np.cos(beta), np.sin(beta)]), v_front, atol=1e-12
    )
    np.testing.assert_allclose(front[0] / R_WHEEL, V / (R_WHEEL * np.cos(beta)), rtol=1e-13)
    np.testing.assert_allclose(
        [rear_right[1], rear_left[1], front[1], front[2]],
        [yaw, yaw, yaw + beta_dot, beta_dot],
        atol=1e-14,
    )

    jacobians = tricycle_wheel_jacobians(beta, R_WHEEL, L_HALF, B)
    rates = (rear_right, rear_left, front)
    result = composite(jacobians, rates)
    np.testing.assert_allclose(
        result.body_velocity, tricycle_body_velocity(beta, front[0], B), atol=1e-12
    )
    np.testing.assert_allclose(
        result.body_velocity, np.array([np.cos(beta), 0.0, np.sin(beta) / B]) * front[0], atol=1e-12
    )
    np.testing.assert_allclose(result.body_velocity, [V, 0.0, yaw], atol=1e-12)
    assert np.abs(result.residual).max() < 1e-12
    smallest = np.inf
    for wheel in range(3):
        for k in range(len(rates[wheel])):
            bad = [q.copy() for q in rates]
            bad[wheel][k] += 1e-3
            smallest = min(smallest, slip_residual_norm(jacobians, bad))
    assert smallest > 1e-6, smallest


def _closed_form_path(t):
    """Heading θ(t) and rear-axle speed V(t) in closed form, with their first
    derivatives, and the steering they imply: tan β = b θ̇ / V (no front skid),
    ẋ_C = V / cos β = V √(1 + u²), u = tan β."""
    theta = 0.3 * np.sin(1.3 * t) + 0.2 * t
    theta_d = 0.39 * np.cos(1.3 * t) + 0.2
    theta_dd = -0.507 * np.sin(1.3 * t)
    V, V_d = 1.2 + 0.4 * t - 0.5 * t**2, 0.4 - 1.0 * t
    u = B * theta_d / V
    u_d = B * (theta_dd * V - theta_d * V_d) / V**2
    root = np.sqrt(1.0 + u * u)
    return {
        "theta": theta,
        "theta_d": theta_d,
        "V": V,
        "beta": np.arctan(u),
        "beta_d": u_d / (1 + u * u),
        "front_speed": V * root,
        "front_accel": V_d * root + V * u * u_d / root,
    }


@pytest.mark.parametrize("t0", [0.0, 0.6, 1.3, 2.9])  # V < 0 at t0 = 2.9 (reversing)
def test_tricycle_acceleration_along_a_closed_form_path(t0):
    """seed 003 (Araujo 2012) eqs 3.19–3.21 (3.21 without the lateral V θ̇). The path has
    θ(t) and V(t) in closed form, and β(t), ẋ_C(t) follow from them (no quadrature). The
    default acceleration equals the floor-frame velocity V[cos θ, sin θ] differentiated
    by central differences and rotated into R, with θ̈ from differences of θ̇, to 1e-7.
    thesis=True equals the central differences of the 3.19 components (the third entry
    is β̇ cos β ẋ_C / b + sin β ẍ_C / b), also to 1e-7. The two differ exactly by the
    lateral V θ̇."""
    h = 1e-4
    now, ahead, behind = (_closed_form_path(t0 + d) for d in (0.0, h, -h))

    def floor_velocity(p):
        return p["V"] * np.array([np.cos(p["theta"]), np.sin(p["theta"])])

    a_floor = (floor_velocity(ahead) - floor_velocity(behind)) / (2 * h)
    c, s = np.cos(now["theta"]), np.sin(now["theta"])
    a_in_R = np.array(
        [
            c * a_floor[0] + s * a_floor[1],
            -s * a_floor[0] + c * a_floor[1],
            (ahead["theta_d"] - behind["theta_d"]) / (2 * h),
        ]
    )
    args = (now["beta"], now["beta_d"], now["front_speed"], now["front_accel"], B)
    inertial = tricycle_body_acceleration(*args)
    np.testing.assert_allclose(inertial, a_in_R, atol=1e-7)

    components_rate = (
        tricycle_body_velocity(ahead["beta"], ahead["front_speed"], B)
        - tricycle_body_velocity(behind["beta"], behind["front_speed"], B)
    ) / (2 * h)
    thesis = tricycle_body_acceleration(*args, thesis=True)
    np.testing.assert_allclose(thesis, components_rate, atol=1e-7)
    assert thesis[1] == 0.0
    np.testing.assert_allclose(inertial - thesis, [0.0, now["V"] * now["theta_d"], 0.0], atol=1e-12)


def test_results_stay_finite_next_to_the_steering_limit():
    """seed 003 (Araujo 2012) eqs 3.18–3.21: just inside ±90° (1e-6 rad
    away) every tricycle function returns finite numbers and the rates are still
    consistent (relative residual < 1e-9)."""
    for beta in (np.pi / 2 - 1e-6, -np.pi / 2 + 1e-6):
        Js = tricycle_wheel_jacobians(beta, R_WHEEL, L_HALF, B)
        rates = tricycle_wheel_rates(beta, 0.5, 0.2, R_WHEEL, L_HALF, B)
        result = composite(Js, rates)
        values = [
            *Js,
            *rates,
            result.body_velocity,
            result.residual,
            tricycle_body_velocity(beta, 1.0, B),
            tricycle_body_acceleration(beta, 0.3, 1.0, 0.1, B),
            tricycle_body_acceleration(beta, 0.3, 1.0, 0.1, B, thesis=True),
        ]
        assert all(np.all(np.isfinite(v)) for v in values)
        scale = max(np.abs(J @ q).max() for J, q in zip(Js, rates, strict=True))
        assert np.abs(result.residual).max() < 1e-9 * scale


STEERING = r"beta: the steering angle must be within \(-90°, 90°\)"
BAD_INPUTS = [
    (lambda: tricycle_wheel_jacobians(np.pi / 2, R_WHEEL, L_HALF, B), STEERING),
    (lambda: tricycle_wheel_jacobians(-np.pi / 2, R_WHEEL, L_HALF, B), STEERING),
    (lambda: tricycle_wheel_rates(2.0, 1.0, 0.0, R_WHEEL, L_HALF, B), STEERING),
    (lambda: tricycle_body_velocity(np.pi / 2, 1.0, B), STEERING),
    (lambda: tricycle_body_acceleration(-np.pi / 2, 0.0, 1.0, 0.0, B), STEERING),
    (lambda: tricycle_body_velocity(np.nan, 1.0, B), r"^beta: "),
    (lambda: tricycle_wheel_jacobians(0.1, 0.0, L_HALF, B), r"^r: .*> 0"),
    (lambda: tricycle_wheel_rates(0.1, 1.0, 0.0, -0.2, L_HALF, B), r"^r: .*> 0"),
    (lambda: tricycle_wheel_jacobians(0.1, R_WHEEL, -0.1, B), r"^l: .*>= 0"),
    (lambda: tricycle_wheel_jacobians(0.1, R_WHEEL, L_HALF, 0.0), r"^b: .*> 0"),
    (lambda: tricycle_body_acceleration(0.1, 0.0, 1.0, 0.0, -B), r"^b: .*> 0"),
    (lambda: tricycle_wheel_jacobians(0.1, np.nan, L_HALF, B), r"^r: "),
    (lambda: tricycle_wheel_rates(0.1, np.nan, 0.0, R_WHEEL, L_HALF, B), r"^V: "),
    (lambda: tricycle_wheel_rates(0.1, 1.0, np.inf, R_WHEEL, L_HALF, B), r"^beta_dot: "),
    (lambda: tricycle_body_velocity(0.1, np.nan, B), r"^front_speed: "),
    (lambda: tricycle_body_acceleration(0.1, np.nan, 1.0, 0.0, B), r"^beta_dot: "),
    (lambda: tricycle_body_acceleration(0.1, 0.0, 1.0, np.inf, B), r"^front_accel: "),
    (lambda: wheel_jacobian(np.nan, (1.0, 0.0)), r"^theta_C: "),
    (lambda: wheel_jacobian(0.0, (1.0, np.nan)), r"^contact: "),
    (lambda: wheel_jacobian(0.0, (1.0, 2.0, 3.0)), r"^contact: expected shape \(2,\)"),
    (lambda: wheel_jacobian(0.0, (1.0, 2.0), (1.0,)), r"^steer_point: expected shape \(2,\)"),
    (lambda: composite([np.eye(3)[:2]], [np.ones(3)]), r"^jacobians\[0\]: expected shape"),
    (
        lambda: composite([np.eye(3), np.eye(3)], [np.ones(3), np.ones(2)]),
        r"^wheel_rates\[1\]: expected shape",
    ),
    (lambda: composite([np.eye(3)], [np.ones(3), np.ones(3)]), r"^wheel_rates: "),
    (lambda: composite([np.eye(3)], [[1.0, np.nan, 0.0]]), r"^wheel_rates\[0\]: "),
]


@pytest.mark.parametrize("call, message", BAD_INPUTS)
def test_bad_input_raises_a_named_value_error(call, message):
    """seed 003 (Araujo 2012) eqs 3.13–3.21: β at or beyond ±90°, NaN or
    inf, r ≤ 0, l < 0, b ≤ 0 and wrong shapes raise ValueError. The message starts with
    the argument's name."""
    with pytest.raises(ValueError, match=message):
        call()


def test_planar_transform_rejects_non_finite_input():
    """seed 003 (Araujo 2012) Table 3.2: a non-finite angle or offset should
    raise a ValueError naming the argument, never return NaN."""
    with pytest.raises(ValueError, match=r"^theta: "):
        planar_transform(np.nan, 0.0, 0.0)


def test_planar_transform_has_the_table_3_2_form():
    """seed 003 (Araujo 2012) Table 3.2: [[c, −s, 0, x], [s, c, 0, y],
    [0, 0, 1, z], [0, 0, 0, 1]]. Composing two transforms adds the angles and turns the
    second offset by the first angle."""
    T = planar_transform(0.7, 1.5, -2.0, 0.3)
    c, s = np.cos(0.7), np.sin(0.7)
    np.testing.assert_allclose(
        T, [[c, -s, 0, 1.5], [s, c, 0, -2.0], [0, 0, 1, 0.3], [0, 0, 0, 1]], atol=1e-15
    )
    U = planar_transform(-1.9, 0.4, 0.8)
    offset = np.array([[c, -s], [s, c]]) @ [0.4, 0.8] + [1.5, -2.0]
    np.testing.assert_allclose(T @ U, planar_transform(0.7 - 1.9, *offset, 0.3), atol=1e-14)
