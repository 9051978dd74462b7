"""Tuple algebra for the compiled kernels, lowered by tracing its Python definition.

The 3-vector and 3×3 helpers of :mod:`.tuples` (``add``, ``cross``, ``mv``, ``mm``, …) are
plain Python functions over tuples of numbers. A numba function per helper would be
compiled once per helper and argument type (one full compiler pipeline each, most of the
time a first call spends compiling) and then inlined by LLVM; instead,
:func:`tuple_function` registers the helper with numba so that a call in compiled code is
typed and lowered directly: at compile time the Python body runs once on *symbolic*
numbers that emit the LLVM instruction of each ``+``, ``-``, ``*`` and unary ``-`` they
meet, in the order Python evaluates them. The machine code is what numba would produce
for the same expression (``fadd``, ``fsub``, ``fmul``; a float negated as numba does,
``-0.0 − x``), so the results are the same bit for bit; the Python function itself still
runs as Python (``NUMBA_DISABLE_JIT``, the operation-count probe).

Each argument is a float64, :class:`~.lanes.Lanes` or a tuple of them (a float meeting
lanes is splatted, as the lanes operators do); another type (an integer, float32) finds
no implementation, so a call that would compute differently from numba does not
compile. Division, comparisons, truth values and ``abs`` are not traced (they raise at
compile time): a helper that needs them is a numba function.
"""

from __future__ import annotations

import inspect

import llvmlite.ir as ir
from numba import types
from numba.core.errors import TypingError
from numba.extending import lower_builtin, type_callable

from .lanes import LANES, Lanes, _vector


def _number(ty) -> bool:
    return ty == types.float64 or isinstance(ty, Lanes)


def _untraceable(*args):
    raise TypingError(
        "tuple_function: only + - * and unary - are traced (no division, "
        "comparison, truth value or abs)"
    )


class _Kind:
    """A number's type while typing a call: float64 or lanes."""

    __slots__ = ("ty",)

    def __init__(self, ty):
        self.ty = ty

    def _result(self, other):
        other = _kind_of(other)
        return _Kind(LANES if LANES in (self.ty, other.ty) else types.float64)

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _result

    def __neg__(self):
        return self

    __truediv__ = __rtruediv__ = __floordiv__ = __pow__ = __abs__ = __bool__ = _untraceable
    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = __ne__ = _untraceable
    __hash__ = None


def _kind_of(x):
    if isinstance(x, _Kind):
        return x
    if isinstance(x, (int, float)):
        return _Kind(types.float64)
    raise TypingError(f"tuple_function: cannot trace {x!r}")


def _kinds(ty):
    """The symbolic form of an argument type, or None if it is not float64 or lanes."""
    if _number(ty):
        return _Kind(LANES if isinstance(ty, Lanes) else types.float64)
    if isinstance(ty, types.BaseTuple) and all(_number(t) for t in ty):
        return tuple(_Kind(LANES if isinstance(t, Lanes) else types.float64) for t in ty)
    return None


def _type_of(result):
    if isinstance(result, _Kind):
        return result.ty
    if isinstance(result, (int, float)):
        return types.float64
    if isinstance(result, tuple):
        return types.BaseTuple.from_types([_type_of(x) for x in result])
    raise TypingError(f"tuple_function: unsupported result {result!r}")


class _Value:
    """A number's LLVM value while lowering a call."""

    __slots__ = ("context", "builder", "value", "ty")

    def __init__(self, context, builder, value, ty):
        self.context, self.builder, self.value, self.ty = context, builder, value, ty

    def _as(self, ty):
        if ty is self.ty:
            return self.value
        return _vector(self.context, self.builder, self.ty, self.value, ty.width)

    def _binary(self, other, instruction, reverse=False):
        other = _value_of(other, self.context, self.builder)
        a, b = (other, self) if reverse else (self, other)
        ty = LANES if LANES in (a.ty, b.ty) else types.float64
        return _Value(
            self.context, self.builder, getattr(self.builder, instruction)(a._as(ty), b._as(ty)), ty
        )

    def __add__(self, other):
        return self._binary(other, "fadd")

    def __radd__(self, other):
        return self._binary(other, "fadd", reverse=True)

    def __sub__(self, other):
        return self._binary(other, "fsub")

    def __rsub__(self, other):
        return self._binary(other, "fsub", reverse=True)

    def __mul__(self, other):
        return self._binary(other, "fmul")

    def __rmul__(self, other):
        return self._binary(other, "fmul", reverse=True)

    __truediv__ = __rtruediv__ = __floordiv__ = __pow__ = __abs__ = __bool__ = _untraceable
    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = __ne__ = _untraceable
    __hash__ = None

    def __neg__(self):
        if isinstance(self.ty, Lanes):  # as the lanes operator
            return _Value(self.context, self.builder, self.builder.fneg(self.value), self.ty)
        minus_zero = ir.Constant(ir.DoubleType(), -0.0)  # as numba negates a float
        return _Value(
            self.context, self.builder, self.builder.fsub(minus_zero, self.value), self.ty
        )


def _value_of(x, context, builder):
    if isinstance(x, _Value):
        return x
    return _Value(context, builder, ir.Constant(ir.DoubleType(), float(x)), types.float64)


def _argument(context, builder, ty, value):
    """The symbolic form of one lowered argument."""

    def scalar(t, v):
        return _Value(context, builder, v, t)

    if isinstance(ty, types.BaseTuple):
        return tuple(scalar(t, builder.extract_value(value, j)) for j, t in enumerate(ty))
    return scalar(ty, value)


def _lowered(result, ty, context, builder):
    if isinstance(ty, types.BaseTuple):
        return context.make_tuple(
            builder, ty, [_lowered(r, t, context, builder) for r, t in zip(result, ty, strict=True)]
        )
    return (
        _value_of(result, context, builder)._as(ty)
        if isinstance(ty, Lanes)
        else _value_of(result, context, builder).value
    )


def tuple_function(fn):
    """Register the Python tuple function ``fn`` with numba (see the module docstring);
    returns ``fn`` itself."""
    params = list(inspect.signature(fn).parameters)

    def result_type(*args):
        kinds = [_kinds(a) for a in args]
        if any(k is None for k in kinds):
            return None  # not numbers: no implementation
        return _type_of(fn(*kinds))

    # numba folds arguments by the typer's own signature: give it fn's parameter names
    namespace = {"result_type": result_type}
    exec(f"def typer({', '.join(params)}):\n    return result_type({', '.join(params)})", namespace)

    @type_callable(fn)
    def _typer(context):
        return namespace["typer"]

    @lower_builtin(fn, *([types.Any] * len(params)))
    def _lower(context, builder, sig, args):
        values = [_argument(context, builder, t, v) for t, v in zip(sig.args, args, strict=True)]
        return _lowered(fn(*values), sig.return_type, context, builder)

    return fn
