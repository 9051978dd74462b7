"""Rojas Salgado (1987) §5.3: the thesis's own U, V, W of the Cincinnati T3, term by term
against the exact derivatives, to trace the error of its printed W (5.3.18).

The thesis linearizes f* = I(θ)θ̈ + C(θ, θ̇)θ̇ + b(θ) (4.3.33) into
δf* = U δθ̈ + V δθ̇ + W δθ (5.4.1) and writes, summing over the links i (world axes,
"frame 1"; r_i the centre of mass, R_i = ∂r_i/∂θ, e_j the axis of joint j, A_i = [e_1 … e_i
0 …], ω_i = A_i θ̇, I_i the centroidal inertia in world axes (4.3.10), g = (0, 0, +9.81)
m/s² as in the thesis's program and tables):

U (4.3.12)     Σ m_i R_iᵀR_i  ("translational")  +  Σ A_iᵀ I_i A_i  ("rotational")
V (5.3.24)     element (j, k), the element form of (5.3.25):
               2 m_i (∂r_i/∂θ_j)ᵀ ∂ṙ_i/∂θ_k                                 "translational"
               + e_jᵀ I_i (2 Ȧ_i,k + e_k × ω_i)                             "inertial"
               + (e_j × e_k)ᵀ I_i ω_i + (e_j × ω_i)ᵀ I_i e_k                 "gyroscopic"
W (5.3.17–18)  Σ m_i ∂²r_i/∂θ² (r̈_i − g): split into −Σ m_i ∂²r_i/∂θ² g   "gravity" (the δb
               of §5.3) and Σ m_i ∂²r_i/∂θ² r̈_i                             "lever";
               + Σ R_iᵀ ∂(m_i r̈_i)/∂θ                                       "acceleration";
               − e_jᵀ I_i (e_k × (Ȧ_i θ̇ + A_k θ̈)) + e_jᵀ I_i ∂(Ȧ_i θ̇)/∂θ_k  "rotational"

with ∂²r_i/∂θ_j∂θ_k = e_min(j,k) × ∂r_i/∂θ_max(j,k) (4.3.36) and ∂Ȧ_i/∂θ_k as (5.3.15). The
thesis means its rotational term to be the whole derivative of Σ e_jᵀ(I_i ω̇_i + ω_i × I_i
ω_i) (4.4.2). The exact derivatives are split the same way (:func:`exact_terms`: central
differences of each part of (4.4.2), whose sum is eslabon's analytic linearization).

Readings of the damaged OCR (marked "reconstructed" below):

- (5.3.18)'s A_ic is printed "Σ_i [e_i1 × (A_i1 ṗ + Ȧ_i1 p), …, e_in × (…)]": its
  subscripts are unreadable; column k is read, as in (5.3.17), e_k × (Ȧ_i θ̇ + A_k θ̈)
  (reconstructed). Reading every subscript as k (e_k × ω̇_k) puts 49.5 and −6.2 N·m into
  rows 2–3 of W's column 1 and adds 34.0 N·m to W₁₂ (measured): W₁₂ then misses the
  printed value by 34 N·m, where this reading meets it to 0.01 N·m.
- (5.3.18) prints the ∂Ȧ_i/∂θ θ̇ term inside "−A_iᵀ I_(i−1)( … )"; (5.3.17) adds it with a
  plus sign, as does the appendix's DINLI (CDT = DSAR + DRDAC − BCAC + BAP): taken with +
  (reconstructed). "I_(i−1)" and "e_(j−1)" of (5.3.7)–(5.3.24) are read I_i, e_j.
- Joint k enters link i's terms only for k ≤ i ((4.3.25): ∂ω_i/∂θ_k = 0 for k > i).
- §5.3 gives ∂r̈_i/∂θ no formula; it is the derivative of (4.3.32), ∂²r_i/∂θ² θ̈ +
  θ̇ᵀ ∂³r_i/∂θ³ θ̇, with third partials e_p × (e_q × (e_s × (r_i − O_s))), p ≤ q ≤ s, from
  (4.3.36) applied twice. The appendix (routine DERAC) prints the third-partial matrices
  for i = 3, k = 1, 2, 3 as the sum of e_lo × ∂²r_i/∂θ_k∂θ_hi and, for k < lo,
  e_k × ∂²r_i/∂θ_lo∂θ_hi (lo ≤ hi the other two indices): the second is the whole third
  partial, so for k < lo the first is counted twice. That rule fits every printed cell but
  three (3, 3) cells printed with other subscripts, read by the rule (reconstructed);
  :func:`derac_double_count` is its extra term.
- (5.3.25) is unreadable as printed; V is the element form (5.3.24), itself (5.3.23) +
  (5.3.4b) (reconstructed).

What the comparison finds at t = 0.45 s (:func:`uvw_terms_report`): U and V as written
are exact. Of W's terms, gravity, lever and acceleration are exact; the rotational term is
not: it has no derivative of the gyroscopic moment ω_i × I_i ω_i, and (5.3.10) takes
∂e_j/∂θ_k = e_k × e_j for every k, which loses (e_j × e_k)ᵀ I_i ω̇_i for k > j. The
gyroscopic derivative is lost at (5.3.13): (5.3.11) is its exact form and (5.3.12) an
identity (Jacobi's), but (5.3.13), [e_j × (e_k × ω_k)]ᵀ I_i ω_i + [(I_i(e_j × ω_i)) ×
e_k]ᵀ ω_i = (ω_i − ω_k)ᵀ [(I_i(e_j × ω_i)) × e_k], holds only for an isotropic inertia
I_i = λ1 (whose gyroscopic moment is zero anyway); with it (5.3.14) makes (5.3.16)'s two
gyroscopic terms equal and opposite, so (5.3.17)–(5.3.18) carry none. Both errors vanish
in column 1 (e₁ × ω₁ = 0, e₁ × e₁ = 0), so the formula as written gives W₁₁ = 0 and
K_p₁₁ = 335.36, not the printed 466.33. The appendix's doubled third partials, added to
the acceleration term, account for the printed W in columns 2–6 to the printed digits
and for 110.0 of the printed W₁₁ = −131.0; they give K_p₁₁ = 445.37. The rest of column
1 is not traced.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .. import control as ctl
from .._args import require_finite, vectors
from .._engine.joint_types import rotates
from ..kinematics.kinematic_pass import kinematic_pass
from ..zoo.rojas_tables import PERTURBATION, TABLE_5_4_2, TABLE_5_6_3
from .t3_linear_control import four_digit_status, table_state

#: the parts of the exact W (:func:`exact_terms`)
EXACT_W_TERMS = ("gravity", "lever", "acceleration", "inertial", "gyroscopic")
#: W's terms as the thesis writes them (:func:`thesis_w_terms`) -> the exact parts each
#: stands for
COUNTERPARTS = {
    "gravity": ("gravity",),
    "lever": ("lever",),
    "acceleration": ("acceleration",),
    "rotational": ("inertial", "gyroscopic"),
}


class ChainState(NamedTuple):
    """The thesis's kinematic quantities of a serial revolute chain, world axes.

    e, point (n, 3): axis of joint j and a point on it [m]; r, omega, omega_dot, r_ddot
    (n, 3): centre of mass [m], ω_i [rad/s], ω̇_i [rad/s²], r̈_i [m/s²] of link i; inertia
    (n, 3, 3): I_i [kg·m²]; mass (n,) [kg]; gravity (3,) [m/s²]; qd, qdd (n,);
    dr (n, n, 3): ∂r_i/∂θ_j [m] at [i, j]; d2r (n, n, n, 3): ∂²r_i/∂θ_a∂θ_b [m] at [i, a, b].
    """

    e: np.ndarray
    point: np.ndarray
    r: np.ndarray
    omega: np.ndarray
    omega_dot: np.ndarray
    r_ddot: np.ndarray
    inertia: np.ndarray
    mass: np.ndarray
    gravity: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    dr: np.ndarray
    d2r: np.ndarray


def _require_serial_revolute(model):
    n = model.nq
    serial = (
        model.nb == n
        and model.nv == n
        and np.array_equal(model.parent[1:], np.arange(n))
        and np.array_equal(model.dof_bodies, np.arange(1, n + 1))
    )
    if not serial or not rotates(model.joint_type[1:]).all():
        raise ValueError(
            f"model: the thesis's §5.3 formulas are for a serial chain of revolute joints; "
            f"{model.name!r} is not one"
        )
    model.require_rigid_links("the thesis's §5.3 formulas")
    extras = {"armature": model.armature, "viscous": model.viscous, "coulomb": model.coulomb}
    named = [k for k, v in extras.items() if np.any(v[1:] != 0)]
    if named:
        raise ValueError(
            f"model: {model.name!r} has {', '.join(named)}, which the thesis's §5.3 "
            "formulas leave out"
        )


def chain_state(model, q, qd, qdd) -> ChainState:
    """:class:`ChainState` of ``model`` at θ, θ̇, θ̈ (each (n,), rad, rad/s, rad/s²), from
    eslabon's kinematic pass; second partials of r_i by (4.3.36)."""
    _require_serial_revolute(model)
    n = model.nq
    (q, qd, qdd), batched = vectors(n, q=q, qd=qd, qdd=qdd)
    if batched:
        raise ValueError("q, qd, qdd: expected one state (n,), not a batch")
    require_finite("chain_state", q=q, qd=qd, qdd=qdd)
    k = kinematic_pass(model, q, qd, qdd)
    Rw = k.world_rotation[1:]

    def world(v):
        return np.einsum("iab,ib->ia", Rw, v)

    e, point, c = world(model.axis[1:]), np.array(k.world_position[1:]), world(model.com[1:])
    w, wd = world(k.angular_velocity[1:]), world(k.angular_acceleration[1:])
    r_ddot = world(k.linear_acceleration[1:]) + np.cross(wd, c) + np.cross(w, np.cross(w, c))
    r = point + c
    inboard = np.tril(np.ones((n, n)))  # [i, j]: joint j moves link i
    dr = np.cross(e[None, :, :], r[:, None, :] - point[None, :, :]) * inboard[:, :, None]
    d2r = np.zeros((n, n, n, 3))
    for i in range(n):
        for a in range(i + 1):
            for b in range(a, i + 1):
                d2r[i, a, b] = d2r[i, b, a] = np.cross(e[a], dr[i, b])  # (4.3.36)
    inertia = Rw @ model.inertia[1:] @ np.swapaxes(Rw, 1, 2)
    return ChainState(
        e,
        point,
        r,
        w,
        wd,
        r_ddot,
        inertia,
        model.mass[1:].copy(),
        model.gravity.copy(),
        qd,
        qdd,
        dr,
        d2r,
    )


