"""Configuration space of a model: integrate, difference, neutral and random configurations.

A model's configuration ``q`` has ``nq`` numbers and its velocity ``v`` has ``nv``; body
``i``'s joint occupies ``q[q_index[i] : q_index[i] + nq_i]`` and
``v[v_index[i] : v_index[i] + nv_i]`` (sizes: :data:`eslabon._engine.layout.JOINT_NQ`,
:data:`~eslabon._engine.layout.JOINT_NV`). The joint types are parametrised as follows.

revolute, prismatic, helical, universal, planar
    Euclidean coordinates, ``nq = nv``. A planar joint has ``q = (x, y, θ)``: ``x`` and
    ``y`` along the joint frame's x and y axes, ``θ`` about its z axis. ``v = dq/dt``,
    ``integrate(q, v, dt) = q + v·dt`` and ``difference(q0, q1) = q1 − q0``. Angles are not
    wrapped: the model keeps no joint limits and a revolute angle is a plain real number.
spherical
    ``q`` is a unit quaternion ``(x, y, z, w)``, scalar LAST (the order of scipy's
    ``Rotation.from_quat`` and of Pinocchio), the rotation from the joint frame to the body
    frame: a vector ``b`` in body coordinates is ``R(q) @ b`` in joint coordinates
    (:func:`quaternion_to_rotation`). ``v`` is the body's angular velocity relative to the
    parent in BODY coordinates. ``integrate(q, v, dt) = q ⊗ exp(v·dt)`` (right
    multiplication: the increment is in the body frame) and ``difference(q0, q1) =
    log(q0⁻¹ ⊗ q1)``, the ``v`` with ``integrate(q0, v, 1) = q1`` along the shortest
    rotation, so ``|v| ≤ π``.
free_flyer
    ``q = (p_x, p_y, p_z, x, y, z, w)``: the body origin's position in the joint frame, then
    the unit quaternion as for spherical; the pose is ``M = (R(q), p)``. ``v = (linear
    velocity of the body origin, angular velocity)``, BOTH in body coordinates, linear
    first. ``integrate = M · exp6(v·dt)`` with the exponential of SE(3) (not of R³ × SO(3)
    separately) and ``difference = log6(M0⁻¹ M1)``.

Spherical and free_flyer are exactly Pinocchio's ``JointModelSpherical`` and
``JointModelFreeFlyer`` (same ``q`` and ``v`` order); revolute and prismatic equal
Pinocchio's bounded ``JointModelR*`` and ``JointModelP*``. Quaternions returned by
:func:`integrate` are unit to 1e-12 (renormalised after the exponential).

Every function takes one configuration ``(nq,)`` or a batch ``(N, nq)``; the model is
anything with ``joint_type``, ``q_index``, ``v_index`` (one entry per body, body 0 the
world), ``nq``, ``nv``, ``body_names`` and ``name``.
"""

from __future__ import annotations

import numbers
import weakref
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from eslabon._args import nonfinite_message
from eslabon._engine.layout import (
    FIXED,
    FREE_FLYER,
    JOINT_KINDS,
    JOINT_NAMES,
    JOINT_NQ,
    JOINT_NV,
    SPHERICAL,
)

Array = NDArray[np.float64]

__all__ = [
    "integrate",
    "difference",
    "neutral",
    "random_configuration",
    "normalize",
    "check_configuration",
    "quaternion_to_rotation",
    "quaternion_product",
    "rotation_vector_quaternion",
]

_SMALL = 1e-2  # below this angle the SE(3) coefficients use their Taylor series
EXP3_SERIES = 1e-4  # below this angle exp3 / log3 use theirs


# ---------------------------------------------------------------- quaternions (x, y, z, w)
def _dot(a: Array, b: Array) -> Array:
    return np.sum(a * b, axis=-1, keepdims=True)


def _qmul(a: Array, b: Array) -> Array:
    """Hamilton product ``a ⊗ b`` of quaternions ``(..., 4)``, scalar last."""
    av, aw, bv, bw = a[..., :3], a[..., 3:], b[..., :3], b[..., 3:]
    return np.concatenate([aw * bv + bw * av + np.cross(av, bv), aw * bw - _dot(av, bv)], -1)


def _qconj(q: Array) -> Array:
    return np.concatenate([-q[..., :3], q[..., 3:]], -1)


