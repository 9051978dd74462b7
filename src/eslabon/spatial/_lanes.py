"""Lanes: several states' values of one scalar, for running one recursion on a batch in
lock step (the batch paths of Newton–Euler and the articulated-body algorithm).

Why: a recursion over one state is a long chain of dependent scalar operations, and a
core can issue several independent ones per cycle. Written over :data:`WIDTH` states at
once, every operation of the same kernel becomes one SIMD instruction on a
``<WIDTH x double>`` vector, the way a templated C++ library instantiates one algorithm
on a packet type. The kernels are not written twice: they are generic over their scalar
type, numba compiles them once for ``float64`` (one state) and once for :class:`Lanes`
(a batch block), and each lane computes exactly the operations, in the same order, of
the one-state kernel (tests/test_lanes.py checks bit-for-bit agreement).

What a generic kernel uses, besides ``+ - * /`` and unary minus on any mix of floats
and lanes:

- :func:`at` / :func:`put`: element ``k`` of a joint vector: ``q[k]`` of an ``(n,)``
  array, or the lanes of row ``k`` of an ``(n, WIDTH)`` block;
- :func:`g1`, :func:`s1`, :func:`g3`, :func:`s3`, :func:`g6`, :func:`s6`, :func:`g9`,
  :func:`s9`, :func:`clear`: workspace access, ``ws[i, o]`` of a 2-D workspace or the
  lanes ``ws[i, o, :]`` of a 3-D one;
- :func:`like`: a float constant as the scalar type of a prototype value (a tuple of
  them is lifted element by element), so that variables keep one type in a loop;
- :func:`sign`, :func:`all_finite`, :func:`all_positive`: what branched on a value.
"""
from __future__ import annotations

import math
import operator

import llvmlite.ir as ir
from numba import njit, types
from numba.core import cgutils
from numba.core.errors import TypingError
from numba.extending import intrinsic, models, overload, register_model

WIDTH = 4       # states per block: one AVX2 register of doubles


class Lanes(types.Type):
    """The numba type of ``WIDTH`` float64 values, one per state, held as an LLVM vector."""

    def __init__(self, width):
        self.width = width
        super().__init__(name=f"Lanes{width}")


LANES = Lanes(WIDTH)


@register_model(Lanes)
class _LanesModel(models.PrimitiveModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, ir.VectorType(ir.DoubleType(), fe_type.width))


_REAL = (types.Float, types.Integer, types.Boolean)


def _vector(context, builder, ty, value, width):
    """``value`` of numba type ``ty`` as a ``<width x double>``: lanes as they are, a real
    number splatted."""
    if isinstance(ty, Lanes):
        return value
    x = context.cast(builder, value, ty, types.float64)
    vty = ir.VectorType(ir.DoubleType(), width)
    one = builder.insert_element(ir.Constant(vty, ir.Undefined), x, ir.Constant(ir.IntType(32), 0))
    return builder.shuffle_vector(one, ir.Constant(vty, ir.Undefined),
                                  ir.Constant(ir.VectorType(ir.IntType(32), width), [0] * width))


def _binary(instruction):
    @intrinsic
    def vector_op(typingctx, a, b):
        lanes = a if isinstance(a, Lanes) else b
        sig = lanes(a, b)

        def codegen(context, builder, sig, args):
            x = _vector(context, builder, sig.args[0], args[0], lanes.width)
            y = _vector(context, builder, sig.args[1], args[1], lanes.width)
            return getattr(builder, instruction)(x, y)
        return sig, codegen
    return vector_op


_vadd, _vsub, _vmul, _vdiv = (_binary(i) for i in ("fadd", "fsub", "fmul", "fdiv"))


def _operands(a, b):
    """True when ``a op b`` is a lanes operation: one side lanes, the other lanes or real."""
    if not (isinstance(a, Lanes) or isinstance(b, Lanes)):
        return False
    return all(isinstance(t, (Lanes,) + _REAL) for t in (a, b))


def _register(ops, impl):
    for op in ops:
        @overload(op)
        def lanes_op(a, b):
            if _operands(a, b):
                return lambda a, b: impl(a, b)