def _project(cs, v):
    """Σ_i A_iᵀ v_i: element j = e_j · Σ_{i ≥ j} v_i (v (n, 3))."""
    return np.einsum("jx,jx->j", cs.e, np.cumsum(v[::-1], axis=0)[::-1])


def _partial_sums(cs):
    """A_k θ̈, ω_k = A_k θ̇ and Ȧ_k θ̇ (each (n, 3)); Ȧ_k's column m is ω_(m−1) × e_m."""
    Aq = np.cumsum(cs.e * cs.qdd[:, None], axis=0)
    wk = np.cumsum(cs.e * cs.qd[:, None], axis=0)
    w_prev = np.vstack([np.zeros(3), wk[:-1]])
    return Aq, wk, np.cumsum(np.cross(w_prev, cs.e) * cs.qd[:, None], axis=0)


def thesis_u_terms(cs) -> dict:
    """U (4.3.12) as the thesis writes it: {"translational": Σ m_i R_iᵀR_i, "rotational":
    Σ A_iᵀ I_i A_i}, each (n, n) [kg·m²]."""
    n = len(cs.mass)
    rotational = np.zeros((n, n))
    for i in range(n):
        Ai = cs.e[: i + 1]  # rows e_1 … e_i
        rotational[: i + 1, : i + 1] += Ai @ cs.inertia[i] @ Ai.T
    return {
        "translational": np.einsum("i,ijx,ikx->jk", cs.mass, cs.dr, cs.dr),
        "rotational": rotational,
    }


