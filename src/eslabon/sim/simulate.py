"""simulate(): integrate q̈ = FD(q, q̇, τ) from an initial state.

* ``"rk4"``: classical fixed-step Runge–Kutta, as seed 001's ``walkerorinrunge3``
  (the seed also rounds each step to 1e-13 "against numerical oscillation"; that is not
  physics and is not reproduced). Unless the torque is a callable, the whole loop runs in
  one compiled call (:mod:`.rk4`); a callable is evaluated from Python at every stage.
* ``"dop853"``: scipy's adaptive 8th-order Dormand–Prince, ``rtol``/``atol`` as given,
  sampled on the same grid.

Torque: None (zero), a constant (n,), an array (K, n) over the sample times t_k = k·dt
held constant over each step (zero-order hold, as the seed holds τ over a step), or a
callable ``(t, q, qd) -> tau`` evaluated wherever the integrator needs it.
"""
from __future__ import annotations

import numpy as np
from .._args import vector
from ..dynamics import forward_dynamics
from ..dynamics.api import FORWARD_METHODS
from .rk4 import FD_CODES, rk4_loop
from .trajectory import Trajectory

METHODS = ("rk4", "dop853")


def _torque_law(model, torque, K, n):
    """(law(t, k, q, qd) -> tau, table or None) from the user's torque argument."""
    if torque is None:
        zero = np.zeros(n)
        return (lambda t, k, q, qd: zero), None
    if callable(torque):
        def law(t, k, q, qd):
            tau = np.asarray(torque(t, q, qd), dtype=float)
            if tau.shape != (n,) or not np.all(np.isfinite(tau)):
                raise ValueError(f"torque: the callable returned {tau!r} at t = {t}; "
                                 f"expected {n} finite numbers")
            return tau
        return law, None
    arr = np.asarray(torque, dtype=float)
    if arr.shape == (n,):
        if not np.all(np.isfinite(arr)):
            raise ValueError("torque: expected finite values")
        return (lambda t, k, q, qd: arr), None
    if arr.shape == (K, n):
        if not np.all(np.isfinite(arr)):
            raise ValueError("torque: expected finite values")
        return (lambda t, k, q, qd: arr[k]), arr
    raise ValueError(f"torque: expected None, a callable, shape ({n},) or ({K}, {n}) "
                     f"(one row per sample time), got shape {arr.shape}")


def simulate(model, t_final: float, dt: float, *, q0=None, qd0=None, torque=None,
             method: str = "rk4", rtol: float = 1e-10, atol: float = 1e-12,
             fd_method: str = "aba") -> Trajectory:
    """Simulate from (q0, qd0) (zeros by default) to ``t_final`` with samples every ``dt``.

    Returns a :class:`Trajectory` with K = round(t_final/dt) + 1 samples; ``qdd`` and
    ``tau`` are the accelerations and torques at each sample.
    """
    if method not in METHODS:
        raise ValueError(f"method: expected one of {METHODS}, got {method!r}")
    if fd_method not in FORWARD_METHODS:
        raise ValueError(f"fd_method: expected one of {FORWARD_METHODS}, got {fd_method!r}")
    for name, val in (("t_final", t_final), ("dt", dt)):
        if not (isinstance(val, (int, float, np.floating)) and np.isfinite(val) and val > 0):
            raise ValueError(f"{name}: expected a finite number > 0, got {val!r}")
    steps = int(round(t_final / dt))
    if steps < 1 or abs(steps * dt - t_final) > 1e-9 * max(1.0, t_final):
        raise ValueError(f"dt: expected a divisor of t_final = {t_final}, got {dt}")
    n = model.nq
    q0 = np.zeros(n) if q0 is None else vector(q0, n, "q0")[0].copy()
    qd0 = np.zeros(n) if qd0 is None else vector(qd0, n, "qd0")[0].copy()
    if q0.ndim != 1 or qd0.ndim != 1:
        raise ValueError("q0: expected one initial state of shape (n,)")
    if not (np.all(np.isfinite(q0)) and np.all(np.isfinite(qd0))):
        raise ValueError("q0/qd0: expected finite values")
    K = steps + 1
    t = np.arange(K) * dt
    law, table = _torque_law(model, torque, K, n)
    q = np.empty((K, n))
    qd = np.empty((K, n))
    q[0], qd[0] = q0, qd0

    def accel(tk, k, x, v):
        return forward_dynamics(model, x, v, law(tk, k, x, v), method=fd_method)

    if not callable(torque):
        T = table if table is not None else law(0.0, 0, q0, qd0).reshape(1, n)
    if method == "rk4" and not callable(torque):
        qdd = np.empty((K, n))
        status, step = rk4_loop(model.packed, FD_CODES[fd_method], T, float(dt), q, qd, qdd)
        if status:
            _raise_step_failure(model, status, step, t, q, qd, T)
    elif method == "rk4":
        for k in range(steps):
            x, v, tk = q[k], qd[k], t[k]
            h = dt
            a1 = accel(tk, k, x, v)
            a2 = accel(tk + h / 2, k, x + h / 2 * v, v + h / 2 * a1)
            v2 = v + h / 2 * a1
            a3 = accel(tk + h / 2, k, x + h / 2 * v2, v + h / 2 * a2)
            v3 = v + h / 2 * a2
            a4 = accel(tk + h, k, x + h * v3, v + h * a3)
            v4 = v + h * a3
            q[k + 1] = x + h / 6 * (v + 2 * v2 + 2 * v3 + v4)
            qd[k + 1] = v + h / 6 * (a1 + 2 * a2 + 2 * a3 + a4)
    else:
        from scipy.integrate import solve_ivp     # imported here: it costs ~0.5 s at start-up

        def rhs(tt, y):
            k = min(int(np.floor(tt / dt + 1e-9)), steps)
            return np.concatenate([y[n:], accel(tt, k, y[:n], y[n:])])
        sol = solve_ivp(rhs, (0.0, t[-1]), np.concatenate([q0, qd0]), method="DOP853",
                        t_eval=t, rtol=rtol, atol=atol)
        if not sol.success:
            raise RuntimeError(f"dop853 failed: {sol.message}")
        q[:], qd[:] = sol.y[:n].T, sol.y[n:].T
    if callable(torque):
        tau = np.array([law(t[k], k, q[k], qd[k]) for k in range(K)])
    else:
        tau = np.array(np.broadcast_to(T, (K, n)))
    if method != "rk4" or callable(torque):
        qdd = forward_dynamics(model, q, qd, tau, method=fd_method)
    return Trajectory(t=t, q=q, qd=qd, qdd=qdd, tau=tau, model_name=model.name)


def _raise_step_failure(model, status, step, t, q, qd, T):
    """Explain why the compiled loop stopped at ``step``, as the Python loop would."""
    tau = T[step] if len(T) > 1 else T[0]
    forward_dynamics(model, q[step], qd[step], tau)       # raises for a bad start state
    raise ValueError(f"simulate: the state stopped being finite at t = {t[step]:.6g} "
                     f"(step {step}; status {status}): the motion diverged; use a smaller dt")
