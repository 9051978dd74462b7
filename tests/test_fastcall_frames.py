"""The C entries of one named frame: :func:`eslabon.jacobian`,
:func:`eslabon.kinematics.frame_pose` and :func:`eslabon.end_effector_pose`
(:mod:`eslabon.kinematics.entries`).

A float64 (nq,) q and a frame already in ``model.frame_placements`` (the general path puts
it there on first use) run the compiled entry from C; the frame and the reference may be
given by position or by keyword. Anything else goes to the general path. Both paths run
the same kernels and must give the same bits.
"""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import eslabon as es
from eslabon._engine import entrypoints
from eslabon._engine.layout import HEADER, STRIDE
from eslabon.kinematics import entries
from eslabon.kinematics.kinematic_pass import frame_entry

needs_ext = pytest.mark.skipif(
    not entrypoints.AVAILABLE, reason="eslabon._fastcall was not built (no C compiler)"
)
frame_pose = es.kinematics.frame_pose

MODELS = {
    "puma560": lambda: es.zoo.load("puma560"),
    "panda": lambda: es.zoo.load("panda"),
    # prismatic joints, off-z axes, payload and tool (fixed bodies: rows of model.packed)
    "chain-RPRPR": lambda: es.zoo.random_chain(
        5, 3, "modified", friction=True, joints="RPRPR", payload=True, tool=True
    ),
    # helical joints: the entries compiled for the extended joint set
    "tree-RHRPH": lambda: es.zoo.random_tree(2, "RHRPH"),
    # quaternion joints (nq > nv): a free-flying base and a spherical joint
    "tree-SRRB": lambda: es.zoo.random_tree(5, "SRRB"),
    "space_manipulator": lambda: es.zoo.load("space_manipulator"),
}


@pytest.fixture(params=list(MODELS), scope="module")
def model(request):
    return MODELS[request.param]()


def _q(model, seed=1):
    rng = np.random.default_rng(seed)
    if model.nq != model.nv:
        return np.ascontiguousarray(es.random_configuration(model, rng), dtype=np.float64)
    return rng.uniform(-1.5, 1.5, model.nq)


def _frames(model):
    """Every named frame and every body's name."""
    return [fr.name for fr in model.frames] + list(model.body_names)


@needs_ext
def test_lean_path_gives_the_general_paths_bits(model):
    q = _q(model)
    for frame in _frames(model):
        for reference in ("world", "local"):
            general = es.jacobian.__self__.general(model, q, frame, reference)
            fast = es.jacobian.__self__.fast(model, q, frame, reference)
            assert fast is not None, frame  # (the general path put the frame in the table)
            assert fast.shape == (6, model.nv) and fast.dtype == np.float64
            np.testing.assert_array_equal(fast, general)
            np.testing.assert_array_equal(es.jacobian(model, q, frame, reference), general)
            batch = es.jacobian(model, np.stack([q, q]), frame, reference)
            np.testing.assert_array_equal(batch[1], general)
        general = frame_pose.__self__.general(model, q, frame)
        fast = frame_pose.__self__.fast(model, q, frame)
        assert fast is not None and fast.shape == (4, 4) and fast.dtype == np.float64
        np.testing.assert_array_equal(fast, general)
        np.testing.assert_array_equal(frame_pose(model, np.stack([q, q]), frame)[0], general)
    if "ee" in [fr.name for fr in model.frames]:
        np.testing.assert_array_equal(es.end_effector_pose(model, q), frame_pose(model, q, "ee"))
        np.testing.assert_array_equal(
            es.kinematics.frame_poses(model, q)["ee"], frame_pose.__self__.fast(model, q, "ee")
        )


@needs_ext
def test_positional_and_keyword_forms_take_the_lean_path():
    """The C side reads the frame and the reference in every form the Python signature
    takes: shown by an entry of the table that the lean path alone reads (the general
    path looks the frame up on the model)."""
    model = MODELS["puma560"]()
    q = _q(model)
    want_j = es.jacobian(model, q, "dh3", "local")
    want_t = frame_pose(model, q, "dh3")
    model.frame_placements["ee"] = frame_entry(model, "dh3").copy()  # "ee" now reads dh3
    for got in (
        es.jacobian(model, q, "ee", "local"),
        es.jacobian(model, q, "ee", reference="local"),
        es.jacobian(model, q, frame="ee", reference="local"),
        es.jacobian(model, q, reference="local", frame="ee"),
    ):
        np.testing.assert_array_equal(got, want_j)
    world = es.jacobian.__self__.fast(model, q, "dh3", "world")
    for got in (
        es.jacobian(model, q),
        es.jacobian(model, q, "ee"),
        es.jacobian(model, q, "ee", "world"),
    ):
        np.testing.assert_array_equal(got, world)
    for got in (
        frame_pose(model, q),
        frame_pose(model, q, "ee"),
        frame_pose(model, q, frame="ee"),
        es.end_effector_pose(model, q),
    ):
        np.testing.assert_array_equal(got, want_t)


