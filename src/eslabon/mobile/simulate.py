"""Simulation of a mobile manipulator: the state y = [config, q, ν, q̇] integrated with
ẏ = [G(config) ν, q̇, ν̇, q̈]. Seed 003 leaves the integrator unstated (Araujo 2012,
"Ejemplo de aplicación": "un proceso de integración numérica"); an adaptive Runge–Kutta
with tight tolerances and a fixed-step RK4 option are offered.

Inputs are constants or callables of time: ``u`` the platform's (tricycle [F, M],
differential drive [τ_left, τ_right]) and ``torque`` the arm's. The input work
W = ∫ (Qᵀν + τᵀq̇ − friction) dt is integrated with the state, so the work–energy
balance T + V − W = const can be checked on the result.

The arm's Coulomb friction is the plain law F_c sign(q̇) here: Karnopp's stick–slip,
which :func:`eslabon.simulate` and :func:`eslabon.rollout` decide at every step
(:mod:`eslabon.sim.stick_slip`), is not decided on the platform-coupled dynamics. The
adaptive methods shrink their step at the jump; a fixed RK4 step cannot follow it (a
joint that friction should hold chatters about q̇ = 0), so ``integrator="rk4"`` on an arm with
Coulomb friction warns (:func:`warn_plain_coulomb`), naming the joints.
"""

from __future__ import annotations

import csv
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp

from .._args import caller_stacklevel, finite_array, finite_number, whole_number
from .._deprecation import renamed_keywords, state_first
from .._files import atomic_file
from ..conventions import integrator_name
from ..sim.friction_check import FrictionStepWarning
from ..sim.rk4 import rk4_step
from .energy import (
    arm_potential_energy,
    coupled_kinetic_energy,
    input_power,
    tree_potential_energy,
)
from .manipulator import MobileManipulator, accelerations
from .terrain import is_level

METHODS = ("dop853", "rk45", "rk4", "euler")  # the integrators (eslabon.conventions)


