"""The Cincinnati Milacron T3 of seed 000 (Rojas Salgado 1987, Table 4.4.1 = Table 5.6.1)."""

from __future__ import annotations

import numpy as np

from ..model import from_dh
from ._published import published_inertias

_D = [0.0, 1.02, 1.02, 0.2, 0.0, 0.0]  # link lengths (standard DH a)
_B = [1.5, 0.0, 0.0, 0.0, 0.0, 0.41]  # offsets (standard DH d)
_ALPHA_DEG = [90.0, 0.0, 0.0, 90.0, 90.0, 90.0]
_MASS = [680.0, 360.0, 180.0, 55.0, 36.0, 68.0]
_RHO = [
    (0.0, -0.33, 0.0),
    (-0.87, 0.0, -0.13),
    (-0.64, 0.04, 0.0),
    (-0.12, 0.04, 0.0),
    (0.0, -0.05, -0.08),
    (0.0, 0.0, 0.0),
]
_INERTIA = [
    (0.0, 62.0, 0.0),
    (11.0, 53.0, 44.0),
    (1.1, 44.0, 44.0),
    (0.44, 0.91, 0.82),
    (0.47, 0.38, 0.18),
    (0.44, 0.64, 0.73),
]

#: Initial configuration of the thesis's straight-line task (Table 4.4.1), degrees.
INITIAL_THETA_DEG = (0.0, 90.0, -135.0, 45.0, 90.0, 90.0)


@published_inertias
def cincinnati_t3(gravity=(0.0, 0.0, 9.81)):
    """Cincinnati Milacron T3 (6R), seed 000 Table 4.4.1, in the thesis's **Rojas** DH
    naming (``d`` = link length, ``b`` = offset; standard distal DH otherwise).

    Masses 680, 360, 180, 55, 36, 68 kg; centroidal offsets ρ_i and inertias (no products)
    in frame i+1 of the thesis = this model's DH frame i. No friction, no payload.

    **Gravity (0, 0, +9.81)**, as the thesis's program and every table use it
    (listing, routine FZA: ``DV(I)=-DV(I)*GRAV``); the text's (0, 0, −9.81) (§4.3, after
    eq. 4.3.13) flips every gravity torque and matches neither Table 5.4.1 nor Table
    5.6.2. Pass ``gravity=(0, 0, -9.81)`` for the physical robot.
    The task's initial configuration is ``INITIAL_THETA_DEG``.

    Link 1's published inertia diag(0, 62, 0) kg·m² (only the moment about its own joint
    axis, which is all that enters the dynamics of a base link turning about one axis)
    breaks the triangle inequality of a rigid body; it is kept as published, and the
    model loads without the warning a user's file with such an inertia gets.
    """
    rows = [
        {
            "joint": "R",
            "theta": 0.0,
            "d": _D[i],
            "b": _B[i],
            "alpha": np.radians(_ALPHA_DEG[i]),
            "mass": _MASS[i],
            "com": _RHO[i],
            "inertia": np.diag(_INERTIA[i]),
            "name": f"link{i + 1}",
        }
        for i in range(6)
    ]
    return from_dh(
        rows,
        "rojas",
        gravity=gravity,
        name="cincinnati_t3",
        source="seed 000 (Rojas Salgado 1987) Table 4.4.1",
    )


#: 7R single-loop mechanism of Rojas (1987) §3.3.3, Fig. 3.3.2 (after Angeles 1985): link
#: lengths d_i (the text's "a_i = 1", "a_7 = 3"), b_i = 0, twists α_i
SEVEN_R_D = (1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 3.0)
SEVEN_R_ALPHA_DEG = (90.0, 0.0, 90.0, 90.0, 0.0, 90.0, 0.0)
#: the symmetric solution of §3.3.3 at θ₂ = 60°: θ₁ = θ₇, θ₂ = −θ₃ = θ₅ = −θ₆, θ₄ = 2θ₁,
#: with cos θ₁ = −1.5/(2 + cos θ₂) = −0.6 from (3.3.3.7)
SEVEN_R_SYMMETRIC_DEG = (126.869898, 60.0, -60.0, 253.739795, 60.0, -60.0, 126.869898)


