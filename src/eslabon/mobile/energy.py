"""Energies and power of a mobile manipulator: the coupled system's kinetic energy
½ aᵀ D a at the quasi-velocities, the potential energy of every body, and the inputs'
power — the work–energy balance that checks a run (docs/mobile.md)."""

from __future__ import annotations

import numpy as np

from ..kinematics.forward import forward_kinematics
from .gibbs import _inputs, coupled_terms


def coupled_kinetic_energy(mm, y) -> float:
    """T = ½ [ν; q̇]ᵀ D [ν; q̇], the coupled system's kinetic energy.

    Every velocity is linear in the quasi-velocities with the same partials as the
    accelerations, so D of :func:`coupled_terms` is the kinetic-energy matrix. It is the
    coupled system's energy whatever ``mm.mode`` is: every body (platform and arm) and
    the arm's armature.

    Parameters
    ----------
    mm : MobileManipulator
    y : array_like (n_state,)
        The state [config, q, ν, q̇].

    Returns
    -------
    float
        T [J].

    Raises
    ------
    ValueError
        ``y`` of the wrong length or not finite; a tricycle steering angle outside
        (−90°, 90°).

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon import mobile as mb
    >>> cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    >>> mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"), mb.Mount((0.3, 0, 0.5)))
    >>> round(float(mb.coupled_kinetic_energy(mm, mm.state(nu=[1.0, 0.0]))), 6)  # V = 1 m/s
    199.762
    """
    _, _, nu, qd = mm.split(y)
    D = coupled_terms(mm.with_mode("coupled"), y)[0]
    v = np.concatenate([nu, qd])
    return 0.5 * v @ D @ v


def arm_potential_energy(mm, y) -> float:
    """Gravity's potential of the arm's links (the platform's bodies stay at their height).

    V = g Σ m_i h_i over the arm's links, h_i the height of link i's centre of mass above
    the chassis frame's origin (the platform's bodies add a constant, left out).

    Parameters
    ----------
    mm : MobileManipulator
    y : array_like (n_state,)
        The state [config, q, ν, q̇] (only q is used).

    Returns
    -------
    float
        V [J].

    Raises
    ------
    ValueError
        ``y`` of the wrong length or not finite.

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon import mobile as mb
    >>> cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    >>> mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"), mb.Mount((0.3, 0, 0.5)))
    >>> round(mb.arm_potential_energy(mm, mm.state()), 6)
    211.009595
    """
    _, q, _, _ = mm.split(y)
    T = forward_kinematics(mm.arm, q)  # bodies in the arm's base
    com_in_base = np.einsum("bij,bj->bi", T[:, :3, :3], mm.arm.com) + T[:, :3, 3]
    heights = com_in_base @ mm.mount.rotation[2] + mm.mount.translation[2]
    return float(mm.gravity * mm.arm.mass[1:] @ heights[1:])


def tree_potential_energy(mm, Y) -> np.ndarray:
    """V = −Σ m_i g_Fᵀ r_i over every body, platform and arm: (K,) for states Y (K, n_state).

    On a slope (``mm.ground``) or with a tilted steering axis the platform's bodies
    change height as they move, which :func:`arm_potential_energy` leaves out; here every
    body of the unconstrained tree (:func:`eslabon.mobile.dae.tree_model`, gravity in the
    plane frame) counts. It differs from :func:`arm_potential_energy` by a constant on a
    level floor with a vertical steering axis.

    Parameters
    ----------
    mm : MobileManipulator
    Y : array_like (K, n_state) or (n_state,)
        States [config, q, ν, q̇].

    Returns
    -------
    ndarray (K,)
        V [J] (zero with every centre of mass at the plane frame's origin).

    Raises
    ------
    ValueError
        A state of the wrong length or not finite.

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon import mobile as mb
    >>> from eslabon.mobile.energy import tree_potential_energy
    >>> cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    >>> mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"), mb.Mount((0.3, 0, 0.5)))
    >>> V = tree_potential_energy(mm, np.stack([mm.state(), mm.state(q=[0, 0.1, 0, 0, 0, 0])]))
    >>> bool(np.isclose(V[1] - V[0], mb.arm_potential_energy(mm, mm.state(q=[0, 0.1, 0, 0, 0, 0]))
    ...      - mb.arm_potential_energy(mm, mm.state())))
    True
    """
    from ..dynamics.api import potential_energy
    from .dae import expansion, tree_model

    Y = np.atleast_2d(np.asarray(Y, dtype=float))
    tree = tree_model(mm)
    E = expansion(mm)
    q_tree = []
    for y in Y:
        config, q, _, _ = mm.split(y)
        q_tree.append(np.concatenate([E @ config, q]))
    return np.atleast_1d(potential_energy(tree, np.array(q_tree)))


def input_power(mm, y, u, tau=None) -> float:
    """Power of the inputs less the arm's joint friction: Q_platformᵀ ν + τᵀ q̇ − friction.

    friction = Σ (viscous·q̇² + Coulomb·abs(q̇)) over the arm's joints (the model's
    friction). Its integral is the work W of the work–energy balance T + V − W = const
    (:class:`~eslabon.mobile.MobileTrajectory`).

    Parameters
    ----------
    mm : MobileManipulator
    y : array_like (n_state,)
        The state [config, q, ν, q̇].
    u : array_like (k_u,)
        Platform inputs (``mm.platform.input_names``; tricycle [F N, M N·m], the others
        wheel torques [N·m]).
    tau : array_like (n,), optional
        Arm joint torques [N·m, N] (zeros by default).

    Returns
    -------
    float
        Power [W].

    Raises
    ------
    ValueError
        An argument of the wrong length or not finite.

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon import mobile as mb
    >>> cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    >>> mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"), mb.Mount((0.3, 0, 0.5)))
    >>> mb.input_power(mm, mm.state(nu=[1.0, 0.0]), [150.0, 0.3])  # F V
    150.0
    """
    u, tau = _inputs(mm, u, tau)
    config, _, nu, qd = mm.split(y)
    a = mm.arm
    dof = a.dof_bodies
    friction = a.viscous[dof] * qd * qd + a.coulomb[dof] * np.abs(qd)
    return float(mm.platform.generalized_forces(config, nu, u) @ nu + tau @ qd - friction.sum())
