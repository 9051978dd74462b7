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
    """J = Q R (economic) at a configuration; solves J x = b in the least-squares sense.

    The Householder factor of a Newton–Gauss Jacobian J (m, k), m ≥ k (Rojas Salgado
    1987, §3.3.1, routines HECOMP/HOLVE), kept by the solvers in
    ``IKResult.factor`` so that rates and accelerations cost one back substitution
    each (§3.3.2–3.3.3). It is not column-pivoted: ``rank`` counts the diagonal entries of
    R above 1e-12 times the largest, and ``condition`` is LAPACK ``trcon``'s 1-norm
    estimate. Users receive it from a solver; they do not build it.

    Attributes
    ----------
    q_matrix : ndarray
        ``(m, k)``: Q, orthonormal columns (m = 7 for the redundant system, 6 for the
        square one and for :func:`two_point`; k = the joints solved for).
    r_matrix : ndarray
        ``(k, k)``: R, upper triangular. Its entries have the units of J: dimensionless
        per rad in the orientation rows, m per rad (revolute) or m per m (prismatic) in
        the position rows.
    rank : int
        Numerical rank of J (``k`` when regular).
    condition : float
        Estimate of the 1-norm condition number κ₁ of R (that of J to a factor); inf
        when ``rank < k``. A factor with κ above 1e10 is reported singular.

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon.kinematics import ik
    >>> t3 = es.zoo.load("cincinnati_t3")
    >>> q = np.radians([10.0, 80.0, -120.0, 30.0, 70.0, 40.0])
    >>> T = es.end_effector_pose(t3, q)
    >>> fac = ik.newton_gauss(t3, T[:3, :3], T[:3, 3], q + 0.05).factor
    >>> fac.q_matrix.shape, fac.r_matrix.shape, fac.rank
    ((7, 6), (6, 6), 6)
    >>> x = np.arange(6.0)
    >>> bool(np.allclose(fac.solve(fac.q_matrix @ (fac.r_matrix @ x)), x))
    True
    """

    q_matrix: np.ndarray
    r_matrix: np.ndarray
    rank: int
    condition: float

    def solve(self, rhs):
        """x minimizing ‖J x − rhs‖₂ (rhs (m,) or (m, k)) by back substitution.

        x = R⁻¹ Qᵀ rhs (the normal equations are never formed). For a right-hand side in
        the range of J this is the exact solution; otherwise the least-squares one, with
        no warning (the rate solvers check the residual themselves).

        Parameters
        ----------
        rhs : array_like (m,) or (m, K)
            One right-hand side, or K of them as columns, in the units of J's rows.

        Returns
        -------
        ndarray (k,) or (k, K)
            x, in the joints' units (rad or m, or their rates) for the rows' units.

        Raises
        ------
        ValueError
            ``rhs`` whose first dimension is not m.
        numpy.linalg.LinAlgError
            An exactly singular R (a zero on its diagonal).
        """
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

    Returned by :func:`newton_gauss`, :func:`approach`, :func:`two_point` and
    :func:`damped_least_squares`. ``frame``, ``equations``, ``joints`` and ``factor`` are
    what :func:`rates`, :func:`accelerations`, :func:`two_point_rates` and
    :func:`two_point_accelerations` need to continue from the solution (Rojas Salgado
    1987, §3.3.2–3.3.3). Singular configurations are classified as in §3.4.

    Attributes
    ----------
    q : ndarray
        ``(nq,)``: the last iterate, the solution when ``converged`` (rad for revolute
        joints, m for prismatic; a unit quaternion for the spherical or free-flyer joints
        :func:`damped_least_squares` also takes).
    converged : bool
        The equations hold to ``tol`` at ``q`` (for :func:`newton_gauss`, also the frame's
        rotation equals the target's to 1e-8).
    iterations : int
        Newton steps taken (summed over the poses for :func:`approach`; steps tried,
        accepted or not, for :func:`damped_least_squares`).
    residual : float
        Largest equation error at ``q``: ‖f(q)‖∞ for the Newton–Gauss systems (2 vect and
        trace rows dimensionless, position rows in m), ‖e‖∞ (rad, m) for damped least
        squares.
    singular : bool
        The Jacobian at ``q`` is rank deficient or has κ > 1e10 (damped least squares: rank
        deficient by its SVD).
    singularity : str
        ``"none"``, ``"intrinsic"`` (the geometric Jacobian itself is singular: a true loss
        of mobility) or ``"spurious"`` (only the orientation equations degenerate: φ = π
        for the 7×6 system, also φ = ±π/2 for the square one, §3.4).
    rank : int
        Numerical rank of the Jacobian at ``q``.
    condition : float
        Its condition number: a κ₁ estimate from the QR factor for the Newton–Gauss solvers,
        κ₂ from the SVD for damped least squares; inf when rank deficient.
    message : str
        One line for humans: converged, stalled, singular, or no convergence, with the
        residual.
    factor : QRFactor or None
        The Householder factor of the Jacobian at ``q`` (None for damped least squares).
    frame : str
        The frame solved for; for :func:`two_point`, the two frames' names joined by a
        space; for :func:`damped_least_squares` with several tasks, the first one's.
    equations : str
        ``"redundant"`` or ``"square"`` (:func:`newton_gauss`), ``"two_point"`` or
        ``"damped_least_squares"``.
    joints : tuple of int
        Indices of the unknowns: the joints on the chain to ``frame`` for
        :func:`newton_gauss` (the others were held at ``q0``), every joint for
        :func:`two_point`, every velocity coordinate (0 … nv − 1) for damped least squares.
    frames : tuple of str
        For :func:`two_point`, the two frames' names as given (a name may hold a space);
        empty otherwise.

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon.kinematics import ik
    >>> t3 = es.zoo.load("cincinnati_t3")
    >>> q = np.radians([10.0, 80.0, -120.0, 30.0, 70.0, 40.0])
    >>> T = es.end_effector_pose(t3, q)
    >>> sol = ik.newton_gauss(t3, T[:3, :3], T[:3, 3], q + 0.05)
    >>> sol.converged, sol.singularity, sol.rank, sol.frame, sol.equations, sol.joints
    (True, 'none', 6, 'ee', 'redundant', (0, 1, 2, 3, 4, 5))
    >>> sol.residual < 1e-12
    True
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
    frames: tuple = ()


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
