"""Anchored numbers from seed 001, *Práctica 3, Dinámica de Robots*: Ejemplos 3.1–3.4 and
the pendulum of §3.4. What the document prints (Ejemplo 3.3's τ and q̈, Ejemplo 3.4's q̈)
is compared to its printed digits; what it does not print is derived in the test: from
the plain-numpy Newton–Euler of Tabla 3.1 (``tests/rnea_oracle.py``, a second
implementation on the model's public arrays; H by its columns, Walker–Orin's method 1),
from a Lagrangian of the §3.4 pendulum derived with sympy, and the book's own RK4
(``walkerorinrunge3``) written out here. The inputs of Ejemplos 3.3/3.4, drawn with
``rand`` and not printed, are a reconstruction to 4 decimals."""

import numpy as np
import pytest
import sympy as sp

import eslabon as es
from rnea_oracle import rnea as oracle_rnea

pytestmark = pytest.mark.source("Práctica 3", "Ejemplos 3.1–3.4; §3.4, Tabla 3.2")

EJ33_Q = np.array([0.9355, 0.9169, 0.4103, 0.8936])
EJ33_QD = np.array([0.0579, 0.3529, 0.8132, 0.0099])
EJ33_QDD = np.array([0.1389, 0.2028, 0.1987, 0.6038])
EJ33_TAU_PRINTED = np.array([0.5229, 160.0619, 2.0591, 0.0315])
EJ34_QDD_PRINTED = np.array([0.8537, 0.5936, 0.4966, 0.8998, 0.8216, 0.6449])


def oracle_terms(model, q, qd):
    """The oracle's M (column j = τ(q, 0, e_j) − τ(q, 0, 0)), b = τ(q, q̇, 0) and
    G = τ(q, 0, 0)."""
    z = np.zeros(model.nv)
    G = oracle_rnea(model, q, z, z)
    M = np.column_stack([oracle_rnea(model, q, z, e) - G for e in np.eye(model.nv)])
    return M, oracle_rnea(model, q, qd, z), G


def assert_oracle_dynamics(model, q, qd, qdd):
    """τ, b, G, M of eslabon against the oracle's, to round-off (|τ| ≲ 200 N·m)."""
    M, b, G = oracle_terms(model, q, qd)
    np.testing.assert_allclose(
        es.inverse_dynamics(model, q, qd, qdd), oracle_rnea(model, q, qd, qdd), atol=1e-11
    )
    np.testing.assert_allclose(es.bias_forces(model, q, qd), b, atol=1e-11)
    np.testing.assert_allclose(es.gravity_torques(model, q), G, atol=1e-11)
    np.testing.assert_allclose(es.mass_matrix(model, q), M, atol=1e-11)
    return M, b, G


def pendulum_lagrangian():
    """q̈(q, q̇) of the §3.4 pendulum from its Lagrangian, derived with sympy: three 1 m
    links (Tabla 3.2), 3 kg rods with the COM at mid-link and 0.25 kg·m² about it,
    viscous b = 0.1 N·m·s, gravity 9.8 m/s² along −y0 (``practica_pendulum3``)."""
    q = sp.symbols("q1:4")
    qd = sp.symbols("qd1:4")
    m, inertia, g, b = 3, sp.Rational(1, 4), sp.Rational(98, 10), sp.Rational(1, 10)
    angle, tip, T, V = 0, sp.zeros(2, 1), 0, 0
    for i in range(3):
        angle += q[i]
        u = sp.Matrix([sp.cos(angle), sp.sin(angle)])
        com = tip + u / 2
        tip = tip + u
        v = com.jacobian(q) * sp.Matrix(qd)
        w = sum(qd[: i + 1])
        T += m * (v.dot(v)) / 2 + inertia * w**2 / 2
        V += m * g * com[1]
    L = T - V
    p = sp.Matrix([sp.diff(L, x) for x in qd])
    M = p.jacobian(qd)
    rest = p.jacobian(q) * sp.Matrix(qd) - sp.Matrix([sp.diff(L, x) for x in q])
    rest += b * sp.Matrix(qd)
    M_f = sp.lambdify(q, M, "numpy")
    rest_f = sp.lambdify((q, qd), rest, "numpy")

    def qdd(qv, qdv):
        return np.linalg.solve(np.array(M_f(*qv), float), -np.array(rest_f(qv, qdv), float).ravel())

    return qdd, M_f, rest_f


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


