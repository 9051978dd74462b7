"""Gibbs–Appell dynamics of a fixed-base chain (seed 003, Araujo 2012, Ch. II–III).

The Gibbs function of the bodies, without the terms free of accelerations (2.25),

    S = Σ_i ½ m_i r̈_Giᵀ r̈_Gi + ½ ω̇_iᵀ I_Gi ω̇_i + ω̇_iᵀ (ω_i × I_Gi ω_i)

is quadratic in q̈: S = ½ q̈ᵀ D q̈ + φᵀ q̈ + f (3.34), and the equations of motion are
∂S/∂q̈ = τ, i.e. D q̈ + φ = τ (3.35) and q̈ = D⁻¹(τ − φ) (3.36), with

    D_jk = Σ_i m_i (∂r̈_Gi/∂q̈_j)ᵀ(∂r̈_Gi/∂q̈_k) + (∂ω̇_i/∂q̈_j)ᵀ I_Gi (∂ω̇_i/∂q̈_k)      (3.38)
    φ_j  = Σ_i m_i r̈⁰_Giᵀ ∂r̈_Gi/∂q̈_j + (∂ω̇_i/∂q̈_j)ᵀ (I_Gi ω̇⁰_i + ω_i × I_Gi ω_i)   (Step 6)

where ⁰ marks the accelerations at q̈ = 0 with the base accelerating at −g (gravity).
The partials are propagated outward in each link's own frame, as the thesis does
(3.39–3.51), here for revolute and prismatic joints about any axis s_i:

    ∂ω̇_i/∂q̈_j = E_iᵀ ∂ω̇_p/∂q̈_j  (+ s_i for j = i, revolute)
    ∂r̈_Oi/∂q̈_j = E_iᵀ (∂r̈_Op/∂q̈_j + ∂ω̇_p/∂q̈_j × r_i)  (+ s_i for j = i, prismatic)
    ∂r̈_Gi/∂q̈_j = ∂r̈_Oi/∂q̈_j + ∂ω̇_i/∂q̈_j × c_i

(E_i, r_i: body i's rotation and origin in its parent p; c_i: its centre of mass). The
thesis's simplified bias (3.52–3.56) drops the q̇ terms; its Step 6, used here, keeps them.
Armature adds to D's diagonal and joint friction to φ, as in Newton–Euler.

A numpy reference formulation (loops over bodies; O(n²) partials, O(n³) solve), for trees
as well as chains. The mobile-manipulator version (quasi-velocities with rolling
constraints) builds on the same Gibbs function.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.linalg import cho_factor, cho_solve

from .._args import require_finite, vectors
from .._engine.joint_types import subspace
from ..kinematics.kinematic_pass import kinematic_pass
from ..spatial.rotations import skew


class GibbsAppellTerms(NamedTuple):
    """D (n, n), φ (n,), and the partials ∂ω̇_i/∂q̈ and ∂r̈_Gi/∂q̈ of bodies 1..nb, each
    (nb, 3, n) in the body's own frame."""

    D: np.ndarray
    phi: np.ndarray
    d_omega_dot: np.ndarray
    d_com_accel: np.ndarray


def _partials(model, motion, base_partials=None):
    """The recursive partials (3.39–3.51) from one state's :class:`KinematicPass`.
    ``base_partials`` = (∂ω̇_0/∂ν̇, ∂r̈_0/∂ν̇), each (3, k), prepends k columns for the
    quasi-accelerations that move the base (a mobile platform); the joint columns follow
    them."""
    nb, n = model.nb, model.nq
    k0 = 0 if base_partials is None else base_partials[0].shape[1]
    dw = np.zeros((nb + 1, 3, k0 + n))
    dro = np.zeros((nb + 1, 3, k0 + n))
    drg = np.zeros((nb + 1, 3, k0 + n))
    if base_partials is not None:
        dw[0, :, :k0], dro[0, :, :k0] = base_partials
    for i in range(1, nb + 1):
        p = int(model.parent[i])
        E = motion.parent_rotation[i]
        r = motion.parent_translation[i]
        dw[i] = E.T @ dw[p]
        dro[i] = E.T @ (dro[p] - skew(r) @ dw[p])  # ∂ω̇_p/∂q̈ × r
        k = model.q_index[i]
        if k >= 0:
            S = subspace(model.joint_type[i], model.axis[i])[:, 0]
            dw[i][:, k0 + k] += S[:3]
            dro[i][:, k0 + k] += S[3:]
        drg[i] = dro[i] - skew(model.com[i]) @ dw[i]
    return dw[1:], drg[1:]


