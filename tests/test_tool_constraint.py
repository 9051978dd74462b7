"""The mobile manipulator's tool held on a plane, by Gibbs–Appell in independent
quasi-velocities (no multipliers; Araujo (2012), Ch. II, after Provenzano (2001)),
against the same equations with a multiplier and against the tree DAE with the tool's row
beside the rolling rows."""

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from eslabon import mobile as mb
from eslabon.mobile import tool_constraint as tc
from eslabon.zoo.araujo import puma560_araujo

pytestmark = pytest.mark.source("Araujo (2012)", "Ch. II, Provenzano (2001); Ch. III")

U, TAU = [150.0, 0.3], [6.0, 50.0, 10.0, -0.1, -0.5, -0.1]


@pytest.fixture(scope="module")
def mm():
    cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    return mb.MobileManipulator(cart, puma560_araujo(), mb.Mount.araujo_assumed())


def _start(mm, rng=None):
    q = np.array([0.3, -0.6, 0.4, 0.0, 0.3, 0.0])
    nu, qd = np.array([0.5, 0.05]), np.array([0.0, 0.1, 0.0, 0.0, 0.0, 0.0])
    config = np.zeros(mm.n_config)
    if rng is not None:
        q = q + 0.2 * rng.standard_normal(6)
        qd = 0.3 * rng.standard_normal(6)
        config[:4] = [0.2, -0.1, 0.5, 0.2] + 0.1 * rng.standard_normal(4)
    return mm.state(config=config, q=q, nu=nu, qd=qd)


@pytest.mark.parametrize("normal, dependent", [([0, 1, 0], "q1"), ([1, 0, 0.5], "q2")])
def test_no_multiplier_form_equals_the_kkt_solve(mm, normal, dependent):
    rng = np.random.default_rng(11)
    for _ in range(3):
        y = _start(mm, rng)
        con = tc.ToolOnPlane.through(mm, y, normal=normal, dependent=dependent)
        y = con.consistent_state(y)
        J, b = con.terms(y)
        assert abs(J[0] @ y[mm.n_config + mm.n_arm :]) < 1e-12 * np.abs(J).max()
        a = tc.independent_accelerations(con, y, U, TAU)
        a_kkt, _ = tc.multiplier_accelerations(con, y, U, TAU)
        np.testing.assert_allclose(a, a_kkt, rtol=0, atol=1e-9 * np.abs(a_kkt).max())
        assert abs(J[0] @ a + b[0]) < 1e-9 * np.abs(J).max() * np.abs(a).max()


def test_constraint_terms_are_the_derivatives_of_c(mm):
    """ċ = J_c w and c̈ = J_c ẇ + b_c, by central differences of c along an unconstrained
    coupled run (integrated on its own at tight tolerance)."""
    y0 = _start(mm, np.random.default_rng(5))
    con = tc.ToolOnPlane(mm, [0.0, 0.0, 0.0], [0.3, 0.8, 0.5])
    h = 1e-3

    def at(t):
        if t == 0.0:
            return y0
        sol = solve_ivp(
            lambda _, y: mb.state_derivative(mm, y, U, TAU),
            (0.0, t),
            y0,
            method="DOP853",
            rtol=1e-13,
            atol=1e-14,
        )
        return sol.y[:, -1]

    c = {t: con.value(at(t)) for t in (-2 * h, -h, 0.0, h, 2 * h)}
    J, b = con.terms(y0)
    w = y0[mm.n_config + mm.n_arm :]
    a = mb.accelerations(mm, y0, U, TAU)

    def differences(k):
        return (c[k] - c[-k]) / (2 * k), (c[k] - 2 * c[0.0] + c[-k]) / k**2

    (cd, cdd), (cd_2h, cdd_2h) = differences(h), differences(2 * h)
    # each difference's O(h²) error, estimated from the step 2h (Richardson: 4 times the
    # error at h), here ~1.5e-7 for ċ and ~3.4e-6 for c̈; plus the runs' error, ~1e-13 |c|
    # (rtol), divided by h and h²
    noise = 1e-13 * max(abs(x) for x in c.values())
    assert abs(J[0] @ w - cd) < 2 * abs(cd_2h - cd) / 3 + noise / h
    assert abs(J[0] @ a + b[0] - cdd) < 2 * abs(cdd_2h - cdd) / 3 + 4 * noise / h**2


@pytest.mark.slow
def test_held_tool_follows_the_tree_dae_and_stays_on_the_plane(mm):
    y = _start(mm)
    con = tc.ToolOnPlane.through(mm, y, normal=[0, 1, 0])
    y0 = con.consistent_state(y)
    t = np.linspace(0.0, 1.0, 11)
    Y = tc.simulate(con, t, y0, U, TAU)
    pos, _ = tc.simulate_multipliers(con, t, y0, U, TAU)
    n = mm.n_config + mm.n_arm
    np.testing.assert_allclose(Y[:, :n], pos, rtol=0, atol=1e-9)
    assert max(abs(con.value(yk)) for yk in Y) < 1e-9
    # without the constraint the tool leaves the plane: the constraint is doing work
    free = solve_ivp(
        lambda _, yy: mb.state_derivative(mm, yy, U, TAU), (0, 1), y0, rtol=1e-9, atol=1e-11
    )
    assert abs(con.value(free.y[:, -1])) > 1e-2


def test_bad_constraints_are_named(mm):
    with pytest.raises(ValueError, match="dependent"):
        tc.ToolOnPlane(mm, [0, 0, 0], [0, 1, 0], dependent="q9")
    with pytest.raises(ValueError, match="normal"):
        tc.ToolOnPlane(mm, [0, 0, 0], [0, 0, 0])
    with pytest.raises(ValueError, match="frame"):
        tc.ToolOnPlane(mm, [0, 0, 0], [0, 1, 0], frame="wheel")
    with pytest.raises(ValueError, match="mode"):
        tc.ToolOnPlane(mm.with_mode("thesis"), [0, 0, 0], [0, 1, 0])
    # a plane the waist cannot move the tool across, with the waist as the dependent
    con = tc.ToolOnPlane(mm, [0, 0, 0], [0, 0, 1], dependent="V")
    with pytest.raises(ValueError, match="dependent"):
        con.velocity_basis(mm.state(q=[0.3, -0.6, 0.4, 0, 0.3, 0]))


def test_a_dependent_column_at_round_off_is_refused(mm, monkeypatch):
    """A J_c column of 1e-17 against entries of order 1 is zero to rounding: dividing by it
    would give a basis of size 1e17, so the choice of dependent is refused."""
    con = tc.ToolOnPlane(mm, [0, 0, 0], [0, 1, 0], dependent="q1")
    y = mm.state(q=[0.3, -0.6, 0.4, 0, 0.3, 0])
    J, b = con.terms(y)
    d = mm.coordinate_names.index("q1")
    J = J.copy()
    J[0, d] = 1e-17
    monkeypatch.setattr(tc.ToolOnPlane, "terms", lambda self, y: (J, b))
    with pytest.raises(ValueError, match="dependent"):
        con.velocity_basis(y)
