"""The operational-space quantities of a frame: Λ, μ, p, J̄ and the null-space projector.

Khatib, "A unified approach for motion and force control of robot manipulators: the
operational space formulation", *IEEE J. Robotics and Automation* 3 (1987) 43–53. With the
frame's Jacobian J (m rows of :func:`eslabon.jacobian`), the joint-space M(q), the
Coriolis and centrifugal forces C q̇ and the gravity torques g (τ = M q̈ + C q̇ + g), the
task acceleration ẍ = J q̈ + J̇ q̇ obeys, for joint torques τ = Jᵀ F:

    Λ ẍ + μ + p = F
    Λ = (J M⁻¹ Jᵀ)⁻¹                     operational-space inertia
    J̄ = M⁻¹ Jᵀ Λ                         dynamically consistent inverse
    μ = J̄ᵀ C q̇ − Λ J̇ q̇                   Coriolis and centrifugal
    p = J̄ᵀ g                             gravity
    N = 1 − J̄ J                          null-space projector: τ = Jᵀ F + Nᵀ τ₀ leaves
                                         ẍ unchanged by τ₀

J̇ is the time derivative of the same Jacobian (:mod:`eslabon.kinematics.jacobian_derivative`),
so ẍ is d/dt(J q̇): with world axes the classical acceleration of the frame; with its own
axes the rate of change of the local twist. Joint friction is left out of μ.

**Damping near singularities.** Λ⁻¹ mixes units (1/kg on the linear rows, 1/(kg·m²) on
the angular ones) and a light wrist gives it a condition number of 10⁶ far from any
singularity. It is therefore first equilibrated, B = D Λ⁻¹ D with D = diag(Λ⁻¹)^(−1/2)
(unit diagonal; van der Sluis, *Numer. Math.* 14 (1969) 14–23: within a factor m of the
best diagonal scaling), and B = U diag(σ) Uᵀ is inverted eigenvalue by eigenvalue: 1/σ
where σ ≥ δ, and σ/δ² below, with δ = ``damping`` · σ_max; Λ = D B⁻¹ D. That is the
damped least-squares inverse σ/(σ² + λ²) with a variable damping λ² = δ² − σ² switched on
below δ (Nakamura & Hanafusa, *J. Dyn. Syst. Meas. Control* 108 (1986) 163–171; the
variable damping of Chiaverini, Siciliano & Egeland, *IEEE Trans. Control Syst. Technol.*
2 (1994) 123–134): continuous in σ, exact while the condition number σ_max/σ_min of B is
below 1/``damping``, bounded by 1/δ, and zero in an exactly singular direction (the task
gives up the direction it cannot move). The condition number of B is reported.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._args import finite_number, state_docs
from .._engine.lazymodule import lazy_module
from .api import bias_forces, gravity_torques, mass_matrix

_jdot = lazy_module("eslabon.kinematics.jacobian_derivative")

DAMPING = 1e-4  # the default: eigenvalues of the equilibrated Λ⁻¹ below 1e-4 σ_max are damped
ROWS = {"all": (0, 1, 2, 3, 4, 5), "angular": (0, 1, 2), "linear": (3, 4, 5)}


@dataclass(frozen=True)
class OperationalSpace:
    """A frame's operational-space quantities at one state or a batch (Khatib 1987).

    With m the number of task rows and n the number of rates; a batch adds a leading N.

    Attributes
    ----------
    frame : str
        The frame.
    reference : str
        The axes of the task: ``"world"`` or ``"local"`` (the frame's own).
    rows : tuple of int
        The rows of the Jacobian taken, of [angular (0, 1, 2); linear (3, 4, 5)].
    J : ndarray ``(m, n)``
        The task Jacobian: those rows of :func:`eslabon.jacobian`.
    Jdot_qd : ndarray ``(m,)``
        J̇ q̇, the task acceleration at q̈ = 0.
    Lambda : ndarray ``(m, m)``
        Λ = (J M⁻¹ Jᵀ)⁻¹, damped near a singularity [kg, kg·m²].
    mu : ndarray ``(m,)``
        μ = J̄ᵀ C q̇ − Λ J̇ q̇, the Coriolis and centrifugal task force.
    p : ndarray ``(m,)``
        p = J̄ᵀ g, the gravity task force.
    J_bar : ndarray ``(n, m)``
        J̄ = M⁻¹ Jᵀ Λ, the dynamically consistent inverse.
    N : ndarray ``(n, n)``
        1 − J̄ J: joint torques Nᵀ τ₀ do not accelerate the task.
    condition : float or ndarray ``(N,)``
        σ_max / σ_min of the equilibrated J M⁻¹ Jᵀ (unit diagonal; inf when singular).
    damped : bool or ndarray ``(N,)`` of bool
        Whether an eigenvalue of it was below ``damping`` · σ_max (Λ then damped).
    """

    frame: str
    reference: str
    rows: tuple
    J: np.ndarray
    Jdot_qd: np.ndarray
    Lambda: np.ndarray
    mu: np.ndarray
    p: np.ndarray
    J_bar: np.ndarray
    N: np.ndarray
    condition: Any
    damped: Any

    def tagged(self) -> dict:
        """The arrays by frame-tagged name: ``W_J_ee``, ``W_Lambda_ee``, … (``W`` for world
        axes, the frame's name for its own: ``ee_J_ee``).

        Returns
        -------
        dict of str to ndarray
            ``{axes}_{quantity}_{frame}`` → the array, for J, Jdot_qd, Lambda, mu, p,
            J_bar (N, the joint-space projector, keeps its name).
        """
        axes = "W" if self.reference == "world" else self.frame
        names = ("J", "Jdot_qd", "Lambda", "mu", "p", "J_bar")
        return {f"{axes}_{k}_{self.frame}": getattr(self, k) for k in names}


# model -> the model without friction (C q̇ and g are read from its bias forces)
_FRICTIONLESS: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def _frictionless(model):
    if not (np.any(model.viscous) or np.any(model.coulomb)):
        return model
    found = _FRICTIONLESS.get(model)
    if found is None:
        found = _FRICTIONLESS[model] = model.replace(viscous=0.0, coulomb=0.0)
    return found


def _rows(rows) -> tuple:
    if rows is None:
        return ROWS["all"]
    if isinstance(rows, str):
        if rows not in ROWS:
            raise ValueError(f"rows: expected one of {tuple(ROWS)} or row indices, got {rows!r}")
        return ROWS[rows]
    try:
        picked = tuple(int(r) for r in rows)
        ok = all(float(r) == int(r) for r in rows) and len(picked) > 0
    except (TypeError, ValueError):
        ok, picked = False, ()
    if not ok or any(not 0 <= r < 6 for r in picked) or len(set(picked)) != len(picked):
        raise ValueError(
            f"rows: expected distinct row indices in 0..5 ([angular; linear]), "
            f"'linear', 'angular' or 'all', got {rows!r}"
        )
    return picked


def inverse_eigenvalues(sigma: np.ndarray, delta) -> np.ndarray:
    """1/σ where σ ≥ δ, σ/δ² below (0 where δ = 0 = σ): the damped inverse of each
    eigenvalue σ ≥ 0 (the module's rule)."""
    low = sigma < delta
    with np.errstate(divide="ignore", invalid="ignore"):
        damped = sigma / np.where(low, delta, 1.0) ** 2
        inverse = np.where(low, damped, 1.0 / np.where(low, 1.0, sigma))
    return np.where(sigma > 0.0, inverse, 0.0)


def damped_inverse(A: np.ndarray, damping: float):
    """(A⁻¹ damped, condition, damped) of symmetric positive semidefinite A (..., m, m):
    the module's rule on the equilibrated D A D."""
    diagonal = np.diagonal(A, axis1=-2, axis2=-1)
    scale = 1.0 / np.sqrt(np.where(diagonal > 0.0, diagonal, 1.0))  # a zero row stays zero
    B = scale[..., :, None] * A * scale[..., None, :]
    sigma, U = np.linalg.eigh(B)
    sigma = np.maximum(sigma, 0.0)
    top = sigma[..., -1:]
    delta = damping * top
    inverse = inverse_eigenvalues(sigma, delta)
    with np.errstate(divide="ignore", invalid="ignore"):
        condition = np.where(sigma[..., 0] > 0.0, top[..., 0] / sigma[..., 0], np.inf)
    B_inverse = (U * inverse[..., None, :]) @ np.swapaxes(U, -1, -2)
    Lambda = scale[..., :, None] * B_inverse * scale[..., None, :]
    damped = (sigma < delta).any(axis=-1)
    if condition.ndim == 0:
        return Lambda, float(condition), bool(damped)
    return Lambda, condition, damped


@state_docs
def operational_space(
    model,
    q,
    qd,
    frame: str = "ee",
    reference: str = "world",
    *,
    rows=None,
    damping: float = DAMPING,
) -> OperationalSpace:
    """Λ, μ, p, J̄ and the null-space projector of a frame's task, in one call.

    Khatib (1987)'s operational-space formulation: Λ ẍ + μ + p = F for joint torques τ =
    Jᵀ F, with Λ = (J M⁻¹ Jᵀ)⁻¹, J̄ = M⁻¹ Jᵀ Λ, μ = J̄ᵀ C q̇ − Λ J̇ q̇, p = J̄ᵀ g and N = 1 −
    J̄ J (the module :mod:`eslabon.dynamics.operational_space`, which gives the equations
    and the damping). ẍ = J q̈ + J̇ q̇ in the axes of ``reference``. Near a singularity Λ is
    damped: J M⁻¹ Jᵀ is scaled to a unit diagonal and every eigenvalue σ below ``damping``
    · σ_max is inverted as σ/δ² (δ = ``damping`` · σ_max) instead of 1/σ; the record says
    so, with the condition number.

    Parameters
    ----------
    $model
    $q
    $qd
    frame : str
        A named frame (``"ee"`` by default) or a body's name.
    reference : {"world", "local"}
        The axes of the task, as for :func:`eslabon.jacobian`.
    rows : {"all", "linear", "angular"} or sequence of int, optional
        The rows of the task, of [angular (0, 1, 2); linear (3, 4, 5)]: ``"linear"`` for
        the origin's position only. All six by default.
    damping : float
        δ / σ_max, the relative eigenvalue of the equilibrated J M⁻¹ Jᵀ below which Λ is
        damped: a condition number above 1/``damping`` (1e4 by default) is damped. In
        (0, 1).

    Returns
    -------
    OperationalSpace
        ``J``, ``Jdot_qd``, ``Lambda``, ``mu``, ``p``, ``J_bar``, ``N``, ``condition``,
        ``damped`` (and ``tagged()`` for frame-tagged names such as ``W_Lambda_ee``).

    Raises
    ------
    $state_errors
    ValueError
        An unknown frame or ``reference``, bad ``rows``, a ``damping`` outside (0, 1), or a
        singular joint-space inertia matrix (a joint that moves no mass).

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> arm = es.zoo.load("puma560")
    >>> q, qd = np.array([0.1, -0.6, 0.4, 0.3, 0.5, 0.2]), np.zeros(6)
    >>> task = es.dynamics.operational_space(arm, q, qd, "ee", rows="linear")
    >>> task.Lambda.shape, task.N.shape, task.damped
    ((3, 3), (6, 6), False)
    >>> bool(np.allclose(task.J @ task.J_bar, np.eye(3)))
    True
    """
    picked = _rows(rows)
    damping = finite_number(damping, "damping", positive=True)
    if not damping < 1.0:
        raise ValueError(f"damping: expected a number in (0, 1), got {damping!r}")
    J, Jdot, _ = _jdot.frame_jacobians(model, q, qd, frame, reference)
    index = list(picked)
    J, Jdot = J[..., index, :], Jdot[..., index, :]
    qd = np.asarray(qd, dtype=float)
    Jdot_qd = np.einsum("...ij,...j->...i", Jdot, qd)
    M = mass_matrix(model, q)
    try:
        Minv_JT = np.linalg.solve(M, np.swapaxes(J, -1, -2))
    except np.linalg.LinAlgError:
        raise ValueError(
            "model: the joint-space inertia matrix is singular at q (a joint moves no mass "
            "or inertia); Λ = (J M⁻¹ Jᵀ)⁻¹ needs M invertible: give that body mass or the "
            "joint armature"
        ) from None
    Lambda, condition, damped = damped_inverse(J @ Minv_JT, damping)
    J_bar = Minv_JT @ Lambda
    plain = _frictionless(model)
    g = gravity_torques(plain, q)
    coriolis = bias_forces(plain, q, qd) - g
    J_bar_T = np.swapaxes(J_bar, -1, -2)
    mu = np.einsum("...ij,...j->...i", J_bar_T, coriolis)
    mu -= np.einsum("...ij,...j->...i", Lambda, Jdot_qd)
    p = np.einsum("...ij,...j->...i", J_bar_T, g)
    N = np.eye(model.nv) - J_bar @ J
    return OperationalSpace(
        frame, reference, picked, J, Jdot_qd, Lambda, mu, p, J_bar, N, condition, damped
    )
