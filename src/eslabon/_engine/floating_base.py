"""The floating base, taken before and after the body loop.

A model whose first joint is a free flyer on the world, its rates the first six of v, has
a floating base: packed row 1 is placed by the joint's pose and carries its first rate,
rows 2 … 5 its next four rates at the identity placement, row 6 its sixth rate and its
body (:func:`.layout.joint_rows`). The recursive kernels do not walk those six
rows one rate at a time. As Featherstone's floating-base algorithms do (*Rigid Body
Dynamics Algorithms*, 2008, ch. 9, and spatial_v2's ``FDfb``), they take the base before
their body loop (its body's motion from the joint's six rates at once) and after it
(its six forces, or its six accelerations from its 6 × 6 articulated inertia), and start
the loop at :func:`first_loop_row`. The functions here read no kernel's workspace: they
return values, which each kernel writes into its own, or write the kernel's outputs at
the base's rates (τ, q̈, the base's rows and columns of M).

The base's rates are (u, ω): the linear and angular velocity of its body's origin in
body axes, S = [0 1; 1 0] ([angular; linear] rows). Kernels that need no such step (the
derivatives, the trace of Newton–Euler) walk the six rows as rows of the joint
dispatcher (:mod:`.joints`).
"""

from __future__ import annotations

from numba import njit

from .joints import joint, quaternion_row_placement, rates
from .lanes import all_finite, all_positive, at, g1, like, put, s1
from .layout import (
    ARMATURE,
    BY_POSE,
    COULOMB,
    H_GRAVITY,
    H_NB,
    PARENT,
    PLACE,
    VIDX,
    VISCOUS,
)
from .record import coordinate_index, next_row, rate_index, row_offset
from .status import NON_FINITE, NOT_POSITIVE_DEFINITE, OK
from .tuples import (
    add,
    cross,
    mm,
    mtv,
    mv,
    scale,
    sign,
    smv,
    sscale,
    ssub,
    sub,
    sym_cofactors,
    sym_full,
    sym_product,
)

BASE_BODY = 6  # the packed row of the floating base's body (its sixth rate)


@njit(inline="always")
def floating_base(P, extended):
    """True when the model's first joint is a free flyer on the world whose rates are the
    first six of v (packed rows 1 … 6, its body on row 6): a floating base."""
    if extended is None or P[H_NB] < 6.0:
        return False
    o = row_offset(1)
    return P[o + PLACE] == BY_POSE and P[o + PARENT] == 0.0 and P[o + VIDX] == 0.0


@njit(inline="always")
def first_loop_row(P, extended):
    """The first packed row a kernel's body loop walks: 7 after a floating base (taken
    before and after the loop by the functions below), else 1."""
    if floating_base(P, extended):
        return BASE_BODY + 1
    return 1


@njit(inline="always")
def base_motion(P, q, qd, qdd, w, wd, a):
    """Newton–Euler's outward step over the whole free-flyer joint: (E, r, ω, ω̇, v̇) of
    the base's body from the world's motion (ω, ω̇, v̇ of its origin, gravity included)
    and the joint's rates (u, ω_J) and their derivatives (u̇, ω̇_J) in body axes:

        ω = Eᵀω_p + ω_J,   ω̇ = Eᵀω̇_p + ω̇_J + (Eᵀω_p) × ω_J,
        v̇ = Eᵀ(v̇_p + ω̇_p × r + ω_p × (ω_p × r)) + u̇ + ω_J × u + 2 (Eᵀω_p) × u,

    what the joint's six rows give one after another with
    :func:`.joints.group_correction`."""
    o = row_offset(1)
    j = joint(P, o)
    k = rate_index(P, o)
    E, r = quaternion_row_placement(P, o, q, coordinate_index(P, o))
    u, wj = rates(qd, k, j)
    ud, wdj = rates(qdd, k, j)
    a = mtv(E, add(a, add(cross(wd, r), cross(w, cross(w, r)))))
    w = mtv(E, w)
    wd = add(add(mtv(E, wd), wdj), cross(w, wj))
    a = add(add(a, ud), add(cross(wj, u), scale(2.0, cross(w, u))))
    return E, r, add(w, wj), wd, a


