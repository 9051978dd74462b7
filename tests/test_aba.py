"""Forward dynamics by the articulated-body algorithm (``forward_dynamics(method="aba")``,
the default; Featherstone, *Rigid Body Dynamics Algorithms* (2008), Table 7.1).

Against the two Walker–Orin methods of seed 001 (eqs 3.36–3.40: the mass matrix by method
3, composite rigid body, or method 1, n Newton–Euler columns, then a Cholesky solve) on
every zoo model (friction as shipped, the 4-DOF arm also in book mode and with the
Ejemplo 3.3 payload), on seeded random DH chains (``eslabon.zoo.random_chain``, 1–8 R/P
joints, the three conventions, friction, payloads, tools) and on seeded random trees
(arbitrary axes, fixed bodies with children):

* ABA == Walker–Orin 3 == Walker–Orin 1 to 1e-9 relative, at random torques;
* ID(q, q̇, FD(q, q̇, τ)) == τ (seed 001 Tabla 3.1 Newton–Euler undoes it);
* a batch (N, n) gives the per-state results;
* a joint that moves no mass (massless last link) is refused with "positive definite",
  a non-finite input is refused naming the field.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest

import eslabon as es
from checks import check

CONVENTIONS = ("standard", "modified", "rojas")
N_STATES = 6
RTOL = 1e-9

ZOO_CASES = {name: (name, {}) for name in es.zoo.names()}
ZOO_CASES.update(
    {
        "practica_4dof_book": ("practica_4dof", {"book_com": True}),
        "practica_4dof_payload": ("practica_4dof", {"payload_mass": 3.0, "payload_inertia": 0.05}),
        "practica_6dof_payload": ("practica_6dof", {"payload_mass": 3.0, "payload_inertia": 0.05}),
    }
)
CHAIN_CASES = {
    f"chain-{conv}-{n}": (200 + 100 * k + n, n, conv)
    for k, conv in enumerate(CONVENTIONS)
    for n in (1, 2, 3, 5, 8)
}
TREE_CASES = {f"tree-{s}": s for s in range(3)}
CASES = [*ZOO_CASES, *CHAIN_CASES, *TREE_CASES]


def aba_tree(seed):
    """A seeded random tree (:func:`eslabon.zoo.random_tree`): 9 bodies with branches,
    arbitrary axes (and +z), two fixed bodies (one carrying children), random inertial
    data, friction, and armature on about half the bodies."""
    return es.zoo.random_tree(1000 + seed, "RFPRRFPRR", armature_chance=0.5, name=f"tree-{seed}")


_models: dict = {}


@pytest.fixture(params=CASES, scope="module")
def case(request):
    return request.param


@pytest.fixture(scope="module")
def model(case, random_chain):
    if case not in _models:
        if case in ZOO_CASES:
            name, opts = ZOO_CASES[case]
            _models[case] = es.zoo.load(name, **opts)
        elif case in CHAIN_CASES:
            _models[case] = random_chain(*CHAIN_CASES[case])
        else:
            _models[case] = aba_tree(TREE_CASES[case])
    return _models[case]


@pytest.fixture(scope="module")
def states(case, model, random_states):
    """(q, q̇, τ), τ a random torque of the size of the model's bias forces."""
    seed = zlib.crc32(case.encode())
    q, qd, _ = random_states(model, seed, N_STATES)
    qd[0, 0] = 0.0  # Coulomb friction at rest (sign 0) too
    b = es.bias_forces(model, q, qd)
    rng = np.random.default_rng(seed + 1)
    tau = b + rng.normal(size=b.shape) * np.maximum(1.0, np.abs(b).max(axis=1, keepdims=True))
    return q, qd, tau


def test_aba_is_the_default_method():
    m = es.zoo.load("puma560")
    q, qd, tau = np.full(6, 0.3), np.full(6, -0.2), np.linspace(-5, 5, 6)
    np.testing.assert_array_equal(
        es.forward_dynamics(m, q, qd, tau), es.forward_dynamics(m, q, qd, tau, algorithm="aba")
    )
    assert es.dynamics.api.FORWARD_METHODS[0] == "aba"
    with pytest.raises(ValueError, match="^algorithm: expected one of"):
        es.forward_dynamics(m, q, qd, tau, algorithm="featherstone")


@pytest.mark.parametrize("other", ["walker_orin_3", "walker_orin_1"])
def test_aba_matches_walker_orin(model, states, other):
    for q, qd, tau in zip(*states, strict=True):
        aba = es.forward_dynamics(model, q, qd, tau, algorithm="aba")
        ref = es.forward_dynamics(model, q, qd, tau, algorithm=other)
        check(aba, ref, RTOL, what=f"aba vs {other}")
        assert np.max(np.abs(ref)) > 1e-3  # not a trivial comparison


