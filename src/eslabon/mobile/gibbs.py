"""The Gibbs–Appell terms of a mobile manipulator (Araujo (2012), (2.25), (3.33)–(3.56)):
the platform's bodies, the arm on a base moving with the chassis, and the coupled system
D [ν̇; q̈] + φ = [Q; τ] (:func:`coupled_terms`). Used by both coupling modes
(:mod:`.manipulator`, :mod:`.thesis`) and the energies (:mod:`.energy`)."""

from __future__ import annotations

import numpy as np
from scipy.linalg import cho_factor, cho_solve

from .._args import finite_array
from ..dynamics.gibbs_appell import chain_terms
from ..kinematics.kinematic_pass import BaseMotion, kinematic_pass
from ..spatial.rotations import skew
from .platforms import Z
from .terrain import chassis_gravity


def _arm_pass(mm, q, qd, chassis, mount_point, with_partials, g_chassis=None):
    """The arm's q̈ = 0 pass from a base moving with the chassis, and the base partials
    (everything in the arm's base frame; gravity enters as the base's a − g; g in the
    chassis frame, default (0, 0, −g))."""
    Rt = mm.mount.rotation.T
    if g_chassis is None:
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


def platform_terms(mm, bodies, g_chassis=None):
    """D (k, k) and φ (k,) of the platform's own bodies (2.25 summed over them).

    Parameters
    ----------
    mm : MobileManipulator
    bodies : list of BodyMotion
        ``platform.motion(config, nu).bodies`` (chassis-frame vectors).
    g_chassis : array_like (3,), optional
        Gravity in the chassis frame [m/s²] R_z(θ)ᵀ g_F (``terrain.chassis_gravity``);
        default (0, 0, −g), the level floor.

    Returns
    -------
    D : ndarray (k, k)
        Σ m J_aᵀ J_a + J_ωᵀ I J_ω over the bodies.
    phi : ndarray (k,)
        Velocity products and gravity (−g along the chassis z) [N, N·m].
    """
    k = mm.n_quasi
    D = np.zeros((k, k))
    phi = np.zeros(k)
    if g_chassis is None:
        g_chassis = np.array([0.0, 0.0, -mm.gravity])
    for b in bodies:
        Jw, Ja = b.d_omega_dot, b.d_com_accel
        D += b.mass * Ja.T @ Ja + Jw.T @ b.inertia @ Jw
        phi += b.mass * Ja.T @ (b.com_accel0 - g_chassis) + Jw.T @ (
            b.inertia @ b.omega_dot0 + skew(b.omega) @ (b.inertia @ b.omega)
        )
    return D, phi


def coupled_terms(mm, y):
    """D (k+n, k+n), φ (k+n,) and the configuration rates of the coupled system at y.

    The Gibbs–Appell terms of ``mode="coupled"`` (whatever ``mm.mode`` is): the Gibbs
    function (Araujo (2012), (2.25)) summed over the platform's bodies and the arm's
    links, in the unknowns a = [ν̇; q̈], gives D a + φ = [Q_platform; τ]. The arm's
    partials start from the mount's (3.39–3.51). φ holds the velocity products, gravity
    and, on the arm's rows, its joint friction; D holds the arm's armature. Gravity is
    ``mm.ground``'s (a slope turns it in the chassis frame with the heading:
    :mod:`eslabon.mobile.terrain`).

    Parameters
    ----------
    mm : MobileManipulator
    y : array_like (n_state,)
        The state [config, q, ν, q̇].

    Returns
    -------
    D : ndarray (k + n, k + n)
        Symmetric positive (semi)definite; rows and columns in the order of
        ``mm.coordinate_names`` (kg for V, kg·m² for angles, mixed off the diagonal).
    phi : ndarray (k + n,)
        [N or N·m] per coordinate: the generalized forces at a = 0.
    rates : ndarray (nc,)
        q̇ = G ν of the configuration (ẋ, ẏ [m/s] in the floor frame, the angles' rates
        [rad/s]).

    Raises
    ------
    ValueError
        ``y`` of the wrong length or not finite; a tricycle steering angle outside
        (−90°, 90°).

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon import mobile as mb
    >>> cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    >>> mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"), mb.Mount((0.3, 0, 0.5)))
    >>> D, phi, rates = mb.coupled_terms(mm, mm.state(nu=[1.0, 0.0]))
    >>> D.shape, phi.shape, rates.shape, bool(np.allclose(D, D.T))
    ((8, 8), (8,), (7,), True)
    """
    config, q, nu, qd = mm.split(y)
    pm = mm.platform.motion(config, nu)
    bodies, chassis, rates = pm.bodies, pm.chassis, pm.rates
    g_chassis = chassis_gravity(mm, config[2])  # (0, 0, −g) on the level floor
    D_p, phi_p = platform_terms(mm, bodies, g_chassis)
    arm = _arm_pass(mm, q, qd, chassis, chassis.point(mm.mount.translation), True, g_chassis)
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
    u = finite_array(u, "u", (len(mm.platform.input_names),))
    tau = finite_array(np.zeros(mm.n_arm) if tau is None else tau, "tau", (mm.n_arm,))
    return u, tau
