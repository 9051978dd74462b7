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
from numba.core.typing.templates import AbstractTemplate, infer_global, signature
from numba.extending import lower_builtin, models, register_model, type_callable

from . import lanewidth as _lanewidth
from .compile import install as _install_compile_notice

_install_compile_notice()  # before any eslabon kernel can compile (see eslabon._engine.compile)

# states per block: 8 (one 512-bit register of doubles) where numba targets AVX-512F,
# else 4 (one AVX2 register); ESLABON_LANES=4|8 overrides (see eslabon._engine.lanewidth)
WIDTH = _lanewidth.width()


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
    return builder.shuffle_vector(
        one,
        ir.Constant(vty, ir.Undefined),
        ir.Constant(ir.VectorType(ir.IntType(32), width), [0] * width),
    )


def _operands(a, b):
    """True when ``a op b`` is a lanes operation: one side lanes, the other lanes or real."""
    if not (isinstance(a, Lanes) or isinstance(b, Lanes)):
        return False
    return all(isinstance(t, (Lanes,) + _REAL) for t in (a, b))


def _register(ops, instruction):
    """Type ``a op b`` with a lanes side as lanes and lower it to one vector instruction
    (a real side splatted): no numba function per operator and call site."""
    for op in ops:

        @infer_global(op)
        class _LanesBinary(AbstractTemplate):
            def generic(self, args, kws):
                if len(args) == 2 and not kws and _operands(*args):
                    lanes = args[0] if isinstance(args[0], Lanes) else args[1]
                    return signature(lanes, *args)

        def lower(context, builder, sig, args, instruction=instruction):
            width = sig.return_type.width
            x = _vector(context, builder, sig.args[0], args[0], width)
            y = _vector(context, builder, sig.args[1], args[1], width)
            return getattr(builder, instruction)(x, y)

        for left in (Lanes, types.Float, types.Integer, types.Boolean):
            for right in (Lanes, types.Float, types.Integer, types.Boolean):
                if Lanes in (left, right):
                    lower_builtin(op, left, right)(lower)


_register((operator.add, operator.iadd), "fadd")
_register((operator.sub, operator.isub), "fsub")
_register((operator.mul, operator.imul), "fmul")
_register((operator.truediv, operator.itruediv), "fdiv")


@infer_global(operator.neg)
class _LanesNegate(AbstractTemplate):
    def generic(self, args, kws):
        if len(args) == 1 and not kws and isinstance(args[0], Lanes):
            return signature(args[0], args[0])


@lower_builtin(operator.neg, Lanes)
def _lower_negate(context, builder, sig, args):
    return builder.fneg(args[0])


def _row_pointer(context, builder, aryty, ary, indices, width):
    """Pointer to ``width`` contiguous doubles at ``ary[indices..., 0]`` as a vector."""
    ptr = _cell(context, builder, aryty, ary, indices)
    return builder.bitcast(ptr, ir.PointerType(ir.VectorType(ir.DoubleType(), width)))


def _require_block(ary, o):
    """Lanes are read and written as whole vectors: only C-contiguous float64 arrays, a 2-D
    block indexed by row (``o`` None) or a 3-D workspace indexed by (row, column)."""
    if not (
        isinstance(ary, types.Array)
        and ary.layout == "C"
        and ary.dtype == types.float64
        and ary.ndim == (2 if isinstance(o, types.NoneType) else 3)
    ):
        raise TypingError(
            f"lanes need a C-contiguous float64 (n, WIDTH) block or "
            f"(rows, columns, WIDTH) workspace, got {ary} indexed by {o}"
        )


# ----------------------------------------------------------------------------------------
# generic accessors: the float path is plain indexing, the lanes path a vector load/store.
# Each is a Python function whose body is the one-state meaning (what runs with
# NUMBA_DISABLE_JIT, e.g. in the operation-count probe); compiled code types and lowers
# a call to it directly (numba's type_callable / lower_builtin) into the loads, stores
# and selects below: no numba function is compiled or inlined per call site, which is
# what made the first compilation of a recursion slow (docs/performance.md).


def at(q, k):
    """``q[k]``: a float of an (n,) array, the lanes of row k of an (n, WIDTH) block."""
    return q[k]


def put(q, k, x):
    """``q[k] = x`` for a float or a lanes row."""
    q[k] = x


def g1(ws, i, o):
    """``ws[i, o]`` of a 2-D workspace, the lanes ``ws[i, o, :]`` of a 3-D one."""
    return ws[i, o]


