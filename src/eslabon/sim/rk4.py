"""The classical Runge–Kutta step (4 stages), and the fixed-step loop that runs it in
compiled code.

For ẏ = f(t, y) and a step h::

    k1 = f(t, y)                   k2 = f(t + h/2, y + h/2 k1)
    k3 = f(t + h/2, y + h/2 k2)    k4 = f(t + h, y + h k3)
    y⁺ = y + h/6 (k1 + 2 k2 + 2 k3 + k4)

With y = [q; v] and f = [v; q̈] the stages' first halves are v, v2 = v + h/2 a1,
v3 = v + h/2 a2 and v4 = v + h a3, so the step is seed 001's ``walkerorinrunge3`` operation
for operation:

    a1 = FD(q, v)              a2 = FD(q + h/2 v,  v + h/2 a1)
    a3 = FD(q + h/2 v2, v + h/2 a2),   v2 = v + h/2 a1
    a4 = FD(q + h v3,  v + h a3),       v3 = v + h/2 a2,   v4 = v + h a3
    q⁺ = q + h/6 (v + 2 v2 + 2 v3 + v4),   v⁺ = v + h/6 (a1 + 2 a2 + 2 a3 + a4)

(the seed also rounds each step to 1e-13 "against numerical oscillation"; that is not
physics and is not reproduced).

:func:`rk4_step` is the step of every loop that runs in Python: :func:`eslabon.simulate`
with a callable torque and :func:`eslabon.mobile.simulate` with ``integrator="rk4"``.
:func:`rk4_loop` is the compiled loop of :func:`eslabon.simulate` for a torque held over
each step (zero-order hold, as the seed's); it writes the same stages out element by
element, so both loops give the same numbers (``tests/test_sim_compiled.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._engine.compile import subject
from .._engine.layout import H_NB, H_NQ
from .._engine.outward_pass import WS_COLS
from ..dynamics.aba import COLS as ABA_COLS
from ..dynamics.aba import aba_into
from ..dynamics.cholesky_forward_dynamics import fd_into
from ..dynamics.codes import COMPOSITE, NE_COLUMNS
from ..dynamics.composite_rigid_body import COLS as CRBA_COLS
from ..dynamics.coupled_fd import coupled_fd_into

FD_CODES = {"aba": 0, "crba": COMPOSITE, "rnea_columns": NE_COLUMNS}  # compiled algorithms


def rk4_step(rate, t, y, h, *args):
    """One classical Runge–Kutta step of ẏ = ``rate(t, y, *args)`` from ``(t, y)``.

    Parameters
    ----------
    rate : callable
        ``rate(t, y, *args) -> ẏ``, an array of the shape of ``y``.
    t : float
        Time at the start of the step [s].
    y : numpy.ndarray
        State at ``t``; not modified.
    h : float
        Step [s].
    *args
        Passed on to ``rate`` at each of the four stages.

    Returns
    -------
    numpy.ndarray
        The state at ``t + h`` by the formulas of the module docstring, in their order
        of operations.

    Notes
    -----
    The compiled loop :func:`rk4_loop` does not call this function: a numba step that
    takes the derivative as an argument is possible (a ``rate`` bound when the step is
    made, so that numba can cache it), but every stage then passes the forward-dynamics
    workspaces (ten arrays) through one more call, whose reference counting made the
    loop 1 µs per step slower (measured: +14 % on the PUMA 560, +30 % on the two-link
    arm, with the stage arrays preallocated and the calls inlined). Its stages are the
    same operations element by element, checked against this step by
    ``tests/test_sim_compiled.py``.
    """
    k1 = rate(t, y, *args)
    k2 = rate(t + h / 2, y + h / 2 * k1, *args)
    k3 = rate(t + h / 2, y + h / 2 * k2, *args)
    k4 = rate(t + h, y + h * k3, *args)
    return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


@njit(cache=True)
def _accel(P, method, x, v, tau, wa, ws, cw, H, zero, unit, col, out, extended, coupling):
    """q̈ into ``out`` by ``method`` (:data:`FD_CODES`); with ``coupling``
    (:func:`eslabon.dynamics.coupled_fd.coupling_arrays`; None without mimic joints), of
    a model with mimic joints."""
    if coupling is not None:
        return coupled_fd_into(
            P, x, v, tau, method, coupling, ws, cw, H, zero, unit, col, out, extended
        )
    if method == 0:
        return aba_into(P, x, v, tau, wa, out, extended)
    return fd_into(P, x, v, tau, method, ws, cw, H, zero, unit, col, out, extended)


@njit(cache=True)
def _workspaces(P):
    """The forward dynamics' workspaces for :func:`_accel` (every method's)."""
    nb = int(P[H_NB])
    n = int(P[H_NQ])
    return (
        np.empty((nb + 1, ABA_COLS)),
        np.empty((nb + 1, WS_COLS)),
        np.empty((nb + 1, CRBA_COLS)),
        np.empty((n, n)),
        np.zeros(n),
        np.zeros(n),
        np.empty(n),
    )


@njit(cache=True, inline="always")
def last_sample(P, method, T, Q, QD, QDD, wk, a1, extended, coupling):
    """q̈ at the last sample (under its torque row) into QDD's last row: the end of every
    fixed-step loop. Returns (status, the last sample or −1)."""
    wa, ws, cw, H, zero, unit, col = wk
    last = Q.shape[0] - 1
    tau = T[last] if T.shape[0] > 1 else T[0]
    st = _accel(
        P, method, Q[last], QD[last], tau, wa, ws, cw, H, zero, unit, col, a1, extended, coupling
    )
    for a in range(QD.shape[1]):
        QDD[last, a] = a1[a]
    return st, (last if st else -1)


@njit(cache=True, inline="always")
def rk4_buffers(n):
    """The four stage accelerations and the two stage states (x, y) of a step: six (n,)
    arrays."""
    return np.empty(n), np.empty(n), np.empty(n), np.empty(n), np.empty(n), np.empty(n)


@njit(cache=True, inline="always")
def rk4_stage2(q, v, a1, h):
    """One coordinate of the second stage's state: y + h/2 k1 for y = [q; v], k1 = [v; a1]."""
    return q + h / 2 * v, v + h / 2 * a1


