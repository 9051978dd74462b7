"""Values printed in seed 000, Rojas Salgado (1987), *Dinámica de sistemas articulados de
cuerpos rígidos* (UNAM doctoral thesis), §5.4 and §5.6: Tables 5.4.1, 5.4.2 and
5.6.2–5.6.4, with the cells that are OCR or thesis errors marked below. Used by
``eslabon reproduce rojas`` and the tests; printed numbers are kept exactly as printed
(5 significant digits, single precision).
"""

from __future__ import annotations

import numpy as np

#: Tables 5.4.1 (t = 0.05 s) and 5.6.2 (t = 0.45 s): end-effector data (y, ẏ, ÿ; x, z and
#: the orientation are constant) and the printed joint values and torques
JOINT_TABLES = {
    "5.4.1": dict(
        t=0.05,
        y=0.00082,
        yd=0.04894,
        ydd=1.95774,
        theta=[0.05073, 89.99987, -135.0, 45.00008, 90.05075, 90.0],
        thd=[0.53123e-01, -0.42705e-04, 0.42707e-04, 0.25818e-08, 0.53123e-01, -0.65585e-09],
        thdd=[0.21251e01, -0.42573e-02, 0.42572e-02, 0.39416e-06, 0.21251e01, -0.39723e-07],
        gravity=[0.0, -0.21419e04, -0.21419e04, -0.49246e03, 0.21442e-04, 0.0],
        total=[0.56318e03, -0.21292e04, -0.21382e04, -0.49247e03, -0.48943e02, -0.25151e-07],
    ),
    "5.6.2": dict(
        t=0.45,
        y=0.40082,
        yd=1.95106,
        ydd=1.95774,
        theta=[23.51276, 85.48645, -130.23580, 44.74937, 113.51270, 89.99990],
        thd=[0.17807e01, -0.70995e00, 0.78862e00, -0.78669e-01, 0.17807e01, 0.87924e-07],
        thdd=[-0.97251e00, -0.31997e01, 0.42557e01, -0.10559e01, -0.97251e00, -0.16807e-06],
        gravity=[0.0, -0.24369e04, -0.21283e04, -0.47210e03, 0.15841e-04, 0.0],
        total=[0.38648e03, -0.30115e04, -0.19754e04, -0.47350e03, -0.48943e02, -0.52019e-06],
    ),
}

#: Table 5.4.1, second part: perturbed minus nominal solution at t = 0.05 s for the path
#: z = 1.79875 + 0.03 sin(2πβ) (δθ rad, δθ̇ rad/s, δθ̈ rad/s², δf* N·m)
PERTURBATION = dict(
    dq=[-0.50000e-05, 0.15100e-03, 0.63000e-04, -0.21300e-03, -0.40000e-05, 0.0],
    dqd=[0.40000e-05, 0.90420e-02, 0.37480e-02, -0.12790e-01, 0.40000e-05, 0.0],
    dqdd=[-0.10000e-05, 0.36154e00, 0.15000e00, -0.51156e00, -0.10000e-05, 0.0],
    df=[0.25281e01, 0.14507e03, 0.80510e02, 0.18525e02, 0.20000e-04, 0.0],
)
PERTURBATION_Z_WAVE = 0.03

#: Table 5.4.2: columns W δθ, V δθ̇, U δθ̈ and the residual δf*(lin) − δf(true). W δθ is
#: W times the printed δθ of Table 5.4.1 (the exact δθ differs from it in the 3rd digit of
#: rows 2–4): with it the exact W gives rows 2–4 and 6 to 4 digits and misses rows 1 and 5,
#: which carry the error of the thesis's W (5.3.18) (its formula as written, with the
#: appendix's DERAC third partials, gives all six; eslabon.reproduce.t3_uvw_terms). The
#: residual's rows 1 and 5 carry the same error.
TABLE_5_4_2 = dict(
    W_dq=[-0.13344e-01, 0.25991e00, -0.33223e00, 0.49155e-04, -0.17651e-04, 0.13600e-05],
    V_dqd=[-0.57359e-02, 0.19906e-03, 0.11525e-03, 0.40250e-04, -0.51733e-05, 0.49760e-10],
    U_dqdd=[0.25382e01, 0.14478e03, 0.80848e02, 0.18521e02, 0.18445e-04, 0.29712e-09],
    residual=[-0.90165e-02, -0.27415e-01, 0.61681e-02, -0.32656e-02, -0.24379e-04, 0.13604e-05],
)


