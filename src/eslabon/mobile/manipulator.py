"""A serial arm on a wheeled platform, by Gibbs–Appell in quasi-velocities (seed 003,
Araujo 2012, Ch. III, and Steps 1–7 of its "Algoritmo para resolver el problema dinámico
inverso").

The state is y = [config, q, ν, q̇]: the platform's configuration (pose, steering, wheel
angles), the arm joints, the platform's quasi-velocities and the arm rates. Two coupling
modes:

``"coupled"``
    One Gibbs function over every body (chassis, steering body, wheels, arm links) in the
    quasi-velocities [ν, q̇]: S = ½ [ν̇; q̈]ᵀ D [ν̇; q̈] + φᵀ [ν̇; q̈] + f, so
    D [ν̇; q̈] + φ = [Q_platform; τ]. The arm's base (the mount) moves with the chassis:
    its partials ∂ω̇/∂ν̇, ∂r̈/∂ν̇ start the arm's recursive partials (3.39–3.51) and its
    velocity-product motion starts the q̈ = 0 pass, so the arm's mass and reactions act
    on the platform and the platform's V̇, θ̈ reach the arm.

``"thesis"`` (tricycle only)
    The thesis's one-way coupling (Steps 1–7): the platform by Martinenko's closed form
    (:mod:`eslabon.mobile.martinenko`) with the platform's own masses; the arm by
    q̈ = D⁻¹(τ − φ) with D over the arm joints alone and φ from a base that moves with the
    chassis's velocity products only. Its omissions are flags of :class:`ThesisOptions`:
    ``lateral_acceleration`` (the rear-axle midpoint's lateral acceleration V·θ̇, which
    (3.21) and Step 6 set to 0 because they differentiate the body-frame velocity (3.19);
    default False = as the thesis) and ``platform_acceleration`` (V̇, θ̈ reaching the arm;
    default False). The thesis's gravity sign is an error, not an option: Step 6 sets
    ⁰r̈₀ = [0, 0, −g]ᵀ with z up, where Luh's base-acceleration trick needs +g, so
    gravity always pulls down here. q1 is the rear-axle distance travelled: the thesis
    calls q1 the position of the front-axle centre, but its Step 2 gives q̈1 Martinenko's
    rear-axle V̇, so V is taken at the rear axle throughout.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.linalg import cho_factor, cho_solve

from .._args import finite_array, finite_number
from ..dynamics.gibbs_appell import chain_terms
from ..kinematics.forward import forward_kinematics
from ..kinematics.kinematic_pass import BaseMotion, kinematic_pass
from ..model.model import Model
from ..model.validate import check_rotation
from ..spatial.rotations import skew
from . import martinenko
from .platforms import DifferentialDrive, Tricycle, Z

MODES = ("coupled", "thesis")


@dataclass(frozen=True)
class Mount:
    """Where the arm's base frame sits on the chassis: ``translation`` (3,) [m] from the
    rear-axle midpoint and ``rotation`` (3, 3) chassis ← arm base."""

    translation: tuple = (0.0, 0.0, 0.0)
    rotation: np.ndarray = field(default_factory=lambda: np.eye(3))

    def __post_init__(self):
        object.__setattr__(
            self, "translation", finite_array(self.translation, "mount.translation", (3,))
        )
        object.__setattr__(self, "rotation", check_rotation(self.rotation, "mount.rotation"))


@dataclass(frozen=True)
class ThesisOptions:
    """What the thesis's one-way coupling leaves out (False = as the thesis)."""

    lateral_acceleration: bool = False
    platform_acceleration: bool = False


