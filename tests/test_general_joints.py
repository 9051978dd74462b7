"""Joints of every type through the algorithms that take them, against Pinocchio.

Random trees (``eslabon.zoo.random_tree`` with every joint letter: revolute, prismatic,
fixed, helical, universal, planar, spherical, free flyer) are rebuilt in Pinocchio by
``eslabon.interop.pinocchio.to_pinocchio`` (helical = ``JointModelHelicalUnaligned``,
universal = ``JointModelUniversal``, planar = the composite PX, PY, RZ, spherical =
``JointModelSpherical``, free flyer = ``JointModelFreeFlyer``) and compared on random
states: ``pin.rnea``, ``pin.crba``, ``pin.aba``, ``pin.forwardKinematics`` (poses and body
velocities) and ``pin.computeKineticEnergy``, each to 1e-9 relative, one state and a
batch. The Jacobian is checked against central differences on the manifold
(``eslabon.integrate``), and the algorithms that do not take a joint type refuse it
naming the joint.
"""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from checks import example_robot_data
from eslabon._engine import entrypoints
from eslabon.interop.pinocchio import configuration_order, dof_order, to_pinocchio
from eslabon.kinematics import horner

pin = pytest.importorskip("pinocchio")

RTOL = 1e-9
# every joint type at least once; a free flyer at the root and one inside the tree
TREES = [
    (0, "BRUHLSPRF"),
    (1, "SUHRPLFRB"),
    (2, "LRSRUHPBR"),
    (3, "BSSUULLHH"),
    (4, "RHUPLSRRR"),
    (0, "space"),  # the zoo's space manipulator: a satellite carrying the Puma 560
]


def _tree(seed, letters):
    if letters == "space":
        return es.zoo.load("space_manipulator")
    return es.zoo.random_tree(seed, letters, friction=False)


def _state(model, rng):
    q = es.random_configuration(model, rng)
    return q, rng.normal(size=model.nv), rng.normal(size=model.nv)


def _rel(a, b):
    return np.abs(np.asarray(a) - b).max() / max(1.0, np.abs(b).max())


def _central(model, f, q, v, h=1e-6):
    """Central differences of f(q, v) along q ⊕ h e_k (the tangent space) and v ± h e_k:
    two (len f, nv) matrices, column k for coordinate k."""
    cq, cv = [], []
    for k in range(model.nv):
        e = np.zeros(model.nv)
        e[k] = h
        plus, minus = es.integrate(model, q, e), es.integrate(model, q, -e)
        cq.append((f(plus, v) - f(minus, v)) / (2 * h))
        cv.append((f(q, v + e) - f(q, v - e)) / (2 * h))
    return np.array(cq).T, np.array(cv).T


@pytest.fixture(scope="module", params=TREES, ids=[t[1] for t in TREES])
def case(request):
    model = _tree(*request.param)
    pm = to_pinocchio(model)
    return model, pm, pm.createData(), configuration_order(model), dof_order(model)


def test_sizes_follow_the_joint_types():
    model = _tree(0, "BRUHLSPRF")
    assert (model.nq, model.nv) == (7 + 1 + 2 + 1 + 3 + 4 + 1 + 1, 6 + 1 + 2 + 1 + 3 + 3 + 1 + 1)
    assert model.joint_types.count("free_flyer") == 6
    assert len(model.dof_bodies) == model.nv


def test_dynamics_agree_with_pinocchio(case):
    model, pm, pd, qo, vo = case
    rng = np.random.default_rng(7)
    for _ in range(6):
        q, qd, qdd = _state(model, rng)
        tau_p = pin.rnea(pm, pd, q[qo], qd[vo], qdd[vo])
        tau = np.empty(model.nv)
        tau[vo] = tau_p
        M_p = pin.crba(pm, pd, q[qo])
        M_p = np.triu(M_p) + np.triu(M_p, 1).T
        M = np.empty((model.nv, model.nv))
        M[np.ix_(vo, vo)] = M_p
        qdd_p = pin.aba(pm, pd, q[qo], qd[vo], tau_p)
        assert _rel(es.inverse_dynamics(model, q, qd, qdd), tau) < RTOL
        g = np.empty(model.nv)
        g[vo] = pin.computeGeneralizedGravity(pm, pd, q[qo])
        assert _rel(es.gravity_torques(model, q), g) < RTOL
        b = np.empty(model.nv)
        b[vo] = pin.nonLinearEffects(pm, pd, q[qo], qd[vo])
        assert _rel(es.bias_forces(model, q, qd), b) < RTOL
        for method in ("crba", "walker_orin_1"):
            assert _rel(es.mass_matrix(model, q, algorithm=method), M) < RTOL
        for method in ("aba", "walker_orin_3", "walker_orin_1"):
            assert _rel(es.forward_dynamics(model, q, qd, tau, algorithm=method), qdd) < 1e-8
        assert _rel(qdd_p, qdd[vo]) < 1e-8  # Pinocchio's ABA closes the loop
        kinetic = 0.5 * qd @ M @ qd  # rotors (armature) included, as Pinocchio's crba
        assert abs(es.kinetic_energy(model, q, qd) - kinetic) < RTOL * max(1.0, kinetic)


