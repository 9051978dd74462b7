"""Wheeled-platform kinematics in Sheth–Uicker notation: Araujo (2012) eqs 3.4–3.21.

Seed 003, Ch. III, "Cinemática de la plataforma móvil", after Muir & Neuman.

Frames: R on the robot (origin at the rear-axle midpoint, x forward), H_i at wheel i's
steering joint, S_i turned by the steering angle, C_i at the wheel–floor contact (x along
the wheel). A wheel's rates are q̇_i = [ẋ_C, ẏ_C, θ̇_C, θ̇_S]: its contact frame's rolling
velocity, lateral slip and rotation relative to the floor, and the steering rate. The
robot's velocity ṗ = [ẋ_R, ẏ_R, θ̇_R] (in R) follows from each wheel (3.13, with the
signs the OCR lost):

    ẋ_R = cos θ_C ẋ_C − sin θ_C ẏ_C + y_C θ̇_C − y_H θ̇_S
    ẏ_R = sin θ_C ẋ_C + cos θ_C ẏ_C − x_C θ̇_C + x_H θ̇_S
    θ̇_R = θ̇_C − θ̇_S

(θ_C the contact frame's heading in R, (x_C, y_C) its position, (x_H, y_H) the steering
joint's). Eq 3.12 as printed swaps x_C and y_C (and ẋ, ẏ) in the contact term and x_H,
y_H in the steering term, and the position formulas under it flip the sign of the sine
term; the form above is checked against the exact transform chain. Stacking the N
wheels, A ṗ = B q̇ with A = [I₃; …; I₃] and B = diag(J̄_i); the least-squares body
velocity is ṗ = (AᵀA)⁻¹AᵀB q̇ (3.15; printed (AAᵀ)⁻¹, which has the wrong size) and the
wheel rates are consistent (no slip) when Ω(A) B q̇ = 0 with
Ω(A) = A(AᵀA)⁻¹Aᵀ − I (3.16–3.17).

For the tricycle (3.18) the rear wheels' third row is [0, 1] (θ̇_R = θ̇_C; printed [0, 0]),
and differentiating (3.19) gives the body-frame derivative (3.20–3.21, third entry
β̇ cos β / b, printed "β̇/m * cos β/m"); the inertial acceleration of R also has the
lateral V θ̇ that (3.21) leaves out (it gives ÿ_R = 0: differentiating the body-frame
velocity (3.19) drops the rotation of R, the step the thesis quotes Muir & Neuman as
warning against).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._args import finite_array, finite_number
from .steered_cart import _steering


def planar_transform(theta, x, y, z=0.0) -> np.ndarray:
    """The 4×4 homogeneous transform of Table 3.2: a turn θ about z and a shift (x, y, z)."""
    theta, x, y, z = (
        finite_number(v, k) for v, k in ((theta, "theta"), (x, "x"), (y, "y"), (z, "z"))
    )
    c, s = np.cos(theta), np.sin(theta)
    return np.array([[c, -s, 0.0, x], [s, c, 0.0, y], [0.0, 0.0, 1.0, z], [0.0, 0.0, 0.0, 1.0]])


def wheel_jacobian(theta_C, contact, steer_point=(0.0, 0.0), *, steered: bool = True):
    """J̄_i (3, 4) from q̇_i = [ẋ_C, ẏ_C, θ̇_C, θ̇_S] to ṗ = [ẋ_R, ẏ_R, θ̇_R] (3.13);
    (3, 3) without the steering column when ``steered`` is False."""
    th = finite_number(theta_C, "theta_C")
    x_c, y_c = finite_array(contact, "contact", (2,))
    x_h, y_h = finite_array(steer_point, "steer_point", (2,))
    c, s = np.cos(th), np.sin(th)
    J = np.array([[c, -s, y_c, -y_h], [s, c, -x_c, x_h], [0.0, 0.0, 1.0, -1.0]])
    return J if steered else J[:, :3]


class CompositeResult(NamedTuple):
    """Least-squares body velocity ṗ (3,) and the no-slip residual Ω(A) B q̇ (3N,)."""

    body_velocity: np.ndarray
    residual: np.ndarray


def composite(jacobians, wheel_rates) -> CompositeResult:
    """ṗ = (AᵀA)⁻¹AᵀB q̇ and Ω(A)B q̇ for wheels with Jacobians J̄_i (3, k_i) and rates
    q̇_i (k_i,) (3.14–3.17). AᵀA = N·I₃, so ṗ is the mean of the wheels' J̄_i q̇_i."""
    if len(jacobians) == 0 or len(jacobians) != len(wheel_rates):
        raise ValueError("wheel_rates: expected one rate vector per wheel Jacobian")
    each = []
    for i, (J, qd) in enumerate(zip(jacobians, wheel_rates, strict=True)):
        J = finite_array(J, f"jacobians[{i}]")
        if J.ndim != 2 or J.shape[0] != 3:
            raise ValueError(f"jacobians[{i}]: expected shape (3, k), got {J.shape}")
        each.append(J @ finite_array(qd, f"wheel_rates[{i}]", (J.shape[1],)))
    Bq = np.concatenate(each)
    p = np.mean(each, axis=0)  # (AᵀA)⁻¹Aᵀ B q̇
    return CompositeResult(p, np.tile(p, len(each)) - Bq)  # Ω(A) B q̇ = A ṗ − B q̇