@dataclass(frozen=True)
class MobileManipulator:
    """``platform`` (:class:`Tricycle` or :class:`DifferentialDrive`), ``arm`` (a fixed-base
    :class:`~eslabon.Model`, its base frame placed by ``mount``), the coupling ``mode``,
    and ``gravity`` [m/s²] acting along −z of the floor."""

    platform: Tricycle | DifferentialDrive
    arm: Model
    mount: Mount = field(default_factory=Mount)
    mode: str = "coupled"
    thesis: ThesisOptions = field(default_factory=ThesisOptions)
    gravity: float = 9.81
    name: str = "mobile_manipulator"

    def __post_init__(self):
        if not isinstance(self.platform, (Tricycle, DifferentialDrive)):
            raise ValueError(
                f"platform: expected a Tricycle or DifferentialDrive, got "
                f"{type(self.platform).__name__}"
            )
        if not isinstance(self.arm, Model):
            raise ValueError(f"arm: expected an eslabon Model, got {type(self.arm).__name__}")
        self.arm.require_one_dof_joints("a mobile manipulator's arm (seed 003)")
        if self.mode not in MODES:
            raise ValueError(f"mode: expected one of {MODES}, got {self.mode!r}")
        if self.mode == "thesis" and not isinstance(self.platform, Tricycle):
            raise ValueError(
                "mode: 'thesis' is the seed's tricycle coupling; use 'coupled' "
                f"for a {self.platform.kind} platform"
            )
        object.__setattr__(self, "gravity", finite_number(self.gravity, "gravity"))

    # --- layout of the state y = [config, q, ν, q̇] --------------------------------------
    @property
    def n_config(self) -> int:
        return len(self.platform.config_names)

    @property
    def n_quasi(self) -> int:
        return len(self.platform.quasi_names)

    @property
    def n_arm(self) -> int:
        return self.arm.nq

    @property
    def n_state(self) -> int:
        return self.n_config + 2 * self.n_arm + self.n_quasi

    @property
    def coordinate_names(self) -> tuple:
        """Names of the accelerations [ν̇; q̈] (the Gibbs–Appell unknowns)."""
        return tuple(self.platform.quasi_names) + tuple(f"q{i + 1}" for i in range(self.n_arm))

    def state(self, config=None, q=None, nu=None, qd=None) -> np.ndarray:
        """Pack y (zeros where not given)."""
        parts = [
            (config, self.n_config, "config"),
            (q, self.n_arm, "q"),
            (nu, self.n_quasi, "nu"),
            (qd, self.n_arm, "qd"),
        ]
        return np.concatenate(
            [np.zeros(n) if x is None else finite_array(x, name, (n,)) for x, n, name in parts]
        )

    def split(self, y):
        """(config, q, ν, q̇) views of y (n_state,)."""
        y = finite_array(y, "state", (self.n_state,))
        a = self.n_config
        b = a + self.n_arm
        c = b + self.n_quasi
        return y[:a], y[a:b], y[b:c], y[c:]

    def with_mode(self, mode: str, **thesis_flags) -> "MobileManipulator":
        return MobileManipulator(
            self.platform,
            self.arm,
            self.mount,
            mode,
            ThesisOptions(**thesis_flags) if thesis_flags else self.thesis,
            self.gravity,
            self.name,
        )


def _arm_pass(mm, q, qd, chassis, mount_point, with_partials):
    """The arm's q̈ = 0 pass from a base moving with the chassis, and the base partials
    (everything in the arm's base frame; gravity enters as the base's a − g)."""
    Rt = mm.mount.rotation.T
    g_chassis = np.array([0.0, 0.0, -mm.gravity])
    mount = BaseMotion(
        angular_velocity=Rt @ (chassis.yaw_rate * Z),
        angular_acceleration=Rt @ (chassis.yaw_accel0 * Z),
        linear_velocity=Rt @ mount_point.velocity,
        linear_acceleration=Rt @ (mount_point.accel0 - g_chassis),
    )  # Luh
    motion = kinematic_pass(mm.arm, q, qd, np.zeros_like(q), base=mount)
    base_partials = None
    if with_partials:
        base_partials = (Rt @ np.outer(Z, chassis.d_yaw_accel), Rt @ mount_point.d_accel)
    return chain_terms(mm.arm, motion, qd, np.zeros(3), base_partials)


def platform_terms(mm, bodies):
    """D (k, k) and φ (k,) of the platform's own bodies (2.25 summed over them)."""
    k = mm.n_quasi
    D = np.zeros((k, k))
    phi = np.zeros(k)
    g_chassis = np.array([0.0, 0.0, -mm.gravity])
    for b in bodies:
        Jw, Ja = b.d_omega_dot, b.d_com_accel
        D += b.mass * Ja.T @ Ja + Jw.T @ b.inertia @ Jw
        phi += b.mass * Ja.T @ (b.com_accel0 - g_chassis) + Jw.T @ (
            b.inertia @ b.omega_dot0 + skew(b.omega) @ (b.inertia @ b.omega)
        )
    return D, phi


def coupled_terms(mm, y):
    """D (k+n, k+n), φ (k+n,) and the configuration rates of the coupled system at y."""
    config, q, nu, qd = mm.split(y)
    pm = mm.platform.motion(config, nu)
    bodies, chassis, rates = pm.bodies, pm.chassis, pm.rates
    D_p, phi_p = platform_terms(mm, bodies)
    arm = _arm_pass(mm, q, qd, chassis, chassis.point(mm.mount.translation), True)
    D, phi = arm.D.copy(), arm.phi.copy()
    k = mm.n_quasi
    D[:k, :k] += D_p
    phi[:k] += phi_p
    return D, phi, rates


def _solve(D, rhs, what):
    try:
        return cho_solve(cho_factor(D), rhs)
    except np.linalg.LinAlgError:
        raise ValueError(
            f"{what}: the Gibbs–Appell matrix D is not positive definite here "
            "(a coordinate moves no mass)"
        ) from None


