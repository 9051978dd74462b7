"""Batches of the analytic derivatives and the linearization (:mod:`.derivatives`),
built as :mod:`.batch_drivers` builds the other batches: a chunk per quantity, compiled
inside its pair of C entries (:data:`~eslabon._engine.batch.CHUNK_SIGNATURE`), run over
the batch by :func:`eslabon._engine.batch.run_chunks`.

The derivatives run 4 or 8 states in lock step (:mod:`eslabon._engine.lanes`), the
linearization one state at a time; a model with spherical or free-flyer joints runs
state by state, its derivatives taken into the tangent space
(:mod:`eslabon._engine.joint_tangent`). The
chunks take the joint set ``extended`` as an argument of their own, so that for a model
of the base joint set (None) numba drops the tangent-space code before compiling it.
"""

from __future__ import annotations

import numpy as np
from numba import carray, njit

from .._engine.batch import CHUNK_SIGNATURE, NO_EXTRA, run_chunks
from .._engine.compile import lazy_cfunc
from .._engine.fastcall import packed_model
from .._engine.joints import extended_set
from .._engine.lanes import WIDTH, pack, unpack_squares
from .._engine.layout import H_NQ, H_NV
from .._engine.status import OK
from . import derivatives
from .derivative_drivers import (
    fd_buffers,
    tangent_buffers,
    tangent_fd_derivatives_into,
    tangent_id_derivatives_into,
    tangent_linearization_into,
)
from .derivatives import fd_derivatives_into, linearization_into, rnea_derivatives_into
from .drivers import _rows


@njit(inline="always")
def _inputs(p, i0, i1, i2, n):
    """(Q (n, nq), Q̇ (n, nv), third (n, nv)) behind the input pointers."""
    nq, nv = int(p[H_NQ]), int(p[H_NV])
    return carray(i0, (n, nq)), carray(i1, (n, nv)), carray(i2, (n, nv))


@njit(inline="always")
def _squares(p, ptr, n):
    """The (n, nv, nv) matrices behind ``ptr``."""
    nv = int(p[H_NV])
    return carray(ptr, (n, nv, nv))


# --- inverse dynamics derivatives ---------------------------------------------------------


@njit(inline="always")
def id_derivatives_chunk(P, Q, QD, QDD, DQ, DV, lo, hi, extended):
    """:func:`rnea_derivatives_into` on lanes ((n, WIDTH) blocks); a block that fails is
    run again state by state, each alone in a block, which reports the failing state.
    Quaternion joints: state by state
    (:func:`.derivative_drivers.tangent_id_derivatives_into`)."""
    n = int(P[H_NV])
    status = OK
    if extended is not None:
        if int(P[H_NQ]) != n:  # quaternion joints: state by state (the tangent space)
            M1, buffers = np.empty((n, n)), tangent_buffers(P)
            for s in range(lo, hi):
                st = tangent_id_derivatives_into(
                    P, Q[s], QD[s], QDD[s], DQ[s], DV[s], M1, buffers, extended
                )
                status = max(status, st)
            return status
    ws = np.empty((_rows(P), derivatives.COLS, WIDTH))
    q, qd, qdd = np.empty((int(P[H_NQ]), WIDTH)), np.empty((n, WIDTH)), np.empty((n, WIDTH))
    dq, dv, M = np.empty((n, n, WIDTH)), np.empty((n, n, WIDTH)), np.empty((n, n, WIDTH))
    for s0 in range(lo, hi, WIDTH):
        pack(Q, s0, hi, q)
        pack(QD, s0, hi, qd)
        pack(QDD, s0, hi, qdd)
        if rnea_derivatives_into(P, q, qd, qdd, ws, dq, dv, M, extended) == OK:
            unpack_squares(dq, DQ, s0, hi)
            unpack_squares(dv, DV, s0, hi)
        else:
            for s in range(s0, min(s0 + WIDTH, hi)):  # each state alone in a block
                pack(Q, s, s + 1, q)
                pack(QD, s, s + 1, qd)
                pack(QDD, s, s + 1, qdd)
                st = rnea_derivatives_into(P, q, qd, qdd, ws, dq, dv, M, extended)
                status = max(status, st)
                unpack_squares(dq, DQ, s, s + 1)
                unpack_squares(dv, DV, s, s + 1)
    return status


