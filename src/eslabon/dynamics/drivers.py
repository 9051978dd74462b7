"""How each compiled dynamics algorithm is called: one state, one lean call, a batch.

The algorithm modules (:mod:`.rnea`, :mod:`.walker_orin`, :mod:`.aba`, :mod:`.cholesky_fd`,
:mod:`.derivatives`, :mod:`.coriolis`, :mod:`.energy`) hold only their kernels
(``*_into``: one state, or one block of lanes, into workspaces and outputs given by the
caller) under their source equations. Every way of driving them lives here (those of
the derivatives and the linearization in :mod:`.derivative_drivers`, built the same way):

- ``*_one`` — one state from the general path (Python): allocates the workspace;
- ``*_call`` — one state with its lengths checked: allocates, runs the kernel; its C
  entry point ``*_entry`` (:mod:`eslabon._engine.fastcall`: one C signature, a wide one
  for three or more outputs) runs it, inlined where the entry is its only caller;
- ``*_chunk`` and ``*_many`` — a batch (N, n): the chunk runs states ``lo … hi−1`` with
  one workspace (lanes for Newton–Euler, ABA, the composite-body M, the derivatives, the
  Coriolis matrix and the energies:
  :data:`~eslabon._engine.lanes.WIDTH` states per instruction), and ``*_many`` is the one
  batch driver
  (:func:`eslabon._engine.batch.run_batch`) around it. ``nchunks`` comes from
  :func:`eslabon._engine.batch.chunk_count`.

Every driver takes the joint set ``extended`` last (None or
:data:`~eslabon._engine.joints.EXTENDED`: :func:`~eslabon._engine.joints.extended_of`
the model); each C entry has a twin ``*_entry_extended`` for models that need the
extended set, and the C side calls the one the packed header asks for.

Every function returns a status of :mod:`eslabon._engine.status` (a batch: the worst of
its states). Shapes: q, q̇, q̈, τ (n,) or (N, n); matrices (n, n) or (N, n, n); P the
packed model (:mod:`eslabon._engine.layout`).
"""

from __future__ import annotations

import math
import sys

import numpy as np
from numba import carray, njit

from .._engine.batch import run_batch
from .._engine.compile import batch_kernel, lazy_cfunc, subject
from .._engine.fastcall import SIGNATURE, entry_status, packed_model, scratch
from .._engine.joints import EXTENDED
from .._engine.lanes import WIDTH, pack, unpack, unpack_squares
from .._engine.layout import BY_POSE, CFG, H_NB, H_NQ, H_NV, HEADER, PLACE, STRIDE
from .._engine.status import NON_FINITE, NOT_UNIT, OK, WRONG_SHAPE
from ..kinematics.recursion import WS_COLS
from . import aba, coriolis, walker_orin
from .aba import aba_into
from .cholesky_fd import COMPOSITE, NE_COLUMNS, fd_into  # noqa: F401 (api's method codes)
from .coriolis import coriolis_into
from .energy import energy_into
from .rnea import rnea_into
from .walker_orin import crba_into, ne_columns_into

# What a Newton–Euler call computes: τ = NE(q, q̇, q̈), the bias NE(q, q̇, 0) or g = NE(q, 0, 0).
MODE_ID, MODE_BIAS, MODE_GRAVITY = 0, 1, 2
_LARGEST = sys.float_info.max  # |x| ≤ this: False for NaN and ±inf


@njit(cache=True, inline="always")
def _rows(P):
    return int(P[H_NB]) + 1


@njit(cache=True, inline="always")
def _lengths_ok(P, q, b, c, d):
    """q has nq entries; b, c, d nv."""
    n = int(P[H_NV])
    return q.shape[0] == int(P[H_NQ]) and b.shape[0] == n and c.shape[0] == n and d.shape[0] == n


@njit(cache=True, inline="always")
def _units_ok(P, q, extended):
    """Every quaternion of q of unit length within 1e-6 (|‖x‖ − 1| ≤ 1e-6, computed as
    the general path's check computes it, so that both accept the same states): the lean
    calls' check; the general path names the joint (model.configuration)."""
    if extended is None or int(P[H_NQ]) == int(P[H_NV]):
        return True
    for i in range(1, int(P[H_NB]) + 1):
        o = HEADER + i * STRIDE
        if P[o + PLACE] != 0.0:
            c = int(P[o + CFG]) + (3 if P[o + PLACE] == BY_POSE else 0)
            x = q[c] * q[c] + q[c + 1] * q[c + 1] + q[c + 2] * q[c + 2] + q[c + 3] * q[c + 3]
            if not abs(math.sqrt(x) - 1.0) <= 1e-6:
                return False
    return True


