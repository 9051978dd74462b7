"""Checks of IK targets and starting points: one clear error naming the field."""

from __future__ import annotations

import numpy as np

from ..._args import finite_array, vector
from ...spatial.invariants import as_rotation


def point(x, field: str) -> np.ndarray:
    """A finite 3-vector."""
    return finite_array(x, field, (3,))


def rotation(R, field: str = "R") -> np.ndarray:
    """One proper rotation matrix (3, 3)."""
    arr = as_rotation(R, field)
    if arr.shape != (3, 3):
        raise ValueError(f"{field}: expected shape (3, 3), got {arr.shape}")
    return arr


def start(model, q0, field: str = "q0", any_joint: bool = False) -> np.ndarray:
    """A finite starting configuration of shape (nq,); the thesis's solvers take revolute
    and prismatic joints only (``any_joint`` False: the others are refused by name)."""
    if not any_joint:
        model.require_one_dof_joints("inverse kinematics of Rojas (1987) §3.3–3.5")
    arr, batched = vector(q0, model.nq, field)
    if batched:
        raise ValueError(
            f"{field}: expected one configuration of shape ({model.nq},), got {arr.shape}"
        )
    if not np.isfinite(arr).all():
        raise ValueError(f"{field}: expected finite values, got {arr}")
    return arr.copy()


def tolerance(tol, max_iter):
    if not (np.isfinite(tol) and tol > 0):
        raise ValueError(f"tol: expected a positive number, got {tol!r}")
    if int(max_iter) != max_iter or max_iter < 1:
        raise ValueError(f"max_iter: expected a positive integer, got {max_iter!r}")
