"""Forward dynamics by the articulated-body algorithm, O(n) (Featherstone 1983).

Featherstone, *Rigid Body Dynamics Algorithms* (2008), Table 7.1, in body coordinates with
spatial vectors ordered [angular; linear] and moments about the body origin:

    pass 1 (outward)   v_i = X_i v_p + S_i q̇_i,   c_i = v_i × S_i q̇_i,
                       I^A_i = I_i,   p^A_i = v_i ×* I_i v_i
    pass 2 (inward)    U_i = I^A_i S_i,   D_i = S_iᵀ U_i + J_a,
                       u_i = τ_i − b q̇_i − μ sign(q̇_i) − S_iᵀ p^A_i,
                       I^a = I^A_i − U_i U_iᵀ / D_i,   p^a = p^A_i + I^a c_i + U_i u_i / D_i,
                       I^A_p += X_i* I^a X_i,   p^A_p += X_i* p^a
    pass 3 (outward)   a_i = X_i a_p + c_i,   q̈_i = (u_i − U_iᵀ a_i) / D_i,   a_i += S_i q̈_i

with a_0 = −g (gravity as a base acceleration), armature J_a and joint friction (viscous
b, Coulomb μ) as in :mod:`.rnea`. Fixed bodies skip the joint terms (I^a = I^A).

Spatial inertias are kept as three 3×3 blocks [[A, B], [Bᵀ, C]] with A and C symmetric
(stored as 6-tuples, :func:`eslabon._engine.tuples.sym6`); a rigid body about its origin has
A = Ī + m(|c|²1 − c cᵀ), B = m[c]×, C = m 1. Moving a block inertia from a child (rotation
E, origin r in the parent) to the parent: A' = E A Eᵀ etc., then

    A_p = A' + [r]× B'ᵀ − B' [r]× − [r]× C' [r]×,   B_p = B' + [r]× C',   C_p = C',

computed as B_p = B' + [r]×C' and A_p = A' − Xᵀ − B_p[r]× with X = B'[r]× (every product
with [r]× is a row of cross products, :func:`translate_blocks`).

On a serial chain (parent of i is i − 1) what body i passes to its parent stays in
registers; other children (trees) are summed into the parent's workspace row. A joint
about +z (every DH joint) reads U = I^A S and D as a column and an entry of I^A.

How it is called (one state, the fast path, a batch as lanes): :mod:`.drivers`.
"""

from __future__ import annotations

from numba import njit

from .._engine.joints import (
    articulated_acceleration,
    articulated_projection,
    articulated_velocity,
    by_quaternion,
    floating_base,
    joint,
    placement,
    rates,
)
from .._engine.lanes import all_finite, all_positive, at, clear, g1, like, put, s1, zero_of
from .._engine.layout import (
    ARMATURE,
    COULOMB,
    H_GRAVITY,
    H_NB,
    INERTIA,
    MASS,
    VISCOUS,
)
from .._engine.record import coordinate_index, next_row, parent, rate_index, row_offset
from .._engine.status import NON_FINITE, NOT_POSITIVE_DEFINITE, OK
from .._engine.tuples import (
    add,
    cross,
    dot,
    g3,
    g6,
    g9,
    inertia_about,
    m9,
    madd,
    mm,
    mtv,
    mv,
    rank1_sub,
    rotate_s6,
    rotate_sym,
    s3,
    s6,
    s9,
    sadd,
    scale,
    sign,
    smv,
    srank1_sub,
    sscale,
    ssub,
    sub,
    sym6,
    sym_cofactors,
    sym_full,
    sym_product,
)
from ..kinematics.recursion import (
    body_com,
    near_angles,
    quaternion_row,
    quaternion_row_placement,
)

# workspace columns, one row per body
_E, _R, _W, _V, _CW, _CV, _A, _H, _PN, _PF, _UN, _UF = (
    0,
    9,
    12,
    15,
    18,
    21,
    24,
    30,
    33,
    36,
    39,
    42,
)
_D, _U = 45, 46  # 1/D and u
# what children that are not the next body (trees) add to a body: A 6, B 9, C 6, p^a 3 + 3
_XA, _XB, _XC, _XN, _XF = 47, 53, 62, 68, 71
COLS = 74
_Z3 = (0.0, 0.0, 0.0)
_Z6 = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
_Z9 = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)


