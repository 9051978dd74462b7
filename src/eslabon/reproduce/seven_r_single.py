"""The 7R round-off experiment of Rojas Salgado (1987) §3.3.3 (Figs. 3.3.3–3.3.5) in
single precision, as the thesis's program ran it (its FORTRAN 77 listing declares every
array ``REAL``; routines FUN, DFDX, NLLS, HECOMP/HOLVE, VELAC).

The thesis solves the loop of Fig. 3.3.2, cut at joint 1, twice — the square 6 × 6
system without the trace equation (3.3.1.9b) and the redundant 7 × 6 one with it — "to
show the filtering of round-off errors", and plots the errors of θ₂, θ̇₂, θ̈₂ against
the exact relation (2 + cos θ₂) cos θ₁ = −1.5 (3.3.3.7). This module repeats that in
``float32`` from end to end; the general solver :func:`eslabon.kinematics.ik.newton_gauss`
works in double precision only, so the loop's equations are written out here for this
one mechanism (standard DH, the thesis's a_k = link length, b_k = 0, twist α_k). With P,
s the cut chain's end rotation and point at θ, (R, p) the closure target, e_k the axis of
joint k and d_k = s − O_k, as in :mod:`eslabon.kinematics.ik.newton_gauss`:

    f = [2 vect(P) − 2 vect(R);  tr P − tr R;  s − p]                       (3.3.1.9)
    J = [(tr P·1 − P) A;  −2 vect(P)ᵀ A;  [e_k × d_k]],  A = [e_k]          (3.3.1.19)
    J θ̇ = [(tr R·1 − R) ω;  −2 vect(R)ᵀ ω;  ṗ]                             (3.3.2.14)
    J θ̈ = [(tr R·1 − R) w̃;  −2 vect(R)ᵀ w̃;  p̈ − θ̇ᵀ(∂²s/∂θ²)θ̇],  w̃ = ω̇ − Ȧθ̇   (3.3.3.5)

with Ȧθ̇ = Σ_j θ̇_j ω_{j−1} × e_j (3.3.3.2) and ∂²s/∂θ_i∂θ_j = e_i × (e_j × d_j), i ≤ j
(3.3.3.6); the square system drops the trace row. The rate and acceleration rows use the
data R, not P, as §3.3.2 prescribes after (3.3.2.13) "to eliminate round-off errors".

What is single precision here: the mechanism's constants (a_k, cos α_k, sin α_k) and the
input θ₁, θ̇₁, θ̈₁ are rounded to ``float32`` once, as a ``REAL`` program holds them; the
closure data (R, p, ω, ω̇), every f and J, the Householder QR (LAPACK ``sgeqrf`` through
:func:`scipy.linalg.qr` — not :func:`numpy.linalg.qr`, which would compute in double),
the back substitutions (``strtrs``) and the condition estimate (``strcon``) are
``float32``. The exact reference is evaluated in double for the rounded input.

Newton–Gauss stops at the round-off floor: when a step fails to halve the one before it
(in the quadratic regime each step is far smaller than half the previous one, so a step
that does not halve is round-off noise), and that last step is not applied — as NLLS
does not apply a correction once it is below its tolerance. A fixed tolerance would set
the error's size instead (the program's TOL = 1e-6 is 2–8 float32 ulps of the joint
angles, 1.05–4.78 rad here).

What the thesis's TOL does (:func:`tolerance_study`): its NLLS stops before a step when
‖f‖∞ < TOL and when the step ‖Δθ‖∞ < TOL, that step not applied (``solve_position(…,
tol=1e-6)``). Newton converging quadratically, the unapplied step is about the error
left, so with TOL = 1e-6 the errors are those of a truncated iteration (~1e-9 rad here),
not round-off. Run so in *double* precision, the 7 × 6 system has the smaller error of θ₂,
θ̇₂ and θ̈₂ at about 90 % of the samples (its truncated iterates are the closer, by about a
quarter): a truncation effect, which goes away as TOL → 1e-14 (errors at double round-off,
~1e-15, and the 7 × 6 system the smaller at about half the samples) and is absent in
single precision, where TOL = 1e-6 is at round-off (about half the samples too). The
listing's FNORM(F, N) takes the maximum over the first N = 6 of the 7 rows of F (the
z-displacement row is left out) — a quirk of the T3 program not repeated here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.linalg import lapack, qr, solve_triangular

from ..kinematics import ik
from ..zoo import rojas

#: the precision of the experiment
DTYPE = np.float32
#: the input's sweep of the round-off experiment: start (rad) and amplitude (rad)
ROUND_OFF_START = np.radians(rojas.SEVEN_R_SYMMETRIC_DEG[0])
ROUND_OFF_SWING = np.radians(10.0)
#: at most this many Newton steps per sample
MAX_ITER = 30


def _constants(dtype):
    """(a, cos α, sin α) of joints 2..7 of Fig. 3.3.2, computed in double and rounded
    once to ``dtype``."""
    alpha = np.radians(rojas.SEVEN_R_ALPHA_DEG)
    return (
        np.asarray(rojas.SEVEN_R_D, dtype=dtype),
        np.cos(alpha).astype(dtype),
        np.sin(alpha).astype(dtype),
    )


def _vect(A):
    """Axial vector ½[A32 − A23, A13 − A31, A21 − A12] (2.4.10), in A's dtype."""
    return 0.5 * np.stack([A[2, 1] - A[1, 2], A[0, 2] - A[2, 0], A[1, 0] - A[0, 1]])