@pytest.mark.parametrize(
    "seed, letters", TREES + [(5, "BRHSRPRR"), (6, "SRHRBRS")], ids=lambda x: str(x)
)
def test_coriolis_matrix_agrees_with_pinocchio_and_is_christoffel_consistent(seed, letters):
    """C in the tangent space: C v = b − g, and Ṁ − 2C skew with Ṁ by central differences
    along q ⊕ v h (a batch equals the states); Pinocchio's computeCoriolisMatrix where it
    holds: for universal and planar joints Pinocchio 4.1's C misses C v = b − g (by up
    to 16 on these trees, measured), so it is compared on the other joints only."""
    model = _tree(seed, letters)
    pm = to_pinocchio(model)
    pd, qo, vo = pm.createData(), configuration_order(model), dof_order(model)
    rng = np.random.default_rng(11)
    pin_holds = not {"universal", "planar"} & set(model.joint_types)
    Q, V = [], []
    for _ in range(3):
        q, v, _ = _state(model, rng)
        C = es.coriolis_matrix(model, q, v)
        if pin_holds:
            C_p = np.empty((model.nv, model.nv))
            C_p[np.ix_(vo, vo)] = pin.computeCoriolisMatrix(pm, pd, q[qo], v[vo])
            assert _rel(C, C_p) < RTOL
        b = es.bias_forces(model, q, v) - es.gravity_torques(model, q)
        assert _rel(C @ v, b) < RTOL
        h = 1e-6
        M_dot = (
            es.mass_matrix(model, es.integrate(model, q, h * v))
            - es.mass_matrix(model, es.integrate(model, q, -h * v))
        ) / (2 * h)
        N = M_dot - 2.0 * C
        assert np.abs(N + N.T).max() < 1e-6 * max(1.0, np.abs(M_dot).max())
        Q.append(q)
        V.append(v)
    batch = es.coriolis_matrix(model, np.array(Q), np.array(V))
    for s in range(3):
        np.testing.assert_array_equal(batch[s], es.coriolis_matrix(model, Q[s], V[s]))


def test_kinetic_energy_of_the_bodies_agrees_with_pinocchio():
    model = es.zoo.random_tree(3, "BSSUULLHH", friction=False, armature_chance=0.0)
    pm = to_pinocchio(model)
    pd = pm.createData()
    rng = np.random.default_rng(2)
    for _ in range(4):
        q, qd, _ = _state(model, rng)
        kinetic = pin.computeKineticEnergy(
            pm, pd, q[configuration_order(model)], qd[dof_order(model)]
        )
        assert abs(es.kinetic_energy(model, q, qd) - kinetic) < RTOL * max(1.0, kinetic)


def test_batches_equal_single_states(case):
    model, *_ = case
    rng = np.random.default_rng(11)
    states = [_state(model, rng) for _ in range(13)]  # not a multiple of the lanes width
    Q, QD, QDD = (np.array(x) for x in zip(*states, strict=True))
    tau = es.inverse_dynamics(model, Q, QD, QDD)
    qdd = es.forward_dynamics(model, Q, QD, tau)
    M = es.mass_matrix(model, Q)
    for k, (q, qd, a) in enumerate(states):
        assert _rel(tau[k], es.inverse_dynamics(model, q, qd, a)) < 1e-12
        assert _rel(qdd[k], a) < 1e-8
        assert _rel(M[k], es.mass_matrix(model, q)) < 1e-12


