"""Centroidal dynamics: the centroidal momentum matrix A_G, its rate, the centroidal
composite rigid-body inertia and the average spatial velocity.

Orin, Goswami & Lee, "Centroidal dynamics of a humanoid robot", *Autonomous Robots* 35
(2013) 161–176. The centroidal momentum h_G = [k_G; l] is the bodies' total momentum about
their centre of mass G, world axes: k_G = Σ (Īᵢ ωᵢ + (cᵢ − G) × mᵢ ċᵢ), l = Σ mᵢ ċᵢ. It
is linear in the rates, h_G = A_G(q) q̇, and its rate is the sum of the external wrenches
about G with gravity: ḣ_G = A_G q̈ + Ȧ_G q̇ = Σ w_ext,G + [0; m g].

**Row order.** eslabon orders spatial vectors [angular; linear] (docs/conventions.md), so
A_G's rows are [k_G; l]: A_G[:3] the angular momentum about G, A_G[3:] = m J_c the linear.
Pinocchio's ``ccrba`` gives Ag with rows [linear; angular] and its columns in its own
joint order: ``Ag_pin = A_G[[3, 4, 5, 0, 1, 2]][:, v_order]``
(:func:`eslabon.interop.pinocchio.urdf_order` or ``dof_order``).

**Algorithm** (their §3: composite rigid bodies projected to G). Body i's spatial inertia
at the world origin O, world axes, is Iᵢ = [[Īᵢ + mᵢ [cᵢ]×[cᵢ]×ᵀ, mᵢ [cᵢ]×]; [mᵢ [cᵢ]×ᵀ,
mᵢ 1]] (Featherstone, RBDA (2008), §2.13, in [angular; linear] order), with Īᵢ = Rᵢ Īᵢ,b
Rᵢᵀ. The composite inertia of the subtree below body b is I^C_b = Σ_{i ≥ b} Iᵢ, and the
momentum per unit rate k of the joint of body b(k) is the subtree's inertia times the
rate's world-origin column S_k (:mod:`eslabon.kinematics.spatial_columns`):

    A_O[:, k] = I^C_{b(k)} S_k,        A_G = X_G A_O,   X_G = [[1, −[G]×]; [0, 1]]

(the moment of a force moved from O to G). A_G alone needs of I^C_b only the subtree's
mass m_b, first moment h_b = Σ mᵢ cᵢ and second moment Θ_b = Σ (Īᵢ + mᵢ [cᵢ]×[cᵢ]×ᵀ):
A_O[:, k] = [Θ_b ω_k + h_b × v_k; m_b v_k − h_b × ω_k] (``centroidal_momentum_matrix``).

Differentiating along q̇, with İᵢ = Vᵢ ×* Iᵢ − Iᵢ Vᵢ ×ₘ (RBDA §2.13–2.14; Vᵢ the body's
twist) and Ṡ_k = V_{b(k)} ×ₘ S_k:

    Ȧ_O[:, k] = İ^C_{b(k)} S_k + I^C_{b(k)} Ṡ_k,   Ȧ_G = X_G Ȧ_O + [[0, −[Ġ]×]; [0, 0]] A_O

The centroidal composite rigid-body inertia is I_G = X_G I^C_0 X_Gᵀ =
blockdiag(K_G, m 1), and the average spatial velocity v_G = I_G⁻¹ h_G = [ω_G; Ġ],
the twist of the rigid body of inertia I_G with the robot's momentum. The rotors' inertia
(armature) turns with its joint, not in the world, and is left out, as in
:func:`eslabon.momentum`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._args import state_docs
from .._engine import entrypoints as _entrypoints
from .._engine.lazymodule import lazy_module
from ..model.model import Model

# the kinematic recursion (and numba): imported by the first call
_pass = lazy_module("eslabon.kinematics.kinematic_pass")
_columns = lazy_module("eslabon.kinematics.spatial_columns")
_com = lazy_module("eslabon.kinematics.center_of_mass")
_task = lazy_module("eslabon.kinematics.task_batches")


@dataclass(frozen=True)
class Centroidal:
    """The centroidal quantities at one state or a batch: axes of the world, moments
    about the centre of mass G, rows [angular; linear].

    Attributes
    ----------
    W_p_G : ndarray ``(3,)`` or ``(N, 3)``
        G, the centre of mass [m].
    mass : float
        m, the robot's mass [kg].
    A_G : ndarray ``(6, n)`` or ``(N, 6, n)``
        The centroidal momentum matrix: h_G = A_G q̇.
    h_G : ndarray ``(6,)`` or ``(N, 6)``
        [k_G (kg·m²/s); l (kg·m/s)], the centroidal momentum.
    dA_G : ndarray ``(6, n)`` or ``(N, 6, n)``
        Ȧ_G, the time derivative of A_G along q̇ (Pinocchio's ``dccrba``, rows swapped).
    dA_G_qd : ndarray ``(6,)`` or ``(N, 6)``
        Ȧ_G q̇: ḣ_G = A_G q̈ + Ȧ_G q̇.
    I_G : ndarray ``(6, 6)`` or ``(N, 6, 6)``
        The centroidal composite rigid-body inertia blockdiag(K_G, m 1) (Pinocchio's Ig,
        blocks swapped).
    v_G : ndarray ``(6,)`` or ``(N, 6)``
        The average spatial velocity I_G⁻¹ h_G = [ω_G (rad/s); Ġ (m/s)]; where K_G is
        singular (point masses on a line, a planar arm) ω_G is the minimum-norm one.
    """

    W_p_G: np.ndarray
    mass: float
    A_G: np.ndarray
    h_G: np.ndarray
    dA_G: np.ndarray
    dA_G_qd: np.ndarray
    I_G: np.ndarray
    v_G: np.ndarray


def _skew(a):
    out = np.zeros(a.shape[:-1] + (3, 3))
    out[..., 0, 1], out[..., 0, 2], out[..., 1, 2] = -a[..., 2], a[..., 1], -a[..., 0]
    out[..., 1, 0], out[..., 2, 0], out[..., 2, 1] = a[..., 2], -a[..., 1], a[..., 0]
    return out


def _moving_inertia(model):
    """(mᵢ (nb+1,), Īᵢ (nb+1, 3, 3), m), zero for the world and the bodies welded to it,
    which are part of the world (:mod:`eslabon.kinematics.center_of_mass`); m their
    total, summed as :func:`~eslabon.kinematics.center_of_mass.center_of_mass` sums it."""
    moving = _com.moving_bodies(model)
    mass = np.where(moving, np.asarray(model.mass, dtype=float), 0.0)
    total = float(np.sum(model.mass[moving]))
    return mass, np.where(moving[:, None, None], model.inertia, 0.0), total


def _body_inertias(model, motion):
    """Iᵢ (..., nb+1, 6, 6) at the world origin, world axes, and the centres cᵢ."""
    R = motion.world_rotation
    c = _com.body_centers(motion)
    mass, body_inertia, _ = _moving_inertia(model)
    m = mass[:, None, None]
    C = _skew(c)
    inertia = np.empty(c.shape[:-1] + (6, 6))
    inertia[..., :3, :3] = R @ body_inertia @ np.swapaxes(R, -1, -2) - m * (C @ C)
    inertia[..., :3, 3:] = m * C
    inertia[..., 3:, :3] = -m * C
    inertia[..., 3:, 3:] = m * np.eye(3)
    return inertia, c


def _composite(model, per_body):
    """Σ over each body's subtree of per-body 6×6 matrices (..., nb+1, 6, 6): one product
    with the subtree table for one state, the inward sweep (children before parents,
    parent[i] < i) for a batch, whose cost grows as nb rather than nb²."""
    if per_body.ndim == 3:
        subtree = _columns.tree(model).subtree.astype(float)
        return np.einsum("bi,ijk->bjk", subtree, per_body)
    out = per_body.copy()
    for i in range(model.nb, 0, -1):
        out[..., int(model.parent[i]), :, :] += out[..., i, :, :]
    return out


def _to_G(G, A_ang, A_lin):
    """X_G applied to columns: [A_ang − G × A_lin; A_lin]."""
    return np.concatenate([A_ang - _columns.cross_columns(G, A_lin), A_lin], axis=-2)


def _momentum_matrix(model, motion, S):
    """(A_G, G, m, composite inertias, body inertias) in engine rates."""
    model.require_rigid_links("the centroidal momentum")
    inertia, c = _body_inertias(model, motion)
    composite = _composite(model, inertia)
    rate_body = _columns.tree(model).rate_body
    A_O = np.einsum("...kij,...jk->...ik", composite[..., rate_body, :, :], S)
    mass, _, m = _moving_inertia(model)
    if not m > 0.0:
        raise ValueError(f"model: {model.name!r} has no mass; it has no centre of mass")
    G = np.einsum("b,...bi->...i", mass / m, c)
    return _to_G(G, A_O[..., :3, :], A_O[..., 3:, :]), A_O, G, m, composite, inertia


def _subtree_sums(model, per_body, axis: int):
    """Σ over each body's subtree of per-body arrays, the bodies along ``axis``: one product
    with the subtree table for one state, the inward sweep (children before parents) for
    a batch."""
    if per_body.ndim == -axis:  # one state: the bodies lead
        subtree = _columns.tree(model).subtree.astype(float)
        return (subtree @ per_body.reshape(model.nb + 1, -1)).reshape(per_body.shape)
    out = per_body.copy()
    moved = np.moveaxis(out, axis, 0)  # a view: the sweep adds into ``out``
    for i in range(model.nb, 0, -1):
        moved[int(model.parent[i])] += moved[i]
    return out


def _compact_momentum_matrix(model, motion, S):
    """A_G (..., 6, engine_nv) from each subtree's mass m_b, first moment h_b = Σ mᵢ cᵢ and
    second moment Θ_b = Σ (Īᵢ + mᵢ [cᵢ]×[cᵢ]×ᵀ) about O: the composite inertia I^C_b in 13
    numbers instead of 36, A_O[:, k] = [Θ_b ω_k + h_b × v_k; m_b v_k − h_b × ω_k]."""
    model.require_rigid_links("the centroidal momentum")
    m, body_inertia, m_total = _moving_inertia(model)
    if not m_total > 0.0:
        raise ValueError(f"model: {model.name!r} has no mass; it has no centre of mass")
    R = motion.world_rotation
    c = _com.body_centers(motion)
    theta = R @ body_inertia @ np.swapaxes(R, -1, -2)
    theta -= m[:, None, None] * (c[..., :, None] * c[..., None, :])
    theta += (m * np.einsum("...i,...i->...", c, c))[..., None, None] * np.eye(3)
    first = m[:, None] * c
    rate_body = _columns.tree(model).rate_body
    subtree = _columns.tree(model).subtree
    mass_b = (subtree.astype(float) @ m)[rate_body]  # (engine_nv,)
    first_b = np.swapaxes(_subtree_sums(model, first, -2)[..., rate_body, :], -1, -2)
    theta_b = _subtree_sums(model, theta, -3)[..., rate_body, :, :]  # (..., nv, 3, 3)
    w, v = S[..., :3, :], S[..., 3:, :]
    k_O = np.einsum("...kij,...jk->...ik", theta_b, w) + _columns.cross_pairs(first_b, v)
    p = mass_b * v - _columns.cross_pairs(first_b, w)
    G = np.einsum("b,...bi->...i", m / m_total, c)
    return _to_G(G, k_O, p)


def _fold(model, A):
    return A if model.mimic is None else A @ model.mimic.G


@state_docs
def centroidal_momentum_matrix(model, q) -> np.ndarray:
    """A_G, the centroidal momentum matrix, rows [angular; linear]: (6, n) or (N, 6, n).

    h_G = A_G q̇ is the bodies' momentum about their centre of mass G, world axes (Orin,
    Goswami & Lee 2013): column k is the momentum of the subtree moved by rate k,
    I^C S_k, moved to G (the module :mod:`eslabon.dynamics.centroidal`). Rows [angular;
    linear], eslabon's order: Pinocchio's ``ccrba`` Ag is ``A_G[[3, 4, 5, 0, 1, 2]]``.

    Parameters
    ----------
    $model
    $q

    Returns
    -------
    ndarray (6, n) or (N, 6, n)
        kg·m²/s (rows 0–2) and kg·m/s (rows 3–5) per unit rate.

    Raises
    ------
    $state_errors
    ValueError
        A model without mass, or whose centre of mass slides with a prismatic joint
        (seed 001's book mode: not a rigid body).

    Examples
    --------
    The linear rows are the mass times the centre of mass's Jacobian:

    >>> import numpy as np, eslabon as es
    >>> robot = es.zoo.load("quadruped")
    >>> q = es.random_configuration(robot, np.random.default_rng(1))
    >>> A = es.centroidal_momentum_matrix(robot, q)
    >>> m = float(robot.mass.sum())
    >>> A.shape, bool(np.allclose(A[3:], m * es.kinematics.com_jacobian(robot, q)))
    ((6, 18), True)
    """
    batch = _task.batch_states(model, q)
    if batch is None:
        return momentum_matrix_reference(model, q)
    model.require_rigid_links("the centroidal momentum")
    if not _moving_inertia(model)[2] > 0.0:
        raise ValueError(f"model: {model.name!r} has no mass; it has no centre of mass")
    return _task.centroidal_batch(model, batch[0], linear_only=False)


def momentum_matrix_reference(model, q) -> np.ndarray:
    """A_G by the numpy form of the module's equations (the reference of the compiled
    kernels, :mod:`eslabon.kinematics.task_kernels`; every model, one state or a batch).

    Parameters
    ----------
    model : Model
        Any model with mass and rigid bodies.
    q : ndarray ``(nq,)`` or ``(N, nq)``
        Checked configuration(s).

    Returns
    -------
    ndarray ``(6, nv)`` or ``(N, 6, nv)``
        A_G, angular rows first, about the centre of mass in world axes.
    """
    motion = _columns.poses(model, q)
    S = _columns.spatial_columns(model, q, motion)
    return _fold(model, _compact_momentum_matrix(model, motion, S))


def _cross_force(V):
    """V ×* (..., 6, 6): [[ω×, v×]; [0, ω×]] for twists V (..., 6)."""
    W, Vx = _skew(V[..., :3]), _skew(V[..., 3:])
    out = np.zeros(V.shape[:-1] + (6, 6))
    out[..., :3, :3] = out[..., 3:, 3:] = W
    out[..., :3, 3:] = Vx
    return out


@state_docs
def centroidal_momentum(model, q, qd) -> Centroidal:
    """Centroidal momentum and its matrices: A_G, h_G, Ȧ_G, Ȧ_G q̇, I_G and v_G in one
    record.

    About the centre of mass G, world axes, rows [angular; linear] (Orin, Goswami & Lee
    2013: h_G = A_G q̇, ḣ_G = A_G q̈ + Ȧ_G q̇, the centroidal composite rigid-body inertia
    I_G and the average spatial velocity v_G = I_G⁻¹ h_G; the module
    :mod:`eslabon.dynamics.centroidal`). Pinocchio's ``ccrba`` and
    ``dccrba`` (rows [linear; angular] there), MuJoCo's ``mj_angmomMat`` (about the
    subtree's centre of mass too).

    Parameters
    ----------
    $model
    $q
    $qd

    Returns
    -------
    Centroidal
        ``W_p_G``, ``mass``, ``A_G``, ``h_G``, ``dA_G``, ``dA_G_qd``, ``I_G``, ``v_G``.

    Raises
    ------
    $state_errors
    ValueError
        A model without mass, or whose centre of mass slides with a prismatic joint
        (seed 001's book mode: not a rigid body).

    Examples
    --------
    The centroidal momentum is the total momentum moved from the world origin to G:

    >>> import numpy as np, eslabon as es
    >>> robot = es.zoo.load("quadruped")
    >>> q = es.random_configuration(robot, np.random.default_rng(1))
    >>> qd = np.linspace(-1.0, 1.0, robot.nv)
    >>> cm = es.centroidal_momentum(robot, q, qd)
    >>> h_O = es.momentum(robot, q, qd)  # [angular about O; linear]
    >>> bool(np.allclose(cm.h_G[:3], h_O[:3] - np.cross(cm.W_p_G, h_O[3:])))
    True
    """
    motion = _pass.kinematic_pass(model, q, qd)
    S = _columns.spatial_columns(model, q, motion)
    A_G, A_O, G, m, composite, inertia = _momentum_matrix(model, motion, S)
    qd_e = _columns.engine_rates(model, qd)
    V = _columns.body_twists(motion)
    Sdot = _columns.column_rates(model, S, V, qd_e)
    crm = -np.swapaxes(_cross_force(V), -1, -2)  # V ×ₘ = −(V ×*)ᵀ
    rate = _cross_force(V) @ inertia - inertia @ crm  # İᵢ (RBDA §2.13–2.14)
    rate_composite = _composite(model, rate)
    rate_body = _columns.tree(model).rate_body
    dA_O = np.einsum("...kij,...jk->...ik", rate_composite[..., rate_body, :, :], S)
    dA_O += np.einsum("...kij,...jk->...ik", composite[..., rate_body, :, :], Sdot)
    h_G = np.einsum("...ij,...j->...i", A_G, qd_e)
    G_dot = h_G[..., 3:] / m
    dA_G = _to_G(G, dA_O[..., :3, :], dA_O[..., 3:, :])
    dA_G[..., :3, :] -= _columns.cross_columns(G_dot, A_O[..., 3:, :])
    X = np.broadcast_to(np.eye(6), G.shape[:-1] + (6, 6)).copy()
    X[..., :3, 3:] = -_skew(G)
    I_G = X @ composite[..., 0, :, :] @ np.swapaxes(X, -1, -2)
    # I_G = blockdiag(K_G, m 1); K_G is singular for point masses on a line or in a
    # plane (a planar arm): the angular part is then the minimum-norm solution
    spin = np.linalg.pinv(I_G[..., :3, :3], hermitian=True) @ h_G[..., :3, None]
    v_G = np.concatenate([spin[..., 0], h_G[..., 3:] / m], axis=-1)
    dA_G_qd = np.einsum("...ij,...j->...i", dA_G, qd_e)
    return Centroidal(G, m, _fold(model, A_G), h_G, _fold(model, dA_G), dA_G_qd, I_G, v_G)


# The public function is a builtin (eslabon._engine.entrypoints): a float64 (nq,) q of a
# model without mimic joints runs the compiled entry of eslabon.kinematics.task_kernels on
# model.packed_dynamics; anything else comes to the function above, the general path.
_plain, _extended, _cols, _ = _entrypoints.entry_pair(
    "eslabon.kinematics.task_kernels", "momentum_matrix_entry"
)
centroidal_momentum_matrix = _entrypoints.public(
    centroidal_momentum_matrix, _plain, 1, (5,), Model, _extended, _cols
)
