"""Forward dynamics of a model with mimic joints, compiled (the loops of
:func:`eslabon.simulate`).

A mimic joint copies another joint's value (:mod:`eslabon.model.mimic`): with every
joint's coordinate stacked as q_e = G q + o, rates v_e = G v, the coupled system's
equations are those of a kinematic constraint in explicit form, q_e = γ(q) with
G = ∂γ/∂q (Featherstone, *Rigid Body Dynamics Algorithms* (2008), §8.1:
Gᵀ H G q̈ = Gᵀ (τ_e − C), the term in ∂G/∂q vanishing for a linear γ):

    b_e = NE(q_e, v_e, 0),   H_e = composite-rigid-body mass matrix at q_e,
    (Gᵀ H_e G) q̈ = τ − Gᵀ b_e        (Cholesky)

the same as :func:`eslabon.forward_dynamics` with ``method="walker_orin_3"`` (or
``"walker_orin_1"``) on the model, which runs these steps in numpy.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._engine.status import NON_FINITE, OK
from .cholesky_fd import COMPOSITE, solve_status
from .rnea import rnea_into
from .walker_orin import crba_into, ne_columns_into


def coupling_arrays(model):
    """The tuple :func:`coupled_fd_into` takes for ``model`` (mimic joints): the map
    (q_from (engine_nq,), q_scale, q_offset, G (engine_nv, nv)) and its workspaces
    (q_e, v_e, b_e, and the reduced (nv, nv) mass matrix)."""
    m = model.mimic
    ne, n = m.G.shape
    return (
        np.ascontiguousarray(m.q_from, dtype=np.int64),
        np.ascontiguousarray(m.q_scale, dtype=float),
        np.ascontiguousarray(m.q_offset, dtype=float),
        np.ascontiguousarray(m.G, dtype=float),
        np.empty(len(m.q_from)),
        np.empty(ne),
        np.empty(ne),
        np.empty((n, n)),
    )


@njit(cache=True)
def coupled_fd_into(P, q, qd, tau, method, coupling, ws, cw, H, zero, unit, col, out, extended):
    """q̈ (nv,) into ``out`` for the state (q, q̇) and torque τ of the independent
    coordinates; ``P`` the packed model (every joint a coordinate), ``method`` 3
    (composite) or 1 (Newton–Euler columns), ``coupling`` from :func:`coupling_arrays`,
    ``H`` an (engine_nv, engine_nv) workspace. Status: OK, NON_FINITE or
    NOT_POSITIVE_DEFINITE."""
    q_from, q_scale, q_offset, G, qe, ve, be, Hr = coupling
    ne, n = G.shape
    for a in range(qe.shape[0]):
        qe[a] = q[q_from[a]] * q_scale[a] + q_offset[a]
    for r in range(ne):
        s = 0.0
        for c in range(n):
            s += G[r, c] * qd[c]
        ve[r] = s
        be[r] = 0.0
    if rnea_into(P, qe, ve, be, 1.0, None, ws, be, extended) != OK:  # b_e = NE(q_e, v_e, 0)
        return NON_FINITE
    if method == COMPOSITE:
        crba_into(P, qe, cw, H, extended)
    else:
        ne_columns_into(P, qe, ws, zero, unit, col, H, extended)
    for i in range(n):
        s = tau[i]
        for r in range(ne):
            s -= G[r, i] * be[r]
        out[i] = s
        for j in range(n):
            t = 0.0
            for r in range(ne):
                if G[r, i] != 0.0:
                    for c in range(ne):
                        t += G[r, i] * H[r, c] * G[c, j]
            Hr[i, j] = t
    return solve_status(Hr, out, n)
