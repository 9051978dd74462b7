"""The joint-torque regressor Y(q, q̇, q̈) compiled: τ = Y π, one state or a batch.

Each body's wrench about its origin, in its own axes, is linear in its ten standard
parameters π_i = (m, h = m c, I about the origin) (Atkeson, An & Hollerbach 1986,
"Estimation of inertial parameters of manipulator loads and links", eq. 5; Featherstone,
*Rigid Body Dynamics Algorithms*, 2008, eq. 2.63 with the classical acceleration a of the
origin, gravity included as a base acceleration, Luh, Walker & Paul 1980):

    f_i = m a + (ω̇̃ + ω̃ ω̃) h,     n_i = I ω̇ + ω × I ω − a × h,

so [n_i; f_i] = A_i π_i with A_i a 6×10 matrix of (ω, ω̇, a). An outward pass (seed 001
Tabla 3.1 (3.27)–(3.29), as :func:`eslabon._engine.outward_pass.forward_pass` without what
the regressor does not read; a floating base in one step, :func:`base_motion`) gives every
row's ω, ω̇, a and pose in one frame. The torque of joint j from body i is S_jᵀ X f_i (RBDA
eq. 5.20, τ_j = S_jᵀ Σ_{i ∈ subtree(j)} X f_i, X the force transform of eq. 2.24): linear
in f_i, so each joint's six coefficients (:func:`eslabon._engine.joints.wrench_coefficients`,
S_jᵀ as two 3-vectors) and each body's ten columns of A_i are taken once to one frame (the
world about its origin, or a floating base's body), and the block of body i in row j of Y
is ten dot products of six (three for the six inertia columns, which carry no force); a
floating base's six rows are the columns' wrench in its axes. A_i is written in closed
form, straight-line, and rotated as blocks (:func:`_body_block`); a block of Y is written
four columns at a time (:mod:`eslabon._engine.quads`). Friction and armature add q̇,
sign q̇ and q̈ columns on their joint's rates.

:func:`regressor_lanes` runs a batch's chunk: the outward pass, the joints' coefficients
and the bodies' blocks (:func:`_blocks`) on lanes (eight or four states per instruction,
:mod:`eslabon._engine.lanes`), each state's row of them to a slab of its own
(:func:`~eslabon._engine.slabs.store_states`), then each state's columns from its slab
into one scratch Y, and the scratch copied out, past the caches when the output is large
(:mod:`eslabon._engine.streaming`). :func:`regressor_state` and it are compiled with
products and sums fused (``fastmath={"contract"}``, a · b + c rounded once, no
reordering, as the mass matrix's :func:`~eslabon.dynamics.composite_rigid_body.crba_into`;
lanes and quads too): the state's cost is these dot products
(docs/performance.md, "The joint-torque regressor"; a batch's, its output's memory
traffic, "The regressor's batch: lanes and streamed stores").

The kernel reads the regressor's packed model (:func:`pack_regressor`): ``model.packed``
(every body, fixed joints included: a body on a fixed joint keeps a block of its own)
with three fields the regressor does not otherwise read put to its use: a row's ``MASS``
holds the first column of the block of its body (-1 for a row that carries no body: a
joint of several rates is several rows, its body on the last), its ``VISCOUS`` the
viscous-friction column of its rate (the Coulomb and armature columns follow it; -1 for
none), and the array's last value (the last row's ``FORK``) p, the number of columns,
which the C entry reads for the shape of Y (``_fastcall.c``, shape code 9). It takes the
engine's rates (mimic joints expanded; the caller applies τ = Gᵀ τ_e).
"""

from __future__ import annotations

import numpy as np
from numba import carray, njit

