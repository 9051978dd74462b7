"""The published arms of ``eslabon.zoo.arms`` (Puma 560, Panda), the public random chain
generator, and the Pinocchio bridge's behaviour without Pinocchio.

* Puma 560 at q = 0 (the toolbox's ``qz``): gravity load [0, 37.483667, 0.248929, 0, 0, 0]
  N·m, the value Corke's Robotics Toolbox prints for ``p560.gravload(qz)`` with the same
  rigid-body data.
* Both arms against Pinocchio (``pin.rnea``, ``pin.crba``, ``pin.aba``) through
  ``eslabon.interop.pinocchio.to_pinocchio`` on seeded random states; skipped without pin.
* ``zoo.random_chain(n)`` for n up to 96.
"""

from __future__ import annotations

import builtins
import importlib.util

import numpy as np
import pytest

import eslabon as es
from eslabon import zoo

HAVE_PIN = importlib.util.find_spec("pinocchio") is not None
ARMS = ("puma560", "panda")


# --- the data as published ---------------------------------------------------------------


def test_puma560_gravity_load_at_qz():
    model = zoo.load("puma560")
    g = es.gravity_torques(model, np.zeros(6))
    np.testing.assert_allclose(g, [0.0, 37.483667, 0.248929, 0.0, 0.0, 0.0], rtol=0, atol=1e-5)


def test_puma560_data_properties():
    """Link 1 massless with inertia; link 3 breaks the triangle inequality; M is still SPD."""
    model = zoo.load("puma560")
    assert model.nq == 6 and model.dh.convention == "standard"
    assert model.mass[1] == 0.0 and np.trace(model.inertia[1]) > 0.0
    I3 = np.diag(model.dh.rows[2]["inertia"])
    assert I3[0] + I3[2] < I3[1]
    np.testing.assert_allclose(model.mass[1:].sum(), 23.45)
    rng = np.random.default_rng(5)
    for q in rng.uniform(-np.pi, np.pi, (20, 6)):
        assert np.linalg.eigvalsh(es.mass_matrix(model, q)).min() > 0.0


def test_panda_data():
    model = zoo.load("panda")
    assert model.nq == 7 and model.dh.convention == "modified"
    np.testing.assert_allclose(model.mass[1:].sum(), 16.062132, rtol=0, atol=1e-9)
    for i in range(1, 8):  # products of inertia are kept
        I = model.inertia[i]
        assert np.count_nonzero(I - np.diag(np.diag(I))) == 6
        ev = np.linalg.eigvalsh(I)  # Gaz et al. retrieve physically feasible data
        assert ev[0] > 0.0 and ev[0] + ev[1] >= ev[2]
    # the flange is the tool: ee is 0.107 m along z7 from DH frame 7
    q = np.random.default_rng(2).uniform(-1, 1, 7)
    T7 = es.kinematics.frame_pose(model, q, "dh7")
    Tee = es.end_effector_pose(model, q)
    np.testing.assert_allclose(Tee[:3, :3], T7[:3, :3], atol=1e-12)
    np.testing.assert_allclose(Tee[:3, 3], T7[:3, 3] + 0.107 * T7[:3, 2], atol=1e-12)


def test_panda_zero_pose_geometry():
    """At q = 0 the flange is at (0.088, 0, 0.926) m pointing down (FCI kinematics)."""
    T = es.end_effector_pose(zoo.load("panda"), np.zeros(7))
    np.testing.assert_allclose(T[:3, 3], [0.088, 0.0, 0.333 + 0.316 + 0.384 - 0.107], atol=1e-12)
    np.testing.assert_allclose(T[:3, 2], [0.0, 0.0, -1.0], atol=1e-12)


@pytest.mark.parametrize("name", ARMS)
def test_arms_are_rigid_and_frictionless(name):
    model = zoo.load(name)
    assert not np.any(model.viscous) and not np.any(model.coulomb)
    assert not np.any(model.armature) and not model.has_moving_com
    np.testing.assert_allclose(model.gravity, [0.0, 0.0, -9.81])
    assert "Gaz" in zoo.describe(name) or "Corke" in zoo.describe(name)


# --- Pinocchio -----------------------------------------------------------------------------


@pytest.mark.skipif(not HAVE_PIN, reason="pinocchio (pin) not installed")
@pytest.mark.parametrize("name", ARMS)
def test_arms_against_pinocchio(name):
    import pinocchio as pin

    from eslabon.interop.pinocchio import to_pinocchio

    model = zoo.load(name)
    pm = to_pinocchio(model)
    data = pm.createData()
    rng = np.random.default_rng(2019)
    n = model.nq
    for _ in range(8):
        q, qd, qdd = rng.uniform(-np.pi, np.pi, n), rng.normal(0, 1.5, n), rng.normal(0, 3, n)
        tau = pin.rnea(pm, data, q, qd, qdd).copy()
        M = pin.crba(pm, data, q).copy()
        M = np.triu(M) + np.triu(M, 1).T
        scale = max(1.0, np.abs(tau).max())
        np.testing.assert_allclose(
            es.inverse_dynamics(model, q, qd, qdd), tau, rtol=0, atol=1e-9 * scale
        )
        np.testing.assert_allclose(
            es.mass_matrix(model, q), M, rtol=0, atol=1e-9 * max(1.0, np.abs(M).max())
        )
        acc = pin.aba(pm, data, q, qd, tau).copy()
        np.testing.assert_allclose(
            es.forward_dynamics(model, q, qd, tau),
            acc,
            rtol=0,
            atol=1e-9 * max(1.0, np.abs(acc).max()),
        )
        np.testing.assert_allclose(acc, qdd, rtol=0, atol=1e-8 * max(1.0, np.abs(qdd).max()))


