"""Fixed joints folded into their parents: the packed model the kernels of
per-degree-of-freedom results read (``Model.packed_dynamics``).

A body on a fixed joint moves rigidly with its parent, so for τ, M, q̈ and their
derivatives it is part of the parent's body: Pinocchio's URDF reader merges such links the
same way. Figures: docs/performance.md, "Floating bases and fixed joints".
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .._engine.layout import (
    COM,
    COM_SLIDE,
    H_NB,
    HEADER,
    INERTIA,
    MASS,
    PARENT,
    POS,
    ROT,
    VIDX,
    body_offset,
    mark_forks,
)
from ..spatial.spatial6 import combined_body


def fold_fixed(P: NDArray[np.float64]) -> NDArray[np.float64]:
    """The packed model ``P`` with every fixed joint folded into its parent row, for the
    kernels whose results are per degree of freedom (τ, M, q̈, their derivatives, C): a
    body on a fixed joint moves rigidly with its parent, so its mass,
    centre of mass and inertia join the parent's and its children hang from the parent
    at the composed placement, as Pinocchio's URDF reader merges fixed links. A body
    fixed to the world, or to a row whose centre of mass slides (seed 001's book mode),
    is left out or kept as it is. Returns ``P`` itself when nothing is folded; rows keep
    their order, so a parent still precedes its children. Per-body results (world poses,
    Jacobians, the Newton–Euler trace, wrenches on bodies) read the unfolded array."""
    nb = int(P[H_NB])
    rows = [P[body_offset(i) : body_offset(i + 1)].copy() for i in range(nb + 1)]
    parent = [int(r[PARENT]) for r in rows]
    kept = [True] * (nb + 1)
    for i in range(nb, 0, -1):  # a row with no rate into its parent, deepest first
        r = rows[i]
        p = parent[i]
        # a row with no rate of its own (VIDX < 0) is a fixed joint's: its placement is
        # constant, so its body moves rigidly with the parent
        if r[VIDX] >= 0 or r[COM_SLIDE] != 0.0 or (p > 0 and rows[p][COM_SLIDE] != 0.0):
            continue
        E = r[ROT : ROT + 9].reshape(3, 3)
        t = r[POS : POS + 3]
        if p > 0:
            _merge_inertia(rows[p], r, E, t)
        for c in range(i + 1, nb + 1):
            if kept[c] and parent[c] == i:
                rc = rows[c]
                rc[ROT : ROT + 9] = (E @ rc[ROT : ROT + 9].reshape(3, 3)).ravel()
                rc[POS : POS + 3] = E @ rc[POS : POS + 3] + t
                parent[c] = p
        kept[i] = False
    if all(kept):
        return P
    new = np.cumsum(kept) - 1  # each kept row's new index
    out = [P[:HEADER].copy()]
    for i in range(nb + 1):
        if kept[i]:
            rows[i][PARENT] = new[parent[i]] if i > 0 else -1
            out.append(rows[i])
    F = np.concatenate(out)
    F[H_NB] = int(np.sum(kept)) - 1
    return mark_forks(F)


def depth_first(P: NDArray[np.float64]) -> NDArray[np.float64]:
    """The packed model ``P`` with its rows in depth-first order (each row's subtree right
    after it, children in their order in ``P``); ``P`` itself when they already are.

    Why: the recursions keep the parent's pose and motion in registers while the next row
    is its child, and read them back from their workspace at every other row. A model's
    bodies need not be in that order (a body list, or a URDF read before the reader
    numbered bodies depth first: in the Solo 12 quadruped 11 of 18 rows then took the
    slow way). The rates and
    coordinates of every row stay where they were (VIDX, CFG): only the kernels' row
    order changes, never a result's order (figures: docs/performance.md, "The mass
    matrix per call")."""
    nb = int(P[H_NB])
    children: list[list[int]] = [[] for _ in range(nb + 1)]
    for i in range(1, nb + 1):
        children[int(P[body_offset(i) + PARENT])].append(i)
    order, stack = [], [0]
    while stack:
        i = stack.pop()
        order.append(i)
        stack.extend(reversed(children[i]))
    if order == list(range(nb + 1)):
        return P
    new = np.empty(nb + 1, dtype=np.int64)
    new[order] = np.arange(nb + 1)
    out = [P[:HEADER].copy()]
    for i in order:
        r = P[body_offset(i) : body_offset(i + 1)].copy()
        if i > 0:
            r[PARENT] = new[int(r[PARENT])]
        out.append(r)
    return mark_forks(np.concatenate(out))


def _merge_inertia(
    rp: NDArray[np.float64], r: NDArray[np.float64], E: NDArray[np.float64], t: NDArray[np.float64]
) -> None:
    """Add the body of row ``r``, placed at (E, t) in row ``rp``'s frame, to ``rp``
    (:func:`eslabon.spatial.combined_body`)."""
    m, c, inertia = combined_body(
        rp[MASS],
        rp[COM : COM + 3],
        rp[INERTIA : INERTIA + 9].reshape(3, 3),
        r[MASS],
        E @ r[COM : COM + 3] + t,
        E @ r[INERTIA : INERTIA + 9].reshape(3, 3) @ E.T,
    )
    rp[MASS] = m
    rp[COM : COM + 3] = c
    rp[INERTIA : INERTIA + 9] = inertia.ravel()
