"""The folder of eslabon's numba cache is named by a hash of every compiled source
(``_engine/compile.py``). A module of kernels imported after an edit of the sources
compiles its new code with the old code of the modules imported before, which neither
hash names: its kernels go to a folder of this process only."""

import os

from eslabon._engine import compile as compile_


def test_a_module_imported_after_an_edit_is_not_cached_under_either_hash(
    tmp_path, monkeypatch, capsys
):
    from numba.core import config

    from eslabon.dynamics import rnea, walker_orin

    sources = [tmp_path / "a.py", tmp_path / "b.py", tmp_path / ".#b.py"]
    for s in sources[:2]:
        s.write_text("x = 1\n")
    os.symlink(tmp_path / "gone.py", sources[2])  # a dangling link: stat and open fail
    monkeypatch.setattr(compile_, "_compiled_sources", lambda: [str(s) for s in sources])
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "cache"))
    locator = compile_._cache_locator()

    def path_of(kernel):
        fn = kernel.py_func
        return locator.from_function(fn, fn.__code__.co_filename).get_cache_path()

    before = path_of(walker_orin.crba_into)  # the first module: the hash is taken
    code_hash = compile_._code_hash([str(s) for s in sources])
    assert before == os.path.join(str(tmp_path / "cache"), f"eslabon-{code_hash}", "dynamics")
    sources[1].write_text("x = 2  # edited while the process runs\n")
    assert path_of(walker_orin.ne_columns_into) == before  # its module was seen before
    assert capsys.readouterr().err == ""
    after = path_of(rnea.rnea_into)  # a module first imported after the edit
    assert after.startswith(locator.private_base) and not after.startswith(str(tmp_path))
    assert "sources changed while this process ran" in capsys.readouterr().err
    assert path_of(rnea.rnea_into) == after


def test_hidden_files_are_not_sources():
    names = [os.path.basename(p) for p in compile_._compiled_sources()]
    assert names and not [n for n in names if n.startswith(".")]
    assert all(n.endswith(".py") for n in names)


def test_warmup_counts_and_prune_removes_only_other_versions_folders(tmp_path, monkeypatch, capsys):
    import json

    from numba.core import config

    from eslabon import warmup
    from eslabon.cli.main import main

    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(warmup, "GROUPS", {})  # compile nothing: only the cache folders
    current = tmp_path / f"eslabon-{compile_._code_hash()}"
    old = tmp_path / "eslabon-0123456789abcdef"
    for folder in (current, old / "dynamics"):
        folder.mkdir(parents=True)
    (current / "kept.nbi").write_bytes(b"k" * 10)
    (old / "dynamics" / "rnea.nbi").write_bytes(b"x" * 100)
    (old / "rnea.nbc").write_bytes(b"y" * 28)
    elsewhere = tmp_path.parent / f"{tmp_path.name}-elsewhere"
    elsewhere.mkdir()
    (tmp_path / "eslabon-fedcba9876543210").symlink_to(elsewhere)  # a link: not ours
    (tmp_path / "eslabon-notahash").mkdir()  # not of the form
    (tmp_path / "user.txt").write_text("a user's file")

    main(["warmup", "--jobs", "1", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["old_cache"] == {"folders": 1, "bytes": 128, "removed": False}
    assert old.exists()

    main(["warmup", "--jobs", "1", "--prune"])
    out = capsys.readouterr().out
    assert "1 cache folder of other versions of eslabon's sources (0 MiB): removed" in out
    assert not old.exists()
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted(
        [current.name, "eslabon-fedcba9876543210", "eslabon-notahash", "user.txt"]
    )
    assert (current / "kept.nbi").exists() and elsewhere.exists()
    assert compile_.remove_old_cache_folders() == []
