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

Spatial inertias are kept as three 3×3 blocks [[A, B], [Bᵀ, C]]; a rigid body about its
origin has A = Ī + m(|c|²1 − c cᵀ), B = m[c]×, C = m 1. Moving a block inertia from a
child (rotation E, origin r in the parent) to the parent: A' = E A Eᵀ etc., then

    A_p = A' + [r]× B'ᵀ − B' [r]× − [r]× C' [r]×,   B_p = B' + [r]× C',   C_p = C'.
"""
from __future__ import annotations

import math

import numpy as np
from numba import carray, cfunc, njit, prange

from ..conventions import PRISMATIC, REVOLUTE
from ..kinematics.recursion import body_com, placement
from ..model.layout import (ARMATURE, AXIS, COULOMB, H_GRAVITY, H_NB, H_NQ, HEADER,
                            INERTIA, JTYPE, MASS, QIDX, STRIDE, VISCOUS)
from ..spatial._nb import (add, cross, dot, g3, g9, inertia_about, m9, madd, mm, msub, mt, mtv,
                           mv, outer, rotate_sym, s3, s9, scale, skew, sub, v3)
from .fastcall import SIGNATURE, entry_status, packed_model

# workspace columns, one row per body
_E, _R, _W, _V, _CW, _CV, _A, _B, _C, _PN, _PF, _UN, _UF = (
    0, 9, 12, 15, 18, 21, 24, 33, 42, 51, 54, 57, 60)
_D, _U = 63, 64
COLS = 65


@njit(cache=True)
def aba_into(P, q, qd, tau, ws, qdd):
    """q̈ into ``qdd`` for one state. Returns 0 ok, 1 non-finite, 2 a joint moves no mass."""
    nb = int(P[H_NB])
    # pass 1: velocities, velocity-product accelerations, rigid inertias, bias forces
    for c in range(COLS):
        ws[0, c] = 0.0
    for i in range(1, nb + 1):
        o = HEADER + i * STRIDE
        jt = int(P[o + JTYPE])
        k = int(P[o + QIDX])
        qi = q[k] if k >= 0 else 0.0
        E, r = placement(P, o, qi)
        p = int(P[o])
        wp = g3(ws, p, _W)
        w = mtv(E, wp)
        v = mtv(E, add(g3(ws, p, _V), cross(wp, r)))
        cw = (0.0, 0.0, 0.0)
        cv = (0.0, 0.0, 0.0)
        ax = v3(P, o + AXIS)
        if jt == REVOLUTE:
            sj = scale(qd[k], ax)
            w = add(w, sj)
            cw = cross(w, sj)              # c = v × S q̇ for S = [s; 0]
            cv = cross(v, sj)
        elif jt == PRISMATIC:
            sj = scale(qd[k], ax)
            v = add(v, sj)
            cv = cross(w, sj)              # c = v × S q̇ for S = [0; s]
        m = P[o + MASS]
        com = body_com(P, o, qi)
        A = inertia_about(m9(P, o + INERTIA), m, com)
        h = scale(m, com)
        # p^A = v ×* (I v): momentum (A ω + h × v; m v − h × ω)
        ln = add(mv(A, w), cross(h, v))
        lf = sub(scale(m, v), cross(h, w))
        s9(ws, i, _E, E)
        s3(ws, i, _R, r)
        s3(ws, i, _W, w)
        s3(ws, i, _V, v)
        s3(ws, i, _CW, cw)
        s3(ws, i, _CV, cv)
        s9(ws, i, _A, A)
        s9(ws, i, _B, skew(h))
        s9(ws, i, _C, (m, 0.0, 0.0, 0.0, m, 0.0, 0.0, 0.0, m))
        s3(ws, i, _PN, add(cross(w, ln), cross(v, lf)))
        s3(ws, i, _PF, cross(w, lf))
    # pass 2: articulated inertias and bias forces, tip to root
    for i in range(nb, 0, -1):
        o = HEADER + i * STRIDE
        jt = int(P[o + JTYPE])
        k = int(P[o + QIDX])
        A = g9(ws, i, _A)
        B = g9(ws, i, _B)
        C = g9(ws, i, _C)
        pn = g3(ws, i, _PN)
        pf = g3(ws, i, _PF)
        if k >= 0:
            ax = v3(P, o + AXIS)
            if jt == REVOLUTE:               # S = [s; 0]
                un = mv(A, ax)
                uf = mtv(B, ax)
                D = dot(ax, un)
                u = tau[k] - dot(ax, pn)
            else:                            # S = [0; s]
                un = mv(B, ax)
                uf = mv(C, ax)
                D = dot(ax, uf)
                u = tau[k] - dot(ax, pf)
            v = qd[k]
            u -= P[o + VISCOUS] * v
            if v > 0.0:
                u -= P[o + COULOMB]
            elif v < 0.0:
                u += P[o + COULOMB]
            D += P[o + ARMATURE]
            if not D > 0.0:
                return 2 if math.isfinite(D) else 1
            s3(ws, i, _UN, un)
            s3(ws, i, _UF, uf)
            ws[i, _D] = D
            ws[i, _U] = u
            # I^a = I^A − U Uᵀ / D
            inv = 1.0 / D
            A = msub(A, outer(un, un, inv))
            B = msub(B, outer(un, uf, inv))
            C = msub(C, outer(uf, uf, inv))
            # p^a = p^A + I^a c + U u / D
            cw = g3(ws, i, _CW)
            cv = g3(ws, i, _CV)
            pn = add(pn, add(add(mv(A, cw), mv(B, cv)), scale(u * inv, un)))
            pf = add(pf, add(add(mtv(B, cw), mv(C, cv)), scale(u * inv, uf)))
        p = int(P[o])
        if p > 0:
            E = g9(ws, i, _E)
            r = g3(ws, i, _R)
            Rx = skew(r)
            A1 = rotate_sym(E, A)
            B1 = rotate_sym(E, B)
            C1 = rotate_sym(E, C)
            RC = mm(Rx, C1)
            Ap = msub(madd(A1, mm(Rx, mt(B1))), madd(mm(B1, Rx), mm(RC, Rx)))
            s9(ws, p, _A, madd(g9(ws, p, _A), Ap))
            s9(ws, p, _B, madd(g9(ws, p, _B), madd(B1, RC)))
            s9(ws, p, _C, madd(g9(ws, p, _C), C1))
            fp = mv(E, pf)
            s3(ws, p, _PN, add(g3(ws, p, _PN), add(mv(E, pn), cross(r, fp))))
            s3(ws, p, _PF, add(g3(ws, p, _PF), fp))
    # pass 3: accelerations, root to tip (a_0 = −g)
    ws[0, _CW] = 0.0
    ws[0, _CW + 1] = 0.0
    ws[0, _CW + 2] = 0.0
    s3(ws, 0, _CV, (-P[H_GRAVITY], -P[H_GRAVITY + 1], -P[H_GRAVITY + 2]))
    total = 0.0
    for i in range(1, nb + 1):
        o = HEADER + i * STRIDE
        p = int(P[o])
        E = g9(ws, i, _E)
        r = g3(ws, i, _R)
        awp = g3(ws, p, _CW)
        aw = add(mtv(E, awp), g3(ws, i, _CW))
        av = add(mtv(E, add(g3(ws, p, _CV), cross(awp, r))), g3(ws, i, _CV))
        k = int(P[o + QIDX])
        if k >= 0:
            ax = v3(P, o + AXIS)
            x = (ws[i, _U] - dot(g3(ws, i, _UN), aw) - dot(g3(ws, i, _UF), av)) / ws[i, _D]
            qdd[k] = x
            total += x
            if int(P[o + JTYPE]) == REVOLUTE:
                aw = add(aw, scale(x, ax))
            else:
                av = add(av, scale(x, ax))
        # pass 3 reuses the c columns of body i for its acceleration
        s3(ws, i, _CW, aw)
        s3(ws, i, _CV, av)
    return 0 if math.isfinite(total) else 1


@njit(cache=True)
def aba_call(P, q, qd, tau, qdd):
    """One state from the public API. Status: 0 ok, 1 non-finite, 2 no mass, 3 wrong length."""
    nq = int(P[H_NQ])
    if q.shape[0] != nq or qd.shape[0] != nq or tau.shape[0] != nq or qdd.shape[0] != nq:
        return 3
    return aba_into(P, q, qd, tau, np.empty((int(P[H_NB]) + 1, COLS)), qdd)


@cfunc(SIGNATURE, cache=True)
def forward_dynamics_entry(p, a, b, c, o0, o1, o2):
    """C entry point (:mod:`.fastcall`): (q, q̇, τ) -> q̈."""
    n = int(p[H_NQ])
    status = aba_call(packed_model(p), carray(a, n), carray(b, n), carray(c, n), carray(o0, n))
    return entry_status(status)


@njit(cache=True, parallel=True)
def aba_many(P, Q, QD, TAU, QDD, nchunks):
    """ABA over a batch (N, n), parallel over chunks of states; the worst status."""
    N = Q.shape[0]
    nb = int(P[H_NB])
    status = np.zeros(nchunks, dtype=np.int64)
    for c in prange(nchunks):
        ws = np.empty((nb + 1, COLS))
        for s in range(c * N // nchunks, (c + 1) * N // nchunks):
            st = aba_into(P, Q[s], QD[s], TAU[s], ws, QDD[s])
            if st > status[c]:
                status[c] = st
    return status.max()
