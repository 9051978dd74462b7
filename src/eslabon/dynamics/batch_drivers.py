"""Batches of Newton–Euler, the mass matrix, the articulated-body algorithm, the forward
dynamics by Cholesky, the Coriolis matrix and the energies: (N, n) states.

Each quantity has a *chunk* (``*_chunk``: states ``lo … hi−1`` with one workspace; on
lanes, :data:`~eslabon._engine.lanes.WIDTH` states per instruction, for Newton–Euler,
ABA, the composite-body M, the Coriolis matrix and the energies; one state at a time for
the Newton–Euler columns of M and the Cholesky forward dynamics), compiled inside a pair
of C entries (``*_chunk_entry`` and its twin for the extended joint set, of
:data:`~eslabon._engine.batch.CHUNK_SIGNATURE`), and a batch function ``*_many`` that
runs the entry over the batch on every thread (:func:`eslabon._engine.batch.run_chunks`).
A chunk is inlined into its entries only, so its machine code is built there and nowhere
else. A block of lanes that fails is run again state by state, each alone in a block of its
copies (a lane's result is the one-state kernel's, bit for bit), which reports the failing
state without linking the one-state kernel into the entry. Every ``*_many`` returns the
worst status of its states (:mod:`eslabon._engine.status`); ``nchunks`` comes from
:func:`eslabon._engine.batch.chunk_count`.
"""

from __future__ import annotations

import numpy as np
from numba import carray, njit

from .._engine.batch import CHUNK_SIGNATURE, NO_EXTRA, run_batch, run_chunks
from .._engine.compile import batch_kernel, lazy_cfunc, subject
from .._engine.fastcall import packed_model
from .._engine.joints import extended_set
from .._engine.lanes import WIDTH, pack, unpack, unpack_squares
from .._engine.layout import H_NQ, H_NV
from .._engine.outward_pass import WS_COLS
from .._engine.status import NON_FINITE, OK
from . import aba, composite_rigid_body, coriolis
from .aba import aba_into
from .cholesky_forward_dynamics import fd_into
from .codes import COMPOSITE, MODE_GRAVITY, MODE_ID, NE_COLUMNS
from .composite_rigid_body import crba_into, ne_columns_into
from .coriolis import coriolis_into
from .drivers import _rows
from .energy import energy_into
from .rnea import rnea_into


@njit(inline="always")
def _vectors(p, ptr, n):
    """The (n, nv) states behind ``ptr``."""
    return carray(ptr, (n, int(p[H_NV])))


@njit(inline="always")
def _configurations(p, ptr, n):
    """The (n, nq) configurations behind ``ptr``."""
    return carray(ptr, (n, int(p[H_NQ])))


@njit(inline="always")
def _squares(p, ptr, n):
    """The (n, nv, nv) matrices behind ``ptr``."""
    nv = int(p[H_NV])
    return carray(ptr, (n, nv, nv))


# --- Newton–Euler: τ, bias, gravity (:mod:`.rnea`) ---------------------------------------


@njit(inline="always")
def rnea_chunk(P, Q, QD, QDD, gscale, fext, mode, TAU, lo, hi, extended):
    """Newton–Euler on lanes: :data:`WIDTH` states per instruction, the same
    :func:`rnea_into` compiled for (n, WIDTH) blocks; ``mode`` MODE_ID, MODE_BIAS or
    MODE_GRAVITY says which of QD, QDD are read."""
    nq = int(P[H_NV])
    ws = np.empty((_rows(P), WS_COLS, WIDTH))
    q = np.empty((int(P[H_NQ]), WIDTH))
    qd = np.zeros((nq, WIDTH))  # stay zero unless packed (bias, gravity)
    qdd = np.zeros((nq, WIDTH))
    tau = np.empty((nq, WIDTH))
    status = OK
    for s0 in range(lo, hi, WIDTH):
        pack(Q, s0, hi, q)
        if mode != MODE_GRAVITY:
            pack(QD, s0, hi, qd)
        if mode == MODE_ID:
            pack(QDD, s0, hi, qdd)
        if rnea_into(P, q, qd, qdd, gscale, fext, ws, tau, extended) != OK:
            status = NON_FINITE
        unpack(tau, TAU, s0, hi)
    return status


