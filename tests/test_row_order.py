"""The kernels' rows in depth-first order, forks marked (``eslabon.model.fold.depth_first``,
``eslabon._engine.layout.mark_forks``).

A model's bodies need not be in depth-first order (a body list in any order; a URDF was
numbered breadth first until the reader changed); the recursions keep a parent's pose in
registers only while the next row is its child. ``Model.packed_dynamics`` therefore lists every
row's subtree right after it, and marks the rows a later, non-adjacent row hangs from.
The order is internal: every per-degree-of-freedom result must be the same, to
round-off, as on the rows in the model's own order.
"""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from eslabon._engine import layout as L
from eslabon._engine.joints import extended_of
from eslabon._engine.lanes import WIDTH
from eslabon.dynamics import composite_rigid_body
from eslabon.dynamics import drivers as _d
from eslabon.model.fold import depth_first, fold_fixed

TREES = ["RRRRRRRR", "RFPRRFPRR", "BRUHLSPRF", "FRRURRSRR"]


def _parents(P):
    return [int(P[L.body_offset(i) + L.PARENT]) for i in range(int(P[L.H_NB]) + 1)]


def _field(P, f):
    return np.array([P[L.body_offset(i) + f] for i in range(int(P[L.H_NB]) + 1)])


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("letters", TREES)
def test_every_subtree_is_contiguous_and_the_forks_are_marked(seed, letters):
    model = es.zoo.random_tree(seed, letters)
    P = model.packed_dynamics
    parent = _parents(P)
    nb = len(parent) - 1
    assert all(parent[i] < i for i in range(1, nb + 1))
    # depth first: the rows after i that descend from i come right after it
    for i in range(nb + 1):
        below = set()
        for r in range(i + 1, nb + 1):
            if parent[r] == i or parent[r] in below:
                below.add(r)
        assert below == set(range(i + 1, i + 1 + len(below))), (letters, seed, i)
    fork = {parent[i] for i in range(1, nb + 1) if parent[i] != i - 1}
    assert set(np.flatnonzero(_field(P, L.FORK))) == fork
    # the same rows, rates and coordinates as the model's own order
    F = fold_fixed(model.packed)
    for f in (L.VIDX, L.CFG, L.MASS, L.JTYPE):
        assert sorted(_field(P, f)) == sorted(_field(F, f))


def test_rows_in_order_already_are_not_copied():
    model = es.zoo.load("puma560")
    P = fold_fixed(model.packed)
    assert depth_first(P) is P


@pytest.mark.parametrize("letters", TREES)
def test_results_do_not_depend_on_the_row_order(letters):
    """τ, M, q̈ and C on the depth-first rows (``packed_dynamics``, axes turned onto z)
    against the rows in the model's order with fixed joints folded (no axis turned)."""
    model = es.zoo.random_tree(1, letters)
    original = fold_fixed(model.packed)
    assert _parents(original) != _parents(model.packed_dynamics) or letters == "RRRRRRRR"
    rng = np.random.default_rng(3)
    n = model.nv
    for _ in range(3):
        q = np.asarray(es.random_configuration(model, rng), dtype=float)
        qd, qdd = rng.normal(size=n), rng.normal(size=n)
        got, ref = {}, {}
        for out, P in ((got, model.packed_dynamics), (ref, original)):
            ext = extended_of(P)
            tau, H, acc, C = np.empty(n), np.empty((n, n)), np.empty(n), np.empty((n, n))
            assert _d.rnea_one(P, q, qd, qdd, 1.0, None, tau, ext) == 0
            assert _d.crba_one(P, q, H, ext) == 0
            assert _d.aba_call(P, q, qd, tau, acc, ext) == 0
            _d.coriolis_one(P, q, qd, C, ext)
            out.update(tau=tau, H=H, acc=acc, C=C)
        for key in got:
            scale = max(1.0, np.abs(ref[key]).max())
            assert np.abs(got[key] - ref[key]).max() <= 1e-12 * scale, (letters, key)


CHAINS = ["puma560", "space_manipulator", "chain-SULHB"]


def _chain(name):
    if name.startswith("chain-"):  # multi-DOF joints (chains of rows) in a chain
        model = es.zoo.random_tree(43, name[6:], friction=False)
        assert list(model.parent[1:]) == list(range(model.nb))  # (this seed: a chain)
        return model
    return es.zoo.load(name)


@pytest.mark.parametrize("name", CHAINS)
def test_a_chain_fills_its_mass_matrix_without_zeroing(name):
    """No fork: every entry of M is a pair of one joint and an ancestor, written by the
    kernel; an output full of NaN before the call holds none after it, for one state and
    for a lanes block (which a batch reuses from block to block)."""
    model = _chain(name)
    P = model.packed_dynamics
    assert not _field(P, L.FORK).any()
    ext, n, rows = extended_of(P), model.nv, int(P[L.H_NB]) + 1
    rng = np.random.default_rng(0)
    Q = np.array([es.random_configuration(model, rng) for _ in range(WIDTH)], dtype=float)
    reference = es.mass_matrix(model, Q, algorithm="walker_orin_1")
    H = np.full((n, n), np.nan)
    assert _d.crba_one(P, Q[0], H, ext) == 0
    np.testing.assert_allclose(H, reference[0], atol=1e-12)
    block = np.full((n, n, WIDTH), np.nan)
    cw = np.full((rows, composite_rigid_body.COLS, WIDTH), np.nan)
    assert composite_rigid_body.crba_into(P, np.ascontiguousarray(Q.T), cw, block, ext) == 0
    np.testing.assert_array_equal(np.moveaxis(block, 2, 0), es.mass_matrix(model, Q))
