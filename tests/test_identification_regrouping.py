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


FIXED_BASE_ZOO = [
    "andrews_squeezer", "bennett", "cincinnati_t3", "five_bar", "four_bar",
    "jaramillo_pendulum", "jaramillo_rpr", "panda", "planar2", "practica_4dof",
    "practica_6dof", "practica_pendulum3", "puma560", "puma560_araujo", "slider_crank",
]  # fmt: skip


@pytest.mark.parametrize("name", FIXED_BASE_ZOO)
def test_structural_and_numerical_base_parameters_agree(name):
    """Every zoo model the rules take (revolute, prismatic and fixed joints; the free
    flyers, universal joints and mimic joints are refused): the count is the rank."""
    model = es.zoo.load(name)
    structural, numerical, rank = _agree(model)
    assert structural.count == numerical.count == rank
    # the same span: each set of base parameters is a combination of the other's
    both = np.vstack([structural.map, numerical.map])
    assert np.linalg.matrix_rank(both, tol=1e-9 * np.max(np.abs(both))) == rank
    assert set(structural.unidentifiable) == set(numerical.unidentifiable)


@pytest.mark.filterwarnings("ignore:.*triangle inequality")  # the Allegro hand's own data
@pytest.mark.parametrize(
    "name", ["ur5", "ur10", "z1", "finger_edu", "asr_twodof", "allegro_right_hand",
             "double_pendulum"],
)  # fmt: skip
def test_library_arms_agree(name):
    """Arms of the robot library (example-robot-data) that the rules decide: count = rank."""
    if name not in es.robots.available():
        pytest.skip(f"{name} is not installed")
    structural, numerical, rank = _agree(es.robots.load(name))
    assert structural.count == numerical.count == rank


def _chain(seed):
    """A random chain of 2–5 R/P joints whose axes are often parallel, perpendicular or
    intersecting (α in 0, ±π/2, θ in 0, ±π/2, many zero lengths), a random inertia in a
    random orientation, gravity along −z, −y or none."""
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(2 + seed % 4):
        turn = np.linalg.qr(rng.standard_normal((3, 3)))[0]
        rows.append({
            "joint": str(rng.choice(["R", "P"])),
            "theta": float(rng.choice([0.0, np.pi / 2, -np.pi / 2, 0.3])),
            "d": float(rng.choice([0.0, 0.0, 0.3, -0.2])),
            "a": float(rng.choice([0.0, 0.0, 0.25, 0.4])),
            "alpha": float(rng.choice([0.0, np.pi / 2, -np.pi / 2, 0.7], p=[0.35, 0.3, 0.25, 0.1])),
            "mass": float(rng.uniform(0.5, 2)),
            "com": rng.uniform(-0.1, 0.1, 3).tolist(),
            "inertia": turn @ np.diag(rng.uniform(0.05, 0.1, 3)) @ turn.T,
        })  # fmt: skip
    gravity = [[0, 0, -9.81], [0, 0, -9.81], [0, -9.81, 0], [0, 0, 0]][seed % 4]
    return es.from_dh(rows, ["modified", "standard"][seed % 2], gravity=gravity)


@pytest.mark.parametrize("seed", range(0, 240, 4))
def test_random_chains_with_special_axes(seed):
    """Four chains a case (seed … seed + 3: both DH conventions, each gravity): the rules
    give the rank, and reproduce τ for every π (_agree)."""
    for s in range(seed, seed + 4):
        model = _chain(s)
        structural, numerical, rank = _agree(model)
        assert structural.count == numerical.count == rank, (s, model.joint_letters)


def _quarter_turn(rng):
    """A rotation by multiples of π/2 about two random body axes."""
    R = np.eye(3)
    for _ in range(2):
        k = int(rng.integers(3))
        angle = float(rng.choice([0, 1, -1, 2])) * np.pi / 2
        c, s = round(np.cos(angle)), round(np.sin(angle))
        i, j = (x for x in range(3) if x != k)
        M = np.eye(3)
        M[i, i] = M[j, j] = c
        M[i, j], M[j, i] = -s, s
        R = R @ M
    return R


