"""Batch rollouts (issue "Speed, second pass"): N runs in one parallel compiled call
equal N separate `simulate` calls bit for bit, by RK4 and by semi-implicit Euler, with
torques shared or per run, constant or per step; the Euler step is the textbook one;
bad input is named."""

import numpy as np
import pytest

import eslabon as es


@pytest.fixture(scope="module")
def puma():
    return es.zoo.load("puma560")


def _states(model, N, seed=0):
    rng = np.random.default_rng(seed)
    return rng.uniform(-1, 1, (N, model.nv)), rng.uniform(-0.5, 0.5, (N, model.nv))


@pytest.mark.parametrize("method", ["rk4", "euler"])
def test_each_run_is_simulate_bit_for_bit(puma, method):
    """Run i equals simulate from (q0[i], qd0[i]) with torque i, array_equal, on 2
    threads, with a per-run constant torque and with a per-run table of torques."""
    N, K = 9, 51
    q0, v0 = _states(puma, N)
    rng = np.random.default_rng(1)
    per_run = rng.normal(size=(N, puma.nv)) * 5
    table = rng.normal(size=(N, K, puma.nv)) * 5
    es.set_num_threads(2)
    for torque, pick in ((per_run, lambda i: per_run[i]), (table, lambda i: table[i])):
        runs = es.rollout(puma, q0, v0, 0.05, 0.001, torque=torque, integrator=method)
        assert runs.q.shape == runs.qd.shape == runs.qdd.shape == (N, K, puma.nv)
        for i in range(N):
            one = es.simulate(puma, q0[i], v0[i], 0.05, 0.001, torque=pick(i), integrator=method)
            assert np.array_equal(runs.q[i], one.q) and np.array_equal(runs.qd[i], one.qd)
            assert np.array_equal(runs.qdd[i], one.qdd)
        assert np.array_equal(runs.t, one.t)


def test_shared_torques_and_other_fd_methods(puma):
    """A torque (n,) or (K, n) is every run's; Walker–Orin method 3 runs too and agrees
    with ABA to round-off."""
    q0, v0 = _states(puma, 4)
    hold = es.gravity_torques(puma, q0[0])
    a = es.rollout(puma, q0, v0, 0.02, 0.001, torque=hold)
    b = es.rollout(puma, q0, v0, 0.02, 0.001, torque=np.tile(hold, (21, 1)))
    assert np.array_equal(a.q, b.q)
    c = es.rollout(puma, q0, v0, 0.02, 0.001, torque=hold, algorithm="walker_orin_3")
    np.testing.assert_allclose(c.q, a.q, rtol=0, atol=1e-12)


def test_as_many_runs_as_samples_asks_which_torque_is_meant(puma):
    """N = K: a (N, n) torque could be per run or per sample; refused, and the 3-D forms
    (N, 1, n) and (1, K, n) say which."""
    q0, v0 = _states(puma, 11)
    rows = np.random.default_rng(2).normal(size=(11, puma.nv))
    with pytest.raises(ValueError, match=r"N = K = 11.*\(11, 1, 6\) or \(1, 11, 6\)"):
        es.rollout(puma, q0, v0, 0.01, 0.001, torque=rows)
    per_sample = es.rollout(puma, q0, v0, 0.01, 0.001, torque=rows[None])
    one = es.simulate(puma, q0[3], v0[3], 0.01, 0.001, torque=rows)
    assert np.array_equal(per_sample.q[3], one.q)
    per_run = es.rollout(puma, q0, v0, 0.01, 0.001, torque=rows[:, None])
    one = es.simulate(puma, q0[3], v0[3], 0.01, 0.001, torque=rows[3])
    assert np.array_equal(per_run.q[3], one.q)


def test_semi_implicit_euler_is_the_textbook_step(puma):
    """q̇⁺ = q̇ + h q̈(q, q̇), q⁺ = q + h q̇⁺, step by step against forward_dynamics."""
    q0, v0 = _states(puma, 2)
    h = 0.002
    runs = es.rollout(puma, q0, v0, 0.01, h, integrator="euler")
    q, v = q0[1].copy(), v0[1].copy()
    for k in range(5):
        a = es.forward_dynamics(puma, q, v, np.zeros(puma.nv))
        np.testing.assert_allclose(runs.qdd[1, k], a, rtol=1e-13, atol=1e-13)
        v = v + h * a
        q = q + h * v
        np.testing.assert_allclose(runs.q[1, k + 1], q, rtol=1e-13, atol=1e-13)


