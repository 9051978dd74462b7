"""Writing user files so that nothing already saved is lost or half-written.

Every file eslabon writes goes through this module:

- :func:`atomic_file` opens an *anonymous* file in the target's folder (Linux ``O_TMPFILE``)
  and gives it the target's name once it is complete. A process killed while writing
  leaves nothing behind: the kernel frees an anonymous file with its last descriptor.
  A new name is linked in one step. Replacing an existing file takes two (Linux cannot
  link a file over another name): the complete file is linked under a temporary name of
  the form below, then renamed over the target. A kill between those two calls leaves
  that complete temporary, which a later process's first write into the folder removes.
  Where the folder does not support anonymous files, a named temporary is used
  throughout (see below).
- :func:`atomic_path` is for writers that need a file *name* (an animation writer, a
  subprocess): a temporary named ``.<target>.eslabon-tmp-<host>-<pid>-<token><suffix>`` beside
  the target, renamed over it when complete and removed on failure. A temporary left by
  a killed process is removed by a later process's first write into that folder
  (:func:`remove_stale_temporaries`): only names of exactly this form, made on this host
  by a process that no longer runs — never a file eslabon did not create.

Both refuse a target whose folder does not exist (nothing is created on the user's
behalf), and with ``overwrite=False`` refuse an existing target atomically (the new file
is linked under the name only if the name is free). A file replaced keeps its
permissions; a symlink the user named is written through (the link stays, its target is
replaced).

In a folder eslabon manages (a sweep's), nothing goes through a link: writers are called
with ``follow_symlinks=False``, which refuses a target that is a link, a FIFO, a device
or a socket (:class:`UnsafeFileError`, naming it; the final rename would replace the
name itself, never what a link points to), :func:`read_regular` reads a file only when
it is a regular file under its kind's cap (opened with ``O_NOFOLLOW | O_NONBLOCK``), and
:func:`managed_folder` refuses a subfolder that is a link.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import socket
import stat
from contextlib import contextmanager
from pathlib import Path

from ._engine.safefiles import NotRegularFile as UnsafeFileError
from ._engine.safefiles import check_regular, kind_of, read_regular

__all__ = [
    "OutputExistsError",
    "UnsafeFileError",
    "atomic_file",
    "atomic_path",
    "check_output",
    "check_regular",
    "managed_folder",
    "read_regular",
    "remove_stale_temporaries",
    "savefig_atomic",
    "write_text_atomic",
]

TEMPORARY_MARK = ".eslabon-tmp-"
_HOST = re.sub(r"[^A-Za-z0-9_.]", "_", socket.gethostname())[:40] or "host"
_TEMPORARY = re.compile(
    r"^\.(?P<target>.+)\.eslabon-tmp-(?P<host>[A-Za-z0-9_.]+)-(?P<pid>\d+)"
    r"-[0-9a-f]{12}(?P<suffix>.*)$"
)
_PROC_FD = "/proc/self/fd"
_cleaned: set = set()  # folders whose stale temporaries this process removed


class OutputExistsError(ValueError):
    """The target file exists and the caller asked not to overwrite it."""


def _our_temporary(name: str):
    """The match of a temporary name exactly as :func:`_temporary_name` makes them (the
    suffix is the target's own), else None."""
    m = _TEMPORARY.match(name)
    if m is None or m["suffix"] != Path(m["target"]).suffix:
        return None
    return m


def _temporary_name(target: Path) -> Path:
    token = secrets.token_hex(6)
    return target.with_name(
        f".{target.name}{TEMPORARY_MARK}{_HOST}-{os.getpid()}-{token}{target.suffix}"
    )


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):  # someone else's, or not a pid:
        return True  # never delete on a doubt
    return True


def remove_stale_temporaries(folder, target_name: str | None = None) -> list:
    """Remove temporaries left in ``folder`` by killed eslabon writers of this host (of
    the one target ``target_name`` when given); returns the removed paths."""
    import glob

    folder = Path(folder)
    pattern = (
        f".{glob.escape(target_name)}{TEMPORARY_MARK}*" if target_name else f".*{TEMPORARY_MARK}*"
    )
    removed = []
    try:
        candidates = list(folder.glob(pattern))
    except OSError:
        return removed
    for p in candidates:
        m = _our_temporary(p.name)
        if (
            m is None
            or (target_name and m["target"] != target_name)
            or m["host"] != _HOST
            or int(m["pid"]) == os.getpid()
            or _pid_alive(int(m["pid"]))
        ):
            continue
        try:
            p.unlink()
            removed.append(p)
        except FileNotFoundError:
            pass
    return removed


