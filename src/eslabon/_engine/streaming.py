"""Stores that bypass the caches: how a batch writes an output far larger than them.

A batch whose output does not fit in the caches (the joint-torque regressor of a
quadruped, 30 kB a state, 300 MB for 10,000 states) is bounded by memory traffic, and an
ordinary store to a line that is not cached first reads that line in (a read for
ownership): writing the output moves it twice. A non-temporal store writes the line
without reading it (LLVM's ``!nontemporal`` store; a target without such a store makes
it an ordinary one). :func:`stream_copy` writes whole 64-byte lines where the
destination is aligned to them (one vector store a line in LLVM; on x86 one 64-byte
``vmovntps`` with AVX-512, two of 32 bytes with AVX, four ``movntps`` without), and
single doubles at the ends (``movntsd`` where the CPU has SSE4A, as AMD's have; other
x86 CPUs get ordinary stores for them from LLVM). Measured on a 2-core AMD EPYC
(Zen 4), the Solo 12's regressor over 10,000 states on one thread: 3.6 µs a state
copying each state's Y out of a scratch with ordinary stores, 2.4 µs with single-double
non-temporal stores, 1.5–1.6 with whole lines; a copy alone of 30 kB, 1.1 µs by doubles
and 0.58 by lines (docs/performance.md, "The regressor's batch: lanes and streamed
stores" and "… each state's slab").

Non-temporal stores are weakly ordered, and a locked instruction (what LLVM makes of a
sequentially consistent fence on x86) is not documented to order them: a kernel that
made them calls :func:`store_fence` (x86 ``sfence``; elsewhere LLVM's ``fence
seq_cst``) before it returns, so that every thread sees them once the batch has joined.

- :func:`stream_copy`: ``dst[:] = src`` for two C-contiguous 1-D float64 arrays of one
  length, by non-temporal stores, whole lines where it can;
- :func:`store_fence`: order the non-temporal stores made so far before any later store.
"""

from __future__ import annotations

import platform

import llvmlite.ir as ir
from numba import njit, types
from numba.core import cgutils
from numba.core.errors import TypingError
from numba.extending import lower_builtin, type_callable

from .lanes import _cell

_X86 = platform.machine().lower() in ("x86_64", "amd64", "i386", "i686", "x86")


# Python functions whose bodies are their meaning (what runs with NUMBA_DISABLE_JIT);
# compiled code types and lowers a call to them directly, as :mod:`.quads` does.
def stream_store(dst, i, x):
    """``dst[i] = x`` for a 1-D float64 array, by a non-temporal store."""
    dst[i] = x


def store_fence():
    """Order every store made so far, non-temporal ones included, before later ones."""


def _stream_line(src, i, dst, j):
    """``dst[j:j + 8] = src[i:i + 8]``: one 64-byte line by one non-temporal store, where
    ``dst[j]`` lies on a 64-byte boundary (the caller's guarantee: :func:`stream_copy`)."""
    dst[j : j + 8] = src[i : i + 8]


def _line_start(dst):
    """How many elements of the 1-D float64 array ``dst`` precede its first 64-byte
    boundary (0 … 7), or −1 when its data is not 8-byte aligned."""
    address = dst.ctypes.data
    return -1 if address % 8 else (-address % 64) // 8


@njit(inline="always")
def stream_copy(src, dst):
    """``dst[:] = src`` for C-contiguous 1-D float64 arrays of one length, by non-temporal
    stores:
    whole 64-byte lines of ``dst`` by one store each, the doubles before its first line
    and after its last one by one; the caller calls :func:`store_fence` once after its
    last."""
    n = src.shape[0]
    head = _line_start(dst)
    if head < 0:  # not even 8-byte aligned: no line is whole
        head = n
    head = min(head, n)
    for i in range(head):
        stream_store(dst, i, src[i])
    i = head
    while i + 8 <= n:
        _stream_line(src, i, dst, i)
        i += 8
    while i < n:
        stream_store(dst, i, src[i])
        i += 1


@type_callable(stream_store)
def _type_stream_store(context):
    def typing(dst, i, x):
        if not (
            isinstance(dst, types.Array)
            and dst.ndim == 1
            and dst.dtype == types.float64
            and dst.mutable
            and isinstance(i, types.Integer)
            and x == types.float64
        ):
            raise TypingError(
                f"stream_store: expected a writeable 1-D float64 array, an integer and a "
                f"float64, got {dst}, {i}, {x}"
            )
        return types.none

    return typing


@lower_builtin(stream_store, types.Array, types.Integer, types.Float)
def _lower_stream_store(context, builder, sig, args):
    i = context.cast(builder, args[1], sig.args[1], types.intp)
    ptr = _cell(context, builder, sig.args[0], args[0], [i])
    store = builder.store(args[2], ptr, align=8)
    one = builder.module.add_metadata([ir.Constant(ir.IntType(32), 1)])
    store.set_metadata("nontemporal", one)
    return context.get_dummy_value()


@type_callable(_stream_line)
def _type_stream_line(context):
    def typing(src, i, dst, j):
        for a in (src, dst):
            if not (
                isinstance(a, types.Array)
                and a.ndim == 1
                and a.dtype == types.float64
                and a.layout == "C"
            ):
                raise TypingError(f"stream_copy: expected C-contiguous 1-D float64 arrays, got {a}")
        return types.none

    return typing


@lower_builtin(_stream_line, types.Array, types.Integer, types.Array, types.Integer)
def _lower_stream_line(context, builder, sig, args):
    line = ir.VectorType(ir.DoubleType(), 8).as_pointer()
    i = context.cast(builder, args[1], sig.args[1], types.intp)
    j = context.cast(builder, args[3], sig.args[3], types.intp)
    src = builder.bitcast(_cell(context, builder, sig.args[0], args[0], [i]), line)
    dst = builder.bitcast(_cell(context, builder, sig.args[2], args[2], [j]), line)
    store = builder.store(builder.load(src, align=8), dst, align=64)
    one = builder.module.add_metadata([ir.Constant(ir.IntType(32), 1)])
    store.set_metadata("nontemporal", one)
    return context.get_dummy_value()


@type_callable(_line_start)
def _type_line_start(context):
    def typing(dst):
        if isinstance(dst, types.Array) and dst.ndim == 1 and dst.dtype == types.float64:
            return types.intp

    return typing


@lower_builtin(_line_start, types.Array)
def _lower_line_start(context, builder, sig, args):
    i64 = ir.IntType(64)
    zero = ir.Constant(i64, 0)
    address = builder.ptrtoint(_cell(context, builder, sig.args[0], args[0], [zero]), i64)
    to_line = builder.and_(builder.sub(zero, address), ir.Constant(i64, 63))
    misaligned = builder.icmp_unsigned("!=", builder.and_(address, ir.Constant(i64, 7)), zero)
    count = builder.lshr(to_line, ir.Constant(i64, 3))
    return builder.select(misaligned, ir.Constant(i64, -1), count)


@type_callable(store_fence)
def _type_store_fence(context):
    def typing():
        return types.none

    return typing


@lower_builtin(store_fence)
def _lower_store_fence(context, builder, sig, args):
    if _X86:
        sfence = ir.FunctionType(ir.VoidType(), [])
        builder.call(
            cgutils.get_or_insert_function(builder.module, sfence, "llvm.x86.sse.sfence"), []
        )
    else:
        builder.fence("seq_cst")
    return context.get_dummy_value()