def test_poses_and_body_velocities_agree_with_pinocchio(case):
    model, pm, pd, qo, vo = case
    rng = np.random.default_rng(3)
    q, qd, _ = _state(model, rng)
    pin.forwardKinematics(pm, pd, q[qo], qd[vo])
    T = es.forward_kinematics(model, q)
    V = es.kinematics.link_velocities(model, q, qd, reference="local")
    joint = 0
    for i in map(int, es.interop.pinocchio.body_order(model)):
        if model.joint_type[i] == 0:
            continue  # merged into the parent's joint in Pinocchio
        joint += 1
        assert np.abs(T[i, :3, :3] - pd.oMi[joint].rotation).max() < 1e-12
        assert np.abs(T[i, :3, 3] - pd.oMi[joint].translation).max() < 1e-12
        assert np.abs(V[i, :3] - pd.v[joint].angular).max() < 1e-12
        assert np.abs(V[i, 3:] - pd.v[joint].linear).max() < 1e-12


def test_jacobian_is_the_derivative_on_the_manifold(case):
    model, *_ = case
    rng = np.random.default_rng(5)
    q, _, _ = _state(model, rng)
    J = es.jacobian(model, q, "ee")
    T0 = es.kinematics.frame_pose(model, q, "ee")
    h = 1e-6
    for k in range(model.nv):
        e = np.zeros(model.nv)
        e[k] = h
        Tp = es.kinematics.frame_pose(model, es.integrate(model, q, e), "ee")
        Tm = es.kinematics.frame_pose(model, es.integrate(model, q, -e), "ee")
        dR = (Tp[:3, :3] - Tm[:3, :3]) / (2 * h) @ T0[:3, :3].T  # [ω]×
        w = np.array([dR[2, 1], dR[0, 2], dR[1, 0]])
        v = (Tp[:3, 3] - Tm[:3, 3]) / (2 * h)
        assert np.abs(J[:3, k] - w).max() < 1e-7
        assert np.abs(J[3:, k] - v).max() < 1e-7


def test_fast_path_takes_models_without_quaternions():
    model = _tree(4, "RHUPLRRRR")
    assert model.nq == model.nv
    rng = np.random.default_rng(1)
    q, qd, qdd = _state(model, rng)
    fast = es.inverse_dynamics.__self__.fast(model, q, qd, qdd)
    assert fast is not None
    assert _rel(fast, es.inverse_dynamics(model, q, qd, qdd.tolist())) < 1e-14


# --- bad input -------------------------------------------------------------------------------
def test_a_quaternion_off_unit_length_is_refused_naming_the_joint():
    model = _tree(0, "BRUHLSPRF")
    q = es.neutral(model)
    q[6] = 1.01  # the free flyer's w
    with pytest.raises(ValueError, match="body1") as info:
        es.inverse_dynamics(model, q, np.zeros(model.nv), np.zeros(model.nv))
    assert "normalize" in str(info.value)
    fixed = es.normalize(model, q)
    es.inverse_dynamics(model, fixed, np.zeros(model.nv), np.zeros(model.nv))


@pytest.mark.parametrize(
    "fn",
    [
        es.inverse_dynamics_derivatives,
        es.forward_dynamics_derivatives,
        es.control.linearize,
    ],
)
def test_the_compiled_derivatives_hand_an_off_unit_quaternion_to_the_general_path(fn):
    """The derivatives and the linearization run compiled from C for quaternion joints;
    a quaternion off unit length goes to the general path, whose error names the joint,
    one state or a batch."""
    model = _tree(0, "BRUHLSPRF")
    q = es.neutral(model)
    q[6] = 1.01  # the free flyer's w
    v = np.zeros(model.nv)
    if entrypoints.AVAILABLE:
        assert fn.__self__.fast(model, q, v, v) is None
        assert fn.__self__.fast(model, es.normalize(model, q), v, v) is not None
    for args in ((q, v, v), (np.stack([es.neutral(model), q]), np.stack([v, v]), np.stack([v, v]))):
        with pytest.raises(ValueError, match="body1"):
            fn(model, *args)