def check_output(path, *, overwrite: bool = True, field: str = "path") -> Path:
    """``path`` as a Path once it is a possible output: its folder exists and is a folder,
    it is not itself a folder, and (without ``overwrite``) it does not exist. Errors name
    ``field``. Writers check again when they write; call this before long work."""
    path = Path(path)
    folder = path.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise ValueError(f"{field}: the folder {str(folder)!r} {what} (nothing was written)")
    if path.is_dir():
        raise ValueError(f"{field}: {str(path)!r} is a folder, expected a file name")
    if not overwrite and (path.exists() or path.is_symlink()):
        raise OutputExistsError(
            f"{field}: {str(path)!r} exists; pass --force to replace it, "
            "or choose another name (nothing was written)"
        )
    return path


def managed_folder(path, *, create: bool = False) -> Path:
    """``path``, a subfolder eslabon manages (``_rejected``), when it is a real folder
    (created, with ``create``, if missing); a link or any other kind of file is refused
    (:class:`UnsafeFileError` naming it)."""
    path = Path(path)
    if create:
        try:
            path.mkdir()
        except FileExistsError:
            pass
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return path
    if not stat.S_ISDIR(st.st_mode):
        raise UnsafeFileError(
            f"{path}: is {kind_of(st.st_mode)}, not a folder "
            "(eslabon never follows a link there); refused (remove or rename it)"
        )
    return path


def _refuse_existing(path: Path):
    raise OutputExistsError(f"path: {str(path)!r} exists and overwrite=False (nothing was written)")


def _anonymous(folder: Path):
    """A descriptor of an anonymous file in ``folder``, or None where unsupported."""
    if not hasattr(os, "O_TMPFILE") or not os.path.isdir(_PROC_FD):
        return None
    try:
        return os.open(folder, os.O_TMPFILE | os.O_RDWR | os.O_CLOEXEC, 0o666)
    except OSError as exc:
        if exc.errno in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL, errno.ENOTSUP):
            return None
        raise


