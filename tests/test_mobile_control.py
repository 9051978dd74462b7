"""Control of mobile manipulators, platform and arm together (Araujo (2012),
"Recomendaciones": the further work it names): the linearization of the coupled model,
computed-torque tracking and the time-varying LQR along a reference, in closed loop."""

import numpy as np
import pytest

import eslabon as es
from eslabon import mobile as mb
from eslabon.mobile import control

T, DT = 2.0, 0.01


def _system(kind):
    arm = es.zoo.load("planar2")
    plat = {
        "tricycle": mb.Tricycle(mb.TricycleParams.seekur_jr_assumed()),
        "mecanum": mb.Omnidirectional(mb.OmniParams.mecanum_assumed()),
    }[kind]
    mm = mb.MobileManipulator(plat, arm, mb.Mount((0.3, 0.0, 0.5)))
    u = {"tricycle": [100.0, 0.0], "mecanum": [1.0, 1.2, 0.8, 1.0]}[kind]
    nu0 = {"tricycle": [1.0, 0.0], "mecanum": [0.5, 0.2, 0.1]}[kind]
    ref = mb.simulate(mm, None, None, T, DT, integrator="rk4", u=u, torque=[5.0, 2.0], nu0=nu0)
    return mm, ref, np.array(u), np.array([5.0, 2.0])


@pytest.fixture(scope="module")
def tricycle():
    return _system("tricycle")


def _perturbed(mm, ref):
    d = np.zeros(mm.n_state)
    d[1], d[2] = 0.05, 0.05  # 5 cm aside, turned 0.05 rad
    d[mm.n_config : mm.n_config + mm.n_arm] = 0.1
    return ref.state(0) + d


def test_linearization_is_the_first_order_term(tricycle):
    """f(y + ε d, w + ε e) − f(y, w) − ε (A d + B e) shrinks as ε² (the remainder of a
    Taylor expansion: 100× for 10× smaller ε); the accelerations' input block of B is
    D⁻¹ [B_u, 0; 0, I] (they are linear in the inputs); the configuration rows of A are
    ∂(G ν)/∂ν = G."""
    mm, ref, u, tau = tricycle
    y = ref.state(50)
    A, B = control.linearize(mm, y, u, tau)
    rng = np.random.default_rng(2)
    d, e = rng.normal(size=mm.n_state), rng.normal(size=len(u) + len(tau))

    def remainder(eps):
        ww = np.concatenate([u, tau]) + eps * e
        f1 = mb.state_derivative(mm, y + eps * d, ww[:2], ww[2:])
        return np.abs(f1 - mb.state_derivative(mm, y, u, tau) - eps * (A @ d + B @ e)).max()

    r1, r2 = remainder(1e-3), remainder(1e-4)
    assert 50 < r1 / r2 < 200, (r1, r2)
    D, _, _ = mb.coupled_terms(mm, y)
    k, nc, n = mm.n_quasi, mm.n_config, mm.n_arm
    inputs = np.zeros((k + n, len(u) + n))
    inputs[:k, : len(u)] = control.input_matrix(mm, y)
    inputs[k:, len(u) :] = np.eye(n)
    np.testing.assert_allclose(B[nc + n :], np.linalg.solve(D, inputs), rtol=1e-7, atol=1e-9)
    config, _, nu, _ = mm.split(y)
    G = mm.platform.motion(config, nu).G
    np.testing.assert_allclose(A[:nc, nc + n : nc + n + k], G, rtol=1e-7, atol=1e-9)


def test_computed_torque_tracks_the_arm_and_speeds_not_the_pose(tricycle):
    """On the reference it reproduces it (1e-12); from a perturbed start the arm's error
    falls from 0.1 rad below 1e-4 rad in 2 s (K_p = 100, K_d = 20: critically damped)
    and ν converges, but the pose error is not fed back and stays (≥ 0.8 of open loop's)."""
    mm, ref, u, tau = tricycle
    law = control.ComputedTorque(ref, kp=100.0, kd=20.0, k_nu=10.0)
    exact = control.closed_loop(mm, law, ref.state(0))
    assert np.abs(exact.error).max() < 1e-12
    y0 = _perturbed(mm, ref)
    run = control.closed_loop(mm, law, y0)
    opened = control.closed_loop(mm, lambda m, t, y: (u, tau), y0, reference=ref)
    nc, n, k = mm.n_config, mm.n_arm, mm.n_quasi
    assert np.abs(run.error[-1, nc : nc + n]).max() < 1e-4
    assert np.abs(run.error[-1, nc + n : nc + n + k]).max() < 1e-4
    assert abs(run.error[-1, 1]) > 0.8 * abs(opened.error[-1, 1]) > 0.05


@pytest.mark.parametrize("kind", ["tricycle", "mecanum"])
def test_time_varying_lqr_tracks_pose_and_arm(kind, tricycle):
    """The LQR on the linearization along the reference corrects the pose too: a tricycle
    from 5 cm aside and 0.05 rad turned ends within a tenth of the open-loop errors; the
    holonomic mecanum base ends within 1e-3 of its initial errors; the arm within 1e-2."""
    mm, ref, u, tau = tricycle if kind == "tricycle" else _system(kind)
    nc, n = mm.n_config, mm.n_arm
    Q = np.zeros(mm.n_state)
    Q[:3] = 1e3
    Q[nc : nc + n] = 1e3
    Q[nc + n :] = 1.0
    if kind == "tricycle":
        Q[3] = 1.0
    R = np.full(len(u) + n, 1e-3)
    lqr = control.TimeVaryingLQR.design(mm, ref, 0.05, Q, R, final_weight=10 * Q)
    assert lqr.gains.shape == (40, len(u) + n, mm.n_state)
    y0 = _perturbed(mm, ref)
    run = control.closed_loop(mm, lqr, y0)
    opened = control.closed_loop(mm, lambda m, t, y: (u, tau), y0, reference=ref)
    end, start = np.abs(run.error[-1]), np.abs(run.error[0])
    assert end[nc : nc + n].max() < 1e-2 * start[nc : nc + n].max()
    if kind == "tricycle":
        assert end[1] < 0.1 * abs(opened.error[-1, 1]) and end[2] < 0.1 * start[2]
    else:
        assert end[:3].max() < 1e-3 * start[:3].max()


def test_bad_weights_and_times_are_named(tricycle):
    mm, ref, u, tau = tricycle
    n_w = len(u) + mm.n_arm
    with pytest.raises(ValueError, match=r"state_weight: expected shape"):
        control.TimeVaryingLQR.design(mm, ref, 0.05, np.ones(3), np.ones(n_w))
    with pytest.raises(ValueError, match=r"input_weight: expected weights > 0, got 0.0"):
        control.TimeVaryingLQR.design(mm, ref, 0.05, np.ones(mm.n_state), np.zeros(n_w))
    with pytest.raises(ValueError, match=r"final_weight: expected weights >= 0, got -1.0"):
        control.TimeVaryingLQR.design(
            mm, ref, 0.05, np.ones(mm.n_state), np.ones(n_w), -np.ones(mm.n_state)
        )
    with pytest.raises(ValueError, match=r"period: the reference's samples"):
        control.TimeVaryingLQR.design(mm, ref, 0.033, np.ones(mm.n_state), np.ones(n_w))
    with pytest.raises(ValueError, match=r"t: 0.005 is not a sample"):
        control.ComputedTorque(ref)(mm, 0.005, ref.state(0))
    with pytest.raises(ValueError, match=r"y0: expected shape"):
        control.closed_loop(mm, control.ComputedTorque(ref), np.zeros(3))
