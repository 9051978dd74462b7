"""sin and cos of one joint angle without a library call, for the compiled recursions.

Why: every DH joint needs cos q and sin q in the middle of a recursion that keeps the
parent's motion in registers. A call into libm clobbers every floating-point register
(all are caller-saved in the x86-64 System V ABI), so the recursion spills and reloads
its state around each call; in the Newton–Euler batch kernel that cost as much as the
rest of the arithmetic. This routine is straight-line arithmetic, without calls, that
the compiler inlines.

Method (the classical one, e.g. Cody & Waite 1980 for the reduction; the polynomial
coefficients are the published minimax fits of fdlibm's ``__kernel_sin``/``__kernel_cos``):

    k = nearest integer to x / (π/2),   r = ((x − k·P1) − k·P2) − k·P3,   |r| ≤ π/4

with π/2 = P1 + P2 + P3, P1 and P2 carrying 33 significant bits each so that k·P1 and
k·P2 are exact for |k| < 2²⁰ (the third part keeps r accurate next to the zeros), then

    sin r = r + r³ (S1 + r² S2 + … + r¹⁰ S6),   cos r = 1 − r²/2 + r⁴ (C1 + … + r¹⁰ C6)

and the quadrant k mod 4 picks (±sin r, ±cos r). tests/test_sincos.py measures the error
against ``math`` (see there for the figures). Larger, infinite or NaN
arguments are the caller's to handle (the recursions reduce them first with ``math``,
:func:`eslabon._engine.outward_pass.near_angles`).
"""

from __future__ import annotations

from numba import njit
from numba.extending import overload

from .lanes import Lanes

_INV_PIO2 = 6.36619772367581382433e-01
_PIO2_1 = 1.57079632673412561417e00  # π/2 in three parts: 33 bits,
_PIO2_2 = 6.07710050630396597660e-11  # the next 33 bits,
_PIO2_3 = 2.02226624879595063154e-21  # and the rest (π/2 − _PIO2_1 − _PIO2_2)
_S1, _S2, _S3 = -1.66666666666666324348e-01, 8.33333333332248946124e-03, -1.98412698298579493134e-04
_S4, _S5, _S6 = 2.75573137070700676789e-06, -2.50507602534068634195e-08, 1.58969099521155010221e-10
_C1, _C2, _C3 = 4.16666666666666019037e-02, -1.38888888888741095749e-03, 2.48015872894767294178e-05
_C4, _C5, _C6 = -2.75573143513906633035e-07, 2.08757232129817482790e-09, -1.13596475577881948265e-11
_ROUND = 6755399441055744.0  # 1.5·2⁵²
FAST_LIMIT = 1.0e5  # beyond this |x| the reduction above is not exact enough


@njit(cache=True, inline="always")
def sincos_near(x):
    """(sin x, cos x) for |x| ≤ :data:`FAST_LIMIT` (no check, no call: the caller makes
    sure, e.g. with :func:`in_fast_range`)."""
    # nearest integer by the 1.5·2⁵² shift (exact for |x·2/π| < 2⁵¹; math.floor would
    # go through an integer)
    k = (x * _INV_PIO2 + _ROUND) - _ROUND
    r = ((x - k * _PIO2_1) - k * _PIO2_2) - k * _PIO2_3  # k·P1, k·P2 exact for |k| < 2²⁰
    z = r * r
    z2 = z * z
    z4 = z2 * z2
    # both polynomials in Estrin's order (pairs, then z², z⁴): a shorter dependency chain
    # than Horner's, the same terms
    ps = (_S1 + z * _S2) + z2 * (_S3 + z * _S4) + z4 * (_S5 + z * _S6)
    pc = (_C1 + z * _C2) + z2 * (_C3 + z * _C4) + z4 * (_C5 + z * _C6)
    s = r + (r * z) * ps
    hz = 0.5 * z
    w = 1.0 - hz
    # (1 − w) − hz recovers the rounding of 1 − r²/2 (keeps cos within 1 ulp)
    c = w + (((1.0 - w) - hz) + z2 * pc)
    # quadrant k mod 4 picks 0: (s, c), 1: (c, −s), 2: (−s, −c), 3: (−c, s)
    odd, sign_sin, sign_cos = quadrant(k)
    even = 1.0 - odd
    return sign_sin * (even * s + odd * c), sign_cos * (even * c + odd * s)


def quadrant(k):
    """(k mod 2, ±1 for sin, ±1 for cos) of the quadrant k mod 4, as floats, for an
    integral float k: arithmetic, not branches (why: docs/performance.md, "Kernel
    choices")."""
    n = int(k if abs(k) < 1e6 else 0.0) & 3
    return float(n & 1), 1.0 - 2.0 * float(n >> 1), 1.0 - 2.0 * float(((n + 1) >> 1) & 1)


@overload(quadrant, inline="always")
def _quadrant(k):
    if isinstance(k, Lanes):
        # in float arithmetic for lanes: ⌊x⌋ = round(x − 1/4) for x ∈ ℤ/2, exact for
        # |k| < 2⁵⁰; a NaN stays NaN
        def quadrant_lanes(k):
            h = (k * 0.5 - 0.25 + _ROUND) - _ROUND  # ⌊k/2⌋
            hk = (k * 0.5 + 0.25 + _ROUND) - _ROUND  # ⌊(k+1)/2⌋
            return (
                k - 2.0 * h,
                1.0 - 2.0 * (h - 2.0 * ((h * 0.5 - 0.25 + _ROUND) - _ROUND)),
                1.0 - 2.0 * (hk - 2.0 * ((hk * 0.5 - 0.25 + _ROUND) - _ROUND)),
            )

        return quadrant_lanes

    # one float: through a small integer (docs/performance.md, "Kernel choices"); k
    # becomes an integer only when finite and small (a NaN's conversion is undefined), and
    # a NaN x gives NaN through r anyway
    def quadrant_float(k):
        n = int(k if abs(k) < 1e6 else 0.0) & 3
        return float(n & 1), 1.0 - 2.0 * float(n >> 1), 1.0 - 2.0 * float(((n + 1) >> 1) & 1)

    return quadrant_float


@njit(cache=True, inline="always")
def in_fast_range(x):
    """True if :func:`sincos_near` serves x (False also for NaN and ±inf)."""
    return abs(x) <= FAST_LIMIT
