"""An omnidirectional platform: omni or mecanum wheels at fixed headings (the "plataformas
omnidireccionales" that Araujo (2012), "Recomendaciones", names as further work).

Each wheel turns about its axle at a fixed place and heading on the chassis and carries
massless rollers whose axes make the angle α with the wheel's rolling direction e (an
omni wheel α = 0, a mecanum wheel ±45°). The contact rolls without slip along the roller
axis and slides freely across it, so only v_c · w is tied to the wheel's spin, with
w = e + tan α n (n = z × e, the axle):

    r ψ̇ = v_c · w,    r ψ̈ = r̈_c · w + θ̇ v_c · (z × w)

where v_c is the wheel centre's velocity. Nothing else constrains the chassis: the
quasi-velocities are its three planar velocities, ν = [v_x, v_y, ω] (the chassis origin's
velocity in the chassis axes and the yaw rate), and the wheel spins follow from ν. The
wheel torques τ do work τ ψ̇, so Q = Jᵀ τ with J = ∂ψ̇/∂ν (n_w, 3); the wheels must be
able to drive every direction (J of rank 3).

The bodies (chassis, wheel hubs as uniform discs) enter the Gibbs function (Araujo
(2012), (2.25)) as the other platforms' do (:mod:`eslabon.mobile.platforms`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._args import finite_array
from .platforms import (
    ChassisMotion,
    PointMotion,
    _check_params,
    _platform_motion,
    _wheel,
    _yawing,
)

#: the largest roller angle accepted [rad]: at 90° the roller axis is the wheel's axle and
#: the spin no longer follows the motion
MAX_ROLLER_ANGLE = np.radians(80.0)


@dataclass(frozen=True)
class OmniParams:
    """Chassis and wheels of an omnidirectional platform.

    Geometry [m], masses [kg], yaw inertia [kg·m²], angles [rad]. No defaults: every
    field must be given (or start from :meth:`mecanum_assumed` or
    :meth:`three_wheel_assumed`).

    Parameters
    ----------
    wheels : array_like (n_w, 4)
        One row per wheel, n_w ≥ 3: [x, y, heading, roller_angle], the wheel centre in
        the chassis frame [m], its rolling direction's angle from the chassis x [rad], the
        angle α of its rollers' axes from that direction [rad], abs(α) ≤ 80° (0: omni wheel,
        ±π/4: mecanum).
    wheel_radius : float
        r [m], > 0.
    wheel_mass : float
        [kg], ≥ 0: each wheel hub, a uniform disc (the rollers are massless).
    chassis_mass : float
        [kg], > 0.
    chassis_inertia : float
        [kg·m²], > 0: yaw inertia about the chassis's centre of mass.
    chassis_com : float
        [m]: the centre of mass ahead of the chassis origin (any sign).

    Attributes
    ----------
    wheels : tuple of tuple
        As given, as n_w rows of four floats (immutable, so that parameters compare and
        hash as the other platforms' do).

    Raises
    ------
    ValueError
        Naming the field: a value missing or not finite, out of range, fewer than three
        wheels, a roller angle beyond 80°, or wheels that cannot drive every planar
        direction (∂ψ̇/∂ν of rank < 3).

    Examples
    --------
    >>> from eslabon import mobile as mb
    >>> p = mb.OmniParams.mecanum_assumed()
    >>> len(p.wheels), p.wheels[0][3] == -p.wheels[1][3], p.wheel_radius
    (4, True, 0.1)
    """

    wheels: tuple | None = None
    wheel_radius: float | None = None
    wheel_mass: float | None = None
    chassis_mass: float | None = None
    chassis_inertia: float | None = None
    chassis_com: float | None = None

    def __post_init__(self):
        _check_params(
            self,
            positive=("wheel_radius", "chassis_mass", "chassis_inertia"),
            nonnegative=("wheel_mass",),
            finite=("chassis_com",),
        )
        if self.wheels is None:
            raise ValueError("OmniParams.wheels: missing; expected rows [x, y, heading, roller]")
        wheels = finite_array(self.wheels, "OmniParams.wheels")
        if wheels.ndim != 2 or wheels.shape[1] != 4 or wheels.shape[0] < 3:
            raise ValueError(
                "OmniParams.wheels: expected three or more rows [x, y, heading, "
                f"roller_angle], got shape {wheels.shape}"
            )
        if np.any(np.abs(wheels[:, 3]) > MAX_ROLLER_ANGLE):
            raise ValueError(
                "OmniParams.wheels: roller angles must be within ±80° (column 3, "
                f"radians), got {np.degrees(wheels[:, 3]).round(3).tolist()}°"
            )
        object.__setattr__(self, "wheels", tuple(tuple(float(x) for x in w) for w in wheels))
        if np.linalg.matrix_rank(spin_jacobian(self)) < 3:
            raise ValueError(
                "OmniParams.wheels: these wheels cannot drive every planar direction "
                "(∂ψ̇/∂ν has rank < 3); e.g. omni wheels need headings that differ"
            )

    @classmethod
    def mecanum_assumed(cls, **overrides) -> OmniParams:
        """An assumed four-wheel mecanum base (not data from any source document).

        Wheels at (±0.25, ±0.20) m heading forward, rollers at ∓45° in the usual X
        layout (front-left and rear-right −45°), r = 0.10 m, 2 kg each; a 60 kg chassis as
        a uniform 0.60 × 0.50 m plate, its centre of mass on the origin.

        Parameters
        ----------
        **overrides
            Fields to replace, with the units of :class:`OmniParams`.

        Returns
        -------
        OmniParams

        Raises
        ------
        ValueError
            An override that fails the checks of :class:`OmniParams`.
        TypeError
            An unknown field name.
        """
        q = np.pi / 4
        values = dict(
            wheels=[
                [0.25, 0.20, 0.0, -q],
                [0.25, -0.20, 0.0, q],
                [-0.25, 0.20, 0.0, q],
                [-0.25, -0.20, 0.0, -q],
            ],
            wheel_radius=0.10,
            wheel_mass=2.0,
            chassis_mass=60.0,
            chassis_inertia=60.0 * (0.60**2 + 0.50**2) / 12,
            chassis_com=0.0,
        )
        values.update(overrides)
        return cls(**values)

    @classmethod
    def three_wheel_assumed(cls, **overrides) -> OmniParams:
        """An assumed three-omni-wheel base (not data from any source document).

        Omni wheels (α = 0) at 0.20 m from the centre at 90°, 210° and 330°, each rolling
        tangentially; r = 0.05 m, 0.5 kg each; a 20 kg chassis as a uniform disc of radius
        0.25 m, its centre of mass on the origin.

        Parameters
        ----------
        **overrides
            Fields to replace, with the units of :class:`OmniParams`.

        Returns
        -------
        OmniParams

        Raises
        ------
        ValueError
            An override that fails the checks of :class:`OmniParams`.
        TypeError
            An unknown field name.
        """
        angles = np.radians([90.0, 210.0, 330.0])
        values = dict(
            wheels=[[0.20 * np.cos(a), 0.20 * np.sin(a), a + np.pi / 2, 0.0] for a in angles],
            wheel_radius=0.05,
            wheel_mass=0.5,
            chassis_mass=20.0,
            chassis_inertia=20.0 * 0.25**2 / 2,
            chassis_com=0.0,
        )
        values.update(overrides)
        return cls(**values)


def spin_jacobian(params: OmniParams) -> np.ndarray:
    """J = ∂ψ̇/∂ν (n_w, 3): r ψ̇_i = w_i · (v + ω z × p_i), w_i = e_i + tan α_i n_i.

    Parameters
    ----------
    params : OmniParams

    Returns
    -------
    ndarray (n_w, 3)
        [rad/s per m/s (v_x, v_y), rad/s per rad/s (ω)].

    Examples
    --------
    >>> from eslabon import mobile as mb
    >>> J = mb.omnidirectional.spin_jacobian(mb.OmniParams.mecanum_assumed())
    >>> (J * 0.1).round(6).tolist()[0]  # front left: r ψ̇ = v_x − v_y − (a + b) ω
    [1.0, -1.0, -0.45]
    """
    wheels = np.asarray(params.wheels, dtype=float)
    rows = []
    for x, y, heading, alpha in wheels:
        e = np.array([np.cos(heading), np.sin(heading)])
        w = e + np.tan(alpha) * np.array([-e[1], e[0]])
        rows.append([w[0], w[1], w[1] * x - w[0] * y])
    return np.array(rows) / params.wheel_radius


@dataclass(frozen=True)
class Omnidirectional:
    """An omnidirectional platform: omni or mecanum wheels at fixed headings.

    config = [x, y, θ, φ_1 … φ_nw], ν = [v_x, v_y, ω], inputs u = [τ_1 … τ_nw], the wheel
    torques [N·m] in the order of ``params.wheels``.

    x, y [m] are the chassis origin in the floor (world) frame, θ the heading [rad], the φ
    the wheels' spin angles [rad]; v_x, v_y [m/s] the origin's velocity along the chassis
    axes, ω = θ̇ [rad/s]. Not in Araujo (2012), whose "Recomendaciones" name it as further
    work: an eslabon platform, in both coupling modes (module docstring for the rolling
    condition).

    Parameters
    ----------
    params : OmniParams

    Attributes
    ----------
    params : OmniParams
        As given.
    kind : str
        ``"omnidirectional"``.
    config_names : tuple of str
        ``("x", "y", "heading", "phi_1", …)``, nc = 3 + n_w.
    quasi_names : tuple of str
        ``("v_x", "v_y", "yaw_rate")``, k = 3.
    input_names : tuple of str
        ``("tau_1", …)``.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import mobile as mb
    >>> base = mb.Omnidirectional(mb.OmniParams.mecanum_assumed())
    >>> np.round(base.motion(np.zeros(7), [0.0, 1.0, 0.0]).rates, 4).tolist()  # sideways
    [0.0, 1.0, 0.0, -10.0, 10.0, 10.0, -10.0]
    """

    params: OmniParams
    kind = "omnidirectional"
    quasi_names = ("v_x", "v_y", "yaw_rate")

    @property
    def config_names(self):
        return ("x", "y", "heading") + tuple(f"phi_{i + 1}" for i in range(len(self.params.wheels)))

    @property
    def input_names(self):
        return tuple(f"tau_{i + 1}" for i in range(len(self.params.wheels)))

    def chassis(self, config, nu) -> ChassisMotion:
        """θ̇ = ω, r̈_O = [v̇_x − ω v_y, v̇_y + ω v_x, 0] (chassis axes).

        Parameters
        ----------
        config : array_like (nc,)
            Unused (the chassis motion does not depend on the configuration).
        nu : array_like (3,)
            [v_x, v_y [m/s], ω [rad/s]].

        Returns
        -------
        ChassisMotion
            θ̇ = ω, θ̈ at ν̇ = 0 (0), ∂θ̈/∂ν̇ = [0, 0, 1] and the origin's motion.
        """
        vx, vy, w = nu
        origin = PointMotion(
            np.array([vx, vy, 0.0]),
            np.array([-w * vy, w * vx, 0.0]),
            np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0]]),
        )
        return ChassisMotion(w, 0.0, np.array([0.0, 0.0, 1.0]), origin)

    def motion(self, config, nu):
        """:class:`PlatformMotion` at one state: the chassis and every wheel hub.

        Parameters
        ----------
        config : array_like (nc,)
            The configuration; only θ = ``config[2]`` [rad] is used.
        nu : array_like (3,)
            [v_x, v_y [m/s], ω [rad/s]].

        Returns
        -------
        PlatformMotion
            Bodies in the chassis frame's axes; ``rates`` (nc,) with ẋ, ẏ in the floor
            frame; ``accel0`` (nc,); ``G`` (nc, 3).
        """
        p = self.params
        ch = self.chassis(config, nu)
        bodies = [
            _yawing(
                "chassis",
                p.chassis_mass,
                p.chassis_inertia,
                ch.yaw_rate,
                ch.yaw_accel0,
                ch.d_yaw_accel,
                ch.point([p.chassis_com, 0.0, 0.0]),
            )
        ]
        spins = []
        for i, (x, y, heading, alpha) in enumerate(p.wheels):
            body, spin = _wheel(
                f"wheel_{i + 1}",
                p.wheel_mass,
                p.wheel_radius,
                heading,
                ch.yaw_rate,
                ch.yaw_accel0,
                ch.d_yaw_accel,
                ch.point([x, y, 0.0]),
                roller_angle=alpha,
            )
            bodies.append(body)
            spins.append(spin)
        return _platform_motion(bodies, ch, config[2], spins)

    def generalized_forces(self, config, nu, u):
        """Q = Jᵀ τ: each wheel torque does work on its spin ψ̇ = J ν.

        Parameters
        ----------
        config : array_like (nc,)
            Unused.
        nu : array_like (3,)
            Unused.
        u : array_like (n_w,)
            The wheel torques [N·m].

        Returns
        -------
        ndarray (3,)
            Q [N, N, N·m], the generalized forces of ν = [v_x, v_y, ω].
        """
        return spin_jacobian(self.params).T @ np.asarray(u, dtype=float)
