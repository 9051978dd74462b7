"""The C entry points of :mod:`eslabon._engine.entrypoints` (issue: Speed, "Lean calls").

With the C extension each public per-call function is a builtin: float64 C-contiguous
(nq,) states run the compiled kernel from C, anything else goes to the Python general path
(``f.__self__.general``). ``f.__self__.fast`` is the lean path alone (None where it hands
over). Both paths must give the same numbers, and without the extension the public
function is the general path itself.
"""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import eslabon as es
from eslabon._engine import entrypoints
from eslabon._engine.layout import HEADER, STRIDE
from eslabon.dynamics import derivative_drivers, drivers

needs_ext = pytest.mark.skipif(
    not entrypoints.AVAILABLE, reason="eslabon._fastcall was not built (no C compiler)"
)

# name: (public function, number of state arguments)
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
    "chain-RPRPR": lambda: es.zoo.random_chain(
        5, 3, "modified", friction=True, joints="RPRPR", payload=True, tool=True
    ),
    # helical joints: the entries compiled for the extended joint set (the *_entry_extended
    # twins), on a tree with q of nv entries
    "tree-RHRPH": lambda: es.zoo.random_tree(2, "RHRPH"),
    # quaternion joints (nq > nv): a free-flying base and a spherical joint, with friction
    # and armature; the derivatives in the tangent space (_engine.joint_tangent)
    "tree-SRRB": lambda: es.zoo.random_tree(5, "SRRB", friction=True),
    "space_manipulator": lambda: es.zoo.load("space_manipulator"),
}


@pytest.fixture(params=list(MODELS), scope="module")
def model(request):
    return MODELS[request.param]()


def _states(model, k, seed=1):
    """q (nq: unit quaternions where the model has them), then k − 1 rates (nv)."""
    rng = np.random.default_rng(seed)
    q = rng.uniform(-1.5, 1.5, model.nq)
    if model.nq != model.nv:
        q = es.random_configuration(model, rng)
    return [q] + [rng.uniform(-1.5, 1.5, model.nv) for _ in range(k - 1)]


def _outputs(x):
    return x if isinstance(x, tuple) else (x,)


@needs_ext
@pytest.mark.parametrize("name", list(ENTRIES))
def test_lean_path_equals_general_path(model, name):
    public, k = ENTRIES[name]
    assert public.__name__ == name and public.__doc__
    args = _states(model, k)
    fast = public.__self__.fast(model, *args)
    assert fast is not None
    general = public.__self__.general(model, *args)
    for a, b, c in zip(
        _outputs(fast), _outputs(general), _outputs(public(model, *args)), strict=True
    ):
        assert a.shape == b.shape and a.dtype == np.float64
        np.testing.assert_allclose(a, b, rtol=1e-13, atol=1e-13)
        np.testing.assert_array_equal(a, c)


@needs_ext
@pytest.mark.parametrize("name", list(ENTRIES))
def test_lean_path_hands_over_what_it_cannot_read(name):
    """None from the lean path (so the general path converts or explains) for every
    non-plain argument; the public function then gives the general path's answer."""
    model = MODELS["puma560"]()
    public, k = ENTRIES[name]
    fast = public.__self__.fast
    good = _states(model, k)
    n = model.nq
    bad_values = {
        "list": list(good[0]),
        "int": np.zeros(n, dtype=np.int64),
        "float32": good[0].astype(np.float32),
        "strided": np.repeat(good[0], 2)[::2],
        "big-endian": good[0].astype(">f8"),
        "subclass": np.ma.masked_array(good[0]),
        "short": good[0][:-1],
        "batch": np.tile(good[0], (2, 1)),
        "nan": np.where(np.arange(n) == 2, np.nan, good[0]),
        "inf": np.where(np.arange(n) == 0, np.inf, good[0]),
    }
    for label, bad in bad_values.items():
        for slot in range(k):
            args = list(good)
            args[slot] = bad
            assert fast(model, *args) is None, (label, slot)
            if label in ("list", "int", "float32", "strided", "big-endian"):
                plain = [np.array(x, dtype=np.float64) for x in args]
                for a, b in zip(
                    _outputs(public(model, *args)), _outputs(public(model, *plain)), strict=True
                ):
                    np.testing.assert_array_equal(a, b)

    class Fake:
        def __init__(self, packed):
            self.packed_dynamics = packed
            self.nq = n

    packed = model.packed_dynamics
    for label, P in {
        "truncated": packed[:-1],
        "int": packed.astype(np.int64),
        "list": list(packed),
        "empty": np.empty(0),
        "nan header": np.concatenate([[np.nan], packed[1:]]),
    }.items():
        assert fast(Fake(P), *good) is None, label
    assert fast(object(), *good) is None
    # only a Model's packed array is trusted (the kernels do not re-check its inner fields)
    assert fast(Fake(packed), *good) is None

    class SubModel(es.Model):
        pass

    sub = object.__new__(SubModel)
    sub.__dict__.update(model.__dict__)  # the same valid packed array
    assert fast(sub, *good) is None
    np.testing.assert_array_equal(
        _outputs(public(sub, *good))[0], _outputs(public(model, *good))[0]
    )
    with pytest.raises(TypeError):
        fast(model, *good, good[0])


