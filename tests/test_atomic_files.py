"""The one atomic writer (eslabon._files): what it removes, what it keeps, how it
replaces (issue "Nothing silently wrong")."""

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from eslabon import _files
from eslabon._files import (
    OutputExistsError,
    atomic_path,
    remove_stale_temporaries,
    write_text_atomic,
)

HOST = _files._HOST
SRC = str(Path(_files.__file__).resolve().parents[1])


def _stale(folder, target, pid=999_999_999, token="0123456789ab", tail=None):
    suffix = os.path.splitext(target)[1] if tail is None else tail
    p = folder / f".{target}.eslabon-tmp-{HOST}-{pid}-{token}{suffix}"
    p.write_text("left by a killed writer")
    return p


def test_only_exact_temporaries_of_dead_writers_on_this_host_are_removed(tmp_path):
    dead = _stale(tmp_path, "a.csv")
    mine = _stale(tmp_path, "a.csv", tail=".csv-my-precious-backup")  # not our form
    other_host = tmp_path / ".a.csv.eslabon-tmp-elsewhere-999999999-0123456789ab.csv"
    other_host.write_text("another machine's write in progress")
    alive = _stale(tmp_path, "a.csv", pid=os.getppid())
    absurd = _stale(tmp_path, "b.csv", pid=10**30)
    bracket = _stale(tmp_path, "r[1].csv")
    user = tmp_path / ".tmp-mine"
    user.write_text("a user's file")
    removed = remove_stale_temporaries(tmp_path)
    assert sorted(removed) == sorted([dead, bracket])
    for p in (mine, other_host, alive, absurd, user):
        assert p.exists(), p
    assert remove_stale_temporaries(tmp_path, "r[1].csv") == []


def test_a_replaced_file_keeps_its_permissions_and_a_symlink_stays(tmp_path):
    target = tmp_path / "secret.txt"
    target.write_text("old")
    target.chmod(0o600)
    write_text_atomic(target, "new")
    assert target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    real = tmp_path / "real.txt"
    real.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    write_text_atomic(link, "through the link")
    assert link.is_symlink() and real.read_text() == "through the link"
    with atomic_path(tmp_path / "named.txt") as tmp:
        with open(tmp, "w") as f:
            f.write("named")
    assert (tmp_path / "named.txt").read_text() == "named"


def test_no_overwrite_refuses_atomically_and_a_missing_folder_is_named(tmp_path):
    target = tmp_path / "x.txt"
    write_text_atomic(target, "first")
    with pytest.raises(OutputExistsError, match="exists and overwrite=False"):
        write_text_atomic(target, "second", overwrite=False)
    assert target.read_text() == "first"
    with pytest.raises(ValueError, match="the folder .* does not exist"):
        write_text_atomic(tmp_path / "no" / "x.txt", "x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.txt"]


def _killed_at_rename(path, text):
    """Write ``text`` to ``path`` in a child process that dies (os._exit) where
    atomic_file would rename its complete file over ``path``; returns the exit status."""
    code = (
        "import os, sys\n"
        "from eslabon._files import write_text_atomic\n"
        "os.replace = lambda *a, **k: os._exit(7)\n"
        f"write_text_atomic({str(path)!r}, {text!r})\n"
    )
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.run([sys.executable, "-c", code], env=env, timeout=120).returncode


def test_a_kill_at_the_rename_leaves_the_complete_file_and_a_later_write_removes_it(
    tmp_path,
):
    target = tmp_path / "view.html"
    assert _killed_at_rename(target, "new name: linked in one step") == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["view.html"]
    assert target.read_text() == "new name: linked in one step"
    assert _killed_at_rename(target, "two") == 7  # replacing: killed before the rename
    left = sorted(p.name for p in tmp_path.iterdir() if p.name != "view.html")
    assert len(left) == 1 and _files._our_temporary(left[0])["target"] == "view.html"
    assert (tmp_path / left[0]).read_text() == "two"  # complete
    assert target.read_text() == "new name: linked in one step"  # untouched
    write_text_atomic(target, "three")  # this process's first write into the folder
    assert sorted(p.name for p in tmp_path.iterdir()) == ["view.html"]
    assert target.read_text() == "three"


def test_in_a_managed_folder_a_link_or_special_file_is_refused_by_name(tmp_path):
    """``follow_symlinks=False`` (a folder eslabon manages) refuses a target that is a
    link, a FIFO or a device instead of writing through it; :func:`read_regular` reads
    only a regular file under its cap, without following a link or waiting on a FIFO."""
    from eslabon._files import UnsafeFileError, managed_folder, read_regular

    victim = tmp_path / "victim.txt"
    victim.write_text("the victim's")
    link = tmp_path / "report.json"
    link.symlink_to(victim)
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    dev = tmp_path / "zero.json"
    dev.symlink_to("/dev/zero")
    sparse = tmp_path / "sparse.bin"
    with open(sparse, "wb") as f:
        f.truncate(8 * 2**30)
    for path in (link, fifo, dev):
        with pytest.raises(UnsafeFileError, match=rf"{path.name}: is a (symbolic link|FIFO)"):
            write_text_atomic(path, "x", follow_symlinks=False)
        with pytest.raises(UnsafeFileError, match=rf"{path.name}: is a .*not a regular file"):
            read_regular(path, 1024)
    with pytest.raises(UnsafeFileError, match=r"sparse.bin: 8589934592 bytes, more than"):
        read_regular(sparse, 2**20, what="part")
    assert victim.read_text() == "the victim's" and link.is_symlink()
    (tmp_path / "mine.json").write_text("old")
    write_text_atomic(tmp_path / "mine.json", "new", follow_symlinks=False)
    assert read_regular(tmp_path / "mine.json", 16) == b"new"
    with pytest.raises(FileNotFoundError):
        read_regular(tmp_path / "none", 16)
    (tmp_path / "folder").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    with pytest.raises(UnsafeFileError, match=r"folder: is a symbolic link, not a folder"):
        managed_folder(tmp_path / "folder", create=True)
    assert managed_folder(tmp_path / "real", create=True).is_dir()