@njit(inline="always")
def _id_derivatives_chunk_entry(p, i0, i1, i2, o0, o1, lo, hi, n, extended):
    Q, QD, QDD = _inputs(p, i0, i1, i2, n)
    DQ, DV = _squares(p, o0, n), _squares(p, o1, n)
    return id_derivatives_chunk(packed_model(p), Q, QD, QDD, DQ, DV, lo, hi, extended)


@lazy_cfunc(CHUNK_SIGNATURE, "inverse dynamics derivatives (batch)")
def id_derivatives_chunk_entry(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _id_derivatives_chunk_entry(p, i0, i1, i2, o0, o1, lo, hi, n, None)


@lazy_cfunc(CHUNK_SIGNATURE, "inverse dynamics derivatives (batch; helical and ball joints)")
def id_derivatives_chunk_entry_extended(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _id_derivatives_chunk_entry(p, i0, i1, i2, o0, o1, lo, hi, n, extended_set())


ID_DERIVATIVES_CHUNKS = (id_derivatives_chunk_entry, id_derivatives_chunk_entry_extended)


def id_derivatives_many(P, Q, QD, QDD, DQ, DV, nchunks, extended):
    """(∂τ/∂q, ∂τ/∂q̇) over a batch: DQ, DV (N, n, n)."""
    ins, outs = (Q, QD, QDD), (DQ, DV)
    return run_chunks(ID_DERIVATIVES_CHUNKS, P, ins, outs, NO_EXTRA, nchunks, WIDTH, extended)


# --- forward dynamics derivatives --------------------------------------------------------


@njit(inline="always")
def fd_derivatives_chunk(P, Q, QD, TAU, DQ, DV, MINV, lo, hi, extended):
    """:func:`fd_derivatives_into` on lanes ((n, WIDTH) blocks); a block that fails is
    run again state by state, each alone in a block, which reports the failing state.
    Quaternion joints: state by state
    (:func:`.derivative_drivers.tangent_fd_derivatives_into`)."""
    n = int(P[H_NV])
    status = OK
    if extended is not None:
        if int(P[H_NQ]) != n:  # quaternion joints: state by state (the tangent space)
            buffers, more = tangent_buffers(P), fd_buffers(P)
            for s in range(lo, hi):
                st = tangent_fd_derivatives_into(
                    P, Q[s], QD[s], TAU[s], DQ[s], DV[s], MINV[s], buffers, more, extended
                )
                status = max(status, st)
            return status
    ws = np.empty((_rows(P), derivatives.COLS, WIDTH))
    q, qd, tau = np.empty((int(P[H_NQ]), WIDTH)), np.empty((n, WIDTH)), np.empty((n, WIDTH))
    qdd = np.empty((n, WIDTH))
    W, V, L = np.empty((n, n, WIDTH)), np.empty((n, n, WIDTH)), np.empty((n, n, WIDTH))
    dq, dv, Minv = np.empty((n, n, WIDTH)), np.empty((n, n, WIDTH)), np.empty((n, n, WIDTH))
    for s0 in range(lo, hi, WIDTH):
        pack(Q, s0, hi, q)
        pack(QD, s0, hi, qd)
        pack(TAU, s0, hi, tau)
        st = fd_derivatives_into(P, q, qd, tau, ws, qdd, W, V, L, dq, dv, Minv, extended)
        if st == OK:
            unpack_squares(dq, DQ, s0, hi)
            unpack_squares(dv, DV, s0, hi)
            unpack_squares(Minv, MINV, s0, hi)
        else:
            for s in range(s0, min(s0 + WIDTH, hi)):  # each state alone in a block
                pack(Q, s, s + 1, q)
                pack(QD, s, s + 1, qd)
                pack(TAU, s, s + 1, tau)
                st = fd_derivatives_into(P, q, qd, tau, ws, qdd, W, V, L, dq, dv, Minv, extended)
                status = max(status, st)
                unpack_squares(dq, DQ, s, s + 1)
                unpack_squares(dv, DV, s, s + 1)
                unpack_squares(Minv, MINV, s, s + 1)
    return status


@njit(inline="always")
def _fd_derivatives_chunk_entry(p, i0, i1, i2, o0, o1, o2, lo, hi, n, extended):
    Q, QD, TAU = _inputs(p, i0, i1, i2, n)
    DQ, DV, MINV = _squares(p, o0, n), _squares(p, o1, n), _squares(p, o2, n)
    return fd_derivatives_chunk(packed_model(p), Q, QD, TAU, DQ, DV, MINV, lo, hi, extended)


@lazy_cfunc(CHUNK_SIGNATURE, "forward dynamics derivatives (batch)")
def fd_derivatives_chunk_entry(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _fd_derivatives_chunk_entry(p, i0, i1, i2, o0, o1, o2, lo, hi, n, None)


@lazy_cfunc(CHUNK_SIGNATURE, "forward dynamics derivatives (batch; helical and ball joints)")
def fd_derivatives_chunk_entry_extended(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _fd_derivatives_chunk_entry(p, i0, i1, i2, o0, o1, o2, lo, hi, n, extended_set())


FD_DERIVATIVES_CHUNKS = (fd_derivatives_chunk_entry, fd_derivatives_chunk_entry_extended)


def fd_derivatives_many(P, Q, QD, TAU, DQ, DV, MINV, nchunks, extended):
    """(∂q̈/∂q, ∂q̈/∂q̇, M⁻¹) over a batch: DQ, DV, MINV (N, n, n)."""
    ins, outs = (Q, QD, TAU), (DQ, DV, MINV)
    return run_chunks(FD_DERIVATIVES_CHUNKS, P, ins, outs, NO_EXTRA, nchunks, WIDTH, extended)


# --- linearization (:func:`.derivatives.linearization_into`) ------------------------------


@njit(inline="always")
def linearize_chunk(P, Q, QD, QDD, W, V, M, MINV, A, B, lo, hi, extended):
    """The linearization state by state (the tangent space for quaternion joints)."""
    n = int(P[H_NV])
    ws, L = np.empty((_rows(P), derivatives.COLS)), np.empty((n, n))
    status = OK
    if extended is not None:  # (quaternion joints are in the extended set only)
        if int(P[H_NQ]) != n:  # the tangent space
            buffers = tangent_buffers(P)
            for s in range(lo, hi):
                st = tangent_linearization_into(
                    P,
                    Q[s],
                    QD[s],
                    QDD[s],
                    W[s],
                    V[s],
                    M[s],
                    L,
                    MINV[s],
                    A[s],
                    B[s],
                    buffers,
                    extended,
                )
                status = max(status, st)
            return status
    for s in range(lo, hi):
        st = linearization_into(
            P, Q[s], QD[s], QDD[s], ws, W[s], V[s], M[s], L, MINV[s], A[s], B[s], extended
        )
        status = max(status, st)
    return status


@njit(inline="always")
def _linearize_chunk_entry(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, lo, hi, n, extended):
    nv = int(p[H_NV])
    Q, QD, QDD = _inputs(p, i0, i1, i2, n)
    W, V, M, MINV = _squares(p, o0, n), _squares(p, o1, n), _squares(p, o2, n), _squares(p, o3, n)
    A, B = carray(o4, (n, 2 * nv, 2 * nv)), carray(o5, (n, 2 * nv, nv))
    P = packed_model(p)
    return linearize_chunk(P, Q, QD, QDD, W, V, M, MINV, A, B, lo, hi, extended)


@lazy_cfunc(CHUNK_SIGNATURE, "the linearization (batch)")
def linearize_chunk_entry(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _linearize_chunk_entry(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, lo, hi, n, None)


@lazy_cfunc(CHUNK_SIGNATURE, "the linearization (batch; helical and ball joints)")
def linearize_chunk_entry_extended(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    ext = extended_set()
    return _linearize_chunk_entry(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, lo, hi, n, ext)


LINEARIZE_CHUNKS = (linearize_chunk_entry, linearize_chunk_entry_extended)


def linearize_many(P, Q, QD, QDD, W, V, M, MINV, A, B, nchunks, extended):
    """The linearization over a batch: W, V, M, MINV (N, n, n), A (N, 2n, 2n), B (N, 2n,
    n)."""
    ins, outs = (Q, QD, QDD), (W, V, M, MINV, A, B)
    return run_chunks(LINEARIZE_CHUNKS, P, ins, outs, NO_EXTRA, nchunks, 1, extended)
