"""simulate(): integrate q̈ = FD(q, q̇, τ) from an initial state.

* ``"rk4"``: classical fixed-step Runge–Kutta, as seed 001's ``walkerorinrunge3``
  (:func:`.rk4.rk4_step`, the one RK4 step). Unless the torque is a callable or
  ``algorithm`` a numpy reference formulation, the whole loop runs in one compiled call
  (:func:`.rk4.rk4_loop`; :func:`.chart_loop.chart_rk4_loop` on the charts of a model
  with quaternion joints, :mod:`.manifold`; a model with mimic joints through
  :mod:`eslabon.dynamics.coupled_fd`; Coulomb friction on charts by
  :func:`.chart_stick_slip.chart_stick_slip_loop`, with mimic joints too); a callable is
  evaluated from Python at every stage.
* ``"euler"``: semi-implicit Euler, q̇⁺ = q̇ + h q̈ then q⁺ = q + h q̇⁺, compiled as RK4
  is (:func:`.rk4.euler_loop`); models without quaternion joints.
* ``"dop853"``, ``"rk45"``: scipy's adaptive Dormand–Prince of order 8 or 5,
  ``rtol``/``atol`` as given, sampled on the same grid.

Torque: None (zero), a constant (n,), an array (K, n) over the sample times t_k = k·dt
held constant over each step (zero-order hold, as the seed holds τ over a step), or a
callable ``(t, q, qd) -> tau`` evaluated wherever the integrator needs it.

Coulomb friction μ sign(q̇) is discontinuous at q̇ = 0: a fixed step cannot follow it
(a joint overshoots q̇ = 0 and chatters, moving for ever). Every integrator therefore
decides Karnopp's stick–slip at the start of each step (:mod:`.stick_slip`: the stuck
joints stopped and held with q̈ = 0 while their holding torque is within ±μ); the
compiled loop does the same (:mod:`.stick_slip_loops`, also the loop of
:func:`eslabon.rollout`'s frictional runs). Friction can only take energy out, so after
every run of a model with Coulomb friction the energy is checked
(:mod:`.friction_check`): an :class:`EnergyInjectionWarning` when the kinetic plus
potential energy exceeds its start plus the work of the applied torques and wrenches,
a :class:`FrictionStepWarning` naming a joint whose rate reverses on two consecutive
steps.
"""

from __future__ import annotations

import numpy as np

from .._args import (
    MAX_HISTORY_BYTES,  # noqa: F401  (re-exported: the budget of simulate and rollout)
    NonFiniteResultError,
    check_history_bytes,
    finite_number,
    frozen_copy,
    real_array,
    vector,
)
from .._deprecation import renamed_keywords, state_first
from .._engine.joints import extended_of
from ..conventions import FORWARD_DYNAMICS_ALGORITHMS, algorithm_name, integrator_name
from ..dynamics import forward_dynamics
from ..dynamics.coupled_fd import coupling_arrays
from ..dynamics.wrenches import external_wrenches, wrench_torques
from ..model.configuration import check_configuration, neutral, normalize
from .chart_loop import chart_rk4_loop
from .chart_stick_slip import chart_stick_slip_loop
from .constrained import constrained_trajectory
from .friction_check import (  # noqa: F401  (the warnings: re-exported)
    EnergyInjectionWarning,
    FrictionStepWarning,
    check_friction_energy,
)
from .laws import NO_LAW
from .manifold import Chart, chart_layout
from .rk4 import FD_CODES, euler_loop, rk4_loop, rk4_step
from .stick_slip import StickSlip, coulomb_per_rate, without_coulomb
from .stick_slip_loops import stick_slip_loop
from .trajectory import Trajectory

METHODS = ("rk4", "euler", "dop853", "rk45")  # the integrators (eslabon.conventions)