def _check_rigid(model):
    model.require_rigid_links("the Gibbs function")


def chain_terms(model, motion, qd, gravity, base_partials=None) -> GibbsAppellTerms:
    """D and φ of the chain's bodies from one state's kinematic pass at q̈ = 0
    (:class:`~eslabon.kinematics.KinematicPass`: ω, ω̇⁰, r̈⁰_O; base motion included when
    the base moves), ``gravity`` (3,) in the base frame, and the base's quasi-acceleration
    partials ``base_partials`` (see :func:`_partials`). The first k rows/columns of D
    belong to the base's quasi-accelerations, the rest to the joints; armature and joint
    friction act on the joint block only."""
    model.require_one_dof_joints("the Gibbs–Appell formulation (seed 003)")
    _check_rigid(model)
    dw, drg = _partials(model, motion, base_partials)
    k0 = dw.shape[2] - model.nq
    D = np.zeros((k0 + model.nq, k0 + model.nq))
    phi = np.zeros(k0 + model.nq)
    qd = np.asarray(qd, dtype=float)
    D[k0:, k0:] += np.diag(model.armature[model.dof_bodies])
    phi[k0:] += model.viscous[model.dof_bodies] * qd + model.coulomb[model.dof_bodies] * np.sign(qd)
    for i in range(1, model.nb + 1):
        m, c, I = model.mass[i], model.com[i], model.inertia[i]
        w, wd0 = motion.angular_velocity[i], motion.angular_acceleration[i]
        g_body = motion.world_rotation[i].T @ gravity
        # r̈⁰_G − g: the base accelerates at −g (Luh's gravity), in body i's frame
        W = skew(w)
        rg0 = motion.linear_acceleration[i] + skew(wd0) @ c + W @ (W @ c) - g_body
        Jw, Jr = dw[i - 1], drg[i - 1]
        D += m * Jr.T @ Jr + Jw.T @ I @ Jw  # (3.38)
        phi += m * Jr.T @ rg0 + Jw.T @ (I @ wd0 + W @ (I @ w))  # Step 6
    return GibbsAppellTerms(D, phi, dw, drg)


def _one(model, q, qd):
    require_finite("gibbs_appell", q=q, qd=qd)
    motion = kinematic_pass(model, q, qd, np.zeros_like(q))  # q̈ = 0: ω, ω̇⁰, r̈⁰_O
    return chain_terms(model, motion, qd, model.gravity)


def gibbs_appell_terms(model, q, qd) -> GibbsAppellTerms:
    """D(q), φ(q, q̇) and the partials at one state (n,)."""
    model.require_one_dof_joints("the Gibbs–Appell formulation (seed 003)")
    (q, qd), batched = vectors(model.nq, q=q, qd=qd)
    if batched:
        raise ValueError(
            "q: gibbs_appell_terms takes one state; inverse_dynamics and "
            "forward_dynamics take batches"
        )
    return _one(model, q, qd)


def _each(model, what, one, **fields):
    """Check the states (n,) or (N, n), then apply ``one`` to each."""
    values, batched = vectors(model.nq, **fields)
    require_finite(what, **dict(zip(fields, values, strict=True)))
    if batched:
        return np.array([one(*x) for x in zip(*values, strict=True)])
    return one(*values)


def inverse_dynamics(model, q, qd, qdd):
    """τ = ∂S/∂q̈ = D q̈ + φ (3.35), one state (n,) or a batch (N, n)."""
    model.require_one_dof_joints("the Gibbs–Appell formulation (seed 003)")

    def one(q, qd, qdd):
        t = _one(model, q, qd)
        return t.D @ qdd + t.phi

    return _each(model, "inverse_dynamics", one, q=q, qd=qd, qdd=qdd)


