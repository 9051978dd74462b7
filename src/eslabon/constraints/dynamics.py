"""Forward dynamics of constrained systems, four formulations side by side (the
multipliers by KKT or by a Schur complement, on the articulated-body algorithm or on
Jaramillo's recursion; the null space; Udwadia–Kalaba).

With the constraint forces λ entering as Jᵀ λ (:mod:`.kinematics`: J q̈ = γ),

    M q̈ + b = τ + Jᵀ λ,        J q̈ = γ                                         (1)

(b: Coriolis, centrifugal, gravity and friction, :func:`eslabon.bias_forces`). λ row by
row is the force [N] or moment [N·m] that frame A exerts on frame B at B's origin, in
A's axes (a contact: the world on the robot's frame). Every formulation gives the same
q̈; λ is the same minimum-norm solution of Jᵀ λ = M q̈ + b − τ in each (unique when the
rows are independent; redundant rows share the force of the rows they repeat).

* ``"kkt"``: Lagrange multipliers, the saddle-point system [[M, −Jᵀ], [J, 0]] of (1) on
  the independent rows, dense (Featherstone, *Rigid Body Dynamics Algorithms* (2008),
  §8.3, eq. 8.11).
* ``"schur"``: the unconstrained q̈₀ = M⁻¹(τ − b) (:func:`eslabon.forward_dynamics`,
  the articulated-body algorithm), then the Schur complement J M⁻¹ Jᵀ λ = γ − J q̈₀
  and q̈ = q̈₀ + M⁻¹ Jᵀ λ (Featherstone (2008), §8.3, eqs 8.13–8.14); M⁻¹ Jᵀ by the
  Cholesky factor of M.
* ``"null_space"``: the Maggi form in independent coordinates: q̈ = N z + q̈_p with
  J N = 0 from coordinate partitioning (:func:`.kinematics.partition`) and
  Nᵀ M N z = Nᵀ (τ − b − M q̈_p), the multipliers eliminated (the Gibbs–Appell–Kane
  family of the sources: Araujo (2012) writes the platform in quasi-velocities so).
* ``"soa"``: the same Schur complement on Jaramillo Botero (1998)'s constraint-force
  Macro Algoritmo (:mod:`eslabon.dynamics.soa`): the loop rows' forces enter the chain as
  external generalized forces, as the document writes external forces into step ➊
  (eq. 1.78), and the recursion gives q̈₀ and each row's response; serial chains whose
  bodies have invertible inertias and no armature, as the tree's form.
* ``"udwadia_kalaba"``: Udwadia and Kalaba, "A new perspective on constrained motion",
  Proc. R. Soc. Lond. A 439 (1992): q̈ = a + M^{-1/2} (J M^{-1/2})⁺ (γ − J a) with
  a = M⁻¹(τ − b), where M^{-1/2} may be any factor G with G Gᵀ = M⁻¹ (here L⁻ᵀ of the
  Cholesky factor M = L Lᵀ); Gauss's principle, valid for redundant rows as written.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..dynamics import bias_forces, forward_dynamics, gravity_torques, mass_matrix
from ..model.constraint_types import checked, forces_by_name, row_names
from .batch import batched
from .kinematics import (
    _drift,
    _Frames,
    _independent_rows,
    _jacobian,
    _residual,
    _state,
    partition,
)

CONSTRAINED_ALGORITHMS = ("kkt", "schur", "null_space", "udwadia_kalaba", "soa")


class ConstrainedAccelerations(NamedTuple):
    """What :func:`constrained_forward_dynamics` returns.

    Attributes
    ----------
    qdd : ndarray (nv,)
        The accelerations [rad/s², m/s²].
    force : ndarray (m,)
        λ, one per row: the force [N] or moment [N·m] frame A exerts on frame B at B's
        origin, in A's axes (a contact: the world on the robot).
    names : tuple of str
        ``"<constraint>.<axis>"`` of each entry of ``force``.
    redundant : tuple of str
        The rows that repeat others (:func:`.kinematics.constraint_rank`).
    """

    qdd: np.ndarray
    force: np.ndarray
    names: tuple
    redundant: tuple

    def forces(self) -> dict:
        """The constraint forces by row name.

        Returns
        -------
        dict
            {row name: λ}: a number, or for a batch λ of that row at each state (N,).
        """
        return forces_by_name(self.names, self.force)


@batched(3)
def constrained_forward_dynamics(
    model, q, qd, tau, *, constraints=None, algorithm: str = "kkt", stabilization=(0.0, 0.0)
) -> ConstrainedAccelerations:
    """q̈ and the constraint forces λ of a model under ``constraints`` (module docstring).

    Parameters
    ----------
    model : Model
    q : array_like (nq,) or (N, nq)
    qd, tau : array_like (nv,) or (N, nv)
    constraints : LoopClosure, Contact or a list of them, optional
        By default the model's own (:attr:`eslabon.Model.constraints`). ``q`` should
        satisfy them (:func:`assemble`), and ``qd`` their rates (J q̇ = 0): (1) holds the
        accelerations, not the positions.
    algorithm : {"kkt", "schur", "null_space", "udwadia_kalaba", "soa"}
    stabilization : (float, float)
        Baumgarte's (α, β) [1/s]: J q̈ = γ − 2α J q̇ − β² φ instead of γ, so that a
        drift off the constraints decays (:mod:`eslabon.sim.constrained`); (0, 0), the default, is
        the exact constraint. λ then includes the stabilizing share.

    Returns
    -------
    ConstrainedAccelerations
        ``qdd``, ``force`` (λ), ``names`` of its rows, ``redundant`` rows.

    Raises
    ------
    ValueError
        A bad state or constraint (naming the field); an unknown ``algorithm``; rows
        that contradict each other (J q̈ = γ has no solution: the constraints are
        inconsistent at this state).

    Examples
    --------
    A two-link arm with its tip pinned where it is cannot move, and the pin carries
    what gravity and the torques put on it:

    >>> import numpy as np, eslabon as es
    >>> from eslabon import constraints as ec
    >>> arm = es.zoo.load("planar2")
    >>> q = np.array([0.3, 0.6])
    >>> tip = es.kinematics.frame_pose(arm, q, "ee")[:3, 3]
    >>> pin = ec.Contact("pin", "ee", "planar_pin", position=tip)
    >>> out = ec.constrained_forward_dynamics(arm, q, [0.0, 0.0], [0.0, 0.0], constraints=pin)
    >>> bool(np.abs(out.qdd).max() < 1e-12), sorted(out.forces())
    (True, ['pin.x', 'pin.y'])
    """
    if algorithm not in CONSTRAINED_ALGORITHMS:
        raise ValueError(f"algorithm: expected one of {CONSTRAINED_ALGORITHMS}, got {algorithm!r}")
    rows = checked(model, constraints)
    q, qd = _state(model, q, qd)
    tau = np.asarray(tau, dtype=float)
    if tau.shape != (model.nv,) or not np.all(np.isfinite(tau)):
        raise ValueError(f"tau: expected {model.nv} finite numbers, got shape {tau.shape}")
    alpha, beta = stabilization_gains(stabilization)
    f = _Frames(model, q, qd)
    J, gamma = _jacobian(model, rows, q, f), _drift(rows, f)
    if alpha:
        gamma = gamma - 2.0 * alpha * (J @ qd)
    if beta:
        gamma = gamma - beta**2 * _residual(rows, f)
    names = row_names(rows)
    keep = _independent_rows(J)
    Jk, gk = J[keep], gamma[keep]
    M, b = mass_matrix(model, q), bias_forces(model, q, qd)
    L = np.linalg.cholesky(M)

    def solve_M(x):
        return np.linalg.solve(L.T, np.linalg.solve(L, x))

    rhs = tau - b
    if algorithm == "kkt":
        m, n = Jk.shape
        K = np.block([[M, -Jk.T], [Jk, np.zeros((m, m))]])
        qdd = np.linalg.solve(K, np.concatenate([rhs, gk]))[:n]
    elif algorithm in ("schur", "soa"):
        tree = "soa" if algorithm == "soa" else ("crba" if model.has_mimic else "aba")
        a = forward_dynamics(model, q, qd, tau, algorithm=tree)
        MJ = _unit_responses(model, q, Jk.T, tree)
        lam = np.linalg.solve(Jk @ MJ, gk - Jk @ a)
        qdd = a + MJ @ lam
    elif algorithm == "null_space":
        part = partition(model, q, constraints=constraints)
        N, dep = part.N, part.dependent
        qdd_p = np.zeros(model.nv)
        if len(keep):
            qdd_p[dep] = np.linalg.solve(Jk[:, dep], gk)
        z = np.linalg.solve(N.T @ M @ N, N.T @ (rhs - M @ qdd_p))
        qdd = N @ z + qdd_p
    else:
        a = solve_M(rhs)
        G = np.linalg.inv(L).T  # G Gᵀ = M⁻¹
        qdd = a + G @ (np.linalg.pinv(J @ G, rcond=1e-9) @ (gamma - J @ a))
    if np.max(np.abs(J @ qdd - gamma), initial=0.0) > 1e-8 * max(1.0, np.abs(gamma).max()):
        raise ValueError(
            "constraints: J q̈ = γ has no solution at this state (rows that contradict "
            "each other); check the constraints' frames and the state's rates"
        )
    lam = np.linalg.lstsq(J.T, M @ qdd - rhs, rcond=None)[0]
    redundant = tuple(n for i, n in enumerate(names) if i not in keep)
    return ConstrainedAccelerations(qdd, lam, names, redundant)


def _unit_responses(model, q, forces, algorithm: str) -> np.ndarray:
    """M⁻¹ F (nv, k) for generalized forces F (nv, k), by the tree's forward dynamics
    ``algorithm`` at rest with gravity held: FD(q, 0, g(q) + F e_j) = M⁻¹ F e_j (one
    batched call; at rest friction is zero)."""
    k = forces.shape[1]
    if k == 0:
        return np.zeros((model.nv, 0))
    Q = np.tile(q, (k, 1))
    tau = gravity_torques(model, q)[None, :] + forces.T
    return forward_dynamics(model, Q, np.zeros((k, model.nv)), tau, algorithm=algorithm).T


def stabilization_gains(stabilization) -> tuple:
    """Baumgarte's (α, β) ≥ 0 [1/s], checked; else a ValueError naming the field."""
    try:
        alpha, beta = (float(x) for x in stabilization)
    except (TypeError, ValueError):
        raise ValueError("stabilization: expected two numbers (α, β) [1/s]") from None
    if not (np.isfinite(alpha) and np.isfinite(beta) and alpha >= 0 and beta >= 0):
        raise ValueError(f"stabilization: expected (α, β) ≥ 0 and finite, got {stabilization}")
    return alpha, beta
