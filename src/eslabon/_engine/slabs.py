"""Slabs: a row of values computed on lanes, stored as each state's own row, so that a
step run state by state after a pass on lanes (the joint-torque regressor's columns,
:mod:`eslabon.dynamics.regressor_kernel`) reads its values contiguously.

A lanes value holds one double per state; stored as it is (:func:`~.lanes.s1`), the
values of one state lie one per cache line, and a per-state step that reads many of them
touches a line for each (714 lines a state for the Solo 12's bodies). :func:`store_states`
transposes WIDTH values of WIDTH states in registers (log2(WIDTH) rounds of interleaving
shuffles, the perfect shuffle) and stores each state's WIDTH values together into its own
slab: reading went from 0.37 to 0.05 µs a state, for 0.12 of transposing (a loop
transposing the lanes arrays after the pass cost 0.30; docs/performance.md, "The
regressor's batch: each state's slab, whole lines out"). On floats it stores the row as
it is, so one generic kernel serves one state and a batch.
"""

from __future__ import annotations

import llvmlite.ir as ir
from numba import types
from numba.core.errors import TypingError
from numba.extending import lower_builtin, type_callable

from .lanes import (
    _REAL,
    WIDTH,
    Lanes,
    _cell,
    _indices_ok,
    _intp,
    _require_block,
    _row_pointer,
    _writable,
)


# a Python function whose body is its meaning (what runs with NUMBA_DISABLE_JIT);
# compiled code types and lowers a call to it directly, as the lanes accessors
def store_states(ws, i, values):
    """``ws[i, 0:n] = values`` (an n-tuple) of a 2-D workspace. For lanes values and a
    C-contiguous (WIDTH, rows, n) workspace, n a multiple of WIDTH, each state's values go
    to its own slab, ``ws[l, i, 0:n]`` = lane l of each value: transposed in registers,
    WIDTH values at a time, so that a per-state step after a pass on lanes reads its row
    contiguously instead of one value per cache line."""
    for k in range(len(values)):
        ws[i, k] = values[k]


def _zip_masks(width):
    """The shuffle masks interleaving the low halves (and the high halves) of two
    vectors: applied log2(width) times to rows k and k + width/2 of a width x width
    matrix, they transpose it (the perfect shuffle)."""
    half = width // 2
    low = [x for k in range(half) for x in (k, width + k)]
    return low, [x + half for x in low]


def _transpose(builder, rows, width):
    """The rows (``<width x double>`` values) of a width x width matrix -> its columns."""
    low, high = (ir.Constant(ir.VectorType(ir.IntType(32), width), m) for m in _zip_masks(width))
    for _ in range(width.bit_length() - 1):
        half = width // 2
        zipped = []
        for k in range(half):
            a, b = rows[k], rows[k + half]
            zipped += [builder.shuffle_vector(a, b, low), builder.shuffle_vector(a, b, high)]
        rows = zipped
    return rows


@type_callable(store_states)
def _type_store_states(context):
    def typing(ws, i, values):
        _indices_ok(i)
        if not (isinstance(ws, types.Array) and isinstance(values, types.BaseTuple)):
            return None
        _writable(ws)
        if ws.ndim == 3 and all(isinstance(t, Lanes) for t in values):
            _require_block(ws, types.int64)
            if len(values) % WIDTH:
                raise TypingError(f"store_states: {len(values)} values, not a multiple of {WIDTH}")
            return types.none
        if ws.ndim == 2 and ws.layout == "C" and all(isinstance(t, _REAL) for t in values):
            return types.none
        raise TypingError(
            f"store_states: floats into a C-contiguous 2-D workspace or lanes into a "
            f"(WIDTH, rows, n) one, got {values} into {ws}"
        )

    return typing


@lower_builtin(store_states, types.Array, types.Integer, types.BaseTuple)
def _lower_store_states(context, builder, sig, args):
    wsty, ws = sig.args[0], args[0]
    i = _intp(context, builder, sig.args[1], args[1])
    vty, v = sig.args[2], args[2]
    n = len(vty)

    def const(k):
        return ir.Constant(i.type, k)

    if wsty.ndim == 2:
        first = _cell(context, builder, wsty, ws, [i, const(0)])
        for k in range(n):
            x = context.cast(builder, builder.extract_value(v, k), vty[k], types.float64)
            builder.store(x, builder.gep(first, [const(k)], inbounds=True))
        return context.get_dummy_value()
    for g in range(0, n, WIDTH):
        rows = [builder.extract_value(v, g + m) for m in range(WIDTH)]
        for state, column in enumerate(_transpose(builder, rows, WIDTH)):
            ptr = _row_pointer(context, builder, wsty, ws, [const(state), i, const(g)], WIDTH)
            builder.store(column, ptr, align=8)
    return context.get_dummy_value()
