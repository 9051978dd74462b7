"""The 7R round-off experiment of Rojas Salgado (1987) §3.3.3, Figs. 3.3.3–3.3.5, in single
precision (the thesis's program declares its arrays REAL): the loop of Fig. 3.3.2 solved by
the square 6 × 6 system and by the redundant 7 × 6 one with the trace equation (3.3.1.9b),
θ₂, θ̇₂, θ̈₂ against the exact relation (2 + cos θ₂) cos θ₁ = −1.5 (3.3.3.7)."""

import numpy as np
import pytest
from scipy.linalg import get_lapack_funcs, qr

from eslabon.kinematics import ik
from eslabon.kinematics.ik.newton_gauss import system as general_system
from eslabon.reproduce import seven_r_loop, seven_r_single
from eslabon.zoo import rojas

pytestmark = pytest.mark.source("Rojas (1987)", "§3.3.3, Figs. 3.3.3–3.3.5")

EPS32 = float(np.finfo(np.float32).eps)
ERRORS = ("position", "rate", "acceleration")


@pytest.fixture(scope="module")
def runs():
    """The module's own run: ROUND_OFF_SAMPLES samples of the 10° cycloid, both systems."""
    t = np.linspace(0.0, 1.0, seven_r_loop.ROUND_OFF_SAMPLES)
    exact = np.array(
        [rojas.seven_r_exact(*x) for x in zip(*seven_r_loop.input_motion(t), strict=True)]
    )
    return {eq: seven_r_single.round_off_errors(eq, t) for eq in ik.EQUATIONS}, exact


def test_float32_from_end_to_end():
    """Every array of the solve — the closure data, f, J, the Householder factor, θ, θ̇,
    θ̈ — is float32, and the QR really runs in single precision (LAPACK sgeqrf): its R
    differs from the double factor of the same J rounded to float32, as a factor computed
    in double and rounded would not."""
    th = np.float32(np.radians(130.0))
    R, p, w, w_dot = seven_r_single.loop_data(th, np.float32(0.3), np.float32(-0.2))
    assert {a.dtype for a in (R, p, w, w_dot)} == {np.dtype(np.float32)}
    q0 = np.radians(rojas.SEVEN_R_SYMMETRIC_DEG[1:]).astype(np.float32)
    P, s, E, D = seven_r_single.chain_kinematics(q0)
    assert {a.dtype for a in (P, s, E, D)} == {np.dtype(np.float32)}
    for equations, m in (("redundant", 7), ("square", 6)):
        f, J = seven_r_single.system(q0, R, p, equations)
        assert f.dtype == J.dtype == np.float32 and J.shape == (m, 6)
        assert get_lapack_funcs(("geqrf",), (J,))[0].typecode == "s"
        Rf = qr(J, mode="economic")[1]
        R64 = qr(J.astype(np.float64), mode="economic")[1]
        assert Rf.dtype == np.float32
        assert np.any(Rf != R64.astype(np.float32))
        assert np.abs(Rf - R64).max() < 1e-4 * np.abs(J).max()  # the same factorization
        sol = seven_r_single.solve_position(q0, R, p, equations)
        assert sol.q.dtype == sol.Q.dtype == sol.Rf.dtype == np.float32
        assert sol.Q.shape == (m, 6)
        qd = seven_r_single.rates(sol, R, w)
        qdd = seven_r_single.accelerations(sol, R, qd, w_dot)
        assert qd.dtype == qdd.dtype == np.float32
    with pytest.raises(ValueError, match="equations: expected one of"):
        seven_r_single.solve_position(q0, R, p, "7x6")


