"""The derivative matrices of the tricycle's Sheth–Uicker transforms and their cascades by
name: Araujo (2012), Ch. III, Tables 3.2–3.4, and Annex 2, Table A.2, after Muir & Neuman.

Every transform of Table 3.2 is a turn θ about z and a shift (x, y, z) (all z axes
perpendicular to the floor). Its first and second time derivatives (Tables 3.3, 3.4) are

    Ṫ = [[−s θ̇, −c θ̇, 0, ẋ], [c θ̇, −s θ̇, 0, ẏ], [0, 0, 0, 0], [0, 0, 0, 0]]
    T̈ = [[−s θ̈ − c θ̇², −c θ̈ + s θ̇², 0, ẍ], [c θ̈ − s θ̇², −s θ̈ − c θ̇², 0, ÿ], 0, 0]

(c, s of θ). Between a frame and its instantaneously coincident one (R̄–R, C̄–C) θ = 0
at the instant, which gives the tables' forms [[0, −θ̇, 0, ẋ], [θ̇, 0, 0, ẏ], …] and
[[−θ̇², −θ̈, 0, ẍ], [θ̈, −θ̇², 0, ÿ], …]; there ẋ, ẏ, ẍ, ÿ are the frame origin's inertial
velocity and acceleration in the coincident frame's axes — the acceleration includes the
lateral V θ̇ that (3.21) drops. The steering transform H–S turns by β about a fixed
origin.

The cascades of Table A.2 differentiate a product Π = T₁ T₂ ⋯ T_m:

    Π̇ = Σᵢ T₁⋯Ṫᵢ⋯T_m
    Π̈ = Σᵢ T₁⋯T̈ᵢ⋯T_m + 2 Σ_{i<j} T₁⋯Ṫᵢ⋯Ṫⱼ⋯T_m

:func:`tricycle_tables` gives, for the thesis's tricycle at one state, every matrix of
Tables 3.2–3.4 for the steered front wheel (i = 3, frames F, R̄, R, H, S, C, C̄) and the
cascades R̄Ṫ_C, R̄T̈_C along R̄ → R → H → S → C, named as the thesis writes them
(``Rbar_Tdot_R`` is R̄Ṫ_R). Closing the chain, (3.6)–(3.11), R̄Ṫ_C = R̄T_C̄ C̄Ṫ_C and
R̄T̈_C = R̄T_C̄ C̄T̈_C: the wheel rolls without slip, C̄ẏ_C = 0.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._args import finite_array, finite_number
from .wheel_kinematics import planar_transform

_I4 = np.eye(4)

__all__ = [
    "planar_rate",
    "planar_accel",
    "velocity_cascade",
    "acceleration_cascade",
    "TricycleTables",
    "tricycle_tables",
]


def planar_rate(theta, theta_dot, x_dot=0.0, y_dot=0.0) -> np.ndarray:
    """Ṫ (4, 4) of a planar transform (Table 3.3): turn θ at θ̇, origin velocity (ẋ, ẏ).

    Parameters
    ----------
    theta, theta_dot : float
        θ [rad], θ̇ [rad/s].
    x_dot, y_dot : float
        The origin's velocity [m/s] in the parent frame's axes.

    Returns
    -------
    ndarray (4, 4)

    Examples
    --------
    >>> from eslabon.mobile.transform_derivatives import planar_rate
    >>> planar_rate(0.0, 2.0, 1.0, 0.0)[:2].tolist()  # Table 3.3, R̄–R
    [[-0.0, -2.0, 0.0, 1.0], [2.0, -0.0, 0.0, 0.0]]
    """
    th, w = finite_number(theta, "theta"), finite_number(theta_dot, "theta_dot")
    c, s = np.cos(th), np.sin(th)
    T = np.zeros((4, 4))
    T[:2, :2] = w * np.array([[-s, -c], [c, -s]])
    T[0, 3], T[1, 3] = finite_number(x_dot, "x_dot"), finite_number(y_dot, "y_dot")
    return T


def planar_accel(theta, theta_dot, theta_ddot, x_ddot=0.0, y_ddot=0.0) -> np.ndarray:
    """T̈ (4, 4) of a planar transform (Table 3.4): turn θ, θ̇, θ̈, origin acceleration.

    Parameters
    ----------
    theta, theta_dot, theta_ddot : float
        θ [rad], θ̇ [rad/s], θ̈ [rad/s²].
    x_ddot, y_ddot : float
        The origin's acceleration [m/s²] in the parent frame's axes.

    Returns
    -------
    ndarray (4, 4)

    Examples
    --------
    >>> from eslabon.mobile.transform_derivatives import planar_accel
    >>> planar_accel(0.0, 2.0, 0.5)[:2, :2].tolist()  # Table 3.4, R̄–R
    [[-4.0, -0.5], [0.5, -4.0]]
    """
    th = finite_number(theta, "theta")
    w, a = finite_number(theta_dot, "theta_dot"), finite_number(theta_ddot, "theta_ddot")
    c, s = np.cos(th), np.sin(th)
    T = np.zeros((4, 4))
    T[:2, :2] = a * np.array([[-s, -c], [c, -s]]) - w * w * np.array([[c, -s], [s, c]])
    T[0, 3], T[1, 3] = finite_number(x_ddot, "x_ddot"), finite_number(y_ddot, "y_ddot")
    return T


def _chain(T, name):
    T = [finite_array(M, f"{name}[{i}]", (4, 4)) for i, M in enumerate(T)]
    if not T:
        raise ValueError(f"{name}: expected at least one (4, 4) matrix")
    return T


def velocity_cascade(T, T_dot) -> np.ndarray:
    """Π̇ of Π = T₁⋯T_m (Table A.2, "cascada para la velocidad").

    Parameters
    ----------
    T, T_dot : sequence of array_like (4, 4)
        The transforms and their time derivatives, in the chain's order.

    Returns
    -------
    ndarray (4, 4)

    Raises
    ------
    ValueError
        Empty chains, chains of different lengths, a matrix not (4, 4) or not finite.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.mobile.transform_derivatives import velocity_cascade
    >>> float(velocity_cascade([np.eye(4), np.eye(4)], [np.eye(4), np.eye(4)]).trace())
    8.0
    """
    T, Td = _chain(T, "T"), _chain(T_dot, "T_dot")
    if len(T) != len(Td):
        raise ValueError("T_dot: expected one derivative per transform")
    # the leading identity lets multi_dot take a chain of one
    return sum(np.linalg.multi_dot([_I4, *T[:i], Td[i], *T[i + 1 :]]) for i in range(len(T)))


def acceleration_cascade(T, T_dot, T_ddot) -> np.ndarray:
    """Π̈ of Π = T₁⋯T_m (Table A.2, "cascada para la aceleración").

    Parameters
    ----------
    T, T_dot, T_ddot : sequence of array_like (4, 4)
        The transforms and their first and second time derivatives.

    Returns
    -------
    ndarray (4, 4)

    Raises
    ------
    ValueError
        As :func:`velocity_cascade`.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.mobile.transform_derivatives import acceleration_cascade
    >>> Z = np.zeros((4, 4))
    >>> float(acceleration_cascade([np.eye(4)] * 2, [np.eye(4)] * 2, [Z, Z]).trace())  # 2 I I
    8.0
    """
    T, Td, Tdd = _chain(T, "T"), _chain(T_dot, "T_dot"), _chain(T_ddot, "T_ddot")
    if not len(T) == len(Td) == len(Tdd):
        raise ValueError("T_dot, T_ddot: expected one derivative of each order per transform")
    m = len(T)
    out = sum(np.linalg.multi_dot([_I4, *T[:i], Tdd[i], *T[i + 1 :]]) for i in range(m))
    for i in range(m):
        for j in range(i + 1, m):
            pair = [_I4, *T[:i], Td[i], *T[i + 1 : j], Td[j], *T[j + 1 :]]
            out = out + 2 * np.linalg.multi_dot(pair)
    return out


class TricycleTables(NamedTuple):
    """Tables 3.2–3.4 of Araujo (2012) for the tricycle's steered wheel, and the cascades.

    Each (4, 4); ``A_T_B`` is ᴬT_B (B's frame in A's), ``A_Tdot_B`` its first and
    ``A_Tddot_B`` its second time derivative. Frames (Table 3.1): F the floor, R the
    robot (rear-axle midpoint), R̄ (``Rbar``) the floor point coinciding with R, H at the
    steering joint, S turned by β, C at the wheel's contact (x along the wheel), C̄
    (``Cbar``) the floor point coinciding with C.

    Attributes
    ----------
    F_T_Rbar, Rbar_T_R, R_T_H, H_T_S, S_T_C, Cbar_T_C, F_T_Cbar : ndarray (4, 4)
        Table 3.2 (R̄T_R and C̄T_C are the identity at the instant).
    Rbar_Tdot_R, H_Tdot_S, Cbar_Tdot_C : ndarray (4, 4)
        Table 3.3.
    Rbar_Tddot_R, H_Tddot_S, Cbar_Tddot_C : ndarray (4, 4)
        Table 3.4.
    Rbar_Tdot_C, Rbar_Tddot_C : ndarray (4, 4)
        The velocity and acceleration cascades (Table A.2) along R̄ → R → H → S → C.
    """

    F_T_Rbar: np.ndarray
    Rbar_T_R: np.ndarray
    R_T_H: np.ndarray
    H_T_S: np.ndarray
    S_T_C: np.ndarray
    Cbar_T_C: np.ndarray
    F_T_Cbar: np.ndarray
    Rbar_Tdot_R: np.ndarray
    H_Tdot_S: np.ndarray
    Cbar_Tdot_C: np.ndarray
    Rbar_Tddot_R: np.ndarray
    H_Tddot_S: np.ndarray
    Cbar_Tddot_C: np.ndarray
    Rbar_Tdot_C: np.ndarray
    Rbar_Tddot_C: np.ndarray


def tricycle_tables(tricycle, config, nu, nu_dot) -> TricycleTables:
    """Tables 3.2–3.4 and the cascades R̄Ṫ_C, R̄T̈_C at one state (module docstring).

    Parameters
    ----------
    tricycle : Tricycle
        One front wheel on a vertical steering axis (the thesis's tricycle).
    config : array_like (7,)
        [x, y, θ, β, φ_rear_left, φ_rear_right, φ_front].
    nu : array_like (2,)
        [V [m/s], β̇ [rad/s]].
    nu_dot : array_like (2,)
        [V̇ [m/s²], β̈ [rad/s²]].

    Returns
    -------
    TricycleTables

    Raises
    ------
    ValueError
        Two front wheels or a tilted steering axis (the tables' frames keep every z
        axis vertical and one wheel per steering joint); arguments of the wrong length,
        not finite, β outside (−90°, 90°).

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import mobile as mb
    >>> from eslabon.mobile.transform_derivatives import tricycle_tables
    >>> cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    >>> tab = tricycle_tables(cart, [0, 0, 0, 0.3, 0, 0, 0], [1.0, 0.0], [0.0, 0.0])
    >>> bool(np.allclose(tab.Rbar_Tdot_C, tab.R_T_H @ tab.H_T_S @ tab.S_T_C @ tab.Cbar_Tdot_C))
    True
    >>> float(tab.Cbar_Tdot_C[1, 3])  # no lateral slip at the contact
    0.0
    """
    p = tricycle.params
    if p.front_wheels != 1 or p.steering_tilt != 0.0:
        raise ValueError(
            "tricycle: Tables 3.2–3.4 are the thesis's tricycle, one front wheel on a "
            "vertical steering axis"
        )
    config = finite_array(config, "config", (len(tricycle.config_names),))
    nu = finite_array(nu, "nu", (2,))
    nu_dot = finite_array(nu_dot, "nu_dot", (2,))
    x, y, theta, beta = config[:4]
    ch = tricycle.chassis(config, nu)
    yaw_acc = ch.yaw_accel0 + ch.d_yaw_accel @ nu_dot
    o = ch.origin
    a_R = o.accel0 + o.d_accel @ nu_dot  # inertial, in R's (= R̄'s) axes
    b, r = p.wheelbase, p.front_wheel_radius
    pivot = ch.point([b, 0.0, 0.0])
    v_H, a_H = pivot.velocity, pivot.accel0 + pivot.d_accel @ nu_dot
    c, s = np.cos(beta), np.sin(beta)
    to_C = np.array([[c, s], [-s, c]])  # R's axes → C's (turned by β)
    v_C, a_C = to_C @ v_H[:2], to_C @ a_H[:2]
    F_T_Rbar = planar_transform(theta, x, y)
    R_T_H = planar_transform(0.0, b, 0.0)
    H_T_S = planar_transform(beta, 0.0, 0.0)
    S_T_C = planar_transform(0.0, 0.0, 0.0, -r)
    identity = np.eye(4)
    Rbar_Tdot_R = planar_rate(0.0, ch.yaw_rate, *o.velocity[:2])
    Rbar_Tddot_R = planar_accel(0.0, ch.yaw_rate, yaw_acc, *a_R[:2])
    H_Tdot_S = planar_rate(beta, nu[1])
    H_Tddot_S = planar_accel(beta, nu[1], nu_dot[1])
    Cbar_Tdot_C = planar_rate(0.0, ch.yaw_rate + nu[1], *v_C)
    Cbar_Tddot_C = planar_accel(0.0, ch.yaw_rate + nu[1], yaw_acc + nu_dot[1], *a_C)
    chain = [identity, R_T_H, H_T_S, S_T_C]
    Z = np.zeros((4, 4))
    return TricycleTables(
        F_T_Rbar,
        identity,
        R_T_H,
        H_T_S,
        S_T_C,
        identity,
        F_T_Rbar @ R_T_H @ H_T_S @ S_T_C,
        Rbar_Tdot_R,
        H_Tdot_S,
        Cbar_Tdot_C,
        Rbar_Tddot_R,
        H_Tddot_S,
        Cbar_Tddot_C,
        velocity_cascade(chain, [Rbar_Tdot_R, Z, H_Tdot_S, Z]),
        acceleration_cascade(chain, [Rbar_Tdot_R, Z, H_Tdot_S, Z], [Rbar_Tddot_R, Z, H_Tddot_S, Z]),
    )