def _rows(text: str) -> np.ndarray:
    return np.array([[float(x) for x in line.split()] for line in text.strip().splitlines()])


#: Table 5.6.3 at t = 0.45 s (Ψ = √2/2·1, Ω = 1): K_p, K_d and the blocks (a) = U⁻¹W_thesis
#: (printed as "∂ṗ/∂θ"), (b) = U⁻¹V (printed again as "∂ṗ/∂θ"), (c) = U⁻¹
TABLE_5_6_3 = {
    "Kp": _rows("""
 .46633E+03  .32161E+03 -.59847E+02  .18407E+01 -.35512E+02  .12337E-04
-.34012E+02 -.19573E+04  .16410E+04  .18202E+03 -.94922E+02  .25533E+00
-.14762E+02  .11659E+04  .24760E+04  .16547E+03 -.10506E+03  .25533E+00
-.17910E+00 -.26958E+02  .82338E+02  .90366E+02 -.97902E+02  .25533E+00
-.71461E+02 -.78914E+02 -.15694E+03 -.98212E+02  .12481E+02 -.18167E-04
-.21228E-06  .16357E+01  .16357E+01  .16357E+01  .14858E-06  .64000E+00"""),
    "Kd": _rows("""
 .12603E+03  .32514E+03 -.56486E+03  .60516E+01 -.50222E+02  .37503E-04
-.29077E+03  .32505E+03  .28240E+03  .14314E+03  .41327E+01  .36110E+00
 .53204E+03 -.22404E+02  .50741E+03  .13224E+03 -.10210E+02  .36110E+00
-.63594E+01  .39400E+02  .10086E+03  .59034E+02 -.81253E-01  .36110E+00
-.50222E+02 -.19788E+02  .47751E+02  .38903E+00  .17651E+02 -.86193E-07
 .11332E-06 -.17290E+01 -.17290E+01 -.17290E+01 -.47096E-07  .90510E+00"""),
    "a": _rows("""
-.11594E+00 -.11994E+01  .18191E+01  .12161E+01 -.46274E-02  .10916E-08
 .73701E-01  .86692E+01 -.37175E+01 -.57639E-01 -.44329E+00 -.76613E-09
 .20893E+00 -.80040E+01 -.98220E+01  .61211E+00 -.59243E+00 -.18814E-09
-.65528E+00  .14089E+00  .51314E+02 -.37621E+01  .63296E+01  .70158E-08
 .26509E+01 -.35147E+01  .12505E+02  .11675E+02 -.22293E+00  .13989E-07
 .14867E+00 -.24785E+01 -.92482E+01 -.87718E+00 -.21120E+01 -.24183E-08"""),
    "b": _rows("""
 .12677E+01 -.10653E+01  .17503E+01 -.31997E-01 -.27238E-08  .17151E-09
 .13417E+01  .55414E+00  .87862E-01  .26175E-01 -.84605E-04 -.11243E-08
-.30551E+01 -.78915E+00 -.97900E-01  .19420E-01  .16691E-08  .16240E-08
 .39203E+01 -.12234E+01 -.70432E+00 -.10373E+01  .23605E-06 -.16623E-07
 .15436E+01 -.79330E+00  .25582E+00 -.12839E+00 -.37171E-08  .26538E-08
-.88049E+00  .32180E+01  .35508E+01  .36614E+01 -.12201E-06  .55356E-08"""),
    "c": _rows("""
 .42945E-02 -.22248E-03  .31013E-03 -.13494E-03  .12449E-01  .18868E-04
-.22248E-03  .36034E-02 -.77259E-03 -.73613E-02 -.19575E-02  .18075E-02
 .31013E-03 -.77259E-03  .55142E-02 -.10796E-01  .42032E-02  .24156E-02
-.13494E-03  .73613E-02 -.10796E-01  .82848E-01 -.45241E-02 -.23809E-01
 .12449E-01 -.19575E-02  .42032E-02 -.45241E-02  .11841E+00  .90898E-03
 .18868E-04  .18075E-02  .24156E-02 -.25809E-01  .90898E-03  .15711E+01"""),
}