def _qrotate(q: Array, x: Array) -> Array:
    """``R(q) @ x`` for unit quaternions ``(..., 4)`` and vectors ``(..., 3)``."""
    u, w = q[..., :3], q[..., 3:]
    t = 2.0 * np.cross(u, x)
    return x + w * t + np.cross(u, t)


def _qunit(q: Array) -> Array:
    return q / np.linalg.norm(q, axis=-1, keepdims=True)


def _exp3(phi: Array) -> Array:
    """Unit quaternion ``(..., 4)`` of the rotation vector ``phi`` ``(..., 3)``."""
    th = np.linalg.norm(phi, axis=-1, keepdims=True)
    small = th < EXP3_SERIES
    safe = np.where(small, 1.0, th)
    t2 = th * th
    k = np.where(small, 0.5 - t2 / 48.0 + t2 * t2 / 3840.0, np.sin(0.5 * th) / safe)
    return np.concatenate([k * phi, np.cos(0.5 * th)], -1)


def quaternion_product(a: ArrayLike, b: ArrayLike) -> Array:
    """Hamilton product ``a ⊗ b`` of quaternions (…, 4), scalar last (the rotation ``a``
    then ``b`` in ``a``'s frame).

    Parameters
    ----------
    a, b : array_like (..., 4)
        Quaternions (x, y, z, w), broadcast against each other.

    Returns
    -------
    ndarray (..., 4)
        ``a ⊗ b``, scalar last (unit when both are).

    Examples
    --------
    >>> from eslabon.model.configuration import quaternion_product
    >>> quaternion_product([0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0]).tolist()
    [1.0, 0.0, 0.0, 0.0]
    """
    return _qmul(np.asarray(a, dtype=float), np.asarray(b, dtype=float))


def rotation_vector_quaternion(phi: ArrayLike) -> Array:
    """The unit quaternion (…, 4), scalar last, of the rotation vector ``phi`` (…, 3):
    exp on SO(3), exact to rounding near 0 (its series).

    Parameters
    ----------
    phi : array_like (..., 3)
        Rotation vectors: axis times angle [rad].

    Returns
    -------
    ndarray (..., 4)
        (sin(θ/2) φ/θ, cos(θ/2)), θ = ‖φ‖.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.model.configuration import rotation_vector_quaternion
    >>> rotation_vector_quaternion([0.0, 0.0, np.pi]).round(6).tolist()
    [0.0, 0.0, 1.0, 0.0]
    """
    return _exp3(np.asarray(phi, dtype=float))


def _log3(q: Array) -> Array:
    """Rotation vector ``(..., 3)`` of the quaternion ``q`` ``(..., 4)`` (sign taken so that
    ``w ≥ 0``: the angle is in ``[0, π]``). ``q`` need not be unit."""
    q = np.where(q[..., 3:] < 0.0, -q, q)
    u, w = q[..., :3], q[..., 3:]
    s = np.linalg.norm(u, axis=-1, keepdims=True)
    small = s <= EXP3_SERIES * w
    x = s / np.where(small, w, 1.0)
    x2 = x * x
    series = 2.0 / np.where(small, w, 1.0) * (1.0 - x2 / 3.0 + x2 * x2 / 5.0)
    k = np.where(small, series, 2.0 * np.arctan2(s, w) / np.where(small, 1.0, s))
    return k * u


def _exp6(xi: Array) -> tuple[Array, Array]:
    """SE(3) exponential of the twist ``xi = (linear, angular)`` ``(..., 6)``: the position
    ``V(ω) ρ`` ``(..., 3)`` and the quaternion ``exp3(ω)`` ``(..., 4)``."""
    rho, w = xi[..., :3], xi[..., 3:]
    th = np.linalg.norm(w, axis=-1, keepdims=True)
    small = th < _SMALL
    safe = np.where(small, 1.0, th)
    t2 = th * th
    a = np.where(small, 0.5 - t2 / 24.0 + t2 * t2 / 720.0, 2.0 * np.sin(0.5 * safe) ** 2 / safe**2)
    b = np.where(small, 1.0 / 6.0 - t2 / 120.0 + t2 * t2 / 5040.0, (safe - np.sin(safe)) / safe**3)
    wr = np.cross(w, rho)
    return rho + a * wr + b * np.cross(w, wr), _exp3(w)


