"""Base parameters by the structural regrouping rules (Gautier & Khalil 1990; Khalil &
Dombre 2002, §9.3) against the numerical ones (QR of stacked regressors) and an SVD rank:
same count, same span, and the structural map reproduces the regressor exactly."""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from eslabon._engine.layout import FIXED
from eslabon.identification import (
    base_parameters,
    joint_torque_regressor,
    parameters,
    structural_base_parameters,
)
from eslabon.identification.parameters import inertia_matrix, inertia_vector
from eslabon.identification.regrouping import transfer_matrix


def _panda_arm():
    """example-robot-data's Panda with the two finger joints locked (closed): the 7-joint
    arm with the hand and fingers as one load on link 7, as Gaz et al. (2019) identify it."""
    panda = es.robots.load("panda")
    locked = panda.joint_type.copy()
    locked[[panda.joint_names.index("panda_finger_joint1"),
            panda.joint_names.index("panda_finger_joint2")]] = FIXED  # fmt: skip
    return panda.replace(joint_type=locked, mimic_joint=np.full(panda.nb + 1, -1))


def _wrist_urdf(tmp_path):
    """A 4R arm with axes along y, x, -y and z and offsets on every axis, random inertia."""
    rng = np.random.default_rng(3)
    links, joints = [], []
    axes = ["0 1 0", "1 0 0", "0 -1 0", "0 0 1"]
    for k in range(5):
        turn = np.linalg.qr(rng.standard_normal((3, 3)))[0]
        inertia = turn @ np.diag(rng.uniform(0.05, 0.1, 3)) @ turn.T  # I1 + I2 ≥ I3
        c = rng.uniform(-0.1, 0.1, 3)
        links.append(
            f'<link name="l{k}"><inertial><origin xyz="{c[0]} {c[1]} {c[2]}"/>'
            f'<mass value="{rng.uniform(0.5, 2)}"/><inertia ixx="{inertia[0, 0]}" '
            f'ixy="{inertia[0, 1]}" ixz="{inertia[0, 2]}" iyy="{inertia[1, 1]}" '
            f'iyz="{inertia[1, 2]}" izz="{inertia[2, 2]}"/></inertial></link>'
        )
    for k in range(4):
        xyz = rng.uniform(-0.3, 0.3, 3)
        joints.append(
            f'<joint name="j{k + 1}" type="revolute"><parent link="l{k}"/><child link="l{k + 1}"/>'
            f'<origin xyz="{xyz[0]} {xyz[1]} {xyz[2]}"/><axis xyz="{axes[k]}"/>'
            '<limit lower="-3" upper="3" effort="1" velocity="1"/></joint>'
        )
    path = tmp_path / "wrist.urdf"
    path.write_text(f'<robot name="wrist">{"".join(links + joints)}</robot>')
    return es.load_model(path)


def _regressor(model, seed=5, n=60):
    rng = np.random.default_rng(seed)
    q = np.stack([es.random_configuration(model, rng) for _ in range(n)])
    qd, qdd = rng.uniform(-2, 2, (2, n, model.nv))
    Y = joint_torque_regressor(model, q, qd, qdd)[..., : 10 * model.nb]
    return Y.reshape(-1, 10 * model.nb)


def _agree(model):
    structural = structural_base_parameters(model)
    numerical = base_parameters(model, joint_terms=False)
    columns = 10 * model.nb
    Y = _regressor(model)
    # the structural map is exact: Y = W_b map, so τ = W_b β for every π
    W_b = Y[:, structural.independent]
    scale = np.max(np.abs(Y))
    assert np.max(np.abs(Y - W_b @ structural.map[:, :columns])) <= 1e-12 * scale
    # and minimal: W_b has full column rank, as many columns as the SVD rank of Y
    norms = np.linalg.norm(Y, axis=0)
    acting = norms > 1e-10 * norms.max()  # the others are round-off (below 1e-15)
    s = np.linalg.svd(Y[:, acting] / norms[acting], compute_uv=False)
    rank = int(np.sum(s > 1e-8 * s[0]))
    assert rank == len(s) or s[rank] < 1e-12 * s[0]  # a clear gap
    return structural, numerical, rank


@pytest.mark.parametrize(
    "name", ["puma560", "panda", "planar2", "practica_6dof", "cincinnati_t3", "practica_pendulum3"]
)
def test_structural_and_numerical_base_parameters_agree(name):
    model = es.zoo.load(name)
    structural, numerical, rank = _agree(model)
    assert structural.count == numerical.count == rank
    # the same span: each set of base parameters is a combination of the other's
    both = np.vstack([structural.map, numerical.map])
    assert np.linalg.matrix_rank(both, tol=1e-9 * np.max(np.abs(both))) == rank
    assert set(structural.unidentifiable) == set(numerical.unidentifiable)


