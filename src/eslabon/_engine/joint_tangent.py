"""Derivatives along the tangent space of spherical and free-flyer joints.

The compiled derivative kernel (:mod:`eslabon.dynamics.derivatives`) differentiates the
chain of rows a joint is packed as (:func:`.layout.joint_rows`): for a spherical joint,
rotations θ₁, θ₂, θ₃ about the body's x, y, z axes after the quaternion, at θ = 0; for a
free flyer, displacements t along those axes first. Its τ_C(θ, θ̇, θ̈) is the torque of
that chain system, whose body velocity is V = E(θ) θ̇ with E(0) = 1: the same torque as
the joint's, τ(q, v, a) = τ_C(0, v, a + c(v)) with c(v) = −Ė(0, v) v (the correction the
kernels add, :func:`.joints.group_correction`). Moving q along the
tangent direction k (q ⊕ ε e_k, :func:`eslabon.integrate`) is θ = ε e_k exactly, while
v and a stay fixed, so θ̇ = E⁻¹ v and θ̈ = E⁻¹ (a − Ė θ̇) change with ε. The chain rule at
ε = 0 gives, with E_k = ∂E/∂θ_k, Q_k = Σ_j (∂²E/∂θ_j ∂θ_k) v_j, M the mass matrix and
a_c = a + c(v):

    ∂τ/∂q_k = ∂τ_C/∂θ_k − E_kᵀ τ − (∂τ_C/∂θ̇) E_k v
              + M (−E_k a_c − Q_k v + Σ_j E_j (E_k v)_j v + Ė(0, v) E_k v),
    ∂τ/∂v   = ∂τ_C/∂θ̇ + M ∂c/∂v,   ∂c/∂v = −Ė(0, v) − [E_1 v … E_n v],

each term only in the rows and columns of the joint's rates (E depends on its θ alone).
For the rows about the body axes e_i (i = 1, 2, 3 in order), column i of E is
(R_{i+1}ᵀ ⋯ R_3ᵀ) e_i with R_j = exp(θ_j [e_j]×), so at θ = 0
∂col_i/∂θ_k = −[e_k]× e_i (k > i), ∂²col_i/∂θ_k² = [e_k]×² e_i and
∂²col_i/∂θ_j∂θ_k = [e_k]×[e_j]× e_i (i < j < k); a free flyer's linear block R(θ)ᵀ has the
same derivatives with every row i = 0 (the displacements come before the rotations).

The chain rule is compiled (:func:`tangent_derivatives_into`, over the nonzero entries of
E_k and E_jk only) and runs right after the derivative pass, in
:mod:`eslabon.dynamics.derivative_drivers`: for one state, from the C fast path and in batches (why:
docs/performance.md, "Floating bases and fixed joints").
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .lanes import sign
from .layout import (
    ARMATURE,
    BY_AXIS,
    BY_POSE,
    COULOMB,
    FREE_FLYER,
    H_NB,
    PLACE,
    SPHERICAL,
    VISCOUS,
)
from .record import rate_index, row_offset

_AXES = np.eye(3)


def _skews(w):
    """[w]× over leading axes: (…, 3) -> (…, 3, 3)."""
    out = np.zeros(w.shape[:-1] + (3, 3))
    out[..., 0, 1], out[..., 0, 2] = -w[..., 2], w[..., 1]
    out[..., 1, 0], out[..., 1, 2] = w[..., 2], -w[..., 0]
    out[..., 2, 0], out[..., 2, 1] = -w[..., 1], w[..., 0]
    return out


_K = list(_skews(_AXES))  # [e_k]×


def _rotation_block():
    """(E_k, E_jk) of the three rotation rows: E_k (3, 3, 3) indexed [k], E_jk
    (3, 3, 3, 3) indexed [j, k], at θ = 0 (module docstring)."""
    Ek = np.zeros((3, 3, 3))
    Ejk = np.zeros((3, 3, 3, 3))
    for i in range(3):
        for k in range(i + 1, 3):
            Ek[k][:, i] = -_K[k] @ _AXES[i]
            Ejk[k, k][:, i] = _K[k] @ _K[k] @ _AXES[i]
            for j in range(i + 1, k):
                Ejk[j, k][:, i] = Ejk[k, j][:, i] = _K[k] @ _K[j] @ _AXES[i]
    return Ek, Ejk


def _linear_block():
    """(L_k, L_jk) of R(θ)ᵀ = R_3ᵀ R_2ᵀ R_1ᵀ at θ = 0 (the free flyer's linear rows)."""
    Lk = np.array([-_K[k] for k in range(3)])
    Ljk = np.zeros((3, 3, 3, 3))
    for k in range(3):
        Ljk[k, k] = _K[k] @ _K[k]
        for j in range(k):
            Ljk[j, k] = Ljk[k, j] = _K[k] @ _K[j]
    return Lk, Ljk


_ROT = _rotation_block()
_LIN = _linear_block()


def _group(kind):
    """(E_k, E_jk) over a joint's rates: 3 for spherical, 6 (linear, angular) for a free
    flyer; derivatives only along the rotation coordinates."""
    Ek3, Ejk3 = _ROT
    if kind == SPHERICAL:
        return Ek3, Ejk3, 3
    Lk, Ljk = _LIN
    Ek = np.zeros((6, 6, 6))
    Ejk = np.zeros((6, 6, 6, 6))
    for k in range(3):
        Ek[3 + k][:3, :3] = Lk[k]
        Ek[3 + k][3:, 3:] = Ek3[k]
        for j in range(3):
            Ejk[3 + j, 3 + k][:3, :3] = Ljk[j, k]
            Ejk[3 + j, 3 + k][3:, 3:] = Ejk3[j, k]
    return Ek, Ejk, 6


def _nonzeros(T):
    """The nonzero entries of the tensor T as rows (indices…, value): the compiled chain
    rule visits only them (E_k and E_jk are mostly zeros)."""
    idx = np.argwhere(T)
    return np.ascontiguousarray(np.column_stack([idx, T[tuple(idx.T)]]), dtype=float)


def _sparse(kind):
    Ek, Ejk, n = _group(kind)
    used = np.array([float(Ek[k].any()) for k in range(n)])
    return _nonzeros(Ek), _nonzeros(Ejk), used


_EK3, _EJK3, _USED3 = _sparse(SPHERICAL)
_EK6, _EJK6, _USED6 = _sparse(FREE_FLYER)
TANGENT_WORK = 6 * 36 + 3 * 6  # floats of scratch :func:`tangent_derivatives_into` takes


def quaternion_groups(model):
    """(v index, kind) of every spherical and free-flyer joint."""
    return [
        (int(model.v_index[i]), int(model.joint_type[i]))
        for i in range(1, model.nb + 1)
        if int(model.joint_type[i]) in (SPHERICAL, FREE_FLYER)
    ]


@njit(cache=True, inline="always")
def _tensors(place):
    """(E_k, E_jk, k used, n) of the joint whose first packed row is placed as
    ``place``: E_k's nonzero entries as rows (k, a, b, value), E_jk's as (j, k, a, b,
    value), and whether E_k is not zero."""
    if place == BY_POSE:
        return _EK6, _EJK6, _USED6, 6
    return _EK3, _EJK3, _USED3, 3


@njit(cache=True)
def chain_acceleration_into(P, qd, qdd, ac):
    """a_c = a + c(v) into ``ac`` (nv,): the accelerations of the chain of rows for the
    joints' (v, a); c(v) = −Ė(0, v) v on the rates of each quaternion joint."""
    for a in range(qdd.shape[0]):
        ac[a] = qdd[a]
    for i in range(1, int(P[H_NB]) + 1):
        o = row_offset(i)
        if P[o + PLACE] == BY_AXIS:
            continue
        Ek, _, _, _ = _tensors(P[o + PLACE])
        s = rate_index(P, o)
        for e in range(Ek.shape[0]):  # Ė(0, v) v = Σ_j E_j v v_j
            j, a, b = int(Ek[e, 0]), int(Ek[e, 1]), int(Ek[e, 2])
            ac[s + a] -= Ek[e, 3] * qd[s + j] * qd[s + b]


@njit(cache=True, inline="always")
def _rate_terms(P, s, n, qd, qdd, bs, Js, taub, tau):
    """For the rates s … s+n−1 of one joint: the viscous coefficient b into ``bs``, the
    rotor inertia J into ``Js`` and τ without friction and rotor inertia,
    τ − b v − μ sign(v) − J a, into ``taub``."""
    for i in range(1, int(P[H_NB]) + 1):
        o = row_offset(i)
        a = rate_index(P, o) - s
        if 0 <= a < n:
            v = qd[s + a]
            bs[a] = P[o + VISCOUS]
            Js[a] = P[o + ARMATURE]
            taub[a] = tau[s + a] - bs[a] * v - P[o + COULOMB] * sign(v) - Js[a] * qdd[s + a]


@njit(cache=True)
def tangent_derivatives_into(P, qd, qdd, tau, M, dq, dv, ac, work):
    """(∂τ/∂q, ∂τ/∂v) in the tangent space, in place: ``dq``, ``dv`` hold the chain's
    derivatives (the kernel's, at a_c = :func:`chain_acceleration_into`) and become the
    joints' (the module docstring). ``tau`` is τ(q, v, a), ``M`` the mass matrix (both
    with friction and rotor inertia), ``work`` a scratch of :data:`TANGENT_WORK` floats.

    Friction and rotor inertia act on the joint's own rates (b v + μ sign(v) + J a, the
    same on the chain's rows at θ = 0, but not along θ), so the chain rule runs on the
    bodies' part alone (τ and M without them, ∂τ_C/∂θ̇ without b); ∂τ/∂q gets nothing
    from them. Each joint changes only its own columns, and reads the chain's ∂τ/∂θ̇ in
    them before it changes them."""
    nv = dq.shape[0]
    Ed = work[0:36].reshape((6, 6))  # Ė(0, v)
    Ev = work[36:72].reshape((6, 6))  # row k: E_k v
    Qv = work[72:108].reshape((6, 6))  # row k: Q_k v
    Ea = work[108:144].reshape((6, 6))  # row k: E_k a_c
    Et = work[144:180].reshape((6, 6))  # row k: E_kᵀ τ
    Dth = work[180:216].reshape((6, 6))  # row k: the chain's θ̈ moved along θ_k
    taub, bs, Js = work[216:222], work[222:228], work[228:234]
    for i in range(1, int(P[H_NB]) + 1):
        o = row_offset(i)
        if P[o + PLACE] == BY_AXIS:
            continue
        Ek, Ejk, used, n = _tensors(P[o + PLACE])
        s = rate_index(P, o)
        _rate_terms(P, s, n, qd, qdd, bs, Js, taub, tau)
        Ed[:] = 0.0
        Ev[:] = 0.0
        Qv[:] = 0.0
        Ea[:] = 0.0
        Et[:] = 0.0
        for e in range(Ek.shape[0]):
            k, a, b, x = int(Ek[e, 0]), int(Ek[e, 1]), int(Ek[e, 2]), Ek[e, 3]
            Ed[a, b] += x * qd[s + k]
            Ev[k, a] += x * qd[s + b]
            Ea[k, a] += x * ac[s + b]
            Et[k, b] += x * taub[a]
        for e in range(Ejk.shape[0]):
            j, k, a, b = int(Ejk[e, 0]), int(Ejk[e, 1]), int(Ejk[e, 2]), int(Ejk[e, 3])
            Qv[k, a] += Ejk[e, 4] * qd[s + j] * qd[s + b]
        for k in range(n):
            if used[k] == 0.0:
                continue
            for a in range(n):
                t = -Ea[k, a] - Qv[k, a]
                for b in range(n):
                    t += Ed[a, b] * Ev[k, b] + Ev[k, b] * Ev[b, a]
                Dth[k, a] = t
            col = s + k
            for a in range(n):
                dq[s + a, col] -= Et[k, a]
            for r in range(nv):
                t = 0.0
                for c in range(n):
                    t += M[r, s + c] * Dth[k, c] - dv[r, s + c] * Ev[k, c]
                if s <= r < s + n:  # the bodies' part alone on the joint's diagonal
                    t += -Js[r - s] * Dth[k, r - s] + bs[r - s] * Ev[k, r - s]
                dq[r, col] += t
        G = Qv  # ∂c/∂v = −Ė(0, v) − [E_1 v … E_n v] (Qv is no longer needed)
        for d in range(n):
            for c in range(n):
                G[d, c] = -Ed[d, c] - Ev[c, d]
        for r in range(nv):
            for c in range(n):
                t = 0.0
                for d in range(n):
                    t += M[r, s + d] * G[d, c]
                if s <= r < s + n:
                    t -= Js[r - s] * G[r - s, c]
                dv[r, s + c] += t


@njit(cache=True)
def drift_into(P, qd, A):
    """A[:nv, :nv] += −ad(v) on the rates of each spherical and free-flyer joint
    (:func:`tangent_drift`, compiled: the linearization's upper-left block)."""
    for i in range(1, int(P[H_NB]) + 1):
        o = row_offset(i)
        if P[o + PLACE] == BY_AXIS:
            continue
        s = rate_index(P, o)
        w = s + 3 if P[o + PLACE] == BY_POSE else s  # the angular rates
        _minus_skew_into(A, s, s, qd, w)
        if P[o + PLACE] == BY_POSE:
            _minus_skew_into(A, s, s + 3, qd, s)
            _minus_skew_into(A, s + 3, s + 3, qd, w)


@njit(cache=True, inline="always")
def _minus_skew_into(A, r, c, x, k):
    """A[r:r+3, c:c+3] += −[x_k]× for the 3-vector x[k:k+3]."""
    A[r, c + 1] += x[k + 2]
    A[r, c + 2] -= x[k + 1]
    A[r + 1, c] -= x[k + 2]
    A[r + 1, c + 2] += x[k]
    A[r + 2, c] += x[k + 1]
    A[r + 2, c + 1] -= x[k]


def tangent_drift(model, qd):
    """−ad(v) over the rates of spherical and free-flyer joints, zero elsewhere: (…, nv,
    nv). A configuration perturbed as q = q̄ ⊕ ξ along a motion of rates v̄ moves as
    ξ̇ = δv − ad(v̄) ξ to first order (q̇ = q v on the group: Ad(exp(−ξ)) v̄ + J_r(ξ) ξ̇ = v),
    with ad(ω) ξ = ω × ξ on SO(3) and ad(u, ω)(ξ_p, ξ_φ) = (ω × ξ_p + u × ξ_φ, ω × ξ_φ) on
    SE(3) (linear part first); for vector coordinates the block is zero (ξ̇ = δv)."""
    qd = np.asarray(qd, dtype=float)
    out = np.zeros(qd.shape + (model.nv,))
    for s, kind in quaternion_groups(model):
        if kind == SPHERICAL:
            w = qd[..., s : s + 3]
            out[..., s : s + 3, s : s + 3] = -_skews(w)
        else:
            u, w = qd[..., s : s + 3], qd[..., s + 3 : s + 6]
            out[..., s : s + 3, s : s + 3] = -_skews(w)
            out[..., s : s + 3, s + 3 : s + 6] = -_skews(u)
            out[..., s + 3 : s + 6, s + 3 : s + 6] = -_skews(w)
    return out
