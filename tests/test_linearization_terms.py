"""The thesis's own U, V, W of Rojas Salgado (1987) §5.3 on the Cincinnati T3, term by term
against the exact derivatives (eslabon.reproduce.t3_uvw_terms).

U is (4.3.12), V the element form (5.3.24) of (5.3.25), W (5.3.17)–(5.3.18) with A_ic and
∂Ȧ_i/∂θ_k (5.3.15); ∂²r_i/∂θ² by (4.3.36); the printed values are Tables 5.4.1, 5.4.2
(t = 0.05 s) and 5.6.3 (t = 0.45 s, K_p = UΩ² − W (5.6.7), Ω = 1).

Tolerances. The exact terms are central differences (step 1e-6) of the parts of (4.4.2),
|f*| ≤ 3.1e3 N·m on the T3: their round-off is about ε·|f*|/h = 2.2e-16 · 3.1e3 / 1e-6 ≈
7e-7 N·m/rad (measured ≤ 3.7e-7), so terms are compared to 1e-5. The thesis's U and V
against eslabon's analytic ones: rounding only, 1e-9 relative.
"""

import numpy as np
import pytest

import eslabon as es
from eslabon.reproduce.t3_linear_control import four_digit_status, table_state
from eslabon.reproduce.t3_uvw_terms import (
    chain_state,
    compare_terms,
    printed_w,
    uvw_terms_report,
)
from eslabon.zoo.rojas import INITIAL_THETA_DEG
from eslabon.zoo.rojas_tables import PERTURBATION, TABLE_5_4_2, TABLE_5_6_3
from rnea_oracle import rnea as oracle_rnea

pytestmark = pytest.mark.source("Rojas (1987)", "§5.3; Tables 5.4.1, 5.4.2 and 5.6.3")

FD = 1e-5  # N·m per rad (rad/s, rad/s²): the central differences' round-off, above


@pytest.fixture(scope="module")
def t3():
    return es.zoo.load("cincinnati_t3")


@pytest.fixture(scope="module")
def state_045(t3):
    """Table 5.6.2's θ, θ̇, θ̈ (t = 0.45 s), solved from its printed end-effector data."""
    q05 = table_state(t3, "5.4.1", np.radians(INITIAL_THETA_DEG))[0]
    return table_state(t3, "5.6.2", q05)


@pytest.fixture(scope="module")
def at_045(t3, state_045):
    """The term-by-term comparison at t = 0.45 s."""
    return compare_terms(t3, *state_045)


def kp11_by_hand(model, q, qd):
    """K_p₁₁ = U₁₁Ω² − W₁₁ (5.6.7), Ω = 1, as the thesis computes it, from quantities
    found apart from eslabon.reproduce: U₁₁ from the plain-numpy Newton–Euler
    (tests/rnea_oracle.py: τ(q, 0, e₁) − τ(q, 0, 0)); W₁₁ as written is 0 (column 1 of
    every term of (5.3.17)–(5.3.18) holds e₁ × ω₁ or e₁ × e₁ or g × e₁); and the appendix's
    DERAC adds, to W's acceleration term, Σ_i m_i (∂r_i/∂θ₁)ᵀ Σ_{a,b ≥ 2} θ̇_a θ̇_b
    e_lo × (e₁ × ∂r_i/∂θ_hi) (lo, hi = min, max(a, b)): its first term, taken for k = 1 <
    lo beside the whole third partial e₁ × ∂²r_i/∂θ_lo∂θ_hi. e_j from the world poses,
    ∂r_i/∂θ_j by central differences (step 1e-6) of the centres of mass. Returns (U₁₁,
    the DERAC term)."""
    n = model.nq

    def centres(q):
        T = es.forward_kinematics(model, q)
        return np.einsum("iab,ib->ia", T[1:, :3, :3], model.com[1:]) + T[1:, :3, 3]

    T = es.forward_kinematics(model, q)
    e = np.einsum("iab,ib->ia", T[1:, :3, :3], model.axis[1:])
    dr = np.zeros((n, n, 3))
    for j, d in enumerate(np.eye(n) * 1e-6):
        dr[:, j] = (centres(q + d) - centres(q - d)) / 2e-6
    derac = 0.0
    for i in range(n):
        for a in range(1, i + 1):
            for b in range(1, i + 1):
                lo, hi = min(a, b), max(a, b)
                turn = np.cross(e[lo], np.cross(e[0], dr[i, hi]))
                derac += model.mass[i + 1] * qd[a] * qd[b] * (dr[i, 0] @ turn)
    z = np.zeros(n)
    U11 = (oracle_rnea(model, q, z, np.eye(n)[0]) - oracle_rnea(model, q, z, z))[0]
    return U11, derac


