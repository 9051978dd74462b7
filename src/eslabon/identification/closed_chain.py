"""The regressor of a closed chain's actuator torques: u = Y_a π.

A closed chain is a tree whose loops are closed by constraint rows J v = 0
(:mod:`eslabon.constraints`). The tree's joint torques for a motion are h = Y π
(:func:`.joint_torque_regressor`, Atkeson, An & Hollerbach 1986), linear in the standard
parameters of every body of the tree; the actuators' torques u (on the actuated rates, S
selecting them) and the constraint forces λ satisfy Sᵀ u + Jᵀ λ = h. Projecting on the
motions the loops allow, N with J N = 0, removes λ (Nᵀ Sᵀ u = Nᵀ h, as
:func:`eslabon.constraints.constrained_inverse_dynamics` does), so u is linear in π too
(Khalil & Dombre, *Modeling, Identification and Control of Robots*, 2002, §14.3 on
closed loops; Aghili 2005 for the projection):

- as many actuated rates as degrees of freedom: v = G v_a with G = N (S N)⁻¹ the map from
  the actuated rates to all the tree's (:func:`eslabon.constraints.partition` with the
  actuated rates independent), and

      u = Gᵀ h = Gᵀ Y π,       Y_a = Gᵀ Y                                       (1)

  (the principle of virtual work: u · v_a = h · v for every allowed motion);
- more actuated rates than degrees of freedom (redundant actuation): the minimum-norm u,
  Y_a = (Nᵀ Sᵀ)⁺ Nᵀ Y, with N an orthonormal basis of J's null space.

The same projection gives the regressor of any system whose allowed motions are v = T w
for some rates w (quasi-velocities): the forces conjugate to w are Tᵀ h = Tᵀ Y π
(:func:`projected_regressor`; Kane & Levinson 1985, generalized active forces). A wheeled
mobile manipulator in Gibbs–Appell form (the Gibbs function of Araujo (2012), (2.25), in
the platform's quasi-velocities ν and the arm's q̇; eslabon's coupled model) is such a
system: T = diag(G(config), 1) with q̇_config = G ν, and Tᵀ Y π are its input forces
[Q_platform; τ] (docs/identification.md).

The identifiable combinations of a closed chain's parameters are the column space of Y_a
stacked over many states: fewer than the tree's, since the loops regroup more (the tests
compare the SVD ranks).
"""

from __future__ import annotations

import numpy as np

from ..constraints import constraint_jacobian, constraint_rank, partition
from .regressor import joint_torque_regressor


def _actuated(model, actuated):
    if actuated is None:
        return np.setdiff1d(np.arange(model.nv), model.floating_base_rates)
    actuated = np.asarray(actuated)
    if actuated.ndim != 1 or actuated.size == 0 or not np.issubdtype(actuated.dtype, np.integer):
        raise ValueError(f"actuated: expected a list of rate indices, got {actuated.tolist()}")
    if (
        np.any((actuated < 0) | (actuated >= model.nv))
        or len(set(actuated.tolist())) != actuated.size
    ):
        raise ValueError(
            f"actuated: expected distinct rates in 0..{model.nv - 1}, got {actuated.tolist()}"
        )
    return actuated


def _projection(model, q, actuated, constraints, rtol):
    """P (k, nv) with u = P h: Gᵀ, or (Nᵀ Sᵀ)⁺ Nᵀ for redundant actuation."""
    rank = constraint_rank(model, q, constraints=constraints, rtol=rtol).rank
    freedom = model.nv - rank
    if actuated.size < freedom:
        raise ValueError(
            f"actuated: {actuated.size} actuated rates for {freedom} degrees of freedom; "
            "the actuators cannot produce every motion"
        )
    if actuated.size == freedom:
        G = partition(model, q, constraints=constraints, independent=actuated, rtol=rtol).N
        return G.T
    J = constraint_jacobian(model, q, constraints=constraints)
    Vt = np.linalg.svd(J)[2]
    N = Vt[rank:].T
    return np.linalg.pinv(N[actuated, :].T, rcond=rtol) @ N.T