def loop_data(theta1, theta1_dot, theta1_ddot, dtype=DTYPE):
    """(R, p, ω, ω̇) (3, 3), (3,), (3,), (3,) the cut chain's end must follow, computed in
    ``dtype`` from the input rounded to ``dtype`` (ṗ = p̈ = 0): R = Q₁ᵀ, p = −Q₁ᵀ a₁,
    ω = −θ̇₁ R_x(α₁)ᵀ ẑ, ω̇ = −θ̈₁ R_x(α₁)ᵀ ẑ, as :func:`eslabon.zoo.rojas.seven_r_loop_motion`.
    Units: rad, rad/s, rad/s² in; m, rad/s, rad/s² out."""
    a, ca, sa = _constants(dtype)
    th = np.asarray(theta1, dtype=dtype)
    c, s = np.cos(th), np.sin(th)
    zero, one = np.zeros((), dtype), np.ones((), dtype)
    Rz = np.array([[c, -s, zero], [s, c, zero], [zero, zero, one]], dtype=dtype)
    Rx = np.array([[one, zero, zero], [zero, ca[0], -sa[0]], [zero, sa[0], ca[0]]], dtype=dtype)
    Q1 = Rz @ Rx
    a1 = np.array([a[0] * c, a[0] * s, zero], dtype=dtype)
    axis = -Rx.T @ np.array([0.0, 0.0, 1.0], dtype=dtype)
    return (
        Q1.T,
        -(Q1.T @ a1),
        np.asarray(theta1_dot, dtype=dtype) * axis,
        np.asarray(theta1_ddot, dtype=dtype) * axis,
    )


def chain_kinematics(q):
    """(P, s, E, D): end rotation (3, 3), end point (3,), joint axes e_k (3, 6) and lever
    arms d_k = s − O_k (3, 6) of the cut chain (joints 2..7) at ``q`` (6,) rad, all in
    ``q``'s dtype and in the thesis's frame 2 (that of
    :func:`eslabon.zoo.rojas.seven_r_loop_target`)."""
    dtype = q.dtype
    a, ca, sa = _constants(dtype)
    P = np.eye(3, dtype=dtype)
    O = np.zeros(3, dtype=dtype)
    E = np.empty((3, 6), dtype=dtype)
    origins = np.empty((3, 6), dtype=dtype)
    for k in range(6):
        c, s = np.cos(q[k]), np.sin(q[k])
        E[:, k] = P[:, 2]
        origins[:, k] = O
        Q = np.array(
            [[c, -s * ca[k + 1], s * sa[k + 1]], [s, c * ca[k + 1], -c * sa[k + 1]]]
            + [[np.zeros((), dtype), sa[k + 1], ca[k + 1]]],
            dtype=dtype,
        )
        O = O + P @ np.array([a[k + 1] * c, a[k + 1] * s, 0.0], dtype=dtype)
        P = P @ Q
    return P, O, E, O[:, None] - origins


