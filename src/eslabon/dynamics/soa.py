"""Spatial operator algebra of seeds 002/004 (Jaramillo Botero 1998): the global operator
form of a serial chain and the constraint-force forward dynamics of its "Macro Algoritmo".

Notation of the document (Figures 6–8, eqs (1.55)–(1.103)), all in
world axes, spatial vectors [angular; linear], bodies stacked base first (1..n, the
document prints its global matrices tip first; the choice only transposes the layout):
O_i is the origin of body i (on its joint axis), p_{i,i+1} = O_{i+1} − O_i,
P̂_{i,i+1} = [[1, p̃], [0, 1]], H_i the joint map, 6 × n_dof as the document writes it
(world axes: [e; 0] revolute, [0; e] prismatic, [e; h e] helical, [R_i; 0] spherical,
[[0, R_i], [R_i, 0]] free flyer with its rates (v, ω) in body axes, none for a fixed
joint), I_i the 6×6 inertia about O_i (1.45), ℘_i = [w̃ J_O w; m w̃ w̃ s] (1.53),
b_i = [0; w_{i−1} × (v_i − v_{i−1})] + diag(w̃_i, w̃_i) H_i q̇_i (1.58).

(1.58) takes H_i fixed in body i (Ḣ_i = diag(w̃_i, w̃_i) H_i): every joint above. A
universal or planar joint, whose map turns with its own coordinates, is refused naming
the joint; so is a mimic joint (no coordinate of its own). A free-flying base (seed 002
§1.4, the free-flying systems of eqs (1.86)–(1.88)) is body 1 with a 6-column H_1; its
W_1 is empty.

Global form (1.62)–(1.73): Pᵀ V̇ = H q̈ + B, P F = I V̇ + G, F_T = Hᵀ F, with P block
bidiagonal (identity diagonal, −P̂_{i,i+1} beside it) and ρ = P⁻¹ (blocks P̂_{j,k}, j ≤ k):

    M = Hᵀ ρ I ρᵀ H                  (1.71)
    ξ = Hᵀ ρ (I ρᵀ B + G)            (1.72), with gravity: b_1 += [0; −g]  (the document
                                      leaves gravity out; the base-acceleration trick adds it)

Expanding (1.71) gives the composite-body form (derived here; the document gives only
(1.71)): Ic_n = I_n,
Ic_k = I_k + P̂_{k,k+1} Ic_{k+1} P̂ᵀ_{k,k+1}, M_jk = H_jᵀ P̂_{j,k} Ic_k H_k (j ≤ k).

Forward dynamics by constraint forces (1.88)–(1.103): the joint force splits as
F = H F_T + W F_S with W the orthonormal complement of H (1.89), and with
K = Pᵀ I⁻¹ P (block tridiagonal), A = Wᵀ K W, B = Wᵀ K H, C = Hᵀ K H:

    M⁻¹ = C − Bᵀ A⁻¹ B               (1.102), a Schur complement

run as the Macro Algoritmo (Figure 8) in O(n): ➊ F_T = τ − ξ; ➋ q̈₁ = C F_T; ➌ S = −B F_T;
➍ F_S = A⁻¹ S (block-tridiagonal Cholesky); ➎ q̈₂ = **+**Bᵀ F_S; ➏ q̈ = q̈₁ + q̈₂.

(1.89) splits the force with F_T = Hᵀ F, which needs orthonormal columns in H: true of
every joint above but the helical one, whose [e; h e] has norm √(1 + h²). In general the
split is F = H̄ F_T + W F_S with H̄ = H (HᵀH)⁻¹ (still F_T = Hᵀ F, and WᵀH̄ = 0), and B
and C take H̄ in place of H: B = Wᵀ K H̄, C = H̄ᵀ K H̄ (derived here; H̄ = H for the
document's joints).

Corrections to the document (each checked numerically): step ➎ is printed −Bᵀ F_S, which gives
(C + BᵀA⁻¹B) F_T, not M⁻¹F_T — the sign follows from (1.100); the last force term of
(1.60)/Figure 7 is printed −I Ŝ̇ᵀ V and must be +I Ŝ̇ᵀ V, i.e. ℘ of (1.53) (the author's
own note says "REVISAR SIGNO"); the blocks of ρ are printed with reversed subscripts.

Requirement: every I_i must be invertible (K uses I_i⁻¹), which fails for a body whose
centroidal inertia is singular — a thin rod with no inertia about its own axis, or a
massless link. Such a body raises a ValueError naming it, unless ``regularization`` ε > 0
is given (rods only): then ε·(1 + trace J_cm) is added to the diagonal of the singular
centroidal inertia. That changes q̈ by O(ε) and amplifies rounding by O(1/ε): ε ≈ 1e-7
gives about 1e-9 relative on the Cincinnati T3 (whose link 1 is such a rod). I_i⁻¹ itself
is formed from the centroidal inertia, P̂(−s)ᵀ diag(J_cm⁻¹, 1/m) P̂(−s), which is exact
and much better conditioned than inverting the 6×6 I_i. Rotor inertia (armature) is not
part of the document's model and is refused by the constraint-force path (it is included
in M and ξ here).

Reference formulation in numpy (a Python loop over bodies, O(n) work per state); serial
chains only. States: q (nq,), rates and torques (nv,) (:mod:`eslabon.model.configuration`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._args import explain_nonfinite, require_finite, vectors
from .._engine.joint_types import NAMES, constant_subspace, nv_of, subspace
from ..kinematics.kinematic_pass import kinematic_pass
from ..model.configuration import check_configuration
from ..spatial.rotations import skew
from ..spatial.spatial6 import translation_operator as translation


class ChainData(NamedTuple):
    """Per-body quantities of one state, world axes (n bodies of the chain, base first):
    origins O (n, 3), joint maps H (list of (6, k_i) arrays), inertias I about O (n, 6, 6),
    bias accelerations b (n, 6) with gravity in b_1, gyroscopic forces ℘ (n, 6), dof (n,)
    the index of each joint's first rate in v (−1 for fixed; its rates are
    v[dof : dof + k_i]); mass (n,), com_offset s (n, 3) from O_i to the centre of mass and
    J_cm (n, 3, 3) the centroidal inertia, world axes."""

    origins: np.ndarray
    H: list
    inertia: np.ndarray
    bias: np.ndarray
    gyroscopic: np.ndarray
    dof: np.ndarray
    mass: np.ndarray
    com_offset: np.ndarray
    J_cm: np.ndarray


def require_joints(model, what: str = "the spatial-operator form (seeds 002/004)") -> None:
    """Refuse, naming the joint and ``what``, a model with a joint this module does not
    take (universal, planar, mimic), or that is not a serial chain."""
    for i in range(1, model.nb + 1):
        if not constant_subspace(model.joint_type[i]):  # (1.58) takes H_i fixed in body i
            raise ValueError(
                f"model: {what} takes joints whose map H_i is fixed in their body "
                f"(revolute, prismatic, helical, spherical, free flyer, fixed); the joint of "
                f"body {model.body_names[i]!r} is {NAMES[int(model.joint_type[i])]}"
            )
    model.require_no_mimic(what)
    _check_chain(model)


def _states(model, **fields):
    """q of nq entries (unit quaternions), the others nv; and whether a batch."""
    values, batched = vectors(model.nv, nq=model.nq, **fields)
    if model.nq != model.nv:
        check_configuration(model, values[0])
    return values, batched


def _check_chain(model):
    if np.any(model.parent[1:] != np.arange(model.nb)):
        raise ValueError(
            "model: the spatial-operator form here is for serial chains "
            "(each body's parent is the previous body)"
        )
    model.require_rigid_links("the spatial-operator form")


def chain_data(model, q, qd) -> ChainData:
    """Kinematics and inertias of one state (q (nq,), qd (nv,)) for the operators."""
    require_joints(model)
    require_finite("chain_data", q=q, qd=qd)
    motion = kinematic_pass(model, q, qd)
    nb = model.nb
    O = motion.world_position[1:]
    Rw = motion.world_rotation[1:]
    w = (Rw @ motion.angular_velocity[1:, :, None])[..., 0]  # world axes
    v = (Rw @ motion.linear_velocity[1:, :, None])[..., 0]
    H, inertia = [], np.zeros((nb, 6, 6))
    bias, gyro = np.zeros((nb, 6)), np.zeros((nb, 6))
    dof = model.v_index[1:].copy()
    S, J_cm = np.zeros((nb, 3)), np.zeros((nb, 3, 3))
    for i in range(nb):
        b = i + 1
        Sb = subspace(model.joint_type[b], model.axis[b], pitch=model.pitch[b])  # body axes
        Hi = np.concatenate([Rw[i] @ Sb[:3], Rw[i] @ Sb[3:]])  # world axes
        H.append(Hi)
        m = model.mass[b]
        s = S[i] = Rw[i] @ model.com[b]  # O_i -> centre of mass
        J_cm[i] = Rw[i] @ model.inertia[b] @ Rw[i].T
        J_O = J_cm[i] + m * (s @ s * np.eye(3) - np.outer(s, s))
        inertia[i] = np.block([[J_O, m * skew(s)], [-m * skew(s), m * np.eye(3)]])  # (1.45)
        gyro[i] = np.concatenate(
            [np.cross(w[i], J_O @ w[i]), m * np.cross(w[i], np.cross(w[i], s))]
        )  # (1.53)
        w_prev = w[i - 1] if i else np.zeros(3)
        v_prev = v[i - 1] if i else np.zeros(3)
        bias[i, 3:] = np.cross(w_prev, v[i] - v_prev)  # (1.58)
        if Hi.shape[1]:
            hq = Hi @ qd[dof[i] : dof[i] + Hi.shape[1]]
            bias[i] += np.concatenate([np.cross(w[i], hq[:3]), np.cross(w[i], hq[3:])])
    bias[0, 3:] -= model.gravity  # V̇_0 = [0; −g]: gravity (not in the doc)
    return ChainData(O, H, inertia, bias, gyro, dof, model.mass[1:].copy(), S, J_cm)


class GlobalOperators(NamedTuple):
    """(1.62)–(1.72) for one state: P and ρ = P⁻¹ (6n, 6n), H (6n, nv), I (6n, 6n),
    B and G (6n,), stacked base first."""

    P: np.ndarray
    rho: np.ndarray
    H: np.ndarray
    I: np.ndarray
    B: np.ndarray
    G: np.ndarray


LAYOUTS = ("base_first", "tip_first")


def global_operators(model, q, qd, layout: str = "base_first") -> GlobalOperators:
    """The document's global operators at (q (nq,), qd (nv,)).

    ``layout="tip_first"`` stacks bodies n, n − 1, …, 1 and their rates likewise, as the
    document prints (1.62)–(1.69): P is then block lower-bidiagonal, −P̂_{i,i+1} below
    the identity diagonal. The products (1.71)–(1.72) are the same matrices with rows and
    columns in reverse joint order. ``"base_first"`` (default) stacks 1..n."""
    if layout not in LAYOUTS:
        raise ValueError(f"layout: expected one of {LAYOUTS}, got {layout!r}")
    ops = _base_first_operators(model, q, qd)
    if layout == "base_first":
        return ops
    n = model.nb
    rows = np.concatenate([np.arange(6 * i, 6 * i + 6) for i in range(n - 1, -1, -1)])
    d_dof = model.v_index[1:]
    cols = np.concatenate(
        [
            np.arange(d_dof[i], d_dof[i] + nv_of(model.joint_type[i + 1]))
            for i in range(n - 1, -1, -1)
            if d_dof[i] >= 0
        ]
        or [np.zeros(0, dtype=int)]
    )
    return GlobalOperators(
        ops.P[np.ix_(rows, rows)],
        ops.rho[np.ix_(rows, rows)],
        ops.H[np.ix_(rows, cols)],
        ops.I[np.ix_(rows, rows)],
        ops.B[rows],
        ops.G[rows],
    )


def _base_first_operators(model, q, qd) -> GlobalOperators:
    d = chain_data(model, q, qd)
    n = model.nb
    P = np.eye(6 * n)
    H = np.zeros((6 * n, model.nv))
    I = np.zeros((6 * n, 6 * n))
    for i in range(n):
        blk = slice(6 * i, 6 * i + 6)
        if i + 1 < n:
            P[blk, 6 * i + 6 : 6 * i + 12] = -translation(d.origins[i + 1] - d.origins[i])
        if d.dof[i] >= 0:
            H[blk, d.dof[i] : d.dof[i] + d.H[i].shape[1]] = d.H[i]
        I[blk, blk] = d.inertia[i]
    return GlobalOperators(P, np.linalg.inv(P), H, I, d.bias.ravel(), d.gyroscopic.ravel())


def _joint_terms(model, qd):
    """Friction torques and armature of each joint, as Newton–Euler adds them."""
    bodies = model.dof_bodies
    return (
        model.viscous[bodies] * qd + model.coulomb[bodies] * np.sign(qd),
        model.armature[bodies],
    )


def operator_terms(model, q, qd):
    """(M, ξ) at one state by the dense operator products (1.71)–(1.72), with gravity,
    friction and rotor inertia as the other methods include them."""
    require_joints(model)
    (q, qd), batched = _states(model, q=q, qd=qd)
    if batched:
        pairs = [operator_terms(model, a, b) for a, b in zip(q, qd, strict=True)]
        return np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])
    ops = global_operators(model, q, qd)
    rH = ops.rho.T @ ops.H  # ρᵀ H; its transpose is Hᵀ ρ
    M = rH.T @ ops.I @ rH  # (1.71)
    xi = rH.T @ (ops.I @ ops.rho.T @ ops.B + ops.G)  # (1.72)
    friction, armature = _joint_terms(model, qd)
    return M + np.diag(armature), xi + friction


def composite_mass_matrix(model, q):
    """M(q) by the composite-body expansion of (1.71) (above), (nv, nv) or (N, nv, nv):
    block M_jk = H_jᵀ P̂_{j,k} Ic_k H_k (k_j × k_k) for joints j ≤ k."""
    require_joints(model)
    (q,), batched = _states(model, q=q)
    if batched:
        return np.array([composite_mass_matrix(model, x) for x in q])
    d = chain_data(model, q, np.zeros(model.nv))
    n = model.nb
    M = np.diag(_joint_terms(model, np.zeros(model.nv))[1])
    Ic = [None] * n
    for k in range(n - 1, -1, -1):  # Ic_k = I_k + P̂ Ic_{k+1} P̂ᵀ
        Ic[k] = d.inertia[k].copy()
        if k + 1 < n:
            X = translation(d.origins[k + 1] - d.origins[k])
            Ic[k] += X @ Ic[k + 1] @ X.T
    rates = [slice(d.dof[i], d.dof[i] + d.H[i].shape[1]) for i in range(n)]
    for k in range(n):
        if d.dof[k] < 0:
            continue
        f = Ic[k] @ d.H[k]  # M_jk = H_jᵀ P̂_{j,k} Ic_k H_k
        for j in range(k, -1, -1):
            if j < k:
                f = translation(d.origins[j + 1] - d.origins[j]) @ f
            if d.dof[j] < 0:
                continue
            block = d.H[j].T @ f
            if j == k:
                M[rates[k], rates[k]] += block
            else:
                M[rates[j], rates[k]] = block
                M[rates[k], rates[j]] = block.T
    return M


def force_map(Hi):
    """H̄_i = H_i (H_iᵀ H_i)⁻¹, the map of the joint's own force F_T in the split of
    (1.89): H_i itself when its columns are orthonormal (every joint but the helical)."""
    if Hi.shape[1] == 0:
        return Hi
    return Hi @ np.linalg.inv(Hi.T @ Hi)


def complement(Hi):
    """W_i (6, 6 − k): an orthonormal basis of the complement of the joint map (1.89)."""
    if Hi.shape[1] == 0:
        return np.eye(6)
    u, _, _ = np.linalg.svd(Hi, full_matrices=True)
    return u[:, Hi.shape[1] :]


def _inverse_inertias(d, regularization, model):
    """I_i⁻¹ = P̂(−s)ᵀ diag(J_cm⁻¹, 1/m) P̂(−s), from the centroidal inertia (exact, and
    far better conditioned than inverting the 6×6 I_i about O_i)."""
    out = np.empty_like(d.inertia)
    for i in range(len(d.inertia)):
        J, m = d.J_cm[i], d.mass[i]
        ev = np.linalg.eigvalsh(J)
        if m <= 0.0 or ev[0] <= 1e-12 * max(1.0, ev[-1]):
            if not regularization or m <= 0.0:
                raise ValueError(
                    f"model: body {i + 1} ({model.body_names[i + 1]}) has a singular 6×6 "
                    f"inertia (mass {m:.3g}, smallest centroidal moment {ev[0]:.3g}; e.g. a "
                    f"thin rod with no inertia about its own axis): the constraint-force "
                    f"method needs I⁻¹. "
                    + (
                        "Give the body mass or use algorithm='aba'"
                        if m <= 0.0
                        else "Pass regularization=ε (e.g. 1e-7) or use algorithm='aba'"
                    )
                )
            J = J + regularization * (1.0 + np.trace(J)) * np.eye(3)
        inv_cm = np.zeros((6, 6))
        inv_cm[:3, :3] = np.linalg.inv(J)
        inv_cm[3:, 3:] = np.eye(3) / m
        X = translation(-d.com_offset[i])
        out[i] = X.T @ inv_cm @ X
    return out


class SchurBlocks(NamedTuple):
    """K = PᵀI⁻¹P and its blocks A = WᵀKW, B = WᵀKH̄, C = H̄ᵀKH̄ (1.93)–(1.100), dense,
    for checking the O(n) path. W (6n, Σ(6 − k_i)); H̄ = H but for helical joints
    (:func:`force_map`)."""

    K: np.ndarray
    W: np.ndarray
    A: np.ndarray
    B: np.ndarray
    C: np.ndarray


def schur_blocks(model, q, *, regularization: float = 0.0) -> SchurBlocks:
    """The dense operators of the constraint-force decomposition at q (one state)."""
    require_joints(model)
    (q,), _ = _states(model, q=q)
    ops = global_operators(model, q, np.zeros(model.nv))
    d = chain_data(model, q, np.zeros(model.nv))
    I_inv = _inverse_inertias(d, regularization, model)
    n = model.nb
    Iinv = np.zeros((6 * n, 6 * n))
    Ws = [complement(Hi) for Hi in d.H]
    W = np.zeros((6 * n, sum(x.shape[1] for x in Ws)))
    col = 0
    for i in range(n):
        Iinv[6 * i : 6 * i + 6, 6 * i : 6 * i + 6] = I_inv[i]
        W[6 * i : 6 * i + 6, col : col + Ws[i].shape[1]] = Ws[i]
        col += Ws[i].shape[1]
    K = ops.P.T @ Iinv @ ops.P
    Hbar = np.zeros_like(ops.H)
    for i in range(n):
        if d.dof[i] >= 0:
            k = d.H[i].shape[1]
            Hbar[6 * i : 6 * i + 6, d.dof[i] : d.dof[i] + k] = force_map(d.H[i])
    return SchurBlocks(K, W, W.T @ K @ W, W.T @ K @ Hbar, Hbar.T @ K @ Hbar)


def _tridiagonal_K(d, I_inv):
    """Diagonal K_ii and upper K_{i,i+1} blocks of K = PᵀI⁻¹P ((1.93)–(1.100)), for the
    O(n) realisation of Figure 8."""
    n = len(I_inv)
    X = [translation(d.origins[i + 1] - d.origins[i]) for i in range(n - 1)]
    diag = [I_inv[i] + (X[i - 1].T @ I_inv[i - 1] @ X[i - 1] if i else 0.0) for i in range(n)]
    upper = [-I_inv[i] @ X[i] for i in range(n - 1)]
    return diag, upper


def _apply(diag, upper, left, right, x):
    """(Lᵀ K R) x for block-diagonal maps L = diag(left_i), R = diag(right_i)."""
    n = len(diag)
    y = [right[i] @ x[i] for i in range(n)]
    out = []
    for i in range(n):
        u = diag[i] @ y[i]
        if i + 1 < n:
            u = u + upper[i] @ y[i + 1]
        if i:
            u = u + upper[i - 1].T @ y[i - 1]
        out.append(left[i].T @ u)
    return out


def _block_cholesky_solve(diag, upper, S):
    """Solve the SPD block-tridiagonal system A x = S (block Thomas / LDLᵀ, step ➍)."""
    n = len(diag)
    D, L = [diag[0]], [None]
    for i in range(1, n):
        L.append(np.linalg.solve(D[i - 1], upper[i - 1]).T)  # A_{i,i−1} D_{i−1}⁻¹
        D.append(diag[i] - L[i] @ upper[i - 1])
    z = [S[0]]
    for i in range(1, n):
        z.append(S[i] - L[i] @ z[i - 1])
    x: list[np.ndarray | None] = [None] * n
    x[-1] = np.linalg.solve(D[-1], z[-1])
    for i in range(n - 2, -1, -1):
        x[i] = np.linalg.solve(D[i], z[i] - upper[i] @ x[i + 1])
    return x


def step_one_bias(model, q, qd):
    """ξ = NE(q, q̇, 0), the velocity-product, gravity and friction forces of step ➊, by
    the compiled Newton–Euler kernel (one state, checked finite inputs)."""
    from .._engine.joints import extended_of
    from .drivers import rnea_one

    out = np.empty(model.nv)
    P = model.packed
    rnea_one(P, q, qd, np.zeros(model.nv), 1.0, None, out, extended_of(P))
    return out


def forward_dynamics(model, q, qd, tau, *, regularization: float = 0.0):
    """q̈ (nv,) by the constraint-force Macro Algoritmo (Figure 8, step ➎ corrected), O(n);
    q (nq,), qd and tau (nv,), or batches."""
    require_joints(model)
    (q, qd, tau), batched = _states(model, q=q, qd=qd, tau=tau)
    if batched:
        return np.array(
            [
                forward_dynamics(model, a, b, c, regularization=regularization)
                for a, b, c in zip(q, qd, tau, strict=True)
            ]
        )
    require_finite("forward_dynamics", q=q, qd=qd, tau=tau)
    if np.any(model.armature != 0.0):
        raise ValueError(
            "model: the constraint-force method has no rotor inertia (armature); "
            "use algorithm='aba' for this model"
        )
    bias = step_one_bias(model, q, qd)  # ξ = NE(q, q̇, 0)
    if not np.isfinite(bias).all():
        explain_nonfinite("forward_dynamics", q=q, qd=qd, tau=tau)
    d = chain_data(model, q, qd)
    I_inv = _inverse_inertias(d, regularization, model)
    diag, upper = _tridiagonal_K(d, I_inv)
    W = [complement(Hi) for Hi in d.H]
    Hbar = [force_map(Hi) for Hi in d.H]
    net = tau - bias  # ➊ F_T = τ − ξ
    FT = [net[d.dof[i] : d.dof[i] + d.H[i].shape[1]] for i in range(model.nb)]
    qdd1 = _apply(diag, upper, Hbar, Hbar, FT)  # ➋ q̈₁ = C F_T
    S = [-x for x in _apply(diag, upper, W, Hbar, FT)]  # ➌ S = −B F_T
    A_diag = [W[i].T @ diag[i] @ W[i] for i in range(model.nb)]
    A_upper = [W[i].T @ upper[i] @ W[i + 1] for i in range(model.nb - 1)]
    FS = _block_cholesky_solve(A_diag, A_upper, S)  # ➍ F_S = A⁻¹ S
    qdd2 = _apply(diag, upper, Hbar, W, FS)  # ➎ q̈₂ = +Bᵀ F_S
    out = np.empty(model.nv)
    for i in range(model.nb):  # ➏ q̈ = q̈₁ + q̈₂
        if d.dof[i] >= 0:
            out[d.dof[i] : d.dof[i] + d.H[i].shape[1]] = qdd1[i] + qdd2[i]
    return out