from .._engine.batch import CHUNK_SIGNATURE, NO_EXTRA, run_chunks
from .._engine.compile import lazy_cfunc, subject
from .._engine.fastcall import SIGNATURE, entry_status, finite, packed_model, units_ok
from .._engine.floating_base import base_motion, base_rate_indices, first_loop_row
from .._engine.joints import (
    by_quaternion,
    extended_set,
    joint,
    outward_motion,
    placement,
    quaternion_row,
    wrench_coefficients,
)
from .._engine.lanes import (
    WIDTH,
    at,
    clear,
    g1,
    g3,
    g9,
    like,
    pack,
    put,
    sign,
    zero_of,
)
from .._engine.layout import (
    COM_SLIDE,
    H_GRAVITY,
    H_NB,
    H_NQ,
    H_NV,
    HEADER,
    MASS,
    STRIDE,
    VIDX,
    VISCOUS,
)
from .._engine.outward_pass import WS_A, WS_COLS, WS_PW, WS_RW, WS_W, WS_WD, near_angles
from .._engine.quads import quad, store_quad
from .._engine.record import coordinate_index, parent, rate_index, row_offset
from .._engine.slabs import store_states
from .._engine.status import NON_FINITE, NOT_UNIT, OK, WRONG_SHAPE
from .._engine.streaming import store_fence, stream_copy
from .._engine.tuples import add, cross, mm, mtv, mv, s3, s9


@njit(inline="always")
def _joint_coefficients(jnt, R, p, extended):
    """(σ_n, σ_f): the row's torque is σ_n · n + σ_f · f for a wrench (n about the
    reference origin, f) in reference axes, (R, p) the row's pose in that frame. The
    row's own wrench is (n_j, f_j) = (Rᵀ (n − p × f), Rᵀ f) and its torque
    s_n · n_j + s_f · f_j (:func:`wrench_coefficients`); rotated to reference axes and
    moved to its origin, σ_n = R s_n and σ_f = R s_f + p × σ_n."""
    s_n, s_f = wrench_coefficients(jnt, extended)
    sn = mv(R, s_n)
    return sn, add(mv(R, s_f), cross(p, sn))


@njit(inline="always")
def _combine6(r0, r1, r2, L0, L1, L2):
    """r0 L0 + r1 L1 + r2 L2 of three 6-tuples: a row of R times a 3 × 6 matrix."""
    return (
        r0 * L0[0] + r1 * L1[0] + r2 * L2[0],
        r0 * L0[1] + r1 * L1[1] + r2 * L2[1],
        r0 * L0[2] + r1 * L1[2] + r2 * L2[2],
        r0 * L0[3] + r1 * L1[3] + r2 * L2[3],
        r0 * L0[4] + r1 * L1[4] + r2 * L2[4],
        r0 * L0[5] + r1 * L1[5] + r2 * L2[5],
    )


@njit(inline="always")
def _body_block(w, wd, a, R, pos):
    """The body's 6 × 10 matrix A_i (module docstring) in reference axes, n about the
    reference origin, in closed form: rows (n_x, n_y, n_z) of ten columns and
    (f_x, f_y, f_z) of four (the inertia's six columns carry no force).

    In body axes (columns m, h, I in the order m, hx, hy, hz, Ixx, Ixy, Ixz, Iyy, Iyz,
    Izz): f = [a, K] with K = ω̇̃ + ω̃ ω̃ = ω ωᵀ − |ω|² 1 + ω̇̃; n = [0, −ã, L(ω̇) + ω̃ L(ω)]
    with I x = L(x) (Ixx, Ixy, Ixz, Iyy, Iyz, Izz). In reference axes (R, pos the body's
    rotation and origin): F = R f, and the moment of column c about the origin is
    R n_c + pos × F_c, with R (e_c × a) = R e_c × R a for the first moments."""
    w00, w11, w22 = w[0] * w[0], w[1] * w[1], w[2] * w[2]
    w01, w02, w12 = w[0] * w[1], w[0] * w[2], w[1] * w[2]
    K = (  # row-major
        -(w11 + w22),
        w01 - wd[2],
        w02 + wd[1],
        w01 + wd[2],
        -(w00 + w22),
        w12 - wd[0],
        w02 - wd[1],
        w12 + wd[0],
        -(w00 + w11),
    )
    # L(ω̇) + ω̃ L(ω): its three rows, columns Ixx, Ixy, Ixz, Iyy, Iyz, Izz
    L0 = (wd[0], wd[1] - w02, wd[2] + w01, -w12, w11 - w22, w12)
    L1 = (w02, wd[0] + w12, w22 - w00, wd[1], wd[2] - w01, -w02)
    L2 = (-w01, w00 - w11, wd[0] - w12, w01, wd[1] + w02, wd[2])
    F0 = mv(R, a)
    RK = mm(R, K)
    F1, F2, F3 = (RK[0], RK[3], RK[6]), (RK[1], RK[4], RK[7]), (RK[2], RK[5], RK[8])
    N0 = cross(pos, F0)
    N1 = add(cross((R[0], R[3], R[6]), F0), cross(pos, F1))
    N2 = add(cross((R[1], R[4], R[7]), F0), cross(pos, F2))
    N3 = add(cross((R[2], R[5], R[8]), F0), cross(pos, F3))
    G0 = _combine6(R[0], R[1], R[2], L0, L1, L2)
    G1 = _combine6(R[3], R[4], R[5], L0, L1, L2)
    G2 = _combine6(R[6], R[7], R[8], L0, L1, L2)
    return (
        (N0[0], N1[0], N2[0], N3[0]) + G0,
        (N0[1], N1[1], N2[1], N3[1]) + G1,
        (N0[2], N1[2], N2[2], N3[2]) + G2,
        (F0[0], F1[0], F2[0], F3[0]),
        (F0[1], F1[1], F2[1], F3[1]),
        (F0[2], F1[2], F2[2], F3[2]),
    )


