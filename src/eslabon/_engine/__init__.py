"""The compute engine: what every compiled kernel stands on, and nothing else of eslabon.

- :mod:`.layout`: the packed model array the kernels read (one float64 array per model).
- :mod:`.joints`: the one joint dispatcher — placement, motion subspace, wrench
  projection and the velocity and acceleration terms of each joint type.
- :mod:`.tuples`: 3-vector and 3×3 algebra on tuples (kept in registers), lowered by
  :mod:`.tracing`; :mod:`.lanes`: 4 or 8 states' values in one SIMD vector (the width
  chosen per machine by :mod:`.lanewidth`) and the generic accessors through which
  kernels reach joint values and workspaces;
  :mod:`.sincos`: the inline sine and cosine of joint angles.
- :mod:`.status`: the status codes every kernel returns; :mod:`.batch`: the one batch
  driver, a batch cut into chunks for the parallel loop, each chunk a C entry called
  through its address; :mod:`.argtypes`: a constant typed as Python passes it, so that
  compiled callers share one specialization of a kernel.
- :mod:`.compile`: compilation on first use and its one-line notice, batch kernels.
- :mod:`.fastcall` (with the C extension ``_fastcall``): the single-call fast path.

Nothing here imports another part of eslabon (docs/architecture.md).
"""
