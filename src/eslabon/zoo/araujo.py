"""The PUMA 560 arm of seed 003 (Araujo 2012, Tables A.4–A.7, after Angeles & Ma 1988)."""

from __future__ import annotations

import numpy as np

from ..model import from_dh

_ALPHA = [0.0, -np.pi / 2, 0.0, np.pi / 2, -np.pi / 2, np.pi / 2]
_A = [0.0, 0.0, 0.4318, -0.02032, 0.0, 0.0]
_D_THESIS = [0.0, 0.0, -0.14909, -0.4318, 0.0, 0.0]
_MASS = [10.521, 15.781, 8.767, 1.052, 1.052, 0.351]
_INERTIA = [
    (1.6120, 0.5091, 1.6120),
    (0.4898, 8.0783, 8.2672),
    (3.3768, 0.3009, 3.3768),
    (0.1810, 0.1810, 0.1273),
    (0.0735, 0.0735, 0.1273),
    (0.0071, 0.0071, 0.0141),
]
_COM = [
    (0.0, -0.054, 0.0),
    (0.1398, 0.0, 0.14909),
    (-0.00032, -0.197, 0.0),
    (0.0, 0.0, -0.057),
    (0.0, -0.007, 0.0),
    (0.0, 0.0, 0.03725),
]


def puma560_araujo(gravity=(0.0, 0.0, -9.81)):
    """PUMA 560, seed 003 Tables A.4 (DH), A.5 (masses), A.6 (inertias about the COM,
    link axes, no products) and A.7 (COM in link frames), **modified DH** (Khalil–Kleinfinger).

    The thesis's origin offset (A.2) is [a, d sin α, −d cos α]: its d runs along −z_i.
    In Craig's modified convention used here that is d = −d_thesis, so d3 = +0.14909 m and
    d4 = +0.4318 m (the frames, and hence Tables A.6–A.7, are unchanged). Table A.4's
    header says mm, but the values are metres. The link 2 and 3 inertias are large for
    their masses; they are kept as published. Gravity (0, 0, −9.81), z0 up.
    """
    rows = [
        {
            "joint": "R",
            "alpha": _ALPHA[i],
            "a": _A[i],
            "theta": 0.0,
            "d": -_D_THESIS[i],
            "mass": _MASS[i],
            "com": _COM[i],
            "inertia": np.diag(_INERTIA[i]),
            "name": f"link{i + 1}",
        }
        for i in range(6)
    ]
    return from_dh(
        rows,
        "modified",
        gravity=gravity,
        name="puma560_araujo",
        source="seed 003 (Araujo 2012) Tables A.4-A.7",
    )
