"""The Euler–Lagrange model and operation counts of seed 000 (Rojas 1987).

Rojas Salgado (1987) §4.3 (the model I(θ), C(θ, θ̇), b(θ), eqs 4.3.12 and 4.3.33–34),
§4.4 (Newton–Euler, Table 4.4.1, the operation counts 4.4.3–4) and §4.5 (simulation by
Cholesky, 4.5.1–2); the torques of Table 5.4.1.
"""

import numpy as np
import pytest

import eslabon as es
from checks import ONE_DOF_ZOO, assert_printed, check
from eslabon.dynamics import lagrange, opcount

RIGID_ZOO = list(ONE_DOF_ZOO)


def states(model, seed, N=None):
    rng = np.random.default_rng(seed)
    shape = (3, model.nq) if N is None else (3, N, model.nq)
    return rng.uniform(-2, 2, size=shape)


@pytest.mark.parametrize("name", RIGID_ZOO)
def test_lagrange_equals_newton_euler_on_the_zoo(name):
    """§4.4: Lagrange (4.3.33) and recursive Newton–Euler agree (thesis: to 7
    digits in single precision; here to 1e-9 relative), one state and a batch."""
    model = es.zoo.load(name)
    for seed in range(5):
        q, qd, qdd = states(model, seed)
        ne = es.inverse_dynamics(model, q, qd, qdd)
        check(
            lagrange.inverse_dynamics(model, q, qd, qdd),
            ne,
            1e-9,
            scale=max(1.0, np.abs(ne).max()),
            what=name,
        )
    Q, QD, QDD = states(model, 99, N=7)
    check(
        lagrange.inverse_dynamics(model, Q, QD, QDD),
        es.inverse_dynamics(model, Q, QD, QDD),
        1e-9,
        what=f"{name} batch",
    )


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 13])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_lagrange_on_random_chains_with_prismatic_joints_and_friction(n, seed):
    model = es.zoo.random_chain(n, seed, friction=True)
    q, qd, qdd = states(model, seed + 10)
    terms = lagrange.lagrange_terms(model, q, qd)
    check(terms.mass_matrix, es.mass_matrix(model, q), 1e-10, what="I(θ) = CRBA")
    check(terms.gravity, es.gravity_torques(model, q), 1e-10, what="b(θ)")
    check(
        lagrange.inverse_dynamics(model, q, qd, qdd),
        es.inverse_dynamics(model, q, qd, qdd),
        1e-10,
        what="f*",
    )
    tau = es.inverse_dynamics(model, q, qd, qdd)
    check(
        es.forward_dynamics(model, q, qd, tau, algorithm="lagrange"),
        qdd,
        1e-9,
        what="Cholesky forward dynamics",
    )


@pytest.mark.parametrize("seed", range(4))
def test_inertia_rate_minus_twice_c_is_skew(seed):
    """§4.3: with C of (4.3.34a), İ − 2C is skew-symmetric (İ by central differences)."""
    model = es.zoo.random_chain(6, seed)
    q, qd, _ = states(model, seed)
    h = 1e-6
    I_dot = (
        lagrange.lagrange_terms(model, q + h * qd, qd).mass_matrix
        - lagrange.lagrange_terms(model, q - h * qd, qd).mass_matrix
    ) / (2 * h)
    N = I_dot - 2 * lagrange.lagrange_terms(model, q, qd).coriolis
    check(N + N.T, np.zeros_like(N), 1e-6, scale=np.abs(I_dot).max())
    assert np.abs(N).max() > 1e-3  # C is not İ/2 (cf. the remark closing §4.3): N ≠ 0


def test_com_jacobians_are_derivatives_of_the_com_positions():
    """(4.3.7–8): R_i = ∂r_i/∂θ, against central differences of the COM positions."""
    model = es.zoo.random_chain(5, 4)
    q, qd, _ = states(model, 4)

    def coms(q):
        T = es.forward_kinematics(model, q)
        return np.einsum("bij,bj->bi", T[1:, :3, :3], model.com[1:]) + T[1:, :3, 3]

    R = lagrange.lagrange_terms(model, q, qd).com_jacobians
    h = 1e-6
    for j in range(model.nq):
        dq = np.zeros(model.nq)
        dq[j] = h
        check(R[:, :, j], (coms(q + dq) - coms(q - dq)) / (2 * h), 1e-8, what=f"column {j}")