_register((operator.add, operator.iadd), _vadd)
_register((operator.sub, operator.isub), _vsub)
_register((operator.mul, operator.imul), _vmul)
_register((operator.truediv, operator.itruediv), _vdiv)


@intrinsic
def _vneg(typingctx, a):
    def codegen(context, builder, sig, args):
        return builder.fneg(args[0])
    return a(a), codegen


@overload(operator.neg)
def _lanes_neg(a):
    if isinstance(a, Lanes):
        return lambda a: _vneg(a)


@intrinsic
def _select_sign(typingctx, a):
    """1, 0 or −1 (0 for NaN) of a float or per lane, by compares and selects."""
    def codegen(context, builder, sig, args):
        x = args[0]
        count = getattr(x.type, "count", None)
        zero = ir.Constant(x.type, 0.0 if count is None else [0.0] * count)
        one = ir.Constant(x.type, 1.0 if count is None else [1.0] * count)
        pos = builder.select(builder.fcmp_ordered(">", x, zero), one, zero)
        neg = builder.select(builder.fcmp_ordered("<", x, zero), one, zero)
        return builder.fsub(pos, neg)
    return a(a), codegen


def _all_lanes(compare):
    """An intrinsic: whether ``compare(builder, x)`` (a vector of i1) holds in every lane."""
    @intrinsic
    def reduce(typingctx, a):
        def codegen(context, builder, sig, args):
            bits = compare(builder, args[0])
            ok = builder.extract_element(bits, ir.Constant(ir.IntType(32), 0))
            for j in range(1, a.width):
                ok = builder.and_(ok, builder.extract_element(bits, ir.Constant(ir.IntType(32), j)))
            return ok
        return types.boolean(a), codegen
    return reduce


def _zeros_like(x):
    return ir.Constant(x.type, [0.0] * x.type.count)


# x − x is 0 for a finite x and NaN for inf or NaN
_finite_lanes = _all_lanes(lambda b, x: b.fcmp_ordered("==", b.fsub(x, x), _zeros_like(x)))
_positive_lanes = _all_lanes(lambda b, x: b.fcmp_ordered(">", x, _zeros_like(x)))


def _row_pointer(context, builder, aryty, ary, indices, width):
    """Pointer to ``width`` contiguous doubles at ``ary[indices..., 0]`` as a vector."""
    arr = context.make_array(aryty)(context, builder, ary)
    ptr = cgutils.get_item_pointer(context, builder, aryty, arr, indices)
    return builder.bitcast(ptr, ir.PointerType(ir.VectorType(ir.DoubleType(), width)))


def _require_block(ary, o):
    """Lanes are read and written as whole vectors: only C-contiguous float64 arrays, a 2-D
    block indexed by row (``o`` None) or a 3-D workspace indexed by (row, column)."""
    if not (isinstance(ary, types.Array) and ary.layout == "C" and ary.dtype == types.float64
            and ary.ndim == (2 if isinstance(o, types.NoneType) else 3)):
        raise TypingError(f"lanes need a C-contiguous float64 (n, WIDTH) block or "
                          f"(rows, columns, WIDTH) workspace, got {ary} indexed by {o}")


def _indices(context, builder, sig, args):
    """The row (and column) of a lanes access as intp, then 0 for the first lane."""
    idx = [context.cast(builder, args[1], sig.args[1], types.intp)]
    if not isinstance(sig.args[2], types.NoneType):
        idx.append(context.cast(builder, args[2], sig.args[2], types.intp))
    return idx + [ir.Constant(ir.IntType(64), 0)]


@intrinsic
def _to_lanes(typingctx, x):
    """A float splatted over :data:`LANES` (lanes pass through)."""
    def codegen(context, builder, sig, args):
        return _vector(context, builder, sig.args[0], args[0], WIDTH)
    return LANES(x), codegen


@intrinsic
def _load_row(typingctx, ary, i, o):
    """The lanes ``ary[i, o, :]`` of a C-contiguous 3-D array (or ``ary[i, :]`` of a 2-D
    one when ``o`` is None); the last axis must have :data:`WIDTH` entries (the blocks
    and workspaces the batch drivers allocate)."""
    _require_block(ary, o)

    def codegen(context, builder, sig, args):
        idx = _indices(context, builder, sig, args)
        return builder.load(_row_pointer(context, builder, ary, args[0], idx, WIDTH), align=8)
    return LANES(ary, i, o), codegen