def _link_anonymous(fd: int, target: Path, overwrite: bool):
    """Give the anonymous file ``fd`` the name ``target`` (replacing it with ``overwrite``)."""
    source = f"{_PROC_FD}/{fd}"
    dfd = os.open(target.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        try:  # a new name: one step, nothing can be left
            os.link(source, target.name, src_dir_fd=dfd, dst_dir_fd=dfd, follow_symlinks=True)
            return
        except FileExistsError:
            if not overwrite:
                _refuse_existing(target)
        tmp = _temporary_name(target).name  # visible only between these two calls
        os.link(source, tmp, src_dir_fd=dfd, dst_dir_fd=dfd, follow_symlinks=True)
        try:
            os.replace(tmp, target.name, src_dir_fd=dfd, dst_dir_fd=dfd)
        except BaseException:
            os.unlink(tmp, dir_fd=dfd)
            raise
    finally:
        os.close(dfd)


def _umask() -> int:
    """The process umask, read without changing it where /proc tells (setting and
    restoring it would race with other threads)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except OSError:
        pass
    umask = os.umask(0)
    os.umask(umask)
    return umask


def _mode_for(target: Path, follow_symlinks: bool = True) -> int:
    """The permissions of the new file: those of the file it replaces, else the usual
    0o666 less the umask."""
    try:
        return target.stat(follow_symlinks=follow_symlinks).st_mode & 0o7777
    except OSError:
        return 0o666 & ~_umask()


def _publish_named(tmp: Path, target: Path, overwrite: bool, follow_symlinks: bool = True):
    os.chmod(tmp, _mode_for(target, follow_symlinks))
    if overwrite:
        os.replace(tmp, target)
        return
    try:
        os.link(tmp, target)
    except FileExistsError:
        _refuse_existing(target)
    os.unlink(tmp)


def _prepare(path, overwrite: bool, follow_symlinks: bool = True) -> Path:
    """The file to write: a symlink's target (the link stays), checked; without
    ``follow_symlinks``, a name that is not a regular file is refused. The folder's stale
    temporaries are removed once per process."""
    path = Path(path)
    if not follow_symlinks:
        check_regular(path)
    elif overwrite and path.is_symlink():
        path = Path(os.path.realpath(path))
    check_output(path, overwrite=True)
    if not overwrite and (path.exists() or path.is_symlink()):
        _refuse_existing(path)
    folder = str(path.parent.resolve())
    if folder not in _cleaned:
        remove_stale_temporaries(path.parent)
        _cleaned.add(folder)
    return path


@contextmanager
def atomic_file(
    path,
    mode: str = "wb",
    *,
    overwrite: bool = True,
    encoding: str | None = None,
    newline: str | None = None,
    follow_symlinks: bool = True,
):
    """Yield an open file that becomes ``path`` when the block ends without an error.

    ``mode`` is ``"wb"`` or ``"w"`` (text, UTF-8 unless ``encoding``; ``newline`` as for
    :func:`open`). On an error or a kill an existing ``path`` is untouched and nothing is
    left, except after a kill in the instant between naming the complete file and
    renaming it over an existing ``path`` (see the module's docstring). ``overwrite=False``
    refuses an existing ``path`` (:class:`OutputExistsError`, a ValueError).
    ``follow_symlinks=False`` (a folder eslabon manages) refuses a ``path`` that is a
    link, a FIFO, a device or a socket (:class:`UnsafeFileError`) instead of writing
    through it.
    """
    if mode not in ("wb", "w"):
        raise ValueError(f"mode: expected 'wb' or 'w', got {mode!r}")
    path = _prepare(path, overwrite, follow_symlinks)
    text = {"encoding": encoding or "utf-8", "newline": newline} if mode == "w" else {}
    fd = _anonymous(path.parent)
    if fd is None:
        with atomic_path(path, overwrite=overwrite, follow_symlinks=follow_symlinks) as tmp:
            with open(tmp, mode, **text) as f:
                yield f
                f.flush()
                os.fsync(f.fileno())
        return
    try:
        with open(fd, mode, closefd=False, **text) as f:
            yield f
            f.flush()
        if path.exists() or not follow_symlinks and os.path.lexists(path):
            # keep the permissions of the file replaced
            os.fchmod(fd, _mode_for(path, follow_symlinks))
        os.fsync(fd)
        _link_anonymous(fd, path, overwrite)
    finally:
        os.close(fd)


@contextmanager
def atomic_path(path, *, overwrite: bool = True, follow_symlinks: bool = True):
    """Yield a temporary file *name* beside ``path`` (same suffix) for writers that need
    one; it replaces ``path`` when the block ends without an error, and is removed
    otherwise. Prefer :func:`atomic_file`, which shows a name only for the instant of the
    rename. ``follow_symlinks`` as for :func:`atomic_file`."""
    path = _prepare(path, overwrite, follow_symlinks)
    tmp = _temporary_name(path)
    try:
        yield str(tmp)
        if not tmp.exists():
            raise OSError(f"{path}: the writer produced no file")
        _publish_named(tmp, path, overwrite, follow_symlinks)
    finally:
        if tmp.exists():
            tmp.unlink()


def write_text_atomic(
    path, text: str, *, overwrite: bool = True, follow_symlinks: bool = True
) -> Path:
    """Write ``text`` (UTF-8) to ``path`` through :func:`atomic_file`; returns the path."""
    with atomic_file(path, "w", overwrite=overwrite, follow_symlinks=follow_symlinks) as f:
        f.write(text)
    return Path(path)


def savefig_atomic(
    fig, path, *, overwrite: bool = True, follow_symlinks: bool = True, **kwargs
) -> Path:
    """``fig.savefig`` into ``path`` atomically (the format from the suffix)."""
    path = Path(path)
    fmt = path.suffix.lstrip(".").lower() or None
    with atomic_file(path, "wb", overwrite=overwrite, follow_symlinks=follow_symlinks) as f:
        fig.savefig(f, format=fmt, **kwargs)
    return path
