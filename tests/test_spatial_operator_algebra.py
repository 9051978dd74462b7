"""Spatial operator algebra and constraint-force forward dynamics, seeds 002/004
(Jaramillo Botero 1998, *Dinámica de Manipuladores Robóticos*) (1.55)–(1.103), Figures 7
and 8, against eslabon's reference cases P1, A and B (the document prints no numbers;
their values were computed independently with the corrected Figure 7 and checked against
a closed-form 2R model and a Lagrangian built from Jacobians). Errata guarded: the sign
of the last force term of (1.60)/Figure 7, Figure 8's step ➎ (printed −Bᵀ F_S, right
+Bᵀ F_S by (1.100)–(1.101)) and the reversed block subscripts of ρ.
"""

import numpy as np
import pytest

import eslabon as es
from checks import ONE_DOF_ZOO, check
from eslabon.dynamics import soa

CASE_B = dict(
    q=np.array([0.5, 0.25, -0.8]), qd=np.array([1.0, -0.3, 2.0]), qdd=np.array([0.5, 1.0, -1.5])
)
CASE_A = dict(q=np.array([0.3, -0.5]), qd=np.array([0.4, 1.2]), qdd=np.array([-0.7, 0.9]))


def random_state(model, seed):
    return np.random.default_rng(seed).uniform(-1, 1, (3, model.nq))


@pytest.mark.parametrize("n", list(range(1, 31)))
def test_every_forward_dynamics_agrees_on_random_chains(n):
    """Issue: ABA, SOA, Walker–Orin 3 + Cholesky and Lagrange forward dynamics agree to
    1e-10 relative on seeded random R/P chains, n = 1..30; the operator form's composite-body
    expansion equals Walker–Orin 3."""
    for seed in (n, n + 100):
        model = es.zoo.random_chain(n, seed, friction=True).replace(armature=0.0)
        q, qd, tau = random_state(model, seed)
        ref = es.forward_dynamics(model, q, qd, tau)
        for method in ("soa", "walker_orin_3", "lagrange"):
            check(
                es.forward_dynamics(model, q, qd, tau, algorithm=method),
                ref,
                1e-10,
                scale=np.abs(ref).max(),
                what=f"{method} n={n}",
            )
        M = es.mass_matrix(model, q)
        check(es.mass_matrix(model, q, algorithm="soa"), M, 1e-12, scale=np.abs(M).max())
        # "crba" is the compiled composite-rigid-body kernel itself: the same bytes
        assert es.mass_matrix(model, q, algorithm="crba").tobytes() == M.tobytes()
        check(es.mass_matrix(model, q, algorithm="soa_operator"), M, 1e-12, scale=np.abs(M).max())


def test_case_b_rpr_chain():
    """Case B: O_i, world H_i, M, ξ, gravity, τ and forward dynamics to 1e-9."""
    model = es.zoo.load("jaramillo_rpr")
    q, qd, qdd = CASE_B["q"], CASE_B["qd"], CASE_B["qdd"]
    d = soa.chain_data(model, q, qd)
    check(
        d.origins,
        [
            [0, 0, 0.3],
            [0.071717838465, 0.28588730585, 0.925],
            [-0.118331316727, 0.63376995095, 1.038397459622],
        ],
        1e-11,
    )
    check(
        d.origins + d.com_offset,
        [
            [0.0877582562, 0.0479425539, 0.45],
            [-0.0233067391, 0.4598286284, 0.9816987298],
            [-0.0048949843, 0.6347091015, 1.0328013467],
        ],
        1e-9,
    )
    check(
        np.hstack(d.H).T,
        [
            [0, 0, 1, 0, 0, 0],
            [0, 0, 0, -0.415194695654, 0.760008792515, 0.5],
            [0.87758256189, 0.479425538604, 0, 0, 0, 0],
        ],
        1e-11,
    )
    M, xi = soa.operator_terms(model, q, qd)
    check(
        M,
        [
            [0.914026275785, 0.606217782649, 0.001197811997],
            [0.606217782649, 3.0, -0.021933670358],
            [0.001197811997, -0.021933670358, 0.0069],
        ],
        1e-9,
    )
    check(xi, [-0.644333527688, 13.709011689591, -0.528817267341], 1e-9)
    check(es.gravity_torques(model, q), [0, 14.715, -0.525424508491], 1e-9)
    check(M @ qdd + xi, [0.417100674858, 17.045021086453, -0.5605020317], 1e-9)
    tau = np.array([5.0, 30.0, -1.0])
    expected = [3.363500470499, 4.348180603309, -55.049277371652]
    check(soa.forward_dynamics(model, q, qd, tau), expected, 1e-9, scale=1.0)
    check(es.forward_dynamics(model, q, qd, tau, algorithm="soa"), expected, 1e-9, scale=1.0)


