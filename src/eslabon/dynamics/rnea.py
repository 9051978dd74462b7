"""Recursive Newton–Euler inverse dynamics (Luh, Walker & Paul 1980).

Seed 001 Tabla 3.1, for a tree in body coordinates with moments about the body origin,
(E, r) placing body i in its parent p and an arbitrary joint axis s: the outward pass
(3.27)–(3.30)

    ω_i = Eᵀ ω_p + s q̇_i,   ω̇_i = Eᵀ ω̇_p + s q̈_i + (Eᵀ ω_p) × s q̇_i          (R)
    v̇_i = Eᵀ (v̇_p + ω̇_p × r + ω_p × (ω_p × r)) [+ s q̈_i + 2 ω_i × s q̇_i]      (P)
    ā_i = v̇_i + ω̇_i × c_i + ω_i × (ω_i × c_i),   F_i = m_i ā_i,   N_i = I_i ω̇_i + ω_i × I_i ω_i

with v̇_0 = −g·gscale (gravity as a base acceleration, seed 001 §2.4), and the inward
pass (3.31)–(3.33)

    f_i = F_i + Σ_children E_c f_c
    n_i = N_i + c_i × F_i + Σ_children (E_c n_c + r_c × E_c f_c)
    τ_i = sᵀ n_i (R) | sᵀ f_i (P)  + b_i q̇_i + μ_i sign(q̇_i) + J_a q̈_i

with viscous b, Coulomb μ and armature J_a. ``fext`` (nb+1, 6) adds the wrench
[moment about the origin; force] that each body exerts on its environment, in body
coordinates (seed 001 eq. 3.34: f_{n+1}, n_{n+1}). The joint's terms (the bracketed
ones, a helical or quaternion row's) are the dispatcher's (:mod:`eslabon._engine.joints`);
a floating base is taken before and after the loop (:mod:`eslabon._engine.floating_base`).

How it is called (one state, the fast path, a batch as lanes): :mod:`.drivers`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._engine.floating_base import BASE_BODY, base_motion, base_torques, first_loop_row
from .._engine.joints import (
    by_quaternion,
    joint,
    outward_motion,
    placement,
    project_wrench,
    quaternion_row,
)
from .._engine.lanes import all_finite, at, clear, like, put, zero_of
from .._engine.layout import ARMATURE, COULOMB, H_GRAVITY, H_NB, INERTIA, MASS, VISCOUS
from .._engine.outward_pass import (
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
    body_com,
    near_angles,
)
from .._engine.record import coordinate_index, parent, rate_index, row_offset
from .._engine.status import NON_FINITE, OK
from .._engine.tuples import add, cross, g3, g9, m9, mtv, mv, s3, s9, scale, sign, v3


@njit(inline="always")
def _body_wrench(P, o, i, ws, E, r, w, wd, a, qi, trace):
    """(3.30) for body ``i``: its motion and its inertial wrench f = F = m ā,
    n = N + c × F (and, with ``trace``, ā, F and N) into ``ws``."""
    c = body_com(P, o, qi)
    I = m9(P, o + INERTIA)
    ac = add(a, add(cross(wd, c), cross(w, cross(w, c))))
    F = scale(P[o + MASS], ac)
    N = add(mv(I, wd), cross(w, mv(I, w)))
    s9(ws, i, WS_E, E)
    s3(ws, i, WS_R, r)
    s3(ws, i, WS_W, w)
    s3(ws, i, WS_WD, wd)
    s3(ws, i, WS_A, a)
    if trace is not None:
        s3(ws, i, WS_AC, ac)
        s3(ws, i, WS_F, F)
        s3(ws, i, WS_N, N)
    s3(ws, i, WS_FJ, F)
    s3(ws, i, WS_NJ, add(N, cross(c, F)))


@njit(inline="always")
def _child_wrench(ws, i, f, n, fext):
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
    With ``trace`` (True) the workspace keeps every intermediate quantity of Tabla 3.1,
    row by row (a floating base's six rows too); ``extended`` the joint set
    (:mod:`eslabon._engine.joints`). Also for a lanes block: (n, WIDTH) joint arrays and
    a 3-D ``ws`` (:mod:`eslabon._engine.lanes`). Along a chain the parent's motion, and
    the child's wrench, stay in registers."""
    nb = int(P[H_NB])
    z = zero_of(q)
    w = wd = dwd = da = (z, z, z)  # (dwd, da: a quaternion row's correction)
    a = like((-gscale * P[H_GRAVITY], -gscale * P[H_GRAVITY + 1], -gscale * P[H_GRAVITY + 2]), z)
    clear(ws, 0, 0, WS_COLS)
    s9(ws, 0, WS_E, (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0))
    s3(ws, 0, WS_A, a)
    q_given = q  # (a helical joint advances with its whole angle: joints.placement)
    q = near_angles(P, q, extended)
    first = 1  # 7 after a floating base, taken before and after the loops
    if extended is not None and trace is None:
        first = first_loop_row(P, extended)
    if extended is not None and first > 1:
        E, r, w, wd, a = base_motion(P, q, qd, qdd, w, wd, a)
        _body_wrench(P, row_offset(BASE_BODY), BASE_BODY, ws, E, r, w, wd, a, z, trace)
    for i in range(first, nb + 1):  # (3.27)-(3.30), base to tips
        o = row_offset(i)
        k = rate_index(P, o)
        cq = coordinate_index(P, o)
        qi = at(q, cq) if cq >= 0 else z
        qh = qi
        if extended is not None:
            qh = at(q_given, cq) if cq >= 0 else z
        qdi, qddi = (at(qd, k), at(qdd, k)) if k >= 0 else (z, z)
        jnt = joint(P, o)
        E, r = placement(jnt, qi, extended, qh)
        if extended is not None:
            if by_quaternion(jnt):  # out of line (joints.quaternion_row)
                E, r, dwd, da = quaternion_row(P, o, q, qd, k, cq)
        p = parent(P, o)
        if p != i - 1:
            w, wd, a = g3(ws, p, WS_W), g3(ws, p, WS_WD), g3(ws, p, WS_A)
        a = mtv(E, add(a, add(cross(wd, r), cross(w, cross(w, r)))))
        w, wd, a = outward_motion(jnt, qdi, qddi, mtv(E, w), mtv(E, wd), a, dwd, da, extended)
        # (3.30), written out as _body_wrench (an inlined helper given the arrays costs a
        # reference-count round trip per row: docs/performance.md)
        c = body_com(P, o, qi)
        I = m9(P, o + INERTIA)
        ac = add(a, add(cross(wd, c), cross(w, cross(w, c))))
        F = scale(P[o + MASS], ac)
        N = add(mv(I, wd), cross(w, mv(I, w)))
        s9(ws, i, WS_E, E)
        s3(ws, i, WS_R, r)
        s3(ws, i, WS_W, w)
        s3(ws, i, WS_WD, wd)
        s3(ws, i, WS_A, a)
        if trace is not None:
            s3(ws, i, WS_AC, ac)
            s3(ws, i, WS_F, F)
            s3(ws, i, WS_N, N)
        s3(ws, i, WS_FJ, F)
        s3(ws, i, WS_NJ, add(N, cross(c, F)))
    total = z
    f = n = (z, z, z)  # what the next body (i + 1) sends when i is its parent
    for i in range(nb, first - 1, -1):  # (3.31)-(3.33), tips to base
        o = row_offset(i)
        f = add(f, g3(ws, i, WS_FJ))  # (as _child_wrench, written out)
        n = add(n, g3(ws, i, WS_NJ))
        if fext is not None:
            n = add(n, v3(fext[i], 0))
            f = add(f, v3(fext[i], 3))
        s3(ws, i, WS_FJ, f)
        s3(ws, i, WS_NJ, n)
        k = rate_index(P, o)
        if k >= 0:  # project on the joint, add friction and rotor inertia
            t = project_wrench(joint(P, o), f, n, extended)
            v = at(qd, k)
            t += P[o + VISCOUS] * v + P[o + ARMATURE] * at(qdd, k) + P[o + COULOMB] * sign(v)
            put(tau, k, t)
            total += t
        E = g9(ws, i, WS_E)  # carry (f, n) to the parent's frame
        Ef = mv(E, f)
        f, n = Ef, add(mv(E, n), cross(g3(ws, i, WS_R), Ef))
        p = parent(P, o)
        if p != i - 1:  # a branch: add to the parent's row
            if p > 0:
                s3(ws, p, WS_FJ, add(g3(ws, p, WS_FJ), f))
                s3(ws, p, WS_NJ, add(g3(ws, p, WS_NJ), n))
            f = n = (z, z, z)
    if extended is not None and first > 1:  # the floating base's six rates
        f, n = _child_wrench(ws, BASE_BODY, f, n, fext)
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
