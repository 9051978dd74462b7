"""Gain design: model assignment (seed 000 §5.6), pole placement and LQR.

* :func:`model_assignment` — Lin & Angeles (1986) as used by the thesis: with
  δf* = −K_p δθ − K_d δθ̇ (5.6.5) and

      K_p(t) = U Ω² − W,     K_d(t) = 2 U Ψ Ω − V                       (5.6.7–5.6.8)

  the closed loop is δθ̈ + 2ΨΩ δθ̇ + Ω² δθ = 0 (5.6.4), time-invariant, for symmetric
  positive-definite Ψ, Ω (diagonal in the thesis: Ψ = √2/2·1, Ω = 1 rad/s).
* :func:`place_poles` — a gain K with eig(A − BK) at the requested poles, on a frozen
  (A, B): scipy's ``place_poles`` (Kautz–Tits), or the Sylvester-equation form the thesis
  cites (Bhattacharyya & de Souza 1982): solve A T − T Λ = −B G for T, then K = −G T⁻¹
  for our u = −Kx (the thesis's K = G T⁻¹ is for u = +Kx).
* :func:`lqr` — K = R⁻¹BᵀP with P from the continuous algebraic Riccati equation (scipy).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import scipy.linalg as sla
import scipy.signal as sig

from .._deprecation import renamed_keywords

PLACEMENT_METHODS = ("scipy", "sylvester")


def spd_matrix(x, n: int, field: str) -> np.ndarray:
    """A symmetric positive-definite (n, n) matrix from a positive scalar, (n,) positive
    diagonal or (n, n) matrix; else a ValueError naming ``field``.

    How the control functions read a gain or weight: a scalar s is s·1, a vector its
    diagonal matrix, a matrix is taken as it is once checked (finite, symmetric to
    1e-12 × max(1, its largest entry), smallest eigenvalue > 0).

    Parameters
    ----------
    x : float, array_like (n,) or (n, n)
        The value, in the units of the gain it stands for (e.g. N·m/rad for K_p, rad/s
        for Ω, none for Ψ).
    n : int
        The size of the matrix (the number of joints).
    field : str
        The name used in error messages (e.g. ``"kp"``).

    Returns
    -------
    ndarray (n, n)
        The symmetric positive-definite matrix.

    Raises
    ------
    ValueError
        ``x`` not numeric, of another shape, not finite, not symmetric, or not positive
        definite (naming ``field`` and the smallest eigenvalue).

    Examples
    --------
    >>> import eslabon as es
    >>> es.control.spd_matrix(2.0, 2, "kp")
    array([[2., 0.],
           [0., 2.]])
    >>> es.control.spd_matrix([1.0, 4.0], 2, "kp")
    array([[1., 0.],
           [0., 4.]])
    """
    try:
        a = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{field}: expected a number, (n,) or (n, n) array, got {x!r}") from None
    if a.ndim == 0:
        a = a * np.eye(n)
    elif a.shape == (n,):
        a = np.diag(a)
    elif a.shape != (n, n):
        raise ValueError(f"{field}: expected a scalar, ({n},) or ({n}, {n}), got {a.shape}")
    if not np.isfinite(a).all():
        raise ValueError(f"{field}: expected finite values")
    if not np.allclose(a, a.T, rtol=0, atol=1e-12 * max(1.0, np.abs(a).max())):
        raise ValueError(f"{field}: expected a symmetric matrix")
    low = float(np.linalg.eigvalsh(a).min())
    if not low > 0:
        raise ValueError(
            f"{field}: expected a positive-definite matrix; smallest eigenvalue {low:.3g}"
        )
    return a


def model_assignment(lin, psi, omega):
    """(K_p, K_d) of (5.6.7–5.6.8) from a :class:`~eslabon.control.Linearization` (one
    instant or along a trajectory, leading axes kept) and the damping Ψ and natural
    frequency Ω (scalars, diagonals or SPD matrices).

    Model assignment (Lin & Angeles 1986, as used by Rojas 1987, §5.6):
    K_p = U Ω² − W and K_d = 2 U Ψ Ω − V, so that the feedback δτ = −K_p δq − K_d δq̇
    makes the linearized error obey δq̈ + 2ΨΩ δq̇ + Ω² δq = 0 (eq. 5.6.4), the same
    second-order model at every instant.

    Parameters
    ----------
    lin : Linearization
        From :func:`linearize` (one state) or :func:`linearize_along`; only ``U``, ``V``
        and ``W`` (…, n, n) are used.
    psi : float, array_like (n,) or (n, n)
        Damping ratio Ψ (dimensionless), symmetric positive definite (see
        :func:`spd_matrix`); the thesis uses √2/2.
    omega : float, array_like (n,) or (n, n)
        Natural frequency Ω (rad/s), symmetric positive definite; the thesis uses 1.

    Returns
    -------
    Kp : ndarray (n, n) or (…, n, n)
        Position gain (N·m/rad, N/m).
    Kd : ndarray (n, n) or (…, n, n)
        Rate gain (N·m·s/rad, N·s/m).

    Raises
    ------
    ValueError
        ``psi`` or ``omega`` not a positive scalar, positive (n,) vector or symmetric
        positive-definite (n, n) matrix.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> lin = es.control.linearize(arm, [0.3, 0.2], [0.0, 0.0], [0.0, 0.0])
    >>> Kp, Kd = es.control.model_assignment(lin, np.sqrt(2) / 2, 1.0)
    >>> A_cl = es.control.closed_loop_matrix(lin, np.hstack([Kp, Kd]))
    >>> ev = es.control.frozen_eigenvalues(A_cl)  # those of s² + 2ΨΩ s + Ω², twice
    >>> bool(np.allclose(ev.real, -np.sqrt(2) / 2) and np.allclose(abs(ev.imag), np.sqrt(2) / 2))
    True
    """
    n = lin.U.shape[-1]
    Psi = spd_matrix(psi, n, "psi")
    Om = spd_matrix(omega, n, "omega")
    Kp = lin.U @ (Om @ Om) - lin.W
    Kd = 2.0 * lin.U @ (Psi @ Om) - lin.V
    return Kp, Kd


def closed_loop_matrix(lin, K):
    """A − BK (…, 2n, 2n) for a robot linearization and a state feedback δf* = −K δx,
    K (…, n, 2n) = [K_θ, K_θ̇]. Formed as [[0, 1], [−U⁻¹(W + K_θ), −U⁻¹(V + K_θ̇)]]: the
    sums cancel before the solve, so with model assignment the matrix is exactly
    [[0, 1], [−Ω², −2ΨΩ]] to rounding (forming A − BK term by term loses about 1e-9
    in its eigenvalues on the T3).

    Parameters
    ----------
    lin : Linearization
        From :func:`linearize` or :func:`linearize_along`; ``U``, ``V``, ``W`` (…, n, n)
        are used.
    K : array_like (n, 2n) or (…, n, 2n)
        State-feedback gain [K_q, K_q̇] (N·m/rad and N·m·s/rad for revolute joints),
        broadcast against ``lin``'s leading axes.

    Returns
    -------
    ndarray (2n, 2n) or (…, 2n, 2n)
        The closed-loop state matrix A − BK of δẋ = (A − BK) δx, δx = [δq; δq̇].

    Raises
    ------
    ValueError
        ``K`` whose last two axes are not (n, 2n).
    numpy.linalg.LinAlgError
        A singular ``U``.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> lin = es.control.linearize(arm, [0.3, 0.2], [0.0, 0.0], [0.0, 0.0])
    >>> K = np.hstack([100.0 * np.eye(2), 20.0 * np.eye(2)])
    >>> A_cl = es.control.closed_loop_matrix(lin, K)
    >>> bool(np.allclose(A_cl, lin.A - lin.B @ K))
    True
    """
    n = lin.U.shape[-1]
    K = np.asarray(K, dtype=float)
    if K.shape[-2:] != (n, 2 * n):
        raise ValueError(f"K: expected shape (…, {n}, {2 * n}), got {K.shape}")
    lower = -np.linalg.solve(
        lin.U, np.concatenate([lin.W + K[..., :n], lin.V + K[..., n:]], axis=-1)
    )
    upper = np.zeros(lower.shape)
    upper[..., :, n:] = np.eye(n)
    return np.concatenate([upper, lower], axis=-2)


def _pair(A, B):
    A = np.asarray(A, dtype=float)
    B = np.asarray(B, dtype=float)
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise ValueError(f"A: expected a square matrix, got shape {A.shape}")
    if B.ndim != 2 or B.shape[0] != A.shape[0]:
        raise ValueError(f"B: expected shape ({A.shape[0]}, m), got {B.shape}")
    if not (np.isfinite(A).all() and np.isfinite(B).all()):
        raise ValueError("A, B: expected finite values")
    return A, B


def _poles(poles, n):
    p = np.asarray(poles, dtype=complex).ravel()
    if p.shape != (n,):
        raise ValueError(f"poles: expected {n} poles, got {p.size}")
    if not np.isfinite(p).all():
        raise ValueError("poles: expected finite values")
    if not np.allclose(np.sort_complex(p), np.sort_complex(p.conj()), atol=1e-12):
        raise ValueError("poles: complex poles must come in conjugate pairs")
    return p


def _real_block(poles):
    """A real matrix Λ with the given (conjugate-paired) eigenvalues: 2×2 blocks
    [[a, b], [−b, a]] for a ± bi, then the real poles on the diagonal."""
    upper = sorted(p for p in poles if p.imag > 1e-12 * max(1.0, abs(p)))
    real = [p.real for p in poles if abs(p.imag) <= 1e-12 * max(1.0, abs(p))]
    L = np.zeros((len(poles), len(poles)))
    for k, p in enumerate(upper):
        L[2 * k : 2 * k + 2, 2 * k : 2 * k + 2] = [[p.real, p.imag], [-p.imag, p.real]]
    for k, r in enumerate(real, start=2 * len(upper)):
        L[k, k] = r
    return L


def controllable(A, B, tol: float = 1e-9) -> bool:
    """True when rank [B, AB, …, Aⁿ⁻¹B] = n (PBH test on each eigenvalue of A).

    The Popov–Belevitch–Hautus test: the pair is controllable when [λ1 − A, B] has full
    rank n for every eigenvalue λ of A; the rank is judged by the smallest singular
    value against ``tol`` times the largest entry of A and B (at least 1).

    Parameters
    ----------
    A : array_like (n, n)
        State matrix (e.g. a :class:`Linearization`'s ``A`` at one instant).
    B : array_like (n, m)
        Input matrix.
    tol : float
        Relative tolerance on the smallest singular value.

    Returns
    -------
    bool
        Whether every mode of A can be moved by state feedback.

    Raises
    ------
    ValueError
        ``A`` not square, ``B`` with another number of rows, or values not finite.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> A, B = np.array([[0.0, 1.0], [0.0, 0.0]]), np.array([[0.0], [1.0]])
    >>> es.control.controllable(A, B), es.control.controllable(A, np.zeros((2, 1)))
    (True, False)
    """
    A, B = _pair(A, B)
    n = A.shape[0]
    scale = max(1.0, np.abs(A).max(), np.abs(B).max())
    for lam in np.linalg.eigvals(A):
        sv = np.linalg.svd(np.hstack([lam * np.eye(n) - A, B]), compute_uv=False)
        if sv[-1] <= tol * scale:
            return False
    return True


@renamed_keywords(method="backend")
def place_poles(A, B, poles, *, backend: str = "scipy", G=None):
    """K (m, n) with the eigenvalues of A − BK at ``poles`` (n,). ``backend="sylvester"``
    solves A T − T Λ = −B G for T, with ``G`` (m, n); then (A + B G T⁻¹) T = T Λ, so the
    thesis's K = G T⁻¹ (feedback u = +Kx) is K = −G T⁻¹ in our u = −Kx; any G with (Λ, G) observable
    works, the default is a seeded random one (a rank-one G such as all ones makes T
    singular when m > 1).

    ``backend="scipy"`` is :func:`scipy.signal.place_poles` (Kautz–Tits, ``"YT"``);
    ``backend="sylvester"`` is the Sylvester-equation form Rojas (1987), §5.6, cites
    (Bhattacharyya & de Souza 1982), with Λ a real block-diagonal matrix holding the
    poles. The pair is checked with :func:`controllable` first.

    Parameters
    ----------
    A : array_like (n, n)
        State matrix at one instant (e.g. ``lin.A``, n = 2 × joints).
    B : array_like (n, m)
        Input matrix (e.g. ``lin.B``).
    poles : array_like (n,)
        The requested closed-loop eigenvalues (1/s), finite; complex ones in conjugate
        pairs.
    backend : {"scipy", "sylvester"}
        The algorithm.
    G : array_like (m, n), optional
        The free parameter of ``"sylvester"``; a seeded random matrix by default.
        Ignored by ``"scipy"``.

    Returns
    -------
    ndarray (m, n)
        The gain K of the feedback u = −K x (for a robot: N·m/rad and N·m·s/rad).

    Raises
    ------
    ValueError
        An unknown ``backend``; ``A``, ``B`` of the wrong shapes or not finite; not n finite
        poles in conjugate pairs; an uncontrollable pair; ``G`` of the wrong shape or
        making T singular; what scipy's ``place_poles`` refuses (e.g. a pole repeated
        more often than the rank of B).

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> A, B = np.array([[0.0, 1.0], [0.0, 0.0]]), np.array([[0.0], [1.0]])
    >>> np.round(es.control.place_poles(A, B, [-1.0, -2.0]), 6)
    array([[2., 3.]])
    >>> np.round(es.control.place_poles(A, B, [-1.0, -2.0], backend="sylvester"), 6)
    array([[2., 3.]])
    """
    if backend not in PLACEMENT_METHODS:
        raise ValueError(f"backend: expected one of {PLACEMENT_METHODS}, got {backend!r}")
    A, B = _pair(A, B)
    n, m = B.shape
    p = _poles(poles, n)
    if not controllable(A, B):
        raise ValueError("A, B: the pair is not controllable; its poles cannot all be placed")
    if backend == "scipy":
        return sig.place_poles(A, B, p, method="YT").gain_matrix
    G = (
        np.random.default_rng(0).standard_normal((m, n))
        if G is None
        else np.asarray(G, dtype=float)
    )
    if G.shape != (m, n):
        raise ValueError(f"G: expected shape ({m}, {n}), got {G.shape}")
    Lam = _real_block(p)
    T = sla.solve_sylvester(A, -Lam, -B @ G)  # A T − T Λ = −B G
    if np.linalg.cond(T) > 1e12:
        raise ValueError(
            "G: T is singular for this G (choose another G, or poles that are not eigenvalues of A)"
        )
    return -G @ np.linalg.inv(T)  # (A − BK) T = A T + B G = T Λ


class LQR(NamedTuple):
    """Gain K (m, n), Riccati solution P (n, n), closed-loop poles (n,).

    What :func:`lqr` returns (a named tuple). For a robot's :class:`Linearization`,
    n = 2 × joints (δx = [δq; δq̇]) and m = joints (u = δτ).

    Attributes
    ----------
    K : ndarray ``(m, n)``
        The optimal gain of u = −K x, K = R⁻¹BᵀP.
    P : ndarray ``(n, n)``
        The stabilizing solution of the continuous algebraic Riccati equation
        AᵀP + PA − PBR⁻¹BᵀP + Q = 0 (symmetric positive semidefinite).
    poles : ndarray of complex ``(n,)``
        The eigenvalues of A − BK (1/s), unsorted.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> A, B = np.array([[0.0, 1.0], [0.0, 0.0]]), np.array([[0.0], [1.0]])
    >>> result = es.control.lqr(A, B, np.eye(2), 1.0)
    >>> np.round(result.K, 6)
    array([[1.      , 1.732051]])
    """

    K: np.ndarray
    P: np.ndarray
    poles: np.ndarray


def _weights(Q, R, n, m, field="Q"):
    """The state weight ``field`` (n, n) checked symmetric positive semidefinite and the
    input weight R (m, m) symmetric positive definite."""
    Q = np.asarray(Q, dtype=float)
    if (
        Q.shape != (n, n)
        or not np.isfinite(Q).all()
        or not np.allclose(Q, Q.T)
        or np.linalg.eigvalsh(Q).min() < -1e-12
    ):
        raise ValueError(f"{field}: expected a symmetric positive-semidefinite ({n}, {n}) matrix")
    return Q, spd_matrix(R, m, "R")


def lqr(A, B, Q, R) -> LQR:
    """Continuous LQR: the gain K of u = −Kx minimizing ∫ xᵀQx + uᵀRu for ẋ = Ax + Bu
    (the continuous algebraic Riccati equation, scipy's solver).

    Parameters
    ----------
    A : array_like (n, n)
    B : array_like (n, m)
        E.g. a :class:`Linearization`'s A and B (x = [δq; δq̇], u = δτ).
    Q : array_like (n, n)
        Symmetric positive-semidefinite state weight.
    R : array_like (m, m) or float
        Symmetric positive-definite input weight.

    Returns
    -------
    LQR
        Named fields ``K`` (m, n), ``P`` (n, n) the Riccati solution and ``poles`` (n,)
        the eigenvalues of A − BK.

    Raises
    ------
    ValueError
        Weights of the wrong shape or definiteness; a pair with no stabilizing solution.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> A, B = np.array([[0.0, 1.0], [0.0, 0.0]]), np.array([[0.0], [1.0]])
    >>> bool((es.control.lqr(A, B, np.eye(2), 1.0).poles.real < 0).all())
    True
    """
    A, B = _pair(A, B)
    n, m = B.shape
    Q, R = _weights(Q, R, n, m)
    try:
        P = sla.solve_continuous_are(A, B, Q, R)
    except (np.linalg.LinAlgError, ValueError) as exc:
        raise ValueError(
            f"A, B: no stabilizing Riccati solution (the pair is not "
            f"stabilizable, or (A, Q) has unobservable modes on the imaginary "
            f"axis): {exc}"
        ) from None
    K = np.linalg.solve(R, B.T @ P)
    return LQR(K, P, np.linalg.eigvals(A - B @ K))