@dataclass(frozen=True)
class MobileTrajectory:
    """Samples of a mobile manipulator's motion, as :func:`simulate` returns them.

    Samples (K,) of the platform configuration (K, nc), arm joints (K, n), quasi-
    velocities ν and their rates ν̇ (K, k), arm rates and accelerations (K, n), configuration
    rates and accelerations (K, nc) (q̇ = G ν, q̈ = G ν̇ + Ġ ν: pose, steering, wheel spins),
    inputs u (K, k) and tau (K, n), energy T + V and input work W (K,).

    Attributes
    ----------
    t : ndarray
        Shape (K,): sample times [s].
    config : ndarray
        Shape (K, nc): platform configuration, named by ``config_names``: x, y [m] of the
        chassis origin (rear-axle midpoint) in the floor (world) frame, heading θ [rad],
        the tricycle's steering β [rad], the wheels' spin angles [rad].
    q : ndarray
        Shape (K, n): arm joints [rad, m].
    nu : ndarray
        Shape (K, k): quasi-velocities, named by ``quasi_names`` (tricycle [V m/s,
        β̇ rad/s], differential drive [v m/s, ω rad/s]).
    qd : ndarray
        Shape (K, n): arm joint rates [rad/s, m/s].
    nu_dot : ndarray
        Shape (K, k): ν̇ [m/s², rad/s²].
    qdd : ndarray
        Shape (K, n): arm joint accelerations [rad/s², m/s²].
    config_rates : ndarray
        Shape (K, nc): q̇ = G ν of ``config`` (ẋ, ẏ [m/s] in the floor frame, the angles'
        rates [rad/s]).
    config_accels : ndarray
        Shape (K, nc): q̈ = G ν̇ + Ġ ν of ``config`` [m/s², rad/s²].
    u : ndarray
        Shape (K, k): platform inputs, named by ``input_names`` (tricycle [F N, M N·m],
        differential drive [τ_left, τ_right] N·m).
    tau : ndarray
        Shape (K, n): arm joint torques [N·m, N].
    energy : ndarray
        Shape (K,): T + V [J] (:func:`~eslabon.mobile.coupled_kinetic_energy` +
        :func:`~eslabon.mobile.arm_potential_energy`; on a slope or with a tilted
        steering axis every body's, :func:`~eslabon.mobile.energy.tree_potential_energy`).
    work : ndarray
        Shape (K,): W = ∫ (Qᵀν + τᵀq̇ − friction) dt from 0 [J], integrated with the
        state, so that ``energy − work`` stays constant (in ``mode="coupled"``).
    config_names, quasi_names, input_names : tuple of str
        The platform's names of the columns of ``config``, ``nu`` and ``u``.
    mode : str
        The coupling mode simulated.

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon import mobile as mb
    >>> cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    >>> mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"), mb.Mount((0.3, 0, 0.5)))
    >>> traj = mb.simulate(mm, None, None, 0.02, 0.01, integrator="rk4", u=[150.0, 0.0])
    >>> traj.t.tolist(), traj.config.shape, traj.q.shape
    ([0.0, 0.01, 0.02], (3, 7), (3, 6))
    >>> bool(np.allclose(traj.energy - traj.work, traj.energy[0]))  # T + V − W
    True
    """

    t: np.ndarray
    config: np.ndarray
    q: np.ndarray
    nu: np.ndarray
    qd: np.ndarray
    nu_dot: np.ndarray
    qdd: np.ndarray
    config_rates: np.ndarray
    config_accels: np.ndarray
    u: np.ndarray
    tau: np.ndarray
    energy: np.ndarray
    work: np.ndarray
    config_names: tuple
    quasi_names: tuple
    input_names: tuple
    mode: str

    def state(self, i: int) -> np.ndarray:
        """The state y = [config, q, ν, q̇] (n_state,) of sample ``i``.

        Parameters
        ----------
        i : int
            The sample's index (negative counts from the end).

        Returns
        -------
        ndarray (n_state,)

        Examples
        --------
        >>> import eslabon as es
        >>> from eslabon import mobile as mb
        >>> cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
        >>> mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"))
        >>> mb.simulate(mm, None, None, 0.02, 0.01, u=[150.0, 0.3]).state(-1).shape
        (21,)
        """
        return np.concatenate([self.config[i], self.q[i], self.nu[i], self.qd[i]])

    def columns(self) -> dict:
        """Every series by a column name (for CSV).

        ``t``; for each configuration coordinate ``name``, ``d_name`` and ``dd_name``
        (value, rate, acceleration); for each quasi-velocity ``name`` and ``d_name``;
        ``q1``, ``qd1``, ``qdd1``, ``tau1``, … per arm joint; the inputs by their names;
        ``energy`` and ``work``. Units as the attributes.

        Returns
        -------
        dict of str to ndarray (K,)
            Column name → series, in that order.
        """
        cols = {"t": self.t}
        for j, name in enumerate(self.config_names):
            cols[name] = self.config[:, j]
            cols[f"d_{name}"] = self.config_rates[:, j]
            cols[f"dd_{name}"] = self.config_accels[:, j]
        for j, name in enumerate(self.quasi_names):
            cols[name] = self.nu[:, j]
            cols[f"d_{name}"] = self.nu_dot[:, j]
        for j in range(self.q.shape[1]):
            cols[f"q{j + 1}"] = self.q[:, j]
            cols[f"qd{j + 1}"] = self.qd[:, j]
            cols[f"qdd{j + 1}"] = self.qdd[:, j]
            cols[f"tau{j + 1}"] = self.tau[:, j]
        for j, name in enumerate(self.input_names):
            cols[name] = self.u[:, j]
        cols["energy"] = self.energy
        cols["work"] = self.work
        return cols

    def save(self, path, *, overwrite: bool = True) -> Path:
        """Write ``.csv`` or ``.npz`` atomically; ``overwrite=False`` refuses an existing file.

        An existing file survives a failure or a kill. The columns are those of
        :meth:`columns`; a CSV has one header row and full-precision values, an ``.npz``
        one array per column plus ``mode``.

        Parameters
        ----------
        path : str or os.PathLike
            A file name ending in ``.csv`` or ``.npz`` (any case).
        overwrite : bool
            Replace an existing file (default) or refuse it.

        Returns
        -------
        pathlib.Path
            ``path``.

        Raises
        ------
        ValueError
            Another suffix; an existing file with ``overwrite=False``
            (``OutputExistsError``, a ValueError).
        OSError
            The file cannot be written.

        Examples
        --------
        >>> import os, tempfile
        >>> import eslabon as es
        >>> from eslabon import mobile as mb
        >>> cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
        >>> mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"), mb.Mount((0.3, 0, 0.5)))
        >>> traj = mb.simulate(mm, None, None, 0.01, 0.01, integrator="rk4")
        >>> with tempfile.TemporaryDirectory() as tmp:
        ...     out = traj.save(os.path.join(tmp, "run.csv"))
        ...     header = out.read_text().splitlines()[0]
        >>> header.split(",")[:4]
        ['t', 'x', 'd_x', 'dd_x']
        """
        path = Path(path)
        suffix = path.suffix.lower()
        if suffix not in (".csv", ".npz"):
            raise ValueError(f"path: expected a .csv or .npz file name, got {str(path)!r}")
        cols = self.columns()
        if suffix == ".npz":
            with atomic_file(path, "wb", overwrite=overwrite) as fh:
                np.savez(fh, **cols, mode=self.mode)
        else:
            with atomic_file(path, "w", overwrite=overwrite, newline="") as fh:
                w = csv.writer(fh)
                w.writerow(cols)
                for row in zip(*cols.values(), strict=True):
                    w.writerow([repr(float(v)) for v in row])
        return path


