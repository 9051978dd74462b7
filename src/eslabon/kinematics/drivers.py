"""Compiled drivers of the kinematic recursion for one state and for a batch (a chunk
per quantity inside its pair of C entries, run by
:func:`eslabon._engine.batch.run_chunks`, as in :mod:`eslabon.dynamics.batch_drivers`)."""

from __future__ import annotations

import sys

import numpy as np
from numba import carray, njit

from .._engine.batch import CHUNK_SIGNATURE, NO_EXTRA, run_chunks
from .._engine.compile import lazy_cfunc, subject
from .._engine.fastcall import packed_model
from .._engine.joints import extended_set
from .._engine.lanes import WIDTH, pack, unpack_squares
from .._engine.layout import H_NB, H_NQ, H_NV
from .._engine.outward_pass import WS_COLS, WS_PW, WS_RW, forward_pass
from .._engine.status import OK
from .._engine.tuples import add, g3, g9, m9, mm, mv, v3
from .frame_jacobian import frame_jacobian_into

_LARGEST = sys.float_info.max  # |x| ≤ this: False for NaN and ±inf


@njit(cache=True)
def kinematics_one(P, q, qd, qdd, ws, extended):
    forward_pass(P, q, qd, qdd, 0.0, ws, extended)


@njit(cache=True)
def kinematics_moving_base(P, q, qd, qdd, ws, extended):
    """As :func:`kinematics_one` for a base whose ω, ω̇, v̇ (gravity included) and v are
    preset in ``ws[0]`` (in the base frame)."""
    forward_pass(P, q, qd, qdd, 0.0, ws, extended, moving_base=True)


@njit(inline="always")
def kinematics_chunk(P, Q, QD, QDD, WS, lo, hi, extended):
    """The pass on lanes: :data:`~eslabon._engine.lanes.WIDTH` states per instruction,
    the same :func:`forward_pass` compiled for (n, WIDTH) blocks and a (rows, WS_COLS,
    WIDTH) workspace, each lane bit for bit the state's own pass."""
    nv = int(P[H_NV])
    ws = np.empty((int(P[H_NB]) + 1, WS_COLS, WIDTH))
    q = np.empty((int(P[H_NQ]), WIDTH))
    qd = np.empty((nv, WIDTH))
    qdd = np.empty((nv, WIDTH))
    for s0 in range(lo, hi, WIDTH):
        pack(Q, s0, hi, q)
        pack(QD, s0, hi, qd)
        pack(QDD, s0, hi, qdd)
        forward_pass(P, q, qd, qdd, 0.0, ws, extended)
        unpack_squares(ws, WS, s0, hi)
    return OK


@njit(inline="always")
def _kinematics_chunk_entry(p, i0, i1, i2, o0, lo, hi, n, extended):
    nq, nv, rows = int(p[H_NQ]), int(p[H_NV]), int(p[H_NB]) + 1
    Q, QD, QDD = carray(i0, (n, nq)), carray(i1, (n, nv)), carray(i2, (n, nv))
    WS = carray(o0, (n, rows, WS_COLS))
    return kinematics_chunk(packed_model(p), Q, QD, QDD, WS, lo, hi, extended)