def thesis_v_terms(cs) -> dict:
    """V (5.3.24) as the thesis writes it (module docstring): {"translational",
    "inertial", "gyroscopic"}, each (n, n) [N·m·s]; ∂ṙ_i/∂θ_k = Σ_a θ̇_a ∂²r_i/∂θ_a∂θ_k
    (4.3.35)."""
    n = len(cs.mass)
    r_dot_partial = np.einsum("a,iakx->ikx", cs.qd, cs.d2r)
    _, wk, _ = _partial_sums(cs)
    inertial, gyroscopic = np.zeros((n, n)), np.zeros((n, n))
    for i in range(n):
        I, w, ej = cs.inertia[i], cs.omega[i], cs.e[: i + 1]
        for k in range(i + 1):
            ek = cs.e[k]
            inertial[: i + 1, k] += ej @ (I @ (2 * np.cross(wk[k], ek) + np.cross(ek, w)))
            gyroscopic[: i + 1, k] += np.cross(ej, ek) @ (I @ w) + np.cross(ej, w) @ (I @ ek)
    return {
        "translational": 2 * np.einsum("i,ijx,ikx->jk", cs.mass, cs.dr, r_dot_partial),
        "inertial": inertial,
        "gyroscopic": gyroscopic,
    }


def r_ddot_partials(cs, *, derac: bool = False) -> np.ndarray:
    """∂r̈_i/∂θ_k (n, n, 3) [m/s²] at [i, k]: the derivative of (4.3.32),
    ∂²r_i/∂θ_k∂θ θ̈ + θ̇ᵀ ∂³r_i/∂θ_k∂θ² θ̇, with the exact third partials, or with the
    appendix's DERAC matrices (``derac=True``; module docstring)."""
    n = len(cs.mass)
    out = np.einsum("a,iakx->ikx", cs.qdd, cs.d2r)
    for i in range(n):
        for k in range(i + 1):
            for a in range(i + 1):
                for b in range(i + 1):
                    lo, hi = min(a, b), max(a, b)
                    if derac:
                        cell = np.cross(cs.e[lo], cs.d2r[i, k, hi])
                        if lo > k:
                            cell = cell + np.cross(cs.e[k], cs.d2r[i, lo, hi])
                    else:
                        p, mid, s = sorted((a, b, k))
                        cell = np.cross(cs.e[p], cs.d2r[i, mid, s])
                    out[i, k] += cs.qd[a] * cs.qd[b] * cell
    return out


