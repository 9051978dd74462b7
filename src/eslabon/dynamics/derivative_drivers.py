"""Drivers of the analytic derivatives and the linearization (:mod:`.derivatives`): the
per-call entries (C-level, :mod:`eslabon._engine.fastcall`), one-state calls and batch
chunks (four states in lock step, :mod:`eslabon._engine.lanes`), as
:mod:`eslabon.dynamics.drivers` does for Newton–Euler, the mass matrix and the
articulated-body algorithm; its shape checks are shared."""

from __future__ import annotations

import numpy as np
from numba import carray, njit

from .._engine.batch import run_batch
from .._engine.compile import batch_kernel, lazy_cfunc, subject
from .._engine.fastcall import SIGNATURE, WIDE_SIGNATURE, entry_status, packed_model, squares
from .._engine.joints import EXTENDED
from .._engine.lanes import WIDTH, pack, unpack_squares
from .._engine.layout import H_NQ, H_NV
from .._engine.status import NOT_UNIT, OK, WRONG_SHAPE
from . import derivatives
from .derivatives import fd_derivatives_into, linearization_into, rnea_derivatives_into
from .drivers import _lengths_ok, _rows, _square_ok

# the workspace columns of the C entries' scratch, and its (n, n) blocks after the
# workspace and the (n,) vector (eslabon._engine.fastcall.squares)
SCRATCH_COLS = {"fd_derivatives_entry": derivatives.COLS, "linearize_entry": derivatives.COLS}
SCRATCH_SQUARES = {"fd_derivatives_entry": 3, "linearize_entry": 1}


# --- analytic derivatives (:mod:`.derivatives`) -------------------------------------------


@njit(cache=True)
def id_derivatives_call(P, q, qd, qdd, dq, dv, extended):
    nq = int(P[H_NV])
    if not (_lengths_ok(P, q, qd, qdd, dq) and _square_ok(P, dq) and _square_ok(P, dv)):
        return WRONG_SHAPE
    if int(P[H_NQ]) != int(P[H_NV]):  # not for quaternion joints yet: the general path says
        return NOT_UNIT
    ws, M = np.empty((_rows(P), derivatives.COLS)), np.empty((nq, nq))
    return rnea_derivatives_into(P, q, qd, qdd, ws, dq, dv, M, extended)


@njit(cache=True, inline="always")
def _id_derivatives_entry(p, a, b, c, o0, o1, extended):
    """(q, q̇, q̈) -> (∂τ/∂q, ∂τ/∂q̇)."""
    n = int(p[H_NV])
    q = carray(a, int(p[H_NQ]))
    qd, qdd, dq, dv = carray(b, n), carray(c, n), carray(o0, (n, n)), carray(o1, (n, n))
    return entry_status(id_derivatives_call(packed_model(p), q, qd, qdd, dq, dv, extended))


@lazy_cfunc(SIGNATURE, "inverse dynamics derivatives")
def id_derivatives_entry(p, a, b, c, o0, o1, o2):
    return _id_derivatives_entry(p, a, b, c, o0, o1, None)


@lazy_cfunc(SIGNATURE, "inverse dynamics derivatives (helical and ball joints)")
def id_derivatives_entry_extended(p, a, b, c, o0, o1, o2):
    return _id_derivatives_entry(p, a, b, c, o0, o1, EXTENDED)


@njit(cache=True)
def id_derivatives_chunk(P, ins, outs, extra, lo, hi):
    """:func:`rnea_derivatives_into` on lanes ((n, WIDTH) blocks); a block that fails is
    run again state by state, which reports the failing state."""
    Q, QD, QDD = ins
    DQ, DV = outs
    (extended,) = extra
    n = int(P[H_NV])
    ws = np.empty((_rows(P), derivatives.COLS, WIDTH))
    ws1, M1 = np.empty((_rows(P), derivatives.COLS)), np.empty((n, n))
    q, qd, qdd = np.empty((int(P[H_NQ]), WIDTH)), np.empty((n, WIDTH)), np.empty((n, WIDTH))
    dq, dv, M = np.empty((n, n, WIDTH)), np.empty((n, n, WIDTH)), np.empty((n, n, WIDTH))
    status = OK
    for s0 in range(lo, hi, WIDTH):
        pack(Q, s0, hi, q)
        pack(QD, s0, hi, qd)
        pack(QDD, s0, hi, qdd)
        if rnea_derivatives_into(P, q, qd, qdd, ws, dq, dv, M, extended) == OK:
            unpack_squares(dq, DQ, s0, hi)
            unpack_squares(dv, DV, s0, hi)
        else:
            for s in range(s0, min(s0 + WIDTH, hi)):
                st = rnea_derivatives_into(P, Q[s], QD[s], QDD[s], ws1, DQ[s], DV[s], M1, extended)
                status = max(status, st)
    return status


