"""Rojas (1987) §2.3: the generalized Grübler–Kutzbach mobility over Hervé's displacement
subgroups, beside nv − rank J of the constraint Jacobian (``eslabon.constraints.mobility``)."""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from eslabon import constraints as ec
from eslabon.constraints.mobility import _subgroup
from eslabon.model import ModelBuilder


@pytest.mark.source("Rojas (1987)", "§2.3, the generalized Grübler–Kutzbach formula")
@pytest.mark.parametrize(
    "name, d, expected",
    [
        # the textbook mobilities of these mechanisms
        ("four_bar", 3, 1),
        ("slider_crank", 3, 1),
        ("five_bar", 3, 2),
        ("andrews_squeezer", 3, 1),
        ("delta", 6, 3),
        ("stewart", 6, 6),
    ],
)
def test_the_count_gives_the_known_mobility_and_the_jacobian_agrees(name, d, expected):
    m = ec.mobility(es.zoo.load(name))
    assert m.d == d
    assert m.grubler_kutzbach == expected == m.jacobian_mobility
    # the formula, term by term
    assert m.grubler_kutzbach == m.d * (m.links - 1) - sum(m.d - p.freedom for p in m.pairs)
    assert "agree" in m.explanation


def test_a_tree_counts_its_joints_and_contacts_count_as_pairs_with_the_ground():
    arm = es.zoo.load("puma560")
    m = ec.mobility(arm)
    assert m.grubler_kutzbach == m.jacobian_mobility == arm.nv and m.rows == 0
    dog = ec.mobility(es.zoo.load("quadruped"))  # a free base on four point feet
    assert dog.d == 6 and dog.grubler_kutzbach == dog.jacobian_mobility == 18 - 12
    assert sum(p.kind == "contact" for p in dog.pairs) == 4


@pytest.mark.source("Rojas (1987)", "§2.3: exceptional and paradoxical chains (Bennett 1903)")
def test_bennetts_linkage_moves_where_the_count_says_it_cannot():
    bennett = es.zoo.load("bennett")
    m = ec.mobility(bennett)
    assert (m.d, m.links, len(m.pairs)) == (6, 4, 4)
    assert m.grubler_kutzbach == 6 * 3 - 4 * 5 == -2
    assert m.jacobian_mobility == 1 and (m.rank, m.rows) == (2, 5)
    assert "over-constrained" in m.explanation and len(m.redundant_rows) == 3
    # it does move: drive joint 1 and close the loop; Bennett's relation holds along it
    alpha, beta = np.pi / 6, np.pi / 3
    k = np.sin((beta + alpha) / 2) / np.sin((beta - alpha) / 2)
    for step in (0.2, 0.5):
        state = ec.close_state(bennett, es.neutral(bennett), [0], [step])
        q = state.q
        assert np.abs(ec.constraint_residual(bennett, q)).max() < 1e-10
        t1, t2 = 0.7 + q[0], 2 * np.arctan(k / np.tan(0.7 / 2)) + q[1]
        assert np.tan(t1 / 2) * np.tan(t2 / 2) == pytest.approx(k, rel=1e-8)
        assert q[2] == pytest.approx(-q[0], abs=1e-9)  # θ3 = 2π − θ1


def _rssr():
    """Ground–R–crank–S–coupler–S–rocker–R–ground, closed at q = 0."""
    A, B, D = np.array([0.2, 0, 0]), np.array([1.0, 0.4, 0.5]), np.array([1.0, 0.0, 0.5])
    rod = dict(mass=1.0, com=(0.1, 0, 0), inertia=np.diag([1e-3, 1e-2, 1e-2]))
    b = ModelBuilder()
    crank = b.add_body(0, "R", axis=(0, 0, 1), name="crank", **rod)
    coupler = b.add_body(crank, "spherical", translation=A, name="coupler", **rod)
    rocker = b.add_body(0, "R", axis=(1, 0, 0), translation=D, name="rocker", **rod)
    b.add_frame("coupler_end", coupler, translation=B - A)
    b.add_frame("rocker_tip", rocker, translation=B - D)
    b.add_constraint(ec.LoopClosure("ball", "rocker_tip", "coupler_end", "point"))
    return b.build(name="rssr")


