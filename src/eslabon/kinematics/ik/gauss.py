"""The Newton–Gauss least-squares driver shared by the thesis's IK systems.

Seed 000 (Rojas 1987) §3.3.1, routines NLLS/HECOMP/HOLVE: θ^{k+1} = θ^k + Δθ^k with
J(θ^k) Δθ^k = −f(θ^k) solved in the least-squares sense by Householder QR (LAPACK
``geqrf`` through :func:`scipy.linalg.qr`) and back substitution — the normal equations
(JᵀJ)⁻¹Jᵀ are never formed. Stop when ‖f‖∞ < tol or ‖Δθ‖∞ < tol (max norm, FNORM).

The factor at the solution is kept, so joint rates and accelerations cost one back
substitution each (§3.3.2–3.3.3). Rank and a condition estimate come from the same
triangular factor (LAPACK ``trcon``, the Cline–Moler–Stewart–Wilkinson family the
thesis cites for §3.3.1.12 and §3.4).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.linalg import lapack, qr, solve_triangular

#: a factor with κ above this is reported singular
CONDITION_LIMIT = 1e10


@dataclass(frozen=True)
class QRFactor:
    """J = Q R (economic) at a configuration; solves J x = b in the least-squares sense."""

    q_matrix: np.ndarray
    r_matrix: np.ndarray
    rank: int
    condition: float

    def solve(self, rhs):
        """x minimizing ‖J x − rhs‖₂ (rhs (m,) or (m, k)) by back substitution."""
        return solve_triangular(self.r_matrix, self.q_matrix.T @ rhs)


def factor(J) -> QRFactor:
    """Householder QR of an (m, n) Jacobian, m ≥ n, with its rank and condition estimate."""
    Qm, Rm = qr(J, mode="economic")
    d = np.abs(np.diag(Rm))
    scale = d.max() if d.size else 0.0
    rank = int(np.sum(d > scale * 1e-12)) if scale > 0.0 else 0
    if rank < Rm.shape[1]:
        condition = np.inf
    else:
        rcond, info = lapack.dtrcon(Rm, norm="1", uplo="U", diag="N")
        condition = np.inf if info != 0 or rcond == 0.0 else 1.0 / rcond
    return QRFactor(Qm, Rm, rank, float(condition))


@dataclass(frozen=True)
class IKResult:
    """What an inverse-kinematics solve found. Check ``converged`` before using ``q``.

    q (n,): the last iterate; iterations: Newton steps taken; residual: ‖f(q)‖∞ at q;
    singular / singularity (``"none"``, ``"intrinsic"``, ``"spurious"``; spurious means
    only the orientation equations degenerate — φ = π for the 7×6 system, also φ = ±π/2
    for the square one, §3.4); rank and condition of the Jacobian at q (a κ₁ estimate from
    the QR factor for the Newton–Gauss solvers, κ₂ from the SVD for damped least squares);
    message: one line for humans; frame, equations and joints (the joints solved for, the
    ones on the chain to the frame) as the solve was asked, used by the rate solvers.
    """

    q: np.ndarray
    converged: bool
    iterations: int
    residual: float
    singular: bool
    singularity: str
    rank: int
    condition: float
    message: str
    factor: QRFactor | None = field(default=None, repr=False)
    frame: str = "ee"
    equations: str = ""
    joints: tuple = ()


def newton_gauss_loop(system, q0, *, tol: float, max_iter: int, classify, what: str) -> IKResult:
    """Iterate ``system(q) -> (f, J)`` from ``q0``. ``classify(q, factor) -> str`` names a
    singular factor ("intrinsic" or "spurious")."""
    q = np.array(q0, dtype=float)
    iterations = 0
    step = np.inf
    while True:
        f, J = system(q)
        fac = factor(J)
        residual = float(np.max(np.abs(f)))
        singular = fac.rank < J.shape[1] or fac.condition > CONDITION_LIMIT
        kind = classify(q, fac) if singular else "none"
        if residual < tol:
            msg = f"{what}: converged in {iterations} iterations (‖f‖∞ = {residual:.1e})"
            if singular:
                msg += f"; the Jacobian is singular there ({kind})"
            return IKResult(
                q, True, iterations, residual, singular, kind, fac.rank, fac.condition, msg, fac
            )
        if step < tol:
            return IKResult(
                q,
                False,
                iterations,
                residual,
                singular,
                kind,
                fac.rank,
                fac.condition,
                f"{what}: stalled at ‖f‖∞ = {residual:.3e} "
                f"(the least-squares minimum: the target is not reachable "
                f"from here)",
                fac,
            )
        if singular:
            return IKResult(
                q,
                False,
                iterations,
                residual,
                True,
                kind,
                fac.rank,
                fac.condition,
                f"{what}: the Jacobian is singular ({kind}; "
                f"rank {fac.rank} of {J.shape[1]}, κ ≈ {fac.condition:.2e}) at "
                f"iteration {iterations}; no Newton step",
                fac,
            )
        if iterations >= max_iter:
            return IKResult(
                q,
                False,
                iterations,
                residual,
                False,
                "none",
                fac.rank,
                fac.condition,
                f"{what}: no convergence in {max_iter} iterations (‖f‖∞ = {residual:.3e})",
                fac,
            )
        dq = fac.solve(-f)
        q = q + dq
        step = float(np.max(np.abs(dq)))
        iterations += 1