@pytest.mark.source("Rojas (1987)", "Table 5.4.1")
def test_t3_tables_from_the_lagrange_model():
    """Table 5.4.1 (t = 0.05 s): the gravity b(θ) and total f* at the printed state."""
    t3 = es.zoo.load("cincinnati_t3")
    th = np.radians([0.05073, 89.99987, -135.0, 45.00008, 90.05075, 90.0])
    thd = [0.53123e-01, -0.42705e-04, 0.42707e-04, 0.25818e-08, 0.53123e-01, -0.65585e-09]
    thdd = [0.21251e01, -0.42573e-02, 0.42572e-02, 0.39416e-06, 0.21251e01, -0.39723e-07]
    assert_printed(
        lagrange.lagrange_terms(t3, th, thd).gravity,
        [0.0, -0.21419e04, -0.21419e04, -0.49246e03, 0.21442e-04, 0.0],
    )
    assert_printed(
        lagrange.inverse_dynamics(t3, th, thd, thdd),
        [0.56318e03, -0.21292e04, -0.21382e04, -0.49247e03, -0.48943e02, -0.25151e-07],
    )


def test_book_mode_model_is_refused():
    """Seed 001's sliding-COM links are not rigid bodies: no Lagrangian, a clear error —
    also through ``forward_dynamics(method="lagrange")``, which pins that it runs this
    model (every method gives the same q̈ on rigid links)."""
    book = es.zoo.load("practica_4dof", book_com=True)
    with pytest.raises(ValueError, match="model: the Lagrange model needs rigid links"):
        lagrange.lagrange_terms(book, np.zeros(4), np.zeros(4))
    with pytest.raises(ValueError, match="model: the Lagrange model needs rigid links"):
        es.forward_dynamics(book, np.zeros(4), np.zeros(4), np.zeros(4), algorithm="lagrange")


def test_bad_input_names_the_field():
    t3 = es.zoo.load("cincinnati_t3")
    with pytest.raises(ValueError, match="qd"):
        lagrange.inverse_dynamics(t3, np.zeros(6), np.zeros(5), np.zeros(6))
    with pytest.raises(ValueError, match="q: expected finite"):
        lagrange.lagrange_terms(t3, np.full(6, np.nan), np.zeros(6))
    with pytest.raises(ValueError, match="qdd: expected finite"):
        lagrange.inverse_dynamics(t3, np.zeros(6), np.zeros(6), np.full(6, np.nan))
    with pytest.raises(ValueError, match="tau: expected finite"):
        es.forward_dynamics(t3, np.zeros(6), np.zeros(6), np.full(6, np.inf), algorithm="lagrange")


@pytest.mark.source("Rojas (1987)", "§4.4–4.5, (4.4.3)–(4.4.4), (4.5.2)")
def test_thesis_operation_counts():
    """§4.4–4.5: 1896/1370 (model), 86/61 (Cholesky), 1217/921 (simulation) for n = 6."""
    assert opcount.lagrange_model(6) == (1896, 1370)
    assert opcount.cholesky(6) == (86, 61)
    assert opcount.simulation_step(6) == (1217, 921)
    assert opcount.newton_euler_luh(6) == 852
    # the printed Cholesky additions formula is not a whole number for n = 4: kept exact
    assert opcount.cholesky(4)[1] == pytest.approx(58 / 3)
    with pytest.raises(ValueError, match="n: expected a positive integer"):
        opcount.cholesky(0)