@needs_ext
def test_keywords_and_errors_take_the_general_path():
    model = MODELS["puma560"]()
    q, qd, qdd = _states(model, 3)
    np.testing.assert_array_equal(
        es.mass_matrix(model, q), es.mass_matrix(model, q, algorithm="walker_orin_3")
    )
    np.testing.assert_allclose(
        es.forward_dynamics(model, q, qd, qdd),
        es.forward_dynamics(model, q, qd, qdd, algorithm="walker_orin_3"),
        rtol=1e-9,
        atol=1e-9,
    )
    with pytest.raises(ValueError, match="algorithm"):
        es.mass_matrix(model, q, algorithm="nope")
    with pytest.raises(TypeError):
        es.mass_matrix(model, q, "walker_orin_3")  # algorithm is keyword-only
    with pytest.raises(ValueError, match="qd: expected shape"):
        es.inverse_dynamics(model, q, qd[:3], qdd)
    with pytest.raises(ValueError, match="qdd: expected finite values, got nan at index 4"):
        es.inverse_dynamics(model, q, qd, np.where(np.arange(6) == 4, np.nan, qdd))


@pytest.mark.parametrize("name", list(ENTRIES))
def test_public_functions_pickle_by_reference(name):
    """multiprocessing and Dask ship functions by pickling them."""
    public = ENTRIES[name][0]
    assert pickle.loads(pickle.dumps(public)) is public
    assert copy.deepcopy(public) is public


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
def test_bad_construction_is_refused():
    make = entrypoints._fastcall.public
    addr = drivers.inverse_dynamics_entry.address
    general = es.inverse_dynamics.__self__.general
    good = dict(
        address=addr,
        n_in=3,
        out_ndims=(1,),
        header=HEADER,
        stride=STRIDE,
        owner=None,
        general=general,
        name="f",
        doc="f()",
        module="m",
        model_type=es.Model,
        scratch_cols=drivers.SCRATCH_COLS["inverse_dynamics_entry"],  # its workspace
    )
    assert make(**good)(MODELS["puma560"](), *np.zeros((3, 6))).shape == (6,)
    for key, value, match in [
        ("n_in", 0, "n_in"),
        ("out_ndims", (), "out_ndims"),
        ("out_ndims", (10,), "out_ndims"),
        ("out_ndims", (1,) * 7, "out_ndims"),
        ("address", -1, "address"),
        ("stride", 0, "stride"),
        ("stride", STRIDE + 1, "stride"),  # not the layout the C entry was built for
        ("header", HEADER - 1, "header"),
        ("scratch_cols", -1, "scratch_cols"),
        ("scratch_squares", -1, "scratch_squares"),
    ]:
        with pytest.raises(ValueError, match=match):
            make(**{**good, key: value})
    with pytest.raises(ValueError, match="squares only with a workspace"):
        make(**{**good, "scratch_cols": 0, "scratch_squares": 1})
    with pytest.raises(TypeError, match="general"):
        make(**{**good, "general": 3})
    with pytest.raises(TypeError, match="result_type"):
        make(**{**good, "result_type": 3})
    with pytest.raises(TypeError):
        make(**{**good, "model_type": "Model"})


