"""The outward kinematic pass, and what every recursion shares (compiled).

Seed 001 Tabla 3.1, eqs (3.27)–(3.29) (Luh, Walker & Paul 1980), written for a tree in
body coordinates with an arbitrary joint axis ``s``:

    ω_i  = Eᵀ ω_p + s q̇_i                                             (R)
    ω̇_i  = Eᵀ ω̇_p + s q̈_i + (Eᵀ ω_p) × s q̇_i                          (R)
    a_i  = Eᵀ (a_p + ω̇_p × r + ω_p × (ω_p × r)) [+ s q̈_i + 2 ω_i × s q̇_i  (P)]

where (E, r) place body i in its parent p and a_0 = -g·gscale (gravity as a fictitious
base acceleration, seed 001 §2.4), with the world poses and the linear velocity of each
body origin; with ``moving_base`` the base itself moves (ω_0, ω̇_0, a_0 − g·gscale, v_0
given), as the mount of an arm on a mobile platform. That option, like ``extended``
(:mod:`.joints`, "Two joint sets"), is a switch at compile time: None, or not given,
drops its code before it is typed. The kinematics, the energies and the Coriolis matrix
run this pass; Newton–Euler runs its own, with the body forces (3.30)
(:mod:`eslabon.dynamics.rnea`), on the same workspace and with the same helpers:
:func:`near_angles` (the reduction of far angles) and :func:`body_com`.

Workspace ``ws`` has one row per body; its columns are named below.
"""

from __future__ import annotations

import math

from numba import njit
from numba.extending import overload

from .joints import (
    angle_index,
    by_quaternion,
    inside_group,
    joint,
    origin_velocity,
    outward_motion,
    placement,
    quaternion_row,
    quaternion_row_placement,
)
from .lanes import at, clear, like, zero_of
from .layout import (
    AXIS,
    COM,
    COM_SLIDE,
    H_GRAVITY,
    H_NB,
)
from .record import coordinate_index, parent, rate_index, row_offset
from .sincos import in_fast_range
from .tuples import add, cross, g3, g9, mm, mtv, mv, s3, s9, scale, v3

# workspace columns (per body, in that body's coordinates unless noted)
# (E … v̇: both passes; ā … n: Newton–Euler's alone; the COM, world pose and origin
# velocity: the kinematic pass alone)
WS_E = 0  # 9: rotation parent <- body at the current q
WS_R = 9  # 3: body origin in the parent frame
WS_W = 12  # 3: angular velocity ω
WS_WD = 15  # 3: angular acceleration ω̇
WS_A = 18  # 3: linear acceleration of the origin, gravity included (v̇)
WS_AC = 21  # 3: linear acceleration of the COM (ā)
WS_F = 24  # 3: net force at the COM (F = m ā)
WS_N = 27  # 3: net moment about the COM (N)
WS_FJ = 30  # 3: force on the body from its parent (f)
WS_NJ = 33  # 3: moment on the body from its parent, about the body origin (n)
WS_C = 36  # 3: COM position at the current q
WS_RW = 39  # 9: world rotation of the body
WS_PW = 48  # 3: world position of the body origin
WS_V = 51  # 3: linear velocity of the origin
WS_COLS = 54


def near_angles(P, q, extended):
    """``q`` itself when every revolute joint angle is within reach of the inline sine and
    cosine (|q| ≤ 1e5 rad, :func:`~eslabon._engine.sincos.sincos_near`); otherwise a copy
    in which those angles are replaced by atan2(sin q, cos q) ∈ [−π, π], whose sine and
    cosine are libm's to about 2e-16 (absolute; a NaN or infinite angle becomes NaN).
    Every recursion calls it once first, so :func:`placement` needs no call to libm: a
    call inside the recursion would make it spill the motion it keeps in registers.
    ``q`` is one state (n,) or a lanes block (n, WIDTH) (:mod:`eslabon._engine.lanes`)."""
    return _near_angles_one(P, q, extended)


