"""The moments and products of inertia of a system of point masses, Jaramillo Botero (1998)
eqs (1.11)–(1.12).

For N particles of mass mᵢ at (xᵢ, yᵢ, zᵢ), the discrete form of the volume integrals
(1.10): the moments Ixx = Σ mᵢ (yᵢ² + zᵢ²), Iyy = Σ mᵢ (xᵢ² + zᵢ²), Izz = Σ mᵢ (xᵢ² + yᵢ²)
(1.11) and the products Ixy = Σ mᵢ xᵢ yᵢ, Ixz = Σ mᵢ xᵢ zᵢ, Iyz = Σ mᵢ yᵢ zᵢ (1.12), as the
document defines them: positive sums, which the tensor (1.9) holds with a minus sign off
its diagonal. A body sampled finely enough tends to its continuous tensor (a test sets a
grid of particles beside Example 1's cuboid).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class PointMassMoments(NamedTuple):
    """The inertia of a set of point masses about the origin of their coordinates.

    Attributes
    ----------
    moments : ndarray (3,)
        (Ixx, Iyy, Izz) of (1.11) [kg·m²].
    products : ndarray (3,)
        (Ixy, Ixz, Iyz) of (1.12), the positive sums Σ m x y, … [kg·m²].
    tensor : ndarray (3, 3)
        The rotational inertia tensor (1.9): the moments on the diagonal, −Ixy, −Ixz,
        −Iyz off it [kg·m²].
    mass : float
        Σ mᵢ [kg].
    center_of_mass : ndarray (3,)
        Σ mᵢ rᵢ / Σ mᵢ [m] (zeros when the mass is zero).
    """

    moments: np.ndarray
    products: np.ndarray
    tensor: np.ndarray
    mass: float
    center_of_mass: np.ndarray


def point_mass_inertia(masses, points) -> PointMassMoments:
    """The moments (1.11), products (1.12) and tensor of point masses about the origin.

    Jaramillo Botero (1998), eqs (1.11)–(1.12): the discrete form of (1.10). Shift the
    points first to take the inertia about another point; rotate them to take it in
    other axes.

    Parameters
    ----------
    masses : array_like (N,)
        The particles' masses [kg], ≥ 0.
    points : array_like (N, 3)
        Their positions (x, y, z) [m].

    Returns
    -------
    PointMassMoments
        ``moments``, ``products``, ``tensor``, ``mass`` and ``center_of_mass``.

    Raises
    ------
    ValueError
        Masses not a 1-D list of finite non-negative numbers; points not of shape
        (N, 3) with the same N, or not finite.

    Examples
    --------
    Two 1 kg particles on the x axis at ±1 m: no moment about x, 2 kg·m² about y and z.

    >>> from eslabon.spatial import point_mass_inertia
    >>> I = point_mass_inertia([1.0, 1.0], [[1, 0, 0], [-1, 0, 0]])
    >>> I.moments.tolist(), I.products.tolist(), I.center_of_mass.tolist()
    ([0.0, 2.0, 2.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0])
    """
    m = np.asarray(masses, dtype=float)
    r = np.asarray(points, dtype=float)
    if m.ndim != 1 or not np.all(np.isfinite(m)) or np.any(m < 0):
        raise ValueError("masses: expected a list of N finite masses ≥ 0 [kg]")
    if r.shape != (m.size, 3) or not np.all(np.isfinite(r)):
        raise ValueError(
            f"points: expected shape ({m.size}, 3) of finite positions [m], got {r.shape}"
        )
    x, y, z = r.T
    moments = np.array([m @ (y * y + z * z), m @ (x * x + z * z), m @ (x * x + y * y)])
    products = np.array([m @ (x * y), m @ (x * z), m @ (y * z)])
    Ixy, Ixz, Iyz = products
    tensor = np.array(
        [[moments[0], -Ixy, -Ixz], [-Ixy, moments[1], -Iyz], [-Ixz, -Iyz, moments[2]]]
    )
    total = float(m.sum())
    com = m @ r / total if total > 0 else np.zeros(3)
    return PointMassMoments(moments, products, tensor, total, com)
