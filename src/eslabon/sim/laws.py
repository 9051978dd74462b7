"""Feedback laws that :func:`eslabon.rollout` runs inside its compiled loop.

Pass one as ``torque=`` and every run of the rollout evaluates it at each stage of each
step (RK4: four times a step; semi-implicit Euler: once), in compiled code:

* :class:`PD` — τ = τ_ff + K_p (q_ref − q) + K_d (q̇_ref − q̇);
* :class:`ComputedTorque` — τ = ID(q, q̇, q̈_ref + K_d (q̇_ref − q̇) + K_p (q_ref − q)),
  ID the recursive Newton–Euler inverse dynamics of the run's own model (or of a given
  controller model), friction included.

Gains are diagonal: a number, one per joint (n,), or one row per run (N, n).

References are given as samples at the half steps: with step h and K = t_final/h + 1
samples, a reference holds 2K − 1 rows, row j at t = j·h/2. RK4's stages at t_k,
t_k + h/2 (twice) and t_k + h read rows 2k, 2k + 1 and 2k + 2; Euler reads row 2k. A
reference may also be one constant row (n,), and either form may be given per run
((N, 1, n) or (N, 2K − 1, n)). So a law needs no interpolation in the loop, and a
rollout equals :func:`eslabon.simulate` with the Python law that reads the same rows
(:meth:`PD.as_torque`) bit for bit. (A hold of one row over each step could not be
matched by a ``torque(t, q, qd)`` callable: RK4's last stage of step k and the first
stage of step k + 1 fall at the same time.)
"""

from __future__ import annotations

import numpy as np

from .._args import real_array

NO_LAW, PD_LAW, CT_LAW = 0, 1, 2  # what the compiled loop evaluates (rollout_kernels)


def _checked(x, field, most):
    """``x`` as a finite float64 array of at most ``most`` dimensions (a copy: the law
    keeps its values when the caller's array changes)."""
    arr = np.array(real_array(x, field), dtype=float)
    if arr.ndim > most:
        raise ValueError(f"{field}: expected at most {most} dimensions, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{field}: expected finite values")
    return arr