@pytest.mark.parametrize("delta", [9.999998e-7, -9.999998e-7, 1.0000002e-6, -1.0000002e-6])
def test_every_path_takes_the_same_quaternions(delta):
    """One state from C, one state from Python and a batch accept the same quaternions:
    norm within 1e-6 of 1 (refused beyond it, naming the joint)."""
    model = es.zoo.load("space_manipulator")
    q = es.neutral(model)
    q[6] = 1.0 + delta  # the free flyer's w: the quaternion's norm is 1 + delta
    v = np.zeros(model.nv)
    calls = [
        lambda q, v: es.inverse_dynamics(model, q, v, v),
        lambda q, v: es.mass_matrix(model, q),
        lambda q, v: es.forward_dynamics(model, q, v, v),
        lambda q, v: es.inverse_dynamics_derivatives(model, q, v, v),
        lambda q, v: es.forward_dynamics_derivatives(model, q, v, v),
        lambda q, v: es.control.linearize(model, q, v, v),
    ]
    for call in calls:
        for args in ((q, v), (q.tolist(), v), (np.stack([q, q]), np.stack([v, v]))):
            if abs(delta) < 1e-6:
                call(*args)
            else:
                with pytest.raises(ValueError, match="norm"):
                    call(*args)


def test_q_of_length_nv_is_refused_with_both_lengths():
    model = _tree(0, "BRUHLSPRF")
    v = np.zeros(model.nv)
    with pytest.raises(ValueError, match=rf"q: .*\({model.nq},\).*nv = {model.nv}"):
        es.inverse_dynamics(model, v, v, v)
    with pytest.raises(ValueError, match=rf"qd: .*\({model.nv},\).*nq = {model.nq}"):
        es.inverse_dynamics(model, es.neutral(model), es.neutral(model), v)


@pytest.mark.parametrize(
    "call, what",
    [
        (lambda m, q, v: es.forward_dynamics(m, q, v, v, algorithm="lagrange"), "'lagrange'"),
        (
            lambda m, q, v: es.forward_dynamics(m, q, v, v, algorithm="gibbs_appell"),
            "'gibbs_appell'",
        ),
        (lambda m, q, v: es.mass_matrix(m, q, algorithm="lagrange"), "'lagrange'"),
        (lambda m, q, v: horner.forward_recursion(m, q), "Horner"),
    ],
)
def test_what_does_not_take_a_joint_type_refuses_it_by_name(call, what):
    model = _tree(1, "SRRR")
    with pytest.raises(ValueError, match=rf"{what}.*'body1' is spherical"):
        call(model, es.neutral(model), np.zeros(model.nv))


@pytest.mark.parametrize("letters", ["BRUHLSPRF", "RHUPLRRRR", "space"])
def test_crosscheck_runs_every_formulation_that_takes_the_model(letters):
    model = _tree(0, letters)
    report = es.crosscheck(model)
    assert report.ok, report.table()
    ran = {c.name for c in report.checks if not c.skipped}
    assert {"Walker-Orin 3 + Cholesky", "ABA round trip to q̈", "energy rate dE/dt"} <= ran
    skipped = {c.name: c.skipped for c in report.checks if c.skipped}
    # skipped for a joint type, or (the constraint-force method, which needs I⁻¹) for
    # the Puma's massless link 1 of the space manipulator
    reasons = ("joint of body", "singular 6×6 inertia")
    assert all(any(r in why for r in reasons) for why in skipped.values()), skipped


# --- simulation on the manifold: a free-flying space manipulator --------------------------
def _space_run(**options):
    model = es.zoo.load("space_manipulator")
    q0 = es.neutral(model)
    q0[7:] = [0.3, -0.5, 0.4, 0.2, -0.3, 0.1]
    qd0 = np.zeros(model.nv)
    qd0[:6] = [0.01, -0.02, 0.03, 0.05, -0.04, 0.02]
    scale = np.array([2.0, 2.0, 1.0, 0.01, 0.01, 0.005])

    def arm_torque(t, q, qd):  # the satellite's joint takes no torque: no external force
        return np.concatenate([np.zeros(6), np.sin(3.0 * t) * scale])

    return model, es.simulate(model, q0=q0, qd0=qd0, torque=arm_torque, **options)


def test_a_free_flying_system_keeps_its_momentum_and_unit_quaternions():
    model, run = _space_run(t_final=1.0, dt=0.005)
    h = es.momentum(model, run.q, run.qd)
    assert np.abs(h - h[0]).max() < 1e-8 * max(1.0, np.abs(h[0]).max())
    assert np.abs(np.linalg.norm(run.q[:, 3:7], axis=1) - 1.0).max() < 1e-12
    assert np.abs(run.q[-1, :7] - run.q[0, :7]).max() > 1e-3  # the arm moved the satellite
    # no torque at all: the energy is conserved too
    free = es.simulate(model, run.q[0], run.qd[0], 1.0, 0.005)
    energy = es.kinetic_energy(model, free.q, free.qd)
    assert np.abs(energy - energy[0]).max() < 1e-10 * energy[0]