def seven_r_chain():
    """The 7R closed loop of seed 000 Fig. 3.3.2 cut at joint 1: joints 2..7 as an open
    6R chain (Rojas naming, unit masses for completeness) whose end frame ``ee`` must
    coincide with frame 1 to close the loop. See :func:`seven_r_loop_target`."""
    rows = [
        {
            "joint": "R",
            "theta": 0.0,
            "b": 0.0,
            "d": SEVEN_R_D[k],
            "alpha": np.radians(SEVEN_R_ALPHA_DEG[k]),
            "mass": 1.0,
            "inertia": np.eye(3) * 0.01,
            "name": f"link{k + 1}",
        }
        for k in range(1, 7)
    ]
    return from_dh(
        rows,
        "rojas",
        name="seven_r_open",
        source="seed 000 (Rojas Salgado 1987) Fig. 3.3.2, cut at joint 1",
    )


def seven_r_loop_target(theta1: float):
    """(R, p) the open chain 2..7 must reach for input angle ``theta1`` (rad): closure
    P₇ = 1 and Σ P_{i−1} a_i = 0 (§3.3.3) give R = Q₁ᵀ and p = −Q₁ᵀ a₁ in frame 2.
    Exact input–output relation on the symmetric branch: (2 + cos θ₂) cos θ₁ = −1.5."""
    from ..spatial import rot_x, rot_z

    Q1 = rot_z(theta1) @ rot_x(np.radians(SEVEN_R_ALPHA_DEG[0]))
    a1 = np.array([SEVEN_R_D[0] * np.cos(theta1), SEVEN_R_D[0] * np.sin(theta1), 0.0])
    return Q1.T, -Q1.T @ a1


def seven_r_loop_motion(theta1: float, theta1_dot: float, theta1_ddot: float):
    """(R, p, ω, ṗ, ω̇, p̈) the open chain's end must follow when the input angle moves.

    From :func:`seven_r_loop_target`, R = Q₁ᵀ = R_x(α₁)ᵀ R_z(−θ₁) and p = −d₁ R_x(α₁)ᵀ x̂:
    R turns about the fixed axis −R_x(α₁)ᵀ ẑ, so ω = −θ̇₁ R_x(α₁)ᵀ ẑ and ω̇ = −θ̈₁ R_x(α₁)ᵀ ẑ
    (world axes of the cut chain, frame 2), and p does not move (ṗ = p̈ = 0)."""
    from ..spatial import rot_x

    R, p = seven_r_loop_target(theta1)
    axis = -rot_x(np.radians(SEVEN_R_ALPHA_DEG[0])).T @ np.array([0.0, 0.0, 1.0])
    return R, p, theta1_dot * axis, np.zeros(3), theta1_ddot * axis, np.zeros(3)


def seven_r_exact(theta1: float, theta1_dot: float, theta1_ddot: float) -> tuple:
    """(θ₂, θ̇₂, θ̈₂) on the symmetric branch through θ₂ = 60°, from the exact input–output
    relation (2 + cos θ₂) cos θ₁ = −1.5 (Rojas 1987, eq. 3.3.3.7), θ₁ in (120°, 240°).

    With c = cos θ₂ = −1.5 / cos θ₁ − 2 and θ₂ = g(θ₁) = arccos c:
    g′ = 1.5 sin θ₁ / (cos²θ₁ sin θ₂), h = g′ sin θ₂ has h′ = 1.5 (cos²θ₁ + 2 sin²θ₁) / cos³θ₁,
    g″ = (h′ sin θ₂ − h cos θ₂ g′) / sin²θ₂; then θ̇₂ = g′ θ̇₁ and θ̈₂ = g″ θ̇₁² + g′ θ̈₁."""
    c1, s1 = np.cos(theta1), np.sin(theta1)
    if not -1.5 < c1 < -0.5:  # cos θ₂ = −1.5 / cos θ₁ − 2 within (−1, 1)
        raise ValueError(
            f"theta1: the loop closes on the symmetric branch for θ₁ in (120°, 240°), "
            f"got {np.degrees(theta1):.6g}°"
        )
    theta2 = float(np.arccos(-1.5 / c1 - 2.0))
    c2, s2 = np.cos(theta2), np.sin(theta2)
    h = 1.5 * s1 / c1**2
    g1 = h / s2
    h1 = 1.5 * (c1**2 + 2.0 * s1**2) / c1**3
    g2 = (h1 * s2 - h * c2 * g1) / s2**2
    return theta2, g1 * theta1_dot, g2 * theta1_dot**2 + g1 * theta1_ddot