def test_interop_imports_without_pinocchio(monkeypatch):
    """Importing the bridge never needs pin; calling to_pinocchio without it says how to
    install it. body_order/dof_order are plain numpy."""
    from eslabon.interop import pinocchio as bridge

    real_import = builtins.__import__

    def no_pin(name, *args, **kwargs):
        if name == "pinocchio" or name.startswith("pinocchio."):
            raise ImportError("No module named 'pinocchio'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pin)
    model = zoo.load("planar2")
    np.testing.assert_array_equal(bridge.dof_order(model), [0, 1])
    with pytest.raises(
        ImportError,
        match=r"pinocchio: install the 'bench' or 'test' extra: "
        r"pip install eslabon\[bench\]",
    ):
        bridge.to_pinocchio(model)


# --- random chains -----------------------------------------------------------------------


@pytest.mark.parametrize("n", (6, 24, 96))
def test_random_chain_sizes(n):
    model = zoo.random_chain(n)
    assert model.nq == n
    q = np.random.default_rng(n).uniform(-1, 1, (3, n))
    M = es.mass_matrix(model, q)
    assert np.all(np.linalg.eigvalsh(M)[:, 0] > 0)
    tau = es.inverse_dynamics(model, q, q, q)
    scale = max(1.0, np.abs(q).max())
    np.testing.assert_allclose(es.forward_dynamics(model, q, q, tau), q, rtol=0, atol=1e-6 * scale)


def test_random_chain_is_seeded_and_frictionless_by_default():
    a, b = zoo.random_chain(7, seed=4), zoo.random_chain(7, seed=4)
    np.testing.assert_array_equal(a.packed, b.packed)
    assert not np.any(a.viscous) and not np.any(a.coulomb) and not np.any(a.armature)
    c = zoo.random_chain(7, seed=4, friction=True)
    assert np.any(c.viscous) and np.any(c.coulomb)
    np.testing.assert_array_equal(a.mass, c.mass)  # friction changes nothing else
    assert zoo.random_chain(5, seed=1, convention="rojas", joints="RRPRR").joint_types == (
        "revolute",
        "revolute",
        "prismatic",
        "revolute",
        "revolute",
    )


@pytest.mark.parametrize(
    "kwargs, field",
    [
        (dict(n=0), "n"),
        (dict(n=2.5), "n"),
        (dict(n=3, seed=-1), "seed"),
        (dict(n=3, convention="craig"), "convention"),
        (dict(n=3, joints="RR"), "joints"),
        (dict(n=3, joints="RXR"), "joints"),
    ],
)
def test_random_chain_bad_arguments(kwargs, field):
    with pytest.raises(ValueError, match=f"^{field}:"):
        zoo.random_chain(**kwargs)


# --- random trees ------------------------------------------------------------------------


def test_random_tree_is_seeded_and_branches():
    a, b = zoo.random_tree(5), zoo.random_tree(5)
    np.testing.assert_array_equal(a.packed, b.packed)
    assert a.name == "random-tree-s5" and a.nq == 7  # "RFPRRFPRR": two fixed bodies
    assert list(a.parent[1:4]) == [0, 1, 2] and len(set(a.parent[1:])) < a.nb  # a tree
    assert np.all(a.viscous[1:] > 0) and np.all(a.armature[1:] > 0)  # body 0: the world
    c = zoo.random_tree(np.random.default_rng(5))  # a generator is used as it is
    np.testing.assert_array_equal(a.packed, c.packed)
    d = zoo.random_tree(5, "RPRF", friction=False, armature_chance=0.0, name="small")
    assert d.name == "small" and d.joint_types == ("revolute", "prismatic", "revolute")
    assert not np.any(d.viscous) and not np.any(d.coulomb) and not np.any(d.armature)
    q = np.random.default_rng(1).uniform(-1, 1, (3, a.nq))
    tau = es.inverse_dynamics(a, q, q, q)
    np.testing.assert_allclose(es.forward_dynamics(a, q, q, tau), q, rtol=0, atol=1e-9)


@pytest.mark.parametrize(
    "kwargs, field",
    [
        (dict(seed=-1), "seed"),
        (dict(seed=1.5), "seed"),
        (dict(joints=""), "joints"),
        (dict(joints="RXR"), "joints"),
        (dict(armature_chance=1.5), "armature_chance"),
        (dict(armature_chance="half"), "armature_chance"),
    ],
)
def test_random_tree_bad_arguments(kwargs, field):
    with pytest.raises(ValueError, match=f"^{field}:"):
        zoo.random_tree(**kwargs)
