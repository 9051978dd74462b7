"""Pinocchio as an independent oracle for the dynamics (DESIGN §9, "Tests": when ``pin``
is installed, compare against it; skip otherwise).

Pinocchio (LAAS-CNRS) implements RNEA, CRBA and ABA in spatial-vector form with its own
code base, so agreement with it is evidence independent of eslabon's web of internal
identities. Each eslabon model is rebuilt as a ``pin.Model`` by
``eslabon.interop.pinocchio.to_pinocchio`` (same joint order, fixed bodies merged into
their parent, gravity as ``model.gravity.linear``) and compared on 20 seeded random states:

* ``inverse_dynamics`` against ``pin.rnea``,
* ``mass_matrix`` (both methods) against ``pin.crba`` (upper triangle, symmetrised),
* ``forward_dynamics`` (both methods) against ``pin.aba``,

each to 1e-9 relative to the scale of the reference, single state and batch. Models: every
zoo model except book-mode ones (a COM sliding with its joint is not a rigid body), plus
payload variants, seeded random DH chains (R/P mixes, standard, modified and Rojas
conventions, random masses, COMs, positive-definite inertias, armature, payloads, gravity)
and seeded random trees (arbitrary axes, fixed bodies with children). Pinocchio has no
joint friction, so friction is removed for the comparison, and the friction terms are
checked separately as ``τ = rnea_pin + b q̇ + μ sign(q̇)``.
"""

from __future__ import annotations

import numpy as np
import pytest

pin = pytest.importorskip("pinocchio")

import eslabon as es  # noqa: E402
from checks import ONE_DOF_ZOO  # noqa: E402
from eslabon.interop.pinocchio import dof_order, to_pinocchio  # noqa: E402

RTOL = 1e-9
N_STATES = 20


# --- models ---------------------------------------------------------------------------
def _frictionless(model):
    return model.replace(viscous=np.zeros(model.nq), coulomb=np.zeros(model.nq))


def _random_inertia(rng, mass):
    """A physically consistent rotational inertia about the COM (triangle inequality),
    positive definite, in randomly rotated axes."""
    s = mass * rng.uniform(0.002, 0.05, 3)  # second moments along principal axes
    principal = np.diag([s[1] + s[2], s[0] + s[2], s[0] + s[1]])
    Q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    return Q @ principal @ Q.T


def _random_rotation(rng):
    Q, R = np.linalg.qr(rng.normal(size=(3, 3)))
    Q = Q @ np.diag(np.sign(np.diag(R)))
    return Q if np.linalg.det(Q) > 0 else -Q


