"""Rolling wheels in the constraint set (eslabon.constraints.RollingWheel): the wheeled
platforms of eslabon.mobile (Araujo (2012), the tricycle of "Ejemplo de aplicación";
eslabon's differential drive and omnidirectional platforms) written as a tree with a
planar root and rolling rows reproduce mobile's own results, in both couplings, with
every general formulation."""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from eslabon import constraints as ec
from eslabon import mobile as mb
from eslabon.mobile import dae
from eslabon.zoo.araujo import puma560_araujo

FORMULATIONS = ("kkt", "schur", "null_space", "udwadia_kalaba")
PLATFORMS = {
    "tricycle": lambda: mb.Tricycle(mb.TricycleParams.seekur_jr_assumed()),
    "steered_axle": lambda: mb.Tricycle(
        mb.TricycleParams.seekur_jr_assumed(front_wheels=2, front_half_track=0.3)
    ),
    "diff_drive": lambda: mb.DifferentialDrive(mb.DiffDriveParams.seekur_jr_assumed()),
    "mecanum": lambda: mb.Omnidirectional(mb.OmniParams.mecanum_assumed()),
    "three_omni": lambda: mb.Omnidirectional(mb.OmniParams.three_wheel_assumed()),
}


def _manipulator(name, **thesis):
    mm = mb.MobileManipulator(PLATFORMS[name](), puma560_araujo(), mb.Mount((0.3, 0.1, 0.5)))
    return mm.with_mode("thesis", **thesis) if thesis else mm


def _state(mm, rng):
    y = mm.state(
        config=rng.normal(size=mm.n_config) * 0.4,
        q=rng.normal(size=mm.n_arm),
        nu=rng.normal(size=mm.n_quasi),
        qd=rng.normal(size=mm.n_arm),
    )
    config, q, nu, qd = mm.split(y)
    return (
        y,
        config,
        nu,
        np.concatenate([config, q]),
        np.concatenate([mm.platform.motion(config, nu).rates, qd]),
    )


@pytest.mark.parametrize("name", PLATFORMS)
def test_the_rows_span_mobiles_pfaffian_rows_and_hold_along_its_motion(name):
    """J of the rolling wheels and the hand-written rows of eslabon.mobile.dae have one
    row space (repeated rows, as the two rear wheels' skid, counted once), and the
    platform's q̇ = G ν satisfies them."""
    mm = _manipulator(name)
    tree = dae.tree_model(mm).replace(constraints=tuple(dae.rolling_constraints(mm)))
    rng = np.random.default_rng(5)
    for _ in range(3):
        _, _, _, q, v = _state(mm, rng)
        J, A = ec.constraint_jacobian(tree, q), dae.constraint_matrix(mm, q)
        rank = np.linalg.matrix_rank(A)
        assert np.linalg.matrix_rank(J) == rank == np.linalg.matrix_rank(np.vstack([J, A]))
        assert np.abs(J @ v).max() < 1e-13
        assert ec.constraint_rank(tree, q).rank == rank


def test_the_drift_is_minus_the_rate_of_the_rows_along_the_motion():
    """γ = −J̇ q̇, against central differences of J along q + t q̇ (flat coordinates)."""
    mm = _manipulator("tricycle")
    tree = dae.tree_model(mm).replace(constraints=tuple(dae.rolling_constraints(mm)))
    _, _, _, q, v = _state(mm, np.random.default_rng(2))
    h = 1e-6
    J_dot = (ec.constraint_jacobian(tree, q + h * v) - ec.constraint_jacobian(tree, q - h * v)) / (
        2 * h
    )
    np.testing.assert_allclose(ec.constraint_drift(tree, q, v), -J_dot @ v, atol=1e-7)


@pytest.mark.parametrize("name", PLATFORMS)
def test_every_formulation_gives_the_coupled_models_accelerations(name):
    """mode="coupled" (one Gibbs function over every body, eslabon.mobile.accelerations):
    the arm's q̈ and the platform's ν̇ (from the tree's q̈ = G ν̇ + Ġ ν) agree to 1e-10
    relative, with each general formulation on the tree with its rolling wheels."""
    mm = _manipulator(name)
    tree = dae.tree_model(mm).replace(constraints=tuple(dae.rolling_constraints(mm)))
    rng = np.random.default_rng(11)
    for _ in range(3):
        y, config, nu, q, v = _state(mm, rng)
        u, tau = rng.normal(size=len(mm.platform.input_names)) * 40, rng.normal(size=6) * 5
        expected = mb.accelerations(mm, y, u, tau)
        Q = dae.generalized_forces(mm, q, u, tau)
        motion = mm.platform.motion(config, nu)
        scale = max(1.0, np.abs(expected).max())
        for algorithm in FORMULATIONS:
            out = ec.constrained_forward_dynamics(tree, q, v, Q, algorithm=algorithm)
            qdd_platform = out.qdd[: mm.n_config]
            nu_dot = np.linalg.lstsq(motion.G, qdd_platform - motion.accel0, rcond=None)[0]
            np.testing.assert_allclose(
                motion.G @ nu_dot + motion.accel0, qdd_platform, atol=1e-10 * scale
            )
            got = np.concatenate([nu_dot, out.qdd[mm.n_config :]])
            assert np.abs(got - expected).max() < 1e-10 * scale, algorithm


