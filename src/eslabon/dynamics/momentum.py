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

from ..kinematics.kinematic_pass import kinematic_pass


def momentum(model, q, qd) -> np.ndarray:
    """The bodies' total momentum [angular about the world origin; linear], world axes:
    (6,) for one state, (N, 6) for a batch.

    Parameters
    ----------
    model : Model
    q : array_like, (nq,) or (N, nq)
    qd : array_like, (nv,) or (N, nv)

    Returns
    -------
    numpy.ndarray
        [h_O; p] with p = Σ mᵢ ċᵢ [kg·m/s] and h_O = Σ (Īᵢ ωᵢ + cᵢ × mᵢ ċᵢ) [kg·m²/s].
    """
    motion = kinematic_pass(model, q, qd)
    R = motion.world_rotation  # (..., nb+1, 3, 3)
    c_local = motion.com  # (..., nb+1, 3) in body axes
    w_local = motion.angular_velocity
    v_com_local = motion.linear_velocity + np.cross(w_local, c_local)
    m = model.mass
    c = motion.world_position + np.einsum("...ij,...j->...i", R, c_local)
    v = np.einsum("...ij,...j->...i", R, v_com_local)
    spin_local = np.einsum("bij,...bj->...bi", model.inertia, w_local)
    spin = np.einsum("...ij,...j->...i", R, spin_local)
    p = m[:, None] * v
    h = spin + np.cross(c, p)
    return np.concatenate([h.sum(axis=-2), p.sum(axis=-2)], axis=-1)
