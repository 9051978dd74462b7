"""The platforms Araujo (2012) names in its "Recomendaciones" as further work —
omnidirectional (omni and mecanum wheels) and synchronous drive — checked as the tricycle
and the differential drive are (tests/test_mobile_manipulators.py): against an
independent Lagrange-multiplier DAE of the unconstrained tree (pointwise and along a
run), by the work–energy balance, by closed forms of simple motions, and in the thesis's
one-way coupling (Steps 1–7 of "Algoritmo para resolver el problema dinámico inverso")."""

import numpy as np
import pytest

import eslabon as es
from eslabon import mobile as mb
from eslabon.mobile import dae
from eslabon.model.builder import ModelBuilder
from eslabon.zoo.araujo import puma560_araujo

PLATFORMS = {
    "mecanum": lambda: mb.Omnidirectional(mb.OmniParams.mecanum_assumed()),
    "three_omni": lambda: mb.Omnidirectional(mb.OmniParams.three_wheel_assumed()),
    "synchro": lambda: mb.SynchronousDrive(mb.SyncDriveParams.three_wheel_assumed()),
    "synchro4": lambda: mb.SynchronousDrive(mb.SyncDriveParams.three_wheel_assumed(wheels=4)),
}


@pytest.fixture(scope="module")
def arm():
    return puma560_araujo()


def _random_state(mm, rng):
    return mm.state(
        config=rng.normal(size=mm.n_config) * 0.4,
        q=rng.normal(size=mm.n_arm),
        nu=rng.normal(size=mm.n_quasi) * 0.5,
        qd=rng.normal(size=mm.n_arm),
    )


@pytest.mark.parametrize("name", sorted(PLATFORMS))
def test_coupled_equals_the_lagrange_multiplier_dae_pointwise(name, arm):
    """[ν̇; q̈] of the coupled Gibbs function equal the tree's M q̈ + h = Q + Aᵀλ: the
    configuration's accelerations G ν̇ + Ġ ν and the arm's q̈ (1e-10); G ν satisfies the
    Pfaffian rows; the kinetic and potential energies equal the tree's."""
    from eslabon.spatial.rotations import rot_axis

    plat = PLATFORMS[name]()
    tilted = rot_axis(np.array([0.3, -0.5, 0.8]) / np.linalg.norm([0.3, -0.5, 0.8]), 0.9)
    mm = mb.MobileManipulator(plat, arm, mb.Mount((0.1, 0.05, 0.4), tilted))
    tree = dae.tree_model(mm)
    E = dae.expansion(mm)
    rng = np.random.default_rng(5)
    for _ in range(5):
        y = _random_state(mm, rng)
        config, q, nu, qd = mm.split(y)
        pm = plat.motion(config, nu)
        qq = np.concatenate([E @ config, q])
        vv = np.concatenate([E @ pm.rates, qd])
        assert np.abs(dae.constraint_matrix(mm, qq) @ vv).max() < 1e-13
        u = rng.normal(size=len(plat.input_names)) * 5
        tau = rng.normal(size=6) * 5
        acc = mb.accelerations(mm, y, u, tau)
        qdd, _ = dae.accelerations(mm, tree, qq, vv, u, tau)
        k = mm.n_quasi
        config_acc = pm.G @ acc[:k] + pm.accel0
        np.testing.assert_allclose(E @ config_acc, qdd[: E.shape[0]], rtol=1e-10, atol=1e-10)
        np.testing.assert_allclose(acc[k:], qdd[E.shape[0] :], rtol=1e-10, atol=1e-10)
        kinetic = es.kinetic_energy(tree, qq, vv)
        assert mb.coupled_kinetic_energy(mm, y) == pytest.approx(kinetic, rel=1e-12)
        assert mb.arm_potential_energy(mm, y) == pytest.approx(
            es.potential_energy(tree, qq), rel=1e-12, abs=1e-9
        )


