"""The compiled RK4 loop of :func:`eslabon.simulate` for a model whose configuration
holds quaternions (a free flyer, a ball joint) and whose joints have Coulomb friction
(a quadruped's URDF ``friction="…"``): the steps of :mod:`.chart_loop` on the chart of
each step's first configuration, with the stick–slip of :mod:`.stick_slip_loops`
decided at that configuration (Karnopp's band, the stuck joints stopped and held).

Each stage's configuration is x = chart(q_k, c) and its forward dynamics is that of the
model without Coulomb friction under τ − τ_c, the stuck set held by the constrained
accelerations (:func:`.stick_slip_loops._stage`); the chart coordinates advance with
ċ(c, x, v) (:func:`.manifold.chart_rate`). A stuck joint has v = 0 and q̈ = 0 at every
stage, so its vector coordinate is carried over unchanged. The Python loop on charts
(:func:`eslabon.simulate` with a callable torque) makes the same decisions with numpy's
inverse of M, so the two agree to round-off (``tests/test_sim_chart_friction.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._engine.compile import subject
from .._engine.status import NON_FINITE, OK
from .chart_loop import chart_advance, chart_rk4_end
from .laws import NO_LAW
from .manifold import chart_rate, chart_start
from .rk4 import _workspaces, rk4_buffers
from .stick_slip_loops import _stage as _held_stage
from .stick_slip_loops import _start, state_buffers


@njit(cache=True, inline="always")
def _chart_stage(P0, method, T, F, k, stage, hs, kp, ap, kd, out, step, state, wk, coupling):
    """One later stage (:func:`.chart_loop.chart_advance`), then the held q̈ into
    ``out``; status."""
    q, c0, v, layout, c, y, x, extended = step
    chart_advance(q, c0, v, layout, c, y, x, hs, kp, ap, kd)
    wid = wk[1]
    return _held_stage(P0, P0, method, NO_LAW, None, T, F, k, stage, x, y, state, wk, wid, out,
                       extended, coupling)  # fmt: skip


@njit(cache=True)
def chart_stick_slip_loop(P0, method, T, F, dt, Q, QD, QDD, layout, extended, coupling):
    """Fill rows 1..K-1 of Q (K, nq) and QD (K, nv) (row 0 holds the initial state) and
    every row of QDD by RK4 on charts with Coulomb friction's stick–slip, under the torque
    table ``T`` ((K or 1, nv)); ``P0`` the packed model without Coulomb friction, ``F``
    (nv,) each rate's Coulomb friction, ``layout`` = (vq, vv, parts) of
    :func:`.manifold.chart_layout`; ``coupling`` the mimic map
    (:func:`eslabon.dynamics.coupled_fd.coupling_arrays`) or None. QD[k] receives the
    rates after the stuck joints were stopped. Returns (status, failing step)."""
    n = QD.shape[1]
    nq = Q.shape[1]
    wk = _workspaces(P0)
    state = state_buffers(n)
    a1, a2, a3, a4, c, y = rk4_buffers(n)
    c0, k1, k2, k3 = np.empty(n), np.empty(n), np.empty(n), np.empty(n)
    k4, x = np.empty(n), np.empty(nq)
    vq, vv, parts = layout
    h = dt
    K = Q.shape[0]
    for k in range(K):
        q = Q[k]
        v = QD[k]
        st = _start(P0, P0, method, NO_LAW, None, T, F, h, k, q, v, state, wk, wk[1], a1,
                    extended, coupling)  # fmt: skip
        if k == K - 1:
            for a in range(n):
                QDD[k, a] = a1[a]
            return st, (k if st else -1)
        chart_start(q, vq, vv, parts, c0)
        chart_rate(c0, q, v, parts, k1)
        step = (q, c0, v, layout, c, y, x, extended)
        st |= _chart_stage(P0, method, T, F, k, 1, h / 2, k1, a1, k2, a2, step, state, wk,
                           coupling)  # fmt: skip
        st |= _chart_stage(P0, method, T, F, k, 1, h / 2, k2, a2, k3, a3, step, state, wk,
                           coupling)  # fmt: skip
        st |= _chart_stage(P0, method, T, F, k, 2, h, k3, a3, k4, a4, step, state, wk,
                           coupling)  # fmt: skip
        if st:
            return st, k
        if not chart_rk4_end(k, q, c0, v, (k1, k2, k3, k4), (a1, a2, a3, a4), h, c, Q, QD, QDD,
                             layout):  # fmt: skip
            return NON_FINITE, k
    return OK, -1


subject("the stick-slip simulation loop on charts", chart_stick_slip_loop)
