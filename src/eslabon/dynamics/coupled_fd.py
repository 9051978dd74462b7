"""Forward dynamics of a model with mimic joints, compiled (the loops of
:func:`eslabon.simulate`).

A mimic joint copies another joint's value (:mod:`eslabon.model.mimic`): with every
joint's coordinate stacked as q_e = G q + o, rates v_e = G v, the coupled system's
equations are those of a kinematic constraint in explicit form, q_e = γ(q) with
G = ∂γ/∂q (Featherstone, *Rigid Body Dynamics Algorithms* (2008), §8.1:
Gᵀ H G q̈ = Gᵀ (τ_e − C), the term in ∂G/∂q vanishing for a linear γ):

    b_e = NE(q_e, v_e, 0),   H_e = composite-rigid-body mass matrix at q_e,
    (Gᵀ H_e G) q̈ = τ − Gᵀ b_e        (Cholesky)

the same as :func:`eslabon.forward_dynamics` with ``algorithm="crba"`` (or
``"rnea_columns"``) on the model, which runs these steps in numpy.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._engine.status import NON_FINITE, OK
from .cholesky_forward_dynamics import COMPOSITE, solve_status
from .composite_rigid_body import crba_into, ne_columns_into
from .rnea import rnea_into


def coupling_arrays(model):
    """The tuple :func:`coupled_fd_into` takes for ``model`` (mimic joints): the map
    (q_from (engine_nq,), q_scale, q_offset, G (engine_nv, nv)), G's nonzero rows by
    column (``starts`` (nv+1,), ``rows``: column i's rows are rows[starts[i]:starts[i+1]],
    increasing) and the workspaces (q_e, v_e, b_e, and the reduced (nv, nv) mass
    matrix)."""
    m = model.mimic
    G = np.ascontiguousarray(m.G, dtype=float)
    ne, n = G.shape
    nonzero = [np.flatnonzero(G[:, i]) for i in range(n)]
    starts = np.zeros(n + 1, dtype=np.int64)
    starts[1:] = np.cumsum([len(r) for r in nonzero])
    return (
        np.ascontiguousarray(m.q_from, dtype=np.int64),
        np.ascontiguousarray(m.q_scale, dtype=float),
        np.ascontiguousarray(m.q_offset, dtype=float),
        G,
        starts,
        np.concatenate(nonzero).astype(np.int64),
        np.empty(len(m.q_from)),
        np.empty(ne),
        np.empty(ne),
        np.empty((n, n)),
    )


@njit(cache=True, inline="always")
def _joint_configuration(q, coupling):
    """q_e ← every joint's coordinate from the independent ones (into ``coupling``'s
    q_e)."""
    q_from, q_scale, q_offset, G, starts, rows, qe, ve, be, Hr = coupling
    for a in range(qe.shape[0]):
        qe[a] = q[q_from[a]] * q_scale[a] + q_offset[a]


@njit(cache=True, inline="always")
def _reduced_mass(G, starts, rows, H, Hr):
    """Hr ← Gᵀ H G, the mass matrix of the independent coordinates (n, n) from that of
    every joint H (ne, ne), over G's nonzero entries only (each column of G has one per
    joint that follows its coordinate): O(ne²) instead of O(n² ne). The terms are summed
    in the order of the full product (rows r, then c, increasing), which only leaves out
    exact zeros."""
    n = Hr.shape[0]
    for i in range(n):
        for j in range(n):
            t = 0.0
            for a in range(starts[i], starts[i + 1]):
                r = rows[a]
                for b in range(starts[j], starts[j + 1]):
                    c = rows[b]
                    t += G[r, i] * H[r, c] * G[c, j]
            Hr[i, j] = t


@njit(cache=True)
def coupled_mass_into(P, q, coupling, cw, H, extended):
    """The mass matrix Gᵀ H_e G of the independent coordinates at q, H_e the
    composite-rigid-body mass matrix at q_e (``H`` an (engine_nv, engine_nv) workspace,
    ``cw`` Walker–Orin's): the matrix the compiled stick–slip loops invert
    (:mod:`eslabon.sim.stick_slip_loops`). Returns (status OK or NON_FINITE, the
    (nv, nv) matrix: ``coupling``'s last workspace)."""
    q_from, q_scale, q_offset, G, starts, rows, qe, ve, be, Hr = coupling
    _joint_configuration(q, coupling)
    st = crba_into(P, qe, cw, H, extended)
    _reduced_mass(G, starts, rows, H, Hr)
    return st, Hr


@njit(cache=True)
def coupled_fd_into(P, q, qd, tau, method, coupling, ws, cw, H, zero, unit, col, out, extended):
    """q̈ (nv,) into ``out`` for the state (q, q̇) and torque τ of the independent
    coordinates; ``P`` the packed model (every joint a coordinate), ``method`` 3
    (composite) or 1 (Newton–Euler columns), ``coupling`` from :func:`coupling_arrays`,
    ``H`` an (engine_nv, engine_nv) workspace. Status: OK, NON_FINITE or
    NOT_POSITIVE_DEFINITE."""
    q_from, q_scale, q_offset, G, starts, rows, qe, ve, be, Hr = coupling
    ne, n = G.shape
    _joint_configuration(q, coupling)
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
    _reduced_mass(G, starts, rows, H, Hr)
    return solve_status(Hr, out, n)
