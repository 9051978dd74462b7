"""Wheeled platforms as quasi-velocity maps: the tricycle of seed 003 (Araujo 2012, Ch.
III, "Cinemática de la plataforma móvil" and "Dinámica de la plataforma móvil"; the
rolling constraints eliminated, q̇ = G(q) ν), and what every platform shares: the body,
point and chassis motions and the wheel. The other platforms build on these:
:mod:`.differential`, :mod:`.omnidirectional`, :mod:`.synchronous`.

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

import numpy as np

from .._args import finite_number
from .bodies import (  # noqa: F401  (re-exported: the platforms' shared motions)
    BodyMotion,
    ChassisMotion,
    PlatformMotion,
    PointMotion,
    Z,
    _chassis_and_axle,
    _plate,
    _platform_motion,
    _pose,
    _wheel,
    _yawing,
)
from .steered_cart import _steering
from .tilted_steering import tilted_chassis, tilted_motion


def _supplied(p, name):
    value = getattr(p, name)
    if value is None:
        cls = type(p).__name__
        assumed = [a for a in dir(type(p)) if a.endswith("_assumed")]
        origin = "seed 003 does not give it, so " if cls in ("TricycleParams",) else ""
        raise ValueError(
            f"{cls}.{name}: missing; {origin}it must be "
            "supplied (or start from a documented assumed set, "
            + " or ".join(f"{cls}.{a}()" for a in assumed)
            + ")"
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

    Seed 003 is Araujo (2012), chapter III, "Cinemática de la plataforma móvil" and
    "Dinámica de la plataforma móvil" (Seekur Jr. data in Annex 3). The fields have no
    defaults (``None``): :meth:`seekur_jr_assumed` is an explicit assumed set. Wheels are
    uniform discs; the chassis and steering body are flat plates whose roll and pitch
    inertias never enter.

    Parameters
    ----------
    wheelbase : float
        b [m], > 0: from the rear-axle midpoint to the steering pivot.
    rear_half_track : float
        l_E [m], > 0: each rear wheel's distance from the rear-axle midpoint.
    rear_wheel_radius, front_wheel_radius : float
        r_E, r_F [m], > 0.
    chassis_mass : float
        m_C [kg], > 0.
    chassis_inertia : float
        I_C [kg·m²], > 0: the chassis's yaw inertia about its centre of mass.
    chassis_com : float
        a [m]: the chassis's centre of mass ahead of the rear-axle midpoint (any sign).
    steering_mass : float
        m_B [kg], ≥ 0: the steering body (fork and hub), its centre of mass on the pivot.
    steering_inertia : float
        I_B [kg·m²], ≥ 0: its yaw inertia about the pivot.
    rear_wheel_mass, front_wheel_mass : float
        m_E, m_F [kg], ≥ 0: each wheel's mass.
    front_half_track : float
        l_F [m], ≥ 0: the front wheels at ±l_F from the pivot along the steered axle;
        must be 0 with one front wheel.
    front_wheels : {1, 2}
        n_F, the number of steered front wheels.
    steering_tilt : float
        σ [rad], within (−90°, 90°): the steering axis tilted back from the vertical in the
        chassis's x–z plane (a caster angle; Araujo (2012), "Recomendaciones": a
        steering axis not perpendicular to the floor). 0 (default) is the thesis's
        vertical axis and today's model exactly; otherwise one front wheel only, the
        axis through its contact point (:mod:`eslabon.mobile.tilted_steering`).

    Raises
    ------
    ValueError
        Naming the field: a value missing (None) or not a finite number, one of
        ``wheelbase``, radii, ``chassis_mass``, ``chassis_inertia`` ≤ 0 or another
        field < 0, ``front_wheels`` not 1 or 2, ``front_half_track`` ≠ 0 with one front
        wheel, a steered body without yaw inertia (I_B + n_F m_F (r_F²/4 + 1.5 l_F²) = 0),
        ``steering_tilt`` not within (−90°, 90°) or not 0 with two front wheels.

    Examples
    --------
    >>> from eslabon import mobile as mb
    >>> p = mb.TricycleParams.seekur_jr_assumed()
    >>> p.wheelbase, p.chassis_mass, round(p.chassis_inertia, 4)
    (0.9, 314.0, 95.5083)
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
    steering_tilt: float = 0.0

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
            finite=("chassis_com", "steering_tilt"),
        )
        if not abs(self.steering_tilt) < np.pi / 2:
            raise ValueError(
                "TricycleParams.steering_tilt: expected an angle within (-90°, 90°) [rad], "
                f"got {self.steering_tilt}"
            )
        if self.steering_tilt != 0.0 and self.front_wheels != 1:
            raise ValueError(
                "TricycleParams.steering_tilt: a tilted steering axis is modelled for one "
                f"front wheel only, got front_wheels={self.front_wheels}"
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
    def seekur_jr_assumed(cls, **overrides) -> TricycleParams:
        """The thesis's Seekur Jr. with the mass split seed 003 leaves out **assumed**.

        The thesis's Seekur Jr. (350 kg, b = 0.90 m, l = 0.314 m, r = 0.20 m) with the
        mass split seed 003 leaves out **assumed** here (docs/mobile.md): 8 kg per wheel,
        a 12 kg steering body (I_B = 0.3 kg·m²), the 314 kg chassis a uniform 1.40 × 1.30 m
        plate centred midway between the axles (a = 0.45 m). Not data from the thesis.
        One front wheel, on the steering axis.

        Parameters
        ----------
        **overrides
            Fields to replace, with the units of :class:`TricycleParams` (e.g.
            ``front_wheels=2, front_half_track=0.3`` for Martinenko's steered axle).

        Returns
        -------
        TricycleParams
            The assumed set, with the overrides.

        Raises
        ------
        ValueError
            An override that fails the checks of :class:`TricycleParams`.
        TypeError
            An unknown field name.
        """
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
    """One steered front wheel (or a steered axle), two fixed rear wheels (seed 003).

    Araujo (2012), eqs 3.18–3.19.

    config = [x, y, θ, β, φ_rear_left, φ_rear_right, φ_front(, φ_front_right)],
    ν = [V, β̇], inputs u = [F, M]: the longitudinal force at the rear-axle midpoint [N]
    and the steering torque between chassis and steering body [N·m].

    x, y [m] are the rear-axle midpoint in the floor (world) frame, θ the heading [rad]
    (chassis x from floor x, about z), β the steering angle [rad] relative to the
    chassis, within (−90°, 90°), and the φ the wheels' spin angles [rad] (with two front
    wheels the last two are ``phi_front_left``, ``phi_front_right``). V [m/s] is the
    speed of the rear-axle midpoint along the chassis x, β̇ [rad/s]. The kinematics:
    θ̇ = V tan β / b, and the rear wheels spin at (V ∓ l_E θ̇)/r_E (left at +y); with
    ``params.steering_tilt`` σ ≠ 0, θ̇ = V cos σ tan β / b (:mod:`.tilted_steering`).

    Parameters
    ----------
    params : TricycleParams

    Attributes
    ----------
    params : TricycleParams
        As given.
    kind : str
        ``"tricycle"``.
    config_names : tuple of str
        ``("x", "y", "heading", "steering", "phi_rear_left", "phi_rear_right",
        "phi_front")`` (or the two front wheels), nc = 7 or 8.
    quasi_names : tuple of str
        ``("V", "steering_rate")``, k = 2.
    input_names : tuple of str
        ``("F", "M")``.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import mobile as mb
    >>> cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    >>> beta = np.arctan(0.9)  # tan β = b: θ̇ = V / 1 m
    >>> motion = cart.motion([0.0, 0.0, 0.0, beta, 0.0, 0.0, 0.0], [1.0, 0.0])
    >>> np.round(motion.rates, 4).tolist()  # ẋ, ẏ, θ̇, β̇, rear left, rear right, front
    [1.0, 0.0, 1.0, 0.0, 3.43, 6.57, 6.7268]
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
        """θ̇ = V tan β / b, θ̈ = V̇ tan β / b + V β̇ / (b cos²β), r̈_R = [V̇, V θ̇, 0].

        r̈_R, the rear-axle midpoint's acceleration, is in the chassis frame's axes; its
        lateral V θ̇ is the term the thesis's (3.21) omits.

        Parameters
        ----------
        config : array_like (nc,)
            The configuration; only β = ``config[3]`` [rad] is used.
        nu : array_like (2,)
            [V [m/s], β̇ [rad/s]].

        Returns
        -------
        ChassisMotion
            θ̇ [rad/s], θ̈ at ν̇ = 0 [rad/s²], ∂θ̈/∂ν̇ = [tan β / b, 0] and the motion of the
            rear-axle midpoint.

        Raises
        ------
        ValueError
            β not finite or outside (−90°, 90°) (tan β is infinite at ±90°).
        """
        t, c = _steering(config[3])
        b = self.params.wheelbase
        V, beta_dot = nu
        if self.params.steering_tilt != 0.0:
            return tilted_chassis(self.params, config[3], nu)
        yaw_rate = V * t / b
        origin = PointMotion(
            np.array([V, 0.0, 0.0]),
            np.array([0.0, V * yaw_rate, 0.0]),
            np.array([[1.0, 0.0], [0.0, 0.0], [0.0, 0.0]]),
        )
        return ChassisMotion(yaw_rate, V * beta_dot / (b * c * c), np.array([t / b, 0.0]), origin)

    def motion(self, config, nu):
        """:class:`PlatformMotion` at one state.

        Every body (chassis, rear wheels, steering body, front wheels) with what the
        Gibbs function (2.25) needs, and q̇ = G ν, Ġ ν, G of the configuration.

        Parameters
        ----------
        config : array_like (nc,)
            The configuration; θ = ``config[2]`` and β = ``config[3]`` [rad] are used.
        nu : array_like (2,)
            [V [m/s], β̇ [rad/s]].

        Returns
        -------
        PlatformMotion
            Bodies in the chassis frame's axes; ``rates`` (nc,) with ẋ, ẏ in the floor
            frame; ``accel0`` (nc,); ``G`` (nc, 2).

        Raises
        ------
        ValueError
            β not finite or outside (−90°, 90°).
        """
        p = self.params
        if p.steering_tilt != 0.0:
            return tilted_motion(p, config, nu)
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
        for name, side in zip(names, sides, strict=True):
            d = side * p.front_half_track * np.array([-np.sin(beta), np.cos(beta), 0.0])
            zxd = np.cross(Z, d)
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
        """Q = [F, M]: F does work on V, M on the steering rate β̇.

        F does work on V (the rear-axle midpoint moves along x at V), M on the relative
        rate β̇ between chassis and steering body.

        Parameters
        ----------
        config : array_like (nc,)
            Unused (the map does not depend on the state).
        nu : array_like (2,)
            Unused.
        u : array_like (2,)
            [F [N], M [N·m]].

        Returns
        -------
        ndarray (2,)
            Q = [F [N], M [N·m]], the generalized forces of ν = [V, β̇].
        """
        return np.array([u[0], u[1]], dtype=float)