@njit(cache=True, inline="always")
def _finite(x):
    """Every value of the 1-D ``x`` finite: compares, which the compiler vectorises (a
    running sum is one chain of additions: 78 ns for the 36 coordinates of the G1
    humanoid, against 19 ns)."""
    ok = True
    for a in range(x.shape[0]):
        ok &= abs(x[a]) <= _LARGEST
    return ok


@njit(cache=True, inline="always")
def _square_ok(P, A):
    n = int(P[H_NV])
    return A.shape[0] == n and A.shape[1] == n


# --- Newton–Euler: τ, bias, gravity (:mod:`.rnea`) ---------------------------------------


@njit(cache=True)
def rnea_one(P, q, qd, qdd, gscale, fext, tau, extended):
    return rnea_into(P, q, qd, qdd, gscale, fext, np.empty((_rows(P), WS_COLS)), tau, extended)


@njit(cache=True)
def rnea_trace_one(P, q, qd, qdd, gscale, fext, tau, ws, extended):
    """As :func:`rnea_one`, keeping every intermediate quantity in ``ws``."""
    return rnea_into(P, q, qd, qdd, gscale, fext, ws, tau, extended, True)


# The C entries below take their workspace (and a zero vector) from the scratch buffer
# the C side passes after their outputs (fastcall.scratch; SCRATCH_COLS): a call
# allocates nothing.


@njit(cache=True, inline="always")  # one caller each: its C entry
def rnea_call(P, q, qd, qdd, tau, ws, extended):
    if not _lengths_ok(P, q, qd, qdd, tau):
        return WRONG_SHAPE
    if not _units_ok(P, q, extended):
        return NOT_UNIT
    return rnea_into(P, q, qd, qdd, 1.0, None, ws, tau, extended)


@njit(cache=True, inline="always")
def bias_call(P, q, qd, tau, ws, zero, extended):
    if not _lengths_ok(P, q, qd, tau, tau):
        return WRONG_SHAPE
    if not _units_ok(P, q, extended):
        return NOT_UNIT
    return rnea_into(P, q, qd, zero, 1.0, None, ws, tau, extended)


@njit(cache=True, inline="always")
def gravity_call(P, q, tau, ws, zero, extended):
    if not _lengths_ok(P, q, tau, tau, tau):
        return WRONG_SHAPE
    if not _units_ok(P, q, extended):
        return NOT_UNIT
    return rnea_into(P, q, zero, zero, 1.0, None, ws, tau, extended)


@njit(cache=True, inline="always")
def _id_entry(p, a, b, c, o0, o1, extended):
    """(q, q̇, q̈) -> τ."""
    n = int(p[H_NV])
    q = carray(a, int(p[H_NQ]))
    P = packed_model(p)
    ws, _ = scratch(o1, p, WS_COLS)
    return entry_status(rnea_call(P, q, carray(b, n), carray(c, n), carray(o0, n), ws, extended))


@lazy_cfunc(SIGNATURE, "inverse dynamics")
def inverse_dynamics_entry(p, a, b, c, o0, o1, o2):
    return _id_entry(p, a, b, c, o0, o1, None)


@lazy_cfunc(SIGNATURE, "inverse dynamics (helical and ball joints)")
def inverse_dynamics_entry_extended(p, a, b, c, o0, o1, o2):
    return _id_entry(p, a, b, c, o0, o1, EXTENDED)


@njit(cache=True, inline="always")
def _bias_entry(p, a, b, o0, o1, extended):
    """(q, q̇) -> NE(q, q̇, 0)."""
    n = int(p[H_NV])
    q = carray(a, int(p[H_NQ]))
    ws, zero = scratch(o1, p, WS_COLS)
    return entry_status(
        bias_call(packed_model(p), q, carray(b, n), carray(o0, n), ws, zero, extended)
    )


@lazy_cfunc(SIGNATURE, "bias forces")
def bias_forces_entry(p, a, b, c, o0, o1, o2):
    return _bias_entry(p, a, b, o0, o1, None)


