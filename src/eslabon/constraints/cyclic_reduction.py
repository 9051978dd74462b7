"""Jaramillo Botero (1998)'s O(log₂ N) claim: block cyclic reduction of the constraint-force
system A F_S = S, against the serial recursion, with operation counts and depth.

The claim ("El problema dinámico directo", Motivación): the Schur-complement form of
M⁻¹ (1.102) "conlleva a una solución al problema dinámico directo en un orden de
complejidad O(log₂ N) para implementaciones estrictamente paralelas". The document
gives the serial O(n) Macro Algoritmo (Figure 8) and no parallel algorithm. For a
serial chain A = Wᵀ Pᵀ I⁻¹ P W is SPD block tridiagonal (blocks of 6 − k_i rows), and
steps ➋, ➌, ➎ are products with block-tridiagonal C, B, Bᵀ: every block row is
independent, depth O(1). Step ➍ is the only solve; its serial form, block LDLᵀ (block
Thomas, :func:`eslabon.dynamics.soa`), is a recurrence of depth O(N).

Block cyclic reduction (Hockney 1965; Heller 1976, "Some aspects of the cyclic
reduction algorithm for block tridiagonal linear systems", SIAM J. Numer. Anal. 13)
removes the odd-numbered blocks, all at once:

    D'_j = D_j − L_j D_{j−1}⁻¹ U_{j−1} − U_j D_{j+1}⁻¹ L_{j+1}
    U'_j = −U_j D_{j+1}⁻¹ U_{j+1},   S'_j = S_j − L_j D_{j−1}⁻¹ S_{j−1} − U_j D_{j+1}⁻¹ S_{j+1}

(L_j = U_{j−1}ᵀ), leaving a block-tridiagonal SPD system half the size; after ⌈log₂ N⌉
levels one block remains, and the odd blocks come back level by level,
x_i = D_i⁻¹ (S_i − L_i x_{i−1} − U_i x_{i+1}). Each level is a fixed number of
block operations on independent blocks: depth O(log₂ N) with N/2 processors; the work
is Σ_levels O(N/2^l) = O(N), about 2 times that of block Thomas (1.86 at N = 8 to 2.21
at N = 1024 in the counts of ``eslabon reproduce jaramillo``).

What is counted: floating-point operations of dense b × b block arithmetic — a Cholesky
factor b³/3 (plus b square roots, not counted), a solve with a factor 2b² per right-hand
side, a product (p × q)(q × r) 2pqr, a sum pr — and the depth, the flops on the longest
chain of dependent operations when every independent block operation of a stage runs at
once (and the number of such stages). Counts are of this arithmetic, not of a machine.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .batch import batched

__all__ = [
    "OperationCount",
    "thomas_solve",
    "cyclic_reduction_solve",
    "chain_system",
    "forward_dynamics",
]


@dataclass
class OperationCount:
    """Flops of dense block arithmetic, total and on the critical path.

    Attributes
    ----------
    work : float
        All flops.
    depth : float
        Flops on the longest chain of dependent operations (independent block
        operations of one stage in parallel).
    stages : int
        Sequential stages (a stage: one kind of block operation applied to independent
        blocks).
    """

    work: float = 0.0
    depth: float = 0.0
    stages: int = 0
    log: list = field(default_factory=list)

    def stage(self, copies: int, flops_each: float) -> None:
        """Record ``copies`` independent operations of ``flops_each`` flops.

        Parameters
        ----------
        copies : int
            How many run at once (none is recorded when 0).
        flops_each : float
            The flops of one.
        """
        if copies <= 0:
            return
        self.work += copies * flops_each
        self.depth += flops_each
        self.stages += 1


def _factor(b):
    return b**3 / 3.0


def _solve(b, r):
    return 2.0 * b * b * r


def _product(p, q, r):
    return 2.0 * p * q * r


def _check(D, U, S):
    D, U, S = (np.asarray(x, dtype=float) for x in (D, U, S))
    if D.ndim != 3 or D.shape[1] != D.shape[2]:
        raise ValueError(f"D: expected (n, b, b) diagonal blocks, got shape {D.shape}")
    n, b = D.shape[0], D.shape[1]
    if U.shape != (max(n - 1, 0), b, b):
        raise ValueError(f"U: expected ({n - 1}, {b}, {b}) upper blocks, got shape {U.shape}")
    if S.shape != (n, b):
        raise ValueError(f"S: expected ({n}, {b}) right-hand sides, got shape {S.shape}")
    return D, U, S


def thomas_solve(D, U, S, count: OperationCount | None = None) -> np.ndarray:
    """Solve the SPD block-tridiagonal A x = S by block LDLᵀ (block Thomas), serially.

    Parameters
    ----------
    D : array_like (n, b, b)
        Diagonal blocks A_ii.
    U : array_like (n − 1, b, b)
        Upper blocks A_{i,i+1} (A_{i+1,i} = U_iᵀ).
    S : array_like (n, b)
    count : OperationCount, optional
        Adds the flops (every step depends on the previous: one stage each).

    Returns
    -------
    ndarray (n, b)

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.constraints.cyclic_reduction import thomas_solve
    >>> D = np.tile(4 * np.eye(2), (3, 1, 1)); U = np.tile(np.eye(2), (2, 1, 1))
    >>> x = thomas_solve(D, U, np.ones((3, 2)))
    >>> bool(np.allclose(4 * x[0] + x[1], 1) and np.allclose(x[0] + 4 * x[1] + x[2], 1))
    True
    """
    D, U, S = _check(D, U, S)
    count = count if count is not None else OperationCount()
    n, b = D.shape[0], D.shape[1]
    Dl, z, G = [D[0]], [S[0]], []
    for i in range(1, n):
        G.append(np.linalg.solve(Dl[i - 1], U[i - 1]))  # D_{i−1}⁻¹ U_{i−1}
        count.stage(1, _factor(b) + _solve(b, b))
        Dl.append(D[i] - U[i - 1].T @ G[i - 1])
        count.stage(1, _product(b, b, b) + b * b)
        z.append(S[i] - G[i - 1].T @ z[i - 1])
        count.stage(1, _product(b, b, 1) + b)
    x = np.empty((n, b))
    x[-1] = np.linalg.solve(Dl[-1], z[-1])
    count.stage(1, _factor(b) + _solve(b, 1))
    for i in range(n - 2, -1, -1):
        x[i] = np.linalg.solve(Dl[i], z[i]) - G[i] @ x[i + 1]
        count.stage(1, _solve(b, 1) + _product(b, b, 1) + b)
    return x


def cyclic_reduction_solve(D, U, S, count: OperationCount | None = None) -> np.ndarray:
    """Solve the SPD block-tridiagonal A x = S by block cyclic reduction (module
    docstring), every level's independent block operations as one batched numpy call.

    Parameters
    ----------
    D : array_like (n, b, b)
    U : array_like (n − 1, b, b)
    S : array_like (n, b)
    count : OperationCount, optional
        Adds the flops and the depth (a level's blocks in parallel).

    Returns
    -------
    ndarray (n, b)

    Raises
    ------
    ValueError
        Shapes that do not fit, naming the argument.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.constraints.cyclic_reduction import cyclic_reduction_solve, thomas_solve
    >>> rng = np.random.default_rng(0)
    >>> D = np.tile(6 * np.eye(3), (9, 1, 1)); U = rng.normal(size=(8, 3, 3))
    >>> S = rng.normal(size=(9, 3))
    >>> bool(np.allclose(cyclic_reduction_solve(D, U, S), thomas_solve(D, U, S)))
    True
    """
    D, U, S = _check(D, U, S)
    count = count if count is not None else OperationCount()
    return _reduce(D, U, S, count)


def _reduce(D, U, S, count):
    n, b = D.shape[0], D.shape[1]
    if n == 1:
        count.stage(1, _factor(b) + _solve(b, 1))
        return np.linalg.solve(D, S[..., None])[..., 0]
    odd, even = np.arange(1, n, 2), np.arange(0, n, 2)
    k = odd.size
    # the odd blocks' couplings: left L_i = U_{i−1}ᵀ (always), right U_i (if i + 1 < n)
    left = np.transpose(U[odd - 1], (0, 2, 1))
    has_right = odd + 1 < n
    right = np.zeros((k, b, b))
    right[has_right] = U[odd[has_right]]
    # D_i⁻¹ [L_i, U_i, S_i] for every odd i at once
    rhs = np.concatenate([left, right, S[odd][..., None]], axis=2)
    Z = np.linalg.solve(D[odd], rhs)
    count.stage(k, _factor(b) + _solve(b, 2 * b + 1))
    ZL, ZR, zS = Z[..., :b], Z[..., b : 2 * b], Z[..., 2 * b]
    D2, S2 = D[even].copy(), S[even].copy()
    # the even block j = i − 1 left of odd i loses U_j D_i⁻¹ L_i and U_j D_i⁻¹ S_i
    j = odd - 1
    np.subtract.at(D2, j // 2, np.einsum("kab,kbc->kac", U[j], ZL))
    np.subtract.at(S2, j // 2, np.einsum("kab,kb->ka", U[j], zS))
    count.stage(k, _product(b, b, b) + _product(b, b, 1) + b * b + b)
    jr = odd[has_right] + 1  # the even block right of odd i loses U_iᵀ D_i⁻¹ U_i, U_iᵀ D_i⁻¹ S_i
    upd_D = np.einsum("kba,kbc->kac", U[odd[has_right]], ZR[has_right])
    upd_S = np.einsum("kba,kb->ka", U[odd[has_right]], zS[has_right])
    np.subtract.at(D2, jr // 2, upd_D)
    np.subtract.at(S2, jr // 2, upd_S)
    count.stage(int(has_right.sum()), _product(b, b, b) + _product(b, b, 1) + b * b + b)
    # new coupling between even j and j + 2 through odd i = j + 1: − U_j D_i⁻¹ U_i
    U2 = -np.einsum("kab,kbc->kac", U[odd[has_right] - 1], ZR[has_right])
    count.stage(int(has_right.sum()), _product(b, b, b))
    x_even = _reduce(D2, U2, S2, count)
    x = np.empty((n, b))
    x[even] = x_even
    back = zS - np.einsum("kab,kb->ka", ZL, x[odd - 1])
    back[has_right] -= np.einsum("kab,kb->ka", ZR[has_right], x[odd[has_right] + 1])
    count.stage(k, 2 * (_product(b, b, 1) + b))
    x[odd] = back
    return x


def chain_system(model, q) -> tuple:
    """The block-tridiagonal A = WᵀKW of a serial chain at q, from the tree's K
    (:func:`.tree_blocks.k_blocks`), with every block padded to the largest size b.

    Bodies on fixed joints are folded into their parents first
    (:func:`.tree_blocks.fold_fixed_bodies`), so n counts the moving joints. A block
    of fewer rows (a joint of more degrees of freedom; a free-flying base has none) is
    padded with identity on the diagonal and zeros beside it: the padded unknowns are
    decoupled and come out zero, and the matrix stays SPD.

    Parameters
    ----------
    model : Model
        A serial chain (parent of body i is body i − 1) whose bodies have invertible
        inertias.
    q : array_like (nq,)

    Returns
    -------
    D : ndarray (n, b, b)
    U : ndarray (n − 1, b, b)
    sizes : list of int
        Each moving body's own number of rows, 6 − k_i.

    Raises
    ------
    ValueError
        Not a serial chain; what :class:`.operator_tree.ConstraintForceSolver` refuses.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon.constraints.cyclic_reduction import chain_system
    >>> D, U, sizes = chain_system(es.zoo.load("jaramillo_rpr"), [0.5, 0.25, -0.8])
    >>> D.shape, U.shape, sizes
    ((3, 5, 5), (2, 5, 5), [5, 5, 5])
    """
    return _blocks(_chain_solver(model, q))


def _chain_solver(model, q):
    """The :class:`.operator_tree.ConstraintForceSolver` of a serial chain (refused
    otherwise)."""
    from . import operator_tree as ot

    if np.any(model.parent[1:] != np.arange(model.nb)):
        raise ValueError("model: the cyclic reduction here takes a serial chain (parent i − 1)")
    return ot.ConstraintForceSolver(model, q)  # fixed bodies folded: still a chain


def _blocks(solver) -> tuple:
    """(D, U, sizes) of :func:`chain_system` from the chain's solver's blocks of A."""
    sizes = [w.shape[1] for w in solver.W]
    n, b = len(sizes), max(sizes)
    D = np.tile(np.eye(b), (n, 1, 1))
    U = np.zeros((n - 1, b, b))
    for i in range(n):
        D[i, : sizes[i], : sizes[i]] = solver.A[(i, i)]
        if i + 1 < n:
            U[i, : sizes[i], : sizes[i + 1]] = solver.A[(i, i + 1)]
    return D, U, sizes


SOLVERS = ("cyclic_reduction", "thomas")


@batched(3)
def forward_dynamics(
    model, q, qd, tau, *, solver: str = "cyclic_reduction", count: OperationCount | None = None
) -> np.ndarray:
    """q̈ (nv,) of a serial chain by the Macro Algoritmo (Figure 8, step ➎ with the sign
    of (1.100)) with step ➍, F_S = A⁻¹ S, by ``solver``.

    Parameters
    ----------
    model : Model
        As :func:`chain_system` takes.
    q : array_like (nq,)
    qd, tau : array_like (nv,)
    solver : {"cyclic_reduction", "thomas"}
    count : OperationCount, optional
        Adds step ➍'s flops and depth.

    Returns
    -------
    ndarray (nv,)

    Raises
    ------
    ValueError
        An unknown ``solver``; what :func:`chain_system` refuses.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon.constraints import cyclic_reduction as cr
    >>> arm = es.zoo.load("jaramillo_rpr")
    >>> q, v, t = [0.5, 0.25, -0.8], [1.0, -0.3, 2.0], [5.0, 30.0, -1.0]
    >>> bool(np.allclose(cr.forward_dynamics(arm, q, v, t), es.forward_dynamics(arm, q, v, t)))
    True
    """
    from . import operator_tree as ot
    from .tree_blocks import _apply_blocks

    if solver not in SOLVERS:
        raise ValueError(f"solver: expected one of {SOLVERS}, got {solver!r}")
    fd = _chain_solver(model, q)  # built once: its blocks of A and the operators
    D, U, sizes = _blocks(fd)
    xi = ot.inverse_dynamics(model, q, qd, np.zeros(model.nv)).tau  # ➊
    tau = np.asarray(tau, dtype=float)
    d, n = fd.data, len(fd.data.parent)
    k = [Hi.shape[1] for Hi in d.H]
    net = tau - xi
    FT = [net[d.dof[i] : d.dof[i] + k[i]] for i in range(n)]
    qdd1 = _apply_blocks(fd.C, FT, k)  # ➋
    S = np.zeros((n, D.shape[1]))
    for i, s_i in enumerate(_apply_blocks(fd.B, FT, sizes)):
        S[i, : sizes[i]] = -s_i  # ➌
    run = cyclic_reduction_solve if solver == "cyclic_reduction" else thomas_solve
    FS = [x[: sizes[i]] for i, x in enumerate(run(D, U, S, count))]  # ➍
    qdd2 = _apply_blocks(fd.Bt, FS, k)  # ➎
    out = np.zeros(model.nv)
    for i in range(n):
        if d.dof[i] >= 0:
            out[d.dof[i] : d.dof[i] + k[i]] = qdd1[i] + qdd2[i]  # ➏
    return out
