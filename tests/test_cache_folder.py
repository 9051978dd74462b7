"""The folder of eslabon's numba cache is named by a hash of every compiled source
(``_engine/cachedir.py``). A module of kernels imported after an edit of the sources
compiles its new code with the old code of the modules imported before, which neither
hash names: its kernels go to a folder of this process only."""

import os

from eslabon._engine import cachedir as compile_


def test_a_module_imported_after_an_edit_is_not_cached_under_either_hash(
    tmp_path, monkeypatch, capsys
):
    from numba.core import config

    from eslabon.dynamics import composite_rigid_body, rnea

    sources = [tmp_path / "a.py", tmp_path / "b.py", tmp_path / ".#b.py"]
    for s in sources[:2]:
        s.write_text("x = 1\n")
    os.symlink(tmp_path / "gone.py", sources[2])  # a dangling link: stat and open fail
    monkeypatch.setattr(compile_, "_compiled_sources", lambda: [str(s) for s in sources])
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "cache"))
    locator = compile_.cache_locator()

    def path_of(kernel):
        fn = kernel.py_func
        return locator.from_function(fn, fn.__code__.co_filename).get_cache_path()

    before = path_of(composite_rigid_body.crba_into)  # the first module: the hash is taken
    code_hash = compile_._code_hash([str(s) for s in sources])
    assert before == os.path.join(str(tmp_path / "cache"), f"eslabon-{code_hash}", "dynamics")
    sources[1].write_text("x = 2  # edited while the process runs\n")
    assert path_of(composite_rigid_body.ne_columns_into) == before  # its module was seen before
    assert capsys.readouterr().err == ""
    after = path_of(rnea.rnea_into)  # a module first imported after the edit
    assert after.startswith(locator.private_base) and not after.startswith(str(tmp_path))
    assert "sources changed while this process ran" in capsys.readouterr().err
    assert path_of(rnea.rnea_into) == after


def test_hidden_files_are_not_sources():
    names = [os.path.basename(p) for p in compile_._compiled_sources()]
    assert names and not [n for n in names if n.startswith(".")]
    assert all(n.endswith(".py") for n in names)


def test_warmup_counts_and_prune_removes_only_this_installs_other_versions(
    tmp_path, monkeypatch, capsys
):
    """A shared cache directory (NUMBA_CACHE_DIR): only folders marked as compiled from
    these sources, of another hash, are counted and removed; the folder of these sources
    at the other lanes width, another install's, an unmarked one, a link, a name not of
    the form and a user's file stay."""
    import json

    from numba.core import config

    from eslabon import warmup
    from eslabon.cli.main import main

    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(warmup.groups, "GROUPS", {})  # compile nothing: only the cache folders
    mine = compile_._sources_root() + "\n"
    current = tmp_path / f"eslabon-{compile_._code_hash()}"
    from eslabon._engine.lanes import WIDTH

    # the same sources at the other lanes width (ESLABON_LANES): current too, kept
    other_width = tmp_path / f"eslabon-{compile_._code_hash(width=12 - WIDTH)}"
    old = tmp_path / "eslabon-0123456789abcdef"
    other_install = tmp_path / "eslabon-00000000000000aa"
    unmarked = tmp_path / "eslabon-00000000000000bb"
    for folder in (current, other_width, old / "dynamics", other_install, unmarked):
        folder.mkdir(parents=True)
    (current / ".eslabon-sources").write_text(mine)
    (other_width / ".eslabon-sources").write_text(mine)
    (old / ".eslabon-sources").write_text(mine)
    (other_install / ".eslabon-sources").write_text("/another/venv/eslabon\n")
    (old / "dynamics" / "rnea.nbi").write_bytes(b"x" * 100)
    elsewhere = tmp_path.parent / f"{tmp_path.name}-elsewhere"
    elsewhere.mkdir()
    (elsewhere / ".eslabon-sources").write_text(mine)
    (tmp_path / "eslabon-fedcba9876543210").symlink_to(elsewhere)  # a link: never
    (tmp_path / "eslabon-notahash").mkdir()  # not of the form
    (tmp_path / "user.txt").write_text("a user's file")
    size = 100 + len(mine.encode())

    main(["warmup", "--jobs", "1", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["old_cache"] == {"folders": 1, "bytes": size, "removed": 0, "not_removed": []}
    main(["warmup", "--jobs", "1"])
    assert "(0.0 MiB): `eslabon warmup --prune` removes it" in capsys.readouterr().out
    assert old.exists()

    main(["warmup", "--jobs", "1", "--prune"])
    out = capsys.readouterr().out
    assert "1 cache folder of other versions of eslabon's sources (0.0 MiB): removed" in out
    assert not old.exists()
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted(
        [
            current.name,
            other_width.name,
            other_install.name,
            unmarked.name,
            "eslabon-fedcba9876543210",
            "eslabon-notahash",
            "user.txt",
        ]
    )
    assert elsewhere.exists()
    assert compile_.remove_old_cache_folders() == ([], [])


def test_a_kernel_folder_is_marked_with_the_sources_it_came_from(tmp_path, monkeypatch):
    from numba.core import config

    from eslabon.dynamics import composite_rigid_body

    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path))
    fn = composite_rigid_body.crba_into.py_func
    path = compile_.cache_locator().from_function(fn, fn.__code__.co_filename).get_cache_path()
    marker = os.path.join(os.path.dirname(path), ".eslabon-sources")
    with open(marker, encoding="utf-8") as f:
        assert f.read().strip() == compile_._sources_root()
    assert [f["ours"] and f["current"] for f in compile_.cache_folders()] == [True]