@lazy_cfunc(SIGNATURE, "bias forces (helical and ball joints)")
def bias_forces_entry_extended(p, a, b, c, o0, o1, o2):
    return _bias_entry(p, a, b, o0, o1, EXTENDED)


@njit(cache=True, inline="always")
def _gravity_entry(p, a, o0, o1, extended):
    """q -> NE(q, 0, 0)."""
    q = carray(a, int(p[H_NQ]))
    ws, zero = scratch(o1, p, WS_COLS)
    tau = carray(o0, int(p[H_NV]))
    return entry_status(gravity_call(packed_model(p), q, tau, ws, zero, extended))


@lazy_cfunc(SIGNATURE, "gravity torques")
def gravity_torques_entry(p, a, b, c, o0, o1, o2):
    return _gravity_entry(p, a, o0, o1, None)


@lazy_cfunc(SIGNATURE, "gravity torques (helical and ball joints)")
def gravity_torques_entry_extended(p, a, b, c, o0, o1, o2):
    return _gravity_entry(p, a, o0, o1, EXTENDED)


@njit(cache=True)
def rnea_chunk(P, ins, outs, extra, lo, hi):
    """Newton–Euler on lanes: :data:`WIDTH` states per instruction, the same
    :func:`rnea_into` compiled for (n, WIDTH) blocks."""
    Q, QD, QDD = ins
    (TAU,) = outs
    gscale, fext, mode, extended = extra
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


@batch_kernel
def rnea_many(P, Q, QD, QDD, gscale, fext, mode, TAU, nchunks, extended):
    """Newton–Euler over a batch; ``mode`` MODE_ID, MODE_BIAS or MODE_GRAVITY says which
    of QD, QDD are read (the others may be any (N, n) array)."""
    extra = (gscale, fext, mode, extended)
    return run_batch(rnea_chunk, P, (Q, QD, QDD), (TAU,), extra, nchunks, WIDTH)


# --- mass matrix: composite body and Newton–Euler columns (:mod:`.walker_orin`) ----------


@njit(cache=True)
def crba_one(P, q, H, extended):
    return crba_into(P, q, np.empty((_rows(P), walker_orin.COLS)), H, extended)


@njit(cache=True, inline="always")
def crba_call(P, q, H, cw, extended):
    if not (q.shape[0] == int(P[H_NQ]) and _square_ok(P, H)):
        return WRONG_SHAPE
    if not _units_ok(P, q, extended):
        return NOT_UNIT
    if not _finite(q):  # M does not depend on every q (e.g. the first joint's)
        return NON_FINITE
    return crba_into(P, q, cw, H, extended)


@njit(cache=True, inline="always")
def _mass_matrix_entry(p, a, o0, o1, extended):
    """q -> M."""
    n = int(p[H_NV])
    q = carray(a, int(p[H_NQ]))
    cw, _ = scratch(o1, p, walker_orin.COLS)
    return entry_status(crba_call(packed_model(p), q, carray(o0, (n, n)), cw, extended))


@lazy_cfunc(SIGNATURE, "mass matrix")
def mass_matrix_entry(p, a, b, c, o0, o1, o2):
    return _mass_matrix_entry(p, a, o0, o1, None)


@lazy_cfunc(SIGNATURE, "mass matrix (helical and ball joints)")
def mass_matrix_entry_extended(p, a, b, c, o0, o1, o2):
    return _mass_matrix_entry(p, a, o0, o1, EXTENDED)


@njit(cache=True)
def crba_chunk(P, ins, outs, extra, lo, hi):
    """The composite-body M on lanes (:func:`crba_into` compiled for (n, WIDTH) blocks);
    a block that fails is run again state by state, which reports the failing state."""
    (Q,) = ins
    (H,) = outs
    (extended,) = extra
    n = int(P[H_NV])
    cw = np.empty((_rows(P), walker_orin.COLS, WIDTH))
    cw1 = np.empty((_rows(P), walker_orin.COLS))
    q = np.empty((int(P[H_NQ]), WIDTH))
    h = np.empty((n, n, WIDTH))
    status = OK
    for s0 in range(lo, hi, WIDTH):
        pack(Q, s0, hi, q)
        if crba_into(P, q, cw, h, extended) == OK:
            unpack_squares(h, H, s0, hi)
        else:
            for s in range(s0, min(s0 + WIDTH, hi)):
                status = max(status, crba_into(P, Q[s], cw1, H[s], extended))
    return status


