"""The batches of the task-space and centroidal kernels (:mod:`.task_kernels`): a chunk
entry per quantity run by :func:`eslabon._engine.batch.run_chunks`, each chunk on lanes
(:data:`~eslabon._engine.lanes.WIDTH` states per instruction, :mod:`eslabon._engine.lanes`),
and the general paths' batch functions that call them."""

from __future__ import annotations

import numpy as np
from numba import carray, njit

from .._args import explain_nonfinite, require_finite
from .._engine.batch import CHUNK_SIGNATURE, NO_EXTRA, chunk_count, run_chunks
from .._engine.compile import lazy_cfunc
from .._engine.fastcall import packed_model
from .._engine.joints import extended_of, extended_set
from .._engine.lanes import WIDTH, pack, unpack, unpack_squares
from .._engine.layout import H_NB, H_NQ, H_NV
from .._engine.outward_pass import WS_COLS, forward_pass
from .._engine.status import OK
from .kinematic_pass import _states, frame_entry
from .spatial_columns import REFERENCES
from .task_kernels import FRAME, bias_into, centroidal_state


@njit(inline="always")
def _centroidal_chunk(p, i0, o0, lo, hi, n, linear_only, extended):
    """A_G or J_c on lanes: :data:`~eslabon._engine.lanes.WIDTH` states per instruction,
    each lane the operations of the state's own kernel."""
    P = packed_model(p)
    nq, nv, rows = int(p[H_NQ]), int(p[H_NV]), 3 if linear_only else 6
    Q, out = carray(i0, (n, nq)), carray(o0, (n, rows, nv))
    ws = np.empty((int(p[H_NB]) + 1, WS_COLS, WIDTH))
    q = np.empty((nq, WIDTH))
    zero = np.zeros((nv, WIDTH))
    block = np.empty((rows, nv, WIDTH))
    status = OK
    for s0 in range(lo, hi, WIDTH):
        pack(Q, s0, hi, q)
        status = max(status, centroidal_state(P, q, zero, ws, block, linear_only, extended))
        unpack_squares(block, out, s0, hi)
    return status


