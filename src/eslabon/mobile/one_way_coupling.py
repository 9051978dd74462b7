"""One-way platform → arm coupling of a mobile manipulator: Araujo (2012), Ch. III, Steps 1–7.

The thesis's one-way coupling (Steps 1–7 of "Algoritmo para resolver el problema dinámico
inverso"): the platform alone — Martinenko's closed form for the tricycle
(:mod:`.steered_cart`), any other platform's own Gibbs function — then the arm on a base
moving with the chassis. :class:`ThesisOptions` switches its omissions one at a
time; ``mode="thesis"`` of :class:`~eslabon.mobile.MobileManipulator` runs it."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import steered_cart
from .gibbs import _arm_pass, _solve, platform_terms
from .platforms import Tricycle, Z

#: the tricycle's mass constants in ``mode="thesis"`` (:class:`ThesisOptions`)
THESIS_CONSTANTS = ("martinenko", "platform")


@dataclass(frozen=True)
class ThesisOptions:
    """What the thesis's one-way coupling leaves out (the defaults are the thesis's).

    Used by ``mode="thesis"`` only (Araujo (2012), Steps 1–7 of "Algoritmo para resolver
    el problema dinámico inverso"); each flag restores one term the thesis omits.

    Parameters
    ----------
    lateral_acceleration : bool
        Include the chassis origin's acceleration from the frame's turning, θ̇ z × ṙ_O (the
        tricycle's lateral V·θ̇, which the thesis's (3.21) and Step 6 drop by
        differentiating the velocity's chassis-frame components), in the arm base's motion.
    platform_acceleration : bool
        Let the platform's accelerations (the tricycle's V̇ and θ̈ from Martinenko's
        closed form) reach the arm's base; the thesis moves the base with the chassis's
        velocity products only.
    constants : {"martinenko", "platform"}
        The tricycle's mass constants: ``"martinenko"`` (default) the ones Martinenko
        prints and the thesis uses, those of a steered axle with two front wheels
        (:func:`~eslabon.mobile.steered_cart.mass_constants` with ``front_wheels=2``);
        ``"platform"`` those of the platform's own front wheels (eslabon's one-wheel
        adaptation for the assumed Seekur Jr., which ``mode="coupled"`` agrees with).
        Other platforms have no closed form and use their own Gibbs function.

    Raises
    ------
    ValueError
        ``constants`` not one of the two, a flag not a bool.

    Examples
    --------
    >>> from eslabon import mobile as mb
    >>> mb.ThesisOptions(lateral_acceleration=True)
    ThesisOptions(lateral_acceleration=True, platform_acceleration=False, constants='martinenko')
    """

    lateral_acceleration: bool = False
    platform_acceleration: bool = False
    constants: str = "martinenko"

    def __post_init__(self):
        for name in ("lateral_acceleration", "platform_acceleration"):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise ValueError(
                    f"ThesisOptions.{name}: expected True or False, got {getattr(self, name)!r}"
                )
        if self.constants not in THESIS_CONSTANTS:
            raise ValueError(
                f"ThesisOptions.constants: expected one of {THESIS_CONSTANTS}, "
                f"got {self.constants!r}"
            )


def thesis_platform_accelerations(mm, config, nu, u):
    """ν̇ (k,) of the platform alone, as ``mode="thesis"`` has it (Araujo (2012), Step 2).

    The tricycle by Martinenko's closed form (3.29, corrected 3.30) with the mass
    constants ``mm.thesis.constants`` names; any other platform by its own Gibbs function
    (its bodies only, no arm): D_p ν̇ = Q − φ_p.

    Parameters
    ----------
    mm : MobileManipulator
    config : array_like (nc,)
        The platform's configuration.
    nu : array_like (k,)
        Its quasi-velocities.
    u : array_like (k_u,)
        The platform's inputs (:meth:`generalized_forces` of the platform).

    Returns
    -------
    ndarray (k,)
        ν̇ [m/s², rad/s²].

    Raises
    ------
    ValueError
        A tricycle steering angle outside (−90°, 90°).

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon import mobile as mb
    >>> cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    >>> mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"), mode="thesis")
    >>> config, _, nu, _ = mm.split(mm.state())
    >>> round(float(mb.thesis_platform_accelerations(mm, config, nu, [150.0, 0.0])[0]), 6)
    0.40107
    """
    pf = mm.platform
    if isinstance(pf, Tricycle):
        wheels = 2 if mm.thesis.constants == "martinenko" else None
        k = steered_cart.mass_constants(pf.params, wheels)
        return steered_cart.forward(k, config[3], nu[0], nu[1], u[0], u[1])
    D, phi = platform_terms(mm, pf.motion(config, nu).bodies)
    return _solve(D, pf.generalized_forces(config, nu, u) - phi, "platform")


def _thesis_accelerations(mm, config, q, nu, qd, u, tau, locked):
    """Steps 1–7: the platform alone, then the arm on the chassis's motion."""
    opts = mm.thesis
    nu_dot = np.zeros(mm.n_quasi) if locked else thesis_platform_accelerations(mm, config, nu, u)
    ch = mm.platform.chassis(config, nu)
    if not opts.lateral_acceleration:  # (3.21): the frame's turning dropped, ÿ_R = 0
        o = ch.origin
        turning = ch.yaw_rate * np.cross(Z, o.velocity)
        ch = ch._replace(origin=o._replace(accel0=o.accel0 - turning))
    mount = ch.point(mm.mount.translation)
    if opts.platform_acceleration:  # V̇ and θ̈ reach the arm's base
        ch = ch._replace(yaw_accel0=ch.yaw_accel0 + ch.d_yaw_accel @ nu_dot)
        mount = mount._replace(accel0=mount.accel0 + mount.d_accel @ nu_dot)
    arm = _arm_pass(mm, q, qd, ch, mount, False)
    return np.concatenate([nu_dot, _solve(arm.D, tau - arm.phi, "q")])