def _inputs(mm, u, tau):
    u = finite_array(u, "u", (mm.n_quasi,))
    tau = finite_array(np.zeros(mm.n_arm) if tau is None else tau, "tau", (mm.n_arm,))
    return u, tau


def accelerations(mm, y, u, tau=None, *, locked: bool = False):
    """[ν̇; q̈] (k + n,) at state y under platform inputs ``u`` (tricycle [F, M], differential
    drive [τ_left, τ_right]) and arm torques ``tau``. ``locked`` holds the platform
    (ν̇ = 0; the arm then moves as on a fixed base carried at the platform's velocity)."""
    u, tau = _inputs(mm, u, tau)
    config, q, nu, qd = mm.split(y)
    k = mm.n_quasi
    if mm.mode == "thesis":
        return _thesis_accelerations(mm, config, q, nu, qd, u, tau, locked)
    D, phi, _ = coupled_terms(mm, y)
    Q = np.concatenate([mm.platform.generalized_forces(config, nu, u), tau])
    if locked:
        return np.concatenate([np.zeros(k), _solve(D[k:, k:], Q[k:] - phi[k:], "q")])
    return _solve(D, Q - phi, "state")


def _thesis_accelerations(mm, config, q, nu, qd, u, tau, locked):
    """Steps 1–7: Martinenko for the platform, then the arm on the chassis's motion."""
    opts = mm.thesis
    nu_dot = (
        np.zeros(2)
        if locked
        else martinenko.forward(
            martinenko.mass_constants(mm.platform.params), config[3], nu[0], nu[1], u[0], u[1]
        )
    )
    ch = mm.platform.chassis(config, nu)
    if not opts.lateral_acceleration:  # (3.21): ÿ_R = 0 as printed
        ch = ch._replace(origin=ch.origin._replace(accel0=np.zeros(3)))
    mount = ch.point(mm.mount.translation)
    if opts.platform_acceleration:  # V̇ and θ̈ reach the arm's base
        ch = ch._replace(yaw_accel0=ch.yaw_accel0 + ch.d_yaw_accel @ nu_dot)
        mount = mount._replace(accel0=mount.accel0 + mount.d_accel @ nu_dot)
    arm = _arm_pass(mm, q, qd, ch, mount, False)
    return np.concatenate([nu_dot, _solve(arm.D, tau - arm.phi, "q")])


def inverse_dynamics(mm, y, nu_dot, qdd):
    """[Q_platform; τ] (k + n,) that give the accelerations (coupled mode): D a + φ.
    Q_platform is in quasi-velocity form (tricycle: [F, M])."""
    if mm.mode != "coupled":
        raise ValueError(
            "mode: inverse_dynamics is the coupled system's; the thesis's "
            "one-way model has no single inverse"
        )
    D, phi, _ = coupled_terms(mm, y)
    a = np.concatenate(
        [finite_array(nu_dot, "nu_dot", (mm.n_quasi,)), finite_array(qdd, "qdd", (mm.n_arm,))]
    )
    return D @ a + phi


def state_derivative(mm, y, u, tau=None, *, locked: bool = False):
    """ẏ = [G(config) ν, q̇, ν̇, q̈]."""
    config, q, nu, qd = mm.split(y)
    rates = mm.platform.motion(config, nu).rates
    acc = accelerations(mm, y, u, tau, locked=locked)
    return np.concatenate([rates, qd, acc])


def kinetic_energy(mm, y) -> float:
    """T = ½ [ν; q̇]ᵀ D [ν; q̇] (every velocity is linear in the quasi-velocities with the
    same partials as the accelerations), coupled system."""
    _, _, nu, qd = mm.split(y)
    D = coupled_terms(mm.with_mode("coupled"), y)[0]
    v = np.concatenate([nu, qd])
    return 0.5 * v @ D @ v


def potential_energy(mm, y) -> float:
    """Gravity's potential of the arm's links (the platform's bodies stay at their height)."""
    _, q, _, _ = mm.split(y)
    T = forward_kinematics(mm.arm, q)  # bodies in the arm's base
    com_in_base = np.einsum("bij,bj->bi", T[:, :3, :3], mm.arm.com) + T[:, :3, 3]
    heights = com_in_base @ mm.mount.rotation[2] + mm.mount.translation[2]
    return float(mm.gravity * mm.arm.mass[1:] @ heights[1:])


def input_power(mm, y, u, tau=None) -> float:
    """Power of the inputs less the arm's joint friction: Q_platformᵀ ν + τᵀ q̇ − friction."""
    u, tau = _inputs(mm, u, tau)
    config, _, nu, qd = mm.split(y)
    a = mm.arm
    dof = a.dof_bodies
    friction = a.viscous[dof] * qd * qd + a.coulomb[dof] * np.abs(qd)
    return float(mm.platform.generalized_forces(config, nu, u) @ nu + tau @ qd - friction.sum())
