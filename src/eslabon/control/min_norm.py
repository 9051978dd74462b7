"""Minimum-norm pole assignment over the Sylvester parametrization (seed 000 §5.6).

Rojas (1987), §5.6, places poles by the Sylvester equation (Bhattacharyya & de Souza
1982): for a real Λ holding the poles and a free G (m, n), T solves

    A T − T Λ = −B G,          K = −G T⁻¹   (our u = −Kx; the thesis's K = G T⁻¹)   (5.6.3)

so that (A − BK) T = T Λ. "It is also possible to assign poles by minimizing the norm of
the feedback matrix (Keel et al. 1985)": Keel, Fleming & Bhattacharyya (1985), "Minimum
norm pole assignment via Sylvester's equation", Contemporary Mathematics 47, 265–272,
choose G to minimize ‖K‖. Here ‖K(G)‖_F is minimized as a least-squares problem in G by
Levenberg–Marquardt (scipy), with the Jacobian of vec K from vec dT = −L⁻¹(1 ⊗ B) vec dG,
L = 1 ⊗ A − Λᵀ ⊗ 1; the gradient of J = ‖K‖²_F, reported as the optimality left, comes
from the adjoint Sylvester equation:

    dT:  A dT − dT Λ = −B dG,      dK = −dG T⁻¹ − K dT T⁻¹
    Y:   Aᵀ Y − Y Λᵀ = (T⁻¹ KᵀK)ᵀ
    ∇_G J = 2 (Bᵀ Y − K T⁻ᵀ)

(dJ = 2 tr(KᵀdK) = −2 tr(T⁻¹Kᵀ dG) − 2 tr(T⁻¹KᵀK dT), and tr(N dT) = ⟨Y, A dT − dT Λ⟩).
J is unchanged by G → G S for any invertible S commuting with Λ (T → T S), including
G → c G, so the minimizer is a set; each start is scaled to ‖G‖_F = 1.

The family searched is that of gains whose closed loop is similar to Λ (diagonalizable
with the given poles). For distinct poles that is every gain placing them; for repeated
poles (model assignment's ±: each pole n/2 times) it is the diagonalizable closed loops,
which is where model assignment and scipy's ``place_poles`` land too. The problem is not
convex: the answer is the best local minimum reached from the starts (a seeded random G,
scipy's gain, and any ``initial`` gains), so it is never larger than the norm of a given
gain of the family.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import scipy.linalg as sla
import scipy.optimize as opt

from .design import _pair, _poles, _real_block, controllable, place_poles


class MinNormPlacement(NamedTuple):
    """What :func:`min_norm_place_poles` returns.

    Attributes
    ----------
    K : ndarray (m, n)
        The gain of u = −Kx of least Frobenius norm found.
    G : ndarray (m, n)
        Its Sylvester parameter (‖G‖_F = 1).
    T : ndarray (n, n)
        The solution of A T − T Λ = −B G: (A − BK) T = T Λ.
    Lam : ndarray (n, n)
        The real block-diagonal Λ holding the poles (2 × 2 blocks [[a, b], [−b, a]] for
        a ± bi, then the real poles).
    norm : float
        ‖K‖_F.
    gradient_norm : float
        ‖∇_G ‖K‖²_F‖_F at G (‖G‖_F = 1), relative to ‖K‖²_F: the first-order optimality
        left.
    start_norms : ndarray (s,)
        ‖K‖_F at each start (random, scipy, then the ``initial`` gains).
    """

    K: np.ndarray
    G: np.ndarray
    T: np.ndarray
    Lam: np.ndarray
    norm: float
    gradient_norm: float
    start_norms: np.ndarray


def sylvester_gain(A, B, Lam, G):
    """(K, T) of the Sylvester form: T solves A T − T Λ = −B G and K = −G T⁻¹.

    Parameters
    ----------
    A : ndarray (n, n)
    B : ndarray (n, m)
    Lam : ndarray (n, n)
        A real matrix with the requested poles as eigenvalues, none an eigenvalue of A.
    G : ndarray (m, n)
        The free parameter.

    Returns
    -------
    K : ndarray (m, n)
        The gain of u = −Kx; (A − BK) T = T Λ.
    T : ndarray (n, n)

    Raises
    ------
    ValueError
        T singular (condition number over 1e12) for this G.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> A, B = np.array([[0.0, 1.0], [0.0, 0.0]]), np.array([[0.0], [1.0]])
    >>> K, T = es.control.sylvester_gain(A, B, np.diag([-1.0, -2.0]), np.array([[1.0, 1.0]]))
    >>> np.round(K, 6)
    array([[2., 3.]])
    """
    T = sla.solve_sylvester(A, -Lam, -B @ G)
    if not np.isfinite(T).all() or np.linalg.cond(T) > 1e12:
        raise ValueError("G: T is singular for this G (choose another G)")
    return -G @ np.linalg.inv(T), T


def _objective(A, B, Lam):
    """J(g) = ‖K‖²_F and its gradient (module docstring) over G flattened row-major;
    inf where T is singular."""
    n, m = B.shape

    def fun(g):
        G = g.reshape(m, n)
        T = sla.solve_sylvester(A, -Lam, -B @ G)
        if not np.isfinite(T).all() or np.linalg.cond(T) > 1e12:
            return np.inf, np.zeros_like(g)
        Tinv = np.linalg.inv(T)
        K = -G @ Tinv
        N = Tinv @ K.T @ K
        Y = sla.solve_sylvester(A.T, -Lam.T, N.T)  # Aᵀ Y − Y Λᵀ = Nᵀ
        grad = 2.0 * (B.T @ Y - K @ Tinv.T)
        return float(np.sum(K * K)), grad.ravel()

    return fun


def _least_squares(A, B, Lam):
    """vec K(G) and its Jacobian for Levenberg–Marquardt, G flattened column-major.

    vec T = L⁻¹ vec(−B G) with L = 1 ⊗ A − Λᵀ ⊗ 1 (so vec dT = D vec dG,
    D = −L⁻¹ (1 ⊗ B)); dK = −dG T⁻¹ − K dT T⁻¹ gives
    ∂ vec K / ∂ vec G = −(T⁻ᵀ ⊗ 1) − (T⁻ᵀ ⊗ K) D."""
    n, m = B.shape
    L = np.kron(np.eye(n), A) - np.kron(Lam.T, np.eye(n))
    D = np.linalg.solve(L, -np.kron(np.eye(n), B))

    def parts(g):
        T = (D @ g).reshape(n, n, order="F")
        Tinv = np.linalg.inv(T)
        return -g.reshape(m, n, order="F") @ Tinv, Tinv

    def residual(g):
        return parts(g)[0].ravel(order="F")

    def jacobian(g):
        K, Tinv = parts(g)
        return -np.kron(Tinv.T, np.eye(m)) - np.kron(Tinv.T, K) @ D

    return residual, jacobian


def sylvester_parameter(A, B, K, Lam, tol: float = 1e-8):
    """The G (m, n) of a gain K that places Λ's poles with a diagonalizable closed loop:
    G = −K T with (A − BK) T = T Λ, T from the eigenvectors of A − BK (v = x + iy of
    a + bi gives the columns [x, y] of the block [[a, b], [−b, a]]).

    Parameters
    ----------
    A : ndarray (n, n)
    B : ndarray (n, m)
    K : array_like (m, n)
        A gain of u = −Kx.
    Lam : ndarray (n, n)
        From the same poles as the gain places, as :func:`min_norm_place_poles` builds it.
    tol : float
        Relative tolerance on ‖(A − BK)T − TΛ‖ against ‖A − BK‖ ‖T‖.

    Returns
    -------
    ndarray (m, n)
        G scaled to ‖G‖_F = 1.

    Raises
    ------
    ValueError
        K of the wrong shape, or a gain that does not place Λ's poles with a
        diagonalizable closed loop (T singular or the eigen-equation not met).

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> A, B = np.array([[0.0, 1.0], [0.0, 0.0]]), np.array([[0.0], [1.0]])
    >>> Lam = np.diag([-1.0, -2.0])
    >>> G = es.control.sylvester_parameter(A, B, np.array([[2.0, 3.0]]), Lam)
    >>> np.round(es.control.sylvester_gain(A, B, Lam, G)[0], 6)
    array([[2., 3.]])
    """
    n, m = B.shape
    K = np.asarray(K, dtype=float)
    if K.shape != (m, n):
        raise ValueError(f"initial: expected gains of shape ({m}, {n}), got {K.shape}")
    M = A - B @ K
    ev, vecs = np.linalg.eig(M)
    used = np.zeros(n, dtype=bool)
    T = np.zeros((n, n))
    col = 0
    while col < n:
        a = Lam[col, col]
        b = Lam[col, col + 1] if col + 1 < n else 0.0
        pole = complex(a, b)
        dist = np.where(used, np.inf, np.abs(ev - pole))
        k = int(np.argmin(dist))
        used[k] = True
        if b != 0.0:
            # the conjugate eigenvalue is used up too
            dist = np.where(used, np.inf, np.abs(ev - pole.conjugate()))
            used[int(np.argmin(dist))] = True
            v = vecs[:, k] if ev[k].imag > 0 else vecs[:, k].conj()
            T[:, col], T[:, col + 1] = v.real, v.imag
            col += 2
        else:
            v = vecs[:, k]
            T[:, col] = v.real if np.abs(v.real).max() >= np.abs(v.imag).max() else v.imag
            col += 1
    scale = np.linalg.norm(M, 2) * np.linalg.norm(T, 2)
    if np.linalg.cond(T) > 1e12 or np.linalg.norm(M @ T - T @ Lam, 2) > tol * scale:
        raise ValueError(
            "initial: a gain does not place the poles with a diagonalizable closed loop"
        )
    G = -K @ T
    return G / np.linalg.norm(G)


def min_norm_place_poles(
    A, B, poles, *, initial=(), seed: int = 0, xtol: float = 1e-12, max_evaluations: int = 2000
) -> MinNormPlacement:
    """The gain K (m, n) of least Frobenius norm with the eigenvalues of A − BK at
    ``poles``: Keel, Fleming & Bhattacharyya (1985), cited by Rojas (1987) §5.6, over
    the Sylvester parametrization (5.6.3) (module docstring).

    Parameters
    ----------
    A : array_like (n, n)
        State matrix at one instant (e.g. ``lin.A``, n = 2 × joints).
    B : array_like (n, m)
        Input matrix (e.g. ``lin.B``).
    poles : array_like (n,)
        The closed-loop eigenvalues (1/s), finite, conjugate-paired, none an eigenvalue
        of A, each repeated at most rank B times.
    initial : sequence of array_like (m, n)
        Gains placing the same poles (diagonalizable closed loop) to start from as well,
        e.g. model assignment's [K_p, K_d]; the result is never larger than theirs.
    seed : int
        Seed of the random start.
    xtol : float
        Relative tolerance of the Levenberg–Marquardt search (on G, on ‖K‖ and on the
        gradient).
    max_evaluations : int
        Most evaluations of K(G) per start.

    Returns
    -------
    MinNormPlacement
        ``K``, its ``G``, ``T``, ``Lam``, ``norm`` = ‖K‖_F, ``gradient_norm`` and the
        ``start_norms``.

    Raises
    ------
    ValueError
        ``A``, ``B`` of the wrong shapes or not finite; not n finite poles in conjugate
        pairs; an uncontrollable pair; an ``initial`` gain of the wrong shape or not
        placing the poles; no start with T invertible.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> A = np.array([[0.0, 1.0], [0.0, 0.0]])
    >>> B = np.eye(2)
    >>> res = es.control.min_norm_place_poles(A, B, [-1.0, -2.0])
    >>> ev = np.sort(np.linalg.eigvals(A - B @ res.K).real)
    >>> bool(np.allclose(ev, [-2.0, -1.0]))
    True
    >>> bool(res.norm <= np.linalg.norm(es.control.place_poles(A, B, [-1.0, -2.0])))
    True
    """
    A, B = _pair(A, B)
    n, m = B.shape
    p = _poles(poles, n)
    if not controllable(A, B):
        raise ValueError("A, B: the pair is not controllable; its poles cannot all be placed")
    Lam = _real_block(p)
    starts = [np.random.default_rng(seed).standard_normal((m, n))]
    try:
        starts.append(sylvester_parameter(A, B, place_poles(A, B, p), Lam))
    except ValueError:  # scipy's gain may be non-diagonalizable or refused: skip it
        pass
    starts += [sylvester_parameter(A, B, K0, Lam) for K0 in initial]
    fun = _objective(A, B, Lam)
    residual, jacobian = _least_squares(A, B, Lam)
    best, start_norms = None, []
    for G0 in starts:
        G0 = G0 / np.linalg.norm(G0)
        J0, _ = fun(G0.ravel())
        start_norms.append(np.sqrt(J0))
        if not np.isfinite(J0):
            continue
        res = opt.least_squares(
            residual,
            G0.ravel(order="F"),
            jac=jacobian,
            method="lm",
            xtol=xtol,
            ftol=xtol,
            gtol=xtol,
            max_nfev=max_evaluations,
        )
        G = res.x.reshape(m, n, order="F")
        J, _ = fun(G.ravel())
        if not J <= J0:  # keep the start if the search left the family's regular part
            G, J = G0, J0
        if best is None or J < best[0]:
            best = (J, G)
    if best is None:
        raise ValueError("poles: no start gives an invertible T (poles on A's eigenvalues?)")
    G = best[1] / np.linalg.norm(best[1])
    K, T = sylvester_gain(A, B, Lam, G)
    J, grad = fun(G.ravel())
    return MinNormPlacement(
        K,
        G,
        T,
        Lam,
        float(np.linalg.norm(K)),
        float(np.linalg.norm(grad) / J),
        np.array(start_norms),
    )
