"""Base parameters of eslabon.identification: counts against the literature and the
numerical rank, W_b β = τ, and independence from the random states."""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from eslabon.identification import (
    base_parameters,
    joint_torque_regressor,
    parameters,
)


def _stack(model, seed, n=40):
    rng = np.random.default_rng(seed)
    q = np.stack([es.random_configuration(model, rng) for _ in range(n)])
    qd, qdd = rng.uniform(-2, 2, (2, n, model.nv))
    return q, qd, qdd


@pytest.mark.parametrize(("name", "published"), [("puma560", 36), ("panda", 43)])
def test_base_parameter_counts_are_the_published_ones_and_the_rank(name, published):
    """Fixed base, gravity on, inertial parameters only: 36 for the PUMA 560 (Khalil &
    Dombre, *Modeling, Identification and Control of Robots*, 2002, §9.3), 43 for the
    Panda (Gaz, Cognetti, Oliva, Robuffo Giordano & De Luca 2019, "Dynamic identification
    of the Franka Emika Panda robot…", RA-L 4(4)); the count is also the rank of a stack
    of regressors at other random states, by SVD."""
    model = es.zoo.load(name)
    base = base_parameters(model, joint_terms=False)
    assert base.count == published
    q, qd, qdd = _stack(model, 99)
    W = joint_torque_regressor(model, q, qd, qdd)[..., : 10 * model.nb].reshape(-1, 10 * model.nb)
    norms = np.linalg.norm(W, axis=0)
    acting = norms > 1e-10 * norms.max()
    s = np.linalg.svd(W[:, acting] / norms[acting], compute_uv=False)
    rank = int(np.sum(s > 1e-8 * s[0]))
    assert rank == base.count
    assert s[rank - 1] > 1e-4 * s[0]  # a clear gap on both sides
    assert rank == len(s) or s[rank] < 1e-12 * s[0]


@pytest.mark.parametrize(
    "name", ["puma560", "panda", "planar2", "space_manipulator", "random_tree", "quadruped"]
)
def test_the_base_regressor_reproduces_the_torques(name):
    """τ = W_b β on states the base parameters were not computed from, friction and
    armature included; β = π_b + K π_d through ``map``."""
    model = es.zoo.random_tree(7, "BRRSRPRU") if name == "random_tree" else es.zoo.load(name)
    base = base_parameters(model)
    pi = parameters(model)
    beta = base.values(pi)
    assert beta.shape == (base.count,)
    np.testing.assert_allclose(
        beta, pi[base.independent] + base.K @ pi[base.dependent], rtol=1e-15, atol=1e-15
    )
    q, qd, qdd = _stack(model, 5, 6)
    tau = es.inverse_dynamics(model, q, qd, qdd)
    Wb = base.regressor(joint_torque_regressor(model, q, qd, qdd))
    assert np.abs(Wb @ beta - tau).max() <= 1e-10 * max(1.0, np.abs(tau).max())
    # every standard parameter is kept, regrouped or never acts, once
    every = np.sort(np.concatenate([base.independent, base.dependent, base.unidentifiable]))
    assert every.tolist() == list(range(len(pi)))


def test_the_result_does_not_depend_on_the_random_states():
    model = es.zoo.load("puma560")
    a = base_parameters(model, seed=0)
    b = base_parameters(model, seed=1, samples=80)
    assert a.independent.tolist() == b.independent.tolist()
    assert a.dependent.tolist() == b.dependent.tolist()
    assert np.abs(a.K - b.K).max() < 1e-9
    assert (a.K == 0).tolist() == (b.K == 0).tolist()
    assert a.expressions == b.expressions


def test_named_expressions_of_a_planar_arm():
    """The 2R arm in a vertical plane: Khalil & Dombre's six regrouped parameters, e.g.
    ZZ1R = ZZ1 + m2 l1² and MX1R = MX1 + m2 l1 (l1 the first link's length)."""
    model = es.zoo.load("planar2")
    l1 = float(np.linalg.norm(model.tree_translation[2]))
    base = base_parameters(model, joint_terms=False)
    assert base.count == 6
    names = base.names
    k = base.independent.tolist().index(names.index("link1.Izz"))
    m2 = names.index("link2.m")
    j = base.dependent.tolist().index(m2)
    assert base.K[k, j] == pytest.approx(l1**2, rel=1e-12)
    text = str(base)
    never, regrouped = len(base.unidentifiable), len(base.dependent)
    assert never + regrouped + 6 == 20  # the bodies' columns only
    assert text.splitlines()[0] == (
        f"6 base parameters of 20 standard ones ({never} never act on τ, "
        f"{regrouped} regrouped into others):"
    )
    assert "link1.Izz + " in text


def test_an_ambiguous_rank_is_refused():
    """A second joint axis tilted by 1e-5 rad from the first: some columns are then of
    the order of the tilt squared, 1e-10 of the others, acting in exact arithmetic but
    only just, and the count would hang on where round-off is cut."""
    model = es.zoo.load("planar2")
    axis = model.axis.copy()
    assert axis[2].tolist() == [0.0, 0.0, 1.0]
    axis[2] = [1e-5, 0.0, 1.0]
    tilted = model.replace(axis=axis)
    with pytest.raises(ValueError, match="neither clearly"):
        base_parameters(tilted, joint_terms=False)


def test_puma_regroupings_carry_the_dh_lengths_exactly():
    """The Puma 560's first moments along x regroup the outer links' masses with the DH
    link lengths as coefficients (a2 into link2.mx, a3 into link3.mx), to round-off:
    the map is exact, not fitted."""
    model = es.zoo.load("puma560")
    rows = model.dh.rows
    base = base_parameters(model, joint_terms=False)
    names = base.names
    dependent = base.dependent.tolist()
    for link, outer, length in (
        (2, (3, 4, 5, 6), rows[1]["a"]),
        (3, (4, 5, 6), rows[2]["a"]),
    ):
        k = base.independent.tolist().index(names.index(f"link{link}.mx"))
        for o in outer:
            j = dependent.index(names.index(f"link{o}.m"))
            assert base.K[k, j] == pytest.approx(length, rel=1e-12)
    assert base.expressions[k].startswith(f"link3.mx + {rows[2]['a']:.4g}·link4.m")
