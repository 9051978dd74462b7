"""Many runs at once: N initial states, each with its torques, simulated in one parallel
compiled call (what reinforcement learning, model-predictive control and Monte-Carlo
studies need; MuJoCo's ``mujoco.rollout`` is the anchor).

Each run is the compiled fixed-step loop of :func:`eslabon.simulate` — classical RK4
(:func:`.rk4.rk4_loop`) or semi-implicit Euler (:func:`.rk4.euler_loop`) — run on its own
thread's share of the batch, so a rollout equals N separate ``simulate`` calls bit for
bit (``tests/test_rollout.py``). The torque of each run is a constant or one row per step
held over it (zero-order hold), given once for every run or per run.

RK4 with the articulated-body algorithm runs :data:`~eslabon._engine.lanes.WIDTH` arms in
lock step (:func:`rk4_lanes`): the same stages on (n, WIDTH) blocks, the ABA compiled for
lanes, each lane the one-arm loop's operations in its order, so still bit for bit. A
block whose dynamics fail is run again arm by arm, which reports the failing arm.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from .._args import finite_number, real_array
from .._engine.compile import batch_kernel, subject
from .._engine.joints import extended_of
from .._engine.lanes import WIDTH
from .._engine.layout import H_NB, H_NV
from .._engine.status import OK
from ..dynamics import aba
from ..dynamics.aba import aba_into
from .rk4 import FD_CODES, euler_loop, rk4_loop

METHODS = ("rk4", "euler")


class Rollout(NamedTuple):
    """The runs of :func:`rollout`.

    Attributes
    ----------
    t : ndarray
        Sample times [s], shape (K,).
    q, qd, qdd : ndarray
        Per run and sample: joint positions [rad, m], rates [/s] and accelerations [/s²],
        each of shape (N, K, n).
    """

    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray


@batch_kernel
def _rollout_many(P, code, euler, T, dt, Q, QD, QDD, extended, status, step):
    """Run i = 0 … N−1 of the batch: the simulate loop on Q[i], QD[i], QDD[i] with the
    torques T[i] (or T[0] for all); its status and failing step."""
    for i in prange(Q.shape[0]):
        Ti = T[i] if T.shape[0] > 1 else T[0]
        if euler:
            st, k = euler_loop(P, code, Ti, dt, Q[i], QD[i], QDD[i], extended)
        else:
            st, k = rk4_loop(P, code, Ti, dt, Q[i], QD[i], QDD[i], extended)
        status[i] = st
        step[i] = k


@njit(cache=True)
def rk4_lanes(P, T, h, Q, QD, QDD, extended, s0, hi):
    """RK4 with ABA for arms s0 … hi−1 (at most WIDTH) in lock step: the stages of
    :func:`.rk4.rk4_loop` element by element on (n, WIDTH) blocks. Columns at or past
    ``hi`` repeat arm hi − 1 and are dropped. Returns the block's status (not OK: rerun
    its arms one at a time)."""
    n = int(P[H_NV])
    ws = np.empty((int(P[H_NB]) + 1, aba.COLS, WIDTH))
    q = np.empty((n, WIDTH))
    v = np.empty((n, WIDTH))
    tau = np.empty((n, WIDTH))
    x = np.empty((n, WIDTH))
    y = np.empty((n, WIDTH))
    a1 = np.empty((n, WIDTH))
    a2 = np.empty((n, WIDTH))
    a3 = np.empty((n, WIDTH))
    a4 = np.empty((n, WIDTH))
    K = Q.shape[1]
    for k in range(K):
        for j in range(WIDTH):
            s = min(s0 + j, hi - 1)
            row = T[s if T.shape[0] > 1 else 0, k if T.shape[1] > 1 else 0]
            for a in range(n):
                q[a, j] = Q[s, k, a]
                v[a, j] = QD[s, k, a]
                tau[a, j] = row[a]
        st = aba_into(P, q, v, tau, ws, a1, extended)
        if st != OK:
            return st
        for j in range(min(WIDTH, hi - s0)):
            for a in range(n):
                QDD[s0 + j, k, a] = a1[a, j]
        if k == K - 1:
            break
        for a in range(n):
            for j in range(WIDTH):
                x[a, j] = q[a, j] + h / 2 * v[a, j]
                y[a, j] = v[a, j] + h / 2 * a1[a, j]
        st = aba_into(P, x, y, tau, ws, a2, extended)
        for a in range(n):
            for j in range(WIDTH):
                v2 = v[a, j] + h / 2 * a1[a, j]
                x[a, j] = q[a, j] + h / 2 * v2
                y[a, j] = v[a, j] + h / 2 * a2[a, j]
        st |= aba_into(P, x, y, tau, ws, a3, extended)
        for a in range(n):
            for j in range(WIDTH):
                v3 = v[a, j] + h / 2 * a2[a, j]
                x[a, j] = q[a, j] + h * v3
                y[a, j] = v[a, j] + h * a3[a, j]
        st |= aba_into(P, x, y, tau, ws, a4, extended)
        if st != OK:
            return st
        for j in range(min(WIDTH, hi - s0)):
            for a in range(n):
                v2 = v[a, j] + h / 2 * a1[a, j]
                v3 = v[a, j] + h / 2 * a2[a, j]
                v4 = v[a, j] + h * a3[a, j]
                Q[s0 + j, k + 1, a] = q[a, j] + h / 6 * (v[a, j] + 2 * v2 + 2 * v3 + v4)
                QD[s0 + j, k + 1, a] = v[a, j] + h / 6 * (
                    a1[a, j] + 2 * a2[a, j] + 2 * a3[a, j] + a4[a, j]
                )
    return OK


@batch_kernel
def _rollout_lanes(P, T, dt, Q, QD, QDD, extended, status, step):
    """RK4 with ABA over blocks of WIDTH arms (:func:`rk4_lanes`); a failed block's arms
    rerun one at a time by :func:`.rk4.rk4_loop`, for their own status and step."""
    N = Q.shape[0]
    blocks = (N + WIDTH - 1) // WIDTH
    for b in prange(blocks):
        s0 = b * WIDTH
        hi = min(N, s0 + WIDTH)
        if rk4_lanes(P, T, dt, Q, QD, QDD, extended, s0, hi) != OK:
            for i in range(s0, hi):
                Ti = T[i] if T.shape[0] > 1 else T[0]
                st, k = rk4_loop(P, 0, Ti, dt, Q[i], QD[i], QDD[i], extended)
                status[i] = st
                step[i] = k


def _torques(torque, N, K, n):
    """(N or 1, K or 1, n) torques from None, (n,), (N, n), (K, n) or (N, K, n)."""
    if torque is None:
        return np.zeros((1, 1, n))
    T = real_array(torque, "torque")
    if not np.all(np.isfinite(T)):
        raise ValueError("torque: expected finite values")
    if T.shape == (n,):
        return T.reshape(1, 1, n)
    if T.ndim == 2 and N == K and T.shape == (N, n):
        raise ValueError(
            f"torque: with as many runs as samples (N = K = {N}) an array ({N}, {n}) could "
            f"be one constant per run or one row per sample; give ({N}, 1, {n}) or "
            f"(1, {K}, {n})"
        )
    if T.shape in ((1, K, n), (N, 1, n), (1, 1, n)):
        return np.ascontiguousarray(T)
    if T.shape == (N, n):
        return np.ascontiguousarray(T.reshape(N, 1, n))
    if T.shape == (K, n):
        return np.ascontiguousarray(T.reshape(1, K, n))
    if T.shape == (N, K, n):
        return np.ascontiguousarray(T)
    raise ValueError(
        f"torque: expected None or shape ({n},) (all runs, constant), ({N}, {n}) or "
        f"({N}, 1, {n}) (per run), ({K}, {n}) or (1, {K}, {n}) (all runs, one row per "
        f"sample) or ({N}, {K}, {n}), got {T.shape}"
    )


def rollout(model, q0, qd0, t_final: float, dt: float, *, torque=None, method: str = "rk4",
            fd_method: str = "aba") -> Rollout:  # fmt: skip
    """Simulate N runs of ``model`` at once, each from its own (q0, qd0) with its torques.

    Run i equals ``eslabon.simulate(model, t_final, dt, q0=q0[i], qd0=qd0[i],
    torque=torque_i, method=method, fd_method=fd_method)`` bit for bit; the runs are
    shared among the threads (:func:`eslabon.set_num_threads`).

    Parameters
    ----------
    model : Model
        A robot whose configuration is its rates (nq = nv: no quaternion joints) and
        without mimic joints.
    q0, qd0 : array_like (N, n)
        Initial positions [rad, m] and rates [rad/s, m/s], one row per run.
    t_final : float
        Duration [s], > 0.
    dt : float
        The step and sample spacing [s], a divisor of ``t_final``.
    torque : array_like, optional
        Joint torques [N·m, N], held over each step: ``(n,)`` for every run and step,
        ``(N, n)`` one constant per run, ``(K, n)`` one row per sample for every run, or
        ``(N, K, n)``; K = t_final/dt + 1. When N = K a 2-D array is ambiguous and
        refused: give ``(N, 1, n)`` or ``(1, K, n)``. Default zero.
    method : {"rk4", "euler"}
        Classical RK4, or semi-implicit (symplectic) Euler: q̇⁺ = q̇ + h q̈(q, q̇),
        q⁺ = q + h q̇⁺.
    fd_method : str
        ``"aba"``, ``"walker_orin_3"`` or ``"walker_orin_1"``.

    Returns
    -------
    Rollout
        ``t`` (K,), ``q``, ``qd``, ``qdd`` (N, K, n).

    Raises
    ------
    ValueError
        Initial states of other shapes or not finite; a torque of another shape or not
        finite; a bad ``t_final``, ``dt``, ``method`` or ``fd_method``; a model with
        quaternion or mimic joints; a run that diverges (naming the run, the time and
        its last finite state).

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> q0 = np.random.default_rng(0).uniform(-1, 1, (100, 2))
    >>> runs = es.rollout(arm, q0, np.zeros((100, 2)), 0.5, 0.01)
    >>> runs.q.shape
    (100, 51, 2)
    >>> one = es.simulate(arm, 0.5, 0.01, q0=q0[7])
    >>> bool(np.array_equal(runs.q[7], one.q))
    True
    """
    if method not in METHODS:
        raise ValueError(f"method: expected one of {METHODS}, got {method!r}")
    if fd_method not in FD_CODES:
        raise ValueError(f"fd_method: expected one of {tuple(FD_CODES)}, got {fd_method!r}")
    if model.nq != model.nv or model.mimic is not None:
        raise ValueError(
            f"model: {model.name} has quaternion or mimic joints; rollout runs the compiled "
            "loop of revolute, prismatic, helical, universal and planar joints "
            "(simulate each run instead)"
        )
    n = model.nv
    Q0 = real_array(q0, "q0")
    V0 = real_array(qd0, "qd0")
    if Q0.ndim != 2 or Q0.shape[1] != n or V0.shape != Q0.shape:
        raise ValueError(
            f"q0, qd0: expected two arrays of shape (N, {n}), got {Q0.shape} and {V0.shape}"
        )
    if not (np.all(np.isfinite(Q0)) and np.all(np.isfinite(V0))):
        raise ValueError("q0, qd0: expected finite values")
    t_final = finite_number(t_final, "t_final", positive=True)
    dt = finite_number(dt, "dt", positive=True)
    steps = int(round(t_final / dt))
    if steps < 1 or abs(steps * dt - t_final) > 1e-9 * max(1.0, t_final):
        raise ValueError(f"dt: expected a divisor of t_final = {t_final}, got {dt}")
    N, K = Q0.shape[0], steps + 1
    T = _torques(torque, N, K, n)
    Q = np.empty((N, K, n))
    QD = np.empty((N, K, n))
    QDD = np.empty((N, K, n))
    Q[:, 0], QD[:, 0] = Q0, V0
    status = np.zeros(N, dtype=np.int64)
    step = np.full(N, -1, dtype=np.int64)
    P = model.packed_dynamics
    if method == "rk4" and fd_method == "aba":
        _rollout_lanes(P, T, float(dt), Q, QD, QDD, extended_of(P), status, step)
    else:
        _rollout_many(
            P, FD_CODES[fd_method], method == "euler", T, float(dt), Q, QD, QDD,
            extended_of(P), status, step,
        )  # fmt: skip
    t = np.arange(K) * dt
    bad = np.flatnonzero(status)
    if len(bad):
        i = int(bad[0])
        from .simulate import _raise_step_failure

        try:
            Ti = T[min(i, len(T) - 1)]
            _raise_step_failure(model, status[i], step[i], t, Q[i], QD[i], Ti, method)
        except ValueError as exc:
            raise ValueError(f"run {i}: {exc}") from None
    return Rollout(t, Q, QD, QDD)


subject("batch rollouts", _rollout_lanes, _rollout_many, rk4_lanes)