@batch_kernel
def id_derivatives_many(P, Q, QD, QDD, DQ, DV, nchunks, extended):
    return run_batch(id_derivatives_chunk, P, (Q, QD, QDD), (DQ, DV), (extended,), nchunks, WIDTH)


@njit(cache=True, inline="always")
def _fd_derivatives_checked(P, q, qd, tau, dq, dv, Minv, ws, qdd, W, V, L, extended):
    if not (
        _lengths_ok(P, q, qd, tau, dq)
        and _square_ok(P, dq)
        and _square_ok(P, dv)
        and _square_ok(P, Minv)
    ):
        return WRONG_SHAPE
    if int(P[H_NQ]) != int(P[H_NV]):  # not for quaternion joints yet: the general path says
        return NOT_UNIT
    return fd_derivatives_into(P, q, qd, tau, ws, qdd, W, V, L, dq, dv, Minv, extended)


@njit(cache=True)
def fd_derivatives_call(P, q, qd, tau, dq, dv, Minv, extended):
    n = int(P[H_NV])
    ws, qdd = np.empty((_rows(P), derivatives.COLS)), np.empty(n)
    W, V, L = np.empty((n, n)), np.empty((n, n)), np.empty((n, n))
    return _fd_derivatives_checked(P, q, qd, tau, dq, dv, Minv, ws, qdd, W, V, L, extended)


@njit(cache=True, inline="always")
def _fd_derivatives_entry(p, a, b, c, o0, o1, o2, w, extended):
    """(q, q̇, τ) -> (∂q̈/∂q, ∂q̈/∂q̇, M⁻¹); ``w`` the scratch (three (n, n) blocks)."""
    n = int(p[H_NV])
    q = carray(a, int(p[H_NQ]))
    qd, tau = carray(b, n), carray(c, n)
    dq, dv, Minv = carray(o0, (n, n)), carray(o1, (n, n)), carray(o2, (n, n))
    ws, qdd, blocks = squares(w, p, derivatives.COLS, 3)
    return entry_status(
        _fd_derivatives_checked(
            packed_model(p),
            q,
            qd,
            tau,
            dq,
            dv,
            Minv,
            ws,
            qdd,
            blocks[0],
            blocks[1],
            blocks[2],
            extended,
        )
    )


@lazy_cfunc(WIDE_SIGNATURE, "forward dynamics derivatives")
def fd_derivatives_entry(p, a, b, c, o0, o1, o2, o3, o4, o5, w):
    return _fd_derivatives_entry(p, a, b, c, o0, o1, o2, w, None)


@lazy_cfunc(WIDE_SIGNATURE, "forward dynamics derivatives (helical and ball joints)")
def fd_derivatives_entry_extended(p, a, b, c, o0, o1, o2, o3, o4, o5, w):
    return _fd_derivatives_entry(p, a, b, c, o0, o1, o2, w, EXTENDED)


@njit(cache=True)
def fd_derivatives_chunk(P, ins, outs, extra, lo, hi):
    """:func:`fd_derivatives_into` on lanes ((n, WIDTH) blocks); a block that fails is
    run again state by state, which reports the failing state."""
    Q, QD, TAU = ins
    DQ, DV, MINV = outs
    (extended,) = extra
    n = int(P[H_NV])
    ws = np.empty((_rows(P), derivatives.COLS, WIDTH))
    q, qd, tau = np.empty((int(P[H_NQ]), WIDTH)), np.empty((n, WIDTH)), np.empty((n, WIDTH))
    qdd = np.empty((n, WIDTH))
    W, V, L = np.empty((n, n, WIDTH)), np.empty((n, n, WIDTH)), np.empty((n, n, WIDTH))
    dq, dv, Minv = np.empty((n, n, WIDTH)), np.empty((n, n, WIDTH)), np.empty((n, n, WIDTH))
    ws1, qdd1 = np.empty((_rows(P), derivatives.COLS)), np.empty(n)
    W1, V1, L1 = np.empty((n, n)), np.empty((n, n)), np.empty((n, n))
    status = OK
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
            for s in range(s0, min(s0 + WIDTH, hi)):
                st = fd_derivatives_into(
                    P,
                    Q[s],
                    QD[s],
                    TAU[s],
                    ws1,
                    qdd1,
                    W1,
                    V1,
                    L1,
                    DQ[s],
                    DV[s],
                    MINV[s],
                    extended,
                )
                status = max(status, st)
    return status