def a_dot_partial(cs, i: int, k: int) -> np.ndarray:
    """∂(Ȧ_i θ̇)/∂θ_k (3,) [rad/s²] by (5.3.15): column m (k < m ≤ i) of ∂Ȧ_i/∂θ_k is
    e_m × (e_k × ω_k) − (ω_(m−1) × e_m) × e_k; zero for k ≥ i."""
    _, wk, _ = _partial_sums(cs)
    out = np.zeros(3)
    for m in range(k + 1, i + 1):
        col = np.cross(cs.e[m], np.cross(cs.e[k], wk[k])) - np.cross(
            np.cross(wk[m - 1], cs.e[m]), cs.e[k]
        )
        out += cs.qd[m] * col
    return out


def thesis_w_terms(cs) -> dict:
    """W (5.3.17–18) as the thesis writes it (module docstring): {"gravity", "lever",
    "acceleration", "rotational"}, each (n, n) [N·m/rad]."""
    n, m = len(cs.mass), cs.mass
    Aq, _, Adq = _partial_sums(cs)
    rotational = np.zeros((n, n))
    for i in range(n):
        I = cs.inertia[i]
        for k in range(i + 1):
            v = -I @ np.cross(cs.e[k], Adq[i] + Aq[k]) + I @ a_dot_partial(cs, i, k)
            rotational[: i + 1, k] += cs.e[: i + 1] @ v
    return {
        "gravity": -np.einsum("i,iabx,x->ab", m, cs.d2r, cs.gravity),
        "lever": np.einsum("i,iabx,ix->ab", m, cs.d2r, cs.r_ddot),
        "acceleration": np.einsum("i,ijx,ikx->jk", m, cs.dr, r_ddot_partials(cs)),
        "rotational": rotational,
    }


