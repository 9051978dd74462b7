"""The start-up library (:mod:`eslabon._engine.startlib`): the C entries linked into one
shared object by ``eslabon warmup``, opened by a later process without numba.

Each entry from the library must give the same bits as the same entry compiled by numba
in this process (it is the same machine code, read back from numba's cache), also on the
rare path that allocates (an angle beyond 1e5 rad); a fresh process must run its first
inverse dynamics without importing numba; and a library that is not this user's alone,
not of this machine, or not a library at all must be passed over.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import eslabon as es
from eslabon._engine import cachedir, entrypoints, startlib, startlib_build
from eslabon._engine.layout import HEADER, STRIDE

pytestmark = pytest.mark.skipif(
    not entrypoints.AVAILABLE or startlib.machine_key() is None,
    reason="needs the C extension and Linux",
)

# entry -> (public function, state arguments, output ranks)
PUBLIC = {
    "inverse_dynamics_entry": ("inverse_dynamics", 3, (1,)),
    "bias_forces_entry": ("bias_forces", 2, (1,)),
    "gravity_torques_entry": ("gravity_torques", 1, (1,)),
    "mass_matrix_entry": ("mass_matrix", 1, (2,)),
    "forward_dynamics_entry": ("forward_dynamics", 3, (1,)),
    "id_derivatives_entry": ("inverse_dynamics_derivatives", 3, (2, 2)),
    "fd_derivatives_entry": ("forward_dynamics_derivatives", 3, (2, 2, 2)),
    "linearize_entry": ("linearize", 3, (2, 2, 2, 3, 4, 2)),
    "jacobian_entry": ("jacobian", 1, (5,)),
    "frame_pose_entry": ("frame_pose", 1, (6,)),
    "momentum_matrix_entry": ("centroidal_momentum_matrix", 1, (5,)),
    "com_jacobian_entry": ("com_jacobian", 1, (8,)),
    "bias_entry": ("bias_acceleration", 2, (7,)),
    "regressor_entry": ("joint_torque_regressor", 3, (9,)),
}
# the functions of one named frame: their C options (entrypoints.public's ``frames``)
FRAMES = {
    "jacobian": ("frame_placements", "ee", ("frame", "reference"), ("world", "local")),
    "frame_pose": ("frame_placements", "ee", ("frame",), ()),
    "bias_acceleration": ("frame_placements", "ee", ("frame", "reference"), ("world", "local")),
}


@pytest.fixture(scope="module")
def built():
    """The library for these sources and this machine, built now (the entries are in
    numba's cache after the suite's warm-up; building again replaces it in one step)."""
    try:
        return startlib_build.build()
    except startlib_build.NotBuilt as exc:
        pytest.skip(f"no start-up library here: {exc}")


def _builtin(address: int, record: dict, general, n_in: int, ranks: tuple, extended: bool):
    class Owner:
        pass

    frames = FRAMES.get(general.__name__)
    options = {} if frames is None else {"packed": "packed", "frames": frames}
    if general.__name__ == "joint_torque_regressor":
        options = {"packed": "packed_regressor"}

    Owner.address = address
    owners = (object(), Owner()) if extended else (Owner(), None)
    return entrypoints._fastcall.public(
        address=0,
        n_in=n_in,
        out_ndims=ranks,
        header=HEADER,
        stride=STRIDE,
        owner=owners[0],
        owner_extended=owners[1],
        general=general,
        name="f",
        doc="f()",
        module="m",
        model_type=es.Model,
        scratch_cols=record["scratch_cols"],
        scratch_squares=record["scratch_squares"],
        **options,
    )


def _models():
    return {
        "panda": es.zoo.load("panda"),
        "tree-RHRPH": es.zoo.random_tree(2, "RHRPH"),  # helical: the extended twins
        "tree-SRRB": es.zoo.random_tree(5, "SRRB", friction=True),  # quaternions
    }


def test_every_entry_from_the_library_gives_the_bits_of_the_compiled_one(built):
    library = startlib.Library(built["path"])
    assert set(library.records) == set(built["entries"])
    assert len(built["entries"]) >= 10  # ID, bias, gravity, M, FD (and twins), ...
    for name, record in library.records.items():
        module, attr = name.rsplit(".", 1)
        lazy = entrypoints.Entry(module, attr, record["pointers"] == 11).compiled_entry()
        public, n_in, ranks = PUBLIC[attr.removesuffix("_extended")]
        homes = {
            "linearize": es.control,
            "frame_pose": es.kinematics,
            "joint_torque_regressor": es.identification,
        }
        home = es.kinematics if public == "bias_acceleration" else homes.get(public, es)
        general = getattr(home, public).__self__.general
        extended = attr.endswith("_extended")
        from_library = _builtin(record["address"], record, general, n_in, ranks, extended)
        compiled = _builtin(lazy.address, record, general, n_in, ranks, extended)
        for label, model in _models().items():
            if (model.nq != model.nv or "H" in label) != extended:
                continue
            rng = np.random.default_rng(3)
            q = es.random_configuration(model, rng)
            far = q.copy()
            if not extended:
                far[1] += 2.0e5  # beyond the fast reduction: the path that allocates
            frame = (model.body_names[-1],) if public in FRAMES else ()
            if frame or public == "joint_torque_regressor":
                # the frame's entry in model.frame_placements, the regressor's packed model
                general(model, q, *np.zeros((n_in - 1, model.nv)), *frame)
            for state in (q, far):
                args = (state, *rng.uniform(-1, 1, (n_in - 1, model.nv)), *frame)
                a = from_library.__self__.fast(model, *args)
                b = compiled.__self__.fast(model, *args)
                assert a is not None and b is not None, (name, label)
                a, b = (x if isinstance(x, tuple) else (x,) for x in (a, b))
                for x, y in zip(a, b, strict=True):
                    assert x.tobytes() == y.tobytes(), (name, label)


def test_entries_naming_other_runtime_symbols_are_left_to_numba(built):
    """The library defines a handful of numba's runtime symbols; an entry whose machine
    code names another (linearize builds a list) stays with numba's cache."""
    left = {name: lazy for name, lazy, _ in startlib_build.entries()}  # every entry
    for name in built["left_to_numba"]:
        names = startlib_build.undefined_symbols(
            startlib_build._object_code(left[name].compile())[0]
        )
        runtime = {n for n in names if n.startswith(("NRT_", "numba_"))}
        assert runtime - startlib_build.RUNTIME_SYMBOLS, name
    for name in built["entries"]:
        code, _ = startlib_build._object_code(left[name].compile())
        assert "numba_do_raise" in startlib_build.undefined_symbols(code)
        assert startlib_build._served(code)
    assert set(left) == set(built["entries"]) | set(built["left_to_numba"])