class _Law:
    """What the laws share: checked gains and references, their shapes resolved for a
    rollout (:meth:`resolve`) and the Python law that reads the same samples."""

    code = NO_LAW
    references: tuple[str, ...] = ()  # the names of the three references, in the kernel's order
    q_ref: np.ndarray  # the first reference, never None (set in __init__ with the others)

    def __init__(self, kp, kd, refs):
        name = type(self).__name__
        self.kp = _checked(kp, f"{name}.kp", 2)
        self.kd = _checked(kd, f"{name}.kd", 2)
        q_ref = refs[self.references[0]]
        if q_ref is None:
            raise ValueError(f"{name}.q_ref: expected an array, got None")
        for field, value in refs.items():
            setattr(self, field, None if value is None else _checked(value, f"{name}.{field}", 3))

    def __repr__(self):
        shapes = ", ".join(
            f"{f}={getattr(self, f).shape}"
            for f in ("kp", "kd", *self.references)
            if getattr(self, f) is not None
        )
        return f"{type(self).__name__}({shapes})"

    def _gain(self, field, N, n):
        g = getattr(self, field)
        if g.ndim == 0:
            return np.full((1, n), float(g))
        if g.shape == (n,):
            return g.reshape(1, n).copy()
        if g.shape in ((N, n), (1, n)):
            return np.ascontiguousarray(g)
        raise ValueError(
            f"{type(self).__name__}.{field}: expected a number, shape ({n},) (one per joint) "
            f"or ({N}, {n}) (one row per run), got shape {g.shape}"
        )

    def _reference(self, field, N, K, n):
        r = getattr(self, field)
        if r is None:
            return np.zeros((1, 1, n))
        S = 2 * K - 1
        if r.shape == (n,):
            return r.reshape(1, 1, n).copy()
        if r.shape == (S, n):
            return np.ascontiguousarray(r.reshape(1, S, n))
        if r.ndim == 3 and r.shape[0] in (1, N) and r.shape[1] in (1, S) and r.shape[2] == n:
            return np.ascontiguousarray(r)
        hint = ""
        if r.shape[-2:] == (K, n):
            hint = f" ({K} rows are the sample times; the stages need the half steps too)"
        raise ValueError(
            f"{type(self).__name__}.{field}: expected shape ({n},) (constant), ({S}, {n}) "
            f"(2K − 1 = {S} samples at t = 0, h/2, h, …, t_final), ({N}, 1, {n}) or "
            f"({N}, {S}, {n}) (per run), got {r.shape}{hint}"
        )

    def resolve(self, N, K, n):
        """(kp (1 or N, n), kd (1 or N, n), three references (1 or N, 1 or 2K − 1, n))
        for N runs of K samples and n joints; a ValueError names a field of another
        shape."""
        kp, kd = self._gain("kp", N, n), self._gain("kd", N, n)
        refs = tuple(self._reference(f, N, K, n) for f in self.references)
        return kp, kd, refs

    def _python_parts(self, run):
        """(kp (n,), kd (n,), three references (S or 1, n), S) of run ``run``: the rows
        :meth:`resolve` gives the compiled loop."""
        name = type(self).__name__
        n = self.q_ref.shape[-1]
        gains: list[np.ndarray] = []
        for field in ("kp", "kd"):
            g = getattr(self, field)
            g = g[min(run, len(g) - 1)] if g.ndim == 2 else g
            if g.shape not in ((), (n,)):
                raise ValueError(
                    f"{name}.{field}: expected a number or {n} per joint, got {g.shape}"
                )
            gains.append(np.full(n, float(g)) if g.ndim == 0 else g)
        refs = []
        for field in self.references:
            r = getattr(self, field)
            r = np.zeros(n) if r is None else (r[min(run, len(r) - 1)] if r.ndim == 3 else r)
            refs.append(np.atleast_2d(r))
        S = max(len(r) for r in refs)
        if any(len(r) not in (1, S) or r.shape[1] != n for r in refs):
            raise ValueError(f"{name}: the references have different numbers of samples or joints")
        return gains[0], gains[1], refs, S

    def _python_step(self, kp, kd, model):
        """The law's arithmetic at one sample, ``step(r0, r1, r2, q, qd) -> tau``, as the
        compiled loop does it (each law its own)."""
        raise NotImplementedError

    def as_torque(self, dt, run=0, model=None):
        """The same law as a Python callable ``torque(t, q, qd)`` for
        :func:`eslabon.simulate`: it reads the reference row j = round(2t/dt) (row 0 of a
        constant reference) and does the compiled loop's arithmetic in its order, so
        ``simulate(model, q0, qd0, t_final, dt, torque=law.as_torque(dt, i, model), …)`` equals
        run i of the rollout bit for bit.

        Parameters
        ----------
        dt : float
            The rollout's step [s].
        run : int
            Which run's gains and references (rows of per-run arrays).
        model : Model, optional
            The run's model: the inverse dynamics of :class:`ComputedTorque` without a
            model of its own. Not used by :class:`PD`.

        Returns
        -------
        callable
            ``torque(t, q, qd) -> tau`` (n,).

        Raises
        ------
        ValueError
            References with different numbers of samples, gains of another shape, or a
            :class:`ComputedTorque` without a model.
        """
        kp, kd, refs, S = self._python_parts(run)
        half = dt / 2
        step = self._python_step(kp, kd, model)

        def torque(t, q, qd):
            j = int(round(t / half)) if S > 1 else 0
            if not 0 <= j < S:
                raise ValueError(f"t: {t} s is past the references' {S} half steps of {dt} s")
            return step(*(r[j] if len(r) > 1 else r[0] for r in refs), q, qd)

        return torque


