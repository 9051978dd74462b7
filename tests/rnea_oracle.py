"""A plain-numpy Newton–Euler oracle that also runs in complex arithmetic (test helper).

The library kernels are compiled for float64 only, so complex-step differentiation
(Squire & Trapp, "Using complex variables to estimate derivatives of real functions",
SIAM Review 40 (1998) 110–112: f'(x) = Im f(x + ih)/h + O(h²), no subtractive
cancellation, so h = 1e-30 is fine) needs its own implementation. This one follows seed 001
Tabla 3.1 (Luh, Walker & Paul 1980), eqs (3.27)–(3.33), in body coordinates, on the public
arrays of an :class:`eslabon.Model` only (``parent``, ``joint_type``, ``q_index``, ``axis``,
``tree_rotation``, ``tree_translation``, ``mass``, ``com``, ``inertia``, ``viscous``,
``coulomb``, ``armature``, ``com_slide``, ``gravity``), never its packed kernel layout:

* body i sits at (R0_i, p0_i) in its parent, then turns by q about the unit ``axis`` (R,
  Rodrigues with ``np.cos``/``np.sin``) or slides by q along it (P);
* outward: ω_i = Eᵀω_p (+ s q̇), ω̇_i = Eᵀω̇_p (+ s q̈ + Eᵀω_p × s q̇),
  a_i = Eᵀ(a_p + ω̇_p × r + ω_p × (ω_p × r)) (+ s q̈ + 2 ω_i × s q̇ for P), a_0 = −g;
* COM c_i = com_i + com_slide_i · q_i · s (seed 001 book mode; a plain offset, no motion);
* F = m (a + ω̇ × c + ω × (ω × c)), N = I ω̇ + ω × I ω; inward f_i = F + Σ E f_child,
  n_i = N + c × F + Σ (E n_child + r × E f_child);
* τ = sᵀn (R) | sᵀf (P) + b q̇ + J_a q̈ + μ sign(Re q̇).

Every operation is holomorphic in (q, q̇, q̈) except the Coulomb sign, which uses the real
part, so its complex-step derivative is 0, as :func:`eslabon.inverse_dynamics_derivatives`
documents.
"""

from __future__ import annotations

import numpy as np

FIXED, REVOLUTE, PRISMATIC = 0, 1, 2


def rodrigues(k, angle):
    """Rotation by ``angle`` (real or complex) about the unit vector ``k``."""
    K = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    return np.eye(3) + np.sin(angle) * K + (1.0 - np.cos(angle)) * (K @ K)


def rnea(model, q, qd, qdd):
    """τ(q, q̇, q̈) for one state (n,); the dtype follows the inputs (float or complex)."""
    q, qd, qdd = (np.asarray(x) for x in (q, qd, qdd))
    dtype = np.result_type(q, qd, qdd, float)
    nb = len(model.parent) - 1
    w = np.zeros((nb + 1, 3), dtype)
    wd = np.zeros((nb + 1, 3), dtype)
    a = np.zeros((nb + 1, 3), dtype)
    a[0] = -np.asarray(model.gravity, float)
    E = np.zeros((nb + 1, 3, 3), dtype)
    r = np.zeros((nb + 1, 3), dtype)
    f = np.zeros((nb + 1, 3), dtype)
    n = np.zeros((nb + 1, 3), dtype)
    zero = np.zeros((), dtype)
    for i in range(1, nb + 1):
        p = int(model.parent[i])
        jt = int(model.joint_type[i])
        k = int(model.q_index[i])
        s = np.asarray(model.axis[i], float)
        qi, qdi, qddi = (q[k], qd[k], qdd[k]) if k >= 0 else (zero, zero, zero)
        R0 = np.asarray(model.tree_rotation[i], float)
        p0 = np.asarray(model.tree_translation[i], float)
        if jt == REVOLUTE:
            E[i], r[i] = R0 @ rodrigues(s, qi), p0
        elif jt == PRISMATIC:
            E[i], r[i] = R0, p0 + R0 @ (qi * s)
        else:
            E[i], r[i] = R0, p0
        Et = E[i].T
        w[i] = Et @ w[p]
        wd[i] = Et @ wd[p]
        a[i] = Et @ (a[p] + np.cross(wd[p], r[i]) + np.cross(w[p], np.cross(w[p], r[i])))
        if jt == REVOLUTE:
            wd[i] = wd[i] + qddi * s + np.cross(w[i], qdi * s)
            w[i] = w[i] + qdi * s
        elif jt == PRISMATIC:
            a[i] = a[i] + qddi * s + 2.0 * np.cross(w[i], qdi * s)
        c = np.asarray(model.com[i], float) + model.com_slide[i] * qi * s
        I = np.asarray(model.inertia[i], float)
        ac = a[i] + np.cross(wd[i], c) + np.cross(w[i], np.cross(w[i], c))
        F = model.mass[i] * ac
        f[i] = F
        n[i] = I @ wd[i] + np.cross(w[i], I @ w[i]) + np.cross(c, F)
    tau = np.zeros(model.nq, dtype)
    for i in range(nb, 0, -1):
        k = int(model.q_index[i])
        if k >= 0:
            s = np.asarray(model.axis[i], float)
            t = s @ (f[i] if model.joint_type[i] == PRISMATIC else n[i])
            tau[k] = (
                t
                + model.viscous[i] * qd[k]
                + model.armature[i] * qdd[k]
                + model.coulomb[i] * np.sign(np.real(qd[k]))
            )
        p = int(model.parent[i])
        if p > 0:
            Ef = E[i] @ f[i]
            f[p] = f[p] + Ef
            n[p] = n[p] + E[i] @ n[i] + np.cross(r[i], Ef)
    return tau


def complex_step_jacobians(model, q, qd, qdd, h=1e-30):
    """(∂τ/∂q, ∂τ/∂q̇, ∂τ/∂q̈) of :func:`rnea` by complex steps, each (n, n), [i, j] = ∂τ_i/∂x_j."""
    x = [np.asarray(v, float).astype(complex) for v in (q, qd, qdd)]
    n = len(x[0])
    out = []
    for which in range(3):
        J = np.empty((n, n))
        for j in range(n):
            args = [v.copy() for v in x]
            args[which][j] += 1j * h
            J[:, j] = rnea(model, *args).imag / h
        out.append(J)
    return tuple(out)
