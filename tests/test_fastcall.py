"""The C entry points of :mod:`eslabon.dynamics.fastcall` (issue: Speed, "Lean calls").

Each entry takes the packed model and float64 C-contiguous (nq,) states and returns what
the general path returns for the same state; for anything else it returns None so that
the public function takes the general path, which converts or explains. Whatever the
entries do, the public functions give the same numbers with the C extension and without
it (the fallback for machines with no C compiler).
"""
from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from eslabon.dynamics import api, derivatives, fastcall

needs_ext = pytest.mark.skipif(not fastcall.AVAILABLE,
                               reason="eslabon._fastcall was not built (no C compiler)")

# entry name: (public function, number of state arguments)
ENTRIES = {
    "inverse_dynamics": (es.inverse_dynamics, 3),
    "bias_forces": (es.bias_forces, 2),
    "gravity_torques": (es.gravity_torques, 1),
    "mass_matrix": (es.mass_matrix, 1),
    "forward_dynamics": (es.forward_dynamics, 3),
    "inverse_dynamics_derivatives": (es.inverse_dynamics_derivatives, 3),
    "forward_dynamics_derivatives": (es.forward_dynamics_derivatives, 3),
}
MODELS = {
    "puma560": lambda: es.zoo.load("puma560"),
    "panda": lambda: es.zoo.load("panda"),
    "practica_4dof-book": lambda: es.zoo.load("practica_4dof", book_com=True, payload_mass=3),
    # prismatic joints, off-z axes, friction, armature, payload and tool (fixed bodies)
    "chain-RPRPR": lambda: es.zoo.random_chain(5, 3, "modified", friction=True,
                                               joints="RPRPR", payload=True, tool=True),
}


@pytest.fixture(params=list(MODELS), scope="module")
def model(request):
    return MODELS[request.param]()


def _states(model, k, seed=1):
    rng = np.random.default_rng(seed)
    return [rng.uniform(-1.5, 1.5, model.nq) for _ in range(k)]


def _outputs(x):
    return x if isinstance(x, tuple) else (x,)


@needs_ext
@pytest.mark.parametrize("name", list(ENTRIES))
def test_entry_equals_general_path(model, name, monkeypatch):
    public, k = ENTRIES[name]
    args = _states(model, k)
    fast = getattr(fastcall, name)(model.packed, *args)
    assert fast is not None
    monkeypatch.setattr(fastcall, name, fastcall._unavailable)
    general = public(model, *args)
    for a, b in zip(_outputs(fast), _outputs(general), strict=True):
        assert a.shape == b.shape and a.dtype == np.float64
        np.testing.assert_allclose(a, b, rtol=1e-13, atol=1e-13)


@needs_ext
@pytest.mark.parametrize("name", list(ENTRIES))
def test_entry_declines_what_it_cannot_read(name):
    """None (so the general path converts or explains) for every non-plain argument."""
    model = MODELS["puma560"]()
    entry = getattr(fastcall, name)
    k = ENTRIES[name][1]
    good = _states(model, k)
    n = model.nq
    bad_values = {
        "list": list(good[0]),
        "int": np.zeros(n, dtype=np.int64),
        "float32": good[0].astype(np.float32),
        "strided": np.repeat(good[0], 2)[::2],
        "big-endian": good[0].astype(">f8"),
        "short": good[0][:-1],
        "batch": np.tile(good[0], (2, 1)),
        "nan": np.where(np.arange(n) == 2, np.nan, good[0]),
        "inf": np.where(np.arange(n) == 0, np.inf, good[0]),
        "subclass": np.ma.masked_array(good[0]),
    }
    for label, bad in bad_values.items():
        for slot in range(k):
            args = list(good)
            args[slot] = bad
            assert entry(model.packed, *args) is None, (label, slot)
    packed = model.packed
    for label, P in {"truncated": packed[:-1], "int": packed.astype(np.int64),
                     "list": list(packed), "empty": np.empty(0),
                     "nan header": np.concatenate([[np.nan], packed[1:]])}.items():
        assert entry(P, *good) is None, label
    with pytest.raises(TypeError):
        entry(model.packed, *good, good[0])
    with pytest.raises(TypeError):
        entry(model.packed, *good[:-1]) if k > 1 else entry(model.packed)


@needs_ext
def test_results_are_fresh_arrays():
    model = MODELS["puma560"]()
    q, qd, qdd = _states(model, 3)
    a = es.inverse_dynamics(model, q, qd, qdd)
    b = es.inverse_dynamics(model, q, qd, qdd)
    assert a is not b and not np.shares_memory(a, b)
    a[:] = 0.0
    np.testing.assert_array_equal(b, es.inverse_dynamics(model, q, qd, qdd))
    M1, M2 = es.mass_matrix(model, q), es.mass_matrix(model, q)
    assert not np.shares_memory(M1, M2) and M1.flags.writeable and M1.flags.c_contiguous


@needs_ext
def test_kernel_rejects_bad_construction():
    K = fastcall._fastcall.Kernel
    addr = fastcall._inverse_dynamics.address
    with pytest.raises(ValueError, match="n_in"):
        K(addr, 0, (1,), 8, 36, None)
    with pytest.raises(ValueError, match="out_ndims"):
        K(addr, 3, (), 8, 36, None)
    with pytest.raises(ValueError, match="out_ndims"):
        K(addr, 3, (3,), 8, 36, None)
    with pytest.raises(ValueError, match="address"):
        K(0, 3, (1,), 8, 36, None)


@pytest.mark.parametrize("name", list(ENTRIES))
def test_public_functions_without_the_extension(model, name, monkeypatch):
    """With every entry declining (no C extension), results and errors are unchanged."""
    public, k = ENTRIES[name]
    args = _states(model, k, seed=4)
    with_ext = public(model, *args)
    monkeypatch.setattr(fastcall, name, fastcall._unavailable)
    without = public(model, *args)
    for a, b in zip(_outputs(with_ext), _outputs(without), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-13, atol=1e-13)
    bad = list(args)
    bad[0] = np.where(np.arange(model.nq) == 1, np.nan, args[0])
    with pytest.raises(ValueError, match="q: expected finite values"):
        public(model, *bad)


def test_modules_use_the_entries():
    """The public functions reach the entries through the module (so tests and users can
    swap them), not through copies taken at import."""
    assert api._fast is fastcall and derivatives._fast is fastcall
