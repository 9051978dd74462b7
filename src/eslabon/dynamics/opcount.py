"""Operation counts: the thesis's closed forms and instrumented counts of our kernels.

Seed 000 (Rojas 1987) §4.4–4.5 counts the cost of its Lagrange model with the full
I(θ) and C(θ, θ̇) (4.4.3–4.4.4), of a Cholesky solve (4.5.2) and of one simulation step
that needs only Cθ̇ + b (saving Σ9(i² − 1) products and Σ6(j² − 1) sums):

    model       M = 15n² + 6n − 3 + Σ_{i=1..n} i(18i − 15)      n = 6: 1896
                S = 10.5n² + 6.5n − 5 + Σ_{j=1..n} [13j² − 15(j − 1)]      1370
    Cholesky    n³/6 + 3n²/2 − 2n/3 ;  n³/6 + n² − 11n/6          n = 6: 86 / 61
    simulation  model + Cholesky − (Σ9(i² − 1), Σ6(j² − 1))        n = 6: 1217 / 921

and quotes Newton–Euler (150n − 48 products, Cvetkovic & Vukobratovic 1982; 852 / 730
for n = 6), Hollerbach's recursive Lagrangian (2195 / 1719) and Walker–Orin (1627 / 1261).

:func:`instrumented` counts what *our* code does, by running the kernels' source with
the JIT off on numbers that count their arithmetic, and the numpy reference formulations on
arrays that count theirs (:mod:`.opcount_instrumented`). The counts are of the general code as
written — joint axes and placements of any orientation, no structural zeros exploited,
dense 6×6 blocks in the operator form — so they are upper bounds for a specialised
program like the thesis's. On revolute chains: RNEA 137n + 3 multiplications, Walker–Orin
3 (CRBA) 3n² + 169n, ABA 449n − 222, constraint forces 2590n − 1528 (all linear but CRBA;
the Coulomb term costs its multiplication even when zero). sin and cos count as two trig
calls per revolute joint, not as the arithmetic of the inline routine that computes them.

The two numpy reference formulations are counted the same way, kinematic pass included:
the Lagrange model (:mod:`.lagrange`, the thesis's I, C, b built from the body Jacobians)
costs 17n³ + 67n² + 212n + 3 multiplications for τ and the Gibbs function of Araujo (2012)
(:mod:`.gibbs_appell`, D and φ from the recursive partials) 6n³ + 58n² + 173n + 3; their
forward dynamics add a Cholesky solve (:func:`cholesky`'s work, counted as LINPACK's). Both
are cubic, dense 3 × n Jacobians and all: at n = 6 the Lagrange model's τ costs 8.9 times
Newton–Euler's multiplications, which is the thesis's point (§4.4, 1896 against 852 for its
own specialised program), and the Gibbs–Appell q̈ 1.8 times the articulated-body
algorithm's (it costs more from n = 3 on), so its "efficient algorithm" (Araujo 2012,
Ch. III) holds against the Lagrange model (0.60 times its q̈), not against the O(n)
recursions.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from fractions import Fraction

from .._deprecation import renamed_keywords

#: counts quoted by the thesis for n = 6 (multiplications, additions)
QUOTED_N6 = {
    "newton_euler (Luh-Walker-Paul)": (852, 730),
    "hollerbach (recursive Lagrange)": (2195, 1719),
    "walker_orin (1982)": (1627, 1261),
}

INSTRUMENTED = (
    "rnea",
    "walker_orin_3",
    "walker_orin_1",
    "aba",
    "soa",
    "lagrange_id",
    "lagrange",
    "gibbs_appell_id",
    "gibbs_appell",
)

#: what each counted algorithm computes, for the table
COMPUTES = {
    "rnea": "τ",
    "walker_orin_3": "M",
    "walker_orin_1": "M",
    "aba": "q̈",
    "soa": "q̈",
    "lagrange_id": "τ",
    "lagrange": "q̈",
    "gibbs_appell_id": "τ",
    "gibbs_appell": "q̈",
}


def _check_n(n):
    if int(n) != n or n < 1:
        raise ValueError(f"n: expected a positive integer, got {n!r}")
    return int(n)


def lagrange_model(n: int) -> tuple:
    """(multiplications, additions) of the thesis's full I(θ), C(θ, θ̇) (4.4.3–4.4.4)."""
    n = _check_n(n)
    mul = 15 * n * n + 6 * n - 3 + sum(i * (18 * i - 15) for i in range(1, n + 1))
    add2 = 21 * n * n + 13 * n - 10 + 2 * sum(13 * j * j - 15 * (j - 1) for j in range(1, n + 1))
    return mul, add2 // 2


