"""Argument checks shared by the public wrappers: shapes, dtype, finiteness.

The fast path accepts a C-contiguous float64 array of shape (n,) or (N, n) with no copy;
anything else is converted once or rejected with a message naming the field. NaN and
inf are detected cheaply after the compiled call (the kernels report a non-finite
result) and then traced back to the offending field by :func:`explain_nonfinite`.
"""

from __future__ import annotations

import numbers
import os
import re
import sys
import textwrap
import unicodedata

import numpy as np

_F64 = np.dtype(np.float64)

# The documentation of the state arguments, written once for every public function that
# takes them: a docstring line that holds only ``$name`` is replaced by STATE_DOCS[name],
# indented as that line (:func:`state_docs`).
STATE_DOCS = {
    "model": """model : Model
    The robot (:class:`eslabon.Model`: :func:`eslabon.zoo.load`, :func:`eslabon.from_dh`,
    :func:`eslabon.load_model`).""",
    "q": """q : array_like (nq,) or (N, nq)
    Configuration, one state or a batch of N: rad (revolute), m (prismatic), a unit
    quaternion (x, y, z, w) for a spherical or free-flyer joint (docs/conventions.md).""",
    "qd": """qd : array_like (n,) or (N, n)
    Joint rates, the batch shape of ``q``: rad/s (revolute), m/s (prismatic); a spherical
    or free-flyer joint's angular (and linear) velocity in its body's axes.""",
    "qdd": """qdd : array_like (n,) or (N, n)
    Joint accelerations, the batch shape of ``q``: rad/s² (revolute), m/s² (prismatic).""",
    "tau": """tau : array_like (n,) or (N, n)
    Joint torques, the batch shape of ``q``: N·m (revolute), N (prismatic).""",
    "state_errors": """ValueError
    A state of the wrong length or batch shape, not real numbers, holding NaN or inf, or
    with a quaternion whose norm is not 1 (to 1e-6); the message names the argument.
    Finite inputs whose result is not finite (a model far out of scale) raise
    ``NonFiniteResultError``, a ValueError.""",
}
_DOC_LINE = re.compile(r"^([ \t]*)\$(\w+)[ \t]*$", re.M)


def state_docs(fn):
    """Decorator: ``fn`` with each line of its docstring that holds only ``$name``
    replaced by ``STATE_DOCS[name]``, indented as that line, so that ``help``,
    :func:`inspect.getdoc` and Sphinx read ordinary numpydoc text (a builtin made from
    ``fn`` by :func:`eslabon._engine.entrypoints.public` copies the filled text). No
    str.format: the braces of the docstrings stay as written."""
    if fn.__doc__:  # None under python -OO

        def piece(match: re.Match) -> str:
            return textwrap.indent(STATE_DOCS[match[2]], match[1])

        fn.__doc__ = _DOC_LINE.sub(piece, fn.__doc__)
    return fn


def real_array(x, field: str, expected: str = "numbers") -> np.ndarray:
    """``x`` as a float64 array, refusing what a silent conversion would change: complex
    values (the imaginary part), booleans, strings, None and other objects, and masked
    arrays (the mask). Integers and other real floats convert exactly as numpy does.
    Errors name ``field`` and say what was ``expected``."""
    if isinstance(x, np.ma.MaskedArray):
        raise ValueError(
            f"{field}: expected {expected}, got a masked array (the mask would "
            "be dropped; pass x.filled(value) or a plain array)"
        )
    try:
        arr = np.asarray(x)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{field}: expected {expected}, got {_short(x)}") from None
    if not isinstance(x, np.ndarray) and arr.dtype.kind in "fiu" and _has_bool(x):
        raise ValueError(
            f"{field}: expected {expected}, got booleans among the numbers: {_short(x)}"
        )  # numpy would read True as 1.0
    kind = arr.dtype.kind
    if kind == "O":
        flat = arr.ravel()
        if not all(
            isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_)) for v in flat
        ):
            bad = next(
                v
                for v in flat
                if not isinstance(v, numbers.Real) or isinstance(v, (bool, np.bool_))
            )
            raise ValueError(
                f"{field}: expected {expected}, got {_short(bad)} ({type(bad).__name__})"
            )
    elif kind not in "fiu":
        what = {
            "c": "complex values (the imaginary part would be dropped)",
            "b": "booleans",
            "U": "text",
            "S": "bytes",
            "V": "structured records",
            "M": "dates",
            "m": "time deltas",
        }.get(kind, f"dtype {arr.dtype}")
        raise ValueError(f"{field}: expected {expected}, got {what}: {_short(x)}")
    try:
        out = np.asarray(arr, dtype=np.float64)  # 0-d stays 0-d
        return out if out.flags.c_contiguous else np.ascontiguousarray(out)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{field}: expected {expected}, got {_short(x)}") from None


def _has_bool(x) -> bool:
    """True if a (nested) list or tuple holds a bool anywhere."""
    if isinstance(x, (bool, np.bool_)):
        return True
    if isinstance(x, (list, tuple)):
        return any(_has_bool(v) for v in x)
    return False


