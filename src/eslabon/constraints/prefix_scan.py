"""Step ➊ of Jaramillo Botero (1998)'s Macro Algoritmo in O(log₂ N) depth: the serial
chain's Newton–Euler recursions as parallel prefix scans.

Step ➊ (Figure 8) computes ξ by the inverse dynamics, whose passes (1.81)–(1.83) are
linear recurrences along the chain, in world axes (:mod:`.operator_tree`):

    poses        W_i = W_{i−1} ∘ E_i              (rigid transforms, E_i of joint i alone)
    velocities   V_i = P̂(p_i)ᵀ V_{i−1} + H_i q̇_i        p_i = O_i − O_{i−1}
    accelerations V̇_i = P̂(p_i)ᵀ V̇_{i−1} + H_i q̈_i + b_i
    forces       F_i = P̂(p_{i+1}) F_{i+1} + I_i V̇_i + ℘_i   (from the tip)

Each is a prefix (or suffix) composition of maps x ↦ T(p) x + c, and the maps compose
within their kind: P̂(a)ᵀ P̂(b)ᵀ = P̂(a + b)ᵀ, so (p_a, c_a) then (p_b, c_b) is
(p_a + p_b, T(p_b) c_a + c_b) — a cross product and a few sums, as cheap as a serial
step. Recursive doubling (the scan of Blelloch 1990, "Prefix sums and their
applications"; Kogge and Stone 1973 for recurrences) composes neighbouring pairs, scans
the half-length sequence, and fills in the rest: 2⌈log₂ N⌉ − 1 stages, about twice the
serial work. Everything else in step ➊ (H_i, I_i, ℘_i, b_i, τ_i = H_iᵀ F_i) is local to a
body and its parent: a fixed number of stages. H_i and I_i are built from the scanned
world rotations and p_i from the scanned origins, so step ➊ runs on the scans end to end;
only each joint's own placement E_i(q_i) is taken from the kinematics pass (its serial
world poses are not used).

Counts use :class:`.cyclic_reduction.OperationCount`: flops of one composition (21 for a
motion or force map, 63 for a pose) per pair, one stage per level.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._engine.joint_types import subspace
from ..kinematics.kinematic_pass import kinematic_pass
from ..spatial.rotations import skew
from .batch import batched
from .cyclic_reduction import OperationCount

__all__ = ["scan", "newton_euler_by_scans"]

MAP_FLOPS = 21.0  # a cross product (9), p_a + p_b (3), T c_a + c_b (6 + 3)
POSE_FLOPS = 63.0  # R_a R_b (45), R_a t_b + t_a (15 + 3)
# a serial recursion's step applies a map to a vector instead of composing two maps:
# T c_a + c_b = a cross product (9), its 3 added components (3), + c_b (6)
APPLY_FLOPS = 18.0


def _motion(a, b):
    """(p_a, c_a) then (p_b, c_b): T(p) = P̂(p)ᵀ, T c = [w; v + w × p]."""
    (pa, ca), (pb, cb) = a, b
    moved = ca.copy()
    moved[:, 3:] += np.cross(ca[:, :3], pb)
    return pa + pb, moved + cb


def _force(a, b):
    """(p_a, c_a) then (p_b, c_b): T(p) = P̂(p), T c = [n + p × f; f]."""
    (pa, ca), (pb, cb) = a, b
    moved = ca.copy()
    moved[:, :3] += np.cross(pb, ca[:, 3:])
    return pa + pb, moved + cb


def _pose(a, b):
    """World pose a (R_a, t_a), then a body's placement b in it: a ∘ b."""
    (Ra, ta), (Rb, tb) = a, b
    return Ra @ Rb, np.einsum("kij,kj->ki", Ra, tb) + ta


COMBINE = {
    "motion": (_motion, MAP_FLOPS),
    "force": (_force, MAP_FLOPS),
    "pose": (_pose, POSE_FLOPS),
}


