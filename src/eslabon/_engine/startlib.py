"""The start-up library: every C entry of the kernels in one shared object, loaded
without numba.

Why it exists (docs/performance.md, "Start-up"): a fresh process that finds its
kernels in numba's cache still imports numba (about 0.2 s), sets up its compiler (about
0.25 s) and loads each kernel's entry from the cache: 0.5–0.6 s before the first
inverse dynamics on a warm machine, against 17 ms for Pinocchio. ``eslabon warmup`` links
the machine code of every C entry (:mod:`eslabon._engine.fastcall`), as numba cached it,
into one shared object (:mod:`.startlib_build`); a later process opens it with the
dynamic loader (``dlopen``, about a millisecond) and hands its function pointers to the
public functions (:mod:`.entrypoints`). numba is imported only when a call needs
something the library does not hold (a batch, a keyword, a method).

The library is named by what its machine code depends on, so a process never loads code
made for another: the compiled sources and the lanes width
(:func:`eslabon._engine.cachedir._code_hash`, also the name of the cache folder it lives
in) and :func:`machine_key` (this CPU's model
and instruction-set flags, every ``NUMBA_*`` setting but the cache folder, numba's and
Python's versions). It lives beside numba's cache entries and is trusted as they are: it
and every folder from the cache root down to it must be this user's (or root's) and not
writable by group or others (:func:`eslabon._engine.safefiles.chain_problem`); anything
else is passed over, and the kernels come from numba's cache as before.

Linux only (the CPU is read from ``/proc/cpuinfo``); elsewhere, or without a C compiler
at warm-up, or with ``ESLABON_NO_START_LIBRARY=1``, there is no library and nothing else
changes: same results, slower start.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import stat
import sys
import threading

from . import safefiles

DISABLE_ENV = "ESLABON_NO_START_LIBRARY"
FORMAT = 1  # of the manifest inside the library; a library of another format is ignored
MAX_LIBRARY_BYTES = 256 * 2**20

# the /proc/cpuinfo fields that say which instructions the CPU has (x86 and Arm); the
# clock, the core numbering and bogomips change from boot to boot and are left out
_CPU_FIELDS = (
    "vendor_id",
    "cpu family",
    "model",
    "model name",
    "stepping",
    "flags",
    "Features",
    "CPU implementer",
    "CPU architecture",
    "CPU variant",
    "CPU part",
)
# NUMBA_* settings that do not change the machine code of an entry
_RUNTIME_SETTINGS = (
    "NUMBA_CACHE_DIR",
    "NUMBA_NUM_THREADS",
    "NUMBA_THREADING_LAYER",
    "NUMBA_DEBUG_CACHE",
    "NUMBA_DISABLE_PERFORMANCE_WARNINGS",
)


def _cpu_identity() -> str | None:
    """The instruction-set fields of the first CPU in ``/proc/cpuinfo``; None when there
    is no such file (not Linux) or it names no instruction set."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            lines = []
            for line in f:
                if not line.strip():
                    break
                name = line.split(":", 1)[0].strip()
                if name in _CPU_FIELDS:
                    lines.append(line.strip())
    except OSError:
        return None
    if not any(line.startswith(("flags", "Features")) for line in lines):
        return None
    return "\n".join(lines)


