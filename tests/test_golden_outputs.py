"""Every number as it was: the outputs of the public functions on every zoo model, 40
random chains and 10 random trees (tests/golden_outputs.py) against the table stored in
tests/data/golden_outputs.npz, written by the code before this release's engine changes
and again at each change that moved round-off (tests/golden_outputs.py says by how much).

Two comparisons, because a stored number and a number computed now need not come from the
same machine:

* **Against the stored table, to a tolerance the conditioning justifies.** The kernels
  are compiled for the CPU they run on (fused multiply–adds where it has them) and numpy's
  BLAS picks its kernels by CPU (AVX2 or AVX-512 ones round differently), so the last bits
  move between machines; that is not an error. Each output is compared normwise, state by
  state (per row of a batch or trajectory), to max(1, max|x|): an algorithm that sums O(n)
  products of bounded terms (ID, M, kinematics, energies, the ID derivatives) is held to
  64·n·ε, one that goes through M⁻¹ (FD, its derivatives, the simulation) to 64·n·ε·κ₂(M)
  with κ₂(M) the condition number of the stored mass matrix at the same state(s) (the
  forward-error bound of a backward-stable solve, Higham, *Accuracy and Stability of
  Numerical Algorithms*, 2nd ed., §7.1, scaled by the length of the recursion).
  Measured on an AVX-512 machine against the table written on an AVX2 one: 717 of 2,194
  entries differ, the largest at 2.3·n·ε (plain) and 2.2·n·ε·κ₂ (through M⁻¹), so 64
  leaves a margin of about 28, which a real change of a formula does not fit in (it moves
  results by far more than n·ε).
* **Against a table written on this machine, to 0 ulp** (signed zeros included): the
  refactoring tool. Before changing kernels, write it with
  ``python tests/golden_outputs.py --local``; the test then compares bytes as long as the
  machine, the libraries and the compile target are those it was written with (a
  fingerprint stored in the table says so) and is skipped otherwise.
"""

from pathlib import Path

import numpy as np
import pytest

from golden_outputs import LOCAL, fingerprint, models, outputs

STORED = Path(__file__).parent / "data" / "golden_outputs.npz"
_table = np.load(STORED)
_models = sorted(models().items())
_EPS = np.finfo(np.float64).eps

#: outputs computed through M⁻¹ (forward dynamics, its derivatives, the simulation)
THROUGH_INVERSE = ("fd_", "dfd_", "sim_")


def _stored(name):
    return {
        key.split("/", 1)[1]: _table[key] for key in _table.files if key.split("/", 1)[0] == name
    }


def _states(key, value):
    """The output as a list of per-state arrays: the rows of a batch or a trajectory."""
    per_state = "batch" in key or key.startswith("sim_")
    return list(value) if per_state and value.ndim >= 2 else [value]


def _condition(stored, key):
    """κ₂(M) at each state of ``key`` (1 for outputs not computed through M⁻¹)."""
    if not key.startswith(THROUGH_INVERSE):
        return None
    if "batch" in key:
        return [np.linalg.cond(m) for m in stored["m_batch"]]
    return np.linalg.cond(stored["m_wo3"])


@pytest.mark.parametrize("k", range(len(_models)), ids=[name for name, _ in _models])
def test_outputs_agree_with_the_stored_table_to_round_off(k):
    name, model = _models[k]
    now = outputs(model, 5000 + k)
    stored = _stored(name)
    assert sorted(now) == sorted(stored)
    n = model.nq
    for key, value in now.items():
        assert value.shape == stored[key].shape, key
        kappa = _condition(stored, key)
        for i, (a, b) in enumerate(
            zip(_states(key, value), _states(key, stored[key]), strict=True)
        ):
            if not b.size:
                continue
            scale = max(1.0, float(np.max(np.abs(b))))
            k_i = 1.0 if kappa is None else kappa[i] if isinstance(kappa, list) else kappa
            tol = 64 * n * _EPS * k_i
            error = float(np.max(np.abs(a - b))) / scale
            assert error <= tol, f"{name}/{key}[{i}]: {error:.3g} > {tol:.3g} (κ₂ {k_i:.3g})"


def _local_table():
    if not LOCAL.is_file():
        pytest.skip("no table of this machine: python tests/golden_outputs.py --local")
    table = np.load(LOCAL)
    written = str(table["__fingerprint__"])
    if written != fingerprint():
        pytest.skip("the table of tests/data was written on another machine or library set")
    return table


@pytest.mark.parametrize("k", range(len(_models)), ids=[name for name, _ in _models])
def test_outputs_equal_this_machines_table_to_0_ulp(k):
    table = _local_table()
    name, model = _models[k]
    for key, value in outputs(model, 5000 + k).items():
        stored = table[f"{name}/{key}"]
        assert value.tobytes() == stored.tobytes(), (
            f"{name}/{key}: max |difference| {np.max(np.abs(value - stored))}"
        )
