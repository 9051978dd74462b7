"""Block-sparse algebra of a tree's K = Pᵀ I⁻¹ P for Jaramillo Botero (1998)'s
constraint-force form on trees (:mod:`.operator_tree`): its non-zero blocks, their
projections on the joint maps (A = WᵀKW, B = WᵀKH̄, C = H̄ᵀKH̄, (1.93)–(1.100)), products
with per-body vectors, and the solve of A F_S = S (step ➍) by elimination from the
leaves inward, which on a tree creates no new block.

Blocks are kept in a dict {(j, k): array} holding both (j, k) and (k, j); bodies are
0-based and every parent precedes its children.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..spatial.spatial6 import translation_operator as translation

__all__ = ["Elimination", "eliminate_leaves_first"]


def k_blocks(d, I_inv) -> dict:
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


def project_blocks(K: dict, left, right) -> dict:
    """{(j, k): left_jᵀ K_jk right_k} for per-body maps (e.g. A = WᵀKW, B = WᵀKH̄)."""
    return {(j, k): left[j].T @ blk @ right[k] for (j, k), blk in K.items()}


def apply_blocks(blocks: dict, x: list, sizes) -> list:
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
