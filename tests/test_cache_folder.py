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
