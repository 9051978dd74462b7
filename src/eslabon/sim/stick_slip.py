"""Coulomb friction in :func:`eslabon.simulate`: Karnopp's stick–slip, decided per step.

The plain law τ_f = F_c sign(q̇) (what :func:`eslabon.forward_dynamics` evaluates) is
discontinuous at q̇ = 0. A fixed-step integrator cannot follow it there: a joint that
friction should stop overshoots q̇ = 0 within a step and the stages of the step see
opposite signs. Under classical RK4 with a joint whose friction alone would stop it
within the step (h F_c (M⁻¹)_jj larger than its rate), the four stages cancel and the
joint settles at a rate that is a fixed point of the step, moving for ever with the full
friction acceleration recorded (a Talos released at rest: its gripper at q̇ ≈ −0.3 rad/s,
q̈ ≈ ±1200 rad/s²). That is the chatter described by Karnopp (1985) and surveyed by
Armstrong-Hélouvry, Dupont and Canudas de Wit (1994, §4.2): the remedy they describe is
to treat a joint whose rate is inside a small band around zero as stuck, its
acceleration zero and its friction torque whatever holds it, as long as that torque is
within ±F_c.

This module applies that model once per integration step, on the coupled system:

1. **Candidates.** With X = M(q)⁻¹ (its columns j obtained from the forward dynamics of
   the model without Coulomb friction, which is linear in τ: X e_j = (FD(τ + F_j e_j) −
   FD(τ)) / F_j), a joint j with F_j > 0 is a candidate to stick when
   |q̇_j| ≤ h F_j X_jj, i.e. when its friction alone would stop it within the step h.
   This is Karnopp's band, with the width the step needs rather than a user's constant.
2. **Active set.** With the stuck set S (the candidates at first) the accelerations are
   a = a_free − X_{:,S} f_S, a_S = 0, so the holding torques are f_S = (X_SS)⁻¹ a_free,S
   (a_free: the forward dynamics with no Coulomb torque on S and F_j sign(q̇_j) on the
   others). While some |f_j| > F_j, the joint with the largest ratio |f_j| / F_j is
   released: it slips against the driving torque, τ_f,j = F_j sign(f_j) for the step
   (its rate is in the band, so at most a fraction of the step passes before it moves
   the driving way), and the holding torques of the others are solved again. This
   terminates (one release per pass); it is the usual active-set pass of a
   box-constrained problem, not a full LCP pivoting, which is the documented
   approximation.
3. **Stopping impulse.** The rates of the joints that stick are set to zero by the
   impulse of least kinetic energy: q̇ ← q̇ − X_{:,S} (X_SS)⁻¹ q̇_S (the inelastic stop
   of the stuck set; a projection in the metric of M, so the kinetic energy never
   grows). For a single joint the impulse is |q̇_j| / X_jj ≤ h F_j, within what the
   friction supplies in a step. A released joint keeps its rate: stopping it at every
   step would hold back a joint that slips from rest.
4. **The step.** The integrator (RK4's four stages, Euler's one, DOP853 over the sample
   interval) runs with S held (a_S = 0 at every stage, from the constrained dynamics at
   the stage's configuration, so a stuck joint's coordinate does not move by one bit),
   the released joints with their fixed friction and the others with F_j sign(q̇_j).

A stuck joint whose holding torque would exceed F_c during the step is released at the
next step; a sliding joint whose rate reverses inside a step (it was too fast to be a
candidate, but another force stopped it) is caught by the next step's band.
:func:`eslabon.simulate` warns, naming the joint, when a joint's rate reverses on two
consecutive steps anyway (the step cannot resolve that joint's friction).

References: D. Karnopp, "Computer simulation of stick-slip friction in mechanical
dynamic systems", ASME J. Dyn. Sys. Meas. Control 107 (1985) 100–103; B.
Armstrong-Hélouvry, P. Dupont, C. Canudas de Wit, "A survey of models, analysis tools
and compensation methods for the control of machines with friction", Automatica 30
(1994) 1083–1138; the impulse of step 2 is the inelastic velocity update of
J. J. Moreau's time stepping (1988).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._engine.layout import JOINT_NV

FREE, STUCK, SLIP = 0, 1, 2  # a joint's mode over one step
RELEASE_SLACK = 1e-12  # a holding torque within F_c (1 + this) holds


def coulomb_per_rate(model) -> np.ndarray:
    """F_c of each rate of v (nv,): the joint's Coulomb friction, plus |m| F_c of each
    mimic joint that copies it (its torque Gᵀ τ_e is m F_c sign(m q̇) = |m| F_c sign(q̇))."""
    if model.mimic is None:
        return np.asarray(model.coulomb, float)[model.dof_bodies]
    sizes = np.array([JOINT_NV[int(t)] for t in model.joint_type], dtype=np.int64)
    engine = np.asarray(model.coulomb, float)[np.repeat(np.arange(model.nb + 1), sizes)]
    return engine @ np.abs(model.mimic.G)


def without_coulomb(model):
    """``model`` with no Coulomb friction (the rest of its friction kept)."""
    return model.replace(coulomb=np.zeros(model.nb + 1))


@njit(cache=True)
def _sign(x):
    return 1.0 if x > 0.0 else (-1.0 if x < 0.0 else 0.0)


@njit(cache=True)
def effective_torque(tau, v, F, mode, fixed, out):
    """τ less the Coulomb torque of each joint's mode: F sign(q̇) (free), the fixed slip
    torque (slip), none (stuck: its holding torque comes from :func:`constrain`)."""
    for j in range(len(tau)):
        if mode[j] == FREE:
            out[j] = tau[j] - F[j] * _sign(v[j])
        elif mode[j] == SLIP:
            out[j] = tau[j] - fixed[j]
        else:
            out[j] = tau[j]


@njit(cache=True)
def _stuck(mode):
    return np.nonzero(mode == STUCK)[0]


@njit(cache=True)
def _block(X, idx):
    m = len(idx)
    A = np.empty((m, m))
    for r in range(m):
        for c in range(m):
            A[r, c] = X[idx[r], idx[c]]
    return A


@njit(cache=True)
def constrain(a, X, mode, hold):
    """Hold the stuck joints: a ← a − X_{:,S} f_S with f_S = (X_SS)⁻¹ a_S, a_S = 0
    (step 3 of the module docstring); ``hold[S]`` receives f_S."""
    idx = _stuck(mode)
    m = len(idx)
    if m == 0:
        return
    rhs = np.empty(m)
    for r in range(m):
        rhs[r] = a[idx[r]]
    f = np.linalg.solve(_block(X, idx), rhs)
    for i in range(len(a)):
        s = 0.0
        for r in range(m):
            s += X[i, idx[r]] * f[r]
        a[i] -= s
    for r in range(m):
        a[idx[r]] = 0.0
        hold[idx[r]] = f[r]


@njit(cache=True)
def candidates(v, X, F, h, mode, fixed):
    """Step 1: mark STUCK the joints whose friction alone would stop them within the
    step, |q̇_j| ≤ h F_j X_jj; the others FREE."""
    for j in range(len(v)):
        fixed[j] = 0.0
        mode[j] = STUCK if (F[j] > 0.0 and abs(v[j]) <= h * F[j] * X[j, j]) else FREE


@njit(cache=True)
def stop(v, X, mode):
    """Step 2: stop the stuck joints by the least-energy impulse,
    v ← v − X_{:,S} (X_SS)⁻¹ v_S; ``v`` is changed in place."""
    idx = _stuck(mode)
    m = len(idx)
    if m == 0:
        return
    rhs = np.empty(m)
    for r in range(m):
        rhs[r] = v[idx[r]]
    lam = np.linalg.solve(_block(X, idx), rhs)
    for i in range(len(v)):
        s = 0.0
        for r in range(m):
            s += X[i, idx[r]] * lam[r]
        v[i] -= s
    for r in range(m):
        v[idx[r]] = 0.0


@njit(cache=True)
def release(a_free, X, F, mode, fixed):
    """Step 3: release, one at a time, the stuck joint whose holding torque exceeds its
    F_c by the largest ratio; it slips with τ_f = F_c sign(holding torque), subtracted
    from ``a_free`` (changed in place) through its column of X."""
    while True:
        idx = _stuck(mode)
        m = len(idx)
        if m == 0:
            return
        rhs = np.empty(m)
        for r in range(m):
            rhs[r] = a_free[idx[r]]
        f = np.linalg.solve(_block(X, idx), rhs)
        worst, ratio = -1, 1.0 + RELEASE_SLACK
        for r in range(m):
            k = abs(f[r]) / F[idx[r]]
            if k > ratio:
                worst, ratio = r, k
        if worst < 0:
            return
        j = idx[worst]
        mode[j] = SLIP
        fixed[j] = F[j] * _sign(f[worst])
        for i in range(len(a_free)):
            a_free[i] -= X[i, j] * fixed[j]


class StickSlip:
    """The per-step stick–slip of the module docstring for the loops of
    :func:`eslabon.simulate` that run in Python (any forward-dynamics method, mimic
    joints, wrenches, callable torques, quaternion joints, DOP853). ``fd(x, v, tau)``
    evaluates the forward dynamics of the model without Coulomb friction on a batch of
    torques (rows) at one state."""

    def __init__(self, model, fd, h):
        self.F = coulomb_per_rate(model)
        self.frictional = np.flatnonzero(self.F > 0)
        self.fd, self.h, n = fd, float(h), model.nv
        self.mode = np.zeros(n, np.int64)
        self.fixed = np.zeros(n)
        self.hold = np.zeros(n)
        self.X = np.zeros((n, n))
        self._te = np.empty(n)

    def _columns(self, x, v, te, cols):
        """The free acceleration at ``te`` and the columns ``cols`` of M⁻¹ into X."""
        rows = np.repeat(te[None, :], len(cols) + 1, axis=0)
        rows[np.arange(1, len(cols) + 1), cols] += self.F[cols]
        A = np.atleast_2d(self.fd(x, v, rows))
        self.X[:, cols] = (A[1:] - A[0]).T / self.F[cols]
        return A[0].copy()

    def settle(self, x, v, tau_of):
        """Steps 1–3 at the start of a step from (x, v): ``v`` is changed in place (the
        stuck joints stopped); ``tau_of(v)`` gives the applied torque at rates v. The
        modes hold until the next call."""
        self._columns(x, v, np.zeros(len(v)), self.frictional)
        candidates(v, self.X, self.F, self.h, self.mode, self.fixed)
        if np.any(self.mode == STUCK):
            effective_torque(tau_of(v), v, self.F, self.mode, self.fixed, self._te)
            a = np.atleast_2d(self.fd(x, v, self._te[None, :]))[0].copy()
            release(a, self.X, self.F, self.mode, self.fixed)
            stop(v, self.X, self.mode)

    def accel(self, x, v, tau):
        """q̈ at a stage of the step: the stuck joints held, the others with their mode's
        friction."""
        te = np.empty(len(v))
        effective_torque(tau, v, self.F, self.mode, self.fixed, te)
        stuck = np.flatnonzero(self.mode == STUCK)
        if len(stuck) == 0:
            return np.atleast_2d(self.fd(x, v, te[None, :]))[0]
        a = self._columns(x, v, te, stuck)
        constrain(a, self.X, self.mode, self.hold)
        return a
