"""A Coriolis matrix C(q, q̇) with C q̇ = the velocity-product torques and Ṁ − 2C skew.

Built in world coordinates from the body Jacobians (Echeandia & Wensing 2021, the
spatial form of the Christoffel construction). With J_b the 6×n world Jacobian of body b
(columns S_k = the world motion axis of each ancestor joint), J̇_b columns V_k × S_k, M_b
the body's 6×6 spatial inertia about the world origin and V_b its spatial velocity:

    C = Σ_b J_bᵀ (M_b J̇_b + B_b) J_b,      B_b = ½ (V_b×* M_b − M_b V_b× + (M_b V_b)×̄)

where h×̄ is the matrix with V×* h = (h×̄) V. Then C q̇ = Σ J_bᵀ(M_b J̇_b q̇ + V_b×* M_b V_b)
and Ṁ − 2C = Σ (J̇ᵀMJ − JᵀMJ̇) − Jᵀ (M V)×̄ J, which is skew-symmetric.
Spatial vectors are [angular; linear]. Rigid links only (no seed-001 sliding COM).

A spherical or free-flyer joint is a short chain of rows in the kernels
(:func:`eslabon._engine.layout.joint_rows`) whose axes are all fixed in the joint's body:
every column of such a joint turns with the body, S_k̇ = V_body × S_k, not with the
velocity its row would have in the chain (which lacks the rates of the rows after it).
With that J̇, the same C gives C v = the velocity-product torques and Ṁ − 2C skew in the
tangent space (v the joints' rates in body axes).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._engine.joints import joint, world_axis
from .._engine.layout import (
    BY_AXIS,
    BY_QUATERNION,
    H_NB,
    H_NV,
    HEADER,
    INERTIA,
    MASS,
    PLACE,
    STRIDE,
    VIDX,
)
from .._engine.status import NON_FINITE, OK
from .._engine.tuples import add, cross, m9, mm, mv, v3
from ..kinematics.recursion import WS_C, WS_PW, WS_RW, WS_V, WS_W, forward_pass


@njit(cache=True)
def _skew_into(A, r0, c0, v, s):
    A[r0, c0 + 1] += -s * v[2]
    A[r0, c0 + 2] += s * v[1]
    A[r0 + 1, c0] += s * v[2]
    A[r0 + 1, c0 + 2] += -s * v[0]
    A[r0 + 2, c0] += -s * v[1]
    A[r0 + 2, c0 + 1] += s * v[0]


@njit(cache=True)
def coriolis_into(P, q, qd, ws, C, extended):
    """C(q, q̇) of one state into ``C`` (n, n); ``ws`` the kinematic workspace;
    ``extended`` the joint set (:mod:`eslabon._engine.joints`). Status OK or NON_FINITE
    (:mod:`eslabon._engine.status`)."""
    nb = int(P[H_NB])
    nq = int(P[H_NV])
    forward_pass(P, q, qd, qd, 0.0, ws, extended, poses=True)
    # world velocity V per row; world motion axis S and its rate V × S for every joint
    S = np.zeros((nb + 1, 6))
    Sd = np.zeros((nb + 1, 6))
    V = np.zeros((nb + 1, 6))
    for i in range(1, nb + 1):
        row = ws[i]
        Rw = m9(row, WS_RW)
        pw = v3(row, WS_PW)
        w = mv(Rw, v3(row, WS_W))
        v = add(mv(Rw, v3(row, WS_V)), cross(pw, w))
        for a in range(3):
            V[i, a] = w[a]
            V[i, 3 + a] = v[a]
    group_end = 0  # the last row (the body) of the quaternion joint being walked
    for i in range(1, nb + 1):
        o = HEADER + i * STRIDE
        row = ws[i]
        Rw = m9(row, WS_RW)
        pw = v3(row, WS_PW)
        w = (V[i, 0], V[i, 1], V[i, 2])
        v = (V[i, 3], V[i, 4], V[i, 5])
        if extended is not None:
            if P[o + PLACE] != BY_AXIS:  # its axes turn with its body, the group's last row
                group_end = i + (2 if P[o + PLACE] == BY_QUATERNION else 5)
            if i <= group_end:
                w = (V[group_end, 0], V[group_end, 1], V[group_end, 2])
                v = (V[group_end, 3], V[group_end, 4], V[group_end, 5])
        if int(P[o + VIDX]) >= 0:
            s_ang, s_lin = world_axis(joint(P, o), Rw, pw, extended)
            sd_ang = cross(w, s_ang)
            sd_lin = add(cross(w, s_lin), cross(v, s_ang))
            for a in range(3):
                S[i, a] = s_ang[a]
                S[i, 3 + a] = s_lin[a]
                Sd[i, a] = sd_ang[a]
                Sd[i, 3 + a] = sd_lin[a]
    for a in range(nq):
        for b in range(nq):
            C[a, b] = 0.0
    J = np.zeros((6, nq))
    Jd = np.zeros((6, nq))
    Mb = np.zeros((6, 6))
    B = np.zeros((6, 6))
    Vx = np.zeros((6, 6))
    Vxs = np.zeros((6, 6))
    for bdy in range(1, nb + 1):
        o = HEADER + bdy * STRIDE
        m = P[o + MASS]
        row = ws[bdy]
        Rw = m9(row, WS_RW)
        c = add(v3(row, WS_PW), mv(Rw, v3(row, WS_C)))
        Ic = mm(
            Rw,
            mm(m9(P, o + INERTIA), (Rw[0], Rw[3], Rw[6], Rw[1], Rw[4], Rw[7], Rw[2], Rw[5], Rw[8])),
        )
        # spatial inertia about the world origin: [[Ic − m c×c×, m c×], [−m c×, m 1]]
        Mb[:, :] = 0.0
        cc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2]
        for a in range(3):
            for b in range(3):
                delta = 1.0 if a == b else 0.0
                Mb[a, b] = Ic[3 * a + b] + m * (cc * delta - c[a] * c[b])
            Mb[3 + a, 3 + a] = m
        _skew_into(Mb, 0, 3, c, m)
        _skew_into(Mb, 3, 0, c, -m)
        # Jacobian columns of the ancestors of bdy
        J[:, :] = 0.0
        Jd[:, :] = 0.0
        k = bdy
        while k > 0:
            j = int(P[HEADER + k * STRIDE + VIDX])
            if j >= 0:
                for a in range(6):
                    J[a, j] = S[k, a]
                    Jd[a, j] = Sd[k, a]
            k = int(P[HEADER + k * STRIDE])
        w = (V[bdy, 0], V[bdy, 1], V[bdy, 2])
        v = (V[bdy, 3], V[bdy, 4], V[bdy, 5])
        Vx[:, :] = 0.0
        _skew_into(Vx, 0, 0, w, 1.0)
        _skew_into(Vx, 3, 3, w, 1.0)
        _skew_into(Vx, 3, 0, v, 1.0)
        Vxs[:, :] = 0.0
        _skew_into(Vxs, 0, 0, w, 1.0)
        _skew_into(Vxs, 3, 3, w, 1.0)
        _skew_into(Vxs, 0, 3, v, 1.0)
        h = Mb @ V[bdy]
        B[:, :] = Vxs @ Mb - Mb @ Vx
        hn = (h[0], h[1], h[2])
        hf = (h[3], h[4], h[5])
        _skew_into(B, 0, 0, hn, -1.0)
        _skew_into(B, 0, 3, hf, -1.0)
        _skew_into(B, 3, 0, hf, -1.0)
        B *= 0.5
        C += J.T @ (Mb @ Jd + B @ J)
    return OK if np.isfinite(C).all() else NON_FINITE
