"""The one batch driver: a batch of N states cut into chunks for the parallel loop.

Every batch function of eslabon (``*_many`` in :mod:`eslabon.dynamics.batch_drivers`,
:mod:`eslabon.dynamics.derivative_batches` and :mod:`eslabon.kinematics.drivers`) runs its
algorithm's *chunk* over pieces of the batch: the chunk allocates its workspace once and
runs states ``lo … hi−1`` (one at a time, or :data:`~.lanes.WIDTH` at a time as lanes).

The chunk is a C entry (a numba ``cfunc`` of :data:`CHUNK_SIGNATURE`, compiled on first
use like the per-call entries: :class:`~.compile.LazyCFunc`) that reads the packed model,
the input and output arrays and a vector of extra values through pointers, and
:func:`run_chunks` is one ``parallel=True`` loop, compiled once for every quantity, that
calls the chunk's address. So the chunk's machine code is built once, in its entry: a
parallel function that called the chunk as a compiled function would link the whole
algorithm into its parallel loop and that loop's wrappers, and LLVM would optimise it
there three more times (``docs/performance.md``, "Start-up and compilation").
:func:`run_batch` is the older form, the chunk inlined into a parallel function of its
own, kept for the one batch that passes an array of its own to the algorithm (Newton–Euler
with a tip wrench).
"""

from __future__ import annotations

import llvmlite.ir as ir
import numba
import numpy as np
from numba import njit, prange, types
from numba.extending import intrinsic

from .compile import batch_kernel, install, subject

install()  # before the kernels below are made: their cache is eslabon's (.cachedir)

_PTR = types.CPointer(types.float64)
IN_ARRAYS, OUT_ARRAYS = 3, 6  # the most arrays a chunk reads, writes
_POINTERS = 2 + IN_ARRAYS + OUT_ARRAYS  # the packed model, inputs, outputs, the extra vector
# int64 chunk(P, in0, in1, in2, out0 … out5, extra, lo, hi, N): pointers to float64 (the
# arrays a quantity does not use are NULL), then the states lo … hi−1 of N to run
CHUNK_SIGNATURE = types.int64(*([_PTR] * _POINTERS), types.int64, types.int64, types.int64)
NO_EXTRA = np.zeros(1)  # the extra vector of a chunk that reads none


