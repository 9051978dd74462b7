"""Control of a mobile manipulator, platform and arm together (the "control de
manipuladores móviles" that Araujo (2012), "Recomendaciones", names as further work).

Two laws on the coupled model (``mode="coupled"``), both tracking a reference run (a
:class:`~eslabon.mobile.MobileTrajectory`, e.g. an open-loop :func:`~eslabon.mobile.simulate`):

* **Computed torque** in the quasi-velocities: the commanded accelerations

      ν̇_c = ν̇_r + K_ν (ν_r − ν),   q̈_c = q̈_r + K_d (q̇_r − q̇) + K_p (q_r − q)

  go through the inverse dynamics D a_c + φ = [Q; τ] (:func:`~eslabon.mobile.input_forces`),
  and the platform's inputs are the least-norm u with B_u u = Q (B_u = ∂Q/∂u: the identity
  for the tricycle, Jᵀ for an omnidirectional base with more wheels than 3). It tracks
  the arm and the platform's velocities; a nonholonomic platform's pose error is not
  fed back, so it stays.
* **Time-varying LQR** on the linearization along the reference, ẏ ≈ f(y_r, w_r) +
  A(t) δy + B(t) δw with w = [u; τ]: A, B by central differences of
  :func:`~eslabon.mobile.state_derivative` (:func:`linearize`), discretized exactly
  (zero-order hold, matrix exponential) at the control period, and the discrete Riccati
  recursion run backward from the final time. δw = −K_k δy feeds back every coordinate,
  the pose included: the linearization of a rolling platform about a moving reference
  is controllable although it is not at rest.

:func:`closed_loop` integrates either law with RK4, the inputs held over each step
(a digital controller at the step's rate).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.linalg import expm

from .._args import finite_array, finite_number, frozen_copy
from ..sim.rk4 import rk4_step
from .manipulator import MobileManipulator, input_forces, state_derivative


def input_matrix(mm: MobileManipulator, y) -> np.ndarray:
    """B_u = ∂Q/∂u (k, k_u): the platform's generalized forces per unit input.

    Parameters
    ----------
    mm : MobileManipulator
    y : array_like (n_state,)
        The state (Q is linear in u; the platforms' maps do not depend on it).

    Returns
    -------
    ndarray (k, k_u)

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon import mobile as mb
    >>> base = mb.Omnidirectional(mb.OmniParams.mecanum_assumed())
    >>> mm = mb.MobileManipulator(base, es.zoo.load("puma560_araujo"))
    >>> mb.control.input_matrix(mm, mm.state()).shape
    (3, 4)
    """
    config, _, nu, _ = mm.split(finite_array(y, "y", (mm.n_state,)))
    n_u = len(mm.platform.input_names)
    return np.column_stack(
        [mm.platform.generalized_forces(config, nu, e) for e in np.eye(n_u)]
    ).reshape(mm.n_quasi, n_u)


def linearize(mm: MobileManipulator, y, u, tau, *, step: float = 1e-6):
    """A = ∂ẏ/∂y (n_s, n_s) and B = ∂ẏ/∂[u; τ] (n_s, k_u + n) at one state.

    Central differences of :func:`~eslabon.mobile.state_derivative` with the step
    ``step`` · max(1, |x_i|) per coordinate: truncation O(step²), round-off
    O(ε/step) — about 1e-9 relative.

    Parameters
    ----------
    mm : MobileManipulator
    y : array_like (n_state,)
        The state [config, q, ν, q̇].
    u : array_like (k_u,)
        Platform inputs.
    tau : array_like (n,)
        Arm torques [N·m, N].
    step : float
        The relative step, > 0.

    Returns
    -------
    A : ndarray (n_state, n_state)
    B : ndarray (n_state, k_u + n)

    Raises
    ------
    ValueError
        An argument of the wrong length or not finite; ``step`` not positive.

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon import mobile as mb
    >>> cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    >>> mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"))
    >>> A, B = mb.control.linearize(mm, mm.state(nu=[1.0, 0.0]), [150.0, 0.3], [0.0] * 6)
    >>> A.shape, B.shape
    ((21, 21), (21, 8))
    """
    y = finite_array(y, "y", (mm.n_state,))
    n_u = len(mm.platform.input_names)
    w = np.concatenate([finite_array(u, "u", (n_u,)), finite_array(tau, "tau", (mm.n_arm,))])
    step = finite_number(step, "step", positive=True)

    def f(yy, ww):
        return state_derivative(mm, yy, ww[:n_u], ww[n_u:])

    def jac(x, g):
        cols = []
        for i in range(len(x)):
            h = step * max(1.0, abs(x[i]))
            e = np.zeros_like(x)
            e[i] = h
            cols.append((g(x + e) - g(x - e)) / (2 * h))
        return np.column_stack(cols)

    return jac(y, lambda yy: f(yy, w)), jac(w, lambda ww: f(y, ww))


@dataclass(frozen=True)
class ComputedTorque:
    """Computed-torque tracking of a reference run (module docstring).

    Parameters
    ----------
    reference : MobileTrajectory
        The run to track (its ``t``, state and accelerations).
    kp, kd : float or array_like (n,)
        Arm gains [1/s², 1/s].
    k_nu : float or array_like (k,)
        Platform velocity gain [1/s].

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon import mobile as mb
    >>> cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    >>> mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"))
    >>> ref = mb.simulate(mm, None, None, 0.02, 0.01, u=[150.0, 0.3])
    >>> law = mb.control.ComputedTorque(ref, kp=100.0, kd=20.0, k_nu=10.0)
    >>> [round(float(x), 6) for x in law(mm, 0.0, ref.state(0))[0]]  # on the reference
    [150.0, 0.3]
    """

    reference: object
    kp: object = 100.0
    kd: object = 20.0
    k_nu: object = 10.0

    def __call__(self, mm, t, y):
        """(u, τ) at time ``t`` [s] and state ``y``.

        Parameters
        ----------
        mm : MobileManipulator
        t : float
        y : array_like (n_state,)

        Returns
        -------
        u : ndarray (k_u,)
        tau : ndarray (n,)
        """
        ref = self.reference
        i = _index(ref, t)
        config, q, nu, qd = mm.split(y)
        k = mm.n_quasi
        a = np.concatenate(
            [
                ref.nu_dot[i] + np.asarray(self.k_nu) * (ref.nu[i] - nu),
                ref.qdd[i] + np.asarray(self.kd) * (ref.qd[i] - qd)
                + np.asarray(self.kp) * (ref.q[i] - q),
            ]
        )  # fmt: skip
        generalized = input_forces(mm, y, a[:k], a[k:])
        u = np.linalg.lstsq(input_matrix(mm, y), generalized[:k], rcond=None)[0]
        return u, generalized[k:]


@dataclass(frozen=True)
class TimeVaryingLQR:
    """Gains K_j (n_w, n_state) of the discrete time-varying LQR along a reference.

    Build with :meth:`design`; calling it gives w = w_r − K_j (y − y_r) with j the control
    sample at or before t.

    Attributes
    ----------
    reference : MobileTrajectory
        The tracked run.
    times : ndarray (N,)
        The control samples [s] (every ``period``).
    gains : ndarray (N, k_u + n, n_state)
        K_j.
    """

    reference: object
    times: np.ndarray
    gains: np.ndarray

    @classmethod
    def design(cls, mm, reference, period, state_weight, input_weight, final_weight=None):
        """Linearize along ``reference`` every ``period`` and run the Riccati recursion.

        P_N = Q_f, K_j = (R + B_jᵀ P_{j+1} B_j)⁻¹ B_jᵀ P_{j+1} A_j,
        P_j = Q + A_jᵀ P_{j+1} (A_j − B_j K_j), with (A_j, B_j) the zero-order-hold
        discretization of :func:`linearize` at the reference's sample t_j.

        Parameters
        ----------
        mm : MobileManipulator
        reference : MobileTrajectory
            A run of ``mm`` (coupled mode) whose sample times include every multiple of
            ``period`` up to its end.
        period : float
            Control period [s].
        state_weight : array_like (n_state,)
            Diagonal of Q (0 for the coordinates left free, e.g. wheel angles).
        input_weight : array_like (k_u + n,)
            Diagonal of R, > 0.
        final_weight : array_like (n_state,), optional
            Diagonal of Q_f (default Q).

        Returns
        -------
        TimeVaryingLQR

        Raises
        ------
        ValueError
            Weights of the wrong length, negative or (R) not positive; a period that does
            not divide the reference's sampling.
        """
        n_s, n_w = mm.n_state, len(mm.platform.input_names) + mm.n_arm
        Q = np.diag(finite_array(state_weight, "state_weight", (n_s,)))
        R = np.diag(finite_array(input_weight, "input_weight", (n_w,)))
        Qf = (
            Q
            if final_weight is None
            else np.diag(finite_array(final_weight, "final_weight", (n_s,)))
        )
        for name, W in (("state_weight", Q), ("final_weight", Qf)):
            if np.any(np.diag(W) < 0):
                raise ValueError(f"{name}: expected weights >= 0, got {np.diag(W).min()}")
        if np.any(np.diag(R) <= 0):
            raise ValueError(f"input_weight: expected weights > 0, got {np.diag(R).min()}")
        period = finite_number(period, "period", positive=True)
        t = reference.t
        times = np.arange(0.0, t[-1] - 0.5 * period, period)
        rows = [int(np.argmin(np.abs(t - tj))) for tj in times]
        if np.any(np.abs(t[rows] - times) > 1e-9):
            raise ValueError("period: the reference's samples must include every control time")
        P = Qf
        gains = np.empty((len(times), n_w, n_s))
        for j in range(len(times) - 1, -1, -1):
            i = rows[j]
            A, B = linearize(mm, reference.state(i), reference.u[i], reference.tau[i])
            M = expm(np.block([[A, B], [np.zeros((n_w, n_s + n_w))]]) * period)
            Ad, Bd = M[:n_s, :n_s], M[:n_s, n_s:]
            K = np.linalg.solve(R + Bd.T @ P @ Bd, Bd.T @ P @ Ad)
            P = Q + Ad.T @ P @ (Ad - Bd @ K)
            P = 0.5 * (P + P.T)
            gains[j] = K
        return cls(reference, times, gains)

    def __call__(self, mm, t, y):
        """(u, τ) at time ``t`` [s] and state ``y``.

        Parameters
        ----------
        mm : MobileManipulator
        t : float
        y : array_like (n_state,)

        Returns
        -------
        u : ndarray (k_u,)
        tau : ndarray (n,)
        """
        ref = self.reference
        i = _index(ref, t)
        j = min(int(np.searchsorted(self.times, t + 1e-12, side="right")) - 1, len(self.times) - 1)
        w = np.concatenate([ref.u[i], ref.tau[i]]) - self.gains[j] @ (y - ref.state(i))
        n_u = len(mm.platform.input_names)
        return w[:n_u], w[n_u:]


def _index(ref, t):
    i = int(np.argmin(np.abs(ref.t - t)))
    if abs(ref.t[i] - t) > 1e-9:
        raise ValueError(f"t: {t} is not a sample of the reference run")
    return i


@dataclass(frozen=True)
class ClosedLoopRun:
    """A closed-loop run: times (K,), states (K, n_state), inputs (K, k_u), torques
    (K, n), and the tracking error y − y_r (K, n_state).

    Attributes
    ----------
    t, y, u, tau, error : ndarray
    """

    t: np.ndarray
    y: np.ndarray
    u: np.ndarray
    tau: np.ndarray
    error: np.ndarray


def closed_loop(mm, law, y0, *, reference=None):
    """Integrate ``mm`` under ``law`` from ``y0`` with RK4 on the reference's samples.

    The law is evaluated at the start of each step and its (u, τ) held over the step.

    Parameters
    ----------
    mm : MobileManipulator
    law : ComputedTorque or TimeVaryingLQR
        Or any callable (mm, t, y) -> (u, τ) with a ``reference`` attribute.
    y0 : array_like (n_state,)
        The initial state.
    reference : MobileTrajectory, optional
        Default ``law.reference``: its uniform samples are the steps.

    Returns
    -------
    ClosedLoopRun

    Raises
    ------
    ValueError
        ``y0`` of the wrong length or not finite.

    Warns
    -----
    FrictionStepWarning
        The arm has Coulomb friction: the RK4 steps integrate it with the plain law
        (:mod:`eslabon.mobile.simulate`), naming the joints.

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon import mobile as mb
    >>> cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    >>> mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"))
    >>> ref = mb.simulate(mm, None, None, 0.05, 0.01, u=[150.0, 0.3])
    >>> law = mb.control.ComputedTorque(ref)
    >>> run = mb.control.closed_loop(mm, law, ref.state(0) + 0.01)
    >>> run.error.shape
    (6, 21)
    """
    from .simulate import warn_plain_coulomb

    ref = law.reference if reference is None else reference
    y = finite_array(y0, "y0", (mm.n_state,)).copy()
    warn_plain_coulomb(mm, "mobile.control.closed_loop")
    t = ref.t
    Y, U, TAU = [y], [], []
    for i in range(len(t)):
        u, tau = law(mm, t[i], frozen_copy(y))  # a write into it raises, not drifts
        U.append(u)
        TAU.append(tau)
        if i + 1 < len(t):
            y = rk4_step(
                lambda _t, x, u=u, tau=tau: state_derivative(mm, x, u, tau),
                t[i],
                y,
                t[i + 1] - t[i],
            )
            Y.append(y)
    Y = np.array(Y)
    error = Y - np.array([ref.state(i) for i in range(len(t))])
    return ClosedLoopRun(t, Y, np.array(U), np.array(TAU), error)