@batch_kernel
def crba_many(P, Q, H, nchunks, extended):
    return run_batch(crba_chunk, P, (Q,), (H,), (extended,), nchunks, WIDTH)


@njit(cache=True)
def ne_columns_one(P, q, H, extended):
    nq = int(P[H_NV])
    z, unit, col = np.zeros(nq), np.zeros(nq), np.empty(nq)
    return ne_columns_into(P, q, np.empty((_rows(P), WS_COLS)), z, unit, col, H, extended)


@njit(cache=True)
def ne_columns_chunk(P, ins, outs, extra, lo, hi):
    (Q,) = ins
    (H,) = outs
    (extended,) = extra
    nq = int(P[H_NV])
    ws = np.empty((_rows(P), WS_COLS))
    zero = np.zeros(nq)
    unit = np.zeros(nq)
    col = np.empty(nq)
    status = OK
    for s in range(lo, hi):
        status = max(status, ne_columns_into(P, Q[s], ws, zero, unit, col, H[s], extended))
    return status


@batch_kernel
def ne_columns_many(P, Q, H, nchunks, extended):
    return run_batch(ne_columns_chunk, P, (Q,), (H,), (extended,), nchunks, 1)


# --- forward dynamics: articulated body (:mod:`.aba`), mass matrix and Cholesky ----------


@njit(cache=True, inline="always")
def _aba_checked(P, q, qd, tau, qdd, ws, extended):
    if not _lengths_ok(P, q, qd, tau, qdd):
        return WRONG_SHAPE
    if not _units_ok(P, q, extended):
        return NOT_UNIT
    return aba_into(P, q, qd, tau, ws, qdd, extended)


@njit(cache=True)
def aba_call(P, q, qd, tau, qdd, extended):
    return _aba_checked(P, q, qd, tau, qdd, np.empty((_rows(P), aba.COLS)), extended)


@njit(cache=True, inline="always")
def _fd_entry(p, a, b, c, o0, o1, extended):
    """(q, q̇, τ) -> q̈."""
    n = int(p[H_NV])
    q = carray(a, int(p[H_NQ]))
    P = packed_model(p)
    ws, _ = scratch(o1, p, aba.COLS)
    return entry_status(_aba_checked(P, q, carray(b, n), carray(c, n), carray(o0, n), ws, extended))


@lazy_cfunc(SIGNATURE, "forward dynamics")
def forward_dynamics_entry(p, a, b, c, o0, o1, o2):
    return _fd_entry(p, a, b, c, o0, o1, None)


@lazy_cfunc(SIGNATURE, "forward dynamics (helical and ball joints)")
def forward_dynamics_entry_extended(p, a, b, c, o0, o1, o2):
    return _fd_entry(p, a, b, c, o0, o1, EXTENDED)


# the workspace columns each entry's scratch buffer holds (fastcall.public's scratch_cols)
SCRATCH_COLS = {
    "inverse_dynamics_entry": WS_COLS,
    "bias_forces_entry": WS_COLS,
    "gravity_torques_entry": WS_COLS,
    "mass_matrix_entry": walker_orin.COLS,
    "forward_dynamics_entry": aba.COLS,
}


@njit(cache=True)
def aba_chunk(P, ins, outs, extra, lo, hi):
    """ABA on lanes (:func:`aba_into` compiled for (n, WIDTH) blocks). A block that fails
    is run again one state at a time, so the status is each state's own (a block stops at
    its first failing joint, which may not be every state's)."""
    Q, QD, TAU = ins
    (QDD,) = outs
    (extended,) = extra
    nq = int(P[H_NV])
    ws1 = np.empty((_rows(P), aba.COLS))
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
            for s in range(s0, min(s0 + WIDTH, hi)):
                status = max(status, aba_into(P, Q[s], QD[s], TAU[s], ws1, QDD[s], extended))
    return status


@batch_kernel
def aba_many(P, Q, QD, TAU, QDD, nchunks, extended):
    return run_batch(aba_chunk, P, (Q, QD, TAU), (QDD,), (extended,), nchunks, WIDTH)


