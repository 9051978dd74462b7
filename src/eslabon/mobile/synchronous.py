"""A synchronous-drive platform: every wheel steered and driven together (the
"plataformas de tracción sincronizada" that Araujo (2012), "Recomendaciones", names as
further work).

n_w ≥ 2 wheels stand on a circle of radius ρ about the chassis origin, each turning about
its own vertical axis through its centre. One motor steers all of them to the same angle
γ (relative to the chassis) through a belt, and another spins all of them at the same rate
ψ̇; a turret on the chassis origin turns with γ. Every wheel rolls without slip or skid,
so all wheel centres move along e(γ) = (cos γ, sin γ) at the same speed v: the chassis
translates and its heading θ stays constant (two parallel wheels at different places
admit no yaw). The quasi-velocities are ν = [v, γ̇]:

    ṙ_O = v e(γ),  r̈_O = v̇ e + v γ̇ n (n = z × e),  θ̇ = 0,  ψ̇ = v / r.

The drive torque τ_d does work τ_d ψ̇ = τ_d v / r and the steering torque τ_s works on γ̇:
Q = [τ_d / r, τ_s]. The chassis's yaw inertia never enters (θ̇ ≡ 0).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from ..model.validate import as_int
from .platforms import (
    ChassisMotion,
    PointMotion,
    Z,
    _check_params,
    _platform_motion,
    _wheel,
    _yawing,
)


@dataclass(frozen=True)
class SyncDriveParams:
    """Chassis, turret and wheels of a synchronous drive.

    Geometry [m], masses [kg], yaw inertias [kg·m²]. No defaults: every field must be
    given (or start from :meth:`three_wheel_assumed`).

    Parameters
    ----------
    wheels : int
        n_w ≥ 2, placed at angles 2πk/n_w (k = 0 … n_w − 1) from the chassis x.
    wheel_circle_radius : float
        ρ [m], > 0: the wheels' distance from the chassis origin.
    wheel_radius : float
        r [m], > 0.
    wheel_mass : float
        [kg], ≥ 0: each wheel, a uniform disc.
    chassis_mass : float
        [kg], > 0.
    chassis_inertia : float
        [kg·m²], > 0: the chassis's yaw inertia about its centre of mass (it never enters
        the motion: the heading is constant).
    chassis_com : float
        [m]: the centre of mass ahead of the chassis origin (any sign).
    turret_mass : float
        [kg], ≥ 0: the turret, its centre of mass on the chassis origin.
    turret_inertia : float
        [kg·m²], ≥ 0: its yaw inertia.

    Raises
    ------
    ValueError
        Naming the field: a value missing or not finite, out of range, or nothing for the
        steering torque to turn (turret inertia + n_w m r²/4 = 0).

    Examples
    --------
    >>> from eslabon import mobile as mb
    >>> p = mb.SyncDriveParams.three_wheel_assumed()
    >>> p.wheels, p.wheel_circle_radius
    (3, 0.2)
    """

    wheels: int | None = None
    wheel_circle_radius: float | None = None
    wheel_radius: float | None = None
    wheel_mass: float | None = None
    chassis_mass: float | None = None
    chassis_inertia: float | None = None
    chassis_com: float | None = None
    turret_mass: float | None = None
    turret_inertia: float | None = None

    def __post_init__(self):
        _check_params(
            self,
            positive=("wheel_circle_radius", "wheel_radius", "chassis_mass", "chassis_inertia"),
            nonnegative=("wheel_mass", "turret_mass", "turret_inertia"),
            finite=("chassis_com",),
        )
        if self.wheels is None:
            raise ValueError("SyncDriveParams.wheels: missing; expected an integer >= 2")
        n = as_int(self.wheels, "SyncDriveParams.wheels", "an integer >= 2")
        if n < 2:
            raise ValueError(f"SyncDriveParams.wheels: expected an integer >= 2, got {n}")
        object.__setattr__(self, "wheels", n)
        if self.turret_inertia + n * self.wheel_mass * self.wheel_radius**2 / 4 <= 0:
            raise ValueError(
                "SyncDriveParams.turret_inertia: the steered turret and wheels must "
                "have yaw inertia, got 0"
            )

    @classmethod
    def three_wheel_assumed(cls, **overrides) -> SyncDriveParams:
        """An assumed three-wheel synchronous drive (not data from any source document).

        Three wheels on a 0.20 m circle, r = 0.06 m, 1 kg each; a 2 kg turret
        (0.01 kg·m²); a 30 kg chassis as a uniform disc of radius 0.25 m, its centre of
        mass 0.02 m ahead of the origin.

        Parameters
        ----------
        **overrides
            Fields to replace, with the units of :class:`SyncDriveParams`.

        Returns
        -------
        SyncDriveParams

        Raises
        ------
        ValueError
            An override that fails the checks of :class:`SyncDriveParams`.
        TypeError
            An unknown field name.
        """
        values = dict(
            wheels=3,
            wheel_circle_radius=0.20,
            wheel_radius=0.06,
            wheel_mass=1.0,
            chassis_mass=30.0,
            chassis_inertia=30.0 * 0.25**2 / 2,
            chassis_com=0.02,
            turret_mass=2.0,
            turret_inertia=0.01,
        )
        values.update(overrides)
        return cls(**values)

    def wheel_positions(self) -> np.ndarray:
        """The wheel centres (n_w, 3) in the chassis frame [m] (z = 0: the axle height).

        Returns
        -------
        ndarray (n_w, 3)

        Examples
        --------
        >>> from eslabon import mobile as mb
        >>> mb.SyncDriveParams.three_wheel_assumed(wheels=2).wheel_positions().round(6).tolist()
        [[0.2, 0.0, 0.0], [-0.2, 0.0, 0.0]]
        """
        a = 2 * np.pi * np.arange(self.wheels) / self.wheels
        rho = self.wheel_circle_radius
        return np.column_stack([rho * np.cos(a), rho * np.sin(a), np.zeros_like(a)])


SYNC_FIELDS = tuple(f.name for f in fields(SyncDriveParams))


@dataclass(frozen=True)
class SynchronousDrive:
    """A synchronous drive: all wheels steered to one angle γ and spun at one rate.

    config = [x, y, θ, γ, φ_1 … φ_nw], ν = [v, γ̇], inputs u = [τ_drive, τ_steer] [N·m]:
    the torque spinning the wheels (through the belt) and the one steering them.

    x, y [m] are the chassis origin in the floor (world) frame, θ the heading [rad]
    (constant), γ the wheels' steering angle relative to the chassis [rad], the φ the
    wheels' spin angles [rad] (all equal); v [m/s] is the speed along e(γ). Not in Araujo
    (2012), whose "Recomendaciones" name it as further work: an eslabon platform, in both
    coupling modes.

    Parameters
    ----------
    params : SyncDriveParams

    Attributes
    ----------
    params : SyncDriveParams
        As given.
    kind : str
        ``"synchronous_drive"``.
    config_names : tuple of str
        ``("x", "y", "heading", "steering", "phi_1", …)``, nc = 4 + n_w.
    quasi_names : tuple of str
        ``("v", "steering_rate")``, k = 2.
    input_names : tuple of str
        ``("tau_drive", "tau_steer")``.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import mobile as mb
    >>> base = mb.SynchronousDrive(mb.SyncDriveParams.three_wheel_assumed())
    >>> config = [0.0, 0.0, 0.0, np.pi / 2, 0.0, 0.0, 0.0]  # wheels turned to the left
    >>> np.round(base.motion(config, [1.0, 0.0]).rates, 4).tolist()
    [0.0, 1.0, 0.0, 0.0, 16.6667, 16.6667, 16.6667]
    """

    params: SyncDriveParams
    kind = "synchronous_drive"
    quasi_names = ("v", "steering_rate")
    input_names = ("tau_drive", "tau_steer")

    @property
    def config_names(self):
        return ("x", "y", "heading", "steering") + tuple(
            f"phi_{i + 1}" for i in range(self.params.wheels)
        )

    def chassis(self, config, nu) -> ChassisMotion:
        """θ̇ = 0, r̈_O = v̇ e(γ) + v γ̇ n(γ) (chassis axes).

        Parameters
        ----------
        config : array_like (nc,)
            The configuration; only γ = ``config[3]`` [rad] is used.
        nu : array_like (2,)
            [v [m/s], γ̇ [rad/s]].

        Returns
        -------
        ChassisMotion
            θ̇ = 0, θ̈ = 0 and the origin's motion.
        """
        g = config[3]
        v, g_rate = nu
        e = np.array([np.cos(g), np.sin(g), 0.0])
        origin = PointMotion(v * e, v * g_rate * np.cross(Z, e), np.column_stack([e, np.zeros(3)]))
        return ChassisMotion(0.0, 0.0, np.zeros(2), origin)

    def motion(self, config, nu):
        """:class:`PlatformMotion` at one state: chassis, turret and wheels.

        Parameters
        ----------
        config : array_like (nc,)
            The configuration; θ = ``config[2]`` and γ = ``config[3]`` [rad] are used.
        nu : array_like (2,)
            [v [m/s], γ̇ [rad/s]].

        Returns
        -------
        PlatformMotion
            Bodies in the chassis frame's axes; ``rates`` (nc,) with ẋ, ẏ in the floor
            frame; ``accel0`` (nc,); ``G`` (nc, 2).
        """
        p = self.params
        ch = self.chassis(config, nu)
        g = config[3]
        d_g = np.array([0.0, 1.0])
        bodies = [
            _yawing(
                "chassis", p.chassis_mass, p.chassis_inertia, 0.0, 0.0, np.zeros(2),
                ch.point([p.chassis_com, 0.0, 0.0]),
            ),
            _yawing("turret", p.turret_mass, p.turret_inertia, nu[1], 0.0, d_g, ch.origin),
        ]  # fmt: skip
        spins = []
        for i, where in enumerate(p.wheel_positions()):
            body, spin = _wheel(
                f"wheel_{i + 1}", p.wheel_mass, p.wheel_radius, g, nu[1], 0.0, d_g,
                ch.point(where),
            )  # fmt: skip
            bodies.append(body)
            spins.append(spin)
        return _platform_motion(bodies, ch, config[2], spins, nu[1])

    def generalized_forces(self, config, nu, u):
        """Q = [τ_drive / r, τ_steer]: the drive works on ψ̇ = v / r, the steering on γ̇.

        Parameters
        ----------
        config : array_like (nc,)
            Unused.
        nu : array_like (2,)
            Unused.
        u : array_like (2,)
            [τ_drive, τ_steer] [N·m].

        Returns
        -------
        ndarray (2,)
            Q [N, N·m], the generalized forces of ν = [v, γ̇].
        """
        return np.array([u[0] / self.params.wheel_radius, u[1]], dtype=float)
