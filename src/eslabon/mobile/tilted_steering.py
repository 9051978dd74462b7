"""The tricycle with its steering axis tilted: Araujo (2012), "Recomendaciones" ("eje de
direccionamiento no perpendicular a la superficie"), in the Gibbs–Appell form of Ch. III.

The thesis takes every z axis of its Sheth–Uicker frames perpendicular to the floor
(Table 3.1 and the paragraph after it: "sus ejes z serán siempre perpendiculares a la
superficie"); its recommendations ask for a steering axis that is not. Here the axis is
tilted back by the caster angle σ in the chassis's x–z plane,

    k = (−sin σ, 0, cos σ)        (chassis frame, z up),

and passes through the front wheel's contact point, the foot F = (b, 0, −r_F) under the
pivot (zero trail). Steering by β about k turns the wheel's axle to n = R_k(β) y and
leans the wheel; the line where the wheel's plane meets the floor, n × z, has the heading
δ in the chassis with

    tan δ = cos σ tan β.

The model keeps the platform in the floor plane and the contact at F (the wheel rolls
along n × z at radius r_F): this neglects the lift of a leaning thin disc, whose lowest
point leaves F by a term of order sin²σ cos²σ (1 − cos β)², i.e. it describes a tyre
whose contact stays on the axis. Under that idealization the rolling constraints give

    θ̇ = V cos σ tan β / b,    θ̈ = (V̇ cos σ tan β + V cos σ β̇ / cos²β) / b,
    ψ̇_F = V / (r_F cos δ),    ψ̈_F = V̇ / (r_F cos δ) + V sin δ cos σ β̇ / (r_F cos²β),

the steering body turns at ω_S = θ̇ z + β̇ k (ω̇_S = θ̈ z + β̈ k + θ̇ β̇ z × k), its centre
of mass on the axis at hub height, Q = F + (r_F / cos σ) k, and the wheel's centre
F + r_F R_k(β) z moves off the axis, up and down as it steers: on a level floor gravity
gives a steering torque (the caster's self-centring). σ = 0 gives the thesis's
vertical axis: these formulas are then those of :class:`~eslabon.mobile.Tricycle`.
"""

from __future__ import annotations

import numpy as np

from ..spatial.rotations import rot_axis, skew
from .bodies import (
    BodyMotion,
    ChassisMotion,
    PointMotion,
    Z,
    _chassis_and_axle,
    _platform_motion,
)
from .steered_cart import _steering

# tilted_chassis is plumbing of tilted_motion and Tricycle.motion:
# importable, not part of the API reference
__all__ = ["steering_axis", "ground_heading", "tilted_motion"]

Y = np.array([0.0, 1.0, 0.0])


def steering_axis(tilt) -> np.ndarray:
    """k (3,): the steering axis in the chassis frame, tilted back by ``tilt`` σ [rad].

    Parameters
    ----------
    tilt : float
        σ [rad].

    Returns
    -------
    ndarray (3,)
        (−sin σ, 0, cos σ), a unit vector.

    Examples
    --------
    >>> from eslabon.mobile.tilted_steering import steering_axis
    >>> steering_axis(0.0).tolist()
    [-0.0, 0.0, 1.0]
    """
    return np.array([-np.sin(tilt), 0.0, np.cos(tilt)])


def ground_heading(beta, tilt):
    """δ [rad], the heading in the chassis of the line where the front wheel meets the
    floor when the steering axis is tilted back by σ: tan δ = cos σ tan β.

    Araujo (2012), "Recomendaciones" (a steering axis not perpendicular to the floor),
    for the tricycle of Ch. III: the wheel's axle turns to n = R_k(β) y about the tilted
    axis k (:func:`steering_axis`), and the wheel rolls along n × z (module docstring).
    σ = 0 gives δ = β, the thesis's vertical axis.

    Parameters
    ----------
    beta : float or array_like
        β [rad], the steering angle about the tilted axis, within (−90°, 90°). Complex
        values are accepted (the complex-step derivative of the DAE's rolling rows).
    tilt : float
        σ [rad], the caster angle (``TricycleParams.steering_tilt``).

    Returns
    -------
    float or ndarray
        δ [rad], within (−90°, 90°), the shape of ``beta``.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.mobile.tilted_steering import ground_heading
    >>> bool(np.isclose(ground_heading(0.3, 0.0), 0.3))
    True
    >>> delta = ground_heading(0.3, np.radians(20))
    >>> bool(np.isclose(np.tan(delta), np.cos(np.radians(20)) * np.tan(0.3)))
    True
    """
    return np.arctan(np.cos(tilt) * np.tan(beta))


