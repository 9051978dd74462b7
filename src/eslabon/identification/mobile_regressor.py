"""The Gibbs–Appell regressor of a wheeled mobile manipulator: [Q; τ] = Y(y, ν̇, q̈) π.

A mobile manipulator's equations in eslabon's fully coupled model are Appell's,
∂S/∂[ν̇; q̈] = [Q; τ], with the Gibbs function S of Araujo (2012), (2.25), summed over the
platform's bodies, its wheels and the arm's links, in the platform's quasi-velocities ν
and the arm's rates q̇ (:func:`eslabon.mobile.input_forces`). The same bodies form an
unconstrained tree (:func:`eslabon.mobile.dae.tree_model`: prismatic x, y and the heading
at the root, the wheels and steering bodies as joints, the arm at its mount), whose rates
are v = T w with w = [ν; q̇] and T = diag(E G(config), 1) (G the platform's kinematic map,
E :func:`eslabon.mobile.dae.expansion`, the identity but for a synchronous drive). The
forces conjugate to w are Tᵀ τ_tree (Kane & Levinson 1985, generalized active forces),
and τ_tree = Y_tree π is linear in the standard parameters
(:func:`.regressor.joint_torque_regressor`), so

    [Q; τ] = Tᵀ Y_tree(q_tree, T w, T ẇ + Ṫ w) π,

with Ṫ w the platform's velocity-product acceleration (``motion.accel0``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._args import finite_array
from ..mobile import dae
from .closed_chain import projected_regressor
from .parameters import parameter_names, parameters


class MobileRegressor(NamedTuple):
    """What :func:`mobile_regressor` returns.

    Attributes
    ----------
    Y : ndarray ``(k + n, p)``
        Rows: the platform's quasi-velocity forces Q, then the arm's torques τ (the order
        of ``mm.coordinate_names``'s rates); columns: ``names``.
    names : tuple of str
        The standard parameters (``chassis.m``, ``rear_left.Ixx``, ``link3.mx``, …, then
        each joint's ``fv``, ``fc``, ``Ia``), :func:`.parameter_names` of ``tree``.
    pi : ndarray ``(p,)``
        The model's own parameters in that order: ``Y @ pi`` is
        :func:`eslabon.mobile.input_forces`.
    tree : Model
        The unconstrained tree the columns belong to.
    """

    Y: np.ndarray
    names: tuple
    pi: np.ndarray
    tree: object


def mobile_regressor(mm, y, nu_dot, qdd) -> MobileRegressor:
    """Y with [Q; τ] = Y π at one state of a wheeled mobile manipulator (module docstring).

    Parameters
    ----------
    mm : MobileManipulator
        Any platform of :mod:`eslabon.mobile` carrying an arm (fully coupled model).
    y : array_like (n_state,)
        The state [config, q, ν, q̇] (``mm.state(...)``).
    nu_dot : array_like (k,)
        The platform's quasi-accelerations ν̇.
    qdd : array_like (n,)
        The arm's joint accelerations.

    Returns
    -------
    MobileRegressor
        ``Y`` (k + n, p), the parameter ``names``, the model's ``pi`` and the ``tree``.

    Raises
    ------
    ValueError
        ``y``, ``nu_dot`` or ``qdd`` of the wrong length or not finite.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import mobile as mb
    >>> from eslabon.identification import mobile_regressor
    >>> from eslabon.zoo.araujo import puma560_araujo
    >>> cart = mb.DifferentialDrive(mb.DiffDriveParams.seekur_jr_assumed())
    >>> mm = mb.MobileManipulator(cart, puma560_araujo(), mb.Mount((0.3, 0.1, 0.5)))
    >>> y = mm.state(nu=[0.5, 0.2], qd=[0.1] * 6)
    >>> nu_dot, qdd = np.array([0.3, -0.1]), np.full(6, 0.2)
    >>> reg = mobile_regressor(mm, y, nu_dot, qdd)
    >>> reg.Y.shape == (2 + 6, len(reg.names))
    True
    >>> bool(np.allclose(reg.Y @ reg.pi, mb.input_forces(mm, y, nu_dot, qdd)))
    True
    """
    y = finite_array(y, "y", (mm.n_state,))
    nu_dot = finite_array(nu_dot, "nu_dot", (mm.n_quasi,))
    qdd = finite_array(qdd, "qdd", (mm.n_arm,))
    tree = dae.tree_model(mm)
    config, q, nu, qd = mm.split(y)
    motion = mm.platform.motion(config, nu)
    E, G = dae.expansion(mm), np.asarray(motion.G, dtype=float)
    n, rows = mm.n_arm, E.shape[0]
    T = np.zeros((rows + n, G.shape[1] + n))
    T[:rows, : G.shape[1]] = E @ G
    T[rows:, G.shape[1] :] = np.eye(n)
    q_tree = np.concatenate([E @ config, q])
    v_tree = np.concatenate([E @ motion.rates, qd])
    a_tree = np.concatenate([E @ (G @ nu_dot + motion.accel0), qdd])
    Y = projected_regressor(tree, q_tree, v_tree, a_tree, T)
    return MobileRegressor(Y, parameter_names(tree), parameters(tree), tree)
