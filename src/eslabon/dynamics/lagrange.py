"""The Euler–Lagrange model of seed 000 (Rojas 1987, §4.3): explicit I(θ), C(θ, θ̇), b(θ).

    f* = I(θ) θ̈ + C(θ, θ̇) θ̇ + b(θ)                                       (4.3.33)

built, body by body, from the Jacobians of each centre of mass r_i and angular velocity
ω_i (world axes, "frame 1"):

    R_i = ∂r_i/∂θ:  column j = e_j × (r_i − O_j)  (R)   e_j  (P)   0 if j is not inboard of i
    A_i = ∂ω_i/∂θ̇:  column j = e_j  (R)   0  (P)                               (4.3.7–8)
    I(θ) = Σ_i m_i R_iᵀ R_i + A_iᵀ I_i A_i,   I_i = P_i I_ci P_iᵀ              (4.3.12)
    C    = Σ_i m_i R_iᵀ Ṙ_i + A_iᵀ I_i Ȧ_i + A_iᵀ [ω_i]× I_i A_i                (4.3.34a)
    b    = −(Σ_i m_i R_i)ᵀ g                                                   (4.3.34b)

The thesis writes the last term of C as A_iωᵀ I_i A_i with A_iω = [e₁ × ω_i, …] =
−[ω_i]× A_i: the same matrix. Ṙ_i and Ȧ_i are time derivatives of the columns, computed
here directly as ė_j × (r_i − O_j) + e_j × (ṙ_i − Ȯ_j) and ė_j = ω_j × e_j, which equals
the thesis's sum of second partials (4.3.35–36) contracted with θ̇. With this C,
İ − 2C is skew-symmetric. Rotor inertia (armature) adds to the diagonal of I and joint
friction (viscous, Coulomb) to f*, as in :mod:`.rnea`, so both give the same torques.

An O(n³) reference model, written with numpy over a batch (no compiled kernel): use it
when the matrices themselves are wanted (linearization, teaching); for torques alone
recursive Newton–Euler is cheaper (seed 000 §4.4: 852 against 1896 multiplications).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.linalg import cho_factor, cho_solve

from .._args import require_finite, vectors
from .._engine.joint_types import rotates
from ..kinematics.kinematic_pass import kinematic_pass


class LagrangeTerms(NamedTuple):
    """The thesis's matrices at (θ, θ̇); leading axes follow the input batch.

    mass_matrix I (…, n, n); coriolis C (…, n, n); gravity b (…, n); friction (…, n);
    com_jacobians R_i (…, nb, 3, n) and angular_jacobians A_i (…, nb, 3, n) of bodies 1..nb.
    """

    mass_matrix: np.ndarray
    coriolis: np.ndarray
    gravity: np.ndarray
    friction: np.ndarray
    com_jacobians: np.ndarray
    angular_jacobians: np.ndarray


def _inboard(model):
    """(nb, n) mask: joint j moves body i (its body is i or an ancestor of i)."""
    mask = np.zeros((model.nb, model.nq), dtype=bool)
    for i in range(1, model.nb + 1):
        b = i
        while b > 0:
            k = model.q_index[b]
            if k >= 0:
                mask[i - 1, k] = True
            b = int(model.parent[b])
    return mask


def _cross(a, b):
    return np.cross(a, b, axisa=-2, axisb=-2, axisc=-2)


def lagrange_terms(model, q, qd) -> LagrangeTerms:
    """I(θ), C(θ, θ̇), b(θ) and the friction torques at one state (n,) or a batch (N, n)."""
    model.require_rigid_links("the Lagrange model")
    model.require_one_dof_joints("the Lagrange model (seed 000)")
    (q, qd), _ = vectors(model.nq, q=q, qd=qd)
    require_finite("lagrange_terms", q=q, qd=qd)
    motion = kinematic_pass(model, q, qd)
    Rw = motion.world_rotation[..., 1:, :, :]  # bodies 1..nb
    lead = Rw.shape[:-2]  # (…, nb)
    origin = motion.world_position[..., 1:, :]
    w = (Rw @ motion.angular_velocity[..., 1:, :, None])[..., 0]  # ω_i, world axes
    v = (Rw @ motion.linear_velocity[..., 1:, :, None])[..., 0]  # velocity of O_i
    c = (Rw @ model.com[1:, :, None])[..., 0]  # P_i ρ_i
    r, r_dot = origin + c, v + np.cross(w, c)  # r_i (4.3.5) and ṙ_i
    I_world = Rw @ model.inertia[1:] @ np.swapaxes(Rw, -1, -2)  # (4.3.10)

    dof_body = model.dof_bodies - 1  # row of each joint's body
    rev = rotates(model.joint_type[model.dof_bodies])
    e = (Rw[..., dof_body, :, :] @ model.axis[model.dof_bodies, :, None])[..., 0]  # (…, n, 3)
    e_dot = np.cross(w[..., dof_body, :], e)
    O, O_dot = origin[..., dof_body, :], v[..., dof_body, :]
    inboard = _inboard(model)[:, None, :]  # (nb, 1, n)

    # (4.3.7–8) columns, laid out (…, nb, 3, n)
    e_cols, ed_cols = (
        np.swapaxes(e, -1, -2)[..., None, :, :],
        np.swapaxes(e_dot, -1, -2)[..., None, :, :],
    )
    lever = r[..., :, :, None] - np.swapaxes(O, -1, -2)[..., None, :, :]
    lever_dot = r_dot[..., :, :, None] - np.swapaxes(O_dot, -1, -2)[..., None, :, :]
    R_i = np.where(rev, _cross(e_cols, lever), e_cols) * inboard
    R_dot = np.where(rev, _cross(ed_cols, lever) + _cross(e_cols, lever_dot), ed_cols) * inboard
    A_i = e_cols * (rev * inboard)
    A_dot = ed_cols * (rev * inboard)

    m = model.mass[1:, None, None]
    IA = I_world @ A_i
    RT = np.swapaxes(R_i, -1, -2)
    AT = np.swapaxes(A_i, -1, -2)
    M = np.sum(m * (RT @ R_i) + AT @ IA, axis=-3)  # (4.3.12)
    M = M + np.diag(model.armature[model.dof_bodies])
    wx = np.zeros(lead + (3, 3))
    wx[..., 0, 1], wx[..., 0, 2], wx[..., 1, 2] = -w[..., 2], w[..., 1], -w[..., 0]
    wx = wx - np.swapaxes(wx, -1, -2)
    C = np.sum(m * (RT @ R_dot) + AT @ (I_world @ A_dot) + AT @ (wx @ IA), axis=-3)  # (4.3.34a)
    b = -np.einsum("...ian,i,a->...n", R_i, model.mass[1:], model.gravity)  # (4.3.34b)
    fr = model.viscous[model.dof_bodies] * qd + model.coulomb[model.dof_bodies] * np.sign(qd)
    return LagrangeTerms(M, C, b, fr, R_i, A_i)


def inverse_dynamics(model, q, qd, qdd):
    """f* = I θ̈ + C θ̇ + b + friction (4.3.33), one state (n,) or a batch (N, n)."""
    model.require_one_dof_joints("the Lagrange model (seed 000)")
    (q, qd, qdd), _ = vectors(model.nq, q=q, qd=qd, qdd=qdd)
    require_finite("inverse_dynamics", q=q, qd=qd, qdd=qdd)
    t = lagrange_terms(model, q, qd)
    return (
        ((t.mass_matrix @ qdd[..., None]) + (t.coriolis @ qd[..., None]))[..., 0]
        + t.gravity
        + t.friction
    )


def forward_dynamics(model, q, qd, tau):
    """θ̈ = I⁻¹ (f* − C θ̇ − b − friction) by Cholesky (4.5.1; LINPACK in the thesis)."""
    model.require_one_dof_joints("the Lagrange model (seed 000)")
    (q, qd, tau), batched = vectors(model.nq, q=q, qd=qd, tau=tau)
    require_finite("forward_dynamics", q=q, qd=qd, tau=tau)
    t = lagrange_terms(model, q, qd)
    rhs = tau - (t.coriolis @ qd[..., None])[..., 0] - t.gravity - t.friction
    M = t.mass_matrix
    if not batched:
        M, rhs = M[None], rhs[None]
    out = np.empty_like(rhs)
    for s in range(len(M)):
        try:
            out[s] = cho_solve(cho_factor(M[s]), rhs[s])
        except np.linalg.LinAlgError:
            raise ValueError(
                "q: the mass matrix is not positive definite at this "
                "configuration (a joint moves no mass)"
            ) from None
    return out if batched else out[0]
