"""Four doubles of one state as one SIMD vector: what a kernel writes four columns of a
row at a time with.

:mod:`.lanes` holds one scalar of several states; a quad holds four neighbouring values
of one state (four columns of a row of an output), as the numba type ``Lanes(4)``, so
that ``+ - *`` with floats and quads are one vector instruction each (:mod:`.lanes`
registers them for every width). The joint-torque regressor
(:mod:`eslabon.dynamics.regressor_kernel`) writes each block of Y as sums of a few
coefficients times the body's columns: with quads, ten dot products of six become two
vector sums and two scalar ones (docs/performance.md, "The joint-torque regressor").

- :func:`quad`: a 4-tuple of floats as a quad;
- :func:`store_quad`: ``Y[k, c:c + 4] = x`` for a C-contiguous 2-D float64 ``Y`` (no
  index wraps around and none is checked, as with numba's own indexing: the caller
  keeps ``c + 4`` within the row).
"""

from __future__ import annotations

import llvmlite.ir as ir
import numpy as np
from numba import types
from numba.core.errors import TypingError
from numba.extending import lower_builtin, type_callable

from .lanes import Lanes, _cell

QUAD = Lanes(4)
_VECTOR = ir.VectorType(ir.DoubleType(), 4)


# Each is a Python function whose body is its meaning (what runs with NUMBA_DISABLE_JIT);
# compiled code types and lowers a call to it directly, as :mod:`.lanes` does.
def quad(t):
    """The 4-tuple of floats ``t`` as a quad (``Lanes(4)``)."""
    return np.array(t, dtype=float)


def store_quad(Y, k, c, x):
    """``Y[k, c:c + 4] = x`` for a quad ``x`` and a C-contiguous 2-D float64 ``Y``."""
    Y[k, c : c + 4] = x


@type_callable(quad)
def _type_quad(context):
    def typing(t):
        if not (isinstance(t, types.UniTuple) and t.count == 4 and t.dtype == types.float64):
            raise TypingError(f"quad: expected a 4-tuple of float64, got {t}")
        return QUAD

    return typing


@lower_builtin(quad, types.UniTuple)
def _lower_quad(context, builder, sig, args):
    v = ir.Constant(_VECTOR, ir.Undefined)
    for i in range(4):
        x = builder.extract_value(args[0], i)
        v = builder.insert_element(v, x, ir.Constant(ir.IntType(32), i))
    return v


@type_callable(store_quad)
def _type_store_quad(context):
    def typing(Y, k, c, x):
        if not (
            isinstance(Y, types.Array)
            and Y.ndim == 2
            and Y.layout == "C"
            and Y.dtype == types.float64
            and Y.mutable
            and isinstance(k, types.Integer)
            and isinstance(c, types.Integer)
            and x == QUAD
        ):
            raise TypingError(
                f"store_quad: expected a writeable C-contiguous 2-D float64 array, two "
                f"integers and a quad, got {Y}, {k}, {c}, {x}"
            )
        return types.none

    return typing


@lower_builtin(store_quad, types.Array, types.Integer, types.Integer, Lanes)
def _lower_store_quad(context, builder, sig, args):
    k = context.cast(builder, args[1], sig.args[1], types.intp)
    c = context.cast(builder, args[2], sig.args[2], types.intp)
    ptr = _cell(context, builder, sig.args[0], args[0], [k, c])
    builder.store(args[3], builder.bitcast(ptr, _VECTOR.as_pointer()), align=8)
    return context.get_dummy_value()