def test_bad_input_is_named(puma):
    q0, v0 = _states(puma, 3)
    with pytest.raises(ValueError, match=r"q0, qd0: expected arrays of shapes \(N, 6\) and"):
        es.rollout(puma, q0[:, :5], v0, 0.01, 0.001)
    with pytest.raises(ValueError, match=r"torque: expected None or shape \(6,\)"):
        es.rollout(puma, q0, v0, 0.01, 0.001, torque=np.zeros((2, 6)))
    with pytest.raises(ValueError, match="integrator: expected one of"):
        es.rollout(puma, q0, v0, 0.01, 0.001, integrator="midpoint")
    with pytest.raises(ValueError, match="dt: expected a divisor"):
        es.rollout(puma, q0, v0, 0.01, 0.003)
    with pytest.raises(ValueError, match="q0, qd0: expected finite"):
        es.rollout(puma, np.full((3, 6), np.nan), v0, 0.01, 0.001)
    from eslabon.model.builder import ModelBuilder

    b = ModelBuilder()
    b.add_body(0, "free_flyer", mass=1.0, inertia=np.eye(3))
    flyer, rest = b.build(), np.zeros((1, 6))
    with pytest.raises(ValueError, match=r"q0 \(row 0\): the quaternion of .* has norm 0"):
        es.rollout(flyer, np.zeros((1, 7)), rest, 0.01, 0.001)
    law = PD(kp=np.ones(6), kd=np.ones(6), q_ref=np.zeros(6))
    with pytest.raises(ValueError, match="torque: a feedback law .* quaternion or mimic joints"):
        es.rollout(flyer, es.neutral(flyer)[None], rest, 0.01, 0.001, torque=law)
    with pytest.raises(ValueError, match=r"run 1: "):
        huge = np.zeros((3, 6))
        huge[1] = 1e200
        es.rollout(puma, q0, huge, 0.01, 0.001)


# --- issue 27: per-run models, compiled feedback laws ---------------------------------

from eslabon.sim.laws import PD, ComputedTorque  # noqa: E402
from eslabon.sim.rollouts import rollout_with_failures  # noqa: E402

# the PUMA's mass-matrix diagonal at q = 0, rounded: PD gains in proportion keep its light
# wrist stable at dt = 1 ms
PUMA_DIAG = np.array([3.2, 2.1, 0.36, 1.6e-3, 6.4e-4, 4e-5])


def _payloads(model, scales):
    """Copies of ``model`` with its last body's mass scaled (one structure, other
    parameters), one per scale; equal scales give the same object."""
    made = {}
    for s in scales:
        if s not in made:
            mass = model.mass.copy()
            mass[-1] *= s
            made[s] = model.replace(mass=mass, viscous=model.viscous * s)
    return [made[s] for s in scales]


@pytest.mark.parametrize(
    "method, fd_method", [("rk4", "aba"), ("euler", "aba"), ("rk4", "walker_orin_3")]
)
def test_each_run_with_its_own_model_is_simulate_bit_for_bit(puma, method, fd_method):
    """Run i with models[i] equals simulate(models[i], ...): 4 models, one of them
    WIDTH + 1 times (a full lanes block and a part one), two once, one twice."""
    from eslabon._engine.lanes import WIDTH

    scales = [1.0, 2.0, 1.0, 1.0, 3.0, 2.0, 1.0, 1.0, 1.5] + [1.0] * (WIDTH - 4)
    N = len(scales)
    models = _payloads(puma, scales)
    q0, v0 = _states(puma, N)
    table = np.random.default_rng(3).normal(size=(N, 21, 6)) * PUMA_DIAG * 5
    runs = es.rollout(
        models, q0, v0, 0.02, 0.001, torque=table, integrator=method, algorithm=fd_method
    )
    for i in range(N):
        one = es.simulate(
            models[i],
            q0[i],
            v0[i],
            0.02,
            0.001,
            torque=table[i],
            integrator=method,
            algorithm=fd_method,
        )
        assert np.array_equal(runs.q[i], one.q) and np.array_equal(runs.qd[i], one.qd)
        assert np.array_equal(runs.qdd[i], one.qdd) and np.array_equal(runs.tau[i], one.tau)
    other = es.rollout(
        puma, q0, v0, 0.02, 0.001, torque=table, integrator=method, algorithm=fd_method
    )
    assert not np.array_equal(runs.q[1], other.q[1])  # the payload mattered
    assert np.array_equal(runs.q[0], other.q[0])