def _law(x, n, name):
    """A constant (n,) or a callable t -> (n,), checked once."""
    if callable(x):

        def f(t):
            v = np.asarray(x(t), dtype=float)
            if v.shape != (n,) or not np.isfinite(v).all():
                raise ValueError(
                    f"{name}: the callable must return {n} finite values at t = {t}, got {v!r}"
                )
            return v

        return f
    v = np.zeros(n) if x is None else np.asarray(x, dtype=float)
    if v.shape != (n,) or not np.isfinite(v).all():
        raise ValueError(f"{name}: expected {n} finite values or a callable of t, got {x!r}")
    return lambda t: v


def warn_plain_coulomb(mm, who: str) -> None:
    """A :class:`~eslabon.sim.FrictionStepWarning` naming the arm's joints with Coulomb
    friction, which a fixed-step loop of the mobile manipulator (``who``) integrates with
    the plain law (the module docstring); nothing when the arm has none."""
    coulomb = np.asarray(mm.arm.coulomb, float)
    bodies = [repr(mm.arm.body_names[i]) for i in np.flatnonzero(coulomb > 0)]
    if bodies:
        which = f"{'body' if len(bodies) == 1 else 'bodies'} {', '.join(bodies[:5])}"
        warnings.warn(
            f"{who}: the arm's Coulomb friction (joint of {which}) is integrated with the "
            "plain law F_c sign(q̇), which a fixed RK4 step cannot follow at q̇ = 0 "
            "(stick–slip is decided per step by eslabon.simulate and eslabon.rollout, not on "
            "the platform-coupled dynamics): a joint that friction should hold may chatter; "
            "use integrator='dop853', or check the work–energy balance of the result",
            FrictionStepWarning,
            stacklevel=caller_stacklevel(),
        )