@lazy_cfunc(CHUNK_SIGNATURE, "kinematics (batch)")
def kinematics_chunk_entry(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _kinematics_chunk_entry(p, i0, i1, i2, o0, lo, hi, n, None)


@lazy_cfunc(CHUNK_SIGNATURE, "kinematics (batch; helical and ball joints)")
def kinematics_chunk_entry_extended(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _kinematics_chunk_entry(p, i0, i1, i2, o0, lo, hi, n, extended_set())


KINEMATICS_CHUNKS = (kinematics_chunk_entry, kinematics_chunk_entry_extended)


def kinematics_many(P, Q, QD, QDD, WS, nchunks, extended):
    """The pass over a batch (:func:`eslabon._engine.batch.run_chunks`); ``WS`` is
    (N, nb+1, WS_COLS)."""
    ins = (Q, QD, QDD)
    return run_chunks(KINEMATICS_CHUNKS, P, ins, (WS,), NO_EXTRA, nchunks, WIDTH, extended)


@njit(cache=True)
def jacobian_one(P, q, qd, row, frame, local, J, extended):
    """The pass at ``q`` (``qd`` zeros, read as rates and accelerations), then the
    frame's Jacobian (:func:`frame_jacobian_into`) into ``J`` (6, nv)."""
    ws = np.empty((int(P[H_NB]) + 1, WS_COLS))
    forward_pass(P, q, qd, qd, 0.0, ws, extended, poses_only=True, path_to=row)
    return frame_jacobian_into(P, ws, row, frame, local, J, extended)


@njit(inline="always")
def jacobian_chunk(P, Q, row, frame, local, J, lo, hi, extended):
    """:func:`jacobian_one` on lanes, each lane bit for bit the state's own."""
    nv = int(P[H_NV])
    ws = np.empty((int(P[H_NB]) + 1, WS_COLS, WIDTH))
    q = np.empty((int(P[H_NQ]), WIDTH))
    zero = np.zeros((nv, WIDTH))
    jac = np.empty((6, nv, WIDTH))
    status = OK
    for s0 in range(lo, hi, WIDTH):
        pack(Q, s0, hi, q)
        forward_pass(P, q, zero, zero, 0.0, ws, extended, poses_only=True)
        status = max(status, frame_jacobian_into(P, ws, row, frame, local, jac, extended))
        unpack_squares(jac, J, s0, hi)
    return status


@njit(inline="always")
def _jacobian_chunk_entry(p, i0, i1, o0, x, lo, hi, n, extended):
    """``i1`` the frame's placement (12,), ``x`` = (its packed row, local)."""
    nv = int(p[H_NV])
    Q, frame, J = carray(i0, (n, int(p[H_NQ]))), carray(i1, 12), carray(o0, (n, 6, nv))
    P = packed_model(p)
    return jacobian_chunk(P, Q, int(x[0]), frame, x[1] != 0.0, J, lo, hi, extended)


@lazy_cfunc(CHUNK_SIGNATURE, "the frame Jacobian (batch)")
def jacobian_chunk_entry(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _jacobian_chunk_entry(p, i0, i1, o0, x, lo, hi, n, None)


@lazy_cfunc(CHUNK_SIGNATURE, "the frame Jacobian (batch; helical and ball joints)")
def jacobian_chunk_entry_extended(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _jacobian_chunk_entry(p, i0, i1, o0, x, lo, hi, n, extended_set())


JACOBIAN_CHUNKS = (jacobian_chunk_entry, jacobian_chunk_entry_extended)


def jacobian_many(P, Q, row, frame, local, J, nchunks, extended):
    """The Jacobians of one frame over a batch; ``J`` is (N, 6, nv)."""
    extra = np.array([row, 1.0 if local else 0.0])
    return run_chunks(JACOBIAN_CHUNKS, P, (Q, frame), (J,), extra, nchunks, WIDTH, extended)


@njit(cache=True)
def poses_one(P, q, qd, rows, T, extended):
    """The pass at ``q`` (``qd`` zeros), then the world pose of packed row ``rows[b]`` as
    the homogeneous transform ``T[b]`` (4, 4), for every b."""
    ws = np.empty((int(P[H_NB]) + 1, WS_COLS))
    forward_pass(P, q, qd, qd, 0.0, ws, extended, poses_only=True)
    for b in range(rows.shape[0]):
        r = rows[b]
        for a in range(3):
            for c in range(3):
                T[b, a, c] = ws[r, WS_RW + 3 * a + c]
            T[b, a, 3] = ws[r, WS_PW + a]
            T[b, 3, a] = 0.0
        T[b, 3, 3] = 1.0
    return OK


@njit(cache=True, inline="always")
def poses_finite(ws):
    """Every body's world rotation and origin in the workspace ``ws`` (rows, WS_COLS)
    finite: compares, which the compiler vectorises."""
    ok = True
    for r in range(ws.shape[0]):
        for c in range(WS_RW, WS_PW + 3):
            ok &= abs(ws[r, c]) <= _LARGEST
    return ok


@njit(cache=True, inline="always")
def frame_pose_into(ws, row, placement, T):
    """``T`` (4, 4) = the world pose of the frame placed at ``placement`` (12,: rotation
    row-major, then origin) on the body of packed row ``row``: W_R_F = W_R_B · B_R_F and
    p_F = p_B + W_R_B · B_p_F, summed in the order :func:`eslabon.kinematics.forward`'s
    numpy form sums them (both give the same bits)."""
    Rb = g9(ws, row, WS_RW)
    R = mm(Rb, m9(placement, 0))
    p = add(g3(ws, row, WS_PW), mv(Rb, v3(placement, 9)))
    for a in range(3):
        for c in range(3):
            T[a, c] = R[3 * a + c]
        T[a, 3] = p[a]
        T[3, a] = 0.0
    T[3, 3] = 1.0


@njit(inline="always")
def poses_chunk(P, Q, rows, T, lo, hi, extended):
    """:func:`poses_one` on lanes, each lane bit for bit the state's own; ``rows`` the
    packed rows as float64."""
    ws = np.empty((int(P[H_NB]) + 1, WS_COLS, WIDTH))
    q = np.empty((int(P[H_NQ]), WIDTH))
    zero = np.zeros((int(P[H_NV]), WIDTH))
    for s0 in range(lo, hi, WIDTH):
        pack(Q, s0, hi, q)
        forward_pass(P, q, zero, zero, 0.0, ws, extended, poses_only=True)
        for j in range(min(WIDTH, hi - s0)):
            t = T[s0 + j]
            for b in range(rows.shape[0]):
                r = int(rows[b])
                for a in range(3):
                    for c in range(3):
                        t[b, a, c] = ws[r, WS_RW + 3 * a + c, j]
                    t[b, a, 3] = ws[r, WS_PW + a, j]
                    t[b, 3, a] = 0.0
                t[b, 3, 3] = 1.0
    return OK


@njit(inline="always")
def _poses_chunk_entry(p, i0, i1, o0, x, lo, hi, n, extended):
    """``i1`` the packed rows (float64), ``x`` = (their count,)."""
    count = int(x[0])
    Q, rows = carray(i0, (n, int(p[H_NQ]))), carray(i1, count)
    T = carray(o0, (n, count, 4, 4))
    return poses_chunk(packed_model(p), Q, rows, T, lo, hi, extended)


@lazy_cfunc(CHUNK_SIGNATURE, "world poses (batch)")
def poses_chunk_entry(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _poses_chunk_entry(p, i0, i1, o0, x, lo, hi, n, None)


@lazy_cfunc(CHUNK_SIGNATURE, "world poses (batch; helical and ball joints)")
def poses_chunk_entry_extended(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _poses_chunk_entry(p, i0, i1, o0, x, lo, hi, n, extended_set())


POSES_CHUNKS = (poses_chunk_entry, poses_chunk_entry_extended)


def poses_many(P, Q, rows, T, nchunks, extended):
    """The world poses of the rows ``rows`` (float64) over a batch; ``T`` is
    (N, len(rows), 4, 4)."""
    extra = _COUNTS[len(rows)] if len(rows) < len(_COUNTS) else np.array([len(rows)], float)
    ins = (Q, rows if rows.dtype == np.float64 else rows.astype(np.float64))
    return run_chunks(POSES_CHUNKS, P, ins, (T,), extra, nchunks, WIDTH, extended)


_COUNTS = [np.array([k], dtype=np.float64) for k in range(256)]  # the extra vector of poses


def workspace(P, batch: int | None = None) -> np.ndarray:
    rows = int(P[H_NB]) + 1
    return np.empty((rows, WS_COLS) if batch is None else (batch, rows, WS_COLS))


subject("kinematics", kinematics_one, kinematics_moving_base)
subject("the frame Jacobian", jacobian_one)
subject("world poses", poses_one)
