"""First contact (issue "First contact"): nothing compiles at import or for --help, a
kernel compiles on first use with one line on stderr, the CLI's help keeps its units and
formats, vectors are read in the usual spellings, outputs are never clobbered, a missing
extra is named before any work, and the built-in models load quietly."""

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import eslabon as es
from eslabon._engine import compile as _jit
from eslabon.cli.main import main
from eslabon.model.validate import ImplausibleInertiaWarning

SRC = str(Path(es.__file__).resolve().parents[1])


def _python(code_or_args, cache, timeout=600, **env):
    args = ["-c", code_or_args] if isinstance(code_or_args, str) else code_or_args
    environ = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": SRC, **env}
    return subprocess.run(
        [sys.executable, *args], env=environ, capture_output=True, text=True, timeout=timeout
    )


def _cached_files(cache: Path) -> list:
    return [p for p in cache.rglob("*") if p.is_file()] if cache.exists() else []


def test_help_and_import_compile_nothing(tmp_path):
    """An empty numba cache stays empty through --help, id --help and import eslabon (plus
    building a zoo model): nothing is compiled, numba is not even imported."""
    cache = tmp_path / "cache"
    cache.mkdir()
    for args in (["-m", "eslabon", "--help"], ["-m", "eslabon", "id", "--help"]):
        r = _python(args, cache)
        assert r.returncode == 0, r.stderr
        assert r.stderr == ""
    r = _python(
        "import sys, eslabon as es; m = es.zoo.load('puma560'); "
        "print(sorted(k for k in ('numba', 'scipy', 'matplotlib', 'dask', 'typer') "
        "if k in sys.modules))",
        cache,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]" and r.stderr == ""
    assert _cached_files(cache) == []


def test_first_use_compiles_with_one_line_then_loads_from_the_cache(tmp_path):
    cache = tmp_path / "cache"
    code = (
        "import numpy as np, eslabon as es; m = es.zoo.load('planar2'); "
        "print(es.gravity_torques(m, np.array([0.3, 0.2])).tolist())"
    )
    first = _python(code, cache)
    assert first.returncode == 0, first.stderr
    lines = first.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "eslabon: compiling gravity torques for this machine (first use"
    ), lines
    assert _cached_files(cache)
    again = _python(code, cache)
    assert again.returncode == 0 and again.stderr == ""
    assert again.stdout == first.stdout


def test_the_notice_names_the_subject_once_and_can_be_silenced(capsys):
    import numba

    was = _jit.compile_notice()
    try:
        _jit.compile_notice(True)  # the suite silences it for every test (conftest.py)
        _jit._printed.discard("a test subject")
        with _jit.compiling("a test subject"):
            numba.njit(lambda x: x + 1)(1)
            numba.njit(lambda x: x + 2)(1)
        err = capsys.readouterr().err.splitlines()
        assert err == [
            "eslabon: compiling a test subject for this machine (first use; cached for later runs)…"
        ]
        _jit.compile_notice(False)
        _jit._printed.discard("another subject")
        with _jit.compiling("another subject"):
            numba.njit(lambda x: x + 3)(1)
        assert capsys.readouterr().err == ""
    finally:
        _jit.compile_notice(was)