def _log6(p: Array, q: Array) -> Array:
    """SE(3) logarithm ``(..., 6)`` (linear, angular) of the pose (position ``p``
    ``(..., 3)``, unit quaternion ``q`` ``(..., 4)``), with ``V(ω)⁻¹``."""
    w = _log3(q)
    th = np.linalg.norm(w, axis=-1, keepdims=True)
    small = th < _SMALL
    safe = np.where(small, 1.0, th)
    h = 0.5 * safe
    t2 = th * th
    c = np.where(
        small,
        1.0 / 12.0 + t2 / 720.0 + t2 * t2 / 30240.0,
        (1.0 - h * np.cos(h) / np.sin(h)) / safe**2,
    )
    wp = np.cross(w, p)
    return np.concatenate([p - 0.5 * wp + c * np.cross(w, wp), w], -1)


def quaternion_to_rotation(quat: ArrayLike) -> Array:
    """Rotation matrix of unit quaternions.

    Parameters
    ----------
    quat : array_like, shape (..., 4)
        Unit quaternions ``(x, y, z, w)``, scalar last.

    Returns
    -------
    ndarray, shape (..., 3, 3)
        The active rotation ``R``: ``R @ b`` rotates ``b``; for a joint's quaternion it maps
        body-frame coordinates ``b`` to joint-frame coordinates. The formula assumes a unit
        quaternion (``R = I + 2w[u]× + 2[u]×²``, ``u = (x, y, z)``).

    Raises
    ------
    ValueError
        ``quat`` whose last axis is not 4 long.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.model.configuration import quaternion_to_rotation
    >>> s = np.sqrt(0.5)
    >>> R = quaternion_to_rotation([0.0, 0.0, s, s])  # 90° about z
    >>> np.allclose(R, [[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    True
    """
    q = np.asarray(quat, dtype=float)
    if q.ndim < 1 or q.shape[-1] != 4:
        raise ValueError(f"quat: expected shape (..., 4), got {q.shape}")
    x, y, z, w = q[..., 0], q[..., 1], q[..., 2], q[..., 3]
    rows = [
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ]
    return np.stack([np.stack(r, -1) for r in rows], -2)


# ---------------------------------------------------------------- the model's joints
class _Plan:
    """Where each kind of joint sits in ``q`` and ``v``."""

    def __init__(self, model: Any) -> None:
        jt, qi, vi = (
            np.asarray(a, dtype=int) for a in (model.joint_type, model.q_index, model.v_index)
        )
        self.nq, self.nv = int(model.nq), int(model.nv)
        self.names = tuple(model.body_names)
        eq: list[int] = []
        ev: list[int] = []
        self.angle: list[int] = []
        self.linear: list[int] = []
        self.sph: list[tuple[int, int, int]] = []  # (body, q start, v start)
        self.ff: list[tuple[int, int, int]] = []
        for i, t in enumerate(jt.tolist()):
            if t not in JOINT_NAMES:
                raise ValueError(f"body {self.names[i]!r}: unknown joint type code {t}")
            if t == FIXED or int(qi[i]) < 0:  # fixed, or a mimic joint (no coordinate)
                continue
            q0, v0, n = int(qi[i]), int(vi[i]), JOINT_NQ[t]
            if t == SPHERICAL:
                self.sph.append((i, q0, v0))
            elif t == FREE_FLYER:
                self.ff.append((i, q0, v0))
            else:
                eq += range(q0, q0 + n)
                ev += range(v0, v0 + JOINT_NV[t])
                units = JOINT_KINDS[t].units
                self.linear += [q0 + d for d in range(n) if units[d] == "m"]
                self.angle += [q0 + d for d in range(n) if units[d] != "m"]
        self.eq, self.ev = np.array(eq, dtype=np.int64), np.array(ev, dtype=np.int64)
        self.sq = np.array([s[1] for s in self.sph], dtype=int).reshape(-1, 1) + np.arange(4)
        self.sv = np.array([s[2] for s in self.sph], dtype=int).reshape(-1, 1) + np.arange(3)
        self.fq = np.array([f[1] for f in self.ff], dtype=int).reshape(-1, 1) + np.arange(7)
        self.fv = np.array([f[2] for f in self.ff], dtype=int).reshape(-1, 1) + np.arange(6)
        # every quaternion: (body, index of its 4 numbers in q)
        self.quats = [(i, q0) for i, q0, _ in self.sph] + [(i, q0 + 3) for i, q0, _ in self.ff]

    def vector(self, x: ArrayLike, field: str, tangent: bool) -> Array:
        """``x`` as a float array ``(n,)`` or ``(N, n)``, checked for length and finiteness."""
        try:
            a = np.asarray(x, dtype=float)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{field}: not an array of numbers ({exc})") from None
        n, what = (
            (self.nv, f"nv; the configuration has nq = {self.nq}")
            if tangent
            else (self.nq, f"nq; the velocity has nv = {self.nv}")
        )
        if a.ndim not in (1, 2):
            raise ValueError(
                f"{field}: expected a vector of {n} numbers ({what}) or a batch (N, {n}), "
                f"got shape {a.shape}"
            )
        if a.shape[-1] != n:
            got = f"{a.shape[-1]}" if a.ndim == 1 else f"rows of {a.shape[-1]}"
            raise ValueError(f"{field}: expected {n} numbers ({what}), got {got}")
        if not np.all(np.isfinite(a)):
            raise ValueError(nonfinite_message(field, a))
        return a

    def joint(self, i: int) -> str:
        return f"joint of body {self.names[i]!r}"

    def check_units(self, q: Array, field: str, tol: float) -> None:
        for i, k in self.quats:
            norms = np.linalg.norm(q[..., k : k + 4], axis=-1)
            bad = np.flatnonzero(np.abs(np.atleast_1d(norms) - 1.0) > tol)
            if bad.size:
                row = f" (row {bad[0]})" if q.ndim == 2 else ""
                norm = float(np.atleast_1d(norms)[bad[0]])
                raise ValueError(
                    f"{field}{row}: the quaternion of the {self.joint(i)} has norm {norm:.12g}, "
                    f"not 1 (tolerance {tol:g}); call eslabon.normalize(model, {field}) first"
                )

    def unit_quats(self, q: Array, field: str) -> Array:
        """A copy of ``q`` with every quaternion divided by its norm."""
        out = np.array(q, dtype=float)
        for i, k in self.quats:
            norms = np.linalg.norm(out[..., k : k + 4], axis=-1, keepdims=True)
            if not np.all(norms > 0.0) or not np.all(np.isfinite(norms)):
                raise ValueError(f"{field}: the quaternion of the {self.joint(i)} is zero")
            out[..., k : k + 4] /= norms
        return out


