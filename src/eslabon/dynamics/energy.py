"""Kinetic and potential energy from the body motions (independent of the mass matrix):

T = Σ_i ½ (m_i |v_ci|² + ω_iᵀ I_i ω_i) + Σ_j ½ J_a,j q̇_j²,    v_ci = v_i + ω_i × c_i
V = −Σ_i m_i gᵀ p_ci     (zero at the world origin)

One state, or a block of :data:`~eslabon._engine.lanes.WIDTH` states in lanes
(:mod:`eslabon._engine.lanes`): q, q̇ (n,) or (n, WIDTH), the kinematic workspace
(rows, WS_COLS) or (rows, WS_COLS, WIDTH), ``out`` (2,) or (2, WIDTH).
"""

from __future__ import annotations

from numba import njit

from .._engine.lanes import all_finite, at, g3, g9, put, zero_of
from .._engine.layout import ARMATURE, H_GRAVITY, H_NB, INERTIA, MASS
from .._engine.outward_pass import WS_C, WS_PW, WS_RW, WS_V, WS_W, forward_pass
from .._engine.record import rate_index, row_offset
from .._engine.status import NON_FINITE, OK
from .._engine.tuples import add, cross, dot, m9, mv, v3


@njit(cache=True)
def energy_into(P, q, qd, ws, out, extended):
    """out[0] = kinetic, out[1] = potential energy; ``ws`` the kinematic workspace;
    ``extended`` the joint set (:mod:`eslabon._engine.joints`). Status OK or NON_FINITE
    (:mod:`eslabon._engine.status`; for lanes, NON_FINITE if any lane is)."""
    forward_pass(P, q, qd, qd, 0.0, ws, extended)
    nb = int(P[H_NB])
    g = v3(P, H_GRAVITY)
    T = zero_of(qd)
    V = zero_of(qd)
    for i in range(1, nb + 1):
        o = row_offset(i)
        m = P[o + MASS]
        w = g3(ws, i, WS_W)
        c = g3(ws, i, WS_C)
        vc = add(g3(ws, i, WS_V), cross(w, c))
        T += 0.5 * (m * dot(vc, vc) + dot(w, mv(m9(P, o + INERTIA), w)))
        k = rate_index(P, o)
        if k >= 0:
            T += 0.5 * P[o + ARMATURE] * at(qd, k) * at(qd, k)
        pc = add(g3(ws, i, WS_PW), mv(g9(ws, i, WS_RW), c))
        V -= m * dot(g, pc)
    put(out, 0, T)
    put(out, 1, V)
    return OK if all_finite(T) and all_finite(V) else NON_FINITE