@pytest.mark.parametrize(("name", "published"), [("puma560", 36), ("panda_arm", 43)])
def test_counts_are_the_published_ones(name, published):
    """PUMA 560: 36 inertial base parameters without rotor inertias (Gautier & Khalil
    1990; Khalil & Dombre 2002, §9.3); Franka Panda: 43 (Gaz et al. 2019) for
    example-robot-data's arm with the fingers locked. By the rules, 10 n − 3 n (M, MZ, YY
    of each revolute link regrouped) − 6 (link 1 about the vertical keeps only ZZ)."""
    model = _panda_arm() if name == "panda_arm" else es.zoo.load(name)
    structural, numerical, rank = _agree(model)
    assert structural.count == numerical.count == rank == published
    n = model.nv
    assert structural.count == 10 * n - 3 * n - 6


def test_the_expressions_carry_the_geometry():
    """PUMA 560 (z axes, DH frames): the numerical QR picks the same leading parameters,
    so the two sets of expressions coincide term by term."""
    model = es.zoo.load("puma560")
    structural = structural_base_parameters(model)
    numerical = base_parameters(model, joint_terms=False)
    assert structural.expressions == numerical.expressions
    a2 = model.dh.rows[1]["a"]
    k = list(structural.independent).index(structural.names.index("link2.mx"))
    j = structural.names.index("link3.m")
    assert structural.map[k, j] == pytest.approx(a2, rel=1e-14)


def test_axes_along_x_and_y(tmp_path):
    model = _wrist_urdf(tmp_path)
    structural, numerical, rank = _agree(model)
    assert structural.count == numerical.count == rank


@pytest.mark.parametrize("name", ["practica_4dof", "jaramillo_rpr"])
def test_prismatic_chains_beyond_the_rules_are_exact_but_not_minimal(name):
    """Prismatic joints among revolute ones have special cases the rules here leave out:
    the structural map still reproduces Y exactly, with more parameters than the rank."""
    structural, numerical, rank = _agree(es.zoo.load(name))
    assert numerical.count == rank < structural.count
    both = np.vstack([structural.map, numerical.map])
    assert np.linalg.matrix_rank(both, tol=1e-9 * np.max(np.abs(both))) == structural.count


def test_the_transfer_is_the_parallel_axis_theorem():
    rng = np.random.default_rng(0)
    m, c = 1.7, rng.uniform(-0.2, 0.2, 3)
    A = rng.uniform(-1, 1, (3, 3))
    I_c = A @ A.T
    E = np.linalg.qr(rng.standard_normal((3, 3)))[0]
    r = rng.uniform(-0.5, 0.5, 3)

    def params(mass, com, inertia_c):
        origin = inertia_c + mass * (com @ com * np.eye(3) - np.outer(com, com))
        return np.concatenate([[mass], mass * com, inertia_vector(origin)])

    moved = transfer_matrix(E, r) @ params(m, c, I_c)
    np.testing.assert_allclose(moved, params(m, E @ c + r, E @ I_c @ E.T), rtol=1e-12, atol=1e-14)
    assert inertia_matrix(moved[4:]).shape == (3, 3)


def test_the_base_parameter_values_predict_the_torques():
    model = es.zoo.load("puma560")
    structural = structural_base_parameters(model)
    rng = np.random.default_rng(1)
    q, qd, qdd = rng.uniform(-1, 1, (3, 4, 6))
    beta = structural.values(parameters(model))
    tau = structural.regressor(joint_torque_regressor(model, q, qd, qdd)) @ beta
    np.testing.assert_allclose(tau, es.inverse_dynamics(model, q, qd, qdd), atol=1e-10)


def test_unsupported_models_are_refused():
    with pytest.raises(ValueError, match="mimic"):
        structural_base_parameters(es.robots.load("panda"))
    with pytest.raises(ValueError, match="free_flyer"):
        structural_base_parameters(es.zoo.load("quadruped"))


@pytest.mark.parametrize(
    "row, column, offset, refused",
    [
        (3, 1, 1e-13, True),  # a coefficient linear in the offset: ~1e-13 of the largest
        (3, 1, 1e-17, False),  # below round-off's band: zero
        (3, 1, 1e-10, False),  # real geometry, decided
        (5, 0, 2e-5, False),  # a 20 µm offset whose square is a coefficient (~4e-10)
        (3, 1, 1e-6, False),
    ],
)
def test_a_coefficient_neither_zero_nor_not_is_refused(row, column, offset, refused):
    """A tiny offset in the geometry gives a coefficient between 1e-14 and 1e-12 of the
    largest: whether it counts decides the structure, so the model is refused, as two
    axes neither parallel nor not are; below or above the band it is decided (round-off
    in the transfers stays near 1e-16; a 20 µm offset's square is a real 4e-10)."""
    model = es.zoo.load("puma560")
    t = np.array(model.tree_translation, dtype=float)
    t[row, column] += offset
    moved = model.replace(tree_translation=t)
    if refused:
        with pytest.raises(ValueError, match="link3.m .* neither clearly zero nor not"):
            structural_base_parameters(moved)
    else:
        assert structural_base_parameters(moved).count == 36