@batch_kernel
def fd_derivatives_many(P, Q, QD, TAU, DQ, DV, MINV, nchunks, extended):
    outs = (DQ, DV, MINV)
    return run_batch(fd_derivatives_chunk, P, (Q, QD, TAU), outs, (extended,), nchunks, WIDTH)


# --- linearization (:func:`.derivatives.linearization_into`) ------------------------------


@njit(cache=True)
def linearize_one(P, q, qd, qdd, W, V, M, Minv, A, B, extended):
    ws, L = np.empty((_rows(P), derivatives.COLS)), np.empty((int(P[H_NV]), int(P[H_NV])))
    return linearization_into(P, q, qd, qdd, ws, W, V, M, L, Minv, A, B, extended)


@njit(cache=True, inline="always")
def _linearize_entry(p, a, b, c, o0, o1, o2, o3, o4, o5, w, extended):
    """(q, q̇, q̈) -> (U, V, W, A, B, M⁻¹), the fields of
    :class:`eslabon.control.Linearization`; ``w`` the scratch (one (n, n) block)."""
    n = int(p[H_NV])
    P = packed_model(p)
    if int(p[H_NQ]) != n:  # quaternion joints: the general path (tangent space)
        return NOT_UNIT
    q = carray(a, n)
    qd, qdd = carray(b, n), carray(c, n)
    U, V, W = carray(o0, (n, n)), carray(o1, (n, n)), carray(o2, (n, n))
    A, B, Minv = carray(o3, (2 * n, 2 * n)), carray(o4, (2 * n, n)), carray(o5, (n, n))
    ws, _, blocks = squares(w, p, derivatives.COLS, 1)
    return entry_status(
        linearization_into(P, q, qd, qdd, ws, W, V, U, blocks[0], Minv, A, B, extended)
    )


@lazy_cfunc(WIDE_SIGNATURE, "linearization")
def linearize_entry(p, a, b, c, o0, o1, o2, o3, o4, o5, w):
    return _linearize_entry(p, a, b, c, o0, o1, o2, o3, o4, o5, w, None)


@lazy_cfunc(WIDE_SIGNATURE, "linearization (helical and ball joints)")
def linearize_entry_extended(p, a, b, c, o0, o1, o2, o3, o4, o5, w):
    return _linearize_entry(p, a, b, c, o0, o1, o2, o3, o4, o5, w, EXTENDED)


@njit(cache=True)
def linearize_chunk(P, ins, outs, extra, lo, hi):
    Q, QD, QDD = ins
    W, V, M, MINV, A, B = outs
    (extended,) = extra
    n = int(P[H_NV])
    ws, L = np.empty((_rows(P), derivatives.COLS)), np.empty((n, n))
    status = OK
    for s in range(lo, hi):
        st = linearization_into(
            P, Q[s], QD[s], QDD[s], ws, W[s], V[s], M[s], L, MINV[s], A[s], B[s], extended
        )
        status = max(status, st)
    return status


@batch_kernel
def linearize_many(P, Q, QD, QDD, W, V, M, MINV, A, B, nchunks, extended):
    outs = (W, V, M, MINV, A, B)
    return run_batch(linearize_chunk, P, (Q, QD, QDD), outs, (extended,), nchunks, 1)


subject("inverse dynamics derivatives", id_derivatives_call)
subject("inverse dynamics derivatives (batch)", id_derivatives_many, id_derivatives_chunk)
subject("forward dynamics derivatives", fd_derivatives_call)
subject("forward dynamics derivatives (batch)", fd_derivatives_many, fd_derivatives_chunk)
subject("the linearization", linearize_one, linearize_many, linearize_chunk)