@njit(inline="always")
def _outward(P, q, qd, qdd, ws, ref, extended):
    """Rows ref + 1 … nb of the outward pass (seed 001 Tabla 3.1 (3.27)–(3.29)) into ``ws``:
    ω, ω̇, v̇ (gravity included) in body axes, as
    :func:`~eslabon._engine.outward_pass.forward_pass` writes them, and each body's pose
    in the reference frame: the world, or with a floating base (``ref`` its body's row)
    that body (a body hanging from the world keeps its world pose: a chain stays in one
    frame), the base's six rows taken in one step (:func:`base_motion`) and rows 1 … 5,
    which carry no body, left out. One state, or a lanes block (n, WIDTH) with a
    3-D ``ws`` (:mod:`eslabon._engine.lanes`)."""
    nb = int(P[H_NB])
    z = zero_of(q)
    w = wd = dwd = da = (z, z, z)
    a = like((-P[H_GRAVITY], -P[H_GRAVITY + 1], -P[H_GRAVITY + 2]), z)
    eye = like((1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0), z)
    clear(ws, 0, 0, WS_COLS)
    s9(ws, 0, WS_RW, eye)
    s3(ws, 0, WS_A, a)
    q_given = q
    q = near_angles(P, q, extended)
    if ref > 0:
        _, _, w, wd, a = base_motion(P, q, qd, qdd, w, wd, a)
        s9(ws, ref, WS_RW, eye)  # poses from here on are relative to the base's body
        s3(ws, ref, WS_PW, (z, z, z))
        s3(ws, ref, WS_W, w)
        s3(ws, ref, WS_WD, wd)
        s3(ws, ref, WS_A, a)
    for i in range(ref + 1, nb + 1):
        o = row_offset(i)
        k = rate_index(P, o)
        cq = coordinate_index(P, o)
        qi = at(q, cq) if cq >= 0 else z
        qh = qi
        if extended is not None:
            qh = at(q_given, cq) if cq >= 0 else z
        qdi, qddi = (at(qd, k), at(qdd, k)) if k >= 0 else (z, z)
        jnt = joint(P, o)
        E, r = placement(jnt, qi, extended, qh)
        if extended is not None:
            if by_quaternion(jnt):  # out of line (joints.quaternion_row)
                E, r, dwd, da = quaternion_row(P, o, q, qd, k, cq)
        p = parent(P, o)
        if p != i - 1:
            w, wd, a = g3(ws, p, WS_W), g3(ws, p, WS_WD), g3(ws, p, WS_A)
        a = mtv(E, add(a, add(cross(wd, r), cross(w, cross(w, r)))))
        w, wd, a = outward_motion(jnt, qdi, qddi, mtv(E, w), mtv(E, wd), a, dwd, da, extended)
        s3(ws, i, WS_W, w)
        s3(ws, i, WS_WD, wd)
        s3(ws, i, WS_A, a)
        Rp = g9(ws, p, WS_RW)
        s9(ws, i, WS_RW, mm(Rp, E))
        s3(ws, i, WS_PW, add(g3(ws, p, WS_PW), mv(Rp, r)))