def _short(x, limit: int = 60) -> str:
    text = repr(x)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def vector(x, n: int, field: str, note: str = ""):
    """(array, batched) for a state argument of shape (n,) or (N, n); ``note`` (e.g. the
    other size of a model whose q and v differ in length) is added to the error."""
    if type(x) is np.ndarray and x.dtype == np.float64 and x.flags.c_contiguous:
        if x.ndim == 1 and x.shape[0] == n:
            return x, False
        if x.ndim == 2 and x.shape[1] == n:
            return x, True
    arr = real_array(x, field, f"numbers of shape ({n},) or (N, {n})")
    if arr.ndim == 1 and arr.shape[0] == n:
        return arr, False
    if arr.ndim == 2 and arr.shape[1] == n:
        return arr, True
    raise ValueError(f"{field}: expected shape ({n},) or (N, {n}){note}, got {arr.shape}")


def vectors(n: int, nq: int | None = None, **fields):
    """Check several state arguments that must share one batch shape; returns (list,
    batched). Each has ``n`` entries, except a field named ``q`` when ``nq`` is given (a
    model whose configuration q has nq entries and its rates n = nv)."""
    values = tuple(fields.values())
    for name, v in fields.items():  # fast path: every argument a C-contiguous float64 state
        size = nq if name == "q" and nq is not None else n
        if not (
            type(v) is np.ndarray
            and v.dtype == _F64
            and v.shape == (size,)
            and v.flags.c_contiguous
        ):
            break
    else:
        return values, False
    out = []
    batched = None
    shape = None
    first = next(iter(fields))
    for name, value in fields.items():
        size, note = n, ""
        if nq is not None and nq != n:
            if name == "q":
                size, note = nq, f" (nq; the rates have nv = {n} entries)"
            else:
                note = f" (nv; the configuration q has nq = {nq} entries)"
        arr, b = vector(value, size, name, note)
        if shape is None:
            shape, batched = arr.shape, b
        elif arr.shape[:-1] != shape[:-1] or (note == "" and arr.shape != shape):
            raise ValueError(f"{name}: expected the shape of {first}, {shape}, got {arr.shape}")
        out.append(arr)
    return out, batched


def whole_number(x, field: str, minimum: int | None = None) -> int:
    """``x`` as an int when it is a whole number (Python or numpy integer, not a bool or a
    float) and at least ``minimum``, else a ValueError naming ``field``."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Integral):
        at_least = "" if minimum is None else f" >= {minimum}"
        raise ValueError(f"{field}: expected a whole number{at_least}, got {x!r}")
    if minimum is not None and x < minimum:
        raise ValueError(f"{field}: expected a whole number >= {minimum}, got {x!r}")
    return int(x)


def finite_number(x, field: str, positive: bool = False) -> float:
    """A finite float (and > 0 with ``positive``), else a ValueError naming ``field``.
    Booleans, text and complex numbers are refused, not converted."""
    want = "a positive finite number" if positive else "a finite number"
    if (
        isinstance(x, (bool, np.bool_, str, bytes))
        or not isinstance(x, numbers.Real)
        and not (isinstance(x, np.ndarray) and x.shape == () and x.dtype.kind in "fiu")
    ):
        raise ValueError(f"{field}: expected {want}, got {_short(x)}")
    try:
        v = float(x)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{field}: expected {want}, got {_short(x)}") from None
    if not np.isfinite(v) or (positive and not v > 0):
        raise ValueError(f"{field}: expected {want}, got {v}")
    return v


# What one call may allocate for its histories (simulate's t, q, q̇, q̈, τ; a rollout's
# (N, K, n) arrays; a sweep chunk's runs): refused above it, before any allocation, as a
# ValueError naming the fields, rather than a MemoryError or the kernel's OOM killer.
MAX_HISTORY_BYTES = 8 * 2**30


def check_history_bytes(need: float, field: str, what: str, hint: str) -> None:
    """Refuse histories of ``need`` bytes above :data:`MAX_HISTORY_BYTES`: a ValueError
    ``"{field}: {what} would take … GiB, more than the 8 GiB allowed (… bytes); {hint}"``.

    ``need`` is computed in floats by the caller (no overflow for absurd counts)."""
    if need > MAX_HISTORY_BYTES:
        raise ValueError(
            f"{field}: {what} would take {need / 2**30:.3g} GiB, more than the "
            f"{MAX_HISTORY_BYTES // 2**30} GiB allowed ({need:.4g} bytes); {hint}"
        )


def frozen_copy(x) -> np.ndarray:
    """A read-only copy of ``x`` for a user's callable (a torque law, a wrench callback):
    it can keep or read the state, and a write into it raises instead of silently
    changing the integrator's own arrays."""
    out = np.array(x, dtype=float, copy=True)
    out.setflags(write=False)
    return out