def axis_term(cs) -> np.ndarray:
    """What (5.3.10)'s ∂e_j/∂θ_k = e_k × e_j for k > j (where it is 0) costs the
    rotational term: −Σ_i (e_j × e_k)ᵀ I_i ω̇_i for j < k ≤ i, (n, n) [N·m/rad]."""
    n = len(cs.mass)
    out = np.zeros((n, n))
    for i in range(n):
        Iwd = cs.inertia[i] @ cs.omega_dot[i]
        for j in range(i + 1):
            for k in range(j + 1, i + 1):
                out[j, k] -= np.cross(cs.e[j], cs.e[k]) @ Iwd
    return out


def derac_double_count(cs) -> np.ndarray:
    """Σ_i m_i R_iᵀ (∂r̈_i/∂θ by DERAC − exact) (n, n) [N·m/rad]: what the appendix's
    doubled third partials add to W's acceleration term."""
    extra = r_ddot_partials(cs, derac=True) - r_ddot_partials(cs)
    return np.einsum("i,ijx,ikx->jk", cs.mass, cs.dr, extra)


def _force_parts(model, q, qd, qdd, frozen_r_ddot=None):
    """The parts of f* (4.4.2), each (n,) [N·m]: gravity −Σ R_iᵀ m_i g, Σ R_iᵀ m_i r̈_i
    (r̈_i frozen if given), inertial Σ A_iᵀ I_i ω̇_i, gyroscopic Σ A_iᵀ (ω_i × I_i ω_i)."""
    cs = chain_state(model, q, qd, qdd)
    acc = cs.r_ddot if frozen_r_ddot is None else frozen_r_ddot
    Iw = np.einsum("ixy,iy->ix", cs.inertia, cs.omega)
    return {
        "gravity": -np.einsum("i,ijx,x->j", cs.mass, cs.dr, cs.gravity),
        "translational": np.einsum("i,ijx,ix->j", cs.mass, cs.dr, acc),
        "inertial": _project(cs, np.einsum("ixy,iy->ix", cs.inertia, cs.omega_dot)),
        "gyroscopic": _project(cs, np.cross(cs.omega, Iw)),
    }