@njit(cache=True)
def translate_blocks(A, B, C, r):
    """(A_p, B_p) of the block inertia [[A, B], [Bᵀ, C]] (A, C symmetric 6-tuples, B a
    9-tuple) moved by r; C_p = C. Row i of M[r]× is m_i × r; column j of [r]×C is r × c_j."""
    k0 = cross(r, (C[0], C[1], C[2]))
    k1 = cross(r, (C[1], C[3], C[4]))
    k2 = cross(r, (C[2], C[4], C[5]))
    Bp = (
        B[0] + k0[0],
        B[1] + k1[0],
        B[2] + k2[0],
        B[3] + k0[1],
        B[4] + k1[1],
        B[5] + k2[1],
        B[6] + k0[2],
        B[7] + k1[2],
        B[8] + k2[2],
    )
    x0 = cross((B[0], B[1], B[2]), r)
    x1 = cross((B[3], B[4], B[5]), r)
    x2 = cross((B[6], B[7], B[8]), r)
    y0 = cross((Bp[0], Bp[1], Bp[2]), r)
    y1 = cross((Bp[3], Bp[4], Bp[5]), r)
    y2 = cross((Bp[6], Bp[7], Bp[8]), r)
    Ap = (
        A[0] - x0[0] - y0[0],
        A[1] - x1[0] - y0[1],
        A[2] - x2[0] - y0[2],
        A[3] - x1[1] - y1[1],
        A[4] - x2[1] - y1[2],
        A[5] - x2[2] - y2[2],
    )
    return Ap, Bp


@njit(inline="always")
def _rate_force(P, o, qd, tau):
    """τ less the friction of the one-rate row at offset ``o``."""
    k = rate_index(P, o)
    v = at(qd, k)
    return at(tau, k) - (P[o + VISCOUS] * v + P[o + COULOMB] * sign(v))


@njit(inline="always")
def _free_flyer_pass2(P, i, qd, tau, ws, A, B, C, pn, pf):
    """Pass 2 and the solve of pass 3 for the free flyer on the world whose body is row
    ``i``, from its articulated inertia [[A, B], [Bᵀ, C]] and bias force (pn, pf).

    Its rates are (u, ω) in body axes, S = [0 1; 1 0], so D = Sᵀ I^A S + J_a =
    [[C, Bᵀ], [B, A]] + J_a and Uᵀ a' = (C a'_v, B a'_v) for a' = (0, a'_v), the world's
    −g in body axes. D [x_u; x_ω] = [r_u; r_ω] is solved by the Schur complement:
    x_ω = (A − G Bᵀ)⁻¹ (r_ω − G r_u), x_u = C⁻¹ (r_u − Bᵀ x_ω), G = B C⁻¹, each 3×3
    inverse by cofactors. Writes x into ``ws[i, _XN:_XN + 6]`` (q̈ of the six rows) and the
    body's acceleration (x_ω, a'_v + x_u) into its c columns."""
    o1 = row_offset(i - 5)  # the six rows: linear rates o1..o3, angular rates o4..o6
    o2 = next_row(o1)
    o3 = next_row(o2)
    o4 = next_row(o3)
    o5 = next_row(o4)
    o6 = next_row(o5)
    ul = (_rate_force(P, o1, qd, tau), _rate_force(P, o2, qd, tau))
    ul = ul + (_rate_force(P, o3, qd, tau),)
    ua = (_rate_force(P, o4, qd, tau), _rate_force(P, o5, qd, tau))
    ua = ua + (_rate_force(P, o6, qd, tau),)
    al = (P[o1 + ARMATURE], P[o2 + ARMATURE], P[o3 + ARMATURE])
    aa = (P[o4 + ARMATURE], P[o5 + ARMATURE])
    aa = aa + (P[o6 + ARMATURE],)
    E = g9(ws, i, _E)
    av = mtv(E, (-P[H_GRAVITY], -P[H_GRAVITY + 1], -P[H_GRAVITY + 2]))
    ru = sub(sub(ul, pf), smv(C, av))
    rw = sub(sub(ua, pn), mv(B, av))
    Cj = (C[0] + al[0], C[1], C[2], C[3] + al[1], C[4], C[5] + al[2])
    Aj = (A[0] + aa[0], A[1], A[2], A[3] + aa[1], A[4], A[5] + aa[2])
    cof, minors = sym_cofactors(Cj)  # each block's leading minors before its inverse
    if not (all_positive(minors[0]) and all_positive(minors[1]) and all_positive(minors[2])):
        return NOT_POSITIVE_DEFINITE if all_finite(minors[2]) else NON_FINITE
    Ci = sscale(1.0 / minors[2], cof)
    G = mm(B, sym_full(Ci))
    cof2, minors2 = sym_cofactors(ssub(Aj, sym_product(G, B)))
    if not (all_positive(minors2[0]) and all_positive(minors2[1]) and all_positive(minors2[2])):
        return NOT_POSITIVE_DEFINITE if all_finite(minors2[2]) else NON_FINITE
    xw = smv(sscale(1.0 / minors2[2], cof2), sub(rw, mv(G, ru)))
    xu = smv(Ci, sub(ru, mtv(B, xw)))
    s3(ws, i, _XN, xu)
    s3(ws, i, _XN + 3, xw)
    s3(ws, i, _CW, xw)
    s3(ws, i, _CV, add(av, xu))
    return OK


