"""Per-call public functions: one state straight from Python into the compiled kernels.

Calling a numba dispatcher costs about 0.1 µs per array argument plus the allocation of
the result, and a Python wrapper another 0.1 µs (docs/performance.md, "Per call"): most of
a 6-DOF inverse dynamics. So the public function of each per-call quantity is a builtin
made by the small C extension ``eslabon._engine._fastcall`` (:func:`public`): it reads
``model.packed_dynamics`` (fixed joints folded, :func:`eslabon.model.fold.fold_fixed`;
axes on z, :func:`eslabon.model.reframe.axes_on_z`) and the numpy buffers, allocates the
result and calls the C entry of the quantity (:mod:`.fastcall`) through its function
pointer.

The public function takes that lean path when the model is a ``Model`` (its packed
array was validated when it was built; the kernels trust its inner fields), every state
argument is a float64 C-contiguous (nq,) array, no keyword is given and the kernel reports
success; anything else (lists, other dtypes, batches, keywords, a non-finite value, a mass
matrix that is not positive definite, ...) goes to the Python function of the same name,
the general path, which converts, runs batches and raises an error naming the field. Both
paths run the same kernels. Without the C extension (no compiler at install time) the
public function is the general path itself: same results, slower calls.

The function pointer is found on the first lean call (:class:`Entry`): in the start-up
library when there is one (:mod:`.startlib`: no numba in the process), else by compiling
the entry or loading it from numba's cache. Nothing here imports numba.
"""

from __future__ import annotations

import importlib

from . import startlib
from .layout import HEADER, STRIDE

try:
    from . import _fastcall
except ImportError:  # built without a C compiler: the general path is used
    _fastcall = None

AVAILABLE = _fastcall is not None

POINTERS, WIDE_POINTERS = 7, 11  # of the two C signatures (fastcall.SIGNATURE, WIDE_…)


def _pointers(lazy) -> int:
    """How many pointers the C signature of a compiled entry takes."""
    return len(lazy.signature.args)


def _check_signature(name: str, pointers: int, wide: bool) -> None:
    """A wrong signature would be undefined behaviour in C: refuse it."""
    if pointers != (WIDE_POINTERS if wide else POINTERS):
        raise ValueError(
            f"{name}: an entry with {'three or more' if wide else 'one or two'} outputs "
            f"must have the {'wide' if wide else '7-pointer'} signature"
        )


class Entry:
    """The C entry ``name`` of the module ``module`` (a
    :class:`~eslabon._engine.compile.LazyCFunc` there), found on first use of
    :attr:`address`: in the start-up library, else compiled or loaded from numba's cache.
    ``wide``: the entry has three or more outputs (:data:`WIDE_POINTERS`)."""

    def __init__(self, module: str, name: str, wide: bool):
        self.module, self.__name__, self.wide = module, name, wide
        self.qualified = f"{module}.{name}"
        self.source = None  # "library" or "compiled" once resolved

    def compiled_entry(self):
        """The LazyCFunc itself (imports its module, and numba)."""
        lazy = getattr(importlib.import_module(self.module), self.__name__)
        _check_signature(self.qualified, _pointers(lazy), self.wide)
        return lazy

    @property
    def address(self) -> int:
        library = startlib.opened()
        record = None if library is None else library.layout(self.qualified)
        if record is not None:
            _check_signature(self.qualified, record["pointers"], self.wide)
            self.source = "library"
            return record["address"]
        address = self.compiled_entry().address
        self.source = "compiled"
        return address


def entry_pair(module: str, name: str, wide: bool = False):
    """(entry, its twin for the extended joint set, scratch columns, scratch squares)
    of the C entry ``name`` of ``module``: :func:`public`'s arguments. The scratch sizes
    come from the start-up library's manifest when it holds the entry (numba is not
    imported), else from the module's ``SCRATCH_COLS`` and ``SCRATCH_SQUARES``."""
    entries = Entry(module, name, wide), Entry(module, name + "_extended", wide)
    library = startlib.opened()
    record = None if library is None else library.layout(entries[0].qualified)
    if record is not None:
        cols, squares = record["scratch_cols"], record["scratch_squares"]
    else:
        drivers = importlib.import_module(module)
        cols = drivers.SCRATCH_COLS.get(name, 0)
        squares = getattr(drivers, "SCRATCH_SQUARES", {}).get(name, 0)
    return entries[0], entries[1], cols, squares


def _text_signature(fn) -> str:
    """``name(params)`` without annotations: the first line of a builtin's docstring."""
    import inspect

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
    packed: str = "packed_dynamics",
    frames: tuple | None = None,
):
    """The public function for ``general``, the Python general path of the same name.

    ``entry`` is the C entry (an :class:`Entry`, or the
    :class:`~eslabon._engine.compile.LazyCFunc` itself; signature
    :data:`eslabon._engine.fastcall.SIGNATURE`, returning
    :func:`eslabon._engine.fastcall.entry_status`) reading ``n_in`` states and writing
    outputs of the shapes ``out_ranks`` (1: (nv,), 2: (nv, nv), 3: (2 nv, 2 nv), 4:
    (2 nv, nv)); with three or more outputs its signature is the wide one. Its address
    is resolved on the first call that takes the lean path, not here. Only instances of
    exactly ``model_type`` (the model class, whose packed array was validated when it was
    built) take the lean path; a model that needs the extended joint set
    (:mod:`eslabon._engine.joints`) takes it through ``entry_extended``, the twin of
    ``entry`` compiled for that set (None: such models take the general path). With the
    C extension: a builtin function that runs ``entry`` on plain (nq,) states and calls
    ``general`` with the same arguments otherwise (``f.__self__.general`` is ``general``,
    ``f.__self__.fast(model, ...)`` the lean path alone). ``scratch_cols`` > 0: the
    entry takes, after its outputs, a scratch buffer of (nb + 1) · scratch_cols + nv +
    scratch_squares · nv² doubles for its workspace, so that it allocates nothing
    (:func:`eslabon._engine.fastcall.scratch`, :func:`~eslabon._engine.fastcall.squares`).
    ``result_type``: None, or a callable the outputs are passed to (a named tuple).
    ``packed``: the model's attribute holding the packed array the entry reads.
    ``frames``: None, or ``(table, default, options, choices)`` for a quantity of one
    named frame of ``model.<table>`` (a dict {frame name: float64 (13,): the packed row
    of its body, then its placement, rotation row-major and origin}): the function takes
    after its ``n_in`` (1 or 2) states up to two parameters named ``options``, the frame
    (``default`` when not given) then one of ``choices`` (the first when not given); the
    entry reads, as its input after the states, the frame's entry followed by the
    choice's index (14 values), and with one state the index alone as its third input
    (out shape codes 5: (6, nv), 6: (4, 4), 7: (6,), 8: (3, nv)). Without the
    extension: ``general`` itself.
    """
    wide = len(out_ranks) >= 3
    for e in (entry, entry_extended):
        if e is not None and not isinstance(e, Entry):  # a LazyCFunc: check it now
            _check_signature(e.__name__, _pointers(e), wide)
        elif e is not None and e.wide != wide:
            _check_signature(e.qualified, WIDE_POINTERS if e.wide else POINTERS, wide)
    if _fastcall is None:
        return general
    doc = f"{_text_signature(general)}\n--\n\n{_cleandoc(general.__doc__ or '')}"
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
        packed,
        frames,
    )


def _cleandoc(doc: str) -> str:
    import inspect

    return inspect.cleandoc(doc)
