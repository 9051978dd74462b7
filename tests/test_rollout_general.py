"""eslabon.rollout of models with quaternion or mimic joints: each run equals
eslabon.simulate of it bit for bit (both computed here, in the same run), and what the
compiled loop does not run is refused by name."""

import warnings

import numpy as np
import pytest

import eslabon as es
from eslabon.sim.laws import PD
from eslabon.sim.rollouts import rollout_with_failures


def _mimic_tree():
    tree = es.zoo.random_tree(3, "RRRPR", friction=False)
    return tree.replace(  # body 4's joint copies body 1's
        mimic_joint=np.array([-1, -1, -1, 1, -1, -1]),
        mimic_multiplier=np.array([1, 1, 1, -0.7, 1, 1.0]),
        mimic_offset=np.array([0, 0, 0, 0.2, 0, 0.0]),
    )


def _starts(model, N, seed=0):
    rng = np.random.default_rng(seed)
    q0 = np.stack([es.random_configuration(model, rng) for _ in range(N)])
    return q0, rng.uniform(-0.5, 0.5, (N, model.nv))


@pytest.mark.parametrize("method", ["rk4", "euler"])
def test_mimic_runs_equal_simulate(method):
    model = _mimic_tree()
    N, K = 5, 41
    q0, qd0 = _starts(model, N)
    T = np.random.default_rng(1).uniform(-1, 1, (N, K, model.nv))
    runs = es.rollout(model, q0, qd0, 0.04, 0.001, torque=T, integrator=method)
    assert runs.q.shape == (N, K, model.nq)
    for i in range(N):
        one = es.simulate(model, q0[i], qd0[i], 0.04, 0.001, torque=T[i], integrator=method)
        assert np.array_equal(runs.q[i], one.q)
        assert np.array_equal(runs.qd[i], one.qd)
        assert np.array_equal(runs.qdd[i], one.qdd)


def test_free_flyer_runs_equal_simulate_and_keep_unit_quaternions():
    model = es.zoo.load("space_manipulator")
    N = 6
    q0, qd0 = _starts(model, N)
    tau = np.random.default_rng(2).uniform(-0.5, 0.5, (N, model.nv))
    runs = es.rollout(model, q0, qd0, 0.05, 0.001, torque=tau)
    assert runs.q.shape == (N, 51, model.nq) and runs.qd.shape == (N, 51, model.nv)
    for i in range(N):
        one = es.simulate(model, q0[i], qd0[i], 0.05, 0.001, torque=tau[i])
        assert np.array_equal(runs.q[i], one.q)
        assert np.array_equal(runs.qdd[i], one.qdd)
    quaternion = runs.q[..., 3:7]  # the free flyer's (x, y, z, w)
    assert np.allclose(np.linalg.norm(quaternion, axis=-1), 1.0, atol=1e-14, rtol=0)


def test_a_model_per_run_with_quaternion_joints():
    base = es.zoo.load("space_manipulator")
    models = [base.replace(mass=base.mass * s) for s in (1.0, 1.5, 1.0, 2.0)]
    q0, qd0 = _starts(base, 4, seed=3)
    runs = es.rollout(models, q0, qd0, 0.02, 0.001)
    for i, m in enumerate(models):
        one = es.simulate(m, q0[i], qd0[i], 0.02, 0.001)
        assert np.array_equal(runs.q[i], one.q)


@pytest.mark.parametrize("method", ["rk4", "euler"])
def test_mimic_runs_with_coulomb_friction_equal_simulate(method):
    """A mimic tree whose joints stick and slip: each run takes the stick–slip loop with
    the coupled forward dynamics, as simulate does, and equals it bit for bit."""
    model = es.with_joint_friction(_mimic_tree(), coulomb=0.4)
    N = 4
    q0, qd0 = _starts(model, N, seed=7)
    qd0 *= 0.05
    T = np.random.default_rng(8).uniform(-1, 1, (N, model.nv))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        runs = es.rollout(model, q0, qd0, 0.05, 0.001, torque=T, integrator=method)
    still = runs.qd == 0.0
    assert still.any() and (~still).any()  # some joints stick, some slip
    for i in range(N):
        one = es.simulate(model, q0[i], qd0[i], 0.05, 0.001, torque=T[i], integrator=method)
        assert np.array_equal(runs.q[i], one.q)
        assert np.array_equal(runs.qd[i], one.qd)
        assert np.array_equal(runs.qdd[i], one.qdd)