@pytest.mark.parametrize("name", ["mecanum", "synchro"])
def test_a_run_follows_the_dae_and_balances_work(name, arm):
    """0.5 s with unequal inputs: the coupled model and the DAE agree to 1e-6, and
    T + V − W stays constant to 1e-7 of the work done."""
    plat = PLATFORMS[name]()
    mm = mb.MobileManipulator(plat, arm, mb.Mount((0.1, 0.0, 0.4)))
    u = [3.0, -1.0, 2.0, 0.5] if name == "mecanum" else [2.0, 0.4]
    tau = [1.0, 20.0, 5.0, 0.0, 0.1, 0.0]
    y0 = mm.state(nu=[0.2] + [0.0] * (mm.n_quasi - 1))
    config0, q0, nu0, qd0 = mm.split(y0)
    tr = mb.simulate(
        mm, None, None, 0.5, u=u, torque=tau, nu0=nu0, rtol=1e-11, atol=1e-12, samples=6
    )
    q_dae, _ = dae.simulate(mm, tr.t, y0, u, tau)
    np.testing.assert_allclose(np.hstack([tr.config, tr.q]), q_dae, atol=1e-6)
    balance = tr.energy - tr.energy[0] - tr.work
    assert np.abs(balance).max() < 1e-7 * np.abs(tr.work).max()
    assert np.ptp(tr.config[:, 1]) > 1e-3  # it moved sideways (mecanum) or turned (synchro)


def test_mecanum_kinematics_and_a_straight_push():
    """The X layout's wheel rates r ψ̇ = v_x ∓ v_y ∓ (a + b) ω; four equal torques τ push
    straight ahead with v̇_x = (4τ/r) / (m_c + 4 m_w + 4 (m_w r²/2)/r²), no sideways or
    turning acceleration (no arm)."""
    p = mb.OmniParams.mecanum_assumed()
    base = mb.Omnidirectional(p)
    a, b, r = 0.25, 0.20, p.wheel_radius
    vx, vy, w = 0.3, -0.2, 0.5
    rates = base.motion(np.zeros(7), [vx, vy, w]).rates[3:]
    expect = np.array(
        [vx - vy - (a + b) * w, vx + vy + (a + b) * w, vx + vy - (a + b) * w, vx - vy + (a + b) * w]
    )
    np.testing.assert_allclose(rates * r, expect, rtol=1e-14, atol=1e-15)
    light = ModelBuilder()
    light.add_body(0, "R", mass=0.0, armature=1.0)
    mm = mb.MobileManipulator(base, light.build(), gravity=0.0)
    tau = 2.0
    acc = mb.accelerations(mm, mm.state(), [tau] * 4)
    m = p.chassis_mass + 4 * p.wheel_mass + 4 * (p.wheel_mass * r**2 / 2) / r**2
    assert acc[0] == pytest.approx(4 * tau / r / m, rel=1e-13)
    assert abs(acc[1]) < 1e-13 and abs(acc[2]) < 1e-13


def test_synchro_closed_forms():
    """Straight: v̇ = (τ_d/r) / (m_c + m_t + n m_w + n m_w/2); at rest the steering torque
    turns the turret and wheels: γ̈ = τ_s / (I_t + n m_w r²/4); the heading never moves."""
    p = mb.SyncDriveParams.three_wheel_assumed()
    base = mb.SynchronousDrive(p)
    light = ModelBuilder()
    light.add_body(0, "R", mass=0.0, armature=1.0)
    mm = mb.MobileManipulator(base, light.build(), gravity=0.0)
    n, r = p.wheels, p.wheel_radius
    acc = mb.accelerations(mm, mm.state(), [0.6, 0.05])
    m = p.chassis_mass + p.turret_mass + n * p.wheel_mass * 1.5
    assert acc[0] == pytest.approx(0.6 / r / m, rel=1e-13)
    assert acc[1] == pytest.approx(
        0.05 / (p.turret_inertia + n * p.wheel_mass * r**2 / 4), rel=1e-13
    )
    pm = base.motion([0, 0, 0.7, 0.3, 0, 0, 0], [1.0, 2.0])
    assert pm.rates[2] == 0.0 and pm.G[2].tolist() == [0.0, 0.0]


