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
"""
from __future__ import annotations


import numpy as np
from numba import carray, njit, prange

from .._engine.joints import joint, project_wrench
from ..kinematics.recursion import FORCES, TRACE, WS_COLS, WS_E, WS_FJ, WS_NJ, WS_R, forward_pass
from .._engine.layout import (ARMATURE, COULOMB, H_NB, H_NQ, HEADER, QIDX, STRIDE,
                            VISCOUS)
from .._engine.lanes import WIDTH, all_finite, at, chunk_states, pack, put, unpack, zero_of
from .._engine.tuples import add, cross, g3, g9, mv, s3, sign, v3
from .._engine.compile import batch_kernel, lazy_cfunc, subject
from .._engine.fastcall import SIGNATURE, entry_status, packed_model


@njit(cache=True)
def rnea_into(P, q, qd, qdd, gscale, fext, ws, tau, trace=False):
    """Newton–Euler for one state into ``tau`` (may alias ``qdd``). True if τ is finite.
    With ``trace`` the workspace keeps every intermediate quantity of Tabla 3.1. Also
    for a lanes block: (n, WIDTH) joint arrays and a 3-D ``ws`` (:mod:`eslabon._engine.lanes`)."""
    forward_pass(P, q, qd, qdd, gscale, ws, FORCES | TRACE if trace else FORCES)  # (3.27)-(3.30)
    nb = int(P[H_NB])
    z = zero_of(q)
    total = z
    f = (z, z, z)               # what the next body (i + 1) sends when i is its parent
    n = (z, z, z)
    for i in range(nb, 0, -1):
        o = HEADER + i * STRIDE
        # f_i, n_i: own inertial wrench, other children's (in ws) and the next body's
        f = add(f, g3(ws, i, WS_FJ))
        n = add(n, g3(ws, i, WS_NJ))
        if fext is not None:
            n = add(n, v3(fext[i], 0))
            f = add(f, v3(fext[i], 3))
        s3(ws, i, WS_FJ, f)
        s3(ws, i, WS_NJ, n)
        k = int(P[o + QIDX])
        if k >= 0:
            # (3.33): project on the joint, add friction and rotor inertia
            t = project_wrench(joint(P, o), f, n)
            v = at(qd, k)
            t += P[o + VISCOUS] * v + P[o + ARMATURE] * at(qdd, k) + P[o + COULOMB] * sign(v)
            put(tau, k, t)
            total += t
        # (3.31)-(3.32): carry f, n to the parent frame
        E = g9(ws, i, WS_E)
        Ef = mv(E, f)
        En = add(mv(E, n), cross(g3(ws, i, WS_R), Ef))
        p = int(P[o])
        if p == i - 1:
            f = Ef
            n = En
        else:
            if p > 0:
                s3(ws, p, WS_FJ, add(g3(ws, p, WS_FJ), Ef))
                s3(ws, p, WS_NJ, add(g3(ws, p, WS_NJ), En))
            f = (z, z, z)
            n = (z, z, z)
    return all_finite(total)


# What a lean entry point computes: τ = NE(q, q̇, q̈), the bias NE(q, q̇, 0) or g = NE(q, 0, 0).
MODE_ID, MODE_BIAS, MODE_GRAVITY = 0, 1, 2


@njit(cache=True, inline="always")     # one caller, its C entry
def rnea_call(P, q, qd, qdd, tau):
    """τ = NE(q, q̇, q̈) for one state from the public API (one entry point per quantity:
    every argument costs call time). Status: 0 ok, 1 non-finite, 3 wrong length."""
    nq = int(P[H_NQ])
    if q.shape[0] != nq or qd.shape[0] != nq or qdd.shape[0] != nq or tau.shape[0] != nq:
        return 3
    ws = np.empty((int(P[H_NB]) + 1, WS_COLS))
    return 0 if rnea_into(P, q, qd, qdd, 1.0, None, ws, tau) else 1


@njit(cache=True, inline="always")     # one caller, its C entry
def bias_call(P, q, qd, tau):
    """NE(q, q̇, 0) for one state; status as :func:`rnea_call`."""
    nq = int(P[H_NQ])
    if q.shape[0] != nq or qd.shape[0] != nq or tau.shape[0] != nq:
        return 3
    ws = np.empty((int(P[H_NB]) + 1, WS_COLS))
    return 0 if rnea_into(P, q, qd, np.zeros(nq), 1.0, None, ws, tau) else 1


@njit(cache=True, inline="always")     # one caller, its C entry
def gravity_call(P, q, tau):
    """NE(q, 0, 0) for one state; status as :func:`rnea_call`."""
    nq = int(P[H_NQ])
    if q.shape[0] != nq or tau.shape[0] != nq:
        return 3
    ws = np.empty((int(P[H_NB]) + 1, WS_COLS))
    z = np.zeros(nq)
    return 0 if rnea_into(P, q, z, z, 1.0, None, ws, tau) else 1


# C entry points of the three quantities (:mod:`.fastcall`)
@lazy_cfunc(SIGNATURE, "inverse dynamics")
def inverse_dynamics_entry(p, a, b, c, o0, o1, o2):
    n = int(p[H_NQ])
    status = rnea_call(packed_model(p), carray(a, n), carray(b, n), carray(c, n),
                       carray(o0, n))
    return entry_status(status)


@lazy_cfunc(SIGNATURE, "bias forces")
def bias_forces_entry(p, a, b, c, o0, o1, o2):
    n = int(p[H_NQ])
    status = bias_call(packed_model(p), carray(a, n), carray(b, n), carray(o0, n))
    return entry_status(status)


@lazy_cfunc(SIGNATURE, "gravity torques")
def gravity_torques_entry(p, a, b, c, o0, o1, o2):
    n = int(p[H_NQ])
    status = gravity_call(packed_model(p), carray(a, n), carray(o0, n))
    return entry_status(status)


@njit(cache=True)
def rnea_one(P, q, qd, qdd, gscale, fext, tau):
    ws = np.empty((int(P[H_NB]) + 1, WS_COLS))
    return rnea_into(P, q, qd, qdd, gscale, fext, ws, tau)


@njit(cache=True)
def rnea_trace_one(P, q, qd, qdd, gscale, fext, tau, ws):
    return rnea_into(P, q, qd, qdd, gscale, fext, ws, tau, True)


@batch_kernel
def rnea_many(P, Q, QD, QDD, gscale, fext, mode, TAU, nchunks):
    """Newton–Euler over a batch (N, n), parallel over chunks of states. Each chunk runs
    :data:`~eslabon._engine.lanes.WIDTH` states at a time in lock step: the same
    :func:`rnea_into`, compiled for lanes (one SIMD instruction per operation)."""
    N = Q.shape[0]
    nb = int(P[H_NB])
    nq = int(P[H_NQ])
    failed = 0                       # chunks with a non-finite τ (a prange reduction)
    for c in prange(nchunks):
        ws = np.empty((nb + 1, WS_COLS, WIDTH))
        q = np.empty((nq, WIDTH))
        qd = np.empty((nq, WIDTH))
        qdd = np.empty((nq, WIDTH))
        tau = np.empty((nq, WIDTH))
        qd[:] = 0.0                  # stay zero unless packed (bias, gravity)
        qdd[:] = 0.0
        lo, hi = chunk_states(c, nchunks, N)
        ok = True
        for s0 in range(lo, hi, WIDTH):
            pack(Q, s0, hi, q)
            if mode != MODE_GRAVITY:
                pack(QD, s0, hi, qd)
            if mode == MODE_ID:
                pack(QDD, s0, hi, qdd)
            if not rnea_into(P, q, qd, qdd, gscale, fext, ws, tau):
                ok = False
            unpack(tau, TAU, s0, hi)
        if not ok:
            failed += 1
    return failed == 0


subject("Newton–Euler dynamics", rnea_one)
subject("Newton–Euler dynamics (batch)", rnea_many)
subject("the Newton–Euler trace", rnea_trace_one)
