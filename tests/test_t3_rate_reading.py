"""Rojas (1987) §5.5: the reading of V through ∂n_i/∂θ̇_k on the Cincinnati T3.

The checks are derived, not typed in: the Coriolis and gyroscopic parts of (5.5.5) sum to
central differences of the Newton–Euler moments n_i (4.2.2) in θ̇; ∂r̈_i/∂θ̇_k of (5.5.1)
likewise; the parts projected on the joints (5.5.6) plus (5.5.1) are eslabon's V; and
§5.5's remark e_1ᵀ ∂n_1/∂θ̇_1 = 0.
"""

import numpy as np
import pytest

import eslabon as es
from eslabon.kinematics import ik
from eslabon.reproduce.t3_rate_reading import PARTS, rate_reading, rate_reading_report
from eslabon.trajectory import t3_straight_line_task
from eslabon.zoo.rojas import INITIAL_THETA_DEG

pytestmark = pytest.mark.source("Rojas (1987)", "§5.5, eqs. (5.5.1)–(5.5.6)")


@pytest.fixture(scope="module")
def t3():
    return es.zoo.load("cincinnati_t3")


@pytest.fixture(scope="module")
def task(t3):
    times = np.linspace(0.0, 1.0, 6)
    return ik.solve_path(t3, t3_straight_line_task(), times, np.radians(INITIAL_THETA_DEG))


def test_parts_sum_to_the_differences_and_to_v(t3, task):
    for q, qd, qdd in zip(task.q, task.qd, task.qdd, strict=True):
        r = rate_reading(t3, q, qd, qdd)
        scale = max(1.0, np.abs(r.n_rate_fd).max())
        # central differences of step 1e-6: truncation ~1e-12 relative, rounding ~eps/h
        assert np.abs(r.coriolis + r.gyroscopic - r.n_rate_fd).max() <= 1e-7 * scale
        assert np.abs(r.r_ddot_rate - r.r_ddot_rate_fd).max() <= 1e-7 * max(
            1.0, np.abs(r.r_ddot_rate).max()
        )
        V = sum(r.V.values())
        assert np.abs(V - r.V_exact).max() <= 1e-10 * np.abs(r.V_exact).max()


def test_the_parts_are_not_trivial_and_e1_n1_rate_1_is_zero(t3, task):
    r = rate_reading(t3, task.q[2], task.qd[2], task.qdd[2])
    for p in PARTS:
        assert np.abs(r.V[p]).max() > 1.0, p  # each part matters on the moving T3
    from eslabon.reproduce.t3_uvw_terms import chain_state

    cs = chain_state(t3, task.q[2], task.qd[2], task.qdd[2])
    n11 = r.coriolis[0, 0] + r.gyroscopic[0, 0]
    assert np.linalg.norm(n11) > 0  # the vector itself is not zero ...
    assert abs(cs.e[0] @ n11) <= 1e-12 * np.linalg.norm(n11)  # ... its e₁ component is


def test_report_along_the_task(t3, task):
    data, lines = rate_reading_report(t3, task)
    assert data["worst"]["sum_minus_V"] < 1e-9
    assert data["worst"]["n_rate_minus_fd"] < 1e-7
    assert len(data["samples"]) == len(task.t)
    assert any("gyroscopic" in line for line in lines)


def test_bad_model_is_named():
    model = es.zoo.load("slider_crank")
    zero = np.zeros(model.nq)
    with pytest.raises(ValueError, match="serial chain of revolute joints"):
        rate_reading(model, zero, zero, zero)


def test_the_split_is_53_24s_grouping(t3, task):
    """(5.5.5)'s parts projected (5.5.6) are (5.3.24)'s terms as eslabon writes them:
    "inertial" e_jᵀI_i(2ω_k × e_k + e_k × ω_i) and "gyroscopic"."""
    from eslabon.reproduce.t3_uvw_terms import chain_state, thesis_v_terms

    state = task.q[3], task.qd[3], task.qdd[3]
    r = rate_reading(t3, *state)
    terms = thesis_v_terms(chain_state(t3, *state))
    scale = np.abs(r.V_exact).max()
    for ours, theirs in (
        ("translational", "translational"),
        ("coriolis", "inertial"),
        ("gyroscopic", "gyroscopic"),
    ):
        assert np.abs(r.V[ours] - terms[theirs]).max() <= 1e-12 * scale, ours


def test_w_reading_holds_with_its_index_ranges(t3, task):
    """(5.5.7) with the lever term e_min(j,k)ᵀ(∂r_i/∂θ_max × F_i) and the axis term only
    for k < j sums to eslabon's W; as printed it misses on both sides of the diagonal
    and meets it on the diagonal (where both readings coincide)."""
    from eslabon.reproduce.t3_rate_reading import w_reading

    printed, ranged, W = w_reading(t3, task.q[3], task.qd[3], task.qdd[3])
    scale = np.abs(W).max()
    # central differences of F_i, n_i (|F| ~ 1e4 N, step 1e-6): ~1e-6 N·m/rad rounding
    assert np.abs(sum(ranged.values()) - W).max() <= 1e-8 * scale
    gap = sum(printed.values()) - W
    assert np.abs(np.diag(gap)).max() <= 1e-8 * scale
    below, above = np.tril(gap, -1), np.triu(gap, 1)
    assert np.abs(below).max() > 1e-3 * scale and np.abs(above).max() > 1e-3 * scale
    # above the diagonal the printed form's only error is its axis term
    assert np.allclose(above, np.triu(printed["axis"], 1), rtol=0, atol=1e-8 * scale)