def test_free_flyer_with_mimic_joints_and_coulomb_friction_runs_equal_simulate():
    """The stick–slip loop on charts with the mimic map (a mimic tree, one of its
    joints a free flyer)."""
    tree = _mimic_tree()
    joint_type = tree.joint_type.copy()
    joint_type[2] = 7  # body 2 a free flyer (code of layout.FREE_FLYER)
    model = es.with_joint_friction(tree.replace(joint_type=joint_type), coulomb=0.3)
    assert model.has_mimic and model.nq == model.nv + 1
    q0, qd0 = _starts(model, 3, seed=9)
    qd0[:, 6:] *= 0.05
    tau = np.random.default_rng(10).uniform(-1, 1, (3, model.nv))
    runs = es.rollout(model, q0, qd0, 0.03, 0.001, torque=tau)
    assert (runs.qd[..., 6:] == 0.0).any()
    for i in range(3):
        one = es.simulate(model, q0[i], qd0[i], 0.03, 0.001, torque=tau[i])
        assert np.array_equal(runs.q[i], one.q) and np.array_equal(runs.qdd[i], one.qdd)


def test_free_flyer_with_coulomb_friction_runs_equal_simulate():
    """Joints that stick and slip: each run takes the stick–slip loop on charts, as
    simulate does, and equals it bit for bit; the energy check finds nothing."""
    model = es.with_joint_friction(es.zoo.load("space_manipulator"), coulomb=0.5)
    q0, qd0 = _starts(model, 4, seed=5)
    qd0[:, 6:] *= 0.05
    tau = np.random.default_rng(6).uniform(-1, 1, (4, model.nv))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        runs = es.rollout(model, q0, qd0, 0.05, 0.001, torque=tau)
    joints = runs.qd[..., 6:]
    assert (joints == 0).any() and (joints != 0).any()
    for i in range(4):
        one = es.simulate(model, q0[i], qd0[i], 0.05, 0.001, torque=tau[i])
        assert np.array_equal(runs.q[i], one.q) and np.array_equal(runs.qd[i], one.qd)


def test_what_the_general_loop_does_not_run_is_refused():
    ff = es.zoo.load("space_manipulator")
    q0, qd0 = _starts(ff, 2)
    law = PD(kp=np.ones(ff.nv), kd=np.ones(ff.nv), q_ref=np.zeros(ff.nv))
    with pytest.raises(ValueError, match="torque: a feedback law"):
        es.rollout(ff, q0, qd0, 0.01, 0.001, torque=law)
    with pytest.raises(ValueError, match="integrator: 'euler' takes models without quaternion"):
        es.rollout(ff, q0, qd0, 0.01, 0.001, integrator="euler")
    bad = q0.copy()
    bad[1, 3:7] *= 1.1
    with pytest.raises(ValueError, match=r"q0 \(row 1\): the quaternion"):
        es.rollout(ff, bad, qd0, 0.01, 0.001)
    with pytest.raises(ValueError, match=rf"q0, qd0: expected arrays of shapes \(N, {ff.nq}\)"):
        es.rollout(ff, q0[:, : ff.nv], qd0, 0.01, 0.001)
    mimic = _mimic_tree()
    mq, mv = _starts(mimic, 2)
    with pytest.raises(ValueError, match="algorithm: the articulated-body algorithm"):
        es.rollout(mimic, mq, mv, 0.01, 0.001, algorithm="aba")
    other = mimic.replace(mimic_multiplier=np.array([1, 1, 1, -0.5, 1, 1.0]))
    with pytest.raises(ValueError, match=r"models\[1\] .*: its mimic joints differ"):
        es.rollout([mimic, other], mq, mv, 0.01, 0.001)

    with pytest.raises(ValueError, match="torque: a Python callable"):
        es.rollout(ff, q0, qd0, 0.01, 0.001, torque=lambda t, q, v: np.zeros(ff.nv))


@pytest.mark.parametrize("name", ["mimic", "free flyer"])
def test_a_diverging_run_is_named_or_marked(name):
    model = _mimic_tree() if name == "mimic" else es.zoo.load("space_manipulator")
    q0, qd0 = _starts(model, 3)
    qd0[2] = 1e200
    with pytest.raises(ValueError, match="run 2: "):
        es.rollout(model, q0, qd0, 0.01, 0.001)
    runs, failed = rollout_with_failures(model, q0, qd0, 0.01, 0.001)
    assert failed.tolist() == [False, False, True]
    one = es.simulate(model, q0[1], qd0[1], 0.01, 0.001)
    assert np.array_equal(runs.q[1], one.q)
