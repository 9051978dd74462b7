"""The compiled task-space and centroidal kernels (:mod:`eslabon.kinematics.task_kernels`)
against their numpy forms, the reference: A_G (:func:`eslabon.centroidal_momentum_matrix`),
J_c (:func:`eslabon.com_jacobian`) and a frame's J̇q̇
(:func:`eslabon.kinematics.bias_acceleration`), one state through the C entry and a batch
through the chunk entries, on fixed and floating bases, every joint type, and
example-robot-data's Solo 12 and Talos.

The kernels sum in another order than numpy (the subtree sums of folded rows, one inward
sweep), so the two agree to round-off: 1e-12 × max(1, the largest entry of the numpy
form). A single call and a batch run the same compiled function: they agree to round-off
too (the batch's chunk is compiled apart, its flags could contract differently).
"""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from checks import check
from eslabon._engine import entrypoints
from eslabon.dynamics.centroidal import momentum_matrix_reference
from eslabon.kinematics.center_of_mass import com_jacobian_reference, moving_bodies
from eslabon.kinematics.frame_motion import bias_reference
from task_space_cases import Twin, last_frame, models, state

needs_ext = pytest.mark.skipif(
    not entrypoints.AVAILABLE, reason="eslabon._fastcall was not built (no C compiler)"
)

TOL = 1e-12
CASES = [c for c in models() if c[0] != "mimic"] + [
    ("chain-RPRPR", es.zoo.random_chain(5, 3, "modified", joints="RPRPR", payload=True, tool=True)),
    ("tree-RHRPH", es.zoo.random_tree(2, "RHRPH")),
    ("space_manipulator", es.zoo.load("space_manipulator")),
    # body 5 (3.2 kg) is welded to the world: part of it, counted by neither form
    ("tree-welded-RSSRFR", es.zoo.random_tree(5, "RSSRFR")),
]
IDS = [name for name, _ in CASES]
A_G = es.centroidal_momentum_matrix
J_C = es.com_jacobian
BIAS = es.kinematics.bias_acceleration


def _every_body(model):
    """The bodies the whole robot's J_c counts: every one some rate moves."""
    return moving_bodies(model)


def _batch(model, N=4, seed=3):
    rng = np.random.default_rng(seed)
    Q = np.stack([es.random_configuration(model, rng) for _ in range(N)])
    return Q, rng.uniform(-1.5, 1.5, (N, model.nv))


