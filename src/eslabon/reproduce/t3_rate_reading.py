"""Rojas (1987) §5.5: the physical reading of V = ∂f*/∂θ̇ (and of W, :func:`w_reading`)
on the Cincinnati T3.

§5.5 reads V (5.3.25) link by link (world axes; e_j the axis of joint j, r_i the centre of
mass of link i, O_j a point on axis j, ω_i = A_i θ̇, I_i its centroidal inertia):

* its first term (5.5.1), (∂r_i/∂θ_j)ᵀ ∂(m_i r̈_i)/∂θ̇_k = e_jᵀ[(s_j − s_(i+1) + ρ_i) ×
  ∂(m_i r̈_i)/∂θ̇_k], is the rate of change with θ̇_k of the moment about axis j of the
  inertia force m_i r̈_i (the lever s_j − s_(i+1) + ρ_i = r_i − O_j does not depend on the
  rates). Here r̈_i = R_i θ̈ + θ̇ᵀ (∂²r_i/∂θ²) θ̇, so ∂r̈_i/∂θ̇_k = 2 ∂ṙ_i/∂θ_k: the
  centre of mass's velocity-product (centripetal and Coriolis) acceleration —
  :func:`translational_part`;
* its second term (5.5.6) is e_jᵀ ∂n_i/∂θ̇_k for the Newton–Euler moment
  n_i = I_i ω̇_i + ω_i × I_i ω_i (4.2.2), with (5.5.3)–(5.5.5)

      ∂n_i/∂θ̇_k = I_i ∂ω̇_i/∂θ̇_k  +  [∂ω_i/∂θ̇_k × I_i ω_i + ω_i × I_i ∂ω_i/∂θ̇_k]
                = I_i (2 ω_k × e_k + e_k × ω_i)  +  [e_k × I_i ω_i + ω_i × I_i e_k]

  using ∂ω_i/∂θ̇_k = e_k (5.3.22) and ∂ω̇_i/∂θ̇_k = ∂(Ȧ_i θ̇)/∂θ̇_k = 2 ω_k × e_k + e_k × ω_i
  (5.5.4), for k ≤ i (zero for k > i).

The thesis names neither part; eslabon calls the first bracket the **Coriolis** part (the
rate products ω_(m−1) × e_m θ̇_m of the angular acceleration, the relative rotations of
the joints: I_i ∂(Ȧ_i θ̇)/∂θ̇_k) and the second the **gyroscopic** part (the derivative of
the gyroscopic moment ω_i × I_i ω_i) — :func:`moment_rate_parts`. V's element is then

    V_jk = Σ_(i ≥ max(j, k)) [ (∂r_i/∂θ_j)ᵀ m_i ∂r̈_i/∂θ̇_k + e_jᵀ (Coriolis + gyroscopic)_ik ]

(link i acts on joint j only for j ≤ i). The checks (:func:`rate_reading`): the parts sum
to ∂n_i/∂θ̇_k from central differences of the Newton–Euler moments n_i in θ̇; ∂r̈_i/∂θ̇_k
likewise; V from the parts equals eslabon's analytic V; and the thesis's remark
e_1ᵀ ∂n_1/∂θ̇_1 = 0 (both parts are then perpendicular to e_1).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .. import control as ctl
from .t3_uvw_terms import chain_state

PARTS = ("translational", "coriolis", "gyroscopic")


class RateReading(NamedTuple):
    """§5.5's reading of V at one state (what :func:`rate_reading` returns).

    Attributes
    ----------
    coriolis, gyroscopic : ndarray (n, n, 3)
        The two parts of ∂n_i/∂θ̇_k at [i, k] [N·m·s] (world axes).
    n_rate_fd : ndarray (n, n, 3)
        ∂n_i/∂θ̇_k by central differences of the Newton–Euler moments n_i.
    r_ddot_rate, r_ddot_rate_fd : ndarray (n, n, 3)
        ∂r̈_i/∂θ̇_k = 2 ∂ṙ_i/∂θ_k [m/s] and its central difference.
    V : dict of ndarray (n, n)
        V split as {"translational", "coriolis", "gyroscopic"} [N·m·s/rad].
    V_exact : ndarray (n, n)
        eslabon's analytic V (:func:`eslabon.control.linearize`).
    """

    coriolis: np.ndarray
    gyroscopic: np.ndarray
    n_rate_fd: np.ndarray
    r_ddot_rate: np.ndarray
    r_ddot_rate_fd: np.ndarray
    V: dict
    V_exact: np.ndarray


def moment_rate_parts(cs) -> tuple[np.ndarray, np.ndarray]:
    """(Coriolis, gyroscopic) parts of ∂n_i/∂θ̇_k (5.5.5), each (n, n, 3) at [i, k];
    zero for k > i. ``cs`` is a :class:`.t3_uvw_terms.ChainState`."""
    n = len(cs.mass)
    coriolis, gyroscopic = np.zeros((n, n, 3)), np.zeros((n, n, 3))
    for i in range(n):
        I, w = cs.inertia[i], cs.omega[i]
        for k in range(i + 1):
            ek, wk = cs.e[k], cs.omega[k]
            coriolis[i, k] = I @ (2 * np.cross(wk, ek) + np.cross(ek, w))  # I_i (5.5.4)
            gyroscopic[i, k] = np.cross(ek, I @ w) + np.cross(w, I @ ek)
    return coriolis, gyroscopic


def newton_euler_moments(model, q, qd, qdd) -> np.ndarray:
    """n_i = I_i ω̇_i + ω_i × I_i ω_i (4.2.2), (n, 3) [N·m], world axes."""
    cs = chain_state(model, q, qd, qdd)
    Iw = np.einsum("ixy,iy->ix", cs.inertia, cs.omega)
    return np.einsum("ixy,iy->ix", cs.inertia, cs.omega_dot) + np.cross(cs.omega, Iw)


def translational_part(cs) -> tuple[np.ndarray, np.ndarray]:
    """(∂r̈_i/∂θ̇_k = 2 ∂ṙ_i/∂θ_k (n, n, 3) at [i, k], its (5.5.1) term of V (n, n):
    Σ_i (∂r_i/∂θ_j)ᵀ m_i ∂r̈_i/∂θ̇_k); ∂ṙ_i/∂θ_k = Σ_a θ̇_a ∂²r_i/∂θ_a∂θ_k (4.3.35)."""
    r_ddot_rate = 2 * np.einsum("a,iakx->ikx", cs.qd, cs.d2r)
    return r_ddot_rate, np.einsum("i,ijx,ikx->jk", cs.mass, cs.dr, r_ddot_rate)


def rate_reading(model, q, qd, qdd, step: float = 1e-6) -> RateReading:
    """§5.5's reading of V at one state, with its checks' counterparts.

    Parameters
    ----------
    model : Model
        A serial chain of revolute joints without friction or rotor inertia (the T3).
    q, qd, qdd : array_like (n,)
        θ [rad], θ̇ [rad/s], θ̈ [rad/s²].
    step : float
        Step in θ̇ [rad/s] of the central differences.

    Returns
    -------
    RateReading

    Raises
    ------
    ValueError
        A model the formulas do not cover or a state of the wrong shape or not finite.
    """
    cs = chain_state(model, q, qd, qdd)
    n = len(cs.mass)
    coriolis, gyroscopic = moment_rate_parts(cs)
    r_ddot_rate, V_trans = translational_part(cs)
    qd = np.asarray(qd, dtype=float)
    n_fd, r_fd = np.zeros((n, n, 3)), np.zeros((n, n, 3))
    for k in range(n):
        d = np.zeros(n)
        d[k] = step
        n_fd[:, k] = (
            newton_euler_moments(model, q, qd + d, qdd)
            - newton_euler_moments(model, q, qd - d, qdd)
        ) / (2 * step)
        plus, minus = chain_state(model, q, qd + d, qdd), chain_state(model, q, qd - d, qdd)
        r_fd[:, k] = (plus.r_ddot - minus.r_ddot) / (2 * step)
    # e_jᵀ Σ_(i ≥ j) part[i, k]: the projection on the joints link i acts on
    inboard = np.tril(np.ones((n, n)))  # [i, j]: j ≤ i

    def project(part):
        return np.einsum("ij,jx,ikx->jk", inboard, cs.e, part)

    V = {
        "translational": V_trans,
        "coriolis": project(coriolis),
        "gyroscopic": project(gyroscopic),
    }
    return RateReading(
        coriolis,
        gyroscopic,
        n_fd,
        r_ddot_rate,
        r_fd,
        V,
        ctl.linearize(model, q, qd, qdd).V,
    )


#: the four terms of (5.5.7)
W_TERMS = ("lever", "force", "moment", "axis")


def w_reading(model, q, qd, qdd, step: float = 1e-6) -> tuple[dict, dict, np.ndarray]:
    """§5.5's reading of W = ∂f*/∂θ (5.5.7), as printed and with its index ranges.

    (5.5.7) differentiates f*_j = Σ_i [(∂r_i/∂θ_j)ᵀ F_i + e_jᵀ n_i] (4.4.2),
    F_i = m_i (r̈_i − g), into four terms per link i: "lever" e_jᵀ(∂r_i/∂θ_k × F_i) (the
    moment of F_i about axis k, projected on e_j), "force" (∂r_i/∂θ_j)ᵀ ∂F_i/∂θ_k,
    "moment" e_jᵀ ∂n_i/∂θ_k and "axis" −e_jᵀ(e_k × n_i). As printed they hold only on
    one side of the diagonal: the lever term is ∂²r_i/∂θ_j∂θ_k · F_i =
    e_min(j,k)ᵀ(∂r_i/∂θ_max(j,k) × F_i) (for k < j the axis j turns with θ_k, not the
    point), and the axis term, (∂e_j/∂θ_k)ᵀ n_i, is zero for k ≥ j (e_j does not depend on
    an outboard joint). ∂F_i/∂θ_k and ∂n_i/∂θ_k, which §5.5 leaves as derivatives, are
    central differences (step ``step`` rad) of F_i and of the Newton–Euler moments.

    Returns
    -------
    printed, ranged : dict of ndarray (n, n)
        The four terms summed over the links, as printed and with the index ranges
        [N·m/rad].
    W : ndarray (n, n)
        eslabon's analytic W.
    """
    cs = chain_state(model, q, qd, qdd)
    n = len(cs.mass)
    q = np.asarray(q, dtype=float)

    def forces(qq):
        c = chain_state(model, qq, qd, qdd)
        return c.mass[:, None] * (c.r_ddot - c.gravity), newton_euler_moments(model, qq, qd, qdd)

    F, N = forces(q)
    dF, dN = np.zeros((n, n, 3)), np.zeros((n, n, 3))
    for k in range(n):
        d = np.zeros(n)
        d[k] = step
        (Fp, Np), (Fm, Nm) = forces(q + d), forces(q - d)
        dF[:, k], dN[:, k] = (Fp - Fm) / (2 * step), (Np - Nm) / (2 * step)
    printed = {key: np.zeros((n, n)) for key in W_TERMS}
    ranged = {key: np.zeros((n, n)) for key in W_TERMS}
    for i in range(n):
        for j in range(i + 1):
            for k in range(i + 1):  # joint k > i does not move link i: every term is 0
                lo, hi = min(j, k), max(j, k)
                printed["lever"][j, k] += cs.e[j] @ np.cross(cs.dr[i, k], F[i])
                ranged["lever"][j, k] += cs.e[lo] @ np.cross(cs.dr[i, hi], F[i])
                force = cs.dr[i, j] @ dF[i, k]
                moment = cs.e[j] @ dN[i, k]
                axis = -cs.e[j] @ np.cross(cs.e[k], N[i])
                for terms in (printed, ranged):
                    terms["force"][j, k] += force
                    terms["moment"][j, k] += moment
                printed["axis"][j, k] += axis
                if k < j:
                    ranged["axis"][j, k] += axis
    return printed, ranged, ctl.linearize(model, q, qd, qdd).W


def _max(a) -> float:
    return float(np.abs(a).max())


def rate_reading_report(t3, path, at: float = 0.45) -> tuple[dict, list]:
    """§5.5 on the T3 along its straight-line task: V split into its translational,
    Coriolis and gyroscopic parts at each sample, the checks, and the split at t = ``at``.

    Parameters
    ----------
    t3 : Model
        The Cincinnati T3.
    path : object
        The task's samples, with ``t`` (N,) [s] and ``q``, ``qd``, ``qdd`` (N, 6) (the
        result of :func:`eslabon.kinematics.ik.solve_path`).
    at : float
        The sample whose matrices are printed [s].

    Returns
    -------
    data : dict
        Per sample the largest |part| of V and the checks' largest errors; the parts at
        ``at``.
    lines : list of str
        The report.
    """
    rows = []
    for q, qd, qdd in zip(path.q, path.qd, path.qdd, strict=True):
        r = rate_reading(t3, q, qd, qdd)
        cs = chain_state(t3, q, qd, qdd)
        scale_n = max(1.0, _max(r.n_rate_fd))
        rows.append(
            {
                **{f"max_{p}": _max(r.V[p]) for p in PARTS},
                "max_V": _max(r.V_exact),
                "sum_minus_V": _max(sum(r.V.values()) - r.V_exact),
                "n_rate_minus_fd": _max(r.coriolis + r.gyroscopic - r.n_rate_fd) / scale_n,
                "r_ddot_rate_minus_fd": _max(r.r_ddot_rate - r.r_ddot_rate_fd),
                "e1_n1_rate_1": float(cs.e[0] @ (r.coriolis[0, 0] + r.gyroscopic[0, 0])),
            }
        )
    t = np.asarray(path.t)
    pick = int(np.argmin(np.abs(t - at)))
    r = rate_reading(t3, path.q[pick], path.qd[pick], path.qdd[pick])
    data = {
        "t": t.tolist(),
        "samples": rows,
        "at": {"t": float(t[pick]), **{p: r.V[p].tolist() for p in PARTS}},
    }
    worst = {key: max(abs(row[key]) for row in rows) for key in rows[0] if key != "max_V"}
    data["worst"] = worst
    lines = [
        f"§5.5 reading of V = ∂f*/∂θ̇ along the task ({len(t)} samples, 0–1 s): "
        "V = translational (5.5.1) + e_jᵀ ∂n_i/∂θ̇_k (5.5.6), ∂n_i/∂θ̇_k = Coriolis "
        "I_i(2ω_k × e_k + e_k × ω_i) + gyroscopic e_k × I_iω_i + ω_i × I_ie_k (5.5.5)",
        "  largest |part| over the task [N·m·s/rad]: "
        + ", ".join(f"{p} {worst['max_' + p]:.4g}" for p in PARTS)
        + f" (|V| up to {max(row['max_V'] for row in rows):.4g})",
        f"  checks, worst sample: |Σ parts − V (eslabon)| {worst['sum_minus_V']:.1e} N·m·s; "
        f"∂n_i/∂θ̇_k against central differences of n_i {worst['n_rate_minus_fd']:.1e} "
        f"(relative); ∂r̈_i/∂θ̇_k = 2∂ṙ_i/∂θ_k against differences "
        f"{worst['r_ddot_rate_minus_fd']:.1e} m/s; e₁ᵀ∂n₁/∂θ̇₁ {worst['e1_n1_rate_1']:.1e} "
        "(the thesis: 0)",
        f"  at t = {t[pick]:.2f} s, rows j, columns k [N·m·s/rad]:",
    ]
    for p in PARTS:
        lines.append(f"    {p}")
        lines += ["      " + " ".join(f"{x:>11.4e}" for x in row) for row in r.V[p]]
    printed, ranged, W = w_reading(t3, path.q[pick], path.qd[pick], path.qdd[pick])
    gap_printed = sum(printed.values()) - W
    gap_ranged = sum(ranged.values()) - W
    upper = np.triu(np.ones(W.shape, dtype=bool), 1)
    data["w_reading"] = {
        "printed_minus_W": gap_printed.tolist(),
        "ranged_minus_W": _max(gap_ranged),
        "max_W": _max(W),
        "printed_gap_below_diagonal": _max(gap_printed[upper.T]),
        "printed_gap_above_diagonal": _max(gap_printed[upper]),
        "printed_gap_on_diagonal": _max(np.diag(gap_printed)),
        **{f"max_{key}": _max(ranged[key]) for key in W_TERMS},
    }
    w = data["w_reading"]
    lines += [
        f"§5.5 reading of W = ∂f*/∂θ (5.5.7) at t = {t[pick]:.2f} s: lever "
        f"e_jᵀ(∂r_i/∂θ_k × F_i), force (∂r_i/∂θ_j)ᵀ∂F_i/∂θ_k, moment e_jᵀ∂n_i/∂θ_k, axis "
        "−e_jᵀ(e_k × n_i); largest |term| "
        + ", ".join(f"{key} {w['max_' + key]:.4g}" for key in W_TERMS)
        + f" N·m/rad (|W| up to {w['max_W']:.4g})",
        f"  as printed, minus eslabon's W: {w['printed_gap_below_diagonal']:.4g} below the "
        f"diagonal (k < j), {w['printed_gap_above_diagonal']:.3g} above (k > j), "
        f"{w['printed_gap_on_diagonal']:.1e} on it",
        f"  with its index ranges (lever e_min(j,k)ᵀ(∂r_i/∂θ_max × F_i); axis only for "
        f"k < j), minus W: {w['ranged_minus_W']:.1e} (central differences of F_i, n_i)",
    ]
    return data, lines
