"""Every number as it was: the outputs of the public functions on every zoo model, 40
random chains and 10 random trees (tests/golden_outputs.py) equal, byte for byte, the
table written by the code before this release's engine changes, and again when fixed
joints were folded and when joint axes were turned onto z (round-off only:
tests/golden_outputs.py says by how much)
(tests/data/golden_outputs.npz)."""

from pathlib import Path

import numpy as np
import pytest

from golden_outputs import models, outputs

STORED = Path(__file__).parent / "data" / "golden_outputs.npz"
_table = np.load(STORED)
_models = sorted(models().items())


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
        assert value.tobytes() == stored[key].tobytes(), (
            f"{name}/{key}: max |difference| {np.max(np.abs(value - stored[key]))}"
        )