def _frames(model):
    """The last limb's frame and two bodies' names (one near the root)."""
    return sorted({last_frame(model), model.body_names[1], model.body_names[model.nb // 2]})


def _compare(model, q, qd):
    """Each lean call against the numpy form at (q, q̇)."""
    fast = A_G.__self__.fast(model, q)
    assert fast is not None and fast.shape == (6, model.nv)
    check(fast, momentum_matrix_reference(model, q), TOL, what="A_G")
    fast = J_C.__self__.fast(model, q)
    assert fast is not None and fast.shape == (3, model.nv)
    check(fast, com_jacobian_reference(model, q, _every_body(model)), TOL, what="J_c")
    for frame in _frames(model):
        for reference in ("world", "local"):
            BIAS(model, q, qd, frame, reference)  # the general path fills the frame table
            fast = BIAS.__self__.fast(model, q, qd, frame, reference)
            assert fast is not None and fast.shape == (6,), frame
            want = bias_reference(model, q, qd, frame, reference)
            check(fast, want, TOL, what=f"J̇q̇ of {frame} ({reference})")
            check(BIAS(model, q, qd, frame=frame, reference=reference), want, TOL)


@needs_ext
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_lean_calls_match_the_numpy_form(case):
    _, model = case
    for seed in range(3):
        q, qd, _ = state(model, seed)
        _compare(model, np.ascontiguousarray(q, dtype=float), qd)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_compiled_batches_match_single_calls_and_the_numpy_form(case):
    _, model = case
    Q, QD = _batch(model)
    frame = last_frame(model)
    batches = {
        "A_G": (A_G(model, Q), momentum_matrix_reference(model, Q), lambda q, qd: A_G(model, q)),
        "J_c": (
            J_C(model, Q),
            com_jacobian_reference(model, Q, _every_body(model)),
            lambda q, qd: J_C(model, q),
        ),
        "J̇q̇": (
            BIAS(model, Q, QD, frame, "local"),
            bias_reference(model, Q, QD, frame, "local"),
            lambda q, qd: BIAS(model, q, qd, frame, "local"),
        ),
    }
    for what, (batch, numpy_form, single) in batches.items():
        check(batch, numpy_form, TOL, what=what)
        for i in range(len(Q)):
            check(batch[i], single(Q[i], QD[i]), TOL, what=f"{what}, state {i}")
    assert A_G(model, Q[:0]).shape == (0, 6, model.nv)


@needs_ext
@pytest.mark.parametrize("key", ["solo12", "talos"])
def test_example_robot_data_floating_bases(key):
    """Floating bases with many fixed links (folded in ``packed_dynamics``, kept as rows in
    ``packed``): the lean calls and a batch against the numpy form."""
    model = Twin(key).model
    q, qd, _ = state(model, 5)
    _compare(model, q, qd)
    Q, QD = _batch(model, N=3)
    check(A_G(model, Q), momentum_matrix_reference(model, Q), TOL)
    check(J_C(model, Q), com_jacobian_reference(model, Q, _every_body(model)), TOL)
    frame = last_frame(model)
    check(BIAS(model, Q, QD, frame), bias_reference(model, Q, QD, frame), TOL)


@needs_ext
def test_what_the_lean_path_hands_over():
    """A mimic joint, a list, a batch, a non-finite value, a subtree, an unknown frame:
    the general path, which gives the numpy form's answer or error."""
    mimic = dict(models())["mimic"]
    q, qd, _ = state(mimic)
    assert A_G.__self__.fast(mimic, q) is None and J_C.__self__.fast(mimic, q) is None
    check(A_G(mimic, q), momentum_matrix_reference(mimic, q), 0.0)
    check(A_G(mimic, np.stack([q, q])), momentum_matrix_reference(mimic, np.stack([q, q])), 0.0)
    # an oracle apart from that code: the linear momentum's rows are m J_c, and J_c the
    # central differences of the centre of mass (mimic joints follow q in both)
    h, mass = 1e-6, float(np.sum(mimic.mass))
    steps = np.eye(mimic.nq) * h
    J_fd = np.stack(
        [
            (es.center_of_mass(mimic, q + e).W_p_com - es.center_of_mass(mimic, q - e).W_p_com)
            / (2 * h)
            for e in steps
        ],
        axis=1,
    )
    check(J_C(mimic, q), J_fd, 1e-8, what="J_c of the mimic model against differences")
    check(A_G(mimic, q)[3:], mass * J_C(mimic, q), TOL, what="A_G's linear rows, m J_c")
    model = es.zoo.load("quadruped")
    q, qd, _ = state(model)
    BIAS(model, q, qd)
    for label, bad in {
        "list": list(q),
        "batch": np.stack([q, q]),
        "nan": np.where(np.arange(model.nq) == 8, np.nan, q),
    }.items():
        assert A_G.__self__.fast(model, bad) is None, label
        assert J_C.__self__.fast(model, bad) is None, label
        assert BIAS.__self__.fast(model, bad, qd) is None, label
    assert BIAS.__self__.fast(model, q, np.full(model.nv, np.inf)) is None
    assert BIAS.__self__.fast(model, q, qd, "nope") is None
    check(A_G(model, list(q)), A_G(model, q), TOL)  # the numpy form, the C entry
    with pytest.raises(ValueError, match="q: expected finite values"):
        A_G(model, np.where(np.arange(model.nq) == 8, np.nan, q))
    with pytest.raises(ValueError, match="qd: expected finite values"):
        BIAS(model, np.stack([q, q]), np.full((2, model.nv), np.nan))
    with pytest.raises(ValueError, match="unknown frame 'nope'"):
        BIAS(model, q, qd, "nope")
    with pytest.raises(ValueError, match="reference: expected one of"):
        BIAS(model, q, qd, reference="sideways")
    leg = model.body_names[2]
    counted = es.kinematics.center_of_mass(model, q, subtree=leg)
    J_leg = J_C(model, q, subtree=leg)
    check(J_leg @ qd, es.kinematics.center_of_mass(model, q, qd, subtree=leg).W_v_com, 1e-13)
    assert counted.mass < float(model.mass.sum())


def test_a_sliding_centre_of_mass_is_refused_on_both_paths():
    book = es.zoo.load("practica_4dof", book_com=True)  # a centre of mass that slides
    for call in (lambda q: A_G(book, q), lambda q: J_C(book, q)):
        for q in (np.zeros(4), np.zeros((2, 4))):
            with pytest.raises(ValueError, match="slid|rigid|prismatic"):
                call(q)


def test_a_body_welded_to_the_world_is_part_of_it():
    """A body every joint of whose path to the world is fixed never moves: the centre of
    mass, J_c and A_G leave it out on every path (lean, batch, numpy, subtree), and J_c
    is the derivative of the centre of mass the same functions give."""
    model = es.zoo.random_tree(5, "RSSRFR")
    assert model.parent[5] == 0 and model.joint_type[5] == 0 and model.mass[5] > 1.0
    assert moving_bodies(model).tolist() == [False, True, True, True, True, False, True]
    q, qd, _ = state(model, 1)
    com = es.kinematics.center_of_mass(model, q, qd)
    assert com.mass == pytest.approx(float(model.mass.sum() - model.mass[5]), rel=1e-15)
    J = J_C(model, q)
    check(J @ qd, com.W_v_com, 1e-12, what="J_c q̇ = ċ")
    h = 1e-6
    for k in range(model.nv):
        dq = np.zeros(model.nv)
        dq[k] = h
        ahead = es.kinematics.center_of_mass(model, es.integrate(model, q, dq)).W_p_com
        back = es.kinematics.center_of_mass(model, es.integrate(model, q, -dq)).W_p_com
        check(J[:, k], (ahead - back) / (2 * h), 1e-8, what=f"J_c column {k}")
    A = A_G(model, q)
    check(A[3:], com.mass * J, 1e-12, what="A_G's linear rows = m J_c")
    Q, _ = _batch(model)
    check(A_G(model, Q), momentum_matrix_reference(model, Q), TOL, what="A_G batch")
