"""Non-temporal stores (eslabon._engine.streaming): what a compiled copy writes, what the
functions mean without the compiler, and what they refuse."""

from __future__ import annotations

import platform
import re

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

from eslabon._engine.streaming import store_fence, stream_copy, stream_store


@njit
def _copy_rows(src, dst):
    for s in range(dst.shape[0]):
        stream_copy(src[s], dst[s])
    store_fence()


@njit
def _store_one(dst, i, x):
    stream_store(dst, i, x)


def test_a_compiled_stream_copy_writes_every_value():
    """Rows of odd length (no row starts on a cache line) copied by non-temporal stores
    equal the source bit for bit, and nothing beyond them is written."""
    rng = np.random.default_rng(0)
    src = rng.standard_normal((301, 37))
    dst = np.full((302, 37), 7.0)
    _copy_rows(src, dst[:301])
    assert np.array_equal(dst[:301], src)
    assert np.all(dst[301] == 7.0)


@pytest.mark.parametrize("offset", range(9))
def test_every_alignment_and_length_is_copied_whole(offset):
    """Whole 64-byte lines go by one store each, the doubles around them one by one: a
    destination starting at any double of a line (or at no double boundary), of any
    length, receives exactly the source."""
    rng = np.random.default_rng(offset)
    raw = np.zeros(8 * 64 + 16, dtype=np.uint8)
    base = (-raw.ctypes.data) % 64  # the first 64-byte boundary in the buffer
    start = base + (8 * offset if offset < 8 else 3)  # offset 8: not 8-byte aligned
    for n in (0, 1, 7, 8, 9, 15, 16, 17, 40):
        raw[:] = 0
        dst = raw[start : start + 8 * n].view(np.float64)
        src = rng.standard_normal((1, n))
        _copy_rows(src, dst[None, :] if n else dst.reshape(1, 0))
        assert dst.tobytes() == src.tobytes(), (offset, n)
        assert not raw[:start].any() and not raw[start + 8 * n :].any()


def test_the_compiled_stores_are_non_temporal_and_fenced():
    """The copy's stores carry LLVM's !nontemporal mark, whole lines as one vector store
    (a non-temporal vector store on x86), and on x86 the fence is an sfence (a locked
    instruction, LLVM's seq_cst fence there, does not order them)."""
    _copy_rows(np.zeros((2, 3)), np.zeros((2, 3)))
    (sig,) = _copy_rows.signatures
    assert "!nontemporal" in _copy_rows.inspect_llvm(sig)
    assert re.search(r"store <8 x double> .*align 64, !nontemporal", _copy_rows.inspect_llvm(sig))
    if platform.machine().lower() in ("x86_64", "amd64"):
        asm = _copy_rows.inspect_asm(sig)
        assert re.search(r"\bsfence\b", asm)
        assert re.search(r"\bv?movntp[sd]\b", asm)  # a whole line, 16 to 64 bytes a store


def test_the_functions_mean_their_python_bodies():
    """Without the compiler (NUMBA_DISABLE_JIT) they are an assignment and nothing."""
    src, dst = np.arange(5.0), np.zeros(5)
    getattr(stream_copy, "py_func", stream_copy)(src, dst)
    store_fence()
    assert np.array_equal(dst, src)
    stream_store(dst, 2, -1.0)
    assert dst[2] == -1.0


@pytest.mark.parametrize(
    "dst, x",
    [(np.zeros((2, 2)), 1.0), (np.zeros(3, dtype=np.float32), 1.0), (np.zeros(3), 1)],
)
def test_a_store_it_cannot_stream_is_refused_at_compile_time(dst, x):
    """Only a float64 into a 1-D float64 array: anything else is a typing error naming
    what was expected."""
    with pytest.raises(TypingError, match="expected a writeable 1-D float64 array"):
        _store_one(dst, 0, x)
