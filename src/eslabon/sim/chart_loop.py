"""The compiled RK4 loop of :func:`eslabon.simulate` for a model whose configuration
holds quaternions (spherical and free-flyer joints): each step integrates the chart
coordinates c and the rates v, ẏ = [ċ(c, v); q̈], around the step's first configuration
(:mod:`.manifold`), then maps back to q with unit quaternions.

With q_k the configuration at the step's start, c_k its coordinates (ξ = 0) and
x(c) = chart(q_k, c), the stages are those of :func:`.rk4.rk4_step` on y = [c; v]::

    a1 = FD(q_k, v),                       k1 = ċ(c_k, q_k, v)
    c2 = c_k + h/2 k1,  v2 = v + h/2 a1,    a2 = FD(x(c2), v2),  k2 = ċ(c2, x(c2), v2)
    c3 = c_k + h/2 k2,  v3 = v + h/2 a2,    a3 = FD(x(c3), v3),  k3 = ċ(c3, x(c3), v3)
    c4 = c_k + h k3,    v4 = v + h a3,      a4 = FD(x(c4), v4),  k4 = ċ(c4, x(c4), v4)
    q_k+1 = unit(x(c_k + h/6 (k1 + 2 k2 + 2 k3 + k4))),  v_k+1 = v + h/6 (a1 + 2 a2 + 2 a3 + a4)

(x(c_k) = q_k exactly: exp(0) is the unit quaternion.) The operations are those of the
Python step on :class:`.manifold.Chart`, element by element, so both give the same
numbers (``tests/test_sim_charts.py``).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .._engine.compile import subject
from .._engine.status import NON_FINITE
from .manifold import chart_configuration, chart_rate, chart_start, unit_quaternions
from .rk4 import _accel, _workspaces, last_sample, rk4_buffers


@njit(cache=True, inline="always")
def chart_advance(q, c0, v, layout, c, y, x, hs, kp, ap, kd):
    """A later stage's state: (c, v) = (c_k + hs k_prev, v + hs a_prev) into (c, y), its
    configuration x = chart(q, c) and ċ(c, x, v) into ``kd``."""
    vq, vv, parts = layout
    for a in range(len(v)):
        c[a] = c0[a] + hs * kp[a]
        y[a] = v[a] + hs * ap[a]
    chart_configuration(q, c, vq, vv, parts, x)
    chart_rate(c, x, y, parts, kd)


@njit(cache=True, inline="always")
def _stage(P, method, stage, hs, kp, ap, kd, out):
    """One later stage (:func:`chart_advance`), then q̈ into ``out``; status."""
    q, c0, v, layout, c, y, x, tau, wk, extended, coupling = stage
    wa, ws, cw, H, zero, unit, col = wk
    chart_advance(q, c0, v, layout, c, y, x, hs, kp, ap, kd)
    return _accel(P, method, x, y, tau, wa, ws, cw, H, zero, unit, col, out, extended, coupling)


@njit(cache=True, inline="always")
def chart_rk4_end(k, q, c0, v, ks, accels, h, c, Q, QD, QDD, layout):
    """The end of step k: QDD[k] = a1, the new chart coordinates c and rates QD[k + 1]
    from the stages' ċ ``ks`` and q̈ ``accels``, then Q[k + 1] = x(c) with unit
    quaternions. False (Q[k + 1] left unset) when c or the rates are not finite."""
    k1, k2, k3, k4 = ks
    a1, a2, a3, a4 = accels
    vq, vv, parts = layout
    s = 0.0  # finite unless some coordinate or rate is not (a NaN or an overflow)
    for a in range(len(v)):
        QDD[k, a] = a1[a]
        c[a] = c0[a] + h / 6 * (k1[a] + 2 * k2[a] + 2 * k3[a] + k4[a])
        QD[k + 1, a] = v[a] + h / 6 * (a1[a] + 2 * a2[a] + 2 * a3[a] + a4[a])
        s += c[a] + QD[k + 1, a]
    if not math.isfinite(s):  # before scaling: an infinite quaternion would become 0
        return False
    chart_configuration(q, c, vq, vv, parts, Q[k + 1])
    unit_quaternions(Q[k + 1], parts)
    return True


@njit(cache=True)
def chart_rk4_loop(P, method, T, dt, Q, QD, QDD, layout, extended, coupling=None):
    """Fill rows 1..K-1 of Q (K, nq) and QD (K, nv) (row 0 holds the initial state) and
    every row of QDD, as :func:`.rk4.rk4_loop` does for vector configurations;
    ``layout`` = (vq, vv, parts) of :func:`.manifold.chart_layout`, ``coupling`` as
    :func:`.rk4.rk4_loop` takes it. Returns (status, failing step): NON_FINITE also when
    new chart coordinates or rates are not finite."""
    n = QD.shape[1]
    nq = Q.shape[1]
    wk = _workspaces(P)
    wa, ws, cw, H, zero, unit, col = wk
    a1, a2, a3, a4, c, y = rk4_buffers(n)  # q̈ of each stage; a stage's (c, v)
    c0, k1, k2, k3 = np.empty(n), np.empty(n), np.empty(n), np.empty(n)  # ċ of each stage
    k4, x = np.empty(n), np.empty(nq)  # x: a stage's configuration
    vq, vv, parts = layout
    h = dt
    for k in range(Q.shape[0] - 1):
        tau = T[k] if T.shape[0] > 1 else T[0]
        q = Q[k]
        v = QD[k]
        chart_start(q, vq, vv, parts, c0)
        chart_rate(c0, q, v, parts, k1)
        st = _accel(P, method, q, v, tau, wa, ws, cw, H, zero, unit, col, a1, extended, coupling)
        stage = (q, c0, v, layout, c, y, x, tau, wk, extended, coupling)
        st |= _stage(P, method, stage, h / 2, k1, a1, k2, a2)
        st |= _stage(P, method, stage, h / 2, k2, a2, k3, a3)
        st |= _stage(P, method, stage, h, k3, a3, k4, a4)
        if st:
            return st, k
        if not chart_rk4_end(k, q, c0, v, (k1, k2, k3, k4), (a1, a2, a3, a4), h, c, Q, QD, QDD,
                             layout):  # fmt: skip
            return NON_FINITE, k
    return last_sample(P, method, T, Q, QD, QDD, wk, a1, extended, coupling)


subject("the RK4 simulation loop on charts", chart_rk4_loop)
