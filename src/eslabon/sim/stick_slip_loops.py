"""The compiled fixed-step loops of :func:`eslabon.simulate` for a model with Coulomb
friction: RK4 and semi-implicit Euler with Karnopp's stick–slip decided at the start of
each step (:mod:`.stick_slip`, the algorithm and its sources).

They take the packed dynamics of the model *without* Coulomb friction (``P0``) and the
friction of each rate (``F``): every forward dynamics is that model's under the torque
less each joint's Coulomb torque (:func:`.stick_slip.effective_torque`), and the
columns of M⁻¹ that the stuck set needs come from the same forward dynamics probed with
F_j e_j (it is linear in τ). The stages are those of :func:`.rk4.rk4_loop`
(:func:`.rk4.rk4_stage2` … :func:`.rk4.rk4_update`); a stuck joint has q̇ = 0 and q̈ = 0
at every stage, so its coordinate is carried over unchanged.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._engine.compile import subject
from .._engine.layout import H_NQ
from .rk4 import _accel, _workspaces, rk4_stage2, rk4_stage3, rk4_stage4, rk4_update
from .stick_slip import STUCK, candidates, constrain, effective_torque, release, stop


@njit(cache=True)
def _columns(P0, method, x, v, te, F, which, X, base, probe, col, wk, extended):
    """X[:, j] = M⁻¹ e_j for each j with which[j]; ``base`` = FD(x, v, te)."""
    wa, ws, cw, H, zero, unit, wcol = wk
    st = _accel(P0, method, x, v, te, wa, ws, cw, H, zero, unit, wcol, base, extended)
    for j in range(len(te)):
        if not which[j]:
            continue
        for i in range(len(te)):
            probe[i] = te[i]
        probe[j] = te[j] + F[j]
        st |= _accel(P0, method, x, v, probe, wa, ws, cw, H, zero, unit, wcol, col, extended)
        for i in range(len(te)):
            X[i, j] = (col[i] - base[i]) / F[j]
    return st


@njit(cache=True)
def _start(P0, method, q, v, tau, F, h, X, mode, fixed, hold, te, probe, col, out, wk, extended):
    """Steps 1–3 at the start of a step (``v`` changed in place) and its first q̈."""
    n = len(v)
    wa, ws, cw, H, zero, unit, wcol = wk
    for i in range(n):
        te[i] = 0.0
    st = _columns(P0, method, q, v, te, F, F > 0.0, X, out, probe, col, wk, extended)
    candidates(v, X, F, h, mode, fixed)
    effective_torque(tau, v, F, mode, fixed, te)
    st |= _accel(P0, method, q, v, te, wa, ws, cw, H, zero, unit, wcol, out, extended)
    release(out, X, F, mode, fixed)
    stop(v, X, mode)
    effective_torque(tau, v, F, mode, fixed, te)
    st |= _accel(P0, method, q, v, te, wa, ws, cw, H, zero, unit, wcol, out, extended)
    constrain(out, X, mode, hold)
    return st


@njit(cache=True)
def _stage(P0, method, x, v, tau, F, X, mode, fixed, hold, te, probe, col, out, wk, extended):
    """q̈ at a later stage: the stuck joints held by the constrained dynamics there."""
    effective_torque(tau, v, F, mode, fixed, te)
    st = _columns(P0, method, x, v, te, F, mode == STUCK, X, out, probe, col, wk, extended)
    constrain(out, X, mode, hold)
    return st


@njit(cache=True)
def stick_slip_loop(P0, method, T, dt, Q, QD, QDD, extended, F, rk4):
    """:func:`.rk4.rk4_loop` (``rk4``) or :func:`.rk4.euler_loop` with the stick–slip of
    each step; QD[k] receives the rates after the stuck joints were stopped. Returns
    (status, failing step)."""
    n = int(P0[H_NQ])
    wk = _workspaces(P0)
    X = np.zeros((n, n))
    mode = np.zeros(n, np.int64)
    fixed = np.zeros(n)
    hold = np.zeros(n)
    te = np.empty(n)
    probe = np.empty(n)
    col = np.empty(n)
    a1 = np.empty(n)
    a2 = np.empty(n)
    a3 = np.empty(n)
    a4 = np.empty(n)
    x = np.empty(n)
    y = np.empty(n)
    h = dt
    last = Q.shape[0] - 1
    for k in range(last):
        tau = T[k] if T.shape[0] > 1 else T[0]
        q = Q[k]
        v = QD[k]
        st = _start(
            P0, method, q, v, tau, F, h, X, mode, fixed, hold, te, probe, col, a1, wk, extended
        )
        if rk4:
            for a in range(n):
                x[a], y[a] = rk4_stage2(q[a], v[a], a1[a], h)
            st |= _stage(
                P0, method, x, y, tau, F, X, mode, fixed, hold, te, probe, col, a2, wk, extended
            )
            for a in range(n):
                x[a], y[a] = rk4_stage3(q[a], v[a], a1[a], a2[a], h)
            st |= _stage(
                P0, method, x, y, tau, F, X, mode, fixed, hold, te, probe, col, a3, wk, extended
            )
            for a in range(n):
                x[a], y[a] = rk4_stage4(q[a], v[a], a2[a], a3[a], h)
            st |= _stage(
                P0, method, x, y, tau, F, X, mode, fixed, hold, te, probe, col, a4, wk, extended
            )
        if st:
            return st, k
        for a in range(n):
            QDD[k, a] = a1[a]
            if rk4:
                Q[k + 1, a], QD[k + 1, a] = rk4_update(q[a], v[a], a1[a], a2[a], a3[a], a4[a], h)
            else:
                QD[k + 1, a] = v[a] + h * a1[a]
                Q[k + 1, a] = q[a] + h * QD[k + 1, a]
    tau = T[last] if T.shape[0] > 1 else T[0]
    st = _start(
        P0,
        method,
        Q[last],
        QD[last],
        tau,
        F,
        h,
        X,
        mode,
        fixed,
        hold,
        te,
        probe,
        col,
        a1,
        wk,
        extended,
    )
    for a in range(n):
        QDD[last, a] = a1[a]
    return st, (last if st else -1)


subject("the stick-slip simulation loop", stick_slip_loop)
