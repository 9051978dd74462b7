"""Closed-form dynamics of the steered cart: Araujo (2012) eqs 3.26–3.30, after Martinenko (2004).

Seed 003's equations, with the thesis's printing errors corrected.

Gibbs–Appell in the two quasi-velocities V (speed of the rear-axle midpoint) and β̇
(steering rate) gives the Gibbs function (3.26, read with the quasi-accelerations where
the OCR shows single dots)

    S = ½(m + m₀ tan²β) V̇² + (I₂/b) tan β V̇ β̈ + ½ I₂ β̈²
        + (m₀ tan β / cos²β) V V̇ β̇ + (I₂ / (b cos²β)) V β̇ β̈

and the equations A(β) [V̇, β̈]ᵀ + h = [F, M]ᵀ (3.27–3.28) with

    A = [[m + m₀ tan²β, (I₂/b) tan β], [(I₂/b) tan β, I₂]]
    h = [m₀ tan β V β̇ / cos²β,  I₂ V β̇ / (b cos²β)].

Solved in closed form, with μ₀ = m + m₀ tan²β and Δ = μ₀ b² − I₂ tan²β (3.29–3.30):

    V̇ = b²/Δ F − b tan β/Δ M + tan β (I₂ − m₀ b²)/(cos²β Δ) V β̇
    β̈ = −b tan β/Δ F + b² μ₀/(I₂ Δ) M − b m/(cos²β Δ) V β̇

The thesis prints μ₀ b for μ₀ b² in the last denominator of (3.30); that value is not
produced here (``forward(..., printed=True)`` is not offered: the test shows the
difference instead). The mass constants (below 3.28), for a cart whose steered front axle
carries ``front_wheels`` wheels (Martinenko: 2, at ±l_F; the thesis's tricycle: 1, on the
steering axis, a derived adaptation) and whose wheels are uniform discs (spin inertia
m r²/2, diametral m r²/4):

    m  = 3 m_E + (3/2) n_F m_F + m_C + m_B
    I₂ = I_B + n_F m_F (r_F²/4 + (3/2) l_F²)
    m₀ = b⁻² (I₂ + I_C + m_E r_E²/2 + m_C a² + m_B b² + (3/2) n_F m_F b² + 3 m_E l_E²)

(n_F = 2 gives Martinenko's printed 3m_F, m_F(r_F²/2 + 3l_F²) and 3m_F b²). ``a`` — left
undefined in the thesis — is the distance from the rear-axle midpoint to the chassis's
centre of mass.

The thesis calls its platform a tricycle but uses Martinenko's printed constants, those of
a steered axle with two front wheels: ``mass_constants(p, front_wheels=2)``, the default
of ``mode="thesis"``. ``mass_constants(p)`` counts the front wheels the parameters give
(one, on the steering axis, for the assumed Seekur Jr.): eslabon's adaptation, the
option ``ThesisOptions(constants="platform")`` and what ``mode="coupled"`` agrees with.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._args import finite_number


class MassConstants(NamedTuple):
    """Martinenko's m [kg], I₂ [kg·m²], m₀ [kg] and the wheelbase b [m]."""

    m: float
    I2: float
    m0: float
    b: float


def mass_constants(params, front_wheels: int | None = None) -> MassConstants:
    """m, I₂, m₀ of a :class:`~eslabon.mobile.TricycleParams` (formulas in the module
    docstring).

    Parameters
    ----------
    params : TricycleParams
    front_wheels : {1, 2}, optional
        n_F in the formulas; default ``params.front_wheels``. 2 gives Martinenko's printed
        constants (Araujo (2012), below (3.28)) whatever the parameters' wheel count.

    Returns
    -------
    MassConstants
        m [kg], I₂ [kg·m²], m₀ [kg], b [m].

    Raises
    ------
    ValueError
        ``front_wheels`` not 1 or 2.

    Examples
    --------
    >>> from eslabon import mobile as mb
    >>> p = mb.TricycleParams.seekur_jr_assumed()  # one front wheel, 8 kg wheels
    >>> mb.steered_cart.mass_constants(p).m, mb.steered_cart.mass_constants(p, 2).m
    (362.0, 374.0)
    """
    p = params
    nF = p.front_wheels if front_wheels is None else front_wheels
    if nF not in (1, 2):
        raise ValueError(f"front_wheels: expected 1 or 2, got {front_wheels!r}")
    m = 3 * p.rear_wheel_mass + 1.5 * nF * p.front_wheel_mass + p.chassis_mass + p.steering_mass
    I2 = p.steering_inertia + nF * p.front_wheel_mass * (
        p.front_wheel_radius**2 / 4 + 1.5 * p.front_half_track**2
    )
    m0 = (
        I2
        + p.chassis_inertia
        + p.rear_wheel_mass * p.rear_wheel_radius**2 / 2
        + p.chassis_mass * p.chassis_com**2
        + p.steering_mass * p.wheelbase**2
        + 1.5 * nF * p.front_wheel_mass * p.wheelbase**2
        + 3 * p.rear_wheel_mass * p.rear_half_track**2
    ) / p.wheelbase**2
    return MassConstants(float(m), float(I2), float(m0), float(p.wheelbase))


def _steering(beta):
    beta = finite_number(beta, "beta")
    if not abs(beta) < np.pi / 2 - 1e-9:
        raise ValueError(
            f"beta: the steering angle must be within (-90°, 90°), got "
            f"{np.degrees(beta):.6g}° (at ±90° the front wheel stands across "
            "the wheelbase and tan β is infinite: the model ends there)"
        )
    return np.tan(beta), np.cos(beta)


def equations(k: MassConstants, beta, V, beta_dot):
    """A(β) (2, 2) and h (2,) of (3.27–3.28)."""
    t, c = _steering(beta)
    V, beta_dot = finite_number(V, "V"), finite_number(beta_dot, "beta_dot")
    A = np.array([[k.m + k.m0 * t * t, k.I2 / k.b * t], [k.I2 / k.b * t, k.I2]])
    h = np.array([k.m0 * t * V * beta_dot / c**2, k.I2 * V * beta_dot / (k.b * c**2)])
    return A, h


def inverse(k: MassConstants, beta, V, beta_dot, V_dot, beta_ddot):
    """[F, M] that produce the quasi-accelerations (V̇, β̈) (3.27–3.28)."""
    A, h = equations(k, beta, V, beta_dot)
    return A @ np.array([finite_number(V_dot, "V_dot"), finite_number(beta_ddot, "beta_ddot")]) + h


def forward(k: MassConstants, beta, V, beta_dot, F, M):
    """[V̇, β̈] from the rear-axle force F [N] and the steering torque M [N·m], by the
    closed form (3.29) and the corrected (3.30)."""
    t, c = _steering(beta)
    V, beta_dot = finite_number(V, "V"), finite_number(beta_dot, "beta_dot")
    F, M = finite_number(F, "F"), finite_number(M, "M")
    mu0 = k.m + k.m0 * t * t
    delta = mu0 * k.b**2 - k.I2 * t * t
    V_dot = (k.b**2 * F - k.b * t * M + t * (k.I2 - k.m0 * k.b**2) / c**2 * V * beta_dot) / delta
    beta_ddot = (-k.b * t * F + k.b**2 * mu0 / k.I2 * M - k.b * k.m / c**2 * V * beta_dot) / delta
    return np.array([V_dot, beta_ddot])