def system(q, R, p, equations):
    """(f, J) of (3.3.1.9) and (3.3.1.19) at ``q``: (7,), (7, 6) for ``"redundant"``,
    (6,), (6, 6) for ``"square"`` (no trace row), in ``q``'s dtype."""
    P, s, E, D = chain_kinematics(q)
    trP = np.trace(P)
    f = np.concatenate([2.0 * (_vect(P) - _vect(R)), [trP - np.trace(R)], s - p])
    J = np.vstack(
        [
            (trP * np.eye(3, dtype=q.dtype) - P) @ E,
            -2.0 * _vect(P)[None, :] @ E,
            np.cross(E.T, D.T).T,
        ]
    )
    rows = [0, 1, 2, 3, 4, 5, 6] if equations == "redundant" else [0, 1, 2, 4, 5, 6]
    return f[rows], J[rows]


@dataclass(frozen=True)
class Solution:
    """A position solve: ``q`` (6,) rad, the Householder factor ``Q`` (m, 6), ``Rf`` (6, 6)
    of J at ``q`` (m = 7 or 6), ``iterations``, ``residual`` ‖f(q)‖∞ and ``condition``
    (κ₁ estimate of Rf, LAPACK ``trcon`` in the factor's precision), and ``equations``."""

    q: np.ndarray
    Q: np.ndarray
    Rf: np.ndarray
    iterations: int
    residual: float
    condition: float
    equations: str

    def solve(self, rhs):
        """x = Rf⁻¹ Qᵀ rhs: the least-squares solution of J x = rhs by back substitution."""
        return solve_triangular(self.Rf, self.Q.T @ rhs)


def _factor(J):
    Q, Rf = qr(J, mode="economic")
    trcon = lapack.strcon if Rf.dtype == np.float32 else lapack.dtrcon
    rcond, info = trcon(Rf, norm="1", uplo="U", diag="N")
    return Q, Rf, (np.inf if info != 0 or rcond == 0.0 else 1.0 / float(rcond))


def solve_position(q0, R, p, equations, tol=None):
    """Newton–Gauss on (3.3.1.9) from ``q0`` (6,) in its dtype.

    With ``tol`` None it runs to the round-off floor (see the module docstring). With a
    tolerance it stops as the thesis's NLLS does (Rojas Salgado (1987), Appendix,
    ``DATA TOL … /0.000001/``): before a step when ‖f‖∞ < ``tol``, and when the step's
    ‖Δθ‖∞ < ``tol``, that step not applied.

    Parameters
    ----------
    q0 : ndarray (6,)
        Starting joint angles θ₂ … θ₇ [rad]; its dtype (float32 or float64) is the
        precision of the whole solve.
    R : ndarray (3, 3)
        The end rotation the cut chain must reach (:func:`loop_data`).
    p : ndarray (3,)
        The end point the cut chain must reach [m].
    equations : {"redundant", "square"}
        The 7 × 6 system (3.3.1.9) with (3.3.1.19) or the square 6 × 6 one.
    tol : float, optional
        The thesis's stopping tolerance; None (default) runs to the round-off floor.

    Returns
    -------
    Solution
        θ, the Householder factor of J there, the steps taken, ‖f‖∞ and κ₁.

    Raises
    ------
    ValueError
        An unknown ``equations``, or a ``tol`` that is not a positive finite number.
    RuntimeError
        The steps still shrink after :data:`MAX_ITER` steps.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.reproduce import seven_r_single as s7
    >>> from eslabon.zoo import rojas
    >>> R, p, _, _ = s7.loop_data(np.float32(np.radians(130.0)), np.float32(0), np.float32(0))
    >>> q0 = np.radians(rojas.SEVEN_R_SYMMETRIC_DEG[1:]).astype(np.float32)
    >>> sol = s7.solve_position(q0, R, p, "square")
    >>> sol.q.dtype, bool(sol.residual < 1e-5)
    (dtype('float32'), True)
    """
    if equations not in ik.EQUATIONS:
        raise ValueError(f"equations: expected one of {ik.EQUATIONS}, got {equations!r}")
    if tol is not None and not (np.isfinite(tol) and tol > 0):
        raise ValueError(f"tol: expected a positive finite number or None, got {tol!r}")
    q = np.array(q0)
    previous = np.inf
    for iteration in range(MAX_ITER + 1):
        f, J = system(q, R, p, equations)
        residual = float(np.max(np.abs(f)))
        Q, Rf, condition = _factor(J)
        if tol is not None and residual < tol:
            return Solution(q, Q, Rf, iteration, residual, condition, equations)
        step = solve_triangular(Rf, Q.T @ -f)
        size = float(np.max(np.abs(step)))
        stop = size < tol if tol is not None else size == 0.0 or size > 0.5 * previous
        if stop:
            return Solution(q, Q, Rf, iteration, residual, condition, equations)
        q = q + step
        previous = size
    raise RuntimeError(
        f"7R {equations} ({q.dtype}): the Newton steps still shrink after {MAX_ITER}"
    )