# The numba functions here that the mass matrix calls state `fastmath=False`: numba
# compiles a called function that leaves it unset with the fastmath of the caller being
# compiled (CPUTargetOptions.finalize inherits it) and keeps that machine code, keyed by
# argument types only, for every later caller. Unstated, they took crba_into's
# `fastmath={"contract"}` when the mass matrix was compiled first, and every kernel of
# one scalar type that calls them then rounded differently from the other
# (docs/architecture.md, "Same answer on every machine"). An @overload is compiled once
# per caller's flags: it needs nothing.
@overload(near_angles)
def _near_angles(P, q, extended):
    if q.ndim == 1:
        return lambda P, q, extended: _near_angles_one(P, q, extended)
    return lambda P, q, extended: _near_angles_block(P, q, extended)


@njit(cache=True, fastmath=False)
def _near_angles_one(P, q, extended):
    # When every value of q is in reach (the usual case) the joints are not looked at one
    # by one (the G1 humanoid, 36 coordinates: 0.12 -> 0.07 µs). The far test is written
    # out in both loops, not as a helper (docs/performance.md, "Kernel choices").
    inside = True
    for k in range(q.shape[0]):
        inside &= in_fast_range(q[k])
    if inside:
        return q
    nb = int(P[H_NB])
    far = False
    for i in range(1, nb + 1):
        k = angle_index(P, row_offset(i), extended)
        if k >= 0 and not in_fast_range(q[k]):
            far = True
    if not far:
        return q
    near = q.copy()
    for i in range(1, nb + 1):
        k = angle_index(P, row_offset(i), extended)
        if k >= 0 and not in_fast_range(q[k]):
            near[k] = math.atan2(math.sin(q[k]), math.cos(q[k]))
    return near


@njit(cache=True, fastmath=False)
def _near_angles_block(P, q, extended):
    """:func:`_near_angles_one` of every lane (column) of a block: the block itself, or a
    copy whose far revolute angles are reduced. When every value of the block is in
    reach (the usual case) the joints are not looked at one by one. Element by element,
    without slices of the block (a column slice would compile a second, strided version
    of the one-state function, and a slice assignment numba's error formatting)."""
    inside = True
    for k in range(q.shape[0]):
        for j in range(q.shape[1]):
            inside &= in_fast_range(q[k, j])
    if inside:
        return q
    near = q.copy()
    nb = int(P[H_NB])
    for i in range(1, nb + 1):
        k = angle_index(P, row_offset(i), extended)
        if k >= 0:
            for j in range(q.shape[1]):
                x = q[k, j]
                if not in_fast_range(x):
                    near[k, j] = math.atan2(math.sin(x), math.cos(x))
    return near


@njit(cache=True, fastmath=False)
def body_com(P, o, qi):
    """Centre of mass of the body at offset ``o`` in its own frame at joint value ``qi``
    (it slides with a prismatic joint in seed 001's book mode)."""
    c = like(v3(P, o + COM), qi)
    slide = P[o + COM_SLIDE]
    if slide != 0.0:
        c = add(c, scale(slide * qi, v3(P, o + AXIS)))
    return c