_PLANS: weakref.WeakKeyDictionary[Any, _Plan] = weakref.WeakKeyDictionary()


def joint_places(model: Any) -> _Plan:
    """The model's :class:`_Plan`, made once per model (a model is immutable)."""
    try:
        return _PLANS[model]
    except (KeyError, TypeError):
        plan = _Plan(model)
        try:
            _PLANS[model] = plan
        except TypeError:  # a stand-in that cannot be weakly referenced
            pass
        return plan


def _broadcast(a: Array, b: Array, names: tuple[str, str]) -> tuple[Array, Array]:
    try:
        lead = np.broadcast_shapes(a.shape[:-1], b.shape[:-1])
    except ValueError:
        raise ValueError(
            f"{names[0]} {a.shape} and {names[1]} {b.shape}: batch sizes differ"
        ) from None
    return np.broadcast_to(a, lead + a.shape[-1:]), np.broadcast_to(b, lead + b.shape[-1:])


# ---------------------------------------------------------------- public functions
def integrate(model: Any, q: ArrayLike, v: ArrayLike, dt: float = 1.0) -> Array:
    """The configuration reached from ``q`` moving with constant velocity ``v`` for ``dt``.

    q + v·dt for the vector coordinates, q ⊗ exp(v·dt) for a spherical joint (the
    increment in body axes) and M · exp₆(v·dt) on SE(3) for a free flyer (module
    docstring); angles are not wrapped.

    Parameters
    ----------
    model : Model
        The robot (:class:`eslabon.Model`).
    q : array_like, shape (nq,) or (N, nq)
        Start configuration(s): rad, m, unit quaternions (x, y, z, w) to 1e-6 (see
        :func:`check_configuration`).
    v : array_like, shape (nv,) or (N, nv)
        Velocity (tangent vector: rad/s, m/s; a spherical or free-flyer joint's in body
        axes), broadcast against ``q``.
    dt : float
        Time step [s] (1 by default: ``v`` is then a displacement).

    Returns
    -------
    ndarray, shape (nq,) or (N, nq)
        ``q ⊕ v·dt`` per the module's conventions; quaternions unit to 1e-12.

    Raises
    ------
    ValueError
        A wrong length, a non-finite value, a quaternion whose norm is not 1 (naming the
        joint), batch sizes of ``q`` and ``v`` that do not broadcast, a ``dt`` that is not
        one finite number.

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> es.integrate(es.zoo.load("planar2"), [0.1, 0.2], [1.0, -1.0], 0.5).round(6).tolist()
    [0.6, -0.3]
    >>> space = es.zoo.load("space_manipulator")  # a free-flying base: nq = 13, nv = 12
    >>> v = np.zeros(12)
    >>> v[5] = np.pi / 2  # turn the base 90° about its z axis
    >>> es.integrate(space, es.neutral(space), v)[3:7].round(6).tolist()
    [0.0, 0.0, 0.707107, 0.707107]
    """
    p = joint_places(model)
    q, v = p.vector(q, "q", False), p.vector(v, "v", True)
    if (
        isinstance(dt, (bool, np.bool_))
        or not isinstance(dt, (numbers.Real, np.ndarray))
        or np.ndim(dt) != 0
        or not np.isfinite(dt)
    ):
        raise ValueError(f"dt: expected a finite number, got {dt!r}")
    p.check_units(q, "q", 1e-6)
    qb, vb = _broadcast(p.unit_quats(q, "q"), np.asarray(v) * float(dt), ("q", "v"))
    out = np.array(qb)
    out[..., p.eq] = qb[..., p.eq] + vb[..., p.ev]
    if len(p.sph):
        out[..., p.sq] = _qunit(_qmul(qb[..., p.sq], _exp3(vb[..., p.sv])))
    if len(p.ff):
        pose = qb[..., p.fq]
        pos, quat = pose[..., :3], pose[..., 3:]
        dp, dq = _exp6(vb[..., p.fv])
        out[..., p.fq] = np.concatenate([pos + _qrotate(quat, dp), _qunit(_qmul(quat, dq))], -1)
    return out


