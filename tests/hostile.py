"""Helpers for the corpora of malformed and hostile model files (issue "Nothing silently
wrong"): each case is a file text and its exact expected outcome, either refused with a
message fragment naming the field or element, or accepted as the same model as a plainly
written reference file (bit for bit), or accepted with properties a check function
asserts."""

import json
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass

from eslabon.model.files import load_arm_model as load_model

CLI_LOOP = """
import contextlib, io, json, sys, traceback
from eslabon.cli.main import main
out = {}
for path in sys.argv[1:]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            main(["info", path])
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        except BaseException:
            code = "crash"
            err.write(traceback.format_exc())
    out[path] = [code, err.getvalue()]
print(json.dumps(out))
"""


@dataclass(frozen=True)
class Same:
    """Accepted, and the same model as ``reference`` (a file text) bit for bit; ``check``
    asserts more about the loaded model."""

    reference: str | None = None
    check: Callable | None = None


def edit(base: str, old: str, new: str) -> str:
    """``base`` with its one occurrence of ``old`` replaced (the case fails loudly when the
    base text changes)."""
    assert base.count(old) == 1, (old, base.count(old))
    return base.replace(old, new)


def write(tmp_path, name: str, text):
    path = tmp_path / name
    (path.write_bytes if isinstance(text, bytes) else path.write_text)(text)
    return path


def same_model(a, b):
    """Equal models: packed arrays byte for byte (signed zeros too), names, frames."""
    assert a.packed.tobytes() == b.packed.tobytes()
    assert a.name == b.name and a.body_names == b.body_names
    assert [(f.name, f.body) for f in a.frames] == [(f.name, f.body) for f in b.frames]
    for fa, fb in zip(a.frames, b.frames, strict=True):
        assert fa.rotation.tobytes() == fb.rotation.tobytes()
        assert fa.translation.tobytes() == fb.translation.tobytes()


def check_case(tmp_path, name, text, outcome, load=load_model):
    """Load the case through the API and compare with its expected outcome."""
    path = write(tmp_path, name, text)
    if isinstance(outcome, str):
        try:
            load(path)
        except ValueError as exc:
            assert outcome in str(exc), f"{name}: {exc}"
            assert "\n" not in str(exc), f"{name}: a message of several lines: {exc}"
            return
        raise AssertionError(f"{name}: loaded, expected a refusal with {outcome!r}")
    model = load(path)
    if outcome.reference is not None:
        ref = load(write(tmp_path, "reference" + path.suffix, outcome.reference))
        if hasattr(ref, "arm"):  # a mobile manipulator
            assert (model.platform, model.mode, model.thesis, model.gravity, model.name) == (
                ref.platform,
                ref.mode,
                ref.thesis,
                ref.gravity,
                ref.name,
            )
            assert model.mount.translation.tobytes() == ref.mount.translation.tobytes()
            assert model.mount.rotation.tobytes() == ref.mount.rotation.tobytes()
            same_model(model.arm, ref.arm)
        else:
            same_model(model, ref if ref.name == model.name else ref.replace(name=model.name))
    if outcome.check is not None:
        outcome.check(model)


def cli_outcomes(paths):
    """{path: (exit status, stderr)} of ``eslabon info PATH`` for each path, run in one
    subprocess that calls the CLI's ``main`` once per file."""
    res = subprocess.run(
        [sys.executable, "-c", CLI_LOOP, *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert res.returncode == 0, res.stderr
    return {k: tuple(v) for k, v in json.loads(res.stdout.strip().splitlines()[-1]).items()}


def check_cli(tmp_path, cases):
    """Every case through the CLI: a refused file gives exit 2 and exactly one stderr line
    ``error: ...`` with the fragment, no traceback; an accepted one exits 0, silent."""
    folder = tmp_path / "cli"
    folder.mkdir()
    paths = {name: write(folder, name, text) for name, (text, _) in cases.items()}
    outcomes = cli_outcomes(paths.values())
    for name, (_, outcome) in cases.items():
        code, err = outcomes[str(paths[name])]
        assert "Traceback" not in err, f"{name}: {err}"
        if isinstance(outcome, str):
            lines = err.strip().splitlines()
            assert code == 2 and len(lines) == 1, f"{name}: exit {code}, stderr {err!r}"
            assert lines[0].startswith("error: ") and outcome in lines[0], f"{name}: {err}"
        else:
            assert code == 0 and err == "", f"{name}: exit {code}, stderr {err!r}"


def check_real_cli(tmp_path, cases, names):
    """A few cases through a real ``eslabon info FILE`` process each (the batch above
    calls ``main`` in one process): exit 2, one ``error:`` line with the fragment."""
    for name in names:
        text, fragment = cases[name]
        path = write(tmp_path, name, text)
        res = subprocess.run(
            [sys.executable, "-m", "eslabon.cli.main", "info", str(path)],
            capture_output=True,
            text=True,
            timeout=300,
        )
        lines = res.stderr.strip().splitlines()
        assert res.returncode == 2 and len(lines) == 1, (name, res.returncode, res.stderr)
        assert lines[0].startswith("error: ") and fragment in lines[0], (name, res.stderr)
        assert "Traceback" not in res.stderr