def forward_dynamics(model, q, qd, tau):
    """q̈ = D⁻¹(τ − φ) (3.36) by Cholesky, one state (n,) or a batch (N, n)."""
    model.require_one_dof_joints("the Gibbs–Appell formulation (seed 003)")

    def one(q, qd, tau):
        t = _one(model, q, qd)
        try:
            return cho_solve(cho_factor(t.D), tau - t.phi)
        except np.linalg.LinAlgError:
            raise ValueError(
                "q: the mass matrix is not positive definite at this "
                "configuration (a joint moves no mass)"
            ) from None

    return _each(model, "forward_dynamics", one, q=q, qd=qd, tau=tau)


def gibbs_function(model, q, qd, qdd):
    """The Gibbs function S(q, q̇, q̈) itself (Araujo 2012, eq. 2.25): a float for one state
    (n,), (N,) for a batch (N, n).

    S = Σᵢ ½ mᵢ r̈_Giᵀ r̈_Gi + ½ ω̇ᵢᵀ I_Gi ω̇ᵢ + ω̇ᵢᵀ (ωᵢ × I_Gi ωᵢ) + Σⱼ ½ Iₐⱼ q̈ⱼ², the
    "acceleration energy" of the bodies with the terms free of q̈ that (2.25) drops kept,
    gravity entering as the base's acceleration −g (as Luh's Newton–Euler and this
    module's φ take it), and each rotor's ½ Iₐ q̈² (armature). It is quadratic in q̈,
    S = ½ q̈ᵀ D q̈ + φ₀ᵀ q̈ + f (3.34), so its gradient ∂S/∂q̈ = D q̈ + φ₀ is the torque
    the joints need without friction (Appell's equations, ∂S/∂q̈ = τ − τ_friction) and
    its Hessian is the mass matrix D.

    Parameters
    ----------
    model : Model
        A chain or tree of rigid bodies on one-rate joints.
    q, qd, qdd : array_like (n,) or (N, n)
        Joint coordinates, rates and accelerations.

    Returns
    -------
    float or numpy.ndarray (N,)
        S [kg·m²/s⁴ = W/s].

    Raises
    ------
    ValueError
        A model with multi-rate joints or non-rigid links; states of the wrong length or
        not finite.

    Examples
    --------
    A point mass m at length l on a horizontal joint, no gravity, at rest: S = ½ m l² q̈².

    >>> import eslabon as es
    >>> from eslabon.dynamics import gibbs_function
    >>> arm = es.zoo.load("planar2").replace(gravity=(0.0, 0.0, 0.0))
    >>> S = gibbs_function(arm, [0.0, 0.0], [0.0, 0.0], [2.0, 0.0])
    >>> M = es.mass_matrix(arm, [0.0, 0.0])
    >>> bool(abs(S - 0.5 * M[0, 0] * 2.0**2) < 1e-12)
    True
    """
    model.require_one_dof_joints("the Gibbs function (seed 003)")
    _check_rigid(model)

    def one(q, qd, qdd):
        motion = kinematic_pass(model, q, qd, qdd)
        R = motion.world_rotation[1:]
        g = np.einsum("bji,j->bi", R, model.gravity)  # gravity in each body's axes
        w, wd = motion.angular_velocity[1:], motion.angular_acceleration[1:]
        c, m, I = model.com[1:], model.mass[1:], model.inertia[1:]
        r_gg = motion.linear_acceleration[1:] + np.cross(wd, c) + np.cross(w, np.cross(w, c)) - g
        Iw, Iwd = np.einsum("bij,bj->bi", I, w), np.einsum("bij,bj->bi", I, wd)
        bodies = 0.5 * m * np.sum(r_gg * r_gg, -1) + 0.5 * np.sum(wd * Iwd, -1)
        bodies = bodies + np.sum(wd * np.cross(w, Iw), -1)
        rotors = 0.5 * model.armature[model.dof_bodies] @ (qdd * qdd)
        return float(bodies.sum() + rotors)

    return _each(model, "gibbs_function", one, q=q, qd=qd, qdd=qdd)