@needs_ext
def test_lean_path_hands_over_what_it_cannot_read():
    model = MODELS["puma560"]()
    q = _q(model)
    fast_j, fast_t = es.jacobian.__self__.fast, frame_pose.__self__.fast
    es.jacobian(model, q, "dh2")  # the frames in the table
    assert fast_j(model, q, "dh2") is not None and fast_t(model, q, "dh2") is not None
    n = model.nq
    for label, bad in {
        "list": list(q),
        "int": np.zeros(n, dtype=np.int64),
        "float32": q.astype(np.float32),
        "strided": np.repeat(q, 2)[::2],
        "big-endian": q.astype(">f8"),
        "short": q[:-1],
        "batch": np.tile(q, (2, 1)),
        "nan": np.where(np.arange(n) == 2, np.nan, q),
        "inf": np.where(np.arange(n) == 5, np.inf, q),  # (the last joint: no origin moves)
    }.items():
        assert fast_j(model, bad, "dh2") is None, label
        assert fast_t(model, bad, "dh2") is None, label
        if label in ("list", "int", "float32", "strided", "big-endian"):
            plain = np.array(bad, dtype=np.float64)
            np.testing.assert_array_equal(
                es.jacobian(model, bad, "dh2"), es.jacobian(model, plain, "dh2")
            )
            np.testing.assert_array_equal(
                frame_pose(model, bad, "dh2"), frame_pose(model, plain, "dh2")
            )
    for frame in ("nope", 3, None, b"dh2"):
        assert fast_j(model, q, frame) is None and fast_t(model, q, frame) is None
    assert fast_j(model, q, "dh2", "sideways") is None
    assert fast_j(model, q, "dh2", 0) is None

    class Str(str):
        pass

    assert fast_j(model, q, Str("dh2")) is None
    np.testing.assert_array_equal(es.jacobian(model, q, Str("dh2")), es.jacobian(model, q, "dh2"))
    # a table entry the C side cannot trust: handed over, the general path answers
    table = model.frame_placements
    good = table["dh2"]
    for label, entry in {
        "row too big": np.concatenate([[model.nb + 1.0], good[1:]]),
        "row negative": np.concatenate([[-1.0], good[1:]]),
        "row not whole": np.concatenate([[1.5], good[1:]]),
        "row nan": np.concatenate([[np.nan], good[1:]]),
        "short": good[:-1].copy(),
        "float32": good.astype(np.float32),
        "list": list(good),
    }.items():
        table["dh2"] = entry
        assert fast_j(model, q, "dh2") is None, label
        assert fast_t(model, q, "dh2") is None, label
    table["dh2"] = good
    assert fast_j(model, q, "dh2") is not None
    with pytest.raises(TypeError):
        fast_j(model, q, "dh2", "world", "extra")
    with pytest.raises(TypeError):
        fast_t(model, q, "dh2", "world")


@needs_ext
def test_errors_are_the_general_paths():
    model = MODELS["puma560"]()
    q = _q(model)
    es.jacobian(model, q, "dh2")
    with pytest.raises(ValueError, match="unknown frame 'nope'"):
        es.jacobian(model, q, "nope")
    with pytest.raises(ValueError, match="unknown frame 'nope'"):
        frame_pose(model, q, frame="nope")
    with pytest.raises(ValueError, match="reference: expected one of"):
        es.jacobian(model, q, "dh2", reference="sideways")
    with pytest.raises(ValueError, match="q: expected finite values, got nan at index 4"):
        es.jacobian(model, np.where(np.arange(6) == 4, np.nan, q), "dh2")
    with pytest.raises(ValueError, match="q: expected finite values, got inf at index 5"):
        frame_pose(model, np.where(np.arange(6) == 5, np.inf, q), "dh2")
    with pytest.raises(TypeError):
        es.jacobian(model, q, "dh2", frame="dh2")  # a parameter given twice
    with pytest.raises(TypeError):
        es.jacobian(model, q, nope="dh2")
    with pytest.raises(TypeError):
        es.end_effector_pose(model, q, "dh2")
    floating = MODELS["tree-SRRB"]()
    qf = _q(floating)
    es.jacobian(floating, qf, "ee")
    bad = qf * 1.01  # its quaternions no longer of unit length
    assert es.jacobian.__self__.fast(floating, bad, "ee") is None
    with pytest.raises(ValueError, match="has norm 1.01, not 1"):
        es.jacobian(floating, bad, "ee")