@intrinsic
def _store_row(typingctx, ary, i, o, value):
    _require_block(ary, o)

    def codegen(context, builder, sig, args):
        idx = _indices(context, builder, sig, args)
        builder.store(args[3], _row_pointer(context, builder, ary, args[0], idx, WIDTH), align=8)
        return context.get_dummy_value()
    return types.none(ary, i, o, value), codegen


# ----------------------------------------------------------------------------------------
# generic accessors: the float path is plain indexing, the lanes path a vector load/store.
# Each is a Python function whose body is the one-state meaning (what runs with
# NUMBA_DISABLE_JIT, e.g. in the operation-count probe) and whose compiled forms are
# picked by argument type in the @overload below it.

def at(q, k):
    """``q[k]``: a float of an (n,) array, the lanes of row k of an (n, WIDTH) block."""
    return q[k]


@overload(at, inline="always")
def _at(q, k):
    if q.ndim == 1:
        return lambda q, k: q[k]
    return lambda q, k: _load_row(q, k, None)


def put(q, k, x):
    """``q[k] = x`` for a float or a lanes row."""
    q[k] = x


@overload(put, inline="always")
def _put(q, k, x):
    if q.ndim == 1:
        def put1(q, k, x):
            q[k] = x
        return put1
    return lambda q, k, x: _store_row(q, k, None, _to_lanes(x))


def g1(ws, i, o):
    """``ws[i, o]`` of a 2-D workspace, the lanes ``ws[i, o, :]`` of a 3-D one."""
    return ws[i, o]


@overload(g1, inline="always")
def _g1(ws, i, o):
    if ws.ndim == 2:
        return lambda ws, i, o: ws[i, o]
    return lambda ws, i, o: _load_row(ws, i, o)


def s1(ws, i, o, x):
    """``ws[i, o] = x`` (the lanes ``ws[i, o, :]`` of a 3-D workspace)."""
    ws[i, o] = x


@overload(s1, inline="always")
def _s1(ws, i, o, x):
    if ws.ndim == 2:
        def s1_2(ws, i, o, x):
            ws[i, o] = x
        return s1_2
    return lambda ws, i, o, x: _store_row(ws, i, o, _to_lanes(x))


@njit(cache=True, inline="always")
def g3(ws, i, o):
    """The 3-tuple ws[i, o:o+3]."""
    return (g1(ws, i, o), g1(ws, i, o + 1), g1(ws, i, o + 2))


@njit(cache=True, inline="always")
def g6(ws, i, o):
    """The 6-tuple ws[i, o:o+6]."""
    return (g1(ws, i, o), g1(ws, i, o + 1), g1(ws, i, o + 2), g1(ws, i, o + 3),
            g1(ws, i, o + 4), g1(ws, i, o + 5))


@njit(cache=True, inline="always")
def g9(ws, i, o):
    """The 9-tuple ws[i, o:o+9]."""
    return (g1(ws, i, o), g1(ws, i, o + 1), g1(ws, i, o + 2), g1(ws, i, o + 3),
            g1(ws, i, o + 4), g1(ws, i, o + 5), g1(ws, i, o + 6), g1(ws, i, o + 7),
            g1(ws, i, o + 8))


@njit(cache=True, inline="always")
def s3(ws, i, o, v):
    s1(ws, i, o, v[0])
    s1(ws, i, o + 1, v[1])
    s1(ws, i, o + 2, v[2])


@njit(cache=True, inline="always")
def s6(ws, i, o, S):
    for k in range(6):
        s1(ws, i, o + k, S[k])


@njit(cache=True, inline="always")
def s9(ws, i, o, m):
    for k in range(9):
        s1(ws, i, o + k, m[k])


def clear(ws, i, lo, hi):
    """Set columns lo..hi−1 of workspace row i to zero."""
    ws[i, lo:hi] = 0.0


@overload(clear, inline="always")
def _clear(ws, i, lo, hi):
    if ws.ndim == 2:
        def clear2(ws, i, lo, hi):
            for c in range(lo, hi):
                ws[i, c] = 0.0
        return clear2

    def clear3(ws, i, lo, hi):
        for c in range(lo, hi):
            for j in range(ws.shape[2]):
                ws[i, c, j] = 0.0
    return clear3