def test_case_b_printed_step_5_sign_is_not_what_the_library_does():
    """Figure 8 step ➎ as printed (−Bᵀ F_S) gives (C + BᵀA⁻¹B) F_T = the wrong
    [278.07, 60.93, −148.51]; the library's (+Bᵀ F_S) is M⁻¹ F_T (1.100–1.102)."""
    model = es.zoo.load("jaramillo_rpr")
    q, qd = CASE_B["q"], CASE_B["qd"]
    net = np.array([5.0, 30.0, -1.0]) - es.bias_forces(model, q, qd)
    blocks = soa.schur_blocks(model, q)
    FS = np.linalg.solve(blocks.A, -blocks.B @ net)
    printed = blocks.C @ net - blocks.B.T @ FS
    check(printed, [278.0738906469, 60.9289570511, -148.5127837193], 1e-8, scale=1.0)
    assert (
        np.abs(
            soa.forward_dynamics(model, q, qd, net + es.bias_forces(model, q, qd)) - printed
        ).max()
        > 100
    )


def test_case_a_planar_arm_spatial_quantities():
    """Case A (the zoo's planar2): τ, M, ξ, forward dynamics, and the spatial
    forces F_i at the joints from the operator form F = ρ(I V̇ + G), V̇ = ρᵀ(H q̈ + B)."""
    model = es.zoo.load("planar2")
    q, qd, qdd = CASE_A["q"], CASE_A["qd"], CASE_A["qdd"]
    M, xi = soa.operator_terms(model, q, qd)
    check(M, [[3.539765740935, 0.846549537134], [0.846549537134, 0.32]], 1e-9)
    check(xi, [29.888672048569, 5.722647025468], 1e-9)
    check(M @ qdd + xi, [28.172730613335, 5.418062349474], 1e-9)
    check(es.forward_dynamics(model, q, qd, [10, 2]), [-7.722020506405, 8.795080812409], 1e-9)
    ops = soa.global_operators(model, q, qd)
    Vd = ops.rho.T @ (ops.H @ qdd + ops.B)
    F = ops.rho @ (ops.I @ Vd + ops.G)
    check(Vd[:6], [0, 0, -0.7, 0, 9.81, 0], 1e-12)
    check(Vd[6:], [0, 0, 0.2, 0.054010306403, 9.093981224546, 0], 1e-9)
    check(
        ops.G.reshape(2, 6),
        [
            [0, 0, 0, -0.15285383826, -0.047283233066, 0],
            [0, 0, 0, -1.505382263564, 0.305156092101, 0],
        ],
        1e-9,
    )
    check(
        F.reshape(2, 6),
        [
            [0, 0, 28.172730613335, -1.346516177862, 32.967717142808, 0],
            [0, 0, 5.418062349474, -1.400526484264, 14.063735918262, 0],
        ],
        1e-9,
    )
    # the printed last term of Figure 7 (− I Ŝ̇ᵀ V): ℘ − 2 I_O [0; w × (w × s)]
    d = soa.chain_data(model, q, qd)
    w = [np.array([0, 0, 0.4]), np.array([0, 0, 1.6])]
    G_printed = np.concatenate(
        [
            d.gyroscopic[i]
            - 2
            * d.inertia[i]
            @ np.concatenate([np.zeros(3), np.cross(w[i], np.cross(w[i], d.com_offset[i]))])
            for i in range(2)
        ]
    )
    tau_printed = ops.H.T @ ops.rho @ (ops.I @ Vd + G_printed)
    check(tau_printed, [26.6999353587, 5.4180623495], 1e-9)
    assert abs(es.inverse_dynamics(model, q, qd, qdd)[0] - tau_printed[0]) > 1.0


