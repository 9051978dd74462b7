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

evaluated at q̈ = FD(q, q̇, τ) (Carpentier & Mansard eq. 26). That q̈ comes from the same
pass (:func:`fd_derivatives_into`): run at q̈ = 0 it gives M and the bias b = ID(q, q̇, 0),
so q̈ = M⁻¹ (τ − b); every a_k, α_j and F_i is affine in q̈, and one more sweep adds
the part of q̈ (a_k gains δa_k = Σ_{j ⪯ k} S_j q̈_j, so α_j gains δa_λ(j) × S_j and
F_i gains Σ_{k ⪰ i} Y_k δa_k = Yc_i δa_λ(i) + Σ_{j ⪰ i} Yc_j S_j q̈_j).

Inertias Y are kept as (m, h = m c, J = inertia about the world origin); Y [ω; u] =
[J ω + h × u; m u − h × ω], and Ẏ has the same form with (0, ḣ, J̇).
"""

from __future__ import annotations

from numba import njit

from .._engine.argtypes import as_argument
from .._engine.joints import (
    by_quaternion,
    joint,
    placement,
    quaternion_row_placement,
    world_axis,
)
from .._engine.lanes import all_finite, at, clear, g1, like, put, s1, zero_of
from .._engine.layout import (
    ARMATURE,
    AXIS,
    COM_SLIDE,
    COULOMB,
    H_GRAVITY,
    H_NB,
    H_NV,
    INERTIA,
    MASS,
    VISCOUS,
)
from .._engine.outward_pass import body_com, near_angles
from .._engine.record import coordinate_index, parent, rate_index, row_offset
from .._engine.status import NON_FINITE, OK
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
    sign,
    sub,
    v3,
)
from .cholesky_forward_dynamics import spd_inverse

_I9 = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)
_Z3 = (0.0, 0.0, 0.0)
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


@njit(cache=True, inline="always")
def _inertia_rate(w, u, h, J):
    """J̇ = [ω]× J − J [ω]× − ([u]×[h]× + [h]×[u]×) for a symmetric J, as X + Xᵀ − h uᵀ −
    u hᵀ + 2 (u·h) 1 with X = [ω]× J (J [ω]× = −Xᵀ and [a]×[b]× = b aᵀ − (a·b) 1):
    27 products for X instead of four 3×3 products."""
    x0 = cross(w, (J[0], J[3], J[6]))  # X's columns
    x1 = cross(w, (J[1], J[4], J[7]))
    x2 = cross(w, (J[2], J[5], J[8]))
    d = 2.0 * dot(u, h)
    j00 = 2.0 * x0[0] - 2.0 * h[0] * u[0] + d
    j11 = 2.0 * x1[1] - 2.0 * h[1] * u[1] + d
    j22 = 2.0 * x2[2] - 2.0 * h[2] * u[2] + d
    j01 = x1[0] + x0[1] - (h[0] * u[1] + u[0] * h[1])
    j02 = x2[0] + x0[2] - (h[0] * u[2] + u[0] * h[2])
    j12 = x2[1] + x1[2] - (h[1] * u[2] + u[1] * h[2])
    return (j00, j01, j02, j01, j11, j12, j02, j12, j22)


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
    _motion_and_composites(P, q, qd, qdd, ws, extended)
    _composite_axes(P, ws)
    _column_vectors(P, ws)
    return _pairs(P, ws, dq, dv, M, True)


@njit(cache=True)
def _motion_and_composites(P, q, qd, qdd, ws, extended):
    """Outward pass (poses, S, v, a, α, β, inertias, their rates, momenta, forces) and
    inward pass (their composite sums) into ``ws``."""
    nb = int(P[H_NB])
    z = zero_of(q)
    Z3 = like(_Z3, z)
    clear(ws, 0, 0, COLS)
    s9(ws, 0, _RW, like(_I9, z))
    s3(ws, 0, _AF, like((-P[H_GRAVITY], -P[H_GRAVITY + 1], -P[H_GRAVITY + 2]), z))
    # outward pass: poses, S, v, a, inertias and their rates, momenta, forces
    q_given = q  # (a helical joint advances with its whole angle: joints.placement)
    q = near_angles(P, q, extended)
    for i in range(1, nb + 1):
        o = row_offset(i)
        k = rate_index(P, o)
        p = parent(P, o)
        cq = coordinate_index(P, o)
        qi = z
        if cq >= 0:
            qi = at(q, cq)
        jnt = joint(P, o)
        qh = qi
        if extended is not None:
            if cq >= 0:
                qh = at(q_given, cq)
        E, r = placement(jnt, qi, extended, qh)
        if extended is not None:
            if by_quaternion(jnt):  # out of line (joints.quaternion_row_placement)
                E, r = quaternion_row_placement(P, o, q, cq)
        Rp = g9(ws, p, _RW)
        R = mm(Rp, E)
        pw = add(g3(ws, p, _PW), mv(Rp, r))
        vn, vf = g3(ws, p, _VN), g3(ws, p, _VF)
        an, af = g3(ws, p, _AN), g3(ws, p, _AF)
        sn = Z3
        sf = Z3
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
            qdk, qddk = at(qd, k), at(qdd, k)
            vn = add(vn, scale(qdk, sn))
            vf = add(vf, scale(qdk, sf))
            cn, cf = _mcross(vn, vf, sn, sf)
            an = add(an, add(scale(qddk, sn), scale(qdk, cn)))
            af = add(af, add(scale(qddk, sf), scale(qdk, cf)))
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
        dJ = _inertia_rate(vn, vf, h, J)
        s9(ws, i, _RW, R)
        s3(ws, i, _PW, pw)
        s3(ws, i, _SN, sn)
        s3(ws, i, _SF, sf)
        s3(ws, i, _VN, vn)
        s3(ws, i, _VF, vf)
        s3(ws, i, _AN, an)
        s3(ws, i, _AF, af)
        s1(ws, i, _YM, m + z)
        s3(ws, i, _YH, h)
        s9(ws, i, _YJ, J)
        s3(ws, i, _DH, add(scale(m, vf), cross(vn, h)))
        s9(ws, i, _DJ, dJ)
        s3(ws, i, _LN, ln)
        s3(ws, i, _LF, lf)
        s3(ws, i, _FN, add(yan, xn))
        s3(ws, i, _FF, add(yaf, xf))
        xn = Z3
        xf = Z3
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
        p = parent(P, row_offset(i))
        if p > 0:
            for c in range(_YM, _FF + 3):
                s1(ws, p, c, g1(ws, p, c) + g1(ws, i, c))


@njit(cache=True)
def _composite_axes(P, ws):
    """P_i = Yc_i S_i (M's columns: M_ij = S_jᵀ P_i for j ⪯ i) and Q_i = Bc_iᵀ S_i of
    every joint."""
    nb = int(P[H_NB])
    for i in range(1, nb + 1):
        o = row_offset(i)
        if rate_index(P, o) < 0:
            continue
        m = g1(ws, i, _YM)
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


@njit(cache=True)
def _column_vectors(P, ws):
    """u_j and w_j of every joint: its column's vectors for the rows of its ancestors."""
    nb = int(P[H_NB])
    for i in range(1, nb + 1):
        o = row_offset(i)
        if rate_index(P, o) < 0:
            continue
        m = g1(ws, i, _YM)
        h = g3(ws, i, _YH)
        J = g9(ws, i, _YJ)
        sn, sf = g3(ws, i, _SN), g3(ws, i, _SF)
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


@njit(cache=True)
def _pairs(P, ws, dq, dv, M, mass):
    """∂τ/∂q, ∂τ/∂q̇ and (``mass``: when not already there) M from the joint vectors,
    over every (descendant i, ancestor-or-self j) pair; armature and viscous friction on
    the diagonals. Status OK or NON_FINITE."""
    nb = int(P[H_NB])
    dq[:] = 0.0
    dv[:] = 0.0
    if mass:
        M[:] = 0.0
    # every (descendant i, ancestor-or-self j) pair
    total = zero_of(ws[0])
    for i in range(1, nb + 1):
        oi = row_offset(i)
        ri = rate_index(P, oi)
        if ri < 0:
            continue
        pn, pf = g3(ws, i, _PN), g3(ws, i, _PF)
        qn, qf = g3(ws, i, _QN), g3(ws, i, _QF)
        un, uf = g3(ws, i, _UN), g3(ws, i, _UF)
        wn, wf = g3(ws, i, _WN), g3(ws, i, _WF)
        xn, xf = g3(ws, i, _XN), g3(ws, i, _XF)
        b = i
        while b > 0:
            ob = row_offset(b)
            cj = rate_index(P, ob)
            if cj >= 0:
                sn, sf = g3(ws, b, _SN), g3(ws, b, _SF)
                aln, alf = g3(ws, b, _ALN), g3(ws, b, _ALF)
                ben, bef = g3(ws, b, _BEN), g3(ws, b, _BEF)
                dq_ij = _dot6(pn, pf, aln, alf) + _dot6(qn, qf, ben, bef)
                dv_ij = 2.0 * _dot6(pn, pf, ben, bef) + _dot6(qn, qf, sn, sf)
                s1(dq, ri, cj, dq_ij)
                s1(dv, ri, cj, dv_ij)
                if mass:
                    mij = _dot6(pn, pf, sn, sf)
                    s1(M, ri, cj, mij)
                    s1(M, cj, ri, mij)
                if b != i:
                    s1(dq, cj, ri, _dot6(sn, sf, un, uf))
                    s1(dv, cj, ri, _dot6(sn, sf, wn, wf))
                dq_ji = g1(dq, cj, ri) + _dot6(sn, sf, xn, xf)
                s1(dq, cj, ri, dq_ji)
                total += dq_ij + dv_ij + dq_ji + g1(dv, cj, ri)
            b = parent(P, ob)
        if mass:
            s1(M, ri, ri, g1(M, ri, ri) + P[oi + ARMATURE])
        s1(dv, ri, ri, g1(dv, ri, ri) + P[oi + VISCOUS])
    return OK if all_finite(total) else NON_FINITE


@njit(cache=True)
def _mass_pairs(P, ws, M):
    """M_ij = S_jᵀ P_i (j ⪯ i, both ways; zero off the ancestor pairs) plus the armature
    on the diagonal."""
    nb = int(P[H_NB])
    M[:] = 0.0
    for i in range(1, nb + 1):
        oi = row_offset(i)
        ri = rate_index(P, oi)
        if ri < 0:
            continue
        pn, pf = g3(ws, i, _PN), g3(ws, i, _PF)
        b = i
        while b > 0:
            ob = row_offset(b)
            cj = rate_index(P, ob)
            if cj >= 0:
                mij = _dot6(pn, pf, g3(ws, b, _SN), g3(ws, b, _SF))
                s1(M, ri, cj, mij)
                s1(M, cj, ri, mij)
            b = parent(P, ob)
        s1(M, ri, ri, g1(M, ri, ri) + P[oi + ARMATURE])


@njit(cache=True)
def _bias_into(P, qd, ws, out):
    """out ← τ at q̈ = 0: S_iᵀ F_i with the friction (the forces of ``ws`` at q̈ = 0)."""
    nb = int(P[H_NB])
    for i in range(1, nb + 1):
        o = row_offset(i)
        k = rate_index(P, o)
        if k >= 0:
            f = _dot6(g3(ws, i, _SN), g3(ws, i, _SF), g3(ws, i, _FN), g3(ws, i, _FF))
            v = at(qd, k)
            put(out, k, f + P[o + VISCOUS] * v + P[o + COULOMB] * sign(v))


@njit(cache=True)
def _add_accelerations(P, qdd, ws):
    """Turn α and the composite forces of ``ws``, computed at q̈ = 0, into those at
    ``qdd`` (the bodies' own accelerations a are left at q̈ = 0: nothing reads them
    after the pass): with
    δa_i = δa_λ(i) + S_i q̈_i the change of every body's acceleration, α_i gains
    δa_λ(i) × S_i and the composite force F_i gains Yc_i δa_λ(i) + Σ_{j ⪰ i} P_j q̈_j
    (Σ_{k ⪰ i} Y_k δa_k regrouped by joint, P_j = Yc_j S_j). δa and the sums are kept in
    the u and w columns, which :func:`_column_vectors` fills afterwards."""
    nb = int(P[H_NB])
    clear(ws, 0, _UN, _WF + 3)
    Z3 = like(_Z3, zero_of(qdd))
    for i in range(1, nb + 1):
        o = row_offset(i)
        k = rate_index(P, o)
        p = parent(P, o)
        dan, daf = g3(ws, p, _UN), g3(ws, p, _UF)
        yn, yf = _inertia_apply(g1(ws, i, _YM), g3(ws, i, _YH), g9(ws, i, _YJ), dan, daf)
        s3(ws, i, _FN, add(g3(ws, i, _FN), yn))
        s3(ws, i, _FF, add(g3(ws, i, _FF), yf))
        gn, gf = Z3, Z3
        if k >= 0:
            sn, sf = g3(ws, i, _SN), g3(ws, i, _SF)
            tn, tf = _mcross(dan, daf, sn, sf)
            s3(ws, i, _ALN, add(g3(ws, i, _ALN), tn))
            s3(ws, i, _ALF, add(g3(ws, i, _ALF), tf))
            qddk = at(qdd, k)
            gn, gf = scale(qddk, g3(ws, i, _PN)), scale(qddk, g3(ws, i, _PF))
            dan, daf = add(dan, scale(qddk, sn)), add(daf, scale(qddk, sf))
        s3(ws, i, _UN, dan)
        s3(ws, i, _UF, daf)
        s3(ws, i, _WN, gn)
        s3(ws, i, _WF, gf)
    for i in range(nb, 0, -1):
        s3(ws, i, _FN, add(g3(ws, i, _FN), g3(ws, i, _WN)))
        s3(ws, i, _FF, add(g3(ws, i, _FF), g3(ws, i, _WF)))
        p = parent(P, row_offset(i))
        if p > 0:
            s3(ws, p, _WN, add(g3(ws, p, _WN), g3(ws, i, _WN)))
            s3(ws, p, _WF, add(g3(ws, p, _WF), g3(ws, i, _WF)))


@njit(cache=True)
def _slides(P):
    """Whether a body's COM slides with its own prismatic joint (seed 001 book mode)."""
    for i in range(1, int(P[H_NB]) + 1):
        if P[row_offset(i) + COM_SLIDE] != 0.0:
            return True
    return False


@njit(cache=True)
def _times_into(X, Y, out, n, sign_, row0, col0):
    """out[row0 + a, col0 + b] ← sign_ · (X Y)[a, b] for (n, n) X, Y, four columns of a
    row at a time (four independent sums in registers: 2–3× a plain triple loop, whose
    stores the compiler cannot keep in registers for fear of aliasing)."""
    for a in range(n):
        b = 0
        while b + 4 <= n:
            x = g1(X, a, 0)
            t0, t1, t2, t3 = (
                x * g1(Y, 0, b),
                x * g1(Y, 0, b + 1),
                x * g1(Y, 0, b + 2),
                x * g1(Y, 0, b + 3),
            )
            for c in range(1, n):
                x = g1(X, a, c)
                t0 += x * g1(Y, c, b)
                t1 += x * g1(Y, c, b + 1)
                t2 += x * g1(Y, c, b + 2)
                t3 += x * g1(Y, c, b + 3)
            s1(out, row0 + a, col0 + b, sign_ * t0)
            s1(out, row0 + a, col0 + b + 1, sign_ * t1)
            s1(out, row0 + a, col0 + b + 2, sign_ * t2)
            s1(out, row0 + a, col0 + b + 3, sign_ * t3)
            b += 4
        while b < n:
            t = g1(X, a, 0) * g1(Y, 0, b)
            for c in range(1, n):
                t += g1(X, a, c) * g1(Y, c, b)
            s1(out, row0 + a, col0 + b, sign_ * t)
            b += 1


@njit(cache=True)
def fd_derivatives_into(P, q, qd, tau, ws, qdd, W, V, L, dq, dv, Minv, extended):
    """∂q̈/∂q into dq, ∂q̈/∂q̇ into dv, M⁻¹ into Minv and q̈ = FD(q, q̇, τ) into qdd, from
    one derivative pass (``ws`` as for :func:`rnea_derivatives_into`; W, V, L scratch
    (n, n)). Status (:mod:`eslabon._engine.status`): OK, NON_FINITE or
    NOT_POSITIVE_DEFINITE.

    The pass runs at q̈ = 0, which gives M (composite inertias) and the bias b = τ(q̈ = 0)
    (the forces); q̈ = M⁻¹ (τ − b); :func:`_add_accelerations` then moves the pass's α and
    composite forces to that q̈ (both are affine in q̈), and the columns follow:
    no separate forward dynamics. With M⁻¹ from :func:`spd_inverse`,
    ∂q̈/∂x = −M⁻¹ ∂τ/∂x."""
    n = int(P[H_NV])
    qdd[:] = 0.0
    _motion_and_composites(P, q, qd, qdd, ws, extended)
    _composite_axes(P, ws)
    _mass_pairs(P, ws, L)
    st = spd_inverse(L, Minv, n)
    if st != OK:
        return st
    _bias_into(P, qd, ws, qdd)
    total = like(0.0, g1(L, 0, 0))
    for a in range(n):
        s1(V, 0, a, at(tau, a) - at(qdd, a))
    for a in range(n):
        s = like(0.0, g1(V, 0, 0))
        for b in range(n):
            s += g1(Minv, a, b) * g1(V, 0, b)
        put(qdd, a, s)
        total += s
    if not all_finite(total):  # τ not finite (q̈ may not reach ∂τ: a lone joint's does not)
        return NON_FINITE
    if _slides(P):  # the slide's own term moves with a: the whole pass again
        if rnea_derivatives_into(P, q, qd, qdd, ws, W, V, L, extended) != OK:
            return NON_FINITE
    else:
        _add_accelerations(P, qdd, ws)
        _column_vectors(P, ws)
        if _pairs(P, ws, W, V, L, False) != OK:
            return NON_FINITE
    top = as_argument(0)  # int64 as the other calls' offsets: one compiled _times_into
    _times_into(Minv, W, dq, n, -1.0, top, top)
    _times_into(Minv, V, dv, n, -1.0, top, top)
    return OK


@njit(cache=True)
def linearization_into(P, q, qd, qdd, ws, W, V, M, L, Minv, A, B, extended):
    """The state-space linearization of the robot about (q, q̇, q̈) in one pass (Rojas
    1987, (5.4.1) and (5.2.3–4)): W = ∂τ/∂q, V = ∂τ/∂q̇ and U = M by
    :func:`rnea_derivatives_into`, M⁻¹ by :func:`spd_inverse` (``L`` a scratch (n, n)),
    and

        A = [[0, 1], [−M⁻¹W, −M⁻¹V]],   B = [[0], [M⁻¹]].

    Status (:mod:`eslabon._engine.status`): OK, NON_FINITE or NOT_POSITIVE_DEFINITE."""
    if rnea_derivatives_into(P, q, qd, qdd, ws, W, V, M, extended) != OK:
        return NON_FINITE
    return state_space_into(W, V, M, L, Minv, A, B)


@njit(cache=True)
def state_space_into(W, V, M, L, Minv, A, B):
    """M⁻¹ by :func:`spd_inverse` (``L`` a scratch (n, n)), A = [[0, 1], [−M⁻¹W, −M⁻¹V]]
    and B = [[0], [M⁻¹]] from W = ∂τ/∂q, V = ∂τ/∂q̇ and M. Status OK, NON_FINITE or
    NOT_POSITIVE_DEFINITE."""
    n = M.shape[0]
    L[:] = M
    st = spd_inverse(L, Minv, n)
    if st != OK:
        return st
    for a in range(n):
        for b in range(n):
            A[a, b] = 0.0
            A[a, n + b] = 1.0 if a == b else 0.0
            B[a, b] = 0.0
            B[n + a, b] = Minv[a, b]
    _times_into(Minv, W, A, n, -1.0, n, as_argument(0))
    _times_into(Minv, V, A, n, -1.0, n, n)
    return OK