def _torque_law(model, torque, K, n):
    """(law(t, k, q, qd) -> tau, table or None) from the user's torque argument."""
    if torque is None:
        zero = np.zeros(n)
        return (lambda t, k, q, qd: zero), None
    if callable(torque):

        def law(t, k, q, qd):  # read-only copies: the callable cannot edit the run
            tau = real_array(
                torque(t, frozen_copy(q), frozen_copy(qd)),
                f"torque (the callable's value at t = {t})",
            )
            if tau.shape != (n,) or not np.all(np.isfinite(tau)):
                raise ValueError(
                    f"torque: the callable returned {tau!r} at t = {t}; expected {n} finite numbers"
                )
            return tau

        return law, None
    arr = real_array(torque, "torque")
    if arr.shape == (n,):
        if not np.all(np.isfinite(arr)):
            raise ValueError("torque: expected finite values")
        return (lambda t, k, q, qd: arr), None
    if arr.shape == (K, n):
        if not np.all(np.isfinite(arr)):
            raise ValueError("torque: expected finite values")
        return (lambda t, k, q, qd: arr[k]), arr
    raise ValueError(
        f"torque: expected None, a callable, shape ({n},) or ({K}, {n}) "
        f"(one row per sample time), got shape {arr.shape}"
    )


@state_first
@renamed_keywords(method="integrator", fd_method="algorithm")
def simulate(
    model,
    q0=None,
    qd0=None,
    t_final: float | None = None,
    dt: float = 1e-3,
    *,
    torque=None,
    integrator: str = "rk4",
    algorithm: str | None = None,
    rtol: float = 1e-10,
    atol: float = 1e-12,
    wrenches=None,
    constraints=None,
    stabilization: tuple = (5.0, 5.0),
    projection: bool = False,
) -> Trajectory:
    """Simulate ``model`` from (q0, qd0) to ``t_final`` with samples every ``dt``.

    :func:`eslabon.rollout`, :func:`eslabon.control.simulate_closed_loop` and
    :func:`eslabon.mobile.simulate` take the same arguments in the same order
    (``docs/conventions.md``, "Keywords"). The old order ``simulate(model, t_final, dt,
    q0=…, qd0=…)`` and the old keywords ``method=`` (the integrator) and ``fd_method=``
    (the algorithm) still work for one release, with a deprecation warning.

    ``"rk4"`` is classical fixed-step Runge–Kutta, as Práctica 3's ``walkerorinrunge3``
    (§3.4); a model whose q holds quaternions steps on charts of the configuration
    space. Coulomb friction is integrated as stick–slip, decided per step; ``qd`` holds
    the rates after the joints that stick were stopped, and the energy is checked after
    the run (module docstring).

    Parameters
    ----------
    model : Model
        The robot (:class:`eslabon.Model`).
    q0, qd0 : array_like (nq,) and (n,), or None
        Initial configuration (rad, m, unit quaternions; None: :func:`eslabon.neutral`)
        and joint rates (rad/s, m/s; None: zeros).
    t_final : float
        Duration [s], > 0 (required).
    dt : float
        The sample spacing, and the step of ``"rk4"`` and ``"euler"``: a divisor of
        ``t_final`` [s].
    torque : None, array_like (n,) or (K, n), or callable, optional
        Joint torques [N·m, N]: zero, a constant, one row per sample held over its step,
        or a callable ``torque(t, q, qd) -> (n,)`` (see the module docstring).
    integrator : {"rk4", "euler", "dop853", "rk45"}
        Fixed-step RK4, fixed-step semi-implicit Euler (q̇⁺ = q̇ + h q̈, q⁺ = q + h q̇⁺;
        first order, the integrator of many real-time simulators) or scipy's adaptive
        Dormand–Prince 8(5,3) or 5(4) (``rtol``, ``atol``), sampled every ``dt``.
    algorithm : str, optional
        The forward-dynamics algorithm, as :func:`eslabon.forward_dynamics` takes it; by
        default ``"aba"``, or ``"crba"`` for a model with a mimic joint. The compiled
        loops run ``"aba"``, ``"crba"`` and ``"rnea_columns"``; the numpy reference
        formulations take the Python loop.
    rtol, atol : float
        Tolerances of ``"dop853"`` and ``"rk45"``.
    wrenches : list of ExternalWrench, optional
        Wrenches the environment applies (:class:`eslabon.ExternalWrench`: a frame, a
        constant [moment; force] or ``value(t, q, qd)``, world or local axes), added to
        the torques as J_fᵀ w (:mod:`eslabon.dynamics.wrenches`); the run takes the
        Python loop. ``tau`` in the result holds the joint torques alone.
    constraints : LoopClosure, Contact, RollingWheel or a list of them, optional
        The loop closures, contacts and rolling wheels the motion obeys
        (:mod:`eslabon.constraints`); by default the model's own
        (:attr:`eslabon.Model.constraints`), ``[]`` for none (the bare tree). With
        constraints, ``algorithm`` is one of
        :data:`eslabon.constraints.CONSTRAINED_ALGORITHMS` (default ``"kkt"``), a ``q0``
        of None is the neutral configuration assembled onto φ = 0, the start must
        satisfy φ = 0 and J q̇₀ = 0 (:func:`eslabon.constraints.close_state`), and the
        run takes the Python loop (:mod:`.constrained`).
    stabilization : (float, float)
        With constraints: Baumgarte's (α, β) [1/s], J q̈ = γ − 2α J q̇ − β² φ; (0, 0)
        for none. Keep α·dt and β·dt well below 1.
    projection : bool
        With constraints: after each sample interval, move q onto φ = 0 and q̇ onto
        J q̇ = 0 (the M-orthogonal projection), holding the residual at the assembly's
        tolerance whatever the step.

    Returns
    -------
    Trajectory
        K = round(t_final/dt) + 1 samples; ``qdd`` and ``tau`` are the accelerations and
        torques at each sample.
        A constrained run also holds, per sample, the constraint forces by row name,
        the residual ‖φ‖∞ and the energy T + V (:class:`Trajectory`).

    Raises
    ------
    ValueError
        An unknown ``integrator`` or ``algorithm``, or one the model does not allow; a
        ``t_final`` or ``dt`` that is not a positive finite number, a ``dt`` that does not
        divide ``t_final``, or histories of more than 8 GiB; an initial state of the wrong
        length, not finite or with a non-unit quaternion; a torque of the wrong shape,
        not finite, or a callable that returns that; a bad wrench; a motion that
        diverges (the state stops being finite: the message gives the time and the last
        finite state) or that ``"dop853"`` or ``"rk45"`` cannot follow.

    Warns
    -----
    EnergyInjectionWarning
        With Coulomb friction: the energy grew beyond the applied torques' and wrenches'
        work (the step is too large for the friction's jump at q̇ = 0).
    FrictionStepWarning
        With Coulomb friction: a joint's rate reversed on two consecutive steps (the
        message names its body); use a smaller ``dt``.

    Examples
    --------
    The planar arm held by its gravity torques stays where it started:

    >>> import numpy as np
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> hold = es.gravity_torques(arm, [0.5, 0.0])
    >>> traj = es.simulate(arm, [0.5, 0.0], None, 0.1, 0.01, torque=hold)
    >>> traj.t.shape, traj.q.shape, bool(np.allclose(traj.q[-1], [0.5, 0.0]))
    ((11,), (11, 2), True)

    Its tip held on the line y = 1 m by a contact, it slides down the line, the
    constraint forces and the residual recorded:

    >>> from eslabon import constraints as ec
    >>> rail = ec.Contact("rail", "ee", ["y"], position=[0.0, 1.0, 0.0])
    >>> q0 = ec.assemble(arm, [0.5, 0.5], constraints=rail, fixed=[0])
    >>> run = es.simulate(arm, q0, None, 0.5, 0.001, constraints=rail)
    >>> run.constraint_names, run.constraint_force.shape, bool(run.constraint_residual.max() < 1e-9)
    (('rail.y',), (501, 1), True)
    """
    integrator = integrator_name(integrator, METHODS)
    given = model.constraints if constraints is None else constraints
    if t_final is None:
        raise TypeError("simulate: t_final is required (simulate(model, q0, qd0, t_final, dt))")
    t_final, dt, steps = _time_grid(model, t_final, dt)
    n, nq = model.nv, model.nq
    manifold = nq != n  # a quaternion in q: step on charts (:mod:`.manifold`)
    q0, qd0 = _initial_state(model, q0, qd0, assembled=bool(given))
    K = steps + 1
    t = np.arange(K) * dt
    if given:
        return _simulate_constrained(
            model, q0, qd0, t, torque, integrator, algorithm, rtol, atol, wrenches, given,
            stabilization, projection,
        )  # fmt: skip
    if algorithm is None:  # ABA; a mimic joint (which ABA cannot take): CRBA
        algorithm = "crba" if model.has_mimic else "aba"
    algorithm = algorithm_name(algorithm, FORWARD_DYNAMICS_ALGORITHMS, "simulate")
    if manifold and integrator == "euler":
        raise ValueError(
            "integrator: 'euler' takes models without quaternion joints; use 'rk4' or 'dop853'"
        )
    law, table = _torque_law(model, torque, K, n)
    if wrenches is not None:
        wrenches = external_wrenches(model, wrenches)
    q = np.empty((K, nq))
    qd = np.empty((K, n))
    q[0], qd[0] = q0, qd0
    friction = None
    if np.any(coulomb_per_rate(model) > 0):  # Karnopp's stick–slip, per step
        free = without_coulomb(model)

        def fd(x, v, tau):
            return forward_dynamics(free, x, v, tau, algorithm=algorithm)

        friction = StickSlip(model, fd, dt, free)

    def accel(tk, k, x, v):
        # the last finite state: the step's start for RK4, the stage itself for dop853
        last = (t[k], q[k], qd[k]) if integrator in ("rk4", "euler") else (tk, x, v)
        if integrator == "euler" and k > 0 and not (np.isfinite(x).all() and np.isfinite(v).all()):
            last = (t[k - 1], q[k - 1], qd[k - 1])  # Euler's x is q[k]: its update overflowed
        if not (np.isfinite(x).all() and np.isfinite(v).all()):
            _raise_divergence(model, *last, dt, integrator)
        tau = applied_at(tk, k, x, v)
        try:
            if friction is not None:
                return friction.accel(x, v, tau)
            return forward_dynamics(model, x, v, tau, algorithm=algorithm)
        except NonFiniteResultError:
            _raise_divergence(model, *last, dt, integrator)

    def applied_at(tk, k, x, v):
        tau = law(tk, k, x, v)
        if wrenches is not None:
            tau = tau + wrench_torques(model, x, wrenches, tk, v)
        return tau

    def settle(k):
        """Stick–slip at the start of step k (:mod:`.stick_slip`): stop the joints that
        stick (qd[k] changed in place) and record q̈ there."""
        if friction is None:
            return
        try:
            friction.settle(q[k], qd[k], lambda v: applied_at(t[k], k, q[k], v))
        except NonFiniteResultError:
            _raise_divergence(model, t[k], q[k], qd[k], dt, integrator)
        qdd[k] = accel(t[k], k, q[k], qd[k])

    def rate(tk, y, k):
        """ẏ = [q̇; q̈] at y = [q; q̇] (``k``: the step or sample the time falls in)."""
        return np.concatenate([y[n:], accel(tk, k, y[:n], y[n:])])

    if not callable(torque):
        T = table if table is not None else law(0.0, 0, q0, qd0).reshape(1, n)
    compiled = (
        integrator in ("rk4", "euler")
        and wrenches is None
        and not callable(torque)
        and algorithm in FD_CODES
        and not (model.mimic is not None and algorithm == "aba")
    )
    coupled = () if model.mimic is None else (coupling_arrays(model),)  # mimic joints
    qdd = np.empty((K, n))
    if compiled and manifold and friction is not None:
        P0, code = without_coulomb(model).packed_dynamics, FD_CODES[algorithm]
        F = coulomb_per_rate(model)
        status, step = chart_stick_slip_loop(
            P0, code, T, F, float(dt), q, qd, qdd, chart_layout(model), extended_of(P0),
            coupled[0] if coupled else None,
        )  # fmt: skip
        if status:
            _raise_step_failure(model, status, step, t, q, qd, T, integrator)
    elif compiled and manifold:
        P, code = model.packed_dynamics, FD_CODES[algorithm]
        layout = chart_layout(model)
        status, step = chart_rk4_loop(
            P, code, T, float(dt), q, qd, qdd, layout, extended_of(P), *coupled
        )
        if status:
            _raise_step_failure(model, status, step, t, q, qd, T, integrator)
    elif manifold:
        _steps_on_charts(model, integrator, accel, t, q, qd, dt, rtol, atol, settle)
    elif compiled and friction is not None:
        P0, code = without_coulomb(model).packed_dynamics, FD_CODES[algorithm]
        F = coulomb_per_rate(model)
        status, step = stick_slip_loop(
            P0, P0, code, integrator == "euler", NO_LAW, None, T, F, float(dt), q, qd, qdd,
            np.zeros((1, n)), extended_of(P0), coupled[0] if coupled else None,
        )  # fmt: skip
        if status:
            _raise_step_failure(model, status, step, t, q, qd, T, integrator)
    elif compiled:
        P, code = model.packed_dynamics, FD_CODES[algorithm]
        loop = rk4_loop if integrator == "rk4" else euler_loop
        status, step = loop(P, code, T, float(dt), q, qd, qdd, extended_of(P), *coupled)
        if status:
            _raise_step_failure(model, status, step, t, q, qd, T, integrator)
    elif integrator == "rk4":
        for k in range(steps):
            settle(k)
            y = rk4_step(rate, t[k], np.concatenate([q[k], qd[k]]), dt, k)
            q[k + 1], qd[k + 1] = y[:n], y[n:]
    elif integrator == "euler":
        for k in range(steps):
            settle(k)
            qd[k + 1] = qd[k] + dt * accel(t[k], k, q[k], qd[k])
            q[k + 1] = q[k] + dt * qd[k + 1]
    elif friction is not None:  # dop853/rk45 over each sample interval, the modes held
        _steps_on_charts(model, integrator, accel, t, q, qd, dt, rtol, atol, settle, chart=False)
    else:
        from scipy.integrate import solve_ivp  # imported here: it costs ~0.5 s at start-up

        def rhs(tt, y):
            return rate(tt, y, min(int(np.floor(tt / dt + 1e-9)), steps))

        with np.errstate(all="ignore"):  # a diverging run is reported below, once
            sol = solve_ivp(
                rhs,
                (0.0, t[-1]),
                np.concatenate([q0, qd0]),
                method=integrator.upper(),
                t_eval=t,
                rtol=rtol,
                atol=atol,
            )
        if not sol.success:
            reached = f"after t = {sol.t[-1]:.6g} s" if len(sol.t) else "before the first sample"
            raise ValueError(
                f"simulate: {integrator} stopped {reached} of {t[-1]:g} s "
                f"({sol.message}); the motion likely diverges there: check the "
                "model's scale, the torque and the tolerances"
            )
        q[:], qd[:] = sol.y[:n].T, sol.y[n:].T
    if friction is not None and not compiled:
        settle(K - 1)  # the last sample's stop and q̈ (the others were done step by step)
    if callable(torque):
        tau = np.array([law(t[k], k, q[k], qd[k]) for k in range(K)])
    else:
        tau = np.array(np.broadcast_to(T, (K, n)))
    wrench_tau = None
    if wrenches is not None and any(callable(w.value) for w in wrenches):
        wrench_tau = np.array(
            [wrench_torques(model, q[k], wrenches, t[k], qd[k]) for k in range(K)]
        )
    elif wrenches is not None:  # constant wrenches: one batch over the samples
        wrench_tau = wrench_torques(model, q, wrenches)
    if friction is None and not compiled:
        applied = tau if wrench_tau is None else tau + wrench_tau
        qdd = forward_dynamics(model, q, qd, applied, algorithm=algorithm)
    traj = Trajectory(
        t=t, q=q, qd=qd, qdd=qdd, tau=tau, model_name=model.name, q_names=model.q_names,
        v_names=model.v_names,
    )  # fmt: skip
    if friction is not None:
        check_friction_energy(model, traj, not callable(torque), wrench_tau)
    return traj


