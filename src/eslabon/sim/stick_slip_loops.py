"""The compiled fixed-step loop for a model with Coulomb friction: classical RK4 or
semi-implicit Euler with Karnopp's stick–slip decided at the start of each step
(:mod:`.stick_slip`, the algorithm and its sources), under a torque table or a compiled
feedback law (:mod:`.laws`). It is the loop of :func:`eslabon.simulate` (a table) and of
each frictional run of :func:`eslabon.rollout` (a table or a law), so a rollout equals
``simulate`` bit for bit with friction too.

Every forward dynamics is that of the model *without* Coulomb friction (``P0``) under
the torque less each joint's Coulomb torque for its mode
(:func:`.stick_slip.effective_torque`):

    q̈ = FD₀(q, q̇, τ − τ_c),   τ_c,j = F_j sign(q̇_j) (free), ± F_j (slip), 0 (stuck),

then the stuck set S is held by q̈ ← q̈ − X_{:,S} (X_SS)⁻¹ q̈_S with X = M(q)⁻¹
(:func:`.stick_slip.constrain`). X comes from the composite-rigid-body mass matrix
(:func:`eslabon.dynamics.composite_rigid_body.crba_into`, armature included; with mimic
joints that of the independent coordinates, Gᵀ H_e G, :func:`eslabon.dynamics.coupled_fd.
coupled_mass_into`) inverted by Cholesky
(:func:`eslabon.dynamics.cholesky_forward_dynamics.spd_inverse`): once at the start of
each step (the band test needs (M⁻¹)_jj), and at a later stage only while some joint
sticks. The
stages are those of :func:`.rk4.rk4_loop` (:func:`.rk4.rk4_stage2` …
:func:`.rk4.rk4_update`); a stuck joint has q̇ = 0 and q̈ = 0 at every stage, so its
coordinate is carried over unchanged, to the bit.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._engine.compile import subject
from .._engine.status import NOT_POSITIVE_DEFINITE, OK
from ..dynamics.cholesky_forward_dynamics import spd_inverse
from ..dynamics.composite_rigid_body import crba_into
from ..dynamics.coupled_fd import coupled_mass_into
from .law_kernels import _row, law_torque
from .laws import NO_LAW
from .rk4 import (
    _accel,
    _workspaces,
    rk4_buffers,
    rk4_stage2,
    rk4_stage3,
    rk4_stage4,
    rk4_update,
)
from .stick_slip import STUCK, candidates, constrain, effective_torque, release, stop


@njit(cache=True, inline="always")
def _inverse_mass(P0, x, wk, X, extended, coupling):
    """X ← M(x)⁻¹ (composite-rigid-body mass matrix, Cholesky inverse); with
    ``coupling`` (mimic joints), that of the independent coordinates, Gᵀ H_e G
    (:func:`eslabon.dynamics.coupled_fd.coupled_mass_into`); status."""
    cw, H = wk[2], wk[3]
    if coupling is None:
        st = crba_into(P0, x, cw, H, extended)
        return st | spd_inverse(H, X, X.shape[0])
    st, Hr = coupled_mass_into(P0, x, coupling, cw, H, extended)
    return st | spd_inverse(Hr, X, X.shape[0])


@njit(cache=True, inline="always")
def _any_stuck(mode):
    for j in range(len(mode)):
        if mode[j] == STUCK:
            return True
    return False


@njit(cache=True, inline="always")
def _torque(Pc, law, gains, T, k, stage, x, v, tau, wid, cmd, extended):
    """τ at stage ``stage`` (0: t_k, 1: t_k + h/2, 2: t_k + h) of step k: row k of the
    table ``T`` (or its one row), or the law's value at (x, v); status. ``gains`` None
    (a table only): numba leaves the law out of the compiled loop."""
    if gains is None or law == NO_LAW:
        row = T[k] if T.shape[0] > 1 else T[0]
        for a in range(len(tau)):
            tau[a] = row[a]
        return OK
    kp, kd, R0, R1, R2 = gains
    S = max(R0.shape[0], R1.shape[0], R2.shape[0])
    j = _row(S, k, stage)
    return law_torque(Pc, law, kp, kd, R0, R1, R2, j, x, v, tau, wid, cmd, extended)


@njit(cache=True, inline="always")
def _start(P0, Pc, method, law, gains, T, F, h, k, q, v, state, wk, wid, out, extended, coupling):
    """Steps 1–3 of :mod:`.stick_slip` at the start of step k (``v`` changed in place:
    the stuck joints stopped), then q̈ there with S held; the torque at the stopped state
    is left in ``state[4]``. Status."""
    X, mode, fixed, hold, tau, te, cmd, wsp = state
    st = _inverse_mass(P0, q, wk, X, extended, coupling)
    if st != OK:
        return st
    wa, ws, cw, H, zero, unit, col = wk
    candidates(v, X, F, h, mode, fixed)
    if _any_stuck(mode):
        st |= _torque(Pc, law, gains, T, k, 0, q, v, tau, wid, cmd, extended)
        effective_torque(tau, v, F, mode, fixed, te)
        st |= _accel(P0, method, q, v, te, wa, ws, cw, H, zero, unit, col, out, extended, coupling)
        if st != OK:
            return st
        if not (release(out, X, F, mode, fixed, wsp) and stop(v, X, mode, wsp)):
            return NOT_POSITIVE_DEFINITE
    st |= _torque(Pc, law, gains, T, k, 0, q, v, tau, wid, cmd, extended)
    effective_torque(tau, v, F, mode, fixed, te)
    st |= _accel(P0, method, q, v, te, wa, ws, cw, H, zero, unit, col, out, extended, coupling)
    if st == OK and not constrain(out, X, mode, hold, wsp):
        st = NOT_POSITIVE_DEFINITE
    return st


@njit(cache=True, inline="always")
def _stage(
    P0, Pc, method, law, gains, T, F, k, stage, x, y, state, wk, wid, out, extended, coupling
):
    """q̈ at a later stage of step k, the modes of its start held (the stuck joints by
    the constrained dynamics at the stage's configuration). Status."""
    X, mode, fixed, hold, tau, te, cmd, wsp = state
    wa, ws, cw, H, zero, unit, col = wk
    st = _torque(Pc, law, gains, T, k, stage, x, y, tau, wid, cmd, extended)
    effective_torque(tau, y, F, mode, fixed, te)
    st |= _accel(P0, method, x, y, te, wa, ws, cw, H, zero, unit, col, out, extended, coupling)
    if st == OK and _any_stuck(mode):
        st = _inverse_mass(P0, x, wk, X, extended, coupling)
        if st == OK and not constrain(out, X, mode, hold, wsp):
            st = NOT_POSITIVE_DEFINITE
    return st


@njit(cache=True, inline="always")
def state_buffers(n):
    """The stick–slip state of a loop over n rates, as :func:`_start` and :func:`_stage`
    take it."""
    return (
        np.zeros((n, n)),  # X = M⁻¹
        np.zeros(n, np.int64),  # each joint's mode
        np.zeros(n),  # the slip torque of a released joint
        np.zeros(n),  # the holding torques of the stuck joints
        np.empty(n),  # τ
        np.empty(n),  # τ less the Coulomb torques
        np.empty(n),  # computed torque's commanded q̈
        (np.empty(n, np.int64), np.empty((n, n)), np.empty(n)),  # stick_slip.workspace
    )


@njit(cache=True)
def stick_slip_loop(
    P0, Pc, method, euler, law, gains, T, F, dt, Q, QD, QDD, TAU, extended, coupling
):
    """:func:`.rk4.rk4_loop` (or, with ``euler``, :func:`.rk4.euler_loop`) with the
    stick–slip of each step, under the torque table ``T`` ((K or 1, n), ``law`` NO_LAW)
    (``gains`` None: the loop is compiled without the laws' code, as :func:`eslabon.simulate`
    runs it) or a compiled law (``gains`` = (kp, kd, R0, R1, R2) as
    :func:`.rollout_kernels.law_loop` takes them, ``Pc`` the controller's packed model,
    TAU[k] the law's torque at sample k). ``P0``: the packed model without Coulomb
    friction; ``F`` (n,): each rate's Coulomb friction. QD[k] receives the rates after
    the stuck joints were stopped. Returns (status, failing step)."""
    n = QD.shape[1]
    wk = _workspaces(P0)
    wid = _workspaces(Pc)[1]  # Newton–Euler's, for computed torque
    state = state_buffers(n)
    tau = state[4]
    a1, a2, a3, a4, x, y = rk4_buffers(n)
    h = dt
    K = Q.shape[0]
    for k in range(K):
        q = Q[k]
        v = QD[k]
        st = _start(P0, Pc, method, law, gains, T, F, h, k, q, v, state, wk, wid, a1, extended,
                    coupling)  # fmt: skip
        if law != NO_LAW:
            for a in range(n):
                TAU[k, a] = tau[a]
        if k == K - 1:
            for a in range(n):
                QDD[k, a] = a1[a]
            return st, (k if st else -1)
        if not euler:
            for a in range(n):
                x[a], y[a] = rk4_stage2(q[a], v[a], a1[a], h)
            st |= _stage(P0, Pc, method, law, gains, T, F, k, 1, x, y, state, wk, wid, a2,
                         extended, coupling)  # fmt: skip
            for a in range(n):
                x[a], y[a] = rk4_stage3(q[a], v[a], a1[a], a2[a], h)
            st |= _stage(P0, Pc, method, law, gains, T, F, k, 1, x, y, state, wk, wid, a3,
                         extended, coupling)  # fmt: skip
            for a in range(n):
                x[a], y[a] = rk4_stage4(q[a], v[a], a2[a], a3[a], h)
            st |= _stage(P0, Pc, method, law, gains, T, F, k, 2, x, y, state, wk, wid, a4,
                         extended, coupling)  # fmt: skip
        if st:
            return st, k
        for a in range(n):
            QDD[k, a] = a1[a]
            if euler:
                QD[k + 1, a] = v[a] + h * a1[a]
                Q[k + 1, a] = q[a] + h * QD[k + 1, a]
            else:
                Q[k + 1, a], QD[k + 1, a] = rk4_update(q[a], v[a], a1[a], a2[a], a3[a], a4[a], h)
    return OK, -1


subject("the stick-slip simulation loop", stick_slip_loop)
