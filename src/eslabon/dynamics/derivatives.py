"""Analytic derivatives of inverse and forward dynamics.

Inverse dynamics τ = ID(q, q̇, q̈): ∂τ/∂q and ∂τ/∂q̇ by differentiating the Newton–Euler
recursion written in world coordinates (the approach of Carpentier & Mansard, "Analytical
derivatives of rigid body dynamics algorithms", RSS 2018; the derivation below is ours).
Spatial vectors are [angular; linear] about the world origin; S_j is joint j's motion axis,
λ(j) its parent body, j ⪯ i "j is i or an ancestor of i":

    v_i = v_λ + S_i q̇_i,   a_i = a_λ + S_i q̈_i + (v_i × S_i) q̇_i,   a_0 = [0; −g]
    f_i = Y_i a_i + v_i ×* Y_i v_i,   F_i = Σ_{k ⪰ i} f_k,   τ_i = S_iᵀ F_i (+ friction)

A change of q_j moves every body k ⪰ j rigidly about S_j (so each of its vectors x changes
by S_j × x, its inertia by S_j ×* Y − Y S_j ×) plus two corrections that do not depend on k
except through v_k:

    ∂v_k/∂q_j  = S_j × v_k + β_j,                     β_j = v_λ(j) × S_j
    ∂a_k/∂q_j  = S_j × a_k + α_j + β_j × v_k,         α_j = a_λ(j) × S_j − β_j × v_λ(j)
    ∂v_k/∂q̇_j = S_j,   ∂a_k/∂q̇_j = 2 β_j + S_j × v_k

Hence, with composite sums over the subtree of i, Yc_i = Σ Y_k, ℓc_i = Σ Y_k v_k and
Bc_i = Σ (Ẏ_k) + (·) ×* ℓc_i  (Ẏ_k = v_k ×* Y_k − Y_k v_k ×, the rate of change of Y_k):

    j ⪯ i:  ∂τ_i/∂q_j  = S_iᵀ (Yc_i α_j + Bc_i β_j),       ∂τ_i/∂q̇_j = S_iᵀ (2 Yc_i β_j + Bc_i S_j)
    i ≺ j:  ∂τ_i/∂q_j  = S_iᵀ (S_j ×* F_j + Yc_j α_j + Bc_j β_j),
            ∂τ_i/∂q̇_j = S_iᵀ (2 Yc_j β_j + Bc_j S_j)

(the rotation of S_i itself cancels against S_j ×* F_i). The same pass gives the mass
matrix M_ij = S_iᵀ Yc_i S_j (j ⪯ i), i.e. ∂τ/∂q̈. Viscous friction adds b_i to ∂τ_i/∂q̇_i;
Coulomb friction is taken as locally constant (its derivative is zero away from q̇ = 0).
A COM that slides with its own prismatic joint (seed 001 book mode) adds
S_iᵀ (∂Y_k a_k + v_k ×* ∂Y_k v_k) to column k for every i ⪯ k.

Forward dynamics q̈ = FD(q, q̇, τ): differentiating ID(q, q̇, FD(q, q̇, τ)) = τ gives

    ∂q̈/∂q = −M⁻¹ ∂τ/∂q,   ∂q̈/∂q̇ = −M⁻¹ ∂τ/∂q̇,   ∂q̈/∂τ = M⁻¹

evaluated at q̈ = FD(q, q̇, τ) (Carpentier & Mansard eq. 26).

Inertias Y are kept as (m, h = m c, J = inertia about the world origin); Y [ω; u] =
[J ω + h × u; m u − h × ω], and Ẏ has the same form with (0, ḣ, J̇).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._engine.joints import by_quaternion, joint, placement, world_axis
from .._engine.layout import (
    ARMATURE,
    AXIS,
    CFG,
    COM_SLIDE,
    H_GRAVITY,
    H_NB,
    H_NV,
    HEADER,
    INERTIA,
    MASS,
    STRIDE,
    VIDX,
    VISCOUS,
)
from .._engine.status import NON_FINITE, NOT_POSITIVE_DEFINITE, OK
from .._engine.tuples import (
    add,
    cross,
    diag3,
    dot,
    g3,
    g9,
    inertia_about,
    m9,
    madd,
    mm,
    msub,
    mt,
    mv,
    outer,
    s3,
    s9,
    scale,
    skew9,
    sub,
    v3,
)
from ..kinematics.recursion import body_com, near_angles, quaternion_row_placement
from .aba import aba_into
from .cholesky_fd import cholesky_factor, cholesky_solve
from .walker_orin import crba_into

# workspace columns, one row per body (world coordinates)
_RW, _PW = 0, 9  # pose
_SN, _SF = 12, 15  # joint axis S = [n; f]
_VN, _VF, _AN, _AF = 18, 21, 24, 27  # spatial velocity and acceleration
_YM, _YH, _YJ = 30, 31, 34  # inertia (m, h, J), composite after the inward pass
_DH, _DJ = 43, 46  # its rate (ḣ, J̇), composite
_LN, _LF, _FN, _FF = 55, 58, 61, 64  # momentum ℓ and force f, composite
_XN, _XF = 67, 70  # book-mode COM slide term of the body's own column
_PN, _PF, _QN, _QF = 73, 76, 79, 82  # P = Yc S, Q = Bcᵀ S
_ALN, _ALF, _BEN, _BEF = 85, 88, 91, 94  # α, β
_UN, _UF, _WN, _WF = 97, 100, 103, 106  # u, w (the column vectors for ancestors)
COLS = 109


@njit(cache=True)
def _mcross(an, af, bn, bf):
    """Motion cross product [an; af] × [bn; bf]."""
    return cross(an, bn), add(cross(an, bf), cross(af, bn))


@njit(cache=True)
def _fcross(an, af, fn, ff):
    """Force cross product [an; af] ×* [fn; ff]."""
    return add(cross(an, fn), cross(af, ff)), cross(an, ff)


@njit(cache=True)
def _inertia_apply(m, h, J, xn, xf):
    """[J xn + h × xf; m xf − h × xn] (an inertia, or its rate with m = 0)."""
    return add(mv(J, xn), cross(h, xf)), sub(scale(m, xf), cross(h, xn))


@njit(cache=True)
def _b_apply(ws, i, xn, xf):
    """Bc_i x = Ẏc_i x + x ×* ℓc_i."""
    yn, yf = _inertia_apply(0.0, g3(ws, i, _DH), g9(ws, i, _DJ), xn, xf)
    cn, cf = _fcross(xn, xf, g3(ws, i, _LN), g3(ws, i, _LF))
    return add(yn, cn), add(yf, cf)


@njit(cache=True)
def _dot6(an, af, bn, bf):
    return dot(an, bn) + dot(af, bf)


@njit(cache=True)
def rnea_derivatives_into(P, q, qd, qdd, ws, dq, dv, M, extended):
    """∂τ/∂q, ∂τ/∂q̇ and M for one state; status OK or NON_FINITE. ``extended``: the
    joint set (:mod:`eslabon._engine.joints`)."""
    nb = int(P[H_NB])
    nq = int(P[H_NV])
    for c in range(COLS):
        ws[0, c] = 0.0
    s9(ws, 0, _RW, (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0))
    s3(ws, 0, _AF, (-P[H_GRAVITY], -P[H_GRAVITY + 1], -P[H_GRAVITY + 2]))
    # outward pass: poses, S, v, a, inertias and their rates, momenta, forces
    q_given = q  # (a helical joint advances with its whole angle: joints.placement)
    q = near_angles(P, q, extended)
    for i in range(1, nb + 1):
        o = HEADER + i * STRIDE
        k = int(P[o + VIDX])
        p = int(P[o])
        cq = int(P[o + CFG])
        qi = q[cq] if cq >= 0 else 0.0
        jnt = joint(P, o)
        qh = qi
        if extended is not None:
            if cq >= 0:
                qh = q_given[cq]
        E, r = placement(jnt, qi, extended, qh)
        if extended is not None:
            if by_quaternion(jnt):  # out of line (recursion.quaternion_row)
                E, r = quaternion_row_placement(P, o, q, cq)
        Rp = g9(ws, p, _RW)
        R = mm(Rp, E)
        pw = add(g3(ws, p, _PW), mv(Rp, r))
        vn, vf = g3(ws, p, _VN), g3(ws, p, _VF)
        an, af = g3(ws, p, _AN), g3(ws, p, _AF)
        sn = (0.0, 0.0, 0.0)
        sf = (0.0, 0.0, 0.0)
        if k >= 0:
            sn, sf = world_axis(jnt, R, pw, extended)
            # β, α of this joint (its parent's motion)
            ben, bef = _mcross(vn, vf, sn, sf)
            t1n, t1f = _mcross(an, af, sn, sf)
            t2n, t2f = _mcross(ben, bef, vn, vf)
            s3(ws, i, _BEN, ben)
            s3(ws, i, _BEF, bef)
            s3(ws, i, _ALN, sub(t1n, t2n))
            s3(ws, i, _ALF, sub(t1f, t2f))
            vn = add(vn, scale(qd[k], sn))
            vf = add(vf, scale(qd[k], sf))
            cn, cf = _mcross(vn, vf, sn, sf)
            an = add(an, add(scale(qdd[k], sn), scale(qd[k], cn)))
            af = add(af, add(scale(qdd[k], sf), scale(qd[k], cf)))
        # inertia about the world origin
        m = P[o + MASS]
        c = add(pw, mv(R, body_com(P, o, qi)))
        J = inertia_about(mm(mm(R, m9(P, o + INERTIA)), mt(R)), m, c)
        slide = P[o + COM_SLIDE]
        h = scale(m, c)
        ln, lf = _inertia_apply(m, h, J, vn, vf)
        yan, yaf = _inertia_apply(m, h, J, an, af)
        xn, xf = _fcross(vn, vf, ln, lf)
        # Ẏ: ḣ = m u + ω × h,  J̇ = [ω]× J − J [ω]× − ([u]×[h]× + [h]×[u]×)
        W = skew9(vn)
        U = skew9(vf)
        Hx = skew9(h)
        dJ = msub(msub(mm(W, J), mm(J, W)), madd(mm(U, Hx), mm(Hx, U)))
        s9(ws, i, _RW, R)
        s3(ws, i, _PW, pw)
        s3(ws, i, _SN, sn)
        s3(ws, i, _SF, sf)
        s3(ws, i, _VN, vn)
        s3(ws, i, _VF, vf)
        s3(ws, i, _AN, an)
        s3(ws, i, _AF, af)
        ws[i, _YM] = m
        s3(ws, i, _YH, h)
        s9(ws, i, _YJ, J)
        s3(ws, i, _DH, add(scale(m, vf), cross(vn, h)))
        s9(ws, i, _DJ, dJ)
        s3(ws, i, _LN, ln)
        s3(ws, i, _LF, lf)
        s3(ws, i, _FN, add(yan, xn))
        s3(ws, i, _FF, add(yaf, xf))
        xn = (0.0, 0.0, 0.0)
        xf = (0.0, 0.0, 0.0)
        if slide != 0.0 and k >= 0:
            # book mode: ∂Y a + v ×* ∂Y v for the COM moving by δc per unit q_k
            dc = scale(slide, mv(R, v3(P, o + AXIS)))
            dh = scale(m, dc)
            dJc = msub(diag3(2.0 * m * dot(c, dc)), madd(outer(dc, c, m), outer(c, dc, m)))
            pan, paf = _inertia_apply(0.0, dh, dJc, an, af)
            pvn, pvf = _inertia_apply(0.0, dh, dJc, vn, vf)
            cxn, cxf = _fcross(vn, vf, pvn, pvf)
            xn, xf = add(pan, cxn), add(paf, cxf)
        s3(ws, i, _XN, xn)
        s3(ws, i, _XF, xf)
    # inward pass: composite inertia, rate, momentum and force
    for i in range(nb, 0, -1):
        p = int(P[HEADER + i * STRIDE])
        if p > 0:
            ws[p, _YM] += ws[i, _YM]
            for c in range(_YH, _FF + 3):
                ws[p, c] += ws[i, c]
    # per joint: P, Q (as a descendant row) and α, β, u, w (as an ancestor column)
    for i in range(1, nb + 1):
        o = HEADER + i * STRIDE
        if int(P[o + VIDX]) < 0:
            continue
        m = ws[i, _YM]
        h = g3(ws, i, _YH)
        J = g9(ws, i, _YJ)
        sn, sf = g3(ws, i, _SN), g3(ws, i, _SF)
        pn, pf = _inertia_apply(m, h, J, sn, sf)
        yn, yf = _inertia_apply(0.0, g3(ws, i, _DH), g9(ws, i, _DJ), sn, sf)
        cn, cf = _fcross(sn, sf, g3(ws, i, _LN), g3(ws, i, _LF))
        s3(ws, i, _PN, pn)
        s3(ws, i, _PF, pf)
        s3(ws, i, _QN, sub(yn, cn))  # Bcᵀ S = Ẏc S − S ×* ℓc
        s3(ws, i, _QF, sub(yf, cf))
        aln, alf = g3(ws, i, _ALN), g3(ws, i, _ALF)
        ben, bef = g3(ws, i, _BEN), g3(ws, i, _BEF)
        fn_, ff_ = _fcross(sn, sf, g3(ws, i, _FN), g3(ws, i, _FF))
        ya_n, ya_f = _inertia_apply(m, h, J, aln, alf)
        bb_n, bb_f = _b_apply(ws, i, ben, bef)
        s3(ws, i, _UN, add(fn_, add(ya_n, bb_n)))
        s3(ws, i, _UF, add(ff_, add(ya_f, bb_f)))
        yb_n, yb_f = _inertia_apply(m, h, J, ben, bef)
        bs_n, bs_f = _b_apply(ws, i, sn, sf)
        s3(ws, i, _WN, add(scale(2.0, yb_n), bs_n))
        s3(ws, i, _WF, add(scale(2.0, yb_f), bs_f))
    for a in range(nq):
        for b in range(nq):
            dq[a, b] = 0.0
            dv[a, b] = 0.0
            M[a, b] = 0.0
    # every (descendant i, ancestor-or-self j) pair
    total = 0.0
    for i in range(1, nb + 1):
        oi = HEADER + i * STRIDE
        ri = int(P[oi + VIDX])
        if ri < 0:
            continue
        pn, pf = g3(ws, i, _PN), g3(ws, i, _PF)
        qn, qf = g3(ws, i, _QN), g3(ws, i, _QF)
        un, uf = g3(ws, i, _UN), g3(ws, i, _UF)
        wn, wf = g3(ws, i, _WN), g3(ws, i, _WF)
        xn, xf = g3(ws, i, _XN), g3(ws, i, _XF)
        b = i
        while b > 0:
            ob = HEADER + b * STRIDE
            cj = int(P[ob + VIDX])
            if cj >= 0:
                sn, sf = g3(ws, b, _SN), g3(ws, b, _SF)
                aln, alf = g3(ws, b, _ALN), g3(ws, b, _ALF)
                ben, bef = g3(ws, b, _BEN), g3(ws, b, _BEF)
                dq[ri, cj] = _dot6(pn, pf, aln, alf) + _dot6(qn, qf, ben, bef)
                dv[ri, cj] = 2.0 * _dot6(pn, pf, ben, bef) + _dot6(qn, qf, sn, sf)
                mij = _dot6(pn, pf, sn, sf)
                M[ri, cj] = mij
                M[cj, ri] = mij
                if b != i:
                    dq[cj, ri] = _dot6(sn, sf, un, uf)
                    dv[cj, ri] = _dot6(sn, sf, wn, wf)
                dq[cj, ri] += _dot6(sn, sf, xn, xf)
                total += dq[ri, cj] + dv[ri, cj] + dq[cj, ri] + dv[cj, ri]
            b = int(P[ob])
        M[ri, ri] += P[oi + ARMATURE]
        dv[ri, ri] += P[oi + VISCOUS]
    return OK if np.isfinite(total) else NON_FINITE


@njit(cache=True)
def fd_derivatives_into(P, q, qd, tau, ws, wa, qdd, dq, dv, Minv, extended):
    """∂q̈/∂q into dq, ∂q̈/∂q̇ into dv, M⁻¹ into Minv; ``ws`` and ``wa`` are the workspaces
    of :func:`rnea_derivatives_into` and of :func:`eslabon.dynamics.aba.aba_into`. Status
    (:mod:`eslabon._engine.status`): OK, NON_FINITE or NOT_POSITIVE_DEFINITE."""
    nq = int(P[H_NV])
    st = aba_into(P, q, qd, tau, wa, qdd, extended)
    if st != OK:
        return st
    M = np.empty((nq, nq))
    if rnea_derivatives_into(P, q, qd, qdd, ws, dq, dv, M, extended) != OK:
        return NON_FINITE
    if not cholesky_factor(M, nq):
        return NOT_POSITIVE_DEFINITE
    col = np.empty(nq)
    for j in range(nq):
        _solve_column(M, _negated_column(col, dq, j, nq), nq, dq, 0, j)
        _solve_column(M, _negated_column(col, dv, j, nq), nq, dv, 0, j)
        _solve_column(M, _unit_column(col, j, nq), nq, Minv, 0, j)
    return OK


@njit(cache=True, inline="always")
def _negated_column(col, X, j, n):
    """col ← −X[:, j]; returns col."""
    for a in range(n):
        col[a] = -X[a, j]
    return col


@njit(cache=True, inline="always")
def _unit_column(col, j, n):
    """col ← e_j; returns col."""
    for a in range(n):
        col[a] = 0.0
    col[j] = 1.0
    return col


@njit(cache=True, inline="always")
def _solve_column(L, col, n, out, row0, j):
    """out[row0 : row0 + n, j] ← (L Lᵀ)⁻¹ col (col is overwritten), L from
    :func:`~eslabon.dynamics.cholesky_fd.cholesky_factor`."""
    cholesky_solve(L, col, n)
    for a in range(n):
        out[row0 + a, j] = col[a]


@njit(cache=True)
def linearization_into(P, q, qd, qdd, ws, cw, W, V, M, L, col, Minv, A, B, extended):
    """The state-space linearization of the robot about (q, q̇, q̈) in one pass (Rojas
    1987, (5.4.1) and (5.2.3–4)): W = ∂τ/∂q and V = ∂τ/∂q̇ by
    :func:`rnea_derivatives_into`, U = M by the composite-body kernel that
    :func:`eslabon.mass_matrix` runs (``cw`` its workspace: the same bits), then with
    M = L Lᵀ (``L`` a scratch (n, n), ``col`` (n,))

        A = [[0, 1], [−M⁻¹W, −M⁻¹V]],   B = [[0], [M⁻¹]],   Minv = M⁻¹.

    Status (:mod:`eslabon._engine.status`): OK, NON_FINITE or NOT_POSITIVE_DEFINITE."""
    n = int(P[H_NV])
    if rnea_derivatives_into(P, q, qd, qdd, ws, W, V, L, extended) != OK:
        return NON_FINITE
    if crba_into(P, q, cw, M, extended) != OK:
        return NON_FINITE
    for a in range(n):
        for b in range(n):
            L[a, b] = M[a, b]
    if not cholesky_factor(L, n):
        return NOT_POSITIVE_DEFINITE
    for a in range(2 * n):
        for b in range(2 * n):
            A[a, b] = 0.0
        for b in range(n):
            B[a, b] = 0.0
    for j in range(n):
        A[j, n + j] = 1.0
        _solve_column(L, _negated_column(col, W, j, n), n, A, n, j)
        _solve_column(L, _negated_column(col, V, j, n), n, A, n, n + j)
        _solve_column(L, _unit_column(col, j, n), n, Minv, 0, j)
        for a in range(n):
            B[n + a, j] = Minv[a, j]
    return OK