def _time_grid(model, t_final, dt):
    """(t_final, dt, steps) checked: positive finite numbers, dt a divisor of t_final,
    histories within the memory budget."""
    t_final = finite_number(t_final, "t_final", positive=True)
    dt = finite_number(dt, "dt", positive=True)
    check_history_bytes(
        t_final / dt * (model.nq + 3 * model.nv + 1) * 8.0,
        "t_final, dt",
        f"{t_final:g} s every {dt:g} s is {t_final / dt:.3g} samples, whose histories "
        "(t, q, q̇, q̈, τ)",
        "use a larger dt or simulate in pieces",
    )
    steps = int(round(t_final / dt))
    if steps < 1 or abs(steps * dt - t_final) > 1e-9 * max(1.0, t_final):
        raise ValueError(f"dt: expected a divisor of t_final = {t_final}, got {dt}")
    return t_final, dt, steps


def _initial_state(model, q0, qd0, assembled=False):
    """(q0, qd0) checked, copies; None: the neutral configuration (left None when
    ``assembled``: the constrained run assembles it) and zero rates."""
    n, nq = model.nv, model.nq
    note = f" (nq; the rates have nv = {n} entries)" if nq != n else ""
    if q0 is None and not assembled:
        q0 = neutral(model)
    elif q0 is not None:
        q0 = vector(q0, nq, "q0", note)[0].copy()
    qd0 = np.zeros(n) if qd0 is None else vector(qd0, n, "qd0")[0].copy()
    if (q0 is not None and q0.ndim != 1) or qd0.ndim != 1:
        raise ValueError("q0: expected one initial state of shape (n,)")
    if not ((q0 is None or np.all(np.isfinite(q0))) and np.all(np.isfinite(qd0))):
        raise ValueError("q0/qd0: expected finite values")
    if q0 is not None and nq != n:
        check_configuration(model, q0, "q0")
        q0 = normalize(model, q0)
    return q0, qd0