def s1(ws, i, o, x):
    """``ws[i, o] = x`` (the lanes ``ws[i, o, :]`` of a 3-D workspace)."""
    ws[i, o] = x


def g3(ws, i, o):
    """The 3-tuple ws[i, o:o+3]."""
    return (ws[i, o], ws[i, o + 1], ws[i, o + 2])


def g6(ws, i, o):
    """The 6-tuple ws[i, o:o+6]."""
    return tuple(ws[i, o + k] for k in range(6))


def g9(ws, i, o):
    """The 9-tuple ws[i, o:o+9]."""
    return tuple(ws[i, o + k] for k in range(9))


def s3(ws, i, o, v):
    """ws[i, o:o+3] = the 3-tuple v."""
    for k in range(3):
        ws[i, o + k] = v[k]


def s6(ws, i, o, S):
    """ws[i, o:o+6] = the 6-tuple S."""
    for k in range(6):
        ws[i, o + k] = S[k]


def s9(ws, i, o, m):
    """ws[i, o:o+9] = the 9-tuple m."""
    for k in range(9):
        ws[i, o + k] = m[k]


def zero_of(q):
    """0 as the scalar type of the joint vector ``q``: 0.0 for an (n,) array, zero lanes
    for an (n, WIDTH) block."""
    return 0.0


def like(x, proto):
    """The float ``x`` (or a tuple of floats) as the scalar type of ``proto``."""
    return x


def sign(v):
    """1, 0 or −1 as a float, by selects (a branch on the random sign of a joint rate
    mispredicts half the time); 0 for NaN. Per lane for lanes."""
    return (1.0 if v > 0.0 else 0.0) - (1.0 if v < 0.0 else 0.0)


def all_finite(x):
    """``math.isfinite(x)``; for lanes, whether every lane is finite."""
    return math.isfinite(x)


def sqrt(x):
    """``math.sqrt(x)`` (NaN below 0: the callers test positivity first); per lane for
    lanes. IEEE square root, correctly rounded: the same bits either way."""
    return math.sqrt(x)


def all_positive(x):
    """``x > 0`` (False for NaN); for lanes, whether every lane is."""
    return x > 0.0


def _cell(context, builder, aryty, ary, idx):
    """Pointer to the float ``ary[idx]`` (indices as intp, from 0: no negative index
    wraps around, as none does in the kernels). A C-contiguous array's
    address is computed from its data pointer and shape read off the array value itself
    (no copy of the array structure on the stack)."""
    if aryty.layout != "C":
        arr = context.make_array(aryty)(context, builder, ary)
        return cgutils.get_item_pointer(context, builder, aryty, arr, idx)
    model = context.data_model_manager[aryty]
    data = builder.extract_value(ary, model.get_field_position("data"))
    shape = builder.extract_value(ary, model.get_field_position("shape"))
    offset = idx[0]
    for axis in range(1, len(idx)):
        offset = builder.add(builder.mul(offset, builder.extract_value(shape, axis)), idx[axis])
    return builder.gep(data, [offset], inbounds=True)


def _intp(context, builder, ty, value):
    return context.cast(builder, value, ty, types.intp)


def _workspace_cells(context, builder, sig, args, count):
    """(pointers, cell type) of ``count`` consecutive workspace cells ws[i, o + j] (the
    lanes ws[i, o + j, :] of a 3-D workspace): the address of the first is computed once,
    the others are constant offsets from it in a C-contiguous workspace."""
    wsty, ws = sig.args[0], args[0]
    i = _intp(context, builder, sig.args[1], args[1])
    o = _intp(context, builder, sig.args[2], args[2])
    if wsty.ndim == 2:
        if wsty.layout != "C":
            cols = [builder.add(o, ir.Constant(o.type, j)) for j in range(count)]
            return [_cell(context, builder, wsty, ws, [i, c]) for c in cols], types.float64
        first = _cell(context, builder, wsty, ws, [i, o])
        elem = types.float64
    else:
        _require_block(wsty, types.int64)
        zero = ir.Constant(ir.IntType(64), 0)
        first = _row_pointer(context, builder, wsty, ws, [i, o, zero], WIDTH)
        elem = LANES
    return [first] + [
        builder.gep(first, [ir.Constant(ir.IntType(64), j)], inbounds=True) for j in range(1, count)
    ], elem


def _indices_ok(*idx):
    if not all(isinstance(t, types.Integer) for t in idx):
        raise TypingError(f"expected integer indices, got {idx}")


