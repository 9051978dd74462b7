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


def _solution_frames(model, solution, frames):
    """The two frames ``solution`` was solved for; ``frames``, when given, must be them."""
    used = solution.frames
    if frames is None:
        return used
    frames = _frames(model, frames)
    if frames != used:
        raise ValueError(f"frames: the solution was solved for {used}, got {frames}")
    return frames


def _rigid(model, q0, frames):
    """True when the two frame points keep their distance whatever the joints do."""
    dist: list[float] = []
    for q in (q0, q0 + np.random.default_rng(0).uniform(-1.0, 1.0, model.nq)):
        h, s = (point_derivatives(model, q, f).position for f in frames)
        dist.append(float(np.linalg.norm(h - s)))
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
    5-DOF arm) at ``p`` and ``p_prime`` (3,), from ``q0`` (n,).

    Rojas Salgado (1987) §3.5: the 6 equations [h(θ) − p; s(θ) − p′] (3.5.1.3–4) in the
    n joints, solved by the same Newton–Gauss least squares as :func:`newton_gauss`
    (Householder QR, stop on ‖f‖∞ < ``tol`` or ‖Δθ‖∞ < ``tol``). Every joint of the model
    is an unknown. For a rigid tool the Jacobian has rank at most 5 (the two points keep
    their distance), so the arm should have 5 joints: with 6 it is singular. When the
    two points keep their distance whatever the joints do (tested at ``q0`` and at one
    other configuration), ‖p − p′‖ must equal it.

    Parameters
    ----------
    model : Model
        Revolute, prismatic and fixed joints only; all ``model.nq`` joints are solved for.
    p : array_like (3,)
        Target of the first frame's origin (O₅, on the tool axis), m, world axes.
    p_prime : array_like (3,)
        Target of the second frame's origin (O₆, further along the axis), m, world axes.
    q0 : array_like (n,)
        Start, n = ``model.nq``: rad (revolute), m (prismatic).
    frames : (str, str), optional
        Names of two of ``model.frames`` (body names are not accepted); default
        (``f"dh{n - 1}"``, ``f"dh{n}"``), the last two DH frames.
    tol : float, optional
        Convergence (and stall) threshold on ‖f‖∞ (m) and ‖Δθ‖∞; default 1e-12.
    max_iter : int, optional
        Most Newton steps (default 30).

    Returns
    -------
    IKResult
        ``q`` (n,) rad, m; ``converged``, ``iterations``, ``residual`` ‖f‖∞ (m),
        ``singular`` (``singularity`` is then always ``"intrinsic"``), ``rank``,
        ``condition``, ``message``, the ``factor`` for :func:`two_point_rates` and
        :func:`two_point_accelerations`; ``frame`` is the two frame names joined by a
        space, ``equations`` ``"two_point"``, ``joints`` every joint.

    Raises
    ------
    ValueError
        ``frames`` not two of the model's frame names; ``p`` or ``p_prime`` not 3 finite
        numbers; ``q0`` not one finite configuration of shape (n,); a model with a joint
        other than revolute, prismatic or fixed (or a mimic joint); ``tol`` or
        ``max_iter`` invalid; for a rigid pair of points, ‖p − p′‖ differing from their
        distance at ``q0`` by more than 1e-9 (relative to max(1, distance)): ``"p_prime:
        the two points do not move as one rigid tool"``.

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon.kinematics import ik
    >>> t3 = es.zoo.load("cincinnati_t3")
    >>> rows = [dict(r, inertia=np.eye(3)) for r in t3.dh.rows[:4]]  # the T3's joints 1–4
    >>> rows.append(dict(rows[3], d=0.25, b=0.1, name="tool link"))
    >>> arm = es.from_dh(rows, "rojas")  # a 5R arm: O₅ is frame dh4, O₆ frame dh5
    >>> q = np.array([0.2, 1.4, -2.0, 0.5, 1.0])
    >>> h, s = (es.kinematics.frame_pose(arm, q, f)[:3, 3] for f in ("dh4", "dh5"))
    >>> sol = ik.two_point(arm, h, s, q + 0.05)
    >>> sol.converged, sol.iterations <= 10, sol.frame
    (True, True, 'dh4 dh5')
    >>> bool(np.allclose(sol.q, q))
    True
    """
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
        res,
        frame=" ".join(frames),
        equations="two_point",
        joints=tuple(range(model.nq)),
        frames=tuple(frames),
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
    """θ̇ (n,) from the point velocities ṗ, ṗ′ (3,) (3.5.2.4).

    Rojas Salgado (1987) §3.5.2: J θ̇ = [ṗ; ṗ′], solved with the stored factor of the
    solution (a least-squares solve: the data are only checked for rigidity). The
    velocities must keep the tool rigid, (p − p′)·(ṗ − ṗ′) = 0 to 1e-9 relative, where
    the two points keep their distance (as in :func:`two_point`, the check is skipped
    when a joint between them changes it).

    Parameters
    ----------
    model : Model
        The model the solution was found for.
    solution : IKResult
        A converged, regular result of :func:`two_point`.
    p, p_prime : array_like (3,)
        The two target points of the solve, m, world axes (used for the rigidity check).
    p_dot, p_prime_dot : array_like (3,)
        Velocities ṗ and ṗ′ of the two points, m/s, world axes.
    frames : (str, str), optional
        The two frames; by default those ``solution`` was found for, and refused when
        they differ from them.

    Returns
    -------
    ndarray (n,)
        θ̇, n = ``model.nq``: rad/s (revolute), m/s (prismatic).

    Raises
    ------
    ValueError
        ``solution`` not a converged :class:`IKResult` of :func:`two_point`, or singular
        there (the rates are not unique); a point or velocity not 3 finite numbers;
        ``frames`` not two of the model's frames; velocities that stretch the tool
        (``"p_prime_dot: the two points do not move as one rigid tool"``).

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon.kinematics import ik
    >>> t3 = es.zoo.load("cincinnati_t3")
    >>> rows = [dict(r, inertia=np.eye(3)) for r in t3.dh.rows[:4]]  # the T3's joints 1–4
    >>> rows.append(dict(rows[3], d=0.25, b=0.1, name="tool link"))
    >>> arm = es.from_dh(rows, "rojas")  # a 5R arm: O₅ is frame dh4, O₆ frame dh5
    >>> q = np.array([0.2, 1.4, -2.0, 0.5, 1.0])
    >>> h, s = (es.kinematics.frame_pose(arm, q, f)[:3, 3] for f in ("dh4", "dh5"))
    >>> sol = ik.two_point(arm, h, s, q + 0.05)
    >>> qd = np.array([0.3, -0.2, 0.1, 0.4, -0.5])
    >>> v, v1 = (es.jacobian(arm, q, f)[3:] @ qd for f in ("dh4", "dh5"))  # ṗ, ṗ′
    >>> bool(np.allclose(ik.two_point_rates(arm, sol, h, s, v, v1), qd))
    True
    """
    fac = _solved(solution)
    frames = _solution_frames(model, solution, frames)
    d = targets.point(p, "p") - targets.point(p_prime, "p_prime")
    v = targets.point(p_dot, "p_dot") - targets.point(p_prime_dot, "p_prime_dot")
    if _rigid(model, solution.q, frames):
        _check(float(d @ v), "p_prime_dot", float(np.linalg.norm(d) * np.linalg.norm(v)))
    return fac.solve(np.concatenate([p_dot, p_prime_dot]))


def two_point_accelerations(
    model, solution, qd, p, p_prime, p_dot, p_prime_dot, p_ddot, p_prime_ddot, *, frames=None
):
    """θ̈ (n,) from the point accelerations p̈, p̈′ (3,) and the rates θ̇ (3.5.2.5).

    Rojas Salgado (1987) §3.5.2: J θ̈ = [p̈ − θ̇ᵀ(∂²h/∂θ²)θ̇; p̈′ − θ̇ᵀ(∂²s/∂θ²)θ̇] (3.5.2.5;
    its printed first row wrongly says s₁), solved with the solution's stored factor
    (least squares, no residual check). The accelerations must keep the tool rigid,
    (p − p′)·(p̈ − p̈′) + ‖ṗ − ṗ′‖² = 0 to 1e-9 relative, where the two points keep their
    distance (as in :func:`two_point`). The Hessians are those of the solution's frames
    at ``solution.q``.

    Parameters
    ----------
    model : Model
        The model the solution was found for.
    solution : IKResult
        A converged, regular result of :func:`two_point`.
    qd : array_like (n,)
        Joint rates θ̇ at the solution (e.g. from :func:`two_point_rates`): rad/s, m/s.
    p, p_prime : array_like (3,)
        The two target points of the solve, m, world axes.
    p_dot, p_prime_dot : array_like (3,)
        Their velocities, m/s, world axes.
    p_ddot, p_prime_ddot : array_like (3,)
        Their accelerations p̈ and p̈′ (classical accelerations of the points), m/s²,
        world axes.
    frames : (str, str), optional
        The two frames; by default those ``solution`` was found for, and refused when
        they differ from them.

    Returns
    -------
    ndarray (n,)
        θ̈, n = ``model.nq``: rad/s² (revolute), m/s² (prismatic).

    Raises
    ------
    ValueError
        ``solution`` not a converged, regular :class:`IKResult` of :func:`two_point`;
        ``frames`` not two of the model's frames; ``qd`` not one finite (n,) vector; a
        point, velocity or acceleration not 3 finite numbers; accelerations that break
        the tool's rigidity (``"p_prime_ddot: the two points do not move as one rigid
        tool"``).

    Examples
    --------
    Point velocities and accelerations of a joint motion (θ̇, θ̈), ṗ = J θ̇ and
    p̈ = J θ̈ + J̇ θ̇ (J̇ θ̇ by a central difference):

    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon.kinematics import ik
    >>> t3 = es.zoo.load("cincinnati_t3")
    >>> rows = [dict(r, inertia=np.eye(3)) for r in t3.dh.rows[:4]]  # the T3's joints 1–4
    >>> rows.append(dict(rows[3], d=0.25, b=0.1, name="tool link"))
    >>> arm = es.from_dh(rows, "rojas")  # a 5R arm: O₅ is frame dh4, O₆ frame dh5
    >>> q = np.array([0.2, 1.4, -2.0, 0.5, 1.0])
    >>> h, s = (es.kinematics.frame_pose(arm, q, f)[:3, 3] for f in ("dh4", "dh5"))
    >>> sol = ik.two_point(arm, h, s, q + 0.05)
    >>> qd, qdd = np.array([0.3, -0.2, 0.1, 0.4, -0.5]), np.array([1.0, 0.5, -0.5, 0.2, 0.3])
    >>> def motion(frame, eps=1e-5):
    ...     J = es.jacobian(arm, q, frame)[3:]
    ...     dJ = es.jacobian(arm, q + eps * qd, frame) - es.jacobian(arm, q - eps * qd, frame)
    ...     return J @ qd, J @ qdd + dJ[3:] @ qd / (2 * eps)
    >>> (v, a), (v1, a1) = motion("dh4"), motion("dh5")
    >>> x = ik.two_point_accelerations(arm, sol, qd, h, s, v, v1, a, a1)
    >>> bool(np.allclose(x, qdd))
    True
    """
    fac = _solved(solution)
    frames = _solution_frames(model, solution, frames)
    qd = targets.start(model, qd, "qd")
    d = targets.point(p, "p") - targets.point(p_prime, "p_prime")
    v = targets.point(p_dot, "p_dot") - targets.point(p_prime_dot, "p_prime_dot")
    a = targets.point(p_ddot, "p_ddot") - targets.point(p_prime_ddot, "p_prime_ddot")
    if _rigid(model, solution.q, frames):
        _check(
            float(d @ a + v @ v),
            "p_prime_ddot",
            float(np.linalg.norm(d) * np.linalg.norm(a) + v @ v),
        )
    h, s, _, _ = _system(model, solution.q, p, p_prime, frames, hessian=True)
    bias_h = np.einsum("ajk,j,k->a", h.hessian, qd, qd)
    bias_s = np.einsum("ajk,j,k->a", s.hessian, qd, qd)
    return fac.solve(np.concatenate([p_ddot - bias_h, p_prime_ddot - bias_s]))
