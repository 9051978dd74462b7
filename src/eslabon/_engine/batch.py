"""The one batch driver: a batch of N states cut into chunks for the parallel loop.

Every batch function of eslabon (``*_many`` in :mod:`eslabon.dynamics.drivers` and
:mod:`eslabon.kinematics.drivers`) is this loop around its algorithm's *chunk*: a compiled
function ``chunk(P, ins, outs, extra, lo, hi) -> status`` that allocates its workspace
once and runs states ``lo … hi−1`` (one at a time, or :data:`~.lanes.WIDTH` at a time as
lanes). ``ins`` and ``outs`` are tuples of arrays whose first axis is the state; ``extra``
a tuple of the algorithm's other arguments.

The driver is inlined into each batch function (numba's IR inlining, before the parallel
loop is lowered), so each one is an ordinary cached ``parallel=True`` function with the
chunk as a compile-time constant: a function passed as an argument at run time would
not be kept in numba's cache.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange


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
