"""The dynamics of a constrained system linearized in its independent coordinates.

On the constraint manifold the state is that of the independent coordinates, x = (θ, θ̇)
(:func:`.kinematics.partition`; the actuated joints of a parallel robot, say); every
other coordinate follows by closure (:func:`.closure.close_state`). The equations of
motion reduce to θ̈ = f(θ, θ̇, τ), and about a state

    δẋ = A δx + B δτ,   A = [[0, 1], [∂f/∂θ, ∂f/∂θ̇]],   B = [[0], [∂f/∂τ]]

as :func:`eslabon.control.linearize` gives them for a tree (Rojas (1987), §5.2–5.3,
the state-space form of eqs 5.2.3–5.2.4), so that pole placement, LQR and TV-LQR
(:mod:`eslabon.control`) apply to a parallel robot. The derivatives are central
differences of f through closure and the constrained forward dynamics (numpy; the
step relative to each variable's size).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._args import finite_number
from .closure import close_state
from .dynamics import constrained_forward_dynamics
from .kinematics import _indices


class ConstrainedLinearization(NamedTuple):
    """What :func:`linearize_constrained` returns.

    Attributes
    ----------
    A : ndarray (2k, 2k)
        The state matrix of x = (θ, θ̇), k independent coordinates.
    B : ndarray (2k, nv)
        The input matrix of the joint torques τ (every rate; the actuated columns are
        those of the actuated joints).
    independent : ndarray of int (k,)
        The independent rates' indices.
    """

    A: np.ndarray
    B: np.ndarray
    independent: np.ndarray


def linearize_constrained(
    model, q, qd, tau, *, independent, constraints=None, algorithm: str = "kkt", step=1e-6
) -> ConstrainedLinearization:
    """A, B of the constrained dynamics in the independent coordinates, about (q, q̇, τ).

    Parameters
    ----------
    model : Model
    q : array_like (nq,)
        On the constraint manifold; it also picks the branch of the closure.
    qd : array_like (nv,)
        With J q̇ = 0 (only the independent rates are read; the others follow).
    tau : array_like (nv,)
        The joint torques about which to linearize.
    independent : sequence of int
        The independent rates (nv − rank of them), vector coordinates.
    constraints : LoopClosure, Contact or a list of them, optional
        By default the model's own.
    algorithm : str
        The constrained forward dynamics (:func:`constrained_forward_dynamics`).
    step : float
        Relative step of the central differences, > 0.

    Returns
    -------
    ConstrainedLinearization

    Raises
    ------
    ValueError
        What :func:`close_state` and the forward dynamics refuse; a bad ``step``.

    Examples
    --------
    A two-link arm whose tip slides on the line y = 1 m has one degree of freedom left:

    >>> import numpy as np, eslabon as es
    >>> from eslabon import constraints as ec
    >>> arm = es.zoo.load("planar2")
    >>> rail = ec.Contact("rail", "ee", ["y"], position=[0.0, 1.0, 0.0])
    >>> s = ec.close_state(arm, [0.5, 0.5], [0], [0.5], constraints=rail)
    >>> lin = ec.linearize_constrained(arm, s.q, s.qd, np.zeros(2), independent=[0],
    ...                                constraints=rail)
    >>> lin.A.shape, lin.B.shape
    ((2, 2), (2, 2))
    """
    step = finite_number(step, "step", positive=True)
    ind = _indices(independent, model.nv, "independent")
    q0 = np.asarray(q, dtype=float)
    tau0 = np.asarray(tau, dtype=float)
    if tau0.shape != (model.nv,) or not np.all(np.isfinite(tau0)):
        raise ValueError(f"tau: expected {model.nv} finite numbers, got shape {tau0.shape}")
    theta0 = q0[ind].copy()
    rate0 = np.asarray(qd, dtype=float)[ind].copy()

    def f(theta, rate, torque):
        s = close_state(model, q0, ind, theta, rate, constraints=constraints)
        out = constrained_forward_dynamics(
            model, s.q, s.qd, torque, constraints=constraints, algorithm=algorithm
        )
        return out.qdd[ind]

    def columns(x0, plug):
        cols = []
        for j in range(len(x0)):
            h = step * max(1.0, abs(float(x0[j])))
            e = np.zeros(len(x0))
            e[j] = h
            cols.append((plug(x0 + e) - plug(x0 - e)) / (2.0 * h))
        return np.array(cols).T

    k = ind.size
    d_theta = columns(theta0, lambda x: f(x, rate0, tau0))
    d_rate = columns(rate0, lambda x: f(theta0, x, tau0))
    d_tau = columns(tau0, lambda x: f(theta0, rate0, x))
    A = np.block([[np.zeros((k, k)), np.eye(k)], [d_theta, d_rate]])
    B = np.vstack([np.zeros((k, model.nv)), d_tau])
    return ConstrainedLinearization(A, B, ind)