@njit(inline="always")
def _fits(P):
    """Whether the packed model's bodies are rigid and its columns lie within p: cheap
    guards before any write."""
    nb = int(P[H_NB])
    p = int(P[row_offset(nb + 1) - 1])
    for i in range(nb + 1):
        o = row_offset(i)
        if P[o + COM_SLIDE] != 0.0 or P[o + MASS] + 10.0 > p or P[o + VISCOUS] + 3.0 > p:
            return False
    return True


# what :func:`_blocks` leaves per row (one state's row: lanes go to each state's own slab,
# slabs.store_states): the joint's coefficients (σ_n, σ_f) in ``coef`` columns 0 … 5; the
# body's block A_i in ``blk``, its moment rows (n_x, n_y, n_z) of ten columns at 10 d, its
# force rows (f_x, f_y, f_z) of four at BLOCK_F + 4 d; zeros to a multiple of eight
COEF_COLS = 8
BLOCK_F, BLOCK_COLS = 30, 48


@njit(cache=True, fastmath={"contract"})
def regressor_state(P, q, qd, qdd, ws, coef, blk, Y, extended):
    """Y (engine nv, p) of one state (module docstring); ``ws`` (rows, WS_COLS) the
    outward pass's workspace, ``coef`` (rows, COEF_COLS) and ``blk`` (rows, BLOCK_COLS)
    scratch for :func:`_blocks`. Status OK, NON_FINITE when a state or a body's motion is
    not finite, or WRONG_SHAPE (Y untouched) when a centre of mass slides with its joint
    (seed 001's book mode: the bodies are not rigid) or a packed column would lie beyond p.

    Every row's joint coefficients (σ_n, σ_f) (:func:`_joint_coefficients`) and every
    body's ten columns are taken once to the reference frame (the world, or a floating
    base's body) about its origin, so that the block of body i in the row of joint j is
    ten dot products of six: O(10 n) transforms plus O(10 n depth) dot products, where
    carrying each column up the tree would cost a transform per joint passed."""
    if not _fits(P):
        return WRONG_SHAPE
    for k in range(Y.shape[0]):
        for c in range(Y.shape[1]):
            Y[k, c] = 0.0
    # the reference frame: the world, or a floating base's body (its six rates are then
    # the column's wrench in its axes, as floating_base.base_torques projects it)
    ref = first_loop_row(P, extended) - 1  # (BASE_BODY after a floating base)
    _outward(P, q, qd, qdd, ws, ref, extended)
    motion = _blocks(P, ws, coef, blk, ref, extended)
    return _columns(P, qd, qdd, coef, blk, motion, Y, ref)


@njit(inline="always")
def _blocks(P, ws, coef, blk, ref, extended):
    """From the outward pass in ``ws``: every moving row's joint coefficients into
    ``coef`` and every body's block (:func:`_body_block`) into ``blk`` (the layout of
    :data:`COEF_COLS`), in the reference frame. One state (``coef``, ``blk`` 2-D), or
    lanes as :func:`_outward` with 3-D ``coef``, ``blk`` of one slab per state
    (:func:`~eslabon._engine.slabs.store_states`). Returns the sum of the coefficients and
    the bodies' motion, not finite when any of them is not."""
    nb = int(P[H_NB])
    z = like(0.0, g1(ws, ref, WS_A))
    total = z
    for j in range(ref + 1, nb + 1):
        o = row_offset(j)
        if rate_index(P, o) >= 0:
            R, pos = g9(ws, j, WS_RW), g3(ws, j, WS_PW)
            sn, sf = _joint_coefficients(joint(P, o), R, pos, extended)
            store_states(coef, j, sn + sf + (z, z))
            for d in range(3):
                total += sn[d] + sf[d]
    for i in range(1, nb + 1):
        if P[row_offset(i) + MASS] < 0.0:
            continue
        w, wd, a = g3(ws, i, WS_W), g3(ws, i, WS_WD), g3(ws, i, WS_A)
        R, pos = g9(ws, i, WS_RW), g3(ws, i, WS_PW)
        n0, n1, n2, f0, f1, f2 = _body_block(w, wd, a, R, pos)
        store_states(blk, i, n0 + n1 + n2 + f0 + f1 + f2 + (z, z, z, z, z, z))
        total += w[0] + w[1] + w[2] + wd[0] + wd[1] + wd[2] + a[0] + a[1] + a[2]
    return total


