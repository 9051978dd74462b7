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

from . import safefiles

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


#: GNU OpenMP's threads spin at the end of a parallel loop waiting for the others; on a
#: machine where another process holds a core, the thread the OS descheduled keeps the
#: spinning ones waiting for its time slice, and a batch of 10,000 mass matrices on 2
#: threads took 14 ms against 1.3 ms on one (docs/performance.md, "Batches beside other
#: work"). Passive waiting (threads sleep at once) keeps the 2-thread batch within a few
#: per cent of the 1-thread one then, and costs nothing measurable on an idle machine. It
#: is read when the OpenMP runtime loads (numba's first parallel call, after this module
#: is imported); a value the user set is kept.
OMP_WAIT_POLICY_DEFAULT = "PASSIVE"
os.environ.setdefault("OMP_WAIT_POLICY", OMP_WAIT_POLICY_DEFAULT)

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
    """A parallel batch kernel (numba ``parallel=True``, called from Python only). In a
    process forked after it ran on GNU OpenMP the same function runs serially, compiled
    then (numba's cache does not tell a serial build from a parallel one), so
    ``multiprocessing`` with ``fork`` works after a batch call."""

    def __init__(self, fn):
        import numba

        self.parallel = numba.njit(cache=True, parallel=True)(fn)
        self.py_func = fn
        self.__name__, self.__qualname__, self.__doc__ = fn.__name__, fn.__qualname__, fn.__doc__
        self._serial = None

    def __call__(self, *args):
        if not _forked_from_openmp:
            return self.parallel(*args)
        if self._serial is None:
            import numba

            self._serial = numba.njit(cache=False)(self.py_func)
        return self._serial(*args)


def batch_kernel(fn):
    """Decorator: a :class:`BatchKernel`."""
    return BatchKernel(fn)


_COMPILED_PACKAGES = ("_engine", "dynamics", "kinematics", "sim")
_PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # src/eslabon


def _compiled_sources() -> list:
    """The source files of the packages that hold compiled code, in a fixed order (an
    editor's hidden files, such as a lock ``.#name.py``, are not sources)."""
    paths = []
    for package in _COMPILED_PACKAGES:
        folder = os.path.join(_PACKAGE_ROOT, package)
        paths += [
            os.path.join(folder, n)
            for n in sorted(os.listdir(folder))
            if n.endswith(".py") and not n.startswith(".")
        ]
    return paths


def _sources_stamp(paths: list) -> tuple:
    """Each file's name, size and modification time (None for a file that cannot be
    read now): when it changes, so may the code."""
    stamp = []
    for path in paths:
        try:
            st = os.stat(path)
            stamp.append((path, st.st_size, st.st_mtime_ns))
        except OSError:
            stamp.append((path, None, None))
    return tuple(stamp)


def _code_hash(paths: list | None = None) -> str:
    """A hash of every source file of the packages that hold compiled code: the name of
    the folder that eslabon's numba cache lives in."""
    import hashlib

    h = hashlib.sha256()
    for path in _compiled_sources() if paths is None else paths:
        h.update(os.path.basename(path).encode())
        try:
            with open(path, "rb") as f:
                h.update(f.read())
        except OSError:  # gone or unreadable while being edited
            h.update(b"\0unreadable")
    return h.hexdigest()[:16]


_cache_lock = threading.Lock()