@lazy_cfunc(CHUNK_SIGNATURE, "the centroidal momentum matrix (batch)")
def momentum_matrix_chunk(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _centroidal_chunk(p, i0, o0, lo, hi, n, False, None)


@lazy_cfunc(CHUNK_SIGNATURE, "the centroidal momentum matrix (batch; helical and ball joints)")
def momentum_matrix_chunk_extended(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _centroidal_chunk(p, i0, o0, lo, hi, n, False, extended_set())


@lazy_cfunc(CHUNK_SIGNATURE, "the centre of mass's Jacobian (batch)")
def com_jacobian_chunk(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _centroidal_chunk(p, i0, o0, lo, hi, n, True, None)


@lazy_cfunc(CHUNK_SIGNATURE, "the centre of mass's Jacobian (batch; helical and ball joints)")
def com_jacobian_chunk_extended(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _centroidal_chunk(p, i0, o0, lo, hi, n, True, extended_set())


@njit(inline="always")
def _bias_chunk(p, i0, i1, i2, o0, lo, hi, n, extended):
    """J̇q̇ on lanes (the pass over every row: the rows of one frame's support alone are
    marked one state at a time); ``i2`` the frame (:data:`FRAME` values)."""
    P = packed_model(p)
    nq, nv = int(p[H_NQ]), int(p[H_NV])
    Q, QD = carray(i0, (n, nq)), carray(i1, (n, nv))
    frame, out = carray(i2, FRAME), carray(o0, (n, 6))
    row = int(frame[0])
    ws = np.empty((int(p[H_NB]) + 1, WS_COLS, WIDTH))
    q, qd = np.empty((nq, WIDTH)), np.empty((nv, WIDTH))
    zero = np.zeros((nv, WIDTH))
    block = np.empty((6, WIDTH))
    status = OK
    for s0 in range(lo, hi, WIDTH):
        pack(Q, s0, hi, q)
        pack(QD, s0, hi, qd)
        forward_pass(P, q, qd, zero, 0.0, ws, extended)
        status = max(status, bias_into(ws, row, frame, block))
        unpack(block, out, s0, hi)
    return status


@lazy_cfunc(CHUNK_SIGNATURE, "a frame's bias acceleration (batch)")
def bias_chunk(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _bias_chunk(p, i0, i1, i2, o0, lo, hi, n, None)


@lazy_cfunc(CHUNK_SIGNATURE, "a frame's bias acceleration (batch; helical and ball joints)")
def bias_chunk_extended(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _bias_chunk(p, i0, i1, i2, o0, lo, hi, n, extended_set())


MOMENTUM_CHUNKS = (momentum_matrix_chunk, momentum_matrix_chunk_extended)
COM_JACOBIAN_CHUNKS = (com_jacobian_chunk, com_jacobian_chunk_extended)
BIAS_CHUNKS = (bias_chunk, bias_chunk_extended)


def centroidal_many(P, Q, out, linear_only, nchunks, extended):
    """A_G (``out`` (N, 6, nv)) or J_c (``linear_only``, (N, 3, nv)) over a batch of
    checked configurations ``Q`` (N, nq) of a rigid model with mass; the worst status."""
    chunks = COM_JACOBIAN_CHUNKS if linear_only else MOMENTUM_CHUNKS
    return run_chunks(chunks, P, (Q,), (out,), NO_EXTRA, nchunks, WIDTH, extended)


def bias_many(P, Q, QD, frame, out, nchunks, extended):
    """[ω̇; a_F] (``out`` (N, 6)) of the frame ``frame`` (:data:`FRAME` values) over a
    batch of checked states; the worst status."""
    return run_chunks(BIAS_CHUNKS, P, (Q, QD, frame), (out,), NO_EXTRA, nchunks, WIDTH, extended)


# ---- the general paths' batches ---------------------------------------------------------
def batch_states(model, q, qd=None):
    """The checked (Q, Q̇) (float64, C-contiguous; Q̇ zeros when not given) of a batch the
    compiled batches take (a model without mimic joints), else None (one state, mimic
    joints: the numpy form). Raises as the numpy form for a wrong shape or a non-finite
    value."""
    if model.mimic is not None or np.ndim(q) != 2:
        return None
    q, qd, _, batched = _states(model, q, qd, None)
    if not batched:
        return None
    require_finite("kinematics", q=q, qd=qd)
    return np.ascontiguousarray(q, dtype=np.float64), np.ascontiguousarray(qd, dtype=np.float64)


def centroidal_batch(model, Q, linear_only: bool) -> np.ndarray:
    """A_G (N, 6, nv), or J_c (N, 3, nv), over the checked batch ``Q`` of a rigid model
    with mass (:func:`centroidal_many` on ``model.packed_dynamics``)."""
    P = model.packed_dynamics
    out = np.empty((len(Q), 3 if linear_only else 6, model.nv))
    nchunks = chunk_count(len(Q), WIDTH)
    status = centroidal_many(P, Q, out, linear_only, nchunks, extended_of(P))
    if status != OK:
        explain_nonfinite("kinematics", q=Q)
    return out


def bias_batch(model, Q, QD, frame: str, reference: str) -> np.ndarray:
    """[ω̇; a_F] (N, 6) of ``frame`` over the checked batch (Q, QD), in the axes of
    ``reference`` ("world" or "local"; :func:`bias_many` on ``model.packed``)."""
    placed = np.empty(FRAME)
    placed[:13] = frame_entry(model, frame)
    placed[13] = float(REFERENCES.index(reference))  # as the C entry: the choice's index
    P = model.packed
    out = np.empty((len(Q), 6))
    status = bias_many(P, Q, QD, placed, out, chunk_count(len(Q), WIDTH), extended_of(P))
    if status != OK:
        explain_nonfinite("kinematics", q=Q, qd=QD)
    return out
