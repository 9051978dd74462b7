"""Mimic joints: a joint whose value is a fixed linear function of another's.

A mimic joint (URDF ``<mimic joint multiplier offset>``, e.g. the second finger of a
gripper) moves its body by θ_i = m_i · q_k + o_i, where q_k is the value of the joint it
copies; it adds no degree of freedom. The dynamics are those of the coupled system: with
the coordinates of every joint stacked as q_e = G q + o (``engine`` coordinates, what the
compiled kernels see: each joint with a coordinate of its own), the rates and
accelerations are v_e = G v and a_e = G a, and by the principle of virtual work the
generalized forces of the independent coordinates are τ = Gᵀ τ_e, the mass matrix
M = Gᵀ M_e G, the Coriolis matrix and derivatives Gᵀ (·) G: the torque of a driving joint
includes its mimic joints' loads (multiplied by m). G has one 1 per independent
coordinate and m_i in the column of the joint that mimic joint i copies.

A mimic joint copies a revolute, prismatic or helical joint of the same type; a chain of
mimics (i copies j, which copies k) is resolved to k (multipliers multiplied, offsets
carried); a loop is refused naming its joints.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .._engine.layout import HELICAL, JOINT_NAMES, JOINT_NQ, JOINT_NV, PRISMATIC, REVOLUTE

Array = NDArray[np.float64]


@dataclass(frozen=True)
class MimicMap:
    """The coupling of a model with mimic joints: engine coordinates
    q_e = q[q_from] · q_scale + q_offset and rates v_e = G v."""

    G: Array  # (engine_nv, nv)
    q_from: NDArray[np.int64]  # (engine_nq,) the coordinate of q each engine one copies
    q_scale: Array  # (engine_nq,) 1, or a mimic joint's multiplier
    q_offset: Array  # (engine_nq,) 0, or a mimic joint's offset

    def configuration(self, q: Array) -> Array:
        """Engine coordinates of ``q`` (…, nq) -> (…, engine_nq)."""
        return np.asarray(q)[..., self.q_from] * self.q_scale + self.q_offset

    def rates(self, v: Array) -> Array:
        """Engine rates (or accelerations) of ``v`` (…, nv) -> (…, engine_nv)."""
        return np.asarray(v) @ self.G.T

    def forces(self, tau_e: Array) -> Array:
        """Generalized forces of the independent coordinates: Gᵀ τ_e."""
        return np.asarray(tau_e) @ self.G

    def matrix(self, A_e: Array) -> Array:
        """Gᵀ A_e G of an (…, engine_nv, engine_nv) matrix."""
        return np.swapaxes(self.G, 0, 1) @ np.asarray(A_e) @ self.G


def _arrays(model: Any) -> tuple[NDArray[np.int64], Array, Array]:
    n = len(model.parent)
    joint = np.full(n, -1, dtype=np.int64) if model.mimic_joint is None else model.mimic_joint
    mult = np.ones(n) if model.mimic_multiplier is None else model.mimic_multiplier
    off = np.zeros(n) if model.mimic_offset is None else model.mimic_offset
    return (
        np.asarray(joint, dtype=np.int64),
        np.asarray(mult, dtype=float),
        np.asarray(off, dtype=float),
    )


def check_mimic_arrays(model: Any, jtype: NDArray[np.int64]) -> dict[str, Any]:
    """The checked ``mimic_joint``, ``mimic_multiplier``, ``mimic_offset`` arrays of
    ``model`` (chains resolved to the joint with a coordinate of its own)."""
    n = len(jtype)
    names = getattr(model, "body_names", ()) or tuple(f"body{i}" for i in range(n))
    joint, mult, off = _arrays(model)
    for key, arr in (("mimic_joint", joint), ("mimic_multiplier", mult), ("mimic_offset", off)):
        if arr.shape != (n,):
            raise ValueError(f"{key}: expected {n} entries (one per body), got {arr.shape}")
    if not (np.all(np.isfinite(mult)) and np.all(np.isfinite(off))):
        raise ValueError("mimic_multiplier, mimic_offset: expected finite numbers")

    def name(i: int) -> str:
        return repr(names[i]) if i < len(names) else f"body {i}"

    for i in range(n):
        k = int(joint[i])
        if k < 0:
            continue
        if i == 0 or not 1 <= k < n or k == i:
            raise ValueError(
                f"mimic_joint[{i}]: expected the index of another body's joint (1..{n - 1}), "
                f"got {k}"
            )
        if int(jtype[i]) not in (REVOLUTE, PRISMATIC, HELICAL):
            raise ValueError(
                f"mimic_joint[{i}]: the joint of body {name(i)} is "
                f"{JOINT_NAMES[int(jtype[i])]}; a mimic joint is revolute, prismatic or helical"
            )
        if int(jtype[k]) != int(jtype[i]):
            raise ValueError(
                f"mimic_joint[{i}]: the {JOINT_NAMES[int(jtype[i])]} joint of body {name(i)} "
                f"mimics the {JOINT_NAMES[int(jtype[k])]} joint of body {name(k)}; a mimic "
                "joint copies a joint of its own type"
            )
    resolved, rm, ro = joint.copy(), mult.copy(), off.copy()
    for i in range(n):
        seen = [i]
        while resolved[i] >= 0 and joint[resolved[i]] >= 0:  # i -> k -> k': resolve to k'
            k = int(resolved[i])
            if k in seen:
                loop = " -> ".join(name(j) for j in seen + [k])
                raise ValueError(f"mimic_joint: the mimic joints form a loop: {loop}")
            seen.append(k)
            rm[i], ro[i] = rm[i] * mult[k], rm[i] * off[k] + ro[i]
            resolved[i] = joint[k]
    rm[resolved < 0], ro[resolved < 0] = 1.0, 0.0
    return {"mimic_joint": resolved, "mimic_multiplier": rm, "mimic_offset": ro}


def mimic_map(model: Any) -> MimicMap | None:
    """The model's :class:`MimicMap`, None without mimic joints."""
    joint = model.mimic_joint
    if not np.any(joint >= 0):
        return None
    G = np.zeros((model.engine_nv, model.nv))
    q_from = np.zeros(model.engine_nq, dtype=np.int64)
    q_scale = np.ones(model.engine_nq)
    q_offset = np.zeros(model.engine_nq)
    for i in range(1, model.nb + 1):
        kind = int(model.joint_type[i])
        eq, ev = int(model.engine_q_index[i]), int(model.engine_v_index[i])
        if eq < 0:
            continue
        k = int(joint[i])
        if k < 0:
            for d in range(JOINT_NQ[kind]):
                q_from[eq + d] = int(model.q_index[i]) + d
            for d in range(JOINT_NV[kind]):
                G[ev + d, int(model.v_index[i]) + d] = 1.0
        else:  # one coordinate, a multiple of body k's
            q_from[eq] = int(model.q_index[k])
            q_scale[eq] = G[ev, int(model.v_index[k])] = model.mimic_multiplier[i]
            q_offset[eq] = model.mimic_offset[i]
    for a in (G, q_from, q_scale, q_offset):
        a.setflags(write=False)
    return MimicMap(G, q_from, q_scale, q_offset)
