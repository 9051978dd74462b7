"""The one atomic writer (eslabon._files): what it removes, what it keeps, how it
replaces (issue "Nothing silently wrong")."""

import os
import stat

import pytest

from eslabon import _files
from eslabon._files import (
    OutputExistsError,
    atomic_path,
    remove_stale_temporaries,
    write_text_atomic,
)

HOST = _files._HOST


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


def test_what_a_kill_between_link_and_rename_leaves_the_next_write_removes(tmp_path):
    # atomic_file names its complete anonymous file for the instant before the rename over
    # the target; a kill in that instant leaves this name (CI saw it once, on the viewer)
    target = tmp_path / "view.html"
    name = _files._temporary_name(target).name
    m = _files._our_temporary(name)
    assert m is not None and m["target"] == "view.html" and int(m["pid"]) == os.getpid()
    left = _stale(tmp_path, "view.html")  # the same form, from a process now dead
    write_text_atomic(target, "<html></html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["view.html"], left