@pytest.mark.parametrize("seed", range(0, 120, 6))
def test_random_trees_with_special_axes(seed):
    """Branching trees of R, P and fixed joints, axes along ±x, ±y, ±z, frames turned by
    quarter turns, half the offsets zero (axes that meet), gravity along −z or none: six
    trees a case, count = rank and τ reproduced (_agree)."""
    axes = np.array([(1, 0, 0), (0, 1, 0), (0, 0, 1), (-1, 0, 0), (0, 0, -1)], dtype=float)
    for s in range(seed, seed + 6):
        rng = np.random.default_rng(s)
        letters = "R" + "".join(rng.choice(list("RRPF"), size=int(rng.integers(2, 7))))
        g = np.array([0.0, 0.0, -9.81]) if s % 3 else np.zeros(3)
        tree = es.zoo.random_tree(
            s, letters, friction=False, axis=lambda r: axes[r.integers(5)],
            rotation=_quarter_turn, gravity=lambda r, g=g: g,
        )  # fmt: skip
        t = np.array(tree.tree_translation, dtype=float)
        t = np.where(rng.random(t.shape) < 0.5, 0.0, np.round(t, 1))
        structural, numerical, rank = _agree(tree.replace(tree_translation=t))
        assert structural.count == numerical.count == rank, (s, letters)


def test_regrouped_parameters_reproduce_the_torques():
    """τ = Y π = W_b β at random states for random, non-physical π (negative masses and
    inertias allowed), to 1e-12 relative, on the mixed revolute–prismatic arms."""
    rng = np.random.default_rng(11)
    for name in ["practica_4dof", "jaramillo_rpr"]:
        model = es.zoo.load(name)
        structural = structural_base_parameters(model)
        columns = 10 * model.nb
        q = np.stack([es.random_configuration(model, rng) for _ in range(20)])
        qd, qdd = rng.uniform(-3, 3, (2, 20, model.nv))
        Y = joint_torque_regressor(model, q, qd, qdd)[..., :columns]
        for _ in range(5):
            pi = rng.standard_normal(columns)
            tau = Y @ pi
            tau_base = structural.regressor(Y) @ (structural.map[:, :columns] @ pi)
            assert np.max(np.abs(tau - tau_base)) <= 1e-12 * np.max(np.abs(tau))


def _puma_modified():
    """The PUMA 560 in the modified DH frames of Armstrong, Khatib & Burdick 1986 (α 0,
    −π/2, 0, π/2, −π/2, π/2; a2 = 0.4318 m, a3 = −0.0203 m; d2 = 0.2435 m,
    d3 = −0.0934 m, d4 = 0.4331 m), with random inertial data."""
    rng = np.random.default_rng(7)
    table = [
        (0.0, 0.0, 0.0),
        (-np.pi / 2, 0.0, 0.2435),
        (0.0, 0.4318, -0.0934),
        (np.pi / 2, -0.0203, 0.4331),
        (-np.pi / 2, 0.0, 0.0),
        (np.pi / 2, 0.0, 0.0),
    ]
    rows = []
    for alpha, a, d in table:
        turn = np.linalg.qr(rng.standard_normal((3, 3)))[0]
        rows.append({"joint": "R", "alpha": alpha, "a": a, "d": d, "theta": 0.0,
                     "mass": float(rng.uniform(0.1, 5)), "com": rng.uniform(-0.1, 0.1, 3),
                     "inertia": turn @ np.diag(rng.uniform(0.05, 0.1, 3)) @ turn.T})  # fmt: skip
    return es.from_dh(rows, "modified")


@pytest.mark.parametrize(
    ("name", "published"), [("puma560", 36), ("puma560_modified", 36), ("panda_arm", 43)]
)
def test_counts_are_the_published_ones(name, published):
    """PUMA 560: 36 inertial base parameters without rotor inertias (Gautier & Khalil
    1990; Khalil & Dombre 2002, §9.3), in the zoo's standard DH frames and in Armstrong,
    Khatib & Burdick's modified ones; Franka Panda: 43 (Gaz et al. 2019) for
    example-robot-data's arm with the fingers locked. By the rules, 10 n − 3 n (M, MZ, YY
    of each revolute link regrouped) − 6 (link 1 about the vertical keeps only ZZ)."""
    if name == "panda_arm":
        model = _panda_arm()
    elif name == "puma560_modified":
        model = _puma_modified()
    else:
        model = es.zoo.load(name)
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