@njit(cache=True)
def fd_one(P, q, qd, tau, method, out, extended):
    nq = int(P[H_NV])
    return fd_into(
        P,
        q,
        qd,
        tau,
        method,
        np.empty((_rows(P), WS_COLS)),
        np.empty((_rows(P), walker_orin.COLS)),
        np.empty((nq, nq)),
        np.zeros(nq),
        np.zeros(nq),
        np.empty(nq),
        out,
        extended,
    )


@njit(cache=True)
def fd_chunk(P, ins, outs, extra, lo, hi):
    Q, QD, TAU = ins
    (OUT,) = outs
    method, extended = extra
    nq = int(P[H_NV])
    ws = np.empty((_rows(P), WS_COLS))
    cw = np.empty((_rows(P), walker_orin.COLS))
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


@batch_kernel
def fd_many(P, Q, QD, TAU, method, OUT, nchunks, extended):
    return run_batch(fd_chunk, P, (Q, QD, TAU), (OUT,), (method, extended), nchunks, 1)


# --- Coriolis matrix and energies (:mod:`.coriolis`, :mod:`.energy`) ----------------------


@njit(cache=True)
def coriolis_one(P, q, qd, C, extended):
    return coriolis_into(P, q, qd, np.empty((_rows(P), coriolis.COLS)), C, extended)


@njit(inline="always")
def _q_qd_blocks(kernel, unpack_block, P, ins, outs, ws, ws1, out, lo, hi, extended):
    """``kernel(P, q, q̇, ws, out, extended)`` on lanes blocks of states lo … hi−1 of
    ``ins`` = (Q, Q̇), each block's ``out`` written to ``outs[0]`` by ``unpack_block``; a
    block that fails is run again state by state (with ``ws1``), which reports the
    failing state."""
    Q, QD = ins
    (OUT,) = outs
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
                status = max(status, kernel(P, Q[s], QD[s], ws1, OUT[s], extended))
    return status


@njit(cache=True)
def coriolis_chunk(P, ins, outs, extra, lo, hi):
    """The Coriolis matrix on lanes (:func:`coriolis_into` compiled for (n, WIDTH)
    blocks); a block that fails is run again state by state, which reports the failing
    state."""
    n = int(P[H_NV])
    ws = np.empty((_rows(P), coriolis.COLS, WIDTH))
    ws1 = np.empty((_rows(P), coriolis.COLS))
    c = np.empty((n, n, WIDTH))
    return _q_qd_blocks(coriolis_into, unpack_squares, P, ins, outs, ws, ws1, c, lo, hi, extra[0])


@batch_kernel
def coriolis_many(P, Q, QD, C, nchunks, extended):
    return run_batch(coriolis_chunk, P, (Q, QD), (C,), (extended,), nchunks, WIDTH)


@njit(cache=True)
def energy_one(P, q, qd, out, extended):
    return energy_into(P, q, qd, np.empty((_rows(P), WS_COLS)), out, extended)


@njit(cache=True)
def energy_chunk(P, ins, outs, extra, lo, hi):
    """The energies on lanes (:func:`energy_into` compiled for (n, WIDTH) blocks, (T, V)
    into a (2, WIDTH) block); a block that fails is run again state by state."""
    ws = np.empty((_rows(P), WS_COLS, WIDTH))
    ws1 = np.empty((_rows(P), WS_COLS))
    out = np.empty((2, WIDTH))
    return _q_qd_blocks(energy_into, unpack, P, ins, outs, ws, ws1, out, lo, hi, extra[0])


@batch_kernel
def energy_many(P, Q, QD, OUT, nchunks, extended):
    return run_batch(energy_chunk, P, (Q, QD), (OUT,), (extended,), nchunks, WIDTH)


subject("Newton–Euler dynamics", rnea_one)
subject("Newton–Euler dynamics (batch)", rnea_many, rnea_chunk)
subject("the Newton–Euler trace", rnea_trace_one)
subject("the mass matrix (composite body)", crba_one)
subject("the mass matrix (batch)", crba_many, crba_chunk)
subject("the mass matrix (Newton–Euler columns)", ne_columns_one, ne_columns_many, ne_columns_chunk)
subject("forward dynamics (articulated body)", aba_call)
subject("forward dynamics (batch)", aba_many, aba_chunk)
subject("forward dynamics (mass matrix and Cholesky)", fd_one, fd_many, fd_chunk)
subject("the Coriolis matrix", coriolis_one, coriolis_many, coriolis_chunk)
subject("energies", energy_one, energy_many, energy_chunk)