def test_case_p1_pendulum():
    model = es.zoo.load("jaramillo_pendulum")
    check(es.inverse_dynamics(model, [0.0], [0.0], [0.0]), [4.905], 1e-12)
    check(es.inverse_dynamics(model, [0.3], [0.4], [-0.7]), [4.452592145828], 1e-11)
    check(soa.operator_terms(model, [0.3], [0.4])[0], [[1 / 3]], 1e-12)


def test_global_operators_and_schur_complement():
    """(1.66)–(1.72), (1.102): ρP = 1 with blocks P̂_{j,k} (j inboard — the printed
    subscripts are reversed), A SPD, A/B/C block tridiagonal, C − BᵀA⁻¹B = M⁻¹."""
    model = es.zoo.random_chain(5, 7, payload=False, tool=False).replace(armature=0.0)
    q, qd, _ = random_state(model, 7)
    ops = soa.global_operators(model, q, qd)
    n = model.nb
    check(ops.rho @ ops.P, np.eye(6 * n), 1e-12)
    d = soa.chain_data(model, q, qd)
    for j in range(n):
        for k in range(j, n):
            check(
                ops.rho[6 * j : 6 * j + 6, 6 * k : 6 * k + 6],
                soa.translation(d.origins[k] - d.origins[j]),
                1e-12,
            )
    blocks = soa.schur_blocks(model, q)
    check(
        blocks.C - blocks.B.T @ np.linalg.solve(blocks.A, blocks.B),
        np.linalg.inv(es.mass_matrix(model, q)),
        1e-10,
    )
    assert np.linalg.eigvalsh(blocks.A).min() > 0
    m = blocks.A.shape[0] // n  # 5 constraint directions per joint
    for i in range(n):
        for j in range(n):
            if abs(i - j) > 1:
                assert not blocks.A[m * i : m * i + m, m * j : m * j + m].any()
                assert not blocks.K[6 * i : 6 * i + 6, 6 * j : 6 * j + 6].any()


def test_fixed_payload_and_batch():
    """A fixed body (payload) joins the chain with six constraint directions; batches work."""
    model = es.zoo.random_chain(4, 2, payload=True).replace(armature=0.0)
    assert model.nb == 5
    Q, QD, TAU = np.random.default_rng(2).uniform(-1, 1, (3, 4, 4))
    check(
        es.forward_dynamics(model, Q, QD, TAU, algorithm="soa"),
        es.forward_dynamics(model, Q, QD, TAU),
        1e-10,
        scale=10.0,
    )


def test_singular_body_inertia_has_the_documented_behaviour():
    """A thin rod (no inertia about its own axis) makes I_i singular: a clear error naming
    the body; with regularization the result is within O(ε) of ABA."""
    model = es.zoo.load("jaramillo_pendulum")
    with pytest.raises(ValueError, match=r"model: body 1 \(link1\) has a singular 6×6 inertia"):
        soa.forward_dynamics(model, [0.3], [0.4], [1.0])
    t3 = es.zoo.load("cincinnati_t3")  # link 1: inertia (0, 62, 0)
    q, qd, tau = random_state(t3, 3)
    ref = es.forward_dynamics(t3, q, qd, tau)
    got = soa.forward_dynamics(t3, q, qd, tau, regularization=1e-7)
    check(got, ref, 1e-7, scale=np.abs(ref).max())
    assert np.abs(got - ref).max() > 0  # it is a regularization, not exact


