"""Newton–Euler in body frames: Jaramillo Botero (1998) Figure 7, (1.55)–(1.61), as written.

Figure 7 of seeds 002/004: the Newton–Euler recursion in spatial notation with every
quantity in its own body's frame and the rotation operators R carrying vectors from frame
to frame.

Notation: body i's frame sits at its joint point O_i; r_{i−1,i} is body i's rotation in
its parent's frame (columns: i's axes in i−1's, x_{i−1} = r_{i−1,i} x_i) and p_{i−1,i}
the vector O_{i−1} → O_i in the parent's axes; R_{i−1,i} = diag(r_{i−1,i}, r_{i−1,i}) the
rotation operator (1.3) and P̂(p) = [[1, p̃], [0, 1]] the translation operator (1.2).
Spatial vectors are [angular; linear], velocities of the frame's origin. Figure 7,
corrected (below):

    Paso 1, i = 1..n:
        V_i = R_{i−1,i}ᵀ P̂(p_{i−1,i})ᵀ V_{i−1} + H_i q̇_i                        (1.55)
        V̇_i = R_{i−1,i}ᵀ P̂(p_{i−1,i})ᵀ V̇_{i−1} + H_i q̈_i + b_i                  (1.57)
        b_i = [0; ω_{i−1} × (v_i − v_{i−1})] + diag(ω̃_i, ω̃_i) H_i q̇_i            (1.58)
    Paso 2, i = n..1:
        F_i = P̂(p_{i,i+1}) R_{i,i+1} F_{i+1} + I_i V̇_i + ℘_i                    (1.59)
        ℘_i = [ω̃_i J_Oi ω_i; m_i ω̃_i ω̃_i s_i]                                  (1.53)
        τ_i = H_iᵀ F_i                                                          (1.61)

with V_0 = 0, V̇_0 = [0; −g] in the base frame (the figure's "bajo campo gravitacional":
gravity as the base's acceleration), F_{n+1} = 0, and H_i, I_i (about O_i, 1.45), s_i
(O_i → centre of mass) in body i's axes, so H_i is constant. b_i holds in any frame as
long as every vector in it is in the same one; here ω_{i−1} and v_{i−1} are carried into
frame i by r_{i−1,i}ᵀ.

Corrections to the figure as printed (each checked: this form gives the torques of
:mod:`.rnea` and of the world-axes operators of :mod:`.soa`): its last force term is
printed −I_i Ŝ̇ᵀ V_i and must be +, i.e. ℘_i of (1.53) (the author's own note says
"REVISAR SIGNO"); and it writes R_{i,i−1}ᵀ and R_{i+1,i}, which the words of (1.3) read the
opposite way: with the convention above the outward pass uses R_{i−1,i}ᵀ and the inward
pass R_{i,i+1}.

A numpy reference of one state on a serial chain of joints whose map is fixed in their
body (revolute, prismatic, helical, spherical, free flyer, fixed); friction and rotor
inertia added as Newton–Euler adds them.
"""

from __future__ import annotations

import numpy as np

from .._engine.joint_types import subspace
from ..kinematics.kinematic_pass import kinematic_pass
from ..spatial.rotations import skew
from ..spatial.spatial6 import rotation_operator, translation_operator
from .soa import _joint_terms, _states, require_joints


def inverse_dynamics(model, q, qd, qdd):
    """τ by Figure 7 in body frames (module docstring), one state.

    Parameters
    ----------
    model : Model
        A serial chain of revolute, prismatic, helical, spherical, free-flyer or fixed
        joints.
    q : array_like (nq,)
        Configuration (rad, m; a unit quaternion (x, y, z, w) for a spherical or free
        flyer joint).
    qd, qdd : array_like (nv,)
        Joint rates and accelerations (rad/s, m/s; rad/s², m/s²).

    Returns
    -------
    ndarray (nv,)
        τ: N·m (revolute), N (prismatic); friction included.

    Raises
    ------
    ValueError
        A tree, a universal, planar or mimic joint (naming it), a batch, or a state of the
        wrong length or not finite.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon.dynamics import newton_euler_body_frames
    >>> arm = es.zoo.load("puma560")
    >>> q, qd, qdd = np.full(6, 0.3), np.full(6, -0.2), np.full(6, 0.5)
    >>> bool(np.allclose(newton_euler_body_frames.inverse_dynamics(arm, q, qd, qdd),
    ...                  es.inverse_dynamics(arm, q, qd, qdd)))
    True
    """
    require_joints(model, "Figure 7 in body frames (seeds 002/004)")
    (q, qd, qdd), batched = _states(model, q=q, qd=qd, qdd=qdd)
    if batched:
        raise ValueError("q: Figure 7 in body frames takes one state (nq,), not a batch")
    motion = kinematic_pass(model, q)  # the placements r_{i−1,i}, p_{i−1,i} only
    n = model.nb
    V, Vd = np.zeros((n + 1, 6)), np.zeros((n + 1, 6))
    H = [np.zeros((6, 0))] * (n + 1)  # H_0: the base has no joint
    Vd[0, 3:] = -model.gravity  # V̇_0 = [0; −g], base frame
    X = [np.eye(6)] * (n + 1)  # X_i = R_{i−1,i}ᵀ P̂(p_{i−1,i})ᵀ (X_0 unused)
    for i in range(1, n + 1):
        r, p = motion.parent_rotation[i], motion.parent_translation[i]
        X[i] = rotation_operator(r).T @ translation_operator(p).T
        H[i] = subspace(model.joint_type[i], model.axis[i], pitch=model.pitch[i])
        k = int(model.v_index[i])
        rates = slice(k, k + H[i].shape[1])
        hq = H[i] @ qd[rates] if k >= 0 else np.zeros(6)
        V[i] = X[i] @ V[i - 1] + hq  # (1.55)
        w_prev, v_prev = r.T @ V[i - 1, :3], r.T @ V[i - 1, 3:]  # into frame i
        w = V[i, :3]
        b = np.concatenate(
            [np.cross(w, hq[:3]), np.cross(w_prev, V[i, 3:] - v_prev) + np.cross(w, hq[3:])]
        )  # (1.58)
        Vd[i] = X[i] @ Vd[i - 1] + b
        if k >= 0:
            Vd[i] += H[i] @ qdd[rates]  # (1.57)
    tau = np.zeros(model.nv)
    F_next = np.zeros(6)
    for i in range(n, 0, -1):
        # written out, not spatial6.spatial_inertia: that one refuses an inertia no rigid
        # body has, which published arms (the Puma's) carry and the model accepts
        m, s, J = model.mass[i], model.com[i], model.inertia[i]
        J_O = J + m * (s @ s * np.eye(3) - np.outer(s, s))
        I_O = np.block([[J_O, m * skew(s)], [-m * skew(s), m * np.eye(3)]])  # (1.45)
        w = V[i, :3]
        gyro = np.concatenate([np.cross(w, J_O @ w), m * np.cross(w, np.cross(w, s))])  # (1.53)
        F = I_O @ Vd[i] + gyro
        if i < n:  # P̂(p_{i,i+1}) R_{i,i+1} F_{i+1} = X_{i+1}ᵀ F_{i+1}
            F += X[i + 1].T @ F_next
        k = int(model.v_index[i])
        if k >= 0:
            tau[k : k + H[i].shape[1]] = H[i].T @ F  # (1.61)
        F_next = F
    friction, armature = _joint_terms(model, qd)
    return tau + friction + armature * qdd
