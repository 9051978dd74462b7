"""The lean single-state entry points of ``eslabon.dynamics.api`` and
``eslabon.dynamics.derivatives``.

A float64 C-contiguous (n,) state goes straight into a compiled call
(``eslabon._engine.entrypoints``); anything else must take the general path and give the
same answer or a ValueError naming the field (issue: Core, "Bad input"; module docstring
of ``eslabon._args``). For each public function and each argument:

* lists, tuples, int and float32 arrays, non-contiguous views (``x[::2]``), read-only,
  big-endian and Fortran-ordered arrays give what the float64 array of the same values
  gives; batches (N, n), also read-only or non-contiguous, give the stacked single states;
* a wrong length or a mismatched shape raises ValueError naming that argument;
* NaN or inf raises ValueError naming that argument, single state and batch;
* results are fresh arrays: mutating one does not change the next call, and the inputs
  are left untouched.
"""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es

FUNCTIONS = {
    # name: (call(model, *args), argument names)
    "inverse_dynamics": (es.inverse_dynamics, ("q", "qd", "qdd")),
    "gravity_torques": (es.gravity_torques, ("q",)),
    "bias_forces": (es.bias_forces, ("q", "qd")),
    "mass_matrix": (es.mass_matrix, ("q",)),
    "mass_matrix_wo1": (lambda m, q: es.mass_matrix(m, q, algorithm="walker_orin_1"), ("q",)),
    "forward_dynamics": (es.forward_dynamics, ("q", "qd", "tau")),
    "forward_dynamics_wo3": (
        lambda m, q, qd, tau: es.forward_dynamics(m, q, qd, tau, algorithm="walker_orin_3"),
        ("q", "qd", "tau"),
    ),
    "inverse_dynamics_derivatives": (es.inverse_dynamics_derivatives, ("q", "qd", "qdd")),
    "forward_dynamics_derivatives": (es.forward_dynamics_derivatives, ("q", "qd", "tau")),
}
MODELS = {
    "puma560": lambda: es.zoo.load("puma560"),
    # revolute and prismatic joints, friction, armature, a payload and a tool
    "chain-RPRPR": lambda: es.zoo.random_chain(
        5, 12, "modified", friction=True, joints="RPRPR", payload=True, tool=True
    ),
}


@pytest.fixture(params=list(MODELS), scope="module")
def model(request):
    return MODELS[request.param]()


@pytest.fixture(params=list(FUNCTIONS))
def fn(request):
    return FUNCTIONS[request.param]


def _state(model, seed=0, N=None):
    """Arguments of the size the functions expect; τ of the size of the bias forces."""
    rng = np.random.default_rng(seed)
    shape = (model.nq,) if N is None else (N, model.nq)
    q = rng.uniform(-1.5, 1.5, shape)
    qd = rng.uniform(-2.0, 2.0, shape)
    qdd = rng.uniform(-3.0, 3.0, shape)
    tau = es.bias_forces(model, q, qd) + rng.normal(0.0, 2.0, shape)
    return {"q": q, "qd": qd, "qdd": qdd, "tau": tau}


def _as_tuple(result):
    return result if isinstance(result, tuple) else (result,)


def _equal(got, expected, what, tol=0.0):
    got, expected = _as_tuple(got), _as_tuple(expected)
    assert len(got) == len(expected), what
    for g, e in zip(got, expected, strict=True):
        assert type(g) is np.ndarray and g.dtype == np.float64, what
        assert g.shape == e.shape, f"{what}: shape {g.shape} != {e.shape}"
        if tol == 0.0:
            np.testing.assert_array_equal(g, e, err_msg=what)
        else:
            np.testing.assert_allclose(g, e, rtol=tol, atol=tol, err_msg=what)


def _strided(x):
    """x as a non-contiguous view x2[::2] of a longer array."""
    big = np.full((2 * len(x),) + x.shape[1:], np.nan)
    big[::2] = x
    view = big[::2]
    assert not view.flags.c_contiguous and view.base is not None
    return view


def _readonly(x):
    y = np.array(x)
    y.setflags(write=False)
    return y


VARIANTS = {
    # name: (convert a float64 array, the float64 array it must behave as)
    "list": (lambda x: x.tolist(), lambda x: x),
    "tuple": (lambda x: tuple(x.tolist()), lambda x: x),
    "int": (lambda x: np.round(x).astype(np.int64), lambda x: np.round(x)),
    "float32": (lambda x: x.astype(np.float32), lambda x: x.astype(np.float32).astype(float)),
    "strided": (_strided, lambda x: x),
    "readonly": (_readonly, lambda x: x),
    "big-endian": (lambda x: x.astype(">f8"), lambda x: x),
}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_single_state_variants_match_float64(model, fn, variant):
    call, names = fn
    convert, reference = VARIANTS[variant]
    args = _state(model)
    base = {k: reference(args[k]) for k in names}
    expected = call(model, *[np.ascontiguousarray(base[k], dtype=float) for k in names])
    # every argument converted at once, and each one alone (the others on the lean path)
    _equal(call(model, *[convert(args[k]) for k in names]), expected, f"{variant}, all")
    for which in names:
        mixed = [convert(args[k]) if k == which else base[k] for k in names]
        _equal(call(model, *mixed), expected, f"{variant} {which} only")


