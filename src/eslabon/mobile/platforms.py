"""Wheeled platforms as quasi-velocity maps: the tricycle of seed 003 and a differential
drive (Araujo 2012, Ch. III, "Cinemática de la plataforma móvil" and "Dinámica de la
plataforma móvil"; the rolling constraints eliminated, q̇ = G(q) ν).

A platform has configuration coordinates ``config`` (pose x, y, heading θ, the steering
angle β where there is one, and every wheel's spin angle) and independent
quasi-velocities ν (tricycle: the rear-axle midpoint speed V and the steering rate β̇;
differential drive: the forward speed v and the yaw rate ω). Rolling without slip or
skid makes every velocity linear in ν.

:meth:`motion` returns, for every platform body, what the Gibbs function (2.25) needs,
all in the chassis frame R (origin at the rear-axle midpoint, x forward, z up; inertial
vectors expressed in R's axes at this instant):

    ω, ω̇⁰, r̈⁰_G            motion at ν̇ = 0 (velocity products only)
    ∂ω̇/∂ν̇, ∂r̈_G/∂ν̇       (3, k) partials, so that ω̇ = ω̇⁰ + (∂ω̇/∂ν̇) ν̇

built up from the chassis (ω = θ̇ z, r̈_R = V̇ x + V θ̇ y: the lateral V·θ̇ that the
thesis's (3.21) omits), points fixed on it (r̈_p = r̈_R + θ̈ z × p − θ̇² p), the steering body
(yaw θ + β) and the wheels (spin ψ̇ = v_c·e / r, ψ̈ = r̈_c·e / r since v_c·n = 0;
ω = γ̇ z + ψ̇ n, ω̇ = γ̈ z + ψ̈ n + ψ̇ γ̇ z × n, with e the wheel's heading, n = z × e its
axle and γ the wheel's yaw).

Platform bodies move in the floor plane, so their roll and pitch inertias never enter
the equations (the floor takes those reactions); each body is given a yaw inertia and
modelled as a flat plate (diag(I/2, I/2, I)), wheels as uniform discs.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import NamedTuple

import numpy as np

from .._args import finite_number
from .martinenko import _steering

Z = np.array([0.0, 0.0, 1.0])


def _z_cross(v):
    """z × v."""
    return np.array([-v[1], v[0], 0.0])


class BodyMotion(NamedTuple):
    """One rigid body of the platform (chassis-frame vectors; see the module docstring)."""

    name: str
    mass: float
    inertia: np.ndarray  # (3, 3) about the COM
    omega: np.ndarray  # (3,)
    omega_dot0: np.ndarray  # (3,)
    com_accel0: np.ndarray  # (3,)
    d_omega_dot: np.ndarray  # (3, k)
    d_com_accel: np.ndarray  # (3, k)


class PointMotion(NamedTuple):
    """A point's velocity, acceleration at ν̇ = 0 and ∂r̈/∂ν̇ (3, k), chassis frame."""

    velocity: np.ndarray
    accel0: np.ndarray
    d_accel: np.ndarray


class ChassisMotion(NamedTuple):
    """The chassis yaw rate θ̇, θ̈⁰ and ∂θ̈/∂ν̇ (k,), and its origin (rear-axle midpoint)."""

    yaw_rate: float
    yaw_accel0: float
    d_yaw_accel: np.ndarray
    origin: PointMotion

    def point(self, p) -> PointMotion:
        """A point fixed on the chassis at ``p`` (3,): r̈_p = r̈_R + θ̈ z × p − θ̇² p_xy."""
        p = np.asarray(p, dtype=float)
        zxp = _z_cross(p)
        pxy = np.array([p[0], p[1], 0.0])
        o = self.origin
        return PointMotion(
            o.velocity + self.yaw_rate * zxp,
            o.accel0 + self.yaw_accel0 * zxp - self.yaw_rate**2 * pxy,
            o.d_accel + np.outer(zxp, self.d_yaw_accel),
        )


class PlatformMotion(NamedTuple):
    """Everything about the platform at one state: its ``bodies`` (:class:`BodyMotion`),
    the ``chassis`` motion, the configuration rates q̇ = G ν (``rates``) and the
    configuration accelerations q̈ = G ν̇ + Ġ ν as ``accel0`` = Ġ ν (nc,) and ``G`` (nc, k)."""

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