def test_the_same_equations_in_double_precision_are_at_double_round_off():
    """The module's equations are those of the general solver (Rojas 1987, 3.3.1.9,
    3.3.1.19, 3.3.2.14, 3.3.3.5): run in float64 they give f, J of
    ``ik.newton_gauss.system`` to 1e-14 and θ₂, θ̇₂, θ̈₂ at double round-off, below 1e-11
    as the double run of ``seven_r_loop`` (its test), so the single-precision errors
    below come from the precision alone."""
    chain = rojas.seven_r_chain()
    q = np.random.default_rng(3).uniform(-3.0, 3.0, 6)
    R, p = rojas.seven_r_loop_target(np.radians(131.0))
    for equations in ik.EQUATIONS:
        f, J = general_system(chain, q, R, p, equations=equations)
        f2, J2 = seven_r_single.system(q, R, p, equations)
        np.testing.assert_allclose(f2, f, rtol=0, atol=1e-14)
        np.testing.assert_allclose(J2, J, rtol=0, atol=1e-14)
    mine = seven_r_single.loop_data(np.radians(131.0), 0.7, -0.4, np.float64)
    R, p, w, _, w_dot, _ = rojas.seven_r_loop_motion(np.radians(131.0), 0.7, -0.4)
    for a, b in zip(mine, (R, p, w, w_dot), strict=True):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-15)
    t = np.linspace(0.0, 1.0, 21)
    for equations in ik.EQUATIONS:
        errors = seven_r_single.round_off_errors(equations, t, np.float64)
        for key in ERRORS:
            assert np.abs(errors[key]).max() < 1e-11, (equations, key)


def test_errors_are_at_float32_round_off(runs):
    """Figs. 3.3.3–3.3.5 in float32. First-order perturbation theory bounds the error of a
    least-squares solve by κ times the relative backward error, which for Householder QR
    is a modest multiple of the unit round-off ε₃₂/2 (Higham, Accuracy and Stability of
    Numerical Algorithms, 2002, Thm. 19.4 and §20.3): every sample's error must stay below
    ε₃₂ κ₁ times the quantity's size (the largest |θ₂|, |θ̇₂|, |θ̈₂| of the motion; measured,
    the worst is 0.33 of it). From below, the median error must exceed ε₃₂ times that
    size, more than the half ulp that rounding a double-precision answer to float32 leaves
    (measured 3–16 times above): the arithmetic is single. The Newton steps stop at the
    round-off floor with ‖f‖∞ under 16 ulps of the loop's reach Σa = 8 m."""
    errors, exact = runs
    size = np.abs(exact).max(axis=0)
    for equations in ik.EQUATIONS:
        e = errors[equations]
        for j, key in enumerate(ERRORS):
            bound = EPS32 * e["condition"] * size[j]
            assert np.all(np.abs(e[key]) <= bound), (equations, key)
            assert np.median(np.abs(e[key])) > EPS32 * size[j], (equations, key)
        assert e["residual"].max() <= 16 * EPS32 * sum(rojas.SEVEN_R_D)
        assert e["condition"].max() < 1e3


def test_the_trace_equation_does_not_filter_float32_round_off_here(runs):
    """Rojas (1987) §3.3.3 solves the loop both ways "to show the filtering of round-off
    errors" by the redundant trace equation (Figs. 3.3.3–3.3.5, whose curves are lost). As
    measured on this motion in float32, neither system is systematically better: each
    has the smaller error at about half of the samples (measured 50–55 %; the bounds 30–70 %
    would fail if either were smaller at most samples), and the ratio of the medians,
    7 × 6 over 6 × 6 (measured 0.71–0.90), is within a factor 2 either way: no
    filtering of the size the thesis's demonstration implies."""
    errors, _ = runs
    for key in ERRORS:
        e7 = np.abs(errors["redundant"][key])
        e6 = np.abs(errors["square"][key])
        differ = e7 != e6
        assert 0.3 < np.mean(e7[differ] < e6[differ]) < 0.7, key
        assert 0.5 < np.median(e7) / np.median(e6) < 2.0, key


