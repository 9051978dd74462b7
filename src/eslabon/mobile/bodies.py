"""What every wheeled platform's motion is made of (Araujo (2012), Ch. III, "Dinámica de
la plataforma móvil"): the body, point, chassis and platform motions that the Gibbs
function (2.25) needs, and the bodies shared by the platforms — a yawing plate, a wheel
rolling without slip, the chassis with its axle (:mod:`.platforms` describes the
quantities; its names re-export these)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

Z = np.array([0.0, 0.0, 1.0])


class BodyMotion(NamedTuple):
    """One rigid body of the platform (chassis-frame vectors; see the module docstring).

    ω̇ = ``omega_dot0`` + ``d_omega_dot`` ν̇ and r̈_G = ``com_accel0`` + ``d_com_accel`` ν̇,
    inertial quantities expressed in the chassis frame's axes.

    Attributes
    ----------
    name : str
        ``"chassis"``, ``"steering"``, ``"rear_left"``, ``"front"``, ``"left"``, …
    mass : float
        [kg].
    inertia : ndarray (3, 3)
        About the centre of mass [kg·m²].
    omega : ndarray (3,)
        Angular velocity [rad/s].
    omega_dot0 : ndarray (3,)
        Angular acceleration at ν̇ = 0 [rad/s²].
    com_accel0 : ndarray (3,)
        Acceleration of the centre of mass at ν̇ = 0 [m/s²].
    d_omega_dot, d_com_accel : ndarray
        Shape (3, k): ∂ω̇/∂ν̇ and ∂r̈_G/∂ν̇.
    """

    name: str
    mass: float
    inertia: np.ndarray  # (3, 3) about the COM
    omega: np.ndarray  # (3,)
    omega_dot0: np.ndarray  # (3,)
    com_accel0: np.ndarray  # (3,)
    d_omega_dot: np.ndarray  # (3, k)
    d_com_accel: np.ndarray  # (3, k)


class PointMotion(NamedTuple):
    """A point's velocity, acceleration at ν̇ = 0 and ∂r̈/∂ν̇ (3, k), chassis frame.

    The vectors are the point's inertial (floor-relative) velocity and acceleration,
    expressed in the chassis frame's axes at this instant; r̈ = ``accel0`` +
    ``d_accel`` ν̇.

    Attributes
    ----------
    velocity : ndarray (3,)
        ṙ [m/s].
    accel0 : ndarray (3,)
        r̈ at ν̇ = 0 (velocity products only) [m/s²].
    d_accel : ndarray
        Shape (3, k): ∂r̈/∂ν̇ (columns per quasi-velocity: m/s² per m/s², or per rad/s²).
    """

    velocity: np.ndarray
    accel0: np.ndarray
    d_accel: np.ndarray


class ChassisMotion(NamedTuple):
    """The chassis yaw rate θ̇, θ̈⁰ and ∂θ̈/∂ν̇ (k,), and its origin (rear-axle midpoint).

    What a platform's ``chassis(config, nu)`` returns; θ̈ = ``yaw_accel0`` +
    ``d_yaw_accel`` · ν̇.

    Attributes
    ----------
    yaw_rate : float
        θ̇ [rad/s].
    yaw_accel0 : float
        θ̈ at ν̇ = 0 [rad/s²].
    d_yaw_accel : ndarray
        Shape (k,): ∂θ̈/∂ν̇ (per quasi-velocity).
    origin : PointMotion
        The chassis origin (rear-axle midpoint, or axle midpoint of a differential
        drive), vectors in the chassis frame's axes.
    """

    yaw_rate: float
    yaw_accel0: float
    d_yaw_accel: np.ndarray
    origin: PointMotion

    def point(self, p) -> PointMotion:
        """A point fixed on the chassis at ``p`` (3,): r̈_p = r̈_R + θ̈ z × p − θ̇² p_xy.

        Parameters
        ----------
        p : array_like (3,)
            The point [m] in the chassis frame (origin at the rear-axle midpoint).

        Returns
        -------
        PointMotion
            Its velocity [m/s], acceleration at ν̇ = 0 [m/s²] and ∂r̈/∂ν̇ (3, k), in the
            chassis frame's axes.
        """
        p = np.asarray(p, dtype=float)
        zxp = np.cross(Z, p)
        pxy = np.array([p[0], p[1], 0.0])
        o = self.origin
        return PointMotion(
            o.velocity + self.yaw_rate * zxp,
            o.accel0 + self.yaw_accel0 * zxp - self.yaw_rate**2 * pxy,
            o.d_accel + np.outer(zxp, self.d_yaw_accel),
        )


class PlatformMotion(NamedTuple):
    """Everything about the platform at one state: bodies, chassis, q̇ = G ν, Ġ ν and G.

    Its ``bodies`` (:class:`BodyMotion`), the ``chassis`` motion, the configuration rates
    q̇ = G ν (``rates``) and the configuration accelerations q̈ = G ν̇ + Ġ ν as ``accel0``
    = Ġ ν (nc,) and ``G`` (nc, k). What a platform's ``motion(config, nu)`` returns.

    Attributes
    ----------
    bodies : list of BodyMotion
        Chassis, wheels (and the tricycle's steering body): mass [kg], inertia about the
        COM [kg·m²], ω [rad/s], ω̇ and COM acceleration at ν̇ = 0 [rad/s², m/s²] and their
        partials ∂/∂ν̇ (3, k), all in the chassis frame's axes.
    chassis : ChassisMotion
        Yaw rate, yaw acceleration and the chassis origin's motion.
    rates : ndarray
        Shape (nc,): q̇ of ``config``: ẋ, ẏ [m/s] in the floor (world) frame, θ̇ [rad/s],
        the steering rate β̇ [rad/s] (tricycle), each wheel's spin rate [rad/s].
    accel0 : ndarray
        Shape (nc,): Ġ ν, the configuration accelerations at ν̇ = 0 [m/s², rad/s²].
    G : ndarray
        Shape (nc, k): ∂q̇/∂ν.
    """

    bodies: list
    chassis: ChassisMotion
    rates: np.ndarray
    accel0: np.ndarray
    G: np.ndarray


def _pose(ch, theta):
    """Rates, Ġν and G rows of (x, y, θ): the rear-axle midpoint in the floor frame."""
    c, s = np.cos(theta), np.sin(theta)
    R = np.array([[c, -s], [s, c]])
    o = ch.origin
    return (
        np.r_[R @ o.velocity[:2], ch.yaw_rate],
        np.r_[R @ o.accel0[:2], ch.yaw_accel0],
        np.vstack([R @ o.d_accel[:2], ch.d_yaw_accel]),
    )


def _plate(I):
    return np.diag([I / 2, I / 2, I])


def _yawing(name, mass, inertia, yaw_rate, yaw_accel0, d_yaw_accel, com: PointMotion):
    """A body that only yaws (chassis, steering axle)."""
    return BodyMotion(
        name,
        mass,
        _plate(inertia),
        yaw_rate * Z,
        yaw_accel0 * Z,
        com.accel0,
        np.outer(Z, d_yaw_accel),
        com.d_accel,
    )


def _wheel(
    name,
    mass,
    radius,
    heading,
    yaw_rate,
    yaw_accel0,
    d_yaw_accel,
    centre: PointMotion,
    roller_angle=None,
):
    """A disc rolling without slip or skid, heading ``heading`` (angle in the chassis
    frame), its centre moving as ``centre``; returns the body and its spin rate ψ̇.

    With a ``roller_angle`` α the wheel carries massless rollers (omni wheel at α = 0,
    mecanum at ±45°): only the velocity along the roller axis is tied to the spin,
    r ψ̇ = v_c · w with w = e + tan α n, so r ψ̈ = r̈_c · w + γ̇ v_c · (z × w) (w turns with
    the wheel's yaw γ; the last term vanishes for a plain wheel, whose v_c · n = 0)."""
    e = np.array([np.cos(heading), np.sin(heading), 0.0])
    n = np.cross(Z, e)
    if roller_angle is None:
        spin = centre.velocity @ e / radius
        spin_accel0 = centre.accel0 @ e / radius
        d_spin = e @ centre.d_accel / radius
    else:
        w = e + np.tan(roller_angle) * n
        spin = centre.velocity @ w / radius
        spin_accel0 = (centre.accel0 @ w + yaw_rate * (centre.velocity @ np.cross(Z, w))) / radius
        d_spin = w @ centre.d_accel / radius
    R = np.column_stack([e, n, Z])
    inertia = R @ np.diag([mass * radius**2 / 4, mass * radius**2 / 2, mass * radius**2 / 4]) @ R.T
    body = BodyMotion(
        name,
        mass,
        inertia,
        yaw_rate * Z + spin * n,
        yaw_accel0 * Z + spin_accel0 * n + spin * yaw_rate * np.cross(Z, n),
        centre.accel0,
        np.outer(Z, d_yaw_accel) + np.outer(n, d_spin),
        centre.d_accel,
    )
    return body, (spin, spin_accel0, d_spin)


def _chassis_and_axle(
    ch, chassis_mass, chassis_inertia, chassis_com, names, wheel_mass, wheel_radius, half_track
):
    """The chassis and the two wheels on the axle through its origin (at ±half_track):
    (bodies, spin rates)."""
    bodies = [
        _yawing(
            "chassis",
            chassis_mass,
            chassis_inertia,
            ch.yaw_rate,
            ch.yaw_accel0,
            ch.d_yaw_accel,
            ch.point([chassis_com, 0.0, 0.0]),
        )
    ]
    spins = []
    for name, side in zip(names, (1.0, -1.0), strict=True):
        body, spin = _wheel(
            name,
            wheel_mass,
            wheel_radius,
            0.0,
            ch.yaw_rate,
            ch.yaw_accel0,
            ch.d_yaw_accel,
            ch.point([0.0, side * half_track, 0.0]),
        )
        bodies.append(body)
        spins.append(spin)
    return bodies, spins


def _platform_motion(bodies, ch, theta, spins, steering_rate=None):
    """Assemble :class:`PlatformMotion`: pose (x, y, θ), the steering angle when there is
    one (its rate is the quasi-velocity ν₂), then each wheel's spin."""
    rates, accel0, G = _pose(ch, theta)
    k = len(ch.d_yaw_accel)
    if steering_rate is not None:
        rates, accel0 = np.r_[rates, steering_rate], np.r_[accel0, 0.0]
        G = np.vstack([G, np.eye(k)[1]])
    spin, spin0, d_spin = (np.array(x) for x in zip(*spins, strict=True))
    return PlatformMotion(
        bodies,
        ch,
        np.r_[rates, spin],
        np.r_[accel0, spin0],
        np.vstack([G, d_spin.reshape(len(spins), k)]),
    )