def _writable(ary):
    if not ary.mutable:
        raise TypingError(f"cannot write into a read-only array ({ary})")


def _workspace_type(ws):
    if isinstance(ws, types.Array) and ws.ndim == 3:
        _require_block(ws, types.int64)
        return LANES
    if not (isinstance(ws, types.Array) and ws.dtype == types.float64 and ws.ndim == 2):
        raise TypingError(
            f"a workspace is a 2-D float64 array or a C-contiguous float64 "
            f"(rows, columns, WIDTH) one, got {ws}"
        )
    return types.float64


def _register_get(fn, count):
    @type_callable(fn)
    def typer(context):
        def typing(ws, i, o):
            _indices_ok(i, o)
            elem = _workspace_type(ws)
            return elem if count == 1 else types.UniTuple(elem, count)

        return typing

    @lower_builtin(fn, types.Array, types.Integer, types.Integer)
    def lower(context, builder, sig, args):
        ptrs, elem = _workspace_cells(context, builder, sig, args, count)
        vals = [builder.load(p, align=8) if elem is LANES else builder.load(p) for p in ptrs]
        return vals[0] if count == 1 else context.make_tuple(builder, sig.return_type, vals)


def _store_value(context, builder, ty, value, elem):
    """``value`` of numba type ``ty`` as what a cell of type ``elem`` holds."""
    if elem is LANES:
        return _vector(context, builder, ty, value, WIDTH)
    return context.cast(builder, value, ty, types.float64)


def _register_set(fn, count):
    @type_callable(fn)
    def typer(context):
        def typing(ws, i, o, v):
            _indices_ok(i, o)
            _writable(ws)
            _workspace_type(ws)
            return types.none

        return typing

    @lower_builtin(fn, types.Array, types.Integer, types.Integer, types.Any)
    def lower(context, builder, sig, args):
        ptrs, elem = _workspace_cells(context, builder, sig, args, count)
        vty, v = sig.args[3], args[3]
        if count == 1:
            items = [(vty, v)]
        else:
            items = [(vty[j], builder.extract_value(v, j)) for j in range(count)]
        for p, (ty, x) in zip(ptrs, items, strict=True):
            y = _store_value(context, builder, ty, x, elem)
            builder.store(y, p, align=8) if elem is LANES else builder.store(y, p)
        return context.get_dummy_value()


def array_getter(count, shift=0):
    """Decorator: register the Python function ``f(a, o)`` = the ``count``-tuple
    ``a[o + shift:o + shift + count]`` of a 1-D float64 array (a model's packed data) as
    loads."""

    def register(fn):
        @type_callable(fn)
        def typer(context):
            def typing(a, o):
                _indices_ok(o)
                if (
                    isinstance(a, types.Array)
                    and a.ndim == 1
                    and a.dtype == types.float64
                    and a.layout == "C"
                ):  # consecutive cells (lowered as offsets)
                    return types.UniTuple(types.float64, count)

            return typing

        @lower_builtin(fn, types.Array, types.Integer)
        def lower(context, builder, sig, args):
            aty, a = sig.args[0], args[0]
            o = _intp(context, builder, sig.args[1], args[1])
            if shift:
                o = builder.add(o, ir.Constant(o.type, shift))
            first = _cell(context, builder, aty, a, [o])
            ptrs = [first] + [
                builder.gep(first, [ir.Constant(ir.IntType(64), j)], inbounds=True)
                for j in range(1, count)
            ]
            return context.make_tuple(builder, sig.return_type, [builder.load(p) for p in ptrs])

        return fn

    return register


def array_setter(count):
    """Decorator: register ``f(a, o, v)``: ``a[o:o+count] = v`` (a tuple of floats) for a
    1-D float64 array, as stores."""

    def register(fn):
        @type_callable(fn)
        def typer(context):
            def typing(a, o, v):
                _indices_ok(o)
                if (
                    isinstance(a, types.Array)
                    and a.ndim == 1
                    and a.dtype == types.float64
                    and a.layout == "C"
                    and isinstance(v, types.BaseTuple)
                    and len(v) == count
                ):
                    _writable(a)
                    return types.none

            return typing

        @lower_builtin(fn, types.Array, types.Integer, types.BaseTuple)
        def lower(context, builder, sig, args):
            aty, a = sig.args[0], args[0]
            o = _intp(context, builder, sig.args[1], args[1])
            first = _cell(context, builder, aty, a, [o])
            for j in range(count):
                ptr = (
                    first
                    if j == 0
                    else builder.gep(first, [ir.Constant(ir.IntType(64), j)], inbounds=True)
                )
                x = context.cast(
                    builder, builder.extract_value(args[2], j), sig.args[2][j], types.float64
                )
                builder.store(x, ptr)
            return context.get_dummy_value()

        return fn

    return register


