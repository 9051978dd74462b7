"""The folder of eslabon's numba cache is named by a hash of every compiled source
(``_engine/compile.py``): a process that outlives an edit of the sources takes the hash
again when it imports another module of kernels, so that module's new code is not stored
under the old code's name."""

import os

from eslabon._engine import compile as compile_


def test_an_edited_source_renames_the_cache_folder_in_the_same_process(tmp_path, monkeypatch):
    from numba.core import config

    from eslabon.dynamics import walker_orin

    sources = [tmp_path / "a.py", tmp_path / "b.py"]
    for s in sources:
        s.write_text("x = 1\n")
    monkeypatch.setattr(compile_, "_compiled_sources", lambda: [str(s) for s in sources])
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "cache"))
    locator = compile_._cache_locator()
    py_func = walker_orin.crba_into.py_func
    py_file = os.path.abspath(py_func.__code__.co_filename)

    first = locator.from_function(py_func, py_file).get_cache_path()
    assert locator.from_function(py_func, py_file).get_cache_path() == first  # unchanged
    sources[1].write_text("x = 2  # edited while the process runs\n")
    locator.modules_seen.clear()  # as if a module of kernels were imported only now
    second = locator.from_function(py_func, py_file).get_cache_path()
    assert second != first
    assert os.path.basename(second) == "dynamics"
    assert compile_._code_hash([str(s) for s in sources]) in second