def _simulate_constrained(model, q0, qd0, t, torque, integrator, algorithm, rtol, atol,
                          wrenches, given, stabilization, projection):  # fmt: skip
    """The run of a model under constraints (:mod:`.constrained`)."""
    if np.any(coulomb_per_rate(model) > 0):
        raise ValueError(
            "model: Coulomb friction under constraints is not simulated (its stick–slip "
            "and the constraint forces are one complementarity problem); remove it "
            "(eslabon.with_joint_friction(model, coulomb=0)) or the constraints"
        )
    K, n = len(t), model.nv
    law, table = _torque_law(model, torque, K, n)
    if wrenches is not None:
        wrenches = external_wrenches(model, wrenches)

    def applied(tk, k, x, v):
        tau = law(tk, k, x, v)
        return tau if wrenches is None else tau + wrench_torques(model, x, wrenches, tk, v)

    try:
        with np.errstate(all="ignore"):  # a diverging run is reported below, once
            fields = constrained_trajectory(
                model, q0, qd0, t, integrator=integrator, applied=applied, constraints=given,
                algorithm=algorithm, stabilization=stabilization, projection=projection,
                rtol=rtol, atol=atol, steps_on_charts=_steps_on_charts,
            )  # fmt: skip
    except NonFiniteResultError:
        raise ValueError(
            f"simulate: the constrained motion diverged (the state stopped being finite) "
            f"with {integrator} at dt = {t[1] - t[0]:g} s; the step is too large, or the "
            "mechanism passes a singular configuration (eslabon.constraints.constraint_rank): "
            "use a smaller dt or integrator='dop853'"
        ) from None
    q, qd = fields["q"], fields["qd"]
    tau = np.array([law(t[k], k, q[k], qd[k]) for k in range(K)])
    return Trajectory(t=t, tau=tau, model_name=model.name, q_names=model.q_names,
                      v_names=model.v_names, **fields)  # fmt: skip