def test_rk4_on_the_manifold_converges_at_fourth_order():
    model, ref = _space_run(t_final=0.4, dt=0.0005, integrator="dop853", rtol=1e-12, atol=1e-14)
    errors = []
    for dt in (0.02, 0.01):
        _, run = _space_run(t_final=0.4, dt=dt)
        errors.append(np.abs(es.difference(model, run.q[-1], ref.q[-1])).max())
    assert 12.0 < errors[0] / errors[1] < 20.0, errors  # 2⁴ = 16
    _, adaptive = _space_run(t_final=0.4, dt=0.01, integrator="dop853")
    assert np.abs(es.difference(model, adaptive.q[-1], ref.q[-1])).max() < 1e-9


def test_momentum_agrees_with_pinocchio():
    model = es.zoo.random_tree(2, "BSSUULLHH", friction=False)
    pm = to_pinocchio(model)
    pd = pm.createData()
    rng = np.random.default_rng(4)
    q, qd, _ = _state(model, rng)
    pin.computeCentroidalMomentum(pm, pd, q[configuration_order(model)], qd[dof_order(model)])
    h = es.momentum(model, q, qd)
    com = pin.centerOfMass(pm, pd, q[configuration_order(model)])
    assert np.abs(h[3:] - pd.hg.linear).max() < 1e-12 * max(1.0, np.abs(h).max())
    # Pinocchio's angular momentum is about the centre of mass: h_G = h_O − c × p
    assert np.abs(h[:3] - np.cross(com, h[3:]) - pd.hg.angular).max() < 1e-12 * max(
        1.0, np.abs(h).max()
    )


# --- mimic joints -----------------------------------------------------------------------
_erd = example_robot_data


def test_a_gripper_with_a_mimic_finger_agrees_with_pinocchio():
    """The Panda of example-robot-data: its second finger mimics the first (URDF
    ``<mimic>``); Pinocchio's ``buildModelFromXML(..., mimic=True)`` is the oracle."""
    from eslabon.model.urdf import read_urdf

    text = _erd("panda_description/urdf/panda.urdf").read_text()
    model, info = read_urdf(text, gravity=(0, 0, -9.81))
    model = model.replace(viscous=np.zeros(model.nb + 1), coulomb=np.zeros(model.nb + 1))
    assert (model.nq, model.nv, model.engine_nv) == (8, 8, 9)
    pm = pin.buildModelFromXML(text, mimic=True)
    pd = pm.createData()
    names = info.dof_names(model)
    order = [
        names.index(pm.names[j])
        for j in range(1, pm.njoints)
        if pm.joints[j].nv > 0 and pm.names[j] in names
    ]
    assert sorted(order) == list(range(model.nv))
    rng = np.random.default_rng(0)
    for _ in range(4):
        q, qd, qdd = rng.uniform(-1, 1, (3, model.nv))
        q[7] = rng.uniform(0.0, 0.04)  # the finger opening
        tau = es.inverse_dynamics(model, q, qd, qdd)
        assert _rel(tau[order], pin.rnea(pm, pd, q[order], qd[order], qdd[order])) < RTOL
        M = pin.crba(pm, pd, q[order])
        M = np.triu(M) + np.triu(M, 1).T
        assert _rel(es.mass_matrix(model, q)[np.ix_(order, order)], M) < RTOL
        back = es.forward_dynamics(model, q, qd, tau, algorithm="walker_orin_3")
        assert _rel(back, qdd) < 1e-8
        batch = es.inverse_dynamics(
            model, np.tile(q, (5, 1)), np.tile(qd, (5, 1)), np.tile(qdd, (5, 1))
        )
        assert _rel(batch[3], tau) < 1e-12