def test_u_and_v_as_written_are_exact(at_045):
    """U (4.3.12) and V (5.3.23)–(5.3.24) as the thesis writes them are eslabon's U and V
    (to rounding), and each of their terms is the exact derivative of the matching part of
    (4.4.2): translational, inertial I_iω̇_i, gyroscopic ω_i × I_iω_i."""
    c = at_045
    assert np.abs(c.U - c.lin.U).max() <= 1e-9 * np.abs(c.lin.U).max()
    assert np.abs(c.V - c.lin.V).max() <= 1e-9 * np.abs(c.lin.V).max()
    for thesis, exact in ((c.thesis_U, c.exact_U), (c.thesis_V, c.exact_V)):
        assert thesis.keys() == exact.keys()
        for key in thesis:
            assert np.abs(thesis[key] - exact[key]).max() < FD, key


def test_exact_terms_sum_to_eslabons_linearization(at_045):
    """The exact split of (4.4.2)'s derivatives adds up to eslabon's analytic U, V, W
    (eslabon.control.linearize): the split loses nothing."""
    c = at_045
    for name in ("U", "V", "W"):
        total = sum(getattr(c, f"exact_{name}").values())
        assert np.abs(total - getattr(c.lin, name)).max() < FD, name


def test_gravity_lever_and_acceleration_terms_are_right(at_045):
    """(5.3.18)'s first term Σ m_i ∂²r_i/∂θ² (r̈_i − g) (gravity and lever parts, (4.3.36))
    and its second Σ R_iᵀ ∂(m_i r̈_i)/∂θ are exact. The gravity part, the δb(θ) of §5.3,
    has a zero first column (g ∥ e₁): no gravity term is non-zero for joint 1."""
    c = at_045
    errors = c.term_errors()
    for key in ("gravity", "lever", "acceleration"):
        assert np.abs(errors[key]).max() < FD, key
    assert np.abs(c.thesis_W["gravity"][:, 0]).max() < 1e-9 * np.abs(c.thesis_W["gravity"]).max()
    assert np.abs(c.thesis_W["gravity"]).max() > 1e3  # it is not zero elsewhere


def test_the_rotational_term_is_the_faulty_one(at_045):
    """The thesis's W as written differs from the exact W by its rotational term's error
    alone, −A_iᵀI_i(A_ic) + A_iᵀI_i ∂Ȧ_i/∂θ θ̇ (5.3.17–18) against the exact inertial +
    gyroscopic parts; that error is (a) the derivative of the gyroscopic moment, dropped
    at (5.3.13) (next test), and (b) −(e_j × e_k)ᵀ I_i ω̇_i for k > j, from
    ∂e_j/∂θ_k = e_k × e_j taken for every k in (5.3.10). Both vanish in column 1."""
    c = at_045
    rot_error = c.term_errors()["rotational"]
    assert np.abs((c.W - c.lin.W) - rot_error).max() < FD
    assert np.abs(rot_error).max() > 100  # measured 133.7 (row 1, column 2)
    assert np.abs(rot_error - (c.axis - c.exact_W["gyroscopic"])).max() < FD
    assert np.abs(c.thesis_W["rotational"] - c.exact_W["inertial"] - c.axis).max() < FD
    assert np.abs(c.W[:, 0]).max() < 1e-9 * np.abs(c.W).max()


