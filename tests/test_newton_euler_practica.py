"""Anchored numbers from seed 001, *Práctica 3, Dinámica de Robots*: Ejemplos 3.1–3.4 and
the pendulum of §3.4. Numbers the document does not print are marked "reference": they
come from an independent port of the book's MATLAB functions (``newtoneuler4/6``,
``h3/h4/h6``, ``walkerorinrunge3``, ``simula3``), and the inputs of Ejemplos 3.3/3.4, drawn
with ``rand`` and not printed, are a reconstruction to 4 decimals."""

import numpy as np
import pytest

import eslabon as es

EJ33_Q = np.array([0.9355, 0.9169, 0.4103, 0.8936])
EJ33_QD = np.array([0.0579, 0.3529, 0.8132, 0.0099])
EJ33_QDD = np.array([0.1389, 0.2028, 0.1987, 0.6038])
EJ33_TAU_PRINTED = np.array([0.5229, 160.0619, 2.0591, 0.0315])


@pytest.mark.parametrize("book_com", [False, True])
def test_4dof_static_load_is_weight_on_joint_2(book_com):
    """Ejemplo 3.1 text (it prints "156 N"): with q̇ = q̈ = 0 and a 3 kg payload, joint 2
    carries links 2–4 plus the payload, (5 + 5 + 3 + 3)·9.8 = 156.8 N, for any q."""
    m = es.zoo.load("practica_4dof", payload_mass=3, payload_inertia=0.05, book_com=book_com)
    rng = np.random.default_rng(1)
    for _ in range(20):
        q = rng.uniform(-2, 2, 4)
        tau = es.inverse_dynamics(m, q, np.zeros(4), np.zeros(4))
        np.testing.assert_allclose(tau, [0, 156.8, 0, 0], atol=1e-10)


def test_ejemplo_3_3_torques_book_model():
    """Ejemplo 3.3 (inputs reconstructed, see above): τ within 1e-3 of the
    printed [0.5229, 160.0619, 2.0591, 0.0315]. Needs the seed's sliding prismatic COM."""
    m = es.zoo.load("practica_4dof", payload_mass=3, payload_inertia=0.05, book_com=True)
    tau = es.inverse_dynamics(m, EJ33_Q, EJ33_QD, EJ33_QDD)
    np.testing.assert_allclose(tau, EJ33_TAU_PRINTED, atol=1e-3)
    # and walkerorin4 gives back the accelerations
    np.testing.assert_allclose(es.forward_dynamics(m, EJ33_Q, EJ33_QD, tau), EJ33_QDD, atol=1e-12)


def test_ejemplo_3_3_rigid_model_differs():
    """The physically rigid 4-DOF model does not reproduce the printed τ1: the book's
    sliding COM (s̄_i = −0.5 p_i* recomputed with d_i = q_i, as in ``newtoneuler4``) is what
    the printed numbers need."""
    m = es.zoo.load("practica_4dof", payload_mass=3, payload_inertia=0.05)
    tau = es.inverse_dynamics(m, EJ33_Q, EJ33_QD, EJ33_QDD)
    assert abs(tau[0] - EJ33_TAU_PRINTED[0]) > 0.1
    np.testing.assert_allclose(tau[1], EJ33_TAU_PRINTED[1], atol=1e-3)


def test_4dof_book_reference_state():
    """Reference values, 4-DOF book model at q = [.1,.2,.3,.4], q̇ = [.5..], q̈ = [.9..]."""
    m = es.zoo.load("practica_4dof", payload_mass=3, payload_inertia=0.05, book_com=True)
    q, qd, qdd = (
        np.array([0.1, 0.2, 0.3, 0.4]),
        np.array([0.5, 0.6, 0.7, 0.8]),
        np.array([0.9, 1, 1.1, 1.2]),
    )
    np.testing.assert_allclose(
        es.inverse_dynamics(m, q, qd, qdd), [2.64993, 172.83, 10.2825, 0.10168], rtol=1e-5
    )
    np.testing.assert_allclose(
        es.bias_forces(m, q, qd), [2.44, 156.83, -0.8275, 0.04], rtol=1e-6, atol=1e-12
    )
    np.testing.assert_allclose(
        es.mass_matrix(m, q),
        [[1.5777, 0, -1.1, 0], [0, 16, 0, 0], [-1.1, 0, 11, 0], [0, 0, 0, 0.0514]],
        atol=1e-12,
    )