for _fn, _n in ((g1, 1), (g3, 3), (g6, 6), (g9, 9)):
    _register_get(_fn, _n)
for _fn, _n in ((s1, 1), (s3, 3), (s6, 6), (s9, 9)):
    _register_set(_fn, _n)


def _vector_type(q):
    """float64 for an (n,) joint vector, lanes for an (n, WIDTH) block."""
    if isinstance(q, types.Array) and q.ndim == 2:
        _require_block(q, types.none)
        return LANES
    if not (isinstance(q, types.Array) and q.dtype == types.float64 and q.ndim == 1):
        raise TypingError(
            f"a joint vector is a 1-D float64 array or a C-contiguous float64 "
            f"(n, WIDTH) block, got {q}"
        )
    return types.float64


@type_callable(at)
def _type_at(context):
    def typing(q, k):
        _indices_ok(k)
        return _vector_type(q)

    return typing


@lower_builtin(at, types.Array, types.Integer)
def _lower_at(context, builder, sig, args):
    qty, q = sig.args[0], args[0]
    k = _intp(context, builder, sig.args[1], args[1])
    if qty.ndim == 1:
        return builder.load(_cell(context, builder, qty, q, [k]))
    _require_block(qty, types.none)
    zero = ir.Constant(ir.IntType(64), 0)
    return builder.load(_row_pointer(context, builder, qty, q, [k, zero], WIDTH), align=8)


@type_callable(put)
def _type_put(context):
    def typing(q, k, x):
        _indices_ok(k)
        _writable(q)
        _vector_type(q)
        return types.none

    return typing


@lower_builtin(put, types.Array, types.Integer, types.Any)
def _lower_put(context, builder, sig, args):
    qty, q = sig.args[0], args[0]
    k = _intp(context, builder, sig.args[1], args[1])
    elem = _vector_type(qty)
    y = _store_value(context, builder, sig.args[2], args[2], elem)
    if qty.ndim == 1:
        builder.store(y, _cell(context, builder, qty, q, [k]))
    else:
        _require_block(qty, types.none)
        zero = ir.Constant(ir.IntType(64), 0)
        builder.store(y, _row_pointer(context, builder, qty, q, [k, zero], WIDTH), align=8)
    return context.get_dummy_value()


@type_callable(zero_of)
def _type_zero_of(context):
    return lambda q: _vector_type(q)


@lower_builtin(zero_of, types.Array)
def _lower_zero_of(context, builder, sig, args):
    if sig.return_type is LANES:
        return ir.Constant(ir.VectorType(ir.DoubleType(), WIDTH), [0.0] * WIDTH)
    return ir.Constant(ir.DoubleType(), 0.0)


def _liked(x, proto):
    if not isinstance(proto, Lanes):
        return x
    if isinstance(x, types.BaseTuple):
        if not all(isinstance(t, _REAL + (Lanes,)) for t in x):
            raise TypingError(f"like: expected numbers, got {x}")
        return types.UniTuple(LANES, len(x))
    if not isinstance(x, _REAL + (Lanes,)):
        raise TypingError(f"like: expected a number, got {x}")
    return LANES


@type_callable(like)
def _type_like(context):
    return _liked


@lower_builtin(like, types.Any, types.Any)
def _lower_like(context, builder, sig, args):
    xty, x = sig.args[0], args[0]
    if not isinstance(sig.args[1], Lanes):
        return x
    if not isinstance(xty, types.BaseTuple):
        return _vector(context, builder, xty, x, WIDTH)
    vals = [
        _vector(context, builder, xty[j], builder.extract_value(x, j), WIDTH)
        for j in range(len(xty))
    ]
    return context.make_tuple(builder, sig.return_type, vals)


def _register_scalar(fn, result, codegen):
    """``fn`` of a float or lanes argument, lowered by ``codegen(builder, x, width)``
    (width None for a float)."""

    @type_callable(fn)
    def typer(context):
        def typing(x):
            if isinstance(x, (Lanes, types.Float)):
                return result(x)

        return typing

    @lower_builtin(fn, types.Any)
    def lower(context, builder, sig, args):
        ty, x = sig.args[0], args[0]
        if isinstance(ty, types.Float) and ty != types.float64:
            x = context.cast(builder, x, ty, types.float64)
        return codegen(builder, x, ty.width if isinstance(ty, Lanes) else None)