def tilted_chassis(p, beta, nu) -> ChassisMotion:
    """θ̇ = V cos σ tan β / b and its rates (module docstring); r̈_R = [V̇, V θ̇, 0].

    Parameters
    ----------
    p : TricycleParams
    beta : float
        β [rad], within (−90°, 90°).
    nu : array_like (2,)
        [V [m/s], β̇ [rad/s]].

    Returns
    -------
    ChassisMotion

    Raises
    ------
    ValueError
        β outside (−90°, 90°).
    """
    t, c = _steering(beta)
    cs = np.cos(p.steering_tilt)
    b = p.wheelbase
    V, beta_dot = nu
    yaw_rate = V * cs * t / b
    origin = PointMotion(
        np.array([V, 0.0, 0.0]),
        np.array([0.0, V * yaw_rate, 0.0]),
        np.array([[1.0, 0.0], [0.0, 0.0], [0.0, 0.0]]),
    )
    return ChassisMotion(
        yaw_rate, V * cs * beta_dot / (b * c * c), np.array([cs * t / b, 0.0]), origin
    )


def _rigid_point(base: PointMotion, omega, omega_dot0, d_omega_dot, d) -> PointMotion:
    """A point at d from ``base`` on a body turning at ω: v + ω × d, a + ω̇ × d + ω × (ω × d)."""
    return PointMotion(
        base.velocity + np.cross(omega, d),
        base.accel0 + np.cross(omega_dot0, d) + np.cross(omega, np.cross(omega, d)),
        base.d_accel - skew(d) @ d_omega_dot,
    )


def tilted_motion(p, config, nu):
    """:class:`~eslabon.mobile.platforms.PlatformMotion` of the tricycle with a tilted
    steering axis (module docstring); the same layout as :meth:`Tricycle.motion`.

    Parameters
    ----------
    p : TricycleParams
        One front wheel; any ``steering_tilt`` (0 gives the vertical axis).
    config : array_like (7,)
        [x, y, θ, β, φ_rear_left, φ_rear_right, φ_front].
    nu : array_like (2,)
        [V [m/s], β̇ [rad/s]].

    Returns
    -------
    PlatformMotion

    Raises
    ------
    ValueError
        β outside (−90°, 90°); two front wheels.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import mobile as mb
    >>> from eslabon.mobile.tilted_steering import tilted_motion
    >>> p = mb.TricycleParams.seekur_jr_assumed(steering_tilt=np.radians(15))
    >>> m = tilted_motion(p, [0, 0, 0, 0.3, 0, 0, 0], [1.0, 0.0])
    >>> bool(np.isclose(m.rates[2], np.cos(np.radians(15)) * np.tan(0.3) / 0.9))
    True
    """
    if p.front_wheels != 1:
        raise ValueError("params.front_wheels: a tilted steering axis takes one front wheel")
    beta = config[3]
    ch = tilted_chassis(p, beta, nu)
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
    sigma, r = p.steering_tilt, p.front_wheel_radius
    k = steering_axis(sigma)
    foot = np.array([p.wheelbase, 0.0, -r])
    hub = foot + (r / np.cos(sigma)) * k  # on the axis, at the hub's height when β = 0
    # the steering body: ω = θ̇ z + β̇ k, k turning with the chassis
    w = ch.yaw_rate * Z + nu[1] * k
    wd0 = ch.yaw_accel0 * Z + ch.yaw_rate * nu[1] * np.cross(Z, k)
    d_wd = np.outer(Z, ch.d_yaw_accel) + np.outer(k, [0.0, 1.0])
    pivot = ch.point(hub)
    inertia = 0.5 * p.steering_inertia * (np.eye(3) + np.outer(k, k))  # a plate about k
    bodies.append(
        BodyMotion("steering", p.steering_mass, inertia, w, wd0, pivot.accel0, d_wd, pivot.d_accel)
    )
    # the front wheel: centre F + r R_k(β) z, axle n = R_k(β) y, both on the steering body
    R = rot_axis(k, beta)  # Rodrigues, R_k(β)
    centre = _rigid_point(pivot, w, wd0, d_wd, foot + r * R @ Z - hub)
    n = R @ Y
    _, cb = _steering(beta)
    cs = np.cos(sigma)
    delta = ground_heading(beta, sigma)
    V = nu[0]
    spin = V / (r * np.cos(delta))
    spin0 = V * np.sin(delta) * cs * nu[1] / (r * cb * cb)
    d_spin = np.array([1.0 / (r * np.cos(delta)), 0.0])
    m = p.front_wheel_mass
    bodies.append(
        BodyMotion(
            "front",
            m,
            m * r * r / 4 * (np.eye(3) + np.outer(n, n)),  # a disc: m r²/2 about n
            w + spin * n,
            wd0 + spin0 * n + spin * np.cross(w, n),
            centre.accel0,
            d_wd + np.outer(n, d_spin),
            centre.d_accel,
        )
    )
    spins.append((spin, spin0, d_spin))
    return _platform_motion(bodies, ch, config[2], spins, nu[1])
