"""The time derivative J̇ of a frame's geometric Jacobian along the motion q̇.

With the columns S_k = [ω_k; v_k] of the rates moving the frame's body (world axes, at the
world origin O) and their rates Ṡ_k = V_{b(k)} ×ₘ S_k (:mod:`.spatial_columns`;
Featherstone, *Rigid Body Dynamics Algorithms* (2008), §2.9), the Jacobian of a frame whose
origin is at p (world) is, column by column (Siciliano et al., *Robotics* (2009), §3.1.3,
the geometric Jacobian; v(p) = v_O + ω × p):

    J_W = [S_ω; S_v + S_ω × p]
    J̇_W = [Ṡ_ω; Ṡ_v + Ṡ_ω × p + S_ω × ṗ]            (ṗ = J_W,lin q̇)

and in the frame's own axes (R = W_R_F, ω_F = Rᵀ ω the frame's angular velocity):

    J_L = Rᵀ J_W,   J̇_L = Rᵀ J̇_W − [ω_F]× J_L        (each block)

J̇ is d/dt J(q(t)) along q̇: ``jacobian(q + ε q̇)`` in the tangent space, to first order.
With world axes J̇ q̇ is the frame's classical acceleration at q̈ = 0
(:func:`.frame_motion.bias_acceleration`); in local axes J̇_L q̇ + J_L q̈ is the rate of
change of the local twist, the classical acceleration minus [0; ω_F × v_F]. A mimic joint's
column adds to the one it copies (× its multiplier), as in :func:`eslabon.jacobian`.
"""

from __future__ import annotations

import numpy as np

from .._args import state_docs
from .kinematic_pass import kinematic_pass
from .spatial_columns import (
    body_twists,
    check_reference,
    column_rates,
    cross_columns,
    engine_rates,
    spatial_columns,
    tree,
    world_points,
)


def frame_jacobians(model, q, qd, frame: str, reference: str):
    """(J, J̇) of ``frame``, each (..., 6, nv), and the frame's twist (..., 6) in the same
    axes: the module's equations."""
    check_reference(reference)
    fr = model.frame(frame)
    motion = kinematic_pass(model, q, qd)
    mask = tree(model).support[fr.body]
    S = spatial_columns(model, q, motion) * mask
    V = body_twists(motion)
    qd_e = engine_rates(model, qd)
    Sdot = column_rates(model, S, V, qd_e) * mask
    p = world_points(motion, fr.body, fr.translation)
    J = np.concatenate([S[..., :3, :], S[..., 3:, :] - cross_columns(p, S[..., :3, :])], axis=-2)
    pdot = np.einsum("...ij,...j->...i", J[..., 3:, :], qd_e)
    Jdot_lin = Sdot[..., 3:, :] - cross_columns(p, Sdot[..., :3, :])
    Jdot_lin -= cross_columns(pdot, S[..., :3, :])
    Jdot = np.concatenate([Sdot[..., :3, :], Jdot_lin], axis=-2)
    twist = np.einsum("...ij,...j->...i", J, qd_e)
    if reference == "local":
        Rt = np.swapaxes(motion.world_rotation[..., fr.body, :, :] @ fr.rotation, -1, -2)
        J = np.concatenate([Rt @ J[..., :3, :], Rt @ J[..., 3:, :]], axis=-2)
        twist = np.concatenate([Rt @ twist[..., :3, None], Rt @ twist[..., 3:, None]], -2)[..., 0]
        w = twist[..., :3]
        Jdot = np.concatenate(
            [
                Rt @ Jdot[..., :3, :] - cross_columns(w, J[..., :3, :]),
                Rt @ Jdot[..., 3:, :] - cross_columns(w, J[..., 3:, :]),
            ],
            axis=-2,
        )
    if model.mimic is not None:
        J, Jdot = J @ model.mimic.G, Jdot @ model.mimic.G
    return J, Jdot, twist


@state_docs
def jacobian_time_derivative(model, q, qd, frame: str = "ee", reference: str = "world"):
    """J̇, the time derivative of a frame's geometric Jacobian along q̇: (6, n) or (N, 6, n).

    d/dt J(q(t)) for :func:`eslabon.jacobian` of the same frame and reference, rows
    [angular; linear]. Column k: [Ṡ_ω; Ṡ_v + Ṡ_ω × p + S_ω × ṗ] with Ṡ_k = V_b ×ₘ S_k, the
    derivative of the spatial column of rate k fixed in its joint's body moving at V_b
    (Featherstone 2008, §2.9–2.10; the module :mod:`eslabon.kinematics.jacobian_derivative`).
    With world axes J̇ q̇ is the frame's classical acceleration at q̈ = 0
    (:func:`bias_acceleration`). Pinocchio's ``getFrameJacobianTimeVariation`` with
    ``LOCAL_WORLD_ALIGNED`` (``"world"``) or ``LOCAL`` (``"local"``), whose rows are
    [linear; angular]; MuJoCo's ``mj_jacDot`` gives the world-axes blocks.

    Parameters
    ----------
    $model
    $q
    $qd
    frame : str
        A named frame (``"ee"`` by default, a DH frame, a URDF link) or a body's name.
    reference : {"world", "local"}
        The axes of both blocks: the world's, or the frame's own.

    Returns
    -------
    ndarray (6, n) or (N, 6, n)
        Rows [angular; linear]: rad/s² and m/s² per unit rate.

    Raises
    ------
    $state_errors
    ValueError
        An unknown frame or ``reference``.

    Examples
    --------
    J̇ agrees with central differences of J along q̇:

    >>> import numpy as np, eslabon as es
    >>> arm = es.zoo.load("puma560")
    >>> q, qd, h = np.full(6, 0.3), np.linspace(-1.0, 1.0, 6), 1e-6
    >>> Jdot = es.kinematics.jacobian_time_derivative(arm, q, qd)
    >>> diff = (es.jacobian(arm, q + h * qd) - es.jacobian(arm, q - h * qd)) / (2 * h)
    >>> bool(np.allclose(Jdot, diff, atol=1e-8))
    True
    """
    return frame_jacobians(model, q, qd, frame, reference)[1]
