"""The velocity and classical acceleration of a named frame, and its bias acceleration J̇q̇.

A frame F is fixed on body b at the offset r (body axes) with the rotation b_R_F. From the
outward pass (:func:`.kinematic_pass.kinematic_pass`: ω_b, ω̇_b, the velocity v_b and
classical acceleration a_b of the body's origin, all in body axes; seed 001 Tabla 3.1, Luh,
Walker & Paul 1980), the frame's origin moves as a point of the body (Siciliano et al.,
*Robotics* (2009), §3.1; Featherstone, RBDA (2008), §2.11):

    v_F = v_b + ω_b × r
    a_F = a_b + ω̇_b × r + ω_b × (ω_b × r)          (the classical acceleration)

and turns with the body (ω_F = ω_b, ω̇_F = ω̇_b). ``reference="world"`` gives them in world
axes (W_R_b ·), ``"local"`` in the frame's own (b_R_Fᵀ ·). The **bias acceleration** is the
classical acceleration at q̈ = 0, the part of the frame's acceleration the joint
accelerations do not give: ``a_F = J q̈ + bias``. With world axes it is J̇ q̇ (J̇ the time
derivative of ``jacobian(..., reference="world")``, :mod:`.jacobian_derivative`); in the
frame's axes it is the same vector turned, W_R_Fᵀ J̇_W q̇ (which differs from J̇_L q̇, the
rate of change of the local components, by [0; ω_F × v_F]).
"""

from __future__ import annotations

import numpy as np

from .._args import state_docs
from .._engine import entrypoints as _entrypoints
from ..model.model import Model
from . import task_batches as _batches
from .kinematic_pass import frame_entry, kinematic_pass
from .spatial_columns import REFERENCES, check_reference


def _frame_axes(model, motion, frame: str, reference: str):
    """(frame, rotation to the reference's axes from body axes (..., 3, 3))."""
    check_reference(reference)
    fr = model.frame(frame)
    R = motion.world_rotation[..., fr.body, :, :]
    if reference == "local":
        R = np.broadcast_to(np.asarray(fr.rotation, dtype=float).T, R.shape)
    return fr, R


def _turn(R, body_axes):
    return (R @ body_axes[..., None])[..., 0]


def _velocity(model, motion, frame, reference):
    fr, R = _frame_axes(model, motion, frame, reference)
    w = motion.angular_velocity[..., fr.body, :]
    v = motion.linear_velocity[..., fr.body, :] + np.cross(w, fr.translation)
    return np.concatenate([_turn(R, w), _turn(R, v)], axis=-1)


def _acceleration(model, motion, frame, reference):
    fr, R = _frame_axes(model, motion, frame, reference)
    w = motion.angular_velocity[..., fr.body, :]
    wd = motion.angular_acceleration[..., fr.body, :]
    r = np.asarray(fr.translation, dtype=float)
    a = motion.linear_acceleration[..., fr.body, :] + np.cross(wd, r) + np.cross(w, np.cross(w, r))
    return np.concatenate([_turn(R, wd), _turn(R, a)], axis=-1)


@state_docs
def frame_velocity(model, q, qd, frame: str = "ee", reference: str = "world"):
    """The twist [ω; v] of a named frame: (6,) or (N, 6).

    ω the frame's angular velocity and v the velocity of its origin, v = v_b + ω × r for
    a frame at the offset r on body b (Siciliano et al. 2009, §3.1): ``J q̇`` with
    :func:`eslabon.jacobian` of the same frame and reference.

    Parameters
    ----------
    $model
    $q
    $qd
    frame : str
        A named frame (``"ee"`` by default, a DH frame, a URDF link) or a body's name.
    reference : {"world", "local"}
        The axes of both parts: the world's, or the frame's own (as :func:`eslabon.jacobian`).

    Returns
    -------
    ndarray (6,) or (N, 6)
        [ω (rad/s); v (m/s)].

    Raises
    ------
    $state_errors
    ValueError
        An unknown frame or ``reference``.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> q, qd = np.array([0.3, -0.2]), np.array([0.5, 1.0])
    >>> V = es.kinematics.frame_velocity(arm, q, qd, "ee")
    >>> bool(np.allclose(V, es.jacobian(arm, q, "ee") @ qd))
    True
    """
    return _velocity(model, kinematic_pass(model, q, qd), frame, reference)


