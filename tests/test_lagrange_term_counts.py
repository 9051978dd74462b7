"""§4.4's operation count of the thesis's Lagrange model, term by term (Rojas Salgado
1987), beside eslabon's counted ``lagrange_terms``.

The thesis's formulas are written out again here from the text, each with its own
arithmetic (math.comb, explicit loops), and compared with the module's."""

from math import comb

import pytest

from eslabon.dynamics import opcount
from eslabon.reproduce import lagrange_term_counts as ltc

SIZES = range(1, 13)


def text_formulas(n):
    """The text's formulas for n joints, in its order: (multiplications, additions)."""
    i = range(1, n + 1)
    return {
        # "18 binom(n,2)(n+1)" read as 18·C(n+1, 2): one I_ci e_j per pair j ≤ i
        "I_A": (18 * comb(n + 1, 2), 12 * comb(n + 1, 2)),
        "R": (3 * (n - 1) * (n + 1), (n - 1) * (5 + 3 * n)),
        "A_dot": (0, 0),
        "A_omega": (3 * n * (n - 1), 3 * n * (n - 1) // 2),
        "d2r": (sum(3 * (k - 2) * (k - 1) for k in i), sum(2 * (k - 2) * (k - 1) for k in i)),
        "R_dot": (sum(3 * (k - 1) ** 2 for k in i), sum(3 * (k - 2) * (k - 1) for k in i)),
        "RtR": (sum(3 * k * (k + 1) // 2 for k in i), sum(2 * k * (k + 1) // 2 for k in i)),
        "AtIA": (sum(3 * k * (k - 1) // 2 for k in i), sum(k * (k - 1) for k in i)),
        "C": (3 * sum(3 * (k * k - 1) for k in i), 3 * sum(2 * (k * k - 1) for k in i)),
    }


@pytest.mark.source("Rojas (1987)", "§4.4, the count before (4.4.3): terms 1–9")
def test_each_term_is_the_texts_formula():
    for n in SIZES:
        mine = {k: (m, a) for k, _, m, a in ltc.thesis_terms(n)}
        assert mine == text_formulas(n), n
    assert [k for k, *_ in ltc.thesis_terms()] == list(text_formulas(6))


@pytest.mark.source("Rojas (1987)", "§4.4, (4.4.3): 'para n=6 se tienen 1896 multiplicaciones'")
def test_the_terms_products_add_up_to_4_4_3_and_to_the_printed_1896():
    for n in SIZES:
        closed = 15 * n * n + 6 * n - 3 + sum(k * (18 * k - 15) for k in range(1, n + 1))
        assert sum(m for m, _ in text_formulas(n).values()) == closed, n
        assert ltc.thesis_totals(n)["terms"][0] == closed == opcount.lagrange_model(n)[0]
    assert ltc.thesis_totals(6)["terms"][0] == 1896


@pytest.mark.source("Rojas (1987)", "§4.4, term 1: '18 binom(n,2)(n+1) multiplicaciones'")
def test_the_literal_binomial_does_not_give_4_4_3():
    """Read as C(n, 2)·(n + 1) term 1 is cubic and the products miss (4.4.3) from n = 3
    on (and 1896 at n = 6): the reading C(n + 1, 2) is the one the closed form needs."""
    for n in range(3, 13):  # at n = 1, 2 the two readings coincide
        others = sum(m for k, (m, _) in text_formulas(n).items() if k != "I_A")
        assert others + 18 * comb(n, 2) * (n + 1) != opcount.lagrange_model(n)[0], n


@pytest.mark.source("Rojas (1987)", "§4.4, (4.4.4): '... y 1370 sumas'")
def test_the_terms_sums_miss_4_4_4_by_11_per_joint():
    """The sums add up to (4.4.4)'s polynomial part with the summand 13j² − 15j + 4; the
    printed summand 13j² − 15(j − 1) is 11 more per joint: 1304 against the printed
    1370 at n = 6."""
    for n in SIZES:
        adds = sum(a for _, a in text_formulas(n).values())
        poly2 = 21 * n * n + 13 * n - 10  # 2 × (10,5n² + 6,5n − 5)
        assert 2 * adds == poly2 + 2 * sum(13 * j * j - 15 * j + 4 for j in range(1, n + 1))
        totals = ltc.thesis_totals(n)
        assert totals["terms"][1] == adds
        assert totals["add_gap"] == opcount.lagrange_model(n)[1] - adds == 11 * n
    assert ltc.thesis_totals(6)["terms"][1] == 1304
    assert ltc.thesis_totals(6)["closed_form"] == (1896, 1370)


def test_the_measured_statements_hold_all_the_counted_work():
    """Statement by statement, eslabon's counts add up to the whole call counted without
    attribution, and that to the count of the same code by the opcount probe (its
    formulation part, less inverse_dynamics's I θ̈ + C θ̇ + b + friction: 2n² products,
    2n(n − 1) + 3n sums)."""
    probe = opcount.instrumented("lagrange_id", (3, 6))
    for n in (3, 6):
        statements = ltc.measured_statements(n)
        total = ltc.counted_total(n)
        for k in ("mul", "add"):
            assert sum(c[k] for c in statements.values()) == total[k] > 0
        formulation = probe[n]["parts"]["formulation"]
        assert formulation["mul"] == total["mul"] + 2 * n * n
        assert formulation["add"] == total["add"] + 2 * n * (n - 1) + 3 * n
        groups = ltc.measured_terms(n)  # every statement has its row
        assert sum(g["mul"] for g in groups.values()) == total["mul"]
        assert min(groups[g]["mul"] for g in ("I_A", "R", "R_dot", "I", "C")) > 0


@pytest.mark.source("Rojas (1987)", "§4.4, (4.4.3)-(4.4.4) and the terms before them")
def test_the_table_and_its_report():
    rows = ltc.table(6)
    by_label = {r[0]: r[1:] for r in rows}
    assert by_label["total of rows 1–9 (I and C)"][:2] == (1896, 1304)
    assert by_label["total as printed, (4.4.3)–(4.4.4)"][:2] == (1896, 1370)
    thesis_rows = [r for r in rows if r[0][0].isdigit()]
    assert [r[1:3] for r in thesis_rows] == list(text_formulas(6).values())
    # eslabon's total is the whole call counted without attribution less its kinematics,
    # gravity and friction statements (an independent count of the same code)
    mine = by_label["total of rows 1–9 (I and C)"][2:4]
    whole, ours = ltc.counted_total(6), ltc.measured_terms(6)
    left_out = ("kinematics", "gravity, friction")
    for k, got in zip(("mul", "add"), mine, strict=True):
        assert got == whole[k] - sum(ours[g][k] for g in left_out)
    # eslabon's general numpy code does more work than the thesis's specialised terms
    assert mine[0] > 1896 and mine[1] > 1370
    data, lines = ltc.report(6)
    assert data["add_gap"] == 66 and data["terms"] == (1896, 1304)
    assert any("18·C(n+1, 2)" in line for line in lines)
    with pytest.raises(ValueError, match="n: expected a positive integer"):
        ltc.thesis_terms(0)