@njit(inline="always")
def _rate_torque(P, o, qd, qdd, tau, t):
    """Put τ = t plus friction and rotor inertia for the one-rate row at offset ``o``;
    returns it."""
    k = rate_index(P, o)
    v = at(qd, k)
    t = t + P[o + VISCOUS] * v + P[o + ARMATURE] * at(qdd, k) + P[o + COULOMB] * sign(v)
    put(tau, k, t)
    return t


@njit(inline="always")
def base_torques(P, f, n, qd, qdd, tau, total):
    """Newton–Euler's inward step over the base: its six rates (linear, then angular, in
    body axes) project the wrench (f, n) its body transmits (moment about its origin),
    plus friction and rotor inertia, into ``tau``. Returns ``total`` plus the six."""
    total += _rate_torque(P, row_offset(1), qd, qdd, tau, f[0])
    total += _rate_torque(P, row_offset(2), qd, qdd, tau, f[1])
    total += _rate_torque(P, row_offset(3), qd, qdd, tau, f[2])
    total += _rate_torque(P, row_offset(4), qd, qdd, tau, n[0])
    total += _rate_torque(P, row_offset(5), qd, qdd, tau, n[1])
    total += _rate_torque(P, row_offset(6), qd, qdd, tau, n[2])
    return total


@njit(inline="always")
def base_velocity(P, q, qd):
    """The articulated-body algorithm's pass 1 over the base: (E, r, ω, v) of its body,
    v = S q̇ = (ω_J; u) on the world (its velocity-product acceleration is 0)."""
    o = row_offset(1)
    E, r = quaternion_row_placement(P, o, q, coordinate_index(P, o))
    v, w = rates(qd, rate_index(P, o), joint(P, o))
    return E, r, w, v


@njit(inline="always")
def _rate_force(P, o, qd, tau):
    """τ less the friction of the one-rate row at offset ``o``."""
    k = rate_index(P, o)
    v = at(qd, k)
    return at(tau, k) - (P[o + VISCOUS] * v + P[o + COULOMB] * sign(v))


@njit(inline="always")
def base_accelerations(P, qd, tau, E, A, B, C, pn, pf, zero3):
    """The articulated-body algorithm's pass 2 and the solve of pass 3 over the base,
    from its body's articulated inertia [[A, B], [Bᵀ, C]] (A, C symmetric 6-tuples, B a
    9-tuple), bias force (pn, pf) and rotation E (world ← body). Returns (status, x_u,
    x_ω, a_ω, a_v): the six accelerations and the body's spatial acceleration.

    D = Sᵀ I^A S + J_a = [[C, Bᵀ], [B, A]] + J_a and Uᵀ a' = (C a'_v, B a'_v) for
    a' = (0, a'_v), the world's −g in body axes. D [x_u; x_ω] = [r_u; r_ω] is solved by
    the Schur complement: x_ω = (A − G Bᵀ)⁻¹ (r_ω − G r_u), x_u = C⁻¹ (r_u − Bᵀ x_ω),
    G = B C⁻¹, each 3×3 inverse by cofactors; the body's acceleration is
    (x_ω, a'_v + x_u). Status NOT_POSITIVE_DEFINITE (or NON_FINITE) when a leading minor
    of either block is not positive; ``zero3`` fills the values then."""
    o1 = row_offset(1)  # the six rows: linear rates o1..o3, angular rates o4..o6
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
    av = mtv(E, (-P[H_GRAVITY], -P[H_GRAVITY + 1], -P[H_GRAVITY + 2]))
    ru = sub(sub(ul, pf), smv(C, av))
    rw = sub(sub(ua, pn), mv(B, av))
    Cj = (C[0] + al[0], C[1], C[2], C[3] + al[1], C[4], C[5] + al[2])
    Aj = (A[0] + aa[0], A[1], A[2], A[3] + aa[1], A[4], A[5] + aa[2])
    cof, minors = sym_cofactors(Cj)  # each block's leading minors before its inverse
    if not (all_positive(minors[0]) and all_positive(minors[1]) and all_positive(minors[2])):
        status = NOT_POSITIVE_DEFINITE if all_finite(minors[2]) else NON_FINITE
        return status, zero3, zero3, zero3, zero3
    Ci = sscale(1.0 / minors[2], cof)
    G = mm(B, sym_full(Ci))
    cof2, minors2 = sym_cofactors(ssub(Aj, sym_product(G, B)))
    if not (all_positive(minors2[0]) and all_positive(minors2[1]) and all_positive(minors2[2])):
        status = NOT_POSITIVE_DEFINITE if all_finite(minors2[2]) else NON_FINITE
        return status, zero3, zero3, zero3, zero3
    xw = smv(sscale(1.0 / minors2[2], cof2), sub(rw, mv(G, ru)))
    xu = smv(Ci, sub(ru, mtv(B, xw)))
    return OK, xu, xw, xw, add(av, xu)


