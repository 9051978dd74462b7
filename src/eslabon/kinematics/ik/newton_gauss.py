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

import dataclasses

import numpy as np

from ...spatial.invariants import vect
from ..horner import chain, point_derivatives
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


def chain_joints(model, frame="ee") -> tuple:
    """Indices of the joints on the chain from the world to ``frame`` (the ones that
    move it); the others are held where they are."""
    return tuple(int(model.q_index[b]) for b in chain(model, frame) if model.q_index[b] >= 0)


def system(model, q, R, p, frame="ee", equations="redundant", joints=None):
    """(f, J) of (3.3.1.9) and (3.3.1.19) at q: (7,), (7, k) — or (6,), (6, k) square —
    with the columns of ``joints`` (default: the chain to the frame)."""
    cols = list(chain_joints(model, frame) if joints is None else joints)
    d = point_derivatives(model, q, frame)
    P = d.rotation
    f = np.concatenate([2.0 * (vect(P) - vect(R)), [np.trace(P) - np.trace(R)], d.position - p])
    J = np.vstack([_orientation_block(P, _angular_jacobian(d)), d.jacobian])
    rows = _rows(equations)
    return f[rows], J[rows][:, cols]


def classify_singularity(model, q, frame="ee") -> str:
    """``"intrinsic"`` when the geometric Jacobian [A; ∂s/∂θ] itself is rank deficient,
    ``"spurious"`` when only the invariant equations are (φ = π, §3.4)."""
    d = point_derivatives(model, q, frame)
    cols = list(chain_joints(model, frame))
    geometric = factor(np.vstack([_angular_jacobian(d), d.jacobian])[:, cols])
    if geometric.rank < len(cols) or geometric.condition > CONDITION_LIMIT:
        return "intrinsic"
    return "spurious"


def newton_gauss(
    model,
    R,
    p,
    q0,
    *,
    frame: str = "ee",
    equations: str = "redundant",
    tol: float = 1e-12,
    max_iter: int = 30,
) -> IKResult:
    """θ with the ``frame`` at rotation ``R`` (3, 3) and point ``p`` (3,), from ``q0`` (n,).

    Newton–Gauss on (3.3.1.9) by Householder least squares over the joints on the chain
    to the frame (others are held); stops on ‖f‖∞ < tol or ‖Δθ‖∞ < tol. The result
    reports convergence, iterations, the residual and any singularity met (a singular
    start returns at once, saying so). Convergence is confirmed on the rotation itself:
    the invariant equations are also met by other rotations (φ′ = π − φ for the square
    system, any half-turn at φ = π), and such a solution is reported as not converged.
    At most 6 joints on the chain; for redundant arms use
    :func:`~eslabon.kinematics.ik.damped_least_squares`.
    """
    R = targets.rotation(R, "R")
    p = targets.point(p, "p")
    q0 = targets.start(model, q0)
    targets.tolerance(tol, max_iter)
    _rows(equations)
    cols = chain_joints(model, frame)
    if len(cols) > 6:
        raise ValueError(
            f"model: the 7×6 system needs at most 6 joints on the chain to "
            f"{frame!r}, it has {len(cols)}; use damped_least_squares for a "
            f"redundant arm"
        )

    def step_system(qc):
        q = q0.copy()
        q[list(cols)] = qc
        return system(model, q, R, p, frame, equations, cols)

    res = newton_gauss_loop(
        step_system,
        q0[list(cols)],
        tol=tol,
        max_iter=max_iter,
        classify=lambda qc, fac: classify_singularity(model, _full(q0, cols, qc), frame),
        what=f"newton_gauss ({equations})",
    )
    q = _full(q0, cols, res.q)
    res = dataclasses.replace(res, q=q, frame=frame, equations=equations, joints=cols)
    if res.converged:
        P = point_derivatives(model, q, frame).rotation
        miss = float(np.max(np.abs(P - R)))
        if miss > 1e-8:
            return dataclasses.replace(
                res,
                converged=False,
                message=f"newton_gauss ({equations}): the invariant "
                f"equations hold but the rotation is another one (max |P − R| = {miss:.2e}:"
                f" the φ′ = π − φ branch of the square system, or a half-turn about another"
                f" axis at φ = π)",
            )
    return res


def _full(q0, cols, qc):
    q = np.array(q0, dtype=float)
    q[list(cols)] = qc
    return q


def _solution_factor(solution: IKResult, frame):
    if not isinstance(solution, IKResult) or solution.factor is None or not solution.equations:
        raise ValueError("solution: expected the IKResult of newton_gauss")
    if frame is not None and frame != solution.frame:
        raise ValueError(
            f"frame: the solution was found for frame {solution.frame!r}, not {frame!r}"
        )
    if not solution.converged:
        raise ValueError(f"solution: the IK did not converge ({solution.message})")
    if solution.singular:
        raise ValueError(
            f"solution: the Jacobian is singular there "
            f"({solution.singularity}); rates are not unique"
        )
    return solution.factor


def _invariant_rows(P, w, square):
    rows = [(np.trace(P) * np.eye(3) - P) @ w]
    if not square:
        rows.append([-2.0 * vect(P) @ w])
    return rows


def _back_substitute(fac, solution, rhs, model, fields):
    """θ̇ or θ̈ (n,) from the stored factor; zero for joints off the chain. A right-hand
    side the chain cannot produce (fewer than 6 joints) is an error naming the data."""
    x = fac.solve(rhs)
    miss = float(np.max(np.abs(fac.q_matrix @ (fac.r_matrix @ x) - rhs)))
    if miss > 1e-8 * max(1.0, float(np.max(np.abs(rhs)))):
        raise ValueError(
            f"{fields}: not reachable by the {len(solution.joints)} joints on "
            f"the chain (least-squares residual {miss:.2e})"
        )
    out = np.zeros(model.nq)
    out[list(solution.joints)] = x
    return out


def rates(model, solution: IKResult, omega, p_dot, *, frame: str | None = None):
    """θ̇ (n,) from the frame's angular velocity ω (3,) and point velocity ṗ (3,), world
    axes (3.3.2.14), by back substitution with the solution's stored factor (the frame is
    the solution's)."""
    fac = _solution_factor(solution, frame)
    omega = targets.point(omega, "omega")
    p_dot = targets.point(p_dot, "p_dot")
    P = point_derivatives(model, solution.q, solution.frame).rotation
    square = solution.equations == "square"
    return _back_substitute(
        fac,
        solution,
        np.concatenate(_invariant_rows(P, omega, square) + [p_dot]),
        model,
        "omega, p_dot",
    )


def accelerations(model, solution: IKResult, qd, omega_dot, p_ddot, *, frame: str | None = None):
    """θ̈ (n,) from ω̇ (3,), p̈ (3,) and the rates θ̇ (n,) (VELAC form of 3.3.3.5)."""
    fac = _solution_factor(solution, frame)
    frame = solution.frame
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
    s_bias = np.einsum("ajk,j,k->a", d.hessian, qd, qd)  # θ̇ᵀ (∂²s/∂θ²) θ̇
    square = solution.equations == "square"
    return _back_substitute(
        fac,
        solution,
        np.concatenate(_invariant_rows(d.rotation, w_tilde, square) + [p_ddot - s_bias]),
        model,
        "omega_dot, p_ddot",
    )