@pytest.mark.parametrize(
    ("name", "count", "names"),
    [
        # link2 slides along the vertical axis of joint 1 through it: its first moments
        # never act (R2 for a slide, R5); link3 slides across it: MY3 along the axis
        # never acts (R4)
        ("practica_4dof", 12, ["link2.mx", "link2.my", "link2.mz", "link3.my"]),
        # body2 slides on a line tilted 60° from the vertical axis of joint 1: the first
        # moment along that axis, −0.866 MY2 + 0.5 MZ2, never acts (R4)
        ("jaramillo_rpr", 11, ["body2.mz"]),
    ],
)
def test_prismatic_joints_among_revolute_ones(name, count, names):
    """Prismatic joints among revolute ones (formerly beyond the rules: 16 and 12)."""
    model = es.zoo.load(name)
    structural, numerical, rank = _agree(model)
    assert structural.count == numerical.count == rank == count
    kept = {structural.names[j] for j in structural.independent}
    assert not kept & set(names)


def test_a_slide_off_the_axis_regroups_into_the_moment_of_inertia():
    """R(z)–P(z) with the slider 0.3 m off the axis, gravity along z: the slider's first
    moment along the offset joins I_zz of link 1 with 2·0.3, the other never acts."""
    rows = [
        {"joint": "R", "theta": 0.0, "d": 0.0, "a": 0.0, "alpha": 0.0, "mass": 1.0,
         "com": [0.1, 0, 0], "inertia": 0.01 * np.eye(3)},
        {"joint": "P", "theta": 0.0, "d": 0.0, "a": 0.3, "alpha": 0.0, "mass": 2.0,
         "com": [0.05, 0.02, 0.1], "inertia": 0.02 * np.eye(3)},
    ]  # fmt: skip
    model = es.from_dh(rows, "modified")
    structural, numerical, rank = _agree(model)
    assert structural.count == numerical.count == rank == 2
    assert structural.expressions == ("link1.Izz + 0.6·link2.mx + link2.Izz", "link2.m")


def test_an_axis_almost_through_an_origin_is_refused():
    """Whether an origin lies on an axis decides R2 (two coaxial joints about the
    vertical: the outer link's first moments never act) and R5's coefficients (a slider
    along the axis): 1e-13 m off hangs on round-off and is refused, naming the distance
    or the coefficient; 1 cm off is decided."""

    def coaxial(offset):
        row = {"joint": "R", "theta": 0.0, "d": 0.0, "alpha": 0.0, "mass": 1.0,
               "com": [0.1, 0.05, 0], "inertia": 0.01 * np.eye(3)}  # fmt: skip
        return es.from_dh([{**row, "a": 0.0}, {**row, "a": offset}], "modified")

    with pytest.raises(ValueError, match="distance between the origin of body 'link2'"):
        structural_base_parameters(coaxial(1e-13))
    assert structural_base_parameters(coaxial(0.0)).count == 2  # I1zz + I2zz, I2zz
    structural, numerical, rank = _agree(coaxial(0.01))
    assert structural.count == numerical.count == rank == 4  # the off-axis MX2, MY2 act
    model = es.zoo.load("practica_4dof")
    t = np.array(model.tree_translation, dtype=float)
    t[2, 0] += 1e-13
    with pytest.raises(ValueError, match="link2.mx .* neither clearly zero nor not"):
        structural_base_parameters(model.replace(tree_translation=t))
    t[2, 0] += 1e-6  # the slider 1 µm off the axis: its MX2 joins link1.Izz (R5)
    structural, numerical, rank = _agree(model.replace(tree_translation=t))
    assert structural.count == numerical.count == rank == 12


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
    welded = es.zoo.random_tree(3, "FFF", friction=False)
    for method in (structural_base_parameters, base_parameters):
        with pytest.raises(ValueError, match="no moving joint"):
            method(welded)


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