def test_a_fresh_process_runs_its_first_dynamics_without_numba(built, tmp_path):
    script = (
        "import sys, numpy as np, eslabon as es\n"
        "m = es.zoo.load('puma560')\n"
        "q = np.linspace(-1, 1, m.nq)\n"
        "tau = es.inverse_dynamics(m, q, q, q)\n"
        "M = es.mass_matrix(m, q)\n"
        "print('numba' in sys.modules)\n"
        "np.save(sys.argv[1], np.concatenate([tau, M.ravel()]))\n"
    )
    out = tmp_path / "out.npy"
    done = subprocess.run(
        [sys.executable, "-c", script, str(out)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
    assert done.stderr == ""
    m = es.zoo.load("puma560")
    q = np.linspace(-1, 1, m.nq)
    want = np.concatenate([es.inverse_dynamics(m, q, q, q), es.mass_matrix(m, q).ravel()])
    assert np.load(out).tobytes() == want.tobytes()


def _planted(built, base) -> str:
    """A copy of the library where a process with NUMBA_CACHE_DIR=base looks for it."""
    folder = os.path.join(base, "eslabon-" + cachedir._code_hash())
    os.makedirs(folder, mode=0o700)
    os.chmod(base, 0o700)
    path = os.path.join(folder, os.path.basename(built["path"]))
    shutil.copyfile(built["path"], path)
    os.chmod(path, 0o600)
    return path


def test_only_a_library_of_this_users_alone_is_opened(built, tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    path = _planted(built, tmp_path)
    assert startlib.find() == path
    os.chmod(path, 0o620)  # writable by the group
    assert startlib.find() is None
    os.chmod(path, 0o600)
    os.chmod(os.path.dirname(path), 0o777)  # its folder writable by anyone
    assert startlib.find() is None
    os.chmod(os.path.dirname(path), 0o700)
    os.rename(path, path + ".real")
    os.symlink(path + ".real", path)  # a link in its place
    assert startlib.find() is None


def test_another_machine_or_setting_looks_for_another_library(built, monkeypatch, tmp_path):
    key = startlib.machine_key()
    monkeypatch.setenv("NUMBA_CPU_NAME", "generic")
    assert startlib.machine_key() != key
    monkeypatch.delenv("NUMBA_CPU_NAME")
    monkeypatch.setenv("NUMBA_NUM_THREADS", "1")  # a run-time setting: same code
    assert startlib.machine_key() == key
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    _planted(built, tmp_path)
    assert startlib.find() is not None
    monkeypatch.setenv(startlib.DISABLE_ENV, "1")
    assert startlib.find() is None


def test_a_file_that_is_not_a_library_is_passed_over(built, tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    path = _planted(built, tmp_path)
    with open(path, "wb") as f:
        f.write(b"\x7fELF not really")
    monkeypatch.setattr(startlib, "_opened", [])
    assert startlib.opened() is None
    monkeypatch.setattr(startlib, "_opened", [])
    shutil.copyfile(os.path.join(os.path.dirname(__file__), "conftest.py"), path)
    assert startlib.opened() is None


def test_the_library_is_looked_for_where_the_kernels_are_cached(monkeypatch, tmp_path):
    """The numba-free list of cache roots agrees with the kernels' locator's."""
    for env in (None, str(tmp_path)):
        if env is None:
            monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
        else:
            monkeypatch.setenv("NUMBA_CACHE_DIR", env)
        from numba.core import config

        monkeypatch.setattr(config, "CACHE_DIR", env or "")
        locator = cachedir.cache_bases() + [cachedir._user_cache_base()]
        locator.append(cachedir._fallback_base())
        assert startlib.cache_bases() == list(dict.fromkeys(locator))


def test_undefined_symbols_refuses_what_is_not_an_elf_object():
    with pytest.raises(startlib_build.NotBuilt, match="ELF"):
        startlib_build.undefined_symbols(b"MZ\x90\x00 not ELF")