def _cache_locator():
    """A numba cache locator for eslabon's kernels: the cache of a kernel lives in a
    folder named by :func:`_code_hash`. numba keys a cached function on its own source
    file only, so a caller kept in the cache would keep the old code of a callee edited
    in another file (after an upgrade that kept ``__pycache__``, or a stale module path
    after a file moved); with every compiled source in the folder's name, a changed
    eslabon compiles afresh instead.

    The hash is taken when the first module of kernels is imported. Kernel modules are
    imported lazily, and a module imported after an edit of the sources would compile
    the new code of its own file with the old code of modules imported before (numba
    compiles what the process has imported): neither hash names that mixture. So each
    module of kernels, when first imported, looks at the sources again (one ``stat`` per
    file); if any changed since the hash was taken, that module's kernels are cached in
    a folder of this process only, removed at exit, and one line on stderr says so. The
    folder is under NUMBA_CACHE_DIR when set, else beside the sources, else in the
    user's cache directory (as numba's own locators).

    numba reads a cache with pickle: whoever can write the folder can run code in the
    process that loads it. A folder is used only when it and every folder from the cache
    root down to it is this user's (or root's), not writable by group or others, and no
    link (:func:`safefiles.chain_problem`); else the next one is tried (the user's cache
    directory comes after NUMBA_CACHE_DIR), then a folder of this process only, and one
    line on stderr says which folder was refused and why. Missing folders are created
    0o700; entries are read and written through :func:`safefiles.guarded_cache_file`."""
    from numba.core import caching

    root = _PACKAGE_ROOT

    class EslabonCacheLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
        code_hash: str = ""
        sources_stamp = None  # at the first look
        modules_seen: set = set()
        modules_after_edit: set = set()  # first imported after the sources changed
        private_base = None  # this process's folder for their kernels
        refused_base = None  # this process's folder when every cache folder is refused

        def __init__(self, py_func, py_file, base):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._base = base
            self._cache_path = os.path.join(
                base,
                "eslabon-" + EslabonCacheLocator.code_hash,
                os.path.relpath(os.path.dirname(py_file), root),
            )

        def get_cache_path(self):
            return self._cache_path

        def ensure_cache_path(self):
            """Create the missing folders private (0o700); check the folder is writable."""
            import tempfile

            safefiles.make_private(self._base, self._cache_path)
            tempfile.TemporaryFile(dir=self._cache_path).close()

        @classmethod
        def _look(cls, py_file):
            """Take the hash at the first module; mark a later module imported after
            an edit of the sources."""
            with _cache_lock:
                if py_file in cls.modules_seen:
                    return
                paths = _compiled_sources()
                stamp = _sources_stamp(paths)
                if cls.sources_stamp is None:
                    cls.code_hash, cls.sources_stamp = _code_hash(paths), stamp
                elif stamp != cls.sources_stamp:
                    cls.modules_after_edit.add(py_file)
                    if cls.private_base is None:
                        _private_cache(cls)
                cls.modules_seen.add(py_file)

        @classmethod
        def from_function(cls, py_func, py_file):
            py_file = os.path.abspath(py_file)
            if not py_file.startswith(root + os.sep) or not os.path.exists(py_file):
                return None
            cls._look(py_file)
            if py_file in cls.modules_after_edit:
                bases = [cls.private_base]
            else:
                bases = list(dict.fromkeys(cache_bases() + [_user_cache_base()]))
            refused = []
            for base in bases + [None]:
                if base is None:  # none of them: a folder of this process only
                    base = _private_base(cls)
                self = cls(py_func, py_file, base)
                problem = safefiles.chain_problem(base, self._cache_path)
                if problem is not None:
                    refused.append(problem)
                    continue
                try:
                    self.ensure_cache_path()
                except OSError:
                    continue
                safefiles.trust(self._cache_path)
                _mark_owner(os.path.join(base, "eslabon-" + cls.code_hash))
                safefiles.say_refused(refused, base)
                return self
            return None

    return EslabonCacheLocator


def _user_cache_base() -> str:
    """The user's cache directory for numba (where numba's own locator would cache)."""
    from numba.misc.appdirs import AppDirs

    return AppDirs(appname="numba", appauthor=False).user_cache_dir


def _private_base(locator) -> str:
    """A cache folder of this process only (0o700, removed at exit), made once."""
    import atexit
    import shutil
    import tempfile

    if locator.refused_base is None:
        locator.refused_base = tempfile.mkdtemp(prefix="eslabon-kernels-")
        atexit.register(shutil.rmtree, locator.refused_base, True)
    return locator.refused_base


def cache_bases() -> list:
    """The folders that eslabon's cache folders (``eslabon-<hash>``) live in, in the
    order tried: NUMBA_CACHE_DIR when set; else ``__pycache__`` beside the sources, then
    the user's cache directory (as numba's own locators)."""
    from numba.core import config
    from numba.misc.appdirs import AppDirs

    if config.CACHE_DIR:
        return [config.CACHE_DIR]
    return [
        os.path.join(_PACKAGE_ROOT, "__pycache__"),
        AppDirs(appname="numba", appauthor=False).user_cache_dir,
    ]


