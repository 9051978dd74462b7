"""Every rate's motion in spatial coordinates, its time derivative, and the bodies it moves.

The shared step of the task-space and centroidal quantities (:mod:`.frame_motion`,
:mod:`.jacobian_derivative`, :mod:`.center_of_mass`, :mod:`eslabon.dynamics.centroidal`).

For the rate k of the joint of body b(k), the column S_k = [ω_k; v_k] (world axes,
[angular; linear]) is the twist, per unit rate, of every body that rate moves, with v_k the
velocity of the body-fixed point passing through the world origin O (spatial coordinates,
Featherstone, *Rigid Body Dynamics Algorithms* (2008), Ch. 2). Body i moves at
V_i = Σ_{k ∈ κ(i)} S_k q̇_k, κ(i) the rates of the joints from the root to i (its support,
RBDA Ch. 4). A rate whose motion subspace s_k is constant in its body's axes (every joint
but universal and planar: ``eslabon._engine.joint_types.subspace``) has S_k = [R ω_s;
R v_s + p × R ω_s] with the body's world rotation R and origin p. With a universal or
planar joint the columns are read from the compiled geometric Jacobian of one frame on
each leaf body instead (:mod:`.frame_jacobian`; every rate moves some leaf), moved from the
leaf's origin p to O: v_k = v_k(p) + p × ω_k.

Time derivative (RBDA §2.9–2.10: a motion vector s fixed in a body that moves at V
changes at V ×ₘ s, with [ω; v] ×ₘ [ω'; v'] = [ω × ω'; ω × v' + v × ω']): a rate's axis
is fixed in its joint's body, so Ṡ_k = V_{b(k)} ×ₘ S_k. For the two joints whose subspace
turns with their own coordinates (universal, planar: ``eslabon._engine.joint_types.
constant_subspace``) the axis of a rate is fixed in the frame reached by that joint's
earlier rates, which moves at V_{b(k)} − Σ_{j > k, same joint} S_j q̇_j; the body's own
rates j > k are subtracted accordingly (S_k ×ₘ S_k = 0 makes rate k's own term vanish).

Rates here are the compiled kernels' (``model.engine_nv``: a mimic joint has its own);
callers fold them with ``model.mimic.G``.
"""

from __future__ import annotations

import weakref
from typing import Any, NamedTuple

import numpy as np

from .._engine.joint_types import constant_subspace, nv_of, subspace
from .kinematic_pass import KinematicPass, body_poses, compiled_jacobian

REFERENCES = ("world", "local")  # the axes of a frame's quantities, as for ``jacobian``


class Tree(NamedTuple):
    """What the columns need of a model's tree, kept per model (models are immutable)."""

    rate_body: np.ndarray  # (engine_nv,) the body whose joint owns each engine rate
    subtree: np.ndarray  # (nb+1, nb+1) bool: subtree[b, i] = body i is b or below b
    support: np.ndarray  # (nb+1, engine_nv) bool: rate k moves body i
    leaves: tuple  # ((frame name, body, rates read from it), ...)
    turning: tuple  # ((first engine rate, nv), ...) of joints whose S turns with q
    body_axes: np.ndarray | None  # (engine_nv, 6) each rate's S in its body's axes, if constant


_TREES: weakref.WeakKeyDictionary[Any, Tree] = weakref.WeakKeyDictionary()


