"""Jaramillo Botero (1998)'s operator and constraint-force forms on trees
(eslabon.constraints.operator_tree): the tree's path operator φ, M = Hᵀ φ I φᵀ H,
ξ and τ against the compiled composite-rigid-body and Newton–Euler kernels, the joints'
spatial forces against the kinematics kernel and a sum over each subtree, and q̈ by the
Schur complement on the tree's K against the articulated-body algorithm."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import eslabon as es
from eslabon.constraints import operator_tree as ot
from eslabon.kinematics.kinematic_pass import kinematic_pass
from eslabon.spatial.spatial6 import translation_operator

pytestmark = pytest.mark.source(
    "Jaramillo Botero (1998)", "(1.62)–(1.73); El problema dinámico directo, (1.88)–(1.103)"
)

TREES = ("quadruped", "humanoid", "andrews_squeezer", "five_bar", "slider_crank")
INVERTIBLE = ("quadruped", "andrews_squeezer", "five_bar", "slider_crank")


def _state(name, seed=0):
    model = es.zoo.load(name)
    rng = np.random.default_rng(seed)
    q = es.random_configuration(model, rng)
    return model, q, *(rng.normal(size=model.nv) for _ in range(3))


def _rel(a, b):
    return np.abs(a - b).max() / np.abs(b).max()


@pytest.mark.parametrize("name", TREES)
def test_the_path_operator_is_the_inverse_of_P_and_zero_off_the_ancestry(name):
    model, q, v, _, _ = _state(name)
    d = ot.tree_data(model, q, v)
    P, phi = ot.path_operator(d)
    np.testing.assert_allclose(P @ phi, np.eye(6 * model.nb), atol=1e-12)
    for k in range(model.nb):
        ancestors, j = set(), k
        while j >= 0:
            ancestors.add(j)
            j = d.parent[j]
        for j in range(model.nb):
            block = phi[6 * j : 6 * j + 6, 6 * k : 6 * k + 6]
            assert (np.abs(block).max() > 0) == (j in ancestors)


@pytest.mark.parametrize("name", TREES)
def test_operator_form_gives_crba_and_rnea_on_trees(name):
    model, q, v, a, _ = _state(name)
    M, xi = ot.operator_terms(model, q, v)
    assert _rel(M, es.mass_matrix(model, q)) < 1e-12
    assert _rel(xi, es.bias_forces(model, q, v)) < 1e-12
    tau = es.inverse_dynamics(model, q, v, a)
    assert _rel(ot.inverse_dynamics(model, q, v, a).tau, tau) < 1e-12
    ops = ot.tree_operators(model, q, v)  # the dense products (1.69)–(1.70)
    Vd = ops.phi.T @ (ops.H @ a + ops.B)
    dense = ops.H.T @ ops.phi @ (ops.I @ Vd + ops.G)
    armature = model.armature[model.dof_bodies]
    friction = model.viscous[model.dof_bodies] * v + model.coulomb[model.dof_bodies] * np.sign(v)
    assert _rel(dense + armature * a + friction, tau) < 1e-12


@pytest.mark.parametrize("name", ("quadruped", "humanoid"))
def test_joint_forces_balance_each_subtree_and_split_on_h_and_w(name):
    """V̇_i equals the kinematics kernel's [ω̇; a − g]; F_i is the sum over body i's
    subtree of P̂(O_d − O_i)(I_d V̇_d + ℘_d − F_ext,d); F_i = H̄_i τ_i + W_i F_S,i."""
    model, q, v, a, _ = _state(name, seed=3)
    rng = np.random.default_rng(4)
    ext = rng.normal(size=(model.nb, 6))
    out = ot.inverse_dynamics(model, q, v, a, body_forces=ext)
    kp = kinematic_pass(model, q, v, a)
    R = kp.world_rotation[1:]
    wd = (R @ kp.angular_acceleration[1:, :, None])[..., 0]
    lin = (R @ kp.linear_acceleration[1:, :, None])[..., 0] - model.gravity
    np.testing.assert_allclose(out.acceleration, np.hstack([wd, lin]), atol=1e-10)
    d = ot.tree_data(model, q, v)
    own = np.einsum("nij,nj->ni", d.inertia, out.acceleration) + d.gyroscopic - ext
    for i in range(model.nb):
        total = np.zeros(6)
        for k in range(model.nb):
            j = k
            while j >= 0 and j != i:
                j = d.parent[j]
            if j == i:
                total += translation_operator(d.origins[k] - d.origins[i]) @ own[k]
        np.testing.assert_allclose(out.joint_force[i], total, atol=1e-9 * np.abs(own).max())
        Hbar, W = es.dynamics.soa.force_map(d.H[i]), es.dynamics.soa.complement(d.H[i])
        tau_i = d.H[i].T @ out.joint_force[i]
        start = sum(6 - Hj.shape[1] for Hj in d.H[:i])
        FS_i = out.constraint_force[start : start + W.shape[1]]
        np.testing.assert_allclose(Hbar @ tau_i + W @ FS_i, out.joint_force[i], atol=1e-10)
    assert out.constraint_force.size == sum(6 - Hj.shape[1] for Hj in d.H)


@pytest.mark.parametrize("name", INVERTIBLE)
def test_constraint_force_form_on_trees_gives_aba_with_no_fill(name):
    model, q, v, _, tau = _state(name, seed=1)
    qdd = ot.forward_dynamics(model, q, v, tau)
    assert _rel(qdd, es.forward_dynamics(model, q, v, tau)) < 1e-11
    solver = ot.ConstraintForceSolver(model, q)
    M_inv = np.column_stack([solver.solve(e) for e in np.eye(model.nv)])  # (1.102)
    np.testing.assert_allclose(M_inv @ es.mass_matrix(model, q), np.eye(model.nv), atol=1e-9)
    assert solver.fill == 0  # leaves first: a body's neighbours are already joined


def test_body_forces_enter_as_their_generalized_forces():
    """F_ext on the bodies: q̈ equals ABA with τ + Σ J_iᵀ F_ext,i (J_i the body's world
    Jacobian at its origin, [angular; linear])."""
    model, q, v, _, tau = _state("quadruped", seed=2)
    ext = np.random.default_rng(9).normal(size=(model.nb, 6))
    generalized = sum(
        es.jacobian(model, q, model.body_names[i + 1], reference="world").T @ ext[i]
        for i in range(model.nb)
    )
    qdd = ot.forward_dynamics(model, q, v, tau, body_forces=ext)
    assert _rel(qdd, es.forward_dynamics(model, q, v, tau + generalized)) < 1e-11


def test_refusals_name_what_is_missing():
    model, q, v, _, tau = _state("humanoid")
    with pytest.raises(ValueError, match="armature"):
        ot.forward_dynamics(model, q, v, tau)
    with pytest.raises(ValueError, match="singular 6×6 inertia"):
        ot.ConstraintForceSolver(model, q)
    delta = es.zoo.load("delta")
    with pytest.raises(ValueError, match="universal"):
        ot.tree_data(delta, np.zeros(delta.nq), np.zeros(delta.nv))
    quad = es.zoo.load("quadruped")
    with pytest.raises(ValueError, match="body_forces"):
        ot.inverse_dynamics(quad, *_state("quadruped")[1:4], body_forces=np.zeros((2, 6)))
    with pytest.raises(ValueError, match="qd"):
        ot.tree_data(quad, es.random_configuration(quad), np.zeros(3))


ROBOTS = ("solo12", "anymal", "talos", "g1")


def _robot(name):
    from checks import example_robot_data_root

    if example_robot_data_root() is None:
        pytest.skip("example-robot-data is not installed")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # anymal's base inertia is implausible (its own data)
        return es.robots.load(name)


@pytest.mark.parametrize("name", ROBOTS)
def test_real_robots_with_fixed_bodies_folded(name):
    """Sensor frames and massless links on fixed joints (no I⁻¹ of their own) are folded
    into their parents; q̈ then equals ABA, and M equals CRBA."""
    model = _robot(name)
    rng = np.random.default_rng(6)
    q = es.random_configuration(model, rng)
    v, tau = rng.normal(size=model.nv), rng.normal(size=model.nv)
    assert _rel(ot.operator_terms(model, q, v)[0], es.mass_matrix(model, q)) < 1e-12
    solver = ot.ConstraintForceSolver(model, q)
    assert len(solver.data.parent) < model.nb  # something was folded
    assert (
        _rel(ot.forward_dynamics(model, q, v, tau), es.forward_dynamics(model, q, v, tau)) < 1e-11
    )
    assert solver.fill == 0


@pytest.mark.parametrize("name", ("quadruped", "humanoid", "solo12"))
def test_joint_forces_equal_pinocchios(name):
    """F_i against Pinocchio's data.f after rnea (the force through joint i in its
    frame, [linear; angular]), rotated to world axes: same point, O_i."""
    pin = pytest.importorskip("pinocchio")
    from eslabon.interop.pinocchio import configuration_order, dof_order, to_pinocchio

    model = _robot(name) if name == "solo12" else es.zoo.load(name)
    pm = to_pinocchio(model)
    data = pm.createData()
    rng = np.random.default_rng(8)
    q = es.random_configuration(model, rng)
    v, a = rng.normal(size=model.nv), rng.normal(size=model.nv)
    qo, vo = configuration_order(model), dof_order(model)
    pin.rnea(pm, data, q[qo], v[vo], a[vo])
    forces = [f.copy() for f in data.f]
    pin.forwardKinematics(pm, data, q[qo])
    ours = ot.inverse_dynamics(model, q, v, a)
    scale = np.abs(ours.joint_force).max()
    compared = 0
    for i in range(1, model.nb + 1):
        if not pm.existJointName(model.joint_names[i]):
            continue  # a fixed joint, merged by the twin
        j = pm.getJointId(model.joint_names[i])
        R = data.oMi[j].rotation
        theirs = np.r_[R @ forces[j].angular, R @ forces[j].linear]
        np.testing.assert_allclose(ours.joint_force[i - 1], theirs, atol=1e-12 * scale)
        compared += 1
    assert compared == model.nv - 5  # every moving joint (the free flyer counts once)


def test_batches_are_the_single_states_stacked():
    model = es.zoo.load("quadruped")
    rng = np.random.default_rng(11)
    q = np.array([es.random_configuration(model, rng) for _ in range(3)])
    v, a = rng.normal(size=(3, model.nv)), rng.normal(size=(3, model.nv))
    M, xi = ot.operator_terms(model, q, v)
    out = ot.inverse_dynamics(model, q, v, a)
    qdd = ot.forward_dynamics(model, q, v, a)
    for k in range(3):
        np.testing.assert_array_equal(M[k], ot.operator_terms(model, q[k], v[k]).M)
        np.testing.assert_array_equal(
            out.joint_force[k], ot.inverse_dynamics(model, q[k], v[k], a[k]).joint_force
        )
        np.testing.assert_array_equal(qdd[k], ot.forward_dynamics(model, q[k], v[k], a[k]))
    assert xi.shape == (3, model.nv) and out.constraint_force.shape[0] == 3


def test_a_small_but_regular_body_is_not_refused():
    """The singular-inertia test is relative to the body's own moments: a 1 g body of
    1e-13 kg·m² moments (a sensor, a link in mm units) is regular and solves."""
    from eslabon.model import ModelBuilder

    b = ModelBuilder()
    i = b.add_body(0, "R", axis=(0, 0, 1), mass=2.0, inertia=np.diag([0.2, 0.3, 0.1]))
    i = b.add_body(i, "R", axis=(0, 1, 0), translation=(0.3, 0, 0), mass=1.0, inertia=np.eye(3))
    tip = {"mass": 1e-3, "inertia": 1e-13 * np.eye(3), "com": (0.1, 0, 0)}
    b.add_body(i, "R", axis=(0, 0, 1), translation=(0.2, 0, 0), **tip)
    model = b.build(name="small_tip")
    rng = np.random.default_rng(3)
    q, v, tau = rng.normal(size=3), rng.normal(size=3), rng.normal(size=3)
    qdd = ot.forward_dynamics(model, q, v, tau)  # the constraint-force form
    # the form inverts each 6×6 inertia: the tip's has κ ≈ 1e10 (1e-3 kg beside
    # 1e-13 kg·m²), so agreement to ~κ eps ≈ 1e-6 (6e-9 here)
    assert _rel(qdd, es.forward_dynamics(model, q, v, tau)) < 1e-6
