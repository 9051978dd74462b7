"""Compilation on first use, said in one line.

Nothing of eslabon is compiled at import. A numba kernel compiles the first time a public
function needs it (or loads from numba's cache on disk, written by an earlier run), and
the C entry points of the single-call fast path (:class:`LazyCFunc`) compile on their
first lean call. When a compilation really happens — not a cache load — one line on
stderr says what is being compiled, once per subject and process::

    eslabon: compiling inverse dynamics for this machine (first use; cached for later runs)…

``ESLABON_COMPILE_NOTICE=0`` in the environment, or :func:`compile_notice(False)
<compile_notice>`, silences it. ``eslabon warmup`` compiles everything ahead of time.

The notice listens to numba's compiler events (``numba.core.event``): a ``numba:compile``
event with no eslabon subject active names the kernel being compiled (its subject is
registered with :func:`subject`); a C entry point names its own; the line is printed at
the first compiler pass (``numba:run_pass``), which a cache load never runs.
"""

from __future__ import annotations

import os
import sys
import threading

from . import cachedir, safefiles
from .cachedir import cache_bases, cache_folders, remove_old_cache_folders  # noqa: F401

_SUBJECTS: dict = {}  # kernel qualname -> what the notice calls it
_state = threading.local()
_printed: set = set()
_enabled = os.environ.get("ESLABON_COMPILE_NOTICE", "1").strip().lower() not in (
    "0",
    "false",
    "no",
    "off",
)
_installed = False
_lock = threading.Lock()


def compile_notice(enabled: bool | None = None) -> bool:
    """Turn the one-line compile notice on stderr on or off; returns the current setting
    (``compile_notice()`` only reads it).

    The first use of a kernel in a process either loads it from numba's cache on disk
    (silent) or compiles it for this machine, which takes seconds; then one line on stderr
    says what is being compiled, once per subject and process. The setting starts from the
    environment variable ``ESLABON_COMPILE_NOTICE`` (``0``, ``false``, ``no`` or ``off``
    silence it) and holds for the whole process (every thread).

    Parameters
    ----------
    enabled : bool or None, optional
        True to print the notice, False to silence it, None (default) to leave the
        setting as it is. Any other value counts by its truth (``bool(enabled)``).

    Returns
    -------
    bool
        The setting after the call.

    Examples
    --------
    >>> import eslabon as es
    >>> before = es.compile_notice()
    >>> es.compile_notice(False)
    False
    >>> es.compile_notice()
    False
    >>> _ = es.compile_notice(before)
    """
    global _enabled
    if enabled is not None:
        _enabled = bool(enabled)
    return _enabled


def subject(text: str, *kernels):
    """Register what the notice calls the compilation of ``kernels`` (numba dispatchers
    called from Python), e.g. ``subject("inverse dynamics (batch)", rnea_many)``."""
    for k in kernels:
        fn = getattr(k, "py_func", k)
        _SUBJECTS[f"{fn.__module__}.{fn.__qualname__}"] = text


def _say(what: str):
    stream = sys.stderr
    if not _enabled or what in _printed or stream is None:  # stderr closed (2>&-)
        return
    _printed.add(what)
    try:
        print(
            f"eslabon: compiling {what} for this machine (first use; cached for later runs)…",
            file=stream,
            flush=True,
        )
    except (OSError, ValueError):  # a broken pipe must not break the compilation
        pass


def _active():
    return getattr(_state, "what", None)


def _load_tbb():
    """Make Intel TBB loadable when the user asks numba for it (NUMBA_THREADING_LAYER=tbb,
    or safe/threadsafe, which pick it): the ``tbb`` wheel puts libtbb in ``<prefix>/lib``,
    which the dynamic loader does not search, so it is loaded here by its full path
    before numba looks for it."""
    import ctypes
    import glob
    import sys

    if os.environ.get("NUMBA_THREADING_LAYER", "").lower() not in ("tbb", "safe", "threadsafe"):
        return
    for prefix in dict.fromkeys((sys.prefix, sys.base_prefix)):
        for lib in sorted(glob.glob(os.path.join(prefix, "lib", "libtbb.so.12*"))):
            try:
                ctypes.CDLL(lib, mode=ctypes.RTLD_GLOBAL)
                return
            except OSError:
                continue


_forked_from_openmp = False


def _after_fork_in_child():
    """A child forked after the batch kernels ran on GNU OpenMP cannot run them in
    parallel (its OpenMP runtime would end the process): it runs them serially."""
    global _forked_from_openmp
    import sys

    parallel = sys.modules.get("numba.np.ufunc.parallel")
    if parallel is not None and getattr(parallel, "_is_initialized", False):
        import numba

        if numba.threading_layer() == "omp":
            _forked_from_openmp = True


