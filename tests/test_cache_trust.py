"""A numba cache that is not yours is never loaded, and a damaged one is a miss.

numba reads its cache index and data with pickle, so whoever can write a cache folder can
run code in every process that loads from it. eslabon loads its kernels only from a
folder chain (the cache root the user chose, ``eslabon-<hash>``, the package folder)
owned by this user (or root) and not writable by group or others, and never through a
link; otherwise it caches in a private folder and says why in one line on stderr.
An index or data file that is not a regular file, too large, truncated or garbage is a
cache miss: the kernel compiles, the entry is rewritten, nothing hangs.

Every case runs a tiny kernel module in a subprocess (``_engine.compile`` pointed at a
package in tmp_path), with NUMBA_CACHE_DIR and the user's cache directory in tmp_path.
"""

import os
import pickle
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

SRC = str(Path(__file__).resolve().parents[1] / "src")
RUN = r"""
import os, sys
from eslabon._engine import compile as c
from eslabon._engine import cachedir
cachedir._PACKAGE_ROOT = sys.argv[1]
cachedir._COMPILED_PACKAGES = ("k",)
c.install()
sys.path.insert(0, os.path.dirname(sys.argv[1]))
from tinypkg.k.tiny import plus_one
print(plus_one(41))
"""
KERNEL = "import numba\n\n\n@numba.njit(cache=True)\ndef plus_one(x):\n    return x + 1\n"
FOREIGN_UID = 12345
SAID_ENV = "_ESLABON_CACHE_REFUSED"


class _Plant:
    """A pickle that creates ``marker`` when loaded (what a planted index could do)."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (open, (self.marker, "w"))


def _package(root: Path) -> Path:
    pkg = root / "tinypkg"
    (pkg / "k").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "k" / "__init__.py").write_text("")
    (pkg / "k" / "tiny.py").write_text(KERNEL)
    return pkg


def _run(pkg: Path, cache, home: Path, timeout=120, umask=None, script=RUN, env=()):
    """(returncode, stdout, stderr) of the kernel's first call in a fresh process
    (``cache`` None: no NUMBA_CACHE_DIR)."""
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", SAID_ENV)},
        "PYTHONPATH": SRC,
        "XDG_CACHE_HOME": str(home),
        "NUMBA_DEBUG_CACHE": "1",
        "ESLABON_COMPILE_NOTICE": "0",
        **({} if cache is None else {"NUMBA_CACHE_DIR": str(cache)}),
        **dict(env),
    }
    p = subprocess.run(
        [sys.executable, "-c", script, str(pkg)],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        umask=-1 if umask is None else umask,
    )
    return p.returncode, p.stdout, p.stderr


def _said(err: str) -> list:
    return [x for x in err.splitlines() if x.startswith("eslabon:")]


def _answer(stdout: str) -> str:
    lines = [x for x in stdout.splitlines() if not x.startswith("[cache]")]
    return lines[-1] if lines else ""


@pytest.fixture(scope="module")
def warm(tmp_path_factory):
    """A package and a warm cache of its kernel (copied by each case)."""
    base = tmp_path_factory.mktemp("trust")
    pkg = _package(base)
    cache = base / "cache"
    code, out, err = _run(pkg, cache, base / "home")
    assert code == 0 and _answer(out) == "42", err
    return pkg, cache


def _copy(warm, tmp_path):
    pkg, cache = warm
    target = tmp_path / "cache"
    shutil.copytree(cache, target, symlinks=True)
    (index,) = target.glob("eslabon-*/k/*.nbi")
    (data,) = target.glob("eslabon-*/k/*.nbc")
    return pkg, target, index, data


def test_a_warm_cache_of_ones_own_is_loaded_and_the_folders_are_private(warm, tmp_path):
    pkg, cache, index, _ = _copy(warm, tmp_path)
    code, out, err = _run(pkg, cache, tmp_path / "home")
    assert code == 0 and _answer(out) == "42", err
    assert "[cache] data loaded from" in out and "eslabon:" not in err
    folder = index.parent
    for f in (folder, folder.parent):  # made by eslabon: no one else may write there
        assert stat.S_IMODE(warm[1].joinpath(f.relative_to(cache)).stat().st_mode) & 0o077 == 0


def test_a_planted_pickle_in_ones_own_folder_is_what_the_guard_is_about(warm, tmp_path):
    """The control: a pickle in a folder of one's own does run (only you could plant it)."""
    pkg, cache, index, _ = _copy(warm, tmp_path)
    marker = tmp_path / "ran"
    index.write_bytes(pickle.dumps(_Plant(str(marker))))
    code, out, err = _run(pkg, cache, tmp_path / "home")
    assert code == 0 and _answer(out) == "42", err
    assert marker.exists()


def _root_writable(cache, index):
    cache.chmod(0o777)
    return cache


def _hash_folder_foreign(cache, index):
    os.chown(index.parent.parent, FOREIGN_UID, FOREIGN_UID)
    return index.parent.parent


