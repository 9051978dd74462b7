"""Jaramillo Botero (1998)'s spatial-operator and constraint-force forms on trees.

The document writes its operators for a serial chain ("Dinámica de multicuerpos seriales
rígidos", eqs (1.55)–(1.74); "El problema dinámico directo", (1.75)–(1.103)) and says the
extensions to "topologías de interconexión de mayor complejidad" follow from that
primitive model without giving them. They are derived here for a tree (each body's
parent λ(i) precedes it) in the document's notation: world axes, spatial vectors
[angular; linear], body i's origin O_i on its joint axis, P̂_{j,k} = P̂(O_k − O_j).

Operator form (the tree's version of (1.62)–(1.73)). P = 1 − Σ_i E_{λ(i),i} P̂_{λ(i),i}
(identity blocks on the diagonal, −P̂_{λ(i),i} in row λ(i), column i), and its inverse

    φ = P⁻¹,  φ_{j,k} = P̂_{j,k} when j is k or an ancestor of k, else 0,

the tree's path operator (P̂_{a,b} P̂_{b,c} = P̂_{a,c}). With Pᵀ V̇ = H q̈ + B and
P F = I V̇ + G as in (1.82)–(1.83), b_i of (1.58) taking the parent's velocity:

    V̇ = φᵀ (H q̈ + B),   F = φ (I V̇ + G),   τ = Hᵀ F                      (1.69)–(1.70)
    M = Hᵀ φ I φᵀ H,     ξ = Hᵀ φ (I φᵀ B + G)                             (1.71)–(1.72)

F_i is the spatial force body λ(i) exerts on body i through joint i, at O_i. By (1.88)
it splits into the joint's working part and its constraint force: F_i = H̄_i τ_i +
W_i F_S,i, with F_S,i = W_iᵀ F_i on the complement W_i of the joint map (1.89) and
H̄_i = H_i (H_iᵀ H_i)⁻¹ (:func:`eslabon.dynamics.soa.force_map`).

Constraint-force form (the tree's version of (1.90)–(1.103)). K = Pᵀ I⁻¹ P is no
longer block tridiagonal: its blocks are

    K_ii = I_i⁻¹ + P̂_{λ,i}ᵀ I_λ⁻¹ P̂_{λ,i},   K_{λ(i),i} = −I_λ⁻¹ P̂_{λ,i},
    K_jk = P̂_{λ,j}ᵀ I_λ⁻¹ P̂_{λ,k}  (j, k siblings, λ their parent),

so the graph of A = WᵀKW is the tree with each set of siblings joined pairwise. Block
elimination of A F_S = S from the leaves inward (bodies n, n − 1, …, 1) creates no new
block: when body k goes, its remaining neighbours are its parent and its siblings, which
are already joined. The work is O(Σ_i (1 + s_i)²) for s_i siblings — O(n) for bounded
branching — and q̈ = C F_T + Bᵀ F_S (1.100) with S = −B F_T (1.96), as for the chain.
External spatial forces on the bodies enter step ➊ as the document's F_ext of (1.78):
F_T = τ − ξ + Hᵀ φ F_ext. A body on a fixed joint transmits a whole spatial force (W = 1, no
H) and would need its own I⁻¹; it moves rigidly with its parent, so it is folded into it
first (its inertia moved to the parent's origin, exact), which also takes sensor frames
and massless links of real robots.

Reference formulations in numpy (Python loops over the bodies), per state (a batch of
N states, (N, nq) and (N, nv), runs state by state and stacks the results):
q (nq,), q̇, q̈, τ (nv,). The joints are those of :mod:`eslabon.dynamics.soa` (maps fixed
in their body: revolute, prismatic, helical, spherical, free flyer, fixed); the
constraint-force form also needs every body's 6×6 inertia invertible and no armature.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._args import require_finite
from .._engine.joint_types import NAMES, constant_subspace, subspace
from ..dynamics import soa
from ..dynamics.quantity import check_states
from ..kinematics.kinematic_pass import kinematic_pass
from ..spatial.rotations import skew
from ..spatial.spatial6 import translation_operator as translation
from .batch import batched
from .tree_blocks import (
    _apply_blocks,
    _fold_fixed_bodies,
    _inverse_inertias,
    _k_blocks,
    _project_blocks,
    eliminate_leaves_first,
)

__all__ = [
    "TreeData",
    "TreeOperators",
    "TreeWrenches",
    "OperatorTerms",
    "ConstraintForceSolver",
    "tree_data",
    "path_operator",
    "tree_operators",
    "operator_terms",
    "inverse_dynamics",
    "forward_dynamics",
]


class TreeData(NamedTuple):
    """Per-body quantities of one state, world axes, bodies 0..n−1 (eslabon's 1..n).

    Attributes
    ----------
    parent : ndarray (n,) of int
        λ(i) as a 0-based body index; −1 for a body on the ground.
    origins : ndarray (n, 3)
        O_i [m].
    H : list of ndarray (6, k_i)
        Joint maps, world axes (k_i = 0 for a fixed joint).
    inertia : ndarray (n, 6, 6)
        I_i about O_i (1.45).
    bias : ndarray (n, 6)
        b_i of (1.58) with the parent's velocity; [0; −g] added on bodies on the ground.
    gyroscopic : ndarray (n, 6)
        ℘_i (1.53).
    dof : ndarray (n,) of int
        Index of each joint's first rate in q̇ (−1 for a fixed joint).
    mass : ndarray (n,)
    com_offset : ndarray (n, 3)
        O_i → centre of mass [m].
    J_cm : ndarray (n, 3, 3)
        Centroidal inertia [kg·m²], world axes.
    velocity : ndarray (n, 6)
        V_i = [w_i; v(O_i)], world axes.
    """

    parent: np.ndarray
    origins: np.ndarray
    H: list
    inertia: np.ndarray
    bias: np.ndarray
    gyroscopic: np.ndarray
    dof: np.ndarray
    mass: np.ndarray
    com_offset: np.ndarray
    J_cm: np.ndarray
    velocity: np.ndarray


def require_tree_joints(model, what: str = "the spatial-operator form on trees") -> None:
    """Refuse a joint whose map is not fixed in its body, mimic joints and flexible
    links, naming the body and ``what``.

    Parameters
    ----------
    model : Model
    what : str
        Named in the message.

    Raises
    ------
    ValueError
        A universal or planar joint (its map turns with its own coordinates, which (1.58)
        does not take), a mimic joint, or a flexible link.
    """
    for i in range(1, model.nb + 1):
        if not constant_subspace(model.joint_type[i]):
            raise ValueError(
                f"model: {what} takes joints whose map H_i is fixed in their body; the "
                f"joint of body {model.body_names[i]!r} is {NAMES[int(model.joint_type[i])]}"
            )
    model.require_no_mimic(what)
    model.require_rigid_links(what)


def _check_state(model, q, **rates):
    """One state checked by the dynamics' state check (shapes, unit quaternions), rates
    given as None taken as zero, all finite; [q, *rates] as float arrays."""
    fields = {name: np.zeros(model.nv) if x is None else x for name, x in rates.items()}
    out, batch = check_states(model, q=q, **fields)
    if batch:
        raise ValueError(f"q: expected one state of {model.nq} numbers, got shape {out[0].shape}")
    out = [np.asarray(x, dtype=float) for x in out]
    require_finite("operator_tree", **dict(zip(("q", *rates), out, strict=True)))
    return out


def tree_data(model, q, qd) -> TreeData:
    """Kinematics and inertias of one state for the tree's operators (world axes).

    Parameters
    ----------
    model : Model
    q : array_like (nq,)
    qd : array_like (nv,)

    Returns
    -------
    TreeData

    Raises
    ------
    ValueError
        A joint the form does not take (:func:`require_tree_joints`) or a bad state.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon.constraints import operator_tree as ot
    >>> d = ot.tree_data(es.zoo.load("five_bar"), np.zeros(4), np.zeros(4))
    >>> d.parent.tolist()  # two branches from the ground
    [-1, -1, 0, 1]
    """
    require_tree_joints(model)
    q, qd = _check_state(model, q, qd=qd)
    motion = kinematic_pass(model, q, qd)
    n = model.nb
    parent = model.parent[1:] - 1
    O = np.array(motion.world_position[1:])
    Rw = motion.world_rotation[1:]
    w = (Rw @ motion.angular_velocity[1:, :, None])[..., 0]
    v = (Rw @ motion.linear_velocity[1:, :, None])[..., 0]
    H, inertia = [], np.zeros((n, 6, 6))
    bias, gyro = np.zeros((n, 6)), np.zeros((n, 6))
    S, J_cm = np.zeros((n, 3)), np.zeros((n, 3, 3))
    dof = model.v_index[1:].copy()
    for i in range(n):
        b = i + 1
        Sb = subspace(model.joint_type[b], model.axis[b], pitch=model.pitch[b])
        Hi = np.concatenate([Rw[i] @ Sb[:3], Rw[i] @ Sb[3:]])
        H.append(Hi)
        m = model.mass[b]
        s = S[i] = Rw[i] @ model.com[b]
        J_cm[i] = Rw[i] @ model.inertia[b] @ Rw[i].T
        J_O = J_cm[i] + m * (s @ s * np.eye(3) - np.outer(s, s))
        inertia[i] = np.block([[J_O, m * skew(s)], [-m * skew(s), m * np.eye(3)]])  # (1.45)
        gyro[i] = np.concatenate(
            [np.cross(w[i], J_O @ w[i]), m * np.cross(w[i], np.cross(w[i], s))]
        )  # (1.53)
        p = parent[i]
        w_p, v_p = (w[p], v[p]) if p >= 0 else (np.zeros(3), np.zeros(3))
        bias[i, 3:] = np.cross(w_p, v[i] - v_p)  # (1.58), the parent's velocity
        if Hi.shape[1]:
            hq = Hi @ qd[dof[i] : dof[i] + Hi.shape[1]]
            bias[i] += np.concatenate([np.cross(w[i], hq[:3]), np.cross(w[i], hq[3:])])
        if p < 0:
            bias[i, 3:] -= model.gravity  # V̇_0 = [0; −g]
    V = np.concatenate([w, v], axis=1)
    return TreeData(parent, O, H, inertia, bias, gyro, dof, model.mass[1:].copy(), S, J_cm, V)


class TreeOperators(NamedTuple):
    """The tree's global operators at one state, bodies stacked 1..n (6n rows).

    Attributes
    ----------
    P, phi : ndarray (6n, 6n)
        P and the path operator φ = P⁻¹.
    H : ndarray (6n, nv)
    I : ndarray (6n, 6n)
    B, G : ndarray (6n,)
    """

    P: np.ndarray
    phi: np.ndarray
    H: np.ndarray
    I: np.ndarray
    B: np.ndarray
    G: np.ndarray


def path_operator(d: TreeData) -> tuple:
    """(P, φ) (6n, 6n) of a tree: φ_{j,k} = P̂(O_k − O_j) for j = k or an ancestor of k.

    Parameters
    ----------
    d : TreeData

    Returns
    -------
    tuple of ndarray
        P = 1 − Σ E_{λ(i),i} P̂_{λ(i),i}, and φ built from the ancestry (not by
        inverting P; ``P @ phi`` is the identity).

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon.constraints import operator_tree as ot
    >>> d = ot.tree_data(es.zoo.load("five_bar"), np.zeros(4), np.zeros(4))
    >>> P, phi = ot.path_operator(d)
    >>> bool(np.allclose(P @ phi, np.eye(24))), bool(np.all(phi[:6, 6:12] == 0))
    (True, True)
    """
    n = len(d.parent)
    P, phi = np.eye(6 * n), np.zeros((6 * n, 6 * n))
    for k in range(n):
        p = d.parent[k]
        if p >= 0:
            P[6 * p : 6 * p + 6, 6 * k : 6 * k + 6] = -translation(d.origins[k] - d.origins[p])
        j = k
        while j >= 0:  # k itself, then its ancestors
            phi[6 * j : 6 * j + 6, 6 * k : 6 * k + 6] = translation(d.origins[k] - d.origins[j])
            j = d.parent[j]
    return P, phi


def tree_operators(model, q, qd) -> TreeOperators:
    """The tree's P, φ, H, I, B, G at (q (nq,), q̇ (nv,)) (module docstring).

    Parameters
    ----------
    model : Model
    q : array_like (nq,)
    qd : array_like (nv,)

    Returns
    -------
    TreeOperators

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon.constraints import operator_tree as ot
    >>> dog = es.zoo.load("quadruped")
    >>> q = es.random_configuration(dog, np.random.default_rng(0))
    >>> ops = ot.tree_operators(dog, q, np.zeros(dog.nv))
    >>> bool(np.allclose(ops.P @ ops.phi, np.eye(6 * dog.nb)))
    True
    """
    d = tree_data(model, q, qd)
    P, phi = path_operator(d)
    n = model.nb
    H, I = np.zeros((6 * n, model.nv)), np.zeros((6 * n, 6 * n))
    for i in range(n):
        if d.dof[i] >= 0:
            H[6 * i : 6 * i + 6, d.dof[i] : d.dof[i] + d.H[i].shape[1]] = d.H[i]
        I[6 * i : 6 * i + 6, 6 * i : 6 * i + 6] = d.inertia[i]
    return TreeOperators(P, phi, H, I, d.bias.ravel(), d.gyroscopic.ravel())


def _joint_terms(model, qd):
    bodies = model.dof_bodies
    return model.viscous[bodies] * qd + model.coulomb[bodies] * np.sign(qd), model.armature[bodies]


class OperatorTerms(NamedTuple):
    """What :func:`operator_terms` returns (it unpacks as ``M, xi``).

    Attributes
    ----------
    M : ndarray (nv, nv)
    xi : ndarray (nv,)
    """

    M: np.ndarray
    xi: np.ndarray


@batched(2)
def operator_terms(model, q, qd) -> OperatorTerms:
    """(M, ξ) of a tree by the dense products M = Hᵀ φ I φᵀ H and ξ = Hᵀ φ (I φᵀ B + G)
    ((1.71)–(1.72) with the tree's φ), with gravity, friction and armature as eslabon's
    other methods include them.

    Parameters
    ----------
    model : Model
    q : array_like (nq,)
    qd : array_like (nv,)

    Returns
    -------
    M : ndarray (nv, nv)
    xi : ndarray (nv,)

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon.constraints import operator_tree as ot
    >>> dog = es.zoo.load("quadruped")
    >>> q = es.random_configuration(dog, np.random.default_rng(1))
    >>> M, xi = ot.operator_terms(dog, q, np.zeros(dog.nv))
    >>> bool(np.allclose(M, es.mass_matrix(dog, q), atol=1e-12))
    True
    """
    ops = tree_operators(model, q, qd)
    phiT_H = ops.phi.T @ ops.H
    M = phiT_H.T @ ops.I @ phiT_H
    xi = phiT_H.T @ (ops.I @ ops.phi.T @ ops.B + ops.G)
    friction, armature = _joint_terms(model, np.asarray(qd, dtype=float))
    return OperatorTerms(M + np.diag(armature), xi + friction)


class TreeWrenches(NamedTuple):
    """What :func:`inverse_dynamics` returns.

    Attributes
    ----------
    tau : ndarray (nv,)
        Joint forces [N·m, N].
    joint_force : ndarray (n, 6)
        F_i, the spatial force body λ(i) (or the ground) exerts on body i through joint
        i, [moment about O_i; force], world axes.
    constraint_force : ndarray (Σ_i (6 − k_i),)
        F_S,i = W_iᵀ F_i, each joint force's part on the complement W_i of its joint map
        (1.88)–(1.89), body after body: body i's 6 − k_i rows follow those of bodies
        before it (k_i its joint's degrees of freedom).
    acceleration : ndarray (n, 6)
        V̇_i (gravity folded in as the base's acceleration [0; −g]).
    """

    tau: np.ndarray
    joint_force: np.ndarray
    constraint_force: np.ndarray
    acceleration: np.ndarray


@batched(3)
def inverse_dynamics(model, q, qd, qdd, body_forces=None) -> TreeWrenches:
    """τ and every joint's spatial force on a tree by the recursion of (1.81)–(1.83):
    V̇_i = P̂_{λ,i}ᵀ V̇_λ + H_i q̈_i + b_i outward, F_i = Σ_c P̂_{i,c} F_c + I_i V̇_i + ℘_i −
    F_ext,i inward (children c), τ_i = H_iᵀ F_i; the split F_i = H̄_i τ_i + W_i F_S,i.

    Parameters
    ----------
    model : Model
    q : array_like (nq,)
    qd, qdd : array_like (nv,)
    body_forces : array_like (n, 6), optional
        F_ext: spatial forces the environment applies on the bodies, at O_i, world axes.

    Returns
    -------
    TreeWrenches
        With friction and armature in ``tau`` as eslabon's Newton–Euler has them.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon.constraints import operator_tree as ot
    >>> dog = es.zoo.load("quadruped")
    >>> q, v = es.random_configuration(dog, np.random.default_rng(0)), np.full(dog.nv, 0.1)
    >>> out = ot.inverse_dynamics(dog, q, v, v)
    >>> bool(np.allclose(out.tau, es.inverse_dynamics(dog, q, v, v), atol=1e-10))
    True
    """
    d = tree_data(model, q, qd)
    (qdd,) = _check_state(model, q, qdd=qdd)[1:]
    n = model.nb
    ext = np.zeros((n, 6)) if body_forces is None else np.asarray(body_forces, dtype=float)
    if ext.shape != (n, 6) or not np.all(np.isfinite(ext)):
        raise ValueError(f"body_forces: expected ({n}, 6) finite numbers, got {ext.shape}")
    acc = np.zeros((n, 6))
    for i in range(n):
        p = d.parent[i]
        a = d.bias[i].copy()
        if p >= 0:
            a += translation(d.origins[i] - d.origins[p]).T @ acc[p]
        if d.dof[i] >= 0:
            a += d.H[i] @ qdd[d.dof[i] : d.dof[i] + d.H[i].shape[1]]
        acc[i] = a
    F = np.einsum("nij,nj->ni", d.inertia, acc) + d.gyroscopic - ext
    for i in range(n - 1, -1, -1):  # children follow their parent
        p = d.parent[i]
        if p >= 0:
            F[p] += translation(d.origins[i] - d.origins[p]) @ F[i]
    tau = np.zeros(model.nv)
    FS = [np.zeros(0)]
    for i in range(n):
        if d.dof[i] >= 0:
            tau[d.dof[i] : d.dof[i] + d.H[i].shape[1]] = d.H[i].T @ F[i]
        FS.append(soa.complement(d.H[i]).T @ F[i])
    friction, armature = _joint_terms(model, np.asarray(qd, dtype=float))
    return TreeWrenches(tau + friction + armature * qdd, F, np.concatenate(FS), acc)


@batched(3)
def forward_dynamics(model, q, qd, tau, body_forces=None) -> np.ndarray:
    """q̈ (nv,) of a tree by the constraint-force form (Figure 8 on the tree's K).

    ➊ F_T = τ − ξ + Hᵀ φ F_ext (ξ by :func:`inverse_dynamics` at q̈ = 0); ➋ q̈₁ = C F_T;
    ➌ S = −B F_T; ➍ F_S = A⁻¹ S by :func:`.tree_blocks.eliminate_leaves_first`; ➎ q̈₂ = +Bᵀ F_S (the
    sign of (1.100); Figure 8 prints −); ➏ q̈ = q̈₁ + q̈₂.

    Parameters
    ----------
    model : Model
    q : array_like (nq,)
    qd, tau : array_like (nv,)
    body_forces : array_like (n, 6), optional
        F_ext on the bodies at O_i, world axes.

    Returns
    -------
    ndarray (nv,)

    Raises
    ------
    ValueError
        Armature (not in the document's model), a body with a singular inertia, or a
        joint the form does not take.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon.constraints import operator_tree as ot
    >>> dog = es.zoo.load("quadruped")
    >>> q, v = es.random_configuration(dog, np.random.default_rng(0)), np.full(dog.nv, 0.1)
    >>> qdd = ot.forward_dynamics(dog, q, v, np.zeros(dog.nv))
    >>> bool(np.allclose(qdd, es.forward_dynamics(dog, q, v, np.zeros(dog.nv)), atol=1e-9))
    True
    """
    if np.any(model.armature != 0.0):
        raise ValueError(
            "model: the constraint-force form has no rotor inertia (armature); use "
            "operator_terms for this model"
        )
    (tau,) = _check_state(model, q, tau=tau)[1:]
    xi = inverse_dynamics(model, q, qd, np.zeros(model.nv), body_forces).tau
    solver = ConstraintForceSolver(model, q)
    return solver.solve(tau - xi)


class ConstraintForceSolver:
    """M⁻¹ by the Schur complement (1.102) on a tree at one configuration: the blocks
    of K, A, B, C once, then :meth:`solve` for any generalized force (steps ➋–➏).

    Bodies on fixed joints are first folded into their parents
    (:func:`.tree_blocks.fold_fixed_bodies`): a fixed joint transmits a whole spatial
    force (W = 1, no H), so such a body adds six constraint rows and needs its own I⁻¹,
    which a sensor frame or a massless link does not have; folded, it adds neither. The
    constraint forces F_S of :meth:`solve` are then those of the moving joints.

    Parameters
    ----------
    model : Model
    q : array_like (nq,)
    """

    def __init__(self, model, q):
        d, names = _fold_fixed_bodies(tree_data(model, q, np.zeros(model.nv)), model.body_names[1:])
        self.model, self.data = model, d
        K = _k_blocks(d, _inverse_inertias(d, names))
        self.W = [soa.complement(Hi) for Hi in d.H]
        self.Hbar = [soa.force_map(Hi) for Hi in d.H]
        self.A = _project_blocks(K, self.W, self.W)
        self.B = _project_blocks(K, self.W, self.Hbar)
        self.Bt = _project_blocks(K, self.Hbar, self.W)
        self.C = _project_blocks(K, self.Hbar, self.Hbar)
        self.fill = 0

    def solve(self, force) -> np.ndarray:
        """q̈ = (C − BᵀA⁻¹B) F_T for a generalized force F_T, steps ➋–➏.

        Parameters
        ----------
        force : ndarray (nv,)
            F_T [N·m, N].

        Returns
        -------
        ndarray (nv,)
            M⁻¹ F_T.
        """
        d, n = self.data, len(self.data.parent)
        FT = [force[d.dof[i] : d.dof[i] + d.H[i].shape[1]] for i in range(n)]
        k = [Hi.shape[1] for Hi in d.H]
        qdd1 = _apply_blocks(self.C, FT, k)  # ➋
        S = [-x for x in _apply_blocks(self.B, FT, [6 - x for x in k])]  # ➌
        sol = eliminate_leaves_first(self.A, S)  # ➍
        self.fill = sol.fill
        qdd2 = _apply_blocks(self.Bt, sol.x, k)  # ➎ (+)
        out = np.zeros(self.model.nv)
        for i in range(n):
            if d.dof[i] >= 0:
                out[d.dof[i] : d.dof[i] + k[i]] = qdd1[i] + qdd2[i]  # ➏
        return out
