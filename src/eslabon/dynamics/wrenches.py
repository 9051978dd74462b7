"""External wrenches as the Newton–Euler kernels take them: one row per body.

Seed 001 eq. 3.34 starts the inward pass of Tabla 3.1 with the force and moment that the
last link exerts on its environment (f_{n+1}, n_{n+1}); the kernels take such a wrench
for every body, in body coordinates, moment about the body origin.
"""

from __future__ import annotations

import numpy as np


def tip_wrench_array(model, tip_wrench, frame: str = "ee"):
    """(rows, 6) wrenches, one per packed row of the model (its bodies at
    ``model.body_row``), from a (6,) [moment; force] the frame exerts on the world,
    expressed in that frame's axes, moment about its origin."""
    w = np.asarray(tip_wrench, dtype=float)
    if w.shape != (6,) or not np.all(np.isfinite(w)):
        raise ValueError(f"tip_wrench: expected 6 finite numbers [moment; force], got {w.shape}")
    fr = model.frame(frame)
    f_b = fr.rotation @ w[3:]
    n_b = fr.rotation @ w[:3] + np.cross(fr.translation, f_b)
    out = np.zeros((int(model.body_row[-1]) + 1, 6))  # one per packed row
    out[model.body_row[fr.body], :3] = n_b
    out[model.body_row[fr.body], 3:] = f_b
    return out