@state_first
@renamed_keywords(method="integrator")
def simulate(
    model: MobileManipulator,
    q0=None,
    qd0=None,
    t_final: float | None = None,
    dt: float = 1e-3,
    *,
    torque=None,
    integrator: str = "dop853",
    rtol: float = 1e-10,
    atol: float = 1e-12,
    config0=None,
    nu0=None,
    u=None,
    samples: int | None = None,
    locked: bool = False,
) -> MobileTrajectory:
    """Simulate the mobile manipulator ``model`` for ``t_final`` seconds.

    The arguments :func:`eslabon.simulate` also takes come first, in its order and with
    its names (model, q0, qd0, t_final, dt, torque, integrator, rtol, atol); the
    platform's follow. The old order ``simulate(model, t_final, dt, q0=…)`` and
    ``method=`` (the integrator) still work for one release, with a deprecation warning.

    Parameters
    ----------
    model : MobileManipulator
        The platform and the arm on it.
    q0, qd0 : array_like (n,), optional
        The arm's initial joint positions [rad, m] and rates [rad/s, m/s] (zeros by
        default).
    t_final : float
        Duration [s] (required).
    dt : float
        The step of ``"rk4"`` and ``"euler"`` (a divisor of ``t_final``), and the sample
        spacing of the adaptive integrators unless ``samples`` is given [s].
    torque : array_like (n,) or callable, optional
        The arm's joint torques [N·m, N]: a constant, or a callable ``torque(t) -> (n,)``
        (zeros by default).
    integrator : {"dop853", "rk45", "rk4", "euler"}
        scipy's adaptive Dormand–Prince of order 8 or 5 (``rtol``, ``atol``), fixed-step
        RK4 (:func:`eslabon.sim.rk4.rk4_step`) or fixed-step semi-implicit Euler (the
        rates ν, q̇ first, then the configuration with the new rates), the names
        :func:`eslabon.simulate` takes.
    rtol, atol : float
        Tolerances of the adaptive integrators.
    config0 : array_like (nc,), optional
        The platform's initial configuration: x, y [m] in the floor (world) frame,
        heading [rad], (steering [rad]), wheel angles [rad] (zeros by default: at the
        origin, heading along the floor's x).
    nu0 : array_like (k,), optional
        The initial quasi-velocities (tricycle [V m/s, β̇ rad/s], differential drive
        [v m/s, ω rad/s]; zeros by default: at rest).
    u : array_like (k,) or callable, optional
        The platform's inputs (tricycle [F N, M N·m], differential drive [τ_left,
        τ_right] N·m): a constant or a callable ``u(t) -> (k,)`` (zeros by default).
    samples : int, optional
        Number of output samples (≥ 2) of the adaptive integrators, instead of one every
        ``dt``; refused with ``"rk4"`` and ``"euler"``, which sample every step.
    locked : bool
        Hold the platform's quasi-velocities constant (ν̇ = 0; still when ``nu0`` is
        zero).

    Returns
    -------
    MobileTrajectory
        Samples at K evenly spaced times from 0 to ``t_final`` [s]: K = ``samples``, else
        t_final/dt + 1 (one every ``dt``).

    Raises
    ------
    ValueError
        ``t_final`` or ``dt`` not a positive finite number; an unknown integrator; an initial
        state of the wrong length or not finite (naming it); ``u`` or ``torque`` of the
        wrong length or not finite (a callable's value is checked at each call); a
        ``dt`` that does not divide ``t_final`` (unless ``samples`` is given); ``samples``
        not a whole number ≥ 2, or given with a fixed step; and what
        :func:`~eslabon.mobile.accelerations` raises along the way (a tricycle steering
        angle reaching ±90°).
    RuntimeError
        The adaptive integrator failed (naming the time it stopped at).

    Warns
    -----
    FrictionStepWarning
        A fixed step (``"rk4"``, ``"euler"``) on an arm with Coulomb friction, which it
        integrates with the
        plain law (the module docstring), naming the joints.

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon import mobile as mb
    >>> cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    >>> mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"), mb.Mount((0.3, 0, 0.5)))
    >>> traj = mb.simulate(mm, None, None, 0.02, 0.01, integrator="rk4", u=[150.0, 0.3],
    ...                    torque=[6, 50, 10, -0.1, -0.5, -0.1])
    >>> traj.nu.shape, traj.q.shape, traj.columns()["V"].shape
    ((3, 2), (3, 6), (3,))
    """
    if t_final is None:
        raise TypeError("simulate: t_final is required (simulate(model, q0, qd0, t_final, dt))")
    t_final = finite_number(t_final, "t_final", positive=True)
    dt = finite_number(dt, "dt", positive=True)
    integrator = integrator_name(integrator, METHODS)
    fixed = integrator in ("rk4", "euler")
    parts = [
        (config0, model.n_config, "config0"),
        (q0, model.n_arm, "q0"),
        (nu0, model.n_quasi, "nu0"),
        (qd0, model.n_arm, "qd0"),
    ]
    y0 = np.concatenate(
        [np.zeros(n) if x is None else finite_array(x, name, (n,)) for x, n, name in parts]
    )
    n_u = len(model.platform.input_names)
    u_of, tau_of = _law(u, n_u, "u"), _law(torque, model.n_arm, "torque")
    n_y = model.n_state

    def f(t, x):
        y = x[:n_y]
        uu, tt = u_of(t), tau_of(t)
        config, q, nu, qd = model.split(y)
        rates = model.platform.motion(config, nu).rates
        acc = accelerations(model, y, uu, tt, locked=locked)
        return np.concatenate([rates, qd, acc, [input_power(model, y, uu, tt)]])

    x0 = np.concatenate([y0, [0.0]])
    steps = int(round(t_final / dt))
    if samples is not None:
        if fixed:
            raise ValueError(
                f"samples: the fixed-step {integrator!r} samples every dt; leave samples out"
            )
        samples = whole_number(samples, "samples", 2)
    elif steps < 1 or abs(steps * dt - t_final) > 1e-9 * t_final:
        raise ValueError(f"dt: t_final = {t_final} is not a whole number of steps of {dt}")
    t = np.linspace(0.0, t_final, samples if samples is not None else steps + 1)
    if fixed:
        warn_plain_coulomb(model, "mobile.simulate")
        X = np.empty((steps + 1, len(x0)))
        X[0] = x0
        n_pos = model.n_config + model.n_arm  # y = [config, q | ν, q̇], then the work
        for i in range(steps):
            h = t[i + 1] - t[i]
            if integrator == "rk4":
                X[i + 1] = rk4_step(f, t[i], X[i], h)
                continue
            d = f(t[i], X[i])  # semi-implicit Euler: the rates first, then positions
            X[i + 1, n_pos:] = X[i, n_pos:] + h * d[n_pos:]
            y_new = np.concatenate([X[i, :n_pos], X[i + 1, n_pos:n_y]])
            _, _, nu, qd = model.split(y_new)  # the old configuration, the new rates
            rates = model.platform.motion(X[i, : model.n_config], nu).rates
            X[i + 1, :n_pos] = X[i, :n_pos] + h * np.concatenate([rates, qd])
    else:
        sol = solve_ivp(
            f, (0.0, t_final), x0, method=integrator.upper(), t_eval=t, rtol=rtol, atol=atol
        )
        if not sol.success:
            raise RuntimeError(
                f"simulate: the integrator stopped at t = {sol.t[-1]:.6g}: {sol.message}"
            )
        X = sol.y.T
    return _trajectory(model, t, X, u_of, tau_of, locked)


