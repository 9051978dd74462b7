"""The joint-torque regressor Y(q, q̇, q̈) compiled: τ = Y π, one state or a batch.

Each body's wrench about its origin, in its own axes, is linear in its ten standard
parameters π_i = (m, h = m c, I about the origin) (Atkeson, An & Hollerbach 1986,
"Estimation of inertial parameters of manipulator loads and links", eq. 5; Featherstone,
*Rigid Body Dynamics Algorithms*, 2008, eq. 2.63 with the classical acceleration a of the
origin, gravity included as a base acceleration, Luh, Walker & Paul 1980):

    f_i = m a + (ω̇̃ + ω̃ ω̃) h,     n_i = I ω̇ + ω × I ω − a × h,

so [n_i; f_i] = A_i π_i with A_i a 6×10 matrix of (ω, ω̇, a). The outward pass
(:func:`eslabon._engine.outward_pass.forward_pass`, seed 001 Tabla 3.1 (3.27)–(3.29))
gives every row's ω, ω̇, a and its placement (E, r) in its parent. Each of the ten columns
of A_i is then carried from body i towards the root, [n; f] ← [E n + r × E f; E f]
(RBDA eq. 2.24's force transform), and projected on every joint it passes
(RBDA eq. 5.20, τ_j = S_jᵀ Σ_{i ∈ subtree(j)} X f_i; :func:`eslabon._engine.joints.project_wrench`):
the block of body i in row j of Y. Friction and armature add q̇, sign q̇ and q̈ columns on
their joint's rates.

The kernel reads ``model.packed`` (every body, fixed joints included: a body on a fixed
joint keeps a block of its own) and the engine's rates (mimic joints expanded; the caller
applies τ = Gᵀ τ_e). ``columns`` (float64, 1 + rows + nv) tells it where each block goes:
``columns[0]`` p, ``columns[1 + r]`` the first column of the block of the body on packed
row r (-1 for a row that carries no body: a joint of several rates is several rows, its
body on the last), ``columns[1 + rows + k]`` the viscous-friction column of engine rate k
(the Coulomb and armature columns follow it), -1 for none.
"""

from __future__ import annotations

import numpy as np
from numba import carray, njit

from .._engine.batch import CHUNK_SIGNATURE, run_chunks
from .._engine.compile import lazy_cfunc, subject
from .._engine.fastcall import packed_model
from .._engine.joints import extended_set, joint, project_wrench
from .._engine.lanes import g3, g9
from .._engine.layout import H_NB, H_NQ, H_NV
from .._engine.outward_pass import WS_A, WS_COLS, WS_PW, WS_RW, WS_W, WS_WD, forward_pass
from .._engine.record import parent, rate_index, row_offset
from .._engine.status import NON_FINITE, OK
from .._engine.tuples import add, cross, mv


@njit(inline="always")
def _column(c, w, wd, a):
    """Column ``c`` (0..9) of A_i as (n, f): the wrench about the origin of a unit value
    of parameter c (m, hx, hy, hz, Ixx, Ixy, Ixz, Iyy, Iyz, Izz)."""
    z = 0.0 * a[0]
    zero = (z, z, z)
    if c == 0:
        return zero, a
    if c <= 3:
        e = (1.0 if c == 1 else 0.0, 1.0 if c == 2 else 0.0, 1.0 if c == 3 else 0.0)
        f = add(cross(wd, e), cross(w, cross(w, e)))
        return cross(e, a), f  # n = −a × h
    # the symmetric basis matrix B of entry c: I x = Σ π_c B_c x
    if c == 4:
        Bwd, Bw = (wd[0], z, z), (w[0], z, z)
    elif c == 5:
        Bwd, Bw = (wd[1], wd[0], z), (w[1], w[0], z)
    elif c == 6:
        Bwd, Bw = (wd[2], z, wd[0]), (w[2], z, w[0])
    elif c == 7:
        Bwd, Bw = (z, wd[1], z), (z, w[1], z)
    elif c == 8:
        Bwd, Bw = (z, wd[2], wd[1]), (z, w[2], w[1])
    else:
        Bwd, Bw = (z, z, wd[2]), (z, z, w[2])
    return add(Bwd, cross(w, Bw)), zero


@njit(inline="always")
def _joint_coefficients(jnt, R, p, extended):
    """(σ_n, σ_f): the row's torque is σ_n · n + σ_f · f for a wrench (n about the world
    origin, f) in world axes. :func:`project_wrench` is linear in the row's own wrench
    (n_j, f_j) = (Rᵀ (n − p × f), Rᵀ f); its six coefficients, rotated to world axes and
    moved to the world origin, are σ_n = R s_n and σ_f = R s_f + p × σ_n."""
    z = 0.0 * p[0]
    zero = (z, z, z)
    ex, ey, ez = (1.0, z, z), (z, 1.0, z), (z, z, 1.0)
    s_n = (
        project_wrench(jnt, zero, ex, extended),
        project_wrench(jnt, zero, ey, extended),
        project_wrench(jnt, zero, ez, extended),
    )
    s_f = (
        project_wrench(jnt, ex, zero, extended),
        project_wrench(jnt, ey, zero, extended),
        project_wrench(jnt, ez, zero, extended),
    )
    sn = mv(R, s_n)
    return sn, add(mv(R, s_f), cross(p, sn))