def difference(model: Any, q0: ArrayLike, q1: ArrayLike) -> Array:
    """The velocity that carries ``q0`` to ``q1`` in unit time.

    The inverse of :func:`integrate`: q1 − q0 for the vector coordinates,
    log(q0⁻¹ ⊗ q1) for a spherical joint and log₆(M0⁻¹ M1) for a free flyer.

    Parameters
    ----------
    model : Model
        The robot (:class:`eslabon.Model`).
    q0, q1 : array_like, shape (nq,) or (N, nq)
        Configurations (rad, m, unit quaternions), broadcast against each other;
        quaternions unit to 1e-6.

    Returns
    -------
    ndarray, shape (nv,) or (N, nv)
        ``v`` with ``integrate(model, q0, v) == q1`` (rotations along the shortest way,
        angles ``≤ π``): rad, m; a spherical or free-flyer joint's in body axes.

    Raises
    ------
    ValueError
        A wrong length, a non-finite value, a quaternion whose norm is not 1 (naming the
        joint), batch sizes that do not broadcast.

    Examples
    --------
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> es.difference(arm, [0.1, 0.2], [0.6, -0.3]).round(6).tolist()
    [0.5, -0.5]
    """
    p = joint_places(model)
    a, b = p.vector(q0, "q0", False), p.vector(q1, "q1", False)
    p.check_units(a, "q0", 1e-6)
    p.check_units(b, "q1", 1e-6)
    ab, bb = _broadcast(p.unit_quats(a, "q0"), p.unit_quats(b, "q1"), ("q0", "q1"))
    out = np.zeros(ab.shape[:-1] + (p.nv,))
    out[..., p.ev] = bb[..., p.eq] - ab[..., p.eq]
    if len(p.sph):
        out[..., p.sv] = _log3(_qmul(_qconj(ab[..., p.sq]), bb[..., p.sq]))
    if len(p.ff):
        m0, m1 = ab[..., p.fq], bb[..., p.fq]
        inv0 = _qconj(m0[..., 3:])
        rel_p = _qrotate(inv0, m1[..., :3] - m0[..., :3])
        out[..., p.fv] = _log6(rel_p, _qmul(inv0, m1[..., 3:]))
    return out