def tree(model) -> Tree:
    """The model's :class:`Tree` (computed once per model)."""
    found = _TREES.get(model)
    if found is not None:
        return found
    nb = model.nb
    parent = np.asarray(model.parent, dtype=np.int64)
    sizes = np.asarray(nv_of(model.joint_type), dtype=np.int64)
    rate_body = np.repeat(np.arange(nb + 1), sizes)
    subtree = np.eye(nb + 1, dtype=bool)
    for i in range(nb, 0, -1):  # parent[i] < i: each body's subtree is complete before its parent's
        subtree[parent[i]] |= subtree[i]
    support = subtree[rate_body].T  # support[i, k]: body b(k) is i or above i
    has_child = np.zeros(nb + 1, dtype=bool)
    has_child[parent[1:]] = True
    leaves, covered = [], np.zeros(len(rate_body), dtype=bool)
    for leaf in np.flatnonzero(~has_child):
        rates = support[leaf] & ~covered
        if leaf == 0 or not rates.any():
            continue
        covered |= rates
        leaves.append((_body_frame(model, int(leaf)), int(leaf), np.flatnonzero(rates)))
    turning = tuple(
        (int(model.engine_v_index[i]), int(sizes[i]))
        for i in range(1, nb + 1)
        if sizes[i] > 1 and not constant_subspace(model.joint_type[i])
    )
    body_axes = None
    if not turning:
        body_axes = np.zeros((len(rate_body), 6))
        for i in range(1, nb + 1):
            if sizes[i]:
                first = int(model.engine_v_index[i])
                axis2 = (0.0, 0.0, 0.0) if model.axis2 is None else model.axis2[i]
                pitch = 0.0 if model.pitch is None else float(model.pitch[i])
                S_i = subspace(model.joint_type[i], model.axis[i], axis2, pitch)
                body_axes[first : first + sizes[i]] = S_i.T
    found = Tree(rate_body, subtree, support, tuple(leaves), turning, body_axes)
    _TREES[model] = found
    return found


def _body_frame(model, body: int) -> str:
    """A frame name that :meth:`eslabon.Model.frame` resolves to ``body`` itself."""
    name = model.body_names[body]
    if model.frame(name).body == body:
        return name
    for fr in model.frames:  # a named frame took the body's name: any frame on the body
        if fr.body == body:
            return fr.name
    raise ValueError(f"model: no frame resolves to body {name!r}")


class Poses(NamedTuple):
    """The part of a :class:`.kinematic_pass.KinematicPass` that positions need: every
    body's world rotation (..., nb+1, 3, 3), origin (..., nb+1, 3) and centre of mass in
    its own axes (nb+1, 3), from the compiled pose pass alone (no rates)."""

    world_rotation: np.ndarray
    world_position: np.ndarray
    com: np.ndarray


def poses(model, q) -> Poses:
    """The bodies' :class:`Poses` at q (nq,) or (N, nq); rigid links (the centre of mass
    fixed in its body)."""
    T = body_poses(model, q)
    return Poses(T[..., :3, :3], T[..., :3, 3], np.asarray(model.com, dtype=float))


def world_points(motion: KinematicPass | Poses, body: int, offset) -> np.ndarray:
    """World position (..., 3) of the point ``offset`` (body axes) of ``body``."""
    R = motion.world_rotation[..., body, :, :]
    return motion.world_position[..., body, :] + R @ np.asarray(offset, dtype=float)


def spatial_columns(
    model, q, motion: KinematicPass | Poses | None = None, from_leaves: bool = False
) -> np.ndarray:
    """S (..., 6, engine_nv): each engine rate's twist [ω; v_O] in world axes at the world
    origin (the module's docstring). A joint's subspace constant in its body's axes is
    turned to the world's with the body's pose; with a universal or planar joint (or
    ``from_leaves``) the columns are read from the leaves' compiled Jacobians instead."""
    motion = poses(model, q) if motion is None else motion
    t = tree(model)
    if t.body_axes is not None and not from_leaves:
        R = motion.world_rotation[..., t.rate_body, :, :]  # (..., nv, 3, 3)
        w = (R @ t.body_axes[:, :3, None])[..., 0]
        v = (R @ t.body_axes[:, 3:, None])[..., 0]
        v += np.cross(motion.world_position[..., t.rate_body, :], w)
        return np.swapaxes(np.concatenate([w, v], axis=-1), -1, -2)
    lead = motion.world_position.shape[:-2]
    S = np.zeros(lead + (6, len(t.rate_body)))
    for name, _body, rates in t.leaves:
        J = compiled_jacobian(model, q, name, False)[..., rates]
        fr = model.frame(name)
        p = world_points(motion, fr.body, fr.translation)
        S[..., :3, rates] = J[..., :3, :]
        S[..., 3:, rates] = J[..., 3:, :] + cross_columns(p, J[..., :3, :])
    return S


