"""Jaramillo Botero (1998), eqs (1.11)–(1.12) and (1.39): a body's moments and products of
inertia from point masses, and each body's momentum L = I V about its centre of mass.

- (1.11)–(1.12), the discrete form of (1.10): a uniform box of mass m and sides a, b, c cut
  into k × k × k equal cells, each cell's mass at its centre. Along one axis the centres
  x_j = (j + ½) a/k − a/2 give Σ x_j² / k = (a²/12)(1 − 1/k²) exactly, so the point-mass
  moments are the solid box's m (b² + c²)/12 … times (1 − 1/k²): the relative error is
  1/k² at every k, the products are zero, and moving the points by d adds m (dᵀd 1 − d dᵀ)
  (Steiner).
- (1.39): :func:`eslabon.dynamics.body_momenta` per body, shifted to the robot's centre of
  mass and summed, is the centroidal momentum h_G = A_G q̇ (Orin, Goswami & Lee 2013,
  computed by :func:`eslabon.dynamics.centroidal_momentum` from composite inertias, an
  independent route).
"""

from __future__ import annotations

import numpy as np

from ..dynamics.centroidal import centroidal_momentum
from ..dynamics.momentum import body_momenta
from ..kinematics.center_of_mass import body_centers
from ..kinematics.kinematic_pass import kinematic_pass
from ..model.configuration import random_configuration
from ..spatial.point_masses import point_mass_inertia
from ..zoo import load

#: the box (mass [kg], sides [m]) and the cells per side
BOX = (2.0, (0.3, 0.2, 0.1))
CELLS = (2, 4, 8, 16)


def box_cells(mass: float, sides, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(masses (k³,), centres (k³, 3)) of a uniform box about its centroid cut into k³ cells.

    Parameters
    ----------
    mass : float
        The box's mass [kg].
    sides : sequence of 3 floats
        a, b, c [m] along x, y, z.
    k : int
        Cells per side, ≥ 1.

    Returns
    -------
    masses : ndarray (k³,)
        mass / k³ each.
    points : ndarray (k³, 3)
        The cells' centres [m].

    Examples
    --------
    >>> from eslabon.reproduce.body_moments import box_cells
    >>> m, p = box_cells(1.0, (1.0, 1.0, 1.0), 2)
    >>> m.sum(), p.shape, p[0].tolist()
    (np.float64(1.0), (8, 3), [-0.25, -0.25, -0.25])
    """
    axes = [((np.arange(k) + 0.5) / k - 0.5) * s for s in sides]
    points = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, 3)
    return np.full(k**3, mass / k**3), points


def _solid_box(mass, sides):
    a, b, c = sides
    return mass / 12.0 * np.array([b * b + c * c, a * a + c * c, a * a + b * b])


def point_masses_report() -> tuple[dict, list]:
    """(1.11)–(1.12) on the box :data:`BOX` at :data:`CELLS` (module docstring)."""
    mass, sides = BOX
    solid = _solid_box(mass, sides)
    rows, lines = (
        [],
        [
            "(1.11)–(1.12) moments of point masses: a uniform box "
            f"{mass:g} kg, {sides[0]:g} × {sides[1]:g} × {sides[2]:g} m in k³ cells "
            "(relative error of the moments against the solid's, 1/k² derived; largest product)"
        ],
    )
    for k in CELLS:
        pm = point_mass_inertia(*box_cells(mass, sides, k))
        error = float(np.max(np.abs(pm.moments / solid - 1.0)))
        product = float(np.max(np.abs(pm.products)))
        rows.append({"k": k, "relative_error": error, "derived": 1.0 / k**2, "product": product})
        lines.append(f"  k = {k:>2}: {error:.6e} (1/k² = {1.0 / k**2:.6e}); products {product:.1e}")
    d = np.array([0.4, -0.1, 0.25])
    masses, points = box_cells(mass, sides, CELLS[-1])
    shifted = point_mass_inertia(masses, points + d).tensor
    steiner = point_mass_inertia(masses, points).tensor + mass * (
        d @ d * np.eye(3) - np.outer(d, d)
    )
    shift = float(np.max(np.abs(shifted - steiner)) / np.max(np.abs(steiner)))
    lines.append(f"  the points moved by d = {d.tolist()} m: Steiner's shift met to {shift:.1e}")
    return {"cells": rows, "steiner": shift}, lines


def momenta_report(names=("puma560", "quadruped"), seed: int = 11) -> tuple[dict, list]:
    """(1.39) summed against the centroidal momentum (module docstring)."""
    rng = np.random.default_rng(seed)
    data, lines = {}, ["(1.39) L = I_cm V_cm per body, shifted to G and summed, vs A_G q̇"]
    for name in names:
        model = load(name)
        q = random_configuration(model, rng)
        qd = rng.normal(size=model.nv)
        L = body_momenta(model, q, qd)[1:]  # (nb, 6) [angular; linear] about each body's com
        com = body_centers(kinematic_pass(model, q, qd))[1:]
        record = centroidal_momentum(model, q, qd)  # composite inertias (Orin et al.)
        angular = L[:, :3] + np.cross(com - record.W_p_G, L[:, 3:])
        summed = np.r_[angular.sum(axis=0), L[:, 3:].sum(axis=0)]
        gap = float(np.max(np.abs(summed - record.h_G)) / np.max(np.abs(record.h_G)))
        data[name] = gap
        lines.append(f"  {name:<10} largest relative gap {gap:.1e}")
    return data, lines


def report() -> tuple[dict, list]:
    """Both parts: (data, lines)."""
    data, lines = {}, []
    data["point_masses"], more = point_masses_report()
    lines += more
    data["body_momenta"], more = momenta_report()
    lines += more
    return data, lines