@njit(inline="always")
def put_base_rates(P, out, xu, xw, total):
    """Put the base's six values (linear x_u, then angular x_ω) at its rates' indices of
    ``out``; returns ``total`` plus each, in that order."""
    for d in range(3):
        put(out, rate_index(P, row_offset(1 + d)), xu[d])
        total += xu[d]
    for d in range(3):
        put(out, rate_index(P, row_offset(4 + d)), xw[d])
        total += xw[d]
    return total


@njit(inline="always")
def base_rate_indices(P):
    """The base's six rates' indices in v: (linear x, y, z, angular x, y, z), the rates of
    rows 1 … 6. Only for a model with a floating base."""
    return (
        rate_index(P, row_offset(1)),
        rate_index(P, row_offset(2)),
        rate_index(P, row_offset(3)),
        rate_index(P, row_offset(4)),
        rate_index(P, row_offset(5)),
        rate_index(P, row_offset(6)),
    )


@njit(inline="always")
def base_column(H, col, fn, ff):
    """The mass matrix's entries H_k,col for the six rates k = 0 … 5 of the base and the
    reaction F = (fn, ff) of column ``col``'s composite, in the base's frame about its
    origin, where the rates' axes are [0; e] (linear) and [e; 0] (angular): the six
    entries are ff and fn (Walker & Orin's method 3 over the base's rates). Returns their
    sum."""
    total = like(0.0, ff[0])
    for d in range(3):
        s1(H, d, col, ff[d])
        s1(H, col, d, ff[d])
        s1(H, 3 + d, col, fn[d])
        s1(H, col, 3 + d, fn[d])
        total += ff[d] + fn[d]
    return total


@njit(inline="always")
def base_block(P, H, m, h, J):
    """The base's 6 × 6 block of H from the composite of the whole tree (mass m, first
    moment h, inertia J about the origin) in the base's frame: column by column, F = Yc S
    for each rate's axis S, then :func:`base_column`; plus the armature on the diagonal.
    Returns the sum of the entries written."""
    total = like(0.0, m)
    for d in range(6):
        e = (1.0 if d % 3 == 0 else 0.0, 1.0 if d % 3 == 1 else 0.0, 1.0 if d % 3 == 2 else 0.0)
        if d < 3:  # S = [0; e]
            fn = cross(h, e)
            ff = scale(m, e)
        else:  # S = [e; 0]
            fn = smv(J, e)
            ff = cross(e, h)
        total += base_column(H, d, fn, ff)
        s1(H, d, d, g1(H, d, d) + P[row_offset(1 + d) + ARMATURE])
    return total
