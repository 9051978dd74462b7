"""Mass matrix H(q) by Walker & Orin (1982) methods 3 and 1: Práctica 3 §3.3, eqs 3.37–3.40.

Method 3 (composite rigid body; seed 001 §3.3, eqs 3.37–3.40, whose printed text is garbled:
read with the seed's listings ``h4``/``h6``, which compute them):
for each joint j, bodies j..tip move as one rigid body with q̈_j = 1, q̇ = 0, g = 0; the
reaction of that composite, projected on the axis of j and of every ancestor k, is H_kj.
The seed carries the reaction (f, n) frame by frame toward the root (3.39); here every
quantity is expressed once in world coordinates about the world origin, so no carrying
is needed. With S_j = [s; p × s] (revolute) or [0; s] (prismatic) the joint's spatial
axis and the composite of body j and its descendants kept as (mass m, first moment
h = m c, inertia J about the world origin),

    composite:   m_p += m,   h_p += h,   J_p += J          (a plain sum: one frame)
    (3.37)-(3.38): the reaction to q̈_j = 1 is F_j = Yc_j S_j = [J s_n + h × s_f; m s_f − h × s_n]
    (3.40):      H_kj = S_kᵀ F_j for k = j and every ancestor k of j,

with J of a body = R Ī Rᵀ + m(|c|²1 − c cᵀ) at its world COM c (kept as its six distinct
entries). Armature adds to the
diagonal.

Method 1: column j of H is the Newton–Euler torque at q̇ = 0, q̈ = e_j, g = 0 (minus
nothing: friction vanishes at q̇ = 0).
"""

from __future__ import annotations

import math

from numba import njit

from .._engine.floating_base import BASE_BODY, base_block, base_column, first_loop_row
from .._engine.joints import (
    by_quaternion,
    joint,
    placement,
    quaternion_row_placement,
    world_axis,
)
from .._engine.lanes import all_finite, at, g1, like, s1, zero_of
from .._engine.layout import (
    ARMATURE,
    FORK,
    H_NB,
    H_NV,
    INERTIA,
    MASS,
)
from .._engine.outward_pass import body_com, near_angles
from .._engine.record import coordinate_index, parent, rate_index, row_offset
from .._engine.status import NON_FINITE, OK
from .._engine.tuples import (
    add,
    cross,
    dot,
    g3,
    g6,
    g9,
    inertia_about,
    m9,
    mm,
    mv,
    rotate_sym,
    s3,
    s6,
    s9,
    sadd,
    scale,
    smv,
    sub,
    sym6,
)
from .rnea import rnea_into

# composite workspace columns (world coordinates); J is kept as its 6 distinct entries
# (xx, xy, xz, yy, yz, zz), the layout of `_engine.tuples.sym6`: it is symmetric
_RW, _PW, _SN, _SF, _M, _H, _J = 0, 9, 12, 15, 18, 19, 22
COLS = 28
_I9 = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)
_Z3, _Z6 = (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)


@njit(inline="always")
def _composite_body(P, o, i, k, j, cw, E, r, Rp, pp, qi, z, extended):
    """Pass 1's step for body ``i`` placed at (E, r) in its parent, whose world pose is
    (Rp, pp): its world pose, its joint's world axis (rate index ``k`` ≥ 0), and its
    mass, first moment and inertia about the world origin, into ``cw``. Returns (R, pw,
    whether the body is a fork)."""
    # world pose of body i (the parent's is still in registers along a chain)
    pw = add(pp, mv(Rp, r))
    R = mm(Rp, E)
    if k >= 0:
        # the joint's spatial axis S in world coordinates (joints.world_axis)
        sn, sf = world_axis(j, R, pw, extended)
        s3(cw, i, _SN, sn)
        s3(cw, i, _SF, sf)
    m = P[o + MASS]
    c = add(pw, mv(R, body_com(P, o, qi)))
    # J = R Ī Rᵀ + m(|c|²1 − c cᵀ): the body's inertia about the world origin
    J = sym6(inertia_about(rotate_sym(R, m9(P, o + INERTIA)), m, c))
    fork = P[o + FORK] != 0.0
    if fork:  # (only a fork's pose is read again: stores cost time)
        s9(cw, i, _RW, R)
        s3(cw, i, _PW, pw)
    s1(cw, i, _M, m + z)
    s3(cw, i, _H, scale(m, c))
    s6(cw, i, _J, J)
    return R, pw, fork


