"""A symbolic Lagrange oracle (DESIGN §9) for the two-link planar arm ``planar2``.

The equations of motion are derived here from first principles, with no eslabon in the
derivation: two uniform slender rods of lengths l1, l2 and masses m1, m2 swing in the
x–y plane about the z axis, joint 1 at the origin and joint 2 at the tip of rod 1, joint
angles measured from x (q1) and from rod 1 (q2). Each rod has its COM at mid-length and
the moment of inertia m l²/12 about it (about z). Gravity g = (gx, gy, gz) is the
acceleration of free fall, so V = −Σ m gᵀ c (gz does no work in the plane).

    T = Σ ½ m_i |ċ_i|² + ½ (m_i l_i²/12) ω_i²,   ω1 = q̇1, ω2 = q̇1 + q̇2
    τ = d/dt ∂L/∂q̇ − ∂L/∂q,   L = T − V,   M = ∂²T/∂q̇²

lambdified and compared with eslabon's Newton–Euler and Walker–Orin on random states.
"""

from __future__ import annotations

import numpy as np
import pytest

sp = pytest.importorskip("sympy")

import eslabon as es  # noqa: E402


@pytest.fixture(scope="module")
def lagrange():
    q = sp.symbols("q1 q2")
    qd = sp.symbols("qd1 qd2")
    qdd = sp.symbols("qdd1 qdd2")
    l1, l2, m1, m2, gx, gy, gz = sp.symbols("l1 l2 m1 m2 gx gy gz")

    def d_dt(expr):
        """Total time derivative of an expression in q, q̇ (chain rule)."""
        return sum(sp.diff(expr, q[i]) * qd[i] + sp.diff(expr, qd[i]) * qdd[i] for i in range(2))

    # COM positions of the two rods (z = 0: the motion is planar)
    c1 = sp.Matrix([l1 / 2 * sp.cos(q[0]), l1 / 2 * sp.sin(q[0]), 0])
    elbow = sp.Matrix([l1 * sp.cos(q[0]), l1 * sp.sin(q[0]), 0])
    c2 = elbow + sp.Matrix([l2 / 2 * sp.cos(q[0] + q[1]), l2 / 2 * sp.sin(q[0] + q[1]), 0])
    v1 = c1.applyfunc(d_dt)
    v2 = c2.applyfunc(d_dt)
    w1, w2 = qd[0], qd[0] + qd[1]
    T = (
        m1 * v1.dot(v1) / 2
        + m1 * l1**2 / 12 * w1**2 / 2
        + m2 * v2.dot(v2) / 2
        + m2 * l2**2 / 12 * w2**2 / 2
    )
    g = sp.Matrix([gx, gy, gz])
    V = -(m1 * g.dot(c1) + m2 * g.dot(c2))
    L = T - V
    tau = sp.Matrix([sp.expand(d_dt(sp.diff(L, qd[i])) - sp.diff(L, q[i])) for i in range(2)])
    M = sp.Matrix(2, 2, lambda i, j: sp.expand(sp.diff(T, qd[i], qd[j])))
    G = sp.Matrix([sp.diff(V, q[i]) for i in range(2)])

    args = (*q, *qd, *qdd, l1, l2, m1, m2, gx, gy, gz)
    return {
        name: sp.lambdify(args, expr, "numpy")
        for name, expr in (("tau", tau), ("M", M), ("G", G), ("T", T), ("V", V))
    }


PARAMS = {
    "default": dict(l1=1.0, l2=0.8, m1=2.0, m2=1.5, gravity=(0.0, -9.81, 0.0)),
    "other": dict(l1=0.6, l2=1.3, m1=0.7, m2=3.2, gravity=(3.0, -8.0, 2.5)),
}


@pytest.fixture(params=list(PARAMS), scope="module")
def setup(request, lagrange):
    p = PARAMS[request.param]
    model = es.zoo.load("planar2") if request.param == "default" else es.zoo.load("planar2", **p)
    rng = np.random.default_rng(2024 + len(request.param))
    q = rng.uniform(-np.pi, np.pi, size=(20, 2))
    qd = rng.uniform(-3.0, 3.0, size=(20, 2))
    qdd = rng.uniform(-5.0, 5.0, size=(20, 2))
    consts = (p["l1"], p["l2"], p["m1"], p["m2"], *p["gravity"])

    def oracle(name, qi, qdi=(0.0, 0.0), qddi=(0.0, 0.0)):
        return np.array(lagrange[name](*qi, *qdi, *qddi, *consts), dtype=float).squeeze()

    return model, (q, qd, qdd), oracle


def _close(actual, expected, rtol, what):
    scale = max(1.0, float(np.max(np.abs(expected))))
    err = float(np.max(np.abs(np.asarray(actual) - expected)))
    assert err <= rtol * scale, f"{what}: max |error| {err:.3e} > {rtol:.0e} x {scale:.3e}"


def test_inverse_dynamics_matches_lagrange(setup):
    model, (q, qd, qdd), oracle = setup
    assert model.nq == 2 and not np.any(model.viscous) and not np.any(model.coulomb)
    for k in range(len(q)):
        ref = oracle("tau", q[k], qd[k], qdd[k])
        _close(es.inverse_dynamics(model, q[k], qd[k], qdd[k]), ref, 1e-10, f"τ at state {k}")
    # the same 20 states as one batch
    ref = np.array([oracle("tau", *s) for s in zip(q, qd, qdd, strict=True)])
    _close(es.inverse_dynamics(model, q, qd, qdd), ref, 1e-10, "τ (batch)")


@pytest.mark.parametrize("method", ["walker_orin_3", "walker_orin_1"])
def test_mass_matrix_matches_lagrange(setup, method):
    model, (q, _, _), oracle = setup
    for k in range(len(q)):
        _close(
            es.mass_matrix(model, q[k], algorithm=method),
            oracle("M", q[k]),
            1e-10,
            f"M at state {k}",
        )


def test_gravity_and_energies_match_lagrange(setup):
    model, (q, qd, _), oracle = setup
    for k in range(len(q)):
        _close(es.gravity_torques(model, q[k]), oracle("G", q[k]), 1e-10, f"g at state {k}")
        _close(
            es.kinetic_energy(model, q[k], qd[k]),
            oracle("T", q[k], qd[k]),
            1e-10,
            f"T at state {k}",
        )
        _close(es.potential_energy(model, q[k]), oracle("V", q[k]), 1e-10, f"V at state {k}")


def test_forward_dynamics_inverts_lagrange(setup):
    model, (q, qd, qdd), oracle = setup
    for k in range(len(q)):
        tau = oracle("tau", q[k], qd[k], qdd[k])
        _close(es.forward_dynamics(model, q[k], qd[k], tau), qdd[k], 1e-9, f"q̈ at state {k}")
