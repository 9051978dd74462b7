"""The ``eslabon`` command as a process (``eslabon.cli.main.run``): its exit status, its
one line, its exit handlers and flushed output, with and without pyarrow loaded (once
pyarrow has run, the process ends without Arrow's C++ destructors, which can abort an
interpreter's exit: apache/arrow issue 34314)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import eslabon as es

SRC = str(Path(es.__file__).resolve().parents[1])


def _process(code: str):
    env = {**os.environ, "PYTHONPATH": SRC, "ESLABON_COMPILE_NOTICE": "0"}
    p = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    return p.returncode, p.stdout, [x for x in p.stderr.splitlines() if x.strip()]


@pytest.mark.parametrize("arrow", [False, True])
def test_run_gives_the_status_one_line_and_runs_the_exit_handlers(arrow, tmp_path):
    missing = tmp_path / "no_such_robot.urdf"
    code = (
        ("import pyarrow.parquet\n" if arrow else "")
        + "import atexit, sys\n"
        + "atexit.register(lambda: print('exit handler ran'))\n"
        + "sys.stdout.write('buffered, not flushed')\n"
        + "from eslabon.cli.main import run\n"
        + f"run(['info', {str(missing)!r}])\n"
        + "print('never reached')\n"
    )
    status, out, err = _process(code)
    assert status == 2, err
    assert len(err) == 1 and err[0].startswith("error: ") and "no_such_robot" in err[0]
    assert out.startswith("buffered, not flushed") and "exit handler ran" in out
    assert "never reached" not in out


@pytest.mark.parametrize("arrow", [False, True])
def test_run_of_a_command_that_succeeds_exits_0_with_its_output(arrow):
    code = (
        ("import pyarrow\n" if arrow else "")
        + "from eslabon.cli.main import run\n"
        + "run(['info', 'planar2'])\n"
    )
    status, out, err = _process(code)
    assert status == 0, err
    assert "planar2" in out
