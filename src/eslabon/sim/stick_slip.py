"""Coulomb friction in :func:`eslabon.simulate` and :func:`eslabon.rollout`: Karnopp's
stick–slip, decided per step.

The plain law τ_f = F_c sign(q̇) (what :func:`eslabon.forward_dynamics` evaluates) is
discontinuous at q̇ = 0. A fixed-step integrator cannot follow it there: a joint that
friction should stop overshoots q̇ = 0 within a step and the stages of the step see
opposite signs. Under classical RK4 with a joint whose friction alone would stop it
within the step (h F_c (M⁻¹)_jj larger than its rate), the four stages cancel and the
joint settles at a rate that is a fixed point of the step, moving for ever with the full
friction acceleration recorded (a Talos released at rest: its gripper at q̇ ≈ −0.3 rad/s,
q̈ ≈ ±1200 rad/s²). Karnopp (1985) describes this difficulty of simulating stick–slip
and its remedy: a joint whose rate is inside a small band around zero is treated as
stuck, its acceleration zero and its friction torque whatever holds it, as long as that
torque is within ±F_c; outside the band, or when the holding torque would exceed F_c,
it slides with F_c against its motion.

This module applies that model once per integration step, on the coupled system, with
X = M(q)⁻¹ (the inverse of the joint-space mass matrix, armature and mimic joints
included; the forward dynamics of the model without Coulomb friction is
FD₀(q, q̇, τ) = X (τ − b(q, q̇)), linear in τ with slope X):

1. **Candidates.** A joint j with F_j > 0 is a candidate to stick when

       |q̇_j| ≤ h F_j X_jj,

   i.e. when its friction alone would stop it within the step h: Karnopp's band, with
   the width the step needs rather than a user's constant.
2. **Active set.** With the stuck set S (the candidates at first) the accelerations are

       q̈ = a − X_{:,S} f_S,   q̈_S = 0   ⇒   f_S = (X_SS)⁻¹ a_S,

   a the forward dynamics with no Coulomb torque on S and F_j sign(q̇_j) on the others,
   f_S the holding torques. While some |f_j| > F_j, the joint with the largest ratio
   |f_j| / F_j is released: it slips against the driving torque, τ_f,j = F_j sign(f_j)
   for the step (its rate is in the band, so at most a fraction of the step passes
   before it moves the driving way), and the holding torques of the others are solved
   again. This terminates (one release per pass); it is the usual active-set pass of a
   box-constrained problem, not a full LCP pivoting, which is the documented
   approximation.
3. **Stopping impulse.** The rates of the joints that stick are set to zero by the
   impulse of least kinetic energy,

       q̇ ← q̇ − X_{:,S} (X_SS)⁻¹ q̇_S,

   the inelastic stop of the stuck set (a projection in the metric of M, so the kinetic
   energy never grows; Moreau's velocity update for a sticking contact). For a single
   joint the impulse is |q̇_j| / X_jj ≤ h F_j, within what the friction supplies in a
   step. A released joint keeps its rate: stopping it at every step would hold back a
   joint that slips from rest.
4. **The step.** The integrator (RK4's four stages, Euler's one, DOP853 over the sample
   interval) runs with S held (q̈_S = 0 at every stage, from the constrained dynamics at
   the stage's configuration, so a stuck joint's coordinate does not move by one bit),
   the released joints with their fixed friction and the others with F_j sign(q̇_j).

A stuck joint whose holding torque would exceed F_c during the step is released at the
next step; a sliding joint whose rate reverses inside a step (it was too fast to be a
candidate, but another force stopped it) is caught by the next step's band.
:mod:`.friction_check` warns, naming the joint, when a joint's rate reverses on two
consecutive steps anyway (the step cannot resolve that joint's friction), and when the
energy grew beyond the applied work.

The primitives below (njit) are shared by the compiled loop
(:mod:`.stick_slip_loops`) and :class:`StickSlip`, the same steps for the loops that run
in Python; both compute X from the composite-rigid-body mass matrix.

References: D. Karnopp, "Computer simulation of stick-slip friction in mechanical
dynamic systems", ASME J. Dyn. Sys., Meas., Control 107 (1985) 100–103; J. J. Moreau,
"Unilateral contact and dry friction in finite freedom dynamics", in J. J. Moreau,
P. D. Panagiotopoulos (eds.), Nonsmooth Mechanics and Applications, CISM Courses and
Lectures 302, Springer (1988) 1–82; B. Armstrong-Hélouvry, P. Dupont, C. Canudas de
Wit, "A survey of models, analysis tools and compensation methods for the control of
machines with friction", Automatica 30 (1994) 1083–1138.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._args import NonFiniteResultError
from .._engine.joint_types import nv_of
from ..dynamics.cholesky_forward_dynamics import cholesky_factor, cholesky_solve

FREE, STUCK, SLIP = 0, 1, 2  # a joint's mode over one step
RELEASE_SLACK = 1e-12  # a holding torque within F_c (1 + this) holds


def coulomb_per_rate(model) -> np.ndarray:
    """F_c of each rate of v (nv,): the joint's Coulomb friction, plus |m| F_c of each
    mimic joint that copies it (its torque Gᵀ τ_e is m F_c sign(m q̇) = |m| F_c sign(q̇))."""
    if model.mimic is None:
        return np.asarray(model.coulomb, float)[model.dof_bodies]
    sizes = nv_of(model.joint_type)
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


def workspace(n):
    """The scratch arrays of :func:`constrain`, :func:`stop` and :func:`release` for n
    rates: (stuck indices (n,), a block (n, n), a right-hand side (n,))."""
    return np.empty(n, np.int64), np.empty((n, n)), np.empty(n)


@njit(cache=True)
def _solve_stuck(X, mode, b, wsp):
    """m, with ``wsp[2][:m]`` ← (X_SS)⁻¹ b_S for the m stuck joints S (listed in
    ``wsp[0][:m]``), by Cholesky (X_SS is a principal block of M⁻¹: symmetric positive
    definite); m = −1 when the block is not positive definite (a state not finite)."""
    idx, A, f = wsp
    m = 0
    for j in range(len(mode)):
        if mode[j] == STUCK:
            idx[m] = j
            m += 1
    if m == 0:
        return 0
    for r in range(m):
        f[r] = b[idx[r]]
        for c in range(m):
            A[r, c] = X[idx[r], idx[c]]
    if not cholesky_factor(A, m):
        return -1
    cholesky_solve(A, f, m)
    return m


@njit(cache=True)
def _take(X, wsp, m, out):
    """out ← out − X_{:,S} f_S, then out_S = 0 (f_S, S from :func:`_solve_stuck`)."""
    idx, _, f = wsp
    for i in range(len(out)):
        s = 0.0
        for r in range(m):
            s += X[i, idx[r]] * f[r]
        out[i] -= s
    for r in range(m):
        out[idx[r]] = 0.0


@njit(cache=True)
def constrain(a, X, mode, hold, wsp):
    """Hold the stuck joints: a ← a − X_{:,S} f_S with f_S = (X_SS)⁻¹ a_S, a_S = 0
    (steps 2 and 4 of the module docstring); ``hold[S]`` receives f_S. False when X_SS
    is not positive definite."""
    m = _solve_stuck(X, mode, a, wsp)
    if m < 0:
        return False
    _take(X, wsp, m, a)
    for r in range(m):
        hold[wsp[0][r]] = wsp[2][r]
    return True


@njit(cache=True)
def candidates(v, X, F, h, mode, fixed):
    """Step 1: mark STUCK the joints whose friction alone would stop them within the
    step, |q̇_j| ≤ h F_j X_jj; the others FREE."""
    for j in range(len(v)):
        fixed[j] = 0.0
        mode[j] = STUCK if (F[j] > 0.0 and abs(v[j]) <= h * F[j] * X[j, j]) else FREE


@njit(cache=True)
def stop(v, X, mode, wsp):
    """Step 3: stop the stuck joints by the least-energy impulse,
    v ← v − X_{:,S} (X_SS)⁻¹ v_S; ``v`` is changed in place. False when X_SS is not
    positive definite."""
    m = _solve_stuck(X, mode, v, wsp)
    if m < 0:
        return False
    _take(X, wsp, m, v)
    return True


@njit(cache=True)
def release(a_free, X, F, mode, fixed, wsp):
    """Step 2: release, one at a time, the stuck joint whose holding torque exceeds its
    F_c by the largest ratio; it slips with τ_f = F_c sign(holding torque), subtracted
    from ``a_free`` (changed in place) through its column of X. False when X_SS is not
    positive definite."""
    idx, _, f = wsp
    while True:
        m = _solve_stuck(X, mode, a_free, wsp)
        if m <= 0:
            return m == 0
        worst, ratio = -1, 1.0 + RELEASE_SLACK
        for r in range(m):
            k = abs(f[r]) / F[idx[r]]
            if k > ratio:
                worst, ratio = r, k
        if worst < 0:
            return True
        j = idx[worst]
        mode[j] = SLIP
        fixed[j] = F[j] * _sign(f[worst])
        for i in range(len(a_free)):
            a_free[i] -= X[i, j] * fixed[j]


class StickSlip:
    """The per-step stick–slip of the module docstring for the loops of
    :func:`eslabon.simulate` that run in Python (a numpy reference forward dynamics,
    wrenches, callable torques, DOP853), on charts or not, mimic joints included.

    Parameters
    ----------
    model : Model
        The robot, with its Coulomb friction.
    fd : callable
        ``fd(x, v, tau) -> q̈`` (nv,): the forward dynamics of ``without_coulomb(model)``
        at one state.
    h : float
        The step [s] (the width of the band of step 1).
    free : Model, optional
        ``without_coulomb(model)``, when the caller has it already.
    """

    def __init__(self, model, fd, h, free=None):
        self.F = coulomb_per_rate(model)
        self.free = without_coulomb(model) if free is None else free
        self.fd, self.h, n = fd, float(h), model.nv
        self.mode = np.zeros(n, np.int64)
        self.fixed = np.zeros(n)
        self.hold = np.zeros(n)
        self.X = np.zeros((n, n))
        self.wsp = workspace(n)
        self._at = None  # the configuration X was computed at

    def _inverse_mass(self, x):
        """X ← M(x)⁻¹, the mass matrix of :func:`eslabon.mass_matrix` (armature and
        mimic joints included) inverted (as the compiled loop's, :mod:`.stick_slip_loops`,
        to round-off); kept while x does not change."""
        from ..dynamics import mass_matrix

        if self._at is None or not np.array_equal(self._at, x):
            try:
                self.X[:] = np.linalg.inv(mass_matrix(self.free, x))
            except np.linalg.LinAlgError:
                raise NonFiniteResultError("stick-slip: the mass matrix is singular") from None
            self._at = np.array(x, dtype=float)

    def settle(self, x, v, tau_of):
        """Steps 1–3 at the start of a step from (x, v): ``v`` is changed in place (the
        stuck joints stopped); ``tau_of(v)`` gives the applied torque at rates v. The
        modes hold until the next call."""
        self._inverse_mass(x)
        candidates(v, self.X, self.F, self.h, self.mode, self.fixed)
        if np.any(self.mode == STUCK):
            te = np.empty(len(v))
            effective_torque(tau_of(v), v, self.F, self.mode, self.fixed, te)
            a = np.array(self.fd(x, v, te), dtype=float)
            ok = release(a, self.X, self.F, self.mode, self.fixed, self.wsp)
            if not (ok and stop(v, self.X, self.mode, self.wsp)):
                raise NonFiniteResultError("stick-slip: the stuck joints' block of M⁻¹")

    def accel(self, x, v, tau):
        """q̈ at a stage of the step: the stuck joints held, the others with their mode's
        friction."""
        te = np.empty(len(v))
        effective_torque(tau, v, self.F, self.mode, self.fixed, te)
        a = np.array(self.fd(x, v, te), dtype=float)
        if np.any(self.mode == STUCK):
            self._inverse_mass(x)
            if not constrain(a, self.X, self.mode, self.hold, self.wsp):
                raise NonFiniteResultError("stick-slip: the stuck joints' block of M⁻¹")
        return a