def _batch_variants(x):
    return {
        "C": x,
        "readonly": _readonly(x),
        "rows-strided": _strided(x),
        "fortran": np.asfortranarray(x),
        "list": x.tolist(),
        "float32": x.astype(np.float32),
    }


def test_batches_match_single_states(model, fn):
    call, names = fn
    N = 7
    args = _state(model, seed=1, N=N)
    for variant in _batch_variants(args["q"]):
        batch = {k: _batch_variants(args[k])[variant] for k in names}
        values = {k: np.asarray(batch[k], dtype=float) for k in names}
        single = [_as_tuple(call(model, *[values[k][s].copy() for k in names])) for s in range(N)]
        expected = tuple(np.stack([s[j] for s in single]) for j in range(len(single[0])))
        got = call(model, *[batch[k] for k in names])
        _equal(got, expected if len(expected) > 1 else expected[0], f"batch {variant}", tol=1e-14)
    one = call(model, *[args[k][:1] for k in names])
    assert all(r.shape[0] == 1 for r in _as_tuple(one)), "a batch of one stays a batch"


@pytest.mark.parametrize("length", ["short", "long"])
def test_wrong_length_names_the_field(model, fn, length):
    call, names = fn
    args = _state(model)
    for which in names:
        bad = dict(args)
        bad[which] = args[which][:-1] if length == "short" else np.append(args[which], 0.0)
        with pytest.raises(ValueError, match=rf"^{which}: expected"):
            call(model, *[bad[k] for k in names])
        # and as a list (general path from the start)
        with pytest.raises(ValueError, match=rf"^{which}: expected"):
            call(model, *[bad[k].tolist() if k == which else bad[k] for k in names])


def test_mismatched_shapes_name_the_field(model, fn):
    """A single state mixed with a batch, or batches of different lengths."""
    call, names = fn
    if len(names) == 1:
        with pytest.raises(ValueError, match=r"^q: expected"):
            call(model, np.zeros((2, 3, model.nq)))
        return
    one = _state(model)
    many = _state(model, N=4)
    for which in names[1:]:
        mixed = [many[k] if k == which else one[k] for k in names]
        with pytest.raises(ValueError, match=rf"^{which}: expected"):
            call(model, *mixed)
        mixed = [many[k][:3] if k == which else many[k] for k in names]
        with pytest.raises(ValueError, match=rf"^{which}: expected"):
            call(model, *mixed)


@pytest.mark.parametrize("bad", [np.nan, np.inf])
@pytest.mark.parametrize("batched", [False, True])
def test_nonfinite_names_the_field(model, fn, bad, batched):
    call, names = fn
    args = _state(model, N=3 if batched else None)
    for which in names:
        for index in sorted({0, model.nq // 2, model.nq - 1}):
            broken = {k: v.copy() for k, v in args.items()}
            broken[which][..., index] = bad
            with pytest.raises(ValueError, match=rf"^{which}: expected finite"):
                call(model, *[broken[k] for k in names])


@pytest.mark.parametrize("method", ["walker_orin_3", "walker_orin_1"])
def test_mass_matrix_nan_in_first_joint_is_refused(method):
    """M(q) does not depend on q₁ of a chain (the first joint turns the whole robot), so a
    NaN there never reaches the result; it is still bad input (planar2, single and batch)."""
    m = es.zoo.load("planar2")
    for q in (np.array([np.nan, 0.3]), np.array([[0.1, 0.2], [np.nan, 0.3]])):
        with pytest.raises(ValueError, match=r"^q: expected finite"):
            es.mass_matrix(m, q, algorithm=method)


def test_results_are_fresh_and_inputs_untouched(model, fn):
    call, names = fn
    for N in (None, 3):
        args = _state(model, seed=2, N=N)
        inputs = [args[k] for k in names]
        saved = [x.copy() for x in inputs]
        first = _as_tuple(call(model, *inputs))
        kept = [r.copy() for r in first]
        for r in first:
            r[...] = 1e300
        second = _as_tuple(call(model, *inputs))
        for r, k in zip(second, kept, strict=True):
            np.testing.assert_array_equal(r, k)
        for a in first:
            for b in second:
                assert not np.shares_memory(a, b)
            for x in inputs:
                assert not np.shares_memory(a, x)
        for x, s in zip(inputs, saved, strict=True):
            np.testing.assert_array_equal(x, s)
        if len(second) > 1:
            assert not np.shares_memory(second[0], second[1])