def chunk_count(N: int, unit: int = 1) -> int:
    """How many chunks a batch of N states is cut into: four per thread (so threads that
    finish early take more), each whole units of ``unit`` states (:data:`~.lanes.WIDTH`
    for a lanes kernel, 1 for a kernel run one state at a time)."""
    return max(1, min(-(-N // unit), 4 * numba.get_num_threads()))


@njit(cache=True)
def chunk_bounds(c, nchunks, N, unit):
    """States lo … hi−1 of chunk ``c`` of ``nchunks``: whole units of ``unit`` states
    (only the batch's last unit may be short)."""
    units = (N + unit - 1) // unit
    lo = min(N, (c * units // nchunks) * unit)
    hi = min(N, ((c + 1) * units // nchunks) * unit)
    return lo, hi


@njit(inline="always")
def run_batch(chunk, P, ins, outs, extra, nchunks, unit):
    """Run ``chunk`` over ``nchunks`` (at least 1) pieces of the batch in parallel, whole
    units of ``unit`` states each (:func:`chunk_bounds`); the worst status of the chunks
    (:mod:`.status`)."""
    N = ins[0].shape[0]
    nchunks = max(1, nchunks)
    status = np.zeros(nchunks, dtype=np.int64)
    for c in prange(nchunks):
        lo, hi = chunk_bounds(c, nchunks, N, unit)
        status[c] = chunk(P, ins, outs, extra, lo, hi)
    worst = 0  # not status.max(): docs/performance.md, "Kernel choices"
    for c in range(nchunks):
        worst = max(worst, status[c])
    return worst


def _c_float_array(ty) -> bool:
    return isinstance(ty, types.Array) and ty.dtype == types.float64 and ty.layout == "C"


@intrinsic
def _addresses(typingctx, P, ins, outs, extra):
    """The data pointers of P, ``ins`` (a tuple of up to :data:`IN_ARRAYS` arrays), ``outs``
    (up to :data:`OUT_ARRAYS`) and ``extra`` as the (int64, …) tuple :func:`run_chunks`
    takes, 0 for an absent array; every array float64 and C-contiguous (a typing error
    otherwise: the chunk reads them through flat pointers)."""
    arrays_ok = (
        isinstance(ins, types.BaseTuple)
        and isinstance(outs, types.BaseTuple)
        and 1 <= len(ins) <= IN_ARRAYS
        and 1 <= len(outs) <= OUT_ARRAYS
        and all(_c_float_array(t) for t in (P, extra, *ins, *outs))
    )
    if not arrays_ok:
        return None
    result = types.UniTuple(types.int64, _POINTERS)

    def codegen(context, builder, sig, args):
        i64 = ir.IntType(64)

        def address(ty, value):
            data = context.make_array(ty)(context, builder, value=value).data
            return builder.ptrtoint(data, i64)

        def group(tup_ty, tup, size):
            found = [address(t, builder.extract_value(tup, k)) for k, t in enumerate(tup_ty)]
            return found + [ir.Constant(i64, 0)] * (size - len(found))

        values = [address(sig.args[0], args[0])]
        values += group(sig.args[1], args[1], IN_ARRAYS)
        values += group(sig.args[2], args[2], OUT_ARRAYS)
        values.append(address(sig.args[3], args[3]))
        return context.make_tuple(builder, result, values)

    return result(P, ins, outs, extra), codegen


@njit(cache=True)
def chunk_pointers(P, ins, outs, extra):
    """The pointers :func:`run_chunks` passes to a chunk (:func:`_addresses`)."""
    return _addresses(P, ins, outs, extra)


@intrinsic
def _call_chunk(typingctx, address, pointers, lo, hi, N):
    """Call the chunk entry at ``address`` (:data:`CHUNK_SIGNATURE`) on states lo … hi−1."""
    sig = types.int64(address, pointers, lo, hi, N)

    def codegen(context, builder, sig, args):
        i64 = ir.IntType(64)
        double_ptr = ir.DoubleType().as_pointer()
        fnty = ir.FunctionType(i64, [double_ptr] * _POINTERS + [i64] * 3)
        fn = builder.inttoptr(args[0], fnty.as_pointer())
        ptrs = [
            builder.inttoptr(builder.extract_value(args[1], k), double_ptr)
            for k in range(_POINTERS)
        ]
        counts = [
            context.cast(builder, v, t, types.int64)
            for v, t in zip(args[2:], sig.args[2:], strict=True)
        ]
        return builder.call(fn, ptrs + counts)

    return sig, codegen


@batch_kernel
def run_pointers(address, pointers, N, nchunks, unit):
    """Run the chunk entry at ``address`` over ``nchunks`` (at least 1) pieces of a batch
    of N states in parallel, whole units of ``unit`` states each (:func:`chunk_bounds`);
    the worst status of the chunks (:mod:`.status`). One compiled function for every
    quantity: the chunk is called through its address."""
    nchunks = max(1, nchunks)
    status = np.zeros(nchunks, dtype=np.int64)
    for c in prange(nchunks):
        lo, hi = chunk_bounds(c, nchunks, N, unit)
        if lo < hi:
            status[c] = _call_chunk(address, pointers, lo, hi, N)
    worst = 0  # not status.max(): docs/performance.md, "Kernel choices"
    for c in range(nchunks):
        worst = max(worst, status[c])
    return worst


def run_chunks(entries, P, ins, outs, extra, nchunks, unit, extended):
    """Run a quantity's chunk entry over a batch, on every thread.

    Parameters
    ----------
    entries : tuple of LazyCFunc
        The quantity's chunk entries of :data:`CHUNK_SIGNATURE`, for the base joint set
        and the extended one (:mod:`.joints`).
    P : ndarray
        The packed model (:mod:`.layout`).
    ins, outs : tuple of ndarray
        Up to :data:`IN_ARRAYS` and :data:`OUT_ARRAYS` float64 C-contiguous arrays whose
        first axis is the state (N of them).
    extra : ndarray
        A float64 vector of the values the chunk reads besides (:data:`NO_EXTRA`: none).
    nchunks : int
        Pieces of the batch (:func:`chunk_count`).
    unit : int
        States a chunk takes whole (:data:`~.lanes.WIDTH` for a lanes kernel, else 1).
    extended : None or bool
        The joint set: picks the entry.

    Returns
    -------
    int
        The worst status of the states (:mod:`.status`).
    """
    entry = entries[0] if extended is None else entries[1]
    pointers = chunk_pointers(P, ins, outs, extra)
    return run_pointers(entry.address, pointers, ins[0].shape[0], nchunks, unit)


subject("the batch driver", chunk_pointers, run_pointers)
