"""Damped least-squares inverse kinematics for any model (Wampler 1986; Nakamura & Hanafusa
1986; the Levenberg–Marquardt damping of Sugihara 2011).

Not from the seeds: the general solver users expect beside the thesis's 7×6 system. It
works for redundant arms (n > 6), for position-only targets, through singular poses
(where the thesis's method stops), for several frames at once (a humanoid's feet and
hands) and for every joint type, floating bases included. With the geometric Jacobians
J_f (world axes, [angular; linear], one column per rate) of the frames f and their pose
errors e_f = [log(R_f P_fᵀ); p_f − s_f] stacked into J and e:

    Δv = Jᵀ (J Jᵀ + μ‖e‖² 1 + ε 1)⁻¹ e,    q ← q ⊕ Δv

(⊕ is :func:`eslabon.integrate`: a quaternion moves on the unit sphere, so a free flyer's
base is solved for like any joint), and the step is taken only if it reduces ‖e‖
(otherwise μ grows tenfold).
"""

from __future__ import annotations

import numpy as np

from ...model.configuration import check_configuration, integrate, neutral
from ...spatial.invariants import axis_angle
from ..forward import frame_pose, jacobian
from . import targets
from .gauss import IKResult


def _tasks(model, R, p, frame, tasks) -> list:
    """[(frame, R or None, p)], each checked; ``tasks`` or the one (frame, R, p)."""
    one = tasks is None
    if one:
        if p is None:
            raise ValueError("p: expected the target point, shape (3,)")
        tasks = [("ee" if frame is None else frame, R, p)]
    elif R is not None or p is not None or frame is not None:
        raise ValueError("tasks: give either R, p and frame (one frame) or tasks, not both")
    try:
        tasks = list(tasks)
    except TypeError:
        raise ValueError(
            f"tasks: expected a list of (frame, R or None, p), got {type(tasks).__name__}"
        ) from None
    if not tasks:
        raise ValueError("tasks: expected at least one (frame, R or None, p)")
    out = []
    for k, task in enumerate(tasks):
        if not isinstance(task, (tuple, list)) or len(task) != 3:
            raise ValueError(f"tasks[{k}]: expected (frame, R or None, p), got {task!r}")
        name, Rk, pk = task
        model.frame(name)  # names the frame when it is not one of the model's
        field = "" if one else f"tasks[{k}]."
        Rk = None if Rk is None else targets.rotation(Rk, field + "R")
        out.append((name, Rk, targets.point(pk, field + "p")))
    return out


def _error(model, q, tasks):
    parts = []
    for frame, R, p in tasks:
        T = frame_pose(model, q, frame)
        if R is not None:
            axis, angle = axis_angle(R @ T[:3, :3].T)
            parts.append(axis * angle)
        parts.append(p - T[:3, 3])
    return np.concatenate(parts)


def _jacobian(model, q, tasks):
    return np.concatenate(
        [jacobian(model, q, frame)[0 if R is not None else 3 :] for frame, R, _ in tasks]
    )