def test_kp11_from_the_thesis_formula(t3, state_045, at_045):
    """Table 5.6.3 prints K_p₁₁ = 466.33. The §5.3 formula as written gives W₁₁ = 0 and
    K_p₁₁ = U₁₁ (335.36), the exact value: it does not reproduce the print. With the
    appendix's DERAC third partials (double counted for k < lo) it gives U₁₁ minus their
    extra term (445.37), still not the print. Both against :func:`kp11_by_hand`: U₁₁ to
    round-off, the DERAC term to the central differences' error (~1e-8 N·m measured)."""
    c = at_045
    U11, derac = kp11_by_hand(t3, state_045[0], state_045[1])
    as_written = c.U[0, 0] - c.W[0, 0]
    exact = c.lin.U[0, 0] - c.lin.W[0, 0]
    assert abs(c.W[0, 0]) < 1e-9 * np.abs(c.W).max()
    assert as_written == pytest.approx(U11, abs=1e-9)
    assert as_written == pytest.approx(exact, abs=1e-9)
    assert TABLE_5_6_3["Kp"][0, 0] - as_written > 100
    with_derac = as_written - c.derac[0, 0]
    assert c.derac[0, 0] == pytest.approx(derac, abs=1e-6)
    assert with_derac == pytest.approx(U11 - derac, abs=1e-6)
    assert TABLE_5_6_3["Kp"][0, 0] - with_derac > 10  # printed 466.33: not reproduced


def test_printed_w_columns_2_to_6_are_the_as_written_formula_with_derac(at_045):
    """Table 5.6.3's K_p in columns 2–6 is U − (W as written + the appendix's DERAC term)
    to half a unit of its 5th printed digit; cells printed at single-precision noise
    (|K_p| < 1e-3) are below 1e-3 in ours too. The formula as written alone misses
    columns 2–3 by up to 151 N·m. Column 1 is left: up to 46.5 N·m (row 3) is not traced."""
    c = at_045
    printed = TABLE_5_6_3["Kp"]
    ours = c.U - (c.W + c.derac)
    for (i, j), p in np.ndenumerate(printed[:, 1:]):
        x = ours[i, j + 1]
        if abs(p) < 1e-3:
            assert abs(x) < 1e-3, (i, j + 1, x, p)
        else:
            half_unit = 0.5 * 10.0 ** (np.floor(np.log10(abs(p))) - 4)
            assert abs(x - p) <= half_unit, (i, j + 1, x, p)
    as_written_gap = printed_w(c.lin.U) - c.W
    assert np.abs(as_written_gap[:, 1:3]).max() > 100  # measured 150.7
    residual = printed_w(c.lin.U) - (c.W + c.derac)
    assert np.abs(residual[:, 0]).max() > 10  # measured 46.46: not explained


def test_table_5_4_2_w_dtheta_is_the_thesis_formula(t3):
    """Table 5.4.2 (t = 0.05 s): W δθ with Table 5.4.1's printed δθ. The thesis's W as
    written plus the DERAC term gives all six printed cells to 4 significant digits; the
    exact W misses rows 1 and 5, the formula as written without DERAC row 5."""
    c = compare_terms(t3, *table_state(t3, "5.4.1", np.radians(INITIAL_THETA_DEG)))
    dq, printed = np.asarray(PERTURBATION["dq"]), TABLE_5_4_2["W_dq"]

    def status(W):
        return [four_digit_status(v, p, 0.0) for v, p in zip(W @ dq, printed, strict=True)]

    assert status(c.W + c.derac) == ["ok"] * 6
    assert status(c.lin.W) == ["DIFF", "ok", "ok", "ok", "DIFF", "ok"]
    assert status(c.W) == ["ok", "ok", "ok", "ok", "DIFF", "ok"]


def test_report_names_the_term_and_the_figures(t3, state_045):
    """The reproduce function's (data, lines): the K_p₁₁ figures (printed, and by
    :func:`kp11_by_hand`) and the faulty term."""
    data, lines = uvw_terms_report(t3, np.radians(INITIAL_THETA_DEG))
    text = "\n".join(lines)
    U11, derac = kp11_by_hand(t3, state_045[0], state_045[1])
    assert f"{U11:.2f}" in text and "466.33" in text and f"{U11 - derac:.2f}" in text
    assert "gyroscopic derivative" in text and "DERAC" in text
    kp = data["Kp11"]
    assert kp["thesis_as_written"] == pytest.approx(kp["exact"], abs=1e-9)
    assert kp["printed"] == TABLE_5_6_3["Kp"][0, 0]
    assert data["table_5_4_2"]["as_written_with_derac"]["status"] == ["ok"] * 6


