"""Impacts: the velocity jump when a contact or loop closure engages.

Over an impact of vanishing duration the positions do not change and the impulses P of
the engaging rows are the only impulsive forces (Featherstone, *Rigid Body Dynamics
Algorithms* (2008), §11.2; Pfeiffer and Glocker, *Multibody Dynamics with Unilateral
Contacts* (1996), for Newton's law of restitution):

    M (q̇⁺ − q̇⁻) = Jᵀ P,        J q̇⁺ = −e ⊙ J q̇⁻                                   (1)

with e ∈ [0, 1] per row (0: plastic, the rows stay engaged; 1: elastic, the approach
speed is reversed). Hence (J M⁻¹ Jᵀ) P = −(1 + e) ⊙ J q̇⁻ and q̇⁺ = q̇⁻ + M⁻¹ Jᵀ P,
solved on the independent rows (a redundant row shares the impulse at minimum norm).
A plastic impact takes the kinetic energy ½ (J q̇⁻)ᵀ (J M⁻¹ Jᵀ)⁻¹ (J q̇⁻); an elastic one
keeps it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..dynamics import mass_matrix
from ..model.constraint_types import checked, row_names
from .kinematics import _Frames, _independent_rows, _jacobian, _state


class Impact(NamedTuple):
    """What :func:`impact` returns.

    Attributes
    ----------
    qd : ndarray (nv,)
        The rates after the impact, q̇⁺.
    impulse : ndarray (m,)
        P per row [N·s, N·m·s], what frame A gives frame B (a contact: the world the
        robot), in A's axes.
    names : tuple of str
        The rows' names.
    energy_lost : float
        T(q̇⁻) − T(q̇⁺) [J], ≥ 0.
    """

    qd: np.ndarray
    impulse: np.ndarray
    names: tuple
    energy_lost: float


def impact(model, q, qd, *, constraints=None, restitution=0.0) -> Impact:
    """The rates after an impact that engages ``constraints`` at q (module docstring).

    Parameters
    ----------
    model : Model
    q : array_like (nq,)
        The configuration at the impact (the constraints' rows engaged there).
    qd : array_like (nv,)
        The rates just before, q̇⁻.
    constraints : LoopClosure, Contact or a list of them, optional
        By default the model's own.
    restitution : float or array_like (m,)
        Newton's coefficient e ∈ [0, 1], one for every row or one per row.

    Returns
    -------
    Impact

    Raises
    ------
    ValueError
        A bad state or constraint; a restitution outside [0, 1] or of the wrong length.

    Examples
    --------
    A pendulum's tip hitting a wall plastically stops along the wall's normal:

    >>> import numpy as np, eslabon as es
    >>> from eslabon import constraints as ec
    >>> arm = es.zoo.load("planar2")
    >>> wall = ec.Contact("wall", "ee", ["x"], position=[1.5, 0.0, 0.0])
    >>> hit = ec.impact(arm, [0.3, 0.6], [1.0, -2.0], constraints=wall)
    >>> J = ec.constraint_jacobian(arm, [0.3, 0.6], constraints=wall)
    >>> bool(abs(J @ hit.qd).max() < 1e-12), hit.energy_lost > 0
    (True, True)
    """
    rows = checked(model, constraints)
    q, qd = _state(model, q, qd)
    J = _jacobian(model, rows, q, _Frames(model, q))
    names = row_names(rows)
    try:
        e = np.broadcast_to(np.asarray(restitution, dtype=float), (len(names),)).copy()
    except (TypeError, ValueError):
        raise ValueError(
            f"restitution: expected a number or {len(names)} numbers in [0, 1], got {restitution!r}"
        ) from None
    if not np.all((e >= 0.0) & (e <= 1.0)):
        raise ValueError(f"restitution: expected values in [0, 1], got {restitution!r}")
    M = mass_matrix(model, q)
    L = np.linalg.cholesky(M)

    def solve_M(x):
        return np.linalg.solve(L.T, np.linalg.solve(L, x))

    keep = _independent_rows(J)
    Jk = J[keep]
    MJ = solve_M(Jk.T)
    target = -(1.0 + e[keep]) * (Jk @ qd)
    Pk = np.linalg.solve(Jk @ MJ, target)
    after = qd + MJ @ Pk
    P = np.linalg.lstsq(J.T, M @ (after - qd), rcond=None)[0]
    lost = 0.5 * float(qd @ M @ qd - after @ M @ after)
    return Impact(after, P, names, lost)
