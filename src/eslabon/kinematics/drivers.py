"""Compiled drivers of the kinematic recursion for one state and for a batch."""

from __future__ import annotations

import numpy as np
from numba import njit

from .._engine.batch import run_batch
from .._engine.compile import batch_kernel, subject
from .._engine.lanes import WIDTH, pack, unpack_squares
from .._engine.layout import H_NB, H_NQ, H_NV
from .._engine.status import OK
from .frame_jacobian import frame_jacobian_into
from .recursion import WS_COLS, WS_PW, WS_RW, forward_pass


@njit(cache=True)
def kinematics_one(P, q, qd, qdd, ws, extended):
    forward_pass(P, q, qd, qdd, 0.0, ws, extended, poses=True)


@njit(cache=True)
def kinematics_moving_base(P, q, qd, qdd, ws, extended):
    """As :func:`kinematics_one` for a base whose ω, ω̇, v̇ (gravity included) and v are
    preset in ``ws[0]`` (in the base frame)."""
    forward_pass(P, q, qd, qdd, 0.0, ws, extended, poses=True, moving_base=True)


@njit(cache=True)
def kinematics_chunk(P, ins, outs, extra, lo, hi):
    """The pass on lanes: :data:`~eslabon._engine.lanes.WIDTH` states per instruction,
    the same :func:`forward_pass` compiled for (n, WIDTH) blocks and a (rows, WS_COLS,
    WIDTH) workspace, each lane bit for bit the state's own pass."""
    Q, QD, QDD = ins
    (WS,) = outs
    (extended,) = extra
    nv = int(P[H_NV])
    ws = np.empty((int(P[H_NB]) + 1, WS_COLS, WIDTH))
    q = np.empty((int(P[H_NQ]), WIDTH))
    qd = np.empty((nv, WIDTH))
    qdd = np.empty((nv, WIDTH))
    for s0 in range(lo, hi, WIDTH):
        pack(Q, s0, hi, q)
        pack(QD, s0, hi, qd)
        pack(QDD, s0, hi, qdd)
        forward_pass(P, q, qd, qdd, 0.0, ws, extended, poses=True)
        unpack_squares(ws, WS, s0, hi)
    return OK


@batch_kernel
def kinematics_many(P, Q, QD, QDD, WS, nchunks, extended):
    """The pass over a batch (:func:`eslabon._engine.batch.run_batch`); ``WS`` is
    (N, nb+1, WS_COLS)."""
    return run_batch(kinematics_chunk, P, (Q, QD, QDD), (WS,), (extended,), nchunks, WIDTH)


@njit(cache=True)
def jacobian_one(P, q, qd, row, frame, local, J, extended):
    """The pass at ``q`` (``qd`` zeros, read as rates and accelerations), then the
    frame's Jacobian (:func:`frame_jacobian_into`) into ``J`` (6, nv)."""
    ws = np.empty((int(P[H_NB]) + 1, WS_COLS))
    forward_pass(P, q, qd, qd, 0.0, ws, extended, poses=True)
    return frame_jacobian_into(P, ws, row, frame, local, J, extended)


@njit(cache=True)
def jacobian_chunk(P, ins, outs, extra, lo, hi):
    """:func:`jacobian_one` on lanes, each lane bit for bit the state's own."""
    (Q,) = ins
    (J,) = outs
    row, frame, local, extended = extra
    nv = int(P[H_NV])
    ws = np.empty((int(P[H_NB]) + 1, WS_COLS, WIDTH))
    q = np.empty((int(P[H_NQ]), WIDTH))
    zero = np.zeros((nv, WIDTH))
    jac = np.empty((6, nv, WIDTH))
    status = OK
    for s0 in range(lo, hi, WIDTH):
        pack(Q, s0, hi, q)
        forward_pass(P, q, zero, zero, 0.0, ws, extended, poses=True)
        status = max(status, frame_jacobian_into(P, ws, row, frame, local, jac, extended))
        unpack_squares(jac, J, s0, hi)
    return status


@batch_kernel
def jacobian_many(P, Q, row, frame, local, J, nchunks, extended):
    """The Jacobians of one frame over a batch; ``J`` is (N, 6, nv)."""
    extra = (row, frame, local, extended)
    return run_batch(jacobian_chunk, P, (Q,), (J,), extra, nchunks, WIDTH)


@njit(cache=True)
def poses_one(P, q, qd, rows, T, extended):
    """The pass at ``q`` (``qd`` zeros), then the world pose of packed row ``rows[b]`` as
    the homogeneous transform ``T[b]`` (4, 4), for every b."""
    ws = np.empty((int(P[H_NB]) + 1, WS_COLS))
    forward_pass(P, q, qd, qd, 0.0, ws, extended, poses=True)
    for b in range(rows.shape[0]):
        r = rows[b]
        for a in range(3):
            for c in range(3):
                T[b, a, c] = ws[r, WS_RW + 3 * a + c]
            T[b, a, 3] = ws[r, WS_PW + a]
            T[b, 3, a] = 0.0
        T[b, 3, 3] = 1.0
    return OK


@njit(cache=True)
def poses_chunk(P, ins, outs, extra, lo, hi):
    """:func:`poses_one` on lanes, each lane bit for bit the state's own."""
    (Q,) = ins
    (T,) = outs
    rows, extended = extra
    ws = np.empty((int(P[H_NB]) + 1, WS_COLS, WIDTH))
    q = np.empty((int(P[H_NQ]), WIDTH))
    zero = np.zeros((int(P[H_NV]), WIDTH))
    for s0 in range(lo, hi, WIDTH):
        pack(Q, s0, hi, q)
        forward_pass(P, q, zero, zero, 0.0, ws, extended, poses=True)
        for j in range(min(WIDTH, hi - s0)):
            t = T[s0 + j]
            for b in range(rows.shape[0]):
                r = rows[b]
                for a in range(3):
                    for c in range(3):
                        t[b, a, c] = ws[r, WS_RW + 3 * a + c, j]
                    t[b, a, 3] = ws[r, WS_PW + a, j]
                    t[b, 3, a] = 0.0
                t[b, 3, 3] = 1.0
    return OK


@batch_kernel
def poses_many(P, Q, rows, T, nchunks, extended):
    """The world poses of the rows ``rows`` over a batch; ``T`` is (N, len(rows), 4, 4)."""
    return run_batch(poses_chunk, P, (Q,), (T,), (rows, extended), nchunks, WIDTH)


def workspace(P, batch: int | None = None) -> np.ndarray:
    rows = int(P[H_NB]) + 1
    return np.empty((rows, WS_COLS) if batch is None else (batch, rows, WS_COLS))


subject("kinematics", kinematics_one, kinematics_many, kinematics_chunk, kinematics_moving_base)
subject("the frame Jacobian", jacobian_one, jacobian_many, jacobian_chunk)
subject("world poses", poses_one, poses_many, poses_chunk)