def scan(elements, kind: str, count: OperationCount | None = None):
    """Inclusive prefix composition of a sequence by recursive doubling.

    Parameters
    ----------
    elements : tuple of ndarray
        Stacked along the first axis (N, …): ``(p (N, 3), c (N, 6))`` for ``"motion"``
        and ``"force"`` maps x ↦ T(p_i) x + c_i, ``(R (N, 3, 3), t (N, 3))`` for
        ``"pose"`` placements.
    kind : {"motion", "force", "pose"}
    count : OperationCount, optional
        Adds the compositions' flops, one stage per level.

    Returns
    -------
    tuple of ndarray
        The prefixes: for a map, c of the composition up to i is x_i of the recurrence
        x_i = T(p_i) x_{i−1} + c_i with x_{−1} = 0; for poses, the world pose of body i.

    Raises
    ------
    ValueError
        An unknown ``kind``.

    Examples
    --------
    Two links along x turning at 1 rad/s about z: the tip's velocity is ω × r.

    >>> import numpy as np
    >>> from eslabon.constraints.prefix_scan import scan
    >>> p = np.array([[0.0, 0, 0], [1.0, 0, 0]])
    >>> c = np.array([[0, 0, 1.0, 0, 0, 0], [0, 0, 0, 0, 0, 0]])
    >>> scan((p, c), "motion")[1][1].tolist()
    [0.0, 0.0, 1.0, 0.0, 1.0, 0.0]
    """
    if kind not in COMBINE:
        raise ValueError(f"kind: expected one of {tuple(COMBINE)}, got {kind!r}")
    combine, flops = COMBINE[kind]
    count = count if count is not None else OperationCount()
    return _scan(tuple(np.asarray(x, dtype=float) for x in elements), combine, flops, count)


def _scan(e, combine, flops, count):
    n = len(e[0])
    if n == 1:
        return e
    m = n // 2
    pairs = combine(tuple(x[0 : 2 * m : 2] for x in e), tuple(x[1 : 2 * m : 2] for x in e))
    count.stage(m, flops)
    half = _scan(pairs, combine, flops, count)  # prefixes ending at 1, 3, 5, …
    out = tuple(np.empty_like(x) for x in e)
    for o, x, h in zip(out, e, half, strict=True):
        o[0] = x[0]
        o[1 : 2 * m : 2] = h
    rest = (n - 1) // 2  # elements 2, 4, … after the prefix ending just before them
    if rest:
        filled = combine(tuple(h[:rest] for h in half), tuple(x[2::2] for x in e))
        for o, f in zip(out, filled, strict=True):
            o[2::2] = f
        count.stage(rest, flops)
    return out


class _BodyData(NamedTuple):
    H: list
    inertia: np.ndarray
    dof: np.ndarray
    mass: np.ndarray
    com_offset: np.ndarray
    J_cm: np.ndarray


def _body_data(model, R) -> _BodyData:
    """Each body's H_i (6, k_i), I_i (6, 6) about O_i (1.45), c.o.m. offset s_i and J_cm,i
    in world axes, from its world rotation R_i (n, 3, 3): local to the body."""
    n = model.nb
    H, inertia = [], np.zeros((n, 6, 6))
    S, J_cm = np.zeros((n, 3)), np.zeros((n, 3, 3))
    for i in range(n):
        b = i + 1
        Sb = subspace(model.joint_type[b], model.axis[b], pitch=model.pitch[b])
        H.append(np.concatenate([R[i] @ Sb[:3], R[i] @ Sb[3:]]))
        m = model.mass[b]
        s = S[i] = R[i] @ model.com[b]
        J_cm[i] = R[i] @ model.inertia[b] @ R[i].T
        J_O = J_cm[i] + m * (s @ s * np.eye(3) - np.outer(s, s))
        inertia[i] = np.block([[J_O, m * skew(s)], [-m * skew(s), m * np.eye(3)]])
    return _BodyData(H, inertia, model.v_index[1:].copy(), model.mass[1:].copy(), S, J_cm)


