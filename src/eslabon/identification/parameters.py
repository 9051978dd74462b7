"""Standard inertial and joint parameters π of a model, with their names, both ways.

Each body i = 1..nb has ten inertial parameters, linear in the Newton–Euler equations
(Atkeson, An & Hollerbach 1986, "Estimation of inertial parameters of manipulator loads
and links", eq. 5; Featherstone, *Rigid Body Dynamics Algorithms*, 2008, §2.13):

    π_i = (m, m cx, m cy, m cz, Ixx, Ixy, Ixz, Iyy, Iyz, Izz)

with c the centre of mass and I the rotational inertia **about the body origin**, both in
the body frame. The model keeps the inertia I_c about the centre of mass
(docs/conventions.md); the two are related by the parallel-axis theorem

    I = I_c + m (cᵀc 1 − c cᵀ),   I_c = I − (hᵀh 1 − h hᵀ) / m,   h = m c.

After the nb body blocks come three columns per joint that moves (every body whose joint
is not fixed, mimic joints included, in body order): viscous friction ``fv`` (τ = fv q̇),
Coulomb friction ``fc`` (τ = fc sign q̇) and armature (rotor inertia) ``Ia`` (τ = Ia q̈),
each acting on every rate of its joint, as the model's ``viscous``, ``coulomb`` and
``armature`` do. A joint of several rates has one coefficient of each kind.

Bodies on fixed joints keep a block of their own: their parameters are linearly dependent
on their parent's (the numerical base parameters, :mod:`.base_parameters`, regroup them),
and :func:`with_parameters` writes each body back where it was. The kernels fold such
bodies into their parent (:mod:`eslabon.model.fold`); π does not.
"""

from __future__ import annotations

import weakref
from typing import NamedTuple

import numpy as np

from .._engine.joint_types import nv_of

BODY_FIELDS = ("m", "mx", "my", "mz", "Ixx", "Ixy", "Ixz", "Iyy", "Iyz", "Izz")
JOINT_FIELDS = ("fv", "fc", "Ia")
# (row, column) of I for each of the six inertia entries of π_i
_INERTIA_ENTRIES = ((0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2))


def friction_bodies(model) -> np.ndarray:
    """Bodies whose joint has friction and armature columns: every joint that is not
    fixed, mimic joints included, in body order (shape (number of such joints,))."""
    return joint_columns(model)[0]


class JointColumns(NamedTuple):
    """Where each moving joint's columns act: ``bodies`` (k,) the joints' bodies;
    ``rates`` (r,) every engine rate (each joint's own coordinates, mimic joints
    included) of those joints and ``columns`` (r,) the fv column of π each rate's joint
    has (fc and Ia follow it)."""

    bodies: np.ndarray
    rates: np.ndarray
    columns: np.ndarray


_JOINT_COLUMNS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def joint_columns(model) -> JointColumns:
    """The :class:`JointColumns` of a model, kept per model (models are immutable)."""
    found = _JOINT_COLUMNS.get(model)
    if found is None:
        sizes = nv_of(model.joint_type)
        bodies = np.flatnonzero(sizes > 0)
        rate_body = np.repeat(np.arange(model.nb + 1), sizes)  # engine rate -> its body
        slot = np.full(model.nb + 1, -1)
        slot[bodies] = 10 * model.nb + 3 * np.arange(len(bodies))
        rates = np.flatnonzero(slot[rate_body] >= 0)
        found = _JOINT_COLUMNS[model] = JointColumns(bodies, rates, slot[rate_body[rates]])
    return found


def parameter_count(model) -> int:
    """p, the length of π: 10 per body plus 3 per moving joint.

    Parameters
    ----------
    model : Model
        Any model.

    Returns
    -------
    int
        10 nb + 3 × (number of joints that are not fixed, mimic joints included).

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon.identification import parameter_count
    >>> parameter_count(es.zoo.load("puma560"))
    78
    """
    return 10 * model.nb + 3 * len(friction_bodies(model))


def parameter_names(model) -> tuple:
    """The name of each entry of π, shape (p,).

    Parameters
    ----------
    model : Model
        Any model.

    Returns
    -------
    tuple of str
        ``body.m``, ``body.mx`` … ``body.Izz`` for bodies 1..nb (``model.body_names``),
        then ``joint.fv``, ``joint.fc``, ``joint.Ia`` for each moving joint
        (``model.joint_names``).

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon.identification import parameter_names
    >>> names = parameter_names(es.zoo.load("planar2"))
    >>> names[:3], names[-3:]
    (('link1.m', 'link1.mx', 'link1.my'), ('joint2.fv', 'joint2.fc', 'joint2.Ia'))
    """
    names = [f"{model.body_names[i]}.{f}" for i in range(1, model.nb + 1) for f in BODY_FIELDS]
    names += [f"{model.joint_names[i]}.{f}" for i in friction_bodies(model) for f in JOINT_FIELDS]
    return tuple(names)


def inertia_vector(inertia) -> np.ndarray:
    """(…, 6) entries (Ixx, Ixy, Ixz, Iyy, Iyz, Izz) of symmetric 3×3 matrices (…, 3, 3)."""
    inertia = np.asarray(inertia)
    return np.stack([inertia[..., r, c] for r, c in _INERTIA_ENTRIES], axis=-1)


