"""The compiled loops of :func:`eslabon.rollout` (the Python side: :mod:`.rollouts`).

The arguments every kernel here shares, for N runs of K samples and n joints:

* ``Ps`` (M, L): the packed arrays of the runs' M distinct models, ``which`` (N,): the
  model of each run; ``P0s`` (M, L) the same models without Coulomb friction and ``Fs``
  (M, n) each rate's Coulomb friction (:mod:`.stick_slip`); ``Pcs``: the controller
  models of :class:`.laws.ComputedTorque` (``Ps`` itself when each run uses its own
  model; one row when all share one).
* ``law`` (:data:`.laws.NO_LAW`, ``PD_LAW``, ``CT_LAW``) and its ``data``, a tuple
  (T, KP, KD, R0, R1, R2): ``T`` (1 or N,
  1 or K, n) torques held over each step (no law), else the gains ``KP``, ``KD`` (1 or N,
  n) and the references ``R0``, ``R1``, ``R2`` (1 or N, 1 or 2K − 1, n) sampled at the
  half steps (:mod:`.laws`).
* ``Q``, ``QD``, ``QDD`` (N, K, n), row 0 of Q and QD the initial states; ``TAU`` the
  law's torque at each sample (N, K, n; any (1, 1, n) array without a law).

One arm: a torque table runs the loops of :func:`eslabon.simulate`
(:func:`.rk4.rk4_loop`, :func:`.rk4.euler_loop`) unchanged; a law runs
:func:`law_loop`, the same stages with the torque evaluated at each. Four arms of one
model in lock step (the articulated-body algorithm only): :func:`lanes_block`, the same
operations on (n, WIDTH) blocks with the ABA and Newton–Euler kernels compiled for lanes,
each lane in the one-arm order, so every path gives the same numbers bit for bit
(``tests/test_rollout.py``). A run whose model has Coulomb friction runs the loop of
``simulate`` for such a model, :func:`.stick_slip_loops.stick_slip_loop` (Karnopp's
stick–slip per step, a table or a law), one arm at a time: so it too equals
``simulate`` bit for bit (``tests/test_friction_rollout.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .._engine.compile import batch_kernel, subject
from .._engine.lanes import WIDTH
from .._engine.layout import H_NB, H_NV
from .._engine.status import OK
from ..dynamics import aba
from ..dynamics.aba import aba_into
from ..dynamics.rnea import rnea_into
from .chart_loop import chart_rk4_loop
from .chart_stick_slip import chart_stick_slip_loop
from .law_kernels import _row, law_torque
from .laws import CT_LAW, NO_LAW, PD_LAW
from .rk4 import (
    _accel,
    _workspaces,
    euler_loop,
    rk4_buffers,
    rk4_loop,
    rk4_stage2,
    rk4_stage3,
    rk4_stage4,
    rk4_update,
)
from .stick_slip_loops import stick_slip_loop


@njit(cache=True)
def law_loop(P, Pc, method, euler, law, kp, kd, R0, R1, R2, dt, Q, QD, QDD, TAU, extended):
    """One arm under a feedback law: :func:`.rk4.rk4_loop` (or, with ``euler``,
    :func:`.rk4.euler_loop`) with the torque of every stage from :func:`law_torque`;
    TAU[k] the torque at sample k. Returns (status, failing step)."""
    n = int(P[H_NV])
    wa, ws, cw, H, zero, unit, col = _workspaces(P)
    wid = _workspaces(Pc)[1]  # Newton–Euler's, apart from the forward dynamics'
    a1, a2, a3, a4, x, y = rk4_buffers(n)
    tau = np.empty(n)
    cmd = np.empty(n)
    S = max(R0.shape[0], R1.shape[0], R2.shape[0])
    h = dt
    K = Q.shape[0]
    for k in range(K):
        q = Q[k]
        v = QD[k]
        st = law_torque(Pc, law, kp, kd, R0, R1, R2, _row(S, k, 0), q, v, tau, wid, cmd, extended)
        for a in range(n):
            TAU[k, a] = tau[a]
        st |= _accel(P, method, q, v, tau, wa, ws, cw, H, zero, unit, col, a1, extended, None)
        if k == K - 1:
            for a in range(n):
                QDD[k, a] = a1[a]
            return st, (k if st else -1)
        if euler:
            if st:
                return st, k
            for a in range(n):
                QDD[k, a] = a1[a]
                QD[k + 1, a] = v[a] + h * a1[a]
                Q[k + 1, a] = q[a] + h * QD[k + 1, a]
            continue
        mid = _row(S, k, 1)
        for a in range(n):
            x[a], y[a] = rk4_stage2(q[a], v[a], a1[a], h)
        st |= law_torque(Pc, law, kp, kd, R0, R1, R2, mid, x, y, tau, wid, cmd, extended)
        st |= _accel(P, method, x, y, tau, wa, ws, cw, H, zero, unit, col, a2, extended, None)
        for a in range(n):
            x[a], y[a] = rk4_stage3(q[a], v[a], a1[a], a2[a], h)
        st |= law_torque(Pc, law, kp, kd, R0, R1, R2, mid, x, y, tau, wid, cmd, extended)
        st |= _accel(P, method, x, y, tau, wa, ws, cw, H, zero, unit, col, a3, extended, None)
        for a in range(n):
            x[a], y[a] = rk4_stage4(q[a], v[a], a2[a], a3[a], h)
        end = _row(S, k, 2)
        st |= law_torque(Pc, law, kp, kd, R0, R1, R2, end, x, y, tau, wid, cmd, extended)
        st |= _accel(P, method, x, y, tau, wa, ws, cw, H, zero, unit, col, a4, extended, None)
        if st:
            return st, k
        for a in range(n):
            QDD[k, a] = a1[a]
            Q[k + 1, a], QD[k + 1, a] = rk4_update(q[a], v[a], a1[a], a2[a], a3[a], a4[a], h)
    return OK, -1


@njit(cache=True, inline="always")
def _pick(A, i):
    """Row i of a per-run array, or its one row when shared."""
    return A[i] if A.shape[0] > 1 else A[0]


@njit(cache=True)
def one_arm(P, friction, Pc, method, euler, law, data, dt, i, Q, QD, QDD, TAU, extended):
    """Run i alone (its own loop); (status, failing step). ``friction`` = (P0, F): the
    packed model without Coulomb friction and each rate's Coulomb friction; a run with
    some F > 0 takes the stick–slip loop (:func:`.stick_slip_loops.stick_slip_loop`)."""
    T, KP, KD, R0, R1, R2 = data
    P0, F = friction
    if np.any(F > 0.0):
        gains = (_pick(KP, i), _pick(KD, i), _pick(R0, i), _pick(R1, i), _pick(R2, i))
        return stick_slip_loop(
            P0, Pc, method, euler, law, gains, _pick(T, i), F, dt, Q[i], QD[i], QDD[i],
            TAU[i] if law != NO_LAW else TAU[0], extended, None,
        )  # fmt: skip
    if law == NO_LAW:
        if euler:
            return euler_loop(P, method, _pick(T, i), dt, Q[i], QD[i], QDD[i], extended)
        return rk4_loop(P, method, _pick(T, i), dt, Q[i], QD[i], QDD[i], extended)
    return law_loop(
        P, Pc, method, euler, law, _pick(KP, i), _pick(KD, i), _pick(R0, i), _pick(R1, i),
        _pick(R2, i), dt, Q[i], QD[i], QDD[i], TAU[i], extended,
    )  # fmt: skip


@njit(cache=True)
def _lanes_torque(Pc, law, data, runs, lo, m, k, stage, x, v, tau, wid, cmd,
                  extended):  # fmt: skip
    """τ of the arms runs[lo : lo + m] (the block's columns past m repeat the last arm) at
    stage ``stage`` of step k, into the (n, WIDTH) block ``tau``; status."""
    T, KP, KD, R0, R1, R2 = data
    n = x.shape[0]
    for j in range(WIDTH):
        s = runs[lo + min(j, m - 1)]
        if law == NO_LAW:
            ts = s if T.shape[0] > 1 else 0
            tk = k if T.shape[1] > 1 else 0
            for a in range(n):
                tau[a, j] = T[ts, tk, a]
            continue
        kp = _pick(KP, s)
        kd = _pick(KD, s)
        r0 = _pick(R0, s)
        r1 = _pick(R1, s)
        r2 = _pick(R2, s)
        j0 = _row(r0.shape[0], k, stage)
        j1 = _row(r1.shape[0], k, stage)
        j2 = _row(r2.shape[0], k, stage)
        for a in range(n):
            e = r0[j0, a] - x[a, j]
            ed = r1[j1, a] - v[a, j]
            if law == PD_LAW:
                tau[a, j] = r2[j2, a] + kp[a] * e + kd[a] * ed
            else:
                cmd[a, j] = r2[j2, a] + kd[a] * ed + kp[a] * e
    if law == CT_LAW:
        return rnea_into(Pc, x, v, cmd, 1.0, None, wid, tau, extended)
    return OK


@njit(cache=True)
def lanes_block(P, Pc, euler, law, data, h, Q, QD, QDD, TAU, extended, runs, lo, hi):
    """The arms runs[lo:hi] (at most WIDTH, all of model P) in lock step, ABA: the stages
    of :func:`.rk4.rk4_loop` (or :func:`.rk4.euler_loop`, or :func:`law_loop` under a
    law) element by element on (n, WIDTH) blocks. Returns the block's status (not OK:
    rerun its arms one at a time)."""
    n = int(P[H_NV])
    m = hi - lo
    ws = np.empty((int(P[H_NB]) + 1, aba.COLS, WIDTH))
    cols = _workspaces(Pc)[1].shape[1]  # Newton–Euler's workspace, one column per lane
    wid = np.empty((int(Pc[H_NB]) + 1, cols, WIDTH))
    q = np.empty((n, WIDTH))
    v = np.empty((n, WIDTH))
    tau = np.empty((n, WIDTH))
    cmd = np.empty((n, WIDTH))
    x = np.empty((n, WIDTH))
    y = np.empty((n, WIDTH))
    a1 = np.empty((n, WIDTH))
    a2 = np.empty((n, WIDTH))
    a3 = np.empty((n, WIDTH))
    a4 = np.empty((n, WIDTH))
    K = Q.shape[1]
    for k in range(K):
        for j in range(WIDTH):
            s = runs[lo + min(j, m - 1)]
            for a in range(n):
                q[a, j] = Q[s, k, a]
                v[a, j] = QD[s, k, a]
        st = _lanes_torque(Pc, law, data, runs, lo, m, k, 0, q, v, tau, wid, cmd, extended)
        st |= aba_into(P, q, v, tau, ws, a1, extended)
        if st != OK:
            return st
        for j in range(m):
            s = runs[lo + j]
            for a in range(n):
                QDD[s, k, a] = a1[a, j]
                if law != NO_LAW:
                    TAU[s, k, a] = tau[a, j]
        if k == K - 1:
            break
        if euler:
            for j in range(m):
                s = runs[lo + j]
                for a in range(n):
                    QD[s, k + 1, a] = v[a, j] + h * a1[a, j]
                    Q[s, k + 1, a] = q[a, j] + h * QD[s, k + 1, a]
            continue
        for a in range(n):
            for j in range(WIDTH):
                x[a, j], y[a, j] = rk4_stage2(q[a, j], v[a, j], a1[a, j], h)
        if law != NO_LAW:
            st |= _lanes_torque(Pc, law, data, runs, lo, m, k, 1, x, y, tau, wid, cmd, extended)
        st |= aba_into(P, x, y, tau, ws, a2, extended)
        for a in range(n):
            for j in range(WIDTH):
                x[a, j], y[a, j] = rk4_stage3(q[a, j], v[a, j], a1[a, j], a2[a, j], h)
        if law != NO_LAW:
            st |= _lanes_torque(Pc, law, data, runs, lo, m, k, 1, x, y, tau, wid, cmd, extended)
        st |= aba_into(P, x, y, tau, ws, a3, extended)
        for a in range(n):
            for j in range(WIDTH):
                x[a, j], y[a, j] = rk4_stage4(q[a, j], v[a, j], a2[a, j], a3[a, j], h)
        if law != NO_LAW:
            st |= _lanes_torque(Pc, law, data, runs, lo, m, k, 2, x, y, tau, wid, cmd, extended)
        st |= aba_into(P, x, y, tau, ws, a4, extended)
        if st != OK:
            return st
        for j in range(m):
            s = runs[lo + j]
            for a in range(n):
                Q[s, k + 1, a], QD[s, k + 1, a] = rk4_update(
                    q[a, j], v[a, j], a1[a, j], a2[a, j], a3[a, j], a4[a, j], h
                )
    return OK


@batch_kernel
def rollout_lanes(Ps, which, P0s, Fs, Pcs, euler, law, data, dt, Q, QD, QDD, TAU, extended, runs,
                  starts, status, step):  # fmt: skip
    """ABA over blocks: block b is the arms runs[starts[b] : starts[b + 1]], at most
    WIDTH, all of one model (:func:`lanes_block`); a failed block's arms rerun one at a
    time (:func:`one_arm`), for their own status and step, and a block of one arm runs
    :func:`one_arm` at once (on the PUMA 560, 6.3 µs per step as a block of one lane
    against 4.3 µs alone, and 1.8 µs per arm in a full block). A model with Coulomb
    friction (a row of ``Fs`` with some F > 0, ``P0s`` its packed model without it) has
    its runs in blocks of one (:func:`.rollouts._blocks`): the stick–slip loop runs one
    arm at a time."""
    for b in prange(starts.shape[0] - 1):
        lo = starts[b]
        hi = starts[b + 1]
        m = which[runs[lo]]
        P = Ps[m]
        Pc = Pcs[m] if Pcs.shape[0] > 1 else Pcs[0]
        if hi - lo == 1 or lanes_block(
            P, Pc, euler, law, data, dt, Q, QD, QDD, TAU, extended, runs, lo, hi
        ):  # (one arm alone runs its own loop: a lanes block of one is slower)
            for r in range(lo, hi):
                i = runs[r]
                st, k = one_arm(P, (P0s[m], Fs[m]), Pc, 0, euler, law, data, dt, i, Q, QD, QDD,
                                TAU, extended)  # fmt: skip
                status[i] = st
                step[i] = k


@batch_kernel
def rollout_arms(Ps, which, P0s, Fs, Pcs, method, euler, law, data, dt, Q, QD, QDD, TAU, extended,
                 status, step):  # fmt: skip
    """Each run alone (:func:`one_arm`), the runs shared among the threads; its status
    and failing step."""
    for i in prange(Q.shape[0]):
        m = which[i]
        Pc = Pcs[m] if Pcs.shape[0] > 1 else Pcs[0]
        st, k = one_arm(Ps[m], (P0s[m], Fs[m]), Pc, method, euler, law, data, dt, i, Q, QD, QDD,
                        TAU, extended)  # fmt: skip
        status[i] = st
        step[i] = k


@njit(cache=True)
def general_run(P, method, euler, T, dt, Q, QD, QDD, layout, extended, coupling):
    """One run of a model with quaternion or mimic joints through the loop
    :func:`eslabon.simulate` takes for it: RK4 on charts (:func:`.chart_loop.
    chart_rk4_loop`) when ``layout`` is given (q holds quaternions), else
    :func:`.rk4.rk4_loop` or :func:`.rk4.euler_loop`; ``coupling`` the mimic map
    (:func:`eslabon.dynamics.coupled_fd.coupling_arrays`) or None."""
    if layout is not None:
        return chart_rk4_loop(P, method, T, dt, Q, QD, QDD, layout, extended, coupling)
    if euler:
        return euler_loop(P, method, T, dt, Q, QD, QDD, extended, coupling)
    return rk4_loop(P, method, T, dt, Q, QD, QDD, extended, coupling)


@njit(cache=True, inline="always")
def _own_workspaces(coupling):
    """The mimic map with workspaces of this run's own (the runs share the map itself)."""
    q_from, q_scale, q_offset, G, starts, rows, qe, ve, be, M = coupling
    w = (np.empty_like(qe), np.empty_like(ve), np.empty_like(be), np.empty_like(M))
    return (q_from, q_scale, q_offset, G, starts, rows) + w