@pytest.mark.parametrize("name", sorted(PLATFORMS))
def test_thesis_mode_is_the_platform_alone_then_the_arm(name, arm):
    """Steps 1–7 on the new platforms: ν̇ is the platform's own Gibbs function without
    the arm (equal to the coupled mode's when the arm is massless); q̈ is the arm on a
    base moving with the chassis's velocity products (equal to the coupled model's
    locked-platform q̈ when the frame's turning term is restored)."""
    plat = PLATFORMS[name]()
    mm = mb.MobileManipulator(plat, arm, mb.Mount((0.1, 0.0, 0.4)), mode="thesis")
    rng = np.random.default_rng(8)
    y = _random_state(mm, rng)
    config, q, nu, qd = mm.split(y)
    u = rng.normal(size=len(plat.input_names))
    tau = rng.normal(size=6)
    light = arm.replace(
        mass=np.zeros(arm.nb + 1),
        inertia=np.zeros((arm.nb + 1, 3, 3)),
        armature=np.ones(arm.nb + 1),
    )
    coupled_light = mb.MobileManipulator(plat, light, mm.mount)
    k = mm.n_quasi
    np.testing.assert_allclose(
        mb.thesis_platform_accelerations(mm, config, nu, u),
        mb.accelerations(coupled_light, y, u, tau)[:k],
        rtol=1e-11,
        atol=1e-12,
    )
    full = mm.with_mode("thesis", lateral_acceleration=True)
    np.testing.assert_allclose(
        mb.accelerations(full, y, u, tau)[k:],
        mb.accelerations(mm.with_mode("coupled"), y, u, tau, locked=True)[k:],
        rtol=1e-11,
        atol=1e-11,
    )


def test_bad_platform_parameters_name_the_field():
    with pytest.raises(ValueError, match="OmniParams.wheels: expected three or more rows"):
        mb.OmniParams.mecanum_assumed(wheels=[[0, 0, 0, 0], [1, 0, 0, 0]])
    with pytest.raises(ValueError, match="cannot drive every planar direction"):
        mb.OmniParams.mecanum_assumed(wheels=[[0.2, 0.1, 0, 0], [0.2, -0.1, 0, 0], [-0.2, 0, 0, 0]])
    with pytest.raises(ValueError, match="roller angles must be within"):
        mb.OmniParams.mecanum_assumed(wheels=[[0.2, 0.1, 0, 1.5]] * 3)
    with pytest.raises(ValueError, match="OmniParams.wheel_mass: missing; it must be supplied"):
        mb.OmniParams(wheels=[[0, 1, 0, 0]] * 3, wheel_radius=0.1)
    with pytest.raises(ValueError, match="SyncDriveParams.wheels: expected an integer >= 2"):
        mb.SyncDriveParams.three_wheel_assumed(wheels=1)
    with pytest.raises(ValueError, match="SyncDriveParams.wheels"):
        mb.SyncDriveParams.three_wheel_assumed(wheels=2.5)
    with pytest.raises(ValueError, match="turret_inertia"):
        mb.SyncDriveParams.three_wheel_assumed(turret_inertia=0.0, wheel_mass=0.0)
    mm = mb.MobileManipulator(mb.Omnidirectional(mb.OmniParams.mecanum_assumed()), puma560_araujo())
    with pytest.raises(ValueError, match=r"u: expected shape \(4,\)"):
        mb.accelerations(mm, mm.state(), [1.0, 2.0, 3.0])


@pytest.mark.parametrize("name", ["mecanum", "synchro4"])
def test_a_model_file_round_trips_and_runs_from_the_cli(name, tmp_path, capsys):
    """save_mobile → load_model gives the same platform, mode and options; `eslabon
    simulate` runs the file with one input per wheel (mecanum) or [τ_drive, τ_steer]."""
    from eslabon.cli.main import main
    from eslabon.mobile.files import save_mobile

    plat = PLATFORMS[name]()
    mm = mb.MobileManipulator(plat, puma560_araujo(), mode="thesis")
    back = es.load_model(save_mobile(mm, tmp_path / "m.yaml"))
    assert type(back.platform) is type(plat) and back.mode == "thesis"
    assert back.platform == plat and back.thesis == mm.thesis
    u = "1,1,1,1" if name == "mecanum" else "0.5,0"
    out = tmp_path / "run.npz"
    code = main(["simulate", str(tmp_path / "m.yaml"), "--t-final", "0.01", "--dt", "0.005",
                 "--u", u, "--out", str(out)])  # fmt: skip
    printed = capsys.readouterr().out
    assert code in (0, None) and out.is_file(), printed
    assert f"({plat.kind}, mode thesis)" in printed
