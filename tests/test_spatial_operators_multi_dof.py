"""The spatial-operator form and the constraint-force forward dynamics of Jaramillo Botero
(1998) (seeds 002/004, (1.55)–(1.103), Figures 7 and 8) with joint maps H_i of several
columns, as the document writes them (6 × n_dof): spherical and free-flyer joints, and
helical ones, on serial chains; checked against the compiled kernels (composite body,
Newton–Euler, ABA) and by the Schur identity M⁻¹ = C − BᵀA⁻¹B (1.102)."""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from eslabon.dynamics import soa

CHAINS = ["BRHSRPR", "SRRHSRP", "BSHRP", "RSRFRS", "BRRRRRR", "HHPS"]


def _chain(seed, letters):
    """A serial chain of the random tree's bodies (every parent the previous body), no
    rotor inertia (the constraint-force method has none)."""
    tree = es.zoo.random_tree(seed, letters, friction=False)
    return tree.replace(parent=np.arange(-1, tree.nb), armature=np.zeros(tree.nb + 1))


def _rel(a, b):
    return np.abs(np.asarray(a) - b).max() / max(1.0, np.abs(b).max())


@pytest.mark.parametrize("seed, letters", list(enumerate(CHAINS)), ids=CHAINS)
def test_every_operator_form_agrees_with_the_kernels(seed, letters):
    model = _chain(seed, letters)
    rng = np.random.default_rng(seed)
    for _ in range(3):
        q = es.random_configuration(model, rng)
        qd, qdd = rng.normal(size=model.nv), rng.normal(size=model.nv)
        tau = es.inverse_dynamics(model, q, qd, qdd)
        M = es.mass_matrix(model, q)
        Mo, xi = soa.operator_terms(model, q, qd)  # (1.71), (1.72)
        assert _rel(Mo, M) < 1e-12
        assert _rel(xi, es.bias_forces(model, q, qd)) < 1e-12
        assert _rel(es.mass_matrix(model, q, algorithm="soa"), M) < 1e-12
        assert _rel(es.forward_dynamics(model, q, qd, tau, algorithm="soa"), qdd) < 1e-10
        blocks = soa.schur_blocks(model, q)  # (1.102)
        Minv = blocks.C - blocks.B.T @ np.linalg.solve(blocks.A, blocks.B)
        assert _rel(Minv, np.linalg.inv(M)) < 1e-10


def test_a_free_flying_base_has_a_six_column_map_and_no_complement():
    model = _chain(0, "BRRRRRR")
    q = es.random_configuration(model, np.random.default_rng(1))
    d = soa.chain_data(model, q, np.zeros(model.nv))
    R = es.forward_kinematics(model, q)[1, :3, :3]
    # (v, ω) in body axes -> [ω; v] of O_1 in world axes
    np.testing.assert_allclose(d.H[0], np.block([[np.zeros((3, 3)), R], [R, np.zeros((3, 3))]]))
    assert soa.complement(d.H[0]).shape == (6, 0)
    assert [h.shape[1] for h in d.H] == [6, 1, 1, 1, 1, 1, 1]


def test_a_helical_joint_splits_its_force_through_h_bar(monkeypatch):
    """H = [e; h e] has norm √(1 + h²): the split (1.89) as printed (H̄ = H) gives a wrong
    q̈ on a helical chain; with H̄ = H (HᵀH)⁻¹ it is the ABA's."""
    model = _chain(5, "HHPS")
    d = soa.chain_data(model, es.neutral(model), np.zeros(model.nv))
    H = d.H[0]
    assert abs(H[:, 0] @ H[:, 0] - 1.0 - model.pitch[1] ** 2) < 1e-12
    rng = np.random.default_rng(4)
    q = es.random_configuration(model, rng)
    qd, tau = rng.normal(size=(2, model.nv))
    ref = es.forward_dynamics(model, q, qd, tau)
    assert _rel(soa.forward_dynamics(model, q, qd, tau), ref) < 1e-10
    monkeypatch.setattr(soa, "force_map", lambda Hi: Hi)  # the split as printed
    assert _rel(soa.forward_dynamics(model, q, qd, tau), ref) > 1e-3


@pytest.mark.parametrize("letters, kind", [("RURR", "universal"), ("RRLR", "planar")])
def test_joints_whose_map_turns_with_them_are_refused_by_name(letters, kind):
    model = _chain(0, letters)
    q, v = es.neutral(model), np.zeros(model.nv)
    body = model.body_names[model.joint_types.index(kind) + 1]
    pattern = rf"algorithm='soa'\).*H_i is fixed.*'{body}' is {kind}"
    with pytest.raises(ValueError, match=pattern):
        es.forward_dynamics(model, q, v, v, algorithm="soa")
    with pytest.raises(ValueError, match=rf"algorithm='soa'\).*'{body}' is {kind}"):
        es.mass_matrix(model, q, algorithm="soa")


def test_crosscheck_runs_the_operator_forms_on_a_floating_chain():
    model = _chain(2, "BSHRP")
    report = es.crosscheck(model)
    assert report.ok, report.table()
    ran = {c.name for c in report.checks if not c.skipped}
    assert {
        "operator M q̈ + ξ (seeds 002/004)",
        "operator-form composite body",
        "operator Hᵀ ρ I ρᵀ H",
        "constraint forces (Macro Algoritmo)",
    } <= ran
