"""The one batch driver: a batch of N states cut into chunks for the parallel loop.

Every batch function of eslabon (``*_many`` in :mod:`eslabon.dynamics.drivers` and
:mod:`eslabon.kinematics.kernels`) is this loop around its algorithm's *chunk*: a compiled
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

from .lanes import blocks, chunk_states


def chunk_count(N: int) -> int:
    """How many chunks a batch of N states is cut into: four per thread (so threads that
    finish early take more), whole blocks of :data:`~.lanes.WIDTH` states each."""
    return max(1, min(blocks(N), 4 * numba.get_num_threads()))


@njit(inline="always")
def run_batch(chunk, P, ins, outs, extra, nchunks):
    """Run ``chunk`` over ``nchunks`` pieces of the batch in parallel (whole blocks of
    :data:`~.lanes.WIDTH` states each, :func:`~.lanes.chunk_states`); the worst status of
    the chunks (:mod:`.status`)."""
    N = ins[0].shape[0]
    status = np.zeros(nchunks, dtype=np.int64)
    for c in prange(nchunks):
        lo, hi = chunk_states(c, nchunks, N)
        status[c] = chunk(P, ins, outs, extra, lo, hi)
    worst = 0  # not status.max(): docs/performance.md, "Kernel choices"
    for c in range(nchunks):
        worst = max(worst, status[c])
    return worst
