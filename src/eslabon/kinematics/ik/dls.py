"""Damped least-squares inverse kinematics for any model (Wampler 1986; Nakamura & Hanafusa
1986; the Levenberg–Marquardt damping of Sugihara 2011).

Not from the seeds: the general solver users expect beside the thesis's 7×6 system. It
works for redundant arms (n > 6), for position-only targets and through singular poses
(where the thesis's method stops). With the geometric Jacobian J (world axes,
[angular; linear]) and the pose error e = [log(R Pᵀ); p − s]:

    Δθ = Jᵀ (J Jᵀ + μ‖e‖² 1 + ε 1)⁻¹ e

and the step is taken only if it reduces ‖e‖ (otherwise μ grows tenfold).
"""

from __future__ import annotations

import numpy as np

from ...spatial.invariants import axis_angle
from ..forward import frame_pose, jacobian
from . import targets
from .gauss import IKResult


def _error(model, q, R, p, frame):
    T = frame_pose(model, q, frame)
    e_pos = p - T[:3, 3]
    if R is None:
        return e_pos
    axis, angle = axis_angle(R @ T[:3, :3].T)
    return np.concatenate([axis * angle, e_pos])


def damped_least_squares(
    model,
    R=None,
    p=None,
    q0=None,
    *,
    frame: str = "ee",
    tol: float = 1e-12,
    max_iter: int = 500,
    damping: float = 1e-3,
    floor: float = 1e-12,
) -> IKResult:
    """θ placing ``frame`` at rotation ``R`` (3, 3, or None for position only) and point
    ``p`` (3,), from ``q0`` (n,). Converged when max |e| < tol (e in rad and m)."""
    if p is None:
        raise ValueError("p: expected the target point, shape (3,)")
    p = targets.point(p, "p")
    R = None if R is None else targets.rotation(R, "R")
    q = targets.start(model, np.zeros(model.nq) if q0 is None else q0)
    targets.tolerance(tol, max_iter)
    if not damping > 0:
        raise ValueError(f"damping: expected a positive number, got {damping!r}")
    if not floor >= 0:
        raise ValueError(f"floor: expected a non-negative number, got {floor!r}")
    rows = slice(0, 6) if R is not None else slice(3, 6)
    e = _error(model, q, R, p, frame)
    mu = damping
    it = 0
    while np.max(np.abs(e)) >= tol and it < max_iter:
        J = jacobian(model, q, frame)[rows]
        lam = mu * float(e @ e) + floor
        dq = J.T @ np.linalg.solve(J @ J.T + lam * np.eye(J.shape[0]), e)
        trial = _error(model, q + dq, R, p, frame)
        it += 1
        if trial @ trial < e @ e:
            q, e = q + dq, trial
            mu = max(mu / 10.0, damping)
        else:
            mu *= 10.0
            if mu > 1e12:
                break
    residual = float(np.max(np.abs(e)))
    sv = np.linalg.svd(jacobian(model, q, frame)[rows], compute_uv=False)
    rank = int(np.sum(sv > sv[0] * 1e-12)) if sv[0] > 0 else 0
    condition = float(sv[0] / sv[-1]) if sv[-1] > 0 else np.inf
    singular = rank < len(sv)
    converged = residual < tol
    msg = (
        f"damped_least_squares: converged in {it} iterations (max |e| = {residual:.1e})"
        if converged
        else f"damped_least_squares: no convergence after {it} iterations "
        f"(max |e| = {residual:.3e}; the target may be out of reach)"
    )
    return IKResult(
        q,
        converged,
        it,
        residual,
        singular,
        "intrinsic" if singular else "none",
        rank,
        condition,
        msg,
        None,
        frame,
        "damped_least_squares",
        tuple(range(model.nq)),
    )