def test_4dof_book_model_against_the_oracle():
    """4-DOF book model (sliding COM) at q = [.1,.2,.3,.4], q̇ = [.5..], q̈ = [.9..]: τ, b,
    G and H are the oracle's (not printed); H₂₂ is the whole mass joint 2 lifts, links 2–4
    and the payload, 5 + 5 + 3 + 3 = 16 kg (Ejemplo 3.1's 156.8 N / 9.8)."""
    m = es.zoo.load("practica_4dof", payload_mass=3, payload_inertia=0.05, book_com=True)
    q, qd, qdd = (
        np.array([0.1, 0.2, 0.3, 0.4]),
        np.array([0.5, 0.6, 0.7, 0.8]),
        np.array([0.9, 1, 1.1, 1.2]),
    )
    M, _, _ = assert_oracle_dynamics(m, q, qd, qdd)
    assert M[1, 1] == pytest.approx(16.0, abs=1e-12)


def test_ejemplo_3_4_round_trip_6dof():
    """Ejemplo 3.4: walkerorin6 returns the printed accelerations from τ = NE(q, q̇, q̈)
    (inputs reconstructed, see above)."""
    m = es.zoo.load("practica_6dof", payload_mass=3, payload_inertia=0.05)
    q = np.array([0.7095, 0.4289, 0.3046, 0.1897, 0.1934, 0.6822])
    qd = np.array([0.3028, 0.5417, 0.1509, 0.6979, 0.3784, 0.8600])
    qdd = EJ34_QDD_PRINTED
    tau = es.inverse_dynamics(m, q, qd, qdd)
    np.testing.assert_allclose(tau, oracle_rnea(m, q, qd, qdd), atol=1e-11)  # not printed
    np.testing.assert_allclose(es.forward_dynamics(m, q, qd, tau), qdd, atol=1e-9)


def test_6dof_against_the_oracle():
    """6-DOF with 3 kg payload (not printed): τ, b, G and H at q = 0 and at q = [.1..]
    are the oracle's; at q = 0 only joint 2 carries a static moment (joints 1, 4, 6 are
    vertical there, joints 3 and 5 balanced)."""
    m = es.zoo.load("practica_6dof", payload_mass=3, payload_inertia=0.05)
    z = np.zeros(6)
    _, _, G0 = assert_oracle_dynamics(m, z, z, z)
    assert G0[1] < -10 and np.abs(np.delete(G0, 1)).max() < 1e-10
    q = np.arange(1, 7) * 0.1
    assert_oracle_dynamics(m, q, q + 0.6, q + 1.2)


def test_pendulum_mass_matrix_and_rest_acceleration():
    """§3.4 pendulum: H(0) in closed form (3 kg rods of 1 m, 0.25 kg·m² about mid-link),
    b(0, 0) = 3·9.8·(0.5 + 1.5 + 2.5, …), and q̈ at rest = −H(0)⁻¹b(0, 0); H and b at a
    random state against the sympy Lagrangian."""
    m = es.zoo.load("practica_pendulum3")
    z = np.zeros(3)
    for method in ("walker_orin_3", "walker_orin_1"):
        np.testing.assert_allclose(
            es.mass_matrix(m, z, algorithm=method),
            [[27, 14, 4], [14, 8, 2.5], [4, 2.5, 1]],
            atol=1e-12,
        )
    H0, b0 = [[27, 14, 4], [14, 8, 2.5], [4, 2.5, 1]], [132.3, 58.8, 14.7]
    np.testing.assert_allclose(es.bias_forces(m, z, z), b0, atol=1e-12)
    np.testing.assert_allclose(
        es.forward_dynamics(m, z, z, z), np.linalg.solve(H0, -np.array(b0)), atol=1e-12
    )
    _, M_f, rest_f = pendulum_lagrangian()
    q, qd = np.random.default_rng(2).uniform(-2, 2, (2, 3))
    np.testing.assert_allclose(es.mass_matrix(m, q), np.array(M_f(*q), float), atol=1e-12)
    np.testing.assert_allclose(
        es.bias_forces(m, q, qd), np.array(rest_f(q, qd), float).ravel(), atol=1e-11
    )