def neutral(model: Any) -> Array:
    """The neutral configuration, shape (nq,): zeros, identity quaternions (0, 0, 0, 1).

    Every joint at its zero: angles and displacements 0, free-flyer positions 0 and
    orientations the identity. Mimic joints have no coordinate.

    Parameters
    ----------
    model : Model
        The robot (:class:`eslabon.Model`).

    Returns
    -------
    ndarray (nq,)
        The configuration (rad, m, quaternions scalar last).

    Examples
    --------
    >>> import eslabon as es
    >>> es.neutral(es.zoo.load("space_manipulator"))[:8].tolist()
    [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0]
    """
    p = joint_places(model)
    q = np.zeros(p.nq)
    for _, k in p.quats:
        q[k + 3] = 1.0
    return q


def random_configuration(model: Any, rng: Any = None) -> Array:
    """A random configuration, shape (nq,).

    Angles (revolute, helical, universal, planar θ) are uniform in [−π, π]; prismatic
    coordinates, planar x, y and free-flyer positions uniform in [−1, 1]; quaternions
    uniform on SO(3) (a normalised 4-D Gaussian).

    Parameters
    ----------
    model : Model
        The robot (:class:`eslabon.Model`).
    rng : numpy.random.Generator or int or None
        Random source or seed (``None``: fresh entropy), passed to
        ``numpy.random.default_rng``.

    Returns
    -------
    ndarray (nq,)
        The configuration: rad, m, unit quaternions (x, y, z, w).

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> space = es.zoo.load("space_manipulator")
    >>> q = es.random_configuration(space, rng=0)
    >>> q.shape, round(float(np.linalg.norm(q[3:7])), 12)
    ((13,), 1.0)
    """
    p = joint_places(model)
    rng = np.random.default_rng(rng)
    q = np.zeros(p.nq)
    q[p.angle] = rng.uniform(-np.pi, np.pi, len(p.angle))
    q[p.linear] = rng.uniform(-1.0, 1.0, len(p.linear))
    for _, k0, _ in p.ff:
        q[k0 : k0 + 3] = rng.uniform(-1.0, 1.0, 3)
    for _, k in p.quats:
        g = np.zeros(4)
        while np.linalg.norm(g) < 1e-6:
            g = rng.standard_normal(4)
        q[k : k + 4] = g / np.linalg.norm(g)
    return q


def normalize(model: Any, q: ArrayLike) -> Array:
    """A copy of ``q`` ((nq,) or (N, nq)) with every quaternion divided by its norm.

    The other coordinates are copied unchanged. Use it on a configuration whose
    quaternions drifted from unit norm (the functions refuse a norm off 1 by more than
    1e-6).

    Parameters
    ----------
    model : Model
        The robot (:class:`eslabon.Model`).
    q : array_like (nq,) or (N, nq)
        Configuration(s): rad, m, quaternions (x, y, z, w) of any non-zero norm.

    Returns
    -------
    ndarray (nq,) or (N, nq)
        ``q`` with unit quaternions.

    Raises
    ------
    ValueError
        Wrong length, a non-finite value or a zero quaternion (the joint is named).

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> space = es.zoo.load("space_manipulator")
    >>> q = es.neutral(space)
    >>> q[6] = 2.0  # the base's quaternion (0, 0, 0, 2)
    >>> es.normalize(space, q)[3:7].tolist()
    [0.0, 0.0, 0.0, 1.0]
    """
    p = joint_places(model)
    return p.unit_quats(p.vector(q, "q", False), "q")


def check_configuration(model: Any, q: ArrayLike, field: str = "q", tol: float = 1e-6) -> None:
    """Check a configuration ((nq,) or (N, nq)): its length, finiteness and unit quaternions.

    Parameters
    ----------
    model : Model
        The robot (:class:`eslabon.Model`).
    q : array_like, shape (nq,) or (N, nq)
        Configuration(s): rad, m, quaternions (x, y, z, w).
    field : str
        The name given to ``q`` in error messages.
    tol : float
        Largest accepted ``| |quaternion| − 1 |``.

    Raises
    ------
    ValueError
        Naming the field, and for a quaternion of the wrong norm the joint (by its body's
        name) and the norm found.

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon.model.configuration import check_configuration
    >>> space = es.zoo.load("space_manipulator")
    >>> check_configuration(space, es.neutral(space))  # passes: returns None
    >>> q = es.neutral(space)
    >>> q[6] = 2.0
    >>> try:
    ...     check_configuration(space, q)
    ... except ValueError as exc:
    ...     print(exc)
    q: the quaternion of the joint of body 'satellite' has norm 2, not 1 (tolerance 1e-06);
    call eslabon.normalize(model, q) first
    """
    p = joint_places(model)
    p.check_units(p.vector(q, field, False), field, tol)