def test_models_of_another_structure_are_refused(puma):
    q0, v0 = _states(puma, 3)
    planar = es.zoo.load("planar2")
    with pytest.raises(ValueError, match=r"model: expected one Model or a sequence of N = 3"):
        es.rollout([puma, puma], q0, v0, 0.01, 0.001)
    with pytest.raises(ValueError, match=r"model: models\[1\] is not a Model"):
        es.rollout([puma, "puma", puma], q0, v0, 0.01, 0.001)
    with pytest.raises(
        ValueError,
        match=r"model: models\[2\] \(.*\) differs from models\[0\]"
        r".* in the number of bodies \(2, not 6\)",
    ):
        es.rollout([puma, puma, planar], q0, v0, 0.01, 0.001)
    from eslabon.model.builder import ModelBuilder

    def arm(second):
        b = ModelBuilder()
        b.add_body(0, "revolute", axis=[0, 0, 1], mass=1.0, inertia=np.eye(3) * 0.1)
        b.add_body(
            1, second, axis=[1, 0, 0], mass=1.0, inertia=np.eye(3) * 0.1, translation=[0.5, 0, 0]
        )
        return b.build()

    wrong = r"models\[1\] .* the joint of body 2 \(prismatic, not revolute\)"
    with pytest.raises(ValueError, match=wrong):
        es.rollout(
            [arm("revolute"), arm("prismatic")], np.zeros((2, 2)), np.zeros((2, 2)), 0.01, 0.001
        )


def _laws(N, K, n, scale):
    """A PD and a computed-torque law with per-run, shared and constant fields, the
    references random at every half step (2K − 1 rows)."""
    rng = np.random.default_rng(5)
    S = 2 * K - 1
    pd = PD(
        rng.uniform(50, 200, (N, n)) * scale,
        10 * scale,
        rng.normal(size=(N, S, n)),
        rng.normal(size=(S, n)),
        rng.normal(size=n) * scale,
    )
    ct = ComputedTorque(
        rng.uniform(50, 200, n),
        20.0,
        rng.normal(size=(S, n)),
        rng.normal(size=(N, 1, n)),
        rng.normal(size=(N, S, n)),
    )
    return pd, ct


@pytest.mark.parametrize(
    "method, fd_method",
    [("rk4", "aba"), ("euler", "aba"), ("rk4", "walker_orin_3"), ("euler", "walker_orin_1")],
)
@pytest.mark.parametrize("per_run_models", [False, True])
def test_a_compiled_law_is_simulate_with_its_python_law_bit_for_bit(
    puma, method, fd_method, per_run_models
):
    """PD and computed torque in the loop equal simulate with ``law.as_torque`` (the
    same reference rows, the same arithmetic) in q, q̇, q̈ and τ, array_equal, on one
    model and on per-run models (lanes blocks of one model, and one arm at a time)."""
    N, K = 6, 21
    models = _payloads(puma, [1.0, 1.3, 1.0, 2.0, 1.3, 1.0]) if per_run_models else [puma] * N
    q0, v0 = _states(puma, N)
    for law in _laws(N, K, 6, PUMA_DIAG):
        runs = es.rollout(
            models if per_run_models else puma,
            q0,
            v0,
            0.02,
            0.001,
            torque=law,
            integrator=method,
            algorithm=fd_method,
        )
        for i in range(N):
            one = es.simulate(
                models[i],
                q0[i],
                v0[i],
                0.02,
                0.001,
                integrator=method,
                torque=law.as_torque(0.001, i, models[i]),
                algorithm=fd_method,
            )
            for a, b in zip(runs[1:], (one.q, one.qd, one.qdd, one.tau), strict=True):
                assert np.array_equal(a[i], b), (type(law).__name__, i)


def test_the_references_are_read_at_the_half_steps(puma):
    """A PD whose q_ref is 0 at the sample times and 1 at the half steps: RK4 feels the
    half steps, Euler (which only evaluates at the samples) does not."""
    K = 11
    q_ref = np.zeros((2 * K - 1, 6))
    q_ref[1::2] = 1.0
    law = PD(PUMA_DIAG * 100, PUMA_DIAG * 10, q_ref)
    zero = PD(PUMA_DIAG * 100, PUMA_DIAG * 10, np.zeros(6))
    start = np.zeros((1, 6)), np.zeros((1, 6))
    for method, moved in (("rk4", True), ("euler", False)):
        a = es.rollout(puma, *start, 0.01, 0.001, torque=law, integrator=method)
        b = es.rollout(puma, *start, 0.01, 0.001, torque=zero, integrator=method)
        assert np.array_equal(a.tau[:, 0], b.tau[:, 0])  # τ at t = 0: row 0
        assert (not np.array_equal(a.q, b.q)) == moved
        assert (not np.array_equal(a.tau, b.tau)) == moved


