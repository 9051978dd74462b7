"""Fixed joints folded into their parents for the per-degree-of-freedom kernels.

``Model.packed_dynamics`` is ``Model.packed`` with every body on a fixed joint merged into
its parent (mass, centre of mass, inertia about it by parallel axes) and its children
hung from the parent at the composed placement, as Pinocchio's URDF reader merges fixed
links (``eslabon.model.fold.fold_fixed``). Every kernel whose result is per degree of
freedom must give the same numbers on both arrays, to round-off.
"""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from eslabon._engine import layout as L
from eslabon._engine.joints import extended_of
from eslabon.dynamics import drivers as _d

TREES = ["RFFRFPFRF", "FRFFRPF", "BRFRFSF", "FFRHFUFLF"]  # fixed at the world, in chains, leaves


def _model(letters, seed=0, massless=False):
    model = es.zoo.random_tree(seed, letters, friction=True)
    if massless:  # a fixed body with inertia but no mass (example-robot-data's bolt feet)
        mass = np.array(model.mass)
        mass[[i for i in range(1, model.nb + 1) if model.joint_type[i] == L.FIXED]] = 0.0
        model = model.replace(mass=mass)
    return model


def _kernels(P, q, qd, qdd, n):
    ext = extended_of(P)
    tau, H, qdd_fd = np.empty(n), np.empty((n, n)), np.empty(n)
    assert _d.rnea_one(P, q, qd, qdd, 1.0, None, tau, ext) == 0
    assert _d.crba_one(P, q, H, ext) == 0
    assert _d.aba_call(P, q, qd, tau, qdd_fd, ext) == 0
    C, energy = np.empty((n, n)), np.empty(2)
    _d.coriolis_one(P, q, qd, C, ext)
    _d.energy_one(P, q, qd, energy, ext)
    # (the potential energy reads the full array: a body fixed to the world adds to it)
    return {"tau": tau, "M": H, "FD": qdd_fd, "C": C, "kinetic energy": energy[:1]}


def assert_same_dynamics(model, P, F, seed):
    """The per-degree-of-freedom kernels give the same numbers on the packed arrays ``P``
    and ``F`` of ``model``, to round-off, at three random states; returns the last
    state's results on ``F`` and its q̈."""
    rng = np.random.default_rng(seed)
    for _ in range(3):
        q = es.random_configuration(model, rng)
        qd, qdd = rng.normal(size=model.nv), rng.normal(size=model.nv)
        before = _kernels(P, q, qd, qdd, model.nv)
        after = _kernels(F, q, qd, qdd, model.nv)
        for key, value in before.items():
            scale = max(1.0, np.abs(value).max())
            assert np.abs(after[key] - value).max() <= 1e-12 * scale, key
    return after, qdd


@pytest.mark.parametrize("massless", [False, True])
@pytest.mark.parametrize("letters", TREES)
def test_folded_and_unfolded_arrays_give_the_same_dynamics(letters, massless):
    model = _model(letters, massless=massless)
    P, F = model.packed, model.packed_dynamics
    assert int(F[L.H_NB]) < int(P[L.H_NB])  # something was folded
    folded, qdd = assert_same_dynamics(model, P, F, seed=1)
    np.testing.assert_allclose(folded["FD"], qdd, rtol=1e-9, atol=1e-9)


def test_what_is_folded_and_what_is_kept():
    """Every fixed row goes (its mass to the parent, or out with a body fixed to the
    world); rows keep their order; a model without fixed joints keeps its array."""
    model = _model("FRFFRPF")
    F = model.packed_dynamics
    types = [int(F[L.body_offset(i) + L.JTYPE]) for i in range(1, int(F[L.H_NB]) + 1)]
    assert L.FIXED not in types
    parents = [int(F[L.body_offset(i) + L.PARENT]) for i in range(1, int(F[L.H_NB]) + 1)]
    assert all(p < i for i, p in enumerate(parents, start=1))

    def on_world(i):  # rigidly attached to the world: no dynamics of its own
        while i > 0 and model.joint_type[i] == L.FIXED:
            i = int(model.parent[i])
        return i == 0

    assert on_world(1)
    carried = sum(model.mass[i] for i in range(1, model.nb + 1) if not on_world(i))
    moving = sum(F[L.body_offset(i) + L.MASS] for i in range(1, int(F[L.H_NB]) + 1))
    assert moving == pytest.approx(carried, rel=1e-14)
    arm = es.zoo.load("puma560")
    assert arm.packed_dynamics is arm.packed


def test_public_functions_read_the_folded_array_and_per_body_results_the_full_one():
    model = _model("RFFRFPFRF")
    rng = np.random.default_rng(2)
    q = es.random_configuration(model, rng)
    qd, qdd = rng.normal(size=model.nv), rng.normal(size=model.nv)
    tau = np.empty(model.nv)
    P = model.packed
    _d.rnea_one(P, q, qd, qdd, 1.0, None, tau, extended_of(P))
    np.testing.assert_allclose(es.inverse_dynamics(model, q, qd, qdd), tau, rtol=1e-12, atol=1e-12)
    trace = es.rnea_trace(model, q, qd, qdd)
    np.testing.assert_allclose(trace.tau, tau, rtol=1e-12, atol=1e-12)
    assert len(es.forward_kinematics(model, q)) == model.nb + 1  # every body's pose
