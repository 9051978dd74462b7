"""The inline sine and cosine of the compiled recursions (``eslabon._engine.sincos``) and
the far-angle path every recursion takes first (``_engine.outward_pass.near_angles``).

The kernels no longer call libm per joint (issue 3, speed: a call in the recursion made it
spill its registers). What must hold instead:

* sincos_near is within 2 ulp of ``math.sin``/``math.cos`` (glibc) on |x| ≤ 1e5, next to
  the zeros included (the three-part reduction keeps r accurate there);
* joint angles beyond that range, infinite or NaN take ``math`` before the recursion: the
  dynamics at q + 2π·m (m up to 1e12) equal those at q, and NaN/inf still raise the
  error that names the field.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from numba import njit

import eslabon as es
from eslabon._engine.sincos import FAST_LIMIT, sincos_near
from eslabon.model.builder import ModelBuilder
from rnea_oracle import rnea as oracle_rnea

# π to 110 digits, for exact reductions in Fraction arithmetic
PI = Fraction(
    "3.14159265358979323846264338327950288419716939937510582097494459230781640"
    "628620899862803482534211706798214808651"
)


@njit
def _table(x, out):
    for i in range(x.size):
        s, c = sincos_near(x[i])
        out[i, 0] = s
        out[i, 1] = c


def _ulps(x):
    out = np.empty((x.size, 2))
    _table(x, out)
    ref = np.array([[math.sin(v), math.cos(v)] for v in x])
    return np.abs(out - ref) / np.spacing(np.abs(ref)), np.abs(out - ref).max()


ARGUMENTS = {
    "[-4, 4]": lambda rng: rng.uniform(-4.0, 4.0, 200_000),
    "[-1e5, 1e5]": lambda rng: rng.uniform(-FAST_LIMIT, FAST_LIMIT, 200_000),
    # the doubles nearest to kπ/2 and their neighbours: where the reduction cancels
    "k pi/2": lambda rng: np.array([k * math.pi / 2 for k in range(-63_000, 63_001)]),
    "k pi/2 +- 1 ulp": lambda rng: np.concatenate(
        [np.nextafter(np.arange(1, 4000) * math.pi / 2, d) for d in (np.inf, -np.inf)]
    ),
    "tiny": lambda rng: np.concatenate(
        [10.0 ** -np.arange(1, 300), -(10.0 ** -np.arange(1, 300)), [0.0, 5e-324]]
    ),
}


@pytest.mark.parametrize("name", list(ARGUMENTS))
def test_sincos_near_within_two_ulp_of_libm(name):
    x = ARGUMENTS[name](np.random.default_rng(11))
    err, _ = _ulps(x)
    assert err.max() <= 2.0, f"{name}: {err.max():.2f} ulp"


def test_most_values_within_one_ulp():
    """Sharper than the 2-ulp bound: a regression in the polynomial or the reduction
    shows up here first."""
    err, _ = _ulps(np.random.default_rng(3).uniform(-FAST_LIMIT, FAST_LIMIT, 200_000))
    assert np.mean(err <= 1.0) > 0.999


def test_sincos_near_of_nan_and_inf_is_nan():
    """Not its range, but a NaN that reached it must come out as NaN (it does through r;
    the quadrant integer is taken from a guarded value, whose effect x86 does not show)."""
    out = np.empty((3, 2))
    _table(np.array([np.inf, -np.inf, np.nan]), out)
    assert np.isnan(out).all()


def _exact_reduction(x: float) -> float:
    """x − 2π·round(x / 2π) in exact arithmetic, rounded once."""
    fx = Fraction(x)
    m = round(fx / (2 * PI))
    return float(fx - 2 * PI * m)


@pytest.mark.parametrize("turns", [1e7, 1e9, 1e12])
def test_far_joint_angles_give_the_dynamics_of_the_reduced_angle(turns):
    """q + 2π·m: the far path (math, then atan2) must match the exactly reduced angle."""
    m = es.zoo.load("puma560")
    rng = np.random.default_rng(5)
    q, qd, qdd = (rng.uniform(-2, 2, m.nq) for _ in range(3))
    far = q.copy()
    far[[0, 3]] += 2 * math.pi * turns  # two joints far away, the others near
    near = np.array([_exact_reduction(v) for v in far])
    # (the double nearest to q_i + 2π m is not q_i + 2π m: compare with its own exact
    # reduction)
    for f, args in [
        (es.inverse_dynamics, (qd, qdd)),
        (es.forward_dynamics, (qd, qdd)),
        (es.mass_matrix, ()),
        (lambda m_, q_: es.inverse_dynamics_derivatives(m_, q_, qd, qdd)[0], ()),
    ]:
        a, b = f(m, far, *args), f(m, near, *args)
        assert np.allclose(a, b, rtol=1e-12, atol=1e-12), f
    # a batch with one far state gives the stacked single states
    Q = np.stack([q, far, q])
    T = es.inverse_dynamics(m, Q, np.stack([qd] * 3), np.stack([qdd] * 3))
    assert np.allclose(T[1], es.inverse_dynamics(m, far, qd, qdd), rtol=0, atol=0)
    assert np.allclose(T[0], T[2], rtol=0, atol=0)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_angles_still_name_the_field(bad):
    m = es.zoo.load("puma560")
    q = np.zeros(m.nq)
    q[2] = bad
    with pytest.raises(ValueError, match=r"\bq\b"):
        es.inverse_dynamics(m, q, np.zeros(m.nq), np.zeros(m.nq))
    with pytest.raises(ValueError, match=r"\bq\b"):
        es.forward_dynamics(
            m, np.stack([q, np.zeros(m.nq)]), np.zeros((2, m.nq)), np.zeros((2, m.nq))
        )


def test_far_angles_on_general_axes_and_prismatic_joints_match_the_oracle():
    """A revolute joint about a non-z axis (the Rodrigues path) at 1e9 rad, and a
    prismatic joint at 2e5 m, which near_angles must leave alone: the compiled RNEA
    equals the plain-numpy oracle (np.sin/np.cos on the raw angle, tests/rnea_oracle.py)."""
    b = ModelBuilder()
    inertia = np.diag([0.02, 0.03, 0.04])
    b.add_body(
        0,
        "R",
        axis=np.array([1.0, 2.0, 2.0]) / 3.0,
        translation=(0.1, 0, 0.2),
        mass=2.0,
        com=(0.1, 0.05, 0.0),
        inertia=inertia,
    )
    b.add_body(
        1,
        "P",
        axis=(0.0, 0.6, 0.8),
        translation=(0.3, 0.0, 0.0),
        mass=1.5,
        com=(0.0, 0.1, 0.0),
        inertia=inertia,
    )
    b.add_body(
        2,
        "R",
        axis=(0.0, 1.0, 0.0),
        translation=(0.0, 0.0, 0.25),
        mass=1.0,
        com=(0.05, 0.0, 0.1),
        inertia=inertia,
    )
    m = b.build(gravity=(0.0, -9.81, -3.0))
    q = np.array([1e9 + 0.3, 2e5, -7.0])
    qd, qdd = np.array([0.4, -0.2, 1.1]), np.array([-1.0, 0.5, 0.3])
    np.testing.assert_allclose(
        es.inverse_dynamics(m, q, qd, qdd), oracle_rnea(m, q, qd, qdd), rtol=1e-9, atol=1e-9
    )
