"""How a value eslabon computes is set beside a cell the Rojas (1987) thesis prints
(Tables 5.4.1 and 5.6.2): "ok" within the printed digits, "noise" where the printed cell
is single-precision noise around zero, else "DIFF"."""

from __future__ import annotations

import numpy as np

#: below these magnitudes a printed cell is single-precision noise
NOISE = {
    "theta": 1e-3,
    "thd": 1e-5,
    "thdd": 1e-5,
    "gravity": 1e-3,
    "total": 1e-3,
    "total_lagrange": 1e-3,
}


def cell_status(value: float, printed: float, key: str) -> str:
    """ "ok", "noise" or "DIFF" for one cell of column ``key`` (criteria above)."""
    noise = NOISE[key]
    if abs(printed) < noise:
        return "noise" if abs(value) < noise else "DIFF"
    if key == "theta":
        return "ok" if abs(value - printed) <= 1e-3 else "DIFF"
    digits = 4 if key in ("thd", "thdd") else 5
    unit = 10.0 ** (np.floor(np.log10(abs(printed))) - digits + 1)
    return "ok" if abs(value - printed) <= (0.5 if digits == 4 else 1.0) * unit else "DIFF"
