"""Every number as it was: the outputs of the public functions on every zoo model, 40
random chains and 10 random trees (tests/golden_outputs.py) equal, byte for byte, the
table written by the code before this release's engine changes, and again when fixed
joints were folded and when joint axes were turned onto z (round-off only:
tests/golden_outputs.py says by how much)
(tests/data/golden_outputs.npz).

The table was written on a CPU with fused multiply–add, which the composite-body M is
compiled to use. Where the kernels are compiled without it (an old CPU, or
``NUMBA_CPU_NAME=generic``) M and what is computed from it differ by round-off, so
there the comparison is to 1e-11 relative (to max(1, |x|)) instead of bytes."""

from pathlib import Path

import numpy as np
import pytest

from golden_outputs import models, outputs

STORED = Path(__file__).parent / "data" / "golden_outputs.npz"
_table = np.load(STORED)
_models = sorted(models().items())


def _compiled_with_fma() -> bool:
    """Whether numba contracts a·b + c into one rounding on this machine: with
    a = 1 + 2⁻³⁰, b = 1 − 2⁻³⁰, the product 1 − 2⁻⁶⁰ rounds to 1, so a·b − 1 is 0
    without a fused multiply–add and −2⁻⁶⁰ with one."""
    import numba

    @numba.njit(fastmath={"contract"})
    def fused(a, b, c):
        return a * b + c

    return fused(1.0 + 2.0**-30, 1.0 - 2.0**-30, -1.0) != 0.0


_BYTES = _compiled_with_fma()


@pytest.mark.parametrize("k", range(len(_models)), ids=[name for name, _ in _models])
def test_outputs_equal_the_stored_table_to_0_ulp(k):
    name, model = _models[k]
    now = outputs(model, 5000 + k)
    stored = {
        key.split("/", 1)[1]: _table[key] for key in _table.files if key.split("/", 1)[0] == name
    }
    assert sorted(now) == sorted(stored)
    for key, value in now.items():
        assert value.shape == stored[key].shape, key
        if not _BYTES:
            scale = np.maximum(1.0, np.abs(stored[key]))
            np.testing.assert_array_less(np.abs(value - stored[key]) / scale, 1e-11)
            continue
        assert value.tobytes() == stored[key].tobytes(), (
            f"{name}/{key}: max |difference| {np.max(np.abs(value - stored[key]))}"
        )