def test_a_fast_entry_compiles_on_its_first_lean_call(tmp_path):
    """The C entry of inverse dynamics is not compiled at import nor by a general-path
    call (lists); the first call with float64 arrays compiles (or loads) it (without the
    start-up library, which would serve it: tests/test_start_library.py)."""
    r = _python(
        "import numpy as np, eslabon as es\n"
        "from eslabon.dynamics import drivers\n"
        "m = es.zoo.load('planar2')\n"
        "es.inverse_dynamics(m, [0.1, 0.2], [0, 0], [0, 0])\n"
        "print(drivers.inverse_dynamics_entry.compiled)\n"
        "es.inverse_dynamics(m, *np.zeros((3, 2)))\n"
        "print(drivers.inverse_dynamics_entry.compiled)\n",
        Path(os.environ.get("NUMBA_CACHE_DIR", tmp_path / "cache")),
        ESLABON_NO_START_LIBRARY="1",
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["False", "True"]


def test_an_arm_never_compiles_the_code_of_ball_and_screw_joints(tmp_path):
    """With an empty cache, an arm's inverse dynamics and mass matrix (lean and general
    paths) compile the kernels for the basic joint set only: no entry of the extended set,
    and not the quaternion rows' function (eslabon._engine.joints, "Two joint sets")."""
    r = _python(
        "import numpy as np, eslabon as es\n"
        "from eslabon.dynamics import drivers\n"
        "from eslabon._engine import joints\n"
        "m = es.zoo.load('puma560')\n"
        "q = np.full(6, 0.2)\n"
        "es.inverse_dynamics(m, q, q, q)\n"
        "es.mass_matrix(m, list(q))\n"
        "print(drivers.inverse_dynamics_entry.compiled,"
        " drivers.inverse_dynamics_entry_extended.compiled,"
        " len(joints.quaternion_row.signatures),"
        " len(joints.quaternion_row_placement.signatures))\n",
        tmp_path / "cache",
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["True", "False", "0", "0"]


# ---- the command line -------------------------------------------------------------------


def _cli(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code or 0, out.out, [line for line in out.err.splitlines() if line.strip()]


def test_help_keeps_units_and_says_the_vector_format(capsys):
    code, out, _ = _cli(capsys, "simulate", "--help")
    assert code == 0
    flat = " ".join(out.split())
    assert "Duration [s]." in flat and "Sample / RK4 step [s]." in flat
    assert (
        "Initial joint positions [rad or m]: one number per joint, separated by commas "
        "or spaces, brackets optional" in flat
    )
    code, out, _ = _cli(capsys, "id", "--help")
    assert "Joint accelerations q̈ [rad/s² or m/s²]" in " ".join(out.split())


@pytest.mark.parametrize(
    "text",
    ["0.1,0.2", "0.1 0.2", "[0.1, 0.2]", "[0.1 0.2]", "(0.1,0.2)", " 0.1 ,  0.2 ", "1e-1 2E-1"],
)
def test_vectors_in_the_usual_spellings(capsys, text):
    code, out, err = _cli(capsys, "id", "planar2", "--q", text, "--json")
    assert code == 0, err
    assert json.loads(out)["q"] == [0.1, 0.2]


@pytest.mark.parametrize(
    "text, why",
    [
        ("0.1,,0.2", "--q: an empty value between commas in '0.1,,0.2'"),
        ("0.1 abc", "--q: 'abc' is not a number (in '0.1 abc')"),
        ("nan 0", "--q: 'nan' is not finite (in 'nan 0')"),
        ("0.1", "--q: expected 2 numbers (one per joint), got 1 in '0.1'"),
        ("[0.1 0.2", "--q: unmatched brackets in '[0.1 0.2'"),
        ("[0.1 0.2)", "--q: unmatched brackets in '[0.1 0.2)'"),
        ("[[0.1], [0.2]]", "--q: expected one flat list of numbers, got '[[0.1], [0.2]]'"),
        ("0x10 1", "--q: '0x10' is not a number (in '0x10 1')"),
    ],
)
def test_vectors_refused_saying_why(capsys, text, why):
    code, out, err = _cli(capsys, "id", "planar2", "--q", text)
    assert code == 2 and out == ""
    assert err == [f"error: {why}"]


def test_out_into_a_missing_folder_is_refused(capsys, tmp_path):
    target = tmp_path / "no" / "such" / "x.npz"
    code, _, err = _cli(
        capsys, "simulate", "planar2", "--t-final", "0.01", "--dt", "0.01", "--out", str(target)
    )
    assert code == 2
    assert err == [
        f"error: --out: the folder {str(target.parent)!r} does not exist (nothing was written)"
    ]
    assert not (tmp_path / "no").exists()


def test_an_existing_output_is_refused_unless_forced(capsys, tmp_path):
    target = tmp_path / "mine.csv"
    target.write_text("a user's own data\n")
    args = ("simulate", "planar2", "--t-final", "0.01", "--dt", "0.01", "--out", str(target))
    code, _, err = _cli(capsys, *args)
    assert code == 2 and err == [
        f"error: --out: {str(target)!r} exists; pass --force to "
        "replace it, or choose another name (nothing was written)"
    ]
    assert target.read_text() == "a user's own data\n"
    code, _, err = _cli(capsys, *args, "--force")
    assert code == 0, err
    assert es.Trajectory.load(target).q.shape == (2, 2)


def test_the_default_viewer_file_is_not_clobbered(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    es.simulate(es.zoo.load("planar2"), None, None, 0.02, 0.01).save("t.npz")
    Path("view.html").write_text("mine")
    code, _, err = _cli(capsys, "view", "t.npz", "--model", "planar2")
    assert code == 2 and "view.html' exists; pass --force" in err[0]
    assert Path("view.html").read_text() == "mine"


def test_a_folder_output_refuses_a_folder_of_other_files(capsys, tmp_path):
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "thesis.pdf").write_text("not eslabon's")
    code, _, err = _cli(capsys, "reproduce", "jaramillo", "--out", str(folder))
    assert code == 2 and err == [
        f"error: --out: {str(folder)!r} holds files eslabon did not "
        "write; choose a new or empty folder, or pass --force to "
        "write into it"
    ]
    assert sorted(p.name for p in folder.iterdir()) == ["thesis.pdf"]
    fresh = tmp_path / "fresh" / "jaramillo"
    for _ in range(2):  # a rerun replaces its own outputs
        code, _, err = _cli(capsys, "reproduce", "jaramillo", "--out", str(fresh))
        assert code == 0, err


def test_a_missing_extra_is_named_before_any_work(capsys, tmp_path, monkeypatch):
    import importlib.util

    from eslabon.cli import common

    real = importlib.util.find_spec
    monkeypatch.setattr(
        common.importlib.util,
        "find_spec",
        lambda name, *a: None if name in ("matplotlib", "dask") else real(name),
    )
    es.simulate(es.zoo.load("planar2"), None, None, 0.02, 0.01).save(tmp_path / "t.npz")
    cases = [
        (
            ("plot", str(tmp_path / "t.npz"), "--out", str(tmp_path / "f.png")),
            "error: eslabon plot needs matplotlib: pip install 'eslabon[viz]'",
        ),
        (
            ("demo", "--out", str(tmp_path / "demo")),
            "error: eslabon demo needs matplotlib: pip install 'eslabon[viz]'",
        ),
        (
            ("reproduce", "practica", "--out", str(tmp_path / "p")),
            "error: eslabon reproduce practica needs matplotlib: pip install 'eslabon[viz]'",
        ),
        (
            ("sweep", "examples/sweep_actuator_sizing.yaml", "--out", str(tmp_path / "s")),
            "error: eslabon sweep needs dask: pip install 'eslabon[sweep]'",
        ),
    ]
    for argv, line in cases:
        code, _, err = _cli(capsys, *argv)
        assert code == 2 and err == [line]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.npz"]


# ---- quiet built-in models --------------------------------------------------------------


def test_built_in_models_load_quietly_and_info_says_why(capsys, tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for name in es.zoo.names():
            es.zoo.load(name)
    code, out, _ = _cli(capsys, "info", "puma560", "--json")
    assert json.loads(out)["implausible_inertia"] == ["link3"]
    code, out, _ = _cli(capsys, "info", "cincinnati_t3")
    assert "link1: principal moments break the triangle inequality" in out
    assert "triangle inequality" in es.zoo.describe("puma560")
    assert "triangle inequality" in es.zoo.describe("cincinnati_t3")
    # a user's file with the same inertia keeps the warning
    path = tmp_path / "odd.yaml"
    path.write_text(
        "eslabon: 1\nconvention: standard\nrows:\n  - {joint: R, theta: 0, d: 0, "
        "a: 0.4, alpha: 0, mass: 4.8, com: [0, 0, 0], inertia: [[0.066, 0, 0], "
        "[0, 0.086, 0], [0, 0, 0.0125]]}\n"
    )
    with pytest.warns(ImplausibleInertiaWarning, match="triangle inequality"):
        es.load_model(path)