def _hash_folder_writable_by_another_group(cache, index):
    index.parent.parent.chmod(0o775)  # a group of others: shared on purpose, not changed
    os.chown(index.parent.parent, -1, FOREIGN_UID)
    return index.parent.parent


def _package_folder_others_writable(cache, index):
    index.parent.chmod(0o757)
    return index.parent


def _package_folder_foreign(cache, index):
    os.chown(index.parent, FOREIGN_UID, FOREIGN_UID)
    return index.parent


def _package_folder_a_link(cache, index):
    folder = index.parent
    elsewhere = cache.parent / "elsewhere"
    shutil.move(str(folder), str(elsewhere))
    folder.symlink_to(elsewhere)
    return folder


SHARED = {
    "root writable by others (0o777)": _root_writable,
    "eslabon-<hash> owned by another user": _hash_folder_foreign,
    "eslabon-<hash> writable by another group": _hash_folder_writable_by_another_group,
    "package folder writable by others": _package_folder_others_writable,
    "package folder owned by another user": _package_folder_foreign,
    "package folder a symbolic link": _package_folder_a_link,
}


@pytest.mark.parametrize("case", list(SHARED))
def test_a_planted_pickle_in_a_folder_not_ones_own_is_never_loaded(warm, tmp_path, case):
    pkg, cache, index, _ = _copy(warm, tmp_path)
    marker = tmp_path / "ran"
    index.write_bytes(pickle.dumps(_Plant(str(marker))))
    refused = SHARED[case](cache, index)
    code, out, err = _run(pkg, cache, tmp_path / "home")
    assert code == 0 and _answer(out) == "42", err
    assert not marker.exists(), f"{case}: the planted pickle ran"
    lines = _said(err)
    assert len(lines) == 1 and str(refused) in lines[0], err
    assert "not loaded" in lines[0]
    # the kernel went to a private folder of this user, and loads from there next time
    code, out, err2 = _run(pkg, cache, tmp_path / "home")
    assert code == 0 and _answer(out) == "42" and not marker.exists()
    assert "[cache] data loaded from" in out and str(tmp_path / "home") in out


def test_folders_umask_002_made_are_made_private_and_loaded_from(warm, tmp_path):
    """Debian and Ubuntu give a user with a private group ``umask 002``: the cache root
    (NUMBA_CACHE_DIR, numba's ``~/.cache/numba``) and the ``eslabon-<hash>`` folder are
    0o775. They are this user's, writable by this user's own group: made private
    (``chmod g-w``) and loaded from, silently, rather than refused on every run."""
    pkg, cache, index, _ = _copy(warm, tmp_path)
    for folder in (cache, index.parent.parent):
        folder.chmod(0o2775)
    code, out, err = _run(pkg, cache, tmp_path / "home", umask=0o002)
    assert code == 0 and _answer(out) == "42" and _said(err) == [], err
    assert "[cache] data loaded from" in out and str(cache) in out
    for folder in (cache, index.parent.parent, index.parent):
        assert stat.S_IMODE(folder.stat().st_mode) & 0o022 == 0, folder
    assert stat.S_IMODE(cache.stat().st_mode) == 0o2755  # only group write removed


def test_a_cold_cache_made_with_umask_002_is_loaded_by_the_next_process(tmp_path):
    """No NUMBA_CACHE_DIR: ``__pycache__`` beside the sources (as pip makes it) and numba's
    user cache directory, 0o775; the first process compiles, the second loads."""
    pkg = _package(tmp_path)
    home = tmp_path / "home"
    for folder in (pkg / "__pycache__", home / "numba"):
        folder.mkdir(parents=True)
        folder.chmod(0o775)
    for run in range(2):
        code, out, err = _run(pkg, None, home, umask=0o002)
        assert code == 0 and _answer(out) == "42" and _said(err) == [], err
        loaded = "[cache] data loaded from" in out
        assert loaded == (run == 1), out
        assert str(pkg / "__pycache__" / "eslabon-") in out
    assert stat.S_IMODE((pkg / "__pycache__").stat().st_mode) == 0o755


def _foreign_folder(path):
    path.mkdir(parents=True)
    os.chown(path, FOREIGN_UID, FOREIGN_UID)


def test_every_cache_folder_refused_one_line_and_the_same_private_folder_each_run(tmp_path):
    pkg = _package(tmp_path)
    cache, home = tmp_path / "cache", tmp_path / "home"
    _foreign_folder(cache)
    _foreign_folder(home / "numba")
    for run in range(2):
        code, out, err = _run(pkg, cache, home)
        assert code == 0 and _answer(out) == "42", err
        lines = _said(err)
        assert len(lines) == 1, err  # both folders, in one line
        assert str(cache) in lines[0] and str(home / "numba") in lines[0]
        assert lines[0].endswith(f"cached in {home / 'eslabon'} instead")
        assert ("[cache] data loaded from" in out) == (run == 1), out
    assert stat.S_IMODE((home / "eslabon").stat().st_mode) == 0o700