@batched(3)
def newton_euler_by_scans(model, q, qd, qdd, count: OperationCount | None = None):
    """τ (nv,) of a serial chain with the four recursions of step ➊ as scans (module
    docstring); friction and armature as eslabon's Newton–Euler adds them.

    Parameters
    ----------
    model : Model
        A serial chain whose joint maps are fixed in their bodies.
    q : array_like (nq,)
    qd, qdd : array_like (nv,)
    count : OperationCount, optional
        Adds the four scans' flops and stages (the local per-body work is not counted).

    Returns
    -------
    ndarray (nv,)

    Raises
    ------
    ValueError
        Not a serial chain; a joint :mod:`.operator_tree` does not take.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon.constraints.prefix_scan import newton_euler_by_scans
    >>> arm = es.zoo.load("puma560")
    >>> q, v, a = np.full(6, 0.3), np.full(6, 0.5), np.full(6, -0.2)
    >>> tau = newton_euler_by_scans(arm, q, v, a)
    >>> bool(np.allclose(tau, es.inverse_dynamics(arm, q, v, a), atol=1e-10))
    True
    """
    from . import operator_tree as ot

    if np.any(model.parent[1:] != np.arange(model.nb)):
        raise ValueError("model: the scans here take a serial chain (parent i − 1)")
    ot.require_tree_joints(model, "the scans of step ➊")
    q, qd, qdd = ot._check_state(model, q, qd=qd, qdd=qdd)
    count = count if count is not None else OperationCount()
    n = model.nb
    kp = kinematic_pass(model, q)  # each joint's placement E_i depends on q_i alone
    R, O = scan((kp.parent_rotation[1:], kp.parent_translation[1:]), "pose", count)
    d = _body_data(model, R)  # local: H_i, I_i (1.45) in world axes from the scanned poses
    p = np.diff(np.vstack([np.zeros(3), O]), axis=0)  # O_i − O_{i−1} (p_1 unused)
    Hq, Hqdd = np.zeros((n, 6)), np.zeros((n, 6))
    for i in range(n):  # local: H_i q̇_i and H_i q̈_i
        k = d.H[i].shape[1]
        if k:
            Hq[i] = d.H[i] @ qd[d.dof[i] : d.dof[i] + k]
            Hqdd[i] = d.H[i] @ qdd[d.dof[i] : d.dof[i] + k]
    V = scan((p, Hq), "motion", count)[1]
    bias = np.zeros((n, 6))  # local: b_i of (1.58) from V_i and V_{i−1}
    V_prev = np.vstack([np.zeros(6), V[:-1]])
    bias[:, 3:] = np.cross(V_prev[:, :3], V[:, 3:] - V_prev[:, 3:])
    bias[:, :3] += np.cross(V[:, :3], Hq[:, :3])
    bias[:, 3:] += np.cross(V[:, :3], Hq[:, 3:])
    bias[0, 3:] -= model.gravity
    Vd = scan((p, Hqdd + bias), "motion", count)[1]
    w, s, m = V[:, :3], d.com_offset, d.mass
    gyro = np.zeros((n, 6))  # local: ℘_i (1.53)
    J_O = d.J_cm + m[:, None, None] * (
        np.einsum("ki,ki->k", s, s)[:, None, None] * np.eye(3) - np.einsum("ki,kj->kij", s, s)
    )
    gyro[:, :3] = np.cross(w, np.einsum("kij,kj->ki", J_O, w))
    gyro[:, 3:] = m[:, None] * np.cross(w, np.cross(w, s))
    own = np.einsum("kij,kj->ki", d.inertia, Vd) + gyro
    p_in = np.vstack([np.zeros(3), p[:0:-1]])  # from the tip: O_{i+1} − O_i, reversed
    F = scan((p_in, own[::-1]), "force", count)[1][::-1]
    tau = np.zeros(model.nv)
    for i in range(n):  # local: τ_i = H_iᵀ F_i
        k = d.H[i].shape[1]
        if k:
            tau[d.dof[i] : d.dof[i] + k] = d.H[i].T @ F[i]
    bodies = model.dof_bodies
    friction = model.viscous[bodies] * qd + model.coulomb[bodies] * np.sign(qd)
    return tau + friction + model.armature[bodies] * qdd
