"""One robot, every formulation, one answer: compare them all at a state.

* inverse dynamics: recursive Newton–Euler (seed 001, the reference) against the Lagrange
  model of seed 000, the spatial-operator form F_T = M q̈ + ξ of seeds 002/004, and
  M q̈ + b from Walker–Orin 3 and the Newton–Euler bias, and Gibbs–Appell's D q̈ + φ
  (seed 003);
* mass matrix: Walker–Orin 3 (reference) against Walker–Orin 1, the composite-body
  expansion of the operator form, the operator product Hᵀ ρ I ρᵀ H and Lagrange's
  Σ mRᵀR + AᵀIA;
* forward dynamics at τ = ID(q, q̇, q̈): the articulated-body algorithm (reference) against
  Walker–Orin 3 / 1 + Cholesky, Lagrange + Cholesky, the constraint-force Macro Algoritmo,
  Gibbs–Appell, and the round trip to q̈;
* identities: M symmetric and positive definite, Ṁ − 2C skew-symmetric (Ṁ by central
  differences), and the energy balance dE/dt = q̇ᵀ(τ − friction) (by central differences).

A method that does not apply to the model (e.g. the constraint-force method with a
singular body inertia, Lagrange with seed 001's sliding COM, the formulations of the
source documents with a spherical or free-flyer joint) is listed as skipped with the
reason, not failed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._args import finite_number, pad, vectors
from .._engine.joint_types import nv_of
from ..model.configuration import check_configuration, integrate, normalize

GROUPS = ("inverse dynamics", "mass matrix", "forward dynamics", "identity")


@dataclass(frozen=True)
class Check:
    """One comparison: ``value`` is max abs(method − reference) (or the identity's residual),
    ``scale`` what it is measured against, ``ok`` whether value ≤ tolerance·scale.

    Attributes
    ----------
    group : str
        ``"inverse dynamics"``, ``"mass matrix"``, ``"forward dynamics"`` or
        ``"identity"``.
    name : str
        The method or identity checked, e.g. ``"Walker-Orin 1 (NE columns)"``.
    reference : str
        What it is compared with, e.g. ``"Newton-Euler"``, ``"ABA"``.
    value : float
        The largest absolute difference of the entries, in the quantity's units (N·m, kg·m²,
        rad/s², …; the residual for an identity); NaN when skipped.
    scale : float
        The size the value is measured against: max(1, max abs(reference)) for the
        comparisons; 0 when skipped.
    tolerance : float
        The relative bound: ``rtol`` or ``rtol_fd`` of :func:`crosscheck` (0 for the
        positive-definiteness check, whose value is the smallest eigenvalue of M).
    ok : bool
        value ≤ tolerance·scale (for positive definiteness: value > 0); False when
        skipped.
    skipped : str
        Why the method does not apply to the model (the error it raised), or ``""``.
    """

    group: str
    name: str
    reference: str
    value: float
    scale: float
    tolerance: float
    ok: bool
    skipped: str = ""


@dataclass(frozen=True)
class CrosscheckReport:
    """What :func:`crosscheck` found: one :class:`Check` per comparison, in the order of
    the module docstring.

    Attributes
    ----------
    model : str
        The model's name.
    q : ndarray (nq,)
        The configuration compared at (rad, m; unit quaternions).
    qd, qdd : ndarray (n,)
        The joint rates and accelerations compared at (rad/s, m/s; rad/s², m/s²).
    checks : tuple of Check
        Every comparison, those skipped included.
    ok : bool
        True when no comparison that ran exceeds its tolerance.
    """

    model: str
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    checks: tuple = field(default_factory=tuple)

    @property
    def ok(self) -> bool:
        """True when no comparison that ran exceeds its tolerance."""
        return all(c.ok for c in self.checks if not c.skipped)

    def failures(self) -> list:
        """The comparisons that ran and exceeded their tolerance.

        Returns
        -------
        list of Check
            Empty when :attr:`ok`.
        """
        return [c for c in self.checks if not c.skipped and not c.ok]

    def table(self) -> str:
        """The report as text, one line per check (what ``eslabon crosscheck`` prints).

        Returns
        -------
        str
            A title line (``all agree`` or ``DIFFERENCES``), a header, then per check its
            group, method, reference, largest absolute difference, relative difference,
            tolerance and ``ok``, ``FAIL`` or ``skipped (k)``; then, when any was
            skipped, the numbered reasons below the table (``(k) <reason>``, each on one
            line), so that a long reason does not break the columns. The columns are
            aligned by display width (θ̈ is one column).
        """
        lines = [
            f"crosscheck {self.model}: {'all agree' if self.ok else 'DIFFERENCES'}",
            f"  {'group':<17} {'method':<36} {'vs':<14} {'max |diff|':>11} "
            f"{'relative':>10} {'tol':>8}  status",
        ]
        notes: list[str] = []
        for c in self.checks:
            head = f"  {pad(c.group, 17)} {pad(c.name, 36)} {pad(c.reference, 14)} "
            if c.skipped:
                notes.append(f"  ({len(notes) + 1}) {c.name}: {' '.join(c.skipped.split())}")
                lines.append(head + f"{'':>11} {'':>10} {'':>8}  skipped ({len(notes)})")
                continue
            rel = c.value / c.scale if c.scale else c.value
            lines.append(
                head + f"{c.value:>11.3e} {rel:>10.2e} {c.tolerance:>8.0e}  "
                f"{'ok' if c.ok else 'FAIL'}"
            )
        if notes:
            lines += ["skipped:", *notes]
        return "\n".join(lines)

    def to_dict(self) -> dict:
        """The report as plain data for JSON.

        Returns
        -------
        dict
            ``model``, ``ok``, ``q``, ``qd``, ``qdd`` (lists) and ``checks``, one dict
            per :class:`Check` with its fields; a NaN or infinite value is None.
        """
        return {
            "model": self.model,
            "ok": self.ok,
            "q": self.q.tolist(),
            "qd": self.qd.tolist(),
            "qdd": self.qdd.tolist(),
            "checks": [
                {
                    k: (None if isinstance(v, float) and not np.isfinite(v) else v)
                    for k, v in c.__dict__.items()
                }
                for c in self.checks
            ],
        }


def _compare(group, name, reference, fn, ref_value, tol, scale=None):
    try:
        value = np.asarray(fn(), dtype=float)
    except ValueError as exc:
        return Check(group, name, reference, float("nan"), 0.0, tol, False, str(exc))
    s = scale if scale is not None else max(1.0, float(np.abs(ref_value).max(initial=0.0)))
    diff = float(np.abs(value - ref_value).max(initial=0.0))
    return Check(group, name, reference, diff, s, tol, bool(diff <= tol * s))


def _energy(model, q, qd):
    from .api import kinetic_energy, potential_energy

    return kinetic_energy(model, q, qd) + potential_energy(model, q)


def crosscheck(
    model, q=None, qd=None, qdd=None, *, seed: int = 0, rtol: float = 1e-9, rtol_fd: float = 1e-6
) -> CrosscheckReport:
    """Compare every formulation at (q, q̇, q̈), each (n,); unset ones are drawn uniformly in
    [−1, 1] from ``seed``. ``rtol`` bounds the algebraic comparisons (relative to the
    reference's size), ``rtol_fd`` those needing central differences (Ṁ, dE/dt).

    The formulations run, each against its reference:

    - inverse dynamics, against recursive Newton–Euler (:func:`eslabon.inverse_dynamics`,
      Práctica 3, Tabla 3.1): the explicit Lagrange model I θ̈ + C θ̇ + b of Rojas Salgado
      (1987), §4.3; the spatial-operator form M q̈ + ξ of Jaramillo Botero (1998),
      (1.62)–(1.74); M q̈ + b with M from Walker–Orin method 3 and b from Newton–Euler;
      Gibbs–Appell's D q̈ + φ of Araujo (2012) (3.34–3.36);
    - mass matrix, against Walker–Orin method 3 (Práctica 3, eqs 3.37–3.40): Walker–Orin
      method 1 (n Newton–Euler columns), the composite-body expansion of the operator
      form, the operator product Hᵀ ρ I ρᵀ H (Jaramillo Botero (1998), (1.71)) and
      Lagrange's Σ mRᵀR + AᵀIA (Rojas Salgado (1987), 4.3.12);
    - forward dynamics at τ = ID(q, q̇, q̈), against the articulated-body algorithm
      (Walker–Orin 3 for a model with a mimic joint): the round trip ABA(τ) = q̈,
      Walker–Orin 3 and 1 with a Cholesky solve, Lagrange with a Cholesky solve, the
      constraint-force Macro Algoritmo (Jaramillo Botero (1998), Figure 8) and
      Gibbs–Appell;
    - identities: M symmetric and positive definite, Ṁ − 2C skew-symmetric (Ṁ by
      central differences along q ⊕ ±h q̇, C from :func:`eslabon.coriolis_matrix`), and
      the energy balance dE/dt = q̇ᵀ(τ − friction) (central differences, skipped for a
      sliding COM, which does not conserve energy).

    A formulation that refuses the model (a joint type it does not take, a singular body
    inertia for the Macro Algoritmo, a sliding COM for Lagrange, ...) is listed as
    skipped with its reason, not failed.

    Parameters
    ----------
    model : Model
        The robot (:class:`eslabon.Model`).
    q : array_like (nq,), optional
        Configuration: rad (revolute), m (prismatic), unit quaternions (x, y, z, w) for
        spherical and free-flyer joints. Default: uniform in [−1, 1] from ``seed``
        (quaternions normalized).
    qd, qdd : array_like (n,), optional
        Joint rates (rad/s, m/s) and accelerations (rad/s², m/s²). Default: uniform in
        [−1, 1] from ``seed``.
    seed : int
        Seed of numpy's ``default_rng`` for the values not given.
    rtol : float
        Relative tolerance of the algebraic comparisons, > 0: a check passes when
        max abs(method − reference) ≤ rtol · max(1, max abs(reference)), over the
        entries.
    rtol_fd : float
        Relative tolerance, > 0, of the two checks made by central differences (step
        h = 1e-6 · max(1, max abs(q))).

    Returns
    -------
    CrosscheckReport
        Every :class:`Check`; ``report.ok`` is True when none that ran failed, and
        ``report.table()`` prints them.

    Raises
    ------
    ValueError
        A state of the wrong length, a batch, a non-finite value or a quaternion whose
        norm is not 1 (to 1e-6); ``rtol`` or ``rtol_fd`` not a positive finite number;
        a failure of the reference methods themselves (e.g. a mass matrix that is not
        positive definite).

    Examples
    --------
    >>> import eslabon as es
    >>> report = es.crosscheck(es.zoo.load("planar2"))
    >>> report.ok, len(report.checks), len(report.failures())
    (True, 18, 0)
    """
    from . import api, gibbs_appell, lagrange, soa

    rtol = finite_number(rtol, "rtol", positive=True)
    rtol_fd = finite_number(rtol_fd, "rtol_fd", positive=True)
    rng = np.random.default_rng(seed)
    given = {"q": q, "qd": qd, "qdd": qdd}
    for k, v in given.items():
        if v is None:
            given[k] = rng.uniform(-1.0, 1.0, model.nq if k == "q" else model.nv)
            if k == "q" and model.nq != model.nv:  # unit quaternions
                given[k] = normalize(model, given[k])
    (q, qd, qdd), batched = vectors(model.nv, nq=model.nq, **given)
    if batched:
        raise ValueError("q: crosscheck takes one state, shape (n,)")
    check_configuration(model, q)
    checks = []
    ID, MM, FD, IDN = GROUPS
    tau = api.inverse_dynamics(model, q, qd, qdd)
    M = api.mass_matrix(model, q)
    bias = api.bias_forces(model, q, qd)

    def op_tau():
        Mo, xi = soa.operator_terms(model, q, qd)
        return Mo @ qdd + xi

    checks += [
        _compare(
            ID,
            "Lagrange I θ̈ + C θ̇ + b (seed 000)",
            "Newton-Euler",
            lambda: lagrange.inverse_dynamics(model, q, qd, qdd),
            tau,
            rtol,
        ),
        _compare(ID, "operator M q̈ + ξ (seeds 002/004)", "Newton-Euler", op_tau, tau, rtol),
        _compare(
            ID, "Walker-Orin 3 M q̈ + NE bias", "Newton-Euler", lambda: M @ qdd + bias, tau, rtol
        ),
        _compare(
            ID,
            "Gibbs-Appell D q̈ + φ (seed 003)",
            "Newton-Euler",
            lambda: gibbs_appell.inverse_dynamics(model, q, qd, qdd),
            tau,
            rtol,
        ),
    ]
    for method, label in (
        ("walker_orin_1", "Walker-Orin 1 (NE columns)"),
        ("soa", "operator-form composite body"),
        ("soa_operator", "operator Hᵀ ρ I ρᵀ H"),
        ("lagrange", "Lagrange Σ mRᵀR + AᵀIA"),
    ):
        checks.append(
            _compare(
                MM,
                label,
                "Walker-Orin 3",
                lambda m=method: api.mass_matrix(model, q, algorithm=m),
                M,
                rtol,
            )
        )
    # the reference: ABA, or (a mimic joint, which ABA cannot take) Walker-Orin 3
    acc = api.forward_dynamics(
        model, q, qd, tau, algorithm="walker_orin_3" if model.has_mimic else "aba"
    )
    checks.append(
        _compare(
            FD,
            "ABA round trip to q̈",
            "given q̈",
            lambda: api.forward_dynamics(model, q, qd, tau, algorithm="aba"),
            qdd,
            rtol,
        )
    )
    for method, label in (
        ("walker_orin_3", "Walker-Orin 3 + Cholesky"),
        ("walker_orin_1", "Walker-Orin 1 + Cholesky"),
        ("lagrange", "Lagrange + Cholesky"),
        ("soa", "constraint forces (Macro Algoritmo)"),
        ("gibbs_appell", "Gibbs-Appell D⁻¹(τ − φ)"),
    ):
        checks.append(
            _compare(
                FD,
                label,
                "ABA",
                lambda m=method: api.forward_dynamics(model, q, qd, tau, algorithm=m),
                acc,
                rtol,
            )
        )
    # identities
    scale = max(1.0, float(np.abs(M).max()))
    checks.append(
        Check(
            IDN,
            "M symmetric",
            "Mᵀ",
            float(np.abs(M - M.T).max()),
            scale,
            rtol,
            bool(np.abs(M - M.T).max() <= rtol * scale),
        )
    )
    low = float(np.linalg.eigvalsh(0.5 * (M + M.T)).min())
    checks.append(
        Check(IDN, "M positive definite (min eigenvalue)", "> 0", low, 1.0, 0.0, low > 0.0)
    )
    h = 1e-6 * max(1.0, float(np.abs(q).max()))
    try:
        C = api.coriolis_matrix(model, q, qd)
        M_dot = (
            api.mass_matrix(model, integrate(model, q, h * qd))
            - api.mass_matrix(model, integrate(model, q, -h * qd))
        ) / (2 * h)
        N = M_dot - 2.0 * C
        checks.append(
            Check(
                IDN,
                "Ṁ − 2C skew-symmetric",
                "−(Ṁ − 2C)ᵀ",
                float(np.abs(N + N.T).max()),
                max(1.0, float(np.abs(M_dot).max())),
                rtol_fd,
                bool(np.abs(N + N.T).max() <= rtol_fd * max(1.0, float(np.abs(M_dot).max()))),
            )
        )
    except ValueError as exc:
        checks.append(
            Check(IDN, "Ṁ − 2C skew-symmetric", "", float("nan"), 0.0, rtol_fd, False, str(exc))
        )
    # dE/dt along the motion q(t ± h) = q ± h q̇ + h²/2 q̈, q̇(t ± h) = q̇ ± h q̈; seed 001's
    # sliding-COM links (the COM offset follows the prismatic joint's displacement, as the
    # seed's listings compute it) are not rigid and do not conserve energy
    if model.has_moving_com:
        checks.append(
            Check(
                IDN,
                "energy rate dE/dt",
                "",
                float("nan"),
                0.0,
                rtol_fd,
                False,
                "a sliding COM (seed 001 book mode) does not conserve energy",
            )
        )
        return CrosscheckReport(model.name, q, qd, qdd, tuple(checks))
    # on the configuration manifold: q(t ± h) = q ⊕ (±h q̇ + h²/2 q̈) to O(h³)
    e_plus = _energy(model, integrate(model, q, h * qd + 0.5 * h * h * qdd), qd + h * qdd)
    e_minus = _energy(model, integrate(model, q, -h * qd + 0.5 * h * h * qdd), qd - h * qdd)
    power = float(qd @ (tau - _joint_losses(model, qd)))
    rate = (e_plus - e_minus) / (2 * h)
    s = max(1.0, abs(power), float(np.abs(qd).max() * np.abs(tau).max()))
    checks.append(
        Check(
            IDN,
            "energy rate dE/dt",
            "q̇ᵀ(τ − losses)",
            abs(rate - power),
            s,
            rtol_fd,
            bool(abs(rate - power) <= rtol_fd * s),
        )
    )
    return CrosscheckReport(model.name, q, qd, qdd, tuple(checks))


def _joint_losses(model, qd):
    """Joint friction torques, the part of τ dissipated (T includes the rotors' ½ J_a q̇²)."""
    if model.mimic is not None:  # each joint's own friction, carried to the driving rates
        ve = model.mimic.rates(qd)
        sizes = nv_of(model.joint_type)
        rows = np.repeat(np.arange(model.nb + 1), sizes)  # every joint's rates, engine order
        losses = model.viscous[rows] * ve + model.coulomb[rows] * np.sign(ve)
        return model.mimic.forces(losses)
    bodies = model.dof_bodies
    return model.viscous[bodies] * qd + model.coulomb[bodies] * np.sign(qd)