@njit(inline="always")
def _quad_at(blk, i, c):
    """Columns c … c + 3 of row i of ``blk`` as a quad."""
    return quad((blk[i, c], blk[i, c + 1], blk[i, c + 2], blk[i, c + 3]))


@njit(inline="always")
def _columns(P, qd, qdd, coef, blk, motion, Y, ref):
    """The columns of Y of one state from :func:`_blocks`'s ``coef`` and ``blk`` (that
    state's slab after a pass on lanes; ``motion`` its sum): every entry that is not zero
    for the model's structure, the same entries for every state (a batch clears its
    scratch Y once). A block's columns 0 … 3 and 4 … 7 are written as quads (four columns
    in one vector). Status OK or NON_FINITE."""
    nb = int(P[H_NB])
    nv = int(P[H_NV])
    # a floating base's rates: force along its axes (kf), moment about them (kn)
    kf = kn = (-1, -1, -1)
    if ref > 0:
        kf0, kf1, kf2, kn0, kn1, kn2 = base_rate_indices(P)
        kf, kn = (kf0, kf1, kf2), (kn0, kn1, kn2)
    for i in range(1, nb + 1):
        c0 = int(P[row_offset(i) + MASS])
        if c0 < 0:
            continue
        A0, A1, A2 = _quad_at(blk, i, 0), _quad_at(blk, i, 10), _quad_at(blk, i, 20)
        B0, B1, B2 = _quad_at(blk, i, 4), _quad_at(blk, i, 14), _quad_at(blk, i, 24)
        F0, F1, F2 = _quad_at(blk, i, 30), _quad_at(blk, i, 34), _quad_at(blk, i, 38)
        n8 = (blk[i, 8], blk[i, 18], blk[i, 28])
        n9 = (blk[i, 9], blk[i, 19], blk[i, 29])
        j = i
        while j > ref:
            o = row_offset(j)
            k = rate_index(P, o)
            if k >= 0:
                s0, s1, s2 = coef[j, 0], coef[j, 1], coef[j, 2]
                s3, s4, s5 = coef[j, 3], coef[j, 4], coef[j, 5]
                store_quad(Y, k, c0, s0 * A0 + s1 * A1 + s2 * A2 + s3 * F0 + s4 * F1 + s5 * F2)
                store_quad(Y, k, c0 + 4, s0 * B0 + s1 * B1 + s2 * B2)
                Y[k, c0 + 8] = s0 * n8[0] + s1 * n8[1] + s2 * n8[2]
                Y[k, c0 + 9] = s0 * n9[0] + s1 * n9[1] + s2 * n9[2]
            j = parent(P, o)
        if ref > 0 and j == ref:  # the base's rates: (f, n) in its axes, direction d
            for d, (A, B, F) in enumerate(((A0, B0, F0), (A1, B1, F1), (A2, B2, F2))):
                store_quad(Y, kn[d], c0, A)
                store_quad(Y, kn[d], c0 + 4, B)
                Y[kn[d], c0 + 8] = n8[d]
                Y[kn[d], c0 + 9] = n9[d]
                store_quad(Y, kf[d], c0, F)
    for k in range(nv):
        motion += qd[k] + qdd[k]
    for j in range(1, nb + 1):
        o = row_offset(j)
        k = rate_index(P, o)
        c = int(P[o + VISCOUS])
        if k >= 0 and c >= 0:
            v = qd[k]
            Y[k, c] = v
            Y[k, c + 1] = sign(v)
            Y[k, c + 2] = qdd[k]
    return OK if abs(motion) <= 1.7976931348623157e308 else NON_FINITE


@njit(cache=True)
def regressor_one(P, q, qd, qdd, Y, extended):
    """:func:`regressor_state` with its own workspace."""
    rows = int(P[H_NB]) + 1
    ws = np.empty((rows, WS_COLS))
    coef, blk = np.empty((rows, COEF_COLS)), np.empty((rows, BLOCK_COLS))
    return regressor_state(P, q, qd, qdd, ws, coef, blk, Y, extended)


