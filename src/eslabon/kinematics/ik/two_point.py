"""Five-DOF inverse kinematics of an axisymmetric tool placed by two points on its axis.

Seed 000 (Rojas 1987) §3.5. A tool that is symmetric about its axis needs 5 joints: the
axis is fixed by two of its points. With h(θ) the origin O₅ (end of link 4, backward
recursion h₄ = a₄, h_k = a_k + Q_k h_{k+1}) and s(θ) the origin O₆ (end of link 5), the
6 equations in 5 unknowns (3.5.1.3–4)

    f = [h(θ) − p;  s(θ) − p′]

are solved by the Newton–Gauss least squares of :mod:`.gauss`. Rates and accelerations
use the same factor (3.5.2.4–5; the printed first row of the latter wrongly says s₁):

    J θ̇ = [ṗ; ṗ′]      J θ̈ = [p̈ − θ̇ᵀ(∂²h/∂θ²)θ̇;  p̈′ − θ̇ᵀ(∂²s/∂θ²)θ̇]

The data must respect the rigidity of the tool: |p − p′| equals the distance of the two
points on the robot, (p − p′)·(ṗ − ṗ′) = 0 and (p − p′)·(p̈ − p̈′) + |ṗ − ṗ′|² = 0.
Inconsistent data raise a ValueError instead of a least-squares compromise. (The check
applies when the two points keep their distance, as O₅ and O₆ of a 5R arm do; if the
joints between them change it — a prismatic joint — it is skipped.)
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..horner import point_derivatives
from . import targets
from .gauss import IKResult, newton_gauss_loop

RIGIDITY_TOL = 1e-9


def _frames(model, frames):
    if frames is None:
        frames = (f"dh{model.nq - 1}", f"dh{model.nq}")
    names = [f.name for f in model.frames]
    if len(frames) != 2 or any(name not in names for name in frames):
        raise ValueError(f"frames: expected two of this model's frames {names}, got {frames!r}")
    return tuple(frames)


def _rigid(model, q0, frames):
    """True when the two frame points keep their distance whatever the joints do."""
    dist = []
    for q in (q0, q0 + np.random.default_rng(0).uniform(-1.0, 1.0, model.nq)):
        h, s = (point_derivatives(model, q, f).position for f in frames)
        dist.append(np.linalg.norm(h - s))
    return abs(dist[0] - dist[1]) <= 1e-12 * max(1.0, dist[0])


def _system(model, q, p, p_prime, frames, hessian=False):
    h = point_derivatives(model, q, frames[0], hessian)
    s = point_derivatives(model, q, frames[1], hessian)
    return (
        h,
        s,
        np.concatenate([h.position - p, s.position - p_prime]),
        np.vstack([h.jacobian, s.jacobian]),
    )


def _check(value, field, scale):
    if abs(value) > RIGIDITY_TOL * max(1.0, scale):
        raise ValueError(
            f"{field}: the two points do not move as one rigid tool (rigidity residual {value:.3e})"
        )


def two_point(
    model, p, p_prime, q0, *, frames=None, tol: float = 1e-12, max_iter: int = 30
) -> IKResult:
    """θ placing the points of ``frames`` (default the last two DH frames, O₅ and O₆ of a
    5-DOF arm) at ``p`` and ``p_prime`` (3,), from ``q0`` (n,)."""
    frames = _frames(model, frames)
    p = targets.point(p, "p")
    p_prime = targets.point(p_prime, "p_prime")
    q0 = targets.start(model, q0)
    targets.tolerance(tol, max_iter)
    h, s, _, _ = _system(model, q0, p, p_prime, frames)
    length = float(np.linalg.norm(h.position - s.position))
    if _rigid(model, q0, frames):
        _check(float(np.linalg.norm(p - p_prime)) - length, "p_prime", length)
    res = newton_gauss_loop(
        lambda q: _system(model, q, p, p_prime, frames)[2:],
        q0,
        tol=tol,
        max_iter=max_iter,
        classify=lambda q, fac: "intrinsic",
        what="two_point",
    )
    return dataclasses.replace(
        res, frame=" ".join(frames), equations="two_point", joints=tuple(range(model.nq))
    )


def _solved(solution):
    if (
        not isinstance(solution, IKResult)
        or solution.factor is None
        or not solution.converged
        or solution.equations != "two_point"
    ):
        raise ValueError("solution: expected a converged IKResult of two_point")
    if solution.singular:
        raise ValueError("solution: the Jacobian is singular there; rates are not unique")
    return solution.factor


def two_point_rates(model, solution, p, p_prime, p_dot, p_prime_dot, *, frames=None):
    """θ̇ (n,) from the point velocities ṗ, ṗ′ (3,) (3.5.2.4)."""
    fac = _solved(solution)
    d = targets.point(p, "p") - targets.point(p_prime, "p_prime")
    v = targets.point(p_dot, "p_dot") - targets.point(p_prime_dot, "p_prime_dot")
    _check(float(d @ v), "p_prime_dot", float(np.linalg.norm(d) * np.linalg.norm(v)))
    _frames(model, frames)
    return fac.solve(np.concatenate([p_dot, p_prime_dot]))


def two_point_accelerations(
    model, solution, qd, p, p_prime, p_dot, p_prime_dot, p_ddot, p_prime_ddot, *, frames=None
):
    """θ̈ (n,) from the point accelerations p̈, p̈′ (3,) and the rates θ̇ (3.5.2.5)."""
    fac = _solved(solution)
    frames = _frames(model, frames)
    qd = targets.start(model, qd, "qd")
    d = targets.point(p, "p") - targets.point(p_prime, "p_prime")
    v = targets.point(p_dot, "p_dot") - targets.point(p_prime_dot, "p_prime_dot")
    a = targets.point(p_ddot, "p_ddot") - targets.point(p_prime_ddot, "p_prime_ddot")
    _check(
        float(d @ a + v @ v), "p_prime_ddot", float(np.linalg.norm(d) * np.linalg.norm(a) + v @ v)
    )
    h, s, _, _ = _system(model, solution.q, p, p_prime, frames, hessian=True)
    bias_h = np.einsum("ajk,j,k->a", h.hessian, qd, qd)
    bias_s = np.einsum("ajk,j,k->a", s.hessian, qd, qd)
    return fac.solve(np.concatenate([p_ddot - bias_h, p_prime_ddot - bias_s]))
