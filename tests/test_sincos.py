"""The inline sine and cosine of the compiled recursions (``eslabon.spatial._sincos``) and
the far-angle path every recursion takes first (``kinematics.recursion.near_angles``).

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
from eslabon.spatial._sincos import FAST_LIMIT, sincos, sincos_near

# π to 110 digits, for exact reductions in Fraction arithmetic
PI = Fraction("3.14159265358979323846264338327950288419716939937510582097494459230781640"
              "628620899862803482534211706798214808651")


@njit
def _table(x, out, near):
    for i in range(x.size):
        s, c = sincos_near(x[i]) if near else sincos(x[i])
        out[i, 0] = s
        out[i, 1] = c


def _ulps(x, near=True):
    out = np.empty((x.size, 2))
    _table(x, out, near)
    ref = np.array([[math.sin(v), math.cos(v)] for v in x])
    return np.abs(out - ref) / np.spacing(np.abs(ref)), np.abs(out - ref).max()


ARGUMENTS = {
    "[-4, 4]": lambda rng: rng.uniform(-4.0, 4.0, 200_000),
    "[-1e5, 1e5]": lambda rng: rng.uniform(-FAST_LIMIT, FAST_LIMIT, 200_000),
    # the doubles nearest to kπ/2 and their neighbours: where the reduction cancels
    "k pi/2": lambda rng: np.array([k * math.pi / 2 for k in range(-63_000, 63_001)]),
    "k pi/2 +- 1 ulp": lambda rng: np.concatenate(
        [np.nextafter(np.arange(1, 4000) * math.pi / 2, d) for d in (np.inf, -np.inf)]),
    "tiny": lambda rng: np.concatenate([10.0 ** -np.arange(1, 300), -(10.0 ** -np.arange(1, 300)),
                                        [0.0, 5e-324]]),
}


@pytest.mark.parametrize("name", list(ARGUMENTS))
def test_sincos_near_within_two_ulp_of_libm(name):
    x = ARGUMENTS[name](np.random.default_rng(11))
    err, _ = _ulps(x)
    assert err.max() <= 2.0, f"{name}: {err.max():.2f} ulp"


def test_sincos_is_libm_beyond_the_fast_range():
    x = np.array([1.0000001e5, -3e7, 1e22, 2.0 ** 60, 1e308])
    err, _ = _ulps(x, near=False)
    assert err.max() == 0.0
    out = np.empty((3, 2))
    _table(np.array([np.inf, -np.inf, np.nan]), out, False)
    assert np.isnan(out).all()


def _exact_reduction(x: float) -> float:
    """x − 2π·round(x / 2π) in exact arithmetic, rounded once."""
    fx = Fraction(x)
    m = round(fx / (2 * PI))
    return float(fx - 2 * PI * m)


@pytest.mark.parametrize("turns", [1e5, 1e9, 1e12])
def test_far_joint_angles_give_the_dynamics_of_the_reduced_angle(turns):
    """q + 2π·m: the far path (math, then atan2) must match the exactly reduced angle."""
    m = es.zoo.load("puma560")
    rng = np.random.default_rng(5)
    q, qd, qdd = (rng.uniform(-2, 2, m.nq) for _ in range(3))
    far = q.copy()
    far[[0, 3]] += 2 * math.pi * turns           # two joints far away, the others near
    near = np.array([_exact_reduction(v) for v in far])
    # (the double nearest to q_i + 2π m is not q_i + 2π m: compare with its own exact
    # reduction)
    for f, args in [(es.inverse_dynamics, (qd, qdd)), (es.forward_dynamics, (qd, qdd)),
                    (es.mass_matrix, ()), (lambda m_, q_: es.inverse_dynamics_derivatives(
                        m_, q_, qd, qdd)[0], ())]:
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
        es.forward_dynamics(m, np.stack([q, np.zeros(m.nq)]), np.zeros((2, m.nq)),
                            np.zeros((2, m.nq)))
