"""The total momentum of the bodies: what a free-flying system conserves.

For body i with mass mᵢ, centre of mass cᵢ (world) moving at ċᵢ and rotational inertia
Īᵢ about it (world axes) turning at ωᵢ, the linear momentum is Σ mᵢ ċᵢ and the angular
momentum about the world origin Σ (Īᵢ ωᵢ + cᵢ × mᵢ ċᵢ) (Featherstone, *Rigid Body Dynamics
Algorithms* (2008), §2.12, the spatial momentum of a rigid body summed over the bodies).
With no external force (no gravity, no applied torque on a free-flyer joint) both stay
constant whatever the joints do inside: a space manipulator that moves its arm turns and
shifts its base. Rotor inertia (armature) turns with its joint, not in the world, and is
left out.
"""

from __future__ import annotations

import numpy as np

from .._args import state_docs
from .._engine.lazymodule import lazy_module

# the kinematic recursion (and numba): imported by the first call
_kinematics = lazy_module("eslabon.kinematics.kinematic_pass")


def _bodies(model, q, qd):
    """Per body, in world axes: the centre of mass c, the spin Ī ω about it and m ċ."""
    motion = _kinematics.kinematic_pass(model, q, qd)
    R = motion.world_rotation  # (..., nb+1, 3, 3)
    c_local = motion.com  # (..., nb+1, 3) in body axes
    w_local = motion.angular_velocity
    v_com_local = motion.linear_velocity + np.cross(w_local, c_local)
    c = motion.world_position + np.einsum("...ij,...j->...i", R, c_local)
    v = np.einsum("...ij,...j->...i", R, v_com_local)
    spin_local = np.einsum("bij,...bj->...bi", model.inertia, w_local)
    spin = np.einsum("...ij,...j->...i", R, spin_local)
    return c, spin, model.mass[:, None] * v


@state_docs
def body_momenta(model, q, qd) -> np.ndarray:
    """Each body's spatial momentum about its own centre of mass, L = I_cm V_cm [angular;
    linear], world axes: (nb+1, 6) for one state, (N, nb+1, 6) for a batch.

    Jaramillo Botero (1998), eq. (1.39): L_{i,cm} = I_{i,cm} V_{i,cm} with the spatial
    inertia about the centre of mass I_cm = diag(J_cm, m 1) (1.8) and the velocity
    V_cm = [ω; ċ] (1.29); its rate is the spatial force on the body (1.40). Row 0 is the
    world's (zero). Shifted to one point and summed they give :func:`momentum`.

    Parameters
    ----------
    $model
    $q
    $qd

    Returns
    -------
    numpy.ndarray (nb+1, 6) or (N, nb+1, 6)
        Per body [Īᵢ ωᵢ; mᵢ ċᵢ] in world axes [kg·m²/s; kg·m/s].

    Raises
    ------
    $state_errors

    Examples
    --------
    The bodies' linear momenta add up to the system's:

    >>> import numpy as np
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> q, qd = [0.3, -0.2], [0.5, 1.0]
    >>> L = es.dynamics.body_momenta(arm, q, qd)
    >>> L.shape, bool(np.allclose(L[:, 3:].sum(axis=0), es.momentum(arm, q, qd)[3:]))
    ((3, 6), True)
    """
    _, spin, p = _bodies(model, q, qd)
    return np.concatenate([spin, p], axis=-1)


@state_docs
def momentum(model, q, qd) -> np.ndarray:
    """The bodies' total momentum [angular about the world origin; linear], world axes:
    (6,) for one state, (N, 6) for a batch.

    For body i of mass mᵢ, centre of mass cᵢ (world) moving at ċᵢ, inertia Īᵢ about its
    centre of mass turning at ωᵢ (both in world axes): p = Σ mᵢ ċᵢ and h_O = Σ (Īᵢ ωᵢ +
    cᵢ × mᵢ ċᵢ) (Featherstone, *Rigid Body Dynamics Algorithms* (2008), §2.12). Both stay
    constant while no external force acts (no gravity, no torque on a free-flyer joint),
    whatever the joints do. The rotors' inertia (armature) is left out.

    Parameters
    ----------
    $model
    $q
    $qd

    Returns
    -------
    numpy.ndarray (6,) or (N, 6)
        [h_O; p] in world axes: h_O = Σ (Īᵢ ωᵢ + cᵢ × mᵢ ċᵢ) [kg·m²/s] about the world
        origin, p = Σ mᵢ ċᵢ [kg·m/s].

    Raises
    ------
    $state_errors

    Examples
    --------
    The planar arm turns about the world's z axis through its first joint, so h_O's z
    component is the generalized momentum (M q̇)₁ of that joint:

    >>> import numpy as np
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> q, qd = [0.3, -0.2], np.array([0.5, 1.0])
    >>> h = es.momentum(arm, q, qd)
    >>> h.shape, bool(np.isclose(h[2], (es.mass_matrix(arm, q) @ qd)[0]))
    ((6,), True)
    """
    c, spin, p = _bodies(model, q, qd)
    h = spin + np.cross(c, p)
    return np.concatenate([h.sum(axis=-2), p.sum(axis=-2)], axis=-1)