def test_instrumented_counts_run_the_real_kernels():
    """Our RNEA costs a·n + b (linear, as Luh's 150n − 48), Walker–Orin 3 a quadratic;
    the counted run computes the same τ and M as the compiled kernels."""
    from eslabon.dynamics.opcount_instrumented import chain_model, probe_state

    sizes = (1, 2, 3, 4, 6)
    ne = opcount.instrumented("rnea", sizes)
    wo = opcount.instrumented("walker_orin_3", sizes)
    muls = np.array([ne[n]["mul"] for n in sizes])
    assert np.all(np.diff(muls[:4]) == muls[1] - muls[0]) and muls[4] - muls[3] == 2 * (
        muls[1] - muls[0]
    )
    wo_m = [wo[n]["mul"] for n in (1, 2, 3, 4)]
    assert np.diff(wo_m, 2).tolist() == [np.diff(wo_m, 2)[0]] * 2 and np.diff(wo_m, 2)[0] > 0
    assert ne[6]["mul"] < opcount.lagrange_model(6)[0]
    # sin and cos of each joint count as two calls, not as the inline routine's arithmetic
    assert all(ne[n]["trig"] == wo[n]["trig"] == 2 * n for n in sizes)
    for n in (2, 6):
        model, x = chain_model(n), probe_state(n)
        check(ne[n]["result"], es.inverse_dynamics(model, x, x, x), 1e-12, what="τ")
        check(wo[n]["result"], es.mass_matrix(model, x), 1e-12, what="M")
    with pytest.raises(ValueError, match="algorithm: expected one of"):
        opcount.instrumented("featherstone")


def test_instrumented_counts_of_the_forward_dynamics_grow_linearly():
    """Seeds 002/004 issue: ABA and the constraint-force method cost a·n + b (exactly, as
    counted); the counted runs compute the library's q̈."""
    from eslabon.dynamics.opcount_instrumented import chain_model, probe_state

    sizes = (1, 2, 3, 5)
    for method in ("aba", "soa"):
        counts = opcount.instrumented(method, sizes)
        muls = np.array([counts[n]["mul"] for n in sizes])
        slope = muls[1] - muls[0]
        np.testing.assert_array_equal(np.diff(muls), slope * np.diff(sizes))
        for n in (2, 5):
            model, x = chain_model(n), probe_state(n)
            check(counts[n]["result"], es.forward_dynamics(model, x, x, x), 1e-10, what=method)
    soa_parts = opcount.instrumented("soa", (3,))[3]["parts"]
    assert set(soa_parts) == {"kinematics", "bias (step 1)", "operators (steps 2-6)"}


def test_counted_reference_formulations_are_cubic_and_cost_more():
    """Rojas (1987) §4.4 claims the Lagrange model costs more than Newton–Euler (1896
    against 852 multiplications for n = 6); Araujo (2012) Ch. III calls the Gibbs–Appell
    recursion efficient. Counted on our code: both are exactly cubic in n (dense Jacobians),
    the Lagrange τ costs more than RNEA's at every n, the Gibbs–Appell q̈ less than the
    Lagrange q̈ but more than ABA's from n = 3 on (at n = 1, 2 the cubic terms are still
    small: 628 against 676 at n = 2); the counted runs compute the library's
    τ and q̈."""
    from eslabon.dynamics.opcount_instrumented import chain_model, probe_state

    sizes = (1, 2, 3, 4, 5)
    counts = {m: opcount.instrumented(m, sizes) for m in opcount.INSTRUMENTED}
    for method in ("lagrange", "lagrange_id", "gibbs_appell", "gibbs_appell_id"):
        muls = [counts[method][n]["mul"] for n in sizes]
        third = np.diff(muls, 3)
        assert third[0] > 0 and (third == third[0]).all(), method
        assert set(counts[method][3]["parts"]) == {"kinematics", "formulation"}
        model, x = chain_model(5), probe_state(5)
        ref = (es.inverse_dynamics if method.endswith("_id") else es.forward_dynamics)(
            model, x, x, x
        )
        check(counts[method][5]["result"], ref, 1e-10, what=method)
    for n in sizes:
        assert counts["lagrange_id"][n]["mul"] > counts["rnea"][n]["mul"]
        assert counts["gibbs_appell"][n]["mul"] < counts["lagrange"][n]["mul"]
        if n >= 3:
            assert counts["gibbs_appell"][n]["mul"] > counts["aba"][n]["mul"]
    ratios = opcount.efficiency(6)
    assert ratios["lagrange/rnea"] > 1896 / 852  # more than the thesis's own programs
    assert 1.0 < ratios["gibbs_appell/aba"] < ratios["lagrange"] / ratios["aba"]
