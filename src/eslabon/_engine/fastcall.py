"""The kernel side of the C entries: their signatures and the helpers every entry uses.

Each per-call quantity is a numba ``@cfunc`` (C calling convention, no boxing) over the
same ``*_call`` kernel the general path uses; :mod:`.entrypoints` makes the public
function that calls it from C, and :mod:`.startlib` lets a fresh process find it without
numba. The drivers modules define the cfunc of each quantity (e.g.
:data:`eslabon.dynamics.drivers.inverse_dynamics_entry`) with the one C signature
:data:`SIGNATURE`, ``int64 f(P, a, b, c, out0, out1, out2)`` (pointers to float64; unused
ones are NULL), or :data:`WIDE_SIGNATURE` for three or more outputs, so one C wrapper
serves them all. An entry returns :data:`ENTRY_OK` on success (:func:`entry_status`),
reads the packed model behind ``P`` (:func:`packed_model`) and takes its workspace from
the scratch buffer the C side passes after its outputs (:func:`scratch`,
:func:`squares`), so that it allocates nothing.
"""

from __future__ import annotations

import sys

from numba import carray, njit, types
from numba.extending import intrinsic

from .joints import quaternions_are_unit
from .layout import H_NB, H_NQ, H_NV
from .record import row_offset

_PTR = types.CPointer(types.float64)
SIGNATURE = types.int64(_PTR, _PTR, _PTR, _PTR, _PTR, _PTR, _PTR)
# entries with three or more outputs: (P, a, b, c, out0 … out5, scratch)
WIDE_SIGNATURE = types.int64(*([_PTR] * 11))


# What an entry returns on success. A numba cfunc that raises (say MemoryError) only warns
# and returns 0, so 0 must not mean success; the C side (ENTRY_OK) checks this value.
ENTRY_OK = 0x5AFE


@njit(cache=True, inline="always")
def entry_status(status):
    """An entry's return value from a kernel status (0 ok, else the failure code)."""
    return ENTRY_OK if status == 0 else status


@intrinsic
def _read_only(typingctx, array):
    """The same array typed read-only (no code: the flag exists only in the type)."""

    def codegen(context, builder, sig, args):
        return args[0]

    return array.copy(readonly=True)(array), codegen


@intrinsic
def _shifted(typingctx, pointer, count):
    """The pointer ``count`` elements further (an address computation, no call: slicing
    a 1-D carray and reshaping it called numba's reshape helper, about 14 ns)."""

    def codegen(context, builder, sig, args):
        return builder.gep(args[0], [args[1]])

    return pointer(pointer, count), codegen


@njit(cache=True, inline="always")
def packed_model(p):
    """The packed model array behind the pointer (its length is in its header), typed
    read-only like ``Model.packed``: every kernel is then compiled once for both the
    fast and the general path, not once per kind of array."""
    return _read_only(carray(p, row_offset(int(p[H_NB]) + 1)))  # rows 0 .. nb


@njit(cache=True, inline="always")
def scratch(o, p, cols):
    """The scratch buffer the C entry passes after the outputs (``public``'s
    ``scratch_cols``) as (workspace (nb + 1, cols), zeros (nv,))."""
    rows, n = int(p[H_NB]) + 1, int(p[H_NV])
    zeros = carray(_shifted(o, rows * cols), n)
    zeros[:] = 0.0
    return carray(o, (rows, cols)), zeros


@njit(cache=True, inline="always")
def squares(o, p, cols, count):
    """The scratch buffer of an entry with ``count`` (nv, nv) blocks after the vector
    (``public``'s ``scratch_squares``) as (workspace (nb + 1, cols), zeros (nv,),
    blocks (count, nv, nv))."""
    rows, n = int(p[H_NB]) + 1, int(p[H_NV])
    zeros = carray(_shifted(o, rows * cols), n)
    zeros[:] = 0.0
    blocks = carray(_shifted(o, rows * cols + n), (count, n, n))
    return carray(o, (rows, cols)), zeros, blocks


_LARGEST = sys.float_info.max  # |x| ≤ this: False for NaN and ±inf


@njit(cache=True, inline="always")
def units_ok(P, q, extended):
    """Every quaternion of q of unit length within 1e-6 (|‖x‖ − 1| ≤ 1e-6, computed as
    the general path's check computes it, so that both accept the same states): the lean
    calls' check; the general path names the joint (model.configuration)."""
    if extended is None or int(P[H_NQ]) == int(P[H_NV]):
        return True
    return quaternions_are_unit(P, q, extended, 1e-6)


@njit(cache=True, inline="always")
def finite(x):
    """Every value of the 1-D ``x`` finite: compares, which the compiler vectorises (a
    running sum is one chain of additions: 78 ns for the 36 coordinates of the G1
    humanoid, against 19 ns)."""
    ok = True
    for a in range(x.shape[0]):
        ok &= abs(x[a]) <= _LARGEST
    return ok