def _const(width, value):
    if width is None:
        return ir.Constant(ir.DoubleType(), value)
    return ir.Constant(ir.VectorType(ir.DoubleType(), width), [value] * width)


def _sign_code(builder, x, width):
    zero, one = _const(width, 0.0), _const(width, 1.0)
    pos = builder.select(builder.fcmp_ordered(">", x, zero), one, zero)
    neg = builder.select(builder.fcmp_ordered("<", x, zero), one, zero)
    return builder.fsub(pos, neg)


def _every(bits, width, builder):
    if width is None:
        return bits
    ok = builder.extract_element(bits, ir.Constant(ir.IntType(32), 0))
    for j in range(1, width):
        ok = builder.and_(ok, builder.extract_element(bits, ir.Constant(ir.IntType(32), j)))
    return ok


def _sqrt_intrinsic(module, width):
    """LLVM's ``llvm.sqrt`` for a double (width None) or a ``<width x double>``."""
    if width is None:
        return module.declare_intrinsic("llvm.sqrt", [ir.DoubleType()])
    ty = ir.VectorType(ir.DoubleType(), width)
    fnty = ir.FunctionType(ty, [ty])
    return cgutils.get_or_insert_function(module, fnty, f"llvm.sqrt.v{width}f64")


# x − x is 0 for a finite x and NaN for inf or NaN
_register_scalar(sign, lambda x: x if isinstance(x, Lanes) else types.float64, _sign_code)
_register_scalar(
    all_finite,
    lambda x: types.boolean,
    lambda b, x, w: _every(b.fcmp_ordered("==", b.fsub(x, x), _const(w, 0.0)), w, b),
)
_register_scalar(
    sqrt,
    lambda x: x if isinstance(x, Lanes) else types.float64,
    lambda b, x, w: b.call(_sqrt_intrinsic(b.module, w), [x]),
)
_register_scalar(
    all_positive,
    lambda x: types.boolean,
    lambda b, x, w: _every(b.fcmp_ordered(">", x, _const(w, 0.0)), w, b),
)


def clear(ws, i, lo, hi):
    """Set columns lo..hi−1 of workspace row i to zero."""
    ws[i, lo:hi] = 0.0


@type_callable(clear)
def _type_clear(context):
    def typing(ws, i, lo, hi):
        _indices_ok(i, lo, hi)
        _writable(ws)
        _workspace_type(ws)
        return types.none

    return typing


@lower_builtin(clear, types.Array, types.Integer, types.Integer, types.Integer)
def _lower_clear(context, builder, sig, args):
    """One memset: columns lo..hi−1 of a row are contiguous in a C-contiguous workspace
    (with their lanes, in a 3-D one)."""
    wsty, ws = sig.args[0], args[0]
    if wsty.layout != "C":
        raise TypingError(f"clear: expected a C-contiguous workspace, got {wsty}")
    i, lo, hi = (_intp(context, builder, t, v) for t, v in zip(sig.args[1:], args[1:], strict=True))
    idx = [i, lo] + ([ir.Constant(ir.IntType(64), 0)] if wsty.ndim == 3 else [])
    first = _cell(context, builder, wsty, ws, idx)
    count = builder.sub(hi, lo)
    if wsty.ndim == 3:
        shape = builder.extract_value(
            ws, context.data_model_manager[wsty].get_field_position("shape")
        )
        count = builder.mul(count, builder.extract_value(shape, 2))
    with builder.if_then(builder.icmp_signed(">", count, ir.Constant(count.type, 0))):
        cgutils.memset(builder, first, builder.mul(count, ir.Constant(count.type, 8)), 0)
    return context.get_dummy_value()


# ----------------------------------------------------------------------------------------
# batches in blocks of WIDTH states


@njit(cache=True, fastmath=False)  # stated: see outward_pass, above _near_angles
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


@njit(cache=True)
def unpack_squares(x, X, s0, hi):
    """The block ``x`` (n, m, WIDTH) back into states s0 … min(s0+WIDTH, hi)−1 of ``X``
    (N, n, m)."""
    for j in range(min(WIDTH, hi - s0)):
        for a in range(X.shape[1]):
            for b in range(X.shape[2]):
                X[s0 + j, a, b] = x[a, b, j]