def _wheel(name, mass, radius, heading, yaw_rate, yaw_accel0, d_yaw_accel, centre: PointMotion):
    """A disc rolling without slip or skid, heading ``heading`` (angle in the chassis
    frame), its centre moving as ``centre``; returns the body and its spin rate ψ̇."""
    e = np.array([np.cos(heading), np.sin(heading), 0.0])
    n = _z_cross(e)
    spin = centre.velocity @ e / radius
    spin_accel0 = centre.accel0 @ e / radius
    d_spin = e @ centre.d_accel / radius
    R = np.column_stack([e, n, Z])
    inertia = R @ np.diag([mass * radius**2 / 4, mass * radius**2 / 2, mass * radius**2 / 4]) @ R.T
    body = BodyMotion(
        name,
        mass,
        inertia,
        yaw_rate * Z + spin * n,
        yaw_accel0 * Z + spin_accel0 * n + spin * yaw_rate * _z_cross(n),
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
    for name, side in zip(names, (1.0, -1.0)):
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
    spin, spin0, d_spin = (np.array(x) for x in zip(*spins))
    return PlatformMotion(
        bodies,
        ch,
        np.r_[rates, spin],
        np.r_[accel0, spin0],
        np.vstack([G, d_spin.reshape(len(spins), k)]),
    )


def _supplied(p, name):
    value = getattr(p, name)
    if value is None:
        raise ValueError(
            f"{type(p).__name__}.{name}: missing; seed 003 does not give it, so "
            "it must be supplied (or start from the documented assumed set, "
            f"{type(p).__name__}.seekur_jr_assumed())"
        )
    return finite_number(value, f"{type(p).__name__}.{name}")


def _check_params(p, positive=(), nonnegative=(), finite=()):
    for f in fields(p):
        if f.name in positive + nonnegative + finite:
            v = _supplied(p, f.name)
            if f.name in finite:
                continue
            if f.name in positive and v <= 0:
                raise ValueError(f"{type(p).__name__}.{f.name}: expected > 0, got {v}")
            if v < 0:
                raise ValueError(f"{type(p).__name__}.{f.name}: expected >= 0, got {v}")


@dataclass(frozen=True)
class TricycleParams:
    """Geometry [m], masses [kg] and yaw inertias [kg·m²] of the steered platform.

    Seed 003 gives only the wheelbase b = 0.90 m, the rear track 0.628 m (l_E = 0.314 m),
    the wheel diameter 0.40 m and the 350 kg total; every other value must be supplied.
    ``chassis_com`` is the distance a from the rear-axle midpoint to the chassis's centre
    of mass (forward); ``steering_inertia`` I_B is the steering body's inertia about its
    vertical axis through the pivot (its COM); ``front_wheels`` is 1 (the thesis's
    tricycle, wheel on the steering axis, ``front_half_track`` 0) or 2 (Martinenko's
    steered axle, wheels at ±``front_half_track``).
    """

    wheelbase: float | None = None
    rear_half_track: float | None = None
    rear_wheel_radius: float | None = None
    front_wheel_radius: float | None = None
    chassis_mass: float | None = None
    chassis_inertia: float | None = None
    chassis_com: float | None = None
    steering_mass: float | None = None
    steering_inertia: float | None = None
    rear_wheel_mass: float | None = None
    front_wheel_mass: float | None = None
    front_half_track: float = 0.0
    front_wheels: int = 1

    def __post_init__(self):
        _check_params(
            self,
            positive=(
                "wheelbase",
                "rear_half_track",
                "rear_wheel_radius",
                "front_wheel_radius",
                "chassis_mass",
                "chassis_inertia",
            ),
            nonnegative=(
                "steering_mass",
                "steering_inertia",
                "rear_wheel_mass",
                "front_wheel_mass",
                "front_half_track",
            ),
            finite=("chassis_com",),
        )
        if self.front_wheels not in (1, 2):
            raise ValueError(
                f"TricycleParams.front_wheels: expected 1 or 2, got {self.front_wheels!r}"
            )
        if self.front_wheels == 1 and self.front_half_track != 0.0:
            raise ValueError(
                "TricycleParams.front_half_track: a single front wheel sits on "
                f"the steering axis (0), got {self.front_half_track}"
            )
        steer = self.steering_inertia + self.front_wheels * self.front_wheel_mass * (
            self.front_wheel_radius**2 / 4 + 1.5 * self.front_half_track**2
        )
        if steer <= 0:
            raise ValueError(
                "TricycleParams.steering_inertia: the steered body and its "
                "wheels must have yaw inertia (I₂ > 0), got 0"
            )

    @classmethod
    def seekur_jr_assumed(cls, **overrides) -> "TricycleParams":
        """The thesis's Seekur Jr. (350 kg, b = 0.90 m, l = 0.314 m, r = 0.20 m) with the
        mass split seed 003 leaves out **assumed** here (docs/mobile.md): 8 kg per wheel,
        a 12 kg steering body (I_B = 0.3 kg·m²), the 314 kg chassis a uniform 1.40 × 1.30 m
        plate centred midway between the axles (a = 0.45 m). Not data from the thesis."""
        m_c = 350.0 - 3 * 8.0 - 12.0
        values = dict(
            wheelbase=0.90,
            rear_half_track=0.314,
            rear_wheel_radius=0.20,
            front_wheel_radius=0.20,
            chassis_mass=m_c,
            chassis_inertia=m_c * (1.40**2 + 1.30**2) / 12,
            chassis_com=0.45,
            steering_mass=12.0,
            steering_inertia=0.3,
            rear_wheel_mass=8.0,
            front_wheel_mass=8.0,
        )
        values.update(overrides)
        return cls(**values)


@dataclass(frozen=True)
class Tricycle:
    """One steered front wheel (or a steered axle), two fixed rear wheels (seed 003, eqs
    3.18–3.19).

    config = [x, y, θ, β, φ_rear_left, φ_rear_right, φ_front(, φ_front_right)],
    ν = [V, β̇], inputs u = [F, M]: the longitudinal force at the rear-axle midpoint [N]
    and the steering torque between chassis and steering body [N·m].
    """

    params: TricycleParams
    kind = "tricycle"

    @property
    def config_names(self):
        front = (
            ("phi_front",)
            if self.params.front_wheels == 1
            else ("phi_front_left", "phi_front_right")
        )
        return ("x", "y", "heading", "steering", "phi_rear_left", "phi_rear_right") + front

    quasi_names = ("V", "steering_rate")
    input_names = ("F", "M")

    def chassis(self, config, nu) -> ChassisMotion:
        """θ̇ = V tan β / b, θ̈ = V̇ tan β / b + V β̇ / (b cos²β), r̈_R = [V̇, V θ̇, 0]."""
        t, c = _steering(config[3])
        b = self.params.wheelbase
        V, beta_dot = nu
        yaw_rate = V * t / b
        origin = PointMotion(
            np.array([V, 0.0, 0.0]),
            np.array([0.0, V * yaw_rate, 0.0]),
            np.array([[1.0, 0.0], [0.0, 0.0], [0.0, 0.0]]),
        )
        return ChassisMotion(yaw_rate, V * beta_dot / (b * c * c), np.array([t / b, 0.0]), origin)

    def motion(self, config, nu):
        """:class:`PlatformMotion` at one state."""
        p = self.params
        ch = self.chassis(config, nu)
        beta = config[3]
        bodies, spins = _chassis_and_axle(
            ch,
            p.chassis_mass,
            p.chassis_inertia,
            p.chassis_com,
            ("rear_left", "rear_right"),
            p.rear_wheel_mass,
            p.rear_wheel_radius,
            p.rear_half_track,
        )
        # the steering body yaws at γ̇ = θ̇ + β̇ about the pivot at (b, 0)
        pivot = ch.point([p.wheelbase, 0.0, 0.0])
        g_rate, g_acc0 = ch.yaw_rate + nu[1], ch.yaw_accel0
        d_g = ch.d_yaw_accel + np.array([0.0, 1.0])
        bodies.append(
            _yawing("steering", p.steering_mass, p.steering_inertia, g_rate, g_acc0, d_g, pivot)
        )
        sides = (0.0,) if p.front_wheels == 1 else (1.0, -1.0)
        names = ("front",) if p.front_wheels == 1 else ("front_left", "front_right")
        for name, side in zip(names, sides):
            d = side * p.front_half_track * np.array([-np.sin(beta), np.cos(beta), 0.0])
            zxd = _z_cross(d)
            centre = PointMotion(
                pivot.velocity + g_rate * zxd,
                pivot.accel0 + g_acc0 * zxd - g_rate**2 * d,
                pivot.d_accel + np.outer(zxd, d_g),
            )
            body, spin = _wheel(
                name, p.front_wheel_mass, p.front_wheel_radius, beta, g_rate, g_acc0, d_g, centre
            )
            bodies.append(body)
            spins.append(spin)
        return _platform_motion(bodies, ch, config[2], spins, nu[1])

    def generalized_forces(self, config, nu, u):
        """Q = [F, M]: F does work on V (the rear-axle midpoint moves along x at V), M on
        the relative rate β̇ between chassis and steering body."""
        return np.array([u[0], u[1]], dtype=float)


@dataclass(frozen=True)
class DiffDriveParams:
    """Differential drive: two driven wheels at ±``half_track`` on the axle through the
    chassis origin, a massless caster. Geometry [m], masses [kg], yaw inertia [kg·m²];
    ``chassis_com`` is the COM's forward offset from the axle midpoint."""

    half_track: float | None = None
    wheel_radius: float | None = None
    chassis_mass: float | None = None
    chassis_inertia: float | None = None
    chassis_com: float | None = None
    wheel_mass: float | None = None

    def __post_init__(self):
        _check_params(
            self,
            positive=("half_track", "wheel_radius", "chassis_mass", "chassis_inertia"),
            nonnegative=("wheel_mass",),
            finite=("chassis_com",),
        )

    @classmethod
    def seekur_jr_assumed(cls, **overrides) -> "DiffDriveParams":
        """An assumed differential-drive base of the same size (docs/mobile.md)."""
        values = dict(
            half_track=0.314,
            wheel_radius=0.20,
            chassis_mass=334.0,
            chassis_inertia=334.0 * (1.40**2 + 1.30**2) / 12,
            chassis_com=0.20,
            wheel_mass=8.0,
        )
        values.update(overrides)
        return cls(**values)


@dataclass(frozen=True)
class DifferentialDrive:
    """config = [x, y, θ, φ_left, φ_right], ν = [v, ω] (axle-midpoint speed, yaw rate),
    inputs u = [τ_left, τ_right], the wheel torques [N·m] (left wheel at +y)."""

    params: DiffDriveParams
    kind = "differential_drive"
    config_names = ("x", "y", "heading", "phi_left", "phi_right")
    quasi_names = ("v", "yaw_rate")
    input_names = ("tau_left", "tau_right")

    def chassis(self, config, nu) -> ChassisMotion:
        """θ̇ = ω, r̈_R = [v̇, v ω, 0]."""
        v, w = nu
        origin = PointMotion(
            np.array([v, 0.0, 0.0]),
            np.array([0.0, v * w, 0.0]),
            np.array([[1.0, 0.0], [0.0, 0.0], [0.0, 0.0]]),
        )
        return ChassisMotion(w, 0.0, np.array([0.0, 1.0]), origin)

    def motion(self, config, nu):
        p = self.params
        ch = self.chassis(config, nu)
        bodies, spins = _chassis_and_axle(
            ch,
            p.chassis_mass,
            p.chassis_inertia,
            p.chassis_com,
            ("left", "right"),
            p.wheel_mass,
            p.wheel_radius,
            p.half_track,
        )
        return _platform_motion(bodies, ch, config[2], spins)

    def generalized_forces(self, config, nu, u):
        """A wheel torque τ does work on its spin ψ̇ = (v ∓ l ω)/r:
        Q = [(τ_L + τ_R)/r, l (τ_R − τ_L)/r]."""
        p = self.params
        return np.array(
            [(u[0] + u[1]) / p.wheel_radius, p.half_track * (u[1] - u[0]) / p.wheel_radius]
        )