def inertia_matrix(entries) -> np.ndarray:
    """The symmetric 3×3 matrices (…, 3, 3) of entries (…, 6) (Ixx, Ixy, Ixz, Iyy, Iyz, Izz)."""
    entries = np.asarray(entries, dtype=float)
    out = np.zeros(entries.shape[:-1] + (3, 3))
    for k, (r, c) in enumerate(_INERTIA_ENTRIES):
        out[..., r, c] = out[..., c, r] = entries[..., k]
    return out


def _shift(h, m):
    """hᵀh 1 − h hᵀ divided by m: the parallel-axis term m (cᵀc 1 − c cᵀ) with c = h/m."""
    hh = np.einsum("...i,...i->...", h, h)
    outer = h[..., :, None] * h[..., None, :]
    return (hh[..., None, None] * np.eye(3) - outer) / m[..., None, None]


def parameters(model) -> np.ndarray:
    """π (p,) of a model: the standard parameters of its bodies and joints.

    Parameters
    ----------
    model : Model
        Any model.

    Returns
    -------
    ndarray (p,)
        Per body 1..nb: m [kg], m c [kg·m] (body frame), the inertia about the body origin
        in body axes [kg·m²] (Ixx, Ixy, Ixz, Iyy, Iyz, Izz); then per moving joint: viscous
        friction [N·m·s/rad or N·s/m], Coulomb friction [N·m or N], armature [kg·m² or kg]
        (module docstring; names: :func:`parameter_names`).

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon.identification import parameters, with_parameters
    >>> arm = es.zoo.load("puma560")
    >>> pi = parameters(arm)
    >>> pi.shape
    (78,)
    >>> bool(np.allclose(parameters(with_parameters(arm, pi)), pi, rtol=1e-14, atol=1e-15))
    True
    """
    mass = np.asarray(model.mass[1:], dtype=float)
    h = mass[:, None] * np.asarray(model.com[1:], dtype=float)
    inertia = np.asarray(model.inertia[1:], dtype=float)
    safe = np.where(mass > 0.0, mass, 1.0)
    origin = inertia + np.where(mass[:, None, None] > 0.0, _shift(h, safe), 0.0)
    bodies = np.concatenate([mass[:, None], h, inertia_vector(origin)], axis=1)
    fb = friction_bodies(model)
    joints = np.stack([model.viscous[fb], model.coulomb[fb], model.armature[fb]], axis=1)
    return np.concatenate([bodies.ravel(), np.asarray(joints, dtype=float).ravel()])


def with_parameters(model, pi):
    """The model with the standard parameters π (the inverse of :func:`parameters`).

    Parameters
    ----------
    model : Model
        The model whose kinematics are kept.
    pi : array_like ``(p,)``
        Standard parameters in the order of :func:`parameter_names`.

    Returns
    -------
    Model
        A copy with each body's mass, centre of mass c = h / m and inertia about the
        centre of mass I_c = I − (hᵀh 1 − h hᵀ) / m, and each joint's friction and
        armature, from π. A body of zero mass must have h = 0 and keeps c = 0.

    Raises
    ------
    ValueError
        ``pi`` of the wrong length or not finite; a negative mass; a body of zero mass with
        a first moment h ≠ 0 (naming the body); or a value the model refuses.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon.identification import parameters, with_parameters
    >>> arm = es.zoo.load("planar2")
    >>> pi = parameters(arm)
    >>> pi[0] *= 2.0  # link1.m doubled, its first moment and inertia kept
    >>> heavier = with_parameters(arm, pi)
    >>> float(heavier.mass[1]) == 2.0 * float(arm.mass[1])
    True
    """
    pi = np.asarray(pi, dtype=float)
    p = parameter_count(model)
    if pi.shape != (p,):
        raise ValueError(f"pi: expected shape ({p},) for model {model.name!r}, got {pi.shape}")
    if not np.isfinite(pi).all():
        raise ValueError(f"pi: not finite at {np.flatnonzero(~np.isfinite(pi)).tolist()}")
    nb = model.nb
    bodies = pi[: 10 * nb].reshape(nb, 10)
    mass, h, origin = bodies[:, 0], bodies[:, 1:4], inertia_matrix(bodies[:, 4:])
    for i in range(nb):
        name = model.body_names[i + 1]
        if mass[i] < 0.0:
            raise ValueError(f"pi: {name}.m = {mass[i]:g} kg is negative")
        if mass[i] == 0.0 and np.any(h[i] != 0.0):
            raise ValueError(f"pi: {name} has zero mass but a first moment m c = {h[i].tolist()}")
    safe = np.where(mass > 0.0, mass, 1.0)
    com = h / safe[:, None]
    inertia = origin - np.where(mass[:, None, None] > 0.0, _shift(h, safe), 0.0)
    joints = pi[10 * nb :].reshape(-1, 3)
    fb = friction_bodies(model)
    per_body = [np.zeros(nb + 1) for _ in range(3)]
    for k in range(3):
        per_body[k][fb] = joints[:, k]
    return model.replace(
        mass=np.concatenate([model.mass[:1], mass]),
        com=np.concatenate([model.com[:1], com]),
        inertia=np.concatenate([model.inertia[:1], inertia]),
        viscous=per_body[0],
        coulomb=per_body[1],
        armature=per_body[2],
    )