class BatchKernel:
    """A parallel batch kernel (numba ``parallel=True``, called from Python only). It runs
    on the threads :func:`.contention.limit` allows now (fewer than the user's count
    when other work holds the cores). In a process forked after it ran on GNU OpenMP the
    same function runs serially, compiled then (numba's cache does not tell a serial
    build from a parallel one), so ``multiprocessing`` with ``fork`` works after a batch
    call."""

    def __init__(self, fn):
        import numba

        self.parallel = numba.njit(cache=True, parallel=True)(fn)
        self.py_func = fn
        self.__name__, self.__qualname__, self.__doc__ = fn.__name__, fn.__qualname__, fn.__doc__
        self._serial = None

    def __call__(self, *args):
        if not _forked_from_openmp:
            import numba

            from . import contention

            requested = numba.get_num_threads()
            threads = contention.limit(requested)
            if threads == requested:
                try:
                    return self.parallel(*args)
                finally:
                    contention.batch_ended(threads)
            numba.set_num_threads(threads)  # this thread's setting, put back below
            try:
                return self.parallel(*args)
            finally:
                numba.set_num_threads(requested)
                contention.batch_ended(threads)
        if self._serial is None:
            import numba

            self._serial = numba.njit(cache=False)(self.py_func)
        return self._serial(*args)


def batch_kernel(fn):
    """Decorator: a :class:`BatchKernel`."""
    return BatchKernel(fn)


def install():
    """Listen to numba's compiler events, watch for forks, make TBB loadable when asked,
    give eslabon's kernels their own cache folder (once per process, before numba is
    imported by the kernels)."""
    global _installed
    with _lock:
        if _installed:
            return
        _load_tbb()
        from numba.core import caching
        from numba.core import event as ev

        cachedir.LOCATOR = cachedir.cache_locator()
        caching.CacheImpl._locator_classes.insert(0, cachedir.LOCATOR)
        # numba's Cache makes its IndexDataCacheFile by this module-level name
        caching.IndexDataCacheFile = safefiles.guarded_cache_file(
            caching.IndexDataCacheFile, caching._cache_log
        )
        safefiles.guard_rebuild(caching.Cache, caching._cache_log)

        class _Dispatchers(ev.Listener):
            def on_start(self, event):
                depth = getattr(_state, "depth", 0)
                _state.depth = depth + 1
                if depth == 0 and _active() is None:
                    fn = event.data["dispatcher"].py_func
                    key = f"{fn.__module__}.{fn.__qualname__}"
                    if key.startswith("eslabon."):
                        _state.outer = _SUBJECTS.get(key, fn.__name__.replace("_", " "))

            def on_end(self, event):
                _state.depth = max(0, getattr(_state, "depth", 1) - 1)
                if _state.depth == 0:
                    _state.outer = None

        class _Passes(ev.Listener):
            def on_start(self, event):
                what = _active() or getattr(_state, "outer", None)
                if what is not None:
                    _say(what)

            def on_end(self, event):
                pass

        ev.register("numba:compile", _Dispatchers())
        ev.register("numba:run_pass", _Passes())
        os.register_at_fork(after_in_child=_after_fork_in_child)
        _installed = True


class compiling:
    """Context: compilations inside are announced as ``what`` (for C entry points)."""

    def __init__(self, what: str):
        self.what = what

    def __enter__(self):
        install()
        self.previous = _active()
        _state.what = self.previous or self.what
        return self

    def __exit__(self, *exc):
        _state.what = self.previous
        return False


class LazyCFunc:
    """A numba ``@cfunc`` compiled (or loaded from the cache) on first use of
    :attr:`address`, instead of when its module is imported."""

    def __init__(self, pyfunc, signature, what: str):
        self.pyfunc = pyfunc
        self.signature = signature
        self.what = what
        self.__name__ = pyfunc.__name__
        self.__qualname__ = pyfunc.__qualname__
        self.__doc__ = pyfunc.__doc__
        self._cfunc = None
        self._lock = threading.Lock()

    @property
    def compiled(self) -> bool:
        """True once the machine code exists in this process."""
        return self._cfunc is not None

    def compile(self):
        """The numba CFunc, compiled now if this is its first use."""
        if self._cfunc is None:
            with self._lock:
                if self._cfunc is None:
                    import numba

                    with compiling(self.what):
                        self._cfunc = numba.cfunc(self.signature, cache=True)(self.pyfunc)
        return self._cfunc

    @property
    def address(self) -> int:
        """The C function pointer, compiling first if needed."""
        return self.compile().address

    @property
    def ctypes(self):
        """The ctypes wrapper of the C function, compiling first if needed."""
        return self.compile().ctypes


def lazy_cfunc(signature, what: str):
    """Decorator: a :class:`LazyCFunc` of ``signature`` announced as ``what``."""

    def wrap(fn):
        return LazyCFunc(fn, signature, what)

    return wrap


def settle_for_workers() -> None:
    """Choose the cache folder in this process before it starts workers (``eslabon
    warmup``'s, a local Dask cluster's): a refused folder is then said once, here, and
    the workers, finding the same, keep quiet (:data:`safefiles.SAID_ENV`)."""
    install()
    sources = cachedir._compiled_sources()
    if cachedir.LOCATOR is None or not sources:
        return
    py_file = os.path.abspath(sources[0])  # as if its kernels loaded: not imported yet
    seen = py_file in cachedir.LOCATOR.modules_seen
    cachedir.LOCATOR.from_function(cachedir._code_hash, py_file)
    if not seen:
        cachedir.LOCATOR.modules_seen.discard(py_file)