def body_twists(motion: KinematicPass) -> np.ndarray:
    """V (..., nb+1, 6): every body's twist [ω; v_O] in world axes at the world origin."""
    R = motion.world_rotation
    w = (R @ motion.angular_velocity[..., None])[..., 0]
    v = (R @ motion.linear_velocity[..., None])[..., 0]
    return np.concatenate([w, v + np.cross(motion.world_position, w)], axis=-1)


def cross_columns(a: np.ndarray, C: np.ndarray) -> np.ndarray:
    """a × c for each column c of C: a (..., 3), C (..., 3, n) -> (..., 3, n)."""
    x, y, z = a[..., 0, None], a[..., 1, None], a[..., 2, None]
    cx, cy, cz = C[..., 0, :], C[..., 1, :], C[..., 2, :]
    return np.stack([y * cz - z * cy, z * cx - x * cz, x * cy - y * cx], axis=-2)


def cross_pairs(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """a_k × b_k for the columns of A and B, each (..., 3, n)."""
    return np.stack(
        [
            A[..., 1, :] * B[..., 2, :] - A[..., 2, :] * B[..., 1, :],
            A[..., 2, :] * B[..., 0, :] - A[..., 0, :] * B[..., 2, :],
            A[..., 0, :] * B[..., 1, :] - A[..., 1, :] * B[..., 0, :],
        ],
        axis=-2,
    )


def check_reference(reference: str) -> None:
    """A ValueError unless ``reference`` is one of :data:`REFERENCES`."""
    if reference not in REFERENCES:
        raise ValueError(f"reference: expected one of {REFERENCES}, got {reference!r}")


def motion_cross(V: np.ndarray, S: np.ndarray) -> np.ndarray:
    """V ×ₘ S for twists V (..., 6) and columns S (..., 6, n), column by column."""
    w, v = V[..., :3], V[..., 3:]
    Sw, Sv = S[..., :3, :], S[..., 3:, :]
    ang = cross_columns(w, Sw)
    return np.concatenate([ang, cross_columns(w, Sv) + cross_columns(v, Sw)], axis=-2)


def column_rates(model, S: np.ndarray, V: np.ndarray, qd_engine: np.ndarray) -> np.ndarray:
    """Ṡ (..., 6, engine_nv), the time derivative of each column, from the columns S, the
    bodies' twists V (:func:`body_twists`) and the engine rates q̇ (..., engine_nv)."""
    t = tree(model)
    Vk = np.swapaxes(V[..., t.rate_body, :], -1, -2)  # (..., 6, engine_nv): V_b(k) by column
    w, v, Sw, Sv = Vk[..., :3, :], Vk[..., 3:, :], S[..., :3, :], S[..., 3:, :]
    Sdot = np.concatenate([cross_pairs(w, Sw), cross_pairs(w, Sv) + cross_pairs(v, Sw)], -2)
    for first, n in t.turning:  # the frame of rate k moves without the joint's later rates
        for k in range(first, first + n - 1):
            later = slice(k + 1, first + n)
            V_later = np.einsum("...ij,...j->...i", S[..., later], qd_engine[..., later])
            Sdot[..., k : k + 1] -= motion_cross(V_later, S[..., k : k + 1])
    return Sdot


def engine_rates(model, qd) -> np.ndarray:
    """The engine rates (..., engine_nv) of checked rates ``qd`` (..., nv)."""
    qd = np.asarray(qd, dtype=float)
    return qd if model.mimic is None else model.mimic.rates(qd)
