"""The initial guess of least condition (Rojas Salgado 1987, §3.3.1, eq. 3.3.1.12).

The thesis proposes to start the Newton–Gauss iteration (and the continuation towards the
task's first pose) from the configuration θ⁰ that minimises the condition number of the
system's Jacobian J(θ), "a numerically very stable algebraic system", and notes that in
the Euclidean norm θ₁ and θ_n do not change it (they turn the whole chain, or the last
link about its own axis). The optimiser is not named. Here:

* κ is the 2-norm condition number σ_max/σ_min of the Jacobian :func:`newton_gauss`
  factors: the redundant 7 × 6 system (3.3.1.9), rows 2 vect, tr and position, or the
  square 6 × 6 one. Its orientation rows depend on the end rotation itself, so θ₁ and θ_n
  do change κ here (on the T3, turning θ₁ or θ₆ by 0.7 rad moves κ from 6.73 to 6.71 or
  7.47); the thesis's remark holds for the geometric Jacobian [A; ∂s/∂θ], whose singular
  values a rotation of the whole chain leaves alone. Every joint of the chain is
  therefore free, unless ``held``.
* The minimum is sought by Nelder–Mead (scipy) on log κ, from the given start, each
  revolute angle within ±π of it and each prismatic joint within its ±0.5 m.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..._args import whole_number
from ..._engine.joint_types import rotates
from . import targets
from .newton_gauss import _rows, chain_joints, system


class ConditionedStart(NamedTuple):
    """What :func:`least_condition_start` found.

    Attributes
    ----------
    q : ndarray
        The start of least condition found, ``(n,)`` (rad, m).
    condition : float
        κ₂ of the Jacobian there.
    condition_given : float
        κ₂ at the start given.
    evaluations : int
        Jacobians evaluated by the search.
    """

    q: np.ndarray
    condition: float
    condition_given: float
    evaluations: int


def jacobian_condition(model, q, *, frame: str = "ee", equations: str = "redundant") -> float:
    """κ₂ = σ_max/σ_min of the Newton–Gauss Jacobian J(θ) (3.3.1.9) at ``q``.

    Parameters
    ----------
    model : Model
        Revolute, prismatic and fixed joints, at most 6 on the chain to ``frame``.
    q : array_like (n,)
        Configuration (rad, m).
    frame : str, optional
        The frame the system places (default ``"ee"``).
    equations : {"redundant", "square"}, optional
        The 7 × 6 system with the trace equation (default) or the square 6 × 6 one.

    Returns
    -------
    float
        The condition number (dimensionless); inf where J is rank deficient.

    Raises
    ------
    ValueError
        ``q`` invalid, an unknown ``frame`` or ``equations``.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon.kinematics.ik import jacobian_condition
    >>> t3 = es.zoo.load("cincinnati_t3")
    >>> round(jacobian_condition(t3, np.radians([10, 80, -120, 30, 70, 40])), 2)
    6.73
    """
    q = targets.start(model, q)
    _rows(equations)
    _, J = system(model, q, np.eye(3), np.zeros(3), frame, equations)
    s = np.linalg.svd(J, compute_uv=False)
    return float(s[0] / s[-1]) if s[-1] > 0.0 else float("inf")


def least_condition_start(
    model,
    q0,
    *,
    frame: str = "ee",
    equations: str = "redundant",
    held=(),
    max_evaluations: int = 5000,
) -> ConditionedStart:
    """The configuration near ``q0`` that minimises κ(J) (3.3.1.12), a start for
    :func:`newton_gauss` or :func:`approach`.

    Parameters
    ----------
    model : Model
        Revolute, prismatic and fixed joints, at most 6 on the chain to ``frame``.
    q0 : array_like (n,)
        Where the search starts (rad, m); joints off the chain keep their values.
    frame : str, optional
        The frame the system places (default ``"ee"``).
    equations : {"redundant", "square"}, optional
        Which system's Jacobian (default the 7 × 6 one).
    held : sequence of int, optional
        Joint indices kept at their ``q0`` values.
    max_evaluations : int, optional
        Budget of Jacobian evaluations for Nelder–Mead (default 5000, so that the search
        ends on its tolerances, not on the budget: on the T3 it takes about 2,000).

    Returns
    -------
    ConditionedStart
        ``q`` (n,), its ``condition``, the ``condition_given`` at ``q0`` and the number of
        ``evaluations``.

    Raises
    ------
    ValueError
        ``q0`` invalid, an unknown ``frame`` or ``equations``, a ``held`` index that is
        not a joint or that holds every joint of the chain, ``max_evaluations`` not a
        positive whole number.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon.kinematics.ik import least_condition_start
    >>> t3 = es.zoo.load("cincinnati_t3")
    >>> found = least_condition_start(t3, np.radians([0, 90, -135, 45, 90, 90]))
    >>> bool(found.condition < found.condition_given)
    True
    """
    from scipy.optimize import minimize

    q0 = targets.start(model, q0)
    _rows(equations)
    max_evaluations = whole_number(max_evaluations, "max_evaluations", 1)
    held_set = set()
    for k in held:
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 0 <= k < model.nq:
            raise ValueError(f"held: expected joint indices 0..{model.nq - 1}, got {held!r}")
        held_set.add(int(k))
    free = [k for k in chain_joints(model, frame) if k not in held_set]
    if not free:
        raise ValueError("held: every joint on the chain is held; nothing is left to move")
    count = [0]

    def log_condition(x):
        q = q0.copy()
        q[free] = x
        count[0] += 1
        _, J = system(model, q, np.eye(3), np.zeros(3), frame, equations)
        s = np.linalg.svd(J, compute_uv=False)
        return float(np.log(s[0] / s[-1])) if s[-1] > 1e-300 else 1e3

    given = log_condition(q0[free])
    revolute = np.array([rotates(model.joint_type[model.dof_bodies[k]]) for k in free])
    span = np.where(revolute, np.pi, 0.5)
    bounds = list(zip(q0[free] - span, q0[free] + span, strict=True))
    best = minimize(
        log_condition,
        q0[free],
        method="Nelder-Mead",
        bounds=bounds,
        options={"maxfev": max_evaluations, "xatol": 1e-6, "fatol": 1e-9},
    )
    q = q0.copy()
    q[free] = best.x
    return ConditionedStart(q, float(np.exp(best.fun)), float(np.exp(given)), count[0])