@njit(cache=True, inline="always")
def rk4_stage3(q, v, a1, a2, h):
    """The third stage's: y + h/2 k2, k2 = [v + h/2 a1; a2]."""
    v2 = v + h / 2 * a1
    return q + h / 2 * v2, v + h / 2 * a2


@njit(cache=True, inline="always")
def rk4_stage4(q, v, a2, a3, h):
    """The fourth stage's: y + h k3, k3 = [v + h/2 a2; a3]."""
    v3 = v + h / 2 * a2
    return q + h * v3, v + h * a3


@njit(cache=True, inline="always")
def rk4_update(q, v, a1, a2, a3, a4, h):
    """One coordinate of y + h/6 (k1 + 2 k2 + 2 k3 + k4): (q⁺, v⁺). Every RK4 loop of
    eslabon (:func:`rk4_loop`, the rollouts' one-arm and lanes loops) steps through these
    four functions, so their results agree bit for bit."""
    v2 = v + h / 2 * a1
    v3 = v + h / 2 * a2
    v4 = v + h * a3
    return q + h / 6 * (v + 2 * v2 + 2 * v3 + v4), v + h / 6 * (a1 + 2 * a2 + 2 * a3 + a4)


@njit(cache=True)
def rk4_loop(P, method, T, dt, Q, QD, QDD, extended, coupling=None):
    """Fill rows 1..K-1 of Q, QD (row 0 holds the initial state) and every row of QDD
    (the first stage of each step is the acceleration at the sample). ``T`` is (K, n)
    (one torque per step) or (1, n) (constant); ``extended`` the joint set
    (:mod:`eslabon._engine.joints`); ``coupling`` the mimic joints' map and workspaces
    (:func:`eslabon.dynamics.coupled_fd.coupling_arrays`), or None. Returns (status,
    failing step).

    Each step is :func:`rk4_step` on y = [q; v], its stages written element by element
    (see the notes of :func:`rk4_step`)."""
    n = QD.shape[1]
    wa, ws, cw, H, zero, unit, col = _workspaces(P)
    a1, a2, a3, a4, x, y = rk4_buffers(n)
    h = dt
    for k in range(Q.shape[0] - 1):
        tau = T[k] if T.shape[0] > 1 else T[0]
        q = Q[k]
        v = QD[k]
        st = _accel(P, method, q, v, tau, wa, ws, cw, H, zero, unit, col, a1, extended, coupling)
        for a in range(n):
            x[a], y[a] = rk4_stage2(q[a], v[a], a1[a], h)
        st |= _accel(P, method, x, y, tau, wa, ws, cw, H, zero, unit, col, a2, extended, coupling)
        for a in range(n):
            x[a], y[a] = rk4_stage3(q[a], v[a], a1[a], a2[a], h)
        st |= _accel(P, method, x, y, tau, wa, ws, cw, H, zero, unit, col, a3, extended, coupling)
        for a in range(n):
            x[a], y[a] = rk4_stage4(q[a], v[a], a2[a], a3[a], h)
        st |= _accel(P, method, x, y, tau, wa, ws, cw, H, zero, unit, col, a4, extended, coupling)
        if st:
            return st, k
        for a in range(n):
            QDD[k, a] = a1[a]
            Q[k + 1, a], QD[k + 1, a] = rk4_update(q[a], v[a], a1[a], a2[a], a3[a], a4[a], h)
    return last_sample(P, method, T, Q, QD, QDD, (wa, ws, cw, H, zero, unit, col), a1,
                       extended, coupling)  # fmt: skip


@njit(cache=True)
def euler_loop(P, method, T, dt, Q, QD, QDD, extended, coupling=None):
    """Semi-implicit (symplectic) Euler, as :func:`rk4_loop` takes its arguments: from
    each sample, q̈ = FD(q, q̇, τ), then q̇⁺ = q̇ + h q̈ and q⁺ = q + h q̇⁺ (the rate
    updated first, as MuJoCo's Euler does). Returns (status, failing step)."""
    n = QD.shape[1]
    wa, ws, cw, H, zero, unit, col = _workspaces(P)
    a1 = np.empty(n)
    h = dt
    for k in range(Q.shape[0] - 1):
        tau = T[k] if T.shape[0] > 1 else T[0]
        q = Q[k]
        v = QD[k]
        st = _accel(P, method, q, v, tau, wa, ws, cw, H, zero, unit, col, a1, extended, coupling)
        if st:
            return st, k
        for a in range(n):
            QDD[k, a] = a1[a]
            QD[k + 1, a] = v[a] + h * a1[a]
            Q[k + 1, a] = q[a] + h * QD[k + 1, a]
    return last_sample(P, method, T, Q, QD, QDD, (wa, ws, cw, H, zero, unit, col), a1,
                       extended, coupling)  # fmt: skip


subject("the RK4 simulation loop", rk4_loop)
subject("the Euler simulation loop", euler_loop)