# the C entry's scratch: (rows) x SCRATCH_COLS + nv doubles hold the workspace (rows,
# WS_COLS), coef (rows, COEF_COLS) and blk (rows, BLOCK_COLS)
SCRATCH_COLS = {"regressor_entry": WS_COLS + COEF_COLS + BLOCK_COLS}


@njit(inline="always")
def _split_scratch(o, rows):
    """The C entry's scratch as (workspace, coef, blk) (:data:`SCRATCH_COLS`)."""
    flat = carray(o, rows * (WS_COLS + COEF_COLS + BLOCK_COLS))
    ws = flat[: rows * WS_COLS].reshape((rows, WS_COLS))
    rest = flat[rows * WS_COLS :]
    coef = rest[: rows * COEF_COLS].reshape((rows, COEF_COLS))
    return ws, coef, rest[rows * COEF_COLS :].reshape((rows, BLOCK_COLS))


@njit(cache=True, inline="always")
def _regressor_entry(p, a, b, c, o0, o1, extended):
    """q, q̇, q̈ -> Y (nv, p): the lean call (:mod:`eslabon._engine.entrypoints`), after
    the general path's checks (finite states, unit quaternions)."""
    P = packed_model(p)
    nv, rows = int(P[H_NV]), int(P[H_NB]) + 1
    q, qd, qdd = carray(a, int(P[H_NQ])), carray(b, nv), carray(c, nv)
    if not (finite(q) and finite(qd) and finite(qdd)):
        return NON_FINITE
    if not units_ok(P, q, extended):
        return NOT_UNIT
    ws, coef, blk = _split_scratch(o1, rows)
    Y = carray(o0, (nv, int(p[row_offset(rows) - 1])))
    return entry_status(regressor_state(P, q, qd, qdd, ws, coef, blk, Y, extended))


@lazy_cfunc(SIGNATURE, "the joint-torque regressor")
def regressor_entry(p, a, b, c, o0, o1, o2):
    return _regressor_entry(p, a, b, c, o0, o1, None)


@lazy_cfunc(SIGNATURE, "the joint-torque regressor (helical and ball joints)")
def regressor_entry_extended(p, a, b, c, o0, o1, o2):
    return _regressor_entry(p, a, b, c, o0, o1, extended_set())


# a batch's output from this many bytes (32 MiB) on is written by non-temporal stores
# (:mod:`eslabon._engine.streaming`): beyond a last-level cache (32 MiB on a Zen 4
# chiplet), where a batch is bounded by memory traffic; below it, as the 2,000-state
# chunks that identification.estimate reads straight back, the output stays cached
STREAM_BYTES = 1 << 25


@njit(cache=True, fastmath={"contract"})
def regressor_lanes(P, Q, QD, QDD, Y, lo, hi, extended):
    """States lo … hi−1 of a batch: the outward pass and :func:`_blocks` on lanes
    (:data:`WIDTH` states per instruction; :mod:`eslabon._engine.lanes`), then each
    state's columns (:func:`_columns`, from its slab) into one scratch Y, cleared once (its
    structural zeros stay), and copied to ``Y[s]``: by non-temporal stores when the
    batch's output is :data:`STREAM_BYTES` or more. Y (N, engine nv, p); the worst status
    of the states, or WRONG_SHAPE (Y untouched) as :func:`regressor_state`."""
    if not _fits(P):
        return WRONG_SHAPE
    nq, nv, rows = int(P[H_NQ]), int(P[H_NV]), int(P[H_NB]) + 1
    p = Y.shape[2]
    ref = first_loop_row(P, extended) - 1
    ws = np.empty((rows, WS_COLS, WIDTH))
    coef, blk = np.empty((WIDTH, rows, COEF_COLS)), np.empty((WIDTH, rows, BLOCK_COLS))
    q, qd, qdd = np.empty((nq, WIDTH)), np.empty((nv, WIDTH)), np.empty((nv, WIDTH))
    motion = np.empty((1, WIDTH))
    one = np.zeros((nv, p))
    flat = one.reshape(nv * p)
    stream = Y.size * 8 >= STREAM_BYTES
    status = OK
    for s0 in range(lo, hi, WIDTH):
        pack(Q, s0, hi, q)
        pack(QD, s0, hi, qd)
        pack(QDD, s0, hi, qdd)
        _outward(P, q, qd, qdd, ws, ref, extended)
        put(motion, 0, _blocks(P, ws, coef, blk, ref, extended))
        for j in range(min(WIDTH, hi - s0)):
            s = s0 + j
            state = _columns(P, QD[s], QDD[s], coef[j], blk[j], motion[0, j], one, ref)
            status = max(status, state)
            if stream:
                stream_copy(flat, Y[s].reshape(nv * p))
            else:
                Y[s] = one
    if stream:
        store_fence()
    return status


