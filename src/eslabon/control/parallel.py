"""Computed torque for a closed chain (a parallel robot): exact linearization in its
independent coordinates.

On the constraint manifold the state is that of the k independent coordinates θ (a
parallel robot's actuated joints, or its platform's coordinates;
:func:`eslabon.constraints.partition`), and the actuators reach every θ̈. The law asks
for

    θ̈_c = θ̈_d + K_d (θ̇_d − θ̇) + K_p (θ_d − θ),

closes it to the whole q̈ at the measured state (J q̈ = γ,
:func:`eslabon.constraints.close_state`) and returns the actuator torques of that motion
(:func:`eslabon.constraints.constrained_inverse_dynamics`, minimum norm for redundant
actuation). With an exact model the error e = θ_d − θ obeys ë + K_d ė + K_p e = 0: the
computed-torque law of a serial arm (:func:`.tracking.computed_torque_law`; Rojas (1987),
§5.4) carried to the closed chain through the reduced equations of motion of the
independent coordinates (Nakamura and Ghodoussi, "Dynamics computation of closed-link
robot mechanisms with nonredundant and redundant actuators", IEEE Trans. Robot. Autom.
5(3), 1989).
"""

from __future__ import annotations

import numpy as np

from ..constraints import close_state, constrained_inverse_dynamics
from ..constraints.kinematics import _indices
from .design import spd_matrix


def parallel_computed_torque_law(model, nominal, kp, kd, *, independent, actuated=None,
                                 constraints=None):  # fmt: skip
    """τ of the actuators that gives θ̈ = θ̈_d + K_d ė + K_p e in the independent
    coordinates θ of a closed chain (module docstring).

    Parameters
    ----------
    model : Model
        With constraints (its own, or ``constraints``), vector coordinates only.
    nominal : Nominal
        The desired motion of the independent coordinates θ_d(t), θ̇_d(t), θ̈_d(t), k of
        them (:class:`eslabon.control.Nominal`).
    kp, kd : float, array_like (k,) or (k, k)
        Position gain K_p [1/s²] and rate gain K_d [1/s], symmetric positive definite.
    independent : sequence of int
        The rates whose motion is prescribed, k = the mobility (e.g. a Delta's platform
        x, y, z, or its arms).
    actuated : sequence of int, optional
        The actuated rates; by default every rate but a free flyer's
        (:func:`eslabon.constraints.constrained_inverse_dynamics`).
    constraints : LoopClosure, Contact, RollingWheel or a list of them, optional
        By default the model's own.

    Returns
    -------
    callable
        ``law(t, q, qd) -> tau`` (nv,) [N·m, N]: zero on the unactuated rates; what
        :func:`eslabon.simulate` takes as ``torque``. The measured q is first moved onto
        φ = 0 keeping θ (damped Newton: a run's drift is tiny) and q̇ onto J q̇ = 0 from θ̇.
        It raises a ValueError for a t outside the nominal, or a q from which φ = 0
        cannot be reached.

    Raises
    ------
    ValueError
        A model with quaternion joints; gains not symmetric positive definite or not k
        × k; a nominal of another width than ``independent``.

    Examples
    --------
    The five-bar's two actuated joints follow a path from an offset start:

    >>> import numpy as np, eslabon as es
    >>> from eslabon import constraints as ec
    >>> robot = es.zoo.load("five_bar")
    >>> nominal = es.control.Nominal(*es.joint_trajectory([0.0, 0.0], [0.2, -0.1],
    ...                                                   np.linspace(0.0, 1.0, 11)))
    >>> law = es.control.parallel_computed_torque_law(robot, nominal, 100.0, 20.0,
    ...                                                independent=[0, 1], actuated=[0, 1])
    >>> start = ec.close_state(robot, es.neutral(robot), [0, 1], [0.02, 0.0]).q
    >>> run = es.simulate(robot, start, None, 1.0, 0.01, torque=law)
    >>> bool(np.abs(run.q[-1, :2] - [0.2, -0.1]).max() < 1e-3)
    True
    """
    model.require_vector_space("parallel_computed_torque_law (θ − θ_d as a vector)")
    independent = _indices(independent, model.nv, "independent")
    k = independent.size
    if nominal.q.shape[1] != k:
        raise ValueError(
            f"nominal: expected the motion of the {k} independent coordinates, got "
            f"{nominal.q.shape[1]} columns"
        )
    Kp, Kd = spd_matrix(kp, k, "kp"), spd_matrix(kd, k, "kd")

    def law(t, q, qd):
        theta_d, rate_d, accel_d = nominal(t)
        theta, rate = q[independent], qd[independent]
        wanted = accel_d + Kd @ (rate_d - rate) + Kp @ (theta_d - theta)
        state = close_state(model, q, independent, theta, rate, wanted, constraints=constraints)
        out = constrained_inverse_dynamics(
            model, state.q, state.qd, state.qdd, actuated=actuated, constraints=constraints
        )
        return np.asarray(out.tau)

    return law


__all__ = ["parallel_computed_torque_law"]
