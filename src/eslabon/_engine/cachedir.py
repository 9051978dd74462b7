"""Where eslabon's numba kernels are cached, and which cache folders it trusts.

Each version of the compiled sources, at each lanes width (:mod:`.lanewidth`), has its
own cache folder, ``eslabon-<hash>`` (:func:`_code_hash`), under the first cache
directory that may hold code this process loads (:func:`cache_bases`, then the user's
cache directory, then eslabon's own folder there, then a folder of this process only):
see :func:`cache_locator`. A folder of this
user's made group-writable by ``umask 002`` is made private rather than refused
(:func:`safefiles.folder_problem`). :func:`cache_folders` and
:func:`remove_old_cache_folders` list and prune the folders of other versions.
"""

from __future__ import annotations

import os
import sys
import threading

from . import safefiles

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


def _code_hash(paths: list | None = None, width: int | None = None) -> str:
    """A hash of every source file of the packages that hold compiled code, and of the
    lanes width (this process's unless given, :mod:`.lanewidth`: the same sources
    compile to other batch kernels at another width, and numba's cache index does not
    tell them apart): the name of the folder that eslabon's numba cache lives in."""
    import hashlib

    from . import lanewidth

    h = hashlib.sha256()
    h.update(f"lanes {width or lanewidth.width()}\0".encode())
    for path in _compiled_sources() if paths is None else paths:
        h.update(os.path.basename(path).encode())
        try:
            with open(path, "rb") as f:
                h.update(f.read())
        except OSError:  # gone or unreadable while being edited
            h.update(b"\0unreadable")
    return h.hexdigest()[:16]


_cache_lock = threading.Lock()


def cache_locator():
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
    link (:func:`safefiles.chain_problem`; a folder of this user's that ``umask 002``
    made writable by the user's own group is made private instead); else the next one is
    tried: the user's cache directory after NUMBA_CACHE_DIR, then eslabon's own folder
    there (:func:`_fallback_base`, the same every run), then a folder of this process
    only; one line on stderr, once per process, says which folders were refused and why.
    Missing folders are created 0o700; entries are read and written through
    :func:`safefiles.guarded_cache_file`."""
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
                bases = cache_bases() + [_user_cache_base(), _fallback_base()]
                bases = list(dict.fromkeys(bases))
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


LOCATOR = None  # the locator class compile.install put first in numba's list


def _user_cache_base() -> str:
    """The user's cache directory for numba (where numba's own locator would cache)."""
    from numba.misc.appdirs import AppDirs

    return AppDirs(appname="numba", appauthor=False).user_cache_dir


def _fallback_base() -> str:
    """eslabon's own folder in the user's cache directory (``~/.cache/eslabon``, made
    0o700): where the kernels are cached, run after run, when the cache folders numba
    would use are refused."""
    from numba.misc.appdirs import AppDirs

    return AppDirs(appname="eslabon", appauthor=False).user_cache_dir


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

    ``current`` marks a folder of the sources as they are now (:func:`_code_hash`, at
    either lanes width: a process with ``ESLABON_LANES`` set uses the other one);
    ``ours``, a folder of this install: in ``__pycache__`` beside these sources, or
    marked as compiled from them (a cache directory may be shared by several installs).
    Only folders named exactly ``eslabon-`` and 16 hexadecimal digits are listed, never a
    symbolic link."""
    import re

    from .lanewidth import WIDTHS

    current = {"eslabon-" + _code_hash(width=w) for w in WIDTHS}
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
                    "current": entry.name in current,
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
