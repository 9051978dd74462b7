"""Files and folders eslabon reads in places others might write to.

- :func:`read_regular` is the one way eslabon reads a file of a folder it manages (a
  sweep's parts, checksums and spec; its numba cache entries): the name is checked with
  ``lstat`` and opened without following a link (``O_NOFOLLOW``) and without waiting
  (``O_NONBLOCK``: a FIFO opens at once and is then refused), and it must be a regular
  file no larger than the cap of its kind. A link, a FIFO, a device, a socket or a folder
  is refused by name (:class:`NotRegularFile`, a ValueError) before a byte is read.
- :func:`folder_problem` says why a cache folder may not be loaded from: numba reads its
  cache with pickle, so a folder someone else can write to (or a link to one) could run
  their code in this process. Folders must be owned by this user (or root) and not
  writable by group or others, from the cache root the user chose down; a folder of
  this user's writable by its own group only (``umask 002``) is made private instead.
  :func:`say_refused` says in one line per process (not again in the workers it
  starts) which were refused.
- :func:`guarded_cache_file` makes numba's cache file class treat an entry of eslabon's
  folders that is not a sound regular file of this user — a link, a FIFO, a device, a
  folder, a file too large, truncated, not a pickle, an index naming a file outside its
  folder — as a cache miss: the entry is removed, the kernel compiles and its entry is
  written again (as a file only this user can write); :func:`guard_rebuild` does the
  same for an entry numba cannot rebuild a kernel from. Other code's numba caches are
  left to numba.

The engine imports nothing else of eslabon, so this lives here; :mod:`eslabon._files`
re-exports :func:`read_regular` for the rest.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import pickle
import shutil
import stat
import sys
import uuid

MAX_INDEX_BYTES = 16 * 2**20
"""Largest numba cache index read (an index maps signatures to data files: a few kB)."""
MAX_DATA_BYTES = 1 * 2**30
"""Largest numba cache data file read (a kernel's object code: at most a few MB)."""


class NotRegularFile(ValueError):
    """A name in a folder eslabon manages that is not a regular file it may read or
    replace: a symbolic link, a FIFO, a device, a socket, a folder, a file larger than
    its kind's cap, or (in a cache folder) a file of another user or writable by others."""


def trusted_owners() -> set:
    """The owners whose files and folders this process may load code from: itself, and
    root (who can replace any file anyway)."""
    return {os.geteuid(), 0}


def kind_of(mode: int) -> str:
    """What a file of ``mode`` is, as a phrase ("a FIFO", …)."""
    for test, name in (
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "a regular file" if stat.S_ISREG(mode) else "not a file"


def refuse_kind(path, mode: int):
    """Raise :class:`NotRegularFile` naming ``path`` and what it is."""
    what = kind_of(mode)
    hint = " (eslabon never follows a link there)" if stat.S_ISLNK(mode) else ""
    raise NotRegularFile(
        f"{path}: is {what}, not a regular file{hint}; refused (remove or rename it)"
    )


def _refuse_size(path, size: int, max_bytes: int, what: str):
    raise NotRegularFile(
        f"{path}: {size} bytes, more than the {max_bytes} bytes a {what} may have; refused"
    )


def _refuse_owner(path, st):
    if st.st_uid not in trusted_owners():
        why = f"owned by another user (uid {st.st_uid})"
    else:
        why = f"writable by others (mode {stat.S_IMODE(st.st_mode):04o})"
    raise NotRegularFile(f"{path}: is {why}; refused")


def check_regular(path, *, missing_ok: bool = True):
    """The ``lstat`` of ``path`` when it is a regular file; None when it does not exist
    (and ``missing_ok``); :class:`NotRegularFile` for anything else (a link included)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        if missing_ok:
            return None
        raise
    if not stat.S_ISREG(st.st_mode):
        refuse_kind(path, st.st_mode)
    return st


def read_regular(
    path, max_bytes: int, *, what: str = "file", private: bool = False, expect=None
) -> bytes:
    """The bytes of the regular file ``path``, at most ``max_bytes`` of them, read without
    following a link or blocking on a FIFO; ``private`` also refuses a file owned by
    another user or writable by group or others; ``expect``, a (st_dev, st_ino) pair taken
    when the caller checked the path, refuses a file opened that is another (the path, or
    a folder on it, was replaced since: ``O_NOFOLLOW`` guards only the last component).

    Raises FileNotFoundError when there is no such name; :class:`NotRegularFile` naming
    the file when it is a link, a FIFO, a device, a socket, a folder, larger than
    ``max_bytes`` (``what`` names its kind in the message) or, with ``private``, not
    this user's alone; OSError when it cannot be read."""
    st = check_regular(path, missing_ok=False)
    if st.st_size > max_bytes:
        _refuse_size(path, st.st_size, max_bytes, what)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # became a link after lstat
            refuse_kind(path, stat.S_IFLNK)
        raise
    with open(fd, "rb") as f:
        st = os.fstat(fd)  # what was opened, whatever the name is now
        if not stat.S_ISREG(st.st_mode):
            refuse_kind(path, st.st_mode)
        if st.st_size > max_bytes:
            _refuse_size(path, st.st_size, max_bytes, what)
        if private and (st.st_uid not in trusted_owners() or st.st_mode & 0o022):
            _refuse_owner(path, st)
        if expect is not None and (st.st_dev, st.st_ino) != tuple(expect):
            raise NotRegularFile(
                f"{path}: is not the file checked before opening (replaced since); refused"
            )
        data = f.read(max_bytes + 1)
    if len(data) > max_bytes:  # grew after fstat
        _refuse_size(path, len(data), max_bytes, what)
    return data


# --- cache folders -------------------------------------------------------------------


def _tightenable(st) -> bool:
    """Whether a folder of ``st`` is one eslabon may make private itself: this user's
    own (not root's unless this is root), writable by its group only (not by others),
    and its group this user's own group: a folder made with ``umask 002``, as Debian and
    Ubuntu give users with a private group. A folder another group can write to was
    shared on purpose, and is refused, not changed."""
    mode = stat.S_IMODE(st.st_mode)
    return st.st_uid == os.geteuid() and st.st_gid == os.getegid() and mode & 0o022 == 0o020


def _tighten(path, st, follow: bool) -> bool:
    """Remove group write from the folder ``path`` (``chmod g-w``, the rest of its mode
    kept), through a descriptor of the folder that was checked; False when it cannot."""
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except OSError:
        return False
    try:
        now = os.fstat(fd)
        if (now.st_dev, now.st_ino) != (st.st_dev, st.st_ino) or not _tightenable(now):
            return False
        os.fchmod(fd, stat.S_IMODE(now.st_mode) & ~0o020)
        return True
    except OSError:  # a read-only file system, a folder of ours we may not change
        return False
    finally:
        os.close(fd)


def folder_problem(path, *, follow: bool = False):
    """Why the folder ``path`` may not hold code this process loads (a phrase), or None:
    a symbolic link (unless ``follow``: the root the user named), not a folder, owned by
    another user than this one or root, writable by group or others. A missing folder
    is no problem (it will be created private). A folder of this user's writable by its
    own group only (``umask 002``) is made private (``chmod g-w``) and is no problem."""
    try:
        st = os.stat(path) if follow else os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"unreadable ({exc.strerror})"
    if not stat.S_ISDIR(st.st_mode):
        return f"{kind_of(st.st_mode)}, not a folder"
    if st.st_uid not in trusted_owners():
        return f"owned by another user (uid {st.st_uid})"
    mode = stat.S_IMODE(st.st_mode)
    if mode & 0o022:
        if _tightenable(st) and _tighten(path, st, follow):
            return None
        who = " and ".join(w for w, bit in (("group", 0o020), ("others", 0o002)) if mode & bit)
        return f"writable by {who} (mode {mode:04o})"
    return None


def _chain(root: str, folder: str) -> list:
    """``root`` and every folder from it down to ``folder`` (inside it)."""
    chain = [root]
    rel = os.path.relpath(folder, root)
    if rel != os.curdir:
        for part in rel.split(os.sep):
            chain.append(os.path.join(chain[-1], part))
    return chain


def chain_problem(root: str, folder: str):
    """(the first folder at fault, why) from the cache root ``root`` (followed if a link:
    the user named it) down to ``folder``, or None when every one may hold code this
    process loads."""
    for k, path in enumerate(_chain(root, folder)):
        problem = folder_problem(path, follow=k == 0)
        if problem:
            return path, problem
    return None


SAID_ENV = "_ESLABON_CACHE_REFUSED"
"""Set by the process that said which cache folders it refused, for the processes it
starts (``eslabon warmup``'s workers, a local Dask cluster): one line, not one per
worker, when they find the same."""
_said = False


def say_refused(refused: list, chosen: str) -> None:
    """One line on stderr, once per process, on the cache folders refused: which, why,
    and where the kernels are cached instead. ``refused``: (folder, why) pairs. Silent
    when a parent process said the same (:data:`SAID_ENV`)."""
    global _said
    if not refused or _said:
        return
    _said = True
    decision = os.pathsep.join([folder for folder, _ in refused] + [chosen])
    if os.environ.get(SAID_ENV) == decision:
        return
    os.environ[SAID_ENV] = decision  # inherited by the processes started from now on
    stream = sys.stderr
    if stream is None:
        return
    why = "; nor from ".join(f"{folder}: it is {why}" for folder, why in refused)
    try:
        print(
            f"eslabon: kernels are not loaded from the cache folder {why}, so another "
            f"user could plant code there; cached in {chosen} instead",
            file=stream,
            flush=True,
        )
    except (OSError, ValueError):  # stderr closed or a broken pipe
        pass


def make_private(root: str, folder: str) -> None:
    """Create what is missing of ``root`` down to ``folder``, each new folder readable
    and writable by this user only (0o700)."""
    os.makedirs(root, mode=0o700, exist_ok=True)
    for path in _chain(root, folder)[1:]:
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            pass


# --- numba's cache files -------------------------------------------------------------

_trusted_paths: set = set()  # cache folders whose chain was checked (eslabon's)


def trust(folder: str) -> None:
    """Load and save the entries of ``folder`` through the guarded file class."""
    _trusted_paths.add(os.path.normpath(folder))


def _discard(path: str) -> None:
    """Remove a bad entry of one of this user's cache folders (a folder in its place
    too), so that the entry written next takes its name; a failure is left to the save."""
    try:
        st = os.lstat(path)
        if stat.S_ISDIR(st.st_mode):
            shutil.rmtree(path, ignore_errors=True)
        else:
            os.unlink(path)
    except OSError:
        pass


def _read_entry(path: str, max_bytes: int):
    """The bytes of a cache entry, or None (after removing it) when it is missing or not
    a sound regular file of this user's."""
    try:
        return read_regular(path, max_bytes, what="numba cache entry", private=True)
    except FileNotFoundError:
        return None
    except (NotRegularFile, OSError):
        _discard(path)
        return None


def _entry_name(name) -> bool:
    """Whether an index names a data file of its own folder (no path, no link out)."""
    return isinstance(name, str) and name not in ("", ".", "..") and os.sep not in name


def guard_rebuild(cache_class, log=lambda *args: None) -> None:
    """Make numba's ``Cache`` (``cache_class``) treat a kernel of eslabon's cache folders
    that fails to rebuild — an entry that unpickles but is not what numba wrote for this
    kernel — as a miss: its data file is removed and the kernel compiles (and is saved)
    again. numba rebuilds a loaded entry unguarded, so such an entry would end the
    process. Other code's caches are left to numba."""
    load = cache_class._load_overload
    if getattr(load, "eslabon_guarded", False):
        return

    def _load_overload(self, sig, target_context):
        file = self._cache_file
        if not getattr(file, "_guarded", lambda: False)():
            return load(self, sig, target_context)
        try:
            return load(self, sig, target_context)
        except Exception as exc:
            log("[cache] entry of %r not rebuilt (%s: %s)", self._name, type(exc).__name__, exc)
            with contextlib.suppress(Exception):
                file.discard(self._index_key(sig, target_context.codegen()))
            return None

    _load_overload.eslabon_guarded = True
    cache_class._load_overload = _load_overload


def guarded_cache_file(base, log=lambda *args: None):
    """A subclass of numba's ``IndexDataCacheFile`` (``base``) that reads and writes the
    entries of eslabon's cache folders (:func:`trust`) as described in the module
    docstring, and leaves any other folder to numba; ``log(message, *args)`` as numba's
    ``_cache_log`` (NUMBA_DEBUG_CACHE)."""

    class GuardedIndexDataCacheFile(base):
        def _guarded(self) -> bool:
            return os.path.normpath(self._cache_path) in _trusted_paths

        def _load_index(self):
            if not self._guarded():
                return super()._load_index()
            raw = _read_entry(self._index_path, MAX_INDEX_BYTES)
            if raw is None:
                return {}
            try:
                f = io.BytesIO(raw)
                version = pickle.load(f)
                if version != self._version:  # another numba's: left for it to rewrite
                    return {}
                stamp, overloads = pickle.loads(f.read())
                if not isinstance(overloads, dict) or not all(map(_entry_name, overloads.values())):
                    raise TypeError("not an index")
            except Exception:  # truncated, garbage, not numba's: a miss
                log("[cache] index unsound, removed: %r", self._index_path)
                _discard(self._index_path)
                return {}
            log("[cache] index loaded from %r", self._index_path)
            return overloads if stamp == self._source_stamp else {}

        def _load_data(self, name):
            if not self._guarded():
                return super()._load_data(name)
            path = self._data_path(name)
            raw = _read_entry(path, MAX_DATA_BYTES)
            if raw is None:
                raise FileNotFoundError(path)  # numba's load: a miss
            try:
                data = pickle.loads(raw)
            except Exception:
                log("[cache] data unsound, removed: %r", path)
                _discard(path)
                raise FileNotFoundError(path) from None
            log("[cache] data loaded from %r", path)
            return data

        def discard(self, key):
            """Remove the data file of ``key`` (its kernel could not be rebuilt)."""
            name = self._load_index().get(key)
            if name is not None:
                log("[cache] data unsound, removed: %r", self._data_path(name))
                _discard(self._data_path(name))

        def save(self, key, data):
            if not self._guarded():
                return super().save(key, data)
            try:
                super().save(key, data)
            except OSError:  # a cache that cannot be written: the kernel still runs
                pass

        @contextlib.contextmanager
        def _open_for_write(self, filepath):
            if not self._guarded():
                with super()._open_for_write(filepath) as f:
                    yield f
                return
            tmp = f"{filepath}.tmp.{uuid.uuid4().hex[:16]}"
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
            fd = os.open(tmp, flags, 0o600)
            try:
                with open(fd, "wb") as f:
                    yield f
                if os.path.isdir(filepath) and not os.path.islink(filepath):
                    _discard(filepath)
                os.replace(tmp, filepath)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise

    return GuardedIndexDataCacheFile