def _numba_version() -> str | None:
    """The text of numba's version file, found without importing numba."""
    import importlib.util

    spec = importlib.util.find_spec("numba")
    if spec is None or not spec.origin:
        return None
    try:
        with open(os.path.join(os.path.dirname(spec.origin), "_version.py"), "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def machine_key() -> str | None:
    """What the machine code of a C entry depends on besides the sources, as 16
    hexadecimal digits; None when it cannot be told (not Linux, numba not found)."""
    cpu, numba_version = _cpu_identity(), _numba_version()
    if cpu is None or numba_version is None:
        return None
    settings = sorted(
        (k, v)
        for k, v in os.environ.items()
        if k.startswith("NUMBA_") and k not in _RUNTIME_SETTINGS
    )
    h = hashlib.sha256()
    for part in (cpu, repr(settings), numba_version, sys.version, str(FORMAT)):
        h.update(part.encode() + b"\0")
    return h.hexdigest()[:16]


def library_name(key: str) -> str:
    """The file name of the library for :func:`machine_key` ``key``."""
    return f"entries-{key}.so"


def _user_cache(appname: str) -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return os.path.join(base, appname)


def cache_bases() -> list:
    """The cache roots numba's cache of eslabon may be in, in the order the kernels'
    locator tries them (:func:`eslabon._engine.cachedir.cache_locator`, on Linux),
    found without importing numba: NUMBA_CACHE_DIR when set, else ``__pycache__``
    beside the sources, then the user's cache directory; then eslabon's own folder
    there."""
    from .cachedir import _PACKAGE_ROOT

    if os.environ.get("NUMBA_CACHE_DIR"):
        bases = [os.environ["NUMBA_CACHE_DIR"]]
    else:
        bases = [os.path.join(_PACKAGE_ROOT, "__pycache__"), _user_cache("numba")]
    return list(dict.fromkeys(bases + [_user_cache("numba"), _user_cache("eslabon")]))


class Library:
    """An opened start-up library: ``address(qualified_name)`` is the C function pointer
    of an entry (``"eslabon.dynamics.drivers.inverse_dynamics_entry"``), ``layout(...)``
    its manifest record (``pointers``, ``scratch_cols``, ``scratch_squares``)."""

    def __init__(self, path: str):
        self.path = path
        self._dll = ctypes.CDLL(path, mode=os.RTLD_NOW | os.RTLD_LOCAL)
        manifest = json.loads(ctypes.c_char_p.in_dll(self._dll, "eslabon_manifest").value)
        if manifest.get("format") != FORMAT:
            raise ValueError(f"{path}: manifest format {manifest.get('format')!r}")
        names = manifest["entries"]
        table = (ctypes.c_void_p * len(names)).in_dll(self._dll, "eslabon_entry_table")
        self.records = {r["name"]: dict(r, address=table[k]) for k, r in enumerate(names)}

    def address(self, name: str) -> int | None:
        record = self.records.get(name)
        return None if record is None else record["address"]

    def layout(self, name: str) -> dict | None:
        return self.records.get(name)


def _trusted_file(path: str) -> bool:
    """Whether ``path`` is a regular file of this user's (or root's), not writable by
    group or others, of a plausible size."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return (
        stat.S_ISREG(st.st_mode)
        and st.st_uid in safefiles.trusted_owners()
        and not st.st_mode & 0o022
        and 0 < st.st_size <= MAX_LIBRARY_BYTES
    )


def find() -> str | None:
    """The path of the library for these sources and this machine, trusted; or None."""
    from .cachedir import _code_hash

    if os.environ.get(DISABLE_ENV, "") not in ("", "0"):
        return None
    key = machine_key()
    if key is None:
        return None
    folder_name = "eslabon-" + _code_hash()
    for base in cache_bases():
        folder = os.path.join(base, folder_name)
        path = os.path.join(folder, library_name(key))
        if not os.path.exists(path):
            continue
        if safefiles.chain_problem(base, folder) is None and _trusted_file(path):
            return path
    return None


_lock = threading.Lock()
_opened: list = []  # [Library or None] once looked for


def opened() -> Library | None:
    """The start-up library of this process, looked for and opened once; None when
    there is none, or it cannot be opened (then numba's cache serves as before)."""
    if not _opened:
        with _lock:
            if not _opened:
                library = None
                path = find()
                if path is not None:
                    try:
                        library = Library(path)
                    except (OSError, ValueError, KeyError, TypeError):
                        library = None  # a partial or foreign file: numba's cache instead
                _opened.append(library)
    return _opened[0]
