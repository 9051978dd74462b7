"""Analytic derivatives of inverse and forward dynamics (``eslabon.inverse_dynamics_derivatives``,
``eslabon.forward_dynamics_derivatives``; Carpentier & Mansard, "Analytical derivatives of
rigid body dynamics algorithms", RSS 2018).

Checked on every zoo model (friction as shipped; the 4-DOF arm also in its seed-001 book
form, whose COM slides with its prismatic joints, and with the Ejemplo 3.3 payload; the
pendulum also friction-free), on seeded random DH chains (``eslabon.zoo.random_chain``, all
three conventions, revolute and prismatic joints, friction, payload, tool) and on seeded
random trees (arbitrary axes, a fixed body with children), at random states:

* ∂τ/∂q, ∂τ/∂q̇ (and M = ∂τ/∂q̈) against complex steps of an independent plain-numpy
  Newton–Euler (``tests/rnea_oracle.py``, seed 001 Tabla 3.1; Squire & Trapp 1998), which is
  first checked against ``eslabon.inverse_dynamics`` itself;
* the same against central differences of ``eslabon.inverse_dynamics``;
* friction: viscous b adds diag(b) to ∂τ/∂q̇, Coulomb adds nothing (taken as locally
  constant, the documented convention, also at q̇ = 0);
* ∂q̈/∂q, ∂q̈/∂q̇ against central differences of ``eslabon.forward_dynamics``;
  ∂q̈/∂τ = M⁻¹; ∂q̈/∂x = −M⁻¹ ∂τ/∂x at q̈ = FD (Carpentier & Mansard eq. 26);
* Pinocchio's ``computeRNEADerivatives`` / ``computeABADerivatives`` (skipped without ``pin``);
* a batch (N, n) gives the stacked single-state results.

Tolerances are relative to the size of the compared matrices ("scale").
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest

import eslabon as es
from checks import ONE_DOF_ZOO, check
from rnea_oracle import complex_step_jacobians, rnea

CONVENTIONS = ("standard", "modified", "rojas")
N_STATES = 3

# The issue asks for 1e-7 relative against the complex step; the analytic derivatives
# agree to ~6e-15 (measured over these cases), so the bound here is stricter.
RTOL_COMPLEX_STEP = 1e-10
RTOL_ORACLE = 1e-12
H_CENTRAL = 1e-6
RTOL_CENTRAL = 1e-7  # the issue's bound; measured worst ~2e-8 (rounding of τ / h)
RTOL_COND = 1e-13  # x cond(M) for the M⁻¹ identities

# --- cases -------------------------------------------------------------------------------

ZOO_CASES = {name: (name, {}) for name in ONE_DOF_ZOO}  # quaternions: refused
ZOO_CASES.update(
    {
        "practica_4dof_book": ("practica_4dof", {"book_com": True}),
        "practica_4dof_payload": ("practica_4dof", {"payload_mass": 3.0, "payload_inertia": 0.05}),
        "practica_pendulum3_frictionless": ("practica_pendulum3", {"friction": False}),
    }
)
# (seed, n, convention, options): prismatic joints forced in, payload and tool on and off
CHAIN_CASES = {}
for _k, _conv in enumerate(CONVENTIONS):
    CHAIN_CASES[f"chain-{_conv}-1P"] = (10 * _k + 2, 1, _conv, dict(joints="P"))
    CHAIN_CASES[f"chain-{_conv}-3"] = (10 * _k + 3, 3, _conv, dict(joints="RPR", payload=True))
    CHAIN_CASES[f"chain-{_conv}-5"] = (10 * _k + 4, 5, _conv, dict(tool=True, payload=False))
    CHAIN_CASES[f"chain-{_conv}-7"] = (
        10 * _k + 6,
        7,
        _conv,
        dict(joints="RRPRPRR", payload=True, tool=True),
    )
TREE_CASES = {f"tree-{s}": s for s in range(2)}
CASES = [*ZOO_CASES, *CHAIN_CASES, *TREE_CASES]


def derivatives_tree(seed):
    """A seeded random tree (:func:`eslabon.zoo.random_tree`): branches, arbitrary joint
    axes, a fixed body (2) carrying children, random inertial data, friction and armature
    on every body, gravity in a random direction."""
    return es.zoo.random_tree(seed, "RFRPRPRR", name=f"tree-{seed}")


_models: dict = {}


def build(case, random_chain):
    if case not in _models:
        if case in ZOO_CASES:
            name, opts = ZOO_CASES[case]
            _models[case] = es.zoo.load(name, **opts)
        elif case in CHAIN_CASES:
            seed, n, conv, opts = CHAIN_CASES[case]
            _models[case] = random_chain(seed, n, conv, **opts)
        else:
            _models[case] = derivatives_tree(TREE_CASES[case])
    return _models[case]


def away_from_zero(qd, margin=0.05):
    """Keep |q̇| >= margin: Coulomb friction jumps at q̇ = 0, differences must not cross it."""
    return np.where(np.abs(qd) < margin, np.copysign(margin, qd), qd)


@pytest.fixture(params=CASES, scope="module")
def case(request):
    return request.param


@pytest.fixture(scope="module")
def model(case, random_chain):
    return build(case, random_chain)


@pytest.fixture(scope="module")
def states(case, model, random_states):
    q, qd, qdd = random_states(model, zlib.crc32(case.encode()), N_STATES)
    return q, away_from_zero(qd), qdd


def central(f, x, h=H_CENTRAL):
    """Jacobian [i, j] = ∂f_i/∂x_j by central differences, all 2n points in one batch."""
    n = len(x)
    pts = np.concatenate([x + h * np.eye(n), x - h * np.eye(n)])
    vals = f(pts)
    return (vals[:n] - vals[n:]).T / (2 * h)


def each(states):
    return zip(*states, strict=True)


# --- the oracle itself -------------------------------------------------------------------


def test_oracle_matches_inverse_dynamics(model, states):
    """The numpy Newton–Euler is the library's Newton–Euler (else its derivatives prove
    nothing), in float and in complex arithmetic with a zero imaginary part."""
    for q, qd, qdd in each(states):
        tau = es.inverse_dynamics(model, q, qd, qdd)
        check(rnea(model, q, qd, qdd), tau, RTOL_ORACLE, what="oracle τ")
        tc = rnea(model, q.astype(complex), qd.astype(complex), qdd.astype(complex))
        assert tc.dtype == complex and not np.any(tc.imag)
        check(tc.real, tau, RTOL_ORACLE, what="oracle τ (complex)")


def test_oracle_is_not_blind():
    """A one-link pendulum by hand: τ = (I_zz + m l²) q̈ + b q̇ + μ sign(q̇) + m g l cos q
    (standard DH, COM at the link's middle, gravity −y)."""
    m, l, Izz, b, mu, g = 2.0, 0.8, 0.1, 0.3, 0.2, 9.81
    model = es.from_dh(
        [
            {
                "joint": "R",
                "theta": 0.0,
                "d": 0.0,
                "a": 2 * l,
                "alpha": 0.0,
                "mass": m,
                "com": [-l, 0, 0],
                "inertia": np.diag([0, Izz, Izz]),
                "viscous": b,
                "coulomb": mu,
            }
        ],
        "standard",
        gravity=(0, -g, 0),
    )
    q, qd, qdd = 0.7, -1.3, 2.1
    expected = (Izz + m * l * l) * qdd + b * qd - mu + m * g * l * np.cos(q)
    check(rnea(model, [q], [qd], [qdd]), [expected], 1e-14, what="hand pendulum")


# --- inverse dynamics derivatives --------------------------------------------------------


def test_id_derivatives_match_complex_step(model, states):
    for q, qd, qdd in each(states):
        dq, dv = es.inverse_dynamics_derivatives(model, q, qd, qdd)
        cq, cv, ca = complex_step_jacobians(model, q, qd, qdd)
        scale = max(1.0, float(np.max(np.abs(cq))), float(np.max(np.abs(cv))))
        check(dq, cq, RTOL_COMPLEX_STEP, scale, what="∂τ/∂q vs complex step")
        check(dv, cv, RTOL_COMPLEX_STEP, scale, what="∂τ/∂q̇ vs complex step")
        check(es.mass_matrix(model, q), ca, RTOL_COMPLEX_STEP, what="M vs ∂τ/∂q̈ (complex step)")


def test_id_derivatives_match_central_differences(model, states):
    for q, qd, qdd in each(states):
        dq, dv = es.inverse_dynamics_derivatives(model, q, qd, qdd)
        Nq = central(
            lambda Q, qd=qd, qdd=qdd: es.inverse_dynamics(
                model, Q, np.broadcast_to(qd, Q.shape).copy(), np.broadcast_to(qdd, Q.shape).copy()
            ),
            q,
        )
        Nv = central(
            lambda V, q=q, qdd=qdd: es.inverse_dynamics(
                model, np.broadcast_to(q, V.shape).copy(), V, np.broadcast_to(qdd, V.shape).copy()
            ),
            qd,
        )
        scale = max(1.0, float(np.max(np.abs(Nq))), float(np.max(np.abs(Nv))))
        check(dq, Nq, RTOL_CENTRAL, scale, what="∂τ/∂q vs central differences")
        check(dv, Nv, RTOL_CENTRAL, scale, what="∂τ/∂q̇ vs central differences")


def test_id_derivatives_are_not_trivial(model, states):
    """Guard for the comparisons above: the matrices are not all zeros."""
    q, qd, qdd = (x[0] for x in states)
    dq, dv = es.inverse_dynamics_derivatives(model, q, qd, qdd)
    assert dq.shape == dv.shape == (model.nq, model.nq)
    if model.joint_types == ("prismatic",):
        # one slider on the world: τ = (m + J_a) q̈ − m gᵀs + b q̇ + μ sign(q̇)
        np.testing.assert_array_equal(dq, 0.0)
        check(dv, model.viscous[model.dof_bodies][None], 1e-15, what="∂τ/∂q̇ of a slider")
        return
    if model.nq == 1:
        # one revolute joint on the world: no velocity product, ∂τ/∂q̇ = b (viscous only)
        check(dv, model.viscous[model.dof_bodies][None], 1e-15, what="∂τ/∂q̇ of one joint")
        assert np.max(np.abs(dq)) > 1e-3
        return
    # in the model's units: a mechanism of grams and centimetres (andrews_squeezer) has
    # derivatives of 1e-6; 1e-3 of its largest inertia when that is below 1 kg·m²
    small = 1e-3 * min(1.0, float(np.max(np.abs(es.mass_matrix(model, q)))))
    assert np.max(np.abs(dq)) > small
    assert np.max(np.abs(dv)) > small


@pytest.mark.parametrize(
    "case", ["practica_6dof", "practica_pendulum3", "chain-modified-7", "tree-1"]
)
def test_friction_terms_of_the_derivatives(case, random_chain, random_states):
    """Viscous b adds diag(b) to ∂τ/∂q̇; Coulomb μ sign(q̇) adds nothing, also at q̇_j = 0
    (the documented choice). ∂τ/∂q does not see friction."""
    model = build(case, random_chain)
    rng = np.random.default_rng(7)
    b = rng.uniform(0.1, 0.8, model.nq)
    mu = rng.uniform(0.1, 0.8, model.nq)
    free = model.replace(viscous=np.zeros(model.nq), coulomb=np.zeros(model.nq))
    viscous = model.replace(viscous=b, coulomb=np.zeros(model.nq))
    coulomb = model.replace(viscous=np.zeros(model.nq), coulomb=mu)
    q, qd, qdd = random_states(model, 5, 3)
    qd[0, 0] = 0.0
    for x in zip(q, qd, qdd, strict=True):
        dq0, dv0 = es.inverse_dynamics_derivatives(free, *x)
        dq1, dv1 = es.inverse_dynamics_derivatives(viscous, *x)
        dq2, dv2 = es.inverse_dynamics_derivatives(coulomb, *x)
        scale = max(1.0, float(np.max(np.abs(dv0))))
        check(dv1 - dv0, np.diag(b), 1e-13, scale, what="viscous term of ∂τ/∂q̇")
        check(dq1, dq0, 1e-13, max(1.0, float(np.max(np.abs(dq0)))), what="∂τ/∂q, viscous")
        np.testing.assert_array_equal(dq2, dq0)
        np.testing.assert_array_equal(dv2, dv0)
    # and the viscous diagonal is what the differences of τ see (away from q̇ = 0)
    x = (q[1], away_from_zero(qd[1]), qdd[1])
    both = model.replace(viscous=b, coulomb=mu)
    Nv = central(
        lambda V: es.inverse_dynamics(
            both, np.broadcast_to(x[0], V.shape).copy(), V, np.broadcast_to(x[2], V.shape).copy()
        ),
        x[1],
    )
    dv = es.inverse_dynamics_derivatives(both, *x)[1]
    check(dv, Nv, RTOL_CENTRAL, max(1.0, float(np.max(np.abs(Nv)))), what="∂τ/∂q̇ with friction")


# --- forward dynamics derivatives --------------------------------------------------------


def _tau(model, q, qd, seed):
    """A torque of the size of the model's own bias forces, so q̈ is of order 1."""
    rng = np.random.default_rng(seed)
    b = es.bias_forces(model, q, qd)
    return b + rng.normal(size=model.nq) * max(1.0, float(np.max(np.abs(b))))


def rep(x, X):
    """``x`` broadcast to ``X``'s shape, a copy: a state held fixed over a batch of steps."""
    return np.broadcast_to(x, X.shape).copy()


def test_fd_derivatives_match_central_differences(model, states, case):
    for k, (q, qd, _) in enumerate(each(states)):
        tau = _tau(model, q, qd, zlib.crc32(case.encode()) + k)
        dq, dv, dtau = es.forward_dynamics_derivatives(model, q, qd, tau)
        Nq = central(
            lambda Q, qd=qd, tau=tau: es.forward_dynamics(model, Q, rep(qd, Q), rep(tau, Q)), q
        )
        Nv = central(
            lambda V, q=q, tau=tau: es.forward_dynamics(model, rep(q, V), V, rep(tau, V)), qd
        )
        # q̈ is linear in τ: a step of the size of τ has no truncation error, less rounding
        Nt = central(
            lambda T, q=q, qd=qd: es.forward_dynamics(model, rep(q, T), rep(qd, T), T),
            tau,
            h=1e-3 * max(1.0, float(np.max(np.abs(tau)))),
        )
        scale = max(1.0, float(np.max(np.abs(Nq))), float(np.max(np.abs(Nv))))
        check(dq, Nq, RTOL_CENTRAL, scale, what="∂q̈/∂q vs central differences")
        check(dv, Nv, RTOL_CENTRAL, scale, what="∂q̈/∂q̇ vs central differences")
        check(dtau, Nt, RTOL_CENTRAL, what="∂q̈/∂τ vs central differences")


def test_fd_derivatives_are_minus_minv_times_id_derivatives(model, states, case):
    """Carpentier & Mansard eq. 26: ∂q̈/∂τ = M⁻¹ and ∂q̈/∂x = −M⁻¹ ∂τ/∂x at q̈ = FD(q, q̇, τ)."""
    for k, (q, qd, _) in enumerate(each(states)):
        tau = _tau(model, q, qd, zlib.crc32(case.encode()) + 100 + k)
        dq, dv, dtau = es.forward_dynamics_derivatives(model, q, qd, tau)
        M = es.mass_matrix(model, q)
        Minv = np.linalg.inv(M)
        cond = np.linalg.cond(M)
        check(dtau, Minv, RTOL_COND * cond, what="∂q̈/∂τ vs inv(M)")
        check(
            dtau,
            dtau.T,
            RTOL_COND * cond,
            max(1.0, float(np.max(np.abs(dtau)))),
            what="M⁻¹ symmetric",
        )
        qdd = es.forward_dynamics(model, q, qd, tau)
        iq, iv = es.inverse_dynamics_derivatives(model, q, qd, qdd)
        # M (∂q̈/∂x) = −∂τ/∂x, checked without inverting M
        check(
            M @ dq,
            -iq,
            RTOL_COND * cond,
            max(1.0, float(np.max(np.abs(iq)))),
            what="M ∂q̈/∂q vs −∂τ/∂q",
        )
        check(
            M @ dv,
            -iv,
            RTOL_COND * cond,
            max(1.0, float(np.max(np.abs(iv)))),
            what="M ∂q̈/∂q̇ vs −∂τ/∂q̇",
        )
        check(
            dq,
            -Minv @ iq,
            RTOL_COND * cond,
            max(1.0, float(np.max(np.abs(dq)))),
            what="∂q̈/∂q vs −M⁻¹ ∂τ/∂q",
        )


# --- batches -----------------------------------------------------------------------------


def test_batch_equals_stacked_single_calls(model, case, random_states):
    q, qd, qdd = random_states(model, zlib.crc32(case.encode()) + 2, 9)
    dq, dv = es.inverse_dynamics_derivatives(model, q, qd, qdd)
    single = [es.inverse_dynamics_derivatives(model, *x) for x in zip(q, qd, qdd, strict=True)]
    assert dq.shape == dv.shape == (9, model.nq, model.nq)
    np.testing.assert_allclose(dq, np.stack([s[0] for s in single]), rtol=1e-14, atol=1e-14)
    np.testing.assert_allclose(dv, np.stack([s[1] for s in single]), rtol=1e-14, atol=1e-14)
    tau = np.array([_tau(model, *x, k) for k, x in enumerate(zip(q, qd, strict=True))])
    batch = es.forward_dynamics_derivatives(model, q, qd, tau)
    single = [es.forward_dynamics_derivatives(model, *x) for x in zip(q, qd, tau, strict=True)]
    for j, name in enumerate(("∂q̈/∂q", "∂q̈/∂q̇", "∂q̈/∂τ")):
        assert batch[j].shape == (9, model.nq, model.nq)
        np.testing.assert_allclose(
            batch[j], np.stack([s[j] for s in single]), rtol=1e-14, atol=1e-14, err_msg=name
        )


# --- bad input ---------------------------------------------------------------------------


def test_derivatives_name_the_bad_field():
    m = es.zoo.load("planar2")
    z = np.zeros(2)
    with pytest.raises(ValueError, match=r"^qdd: expected finite"):
        es.inverse_dynamics_derivatives(m, z, z, np.array([0.0, np.nan]))
    with pytest.raises(ValueError, match=r"^q: expected finite"):
        es.inverse_dynamics_derivatives(
            m, np.array([[0.0, 0.0], [np.inf, 0.0]]), np.zeros((2, 2)), np.zeros((2, 2))
        )
    with pytest.raises(ValueError, match=r"^tau: expected finite"):
        es.forward_dynamics_derivatives(m, z, z, [np.nan, 0.0])
    with pytest.raises(ValueError, match=r"^qd: expected"):
        es.forward_dynamics_derivatives(m, z, np.zeros(3), z)
    massless = es.from_dh(
        [
            {
                "joint": "R",
                "theta": 0.0,
                "d": 0.0,
                "a": 1.0,
                "alpha": 0.0,
                "mass": 0.0,
                "com": [0, 0, 0],
                "inertia": np.zeros((3, 3)),
            }
        ],
        "standard",
    )
    with pytest.raises(ValueError, match="positive definite"):
        es.forward_dynamics_derivatives(massless, [0.0], [0.0], [1.0])
    with pytest.raises(ValueError, match="positive definite"):
        es.forward_dynamics_derivatives(
            massless, np.zeros((3, 1)), np.zeros((3, 1)), np.ones((3, 1))
        )


@pytest.mark.parametrize("index", [0, 1])
def test_fd_derivatives_nonfinite_q_names_q(index):
    """A NaN joint angle is bad input, not a singular mass matrix (planar2, either joint)."""
    m = es.zoo.load("planar2")
    q = np.zeros(2)
    q[index] = np.nan
    with pytest.raises(ValueError, match=r"^q: expected finite"):
        es.forward_dynamics_derivatives(m, q, np.zeros(2), np.zeros(2))


def test_fd_derivatives_refuse_a_nonfinite_torque_that_no_column_reads():
    """A lone joint's ∂τ does not depend on q̈, so a NaN τ reaches no derivative: it is
    refused by the check on q̈ itself (one state, a list, a batch)."""
    m = es.zoo.load("jaramillo_pendulum")
    z = np.zeros(m.nv)
    for bad in (np.array([np.nan]), [np.inf]):
        with pytest.raises(ValueError, match=r"^tau: expected finite"):
            es.forward_dynamics_derivatives(m, z, z, bad)
    Z = np.zeros((5, m.nv))
    T = Z.copy()
    T[3, 0] = np.nan
    with pytest.raises(ValueError, match=r"^tau: expected finite"):
        es.forward_dynamics_derivatives(m, Z, Z, T)


def test_fd_derivatives_nonfinite_q_on_a_branch_names_q():
    """A NaN angle on the second branch of a tree leaves M's first pivot finite: the
    failing pivot says the state is not finite, not that M is singular."""
    m = es.zoo.random_tree(2, "RRRR")
    q = np.zeros(m.nq)
    q[3] = np.nan
    z = np.zeros(m.nv)
    with pytest.raises(ValueError, match=r"^q: expected finite"):
        es.forward_dynamics_derivatives(m, q, z, z)
    Q = np.zeros((6, m.nq))
    Q[4, 3] = np.nan
    with pytest.raises(ValueError, match=r"^q: expected finite"):
        es.forward_dynamics_derivatives(m, Q, np.zeros((6, m.nv)), np.zeros((6, m.nv)))


# --- Pinocchio ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pin():
    return pytest.importorskip("pinocchio")


PIN_CASES = [
    "puma560",
    "panda",
    "practica_6dof",
    "chain-standard-5",
    "chain-modified-7",
    "chain-rojas-3",
    "tree-0",
]


@pytest.mark.parametrize("case", PIN_CASES)
def test_against_pinocchio_derivatives(case, pin, random_chain):
    """``pin.computeRNEADerivatives`` (∂τ/∂q, ∂τ/∂v) and ``pin.computeABADerivatives``
    (∂q̈/∂q, ∂q̈/∂v, M⁻¹) on the friction-free model, 10 states, 1e-9 relative."""
    from eslabon.interop.pinocchio import dof_order, to_pinocchio

    model = build(case, random_chain)
    model = model.replace(viscous=np.zeros(model.nq), coulomb=np.zeros(model.nq))
    pm = to_pinocchio(model)
    data = pm.createData()
    o = dof_order(model)
    if case.startswith("tree"):
        assert not np.array_equal(o, np.arange(model.nq))  # exercises the reordering
    back = np.ix_(o, o)
    rng = np.random.default_rng(zlib.crc32(case.encode()))
    for _ in range(10):
        q = rng.uniform(-np.pi, np.pi, model.nq)
        qd = rng.normal(0.0, 1.5, model.nq)
        qdd = rng.normal(0.0, 3.0, model.nq)
        ref = [np.empty((model.nq, model.nq)) for _ in range(5)]
        r = pin.computeRNEADerivatives(pm, data, q[o], qd[o], qdd[o])
        ref[0][back], ref[1][back] = r[0], r[1]
        tau = es.inverse_dynamics(model, q, qd, qdd)
        a = pin.computeABADerivatives(pm, data, q[o], qd[o], tau[o])
        ref[2][back], ref[3][back], ref[4][back] = a[0], a[1], a[2]
        dq, dv = es.inverse_dynamics_derivatives(model, q, qd, qdd)
        fq, fv, Minv = es.forward_dynamics_derivatives(model, q, qd, tau)
        sid = max(1.0, float(np.max(np.abs(ref[0]))), float(np.max(np.abs(ref[1]))))
        check(dq, ref[0], 1e-9, sid, what="∂τ/∂q vs pin")
        check(dv, ref[1], 1e-9, sid, what="∂τ/∂v vs pin")
        sfd = max(1.0, float(np.max(np.abs(ref[2]))), float(np.max(np.abs(ref[3]))))
        check(fq, ref[2], 1e-9, sfd, what="∂q̈/∂q vs pin")
        check(fv, ref[3], 1e-9, sfd, what="∂q̈/∂v vs pin")
        check(Minv, ref[4], 1e-9, what="M⁻¹ vs pin")
