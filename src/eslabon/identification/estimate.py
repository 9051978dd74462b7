"""Least-squares estimates of the base parameters from measured (q, q̇, τ), with their
standard deviations.

Stacking the base regressor of N samples (:mod:`.base_parameters`), τ = W_b β + ρ with ρ
the measurement noise. Gautier & Khalil 1990, "Direct calculation of minimum set of inertial
parameters of serial robots", IEEE TRA 6(3), and Gautier 1997 (weighted form) estimate

    β̂ = argmin ‖G (W_b β − τ)‖²,     σ² = ‖G (τ − W_b β̂)‖² / (N nv − r),
    Σ_β = σ² (W_bᵀ Gᵀ G W_b)⁻¹,      σ_βk = sqrt(Σ_β,kk),  relative std 100 σ_βk / abs(β̂_k) %

with G = 1 (ordinary least squares) or G = diag(1 / σ_j) per joint j (weighted least
squares; σ_j² = ‖τ_j − W_b,j β̂_OLS‖² / (N − r) from the ordinary estimate, or given). The
relative standard deviation is Swevers et al. 1997's and Gautier's figure of how well the
data determine each parameter.

Numerically, the data never need to be held at once: for each joint j the upper-triangular
factor R_j ((r+1) × (r+1)) of [W_b,j | τ_j] is accumulated chunk by chunk (Householder QR of
[R_j; new rows]). Then ‖W_b,j β − τ_j‖² = ‖R_j[:r, :r] β − R_j[:r, r]‖² + R_j[r, r]² for
every β, so the ordinary and weighted estimates, each joint's residual and the residual of
any other β (the physically consistent one, :mod:`.consistent`) follow from the nv small
factors, without squaring the condition number as the normal equations would.

Joint accelerations, when not measured, come from :func:`joint_accelerations`: q̇ low-pass
filtered forward and backward (zero phase) by a Butterworth filter, then differentiated by
central differences (Gautier 1997, "Dynamic identification of robots with power model",
ICRA, §4; the filter's cut-off well above the excitation's band and below the noise's).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.linalg
import scipy.signal

from .._args import get_num_threads
from .base_parameters import BaseParameters, base_parameters
from .parameters import parameter_count
from .regressor import joint_torque_regressor, regressor_into

CHUNK = 2000  # samples per regressor call (memory: CHUNK · nv · p · 8 bytes)
# the columns of W_b scaled to unit norm, the data leave a combination of base parameters
# undetermined when the smallest singular value is below this fraction of the largest
UNDETERMINED = 1e-10
# samples within TRANSIENT / cutoff seconds of either end of a filtered record are dropped:
# the filter's start-up transient (measured: below 1e-3 of the peak acceleration after
# about 2 / cutoff seconds, for order 4 and cut-offs 2 to 20 Hz)
TRANSIENT = 3.0


def joint_accelerations(t, qd, cutoff: float, *, order: int = 4, rates: bool = False):
    """q̈ from sampled q̇: a zero-phase Butterworth low-pass, then central differences.

    Parameters
    ----------
    t : array_like ``(N,)``
        Sample times [s], increasing with a constant step (within 1e-6 relative).
    qd : array_like ``(N, nv)``
        Measured joint rates.
    cutoff : float
        The filter's cut-off frequency [Hz], below the Nyquist frequency 1 / (2 dt).
    order : int
        The Butterworth filter's order (applied twice by ``scipy.signal.filtfilt``, so the
        magnitude response is squared and the phase zero).
    rates : bool
        Also return the filtered q̇.

    Returns
    -------
    ndarray ``(N, nv)``
        The central difference (second order, one-sided at both ends) of the filtered q̇;
        with ``rates``, the pair (filtered q̇, that q̈). Within about 2 / cutoff seconds of
        either end the filter's start-up transient shows.

    Raises
    ------
    ValueError
        Times not increasing or not evenly spaced, shapes that differ, values not finite, a
        cut-off outside (0, Nyquist), too few samples for the filter.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.identification import joint_accelerations
    >>> t = np.arange(0.0, 10.0, 0.001)
    >>> qdd = joint_accelerations(t, np.sin(t)[:, None], cutoff=20.0)
    >>> bool(np.max(np.abs(qdd[500:-500, 0] - np.cos(t[500:-500]))) < 1e-4)
    True
    """
    t = np.asarray(t, dtype=float)
    qd = np.asarray(qd, dtype=float)
    if t.ndim != 1 or qd.ndim != 2 or qd.shape[0] != t.shape[0]:
        raise ValueError(f"t, qd: expected shapes (N,) and (N, nv), got {t.shape} and {qd.shape}")
    for name, value in (("t", t), ("qd", qd)):
        if not np.all(np.isfinite(value)):
            row = int(np.flatnonzero(~np.isfinite(value.reshape(len(value), -1)).any(axis=1))[0])
            raise ValueError(f"{name}: not finite at row {row}")
    step = np.diff(t)
    if step.size == 0 or np.any(step <= 0.0):
        raise ValueError("t: expected strictly increasing times (at least two)")
    dt = float(np.mean(step))
    if np.max(np.abs(step - dt)) > 1e-6 * dt:
        raise ValueError("t: expected evenly spaced samples (a constant step) for the filter")
    nyquist = 0.5 / dt
    if not (0.0 < cutoff < nyquist):
        raise ValueError(f"cutoff: expected a frequency in (0, {nyquist:g}) Hz, got {cutoff}")
    b, a = scipy.signal.butter(int(order), cutoff / nyquist)
    if qd.shape[0] <= 3 * max(len(a), len(b)):
        raise ValueError(f"qd: too few samples ({qd.shape[0]}) for an order-{order} filter")
    smooth = scipy.signal.filtfilt(b, a, qd, axis=0)
    if rates:
        return smooth, np.gradient(smooth, dt, axis=0, edge_order=2)
    return np.gradient(smooth, dt, axis=0, edge_order=2)


def _samples(model, q, qd, qdd, tau):
    """The four arrays as (N, nq), (N, nv) ×3, checked (ValueError naming the field)."""
    out = []
    n = None
    for name, value, width in (
        ("q", q, model.nq),
        ("qd", qd, model.nv),
        ("qdd", qdd, model.nv),
        ("tau", tau, model.nv),
    ):
        arr = np.asarray(value, dtype=float)
        if arr.ndim != 2 or arr.shape[1] != width:
            raise ValueError(f"{name}: expected shape (N, {width}), got {arr.shape}")
        if n is None:
            n = arr.shape[0]
        elif arr.shape[0] != n:
            raise ValueError(f"{name}: {arr.shape[0]} samples, but q has {n}")
        bad = ~np.isfinite(arr).all(axis=1)
        if bad.any():
            raise ValueError(f"{name}: not finite at row {int(np.flatnonzero(bad)[0])}")
        out.append(arr)
    return out


def _triangle(rows, overwrite=False):
    """The upper-triangular factor of ``rows`` (m × c), padded to c × c; with
    ``overwrite`` the array ``rows`` (e.g. a buffer [R_j; new rows]) may be overwritten."""
    R = scipy.linalg.qr(rows, mode="r", overwrite_a=overwrite, check_finite=False)[0]
    c = rows.shape[1]
    return R[:c] if R.shape[0] >= c else np.vstack([R, np.zeros((c - R.shape[0], c))])


def joint_factors(model, base: BaseParameters, q, qd, qdd, tau) -> np.ndarray:
    """R_j of [W_b,j | τ_j] for each joint (module docstring), shape ``(nv, r+1, r+1)``.

    The samples are taken :data:`CHUNK` at a time: the compiled regressor of the chunk
    (a batch on every thread), then for each joint one buffer [R_j; W_b,j | τ_j] filled
    in place and its Householder QR; the joints' QRs run on the batch threads
    (:func:`eslabon.get_num_threads`; LAPACK releases the interpreter lock)."""
    nv, r = model.nv, base.count
    factors = np.zeros((nv, r + 1, r + 1))
    kept = np.asarray(base.independent)
    threads = max(1, min(nv, get_num_threads()))
    pool = ThreadPoolExecutor(threads) if threads > 1 else None
    reused = np.empty((min(CHUNK, q.shape[0]), model.nv, parameter_count(model)))
    try:
        for start in range(0, q.shape[0], CHUNK):
            part = slice(start, start + CHUNK)
            m = len(q[part])
            Y = regressor_into(model, q[part], qd[part], qdd[part], reused[:m])

            def refactor(j, Y=Y, m=m, part=part):
                buffer = np.empty((r + 1 + m, r + 1), order="F")
                buffer[: r + 1] = factors[j]
                buffer[r + 1 :, :r] = Y[:, j, kept]
                buffer[r + 1 :, r] = tau[part, j]
                factors[j] = _triangle(buffer, overwrite=True)

            if pool is None:
                for j in range(nv):
                    refactor(j)
            else:
                list(pool.map(refactor, range(nv)))
    finally:
        if pool is not None:
            pool.shutdown()
    return factors


def _residual_rms(factors, beta, n):
    """sqrt(‖W_b,j β − τ_j‖² / N) per joint from the factors R_j."""
    r = len(beta)
    misfit = np.einsum("jab,b->ja", factors[:, :r, :r], beta) - factors[:, :r, r]
    return np.sqrt((np.sum(misfit**2, axis=1) + factors[:, r, r] ** 2) / n)


@dataclass(frozen=True)
class Estimate:
    """A least-squares estimate of the base parameters (module docstring).

    Attributes
    ----------
    model : Model
        The model whose kinematics the regressor used.
    base : BaseParameters
        The base parameters estimated (their names: ``names``).
    names : tuple of str ``(r,)``
        Each base parameter written out (``base.expressions``).
    values : ndarray ``(r,)``
        β̂.
    std : ndarray ``(r,)``
        The standard deviation of each β̂_k, sqrt(Σ_β,kk).
    relative_std : ndarray ``(r,)``
        100 std / abs(β̂) [%] (inf where β̂_k = 0).
    covariance : ndarray ``(r, r)``
        Σ_β = σ² (W_bᵀ Gᵀ G W_b)⁻¹.
    sigma : float
        σ, the standard deviation of the (weighted) residual; 1 when the weights are right.
    joint_sigma : ndarray ``(nv,)``
        Each joint's residual standard deviation under the ordinary estimate, sqrt(‖ρ_j‖² /
        (N − r)) [N·m or N]: the torque noise as the data show it.
    weights : ndarray ``(nv,)``
        The row weight G_jj of each joint (all 1 for ordinary least squares).
    rms : ndarray ``(nv,)``
        The root-mean-square torque residual of each joint on these samples.
    condition : float
        The condition number of the stacked weighted base regressor G W_b.
    samples : int
        N.
    factors : ndarray ``(nv, r+1, r+1)``
        R_j of [W_b,j | τ_j] (module docstring), for residuals of other β.
    """

    model: Any = field(repr=False)
    base: BaseParameters = field(repr=False)
    names: tuple
    values: np.ndarray
    std: np.ndarray
    relative_std: np.ndarray
    covariance: np.ndarray
    sigma: float
    joint_sigma: np.ndarray
    weights: np.ndarray
    rms: np.ndarray
    condition: float
    samples: int
    factors: np.ndarray = field(repr=False)

    def residual_rms(self, beta) -> np.ndarray:
        """The RMS torque residual per joint of base parameters β on these samples.

        Parameters
        ----------
        beta : array_like ``(r,)``
            Base parameters (e.g. a consistent estimate's).

        Returns
        -------
        ndarray ``(nv,)``
            sqrt(‖W_b,j β − τ_j‖² / N) for each joint j, from ``factors``.
        """
        return _residual_rms(self.factors, np.asarray(beta, dtype=float), self.samples)

    def predict(self, q, qd, qdd, beta=None) -> np.ndarray:
        """The torques the estimate predicts.

        Parameters
        ----------
        q, qd, qdd : array_like ``(N, nq)``, ``(N, nv)``, ``(N, nv)``
            States.
        beta : array_like ``(r,)``, optional
            Base parameters; default β̂.

        Returns
        -------
        ndarray ``(N, nv)``
            W_b(q, q̇, q̈) β.
        """
        beta = self.values if beta is None else np.asarray(beta, dtype=float)
        W = joint_torque_regressor(self.model, q, qd, qdd)
        return self.base.regressor(W) @ beta

    def validate(self, q, qd, qdd, tau, beta=None) -> np.ndarray:
        """The torque residual on another (validation) data set.

        Parameters
        ----------
        q, qd, qdd, tau : array_like ``(N, nq)``, ``(N, nv)`` ×3
            Measured states and torques.
        beta : array_like ``(r,)``, optional
            Base parameters; default β̂.

        Returns
        -------
        ndarray ``(nv,)``
            The RMS per joint of τ − W_b β.

        Raises
        ------
        ValueError
            Shapes or non-finite values, as :func:`estimate`.
        """
        q, qd, qdd, tau = _samples(self.model, q, qd, qdd, tau)
        return np.sqrt(np.mean((tau - self.predict(q, qd, qdd, beta)) ** 2, axis=0))

    def __str__(self) -> str:
        lines = [
            f"{self.base.count} base parameters from {self.samples} samples, "
            f"σ = {self.sigma:.4g}, condition number {self.condition:.4g}:"
        ]
        for k, name in enumerate(self.names):
            lines.append(
                f"  {self.values[k]: .6g} ± {self.std[k]:.3g} "
                f"({self.relative_std[k]:.3g} %)  {name}"
            )
        return "\n".join(lines)


def _solve(stacked, r):
    """β, residual norm ρ, R (r × r) and the condition number of a stacked factor."""
    R = _triangle(stacked)
    Rb, z, rho = R[:r, :r], R[:r, r], abs(R[r, r])
    norms = np.linalg.norm(Rb, axis=0)
    singular = np.linalg.svd(Rb / np.where(norms > 0.0, norms, 1.0), compute_uv=False)
    if singular[-1] <= UNDETERMINED * singular[0]:
        return None, rho, Rb, np.inf
    beta = scipy.linalg.solve_triangular(Rb, z)
    return beta, rho, Rb, float(singular[0] / singular[-1])


def _unidentified(base, Rb):
    """The combinations of base parameters the data do not determine, as text."""
    norms = np.linalg.norm(Rb, axis=0)
    _, s, vt = np.linalg.svd(Rb / np.where(norms > 0.0, norms, 1.0))
    lines = []
    for v in vt[s <= UNDETERMINED * s[0]]:
        terms = np.argsort(-np.abs(v))[:4]
        kept = [k for k in terms if abs(v[k]) >= 0.01 * np.max(np.abs(v))]
        lines.append(" + ".join(f"{v[k]:.3g}·({base.expressions[k]})" for k in kept))
    return "; ".join(lines)


def estimate(model, q, qd, tau, *, qdd=None, t=None, cutoff=None, weighting="ordinary", base=None):
    """Ordinary or weighted least-squares estimate of the base parameters (module docstring).

    Parameters
    ----------
    model : Model
        The robot's kinematics (its inertial values are not used).
    q : array_like ``(N, nq)``
        Measured positions.
    qd : array_like ``(N, nv)``
        Measured rates.
    tau : array_like ``(N, nv)``
        Measured joint torques (forces for prismatic joints).
    qdd : array_like ``(N, nv)``, optional
        Accelerations; when not given, :func:`joint_accelerations` of ``qd`` with ``t`` and
        ``cutoff`` (the regressor then takes the filtered q̇ as well: noise on q̇ would
        flip the sign of the Coulomb column near rest).
    t : array_like ``(N,)``, optional
        Sample times [s] (evenly spaced), needed without ``qdd``.
    cutoff : float, optional
        The low-pass cut-off [Hz], needed without ``qdd``. The samples within 3 / cutoff
        seconds of either end, where the filter has not settled, are then left out.
    weighting : {"ordinary", "joint"} or array_like ``(nv,)``
        ``"ordinary"``: G = 1; ``"joint"``: G = diag(1 / σ_j) with σ_j from the ordinary
        estimate's residual of joint j (Gautier 1997); an array: the known noise standard
        deviation of each joint's torque, G = diag(1 / array).
    base : BaseParameters, optional
        The base parameters to estimate; default ``base_parameters(model)`` (friction and
        armature included).

    Returns
    -------
    Estimate
        β̂ with names, standard deviations, covariance, residuals and condition number.

    Raises
    ------
    ValueError
        Shapes that differ from (N, nq) / (N, nv) or from each other, non-finite values
        (naming the field and row), neither ``qdd`` nor both ``t`` and ``cutoff``, an
        unknown weighting or non-positive noise levels, fewer rows than base parameters, or
        data that do not determine every base parameter (naming the combinations).

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon.identification import base_parameters, estimate, parameters
    >>> arm = es.with_joint_friction(es.zoo.load("planar2"), viscous=0.3, coulomb=0.2)
    >>> rng = np.random.default_rng(1)
    >>> q, qd, qdd = rng.standard_normal((3, 400, 2))
    >>> tau = es.inverse_dynamics(arm, q, qd, qdd) + 0.01 * rng.standard_normal((400, 2))
    >>> result = estimate(arm, q, qd, tau, qdd=qdd)
    >>> truth = result.base.values(parameters(arm))
    >>> bool(np.all(np.abs(result.values - truth) < 5 * result.std))
    True
    """
    if qdd is None:
        if t is None or cutoff is None:
            raise ValueError("qdd: not given; give the accelerations or both t and cutoff")
        qd, qdd = joint_accelerations(t, qd, cutoff, rates=True)
        t = np.asarray(t, dtype=float)
        settled = (t >= t[0] + TRANSIENT / cutoff) & (t <= t[-1] - TRANSIENT / cutoff)
        q, tau = np.asarray(q, dtype=float), np.asarray(tau, dtype=float)
        if q.shape[:1] != t.shape or qd.shape[:1] != t.shape or tau.shape[:1] != t.shape:
            raise ValueError(
                f"t: {t.size} times, but q, qd, tau have {len(q)}, {len(qd)}, {len(tau)}"
            )
        q, qd, qdd, tau = q[settled], qd[settled], qdd[settled], tau[settled]
    q, qd, qdd, tau = _samples(model, q, qd, qdd, tau)
    base = base_parameters(model) if base is None else base
    n, nv, r = q.shape[0], model.nv, base.count
    if n * nv <= r:
        raise ValueError(
            f"q: {n} samples give {n * nv} equations for {r} base parameters; "
            f"expected more than {r // nv} samples"
        )
    factors = joint_factors(model, base, q, qd, qdd, tau)
    stacked = factors.reshape(-1, r + 1)
    beta, rho, Rb, _ = _solve(stacked, r)
    if beta is None:
        raise ValueError(
            "q, qd, qdd: the data do not determine every base parameter (the stacked "
            f"regressor is rank deficient); undetermined combinations: {_unidentified(base, Rb)}"
        )
    joint_sigma = _residual_rms(factors, beta, n) * np.sqrt(n / max(n - r, 1))
    if isinstance(weighting, str):
        if weighting == "ordinary":
            weights = np.ones(nv)
        elif weighting == "joint":
            if np.any(joint_sigma <= 0.0):
                raise ValueError("weighting: a joint's residual is zero; use 'ordinary'")
            weights = 1.0 / joint_sigma
        else:
            raise ValueError(
                f"weighting: expected 'ordinary', 'joint' or {nv} noise levels, got {weighting!r}"
            )
    else:
        level = np.asarray(weighting, dtype=float)
        if level.shape != (nv,) or not np.all(np.isfinite(level)) or np.any(level <= 0.0):
            raise ValueError(f"weighting: expected {nv} positive noise levels, got {weighting!r}")
        weights = 1.0 / level
    if not np.all(weights == 1.0):
        stacked = (factors * weights[:, None, None]).reshape(-1, r + 1)
        beta, rho, Rb, _ = _solve(stacked, r)
        if beta is None:  # the weights made the system too ill-conditioned to solve
            raise ValueError(
                "weighting: with these weights the data do not determine every base "
                f"parameter; undetermined combinations: {_unidentified(base, Rb)}"
            )
    condition = float(np.linalg.cond(Rb))
    sigma2 = rho**2 / (n * nv - r)
    Rinv = scipy.linalg.solve_triangular(Rb, np.eye(r))
    covariance = sigma2 * Rinv @ Rinv.T
    std = np.sqrt(np.diag(covariance))
    with np.errstate(divide="ignore"):
        relative = np.where(beta != 0.0, 100.0 * std / np.abs(beta), np.inf)
    result = Estimate(
        model=model,
        base=base,
        names=base.expressions,
        values=beta,
        std=std,
        relative_std=relative,
        covariance=covariance,
        sigma=float(np.sqrt(sigma2)),
        joint_sigma=joint_sigma,
        weights=weights,
        rms=_residual_rms(factors, beta, n),
        condition=condition,
        samples=n,
        factors=factors,
    )
    return result