@needs_ext
def test_results_are_fresh_arrays():
    model = MODELS["puma560"]()
    q = _q(model)
    a, b = es.jacobian(model, q), es.jacobian(model, q)
    assert a is not b and not np.shares_memory(a, b) and a.flags.writeable
    a[:] = 0.0
    np.testing.assert_array_equal(b, es.jacobian(model, q))
    T1, T2 = frame_pose(model, q), frame_pose(model, q)
    assert not np.shares_memory(T1, T2) and T1.flags.c_contiguous


def test_a_mimic_model_takes_the_general_path():
    """The lean path declines a model with mimic joints (the general path folds a mimic
    joint's column into the one it copies): the public function gives that answer."""
    base = es.zoo.random_tree(3, "RRRPR", friction=False)
    coupled = base.replace(
        mimic_joint=np.array([-1, -1, -1, 1, -1, -1]),
        mimic_multiplier=np.array([1, 1, 1, -0.7, 1, 1.0]),
        mimic_offset=np.array([0, 0, 0, 0.2, 0, 0.0]),
    )
    q = np.random.default_rng(1).uniform(-1, 1, coupled.nq)
    frame = coupled.body_names[-1]
    J = es.jacobian(coupled, q, frame)
    assert J.shape == (6, coupled.nv)
    assert es.jacobian.__self__.fast(coupled, q, frame) is None
    np.testing.assert_array_equal(J, es.jacobian.__self__.general(coupled, q, frame))
    T = frame_pose(coupled, q, frame)
    assert frame_pose.__self__.fast(coupled, q, frame) is None
    np.testing.assert_array_equal(T, frame_pose.__self__.general(coupled, q, frame))


@pytest.mark.parametrize("public", [es.jacobian, frame_pose, es.end_effector_pose])
def test_public_functions_pickle_by_reference(public):
    assert pickle.loads(pickle.dumps(public)) is public
    assert copy.deepcopy(public) is public


@needs_ext
def test_bad_frame_options_are_refused():
    make = entrypoints._fastcall.public
    general = es.jacobian.__self__.general
    good = dict(
        address=0,
        n_in=1,
        out_ndims=(5,),
        header=HEADER,
        stride=STRIDE,
        owner=entries.jacobian_entry,
        general=general,
        name="jacobian",
        doc="jacobian()",
        module="m",
        model_type=es.Model,
        scratch_cols=entries.SCRATCH_COLS["jacobian_entry"],
        packed="packed",
        frames=("frame_placements", "ee", ("frame", "reference"), ("world", "local")),
    )
    model = MODELS["puma560"]()
    es.jacobian(model, _q(model))
    np.testing.assert_array_equal(make(**good)(model, _q(model)), es.jacobian(model, _q(model)))
    for frames in [
        ("frame_placements", "ee", ("frame", "reference"), ()),  # a second option: choices
        ("frame_placements", "ee", ("frame",), ("world",)),  # choices without it
        ("frame_placements", "ee", ("a", "b", "c"), ("x",)),
        ("frame_placements", "ee", ("frame", 3), ("world",)),
    ]:
        with pytest.raises(ValueError, match="frames"):
            make(**{**good, "frames": frames})
    with pytest.raises(ValueError, match="frames"):
        make(**{**good, "n_in": 3})  # a frame's entry follows the states: at most 2
    for frames in [("frame_placements", "ee"), (1, "ee", (), ()), "frames"]:
        with pytest.raises(TypeError):
            make(**{**good, "frames": frames})


def test_a_model_without_its_frame_table_makes_one():
    """A model unpickled from an eslabon without ``frame_placements``: the lean path
    hands over, the general path answers and makes the table."""
    model = MODELS["puma560"]()
    q = _q(model)
    want = es.jacobian(model, q, "dh2")
    object.__delattr__(model, "frame_placements")
    if entrypoints.AVAILABLE:
        assert es.jacobian.__self__.fast(model, q, "dh2") is None
    np.testing.assert_array_equal(es.jacobian(model, q, "dh2"), want)
    assert list(model.frame_placements) == ["dh2"]
    if entrypoints.AVAILABLE:
        np.testing.assert_array_equal(es.jacobian.__self__.fast(model, q, "dh2"), want)


@needs_ext
def test_a_frames_first_call_readies_the_lean_path():
    """Each function's general path puts the frame in the table: the next call of any
    of them is lean."""
    for first in (es.jacobian, frame_pose, es.end_effector_pose):
        model = MODELS["puma560"]()
        q = _q(model)
        assert es.jacobian.__self__.fast(model, q, "ee") is None  # not in the table yet
        assert frame_pose.__self__.fast(model, q, "ee") is None
        first(model, q)
        assert es.jacobian.__self__.fast(model, q, "ee") is not None
        assert frame_pose.__self__.fast(model, q, "ee") is not None
        assert es.end_effector_pose.__self__.fast(model, q) is not None