@state_docs
def frame_acceleration(model, q, qd, qdd, frame: str = "ee", reference: str = "world"):
    """The classical acceleration [ω̇; a] of a named frame: (6,) or (N, 6).

    a = a_b + ω̇ × r + ω × (ω × r), the second time derivative of the frame origin's
    position (centripetal and Coriolis terms included, gravity not), for a frame at the
    offset r on body b (Featherstone 2008, §2.11). It
    equals J q̈ + J̇ q̇ with world axes (:func:`jacobian_time_derivative`). Pinocchio's
    ``getFrameClassicalAcceleration`` with ``LOCAL_WORLD_ALIGNED`` (``"world"``) or
    ``LOCAL`` (``"local"``), rows [linear; angular] there.

    Parameters
    ----------
    $model
    $q
    $qd
    $qdd
    frame : str
        A named frame (``"ee"`` by default) or a body's name.
    reference : {"world", "local"}
        The axes of both parts: the world's, or the frame's own.

    Returns
    -------
    ndarray (6,) or (N, 6)
        [ω̇ (rad/s²); a (m/s²)].

    Raises
    ------
    $state_errors
    ValueError
        An unknown frame or ``reference``.

    Examples
    --------
    A planar arm turning at 1 rad/s about its first joint, stretched out: the tip 1.8 m
    out accelerates towards the axis at ω² r.

    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> a = es.kinematics.frame_acceleration(arm, [0.0, 0.0], [1.0, 0.0], [0.0, 0.0])
    >>> a.round(6).tolist()
    [0.0, 0.0, 0.0, -1.8, 0.0, 0.0]
    """
    return _acceleration(model, kinematic_pass(model, q, qd, qdd), frame, reference)


@state_docs
def bias_acceleration(model, q, qd, frame: str = "ee", reference: str = "world"):
    """The frame's classical acceleration at q̈ = 0, J̇ q̇ with world axes: (6,) or (N, 6).

    What the joint rates alone accelerate the frame by: a_F = J q̈ + bias, the drift term
    of task-space control (Khatib 1987). With ``reference="world"`` it is J̇ q̇ of
    :func:`jacobian_time_derivative`; with ``"local"`` the same vector in the frame's axes
    (Pinocchio's ``getFrameClassicalAcceleration`` at zero acceleration).

    Parameters
    ----------
    $model
    $q
    $qd
    frame : str
        A named frame (``"ee"`` by default) or a body's name.
    reference : {"world", "local"}
        The axes of both parts: the world's, or the frame's own.

    Returns
    -------
    ndarray (6,) or (N, 6)
        [ω̇ (rad/s²); a (m/s²)] at q̈ = 0.

    Raises
    ------
    $state_errors
    ValueError
        An unknown frame or ``reference``.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> arm = es.zoo.load("puma560")
    >>> q, qd = np.full(6, 0.3), np.linspace(-1.0, 1.0, 6)
    >>> b = es.kinematics.bias_acceleration(arm, q, qd)
    >>> Jdot = es.kinematics.jacobian_time_derivative(arm, q, qd)
    >>> bool(np.allclose(b, Jdot @ qd))
    True
    """
    check_reference(reference)
    frame_entry(model, frame)  # (an unknown frame raises; the lean path reads the entry)
    batch = _batches.batch_states(model, q, qd)
    if batch is not None:
        Q, QD = batch
        return _batches.bias_batch(model, Q, QD, frame, reference)
    return bias_reference(model, q, qd, frame, reference)


def bias_reference(model, q, qd, frame: str = "ee", reference: str = "world"):
    """The bias acceleration by the numpy form of the module's equations (the reference of
    the compiled kernels, :mod:`.task_kernels`; one state or a batch).

    Parameters
    ----------
    model : Model
        Any model.
    q, qd : ndarray ``(nq,)``, ``(nv,)`` or batches ``(N, nq)``, ``(N, nv)``
        Checked configuration(s) and rates.
    frame : str
        A body or frame of the model.
    reference : str
        "world" or "local": the axes of the result.

    Returns
    -------
    ndarray ``(6,)`` or ``(N, 6)``
        [ω̇; a] of the frame at zero joint acceleration.
    """
    return _acceleration(model, kinematic_pass(model, q, qd), frame, reference)


# The public function is a builtin (eslabon._engine.entrypoints, ``frames``): float64 q
# (nq,) and q̇ (nv,) of a model without mimic joints, and a frame in
# model.frame_placements, run the compiled entry of .task_kernels on model.packed;
# anything else comes to the function above, the general path.
_plain, _extended, _cols, _ = _entrypoints.entry_pair(
    "eslabon.kinematics.task_kernels", "bias_entry"
)
bias_acceleration = _entrypoints.public(
    bias_acceleration, _plain, 2, (7,), Model, _extended, _cols, packed="packed",
    frames=("frame_placements", "ee", ("frame", "reference"), REFERENCES),
)  # fmt: skip