def test_ejemplo_3_4_round_trip_6dof():
    """Ejemplo 3.4: walkerorin6 returns the printed accelerations from τ = NE(q, q̇, q̈)
    (inputs reconstructed, see above)."""
    m = es.zoo.load("practica_6dof", payload_mass=3, payload_inertia=0.05)
    q = np.array([0.7095, 0.4289, 0.3046, 0.1897, 0.1934, 0.6822])
    qd = np.array([0.3028, 0.5417, 0.1509, 0.6979, 0.3784, 0.8600])
    qdd = np.array([0.8537, 0.5936, 0.4966, 0.8998, 0.8216, 0.6449])
    tau = es.inverse_dynamics(m, q, qd, qdd)
    np.testing.assert_allclose(
        tau, [5.46203, -85.442689, -25.983373, 0.257538, -2.068688, 0.141612], rtol=1e-5
    )
    np.testing.assert_allclose(es.forward_dynamics(m, q, qd, tau), qdd, atol=1e-9)


def test_6dof_reference_values():
    """Reference values, 6-DOF with 3 kg payload: static τ at q = 0, τ and G at
    q = [.1..], H(0)."""
    m = es.zoo.load("practica_6dof", payload_mass=3, payload_inertia=0.05)
    z = np.zeros(6)
    np.testing.assert_allclose(
        es.inverse_dynamics(m, z, z, z), [0, -69.12675, 0, 0, 0, 0], atol=1e-10
    )
    q = np.arange(1, 7) * 0.1
    np.testing.assert_allclose(
        es.inverse_dynamics(m, q, q + 0.6, q + 1.2),
        [12.4104747292, -73.0129445055, -16.8144477488, 0.7332842359, -1.2878287743, 0.2559566887],
        rtol=1e-9,
    )
    np.testing.assert_allclose(
        es.gravity_torques(m, q),
        [0, -88.51860196, -20.7697846502, 0.2799933339, -2.5283620447, 0],
        atol=1e-8,
    )
    H0 = es.mass_matrix(m, z)
    np.testing.assert_allclose(H0[0], [2.779481, 0, 0, 0.0567, 0, 0.0514], atol=1e-9)
    np.testing.assert_allclose(H0[1], [0, 4.751174, 2.047493, 0, 0.234168, 0], atol=1e-9)
    np.testing.assert_allclose(H0[4], [0, 0.234168, 0.234168, 0, 0.074568, 0], atol=1e-9)


def test_pendulum_mass_matrix_and_rest_acceleration():
    """§3.4 pendulum (reference values): H(0), b(0, 0) = 3·9.8·(0.5 + 1.5 + 2.5, …) and q̈
    at rest."""
    m = es.zoo.load("practica_pendulum3")
    z = np.zeros(3)
    for method in ("walker_orin_3", "walker_orin_1"):
        np.testing.assert_allclose(
            es.mass_matrix(m, z, method=method),
            [[27, 14, 4], [14, 8, 2.5], [4, 2.5, 1]],
            atol=1e-12,
        )
    np.testing.assert_allclose(es.bias_forces(m, z, z), [132.3, 58.8, 14.7], atol=1e-12)
    np.testing.assert_allclose(
        es.forward_dynamics(m, z, z, z), [-12.438462, 15.830769, -4.523077], atol=1e-6
    )