def exact_terms(model, q, qd, qdd, step: float = 1e-6) -> tuple[dict, dict, dict]:
    """The exact U, V, W split as the thesis's terms: central differences (step ``step``
    rad, rad/s or rad/s²) of the parts of (4.4.2), whose sum is ∂f*/∂(θ̈, θ̇, θ).

    Returns
    -------
    U, V, W : dict
        U {"translational", "rotational"}; V {"translational", "inertial",
        "gyroscopic"}; W {"gravity", "lever" (∂R_iᵀ/∂θ m_i(r̈_i) with r̈_i held),
        "acceleration" (R_iᵀ m_i ∂r̈_i/∂θ), "inertial", "gyroscopic"}; each (n, n).
    """
    n = model.nq
    frozen = chain_state(model, q, qd, qdd).r_ddot  # checks the model and the state
    q, qd, qdd = (np.asarray(x, dtype=float) for x in (q, qd, qdd))
    U = {key: np.zeros((n, n)) for key in ("translational", "rotational")}
    V = {key: np.zeros((n, n)) for key in ("translational", "inertial", "gyroscopic")}
    W = {key: np.zeros((n, n)) for key in EXACT_W_TERMS}
    for k in range(n):
        d = np.zeros(n)
        d[k] = step

        def diff(key, plus, minus):
            return (plus[key] - minus[key]) / (2 * step)

        p, m = _force_parts(model, q + d, qd, qdd), _force_parts(model, q - d, qd, qdd)
        pf = _force_parts(model, q + d, qd, qdd, frozen)
        mf = _force_parts(model, q - d, qd, qdd, frozen)
        W["gravity"][:, k] = diff("gravity", p, m)
        W["lever"][:, k] = diff("translational", pf, mf)
        W["acceleration"][:, k] = diff("translational", p, m) - W["lever"][:, k]
        W["inertial"][:, k] = diff("inertial", p, m)
        W["gyroscopic"][:, k] = diff("gyroscopic", p, m)
        p, m = _force_parts(model, q, qd + d, qdd), _force_parts(model, q, qd - d, qdd)
        for key in V:
            V[key][:, k] = diff(key, p, m)
        p, m = _force_parts(model, q, qd, qdd + d), _force_parts(model, q, qd, qdd - d)
        U["translational"][:, k] = diff("translational", p, m)
        U["rotational"][:, k] = diff("inertial", p, m)
    return U, V, W


class TermComparison(NamedTuple):
    """The thesis's terms and the exact ones at one state: what :func:`compare_terms`
    returns.

    Attributes
    ----------
    thesis_U, thesis_V, thesis_W : dict of ndarray (n, n)
        :func:`thesis_u_terms`, :func:`thesis_v_terms`, :func:`thesis_w_terms`.
    exact_U, exact_V, exact_W : dict of ndarray (n, n)
        :func:`exact_terms`.
    derac : ndarray (n, n)
        :func:`derac_double_count` [N·m/rad].
    axis : ndarray (n, n)
        :func:`axis_term` [N·m/rad].
    lin : Linearization
        eslabon's analytic :func:`eslabon.control.linearize` at the same state.
    """

    thesis_U: dict
    thesis_V: dict
    thesis_W: dict
    exact_U: dict
    exact_V: dict
    exact_W: dict
    derac: np.ndarray
    axis: np.ndarray
    lin: object

    @property
    def U(self):
        """The thesis's U, V, W as written (sums of their terms)."""
        return sum(self.thesis_U.values())

    @property
    def V(self):
        """The thesis's V (5.3.24)."""
        return sum(self.thesis_V.values())

    @property
    def W(self):
        """The thesis's W (5.3.17–18)."""
        return sum(self.thesis_W.values())

    def term_errors(self) -> dict:
        """thesis term − exact counterpart (:data:`COUNTERPARTS`), each (n, n)."""
        return {
            key: self.thesis_W[key] - sum(self.exact_W[x] for x in parts)
            for key, parts in COUNTERPARTS.items()
        }