class PD(_Law):
    """Proportional–derivative feedback with a feedforward torque, for
    :func:`eslabon.rollout`: τ = τ_ff + K_p (q_ref − q) + K_d (q̇_ref − q̇).

    Parameters
    ----------
    kp, kd : float or array_like (n,) or (N, n)
        Position gain [N·m/rad, N/m] and rate gain [N·m·s/rad, N·s/m], per joint; a row
        per run for N runs.
    q_ref : array_like
        Reference positions: (n,) constant, (2K − 1, n) at the half steps t = j·h/2
        (module docstring), or per run (N, 1, n) or (N, 2K − 1, n).
    qd_ref, tau_ff : array_like, optional
        Reference rates and the feedforward torque [N·m, N], shaped as ``q_ref`` (each
        on its own: one may be constant while another varies). Default zero.

    Raises
    ------
    ValueError
        A field that is not real and finite, gains of more than 2 dimensions or
        references of more than 3, a missing ``q_ref``; shapes that do not fit the
        rollout are refused by :func:`eslabon.rollout`, naming the field.

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon.sim.laws import PD
    >>> arm = es.zoo.load("planar2")
    >>> hold = PD(400.0, 40.0, q_ref=[0.5, 0.0], tau_ff=es.gravity_torques(arm, [0.5, 0.0]))
    >>> runs = es.rollout(arm, np.zeros((8, 2)), np.zeros((8, 2)), 2.0, 0.001, torque=hold)
    >>> bool(np.allclose(runs.q[:, -1], [0.5, 0.0], atol=1e-3))
    True
    """

    code = PD_LAW
    references = ("q_ref", "qd_ref", "tau_ff")

    def __init__(self, kp, kd, q_ref, qd_ref=None, tau_ff=None):
        super().__init__(kp, kd, dict(q_ref=q_ref, qd_ref=qd_ref, tau_ff=tau_ff))

    def _python_step(self, kp, kd, model):
        def step(q_ref, qd_ref, tau_ff, q, qd):
            return tau_ff + kp * (q_ref - q) + kd * (qd_ref - qd)

        return step


class ComputedTorque(_Law):
    """Computed-torque feedback for :func:`eslabon.rollout`: the inverse dynamics of the
    commanded acceleration, τ = ID(q, q̇, q̈_ref + K_d (q̇_ref − q̇) + K_p (q_ref − q)).

    With the run's own model, the tracking error e = q_ref − q obeys
    ë + K_d ė + K_p e = 0 (exact linearization; friction is compensated, as ID includes
    it). ID is the compiled recursive Newton–Euler kernel of
    :func:`eslabon.inverse_dynamics` (*Práctica 3*, Tabla 3.1).

    Parameters
    ----------
    kp, kd : float or array_like (n,) or (N, n)
        Position gain [1/s²] and rate gain [1/s], per joint; a row per run.
    q_ref : array_like
        Reference positions, shaped as :class:`PD`'s.
    qd_ref, qdd_ref : array_like, optional
        Reference rates and accelerations, shaped as ``q_ref``. Default zero.
    model : Model, optional
        The controller's model, of the runs' structure (another payload, say): every
        run computes its torques with it. Default: each run's own model.

    Raises
    ------
    ValueError
        As :class:`PD`; a ``model`` of another structure than the runs' is refused by
        :func:`eslabon.rollout`.

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon.sim.laws import ComputedTorque
    >>> arm = es.zoo.load("planar2")
    >>> law = ComputedTorque(100.0, 20.0, q_ref=[0.3, -0.2])
    >>> runs = es.rollout(arm, np.zeros((4, 2)), np.zeros((4, 2)), 2.0, 0.001, torque=law)
    >>> bool(np.allclose(runs.q[:, -1], [0.3, -0.2], atol=1e-5))
    True
    """

    code = CT_LAW
    references = ("q_ref", "qd_ref", "qdd_ref")

    def __init__(self, kp, kd, q_ref, qd_ref=None, qdd_ref=None, model=None):
        super().__init__(kp, kd, dict(q_ref=q_ref, qd_ref=qd_ref, qdd_ref=qdd_ref))
        self.model = model

    def _python_step(self, kp, kd, model):
        from ..dynamics import inverse_dynamics

        model = self.model if self.model is not None else model
        if model is None:
            raise ValueError(
                "model: ComputedTorque.as_torque needs the run's model (the law has none "
                "of its own)"
            )

        def step(q_ref, qd_ref, qdd_ref, q, qd):
            return inverse_dynamics(model, q, qd, qdd_ref + kd * (qd_ref - qd) + kp * (q_ref - q))

        return step


LAWS = (PD, ComputedTorque)