def damped_least_squares(
    model,
    R=None,
    p=None,
    q0=None,
    *,
    frame: str | None = None,
    tasks=None,
    tol: float = 1e-12,
    max_iter: int = 500,
    damping: float = 1e-3,
    floor: float = 1e-12,
) -> IKResult:
    """A configuration placing ``frame`` at rotation ``R`` and point ``p``, or every frame
    of ``tasks`` at its own.

    Not from the source documents: damped least squares (Wampler 1986; Nakamura and
    Hanafusa 1986) with Levenberg–Marquardt damping (Sugihara 2011). With e the stacked
    errors [axis·angle of R Pᵀ; p − s] (world axes; only p − s for a position-only task)
    and J the stacked geometric Jacobians (world axes, [angular; linear]), each step is
    Δv = Jᵀ (J Jᵀ + (μ‖e‖² + ε) 1)⁻¹ e, q ← q ⊕ Δv (:func:`eslabon.integrate`). A step
    is kept only if it reduces ‖e‖, and then μ falls tenfold (to no less than
    ``damping``); otherwise μ grows tenfold, and the solve gives up when μ passes 1e12.
    Unlike :func:`newton_gauss`, it takes redundant arms, several frames, any joint type
    (a floating base too) and walks through singular poses; it keeps no factor, so
    :func:`rates` does not take its result.

    Parameters
    ----------
    model : Model
        Any joints, a floating base included (the base pose is solved for too).
    R : array_like (3, 3) or None
        Target rotation of ``frame``, world ← frame (None: position only).
    p : array_like (3,)
        Target point of ``frame``'s origin, m, world axes. Required unless ``tasks`` is
        given.
    q0 : array_like (nq,), optional
        Start configuration: rad (revolute), m (prismatic), unit quaternions (x, y, z, w)
        for spherical and free-flyer joints (default :func:`eslabon.neutral`).
    frame : str, optional
        The frame to place when ``R`` and ``p`` are given (default ``"ee"``).
    tasks : list of (frame, R or None, p), optional
        Several frames at once, instead of ``R``, ``p`` and ``frame``: each a frame name,
        a (3, 3) rotation or None, and a (3,) point in m, world axes.
    tol : float, optional
        Converged when ‖e‖∞ < ``tol`` (e in rad and m); default 1e-12.
    max_iter : int, optional
        Most steps tried, accepted or not (default 500).
    damping : float, optional
        The least value of the damping μ (default 1e-3), multiplying ‖e‖².
    floor : float, optional
        The constant ε added to the damping (default 1e-12), ≥ 0.

    Returns
    -------
    IKResult
        ``q`` of shape (nq,); check ``converged``. ``rank`` and ``condition`` (κ₂ from the
        SVD) are those of the stacked Jacobian at ``q``, ``singular`` when its rank is
        below min(rows, nv) (``singularity`` then ``"intrinsic"``); ``residual`` is
        ‖e‖∞; ``frame`` is the (first) task's; ``equations`` is
        ``"damped_least_squares"``, ``joints`` is (0, …, nv − 1) and ``factor`` None.

    Raises
    ------
    ValueError
        Neither ``p`` nor ``tasks``, or ``tasks`` together with ``R``, ``p`` or
        ``frame``; ``tasks`` not a non-empty list of (frame, R or None, p); an unknown
        frame; a rotation that is not a proper (3, 3) rotation or a point that is not 3
        finite numbers (the message names ``R``, ``p`` or ``tasks[k].R``, …); ``q0`` not
        one finite configuration of shape (nq,) or with a quaternion whose norm is not
        1 (to 1e-6); ``tol`` not a positive finite number, ``max_iter`` not a positive integer,
        ``damping`` not positive or ``floor`` negative.

    Examples
    --------
    A 7-DOF Panda pose, and a point only:

    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon.kinematics import ik
    >>> panda = es.zoo.load("panda")
    >>> T = es.end_effector_pose(panda, [0.3, -0.5, 0.2, -2.0, 0.4, 1.5, -0.3])
    >>> sol = ik.damped_least_squares(panda, T[:3, :3], T[:3, 3], np.zeros(7))
    >>> sol.converged, bool(np.allclose(es.end_effector_pose(panda, sol.q), T))
    (True, True)
    >>> point = ik.damped_least_squares(panda, None, T[:3, 3], np.zeros(7))
    >>> point.converged, point.rank
    (True, 3)
    """
    tasks = _tasks(model, R, p, frame, tasks)
    if q0 is None:
        q = neutral(model)
    else:
        q = targets.start(model, q0, any_joint=True)
        check_configuration(model, q, "q0")
    targets.tolerance(tol, max_iter)
    if not damping > 0:
        raise ValueError(f"damping: expected a positive number, got {damping!r}")
    if not floor >= 0:
        raise ValueError(f"floor: expected a non-negative number, got {floor!r}")
    e = _error(model, q, tasks)
    mu = damping
    it = 0
    while np.max(np.abs(e)) >= tol and it < max_iter:
        J = _jacobian(model, q, tasks)
        lam = mu * float(e @ e) + floor
        dv = J.T @ np.linalg.solve(J @ J.T + lam * np.eye(J.shape[0]), e)
        q_trial = integrate(model, q, dv)
        trial = _error(model, q_trial, tasks)
        it += 1
        if trial @ trial < e @ e:
            q, e = q_trial, trial
            mu = max(mu / 10.0, damping)
        else:
            mu *= 10.0
            if mu > 1e12:
                break
    residual = float(np.max(np.abs(e)))
    sv = np.linalg.svd(_jacobian(model, q, tasks), compute_uv=False)
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
        tasks[0][0],
        "damped_least_squares",
        tuple(range(model.nv)),
    )
