"""Inverse kinematics of a 6-DOF chain by the thesis's redundant 7×6 system.

Seed 000 (Rojas 1987) §3.3, program routines FUN, DFDX, NLLS, VELAC. With P the frame's
rotation and s its point at θ, and (R, p) the target, the closure conditions P = R and
s = p become seven equations (3.3.1.9), in the program's order:

    f = [2 vect(P) − 2 vect(R);  tr P − tr R;  s − p]

whose Jacobian (3.3.1.19) is, with A = [e₁ … e_n] (zero columns for prismatic joints),

    J = [(tr P·1 − P) A;  −2 vect(P)ᵀ A;  ∂s/∂θ]               (3.3.1.15, .17, .18)

The trace row only looks redundant (λ₀² + ‖λ‖² = 1, 3.3.1.8): it keeps J full rank at
φ = ±π/2 where tr P·1 − P has rank 2. ``equations="square"`` drops it (the plain 6×6
system the thesis compares against). At φ = π both are rank deficient: a *spurious*
singularity, reported as such (§3.4).

Rates and accelerations reuse the factor at the solution (3.3.2.14 and the VELAC form
of 3.3.3.5, whose printed version is garbled):

    J θ̇ = [(tr R·1 − R) ω;  −2 λᵀ ω;  ṗ]
    J θ̈ = [(tr R·1 − R) w̃;  −2 λᵀ w̃;  p̈ − θ̇ᵀ (∂²s/∂θ²) θ̇],   w̃ = ω̇ − Ȧ θ̇,
    Ȧ θ̇ = Σ_j θ̇_j ω_{j−1} × e_j                                   (3.3.3.2)
"""
from __future__ import annotations

import numpy as np

from ...spatial.invariants import vect
from ..horner import point_derivatives
from . import targets
from .gauss import CONDITION_LIMIT, IKResult, factor, newton_gauss_loop

EQUATIONS = ("redundant", "square")


def _rows(equations):
    if equations not in EQUATIONS:
        raise ValueError(f"equations: expected one of {EQUATIONS}, got {equations!r}")
    return [0, 1, 2, 3, 4, 5, 6] if equations == "redundant" else [0, 1, 2, 4, 5, 6]


def _orientation_block(P, A):
    """Rows 1–4 of J: [(tr P·1 − P) A; −2 vect(P)ᵀ A]."""
    return np.vstack([(np.trace(P) * np.eye(3) - P) @ A, -2.0 * vect(P) @ A])


def _angular_jacobian(d):
    """A = [e₁ … e_n], zero columns for prismatic (and off-chain) joints."""
    return (d.axes * d.revolute[:, None]).T


def system(model, q, R, p, frame="ee", equations="redundant"):
    """(f, J) of (3.3.1.9) and (3.3.1.19) at q: (7,), (7, n) — or (6,), (6, n) square."""
    d = point_derivatives(model, q, frame)
    P = d.rotation
    f = np.concatenate([2.0 * (vect(P) - vect(R)), [np.trace(P) - np.trace(R)],
                        d.position - p])
    J = np.vstack([_orientation_block(P, _angular_jacobian(d)), d.jacobian])
    rows = _rows(equations)
    return f[rows], J[rows]


def classify_singularity(model, q, frame="ee") -> str:
    """``"intrinsic"`` when the geometric Jacobian [A; ∂s/∂θ] itself is rank deficient,
    ``"spurious"`` when only the invariant equations are (φ = π, §3.4)."""
    d = point_derivatives(model, q, frame)
    geometric = factor(np.vstack([_angular_jacobian(d), d.jacobian]))
    if geometric.rank < model.nq or geometric.condition > CONDITION_LIMIT:
        return "intrinsic"
    return "spurious"


def newton_gauss(model, R, p, q0, *, frame: str = "ee", equations: str = "redundant",
                 tol: float = 1e-12, max_iter: int = 30) -> IKResult:
    """θ with the ``frame`` at rotation ``R`` (3, 3) and point ``p`` (3,), from ``q0`` (n,).

    Newton–Gauss on (3.3.1.9) by Householder least squares; stops on ‖f‖∞ < tol or
    ‖Δθ‖∞ < tol. The result reports convergence, iterations, the residual and any
    singularity met (a singular start returns at once, saying so). n ≤ 6; for redundant
    arms use :func:`~eslabon.kinematics.ik.damped_least_squares`.
    """
    R = targets.rotation(R, "R")
    p = targets.point(p, "p")
    q0 = targets.start(model, q0)
    targets.tolerance(tol, max_iter)
    _rows(equations)
    if model.nq > 6:
        raise ValueError(f"model: the 7×6 system needs at most 6 joints, this model has "
                         f"{model.nq}; use damped_least_squares for a redundant arm")
    return newton_gauss_loop(
        lambda q: system(model, q, R, p, frame, equations), q0, tol=tol, max_iter=max_iter,
        classify=lambda q, fac: classify_singularity(model, q, frame),
        what=f"newton_gauss ({equations})")


def _solution_factor(solution: IKResult):
    if not isinstance(solution, IKResult) or solution.factor is None:
        raise ValueError("solution: expected the IKResult of newton_gauss")
    if not solution.converged:
        raise ValueError(f"solution: the IK did not converge ({solution.message})")
    if solution.singular:
        raise ValueError(f"solution: the Jacobian is singular there "
                         f"({solution.singularity}); rates are not unique")
    return solution.factor


def _invariant_rows(P, w, square):
    rows = [(np.trace(P) * np.eye(3) - P) @ w]
    if not square:
        rows.append([-2.0 * vect(P) @ w])
    return rows


def rates(model, solution: IKResult, omega, p_dot, *, frame: str = "ee"):
    """θ̇ (n,) from the frame's angular velocity ω (3,) and point velocity ṗ (3,), world
    axes (3.3.2.14), by back substitution with the solution's stored factor."""
    fac = _solution_factor(solution)
    omega = targets.point(omega, "omega")
    p_dot = targets.point(p_dot, "p_dot")
    P = point_derivatives(model, solution.q, frame).rotation
    square = fac.q_matrix.shape[0] == 6
    return fac.solve(np.concatenate(_invariant_rows(P, omega, square) + [p_dot]))


def accelerations(model, solution: IKResult, qd, omega_dot, p_ddot, *, frame: str = "ee"):
    """θ̈ (n,) from ω̇ (3,), p̈ (3,) and the rates θ̇ (n,) (VELAC form of 3.3.3.5)."""
    fac = _solution_factor(solution)
    qd = targets.start(model, qd, "qd")
    omega_dot = targets.point(omega_dot, "omega_dot")
    p_ddot = targets.point(p_ddot, "p_ddot")
    d = point_derivatives(model, solution.q, frame, hessian=True)
    # Ȧθ̇ = Σ_j θ̇_j ω_{j−1} × e_j (3.3.3.2), ω_{j−1} accumulated along the chain
    A = _angular_jacobian(d)
    a_dot_qd = np.zeros(3)
    w = np.zeros(3)
    for j in range(model.nq):
        a_dot_qd += qd[j] * np.cross(w, A[:, j])
        w = w + qd[j] * A[:, j]
    w_tilde = omega_dot - a_dot_qd
    s_bias = np.einsum("ajk,j,k->a", d.hessian, qd, qd)        # θ̇ᵀ (∂²s/∂θ²) θ̇
    square = fac.q_matrix.shape[0] == 6
    return fac.solve(np.concatenate(_invariant_rows(d.rotation, w_tilde, square)
                                    + [p_ddot - s_bias]))
