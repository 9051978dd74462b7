"""The Gibbs–Appell regressor of a wheeled mobile manipulator: with the tree of
eslabon.mobile.dae (platform and wheels as joints, the arm at its mount) and the map
T = diag(E G(config), 1) from the quasi-velocities ν and the arm's q̇ to the tree's
rates, Tᵀ Y π equals the coupled Gibbs–Appell input forces [Q_platform; τ] of
eslabon.mobile.input_forces (the Gibbs function of Araujo (2012), (2.25), in eslabon's
fully coupled model) for any ν̇, q̈."""

from __future__ import annotations

import numpy as np
import pytest

from eslabon import mobile as mb
from eslabon.identification import parameters, projected_regressor, with_parameters
from eslabon.mobile import dae
from eslabon.zoo.araujo import puma560_araujo


def _platforms():
    return {
        "tricycle": mb.Tricycle(mb.TricycleParams.seekur_jr_assumed()),
        "steered_axle": mb.Tricycle(
            mb.TricycleParams.seekur_jr_assumed(front_wheels=2, front_half_track=0.3)
        ),
        "diff_drive": mb.DifferentialDrive(mb.DiffDriveParams.seekur_jr_assumed()),
    }


def _tree_state(mm, y, nu_dot, qdd):
    """The tree's q, v, v̇ and T at the mobile state y."""
    config, q, nu, qd = mm.split(y)
    motion = mm.platform.motion(config, nu)
    E = dae.expansion(mm)
    G = np.asarray(motion.G)
    n = mm.n_arm
    T = np.zeros((E.shape[0] + n, G.shape[1] + n))
    T[: E.shape[0], : G.shape[1]] = E @ G
    T[E.shape[0] :, G.shape[1] :] = np.eye(n)
    qq = np.concatenate([E @ config, q])
    vv = np.concatenate([E @ motion.rates, qd])
    aa = np.concatenate([E @ (G @ nu_dot + motion.accel0), qdd])
    return qq, vv, aa, T


@pytest.mark.source("Araujo (2012)", "the Gibbs function (2.25) in quasi-velocities")
@pytest.mark.parametrize("name", sorted(_platforms()))
def test_gibbs_appell_regressor_gives_the_input_forces(name):
    mm = mb.MobileManipulator(_platforms()[name], puma560_araujo(), mb.Mount((0.3, 0.1, 0.5)))
    tree = dae.tree_model(mm)
    rng = np.random.default_rng(4)
    for _ in range(4):
        y = mm.state(
            config=rng.normal(size=mm.n_config) * 0.4, q=rng.normal(size=mm.n_arm),
            nu=rng.normal(size=mm.n_quasi), qd=rng.normal(size=mm.n_arm),
        )  # fmt: skip
        nu_dot, qdd = rng.normal(size=mm.n_quasi), rng.normal(size=mm.n_arm)
        qq, vv, aa, T = _tree_state(mm, y, nu_dot, qdd)
        Y_ga = projected_regressor(tree, qq, vv, aa, T)
        forces = mb.input_forces(mm, y, nu_dot, qdd)
        scale = max(1.0, float(np.abs(forces).max()))
        np.testing.assert_allclose(Y_ga @ parameters(tree), forces, atol=1e-9 * scale)


def test_the_regressor_is_linear_in_the_arm_parameters():
    """A heavier arm link changes the forces as Y_ga predicts, without a new regressor:
    the tree with link 3's parameters scaled against the mobile model built on the arm
    with the same change."""
    arm = puma560_araujo()
    pi_arm = parameters(arm)
    pi_arm[20:30] *= 1.7
    heavier = with_parameters(arm, pi_arm)
    plat = _platforms()["diff_drive"]
    mm, mm2 = (mb.MobileManipulator(plat, a, mb.Mount((0.3, 0.1, 0.5))) for a in (arm, heavier))
    tree, tree2 = dae.tree_model(mm), dae.tree_model(mm2)
    rng = np.random.default_rng(8)
    y = mm.state(nu=rng.normal(size=mm.n_quasi), qd=rng.normal(size=mm.n_arm))
    nu_dot, qdd = rng.normal(size=mm.n_quasi), rng.normal(size=mm.n_arm)
    Y_ga = projected_regressor(tree, *_tree_state(mm, y, nu_dot, qdd))
    np.testing.assert_allclose(
        Y_ga @ parameters(tree2), mb.input_forces(mm2, y, nu_dot, qdd), atol=1e-8
    )


def test_a_map_of_the_wrong_shape_is_refused():
    mm = mb.MobileManipulator(_platforms()["diff_drive"], puma560_araujo(), mb.Mount((0, 0, 0.5)))
    qq, vv, aa, T = _tree_state(mm, mm.state(), np.zeros(mm.n_quasi), np.zeros(mm.n_arm))
    with pytest.raises(ValueError, match="T: expected finite shape"):
        projected_regressor(dae.tree_model(mm), qq, vv, aa, T[:-1])


def _every_platform():
    found = dict(_platforms())
    found["mecanum"] = mb.Omnidirectional(mb.OmniParams.mecanum_assumed())
    found["three_omni"] = mb.Omnidirectional(mb.OmniParams.three_wheel_assumed())
    found["synchronous"] = mb.SynchronousDrive(mb.SyncDriveParams.three_wheel_assumed())
    return found


@pytest.mark.source("Araujo (2012)", "the Gibbs function (2.25): Appell's equations")
@pytest.mark.parametrize("name", sorted(_every_platform()))
def test_mobile_regressor_in_one_call_gives_the_input_forces(name):
    """mobile_regressor assembles T itself: Y π is input_forces on every platform (the
    omnidirectional and synchronous drives included), and bad lengths are named."""
    from eslabon.identification import mobile_regressor

    mm = mb.MobileManipulator(_every_platform()[name], puma560_araujo(), mb.Mount((0.3, 0.1, 0.5)))
    rng = np.random.default_rng(9)
    y = mm.state(
        config=rng.normal(size=mm.n_config) * 0.3, q=rng.normal(size=mm.n_arm),
        nu=rng.normal(size=mm.n_quasi), qd=rng.normal(size=mm.n_arm),
    )  # fmt: skip
    nu_dot, qdd = rng.normal(size=mm.n_quasi), rng.normal(size=mm.n_arm)
    reg = mobile_regressor(mm, y, nu_dot, qdd)
    forces = mb.input_forces(mm, y, nu_dot, qdd)
    assert reg.Y.shape == (mm.n_quasi + mm.n_arm, len(reg.names))
    assert np.abs(reg.Y @ reg.pi - forces).max() <= 1e-9 * max(1.0, np.abs(forces).max())
    with pytest.raises(ValueError, match="nu_dot"):
        mobile_regressor(mm, y, np.zeros(mm.n_quasi + 1), qdd)