#: cells of Table 5.6.3 misprinted in the OCR text: (block, row, column), 0-based. Each
#: printed value against the right one and how it was checked:
#:   (c) = U⁻¹ row 4 col 2: +.73613E−02 for −.73613E−02 (U⁻¹ is symmetric: row 2 col 4);
#:   (c) row 4 col 6: −.23809E−01 for −.25809E−01 (row 6 col 4; the exact U⁻¹);
#:   K_d row 4 col 2: .39400E+02 for 39.64 (K_d = √2·U − V, Ψ = √2/2, Ω = 1, from the
#:   printed (b) = U⁻¹V and (c) = U⁻¹ as (c)⁻¹(√2·1 − (b)): 39.639 ± 0.006, their rounding);
#:   (b) = U⁻¹V row 3 col 2: −.78915 for +.78915 (the exact U⁻¹V);
#:   (a) row 4 col 3: .51314E+02 for 31.314 (1 − U⁻¹K_p from the printed (c) and K_p).
OCR_CELLS = {("c", 3, 1), ("c", 3, 5), ("Kd", 3, 1), ("b", 2, 1), ("a", 3, 2)}
#: blocks that are wrong in the thesis itself: K_p = U Ω² − W (5.6.7) and (a) = U⁻¹W, because
#: its W is wrong in columns 1–4. Joint 1's axis is vertical, parallel to gravity, so
#: ∂f*/∂θ₁ = 0 and K_p₁₁ must equal U₁₁ = 335.36; the table prints 466.33. Checked against
#: W from the derivatives of Newton–Euler and by central differences.
WRONG_BLOCKS = {
    "Kp": "columns 1-4 (the thesis's W is wrong)",
    "a": "columns 1-4 (the thesis's W is wrong)",
}

#: Table 5.6.4: eigenvalues of A(t) at t = 0.45 s as printed. They are those of
#: [[0, 1], [−(a), −(b)]] built from the printed blocks of Table 5.6.3 (to 2.1e-4, once the
#: two OCR cells of (a) and (b) are put right), so they carry the thesis's wrong W.
TABLE_5_6_4 = np.array(
    [
        4.02350,
        -0.0211051 + 3.75063j,
        -0.0211051 - 3.75063j,
        2.13463,
        0.0194320 + 2.31475j,
        0.0194320 - 2.31475j,
        -3.03300,
        -2.44874,
        -1.61106,
        0.251365,
        -0.264106e-8 + 0.466135e-4j,
        -0.264106e-8 - 0.466135e-4j,
    ]
)

#: the exact spectrum of A(t) at t = 0.45 s, from Table 5.6.2's θ, θ̇, θ̈ with the exact W;
#: not printed in the thesis: an independent recomputation to 5 decimals, which
#: :func:`eslabon.control.linearize` matches (tests/test_linearized_control.py)
EXACT_EIGENVALUES_T045 = np.array(
    [
        4.02399,
        2.13929,
        0.02221 + 2.29608j,
        0.02221 - 2.29608j,
        0.00875 + 3.69640j,
        0.00875 - 3.69640j,
        -1.38765,
        -2.41039,
        -3.11387,
        0.0,
        7.6e-4j,
        -7.6e-4j,
    ]
)