def test_round_off_reports_both_precisions(tmp_path, monkeypatch):
    """``reproduce rojas`` (``seven_r_loop.round_off``): the single-precision run is in the
    summary, its CSV and the printed lines, beside the double one. Eleven samples keep it
    fast; the file layout does not depend on the count."""
    monkeypatch.setattr(seven_r_loop, "ROUND_OFF_SAMPLES", 11)
    summary, lines, files = seven_r_loop.round_off(tmp_path)
    single = summary["single_precision"]
    for eq in ik.EQUATIONS:
        assert set(single[eq]) == set(summary[eq])
        assert single[eq]["median_position"] > 1e3 * summary[eq]["median_position"]
    assert set(single["fraction_redundant_smaller"]) == set(ERRORS)
    rows = files["seven_r_round_off_single_csv"].read_text().splitlines()
    assert len(rows) == 12 and rows[0].split(",")[-1] == "square_residual"
    assert rows[1].startswith("0.0,")
    assert any("single precision (float32" in line for line in lines)
    assert any("of the samples: " in line for line in lines)
    study = summary["tolerance_study"]
    assert [(r["dtype"], r["tol"]) for r in study] == [
        ("float64", tol) for tol in seven_r_single.STUDY_TOLS
    ] + [("float64", None), ("float32", 1e-6)]
    assert sum("TOL 1e-06" in line for line in lines) == 2


def test_the_thesis_tol_stops_as_nlls():
    """NLLS (the thesis's listing) stops before a step when ‖f‖∞ < TOL, and when the step
    ‖Δθ‖∞ < TOL, that step not applied: the returned θ is one whose next step (or
    residual) is below TOL, reached in fewer steps than the round-off floor."""
    th = np.radians(131.0)
    R, p, _, _, _, _ = rojas.seven_r_loop_motion(th, 0.0, 0.0)
    q0 = np.radians(rojas.SEVEN_R_SYMMETRIC_DEG[1:])
    for equations in ik.EQUATIONS:
        sol = seven_r_single.solve_position(q0, R, p, equations, tol=1e-6)
        floor = seven_r_single.solve_position(q0, R, p, equations)
        f, J = seven_r_single.system(sol.q, R, p, equations)
        step = np.linalg.lstsq(J, -f, rcond=None)[0]
        assert min(np.abs(step).max(), np.abs(f).max()) < 1e-6
        assert sol.iterations < floor.iterations
    for bad in (0.0, -1e-6, np.nan):
        with pytest.raises(ValueError, match="tol: expected a positive"):
            seven_r_single.solve_position(q0, R, p, "square", tol=bad)


@pytest.mark.numerics
@pytest.mark.source("Rojas (1987)", "Appendix, DATA TOL ... /0.000001/ and NLLS; §3.3.3")
def test_the_thesis_tol_makes_the_7x6_system_win_by_truncation():
    """With the thesis's TOL = 1e-6 in double precision the errors are those of a
    truncated Newton iteration (far above double round-off, below TOL) and the 7 × 6
    system has the smaller error at most samples (about 90 % when measured; asserted
    > 75 %); at TOL = 1e-14 both are at round-off (κ₁ ≤ ~740 times ε₆₄) and neither wins
    systematically (about half; asserted 25–75 %): a truncation effect."""
    t = np.linspace(0.0, 1.0, seven_r_loop.ROUND_OFF_SAMPLES)
    coarse, fine = (
        {eq: seven_r_single.round_off_errors(eq, t, np.float64, tol) for eq in ik.EQUATIONS}
        for tol in (1e-6, 1e-14)
    )
    for eq in ik.EQUATIONS:
        for k in ERRORS:
            assert 1e-11 < np.median(np.abs(coarse[eq][k])) < 1e-6, (eq, k)
            assert np.median(np.abs(fine[eq][k])) < 1e-12, (eq, k)
    won = seven_r_single.share_redundant_smaller(coarse)
    assert all(share > 0.75 for share in won.values()), won
    even = seven_r_single.share_redundant_smaller(fine)
    assert all(0.25 < share < 0.75 for share in even.values()), even
