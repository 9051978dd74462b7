"""Recursive Newton–Euler inverse dynamics (Luh, Walker & Paul 1980).

Seed 001 Tabla 3.1: the outward pass (3.27)–(3.29) is
:func:`eslabon.kinematics.recursion.forward_pass`; this module adds (3.30)

    ā_i = v̇_i + ω̇_i × c_i + ω_i × (ω_i × c_i),   F_i = m_i ā_i,   N_i = I_i ω̇_i + ω_i × I_i ω_i

and the inward pass (3.31)–(3.33), for a tree in body coordinates with moments about the
body origin:

    f_i = F_i + Σ_children E_c f_c
    n_i = N_i + c_i × F_i + Σ_children (E_c n_c + r_c × E_c f_c)
    τ_i = sᵀ n_i (R) | sᵀ f_i (P)  + b_i q̇_i + μ_i sign(q̇_i) + J_a q̈_i

with viscous b, Coulomb μ and armature J_a. ``fext`` (nb+1, 6) adds the wrench
[moment about the origin; force] that each body exerts on its environment, in body
coordinates (seed 001 eq. 3.34: f_{n+1}, n_{n+1}).

How it is called (one state, the fast path, a batch as lanes): :mod:`.drivers`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._engine.floating_base import BASE_BODY, base_torques, first_loop_row
from .._engine.joints import joint, project_wrench
from .._engine.lanes import all_finite, at, put, zero_of
from .._engine.layout import ARMATURE, COULOMB, H_NB, VISCOUS
from .._engine.record import parent, rate_index, row_offset
from .._engine.status import NON_FINITE, OK
from .._engine.tuples import add, cross, g3, g9, mv, s3, sign, v3
from ..kinematics.recursion import (
    WS_A,
    WS_AC,
    WS_COLS,
    WS_E,
    WS_F,
    WS_FJ,
    WS_N,
    WS_NJ,
    WS_R,
    WS_W,
    WS_WD,
    forward_pass,
)


@njit(inline="always")
def _wrench(ws, i, f, n, fext):
    """(f_i, n_i): body i's inertial wrench plus what its children sent (f, n in
    registers from the next body, the others in ``ws``) and ``fext``; kept in ``ws``."""
    f = add(f, g3(ws, i, WS_FJ))
    n = add(n, g3(ws, i, WS_NJ))
    if fext is not None:
        n = add(n, v3(fext[i], 0))
        f = add(f, v3(fext[i], 3))
    s3(ws, i, WS_FJ, f)
    s3(ws, i, WS_NJ, n)
    return f, n


@njit(cache=True)
def rnea_into(P, q, qd, qdd, gscale, fext, ws, tau, extended, trace=None):
    """Newton–Euler for one state into ``tau`` (may alias ``qdd``); status OK or NON_FINITE.
    With ``trace`` (True) the workspace keeps every intermediate quantity of Tabla 3.1;
    ``extended`` the joint set (:mod:`eslabon._engine.joints`). Also for a lanes block:
    (n, WIDTH) joint arrays and a 3-D ``ws`` (:mod:`eslabon._engine.lanes`)."""
    if trace is None:  # (3.27)-(3.30); a free flyer on the world in one step
        forward_pass(P, q, qd, qdd, gscale, ws, extended, forces=True, groups=True)
    else:  # every row kept
        forward_pass(P, q, qd, qdd, gscale, ws, extended, forces=True, trace=trace)
    nb = int(P[H_NB])
    z = zero_of(q)
    total = z
    f = (z, z, z)  # what the next body (i + 1) sends when i is its parent
    n = (z, z, z)
    first = 1  # after a floating base taken in one step (forward_pass, groups): 7
    if trace is None:
        first = first_loop_row(P, extended)
    for i in range(nb, first - 1, -1):
        o = row_offset(i)
        # f_i, n_i: own inertial wrench, other children's (in ws) and the next body's
        f, n = _wrench(ws, i, f, n, fext)
        k = rate_index(P, o)
        if k >= 0:
            # (3.33): project on the joint, add friction and rotor inertia
            t = project_wrench(joint(P, o), f, n, extended)
            v = at(qd, k)
            t += P[o + VISCOUS] * v + P[o + ARMATURE] * at(qdd, k) + P[o + COULOMB] * sign(v)
            put(tau, k, t)
            total += t
        # (3.31)-(3.32): carry f, n to the parent frame
        E = g9(ws, i, WS_E)
        Ef = mv(E, f)
        En = add(mv(E, n), cross(g3(ws, i, WS_R), Ef))
        p = parent(P, o)
        if p == i - 1:
            f = Ef
            n = En
        else:
            if p > 0:
                s3(ws, p, WS_FJ, add(g3(ws, p, WS_FJ), Ef))
                s3(ws, p, WS_NJ, add(g3(ws, p, WS_NJ), En))
            f = (z, z, z)
            n = (z, z, z)
    # the floating base, after the loop: its six rates project its wrench
    if extended is not None and first > 1:
        f, n = _wrench(ws, BASE_BODY, f, n, fext)
        total = base_torques(P, f, n, qd, qdd, tau, total)
    return OK if all_finite(total) else NON_FINITE


def trace_workspace(nb: int) -> np.ndarray:
    """An empty workspace for :func:`rnea_into` with ``trace`` (nb+1 rows)."""
    return np.empty((nb + 1, WS_COLS))


def traced_quantities(ws: np.ndarray) -> dict:
    """The quantities of Tabla 3.1 that :func:`rnea_into` with ``trace`` keeps, by name,
    from its workspace ``ws`` (nb+1, WS_COLS); row i is body i, in body i's frame:

    ``E`` (nb+1, 3, 3) rotation parent ← body, ``r`` (nb+1, 3) body origin in the parent
    frame, ``w`` ω, ``wd`` ω̇, ``vd`` v̇ of the origin (gravity included), ``ac`` ā of the
    COM, ``F`` and ``N`` the net force and moment about the COM, ``f`` and ``n`` the force
    and moment (about the body origin) the parent exerts on the body; each (nb+1, 3).
    """

    def cols(c, k=3):
        return ws[:, c : c + k].copy()

    return dict(
        E=cols(WS_E, 9).reshape(-1, 3, 3),
        r=cols(WS_R),
        w=cols(WS_W),
        wd=cols(WS_WD),
        vd=cols(WS_A),
        ac=cols(WS_AC),
        F=cols(WS_F),
        N=cols(WS_N),
        f=cols(WS_FJ),
        n=cols(WS_NJ),
    )