@pytest.mark.source("Rojas (1987)", "§2.3: the RSSR's passive freedom, m = 1")
def test_the_rssr_coupler_spin_is_the_passive_freedom():
    model = _rssr()
    assert np.abs(ec.constraint_residual(model, es.neutral(model))).max() < 1e-14
    m = ec.mobility(model)
    assert m.passive == 1
    assert m.grubler_kutzbach == 6 * 3 - (5 + 3 + 5 + 3) - 1 == 1
    assert m.jacobian_mobility == 2  # the Jacobian keeps the coupler's spin
    assert "passive" in m.explanation


def test_the_subgroups_are_told_apart():
    rng = np.random.default_rng(4)

    def rotation(axis, point):
        return np.concatenate([axis, np.cross(point, axis)])

    c = rng.normal(size=3)
    spherical = np.column_stack(
        [rotation(a / np.linalg.norm(a), c) for a in rng.normal(size=(4, 3))]
    )
    assert _subgroup(spherical, 1.0)[:2] == (3, "spherical motion (g_S)")
    e = np.array([0.0, 0.0, 1.0])
    planar = np.column_stack(
        [rotation(e, np.r_[rng.normal(size=2), 0.0]) for _ in range(3)]
        + [np.r_[0, 0, 0, 1.0, 1.0, 0]]
    )
    assert _subgroup(planar, 1.0)[0] == 3 and "planar" in _subgroup(planar, 1.0)[1]
    schoenflies = np.column_stack([planar, np.r_[0, 0, 0, 0, 0, 1.0]])
    assert _subgroup(schoenflies, 1.0)[0] == 4
    translations = np.vstack([np.zeros((3, 3)), rng.normal(size=(3, 3))])
    assert _subgroup(translations, 1.0)[0] == 3
    assert _subgroup(np.column_stack([spherical, planar]), 1.0)[0] == 6


def test_mimic_models_are_refused():
    arm = es.zoo.load("planar2")
    geared = arm.replace(mimic_joint=np.array([-1, -1, 1]))  # joint 2 copies joint 1
    with pytest.raises(ValueError, match="mimic"):
        ec.mobility(geared)


@pytest.mark.source("Rojas (1987)", "§2.3: the count beside the Jacobian's mobility")
def test_reproduce_prints_each_mechanisms_two_mobilities_and_why_they_differ():
    from eslabon.reproduce.mechanism_mobility import MECHANISMS, report

    data, lines = report()
    for name in MECHANISMS:
        m = ec.mobility(es.zoo.load(name))
        assert data[name]["grubler_kutzbach"] == m.grubler_kutzbach
        assert data[name]["jacobian_mobility"] == m.jacobian_mobility
        assert any(line.split()[:1] == [name] for line in lines)
    differ = [n for n in MECHANISMS if data[n]["grubler_kutzbach"] != data[n]["jacobian_mobility"]]
    assert differ == ["bennett"]
    assert any(line.startswith("  bennett: over-constrained") for line in lines)
    # Bennett's two numbers without ec.mobility: Grübler–Kutzbach 6(n − 1) − 5j over
    # n = 4 links and j = 4 revolute pairs, and nv − rank of the constraint Jacobian at an
    # assembled configuration (singular values 1.6, 0.53 and ~1e-16: the rank is clear)
    assert data["bennett"]["grubler_kutzbach"] == 6 * (4 - 1) - 5 * 4 == -2
    bennett = es.zoo.load("bennett")
    q = ec.assemble(bennett, es.neutral(bennett) + 0.3, fixed=[0])
    sv = np.linalg.svd(ec.constraint_jacobian(bennett, q), compute_uv=False)
    rank = int(np.sum(sv > 1e-9 * sv[0]))
    assert data["bennett"]["jacobian_mobility"] == bennett.nv - rank == 1