def random_dh_chain(seed, convention):
    """A seeded random DH chain: 3-7 joints, revolute and prismatic, random inertial data,
    some armature, a payload with full inertia on odd seeds, a tilted gravity on some."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 8))
    joints = ["R" if rng.random() < 0.65 else "P" for _ in range(n)]
    joints[int(rng.integers(n))] = "P"
    joints[int(rng.integers(n))] = "R"
    rows = []
    for jt in joints:
        mass = rng.uniform(0.5, 5.0)
        alpha = rng.choice([0.0, np.pi / 2, -np.pi / 2, rng.uniform(-np.pi, np.pi)])
        theta, d, a = rng.uniform(-np.pi, np.pi), rng.uniform(-0.4, 0.4), rng.uniform(-0.4, 0.4)
        row = {
            "joint": jt,
            "alpha": alpha,
            "theta": theta,
            "mass": mass,
            "com": rng.uniform(-0.2, 0.2, 3),
            "inertia": _random_inertia(rng, mass),
            "armature": rng.uniform(0.0, 0.1) if rng.random() < 0.4 else 0.0,
        }
        if convention == "rojas":  # d = link length, b = offset
            row.update(d=a, b=d)
        else:
            row.update(d=d, a=a)
        rows.append(row)
    payload = None
    if seed % 2:
        pm = rng.uniform(0.2, 2.0)
        payload = {
            "mass": pm,
            "com": rng.uniform(-0.1, 0.1, 3),
            "inertia": _random_inertia(rng, pm),
        }
    g = (0.0, 0.0, -9.81)
    if seed % 3 == 0:
        g = 9.81 * rng.normal(size=3) / 1.7
    return es.from_dh(
        rows,
        convention,
        gravity=g,
        payload=payload,
        name=f"random-{convention}-{seed}-{''.join(joints)}",
    )


TREE_AXES = ((0, 0, 1), (0, 0, -1), (1, 0, 0), (0, -1, 0))


def _listed_or_random_axis(rng):
    """+z, −z, +x or −y on half the joints, a random direction on the rest."""
    if rng.random() < 0.5:
        return TREE_AXES[int(rng.integers(len(TREE_AXES)))]
    return rng.normal(size=3)


def random_tree(seed):
    """A seeded random tree (:func:`eslabon.zoo.random_tree`): branches, arbitrary joint
    axes (and ±z, +x, −y), arbitrary joint placements, fixed bodies in the middle of the
    tree with children of their own (the joints after the first two shuffled), inertias
    anywhere in the triangle-inequality cone, no friction (Pinocchio has none)."""
    rng = np.random.default_rng(seed)
    rest = ["R", "P", "F", "R", "R", "P", "F", "R"]
    rng.shuffle(rest)
    return es.zoo.random_tree(
        rng,
        "RF" + "".join(rest),
        friction=False,
        armature_chance=0.3,
        axis=_listed_or_random_axis,
        rotation=_random_rotation,
        inertia=_random_inertia,
        gravity=lambda rng: 9.81 * rng.normal(size=3) / 1.7,
        name=f"random-tree-{seed}",
    )


def _zoo_cases():
    cases = []
    for name in ONE_DOF_ZOO:  # the free flyer's zoo model: test_general_joints.py
        m = es.zoo.load(name)
        if not m.has_moving_com:
            cases.append(pytest.param(name, {}, id=name))
    for name in ("practica_4dof", "practica_6dof"):
        cases.append(
            pytest.param(name, dict(payload_mass=3.0, payload_inertia=0.05), id=f"{name}-payload")
        )
    cases.append(
        pytest.param(
            "cincinnati_t3", dict(gravity=(0.0, 0.0, -9.81)), id="cincinnati_t3-physical-gravity"
        )
    )
    return cases


def _load(kind, arg, opts):
    if kind == "zoo":
        return es.zoo.load(arg, **opts)
    if kind == "dh":
        return random_dh_chain(*arg)
    return random_tree(arg)


ALL_CASES = (
    [pytest.param("zoo", p.values[0], p.values[1], id=p.id) for p in _zoo_cases()]
    + [
        pytest.param("dh", (seed, conv), {}, id=f"dh-{conv}-{seed}")
        for k, conv in enumerate(("standard", "modified", "rojas"))
        for seed in range(3 * k, 3 * k + 3)
    ]
    + [pytest.param("tree", seed, {}, id=f"tree-{seed}") for seed in range(3)]
)


# --- states and comparison --------------------------------------------------------------
def _states(model, seed=1234):
    rng = np.random.default_rng(seed)
    n = model.nq
    prismatic = model.joint_type[model.dof_bodies] == 2
    q = rng.uniform(-np.pi, np.pi, (N_STATES, n))
    q[:, prismatic] = rng.uniform(-0.8, 0.8, (N_STATES, int(prismatic.sum())))
    qd = rng.normal(0.0, 1.5, (N_STATES, n))
    qdd = rng.normal(0.0, 3.0, (N_STATES, n))
    return q, qd, qdd


def _close(got, ref, what):
    scale = max(1.0, float(np.max(np.abs(ref))))
    err = float(np.max(np.abs(got - ref)))
    assert err <= RTOL * scale, f"{what}: max error {err:.3e} (scale {scale:.3e})"


class PinOracle:
    """Pinocchio's RNEA/CRBA/ABA on eslabon's coordinates (degrees of freedom reordered
    when Pinocchio's depth-first numbering differs from eslabon's, i.e. in trees)."""

    def __init__(self, model):
        self.pmodel = to_pinocchio(model)
        self.data = self.pmodel.createData()
        self.order = dof_order(model)

    def _back(self, x):
        out = np.empty_like(x)
        out[self.order] = x
        return out

    def rnea(self, q, qd, qdd):
        o = self.order
        return self._back(pin.rnea(self.pmodel, self.data, q[o], qd[o], qdd[o]).copy())

    def crba(self, q):
        o = self.order
        H = pin.crba(self.pmodel, self.data, q[o]).copy()
        H = np.triu(H) + np.triu(H, 1).T  # Pinocchio fills the upper triangle
        out = np.empty_like(H)
        out[np.ix_(o, o)] = H
        return out

    def aba(self, q, qd, tau):
        o = self.order
        return self._back(pin.aba(self.pmodel, self.data, q[o], qd[o], tau[o]).copy())


def _pin_reference(oracle, q, qd, qdd):
    tau = np.array([oracle.rnea(q[k], qd[k], qdd[k]) for k in range(len(q))])
    M = np.array([oracle.crba(q[k]) for k in range(len(q))])
    acc = np.array([oracle.aba(q[k], qd[k], tau[k]) for k in range(len(q))])
    return tau, M, acc


@pytest.mark.parametrize("kind, arg, opts", ALL_CASES)
def test_against_pinocchio(kind, arg, opts):
    model = _frictionless(_load(kind, arg, opts))
    if kind == "tree":  # the case exists to exercise reordering and fixed-body merging
        assert not np.array_equal(dof_order(model), np.arange(model.nq))
        assert model.joint_type[model.parent[3]] == 0
    q, qd, qdd = _states(model)
    tau_ref, M_ref, acc_ref = _pin_reference(PinOracle(model), q, qd, qdd)

    # batch calls
    _close(es.inverse_dynamics(model, q, qd, qdd), tau_ref, "inverse_dynamics (batch)")
    _close(es.mass_matrix(model, q), M_ref, "mass_matrix (batch)")
    _close(
        es.mass_matrix(model, q, algorithm="walker_orin_1"),
        M_ref,
        "mass_matrix walker_orin_1 (batch)",
    )
    _close(es.forward_dynamics(model, q, qd, tau_ref), acc_ref, "forward_dynamics (batch)")
    _close(
        es.forward_dynamics(model, q, qd, tau_ref, algorithm="walker_orin_1"),
        acc_ref,
        "forward_dynamics walker_orin_1 (batch)",
    )
    # single-state calls (a separate compiled path)
    for k in range(N_STATES):
        where = f"state {k}"
        _close(
            es.inverse_dynamics(model, q[k], qd[k], qdd[k]),
            tau_ref[k],
            f"inverse_dynamics, {where}",
        )
        _close(es.mass_matrix(model, q[k]), M_ref[k], f"mass_matrix, {where}")
        _close(
            es.forward_dynamics(model, q[k], qd[k], tau_ref[k]),
            acc_ref[k],
            f"forward_dynamics, {where}",
        )
    # Pinocchio's ABA recovers the accelerations its RNEA was given: the oracle is sane.
    _close(acc_ref, qdd, "pin.aba(pin.rnea(qdd)) vs qdd")


@pytest.mark.parametrize(
    "kind, arg, opts",
    [
        pytest.param("zoo", "practica_6dof", {}, id="practica_6dof"),
        pytest.param(
            "zoo",
            "practica_4dof",
            dict(payload_mass=3.0, payload_inertia=0.05),
            id="practica_4dof-payload",
        ),
        pytest.param("dh", (7, "modified"), {}, id="dh-modified-7"),
        pytest.param("tree", 5, {}, id="tree-5"),
    ],
)
def test_friction_terms_on_top_of_pinocchio(kind, arg, opts):
    """With friction: τ = rnea_pin + b q̇ + μ sign(q̇) and q̈ = aba_pin(τ − b q̇ − μ sign(q̇))."""
    base = _load(kind, arg, opts)
    rng = np.random.default_rng(99)
    b = rng.uniform(0.01, 0.5, base.nq)
    mu = rng.uniform(0.0, 2.0, base.nq)
    model = base.replace(viscous=b, coulomb=mu)
    oracle = PinOracle(model)
    q, qd, qdd = _states(model, seed=4321)
    qd[0, 0] = 0.0  # sign(0) = 0
    friction = b * qd + mu * np.sign(qd)
    tau_ref = np.array([oracle.rnea(q[k], qd[k], qdd[k]) for k in range(N_STATES)])
    tau_ref += friction
    _close(es.inverse_dynamics(model, q, qd, qdd), tau_ref, "inverse_dynamics with friction")
    tau = rng.normal(0.0, 10.0, q.shape)
    acc_ref = np.array([oracle.aba(q[k], qd[k], tau[k] - friction[k]) for k in range(N_STATES)])
    _close(es.forward_dynamics(model, q, qd, tau), acc_ref, "forward_dynamics with friction")


def test_book_mode_is_refused():
    model = es.zoo.load("practica_4dof", book_com=True)
    assert model.has_moving_com
    with pytest.raises(ValueError, match="book mode"):
        to_pinocchio(model)