def zero_of(q):
    """0 as the scalar type of the joint vector ``q``: 0.0 for an (n,) array, zero lanes
    for an (n, WIDTH) block."""
    return 0.0


@overload(zero_of, inline="always")
def _zero_of(q):
    if q.ndim == 1:
        return lambda q: 0.0
    return lambda q: _to_lanes(0.0)


def like(x, proto):
    """The float ``x`` (or a tuple of floats) as the scalar type of ``proto``."""
    return x


@overload(like, inline="always")
def _like(x, proto):
    if not isinstance(proto, Lanes):
        return lambda x, proto: x
    if not isinstance(x, types.BaseTuple):
        return lambda x, proto: _to_lanes(x)
    if len(x) == 3:
        return lambda x, proto: (_to_lanes(x[0]), _to_lanes(x[1]), _to_lanes(x[2]))
    if len(x) == 6:
        return lambda x, proto: (_to_lanes(x[0]), _to_lanes(x[1]), _to_lanes(x[2]),
                                 _to_lanes(x[3]), _to_lanes(x[4]), _to_lanes(x[5]))
    if len(x) == 9:
        return lambda x, proto: (_to_lanes(x[0]), _to_lanes(x[1]), _to_lanes(x[2]),
                                 _to_lanes(x[3]), _to_lanes(x[4]), _to_lanes(x[5]),
                                 _to_lanes(x[6]), _to_lanes(x[7]), _to_lanes(x[8]))


def sign(v):
    """1, 0 or −1 as a float, by selects (a branch on the random sign of a joint rate
    mispredicts half the time); 0 for NaN. Per lane for lanes."""
    return (1.0 if v > 0.0 else 0.0) - (1.0 if v < 0.0 else 0.0)


@overload(sign, inline="always")
def _sign(v):
    if isinstance(v, (Lanes, types.Float)):
        return lambda v: _select_sign(v)


def all_finite(x):
    """``math.isfinite(x)``; for lanes, whether every lane is finite."""
    return math.isfinite(x)


@overload(all_finite, inline="always")
def _all_finite(x):
    if isinstance(x, Lanes):
        return lambda x: _finite_lanes(x)
    return lambda x: math.isfinite(x)


def all_positive(x):
    """``x > 0`` (False for NaN); for lanes, whether every lane is."""
    return x > 0.0


@overload(all_positive, inline="always")
def _all_positive(x):
    if isinstance(x, Lanes):
        return lambda x: _positive_lanes(x)
    return lambda x: x > 0.0


# ----------------------------------------------------------------------------------------
# batches in blocks of WIDTH states

@njit(cache=True)
def pack(X, s0, hi, x):
    """States s0 … s0+WIDTH−1 of the batch ``X`` (N, n) into the block ``x`` (n, WIDTH),
    one state per column; columns at or past ``hi`` repeat state hi − 1 (they are
    computed and dropped)."""
    for j in range(WIDTH):
        s = min(s0 + j, hi - 1)
        for k in range(X.shape[1]):
            x[k, j] = X[s, k]


@njit(cache=True)
def unpack(x, X, s0, hi):
    """The block ``x`` (n, WIDTH) back into states s0 … min(s0+WIDTH, hi)−1 of ``X``."""
    for j in range(min(WIDTH, hi - s0)):
        for k in range(X.shape[1]):
            X[s0 + j, k] = x[k, j]


def blocks(N: int) -> int:
    """How many blocks of :data:`WIDTH` states hold N states (the unit a lanes batch is
    cut into for the parallel loop)."""
    return -(-N // WIDTH)


@njit(cache=True)
def chunk_states(c, nchunks, N):
    """States lo … hi−1 of chunk ``c`` of ``nchunks``: whole blocks of :data:`WIDTH`
    (only the batch's last block is padded)."""
    nblocks = (N + WIDTH - 1) // WIDTH
    lo = min(N, (c * nblocks // nchunks) * WIDTH)
    hi = min(N, ((c + 1) * nblocks // nchunks) * WIDTH)
    return lo, hi
