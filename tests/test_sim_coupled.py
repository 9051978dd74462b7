"""``simulate`` of a model with mimic joints in one compiled call
(``src/eslabon/dynamics/coupled_fd.py`` in the loops of ``src/eslabon/sim/rk4.py``).

The compiled forward dynamics is (Gᵀ H_e G) q̈ = τ − Gᵀ b_e, as
``forward_dynamics(method="walker_orin_3")`` computes it in numpy; so the compiled loop
gives the Python loop's trajectory (a callable torque takes it) to rounding: the two
differ in the order of the sums of Gᵀ H_e G and in the Cholesky (LAPACK in numpy), and
agree to 1e-12 of the trajectory's scale over 300 steps. A free-flying model with a
mimic joint takes the loop on charts.
"""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es


def _mimic_tree(joints="RRRR", seed=2, source=1):
    """Body 3's joint copies body ``source``'s at half its value (0.5 q_s + 0.1)."""
    tree = es.zoo.random_tree(seed, joints, friction=False)
    nb = tree.nb
    joint = np.full(nb + 1, -1)
    joint[3] = source
    return tree.replace(
        mimic_joint=joint,
        mimic_multiplier=np.where(joint >= 0, 0.5, 1.0),
        mimic_offset=np.where(joint >= 0, 0.1, 0.0),
    )


def _close(a, b, what):
    for field in ("q", "qd", "qdd", "tau"):
        x, y = getattr(a, field), getattr(b, field)
        scale = max(1.0, float(np.abs(y).max()))
        assert np.abs(x - y).max() <= 1e-12 * scale, (what, field, np.abs(x - y).max())


@pytest.mark.parametrize("fd_method", ["walker_orin_3", "walker_orin_1"])
@pytest.mark.parametrize("method", ["rk4", "euler"])
def test_compiled_loop_with_a_mimic_joint_equals_the_python_loop(method, fd_method):
    model = _mimic_tree()
    rng = np.random.default_rng(0)
    q0, qd0 = rng.uniform(-1, 1, (2, model.nv))
    tau = 0.1 * rng.uniform(-1, 1, model.nv)
    fast = es.simulate(
        model, q0, qd0, 0.3, 1e-3, torque=tau, integrator=method, algorithm=fd_method
    )
    slow = es.simulate(
        model,
        q0,
        qd0,
        0.3,
        1e-3,
        torque=lambda t, q, qd: tau,
        integrator=method,
        algorithm=fd_method,
    )
    _close(fast, slow, (method, fd_method))
    assert np.abs(fast.q[-1] - q0).max() > 1e-2  # it moved
    # each sample's q̈ is the public forward dynamics there
    ref = es.forward_dynamics(model, fast.q, fast.qd, fast.tau)
    assert np.abs(fast.qdd - ref).max() <= 1e-12 * max(1.0, np.abs(ref).max())


def test_a_floating_base_with_a_mimic_joint_takes_the_loop_on_charts():
    model = _mimic_tree("BRRR", seed=4, source=2)
    rng = np.random.default_rng(1)
    q0 = es.integrate(model, es.neutral(model), rng.uniform(-0.3, 0.3, model.nv))
    qd0 = rng.uniform(-0.3, 0.3, model.nv)
    tau = np.zeros(model.nv)
    fast = es.simulate(model, q0, qd0, 0.2, 1e-3, torque=tau)
    slow = es.simulate(model, q0, qd0, 0.2, 1e-3, torque=lambda t, q, qd: tau)
    _close(fast, slow, "floating")


def test_aba_named_still_refuses_a_mimic_joint():
    model = _mimic_tree()
    with pytest.raises(ValueError, match="mimic joint"):
        es.simulate(model, None, None, 0.01, 1e-3, algorithm="aba")


@pytest.mark.parametrize("joints, source", [("RRRR", 1), ("BRRR", 2)])
def test_the_coupled_mass_matrix_of_the_stick_slip_loops(joints, source):
    """coupled_mass_into (G's nonzero entries only) equals Gᵀ H_e G in numpy and
    eslabon.mass_matrix of the model, fixed and on a free flyer."""
    from eslabon._engine.joints import extended_of
    from eslabon._engine.layout import H_NB
    from eslabon.dynamics.composite_rigid_body import COLS
    from eslabon.dynamics.coupled_fd import coupled_mass_into, coupling_arrays

    model = _mimic_tree(joints, source=source)
    P = model.packed_dynamics
    coupling = coupling_arrays(model)
    q = es.random_configuration(model, np.random.default_rng(4))
    ne = coupling[3].shape[0]
    H = np.empty((ne, ne))
    st, Hr = coupled_mass_into(
        P, q, coupling, np.empty((int(P[H_NB]) + 1, COLS)), H, extended_of(P)
    )
    G = coupling[3]
    assert st == 0
    np.testing.assert_allclose(Hr, G.T @ H @ G, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(Hr, es.mass_matrix(model, q), rtol=1e-13, atol=1e-14)
