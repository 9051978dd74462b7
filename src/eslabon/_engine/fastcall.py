"""Per-call entry points: one state straight from Python into the compiled kernels.

Calling a numba dispatcher costs about 0.1 µs per array argument plus the allocation of
the result, and a Python wrapper another 0.1 µs (docs/performance.md, "Per call"): most of
a 6-DOF inverse dynamics. So each per-call quantity is a numba ``@cfunc`` (C calling
convention, no boxing) over the same ``*_call`` kernel the general path uses, and the
public function itself is a builtin made by the small C extension ``eslabon._fastcall``
(:func:`public`): it reads ``model.packed_dynamics`` (fixed joints folded,
:func:`eslabon.model.fold.fold_fixed`; axes on z, :func:`eslabon.model.reframe.axes_on_z`)
and the numpy buffers, allocates the result
and calls the function pointer.

The public function takes that lean path when the model is a ``Model`` (its packed
array was validated when it was built; the kernels trust its inner fields), every state
argument is a float64 C-contiguous (nq,) array, no keyword is given and the kernel reports
success; anything
else (lists, other dtypes, batches, keywords, a non-finite value, a mass matrix that is
not positive definite, ...) goes to the Python function of the same name, the general
path, which converts, runs batches and raises an error naming the field. Both paths run
the same kernels. Without the C extension (no compiler at install time) the public
function is the general path itself: same results, slower calls.

The drivers module defines the cfunc of each quantity over its kernel (e.g.
:data:`eslabon.dynamics.drivers.inverse_dynamics_entry`) with the one C signature
:data:`SIGNATURE`, ``int64 f(P, a, b, c, out0, out1, out2)`` (pointers to float64; unused
ones are NULL), so one C wrapper serves them all.
"""

from __future__ import annotations

import inspect

from numba import carray, njit, types
from numba.extending import intrinsic

from .layout import H_NB, H_NV, HEADER, STRIDE

try:
    from . import _fastcall
except ImportError:  # built without a C compiler: the general path is used
    _fastcall = None

AVAILABLE = _fastcall is not None

_PTR = types.CPointer(types.float64)
SIGNATURE = types.int64(_PTR, _PTR, _PTR, _PTR, _PTR, _PTR, _PTR)
# entries with three or more outputs: (P, a, b, c, out0 … out5, scratch)
WIDE_SIGNATURE = types.int64(*([_PTR] * 11))


# What an entry returns on success. A numba cfunc that raises (say MemoryError) only warns
# and returns 0, so 0 must not mean success; the C side (ENTRY_OK) checks this value.
ENTRY_OK = 0x5AFE


@njit(cache=True, inline="always")
def entry_status(status):
    """An entry's return value from a kernel status (0 ok, else the failure code)."""
    return ENTRY_OK if status == 0 else status


@intrinsic
def _read_only(typingctx, array):
    """The same array typed read-only (no code: the flag exists only in the type)."""

    def codegen(context, builder, sig, args):
        return args[0]

    return array.copy(readonly=True)(array), codegen


@intrinsic
def _shifted(typingctx, pointer, count):
    """The pointer ``count`` elements further (an address computation, no call: slicing
    a 1-D carray and reshaping it called numba's reshape helper, about 14 ns)."""

    def codegen(context, builder, sig, args):
        return builder.gep(args[0], [args[1]])

    return pointer(pointer, count), codegen


@njit(cache=True, inline="always")
def packed_model(p):
    """The packed model array behind the pointer (its length is in its header), typed
    read-only like ``Model.packed``: every kernel is then compiled once for both the
    fast and the general path, not once per kind of array."""
    return _read_only(carray(p, HEADER + (int(p[H_NB]) + 1) * STRIDE))


def _text_signature(fn) -> str:
    """``name(params)`` without annotations: the first line of a builtin's docstring."""
    sig = inspect.signature(fn)
    params = [p.replace(annotation=inspect.Parameter.empty) for p in sig.parameters.values()]
    return fn.__name__ + str(
        sig.replace(parameters=params, return_annotation=inspect.Signature.empty)
    )


def public(
    general,
    entry,
    n_in: int,
    out_ranks: tuple,
    model_type: type,
    entry_extended=None,
    scratch_cols: int = 0,
    scratch_squares: int = 0,
    result_type=None,
):
    """The public function for ``general``, the Python general path of the same name.

    ``entry`` is the cfunc (signature :data:`SIGNATURE`, returning :func:`entry_status`)
    reading ``n_in`` states and writing outputs of the shapes ``out_ranks`` (1: (nv,),
    2: (nv, nv), 3: (2 nv, 2 nv), 4: (2 nv, nv)); with three or more outputs its
    signature is :data:`WIDE_SIGNATURE`. ``entry`` is
    a :class:`~eslabon._engine.compile.LazyCFunc`: it is compiled on the first
    call that takes the lean path, not here. Only instances of exactly ``model_type`` (the
    model class, whose packed array was validated when it was built) take the lean path;
    a model that needs the extended joint set (:mod:`eslabon._engine.joints`) takes it
    through ``entry_extended``, the twin of ``entry`` compiled for that set (None: such
    models take the general path). With the C extension: a builtin function that runs
    ``entry`` on plain (nq,) states and calls ``general`` with the same arguments
    otherwise (``f.__self__.general`` is ``general``, ``f.__self__.fast(model, ...)`` the
    lean path alone). ``scratch_cols`` > 0: the entry takes, after its outputs, a
    scratch buffer of (nb + 1) · scratch_cols + nv + scratch_squares · nv² doubles for
    its workspace, so that it allocates nothing (:func:`scratch`, :func:`squares`).
    ``result_type``: None, or a callable the outputs are passed to (a named tuple).
    Without the extension: ``general`` itself.
    """
    wide = len(out_ranks) >= 3
    for e in (entry, entry_extended):  # a wrong signature would be undefined behaviour in C
        if e is not None and (e.signature == WIDE_SIGNATURE) != wide:
            raise ValueError(
                f"{e.__name__}: an entry with {len(out_ranks)} outputs must have the "
                f"{'wide' if wide else '7-pointer'} signature"
            )
    if _fastcall is None:
        return general
    doc = f"{_text_signature(general)}\n--\n\n{inspect.cleandoc(general.__doc__ or '')}"
    return _fastcall.public(
        0,
        n_in,
        tuple(out_ranks),
        HEADER,
        STRIDE,
        entry,
        general,
        general.__name__,
        doc,
        general.__module__,
        model_type,
        entry_extended,
        scratch_cols,
        scratch_squares,
        result_type,
    )


@njit(cache=True, inline="always")
def scratch(o, p, cols):
    """The scratch buffer the C entry passes after the outputs (``public``'s
    ``scratch_cols``) as (workspace (nb + 1, cols), zeros (nv,))."""
    rows, n = int(p[H_NB]) + 1, int(p[H_NV])
    zeros = carray(_shifted(o, rows * cols), n)
    zeros[:] = 0.0
    return carray(o, (rows, cols)), zeros


@njit(cache=True, inline="always")
def squares(o, p, cols, count):
    """The scratch buffer of an entry with ``count`` (nv, nv) blocks after the vector
    (``public``'s ``scratch_squares``) as (workspace (nb + 1, cols), zeros (nv,),
    blocks (count, nv, nv))."""
    rows, n = int(p[H_NB]) + 1, int(p[H_NV])
    zeros = carray(_shifted(o, rows * cols), n)
    zeros[:] = 0.0
    blocks = carray(_shifted(o, rows * cols + n), (count, n, n))
    return carray(o, (rows, cols)), zeros, blocks
