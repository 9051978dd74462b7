"""Stores that bypass the caches: how a batch writes an output far larger than them.

A batch whose output does not fit in the caches (the joint-torque regressor of a
quadruped, 30 kB a state, 300 MB for 10,000 states) is bounded by memory traffic, and an
ordinary store to a line that is not cached first reads that line in (a read for
ownership): writing the output moves it twice. A non-temporal store writes the line
without reading it (LLVM's ``!nontemporal`` store: x86 ``movnti``, or ``movntsd`` on
AMD; a target without such a store makes it an ordinary one). Measured on a 2-core AMD
EPYC (Zen 4), the Solo 12's regressor over 10,000 states on one thread: 3.6 µs a state
copying each state's Y out of a scratch with ordinary stores, 2.4 µs with these
(docs/performance.md, "The regressor's batch: lanes and streamed stores").

Non-temporal stores are weakly ordered, and a locked instruction (what LLVM makes of a
sequentially consistent fence on x86) is not documented to order them: a kernel that
made them calls :func:`store_fence` (x86 ``sfence``; elsewhere LLVM's ``fence
seq_cst``) before it returns, so that every thread sees them once the batch has joined.

- :func:`stream_copy`: ``dst[:] = src`` for two 1-D float64 arrays of one length, by
  non-temporal stores;
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


@njit(inline="always")
def stream_copy(src, dst):
    """``dst[:] = src`` for 1-D float64 arrays of one length, by non-temporal stores;
    the caller calls :func:`store_fence` once after its last."""
    for i in range(src.shape[0]):
        stream_store(dst, i, src[i])


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