@njit(cache=True)
def regressor_into(P, q, qd, qdd, columns, ws, coef, Y, extended):
    """Y (engine nv, p) of one state (module docstring); ``ws`` (rows, WS_COLS) the
    outward pass's workspace, ``coef`` (rows + 6, 10) scratch. Status OK, or NON_FINITE
    when a state or a body's motion is not finite.

    Every row's joint coefficients (σ_n, σ_f) (:func:`_joint_coefficients`) and every
    body's ten columns are taken to world axes about the world origin once, so that the
    block of body i in the row of joint j is ten dot products of six: O(10 n) transforms
    plus O(10 n depth) dot products, where carrying each column up the tree would cost a
    transform per joint passed."""
    nb = int(P[H_NB])
    nv = int(P[H_NV])
    p = int(columns[0])
    forward_pass(P, q, qd, qdd, 1.0, ws, extended)
    for k in range(nv):
        for c in range(p):
            Y[k, c] = 0.0
    total = 0.0
    for j in range(1, nb + 1):
        o = row_offset(j)
        if rate_index(P, o) >= 0:
            sn, sf = _joint_coefficients(joint(P, o), g9(ws, j, WS_RW), g3(ws, j, WS_PW), extended)
            for d in range(3):
                coef[j, d] = sn[d]
                coef[j, 3 + d] = sf[d]
                total += sn[d] + sf[d]
    body = nb + 1  # coef rows nb + 1 … nb + 6: the body's ten columns, world axes
    for i in range(1, nb + 1):
        c0 = int(columns[1 + i])
        if c0 < 0:
            continue
        w, wd, a = g3(ws, i, WS_W), g3(ws, i, WS_WD), g3(ws, i, WS_A)
        R, pos = g9(ws, i, WS_RW), g3(ws, i, WS_PW)
        for c in range(10):  # (n about the world origin; f) of each column, world axes
            n, f = _column(c, w, wd, a)
            fw = mv(R, f)
            nw = add(mv(R, n), cross(pos, fw))
            for d in range(3):
                coef[body + d, c] = nw[d]
                coef[body + 3 + d, c] = fw[d]
        j = i
        while j > 0:
            o = row_offset(j)
            k = rate_index(P, o)
            if k >= 0:
                s0, s1, s2 = coef[j, 0], coef[j, 1], coef[j, 2]
                s3, s4, s5 = coef[j, 3], coef[j, 4], coef[j, 5]
                for c in range(10):
                    Y[k, c0 + c] = (
                        s0 * coef[body, c]
                        + s1 * coef[body + 1, c]
                        + s2 * coef[body + 2, c]
                        + s3 * coef[body + 3, c]
                        + s4 * coef[body + 4, c]
                        + s5 * coef[body + 5, c]
                    )
            j = parent(P, o)
        total += w[0] + w[1] + w[2] + wd[0] + wd[1] + wd[2] + a[0] + a[1] + a[2]
    for k in range(nv):
        c = int(columns[1 + nb + 1 + k])
        v = qd[k]
        total += v + qdd[k]
        if c >= 0:
            Y[k, c] = v
            Y[k, c + 1] = 1.0 if v > 0.0 else (-1.0 if v < 0.0 else 0.0)
            Y[k, c + 2] = qdd[k]
    return OK if abs(total) <= 1.7976931348623157e308 else NON_FINITE


@njit(cache=True)
def regressor_one(P, q, qd, qdd, columns, Y, extended):
    """:func:`regressor_into` with its own workspace."""
    rows = int(P[H_NB]) + 1
    ws = np.empty((rows, WS_COLS))
    coef = np.empty((rows + 6, 10))
    return regressor_into(P, q, qd, qdd, columns, ws, coef, Y, extended)


@njit(inline="always")
def _regressor_chunk_entry(p, i0, i1, i2, o0, x, lo, hi, n, extended):
    P = packed_model(p)
    nq, nv, rows = int(P[H_NQ]), int(P[H_NV]), int(P[H_NB]) + 1
    columns = carray(x, 1 + rows + nv)
    cols = int(columns[0])
    Q, QD, QDD = carray(i0, (n, nq)), carray(i1, (n, nv)), carray(i2, (n, nv))
    Y = carray(o0, (n, nv, cols))
    ws = np.empty((rows, WS_COLS))
    coef = np.empty((rows + 6, 10))
    status = OK
    for s in range(lo, hi):
        state = regressor_into(P, Q[s], QD[s], QDD[s], columns, ws, coef, Y[s], extended)
        status = max(status, state)
    return status


@lazy_cfunc(CHUNK_SIGNATURE, "the joint-torque regressor (batch)")
def regressor_chunk_entry(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _regressor_chunk_entry(p, i0, i1, i2, o0, x, lo, hi, n, None)


@lazy_cfunc(CHUNK_SIGNATURE, "the joint-torque regressor (batch; helical and ball joints)")
def regressor_chunk_entry_extended(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _regressor_chunk_entry(p, i0, i1, i2, o0, x, lo, hi, n, extended_set())


REGRESSOR_CHUNKS = (regressor_chunk_entry, regressor_chunk_entry_extended)


def regressor_many(P, Q, QD, QDD, columns, Y, nchunks, extended):
    """:func:`regressor_into` over a batch on every thread
    (:func:`eslabon._engine.batch.run_chunks`); ``Y`` is (N, engine nv, p)."""
    return run_chunks(REGRESSOR_CHUNKS, P, (Q, QD, QDD), (Y,), columns, nchunks, 1, extended)


subject("the joint-torque regressor", regressor_one)
