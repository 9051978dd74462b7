"""The constrained table of ``crosscheck``: the four forward-dynamics formulations of a
constrained model against each other, the identities they must meet, and the inverse
dynamics back, at one assembled state (:func:`eslabon.crosscheck` compares a tree's)."""

from __future__ import annotations

import numpy as np

from .._args import finite_number
from ..dynamics import bias_forces, mass_matrix
from ..dynamics.crosscheck import Check, CrosscheckReport, _compare
from .dynamics import CONSTRAINED_ALGORITHMS, constrained_forward_dynamics
from .inverse_dynamics import constrained_inverse_dynamics
from .kinematics import (
    assemble,
    constraint_drift,
    constraint_jacobian,
    constraint_residual,
    partition,
)

GROUP = "constrained FD"


def crosscheck(
    model, q=None, qd=None, tau=None, *, constraints=None, seed: int = 0, rtol: float = 1e-9
) -> CrosscheckReport:
    """Compare the constrained formulations at an assembled state.

    Unset values are drawn from ``seed``: q assembled (:func:`assemble`) from a uniform
    draw in [−1, 1] (quaternions normalized), q̇ = N z with z uniform (J q̇ = 0), τ
    uniform. The checks, each relative to the reference's size:

    - q̈ and λ of ``"schur"``, ``"null_space"`` and ``"udwadia_kalaba"`` against
      ``"kkt"``;
    - J q̈ = γ and M q̈ + b = τ + Jᵀ λ (the equations themselves);
    - the inverse dynamics (every rate actuated, :func:`constrained_inverse_dynamics`)
      of the resulting motion, fed back to the forward dynamics, gives the motion back.

    Parameters
    ----------
    model : Model
    q : array_like (nq,), optional
        On the constraint manifold.
    qd, tau : array_like (nv,), optional
    constraints : LoopClosure, Contact or a list of them, optional
        By default the model's own.
    seed : int
    rtol : float
        Relative tolerance of every comparison.

    Returns
    -------
    CrosscheckReport
        Its ``qdd`` is the KKT solution.

    Raises
    ------
    ValueError
        A bad state or constraint; no assembled configuration near the draw.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon import constraints as ec
    >>> arm = es.zoo.load("planar2")
    >>> rail = ec.Contact("rail", "ee", ["y"], position=[0.0, 1.0, 0.0])  # tip on y = 1 m
    >>> report = ec.crosscheck(arm, constraints=rail, seed=1)
    >>> report.ok, len(report.checks)
    (True, 11)
    """
    rtol = finite_number(rtol, "rtol", positive=True)
    rng = np.random.default_rng(seed)
    if q is None:
        from ..model.configuration import normalize

        q = rng.uniform(-1.0, 1.0, model.nq)
        q = normalize(model, q) if model.nq != model.nv else q
        q = assemble(model, q, constraints=constraints)
    q = np.asarray(q, dtype=float)
    off = float(np.abs(constraint_residual(model, q, constraints=constraints)).max())
    if off > 1e-8:
        raise ValueError(
            f"q: expected a configuration on the constraints, ‖φ‖ = {off:.3g}; assemble "
            "it first (eslabon.constraints.assemble), or leave q out"
        )
    if qd is None:
        N = partition(model, q, constraints=constraints).N
        qd = N @ rng.uniform(-1.0, 1.0, N.shape[1])
    tau = rng.uniform(-1.0, 1.0, model.nv) if tau is None else np.asarray(tau, dtype=float)
    ref = constrained_forward_dynamics(model, q, qd, tau, constraints=constraints)
    checks: list[Check] = []
    for alg in CONSTRAINED_ALGORITHMS[1:]:
        try:
            out = constrained_forward_dynamics(
                model, q, qd, tau, constraints=constraints, algorithm=alg
            )
        except ValueError as exc:  # a formulation the model's bodies do not allow
            for what in ("q̈", "λ"):
                checks.append(Check(GROUP, f"{alg} {what}", "kkt", float("nan"), 0.0, rtol,
                                    False, str(exc)))  # fmt: skip
            continue
        checks.append(_compare(GROUP, f"{alg} q̈", "kkt", lambda o=out: o.qdd, ref.qdd, rtol))
        checks.append(_compare(GROUP, f"{alg} λ", "kkt", lambda o=out: o.force, ref.force, rtol))
    J = constraint_jacobian(model, q, constraints=constraints)
    gamma = constraint_drift(model, q, qd, constraints=constraints)
    checks.append(_compare(GROUP, "J q̈", "γ", lambda: J @ ref.qdd, gamma, rtol))
    h = mass_matrix(model, q) @ ref.qdd + bias_forces(model, q, qd)
    checks.append(_compare(GROUP, "M q̈ + b", "τ + Jᵀλ", lambda: h, tau + J.T @ ref.force, rtol))

    def back():
        inverse = constrained_inverse_dynamics(
            model, q, qd, ref.qdd, actuated=np.arange(model.nv), constraints=constraints
        )
        return constrained_forward_dynamics(model, q, qd, inverse.tau, constraints=constraints).qdd

    checks.append(_compare(GROUP, "ID → FD q̈", "kkt", back, ref.qdd, rtol))
    return CrosscheckReport(model.name, q, np.asarray(qd, dtype=float), ref.qdd, tuple(checks))
