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

from .._engine.floating_base import (
    BASE_BODY,
    base_accelerations,
    base_velocity,
    first_loop_row,
    put_base_rates,
)
from .._engine.joints import (
    articulated_acceleration,
    articulated_projection,
    articulated_velocity,
    by_quaternion,
    joint,
    placement,
    quaternion_row,
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
from .._engine.outward_pass import body_com, near_angles
from .._engine.record import coordinate_index, parent, rate_index, row_offset
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
    sub,
    sym6,
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
def _rigid_body(P, o, row, ws, E, r, w, v, cw, cv, qi):
    """Pass 1's tail for body ``row``: its placement, velocity and c, its rigid inertia
    about its origin (A, h = m c) and its bias force p^A = v ×* I v, into ``ws``."""
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


@njit(inline="always")
def _articulated_inertia(P, o, ws, i, cA, cB, cC, cn, cf, tree):
    """I^A_i and p^A_i of body ``i``: its rigid inertia (A, B = m[c]×, C = m 1) and bias
    force plus what its children sent (the next body's in registers, the others in
    ``ws`` when ``tree``). Returns (A, B, C, pn, pf)."""
    m = P[o + MASS]
    h = g3(ws, i, _H)
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
    return A, B, C, pn, pf


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
    first = 1  # 7 after a floating base, taken apart
    if extended is not None:
        first = first_loop_row(P, extended)
    # the floating base: v = S q̇ = (ω_J; u), c = 0 on the world
    if extended is not None and first > 1:
        E, r, w, v = base_velocity(P, q, qd)
        _rigid_body(P, row_offset(BASE_BODY), BASE_BODY, ws, E, r, w, v, Z3, Z3, z)
    for i in range(first, nb + 1):
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
        if extended is not None:
            if by_quaternion(jnt):  # out of line (joints.quaternion_row)
                E, r, dwd, da = quaternion_row(P, o, q, qd, k, cq)
        p = parent(P, o)
        tree = tree or p != i - 1
        wp = g3(ws, p, _W)
        qdk = at(qd, k) if k >= 0 else z
        w, v, cw, cv = articulated_velocity(
            jnt, qdk, mtv(E, wp), mtv(E, add(g3(ws, p, _V), cross(wp, r))), Z3, dwd, da, extended
        )
        m = P[o + MASS]
        com = body_com(P, o, qi)
        A = sym6(inertia_about(m9(P, o + INERTIA), m, com))
        h = scale(m, com)
        ln = add(smv(A, w), cross(h, v))
        lf = sub(scale(m, v), cross(h, w))
        s9(ws, i, _E, E)
        s3(ws, i, _R, r)
        s3(ws, i, _W, w)
        s3(ws, i, _V, v)
        s3(ws, i, _CW, cw)
        s3(ws, i, _CV, cv)
        s6(ws, i, _A, A)
        s3(ws, i, _H, h)
        s3(ws, i, _PN, add(cross(w, ln), cross(v, lf)))
        s3(ws, i, _PF, cross(w, lf))
    if tree:
        for i in range(1, nb + 1):
            clear(ws, i, _XA, COLS)
    # pass 2: articulated inertias and bias forces, tip to root; what body i + 1 sends to
    # its parent i rides in (cA, cB, cC, cn, cf)
    cA, cB, cC, cn, cf = Z6, Z9, Z6, Z3, Z3
    for i in range(nb, first - 1, -1):
        o = row_offset(i)
        k = rate_index(P, o)
        # I^A_i = I_i + what the children sent
        m = P[o + MASS]
        h = g3(ws, i, _H)
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
    if extended is not None and first > 1:
        # the floating base (Featherstone 2008, ch. 9): nothing passes to the world; its
        # accelerations solve D q̈ = u − Uᵀ a' with a' = (0, −Eᵀ g), D = Sᵀ I^A S
        o = row_offset(BASE_BODY)
        A, B, C, pn, pf = _articulated_inertia(P, o, ws, BASE_BODY, cA, cB, cC, cn, cf, tree)
        E = g9(ws, BASE_BODY, _E)
        status, xu, xw, aw, av = base_accelerations(P, qd, tau, E, A, B, C, pn, pf, Z3)
        if status != OK:
            return status
        s3(ws, BASE_BODY, _XN, xu)
        s3(ws, BASE_BODY, _XN + 3, xw)
        s3(ws, BASE_BODY, _CW, aw)
        s3(ws, BASE_BODY, _CV, av)
    # pass 3: accelerations, root to tip (a_0 = −g)
    s3(ws, 0, _CW, _Z3)
    s3(ws, 0, _CV, (-P[H_GRAVITY], -P[H_GRAVITY + 1], -P[H_GRAVITY + 2]))
    total = z
    # q̈ of the floating base (its body's acceleration: above)
    if extended is not None and first > 1:
        xu = g3(ws, BASE_BODY, _XN)
        xw = g3(ws, BASE_BODY, _XN + 3)
        total = put_base_rates(P, qdd, xu, xw, total)
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