def rates(sol: Solution, R, omega):
    """θ̇ (6,) rad/s from ω (3,) by (3.3.2.14) with ṗ = 0, in the solution's dtype."""
    rows = [(np.trace(R) * np.eye(3, dtype=R.dtype) - R) @ omega]
    if sol.equations == "redundant":
        rows.append([-2.0 * _vect(R) @ omega])
    return sol.solve(np.concatenate(rows + [np.zeros(3, dtype=R.dtype)]))


def accelerations(sol: Solution, R, qd, omega_dot):
    """θ̈ (6,) rad/s² from the rates θ̇ (6,) and ω̇ (3,) by (3.3.3.5) with p̈ = 0."""
    _, _, E, D = chain_kinematics(sol.q)
    a_dot_qd = np.zeros(3, dtype=qd.dtype)
    # bias = θ̇ᵀ(∂²s/∂θ²)θ̇ = Σ_j θ̇_j (2ω_{j−1} + θ̇_j e_j) × (e_j × d_j), from (3.3.3.6)
    bias = np.zeros(3, dtype=qd.dtype)
    w = np.zeros(3, dtype=qd.dtype)
    for j in range(6):
        a_dot_qd = a_dot_qd + qd[j] * np.cross(w, E[:, j])
        bias = bias + qd[j] * np.cross(2.0 * w + qd[j] * E[:, j], np.cross(E[:, j], D[:, j]))
        w = w + qd[j] * E[:, j]
    w_tilde = omega_dot - a_dot_qd
    rows = [(np.trace(R) * np.eye(3, dtype=R.dtype) - R) @ w_tilde]
    if sol.equations == "redundant":
        rows.append([-2.0 * _vect(R) @ w_tilde])
    return sol.solve(np.concatenate(rows + [-bias]))


def input_motion(t):
    """θ₁, θ̇₁, θ̈₁ of the input at times ``t`` (s): a cycloid of 10° over 1 s."""
    t = np.asarray(t, dtype=float)
    a = ROUND_OFF_SWING
    return (
        ROUND_OFF_START + a * (t - np.sin(2 * np.pi * t) / (2 * np.pi)),
        a * (1.0 - np.cos(2 * np.pi * t)),
        a * 2 * np.pi * np.sin(2 * np.pi * t),
    )


def round_off_errors(equations: str, t, dtype=DTYPE, tol=None) -> dict:
    """Errors of θ₂, θ̇₂, θ̈₂ (rad, rad/s, rad/s²) at times ``t`` (s) along the motion of
    :func:`input_motion`, computed in ``dtype`` by the
    ``equations`` system ("redundant" 7 × 6 or "square" 6 × 6) with continuation, against
    (3.3.3.7) in double for the input rounded to ``dtype``; with the κ₁ estimate, the
    Newton steps and the final ‖f‖∞ per sample (arrays of len(t), float64). ``tol``: the
    stopping rule of :func:`solve_position` (None: the round-off floor)."""
    q = np.radians(rojas.SEVEN_R_SYMMETRIC_DEG[1:]).astype(dtype)
    keys = ("position", "rate", "acceleration", "condition", "iterations", "residual")
    out = {k: [] for k in keys}
    for th1, th1d, th1dd in zip(
        *(np.asarray(x).astype(dtype) for x in input_motion(t)), strict=True
    ):
        R, p, w, w_dot = loop_data(th1, th1d, th1dd, dtype)
        sol = solve_position(q, R, p, equations, tol)
        P = chain_kinematics(sol.q)[0]
        near = max(1000 * float(np.finfo(dtype).eps), 1000 * (tol or 0.0))
        if np.max(np.abs(P - R)) > near:  # another rotation: O(1)
            raise RuntimeError(f"7R {equations}: another branch at θ₁ = {np.degrees(th1):.2f}°")
        q = sol.q
        qd = rates(sol, R, w)
        qdd = accelerations(sol, R, qd, w_dot)
        exact = rojas.seven_r_exact(float(th1), float(th1d), float(th1dd))
        out["position"].append(float(sol.q[0]) - exact[0])
        out["rate"].append(float(qd[0]) - exact[1])
        out["acceleration"].append(float(qdd[0]) - exact[2])
        out["condition"].append(sol.condition)
        out["iterations"].append(sol.iterations)
        out["residual"].append(sol.residual)
    return {k: np.array(v, dtype=float) for k, v in out.items()}