@njit(cache=True)
def forward_pass(
    P, q, qd, qdd, gscale, ws, extended, moving_base=None, poses_only=None, path_to=None
):
    """Fill ``ws`` rows 0..nb with E, r, ω, ω̇, v̇, the COM, the world pose and the origin's
    velocity of every body; with ``moving_base`` (True) the base (row 0) moves: its ω, ω̇,
    v̇ and v are read from ``ws[0]`` (a mobile platform's mount, :mod:`eslabon.mobile`);
    gravity is still added to v̇ as −g·gscale. With ``poses_only`` (True, a switch at
    compile time as ``moving_base``) only E, r and the world pose are written (rows 1..nb;
    row 0 as always): the poses of the full pass, to the bit, at about half its cost (the
    frame functions' C entries, :mod:`eslabon.kinematics.entries`). With ``path_to`` (a
    packed row, one state) only the rows from the root to that row are placed (and
    moved), the others left as they were: what one body's Jacobian or acceleration reads,
    as Pinocchio's ``computeFrameJacobian`` walks only the frame's support (the rows are
    marked in the column ``WS_W``, each read before its row is written).

    The parent's motion is kept in registers when the parent is the previous body (every
    serial chain). One state, or a lanes block with a 3-D ``ws`` (:mod:`.lanes`)."""
    nb = int(P[H_NB])
    z = zero_of(q)
    w = (z, z, z)
    wd = (z, z, z)
    a = like((-gscale * P[H_GRAVITY], -gscale * P[H_GRAVITY + 1], -gscale * P[H_GRAVITY + 2]), z)
    v0 = (z, z, z)
    if moving_base is not None:
        w = g3(ws, 0, WS_W)
        wd = g3(ws, 0, WS_WD)
        a = add(a, g3(ws, 0, WS_A))
        v0 = g3(ws, 0, WS_V)
    clear(ws, 0, 0, WS_COLS)
    dwd = da = (z, z, z)  # a quaternion row's velocity-product correction
    q_given = q  # (a helical joint advances with its whole angle: joints.placement)
    q = near_angles(P, q, extended)
    s9(ws, 0, WS_E, (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0))
    s9(ws, 0, WS_RW, (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0))
    s3(ws, 0, WS_A, a)
    if moving_base is not None:
        s3(ws, 0, WS_W, w)
        s3(ws, 0, WS_WD, wd)
        s3(ws, 0, WS_V, v0)
    if path_to is not None:  # mark the rows from path_to to the root
        for i in range(1, nb + 1):
            ws[i, WS_W] = 0.0
        r = path_to
        while r > 0:
            ws[r, WS_W] = 1.0
            r = parent(P, row_offset(r))
    for i in range(1, nb + 1):
        if path_to is not None:
            if ws[i, WS_W] == 0.0:
                continue
        o = row_offset(i)
        k = rate_index(P, o)
        qi = z
        qdi = z
        qddi = z
        if k >= 0:
            qdi = at(qd, k)
            qddi = at(qdd, k)
        cq = coordinate_index(P, o)
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
                if poses_only is None:
                    E, r, dwd, da = quaternion_row(P, o, q, qd, k, cq)
                else:
                    E, r = quaternion_row_placement(P, o, q, cq)
        p = parent(P, o)
        if poses_only is None:
            if p != i - 1:
                w = g3(ws, p, WS_W)
                wd = g3(ws, p, WS_WD)
                a = g3(ws, p, WS_A)
            wp = w
            # (3.27)-(3.29): rotate the parent's motion into body i and move it along r
            a = mtv(E, add(a, add(cross(wd, r), cross(w, cross(w, r)))))
            w, wd, a = outward_motion(jnt, qdi, qddi, mtv(E, w), mtv(E, wd), a, dwd, da, extended)
        s9(ws, i, WS_E, E)
        s3(ws, i, WS_R, r)
        if poses_only is None:
            s3(ws, i, WS_W, w)
            s3(ws, i, WS_WD, wd)
            s3(ws, i, WS_A, a)
            s3(ws, i, WS_C, body_com(P, o, qi))
        # world pose and origin velocity (a row inside a spherical or free-flyer joint, which
        # only a model with quaternions has, sits at its parent's pose: E = 1, r = 0 by
        # construction, layout.joint_rows)
        Rp = g9(ws, p, WS_RW)
        if extended is not None and inside_group(jnt):
            s9(ws, i, WS_RW, Rp)
            s3(ws, i, WS_PW, g3(ws, p, WS_PW))
        else:
            s9(ws, i, WS_RW, mm(Rp, E))
            s3(ws, i, WS_PW, add(g3(ws, p, WS_PW), mv(Rp, r)))
        if poses_only is None:
            v = mtv(E, add(g3(ws, p, WS_V), cross(wp, r)))
            s3(ws, i, WS_V, origin_velocity(jnt, qdi, v, extended))
