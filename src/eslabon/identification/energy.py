"""The energy regressors: kinetic energy T = h(q, q̇) π and potential energy V = u(q) π.

Both energies are linear in the standard parameters (Gautier & Khalil 1988, "On the
identification of the inertial parameters of robots"; Khalil & Dombre, *Modeling,
Identification and Control of Robots*, 2002, §9.3). With v, ω the velocity of body i's
origin and its angular velocity, both in body axes, R_i, p_i its world pose and g the
gravity vector:

    T_i = ½ m vᵀv + hᵀ (v × ω) + ½ ωᵀ I ω
    V_i = −m gᵀ p_i − hᵀ R_iᵀ g

and a joint's rotor adds ½ Ia q̇ᵀq̇ (its rates). Friction has no energy: its columns are
zero. The zero of V is the world origin, as :func:`eslabon.potential_energy` takes it.
"""

from __future__ import annotations

import numpy as np

from ..kinematics.kinematic_pass import kinematic_pass
from .parameters import joint_columns, parameter_count
from .regressor import _check_model, _engine_states


def kinetic_energy_regressor(model, q, qd) -> np.ndarray:
    """h(q, q̇), the row with T = h π (module docstring).

    Parameters
    ----------
    model : Model
        Any model whose bodies are rigid.
    q : array_like (nq,) or (N, nq)
        Configuration.
    qd : array_like (nv,) or (N, nv)
        Joint rates.

    Returns
    -------
    ndarray (p,) or (N, p)
        ``h @ parameters(model)`` is :func:`eslabon.kinetic_energy` [J], the rotors'
        ½ Ia q̇² included.

    Raises
    ------
    ValueError
        A state of the wrong shape or not finite, or a model with a sliding centre of mass.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon.identification import kinetic_energy_regressor, parameters
    >>> arm = es.zoo.load("puma560")
    >>> q, qd = np.full(6, 0.3), np.full(6, -0.2)
    >>> T = kinetic_energy_regressor(arm, q, qd) @ parameters(arm)
    >>> bool(np.isclose(T, es.kinetic_energy(arm, q, qd)))
    True
    """
    _check_model(model, "the kinetic energy regressor")
    motion = kinematic_pass(model, q, qd)
    q = np.asarray(q, dtype=float)
    qd = np.asarray(qd, dtype=float)
    _, qde, _ = _engine_states(model, q, qd, qd)
    v = motion.linear_velocity[..., 1:, :]
    w = motion.angular_velocity[..., 1:, :]
    nb = model.nb
    rows = np.zeros(v.shape[:-1] + (10,))
    rows[..., 0] = 0.5 * np.einsum("...i,...i->...", v, v)
    rows[..., 1:4] = np.cross(v, w)
    wx, wy, wz = w[..., 0], w[..., 1], w[..., 2]
    rows[..., 4:] = np.stack(
        [0.5 * wx * wx, wx * wy, wx * wz, 0.5 * wy * wy, wy * wz, 0.5 * wz * wz], axis=-1
    )
    h = np.zeros(q.shape[:-1] + (parameter_count(model),))
    h[..., : 10 * nb] = rows.reshape(q.shape[:-1] + (10 * nb,))
    jc = joint_columns(model)
    squares = 0.5 * qde[..., jc.rates] ** 2
    for k, col in enumerate(jc.columns):  # a joint of several rates sums them
        h[..., col + 2] += squares[..., k]
    return h


def potential_energy_regressor(model, q) -> np.ndarray:
    """u(q), the row with V = u π (module docstring).

    Parameters
    ----------
    model : Model
        Any model whose bodies are rigid.
    q : array_like (nq,) or (N, nq)
        Configuration.

    Returns
    -------
    ndarray (p,) or (N, p)
        ``u @ parameters(model)`` is :func:`eslabon.potential_energy` [J]; the joint
        columns are zero.

    Raises
    ------
    ValueError
        A configuration of the wrong shape or not finite, or a model with a sliding centre
        of mass.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon.identification import parameters, potential_energy_regressor
    >>> arm = es.zoo.load("puma560")
    >>> V = potential_energy_regressor(arm, np.full(6, 0.3)) @ parameters(arm)
    >>> bool(np.isclose(V, es.potential_energy(arm, np.full(6, 0.3))))
    True
    """
    _check_model(model, "the potential energy regressor")
    motion = kinematic_pass(model, q)
    q = np.asarray(q, dtype=float)
    g = np.asarray(model.gravity, dtype=float)
    R = motion.world_rotation[..., 1:, :, :]
    p = motion.world_position[..., 1:, :]
    nb = model.nb
    rows = np.zeros(p.shape[:-1] + (10,))
    rows[..., 0] = -(p @ g)
    rows[..., 1:4] = -np.einsum("...ji,j->...i", R, g)
    u = np.zeros(q.shape[:-1] + (parameter_count(model),))
    u[..., : 10 * nb] = rows.reshape(q.shape[:-1] + (10 * nb,))
    return u