@njit(cache=True)
def _general_one(P, P0, F, method, euler, T, dt, Q, QD, QDD, layout, extended, coupling):
    """One run of :func:`rollout_general`: with mimic joints through workspaces of its
    own; with Coulomb friction (some F > 0, ``P0`` the model without it), the stick–slip
    loop (on charts when ``layout`` is given), as :func:`eslabon.simulate` runs it; else
    :func:`general_run`."""
    if coupling is not None:
        coupling = _own_workspaces(coupling)
    for f in F:
        if f > 0.0:
            if layout is not None:
                return chart_stick_slip_loop(
                    P0, method, T, F, dt, Q, QD, QDD, layout, extended, coupling
                )
            return stick_slip_loop(
                P0, P0, method, euler, NO_LAW, None, T, F, dt, Q, QD, QDD,
                np.zeros((1, QD.shape[1])), extended, coupling,
            )  # fmt: skip
    return general_run(P, method, euler, T, dt, Q, QD, QDD, layout, extended, coupling)


@batch_kernel
def rollout_general(Ps, which, P0s, Fs, method, euler, T, dt, Q, QD, QDD, layout, extended,
                    coupling, status, step):  # fmt: skip
    """Each run of a model with quaternion or mimic joints alone (:func:`_general_one`,
    torques held over each step, ``T`` (1 or N, 1 or K, nv)), the runs shared among the
    threads; its status and failing step. ``Q`` (N, K, nq), ``QD``, ``QDD`` (N, K, nv)."""
    for i in prange(Q.shape[0]):
        m = which[i]
        Ti = T[i] if T.shape[0] > 1 else T[0]
        st, k = _general_one(Ps[m], P0s[m], Fs[m], method, euler, Ti, dt, Q[i], QD[i], QDD[i],
                             layout, extended, coupling)  # fmt: skip
        status[i] = st
        step[i] = k


subject("batch rollouts", rollout_lanes, rollout_arms)
subject("batch rollouts (quaternion or mimic joints)", rollout_general)