@njit(inline="always")
def _rnea_chunk_entry(p, i0, i1, i2, o0, x, lo, hi, n, extended):
    """``x`` = (gscale, mode)."""
    Q, QD, QDD = _configurations(p, i0, n), _vectors(p, i1, n), _vectors(p, i2, n)
    TAU = _vectors(p, o0, n)
    return rnea_chunk(packed_model(p), Q, QD, QDD, x[0], None, int(x[1]), TAU, lo, hi, extended)


@lazy_cfunc(CHUNK_SIGNATURE, "Newton–Euler dynamics (batch)")
def rnea_chunk_entry(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _rnea_chunk_entry(p, i0, i1, i2, o0, x, lo, hi, n, None)


@lazy_cfunc(CHUNK_SIGNATURE, "Newton–Euler dynamics (batch; helical and ball joints)")
def rnea_chunk_entry_extended(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _rnea_chunk_entry(p, i0, i1, i2, o0, x, lo, hi, n, extended_set())


@njit(cache=True)
def rnea_wrench_chunk(P, ins, outs, extra, lo, hi):
    """:func:`rnea_chunk` with the external wrenches ``fext`` of a tip wrench."""
    Q, QD, QDD = ins
    (TAU,) = outs
    gscale, fext, mode, extended = extra
    return rnea_chunk(P, Q, QD, QDD, gscale, fext, mode, TAU, lo, hi, extended)


@batch_kernel
def rnea_wrench_many(P, Q, QD, QDD, gscale, fext, mode, TAU, nchunks, extended):
    """Newton–Euler over a batch with the wrenches ``fext`` (:func:`rnea_many`)."""
    extra = (gscale, fext, mode, extended)
    return run_batch(rnea_wrench_chunk, P, (Q, QD, QDD), (TAU,), extra, nchunks, WIDTH)


RNEA_CHUNKS = (rnea_chunk_entry, rnea_chunk_entry_extended)


def rnea_many(P, Q, QD, QDD, gscale, fext, mode, TAU, nchunks, extended):
    """Newton–Euler over a batch; ``mode`` MODE_ID, MODE_BIAS or MODE_GRAVITY says which
    of QD, QDD are read (the others may be any (N, n) array); ``fext`` None, or the
    wrenches of a tip wrench (:func:`rnea_wrench_many`)."""
    if fext is not None:
        return rnea_wrench_many(P, Q, QD, QDD, gscale, fext, mode, TAU, nchunks, extended)
    if gscale == 1.0:
        extra = _RNEA_EXTRA[mode]
    else:
        extra = np.array([gscale, mode], dtype=np.float64)
    return run_chunks(RNEA_CHUNKS, P, (Q, QD, QDD), (TAU,), extra, nchunks, WIDTH, extended)


# (gscale, mode) of the batches the public functions run (an array made per call costs
# 0.4 µs, a tenth of a 10-state batch)
_RNEA_EXTRA = [np.array([1.0, mode], dtype=np.float64) for mode in range(3)]


# --- mass matrix: composite body and Newton–Euler columns (:mod:`.composite_rigid_body`) ----------


@njit(inline="always")
def crba_chunk(P, Q, H, lo, hi, extended):
    """The composite-body M on lanes (:func:`crba_into` compiled for (n, WIDTH) blocks)."""
    n = int(P[H_NV])
    cw = np.empty((_rows(P), composite_rigid_body.COLS, WIDTH))
    q = np.empty((int(P[H_NQ]), WIDTH))
    h = np.empty((n, n, WIDTH))
    status = OK
    for s0 in range(lo, hi, WIDTH):
        pack(Q, s0, hi, q)
        if crba_into(P, q, cw, h, extended) == OK:
            unpack_squares(h, H, s0, hi)
        else:
            for s in range(s0, min(s0 + WIDTH, hi)):  # each state alone in a block
                pack(Q, s, s + 1, q)
                status = max(status, crba_into(P, q, cw, h, extended))
                unpack_squares(h, H, s, s + 1)
    return status


@njit(inline="always")
def _crba_chunk_entry(p, i0, o0, lo, hi, n, extended):
    P = packed_model(p)
    return crba_chunk(P, _configurations(p, i0, n), _squares(p, o0, n), lo, hi, extended)


@lazy_cfunc(CHUNK_SIGNATURE, "the mass matrix (batch)")
def crba_chunk_entry(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _crba_chunk_entry(p, i0, o0, lo, hi, n, None)


@lazy_cfunc(CHUNK_SIGNATURE, "the mass matrix (batch; helical and ball joints)")
def crba_chunk_entry_extended(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _crba_chunk_entry(p, i0, o0, lo, hi, n, extended_set())


CRBA_CHUNKS = (crba_chunk_entry, crba_chunk_entry_extended)


def crba_many(P, Q, H, nchunks, extended):
    """The composite-body M over a batch: H (N, n, n)."""
    return run_chunks(CRBA_CHUNKS, P, (Q,), (H,), NO_EXTRA, nchunks, WIDTH, extended)


@njit(inline="always")
def ne_columns_chunk(P, Q, H, lo, hi, extended):
    """M by n Newton–Euler columns, state by state."""
    nq = int(P[H_NV])
    ws = np.empty((_rows(P), WS_COLS))
    zero = np.zeros(nq)
    unit = np.zeros(nq)
    col = np.empty(nq)
    status = OK
    for s in range(lo, hi):
        status = max(status, ne_columns_into(P, Q[s], ws, zero, unit, col, H[s], extended))
    return status


@njit(inline="always")
def _ne_columns_chunk_entry(p, i0, o0, lo, hi, n, extended):
    P = packed_model(p)
    return ne_columns_chunk(P, _configurations(p, i0, n), _squares(p, o0, n), lo, hi, extended)


@lazy_cfunc(CHUNK_SIGNATURE, "the mass matrix (Newton–Euler columns, batch)")
def ne_columns_chunk_entry(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _ne_columns_chunk_entry(p, i0, o0, lo, hi, n, None)


@lazy_cfunc(
    CHUNK_SIGNATURE, "the mass matrix (Newton–Euler columns, batch; helical and ball joints)"
)
def ne_columns_chunk_entry_extended(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _ne_columns_chunk_entry(p, i0, o0, lo, hi, n, extended_set())


NE_COLUMNS_CHUNKS = (ne_columns_chunk_entry, ne_columns_chunk_entry_extended)


def ne_columns_many(P, Q, H, nchunks, extended):
    """M by Newton–Euler columns over a batch: H (N, n, n)."""
    return run_chunks(NE_COLUMNS_CHUNKS, P, (Q,), (H,), NO_EXTRA, nchunks, 1, extended)


# --- forward dynamics: articulated body (:mod:`.aba`), mass matrix and Cholesky ----------


@njit(inline="always")
def aba_chunk(P, Q, QD, TAU, QDD, lo, hi, extended):
    """ABA on lanes (:func:`aba_into` compiled for (n, WIDTH) blocks). A block that fails
    is run again one state at a time, so the status is each state's own (a block stops at
    its first failing joint, which may not be every state's)."""
    nq = int(P[H_NV])
    ws = np.empty((_rows(P), aba.COLS, WIDTH))
    q = np.empty((int(P[H_NQ]), WIDTH))
    qd = np.empty((nq, WIDTH))
    tau = np.empty((nq, WIDTH))
    qdd = np.empty((nq, WIDTH))
    status = OK
    for s0 in range(lo, hi, WIDTH):
        pack(Q, s0, hi, q)
        pack(QD, s0, hi, qd)
        pack(TAU, s0, hi, tau)
        if aba_into(P, q, qd, tau, ws, qdd, extended) == OK:
            unpack(qdd, QDD, s0, hi)
        else:
            for s in range(s0, min(s0 + WIDTH, hi)):  # each state alone in a block
                pack(Q, s, s + 1, q)
                pack(QD, s, s + 1, qd)
                pack(TAU, s, s + 1, tau)
                status = max(status, aba_into(P, q, qd, tau, ws, qdd, extended))
                unpack(qdd, QDD, s, s + 1)
    return status


@njit(inline="always")
def _aba_chunk_entry(p, i0, i1, i2, o0, lo, hi, n, extended):
    Q, QD, TAU = _configurations(p, i0, n), _vectors(p, i1, n), _vectors(p, i2, n)
    return aba_chunk(packed_model(p), Q, QD, TAU, _vectors(p, o0, n), lo, hi, extended)


@lazy_cfunc(CHUNK_SIGNATURE, "forward dynamics (batch)")
def aba_chunk_entry(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _aba_chunk_entry(p, i0, i1, i2, o0, lo, hi, n, None)


@lazy_cfunc(CHUNK_SIGNATURE, "forward dynamics (batch; helical and ball joints)")
def aba_chunk_entry_extended(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _aba_chunk_entry(p, i0, i1, i2, o0, lo, hi, n, extended_set())


ABA_CHUNKS = (aba_chunk_entry, aba_chunk_entry_extended)


def aba_many(P, Q, QD, TAU, QDD, nchunks, extended):
    """ABA over a batch: QDD (N, n)."""
    return run_chunks(ABA_CHUNKS, P, (Q, QD, TAU), (QDD,), NO_EXTRA, nchunks, WIDTH, extended)


@njit(inline="always")
def fd_chunk(P, Q, QD, TAU, method, OUT, lo, hi, extended):
    """q̈ by M (composite body or Newton–Euler columns, ``method``) and Cholesky, state by
    state (:func:`.cholesky_forward_dynamics.fd_into`)."""
    nq = int(P[H_NV])
    ws = np.empty((_rows(P), WS_COLS))
    cw = np.empty((_rows(P), composite_rigid_body.COLS))
    H = np.empty((nq, nq))
    zero = np.zeros(nq)
    unit = np.zeros(nq)
    col = np.empty(nq)
    status = OK
    for s in range(lo, hi):
        q, qd, tau = Q[s], QD[s], TAU[s]
        st = fd_into(P, q, qd, tau, method, ws, cw, H, zero, unit, col, OUT[s], extended)
        status = max(status, st)
    return status


@njit(inline="always")
def _fd_chunk_entry(p, i0, i1, i2, o0, x, lo, hi, n, extended):
    """``x`` = (method,)."""
    Q, QD, TAU = _configurations(p, i0, n), _vectors(p, i1, n), _vectors(p, i2, n)
    P = packed_model(p)
    return fd_chunk(P, Q, QD, TAU, int(x[0]), _vectors(p, o0, n), lo, hi, extended)


@lazy_cfunc(CHUNK_SIGNATURE, "forward dynamics (mass matrix and Cholesky, batch)")
def fd_chunk_entry(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _fd_chunk_entry(p, i0, i1, i2, o0, x, lo, hi, n, None)


@lazy_cfunc(
    CHUNK_SIGNATURE,
    "forward dynamics (mass matrix and Cholesky, batch; helical and ball joints)",
)
def fd_chunk_entry_extended(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _fd_chunk_entry(p, i0, i1, i2, o0, x, lo, hi, n, extended_set())


FD_CHUNKS = (fd_chunk_entry, fd_chunk_entry_extended)


def fd_many(P, Q, QD, TAU, method, OUT, nchunks, extended):
    """q̈ by M and Cholesky over a batch (``method``: :data:`.codes.COMPOSITE` or
    :data:`.codes.NE_COLUMNS`): OUT (N, n)."""
    extra = _FD_EXTRA.get(method)
    if extra is None:
        extra = np.array([method], dtype=np.float64)
    return run_chunks(FD_CHUNKS, P, (Q, QD, TAU), (OUT,), extra, nchunks, 1, extended)


_FD_EXTRA = {m: np.array([m], dtype=np.float64) for m in (COMPOSITE, NE_COLUMNS)}


# --- Coriolis matrix and energies (:mod:`.coriolis`, :mod:`.energy`) ----------------------


@njit(inline="always")
def _q_qd_blocks(kernel, unpack_block, P, Q, QD, OUT, ws, out, lo, hi, extended):
    """``kernel(P, q, q̇, ws, out, extended)`` on lanes blocks of states lo … hi−1 of
    (Q, Q̇), each block's ``out`` written to ``OUT`` by ``unpack_block``; a block that
    fails is run again state by state, each alone in a block, which reports the failing
    state."""
    q = np.empty((int(P[H_NQ]), WIDTH))
    qd = np.empty((int(P[H_NV]), WIDTH))
    status = OK
    for s0 in range(lo, hi, WIDTH):
        pack(Q, s0, hi, q)
        pack(QD, s0, hi, qd)
        if kernel(P, q, qd, ws, out, extended) == OK:
            unpack_block(out, OUT, s0, hi)
        else:
            for s in range(s0, min(s0 + WIDTH, hi)):
                pack(Q, s, s + 1, q)
                pack(QD, s, s + 1, qd)
                status = max(status, kernel(P, q, qd, ws, out, extended))
                unpack_block(out, OUT, s, s + 1)
    return status


@njit(inline="always")
def coriolis_chunk(P, Q, QD, C, lo, hi, extended):
    """The Coriolis matrix on lanes (:func:`coriolis_into` compiled for (n, WIDTH)
    blocks)."""
    n = int(P[H_NV])
    ws = np.empty((_rows(P), coriolis.COLS, WIDTH))
    c = np.empty((n, n, WIDTH))
    return _q_qd_blocks(coriolis_into, unpack_squares, P, Q, QD, C, ws, c, lo, hi, extended)


@njit(inline="always")
def _coriolis_chunk_entry(p, i0, i1, o0, lo, hi, n, extended):
    Q, QD, C = _configurations(p, i0, n), _vectors(p, i1, n), _squares(p, o0, n)
    return coriolis_chunk(packed_model(p), Q, QD, C, lo, hi, extended)


@lazy_cfunc(CHUNK_SIGNATURE, "the Coriolis matrix (batch)")
def coriolis_chunk_entry(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _coriolis_chunk_entry(p, i0, i1, o0, lo, hi, n, None)


@lazy_cfunc(CHUNK_SIGNATURE, "the Coriolis matrix (batch; helical and ball joints)")
def coriolis_chunk_entry_extended(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _coriolis_chunk_entry(p, i0, i1, o0, lo, hi, n, extended_set())


CORIOLIS_CHUNKS = (coriolis_chunk_entry, coriolis_chunk_entry_extended)


def coriolis_many(P, Q, QD, C, nchunks, extended):
    """The Coriolis matrix over a batch: C (N, n, n)."""
    return run_chunks(CORIOLIS_CHUNKS, P, (Q, QD), (C,), NO_EXTRA, nchunks, WIDTH, extended)


@njit(inline="always")
def energy_chunk(P, Q, QD, OUT, lo, hi, extended):
    """The energies on lanes (:func:`energy_into` compiled for (n, WIDTH) blocks, (T, V)
    into a (2, WIDTH) block)."""
    ws = np.empty((_rows(P), WS_COLS, WIDTH))
    out = np.empty((2, WIDTH))
    return _q_qd_blocks(energy_into, unpack, P, Q, QD, OUT, ws, out, lo, hi, extended)


@njit(inline="always")
def _energy_chunk_entry(p, i0, i1, o0, lo, hi, n, extended):
    Q, QD, OUT = _configurations(p, i0, n), _vectors(p, i1, n), carray(o0, (n, 2))
    return energy_chunk(packed_model(p), Q, QD, OUT, lo, hi, extended)


@lazy_cfunc(CHUNK_SIGNATURE, "energies (batch)")
def energy_chunk_entry(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _energy_chunk_entry(p, i0, i1, o0, lo, hi, n, None)


@lazy_cfunc(CHUNK_SIGNATURE, "energies (batch; helical and ball joints)")
def energy_chunk_entry_extended(p, i0, i1, i2, o0, o1, o2, o3, o4, o5, x, lo, hi, n):
    return _energy_chunk_entry(p, i0, i1, o0, lo, hi, n, extended_set())


ENERGY_CHUNKS = (energy_chunk_entry, energy_chunk_entry_extended)


def energy_many(P, Q, QD, OUT, nchunks, extended):
    """(T, V) over a batch: OUT (N, 2)."""
    return run_chunks(ENERGY_CHUNKS, P, (Q, QD), (OUT,), NO_EXTRA, nchunks, WIDTH, extended)


subject("Newton–Euler dynamics (batch, tip wrench)", rnea_wrench_many, rnea_wrench_chunk)
