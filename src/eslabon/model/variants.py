"""Variants of a model: a payload at a frame, joint friction and rotor inertia by name.

A :class:`~eslabon.model.Model` is immutable; these return a new, validated model (through
:meth:`Model.replace`), as a user of a URDF or zoo model needs them: a gripped object, and
joint damping that the file does not carry.

>>> import eslabon as es
>>> arm = es.zoo.load("puma560")
>>> loaded = es.with_payload(arm, 2.0, com=(0, 0, 0.05), inertia=0.002)
>>> round(float(loaded.mass[-1] - arm.mass[-1]), 12)
2.0
>>> damped = es.with_joint_friction(arm, viscous=0.5, coulomb={"link2": 0.3})
>>> damped.viscous[1:].tolist(), float(damped.coulomb[2])
([0.5, 0.5, 0.5, 0.5, 0.5, 0.5], 0.3)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..spatial.spatial6 import combined_body
from .model import Model
from .validate import as_float_array, check_inertia, check_nonnegative

_FRICTION_FIELDS = ("viscous", "coulomb", "armature")


def with_payload(
    model: Model,
    mass: float,
    com: ArrayLike = (0.0, 0.0, 0.0),
    inertia: ArrayLike = 0.0,
    *,
    frame: str = "ee",
) -> Model:
    """``model`` carrying a rigid payload at ``frame``.

    The payload joins the body that carries the frame: its mass, centre of mass and
    inertia combine with the body's (:func:`eslabon.spatial.combined_body`), the rule of
    the zoo models' ``payload_mass`` / ``payload_inertia`` (an object held at the last
    frame). Every algorithm then sees one rigid body.

    Parameters
    ----------
    model : Model
        The robot (:class:`eslabon.Model`); it is not changed.
    mass : float
        The payload's mass [kg], ≥ 0.
    com : array_like, (3,)
        Its centre of mass [m] in the frame's axes, from the frame's origin.
    inertia : float or array_like (3, 3)
        Its rotational inertia about its centre of mass [kg m²], in the frame's axes; a
        number s means s · 1 (a sphere-like payload).
    frame : str
        A named frame of the model (``"ee"`` by default, ``"dh3"``, a URDF link) or a
        body's name (:meth:`Model.frame`).

    Returns
    -------
    Model
        A new model, named ``"<name>+payload"``: the carrying body's ``mass``, ``com``
        and ``inertia`` replaced by the combined body's; nothing else changes.

    Raises
    ------
    ValueError
        A negative or non-finite mass, a ``com`` that is not 3 numbers, an inertia that is
        not a symmetric positive semidefinite 3 × 3 (or a number ≥ 0), an unknown frame,
        a frame fixed to the world (body 0).

    Examples
    --------
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> held = es.with_payload(arm, 0.5)  # 0.5 kg at the tip
    >>> held.name, held.mass.tolist()
    ('planar2+payload', [0.0, 2.0, 2.0])
    >>> extra = es.gravity_torques(held, [0.0, 0.0]) - es.gravity_torques(arm, [0.0, 0.0])
    >>> extra.round(4).tolist()  # 0.5 kg · 9.81 m/s² at 1.8 m and 0.8 m
    [8.829, 3.924]
    """
    m2 = check_nonnegative(mass, "mass")
    c2 = as_float_array(com, (3,), "com")
    if np.ndim(inertia) == 0:
        J2 = check_nonnegative(inertia, "inertia") * np.eye(3)  # type: ignore[arg-type]
    else:
        J2 = check_inertia(inertia, "inertia")
    fr = model.frame(frame)
    b = int(fr.body)
    if b == 0:
        raise ValueError(f"frame: {frame!r} is fixed to the world; a payload there moves nothing")
    R, t = np.asarray(fr.rotation), np.asarray(fr.translation)
    m, c, J_c = combined_body(
        model.mass[b], model.com[b], model.inertia[b], m2, R @ c2 + t, R @ J2 @ R.T
    )
    mass_ = np.array(model.mass)
    com_ = np.array(model.com)
    inertia_ = np.array(model.inertia)
    mass_[b], com_[b], inertia_[b] = m, c, J_c
    return model.replace(mass=mass_, com=com_, inertia=inertia_, name=f"{model.name}+payload")


def with_joint_friction(model: Model, **fields: Any) -> Model:
    """``model`` with joint friction or rotor inertia set, joint by joint or all at once.

    Parameters
    ----------
    model : Model
        The robot (:class:`eslabon.Model`); it is not changed.
    viscous, coulomb, armature : float, array_like or mapping, optional
        Viscous damping b [N m s/rad or N s/m] (τ_f = b q̇), Coulomb friction μ [N m or N]
        (τ_f = μ sign q̇) and rotor inertia J_a [kg m² or kg] (added to M's diagonal) of
        the moving joints: one number for every moving joint, one value per moving joint
        (``model.joint_bodies`` order), or ``{body name: value}`` for the joints that move
        those bodies (the others keep theirs; for a URDF model a body is the joint's child
        link: ``shoulder_link`` for the UR5's ``shoulder_pan_joint``). Each value ≥ 0.

    Returns
    -------
    Model
        A new model (same name) with those fields changed (:meth:`Model.replace`); the
        fields not given keep the model's values.

    Raises
    ------
    ValueError
        An unknown field, a negative or non-finite value, a name that is not a body moved
        by a joint, a sequence of the wrong length.

    Examples
    --------
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> damped = es.with_joint_friction(arm, viscous=[0.2, 0.1], armature={"link2": 0.01})
    >>> damped.viscous.tolist(), damped.armature.tolist()
    ([0.0, 0.2, 0.1], [0.0, 0.0, 0.01])
    >>> q, qd = [0.0, 0.0], [1.0, 0.0]
    >>> (es.bias_forces(damped, q, qd) - es.bias_forces(arm, q, qd)).round(6).tolist()
    [0.2, 0.0]
    """
    unknown = sorted(set(fields) - set(_FRICTION_FIELDS))
    if unknown:
        raise ValueError(
            f"with_joint_friction: unknown field(s) {unknown}; expected {_FRICTION_FIELDS}"
        )
    moving = [int(i) for i in model.joint_bodies]
    changes = {}
    for key, value in fields.items():
        full = np.array(getattr(model, key), dtype=float)
        if isinstance(value, Mapping):
            for name, v in value.items():
                if name not in model.body_names or model.body_names.index(name) not in moving:
                    raise ValueError(
                        f"{key}: {name!r} is not a body moved by a joint; expected one of "
                        f"{[model.body_names[i] for i in moving]}"
                    )
                full[model.body_names.index(name)] = check_nonnegative(v, f"{key}[{name!r}]")
        elif np.ndim(value) == 0:
            full[moving] = check_nonnegative(value, key)
        else:
            arr = as_float_array(value, (len(moving),), key, "one value per moving joint")
            for k, v in zip(moving, arr, strict=True):
                full[k] = check_nonnegative(v, f"{key}[{moving.index(k)}]")
        changes[key] = full
    return model.replace(**changes)
