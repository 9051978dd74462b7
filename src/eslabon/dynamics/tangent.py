"""Derivatives along the tangent space of spherical and free-flyer joints.

The compiled derivative kernel (:mod:`.derivatives`) differentiates the chain of rows a
joint is packed as (:func:`eslabon._engine.layout.joint_rows`): for a spherical joint,
rotations θ₁, θ₂, θ₃ about the body's x, y, z axes after the quaternion, at θ = 0; for a
free flyer, displacements t along those axes first. Its τ_C(θ, θ̇, θ̈) is the torque of
that chain system, whose body velocity is V = E(θ) θ̇ with E(0) = 1: the same torque as
the joint's, τ(q, v, a) = τ_C(0, v, a + c(v)) with c(v) = −Ė(0, v) v (the correction the
kernels add, :func:`eslabon._engine.joints.group_correction`). Moving q along the
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
"""

from __future__ import annotations

import numpy as np

from .._engine.layout import FREE_FLYER, SPHERICAL

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


def quaternion_groups(model):
    """(v index, kind) of every spherical and free-flyer joint."""
    return [
        (int(model.v_index[i]), int(model.joint_type[i]))
        for i in range(1, model.nb + 1)
        if int(model.joint_type[i]) in (SPHERICAL, FREE_FLYER)
    ]


def chain_acceleration(model, qd, qdd):
    """a_c = a + c(v): the accelerations of the chain of rows for the joint's (v, a)."""
    out = np.array(qdd, dtype=float)
    for s, kind in quaternion_groups(model):
        Ek, _, n = _group(kind)
        v = qd[s : s + n]
        out[s : s + n] -= np.einsum("jab,j,b->a", Ek, v, v)  # −Ė(0, v) v
    return out


def tangent_derivatives(model, qd, qdd, tau, M, dq_chain, dv_chain, a_chain):
    """(∂τ/∂q, ∂τ/∂v) in the tangent space from the chain's derivatives (one state; the
    module docstring). ``tau`` is τ(q, v, a), ``M`` the mass matrix, ``a_chain`` =
    :func:`chain_acceleration`.

    Friction and rotor inertia act on the joint's own rates (b v + μ sign(v) + J a, the
    same on the chain's rows at θ = 0, but not along θ), so the chain rule runs on the
    bodies' part alone (τ and M without them, ∂τ_C/∂θ̇ without b) and b is added back to
    ∂τ/∂v; ∂τ/∂q gets nothing from them."""
    rows = model.dof_bodies
    b, J = model.viscous[rows], model.armature[rows]
    tau = tau - b * qd - model.coulomb[rows] * np.sign(qd) - J * qdd
    M = M - np.diag(J)
    dv_chain = dv_chain - np.diag(b)
    dq = np.array(dq_chain, dtype=float)
    dv = np.array(dv_chain, dtype=float)
    for s, kind in quaternion_groups(model):
        Ek, Ejk, n = _group(kind)
        g = slice(s, s + n)
        v, ac = qd[g], a_chain[g]
        Ed = np.einsum("jab,j->ab", Ek, v)  # Ė(0, v)
        Ev = np.einsum("jab,b->ja", Ek, v)  # row j: E_j v
        dv[:, g] += M[:, g] @ (-Ed - Ev.T)
        for k in range(n):
            if not Ek[k].any():
                continue
            Ekv = Ek[k] @ v
            Qk = np.einsum("jab,j->ab", Ejk[:, k], v)
            dtheta = -Ek[k] @ ac - Qk @ v
            dtheta += np.einsum("jab,j,b->a", Ek, Ekv, v) + Ed @ Ekv
            col = dq[:, s + k]
            col[g] -= Ek[k].T @ tau[g]
            col -= dv_chain[:, g] @ Ekv
            col += M[:, g] @ dtheta
    return dq, dv + np.diag(b)


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