def compare_terms(model, q, qd, qdd, step: float = 1e-6) -> TermComparison:
    """The thesis's U, V, W terms beside the exact ones at one state.

    Parameters
    ----------
    model : Model
        A serial chain of revolute joints without friction or rotor inertia (the T3).
    q, qd, qdd : array_like (n,)
        θ [rad], θ̇ [rad/s], θ̈ [rad/s²].
    step : float
        Step of the central differences of :func:`exact_terms`.

    Returns
    -------
    TermComparison

    Raises
    ------
    ValueError
        A model the formulas do not cover (naming why) or a state of the wrong shape or
        not finite.
    """
    cs = chain_state(model, q, qd, qdd)
    return TermComparison(
        thesis_u_terms(cs),
        thesis_v_terms(cs),
        thesis_w_terms(cs),
        *exact_terms(model, q, qd, qdd, step),
        derac_double_count(cs),
        axis_term(cs),
        ctl.linearize(model, q, qd, qdd),
    )


def printed_w(U, kp_printed=TABLE_5_6_3["Kp"], omega=1.0):
    """The W behind a printed K_p = UΩ² − W (5.6.7): UΩ² − K_p (n, n) [N·m/rad]."""
    return U * omega**2 - np.asarray(kp_printed)


def _max(a):
    return float(np.abs(a).max())


def _fmt(v):
    return " ".join(f"{x:>10.4g}" for x in v)