PARENT = r"""
import os, subprocess, sys
from eslabon._engine import cachedir, compile
cachedir._PACKAGE_ROOT = sys.argv[1]
cachedir._COMPILED_PACKAGES = ("k",)
compile.settle_for_workers()  # as eslabon warmup and a local Dask cluster do
child = subprocess.run([sys.executable, "-c", os.environ["CHILD"], sys.argv[1]],
                       capture_output=True, text=True)
print("child", child.returncode, child.stdout.splitlines()[-1])
print("child said", sum(x.startswith("eslabon:") for x in child.stderr.splitlines()))
"""


def test_workers_started_after_the_line_do_not_repeat_it(tmp_path):
    pkg = _package(tmp_path)
    (pkg / "k" / "__init__.py").write_text("")
    cache = tmp_path / "cache"
    cache.mkdir()
    cache.chmod(0o777)  # writable by others: refused, never changed
    code, out, err = _run(pkg, cache, tmp_path / "home", script=PARENT, env={"CHILD": RUN})
    assert code == 0, err
    assert len(_said(err)) == 1 and str(cache) in err
    assert "child 0 42" in out and "child said 0" in out, out
    assert stat.S_IMODE(cache.stat().st_mode) == 0o777


def _truncated(path, tmp_path):
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _garbage(path, tmp_path):
    path.write_bytes(b"\x80\x05not a pickle at all" * 10)


def _empty(path, tmp_path):
    path.write_bytes(b"")


def _a_folder(path, tmp_path):
    path.unlink()
    path.mkdir()
    (path / "inside").write_text("x")


def _dev_zero(path, tmp_path):
    path.unlink()
    path.symlink_to("/dev/zero")


def _fifo(path, tmp_path):
    path.unlink()
    os.mkfifo(path)


def _sparse(path, tmp_path):
    with open(path, "r+b") as f:
        f.truncate(64 * 2**30)


def _link_to_a_pickle_elsewhere(path, tmp_path):
    elsewhere = tmp_path / "planted.pkl"
    elsewhere.write_bytes(pickle.dumps(_Plant(str(tmp_path / "ran"))))
    path.unlink()
    path.symlink_to(elsewhere)


def _another_pickle(path, tmp_path):
    """Sound as a pickle, a file of this user's, but not what numba wrote: a miss."""
    path.write_bytes(pickle.dumps(("not", "a", "kernel")))
    path.chmod(0o600)


def _index_naming_a_file_elsewhere(path, tmp_path):
    """An index whose entry names a file outside its folder: unsound, never followed."""
    raw = path.read_bytes()
    f = __import__("io").BytesIO(raw)
    version = pickle.load(f)
    stamp, overloads = pickle.loads(f.read())
    outside = tmp_path / "outside.nbc"
    outside.write_bytes(b"not a pickle")
    overloads = {k: str(outside) for k in overloads}
    path.write_bytes(pickle.dumps(version) + pickle.dumps((stamp, overloads)))


def _foreign_file(path, tmp_path):
    path.write_bytes(pickle.dumps(_Plant(str(tmp_path / "ran"))))
    os.chown(path, FOREIGN_UID, FOREIGN_UID)


def _group_writable_file(path, tmp_path):
    path.write_bytes(pickle.dumps(_Plant(str(tmp_path / "ran"))))
    path.chmod(0o664)


DAMAGE = {
    "truncated": _truncated,
    "garbage": _garbage,
    "empty": _empty,
    "a folder": _a_folder,
    "a link to /dev/zero": _dev_zero,
    "a FIFO": _fifo,
    "a 64 GiB sparse file": _sparse,
    "a link to a pickle elsewhere": _link_to_a_pickle_elsewhere,
    "owned by another user": _foreign_file,
    "writable by the group": _group_writable_file,
    "a pickle of something else": _another_pickle,
}
ENTRIES = (
    [("index", k) for k in DAMAGE]
    + [("index", "naming a file elsewhere")]
    + [
        ("data", k)
        for k in (
            "truncated",
            "garbage",
            "a FIFO",
            "a link to /dev/zero",
            "a folder",
            "a pickle of something else",
        )
    ]
)
DAMAGE["naming a file elsewhere"] = _index_naming_a_file_elsewhere


@pytest.mark.parametrize("entry,damage", ENTRIES)
def test_a_damaged_or_foreign_entry_is_a_miss_that_recompiles(warm, tmp_path, entry, damage):
    pkg, cache, index, data = _copy(warm, tmp_path)
    path = index if entry == "index" else data
    DAMAGE[damage](path, tmp_path)
    code, out, err = _run(pkg, cache, tmp_path / "home", timeout=60)
    assert code == 0 and _answer(out) == "42", err
    assert not (tmp_path / "ran").exists()
    assert "[cache] data saved to" in out  # compiled
    if damage == "naming a file elsewhere":
        assert (tmp_path / "outside.nbc").read_bytes() == b"not a pickle"
    # the entry was replaced by a sound one: the next process loads it
    assert path.is_file() and not path.is_symlink()
    code, out, err = _run(pkg, cache, tmp_path / "home", timeout=60)
    assert code == 0 and _answer(out) == "42", err
    assert "[cache] data loaded from" in out