def cholesky(n: int) -> tuple:
    """(multiplications, additions) of a Cholesky solve of an n×n system, the thesis's
    (4.5.2) as printed, exact (:class:`fractions.Fraction`). The additions formula is a
    whole number only when n is a multiple of 3 and is negative for n = 1: the printed
    formula is an approximation (or OCR-damaged); only n = 6 (86 / 61) is anchored."""
    n = _check_n(n)
    return Fraction(n**3 + 9 * n * n - 4 * n, 6), Fraction(n**3 + 6 * n * n - 11 * n, 6)


def simulation_step(n: int) -> tuple:
    """(multiplications, additions) of one forward-dynamics evaluation by the thesis's
    model and Cholesky, with d = Cθ̇ + b instead of the matrix C (§4.5); Fractions, as
    :func:`cholesky`."""
    n = _check_n(n)
    (mm, ma), (cm, ca) = lagrange_model(n), cholesky(n)
    saved_m = sum(9 * (i * i - 1) for i in range(1, n + 1))
    saved_a = sum(6 * (j * j - 1) for j in range(1, n + 1))
    return mm + cm - saved_m, ma + ca - saved_a


def newton_euler_luh(n: int) -> int:
    """Multiplications of Luh–Walker–Paul Newton–Euler as the thesis quotes, 150n − 48."""
    return 150 * _check_n(n) - 48


@functools.cache
def _probe(method: str, sizes: tuple) -> dict:
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    done = subprocess.run(
        [sys.executable, "-m", "eslabon.dynamics.opcount_instrumented", method, *map(str, sizes)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"opcount probe failed: {done.stderr.strip().splitlines()[-1:]}")
    return {int(k): v for k, v in json.loads(done.stdout).items()}


@renamed_keywords(method="algorithm")
def instrumented(algorithm: str, sizes=(1, 2, 3, 6)) -> dict:
    """{n: {"mul", "add", "div", "sqrt", "trig"}} for our ``"rnea"`` (τ from q, q̇, q̈),
    ``"walker_orin_3"`` (M(q) by composite rigid bodies, our CRBA), ``"walker_orin_1"``
    (M(q) as n Newton–Euler columns at q̇ = 0, q̈ = e_j, no gravity), ``"aba"`` (q̈ by the
    articulated-body algorithm) kernel, or the numpy constraint-force forward dynamics
    ``"soa"`` (its kinematic pass and step-➊ bias on counting scalars plus its operator
    work on counting arrays, dense 6×6 blocks and LU solves included as written; per part
    in ``"parts"``), the Lagrange model (``"lagrange_id"`` τ, ``"lagrange"`` q̈ by
    Cholesky) or the Gibbs–Appell formulation (``"gibbs_appell_id"``, ``"gibbs_appell"``),
    each with its kinematic pass (per part in ``"parts"``), on an n-joint revolute chain.
    Runs one subprocess
    (about a second); results are cached per process."""
    if algorithm not in INSTRUMENTED:
        raise ValueError(f"algorithm: expected one of {INSTRUMENTED}, got {algorithm!r}")
    sizes = tuple(sorted({_check_n(n) for n in sizes}))
    return _probe(algorithm, sizes)


def table(n: int = 6) -> list:
    """Rows (method, multiplications, additions, origin) for an n-DOF chain."""
    rows = [
        ("thesis Lagrange model, I and C (4.4.3-4)", *lagrange_model(n), "closed form"),
        ("Cholesky solve (4.5.2)", *map(float, cholesky(n)), "closed form"),
        ("thesis simulation step (4.5)", *map(float, simulation_step(n)), "closed form"),
    ]
    if n == 6:
        rows += [(name, m, a, "quoted by the thesis") for name, (m, a) in QUOTED_N6.items()]
    for method in INSTRUMENTED:
        c = instrumented(method, (n,))[n]
        rows.append(
            (
                f"eslabon {method} ({COMPUTES[method]})",
                c["mul"],
                c["add"],
                f"instrumented (+{c['trig']} sin/cos, {c['div']} div, {c['sqrt']} sqrt; "
                f"general code, zero friction terms and checks included)",
            )
        )
    return rows


def efficiency(n: int = 6) -> dict:
    """The counted multiplications of each method on an n-joint chain and the two ratios
    the sources claim: the Lagrange model's τ over Newton–Euler's (Rojas 1987, §4.4: the
    Lagrange model costs more) and the Gibbs–Appell q̈ over the articulated-body
    algorithm's and over the Lagrange model's (Araujo 2012, Ch. III: an efficient
    algorithm). Keys: the method names of :data:`INSTRUMENTED`, then ``"lagrange/rnea"``,
    ``"gibbs_appell/aba"`` and ``"gibbs_appell/lagrange"``."""
    counts = {m: instrumented(m, (n,))[n]["mul"] for m in INSTRUMENTED}
    return dict(
        counts,
        **{
            "lagrange/rnea": counts["lagrange_id"] / counts["rnea"],
            "gibbs_appell/aba": counts["gibbs_appell"] / counts["aba"],
            "gibbs_appell/lagrange": counts["gibbs_appell"] / counts["lagrange"],
        },
    )
