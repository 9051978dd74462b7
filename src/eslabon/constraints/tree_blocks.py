"""Block-sparse algebra of a tree's K = Pᵀ I⁻¹ P for Jaramillo Botero (1998)'s
constraint-force form on trees (:mod:`.operator_tree`): its non-zero blocks, their
projections on the joint maps (A = WᵀKW, B = WᵀKH̄, C = H̄ᵀKH̄, (1.93)–(1.100)), products
with per-body vectors, and the solve of A F_S = S (step ➍) by elimination from the
leaves inward, which on a tree creates no new block.

Also the bodies' inverse inertias from their centroidal ones and the folding of bodies on
fixed joints into their parents, which the form needs first.

Blocks are kept in a dict {(j, k): array} holding both (j, k) and (k, j); bodies are
0-based and every parent precedes its children.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..spatial.spatial6 import translation_operator as translation

__all__ = ["Elimination", "eliminate_leaves_first"]


def _k_blocks(d, I_inv) -> dict:
    """The non-zero blocks of K = Pᵀ I⁻¹ P of a tree, {(j, k): (6, 6)} with both (j, k)
    and (k, j) (module docstring: diagonal, parent–child and sibling blocks)."""
    n = len(d.parent)
    X = [  # P̂_{λ(i),i}; the identity for a body on the ground (not used)
        translation(d.origins[i] - d.origins[d.parent[i]]) if d.parent[i] >= 0 else np.eye(6)
        for i in range(n)
    ]
    K = {(i, i): I_inv[i].copy() for i in range(n)}
    children: dict = {}
    for i in range(n):
        p = d.parent[i]
        if p < 0:
            continue
        K[(i, i)] += X[i].T @ I_inv[p] @ X[i]
        K[(p, i)] = -I_inv[p] @ X[i]
        K[(i, p)] = K[(p, i)].T
        for s in children.get(p, []):
            K[(s, i)] = X[s].T @ I_inv[p] @ X[i]
            K[(i, s)] = K[(s, i)].T
        children.setdefault(p, []).append(i)
    return K


def _project_blocks(K: dict, left, right) -> dict:
    """{(j, k): left_jᵀ K_jk right_k} for per-body maps (e.g. A = WᵀKW, B = WᵀKH̄)."""
    return {(j, k): left[j].T @ blk @ right[k] for (j, k), blk in K.items()}


def _apply_blocks(blocks: dict, x: list, sizes) -> list:
    """y_j = Σ_k blocks[j, k] x_k, a list of per-body vectors (rows of ``sizes``)."""
    y = [np.zeros(s) for s in sizes]
    for (j, k), blk in blocks.items():
        if blk.size:
            y[j] = y[j] + blk @ x[k]
    return y


class Elimination(NamedTuple):
    """The solve of A x = S by block elimination from the leaves inward.

    Attributes
    ----------
    x : list of ndarray
    fill : int
        Blocks created that were not in A (0 on a tree: see the module docstring).
    """

    x: list
    fill: int


def eliminate_leaves_first(blocks: dict, S: list) -> Elimination:
    """Solve the SPD block system A x = S, A given by its non-zero ``blocks`` {(j, k)},
    eliminating bodies n−1, …, 0 (leaves before their parents) and substituting back.

    Parameters
    ----------
    blocks : dict
        {(j, k): (d_j, d_k)} with both orders present.
    S : list of ndarray (d_j,)

    Returns
    -------
    Elimination

    Examples
    --------
    A root with two leaves (the leaves coupled through their parent):

    >>> import numpy as np
    >>> from eslabon.constraints.tree_blocks import eliminate_leaves_first
    >>> one = np.eye(1)
    >>> blocks = {(0, 0): 4 * one, (1, 1): 3 * one, (2, 2): 3 * one, (0, 1): one,
    ...           (1, 0): one, (0, 2): one, (2, 0): one, (1, 2): one, (2, 1): one}
    >>> out = eliminate_leaves_first(blocks, [one[0], one[0], one[0]])
    >>> dense = np.linalg.solve([[4, 1, 1], [1, 3, 1], [1, 1, 3]], np.ones(3))
    >>> bool(np.allclose(np.concatenate(out.x), dense)), out.fill
    (True, 0)
    """
    n = len(S)
    A = {key: blk.copy() for key, blk in blocks.items() if blk.size}
    nbrs: list[set] = [set() for _ in range(n)]
    for j, k in A:
        if j != k:
            nbrs[j].add(k)
    S = [s.copy() for s in S]
    done, fill, steps = [False] * n, 0, []
    for k in range(n - 1, -1, -1):
        if S[k].size == 0:
            done[k] = True
            continue
        D = A[(k, k)]
        live = sorted(j for j in nbrs[k] if not done[j])
        G = {j: np.linalg.solve(D, A[(k, j)]) for j in live}  # D_k⁻¹ A_kj
        y = np.linalg.solve(D, S[k])
        for j in live:
            S[j] = S[j] - A[(j, k)] @ y
            for l in live:
                if (j, l) not in A:
                    A[(j, l)] = np.zeros((S[j].size, S[l].size))
                    nbrs[j].add(l)
                    fill += 1
                A[(j, l)] = A[(j, l)] - A[(j, k)] @ G[l]
        steps.append((k, live))
        done[k] = True
    x = [np.zeros(s.size) for s in S]
    for k, live in reversed(steps):
        r = S[k] - sum((A[(k, j)] @ x[j] for j in live), np.zeros(S[k].size))
        x[k] = np.linalg.solve(A[(k, k)], r)
    return Elimination(x, fill)


def _inverse_inertias(d, names) -> np.ndarray:
    """I_i⁻¹ (n, 6, 6) from the centroidal inertias, P̂(−s)ᵀ diag(J_cm⁻¹, 1/m) P̂(−s).

    Raises
    ------
    ValueError
        A body with no mass or a singular centroidal inertia, named from ``names``.
    """
    out = np.empty_like(d.inertia)
    for i in range(len(d.parent)):
        m, ev = d.mass[i], np.linalg.eigvalsh(d.J_cm[i])
        if m <= 0.0 or ev[0] <= 1e-12 * ev[-1]:  # relative to the body's own scale
            raise ValueError(
                f"model: body {names[i]!r} has a singular 6×6 inertia (mass {m:.3g}, "
                f"smallest centroidal moment {ev[0]:.3g}, with the bodies fixed to it): the "
                "constraint-force form needs I⁻¹; use the operator form (operator_terms) "
                "for this model"
            )
        inv_cm = np.zeros((6, 6))
        inv_cm[:3, :3] = np.linalg.inv(d.J_cm[i])
        inv_cm[3:, 3:] = np.eye(3) / m
        X = translation(-d.com_offset[i])
        out[i] = X.T @ inv_cm @ X
    return out


def _fold_fixed_bodies(d, names) -> tuple:
    """The tree with every body on a fixed joint folded into its parent: its 6×6
    inertia moved to the parent's origin, I_p + P̂(O_c − O_p) I_c P̂(O_c − O_p)ᵀ (exact:
    it moves rigidly with the parent), its children hung from the parent; a body fixed
    to the ground (it does not move) is dropped. Returns (TreeData, names) of the kept
    bodies; mass, com_offset and J_cm are recomputed from the combined I."""
    n = len(d.parent)
    owner = np.full(n, -1)
    inertia = d.inertia.copy()
    for i in range(n):
        p = d.parent[i]
        fixed = d.H[i].shape[1] == 0
        owner[i] = (owner[p] if p >= 0 else -1) if fixed else i
        if fixed and owner[i] >= 0:
            o = owner[i]
            T = translation(d.origins[i] - d.origins[o])
            inertia[o] += T @ inertia[i] @ T.T
    kept = [i for i in range(n) if owner[i] == i]
    index = {b: k for k, b in enumerate(kept)}
    parent = np.array([index.get(owner[d.parent[i]], -1) if d.parent[i] >= 0 else -1 for i in kept])
    I = inertia[kept]
    mass = I[:, 3, 3].copy()
    s = np.zeros((len(kept), 3))
    J_cm = np.zeros((len(kept), 3, 3))
    for k in range(len(kept)):
        m = mass[k]
        if m > 0:
            ms = I[k, :3, 3:]  # m s̃
            s[k] = np.array([ms[2, 1], ms[0, 2], ms[1, 0]]) / m
        J_cm[k] = I[k, :3, :3] - m * (s[k] @ s[k] * np.eye(3) - np.outer(s[k], s[k]))
    folded = d._replace(
        parent=parent,
        origins=d.origins[kept],
        H=[d.H[i] for i in kept],
        inertia=I,
        bias=d.bias[kept],
        gyroscopic=d.gyroscopic[kept],
        dof=d.dof[kept],
        mass=mass,
        com_offset=s,
        J_cm=J_cm,
        velocity=d.velocity[kept],
    )
    return folded, [names[i] for i in kept]