def test_mimic_dynamics_are_the_coupled_systems():
    """τ = Gᵀ τ_e and M = Gᵀ M_e G against the model with the mimic joint free, and the
    derivatives against central differences."""
    base = es.zoo.random_tree(3, "RRRPR", friction=False)
    coupled = base.replace(
        mimic_joint=np.array([-1, -1, -1, 1, -1, -1]),
        mimic_multiplier=np.array([1, 1, 1, -0.7, 1, 1.0]),
        mimic_offset=np.array([0, 0, 0, 0.2, 0, 0.0]),
    )
    assert (coupled.nv, coupled.engine_nv) == (4, 5)
    rng = np.random.default_rng(1)
    q, qd, qdd = rng.uniform(-1, 1, (3, 4))
    G = coupled.mimic.G
    full = lambda x: np.insert(x, 2, -0.7 * x[0])  # body 3 is the third joint
    tau_free = es.inverse_dynamics(base, full(q) + np.array([0, 0, 0.2, 0, 0]), full(qd), full(qdd))
    assert _rel(es.inverse_dynamics(coupled, q, qd, qdd), G.T @ tau_free) < 1e-12
    # the Newton–Euler trace: the bodies move as the free model's, τ is the coupled one
    trace = es.rnea_trace(coupled, q, qd, qdd)
    free = es.rnea_trace(base, full(q) + np.array([0, 0, 0.2, 0, 0]), full(qd), full(qdd))
    for key in ("w", "wd", "vd", "F", "N", "f", "n"):
        np.testing.assert_allclose(getattr(trace, key), getattr(free, key), atol=1e-12)
    assert _rel(trace.tau, es.inverse_dynamics(coupled, q, qd, qdd)) < 1e-12
    dq, dv = es.inverse_dynamics_derivatives(coupled, q, qd, qdd)
    h = 1e-6
    for k in range(4):
        e = np.zeros(4)
        e[k] = h
        fq = (
            es.inverse_dynamics(coupled, q + e, qd, qdd)
            - es.inverse_dynamics(coupled, q - e, qd, qdd)
        ) / (2 * h)
        fv = (
            es.inverse_dynamics(coupled, q, qd + e, qdd)
            - es.inverse_dynamics(coupled, q, qd - e, qdd)
        ) / (2 * h)
        assert np.abs(dq[:, k] - fq).max() < 1e-6
        assert np.abs(dv[:, k] - fv).max() < 1e-6
    # the default takes the mimic joint (Walker–Orin 3); ABA, named, refuses it
    tau = es.inverse_dynamics(coupled, q, qd, qdd)
    qdd_default = es.forward_dynamics(coupled, q, qd, tau)
    assert np.array_equal(
        qdd_default, es.forward_dynamics(coupled, q, qd, tau, algorithm="walker_orin_3")
    )
    assert _rel(qdd_default, qdd) < 1e-12
    with pytest.raises(ValueError, match="algorithm='aba'.*mimic joint of body 'body3'"):
        es.forward_dynamics(coupled, q, qd, qdd, algorithm="aba")


@pytest.mark.parametrize(
    "joint, mult, message",
    [
        ([-1, -1, 4, 3, -1], None, "loop"),
        ([-1, -1, -1, 2, -1], None, "mimics the prismatic joint"),
    ],
)
def test_bad_mimics_are_refused_naming_both_joints(joint, mult, message):
    base = es.zoo.random_tree(0, "RPRRR", friction=False)
    with pytest.raises(ValueError, match=message):
        base.replace(mimic_joint=np.array([-1, *joint]))


# --- derivatives in the tangent space ---------------------------------------------------
@pytest.mark.parametrize("letters", ["SRR", "BRR", "RSRB", "space"])
def test_derivatives_along_the_tangent_space(letters):
    """∂τ/∂q (along q ⊕ ε e_k) and ∂τ/∂v against Pinocchio's computeRNEADerivatives
    (frictionless) and against central differences with friction; the forward dynamics'
    derivatives against central differences."""
    model = _tree(2, letters)
    rng = np.random.default_rng(8)
    q, qd, qdd = _state(model, rng)
    dq, dv = es.inverse_dynamics_derivatives(model, q, qd, qdd)
    pm = to_pinocchio(model)
    pd = pm.createData()
    qo, vo = configuration_order(model), dof_order(model)
    pin.computeRNEADerivatives(pm, pd, q[qo], qd[vo], qdd[vo])
    assert _rel(dq[np.ix_(vo, vo)], pd.dtau_dq) < 1e-10
    assert _rel(dv[np.ix_(vo, vo)], pd.dtau_dv) < 1e-10
    rough = model.replace(
        viscous=np.linspace(0.1, 0.3, model.nb + 1), coulomb=np.full(model.nb + 1, 0.05)
    )
    dq, dv = es.inverse_dynamics_derivatives(rough, q, qd, qdd)
    tau = es.inverse_dynamics(rough, q, qd, qdd)
    fq, fv, Minv = es.forward_dynamics_derivatives(rough, q, qd, tau)
    cq, cv = _central(model, lambda x, y: es.inverse_dynamics(rough, x, y, qdd), q, qd)
    gq, gv = _central(model, lambda x, y: es.forward_dynamics(rough, x, y, tau), q, qd)
    for k in range(model.nv):
        assert _rel(dq[:, k], cq[:, k]) < 1e-6 and _rel(dv[:, k], cv[:, k]) < 1e-6
        assert _rel(fq[:, k], gq[:, k]) < 1e-6
        assert _rel(fv[:, k], gv[:, k]) < 1e-6
    assert _rel(Minv @ es.mass_matrix(rough, q), np.eye(model.nv)) < 1e-10


