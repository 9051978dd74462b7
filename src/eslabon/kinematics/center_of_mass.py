"""The centre of mass of the robot or of a subtree: position, velocity, acceleration and
Jacobian.

For the bodies i of a subtree (the whole robot: the world's subtree), of masses mᵢ with
centres of mass cᵢ (world), m = Σ mᵢ and (Orin, Goswami & Lee, "Centroidal dynamics of a
humanoid robot", *Autonomous Robots* 35 (2013) 161–176):

    c = Σ mᵢ cᵢ / m,   ċ = Σ mᵢ ċᵢ / m,   c̈ = Σ mᵢ c̈ᵢ / m

each body's centre moving as a point of the body: ċᵢ = vᵢ + ωᵢ × rᵢ and
c̈ᵢ = aᵢ + ω̇ᵢ × rᵢ + ωᵢ × (ωᵢ × rᵢ), rᵢ its offset from the body origin (the outward
pass, :func:`.kinematic_pass.kinematic_pass`). The Jacobian J_c (ċ = J_c q̇) sums, for
each rate k with world-origin column S_k = [ω_k; v_k] (:mod:`.spatial_columns`), the
velocity its unit rate gives each centre it moves (κ⁻¹(k), the bodies rate k moves):

    J_c[:, k] = (m_k v_k + ω_k × Σ_{i ∈ κ⁻¹(k)} mᵢ cᵢ) / m,   m_k = Σ_{i ∈ κ⁻¹(k)} mᵢ

The rotors' inertia (armature) has no mass and no part here. A body welded to the world
(every joint between them fixed: no rate moves it) is part of the world, not of the
robot: its mass is not counted, as Pinocchio's URDF reader merges such links into the
universe and MuJoCo's fuses them into the world body (a UR5's 4 kg base link).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._args import state_docs
from .._engine import entrypoints as _entrypoints
from ..model.model import Model
from . import task_batches as _batches
from .kinematic_pass import KinematicPass, kinematic_pass
from .spatial_columns import Poses, cross_pairs, poses, spatial_columns, tree


@dataclass(frozen=True)
class CenterOfMass:
    """The centre of mass of a robot or a subtree at one state or a batch (world axes).

    Attributes
    ----------
    W_p_com : ndarray ``(3,)`` or ``(N, 3)``
        Position c [m].
    W_v_com : ndarray ``(3,)`` or ``(N, 3)``
        Velocity ċ [m/s] (zero when no rates were given).
    W_a_com : ndarray ``(3,)`` or ``(N, 3)``
        Acceleration c̈ [m/s²], without gravity (zero rates and accelerations when not
        given).
    mass : float
        m, the mass of the bodies counted [kg].
    subtree : str
        The body whose subtree is counted (``"world"``: the whole robot).
    """

    W_p_com: np.ndarray
    W_v_com: np.ndarray
    W_a_com: np.ndarray
    mass: float
    subtree: str


def moving_bodies(model) -> np.ndarray:
    """Mask (nb+1,) of the bodies some rate moves: the others, welded to the world, are
    part of it and never counted (the module docstring).

    Parameters
    ----------
    model : Model
        Any model.

    Returns
    -------
    ndarray of bool ``(nb + 1,)``
        False for the world and every body welded to it.

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon.kinematics.center_of_mass import moving_bodies
    >>> moving_bodies(es.zoo.load("planar2")).tolist()
    [False, True, True]
    """
    return np.asarray(tree(model).support.any(axis=1))


def _bodies(model, subtree) -> tuple[np.ndarray, str]:
    """Mask (nb+1,) of the bodies counted (the subtree's, less those welded to the world)
    and the name of the subtree's root."""
    model.require_rigid_links("the centre of mass's velocity and Jacobian")
    name = "world" if subtree is None else subtree
    if not isinstance(name, str) or name not in model.body_names:
        raise ValueError(
            f"subtree: expected the name of a body of {model.name!r}, one of "
            f"{list(model.body_names)}, got {name!r}"
        )
    counted = tree(model).subtree[model.body_names.index(name)] & moving_bodies(model)
    if not float(np.sum(model.mass[counted])) > 0.0:
        raise ValueError(f"subtree: the bodies from {name!r} down have no mass")
    return counted, name


def body_centers(motion: KinematicPass | Poses) -> np.ndarray:
    """cᵢ (..., nb+1, 3): every body's centre of mass in world coordinates."""
    R = motion.world_rotation
    return motion.world_position + (R @ motion.com[..., None])[..., 0]


def _centers(motion: KinematicPass, weights: np.ndarray):
    """Σ wᵢ cᵢ, Σ wᵢ ċᵢ, Σ wᵢ c̈ᵢ over the bodies (world axes)."""
    R, r = motion.world_rotation, motion.com
    w, wd = motion.angular_velocity, motion.angular_acceleration
    v = motion.linear_velocity + np.cross(w, r)
    a = motion.linear_acceleration + np.cross(wd, r) + np.cross(w, np.cross(w, r))
    turned = R @ np.stack([v, a], axis=-1)  # (..., nb+1, 3, 2)
    c = body_centers(motion)
    return (
        np.einsum("b,...bi->...i", weights, c),
        np.einsum("b,...bi->...i", weights, turned[..., 0]),
        np.einsum("b,...bi->...i", weights, turned[..., 1]),
    )


@state_docs
def center_of_mass(model, q, qd=None, qdd=None, *, subtree: str | None = None) -> CenterOfMass:
    """The centre of mass of the robot, or of a body's subtree: position, velocity and
    acceleration, world axes.

    c = Σ mᵢ cᵢ / m over the bodies counted (Orin, Goswami & Lee 2013), ċ and c̈
    its derivatives, each body's centre moving as a point of the body (the module
    :mod:`eslabon.kinematics.center_of_mass`). Pinocchio's ``centerOfMass`` (and
    ``data.com[j]`` for a subtree), MuJoCo's ``subtree_com``.

    Parameters
    ----------
    $model
    $q
    qd : array_like (n,) or (N, n), optional
        Joint rates, the batch shape of ``q``; zero when not given.
    qdd : array_like (n,) or (N, n), optional
        Joint accelerations; zero when not given.
    subtree : str, optional
        Count only this body and the bodies below it (by name); the whole robot by
        default.

    Returns
    -------
    CenterOfMass
        ``W_p_com``, ``W_v_com``, ``W_a_com`` ((3,) or (N, 3)), ``mass``, ``subtree``.

    Raises
    ------
    $state_errors
    ValueError
        An unknown body for ``subtree``, bodies without mass, or a model whose centre of
        mass slides with a prismatic joint (seed 001's book mode).

    Examples
    --------
    The planar arm stretched along x: 2 kg centred 0.5 m out, 1.5 kg centred 0.4 m beyond
    the first link's 1 m:

    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> com = es.kinematics.center_of_mass(arm, [0.0, 0.0])
    >>> com.mass, bool(abs(com.W_p_com[0] - (2.0 * 0.5 + 1.5 * 1.4) / 3.5) < 1e-12)
    (3.5, True)
    """
    counted, name = _bodies(model, subtree)
    m = float(np.sum(model.mass[counted]))
    weights = np.where(counted, model.mass, 0.0) / m
    c, v, a = _centers(kinematic_pass(model, q, qd, qdd), weights)
    return CenterOfMass(c, v, a, m, name)


def com_jacobian_of(model, motion, S, counted) -> np.ndarray:
    """J_c (..., 3, engine_nv) of the bodies ``counted``, times their mass m (the module's
    equation without the division), from the pass and the columns S."""
    support = tree(model).support & counted[:, None]  # (nb+1, engine_nv)
    m_i = np.asarray(model.mass, dtype=float)
    weights = m_i[:, None] * support  # (nb+1, engine_nv): mᵢ where rate k moves body i
    mass_moved = weights.sum(axis=0)  # m_k
    first_moments = np.swapaxes(body_centers(motion), -1, -2) @ weights  # Σ mᵢ cᵢ, (..., 3, nv)
    return S[..., 3:, :] * mass_moved - cross_pairs(first_moments, S[..., :3, :])


@state_docs
def com_jacobian(model, q, *, subtree: str | None = None) -> np.ndarray:
    """J_c, the Jacobian of the centre of mass (ċ = J_c q̇), world axes: (3, n) or (N, 3, n).

    Column k: (m_k v_k + ω_k × Σ mᵢ cᵢ) / m over the bodies rate k moves, [ω_k; v_k] its
    twist per unit rate at the world origin (the module
    :mod:`eslabon.kinematics.center_of_mass`). Pinocchio's ``jacobianCenterOfMass`` (and
    ``jacobianSubtreeCenterOfMass``).

    Parameters
    ----------
    $model
    $q
    subtree : str, optional
        The centre of mass of this body and the bodies below it (by name); the whole
        robot's by default.

    Returns
    -------
    ndarray (3, n) or (N, 3, n)
        m/s of the centre of mass per unit rate.

    Raises
    ------
    $state_errors
    ValueError
        An unknown body for ``subtree``, bodies without mass, or a model whose centre of
        mass slides with a prismatic joint (seed 001's book mode).

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> q, qd = np.array([0.3, -0.2]), np.array([0.5, 1.0])
    >>> Jc = es.kinematics.com_jacobian(arm, q)
    >>> bool(np.allclose(Jc @ qd, es.kinematics.center_of_mass(arm, q, qd).W_v_com))
    True
    """
    counted, _ = _bodies(model, subtree)
    batch = _batches.batch_states(model, q) if subtree is None else None
    if batch is not None:
        return _batches.centroidal_batch(model, batch[0], linear_only=True)
    return com_jacobian_reference(model, q, counted)


def com_jacobian_reference(model, q, counted) -> np.ndarray:
    """J_c of the bodies ``counted`` by the numpy form of the module's equation (the
    reference of the compiled kernels, :mod:`.task_kernels`; one state or a batch).

    Parameters
    ----------
    model : Model
        Any model.
    q : ndarray ``(nq,)`` or ``(N, nq)``
        Checked configuration(s).
    counted : ndarray of int
        The bodies whose centre of mass is taken (their total mass positive).

    Returns
    -------
    ndarray ``(3, nv)`` or ``(N, 3, nv)``
        J_c in world axes.
    """
    motion = poses(model, q)
    J = com_jacobian_of(model, motion, spatial_columns(model, q, motion), counted)
    J = J / float(np.sum(model.mass[counted]))
    return J if model.mimic is None else J @ model.mimic.G


# The public function is a builtin (eslabon._engine.entrypoints): a float64 (nq,) q of a
# model without mimic joints, and no subtree, runs the compiled entry of .task_kernels on
# model.packed_dynamics; anything else comes to the function above, the general path.
_plain, _extended, _cols, _ = _entrypoints.entry_pair(
    "eslabon.kinematics.task_kernels", "com_jacobian_entry"
)
com_jacobian = _entrypoints.public(com_jacobian, _plain, 1, (8,), Model, _extended, _cols)
