"""Input checks for models: every error names the field and what was expected."""
from __future__ import annotations

import numpy as np

from ..conventions import FIXED, PRISMATIC, REVOLUTE


def as_float_array(value, shape, field: str) -> np.ndarray:
    """``value`` as a finite float64 array of ``shape``, or a ValueError naming ``field``."""
    try:
        arr = np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{field}: expected numbers of shape {shape}, got {value!r}") from None
    if arr.shape != tuple(shape):
        raise ValueError(f"{field}: expected shape {tuple(shape)}, got {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{field}: expected finite numbers, got {arr.tolist()} (NaN or inf)")
    return arr


def check_nonnegative(value: float, field: str) -> float:
    v = float(as_float_array(value, (), field))
    if v < 0.0:
        raise ValueError(f"{field}: expected a number >= 0, got {v}")
    return v


def check_inertia(value, field: str) -> np.ndarray:
    """A symmetric positive semi-definite 3×3 inertia (singular, rod-like inertias are legal)."""
    inertia = as_float_array(value, (3, 3), field)
    scale = max(1.0, float(np.max(np.abs(inertia))))
    if not np.allclose(inertia, inertia.T, atol=1e-9 * scale, rtol=0.0):
        raise ValueError(f"{field}: expected a symmetric 3x3 matrix, got {inertia.tolist()}")
    eig = np.linalg.eigvalsh(0.5 * (inertia + inertia.T))
    if eig.min() < -1e-9 * scale:
        raise ValueError(f"{field}: expected a positive semi-definite inertia, "
                         f"got eigenvalues {eig.tolist()}")
    return 0.5 * (inertia + inertia.T)


def check_rotation(value, field: str) -> np.ndarray:
    R = as_float_array(value, (3, 3), field)
    if not (np.allclose(R.T @ R, np.eye(3), atol=1e-9) and abs(np.linalg.det(R) - 1.0) < 1e-9):
        raise ValueError(f"{field}: expected a proper rotation matrix (orthonormal, det +1)")
    return R


def check_body_arrays(model) -> dict:
    """Convert and check every per-body array of ``model``; returns the arrays to store."""
    parent = np.asarray(model.parent, dtype=np.int64)
    if parent.ndim != 1 or len(parent) < 1:
        raise ValueError("parent: expected a 1-D array with the world as entry 0")
    n = len(parent)
    if parent[0] != -1:
        raise ValueError("parent[0]: the world body has parent -1")
    for i in range(1, n):
        if not 0 <= parent[i] < i:
            raise ValueError(f"parent[{i}]: expected 0 <= parent < {i}, got {parent[i]}")
    jtype = np.asarray(model.joint_type, dtype=np.int64)
    if jtype.shape != (n,) or not np.all(np.isin(jtype, (FIXED, REVOLUTE, PRISMATIC))):
        raise ValueError(f"joint_type: expected {n} codes among 0 (fixed), 1 (revolute), "
                         f"2 (prismatic), got {np.asarray(model.joint_type).tolist()}")
    out = {"parent": parent, "joint_type": jtype}
    axis = as_float_array(model.axis, (n, 3), "axis")
    for i in range(1, n):
        norm = np.linalg.norm(axis[i])
        if jtype[i] != FIXED:
            if norm < 1e-12:
                raise ValueError(f"axis[{i}]: expected a non-zero joint axis")
            axis[i] /= norm
    out["axis"] = axis
    rot = as_float_array(model.tree_rotation, (n, 3, 3), "tree_rotation")
    for i in range(n):
        check_rotation(rot[i], f"tree_rotation[{i}]")
    out["tree_rotation"] = rot
    out["tree_translation"] = as_float_array(model.tree_translation, (n, 3), "tree_translation")
    mass = as_float_array(model.mass, (n,), "mass")
    for i in range(n):
        check_nonnegative(mass[i], f"mass[{i}] ({_name(model, i)})")
    out["mass"] = mass
    out["com"] = as_float_array(model.com, (n, 3), "com")
    inertia = as_float_array(model.inertia, (n, 3, 3), "inertia")
    for i in range(n):
        inertia[i] = check_inertia(inertia[i], f"inertia[{i}] ({_name(model, i)})")
    out["inertia"] = inertia
    for key in ("viscous", "coulomb", "armature"):
        arr = as_float_array(getattr(model, key), (n,), key)
        for i in range(n):
            check_nonnegative(arr[i], f"{key}[{i}]")
        out[key] = arr
    slide = as_float_array(model.com_slide, (n,), "com_slide")
    bad = np.flatnonzero((slide != 0.0) & (jtype != PRISMATIC))
    if len(bad):
        raise ValueError(f"com_slide[{bad[0]}]: only a prismatic joint can move its COM")
    out["com_slide"] = slide
    out["gravity"] = as_float_array(model.gravity, (3,), "gravity")
    return out


def _name(model, i: int) -> str:
    names = getattr(model, "body_names", ())
    return names[i] if i < len(names) else f"body{i}"


class ImplausibleInertiaWarning(UserWarning):
    """A body's inertia is legal (symmetric, positive semi-definite) but no rigid body has
    it: its principal moments break the triangle inequality I₁ + I₂ ≥ I₃."""


def check_plausible(inertia, mass, where: str, strict: bool = False):
    """Warn (or, with ``strict``, raise) when a body's centroidal inertia breaks the
    triangle inequality of principal moments, as the seed 000 T3's and the classic Puma
    560's tables do. Massless bodies and zero inertias are not checked."""
    import warnings
    if mass <= 0.0:
        return
    e = np.sort(np.linalg.eigvalsh(inertia))
    if e[2] <= 0.0 or e[0] + e[1] >= e[2] * (1.0 - 1e-9):
        return
    msg = (f"{where}: principal moments {e.round(6).tolist()} break the triangle inequality "
           f"I1 + I2 >= I3 (no rigid body has this inertia)")
    if strict:
        raise ValueError(msg)
    warnings.warn(msg, ImplausibleInertiaWarning, stacklevel=4)
