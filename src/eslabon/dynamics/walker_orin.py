"""Joint-space mass matrix by Walker & Orin (1982), methods 3 and 1.

Method 3 (composite rigid body; seed 001 eqs 3.37–3.40, corrected as in the digest §2.6):
for each joint j, bodies j..tip move as one rigid body with q̈_j = 1, q̇ = 0, g = 0. The
composite of body i and its descendants is kept as (mass m, first moment h = m c, inertia
I_O about the body origin), added into the parent with the parallel-axis transfer

    m_p += m,   h_p += E h + m r,
    I_p += E I Eᵀ + m(|r|²1 − r rᵀ) + 2(rᵀh')1 − r h'ᵀ − h' rᵀ,     h' = E h.

The composite's reaction to the unit motion of its own joint is (3.37)–(3.38)

    revolute:  n = I_O s,  f = s × h;        prismatic:  n = h × s,  f = m s,

carried toward the root as f ← E f, n ← E n + r × E f (3.39), and projected on each
ancestor axis: H_kj = s_kᵀ n (R) | s_kᵀ f (P) (3.40). Armature adds to the diagonal.

Method 1: column j of H is the Newton–Euler torque at q̇ = 0, q̈ = e_j, g = 0 (minus
nothing: friction vanishes at q̇ = 0).
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from ..conventions import PRISMATIC, REVOLUTE
from ..kinematics.recursion import WS_COLS, placement
from ..model.layout import (ARMATURE, AXIS, COM, COM_SLIDE, H_NB, H_NQ, HEADER, INERTIA,
                            JTYPE, MASS, QIDX, STRIDE)
from .._types import F2, I64, RO1
from ..spatial._nb import (add, cross, dot, g3, g9, m9, madd, mm, msub, mv, outer, s3, s9,
                           scale, v3)
from .rnea import rnea_into

# composite workspace columns
_E, _R, _M, _H, _I = 0, 9, 12, 13, 16
_COLS = 25


@njit(cache=True)
def _transfer_inertia(E, r, m, h, I):
    """Inertia about the parent origin of a composite given about its own origin."""
    hp = mv(E, h)
    J = mm(E, mm(I, (E[0], E[3], E[6], E[1], E[4], E[7], E[2], E[5], E[8])))
    rr = dot(r, r)
    rh = dot(r, hp)
    out = [0.0] * 9
    for a in range(3):
        for b in range(3):
            delta = 1.0 if a == b else 0.0
            out[3 * a + b] = (J[3 * a + b] + m * (rr * delta - r[a] * r[b])
                              + 2.0 * rh * delta - r[a] * hp[b] - hp[a] * r[b])
    return (out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7], out[8]), hp


@njit(cache=True)
def crba_into(P, q, cw, H):
    """Walker–Orin method 3 for one state; ``cw`` is an (nb+1, 25) workspace."""
    nb = int(P[H_NB])
    for i in range(1, nb + 1):
        o = HEADER + i * STRIDE
        k = int(P[o + QIDX])
        qi = q[k] if k >= 0 else 0.0
        E, r = placement(P, o, qi)
        m = P[o + MASS]
        c = v3(P, o + COM)
        slide = P[o + COM_SLIDE]
        if slide != 0.0:
            c = add(c, scale(slide * qi, v3(P, o + AXIS)))
        Ic = m9(P, o + INERTIA)
        cc = dot(c, c)
        s9(cw, i, _E, E)
        s3(cw, i, _R, r)
        cw[i, _M] = m
        s3(cw, i, _H, scale(m, c))
        # inertia of body i about its origin: I_c + m(|c|²1 − c cᵀ)
        s9(cw, i, _I, msub(madd(Ic, (m * cc, 0.0, 0.0, 0.0, m * cc, 0.0, 0.0, 0.0, m * cc)),
                           outer(c, c, m)))
    nq = int(P[H_NQ])
    for a in range(nq):
        for b in range(nq):
            H[a, b] = 0.0
    for i in range(nb, 0, -1):
        o = HEADER + i * STRIDE
        m = cw[i, _M]
        h = g3(cw, i, _H)
        I = g9(cw, i, _I)
        j = int(P[o + QIDX])
        if j >= 0:
            ax = v3(P, o + AXIS)
            # (3.37)/(3.38): the composite's reaction to q̈_j = 1
            if int(P[o + JTYPE]) == REVOLUTE:
                n = mv(I, ax)
                f = cross(ax, h)
                H[j, j] = dot(ax, n)
            else:
                n = cross(h, ax)
                f = scale(m, ax)
                H[j, j] = dot(ax, f)
            H[j, j] += P[o + ARMATURE]
            # (3.39)-(3.40): carry it to every ancestor joint
            b = i
            while int(P[HEADER + b * STRIDE]) > 0:
                E = g9(cw, b, _E)
                f = mv(E, f)
                n = add(mv(E, n), cross(g3(cw, b, _R), f))
                b = int(P[HEADER + b * STRIDE])
                ob = HEADER + b * STRIDE
                k = int(P[ob + QIDX])
                if k >= 0:
                    axb = v3(P, ob + AXIS)
                    val = dot(axb, f) if int(P[ob + JTYPE]) == PRISMATIC else dot(axb, n)
                    H[k, j] = val
                    H[j, k] = val
        p = int(P[o])
        if p > 0:
            E = g9(cw, i, _E)
            r = g3(cw, i, _R)
            Ip, hp = _transfer_inertia(E, r, m, h, I)
            cw[p, _M] += m
            s3(cw, p, _H, add(g3(cw, p, _H), add(hp, scale(m, r))))
            s9(cw, p, _I, madd(g9(cw, p, _I), Ip))
    return _finite(H, nq)


@njit(cache=True)
def _finite(H, nq):
    s = 0.0
    for a in range(nq):
        for b in range(nq):
            s += H[a, b]
    return math.isfinite(s)


@njit(I64(RO1, RO1, F2), cache=True)
def crba_call(P, q, H):
    """One state from the public API. Status: 0 ok, 1 non-finite, 3 wrong shape."""
    nq = int(P[H_NQ])
    if q.shape[0] != nq or H.shape[0] != nq or H.shape[1] != nq:
        return 3
    s = 0.0
    for a in range(nq):
        s += q[a]
    if not math.isfinite(s):          # M does not depend on every q (e.g. the first joint's)
        return 1
    cw = np.empty((int(P[H_NB]) + 1, _COLS))
    return 0 if crba_into(P, q, cw, H) else 1


@njit(cache=True)
def crba_one(P, q, H):
    cw = np.empty((int(P[H_NB]) + 1, _COLS))
    return crba_into(P, q, cw, H)


@njit(cache=True, parallel=True)
def crba_many(P, Q, H, nchunks):
    N = Q.shape[0]
    nb = int(P[H_NB])
    for c in prange(nchunks):
        cw = np.empty((nb + 1, _COLS))
        for s in range(c * N // nchunks, (c + 1) * N // nchunks):
            crba_into(P, Q[s], cw, H[s])


@njit(cache=True)
def ne_columns_into(P, q, ws, zero, unit, col, H):
    """Walker–Orin method 1: H[:, j] = NE(q, q̇ = 0, q̈ = e_j) with gravity off."""
    nq = int(P[H_NQ])
    for j in range(nq):
        for a in range(nq):
            unit[a] = 0.0
        unit[j] = 1.0
        rnea_into(P, q, zero, unit, 0.0, None, ws, col)
        for a in range(nq):
            H[a, j] = col[a]
    return _finite(H, nq)


@njit(cache=True)
def ne_columns_one(P, q, H):
    nq = int(P[H_NQ])
    ws = np.empty((int(P[H_NB]) + 1, WS_COLS))
    return ne_columns_into(P, q, ws, np.zeros(nq), np.zeros(nq), np.empty(nq), H)


@njit(cache=True, parallel=True)
def ne_columns_many(P, Q, H, nchunks):
    N = Q.shape[0]
    nb = int(P[H_NB])
    nq = int(P[H_NQ])
    for c in prange(nchunks):
        ws = np.empty((nb + 1, WS_COLS))
        zero = np.zeros(nq)
        unit = np.zeros(nq)
        col = np.empty(nq)
        for s in range(c * N // nchunks, (c + 1) * N // nchunks):
            ne_columns_into(P, Q[s], ws, zero, unit, col, H[s])
