"""Inverse dynamics of constrained systems: the actuators' torques and the constraint
forces for a given motion, of a parallel robot or a floating robot in contact.

With only the actuated rates driven (τ = Sᵀ u, S selecting them) and the constraint
forces λ entering as Jᵀ λ,

    Sᵀ u + Jᵀ λ = h,        h = M q̈ + b(q, q̇)                                   (1)

(nv equations in the actuators' u and the rows' λ). Projecting (1) on the motions the
constraints allow, N with J N = 0 (:func:`.kinematics.partition`), removes λ:

    (Nᵀ Sᵀ) u = Nᵀ h                                                            (2)

u is its minimum-norm solution: unique for a parallel robot actuated at as many joints
as it has degrees of freedom, the least-effort share for redundant actuation (more
actuators than degrees of freedom), and for a floating robot in contact (whose base is
not actuated) the torques that hold the motion with the smallest norm. λ then solves
Jᵀ λ = h − Sᵀ u (the minimum-norm share between redundant rows). (1) must hold exactly:
a motion the actuators cannot produce (too few, or badly placed: a singular Nᵀ Sᵀ) is
refused. No friction cone or unilateral contact is imposed: a contact force may pull.
(The projected form of Aghili, "A unified approach for inverse and direct dynamics of
constrained multibody systems based on linear projection operator", IEEE Trans.
Robotics 21 (2005); Mistry, Buchli and Schaal, "Inverse dynamics control of floating
base systems using orthogonal decomposition", ICRA 2010, for floating bases.)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._args import finite_number
from ..dynamics import bias_forces, mass_matrix
from ..model.constraint_types import checked, forces_by_name, row_names
from .batch import batched
from .kinematics import (
    _drift,
    _Frames,
    _independent_rows,
    _indices,
    _jacobian,
    _state,
)


class ConstrainedTorques(NamedTuple):
    """What :func:`constrained_inverse_dynamics` returns.

    Attributes
    ----------
    tau : ndarray (nv,)
        Joint torques [N·m, N]: the actuators' u on their rates, zero on the others.
    force : ndarray (m,)
        λ per row, as :class:`~eslabon.constraints.ConstrainedAccelerations` has it.
    names : tuple of str
        The rows' names.
    """

    tau: np.ndarray
    force: np.ndarray
    names: tuple

    def forces(self) -> dict:
        """The constraint forces by row name.

        Returns
        -------
        dict
            {row name: λ}: a number, or for a batch λ of that row at each state (N,).
        """
        return forces_by_name(self.names, self.force)


@batched(3)
def constrained_inverse_dynamics(
    model, q, qd, qdd, *, actuated=None, constraints=None, rtol: float = 1e-9
) -> ConstrainedTorques:
    """Actuator torques and constraint forces for a motion (module docstring).

    Parameters
    ----------
    model : Model
    q : array_like (nq,) or (N, nq)
        On the constraint manifold (:func:`assemble`, :func:`close_state`).
    qd, qdd : array_like (nv,) or (N, nv)
        With J q̇ = 0 and J q̈ = γ (:func:`close_state` gives them from the independent
        coordinates).
    actuated : sequence of int, optional
        The actuated rates (indices into v); by default every rate but a free-flyer
        root's (:attr:`eslabon.Model.floating_base_rates`; all of them for a fixed base;
        give them for a planar base, whose actuation the model does not say).
    constraints : LoopClosure, Contact or a list of them, optional
        By default the model's own.
    rtol : float
        Relative tolerance of the checks of the state and of (1).

    Returns
    -------
    ConstrainedTorques

    Raises
    ------
    ValueError
        A state off the constraints (J q̇ ≠ 0 or J q̈ ≠ γ, naming the row); actuated
        joints that cannot produce the motion (naming the residual).

    Examples
    --------
    A two-link arm whose tip is pinned where it is holds itself with the pin alone:
    the minimum-norm torques are zero when the pin can carry the whole load.

    >>> import numpy as np, eslabon as es
    >>> from eslabon import constraints as ec
    >>> arm = es.zoo.load("planar2")
    >>> q = np.array([0.3, 0.6])
    >>> tip = es.kinematics.frame_pose(arm, q, "ee")[:3, 3]
    >>> pin = ec.Contact("pin", "ee", "planar_pin", position=tip)
    >>> out = ec.constrained_inverse_dynamics(arm, q, [0, 0], [0, 0], constraints=pin)
    >>> bool(np.abs(out.tau).max() < 1e-9)
    True
    """
    rows = checked(model, constraints)
    rtol = finite_number(rtol, "rtol", positive=True)
    q, qd = _state(model, q, qd)
    qdd = np.asarray(qdd, dtype=float)
    if qdd.shape != (model.nv,) or not np.all(np.isfinite(qdd)):
        raise ValueError(f"qdd: expected {model.nv} finite numbers, got shape {qdd.shape}")
    names = row_names(rows)
    f = _Frames(model, q, qd)
    J, gamma = _jacobian(model, rows, q, f), _drift(rows, f)
    scale = max(1.0, float(np.abs(J).max()))
    for what, value, want in (("J q̇", J @ qd, 0.0), ("J q̈ − γ", J @ qdd - gamma, 0.0)):
        bad = np.abs(value - want) > rtol * scale * max(1.0, float(np.abs(qd).max()) ** 2)
        if np.any(bad):
            row = names[int(np.argmax(np.abs(value)))]
            raise ValueError(
                f"qd, qdd: the state is off the constraints ({what} = "
                f"{float(np.abs(value).max()):.3g} at row {row!r}); close it first "
                "(eslabon.constraints.close_state)"
            )
    if actuated is None:
        actuated = _default_actuated(model)
    actuated = _indices(actuated, model.nv, "actuated")
    if actuated.size == 0:
        raise ValueError("actuated: expected at least one actuated rate")
    h = mass_matrix(model, q) @ qdd + bias_forces(model, q, qd)
    N = _null_space(J, rtol)
    St = np.zeros((model.nv, actuated.size))
    St[actuated, np.arange(actuated.size)] = 1.0
    u = np.linalg.lstsq(N.T @ St, N.T @ h, rcond=rtol)[0]
    lam = np.linalg.lstsq(J.T, h - St @ u, rcond=None)[0]
    residual = St @ u + J.T @ lam - h
    if np.abs(residual).max() > 1e-7 * max(1.0, float(np.abs(h).max())):
        raise ValueError(
            f"actuated: the joints {actuated.tolist()} cannot produce this motion "
            f"(residual {float(np.abs(residual).max()):.3g} N·m); actuate other or more "
            "joints"
        )
    tau = np.zeros(model.nv)
    tau[actuated] = u
    return ConstrainedTorques(tau, lam, names)


def _default_actuated(model) -> np.ndarray:
    """Every rate but a floating base's (:attr:`eslabon.Model.floating_base_rates`)."""
    return np.setdiff1d(np.arange(model.nv), model.floating_base_rates)


def _null_space(J, rtol: float) -> np.ndarray:
    """An orthonormal basis of J's null space (nv, nv − rank), the rank that of the rows
    kept by :func:`.kinematics._independent_rows` (one test for every formulation)."""
    keep = _independent_rows(J, rtol)
    if not keep:
        return np.eye(J.shape[1])
    _, _, Vt = np.linalg.svd(J[keep])
    return Vt[len(keep) :].T
