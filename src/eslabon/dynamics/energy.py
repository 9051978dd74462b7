"""Kinetic and potential energy from the body motions (independent of the mass matrix):

T = Σ_i ½ (m_i |v_ci|² + ω_iᵀ I_i ω_i) + Σ_j ½ J_a,j q̇_j²,    v_ci = v_i + ω_i × c_i
V = −Σ_i m_i gᵀ p_ci     (zero at the world origin)
"""

from __future__ import annotations

import math

from numba import njit

from .._engine.layout import ARMATURE, H_GRAVITY, H_NB, HEADER, INERTIA, MASS, STRIDE, VIDX
from .._engine.status import NON_FINITE, OK
from .._engine.tuples import add, cross, dot, m9, mv, v3
from ..kinematics.recursion import WS_C, WS_PW, WS_RW, WS_V, WS_W, forward_pass


@njit(cache=True)
def energy_into(P, q, qd, ws, out, extended):
    """out[0] = kinetic, out[1] = potential energy for one state; ``ws`` the kinematic
    workspace; ``extended`` the joint set (:mod:`eslabon._engine.joints`). Status OK or
    NON_FINITE (:mod:`eslabon._engine.status`)."""
    forward_pass(P, q, qd, qd, 0.0, ws, extended, poses=True)
    nb = int(P[H_NB])
    g = v3(P, H_GRAVITY)
    T = 0.0
    V = 0.0
    for i in range(1, nb + 1):
        o = HEADER + i * STRIDE
        row = ws[i]
        m = P[o + MASS]
        w = v3(row, WS_W)
        c = v3(row, WS_C)
        vc = add(v3(row, WS_V), cross(w, c))
        T += 0.5 * (m * dot(vc, vc) + dot(w, mv(m9(P, o + INERTIA), w)))
        k = int(P[o + VIDX])
        if k >= 0:
            T += 0.5 * P[o + ARMATURE] * qd[k] * qd[k]
        pc = add(v3(row, WS_PW), mv(m9(row, WS_RW), c))
        V -= m * dot(g, pc)
    out[0] = T
    out[1] = V
    return OK if math.isfinite(T) and math.isfinite(V) else NON_FINITE