def test_inverse_dynamics_undoes_aba(model, states):
    for q, qd, tau in zip(*states, strict=True):
        qdd = es.forward_dynamics(model, q, qd, tau)
        check(es.inverse_dynamics(model, q, qd, qdd), tau, RTOL, what="ID(FD(τ)) vs τ")


def test_aba_batch_equals_single(model, states):
    q, qd, tau = states
    batch = es.forward_dynamics(model, q, qd, tau)
    single = np.stack([es.forward_dynamics(model, *x) for x in zip(q, qd, tau, strict=True)])
    assert batch.shape == qd.shape
    np.testing.assert_allclose(batch, single, rtol=1e-14, atol=1e-14)


def test_aba_gravity_only_hanging_pendulum():
    """Seed 001 §3.4 pendulum, all links along −y (hanging, at rest, τ = 0): an
    equilibrium, q̈ = 0; turned to the horizontal, every link starts to fall (q̈₁ < 0)."""
    m = es.zoo.load("practica_pendulum3")
    down = np.array([-np.pi / 2, 0.0, 0.0])
    check(
        es.forward_dynamics(m, down, np.zeros(3), np.zeros(3)),
        np.zeros(3),
        1e-12,
        what="hanging pendulum q̈",
    )
    qdd = es.forward_dynamics(m, np.zeros(3), np.zeros(3), np.zeros(3))
    assert qdd[0] < -1.0
    check(
        qdd,
        es.forward_dynamics(m, np.zeros(3), np.zeros(3), np.zeros(3), algorithm="walker_orin_3"),
        1e-12,
        what="horizontal pendulum",
    )


# --- refusals ----------------------------------------------------------------------------

ROW = {
    "joint": "R",
    "theta": 0.3,
    "d": 0.1,
    "a": 0.8,
    "alpha": 0.4,
    "mass": 2.0,
    "com": [-0.4, 0.0, 0.0],
    "inertia": np.diag([0.01, 0.1, 0.1]),
}


def _massless_last(joint):
    rows = [
        dict(ROW),
        dict(ROW, joint="P"),
        dict(ROW, joint=joint, mass=0.0, inertia=np.zeros((3, 3))),
    ]
    return es.from_dh(rows, "standard")


@pytest.mark.parametrize("joint", ["R", "P"])
@pytest.mark.parametrize("method", es.dynamics.api.FORWARD_METHODS)
def test_joint_moving_no_mass_is_refused(joint, method):
    """A massless last link: its joint moves nothing, M is singular (test_bad_input.py has
    the one-link case). Single state and batch."""
    m = _massless_last(joint)
    q, qd, tau = [0.1, 0.2, 0.3], [0.3, -0.4, 0.5], [1.0, 2.0, 3.0]
    # the constraint-force method needs every body's inertia inverted: it names the body
    match = "singular 6×6 inertia" if method == "soa" else "positive definite"
    with pytest.raises(ValueError, match=match):
        es.forward_dynamics(m, q, qd, tau, algorithm=method)
    with pytest.raises(ValueError, match=match):
        es.forward_dynamics(
            m, np.array([q] * 4), np.array([qd] * 4), np.array([tau] * 4), algorithm=method
        )
    # armature on that joint makes it legal again (the constraint-force method has none)
    fixed = m.replace(armature=[0.0, 0.0, 0.05])
    if method == "soa":
        with pytest.raises(ValueError, match="armature"):
            es.forward_dynamics(fixed, q, qd, tau, algorithm=method)
        return
    qdd = es.forward_dynamics(fixed, q, qd, tau, algorithm=method)
    check(es.inverse_dynamics(fixed, q, qd, qdd), tau, RTOL, what="with armature")


@pytest.mark.parametrize("field", ["q", "qd", "tau"])
@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_nonfinite_input_names_the_field(field, bad):
    m = es.zoo.load("puma560")
    args = dict(q=np.full(6, 0.1), qd=np.full(6, 0.2), tau=np.full(6, 1.0))
    args[field][3] = bad
    with pytest.raises(ValueError, match=rf"^{field}: expected finite"):
        es.forward_dynamics(m, args["q"], args["qd"], args["tau"])
    batch = {k: np.tile(v, (5, 1)) for k, v in args.items()}
    batch[field][:, 3] = 0.5
    batch[field][4, 3] = bad
    with pytest.raises(ValueError, match=rf"^{field}: expected finite"):
        es.forward_dynamics(m, batch["q"], batch["qd"], batch["tau"])