def _trajectory(mm, t, X, u_of, tau_of, locked):
    n_y = mm.n_state
    k, nc = mm.n_quasi, mm.n_config
    U = np.array([u_of(tk) for tk in t])
    TAU = np.array([tau_of(tk) for tk in t])
    acc = np.array(
        [
            accelerations(mm, x[:n_y], uu, tt, locked=locked)
            for x, uu, tt in zip(X, U, TAU, strict=True)
        ]
    )
    motions = [mm.platform.motion(*_cfg_nu(mm, x[:n_y])) for x in X]
    rates = np.array([pm.rates for pm in motions])
    config_accels = np.array([pm.accel0 + pm.G @ a[:k] for pm, a in zip(motions, acc, strict=True)])
    if is_level(mm):
        potential = [arm_potential_energy(mm, x[:n_y]) for x in X]
    else:  # a slope or a tilted steering axis: the platform's bodies change height too
        potential = list(tree_potential_energy(mm, X[:, :n_y]))
    energy = np.array([coupled_kinetic_energy(mm, x[:n_y]) for x in X]) + potential
    split = [mm.split(x[:n_y]) for x in X]
    return MobileTrajectory(
        t=t,
        config=np.array([s[0] for s in split]),
        q=np.array([s[1] for s in split]),
        nu=np.array([s[2] for s in split]),
        qd=np.array([s[3] for s in split]),
        nu_dot=acc[:, :k],
        qdd=acc[:, k:],
        config_rates=rates[:, :nc],
        config_accels=config_accels[:, :nc],
        u=U,
        tau=TAU,
        energy=energy,
        work=X[:, n_y],
        config_names=tuple(mm.platform.config_names),
        quasi_names=tuple(mm.platform.quasi_names),
        input_names=tuple(mm.platform.input_names),
        mode=mm.mode,
    )


def _cfg_nu(mm, y):
    config, _, nu, _ = mm.split(y)
    return config, nu
