"""Constraints inside the chain in Jaramillo Botero (1998)'s operator and constraint-force
forms: the multipliers as spatial forces on the bodies.

The document allows "articulaciones con restricciones holonómicas y no-holonómicas"
("Dinámica de multicuerpos seriales rígidos") and writes external forces into step ➊
of its Macro Algoritmo as Hᵀ F_ext ((1.78), Figure 8); it gives no constrained form.
Here a constraint row r — holonomic (a loop closure, a contact, a locked or coupled
joint) or not (a wheel rolling without slip) — is a spatial direction Γ_{r,i} on each
body it touches, world axes at O_i, with

    A q̇ = Γᵀ V = Γᵀ φᵀ H q̇,   so   A = Γᵀ φᵀ H,   Aᵀ λ = Hᵀ φ (Γ λ)            (1)

(φ the path operator of :mod:`.operator_tree`): the joint-space multiplier force Aᵀ λ is
the body forces F_c = Γ λ carried to the joints by Hᵀ φ — the document's Hᵀ F_ext of
(1.78) with F_ext = F_c. The equations of motion

    M q̈ + ξ = τ + Aᵀ λ,   A q̈ = γ = −Ȧ q̇                                         (2)

are solved with the unconstrained q̈₀ and the responses M⁻¹ Aᵀ from the constraint-force
form (Figure 8 on the tree, :class:`.operator_tree.ConstraintForceSolver`) or from the
operator form's M = Hᵀ φ I φᵀ H (``method="operator"``, for bodies without an invertible
inertia), then (A M⁻¹ Aᵀ) λ = γ − A q̈₀ and q̈ = q̈₀ + M⁻¹ Aᵀ λ.

The directions (derived here from the rows of :mod:`.kinematics`):

* a translation row along u (frame A's axis, world axes) of a loop closure or contact
  at frame B's origin p_B: Γ_b = P̂(p_B − O_b) [0; u] on B's body, −P̂(p_B − O_a) [0; u]
  on A's — the force λ u at p_B on B and its reaction on A;
* a rotation row about u: Γ_b = [u; 0], Γ_a = −[u; 0], a pure moment pair;
* a rolling wheel's row along u (heading or axle): Γ_w = P̂(p_c − O_w) [0; u] with p_c
  the contact point radius·z below the wheel's centre — the ground's friction force
  (non-integrable: A(q) q̇ = 0 bounds the rates only);
* a joint coupling q̇_i − r q̇_j = 0 (r = 0 locks joint i): Γ = P H̄_i e − r P H̄_j e,
  each term the joint's force pair H̄_i on body i and −P̂_{λ,i} H̄_i on its parent
  (Hᵀ φ P H̄ = Hᵀ H̄ = 1); a constant row, so γ = 0.

γ of the frame rows comes from :func:`.kinematics.constraint_drift`. Per state; a batch
of N states runs state by state (:mod:`.batch`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..dynamics.soa import force_map
from ..model.constraint_types import checked, row_names
from ..spatial.spatial6 import translation_operator as translation
from . import operator_tree as ot
from .batch import batched
from .kinematics import _drift, _Frames, _independent_rows

__all__ = [
    "JointCoupling",
    "SpatialRows",
    "OperatorConstrained",
    "spatial_rows",
    "constrained_forward_dynamics",
]

_UP = np.array([0.0, 0.0, 1.0])


class JointCoupling(NamedTuple):
    """q̇_i = ratio · q̇_j (a gear or belt), or q̇_i = 0 (``coupled_to=None``: locked).

    Attributes
    ----------
    name : str
    rate : int
        i, the index in q̇ of the coupled (or locked) rate.
    coupled_to : int or None
        j, the driving rate's index; None locks rate i.
    ratio : float
    """

    name: str
    rate: int
    coupled_to: int | None = None
    ratio: float = 0.0


def _frame_row_directions(r, f, n):
    """Γ (k, n, 6) of one loop closure, contact or rolling wheel (module docstring)."""
    d_origins = f.T[1:, :3, 3]
    Rb, pb, body_b, _ = f.pose(r.frame_b)
    out = []
    if r.rolling is not None:
        radius, axis, alpha = r.rolling
        a = Rb @ axis
        if abs(a[2]) > 1e-9:
            raise ValueError(f"{r.name}: the wheel's spin axis is not horizontal here")
        e = np.cross(a, _UP)
        pc = pb - radius * _UP
        for u in [e + np.tan(alpha) * a] if alpha is not None else [e, a]:
            g = np.zeros((n, 6))
            if body_b > 0:
                g[body_b - 1] = translation(pc - d_origins[body_b - 1]) @ np.r_[0.0, 0.0, 0.0, u]
            out.append(g)
        return out
    if r.frame_a is None:
        Ra, body_a = r.pose_a[0], 0
    else:
        Ra, _, body_a, _ = f.pose(r.frame_a)
    for axis_index in np.flatnonzero(r.mask):
        u = Ra[:, axis_index % 3]
        unit = np.r_[np.zeros(3), u] if axis_index < 3 else np.r_[u, np.zeros(3)]
        g = np.zeros((n, 6))
        for body, sign in ((body_b, 1.0), (body_a, -1.0)):
            if body > 0:
                g[body - 1] += sign * translation(pb - d_origins[body - 1]) @ unit
        out.append(g)
    return out


def _coupling_directions(model, coupling, d, P):
    """Γ (n, 6) of a joint coupling: Σ_c c · P H̄ e for the rates it weighs."""
    n = len(d.parent)
    H_bar = np.zeros((6 * n, model.nv))
    for i in range(n):
        if d.dof[i] >= 0:
            H_bar[6 * i : 6 * i + 6, d.dof[i] : d.dof[i] + d.H[i].shape[1]] = force_map(d.H[i])
    weights = np.zeros(model.nv)
    for field, index in (("rate", coupling.rate), ("coupled_to", coupling.coupled_to)):
        if index is not None and not 0 <= int(index) < model.nv:
            raise ValueError(f"{coupling.name}.{field}: expected a rate index in [0, {model.nv})")
    weights[int(coupling.rate)] = 1.0
    if coupling.coupled_to is not None:
        weights[int(coupling.coupled_to)] -= float(coupling.ratio)
    return (P @ H_bar @ weights).reshape(n, 6)


class SpatialRows(NamedTuple):
    """The constraint rows at one state in spatial form.

    Attributes
    ----------
    directions : ndarray (m, n, 6)
        Γ_{r,i}: row r's spatial direction on body i, [moment; force] at O_i, world axes.
    A : ndarray (m, nv)
        Γᵀ φᵀ H, eq. (1).
    gamma : ndarray (m,)
        −Ȧ q̇.
    names : tuple of str
    """

    directions: np.ndarray
    A: np.ndarray
    gamma: np.ndarray
    names: tuple


@batched(2)
def spatial_rows(model, q, qd, *, constraints=None, couplings=()) -> SpatialRows:
    """Γ, A, γ of the model's constraint rows and the joint couplings at one state.

    Parameters
    ----------
    model : Model
    q : array_like (nq,)
    qd : array_like (nv,)
    constraints : LoopClosure, Contact, RollingWheel or a list, optional
        By default the model's own; ``()`` for none (couplings only).
    couplings : sequence of JointCoupling

    Returns
    -------
    SpatialRows

    Raises
    ------
    ValueError
        No rows at all; a bad constraint (naming it) or rate index.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon import constraints as ec
    >>> from eslabon.constraints import operator_constraints as oc
    >>> m = es.zoo.load("four_bar")
    >>> q = ec.assemble(m, [0.3, 1.2, 1.9], fixed=[0])
    >>> rows = oc.spatial_rows(m, q, np.zeros(3))
    >>> bool(np.allclose(rows.A, ec.constraint_jacobian(m, q), atol=1e-12))
    True
    """
    d = ot.tree_data(model, q, qd)
    P, phi = ot.path_operator(d)
    n = len(d.parent)
    q, qd = np.asarray(q, dtype=float), np.asarray(qd, dtype=float)
    G, gamma, names = [], [], []
    if not (isinstance(constraints, (list, tuple)) and len(constraints) == 0):
        if constraints is not None or model.constraints:
            rows = checked(model, constraints)
            f = _Frames(model, q, qd)
            for r in rows:
                G += _frame_row_directions(r, f, n)
            gamma.append(_drift(rows, f))
            names += list(row_names(rows))
    for c in couplings:
        G.append(_coupling_directions(model, c, d, P))
        gamma.append(np.zeros(1))
        names.append(c.name)
    if not G:
        raise ValueError("constraints: no rows (give constraints or couplings)")
    Gamma = np.array(G)
    H = np.zeros((6 * n, model.nv))
    for i in range(n):
        if d.dof[i] >= 0:
            H[6 * i : 6 * i + 6, d.dof[i] : d.dof[i] + d.H[i].shape[1]] = d.H[i]
    A = Gamma.reshape(len(G), 6 * n) @ phi.T @ H
    return SpatialRows(Gamma, A, np.concatenate(gamma), tuple(names))


class OperatorConstrained(NamedTuple):
    """What :func:`constrained_forward_dynamics` returns.

    Attributes
    ----------
    qdd : ndarray (nv,)
    multipliers : ndarray (m,)
        λ, minimum-norm (unique when the rows are independent).
    body_forces : ndarray (n, 6)
        F_c = Γ λ: the constraint forces on each body, [moment; force] at O_i, world axes.
    names : tuple of str
    """

    qdd: np.ndarray
    multipliers: np.ndarray
    body_forces: np.ndarray
    names: tuple


METHODS = ("constraint_force", "operator")


@batched(3)
def constrained_forward_dynamics(
    model, q, qd, tau, *, constraints=None, couplings=(), method: str = "constraint_force"
) -> OperatorConstrained:
    """q̈ and the multipliers as spatial body forces of (2) (module docstring).

    Parameters
    ----------
    model : Model
    q : array_like (nq,)
    qd, tau : array_like (nv,)
    constraints : LoopClosure, Contact, RollingWheel or a list, optional
        By default the model's own; ``()`` for none.
    couplings : sequence of JointCoupling
    method : {"constraint_force", "operator"}
        M⁻¹ by the Schur complement on the tree (needs invertible body inertias, no
        armature) or by a Cholesky factor of M = Hᵀ φ I φᵀ H.

    Returns
    -------
    OperatorConstrained

    Raises
    ------
    ValueError
        An unknown ``method``; what :func:`spatial_rows` and the chosen form refuse.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon import constraints as ec
    >>> from eslabon.constraints import operator_constraints as oc
    >>> m = es.zoo.load("four_bar")
    >>> q = ec.assemble(m, [0.3, 1.2, 1.9], fixed=[0])
    >>> out = oc.constrained_forward_dynamics(m, q, np.zeros(3), np.zeros(3))
    >>> ref = ec.constrained_forward_dynamics(m, q, np.zeros(3), np.zeros(3))
    >>> bool(np.allclose(out.qdd, ref.qdd, atol=1e-9))
    True
    """
    if method not in METHODS:
        raise ValueError(f"method: expected one of {METHODS}, got {method!r}")
    rows = spatial_rows(model, q, qd, constraints=constraints, couplings=couplings)
    tau = np.asarray(tau, dtype=float)
    if tau.shape != (model.nv,) or not np.all(np.isfinite(tau)):
        raise ValueError(f"tau: expected {model.nv} finite numbers, got shape {tau.shape}")
    xi = ot.inverse_dynamics(model, q, qd, np.zeros(model.nv)).tau
    if method == "constraint_force":
        if np.any(model.armature != 0.0):
            raise ValueError(
                "model: the constraint-force form has no armature; use method='operator'"
            )
        solve = ot.ConstraintForceSolver(model, q).solve
    else:
        L = np.linalg.cholesky(ot.operator_terms(model, q, np.zeros(model.nv))[0])

        def solve(x):
            return np.linalg.solve(L.T, np.linalg.solve(L, x))

    qdd0 = solve(tau - xi)
    keep = _independent_rows(rows.A)
    Ak = rows.A[keep]
    MinvAt = np.column_stack([solve(a) for a in Ak]) if keep else np.zeros((model.nv, 0))
    lam_k = np.linalg.solve(Ak @ MinvAt, rows.gamma[keep] - Ak @ qdd0) if keep else np.zeros(0)
    qdd = qdd0 + MinvAt @ lam_k
    # the residual against the problem's scale ‖A‖‖q̈‖ + ‖γ‖ (rows and rates in any units)
    scale = np.abs(rows.A).max(initial=0.0) * np.abs(qdd).max(initial=0.0)
    scale += np.abs(rows.gamma).max(initial=0.0)
    if np.max(np.abs(rows.A @ qdd - rows.gamma), initial=0.0) > 1e-8 * max(scale, 1e-300):
        raise ValueError("constraints: A q̈ = γ has no solution at this state (contradicting rows)")
    # the minimum-norm λ with the same Aᵀλ: rows dependent to 1e-9 share their force
    # instead of round-off deciding it. (lstsq's cut-off is on singular values, the rank
    # test's on Gram–Schmidt residuals: where they part, the kept rows' λ is used.)
    generalized = Ak.T @ lam_k
    lam = np.linalg.lstsq(rows.A.T, generalized, rcond=1e-9)[0]
    if np.abs(rows.A.T @ lam - generalized).max(initial=0.0) > 1e-8 * max(
        np.abs(generalized).max(initial=0.0), 1e-300
    ):
        lam = np.zeros(len(rows.A))
        lam[keep] = lam_k
    forces = np.einsum("rnk,r->nk", rows.directions, lam)
    return OperatorConstrained(qdd, lam, forces, rows.names)