def slip_residual_norm(jacobians, wheel_rates) -> float:
    """‖Ω(A) B q̇‖: zero when the wheel rates agree on one body velocity."""
    return float(np.linalg.norm(composite(jacobians, wheel_rates).residual))


def _geometry(r, l, b):
    r = finite_number(r, "r")
    l = finite_number(l, "l")
    b = finite_number(b, "b")
    if r <= 0:
        raise ValueError(f"r: the wheel radius must be > 0, got {r}")
    if b <= 0:
        raise ValueError(f"b: the wheelbase must be > 0, got {b}")
    if l < 0:
        raise ValueError(f"l: the half track must be >= 0, got {l}")
    return r, l, b


def tricycle_wheel_jacobians(beta, r, l, b):
    """(J1, J2, J3) of (3.18): the right (y = −l) and left (y = +l) rear wheels, rates
    [φ̇ spin, θ̇_C] (ẋ_C = r φ̇), and the steered front wheel at (b, 0), rates
    [ẋ_C, θ̇_C, θ̇_S]."""
    _, c = _steering(beta)
    r, l, b = _geometry(r, l, b)
    s = np.sin(beta)
    J1 = np.array([[r, -l], [0.0, 0.0], [0.0, 1.0]])
    J2 = np.array([[r, l], [0.0, 0.0], [0.0, 1.0]])
    J3 = np.array([[c, 0.0, 0.0], [s, -b, b], [0.0, 1.0, -1.0]])
    return J1, J2, J3


def tricycle_wheel_rates(beta, V, beta_dot, r, l, b):
    """Consistent rates (q̇1, q̇2, q̇3) for the rear-axle midpoint speed V and the steering
    rate: rear spins (V ± l θ̇)/r (right wheel +, it is outside a left turn), front
    contact speed V / cos β (the front wheel spins at V / (r cos β)), θ̇_C = θ̇ at the rear
    and θ̇ + β̇ at the front, θ̇ = V tan β / b."""
    t, c = _steering(beta)
    r, l, b = _geometry(r, l, b)
    V, beta_dot = finite_number(V, "V"), finite_number(beta_dot, "beta_dot")
    yaw = V * t / b
    return (
        np.array([(V + l * yaw) / r, yaw]),
        np.array([(V - l * yaw) / r, yaw]),
        np.array([V / c, yaw + beta_dot, beta_dot]),
    )


def tricycle_body_velocity(beta, front_speed, b):
    """(3.19): ṗ = [cos β, 0, sin β / b] ẋ_C, ẋ_C the front contact's speed."""
    _, c = _steering(beta)
    b = _geometry(1.0, 0.0, b)[2]
    return np.array([c, 0.0, np.sin(beta) / b]) * finite_number(front_speed, "front_speed")


def tricycle_body_acceleration(
    beta, beta_dot, front_speed, front_accel, b, *, thesis: bool = False
):
    """The acceleration of R in R's axes. ``thesis``: (3.20–3.21), the time derivative of
    (3.19)'s components, lateral 0; default: the inertial acceleration, whose lateral
    component is V θ̇ (V = ẋ_C cos β, θ̇ = ẋ_C sin β / b)."""
    _, c = _steering(beta)
    b = _geometry(1.0, 0.0, b)[2]
    bd = finite_number(beta_dot, "beta_dot")
    xc, xcd = finite_number(front_speed, "front_speed"), finite_number(front_accel, "front_accel")
    s = np.sin(beta)
    acc = np.array([-bd * s * xc + c * xcd, 0.0, (bd * c * xc + s * xcd) / b])
    if not thesis:
        acc[1] = (c * xc) * (s * xc / b)
    return acc