def test_pendulum_rk4_simulation():
    """simula3(1, 0.001) of §3.4 (the document prints no numbers): the book's
    ``walkerorinrunge3`` (classical RK4, its 1e-13 rounding left out) written out here on
    the sympy Lagrangian gives every sample of q and q̇ to 1e-11, round-off over 1000
    steps: RK4's own error at h = 1e-3 is above 1e-9 in q and 1e-8 in q̇ (against dop853
    at 1e-12), so another integrator or step would not pass; dop853 agrees within 1e-6."""
    m = es.zoo.load("practica_pendulum3")
    traj = es.simulate(m, None, None, 1.0, 1e-3)
    assert traj.q.shape == (1001, 3) and np.all(traj.q[0] == 0)
    qdd, _, _ = pendulum_lagrangian()
    q, qd, h = np.zeros(3), np.zeros(3), 1e-3
    for k in range(1000):
        v1, w1 = h * qd, h * qdd(q, qd)
        v2, w2 = h * (qd + w1 / 2), h * qdd(q + v1 / 2, qd + w1 / 2)
        v3, w3 = h * (qd + w2 / 2), h * qdd(q + v2 / 2, qd + w2 / 2)
        v4, w4 = h * (qd + w3), h * qdd(q + v3, qd + w3)
        q, qd = q + (v1 + 2 * v2 + 2 * v3 + v4) / 6, qd + (w1 + 2 * w2 + 2 * w3 + w4) / 6
        np.testing.assert_allclose(traj.q[k + 1], q, atol=1e-11, err_msg=f"step {k + 1}")
        np.testing.assert_allclose(traj.qd[k + 1], qd, atol=1e-11, err_msg=f"step {k + 1}")
    tight = es.simulate(m, None, None, 1.0, 1e-3, integrator="dop853", rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(tight.q, traj.q, atol=1e-6)


def test_pendulum_gravity_direction_matters():
    """Under the arms' v̇0 = (0, 0, g) (the note after Tabla 3.1) the planar pendulum of §3.4
    stays at rest: gravity is along every joint axis."""
    m = es.zoo.load("practica_pendulum3").replace(gravity=(0, 0, -9.8))
    traj = es.simulate(m, None, None, 0.1, 1e-3)
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


def test_rnea_trace_columns_line_up_on_screen():
    """ω̇ and v̇ are a letter and a combining dot (two characters, one column): every row of
    the table, in ``eslabon id --trace`` too, ends in the header's column."""
    import subprocess
    import sys

    from rich.cells import cell_len

    m = es.zoo.load("planar2")
    table = es.rnea_trace(m, [0.1, 0.2], [0.3, 0.4], [0.5, 0.6]).table()
    rows = table.splitlines()[:-1]  # the last line is tau
    assert any("ω̇" in r for r in rows) and {cell_len(r) for r in rows} == {cell_len(rows[0])}
    out = subprocess.run(
        [sys.executable, "-m", "eslabon", "id", "planar2", "--q", "0.1,0.2", "--qd", "0.3,0.4",
         "--qdd", "0.5,0.6", "--trace"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    rows = [r for r in out.splitlines() if r.startswith(("body ", "link"))]
    assert len(rows) == 17 and {cell_len(r) for r in rows} == {cell_len(rows[0])}


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


def test_summary_files_only_printed_values_as_printed(tmp_path):
    """``eslabon reproduce practica``'s summary.json: what seed 001 prints (Ejemplo 3.1's
    joint-2 load, Ejemplo 3.3's τ and acel, Ejemplo 3.4's acel) is filed under "printed";
    the pendulum's q(1 s), which §3.4 does not print (``simula3`` is run, no table), under
    "reference", and it meets eslabon's RK4 run to round-off."""
    import json

    from eslabon.reproduce.newton_euler_examples import reproduce

    reproduce(tmp_path)
    data = json.loads((tmp_path / "summary.json").read_text())
    pendulum = data["pendulum_q_1s"]
    assert "printed" not in pendulum and len(pendulum["reference"]) == 3
    assert pendulum["max_abs_diff"] < 1e-9
    np.testing.assert_allclose(data["ejemplo_3_3"]["tau"]["printed"], EJ33_TAU_PRINTED)
    np.testing.assert_allclose(data["ejemplo_3_4"]["printed"], EJ34_QDD_PRINTED)
    filed = {key for key, entry in data.items() if "printed" in entry}
    filed |= {f"ejemplo_3_3.{k}" for k, v in data["ejemplo_3_3"].items() if "printed" in v}
    assert filed == {"ejemplo_3_1", "ejemplo_3_4", "ejemplo_3_3.tau", "ejemplo_3_3.acel"}