def _steps_on_charts(model, integrator, accel, t, q, qd, dt, rtol, atol, settle, chart=True):
    """Fill q, q̇ for a model whose configuration holds quaternions: each step (each
    sample interval for dop853) integrates (c, v) on a chart around its first
    configuration (:class:`.manifold.Chart`), then maps back to q. ``settle(k)`` runs
    first at each step (the stick–slip of Coulomb friction). ``chart=False``: the same
    interval by interval for a model without quaternions (c = q)."""
    n = model.nv
    layout = chart_layout(model) if chart else None  # once: each step's chart reuses it
    for k in range(len(t) - 1):
        settle(k)
        chart = Chart(model, q[k], layout) if layout is not None else _Identity(q[k])

        def rate(tk, y, k=k, chart=chart):
            c, v = y[:n], y[n:]
            x = chart.configuration(c)
            return np.concatenate([chart.rate(c, x, v), accel(tk, k, x, v)])

        y0 = np.concatenate([chart.start(), qd[k]])
        if integrator == "rk4":
            y = rk4_step(rate, t[k], y0, dt)
        else:
            from scipy.integrate import solve_ivp

            with np.errstate(all="ignore"):
                sol = solve_ivp(
                    rate, (t[k], t[k + 1]), y0, method=integrator.upper(), rtol=rtol, atol=atol
                )
            if not sol.success:
                raise ValueError(
                    f"simulate: {integrator} stopped after t = {sol.t[-1]:.6g} s ({sol.message}); "
                    "the motion likely diverges there: check the model's scale, the "
                    "torque and the tolerances"
                )
            y = sol.y[:, -1]
        if not np.isfinite(y).all():
            _raise_divergence(model, t[k], q[k], qd[k], dt, integrator)
        q[k + 1], qd[k + 1] = chart.finish(y[:n]), y[n:]


