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

#: The systems :func:`newton_gauss` solves: the redundant 7×6 one (3.3.1.9) and the square
#: 6×6 one without the trace row.
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
    ``"spurious"`` when only the invariant equations are (φ = π, §3.4).

    Rojas Salgado (1987) §3.4. Meant for a configuration where the Jacobian of the
    invariant system (3.3.1.19) is singular, as :func:`newton_gauss` calls it: it only
    examines the geometric Jacobian [A; ∂s/∂θ] (6, k), over the k joints on the chain to
    ``frame``, by Householder QR. If that is rank deficient or has κ₁ > 1e10 the
    configuration is a true singularity of the arm (``"intrinsic"``); otherwise the
    degeneracy can only come from the invariant equations (``"spurious"``: at φ = π, and
    at φ = ±π/2 for the square system). It does not check that the invariant system is
    singular: at a regular configuration it also answers ``"spurious"``.

    Parameters
    ----------
    model : Model
        Revolute, prismatic and fixed joints only.
    q : array_like (n,)
        One configuration, n = ``model.nq``: rad (revolute), m (prismatic).
    frame : str, optional
        The frame whose pose the equations fix (default ``"ee"``): one of the model's
        frames or a body's name.

    Returns
    -------
    str
        ``"intrinsic"`` or ``"spurious"``.

    Raises
    ------
    ValueError
        A model with a joint other than revolute, prismatic or fixed (or a mimic joint),
        an unknown ``frame``, or ``q`` not of shape (n,) or not finite.

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon.kinematics import ik
    >>> t3 = es.zoo.load("cincinnati_t3")
    >>> half_turn = np.radians([0.0, 90.0, -135.0, 45.0, 90.0, 180.0])  # tr P = −1: φ = π
    >>> round(float(np.trace(es.end_effector_pose(t3, half_turn)[:3, :3])), 9)
    -1.0
    >>> ik.classify_singularity(t3, half_turn)
    'spurious'
    >>> wrist = np.radians([0.0, 90.0, -135.0, 45.0, 0.0, 90.0])  # θ₅ = 0: axis 6 parallel to 2–4
    >>> ik.classify_singularity(t3, wrist)
    'intrinsic'
    """
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

    Rojas Salgado (1987) §3.3.1: the equations 3.3.1.9, the Jacobian 3.3.1.15–3.3.1.19,
    the iteration θ^{k+1} = θ^k + Δθ^k with J Δθ^k = −f solved by Householder QR (routines
    FUN, DFDX, NLLS); the singularities of §3.4. A target that is far from ``q0`` is
    better reached by :func:`approach`.

    Parameters
    ----------
    model : Model
        Revolute, prismatic and fixed joints only, at most 6 joints on the chain from the
        world to ``frame``.
    R : array_like (3, 3)
        Target rotation of ``frame``, world ← frame (a proper rotation, to 1e-9).
    p : array_like (3,)
        Target position of ``frame``'s origin, m, world axes.
    q0 : array_like (n,)
        Start, n = ``model.nq``: rad (revolute), m (prismatic). Joints not on the chain
        to ``frame`` are held at these values.
    frame : str, optional
        The frame to place (default ``"ee"``): one of the model's frames (``"dh3"``, …)
        or a body's name.
    equations : {"redundant", "square"}, optional
        ``"redundant"`` (default): the 7×6 system with the trace row, regular at
        φ = ±π/2; ``"square"``: the 6×6 system without it.
    tol : float, optional
        Stop when ‖f‖∞ < ``tol`` (converged) or the step ‖Δθ‖∞ < ``tol`` (stalled).
        f mixes dimensionless rows (2 vect, trace) with positions in m; default 1e-12.
    max_iter : int, optional
        Most Newton steps (default 30).

    Returns
    -------
    IKResult
        ``q`` (n,): the solution when ``converged`` (rad, m); ``iterations``;
        ``residual`` ‖f(q)‖∞; ``singular``, ``singularity``, ``rank`` and ``condition``
        of J at ``q``; ``factor``, the QR factor there for :func:`rates` and
        :func:`accelerations`; ``frame``, ``equations``, ``joints`` (the chain's joint
        indices). Not converged, with the reason in ``message``: no convergence in
        ``max_iter`` steps; a stall (the least-squares minimum of a target out of
        reach); a singular Jacobian (no step is taken); or the equations met by another
        rotation. A target met exactly at a singular configuration is reported converged
        and singular.

    Raises
    ------
    ValueError
        ``R`` not a (3, 3) proper rotation; ``p`` not 3 finite numbers; ``q0`` not one
        finite configuration of shape (n,); a model with a joint other than revolute,
        prismatic or fixed, or a mimic joint; ``tol`` not a positive finite number or
        ``max_iter`` not a positive integer; ``equations`` not in :data:`EQUATIONS`; an
        unknown ``frame``; more than 6 joints on the chain to ``frame``.

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon.kinematics import ik
    >>> t3 = es.zoo.load("cincinnati_t3")
    >>> q_star = np.radians([10.0, 80.0, -120.0, 30.0, 70.0, 40.0])
    >>> T = es.end_effector_pose(t3, q_star)  # the target: a pose the arm reaches
    >>> sol = ik.newton_gauss(t3, T[:3, :3], T[:3, 3], q_star + 0.05)
    >>> sol.converged, sol.singular, sol.iterations <= 10
    (True, False, True)
    >>> bool(np.allclose(sol.q, q_star))
    True
    >>> sq = ik.newton_gauss(t3, T[:3, :3], T[:3, 3], q_star + 0.05, equations="square")
    >>> sq.converged, bool(np.allclose(sq.q, q_star))
    (True, True)
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
    if (
        not isinstance(solution, IKResult)
        or solution.factor is None
        or solution.equations not in EQUATIONS
    ):
        raise ValueError(
            "solution: expected the IKResult of newton_gauss (two_point results take "
            "two_point_rates and two_point_accelerations)"
        )
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
    the solution's).

    Rojas Salgado (1987) §3.3.2: the derivative of the invariant equations gives
    J θ̇ = [(tr P·1 − P) ω; −2 vect(P)ᵀ ω; ṗ] with J the Jacobian of the solve and P the
    frame's rotation at ``solution.q`` (the trace row is dropped for the square system).
    The right-hand side must be one the chain's joints can produce: with fewer than 6
    joints on the chain a least-squares compromise is refused.

    Parameters
    ----------
    model : Model
        The model the solution was found for.
    solution : IKResult
        A converged, regular result of :func:`newton_gauss` or :func:`approach`
        (it carries the factor, frame, equations and joints).
    omega : array_like (3,)
        Angular velocity ω of the solution's frame, rad/s, world axes.
    p_dot : array_like (3,)
        Velocity ṗ of the frame's origin, m/s, world axes.
    frame : str, optional
        Only a check: when given it must be ``solution.frame``.

    Returns
    -------
    ndarray (n,)
        θ̇, n = ``model.nq``: rad/s (revolute), m/s (prismatic); zero for the joints off
        the chain to the frame.

    Raises
    ------
    ValueError
        ``solution`` not an :class:`IKResult` of :func:`newton_gauss` (no factor or no
        ``equations``), found for another ``frame``, not converged, or singular (the
        rates are not unique); ``omega`` or ``p_dot`` not 3 finite numbers; data the
        chain cannot produce (least-squares residual above 1e-8 relative: ``"omega,
        p_dot: not reachable by the k joints on the chain"``).

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon.kinematics import ik
    >>> t3 = es.zoo.load("cincinnati_t3")
    >>> q = np.radians([10.0, 80.0, -120.0, 30.0, 70.0, 40.0])
    >>> T = es.end_effector_pose(t3, q)
    >>> sol = ik.newton_gauss(t3, T[:3, :3], T[:3, 3], q + 0.05)
    >>> qd = np.array([0.1, -0.2, 0.3, 0.1, -0.1, 0.2])
    >>> twist = es.jacobian(t3, q) @ qd  # [ω; ṗ] of the end effector, world axes
    >>> bool(np.allclose(ik.rates(t3, sol, twist[:3], twist[3:]), qd))
    True
    """
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
    """θ̈ (n,) from ω̇ (3,), p̈ (3,) and the rates θ̇ (n,) (VELAC form of 3.3.3.5).

    Rojas Salgado (1987) §3.3.3, in the form of the program's routine VELAC (the printed
    3.3.3.5 is garbled): J θ̈ = [(tr P·1 − P) w̃; −2 vect(P)ᵀ w̃; p̈ − θ̇ᵀ(∂²s/∂θ²)θ̇] with
    w̃ = ω̇ − Ȧθ̇ and Ȧθ̇ = Σ_j θ̇_j ω_{j−1} × e_j (3.3.3.2), solved with the solution's
    stored factor (the trace row is dropped for the square system).

    Parameters
    ----------
    model : Model
        The model the solution was found for.
    solution : IKResult
        A converged, regular result of :func:`newton_gauss` or :func:`approach`.
    qd : array_like (n,)
        The joint rates θ̇ at the solution (e.g. from :func:`rates`): rad/s, m/s.
    omega_dot : array_like (3,)
        Angular acceleration ω̇ of the solution's frame, rad/s², world axes.
    p_ddot : array_like (3,)
        Acceleration p̈ of the frame's origin (the point's classical acceleration),
        m/s², world axes.
    frame : str, optional
        Only a check: when given it must be ``solution.frame``.

    Returns
    -------
    ndarray (n,)
        θ̈, n = ``model.nq``: rad/s² (revolute), m/s² (prismatic); zero for the joints off
        the chain to the frame.

    Raises
    ------
    ValueError
        ``solution`` as for :func:`rates` (not from :func:`newton_gauss`, another
        ``frame``, not converged, singular); ``qd`` not one finite (n,) vector;
        ``omega_dot`` or ``p_ddot`` not 3 finite numbers; data the chain cannot produce
        (``"omega_dot, p_ddot: not reachable by the k joints on the chain"``).

    Examples
    --------
    The Cincinnati T3 at t = 0.05 s of its straight-line task, against the printed joint
    accelerations of Table 5.4.1 (rad/s²):

    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon import trajectory as tr
    >>> from eslabon.kinematics import ik
    >>> from eslabon.zoo.rojas import INITIAL_THETA_DEG
    >>> from eslabon.zoo.rojas_tables import JOINT_TABLES
    >>> t3, row = es.zoo.load("cincinnati_t3"), JOINT_TABLES["5.4.1"]
    >>> p = [tr.T3_X, row["y"], tr.T3_Z]
    >>> sol = ik.newton_gauss(t3, tr.T3_ROTATION, p, np.radians(INITIAL_THETA_DEG))
    >>> qd = ik.rates(t3, sol, np.zeros(3), [0.0, row["yd"], 0.0])
    >>> qdd = ik.accelerations(t3, sol, qd, np.zeros(3), [0.0, row["ydd"], 0.0])
    >>> bool(np.allclose(qdd, row["thdd"], rtol=1e-4, atol=1e-6))
    True
    """
    fac = _solution_factor(solution, frame)
    frame = solution.frame
    qd = targets.start(model, qd, "qd")
    omega_dot = targets.point(omega_dot, "omega_dot")
    p_ddot = targets.point(p_ddot, "p_ddot")
    d = point_derivatives(model, solution.q, frame, hessian=True)
    assert d.hessian is not None  # asked for
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
