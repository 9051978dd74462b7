"""The state of a closed chain from its independent coordinates: position, velocity and
acceleration closure (the forward kinematics of a parallel robot).

Given the independent coordinates' values, rates and accelerations (e.g. a parallel
robot's actuated joints), the dependent ones follow from

    φ(q) = 0                       (position: :func:`.kinematics.assemble`)
    J_d q̇_d = −J_i q̇_i              (velocity)
    J_d q̈_d = γ − J_i q̈_i           (acceleration)

with J split by the coordinate partition (:func:`.kinematics.partition`; Wehage and
Haug (1982)). Positions are solved on the configuration space; the independent
coordinates must be vector coordinates (revolute, prismatic, …), whose rate index is
their coordinate index.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._args import finite_array, real_array
from ..model.constraint_types import checked
from .kinematics import _drift, _Frames, _independent_rows, _indices, _jacobian, assemble


class ClosedState(NamedTuple):
    """A state of a closed chain (what :func:`close_state` returns).

    Attributes
    ----------
    q : ndarray (nq,)
        On the constraint manifold.
    qd : ndarray (nv,)
        With J q̇ = 0.
    qdd : ndarray (nv,)
        With J q̈ = γ.
    """

    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray


def close_state(
    model, q_guess, independent, values, rates=None, accelerations=None, *, constraints=None
) -> ClosedState:
    """The whole state from the independent coordinates' values, rates and accelerations.

    Parameters
    ----------
    model : Model
    q_guess : array_like (nq,)
        A configuration near the wanted one (which branch of the mechanism: a four-bar
        has two assemblies for one crank angle).
    independent : sequence of int
        The independent rates' indices (nv − rank of them), vector coordinates.
    values : array_like (k,)
        Their values [rad, m].
    rates, accelerations : array_like (k,), optional
        Their rates and accelerations (zero by default).
    constraints : LoopClosure, Contact or a list of them, optional
        By default the model's own.

    Returns
    -------
    ClosedState
        q on the constraint manifold (the independent coordinates as given), q̇ with
        J q̇ = 0 and q̈ with J q̈ = γ.

    Raises
    ------
    ValueError
        An independent coordinate that is not a vector coordinate, the wrong count, a
        configuration out of reach (:func:`.kinematics.assemble`), or a dependent block
        singular there.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon import constraints as ec
    >>> arm = es.zoo.load("planar2")
    >>> rail = ec.Contact("rail", "ee", ["y"], position=[0.0, 1.0, 0.0])  # tip on y = 1 m
    >>> s = ec.close_state(arm, [0.5, 0.5], [0], [0.5], [1.0], constraints=rail)
    >>> s.q.round(6).tolist(), s.qd.round(6).tolist()
    ([0.5, 0.20853], [1.0, -2.444686])
    """
    rows = checked(model, constraints)
    if any(r.rolling is not None for r in rows):
        raise ValueError(
            "constraints: rolling wheels bound the rates, not the positions, so the "
            "independent coordinates do not fix the rest; close_state takes loop closures "
            "and contacts (assemble them, then give rates with J q̇ = 0)"
        )
    independent = _indices(independent, model.nv, "independent")
    k = independent.size
    q = np.array(q_guess, dtype=float)
    if q.shape != (model.nq,):
        raise ValueError(f"q_guess: expected {model.nq} numbers, got shape {q.shape}")
    if model.nq != model.nv:  # the index of a vector coordinate in q and in v differ then
        raise ValueError(
            "independent: close_state takes models without quaternion joints; assemble "
            "and partition apply to the others"
        )
    values = _vector(values, k, "values")
    q[independent] = values
    q = assemble(model, q, constraints=constraints, fixed=independent)
    f = _Frames(model, q, np.zeros(model.nv))
    J = _jacobian(model, rows, q, f)
    keep = _independent_rows(J)
    J = J[keep]
    dependent = np.setdiff1d(np.arange(model.nv), independent)
    if J.shape[0] != dependent.size:
        raise ValueError(
            f"independent: expected {model.nv - J.shape[0]} independent coordinates "
            f"(nv − rank), got {k}"
        )
    Jd, Ji = J[:, dependent], J[:, independent]
    if len(_independent_rows(Jd)) < Jd.shape[0]:
        raise ValueError(
            f"independent: with rates {independent.tolist()} independent the dependent "
            "block of J is singular at this configuration; choose other independent "
            "coordinates"
        )
    qd = np.zeros(model.nv)
    qd[independent] = _vector(rates, k, "rates")
    qd[dependent] = np.linalg.solve(Jd, -Ji @ qd[independent])
    gamma = _drift(rows, _Frames(model, q, qd))[keep]
    qdd = np.zeros(model.nv)
    qdd[independent] = _vector(accelerations, k, "accelerations")
    qdd[dependent] = np.linalg.solve(Jd, gamma - Ji @ qdd[independent])
    return ClosedState(q, qd, qdd)


def _vector(x, k: int, field: str) -> np.ndarray:
    if x is None:
        return np.zeros(k)
    return finite_array(np.reshape(real_array(x, field), -1), field, (k,))