def test_refusals_name_the_field():
    with pytest.raises(ValueError, match="armature"):
        soa.forward_dynamics(es.zoo.random_chain(3, 1, friction=True), *np.zeros((3, 3)))
    with pytest.raises(ValueError, match="sliding|slides"):
        soa.forward_dynamics(es.zoo.load("practica_4dof", book_com=True), *np.zeros((3, 4)))
    with pytest.raises(ValueError, match="algorithm: expected one of"):
        es.mass_matrix(es.zoo.load("planar2"), [0, 0], algorithm="featherstone")


@pytest.mark.parametrize("name", ONE_DOF_ZOO)
def test_crosscheck_on_every_zoo_model(name):
    """`crosscheck`: every formulation agrees (skipped ones say why)."""
    report = es.crosscheck(es.zoo.load(name), seed=3)
    assert report.ok, report.table()
    ran = [c for c in report.checks if not c.skipped]
    assert len(ran) >= 10
    assert "Gibbs-Appell D q̈ + φ (seed 003)" in [c.name for c in ran]


def test_crosscheck_table_keeps_its_columns_with_skipped_methods():
    """A skipped method's reason (long, possibly several lines) goes below the table as a
    numbered note, its row saying ``skipped (k)``; the rows end in the header's column
    on screen (θ̈, q̈ are a letter and a combining mark)."""
    import dataclasses
    import subprocess
    import sys

    b = es.model.ModelBuilder()
    b.add_body(0, "free_flyer", mass=2.0, inertia=np.diag([0.1, 0.2, 0.3]))
    b.add_body(1, "R", mass=1.0, com=(0.3, 0, 0), inertia=np.diag([0.01, 0.02, 0.02]))
    report = es.crosscheck(b.build(name="ff"))
    skipped = [c for c in report.checks if c.skipped]
    assert len(skipped) >= 3
    first = dataclasses.replace(skipped[0], skipped="a reason\nin two lines")
    checks = tuple(first if c is skipped[0] else c for c in report.checks)
    lines = dataclasses.replace(report, checks=checks).table().splitlines()
    rows = lines[1 : 2 + len(checks)]
    _same_columns(rows)
    assert lines[2 + len(checks)] == "skipped:"
    notes = lines[3 + len(checks) :]
    assert len(notes) == len(skipped) and notes[0] == f"  (1) {first.name}: a reason in two lines"
    for k, c in enumerate(skipped[1:], start=2):
        assert notes[k - 1] == f"  ({k}) {c.name}: {c.skipped}"
        assert sum(r.endswith(f"skipped ({k})") for r in rows) == 1
    out = subprocess.run(
        [sys.executable, "-m", "eslabon", "crosscheck", "planar2"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    lines = out.splitlines()
    _same_columns(lines[1 : lines.index("skipped:") if "skipped:" in lines else None])


def _same_columns(rows):
    """Every row's status (after its last two spaces) starts in the header's column."""
    from rich.cells import cell_len

    start = {cell_len(r) - cell_len(r.rsplit("  ", 1)[1]) for r in rows}
    assert start == {cell_len(rows[0]) - len("status")}, rows


def test_crosscheck_detects_a_wrong_method(monkeypatch):
    """The crosscheck can fail: break one formulation and it says so (exit status 1)."""
    from eslabon.cli.main import main
    from eslabon.dynamics import lagrange

    real = lagrange.inverse_dynamics
    monkeypatch.setattr(lagrange, "inverse_dynamics", lambda *a: real(*a) * (1 + 1e-6))
    report = es.crosscheck(es.zoo.load("puma560"))
    assert not report.ok and [c.name for c in report.failures()] == [
        "Lagrange I θ̈ + C θ̇ + b (seed 000)"
    ]
    with pytest.raises(SystemExit) as exc:
        main(["crosscheck", "puma560"])
    assert exc.value.code == 1
