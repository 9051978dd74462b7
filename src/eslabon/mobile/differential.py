"""A differential-drive platform: two driven wheels on one axle and a massless caster
(not in Araujo (2012): an eslabon platform of the kind its "Recomendaciones" discuss,
written as the tricycle is, :mod:`eslabon.mobile.platforms`).

config = [x, y, θ, φ_left, φ_right], ν = [v, ω]; the wheels spin at (v ∓ l ω)/r.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .platforms import (
    ChassisMotion,
    PointMotion,
    _chassis_and_axle,
    _check_params,
    _platform_motion,
)


@dataclass(frozen=True)
class DiffDriveParams:
    """Differential drive: two driven wheels on the axle through the chassis origin.

    Two driven wheels at ±``half_track`` on the axle through the chassis origin, a
    massless caster. Geometry [m], masses [kg], yaw inertia [kg·m²]; ``chassis_com`` is
    the COM's forward offset from the axle midpoint. No defaults: every field must be
    given (or start from :meth:`seekur_jr_assumed`).

    Parameters
    ----------
    half_track : float
        l [m], > 0: each wheel's distance from the axle midpoint.
    wheel_radius : float
        r [m], > 0.
    chassis_mass : float
        [kg], > 0.
    chassis_inertia : float
        [kg·m²], > 0: yaw inertia about the chassis's centre of mass.
    chassis_com : float
        [m]: the centre of mass ahead of the axle midpoint (any sign).
    wheel_mass : float
        [kg], ≥ 0: each wheel, a uniform disc.

    Raises
    ------
    ValueError
        Naming the field: a value missing (None) or not a finite number, or out of range.

    Examples
    --------
    >>> from eslabon import mobile as mb
    >>> p = mb.DiffDriveParams.seekur_jr_assumed(wheel_mass=5.0)
    >>> p.half_track, p.wheel_radius, p.wheel_mass
    (0.314, 0.2, 5.0)
    """

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
    def seekur_jr_assumed(cls, **overrides) -> DiffDriveParams:
        """An assumed differential-drive base of the same size (docs/mobile.md).

        Assumed values, not data from Araujo (2012): l = 0.314 m, r = 0.20 m, 8 kg per
        wheel, a 334 kg chassis (350 − 2 × 8) as a uniform 1.40 × 1.30 m plate, its
        centre of mass 0.20 m ahead of the axle.

        Parameters
        ----------
        **overrides
            Fields to replace, with the units of :class:`DiffDriveParams`.

        Returns
        -------
        DiffDriveParams
            The assumed set, with the overrides.

        Raises
        ------
        ValueError
            An override that fails the checks of :class:`DiffDriveParams`.
        TypeError
            An unknown field name.
        """
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
    """A differential-drive platform: two driven wheels and a massless caster.

    config = [x, y, θ, φ_left, φ_right], ν = [v, ω] (axle-midpoint speed, yaw rate),
    inputs u = [τ_left, τ_right], the wheel torques [N·m] (left wheel at +y).

    x, y [m] are the axle midpoint in the floor (world) frame, θ the heading [rad], the φ
    the wheels' spin angles [rad]; v [m/s] along the chassis x, ω = θ̇ [rad/s]. The wheels
    spin at (v ∓ l ω)/r (left, right). Not in Araujo (2012): an eslabon platform of the
    same kind, for ``mode="coupled"`` only.

    Parameters
    ----------
    params : DiffDriveParams

    Attributes
    ----------
    params : DiffDriveParams
        As given.
    kind : str
        ``"differential_drive"``.
    config_names : tuple of str
        ``("x", "y", "heading", "phi_left", "phi_right")``, nc = 5.
    quasi_names : tuple of str
        ``("v", "yaw_rate")``, k = 2.
    input_names : tuple of str
        ``("tau_left", "tau_right")``.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import mobile as mb
    >>> base = mb.DifferentialDrive(mb.DiffDriveParams.seekur_jr_assumed())
    >>> np.round(base.motion(np.zeros(5), [1.0, 0.5]).rates, 4).tolist()
    [1.0, 0.0, 0.5, 4.215, 5.785]
    """

    params: DiffDriveParams
    kind = "differential_drive"
    config_names = ("x", "y", "heading", "phi_left", "phi_right")
    quasi_names = ("v", "yaw_rate")
    input_names = ("tau_left", "tau_right")

    def chassis(self, config, nu) -> ChassisMotion:
        """θ̇ = ω, r̈_R = [v̇, v ω, 0].

        Parameters
        ----------
        config : array_like (nc,)
            Unused (the chassis motion does not depend on the configuration).
        nu : array_like (2,)
            [v [m/s], ω [rad/s]].

        Returns
        -------
        ChassisMotion
            θ̇ = ω, θ̈ at ν̇ = 0 (0), ∂θ̈/∂ν̇ = [0, 1] and the axle midpoint's motion
            (chassis frame's axes).
        """
        v, w = nu
        origin = PointMotion(
            np.array([v, 0.0, 0.0]),
            np.array([0.0, v * w, 0.0]),
            np.array([[1.0, 0.0], [0.0, 0.0], [0.0, 0.0]]),
        )
        return ChassisMotion(w, 0.0, np.array([0.0, 1.0]), origin)

    def motion(self, config, nu):
        """:class:`PlatformMotion` at one state: the chassis and the two wheels.

        Parameters
        ----------
        config : array_like (5,)
            The configuration; only θ = ``config[2]`` [rad] is used.
        nu : array_like (2,)
            [v [m/s], ω [rad/s]].

        Returns
        -------
        PlatformMotion
            Bodies in the chassis frame's axes; ``rates`` (5,) with ẋ, ẏ in the floor
            frame; ``accel0`` (5,); ``G`` (5, 2).
        """
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
        """A wheel torque τ does work on its spin ψ̇ = (v ∓ l ω)/r.

        Q = [(τ_L + τ_R)/r, l (τ_R − τ_L)/r].

        Parameters
        ----------
        config : array_like (nc,)
            Unused.
        nu : array_like (2,)
            Unused.
        u : array_like (2,)
            [τ_left, τ_right] [N·m].

        Returns
        -------
        ndarray (2,)
            Q [N, N·m], the generalized forces of ν = [v, ω].
        """
        p = self.params
        return np.array(
            [(u[0] + u[1]) / p.wheel_radius, p.half_track * (u[1] - u[0]) / p.wheel_radius]
        )