def test_linearization_on_the_manifold_predicts_a_perturbed_motion():
    """A (tangent space, with −ad(v̄) in its upper-left block) against the rate at which a
    perturbation of the space manipulator's state grows in a short simulation: the
    difference (linear in the time step) falls fourfold when the time step does."""
    model = es.zoo.load("space_manipulator")
    rng = np.random.default_rng(3)
    q = es.random_configuration(model, rng)
    v = 0.5 * rng.normal(size=model.nv)
    lin = es.control.linearize(model, q, v, es.forward_dynamics(model, q, v, np.zeros(12)))
    n, eps = model.nv, 1e-6
    errors = []
    for T in (1e-3, 2.5e-4):
        worst = 0.0
        for j in (3, 4, 5, 9):  # a satellite rotation and arm joints: positions, rates
            for dx in (np.eye(2 * n)[j], np.eye(2 * n)[n + j]):
                nominal = es.simulate(model, q, v, T, T / 10)
                moved = es.simulate(
                    model, es.integrate(model, q, eps * dx[:n]), v + eps * dx[n:], T, T / 10
                )
                dxT = np.concatenate(
                    [
                        es.difference(model, nominal.q[-1], moved.q[-1]),
                        moved.qd[-1] - nominal.qd[-1],
                    ]
                )
                worst = max(worst, np.abs((dxT / eps - dx) / T - lin.A @ dx).max())
        errors.append(worst)
    assert errors[1] < 0.35 * errors[0] and errors[1] < 1e-2, errors


def test_derivatives_and_linearize_take_a_floating_base_with_a_mimic_joint():
    """A free flyer and a mimic joint together (issue 42: PR2, TIAGo Pro, a full Talos):
    ∂τ/∂q, ∂τ/∂q̇ and ∂q̈/∂q, ∂q̈/∂q̇ against central differences along q ⊕ ε e_j, and
    the linearization built from them."""
    from eslabon.control import linearize

    free = es.zoo.load("space_manipulator")  # a free flyer and six revolute joints
    joint = np.full(free.nb + 1, -1)
    joint[5] = 3  # body 5's joint copies half of body 3's, plus 0.1 rad
    mult, offset = np.ones(free.nb + 1), np.zeros(free.nb + 1)
    mult[5], offset[5] = 0.5, 0.1
    model = free.replace(mimic_joint=joint, mimic_multiplier=mult, mimic_offset=offset)
    assert (model.nq, model.nv) == (12, 11)
    rng = np.random.default_rng(3)
    q = es.random_configuration(model, rng)
    v, a = rng.uniform(-1, 1, (2, model.nv))
    tau = es.inverse_dynamics(model, q, v, a)
    dq, dv = es.inverse_dynamics_derivatives(model, q, v, a)
    fdq, fdv, Minv = es.forward_dynamics_derivatives(model, q, v, tau)
    cq, cv = _central(model, lambda x, y: es.inverse_dynamics(model, x, y, a), q, v)
    gq, gv = _central(model, lambda x, y: es.forward_dynamics(model, x, y, tau), q, v)
    for k in range(model.nv):
        assert _rel(dq[:, k], cq[:, k]) < 1e-6 and _rel(dv[:, k], cv[:, k]) < 1e-6
        assert _rel(fdq[:, k], gq[:, k]) < 1e-6 and _rel(fdv[:, k], gv[:, k]) < 1e-6
    lin = linearize(model, q, v, a)
    np.testing.assert_array_equal(lin.W, dq)
    np.testing.assert_array_equal(lin.V, dv)
    assert _rel(lin.M_inv, Minv) < 1e-12