@needs_ext
def test_an_entry_compiles_on_its_first_lean_call():
    """Address 0: the entry is resolved from ``owner.address`` on the first call that
    takes the lean path (a general-path call never asks for it)."""
    make = entrypoints._fastcall.public

    class Owner:
        asked = 0

        @property
        def address(self):
            Owner.asked += 1
            return drivers.inverse_dynamics_entry.address

    general = es.inverse_dynamics.__self__.general
    f = make(
        address=0,
        n_in=3,
        out_ndims=(1,),
        header=HEADER,
        stride=STRIDE,
        owner=Owner(),
        general=general,
        name="f",
        doc="f()",
        module="m",
        model_type=es.Model,
        scratch_cols=drivers.SCRATCH_COLS["inverse_dynamics_entry"],
    )
    model = MODELS["puma560"]()
    f(model, [0.0] * 6, [0.0] * 6, [0.0] * 6)  # lists: the general path
    assert Owner.asked == 0
    for _ in range(3):
        assert f(model, *np.zeros((3, 6))).shape == (6,)
    assert Owner.asked == 1
    broken = make(
        address=0,
        n_in=3,
        out_ndims=(1,),
        header=HEADER,
        stride=STRIDE,
        owner=object(),
        general=general,
        name="f",
        doc="f()",
        module="m",
        model_type=es.Model,
    )
    with pytest.raises(AttributeError, match="address"):
        broken(model, *np.zeros((3, 6)))


def test_without_the_extension_the_general_path_is_public(monkeypatch):
    general = es.inverse_dynamics.__self__.general if entrypoints.AVAILABLE else es.inverse_dynamics
    monkeypatch.setattr(entrypoints, "_fastcall", None)
    assert entrypoints.public(general, drivers.inverse_dynamics_entry, 3, (1,), es.Model) is general


@pytest.mark.parametrize("name", list(ENTRIES))
def test_general_path_alone(model, name):
    """The general path (all a machine without a C compiler has) gives the same numbers
    and the same field-naming errors."""
    public, k = ENTRIES[name]
    general = public.__self__.general if entrypoints.AVAILABLE else public
    args = _states(model, k, seed=4)
    for a, b in zip(_outputs(public(model, *args)), _outputs(general(model, *args)), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-13, atol=1e-13)
    bad = list(args)
    bad[0] = np.where(np.arange(model.nq) == 1, np.nan, args[0])
    nonfinite = "q: expected finite values, got nan at index "
    with pytest.raises(ValueError, match=nonfinite):
        general(model, *bad)


@needs_ext
def test_wide_entries_return_their_named_tuple_and_match_the_general_path():
    """linearize: six outputs of three shapes ((n, n), (2n, 2n), (2n, n)) through the
    wide signature, handed to ``result_type`` (the Linearization named tuple), with
    the scratch blocks after the workspace; equal to the general path."""
    from eslabon.control import Linearization, linearize

    model = MODELS["panda"]()
    rng = np.random.default_rng(5)
    q, qd, qdd = (rng.uniform(-1, 1, 7) for _ in range(3))
    lean = linearize.__self__.fast(model, q, qd, qdd)
    assert isinstance(lean, Linearization) and lean.t is None
    shapes = [getattr(lean, f).shape for f in ("U", "V", "W", "A", "B", "M_inv")]
    assert shapes == [(7, 7), (7, 7), (7, 7), (14, 14), (14, 7), (7, 7)]
    general = linearize.__self__.general(model, q, qd, qdd)
    for field in ("U", "V", "W", "A", "B", "M_inv"):
        assert getattr(lean, field).tobytes() == getattr(general, field).tobytes(), field
    dq, dv, Minv = es.forward_dynamics_derivatives.__self__.fast(model, q, qd, qdd)
    ref = es.forward_dynamics_derivatives.__self__.general(model, q, qd, qdd)
    for got, want in zip((dq, dv, Minv), ref, strict=True):
        assert got.tobytes() == want.tobytes()


def test_an_entry_with_the_wrong_signature_for_its_outputs_is_refused():
    """Three or more outputs need the wide C signature (C would call the pointer with
    eleven arguments): a mismatch is an error when the public function is made."""
    general = es.forward_dynamics_derivatives.__self__.general
    with pytest.raises(ValueError, match="wide signature"):
        entrypoints.public(general, drivers.mass_matrix_entry, 3, (2, 2, 2), es.Model)
    with pytest.raises(ValueError, match="7-pointer signature"):
        entrypoints.public(general, derivative_drivers.fd_derivatives_entry, 3, (2,), es.Model)