@pytest.mark.parametrize("name", PLATFORMS)
def test_the_platform_alone_gives_the_one_way_couplings_platform_step(name):
    """mode="thesis", Step 2 (Araujo (2012)): the platform solved without the arm — the
    tricycle by Martinenko's closed form (3.29, corrected 3.30) with the platform's own
    mass constants, the others by their Gibbs functions — equals the general
    formulations on the platform's tree with its rolling wheels (1e-10 relative)."""
    mm = _manipulator(name, constants="platform")
    tree = dae.tree_model(mm, with_arm=False).replace(
        constraints=tuple(dae.rolling_constraints(mm))
    )
    rng = np.random.default_rng(4)
    for _ in range(3):
        _, config, nu, q, v = _state(mm, rng)
        u = rng.normal(size=len(mm.platform.input_names)) * 40
        expected = mb.thesis_platform_accelerations(mm, config, nu, u)
        Q = dae.generalized_forces(mm, q, u, np.zeros(mm.n_arm))[: mm.n_config]
        motion = mm.platform.motion(config, nu)
        for algorithm in FORMULATIONS:
            out = ec.constrained_forward_dynamics(
                tree, config, v[: mm.n_config], Q, algorithm=algorithm
            )
            nu_dot = np.linalg.lstsq(motion.G, out.qdd - motion.accel0, rcond=None)[0]
            assert np.abs(nu_dot - expected).max() < 1e-10 * max(1.0, np.abs(expected).max()), (
                algorithm
            )


def test_the_differential_drive_rolls_in_simulation_and_saves_its_wheels(tmp_path):
    """eslabon.simulate of the tree with rolling wheels follows mobile's own simulation
    (coupled, DOP853) over 0.5 s; the wheels come back from a model file."""
    mm = _manipulator("diff_drive")
    tree = dae.tree_model(mm).replace(constraints=tuple(dae.rolling_constraints(mm)))
    y0 = mm.state(nu=[0.5, 0.2])
    config, q, nu, qd = mm.split(y0)
    q0 = np.concatenate([config, q])
    qd0 = np.concatenate([mm.platform.motion(config, nu).rates, qd])
    u, tau = np.array([3.0, -2.0]), np.zeros(6)
    Q = dae.generalized_forces(mm, q0, u, tau)  # wheel torques and arm torques: constant
    run = es.simulate(
        tree, q0, qd0, 0.5, 0.05, torque=Q, integrator="dop853", rtol=1e-11, atol=1e-12
    )
    ref = mb.simulate(mm, None, None, 0.5, 0.05, torque=tau, nu0=[0.5, 0.2], u=u, rtol=1e-11,
                      atol=1e-12)  # fmt: skip
    np.testing.assert_allclose(run.q[:, : mm.n_config], ref.config, atol=1e-7)
    assert np.abs(np.einsum("kij,kj->ki", ec.constraint_jacobian(tree, run.q), run.qd)).max() < 1e-8
    path = tmp_path / "platform.yaml"
    from eslabon.model.files import save_model

    save_model(tree, path)
    back = es.load_model(path)
    assert back.constraints == tree.constraints


def test_bad_wheels_are_refused_by_field():
    arm = es.zoo.load("planar2")
    cases = [
        (ec.RollingWheel("w", "ee", -0.1), "constraints\\[0\\].radius: expected a positive"),
        (ec.RollingWheel("w", "nowhere", 0.1), "constraints\\[0\\].wheel"),
        (ec.RollingWheel("w", "ee", 0.1, axis=(0, 0, 0)), "constraints\\[0\\].axis"),
        (ec.RollingWheel("w", "ee", 0.1, rollers=2.0), "constraints\\[0\\].rollers"),
    ]
    for wheel, message in cases:
        with pytest.raises(ValueError, match=message):
            ec.constraint_jacobian(arm, [0.0, 0.0], constraints=wheel)
    with pytest.raises(ValueError, match="rolling wheels bound the rates, not the positions"):
        ec.close_state(arm, [0.0, 0.0], [0], [0.1], constraints=ec.RollingWheel("w", "ee", 0.1))
    upright = ec.RollingWheel("w", "ee", 0.1, axis=(0, 0, 1))  # planar2 turns about z
    with pytest.raises(ValueError, match="w: the wheel's spin axis is not horizontal"):
        ec.constraint_jacobian(arm, [0.0, 0.0], constraints=upright)