def uvw_terms_report(t3, q_initial) -> tuple[dict, list]:
    """Rojas (1987) §5.3 term by term on the T3 at t = 0.45 s, and W δθ at t = 0.05 s.

    The state at 0.45 s is Table 5.6.2's, solved as for
    :func:`.t3_linear_control.table_5_6_3` (from Table 5.4.1's θ); W δθ at 0.05 s takes
    Table 5.4.1's printed δθ and is set against Table 5.4.2.

    Parameters
    ----------
    t3 : Model
        The Cincinnati T3 (``zoo.load("cincinnati_t3")``).
    q_initial : array_like (6,)
        The task's initial θ [rad] (``zoo.rojas.INITIAL_THETA_DEG`` in radians).

    Returns
    -------
    data : dict
        Per term of U, V, W the thesis's matrix and its error; the printed W
        (U − K_p of Table 5.6.3) against the exact one and what is left once the
        formula's errors are accounted for; ``"Kp11"``; ``"table_5_4_2"``.
    lines : list of str
        The report.
    """
    q05 = table_state(t3, "5.4.1", q_initial)[0]
    c = compare_terms(t3, *table_state(t3, "5.6.2", q05))
    lin, errors = c.lin, c.term_errors()
    data = {"U": {}, "V": {}, "W": {}}
    lines = [
        "Rojas (1987) §5.3, the thesis's U, V, W at t = 0.45 s term by term: "
        "max |thesis − exact| [N·m per rad, rad/s, rad/s²]"
    ]
    for name, thesis, exact in (("U", c.thesis_U, c.exact_U), ("V", c.thesis_V, c.exact_V)):
        for key in thesis:
            data[name][key] = {
                "thesis": thesis[key].tolist(),
                "error": _max(thesis[key] - exact[key]),
            }
        whole = {"U": lin.U, "V": lin.V}[name]
        data[name]["whole_error"] = _max(sum(thesis.values()) - whole)
        lines.append(
            f"  {name} ({'4.3.12' if name == 'U' else '5.3.24'})  "
            + ", ".join(f"{k} {data[name][k]['error']:.1e}" for k in thesis)
            + f"; whole against eslabon's {name} {data[name]['whole_error']:.1e}"
        )
    for key, err in errors.items():
        data["W"][key] = {
            "thesis": c.thesis_W[key].tolist(),
            "exact": sum(c.exact_W[x] for x in COUNTERPARTS[key]).tolist(),
            "error": err.tolist(),
            "max_error": _max(err),
            "column_1": c.thesis_W[key][:, 0].tolist(),
        }
    data["W"]["gyroscopic_dropped"] = (-c.exact_W["gyroscopic"]).tolist()
    data["W"]["axis_term"] = c.axis.tolist()
    data["W"]["whole_error"] = (c.W - lin.W).tolist()
    lines += [
        "  W (5.3.17–18)  "
        + ", ".join(f"{k} {data['W'][k]['max_error']:.3g}" for k in errors)
        + "  (rotational against the exact inertial + gyroscopic parts)",
        f"    rotational = exact − gyroscopic derivative (max {_max(c.exact_W['gyroscopic']):.4g}; "
        "lost at (5.3.13), exact only for an isotropic I_i) + axis term "
        f"−(e_j × e_k)ᵀI_iω̇_i, k > j (max {_max(c.axis):.4g}; (5.3.10) takes "
        "∂e_j/∂θ_k = e_k × e_j for k > j); both 0 in "
        "column 1 (e₁ × ω₁ = 0)",
        f"    gravity −Σ m_i ∂²r_i/∂θ² g: column 1 max {_max(c.thesis_W['gravity'][:, 0]):.1e} "
        "(g ∥ e₁): no gravity term is non-zero for joint 1",
    ]
    Wp = printed_w(lin.U)
    gap = Wp - lin.W
    explained = (c.W - lin.W) + c.derac
    residual = gap - explained
    kp = {
        "thesis_as_written": float(c.U[0, 0] - c.W[0, 0]),
        "thesis_with_derac": float(c.U[0, 0] - c.W[0, 0] - c.derac[0, 0]),
        "printed": float(TABLE_5_6_3["Kp"][0, 0]),
        "exact": float(lin.U[0, 0] - lin.W[0, 0]),
    }
    data["W"]["derac_double_count"] = c.derac.tolist()
    data["printed_W"] = {
        "W": Wp.tolist(),
        "minus_exact": gap.tolist(),
        "as_written_minus_exact": (c.W - lin.W).tolist(),
        "residual": residual.tolist(),
        "max_residual_by_column": np.abs(residual).max(axis=0).tolist(),
        "max_gap_by_column": np.abs(gap).max(axis=0).tolist(),
    }
    data["Kp11"] = kp
    lines += [
        "  printed W = U − K_p(Table 5.6.3), minus exact W, by column (max |·|):",
        "    printed − exact                 " + _fmt(np.abs(gap).max(axis=0)),
        "    − (as written − exact)          " + _fmt(np.abs(gap - (c.W - lin.W)).max(axis=0)),
        "    − appendix DERAC double count   " + _fmt(np.abs(residual).max(axis=0)),
        "    column 1 left: " + _fmt(residual[:, 0]) + "  (not traced)",
        f"  K_p₁₁ = U₁₁ − W₁₁: thesis as written {kp['thesis_as_written']:.2f}, with the "
        f"appendix's DERAC {kp['thesis_with_derac']:.2f}, printed {kp['printed']:.2f}, "
        f"exact {kp['exact']:.2f}: the §5.3 formula as written does not give the printed "
        "value",
    ]
    data["table_5_4_2"], more = _table_5_4_2(t3, q_initial)
    return data, lines + more


def _table_5_4_2(t3, q_initial):
    """W δθ at t = 0.05 s with the printed δθ (Table 5.4.1) against Table 5.4.2."""
    c = compare_terms(t3, *table_state(t3, "5.4.1", q_initial))
    dq, printed = np.asarray(PERTURBATION["dq"]), TABLE_5_4_2["W_dq"]
    rows = {
        "exact": c.lin.W @ dq,
        "as_written": c.W @ dq,
        "as_written_with_derac": (c.W + c.derac) @ dq,
    }
    data, lines = (
        {"printed": list(printed)},
        ["  Table 5.4.2 (t = 0.05 s): W δθ with the printed δθ of Table 5.4.1, 4 digits"],
    )
    for key, value in rows.items():
        status = [four_digit_status(v, p, 0.0) for v, p in zip(value, printed, strict=True)]
        data[key] = {"value": value.tolist(), "status": status}
        lines.append(f"    {key:<22}" + _fmt(value) + "   " + " ".join(status))
    lines.append(f"    {'printed':<22}" + _fmt(printed))
    return data, lines