#: TOLs of :func:`tolerance_study`: the thesis's 1e-6 down to the double round-off floor
STUDY_TOLS = (1e-6, 1e-8, 1e-10, 1e-12, 1e-14)


def share_redundant_smaller(runs: dict) -> dict:
    """Per quantity ("position", "rate", "acceleration"), the share of samples at which the
    7 × 6 system's |error| is the smaller, ties (equal errors, exact zeros) left out.

    Parameters
    ----------
    runs : dict
        ``{"redundant": errors, "square": errors}``, each as :func:`round_off_errors`
        returns it for the same times.

    Returns
    -------
    dict
        {"position", "rate", "acceleration": float}, a share in [0, 1]; NaN where every
        sample ties.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.reproduce.seven_r_single import share_redundant_smaller
    >>> errors = {"position": np.array([1e-7, 2e-7]), "rate": np.zeros(2),
    ...           "acceleration": np.array([1e-5, 1e-5])}
    >>> other = {"position": np.array([2e-7, 1e-7]), "rate": np.zeros(2),
    ...          "acceleration": np.array([2e-5, 3e-5])}
    >>> share_redundant_smaller({"redundant": errors, "square": other})
    {'position': 0.5, 'rate': nan, 'acceleration': 1.0}
    """
    out = {}
    for key in ("position", "rate", "acceleration"):
        e7, e6 = np.abs(runs["redundant"][key]), np.abs(runs["square"][key])
        differ = e7 != e6
        out[key] = float(np.mean(e7[differ] < e6[differ])) if differ.any() else float("nan")
    return out


def tolerance_study(t, tols=STUDY_TOLS) -> list:
    """What the thesis's TOL does to the comparison of Figs. 3.3.3–3.3.5: for each TOL in
    ``tols`` (double precision), then for the round-off floor rule (``tol`` None) in double
    and for TOL = 1e-6 in single precision, both systems along :func:`input_motion` at
    times ``t`` (s). One dict per run: ``dtype`` ("float64"/"float32"), ``tol`` (None for
    the floor), ``share`` (:func:`share_redundant_smaller`), ``median`` (per system and
    quantity, |error|) and ``iterations`` (mean Newton steps per sample, per system).

    Parameters
    ----------
    t : array_like (m,)
        Sample times [s] of :func:`input_motion`.
    tols : sequence of float, optional
        The TOLs run in double precision (default :data:`STUDY_TOLS`).

    Returns
    -------
    list of dict
        One per run: len(tols) + 2 rows, the double-precision floor and single-precision
        TOL = 1e-6 last.

    Raises
    ------
    ValueError
        A TOL that is not a positive finite number.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.reproduce.seven_r_single import tolerance_study
    >>> rows = tolerance_study(np.linspace(0.0, 1.0, 3), tols=(1e-6,))
    >>> [(r["dtype"], r["tol"]) for r in rows]
    [('float64', 1e-06), ('float64', None), ('float32', 1e-06)]
    """
    runs = [(np.float64, tol) for tol in tols] + [(np.float64, None), (np.float32, 1e-6)]
    rows = []
    for dtype, tol in runs:
        errors = {eq: round_off_errors(eq, t, dtype, tol) for eq in ik.EQUATIONS}
        rows.append(
            {
                "dtype": np.dtype(dtype).name,
                "tol": tol,
                "share": share_redundant_smaller(errors),
                "median": {
                    eq: {
                        k: float(np.median(np.abs(errors[eq][k])))
                        for k in ("position", "rate", "acceleration")
                    }
                    for eq in ik.EQUATIONS
                },
                "iterations": {eq: float(errors[eq]["iterations"].mean()) for eq in ik.EQUATIONS},
            }
        )
    return rows