@njit(cache=True, fastmath={"contract"})
def crba_into(P, q, cw, H, extended):
    """Walker–Orin method 3 for one state; ``cw`` is an (nb+1, COLS) workspace;
    ``extended`` the joint set (:mod:`eslabon._engine.joints`).

    Compiled with products and sums fused (``fastmath={"contract"}``: a · b + c rounded
    once, no reordering): 9–11 % less time on every robot measured, the entries within
    round-off of the unfused ones (docs/performance.md, "The mass matrix per call").
    Every numba function it calls states ``fastmath=False``, or it is inlined: numba
    would compile one that leaves it unset with these flags, for every later caller
    (:mod:`eslabon._engine.outward_pass`, ``body_com``)."""
    nb = int(P[H_NB])
    z = zero_of(q)
    Rp = like(_I9, z)
    pp = like(_Z3, z)
    s9(cw, 0, _RW, Rp)
    s3(cw, 0, _PW, pp)
    q_given = q  # (a helical joint advances with its whole angle: joints.placement)
    q = near_angles(P, q, extended)
    first = 1  # 7 after a floating base, taken apart
    if extended is not None:
        first = first_loop_row(P, extended)
    fork = P[row_offset(0) + FORK] != 0.0  # a branch: some entries of H are no pair's (below)
    if extended is not None and first > 1:
        # M does not depend on the floating base's pose (its rates are in its own frame):
        # work in the base's frame, its body at the identity
        o = row_offset(BASE_BODY)
        E, r = like(_I9, z), like(_Z3, z)
        Rp, pp, f = _composite_body(
            P, o, BASE_BODY, -1, joint(P, o), cw, E, r, Rp, pp, z, z, extended
        )
        fork = fork or f
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
            if by_quaternion(jnt):  # out of line (joints.quaternion_row_placement)
                E, r = quaternion_row_placement(P, o, q, cq)
        p = parent(P, o)
        if p != i - 1:  # a branch: the parent's pose from the workspace
            Rp = g9(cw, p, _RW)
            pp = g3(cw, p, _PW)
        # as _composite_body, written out (an inlined helper given the arrays costs a
        # reference-count round trip per row: docs/performance.md)
        pw = add(pp, mv(Rp, r))
        R = mm(Rp, E)
        if k >= 0:
            sn, sf = world_axis(jnt, R, pw, extended)
            s3(cw, i, _SN, sn)
            s3(cw, i, _SF, sf)
        m = P[o + MASS]
        c = add(pw, mv(R, body_com(P, o, qi)))
        J = sym6(inertia_about(rotate_sym(R, m9(P, o + INERTIA)), m, c))
        if P[o + FORK] != 0.0:
            s9(cw, i, _RW, R)
            s3(cw, i, _PW, pw)
            fork = True
        s1(cw, i, _M, m + z)
        s3(cw, i, _H, scale(m, c))
        s6(cw, i, _J, J)
        Rp = R
        pp = pw
    if fork:
        # entries of two rates on different branches stay 0; without a fork every pair of
        # rates is one joint and an ancestor, each written below
        H[:] = 0.0  # (faster than a loop over the n² entries: no index wrap-around)
    # tip to root: body i's composite is complete once its children have been added (a
    # plain sum in world coordinates; along a chain the child's composite stays in
    # registers), then its column of H
    total = z
    Z3, Z6 = like(_Z3, z), like(_Z6, z)
    mc, hc, Jc = z, Z3, Z6
    for i in range(nb, first - 1, -1):
        o = row_offset(i)
        m = g1(cw, i, _M) + mc
        h = add(g3(cw, i, _H), hc)
        J = sadd(g6(cw, i, _J), Jc)
        j = rate_index(P, o)
        if j >= 0:
            # (3.37)-(3.38): F_j = Yc_j S_j, the composite's reaction to q̈_j = 1
            sn = g3(cw, i, _SN)
            sf = g3(cw, i, _SF)
            fn = add(smv(J, sn), cross(h, sf))
            ff = sub(scale(m, sf), cross(h, sn))
            # (3.40): project on joint j and every ancestor joint
            b = i
            while b >= first:
                ob = row_offset(b)
                kb = rate_index(P, ob)
                if kb >= 0:
                    val = dot(g3(cw, b, _SN), fn) + dot(g3(cw, b, _SF), ff)
                    s1(H, kb, j, val)
                    s1(H, j, kb, val)
                    total += val
                b = parent(P, ob)
            if extended is not None and b > 0:  # the floating base's six entries at once
                total += base_column(H, j, fn, ff)
            s1(H, j, j, g1(H, j, j) + P[o + ARMATURE])
        p = parent(P, o)
        if p == i - 1:
            mc, hc, Jc = m, h, J
        else:
            if p > 0:  # a branch: add to the parent's row
                s1(cw, p, _M, g1(cw, p, _M) + m)
                s3(cw, p, _H, add(g3(cw, p, _H), h))
                s6(cw, p, _J, sadd(g6(cw, p, _J), J))
            mc, hc, Jc = z, Z3, Z6
    # the floating base's block, from the composite of the whole tree
    if extended is not None and first > 1:
        m = g1(cw, BASE_BODY, _M) + mc
        h = add(g3(cw, BASE_BODY, _H), hc)
        J = sadd(g6(cw, BASE_BODY, _J), Jc)
        total += base_block(P, H, m, h, J)
    return OK if all_finite(total) else NON_FINITE


@njit(cache=True)
def _finite(H, nq):
    s = 0.0
    for a in range(nq):
        for b in range(nq):
            s += H[a, b]
    return math.isfinite(s)


@njit(cache=True)
def ne_columns_into(P, q, ws, zero, unit, col, H, extended):
    """Walker–Orin method 1: H[:, j] = NE(q, q̇ = 0, q̈ = e_j) with gravity off."""
    nq = int(P[H_NV])
    for j in range(nq):
        for a in range(nq):
            unit[a] = 0.0
        unit[j] = 1.0
        rnea_into(P, q, zero, unit, 0.0, None, ws, col, extended)
        for a in range(nq):
            H[a, j] = col[a]
    return OK if _finite(H, nq) else NON_FINITE