@njit(cache=True)
def aba_into(P, q, qd, tau, ws, qdd, extended):
    """q̈ into ``qdd`` for one state, or for a lanes block ((n, WIDTH) joint arrays, a 3-D
    ``ws``, :mod:`eslabon._engine.lanes`); ``extended`` the joint set
    (:mod:`eslabon._engine.joints`). Status (:mod:`eslabon._engine.status`): OK,
    NON_FINITE, or NOT_POSITIVE_DEFINITE when a joint moves no mass (D_i ≤ 0)."""
    nb = int(P[H_NB])
    z = zero_of(q)
    Z3, Z6, Z9 = like(_Z3, z), like(_Z6, z), like(_Z9, z)
    # pass 1: velocities, velocity-product accelerations, rigid inertias, bias forces
    clear(ws, 0, 0, COLS)
    dwd = da = Z3  # a quaternion row's velocity-product correction
    tree = False
    q_given = q  # (a helical joint advances with its whole angle: joints.placement)
    q = near_angles(P, q, extended)
    base = floating_base(P, extended)  # taken in one step, on row 6
    for i in range(1, nb + 1):
        if extended is not None:
            if base and 1 < i < 7:
                continue
        o = row_offset(i)
        k = rate_index(P, o)
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
        row = i  # the row written: the body's own, also for a free flyer in one step
        block = base and i == 1
        if extended is not None:
            if block:  # v = S q̇ = (ω_J; u), c = 0 on the world
                E, r = quaternion_row_placement(P, o, q, cq)
                v, w = rates(qd, k, jnt)
                cw = cv = Z3
                row = 6
                o = row_offset(row)
            elif by_quaternion(jnt):  # out of line (recursion.quaternion_row)
                E, r, dwd, da = quaternion_row(P, o, q, qd, k, cq)
        if not block:
            p = parent(P, o)
            tree = tree or p != i - 1
            wp = g3(ws, p, _W)
            qdk = at(qd, k) if k >= 0 else z
            w, v, cw, cv = articulated_velocity(
                jnt, qdk, mtv(E, wp), mtv(E, add(g3(ws, p, _V), cross(wp, r))), Z3, extended
            )
            if extended is not None:
                if by_quaternion(jnt):
                    cw = add(cw, dwd)
                    cv = add(cv, da)
        m = P[o + MASS]
        com = body_com(P, o, qi)
        A = sym6(inertia_about(m9(P, o + INERTIA), m, com))
        h = scale(m, com)
        # p^A = v ×* (I v): momentum (A ω + h × v; m v − h × ω)
        ln = add(smv(A, w), cross(h, v))
        lf = sub(scale(m, v), cross(h, w))
        s9(ws, row, _E, E)
        s3(ws, row, _R, r)
        s3(ws, row, _W, w)
        s3(ws, row, _V, v)
        s3(ws, row, _CW, cw)
        s3(ws, row, _CV, cv)
        s6(ws, row, _A, A)
        s3(ws, row, _H, h)
        s3(ws, row, _PN, add(cross(w, ln), cross(v, lf)))
        s3(ws, row, _PF, cross(w, lf))
    if tree:
        for i in range(1, nb + 1):
            clear(ws, i, _XA, COLS)
    # pass 2: articulated inertias and bias forces, tip to root; what body i + 1 sends to
    # its parent i rides in (cA, cB, cC, cn, cf)
    cA, cB, cC, cn, cf = Z6, Z9, Z6, Z3, Z3
    for i in range(nb, 0, -1):
        if extended is not None:
            if base and i < 6:
                break
        o = row_offset(i)
        k = rate_index(P, o)
        m = P[o + MASS]
        h = g3(ws, i, _H)
        # I^A_i = I_i + what the children sent: A, B = m[c]× (+ children), C = m 1 (+ ...)
        A = sadd(g6(ws, i, _A), cA)
        B = (
            cB[0],
            cB[1] - h[2],
            cB[2] + h[1],
            cB[3] + h[2],
            cB[4],
            cB[5] - h[0],
            cB[6] - h[1],
            cB[7] + h[0],
            cB[8],
        )
        C = (cC[0] + m, cC[1], cC[2], cC[3] + m, cC[4], cC[5] + m)
        pn = add(g3(ws, i, _PN), cn)
        pf = add(g3(ws, i, _PF), cf)
        if tree:
            A = sadd(A, g6(ws, i, _XA))
            B = madd(B, g9(ws, i, _XB))
            C = sadd(C, g6(ws, i, _XC))
            pn = add(pn, g3(ws, i, _XN))
            pf = add(pf, g3(ws, i, _XF))
        if extended is not None:  # (compiled for the extended joint set only)
            if base and i == 6:
                # the floating base (Featherstone 2008, ch. 9): nothing passes to the world; its
                # accelerations solve D q̈ = u − Uᵀ a' with a' = (0, −Eᵀ g), D = Sᵀ I^A S
                status = _free_flyer_pass2(P, i, qd, tau, ws, A, B, C, pn, pf)
                if status != OK:
                    return status
                continue
        if k >= 0:
            # U = I^A S, D = Sᵀ U, u = τ − Sᵀ p^A (joints.articulated_projection)
            un, uf, D, sp = articulated_projection(joint(P, o), A, B, C, pn, pf, extended)
            u = at(tau, k) - sp
            u -= P[o + VISCOUS] * at(qd, k) + P[o + COULOMB] * sign(at(qd, k))
            D += P[o + ARMATURE]
            if not all_positive(D):
                return NOT_POSITIVE_DEFINITE if all_finite(D) else NON_FINITE
            s3(ws, i, _UN, un)
            s3(ws, i, _UF, uf)
            # I^a = I^A − U Uᵀ / D
            inv = 1.0 / D
            s1(ws, i, _D, inv)
            s1(ws, i, _U, u)
            A = srank1_sub(A, un, inv)
            B = rank1_sub(B, un, uf, inv)
            C = srank1_sub(C, uf, inv)
            # p^a = p^A + I^a c + U u / D
            cw = g3(ws, i, _CW)
            cv = g3(ws, i, _CV)
            ui = u * inv
            pn = add(pn, add(add(smv(A, cw), mv(B, cv)), scale(ui, un)))
            pf = add(pf, add(add(mtv(B, cw), smv(C, cv)), scale(ui, uf)))
        p = parent(P, o)
        cA, cB, cC, cn, cf = Z6, Z9, Z6, Z3, Z3
        if p > 0:
            # I^A_p += X* I^a X,  p^A_p += X* p^a
            E = g9(ws, i, _E)
            r = g3(ws, i, _R)
            C1 = rotate_s6(E, C)
            A1, B1 = translate_blocks(rotate_s6(E, A), rotate_sym(E, B), C1, r)
            fp = mv(E, pf)
            npar = add(mv(E, pn), cross(r, fp))
            if p == i - 1:
                cA, cB, cC, cn, cf = A1, B1, C1, npar, fp
            else:
                s6(ws, p, _XA, sadd(g6(ws, p, _XA), A1))
                s9(ws, p, _XB, madd(g9(ws, p, _XB), B1))
                s6(ws, p, _XC, sadd(g6(ws, p, _XC), C1))
                s3(ws, p, _XN, add(g3(ws, p, _XN), npar))
                s3(ws, p, _XF, add(g3(ws, p, _XF), fp))
    # pass 3: accelerations, root to tip (a_0 = −g)
    s3(ws, 0, _CW, _Z3)
    s3(ws, 0, _CV, (-P[H_GRAVITY], -P[H_GRAVITY + 1], -P[H_GRAVITY + 2]))
    total = z
    first = 1
    if extended is not None:
        if base:  # q̈ of the floating base, and its body's acceleration: pass 2
            first = 7
            for d in range(6):
                x = g1(ws, 6, _XN + d)
                put(qdd, rate_index(P, row_offset(1 + d)), x)
                total += x
    for i in range(first, nb + 1):
        o = row_offset(i)
        p = parent(P, o)
        E = g9(ws, i, _E)
        r = g3(ws, i, _R)
        awp = g3(ws, p, _CW)
        aw = add(mtv(E, awp), g3(ws, i, _CW))
        av = add(mtv(E, add(g3(ws, p, _CV), cross(awp, r))), g3(ws, i, _CV))
        k = rate_index(P, o)
        if k >= 0:
            x = (g1(ws, i, _U) - dot(g3(ws, i, _UN), aw) - dot(g3(ws, i, _UF), av)) * g1(ws, i, _D)
            put(qdd, k, x)
            total += x
            aw, av = articulated_acceleration(joint(P, o), x, aw, av, extended)
        # pass 3 reuses the c columns of body i for its acceleration
        s3(ws, i, _CW, aw)
        s3(ws, i, _CV, av)
    return OK if all_finite(total) else NON_FINITE