def closed_chain_regressor(model, q, qd, qdd, *, actuated=None, constraints=None,
                           rtol: float = 1e-9) -> np.ndarray:  # fmt: skip
    """Y_a(q, q̇, q̈) with u = Y_a π, the actuator torques of a closed chain (module
    docstring).

    Parameters
    ----------
    model : Model
        A tree with loop closures (its own ``constraints`` or those given).
    q : array_like (nq,) or (N, nq)
        On the constraint manifold (:func:`eslabon.constraints.close_state`).
    qd, qdd : array_like (nv,) or (N, nv)
        With J q̇ = 0 and J q̈ = γ.
    actuated : sequence of int, optional
        The actuated rates; by default every rate but a floating base's.
    constraints : LoopClosure, Contact or a list of them, optional
        By default the model's own.
    rtol : float
        Relative tolerance of the rank of J.

    Returns
    -------
    ndarray (k, p) or (N, k, p)
        k = the number of actuated rates, columns those of
        :func:`eslabon.identification.parameter_names`; ``Y_a @ parameters(model)`` is the
        actuated rates' entries of
        :func:`eslabon.constraints.constrained_inverse_dynamics`.

    Raises
    ------
    ValueError
        Fewer actuated rates than degrees of freedom, actuated rates that cannot be
        independent at q, or what :func:`.joint_torque_regressor` refuses.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon import constraints as ec
    >>> from eslabon.identification import closed_chain_regressor, parameters
    >>> bar = es.zoo.load("four_bar")
    >>> s = ec.close_state(bar, es.neutral(bar), [0], [0.3], [1.0], [0.5])
    >>> Ya = closed_chain_regressor(bar, s.q, s.qd, s.qdd, actuated=[0])
    >>> u = ec.constrained_inverse_dynamics(bar, s.q, s.qd, s.qdd, actuated=[0]).tau[0]
    >>> bool(np.isclose(Ya @ parameters(bar), u).all())
    True
    """
    actuated = _actuated(model, actuated)
    q = np.asarray(q, dtype=float)
    Y = joint_torque_regressor(model, q, qd, qdd)
    if q.ndim == 1:
        return _projection(model, q, actuated, constraints, rtol) @ Y
    P = np.stack([_projection(model, qk, actuated, constraints, rtol) for qk in q])
    return P @ Y


def projected_regressor(model, q, qd, qdd, T) -> np.ndarray:
    """Tᵀ Y(q, q̇, q̈): the regressor of the forces conjugate to rates w with v = T w
    (module docstring).

    Parameters
    ----------
    model : Model
        The tree.
    q : array_like (nq,) or (N, nq)
        Configuration.
    qd, qdd : array_like (nv,) or (N, nv)
        The tree's rates v = T w and accelerations v̇ = T ẇ + Ṫ w.
    T : array_like (nv, k) or (N, nv, k)
        The map from the rates w to the tree's rates at q.

    Returns
    -------
    ndarray (k, p) or (N, k, p)
        Tᵀ Y, columns those of :func:`eslabon.identification.parameter_names`.

    Raises
    ------
    ValueError
        T of the wrong shape or not finite, or what :func:`.joint_torque_regressor`
        refuses.

    Examples
    --------
    A planar arm whose second joint turns opposite to the first (v = T w, w one rate):

    >>> import numpy as np, eslabon as es
    >>> from eslabon.identification import parameters, projected_regressor
    >>> arm = es.zoo.load("planar2")
    >>> T = np.array([[1.0], [-1.0]])
    >>> q, w, wd = np.array([0.2, 0.4]), np.array([0.5]), np.array([1.5])
    >>> Yw = projected_regressor(arm, q, T @ w, T @ wd, T)
    >>> tau = es.inverse_dynamics(arm, q, T @ w, T @ wd)
    >>> bool(np.isclose(Yw @ parameters(arm), T.T @ tau).all())
    True
    """
    Y = joint_torque_regressor(model, q, qd, qdd)
    T = np.asarray(T, dtype=float)
    if T.ndim < 2 or T.shape[:-1] != Y.shape[:-1] or not np.all(np.isfinite(T)):
        raise ValueError(
            f"T: expected finite shape {Y.shape[:-1]} + (k,) (the tree's rates by the "
            f"reduced ones), got {T.shape}"
        )
    return np.swapaxes(T, -1, -2) @ Y
