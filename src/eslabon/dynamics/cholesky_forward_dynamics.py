"""Forward dynamics q̈ = H⁻¹(τ − b) by a Cholesky solve: Práctica 3 §3.3, eq. 3.36 (Walker–Orin).

Walker & Orin's method 3 as seed 001 writes it (eq. 3.36 and ``walkerorin4``):

    b = NE(q, q̇, q̈ = 0)          (Coriolis, centrifugal, gravity and friction)
    H = composite-rigid-body mass matrix
    q̈ = H⁻¹ (τ − b)             (Cholesky H = L Lᵀ, two triangular solves)

The seed inverts H explicitly; a Cholesky solve is cheaper and better conditioned
(seed 000 §4.5 also uses Cholesky). The tiny solver is written into the kernel so a
single compiled call does the whole step without allocating.
"""

from __future__ import annotations

import math

from numba import njit

from .._engine.lanes import all_finite, all_positive, g1, s1, sqrt
from .._engine.layout import H_NV
from .._engine.status import NON_FINITE, NOT_POSITIVE_DEFINITE, OK
from .codes import COMPOSITE
from .composite_rigid_body import crba_into, ne_columns_into
from .rnea import rnea_into


@njit(cache=True)
def cholesky_factor(H, n):
    """Overwrite H's lower triangle with L, H = L Lᵀ. False if H is not positive definite."""
    for j in range(n):
        s = H[j, j]
        for k in range(j):
            s -= H[j, k] * H[j, k]
        if not s > 0.0:
            return False
        d = math.sqrt(s)
        H[j, j] = d
        for i in range(j + 1, n):
            s = H[i, j]
            for k in range(j):
                s -= H[i, k] * H[j, k]
            H[i, j] = s / d
    return True


@njit(cache=True)
def cholesky_solve(L, x, n):
    """x ← (L Lᵀ)⁻¹ x with L from :func:`cholesky_factor` (two triangular solves)."""
    for i in range(n):
        s = x[i]
        for k in range(i):
            s -= L[i, k] * x[k]
        x[i] = s / L[i, i]
    for i in range(n - 1, -1, -1):
        s = x[i]
        for k in range(i + 1, n):
            s -= L[k, i] * x[k]
        x[i] = s / L[i, i]


@njit(cache=True)
def spd_inverse(L, X, n):
    """X ← H⁻¹ for a symmetric positive definite H given in ``L``'s lower triangle,
    which the call overwrites. Status (:mod:`eslabon._engine.status`): OK;
    NON_FINITE when a pivot is not finite (H holds a NaN or inf: its state is not
    finite); NOT_POSITIVE_DEFINITE when a pivot is ≤ 0. Generic over lanes
    (:mod:`eslabon._engine.lanes`): (n, n) arrays for one state, (n, n, WIDTH) blocks
    for a batch, which fails if any lane does.

    H = L Lᵀ (Cholesky), then L⁻¹ by forward substitution and H⁻¹ = L⁻ᵀ L⁻¹. Each pivot
    is inverted once and multiplied after (n divisions instead of n²: a division costs
    several multiplications' latency, and the per-column solves it replaces spent most
    of their time in them). On return ``L`` holds L's strict lower triangle, 1/L_jj on
    its diagonal (which is also (L⁻¹)_jj) and (L⁻¹)ᵀ in its strict upper triangle; X is
    written whole (symmetric)."""
    for j in range(n):  # L, with 1/L_jj on the diagonal
        s = g1(L, j, j)
        for k in range(j):
            s -= g1(L, j, k) * g1(L, j, k)
        if not all_positive(s):
            return NOT_POSITIVE_DEFINITE if all_finite(s) else NON_FINITE
        r = 1.0 / sqrt(s)
        s1(L, j, j, r)
        for i in range(j + 1, n):
            t = g1(L, i, j)
            for k in range(j):
                t -= g1(L, i, k) * g1(L, j, k)
            s1(L, i, j, t * r)
    for j in range(n):  # (L⁻¹)_ij for i > j, kept at L[j, i]
        for i in range(j + 1, n):
            t = g1(L, i, j) * g1(L, j, j)
            for k in range(j + 1, i):
                t += g1(L, i, k) * g1(L, j, k)
            s1(L, j, i, -t * g1(L, i, i))
    for a in range(n):  # (H⁻¹)_ab = Σ_{k ≥ a} (L⁻¹)_ka (L⁻¹)_kb, a ≥ b
        for b in range(a + 1):
            t = g1(L, a, a) * (g1(L, a, a) if a == b else g1(L, b, a))
            for k in range(a + 1, n):
                t += g1(L, a, k) * g1(L, b, k)
            s1(X, a, b, t)
            s1(X, b, a, t)
    return OK


@njit(cache=True)
def cholesky_solve_into(H, x, n):
    """Overwrite H's lower triangle with L (H = L Lᵀ) and x with H⁻¹ x. False if H is not PD."""
    if not cholesky_factor(H, n):
        return False
    cholesky_solve(H, x, n)
    return True


@njit(cache=True)
def solve_status(H, x, n):
    """x ← H⁻¹ x by Cholesky (H's lower triangle overwritten); status: OK,
    NOT_POSITIVE_DEFINITE, or NON_FINITE for a result that is not finite."""
    if not cholesky_solve_into(H, x, n):
        return NOT_POSITIVE_DEFINITE
    s = 0.0
    for a in range(n):
        s += x[a]
    return OK if math.isfinite(s) else NON_FINITE


@njit(cache=True)
def fd_into(P, q, qd, tau, method, ws, cw, H, zero, unit, col, out, extended):
    """q̈ into ``out``; ``method`` 3 (composite) or 1 (NE columns). Status
    (:mod:`eslabon._engine.status`): OK, NON_FINITE, or NOT_POSITIVE_DEFINITE (H)."""
    nq = int(P[H_NV])
    for a in range(nq):
        out[a] = 0.0
    if rnea_into(P, q, qd, out, 1.0, None, ws, out, extended) != OK:  # b = NE(q, q̇, 0)
        return NON_FINITE
    for a in range(nq):
        out[a] = tau[a] - out[a]
    if method == COMPOSITE:
        crba_into(P, q, cw, H, extended)
    else:
        ne_columns_into(P, q, ws, zero, unit, col, H, extended)
    return solve_status(H, out, nq)