@njit(inline="always")
def _regressor_chunk_entry(p, i0, i1, i2, o0, lo, hi, n, extended):
    P = packed_model(p)
    nq, nv, rows = int(P[H_NQ]), int(P[H_NV]), int(P[H_NB]) + 1
    cols = int(P[row_offset(rows) - 1])
    Q, QD, QDD = carray(i0, (n, nq)), carray(i1, (n, nv)), carray(i2, (n, nv))
    return regressor_lanes(P, Q, QD, QDD, carray(o0, (n, nv, cols)), lo, hi, extended)


@lazy_cfunc(CHUNK_SIGNATURE, "the joint-torque regressor (batch)")
def regressor_chunk_entry(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _regressor_chunk_entry(p, i0, i1, i2, o0, lo, hi, n, None)


@lazy_cfunc(CHUNK_SIGNATURE, "the joint-torque regressor (batch; helical and ball joints)")
def regressor_chunk_entry_extended(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _regressor_chunk_entry(p, i0, i1, i2, o0, lo, hi, n, extended_set())


REGRESSOR_CHUNKS = (regressor_chunk_entry, regressor_chunk_entry_extended)


def regressor_many(P, Q, QD, QDD, Y, nchunks, extended):
    """:func:`regressor_lanes` over a batch on every thread
    (:func:`eslabon._engine.batch.run_chunks`, chunks of whole lanes blocks); ``Y`` is
    (N, engine nv, p)."""
    return run_chunks(REGRESSOR_CHUNKS, P, (Q, QD, QDD), (Y,), NO_EXTRA, nchunks, WIDTH, extended)


def pack_regressor(packed, body_row, rate_columns, p):
    """The regressor's packed model (module docstring), read-only.

    Parameters
    ----------
    packed : ndarray
        ``model.packed``.
    body_row : ndarray of int ``(nb + 1,)``
        ``model.body_row``: each body's packed row.
    rate_columns : ndarray ``(engine nv,)``
        The viscous-friction column of each engine rate, -1 for none.
    p : int
        The number of parameters (columns of Y).

    Returns
    -------
    ndarray
        A copy of ``packed`` with the block and friction columns in ``MASS`` and
        ``VISCOUS`` and p as its last value.

    Raises
    ------
    ValueError
        A centre of mass that slides with its joint (the regressor needs rigid bodies), or
        p too small for the bodies' blocks (10 columns each) and friction columns (3).
    """
    P = np.array(packed, dtype=float)
    rows = int(P[H_NB]) + 1
    offsets = HEADER + STRIDE * np.arange(rows)
    P[offsets + MASS] = -1.0
    P[offsets[body_row[1:]] + MASS] = 10.0 * np.arange(len(body_row) - 1)
    rates = P[offsets + VIDX].astype(int)
    P[offsets + VISCOUS] = np.where(rates >= 0, np.asarray(rate_columns)[rates], -1.0)
    P[-1] = float(p)
    blocks, friction = P[offsets + MASS], P[offsets + VISCOUS]
    if np.any(P[offsets + COM_SLIDE] != 0.0):
        raise ValueError("packed: a centre of mass slides with its joint; expected rigid bodies")
    if blocks.max() + 10.0 > p or friction.max() + 3.0 > p:
        raise ValueError(
            f"p: expected at least {int(max(blocks.max() + 10, friction.max() + 3))} "
            f"columns for the bodies' blocks and the friction columns, got {p}"
        )
    P.setflags(write=False)
    return P


subject("the joint-torque regressor", regressor_one)