def test_computed_torque_with_an_exact_model_makes_the_error_linear(puma):
    """With the plant's own model the error obeys ë + K_d ė + K_p e = 0: from e(0) = e0,
    ė(0) = 0 it is e0 (1 + 10 t) e^(−10 t) (critically damped) to RK4's error; with a
    controller model of another payload the error departs from it."""
    kp, kd = 100.0, 20.0
    q_star = np.array([0.3, -0.4, 0.5, 0.2, -0.3, 0.1])
    e0 = np.array([0.05, -0.05, 0.02, 0.1, -0.1, 0.05])
    law = ComputedTorque(kp, kd, q_star)
    runs = es.rollout(puma, (q_star - e0)[None], np.zeros((1, 6)), 0.5, 0.001, torque=law)
    t = runs.t[:, None]
    expected = e0 * (1 + 10 * t) * np.exp(-10 * t)
    np.testing.assert_allclose(q_star - runs.q[0], expected, rtol=0, atol=1e-9)
    heavy = _payloads(puma, [4.0])[0]
    off = ComputedTorque(kp, kd, q_star, model=heavy)
    runs = es.rollout(puma, (q_star - e0)[None], np.zeros((1, 6)), 0.5, 0.001, torque=off)
    assert np.abs(q_star - runs.q[0] - expected).max() > 1e-4
    one = es.simulate(puma, q_star - e0, None, 0.5, 0.001, torque=off.as_torque(0.001))
    assert np.array_equal(runs.q[0], one.q)


def test_bad_laws_are_named(puma):
    q0, v0 = _states(puma, 3)
    K = 11  # 0.01 s at 1 ms

    def run(law):
        es.rollout(puma, q0, v0, 0.01, 0.001, torque=law)

    with pytest.raises(ValueError, match=r"PD\.kp: expected a number, shape \(6,\) .* or \(3, 6\)"):
        run(PD(np.ones(5), 1.0, np.zeros(6)))
    with pytest.raises(ValueError, match=r"PD\.kd: expected .* got shape \(2, 6\)"):
        run(PD(1.0, np.ones((2, 6)), np.zeros(6)))
    with pytest.raises(
        ValueError,
        match=r"PD\.q_ref: expected shape .*\(21, 6\) \(2K − 1 = 21 "
        r"samples.* got \(11, 6\) \(11 rows are the sample",
    ):
        run(PD(1.0, 1.0, np.zeros((K, 6))))
    with pytest.raises(ValueError, match=r"PD\.tau_ff: expected shape .* got \(2, 21, 6\)"):
        run(PD(1.0, 1.0, np.zeros(6), tau_ff=np.zeros((2, 21, 6))))
    with pytest.raises(ValueError, match=r"ComputedTorque\.qdd_ref: expected shape"):
        run(ComputedTorque(1.0, 1.0, np.zeros(6), qdd_ref=np.zeros(7)))
    with pytest.raises(ValueError, match=r"PD\.kp: expected finite values"):
        PD(np.nan, 1.0, np.zeros(6))
    with pytest.raises(ValueError, match=r"PD\.q_ref: expected at most 3 dimensions"):
        PD(1.0, 1.0, np.zeros((1, 1, 1, 6)))
    with pytest.raises(ValueError, match=r"PD\.q_ref: expected an array, got None"):
        PD(1.0, 1.0, None)
    with pytest.raises(ValueError, match=r"ComputedTorque\.model: planar2 differs from"):
        run(ComputedTorque(1.0, 1.0, np.zeros(6), model=es.zoo.load("planar2")))
    with pytest.raises(ValueError, match=r"model: ComputedTorque.as_torque needs the run's"):
        ComputedTorque(1.0, 1.0, np.zeros(6)).as_torque(0.001)
    with pytest.raises(ValueError, match=r"torque: a Python callable cannot run"):
        run(lambda t, q, qd: np.zeros(6))


def test_a_diverging_run_is_marked_and_the_others_kept(puma):
    """rollout_with_failures marks the run that diverges; the others equal simulate
    (the failed run's lanes block is rerun arm by arm); rollout names the run."""
    q0, v0 = _states(puma, 6)
    v0[2] = 1e200
    law = PD(PUMA_DIAG * 100, PUMA_DIAG * 10, np.zeros(6))
    runs, failed = rollout_with_failures(puma, q0, v0, 0.01, 0.001, torque=law)
    assert failed.tolist() == [False, False, True, False, False, False]
    for i in (0, 3, 5):
        one = es.simulate(puma, q0[i], v0[i], 0.01, 0.001, torque=law.as_torque(0.001, i))
        assert np.array_equal(runs.q[i], one.q) and np.array_equal(runs.tau[i], one.tau)
    with pytest.raises(ValueError, match=r"^run 2: "):
        es.rollout(puma, q0, v0, 0.01, 0.001, torque=law)


def test_given_torques_come_back_as_tau(puma):
    q0, v0 = _states(puma, 3)
    per_run = np.random.default_rng(6).normal(size=(3, 6))
    runs = es.rollout(puma, q0, v0, 0.01, 0.001, torque=per_run)
    assert runs.tau.shape == (3, 11, 6) and np.array_equal(
        runs.tau[1], np.tile(per_run[1], (11, 1))
    )