class _Identity:
    """The chart of a configuration space without quaternions: c = q."""

    def __init__(self, q0):
        self.q0 = q0

    def start(self):
        return self.q0.copy()

    def configuration(self, c):
        return c

    def rate(self, c, x, v):
        return v

    def finish(self, c):
        return c


def _state_text(x, v) -> str:
    fmt = ", ".join
    return f"q = [{fmt(f'{a:.4g}' for a in x)}], q̇ = [{fmt(f'{a:.4g}' for a in v)}]"


def _raise_divergence(model, tk, x, v, dt, integrator):
    """The one message for a simulation whose state stopped being finite."""
    raise ValueError(
        f"simulate: the motion diverged after t = {tk:.6g} s (the state stopped "
        f"being finite; last finite state {_state_text(x, v)}); the likely "
        f"cause is a step too large for the dynamics (dt = {dt:g} s with "
        f"{integrator}): use a smaller dt"
        + (", or integrator='dop853'" if integrator in ("rk4", "euler") else "")
    )


def _raise_step_failure(model, status, step, t, q, qd, T, integrator="rk4"):
    """Explain why the compiled loop stopped at ``step``, as the Python loop would: a
    state whose dynamics fail otherwise (a mass matrix not positive definite) raises
    forward dynamics' error, a non-finite result the divergence with the last finite
    sample (Euler stops at the sample whose acceleration overflowed, RK4 at the start
    of the step one of whose stages did)."""
    while step > 0 and not (np.isfinite(q[step]).all() and np.isfinite(qd[step]).all()):
        step -= 1  # an update overflowed: the sample before it is the last finite one
    tau = T[step] if len(T) > 1 else T[0]
    try:
        forward_dynamics(model, q[step], qd[step], tau)  # raises for a bad state
    except NonFiniteResultError:
        pass
    _raise_divergence(model, t[step], q[step], qd[step], t[1] - t[0], integrator)