def finite_array(x, field: str, shape: tuple | None = None) -> np.ndarray:
    """A float64 array of finite values (of ``shape`` when given), else a ValueError."""
    arr = real_array(x, field)
    if shape is not None and arr.shape != shape:
        raise ValueError(f"{field}: expected shape {shape}, got {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{field}: expected finite values, got {arr[~np.isfinite(arr)].flat[0]}")
    return arr


class NonFiniteResultError(ValueError):
    """Finite inputs gave a non-finite result (an overflow: a diverging motion, a model
    far out of scale)."""


def nonfinite_message(name: str, arr: np.ndarray) -> str | None:
    """``"<name>: expected finite values, got <value> at index <i>"`` for the first
    non-finite entry of ``arr``, or None when every entry is finite."""
    bad = ~np.isfinite(arr)
    if not bad.any():
        return None
    idx = tuple(int(i) for i in np.argwhere(bad)[0])
    at = idx[0] if len(idx) == 1 else idx
    return f"{name}: expected finite values, got {arr[bad].flat[0]} at index {at}"


def explain_nonfinite(what: str, **fields):
    """Raise a ValueError naming the first non-finite input, else the non-finite result."""
    for name, arr in fields.items():
        message = nonfinite_message(name, arr)
        if message is not None:
            raise ValueError(message)
    raise NonFiniteResultError(
        f"{what}: the result is not finite (inputs are finite; check the model's scale)"
    )


def require_finite(what: str, **fields):
    """Raise the :func:`explain_nonfinite` error when any field holds NaN or inf (for the
    numpy reference formulations, which have no compiled status to look at)."""
    if not all(np.isfinite(v).all() for v in fields.values()):
        explain_nonfinite(what, **fields)


def _numba():
    from ._engine.compile import install

    install()  # before numba picks its threading layer
    import numba

    return numba


def set_num_threads(k: int) -> None:
    """Set the number of threads the batch kernels use (at most the machine's cores).

    A batch of states (N, n) is split in chunks that numba's parallel loop runs on these
    threads; a single state runs on the calling thread whatever this says. The setting
    is numba's (``numba.set_num_threads``), for the calling thread; it imports numba on
    first use.

    Parameters
    ----------
    k : int
        Number of threads, 1 to ``numba.config.NUMBA_NUM_THREADS`` (by default the
        machine's cores; the environment variable ``NUMBA_NUM_THREADS`` sets it before
        numba starts).

    Raises
    ------
    ValueError
        ``k`` not a whole number (2.7, text, None …), below 1 or above
        ``NUMBA_NUM_THREADS``.

    Examples
    --------
    >>> import eslabon as es
    >>> before = es.get_num_threads()
    >>> es.set_num_threads(1)
    >>> es.get_num_threads()
    1
    >>> es.set_num_threads(before)
    """
    k = whole_number(k, "k", 1)
    nb = _numba()
    if not 1 <= k <= nb.config.NUMBA_NUM_THREADS:
        raise ValueError(
            f"k: expected 1 to {nb.config.NUMBA_NUM_THREADS} threads (NUMBA_NUM_THREADS), got {k}"
        )
    nb.set_num_threads(int(k))


def get_num_threads() -> int:
    """The number of threads the batch kernels use (:func:`set_num_threads`).

    Returns
    -------
    int
        numba's current thread count for the calling thread, 1 to
        ``numba.config.NUMBA_NUM_THREADS``.

    Examples
    --------
    >>> import eslabon as es
    >>> es.get_num_threads() >= 1
    True
    """
    return _numba().get_num_threads()


_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def caller_stacklevel() -> int:
    """The ``stacklevel`` of :func:`warnings.warn` that points at the first frame outside
    the eslabon package, the user's line, however many of eslabon's functions lie
    between: call it in the arguments of ``warnings.warn``
    (``warnings.warn(msg, Category, stacklevel=caller_stacklevel())``).

    Frames of the import machinery are not counted, as :func:`warnings.warn` skips them
    (a warning raised while a module of eslabon is imported points at the import)."""
    frame = sys._getframe(1)  # the frame that calls warnings.warn: stacklevel 1
    level = 1
    while frame.f_back is not None and (_ours(frame) or _importing(frame)):
        frame = frame.f_back
        if not _importing(frame):
            level += 1
    return level


def _ours(frame) -> bool:
    return frame.f_code.co_filename.startswith(_PACKAGE)


def _importing(frame) -> bool:
    name = frame.f_code.co_filename
    return "importlib" in name and "_bootstrap" in name


def display_width(text: str) -> int:
    """The terminal columns ``text`` takes: a combining mark (the dot of ω̇, written ω
    then U+0307) or a zero-width format character takes none, a wide (East Asian) one
    two, any other one."""
    width = 0
    for c in text:
        if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return width


def pad(text: str, width: int, align: str = "<") -> str:
    """``text`` padded with spaces to ``width`` terminal columns (:func:`display_width`),
    on the right (``align="<"``) or the left (``">"``); longer text is left as it is."""
    fill = " " * max(0, width - display_width(text))
    return text + fill if align == "<" else fill + text
