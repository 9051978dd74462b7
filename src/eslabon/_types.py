"""numba types of the lean single-state entry points (explicit signatures).

An explicit signature makes the dispatcher reject anything else with a ``TypeError``
instead of compiling a new specialisation; the public wrappers then take their slow path,
which converts and validates the input with messages naming the field. Read-only array
types also accept writable arrays.
"""
from numba import types

RO1 = types.Array(types.float64, 1, "C", readonly=True)   # the packed model, states
F1 = types.Array(types.float64, 1, "C")                    # outputs (n,)
F2 = types.Array(types.float64, 2, "C")                    # outputs (n, n)
I64 = types.int64
