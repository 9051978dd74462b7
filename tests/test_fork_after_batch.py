"""A process that ran a batch can fork (issue "Nothing silently wrong"): with GNU
OpenMP, numba's default threading layer here, a forked child used to hang or end;
eslabon's batch kernels run serially in such a child (eslabon._engine.compile.BatchKernel)."""

import subprocess
import sys
from pathlib import Path

import eslabon as es

SRC = str(Path(es.__file__).resolve().parents[1])

CODE = """
import multiprocessing, numba, numpy as np, eslabon as es
from eslabon._engine import compile
model = es.zoo.load("planar2")
Q = np.random.default_rng(0).uniform(-1, 1, (64, 2))
parent = es.inverse_dynamics(model, Q, Q, Q)
serial = numba.threading_layer() == "omp"       # GNU OpenMP: the child runs serially

def child(_):
    same = es.inverse_dynamics(model, Q, Q, Q).tobytes() == parent.tobytes()
    return same and compile._forked_from_openmp == serial

with multiprocessing.get_context("fork").Pool(2) as pool:
    print(pool.map(child, range(2)))
"""


def test_a_forked_child_runs_batches_after_its_parent_did():
    r = subprocess.run(
        [sys.executable, "-c", CODE],
        capture_output=True,
        text=True,
        timeout=300,
        env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin", "ESLABON_COMPILE_NOTICE": "0"},
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip() == "[True, True]"
    assert "Terminating" not in r.stderr