_OWNER_FILE = ".eslabon-sources"  # in a cache folder: the sources it was compiled from
_marked: set = set()


def _sources_root() -> str:
    return os.path.realpath(_PACKAGE_ROOT)


def _mark_owner(folder: str) -> None:
    """Write, once per process and folder, which sources a cache folder belongs to, so
    that :func:`remove_old_cache_folders` of one install never removes another's folder
    in a cache directory they share (NUMBA_CACHE_DIR, the user's cache directory)."""
    if folder in _marked:
        return
    _marked.add(folder)
    path = os.path.join(folder, _OWNER_FILE)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        fd = os.open(path, flags, 0o600)
    except OSError:  # there already, or a read-only cache (still a cache)
        return
    with open(fd, "w", encoding="utf-8") as f:
        f.write(_sources_root() + "\n")


def cache_folders() -> list:
    """Every cache folder of eslabon's kernels in :func:`cache_bases`: a list of dicts
    ``{"path": str, "bytes": int, "current": bool, "ours": bool}``.

    ``current`` marks the folder of the sources as they are now (:func:`_code_hash`);
    ``ours``, a folder of this install: in ``__pycache__`` beside these sources, or
    marked as compiled from them (a cache directory may be shared by several installs).
    Only folders named exactly ``eslabon-`` and 16 hexadecimal digits are listed, never a
    symbolic link."""
    import re

    current = "eslabon-" + _code_hash()
    root = _sources_root()
    beside = os.path.realpath(os.path.join(root, "__pycache__"))
    name = re.compile(r"^eslabon-[0-9a-f]{16}$")
    found = []
    for base in dict.fromkeys(os.path.realpath(b) for b in cache_bases()):
        try:
            entries = sorted(os.scandir(base), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if not name.match(entry.name) or not entry.is_dir(follow_symlinks=False):
                continue
            size, owner = 0, None
            for folder, _, files in os.walk(entry.path):
                for f in files:
                    try:
                        size += os.lstat(os.path.join(folder, f)).st_size
                    except OSError:
                        pass
            try:
                marker = os.path.join(entry.path, _OWNER_FILE)
                owner = safefiles.read_regular(marker, 4096).decode("utf-8").strip()
            except (OSError, ValueError):  # none, a link, a FIFO, not text: not marked
                pass
            found.append(
                {
                    "path": entry.path,
                    "bytes": size,
                    "current": entry.name == current,
                    "ours": base == beside or owner == root,
                }
            )
    return found


def remove_old_cache_folders(keep=()) -> tuple:
    """Remove this install's cache folders of other versions of its sources: every folder
    of :func:`cache_folders` that is ``ours``, not ``current`` and not named in ``keep``
    (folder names, e.g. the hash a long warm-up started with). Returns (removed, failed),
    lists of :func:`cache_folders` entries.

    A process still running such a version re-creates its folder when it next saves a
    kernel (and compiles again what it had not loaded); one saving at the very moment of
    the removal can fail with FileNotFoundError. Run this when no older eslabon runs."""
    import shutil

    removed, failed = [], []
    for folder in cache_folders():
        if folder["current"] or not folder["ours"] or os.path.basename(folder["path"]) in keep:
            continue
        shutil.rmtree(folder["path"], ignore_errors=True)
        (failed if os.path.exists(folder["path"]) else removed).append(folder)
    return removed, failed


def _private_cache(locator) -> None:
    """Give ``locator`` a folder of this process only, removed at exit, and say why."""
    import atexit
    import shutil
    import tempfile

    locator.private_base = tempfile.mkdtemp(prefix="eslabon-kernels-")
    atexit.register(shutil.rmtree, locator.private_base, True)
    stream = sys.stderr
    if stream is not None:
        try:
            print(
                "eslabon: its sources changed while this process ran; kernels of modules "
                "imported from now on are not kept in the cache (restart Python to keep "
                "them)",
                file=stream,
                flush=True,
            )
        except (OSError, ValueError):
            pass


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

        caching.CacheImpl._locator_classes.insert(0, _cache_locator())
        # numba's Cache makes its IndexDataCacheFile by this module-level name
        caching.IndexDataCacheFile = safefiles.guarded_cache_file(
            caching.IndexDataCacheFile, caching._cache_log
        )

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
