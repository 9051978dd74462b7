"""The torque of a compiled feedback law (:mod:`.laws`) at one stage of a step, for the
loops of :mod:`.rollout_kernels` and :mod:`.stick_slip_loops`.

* :class:`~.laws.PD`: τ = τ_ff + K_p (q_ref − q) + K_d (q̇_ref − q̇);
* :class:`~.laws.ComputedTorque`: τ = ID(q, q̇, q̈_ref + K_d (q̇_ref − q̇) + K_p (q_ref − q)),
  ID the recursive Newton–Euler inverse dynamics of the controller's packed model.

The references are sampled at the half steps (row 2k + stage for stage 0, 1, 2 at t_k,
t_k + h/2, t_k + h; :mod:`.laws`), so no loop interpolates.
"""

from __future__ import annotations

from numba import njit

from .._engine.status import OK
from ..dynamics.rnea import rnea_into
from .laws import PD_LAW


@njit(cache=True, inline="always")
def _row(S, k, stage):
    """The reference row of stage ``stage`` (0: t_k, 1: t_k + h/2, 2: t_k + h) of step k
    among S samples (one: a constant)."""
    return 2 * k + stage if S > 1 else 0


@njit(cache=True)
def law_torque(Pc, law, kp, kd, R0, R1, R2, j, x, v, tau, wid, cmd, extended):
    """The law's τ at reference row j (of each reference, or its one row) and the state
    (x, v), into ``tau``; status (Newton–Euler's for computed torque)."""
    r0 = R0[j if R0.shape[0] > 1 else 0]
    r1 = R1[j if R1.shape[0] > 1 else 0]
    r2 = R2[j if R2.shape[0] > 1 else 0]
    n = x.shape[0]
    if law == PD_LAW:
        for a in range(n):
            tau[a] = r2[a] + kp[a] * (r0[a] - x[a]) + kd[a] * (r1[a] - v[a])
        return OK
    for a in range(n):
        cmd[a] = r2[a] + kd[a] * (r1[a] - v[a]) + kp[a] * (r0[a] - x[a])
    return rnea_into(Pc, x, v, cmd, 1.0, None, wid, tau, extended)