def test_other_arms_rotational_error_has_the_same_two_parts():
    """On the PUMA 560 at a random state the same holds: U, V and W's gravity, lever and
    acceleration terms as written are exact, the rotational term errs by the axis term
    minus the gyroscopic derivative."""
    arm = es.zoo.load("puma560")
    q, qd, qdd = np.random.default_rng(3).uniform(-1.5, 1.5, (3, 6))
    c = compare_terms(arm, q, qd, qdd)
    assert np.abs(c.U - c.lin.U).max() < 1e-9 and np.abs(c.V - c.lin.V).max() < 1e-9
    errors = c.term_errors()
    for key in ("gravity", "lever", "acceleration"):
        assert np.abs(errors[key]).max() < FD, key
    assert np.abs(errors["rotational"] - (c.axis - c.exact_W["gyroscopic"])).max() < FD
    assert np.abs(errors["rotational"]).max() > 1e-3


@pytest.mark.parametrize(
    "make, args, match",
    [
        (lambda: es.zoo.load("jaramillo_rpr"), None, "serial chain of revolute joints"),
        (
            lambda: es.model.with_joint_friction(es.zoo.load("planar2"), viscous=0.1),
            None,
            "viscous, which the thesis",
        ),
        (lambda: es.zoo.load("planar2"), (np.zeros((2, 2)),) * 3, "expected one state"),
        (lambda: es.zoo.load("planar2"), ([0.0, np.nan], [0.0] * 2, [0.0] * 2), "q"),
    ],
)
def test_bad_requests_are_named(make, args, match):
    model = make()
    if args is None:
        args = (np.zeros(model.nq), np.zeros(model.nv), np.zeros(model.nv))
    with pytest.raises(ValueError, match=match):
        chain_state(model, *args)


def test_eq_5_3_13_drops_the_gyroscopic_term_unless_the_inertia_is_isotropic():
    """Rojas (1987) (5.3.11)–(5.3.14): the derivative of the gyroscopic part of (5.3.9) is
    (5.3.11), reduced by (5.3.12) and (5.3.13) to (5.3.14). (5.3.12) is Jacobi's identity
    and holds for every inertia; (5.3.13),
    [e_j × (e_k × ω_k)]ᵀ I ω_i + [(I(e_j × ω_i)) × e_k]ᵀ ω_i = (ω_i − ω_k)ᵀ[(I(e_j × ω_i)) × e_k],
    holds for an isotropic I = λ1 and not for another: it is the step that drops W's
    gyroscopic term. On the PUMA 560 with each link's inertia made isotropic (same trace)
    the thesis's rotational term errs by the axis term alone."""
    rng = np.random.default_rng(5)
    for isotropic in (True, False):
        misses = []
        for _ in range(20):
            ej, ek = (v / np.linalg.norm(v) for v in rng.normal(size=(2, 3)))
            wi, wk = rng.normal(size=(2, 3))
            B = rng.normal(size=(3, 3))
            inertia = np.eye(3) * 2.5 if isotropic else B @ B.T + np.eye(3)
            Iw = inertia @ wi
            jacobi = np.cross(np.cross(ek, ej), wi) + np.cross(ej, np.cross(ek, wi))
            jacobi += np.cross(np.cross(ej, wi), ek)
            assert abs(jacobi @ Iw) < 1e-12  # (5.3.12), any inertia
            turned = np.cross(inertia @ np.cross(ej, wi), ek)
            lhs = np.cross(ej, np.cross(ek, wk)) @ Iw + turned @ wi
            misses.append(abs(lhs - (wi - wk) @ turned))  # (5.3.13)
        if isotropic:
            assert max(misses) < 1e-12
        else:
            assert min(misses) > 1e-6
    arm = es.zoo.load("puma560")
    iso = np.trace(arm.inertia, axis1=1, axis2=2)[:, None, None] / 3 * np.eye(3)
    q, qd, qdd = np.random.default_rng(3).uniform(-1.5, 1.5, (3, 6))
    for model, dropped in ((arm.replace(inertia=iso), False), (arm, True)):
        c = compare_terms(model, q, qd, qdd)
        gyro = np.abs(c.exact_W["gyroscopic"]).max()
        assert (gyro > 1e-3) if dropped else (gyro < FD)
        assert np.abs(c.term_errors()["rotational"] - c.axis + c.exact_W["gyroscopic"]).max() < FD