def test_pendulum_rk4_simulation():
    """simula3(1, 0.001) of §3.4 (the document prints no numbers): against the port's
    q(1 s) = [−1.82249, −0.47365, −0.18922] within 1e-5, and its finer samples; dop853
    (tight) agrees within 1e-6."""
    m = es.zoo.load("practica_pendulum3")
    traj = es.simulate(m, 1.0, 1e-3)
    assert traj.q.shape == (1001, 3) and np.all(traj.q[0] == 0)
    np.testing.assert_allclose(traj.q[-1], [-1.82249, -0.47365, -0.18922], atol=1e-5)
    np.testing.assert_allclose(traj.q[100], [-0.0615113278, 0.0772601653, -0.0205853558], atol=1e-9)
    np.testing.assert_allclose(traj.q[500], [-0.9449439055, 0.4305199819, 0.6107445318], atol=1e-9)
    np.testing.assert_allclose(traj.qd[-1], [-3.6221588239, 0.8352172368, 1.7612610588], atol=1e-8)
    tight = es.simulate(m, 1.0, 1e-3, method="dop853", rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(tight.q, traj.q, atol=1e-6)


def test_pendulum_gravity_direction_matters():
    """Under the arms' v̇0 = (0, 0, g) (the note after Tabla 3.1) the planar pendulum of §3.4
    stays at rest: gravity is along every joint axis."""
    m = es.zoo.load("practica_pendulum3").replace(gravity=(0, 0, -9.8))
    traj = es.simulate(m, 0.1, 1e-3)
    np.testing.assert_allclose(traj.q, 0, atol=1e-14)


def test_rnea_trace_seed_quantities():
    """Tabla 3.1 quantities for the 4-DOF static case, in each DH frame: v̇0 = (0, 0, g)
    reaches every link; f_2 carries the weight of links 2–4 and the payload along z1."""
    m = es.zoo.load("practica_4dof", payload_mass=3, payload_inertia=0.05, book_com=True)
    tr = es.rnea_trace(m, EJ33_Q, EJ33_QD, EJ33_QDD)
    np.testing.assert_allclose(tr.tau, es.inverse_dynamics(m, EJ33_Q, EJ33_QD, EJ33_QDD))
    assert tr.frames[:4] == ("dh1", "dh2", "dh3", "dh4")
    st = es.rnea_trace(m, EJ33_Q, np.zeros(4), np.zeros(4))
    R02 = es.kinematics.frame_pose(m, EJ33_Q, "dh2")[:3, :3]
    np.testing.assert_allclose(R02 @ st.f[1], [0, 0, 156.8], atol=1e-10)
    np.testing.assert_allclose(R02 @ st.vd[1], [0, 0, 9.8], atol=1e-12)
    # τ_i = n_iᵀ z_{i-1} + b q̇ (3.33): z_{i-1} in frame i is the third row of R_{i-1,i}
    R01 = es.kinematics.frame_pose(m, EJ33_Q, "dh1")[:3, :3]
    np.testing.assert_allclose(
        tr.n[0] @ (R01.T @ [0, 0, 1]) + 0.05 * EJ33_QD[0], tr.tau[0], atol=1e-12
    )
    assert "ω̇" in tr.table()


def test_dh_frames_of_pendulum():
    """Tabla 3.2 (a = 1 m, d = 0, α = 0): at q = 0 the pendulum's DH origins are (0,0),
    (1,0), (2,0), (3,0)."""
    m = es.zoo.load("practica_pendulum3")
    poses = es.kinematics.frame_poses(m, np.zeros(3))
    origins = [poses[f"dh{i}"][:2, 3] for i in range(4)]
    np.testing.assert_allclose(origins, [[0, 0], [1, 0], [2, 0], [3, 0]], atol=1e-15)


def test_walker_orin_method_3_costs_fewer_operations_than_method_1():
    """Práctica 3 §3.3: Walker and Orin (1982) compared four methods and found the third
    the most efficient; the practice implements it. Counted on eslabon's kernels (n-joint
    revolute chains): method 3 (composite rigid bodies) needs fewer multiplications and
    additions than method 1 (n Newton–Euler columns), by more as n grows; method 1 costs
    exactly n Newton–Euler passes (and n² additions of its finiteness check on H)."""
    from eslabon.dynamics import opcount

    c3 = opcount.instrumented("walker_orin_3", (4, 6))
    c1 = opcount.instrumented("walker_orin_1", (4, 6))
    ne = opcount.instrumented("rnea", (4, 6))
    ratios = []
    for n in (4, 6):
        assert c3[n]["mul"] < c1[n]["mul"] and c3[n]["add"] < c1[n]["add"]
        assert c1[n]["mul"] == n * ne[n]["mul"] and c1[n]["add"] == n * ne[n]["add"] + n * n
        ratios.append(c1[n]["mul"] / c3[n]["mul"])
    assert ratios[1] > ratios[0] > 2.0
