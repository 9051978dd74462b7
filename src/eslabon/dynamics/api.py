"""Public dynamics functions. Each takes one state (n,) or a batch (N, n).

Shapes: q, qd, qdd, tau (n,) or (N, n); mass and Coriolis matrices (n, n) or (N, n, n).
"""

from __future__ import annotations

import numpy as np

from .._args import explain_nonfinite, vector, vectors
from .._engine import fastcall as _fast
from .._engine.batch import chunk_count
from .._engine.joints import extended_of
from .._engine.lanes import WIDTH
from .._engine.status import NOT_POSITIVE_DEFINITE, OK
from ..model.configuration import check_configuration
from ..model.model import Model
from . import drivers as _d
from .drivers import MODE_BIAS, MODE_GRAVITY, MODE_ID
from .wrenches import tip_wrench_array

MASS_MATRIX_METHODS = (
    "walker_orin_3",
    "walker_orin_1",
    "crba",
    "soa_composite",
    "operator",
    "lagrange",
)
FORWARD_METHODS = ("aba", "walker_orin_3", "walker_orin_1", "lagrange", "soa", "gibbs_appell")


def _states(model, **fields):
    """The state arguments checked: q of nq entries (unit quaternions where the model's
    joints hold them), the others of nv; and whether they are a batch."""
    values, batched = vectors(model.nv, nq=model.nq, **fields)
    if model.nq != model.nv:
        check_configuration(model, values[0])
    return values, batched


def _engine_arrays(model, q, *rates):
    """The compiled kernels' arrays: with mimic joints, every joint's coordinate and rate
    (:mod:`eslabon.model.mimic`); otherwise the arrays themselves."""
    if model.mimic is None:
        return (q, *rates)
    return (
        np.ascontiguousarray(model.mimic.configuration(q)),
        *(np.ascontiguousarray(model.mimic.rates(r)) for r in rates),
    )


def _rnea(model, q, qd, qdd, mode, fext, what):
    """The general path: converts and checks the inputs, runs one state or a batch."""
    if mode == MODE_GRAVITY:
        (q,), batched = _states(model, q=q)
        qd = qdd = np.zeros(q.shape[:-1] + (model.nv,))
    elif mode == MODE_BIAS:
        (q, qd), batched = _states(model, q=q, qd=qd)
        qdd = qd
    else:
        (q, qd, qdd), batched = _states(model, q=q, qd=qd, qdd=qdd)
    P = model.packed if fext is not None else model.packed_dynamics  # fext: one per row
    qe, qde, qdde = _engine_arrays(model, q, qd, qdd)
    if batched:
        tau = np.empty((len(q), model.engine_nv))
        chunks = chunk_count(len(q), WIDTH)
        status = _d.rnea_many(P, qe, qde, qdde, 1.0, fext, mode, tau, chunks, extended_of(P))
    else:
        tau = np.empty(model.engine_nv)
        zero = np.zeros(model.engine_nv)
        status = _d.rnea_one(
            P,
            qe,
            zero if mode == MODE_GRAVITY else qde,
            qdde if mode == MODE_ID else zero,
            1.0,
            fext,
            tau,
            extended_of(P),
        )
    if status != OK:
        fields = dict(q=q, qd=qd, qdd=qdd)
        explain_nonfinite(what, **dict(list(fields.items())[: 3 - mode]))
    return tau if model.mimic is None else model.mimic.forces(tau)


# The functions below are the general paths. The public functions of the same names are
# made from them at the end of this module by :func:`.fastcall.public`: a plain float64
# (n,) state goes straight into one compiled call, anything else comes here.


_NOT_PD_MESSAGE = (
    "q: the mass matrix is not positive definite at this configuration "
    "(a joint moves no mass: give it mass, inertia or armature)"
)


def inverse_dynamics(model, q, qd, qdd, *, tip_wrench=None):
    """Joint torques for a motion: τ = M(q) q̈ + C(q, q̇) q̇ + g(q) + friction (+ Jᵀ w).

    Recursive Newton–Euler (Práctica 3, Tabla 3.1, Luh's form). Friction is the model's
    viscous·q̇ + Coulomb·sign(q̇) (zero unless set: :func:`eslabon.with_joint_friction`).

    Parameters
    ----------
    model : Model
    q : array_like (nq,) or (N, nq)
        Configuration: rad (revolute), m (prismatic), a unit quaternion (x, y, z, w) for
        a spherical or free-flyer joint (docs/conventions.md).
    qd, qdd : array_like (n,) or (N, n)
        Joint rates (rad/s, m/s) and accelerations (rad/s², m/s²).
    tip_wrench : array_like (6,), optional
        [moment; force] the end effector ``ee`` exerts on the environment (N·m, N), in
        the ee frame, moment about its origin.

    Returns
    -------
    ndarray (n,) or (N, n)
        τ: N·m (revolute), N (prismatic).

    Raises
    ------
    ValueError
        A state of the wrong length, not finite, or a non-unit quaternion (naming it).

    Examples
    --------
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> es.inverse_dynamics(arm, [0.0, 0.0], [0.0, 0.0], [1.0, 0.0]).shape
    (2,)
    """
    if tip_wrench is None:
        return _rnea(model, q, qd, qdd, MODE_ID, None, "inverse_dynamics")
    fext = tip_wrench_array(model, tip_wrench)
    return _rnea(model, q, qd, qdd, MODE_ID, fext, "inverse_dynamics")


def gravity_torques(model, q):
    """g(q): the torques that hold the robot still (Newton–Euler at q̇ = q̈ = 0).

    Parameters
    ----------
    model : Model
    q : array_like (nq,) or (N, nq)
        Configuration: rad (revolute), m (prismatic), a unit quaternion (x, y, z, w) for
        a spherical or free-flyer joint (docs/conventions.md).

    Returns
    -------
    ndarray (n,) or (N, n)
        N·m (revolute), N (prismatic).

    Examples
    --------
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> es.gravity_torques(arm, [0.0, 0.0]).shape
    (2,)
    """
    return _rnea(model, q, None, None, MODE_GRAVITY, None, "gravity_torques")


def bias_forces(model, q, qd):
    """b(q, q̇) = C(q, q̇) q̇ + g(q) + friction: Newton–Euler at q̈ = 0 (Práctica 3, eq.
    3.35), so that τ = M q̈ + b.

    Parameters
    ----------
    model : Model
    q : array_like (nq,) or (N, nq)
        Configuration: rad (revolute), m (prismatic), a unit quaternion (x, y, z, w) for
        a spherical or free-flyer joint (docs/conventions.md).
    qd : array_like (n,) or (N, n)
        Joint rates (rad/s, m/s).

    Returns
    -------
    ndarray (n,) or (N, n)
        N·m (revolute), N (prismatic).
    """
    return _rnea(model, q, qd, None, MODE_BIAS, None, "bias_forces")


def mass_matrix(model, q, *, method: str = "walker_orin_3"):
    """The joint-space mass (inertia) matrix M(q), symmetric positive definite.

    Parameters
    ----------
    model : Model
    q : array_like (nq,) or (N, nq)
        Configuration: rad (revolute), m (prismatic), a unit quaternion (x, y, z, w) for
        a spherical or free-flyer joint (docs/conventions.md).
    method : str
        How: ``walker_orin_3``: the compiled composite-rigid-body
    kernel (seed 001 eqs 3.37–3.40); ``crba``: the same kernel under its common name
    (Featherstone, *Rigid Body Dynamics Algorithms* (2008), §6.2); ``walker_orin_1``: n
    Newton–Euler columns; ``soa_composite``: the composite-body expansion of the
    spatial-operator form (seeds 002/004, :func:`.soa.composite_mass_matrix`);
    ``operator``: Hᵀ ρ I ρᵀ H as dense products (1.71); ``lagrange``: Σ mRᵀR + AᵀIA (seed
    000, 4.3.12). The last three are numpy reference formulations (serial chains for the
    first two).

    Returns
    -------
    ndarray (n, n) or (N, n, n)
        kg·m² (revolute rows and columns), kg (prismatic), kg·m (mixed); the armature on
        the diagonal.

    Raises
    ------
    ValueError
        A state of the wrong length or not finite; a method the model's joints do not
        allow (naming the joint).

    Examples
    --------
    >>> import eslabon as es
    >>> M = es.mass_matrix(es.zoo.load("puma560"), [0.0] * 6)
    >>> M.shape, bool((M == M.T).all())
    ((6, 6), True)
    """
    if method not in MASS_MATRIX_METHODS:
        raise ValueError(f"method: expected one of {MASS_MATRIX_METHODS}, got {method!r}")
    if method in ("soa_composite", "operator"):
        from . import soa

        soa.require_joints(model, f"mass_matrix(method={method!r})")
        if method == "soa_composite":
            return soa.composite_mass_matrix(model, q)
        (q,), _ = _states(model, q=q)
        return soa.operator_terms(model, q, np.zeros(q.shape[:-1] + (model.nv,)))[0]
    if method == "lagrange":
        from . import lagrange

        model.require_one_dof_joints(f"mass_matrix(method={method!r})")
        q, _ = vector(q, model.nq, "q")
        return lagrange.lagrange_terms(model, q, np.zeros_like(q)).mass_matrix
    (q,), batched = _states(model, q=q)
    n = model.engine_nv
    P = model.packed_dynamics
    (qe,) = _engine_arrays(model, q)
    if batched:
        H = np.empty((len(q), n, n))
        (_d.ne_columns_many if method == "walker_orin_1" else _d.crba_many)(
            P, qe, H, chunk_count(len(q)), extended_of(P)
        )
        ok = np.isfinite(H).all() and np.isfinite(q).all()
    else:
        H = np.empty((n, n))
        ok = (_d.ne_columns_one if method == "walker_orin_1" else _d.crba_one)(
            P, qe, H, extended_of(P)
        ) == OK and np.isfinite(q).all()
    if not ok:
        explain_nonfinite("mass_matrix", q=q)
    return H if model.mimic is None else model.mimic.matrix(H)


def forward_dynamics(model, q, qd, tau, *, method: str = "aba", wrenches=None):
    """Joint accelerations under given torques: q̈ = M(q)⁻¹ (τ + Σ J_fᵀ w_f − b(q, q̇)).

    Parameters
    ----------
    model : Model
    q : array_like (nq,) or (N, nq)
        Configuration: rad (revolute), m (prismatic), a unit quaternion (x, y, z, w) for
        a spherical or free-flyer joint (docs/conventions.md).
    qd : array_like (n,) or (N, n)
        Joint rates (rad/s, m/s).
    tau : array_like (n,) or (N, n)
        Joint torques (N·m) and forces (N).
    method : str
        How (below); "aba" by default.
    wrenches : list of ExternalWrench, optional
        What the environment applies to the robot (below).

    Returns
    -------
    ndarray (n,) or (N, n)
        q̈: rad/s², m/s².

    Raises
    ------
    ValueError
        A state of the wrong length or not finite; a mass matrix that is not positive
        definite (a joint that moves no mass); a method the model does not allow.

    Notes
    -----
    ``aba``: articulated-body algorithm, O(n) (:mod:`.aba`); ``walker_orin_3`` /
    ``walker_orin_1``: the mass matrix by Walker–Orin method 3 or 1, then a Cholesky solve
    (seed 001 eq. 3.36); ``lagrange``: the explicit I(θ), C(θ, θ̇), b(θ) of seed 000 (4.3.33)
    and a Cholesky solve (:mod:`.lagrange`, numpy, O(n³)); ``soa``: the constraint-force
    Macro Algoritmo of seeds 002/004 (:mod:`.soa`, numpy, O(n); serial chains whose bodies
    all have invertible inertia, no armature); ``gibbs_appell``: D q̈ + φ = τ from the Gibbs
    function of seed 003 (3.34–3.36, :mod:`.gibbs_appell`, numpy). All agree to rounding.

    ``wrenches``: what the environment applies to the robot, a list of
    :class:`~eslabon.dynamics.wrenches.ExternalWrench` (frame, [moment; force], "world" or
    "local" axes); each adds its generalized force J_fᵀ w to τ, for every method
    (:mod:`.wrenches`). A state's wrench is the opposite of the ``tip_wrench`` that
    :func:`inverse_dynamics` takes (what the tip exerts on the world).

    Examples
    --------
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> tau = es.inverse_dynamics(arm, [0.1, 0.2], [0.0, 0.0], [1.0, -1.0])
    >>> es.forward_dynamics(arm, [0.1, 0.2], [0.0, 0.0], tau).round(12).tolist()
    [1.0, -1.0]
    """
    if method not in FORWARD_METHODS:
        raise ValueError(f"method: expected one of {FORWARD_METHODS}, got {method!r}")
    if wrenches is not None:
        from .wrenches import external_wrenches, wrench_torques

        checked = external_wrenches(model, wrenches)
        (q, qd, tau), _ = _states(model, q=q, qd=qd, tau=tau)
        tau = tau + wrench_torques(model, q, checked)
    if method in ("gibbs_appell", "lagrange"):
        model.require_one_dof_joints(f"forward_dynamics(method={method!r})")
    if method == "gibbs_appell":
        from . import gibbs_appell

        return gibbs_appell.forward_dynamics(model, q, qd, tau)
    if method == "lagrange":
        from . import lagrange

        return lagrange.forward_dynamics(model, q, qd, tau)
    if method == "soa":
        from . import soa

        soa.require_joints(model, f"forward_dynamics(method={method!r})")
        return soa.forward_dynamics(model, q, qd, tau)
    if method not in ("aba", "walker_orin_3", "walker_orin_1"):
        raise AssertionError(method)  # every listed method has a branch above
    (q, qd, tau), batched = _states(model, q=q, qd=qd, tau=tau)
    if model.mimic is not None:
        return _coupled_forward_dynamics(model, q, qd, tau, method)
    P = model.packed_dynamics
    out = np.empty_like(qd) if batched else np.empty(model.nv)
    if method == "aba":
        status = (
            _d.aba_many(P, q, qd, tau, out, chunk_count(len(q), WIDTH), extended_of(P))
            if batched
            else _d.aba_call(P, q, qd, tau, out, extended_of(P))
        )
    else:
        code = _d.COMPOSITE if method == "walker_orin_3" else _d.NE_COLUMNS
        status = (
            _d.fd_many(P, q, qd, tau, code, out, chunk_count(len(q)), extended_of(P))
            if batched
            else _d.fd_one(P, q, qd, tau, code, out, extended_of(P))
        )
    if status == NOT_POSITIVE_DEFINITE:
        raise ValueError(_NOT_PD_MESSAGE)
    if status != OK:
        explain_nonfinite("forward_dynamics", q=q, qd=qd, tau=tau)
    return out


def _tangent_id_derivatives(model, q, qd, qdd):
    """(∂τ/∂q, ∂τ/∂v) of a model with quaternion joints, in the tangent space
    (:mod:`.tangent`): the compiled kernel on the chain of rows at a + c(v), then the
    chain rule, state by state."""
    from . import tangent

    model.require_no_mimic("inverse_dynamics_derivatives with a quaternion joint")
    (q, qd, qdd), batched = _states(model, q=q, qd=qd, qdd=qdd)
    Q, QD, QDD = (np.atleast_2d(x) for x in (q, qd, qdd))
    n = model.nv
    DQ, DV = np.empty((len(Q), n, n)), np.empty((len(Q), n, n))
    for s in range(len(Q)):
        ac = tangent.chain_acceleration(model, QD[s], QDD[s])
        dq_c, dv_c = np.empty((1, n, n)), np.empty((1, n, n))
        P = model.packed_dynamics
        S = slice(s, s + 1)
        status = _d.id_derivatives_many(P, Q[S], QD[S], ac[None], dq_c, dv_c, 1, extended_of(P))
        if status != OK:
            explain_nonfinite("inverse_dynamics_derivatives", q=q, qd=qd, qdd=qdd)
        tau = inverse_dynamics(model, Q[s], QD[s], QDD[s])
        M = mass_matrix(model, Q[s])
        DQ[s], DV[s] = tangent.tangent_derivatives(
            model, QD[s], QDD[s], tau, M, dq_c[0], dv_c[0], ac
        )
    return (DQ, DV) if batched else (DQ[0], DV[0])


def _coupled_forward_dynamics(model, q, qd, tau, method):
    """q̈ of a model with mimic joints: M q̈ = τ − b with M = Gᵀ M_e G and b = Gᵀ b_e
    (:mod:`eslabon.model.mimic`), by Cholesky. The articulated-body recursion cannot
    take a joint coupled to another, so ``"aba"`` refuses the model."""
    if method == "aba":
        i = int(np.flatnonzero(model.mimic_joint >= 0)[0])
        raise ValueError(
            "forward_dynamics: the articulated-body algorithm (method='aba') cannot take "
            f"the mimic joint of body {model.body_names[i]!r}; use method='walker_orin_3'"
        )
    M = mass_matrix(model, q, method="walker_orin_1" if method == "walker_orin_1" else "crba")
    rhs = tau - bias_forces(model, q, qd)
    try:
        L = np.linalg.cholesky(M)
    except np.linalg.LinAlgError:
        raise ValueError(_NOT_PD_MESSAGE) from None
    y = np.linalg.solve(L, rhs[..., None])
    return np.linalg.solve(np.swapaxes(L, -1, -2), y)[..., 0]


def inverse_dynamics_derivatives(model, q, qd, qdd):
    """The derivatives of :func:`eslabon.inverse_dynamics`: (∂τ/∂q, ∂τ/∂q̇), analytic
    (:mod:`.derivatives`; ∂τ/∂q̈ is :func:`eslabon.mass_matrix`).

    Parameters
    ----------
    model : Model
    q : array_like (nq,) or (N, nq)
        Configuration: rad (revolute), m (prismatic), a unit quaternion (x, y, z, w) for
        a spherical or free-flyer joint (docs/conventions.md).
    qd, qdd : array_like (n,) or (N, n)
        Joint rates and accelerations.

    Returns
    -------
    (ndarray, ndarray), each (n, n) or (N, n, n)
        Entry [i, j] is ∂τ_i/∂q_j and ∂τ_i/∂q̇_j. For a spherical or free-flyer joint
        q moves in the tangent space (nv columns: docs/conventions.md).

    Examples
    --------
    >>> import eslabon as es
    >>> dq, dv = es.inverse_dynamics_derivatives(es.zoo.load("planar2"), [0, 0], [0, 0], [0, 0])
    >>> dq.shape, dv.shape
    ((2, 2), (2, 2))
    """
    if model.nq != model.nv:
        return _tangent_id_derivatives(model, q, qd, qdd)
    (q, qd, qdd), batched = vectors(model.nv, q=q, qd=qd, qdd=qdd)
    qe, qde, qdde = _engine_arrays(model, q, qd, qdd)
    n = model.engine_nv
    P = model.packed_dynamics
    shape = (len(q), n, n) if batched else (n, n)
    dq = np.empty(shape)
    dv = np.empty(shape)
    if batched:
        chunks = chunk_count(len(q))
        status = _d.id_derivatives_many(P, qe, qde, qdde, dq, dv, chunks, extended_of(P))
    else:
        status = _d.id_derivatives_call(P, qe, qde, qdde, dq, dv, extended_of(P))
    if status != OK:
        explain_nonfinite("inverse_dynamics_derivatives", q=q, qd=qd, qdd=qdd)
    if model.mimic is not None:  # q_e = G q + o: Gᵀ (∂τ_e/∂x_e) G
        return model.mimic.matrix(dq), model.mimic.matrix(dv)
    return dq, dv


def forward_dynamics_derivatives(model, q, qd, tau):
    """The derivatives of :func:`eslabon.forward_dynamics`: (∂q̈/∂q, ∂q̈/∂q̇, ∂q̈/∂τ = M⁻¹),
    analytic (:mod:`.derivatives`).

    Parameters
    ----------
    model : Model
    q : array_like (nq,) or (N, nq)
        Configuration: rad (revolute), m (prismatic), a unit quaternion (x, y, z, w) for
        a spherical or free-flyer joint (docs/conventions.md).
    qd : array_like (n,) or (N, n)
        Joint rates.
    tau : array_like (n,) or (N, n)
        Joint torques and forces.

    Returns
    -------
    (ndarray, ndarray, ndarray), each (n, n) or (N, n, n)
        Entry [i, j] of each is ∂q̈_i/∂x_j (x = q, q̇, τ).

    Raises
    ------
    ValueError
        As :func:`eslabon.forward_dynamics`.
    """
    if model.nq != model.nv or model.mimic is not None:
        # from the inverse dynamics' derivatives at q̈ = FD: ∂q̈/∂x = −M⁻¹ ∂τ/∂x
        (q, qd, tau), batched = _states(model, q=q, qd=qd, tau=tau)
        qdd = forward_dynamics(model, q, qd, tau, method="walker_orin_3")
        dq, dv = inverse_dynamics_derivatives(model, q, qd, qdd)
        Minv = np.linalg.inv(mass_matrix(model, q))
        return -Minv @ dq, -Minv @ dv, Minv
    n = model.nq
    (q, qd, tau), batched = vectors(n, q=q, qd=qd, tau=tau)
    P = model.packed_dynamics
    if batched:
        N = len(q)
        dq, dv, Minv = np.empty((N, n, n)), np.empty((N, n, n)), np.empty((N, n, n))
        status = _d.fd_derivatives_many(P, q, qd, tau, dq, dv, Minv, chunk_count(N), extended_of(P))
    else:
        dq, dv, Minv = np.empty((n, n)), np.empty((n, n)), np.empty((n, n))
        status = _d.fd_derivatives_call(P, q, qd, tau, dq, dv, Minv, extended_of(P))
    if status == NOT_POSITIVE_DEFINITE:
        raise ValueError(_NOT_PD_MESSAGE)
    if status != OK:
        explain_nonfinite("forward_dynamics_derivatives", q=q, qd=qd, tau=tau)
    return dq, dv, Minv


def _public(general, entry: str, n_in: int, out_ranks: tuple):
    """The public function of ``general`` over the C entries ``entry`` and its twin for
    the extended joint set (:mod:`eslabon._engine.fastcall`)."""
    entries = getattr(_d, entry), getattr(_d, entry + "_extended")
    cols = _d.SCRATCH_COLS.get(entry, 0)
    return _fast.public(general, entries[0], n_in, out_ranks, Model, entries[1], cols)


inverse_dynamics = _public(inverse_dynamics, "inverse_dynamics_entry", 3, (1,))
gravity_torques = _public(gravity_torques, "gravity_torques_entry", 1, (1,))
bias_forces = _public(bias_forces, "bias_forces_entry", 2, (1,))
mass_matrix = _public(mass_matrix, "mass_matrix_entry", 1, (2,))
forward_dynamics = _public(forward_dynamics, "forward_dynamics_entry", 3, (1,))
inverse_dynamics_derivatives = _public(
    inverse_dynamics_derivatives, "id_derivatives_entry", 3, (2, 2)
)
forward_dynamics_derivatives = _public(
    forward_dynamics_derivatives, "fd_derivatives_entry", 3, (2, 2, 2)
)


def coriolis_matrix(model, q, qd):
    """A Coriolis matrix C(q, q̇): C q̇ = b − g − friction and Ṁ − 2C skew-symmetric.

    Parameters
    ----------
    model : Model
    q : array_like (nq,) or (N, nq)
        Configuration: rad (revolute), m (prismatic), a unit quaternion (x, y, z, w) for
        a spherical or free-flyer joint (docs/conventions.md).
    qd : array_like (n,) or (N, n)
        Joint rates.

    Returns
    -------
    ndarray (n, n) or (N, n, n)
    """
    model.require_rigid_links("coriolis_matrix")
    (q, qd), batched = _states(model, q=q, qd=qd)
    qe, qde = _engine_arrays(model, q, qd)
    n = model.engine_nv
    P = model.packed_dynamics
    if batched:
        C = np.empty((len(q), n, n))
        _d.coriolis_many(P, qe, qde, C, chunk_count(len(q)), extended_of(P))
    else:
        C = np.empty((n, n))
        _d.coriolis_one(P, qe, qde, C, extended_of(P))
    if not np.isfinite(C).all():
        explain_nonfinite("coriolis_matrix", q=q, qd=qd)
    return C if model.mimic is None else model.mimic.matrix(C)


def _energy(model, q, qd):
    (q, qd), batched = _states(model, q=q, qd=qd)
    qe, qde = _engine_arrays(model, q, qd)
    P = model.packed  # (folded, a body fixed to the world would leave V's constant)
    if batched:
        out = np.empty((len(q), 2))
        _d.energy_many(P, qe, qde, out, chunk_count(len(q)), extended_of(P))
    else:
        out = np.empty(2)
        _d.energy_one(P, qe, qde, out, extended_of(P))
    if not np.isfinite(out).all():
        explain_nonfinite("energy", q=q, qd=qd)
    return out


def kinetic_energy(model, q, qd):
    """T(q, q̇) = ½ q̇ᵀ M(q) q̇, from the body motions; scalar or (N,)."""
    return _energy(model, q, qd)[..., 0]


def potential_energy(model, q):
    """V(q) = −Σ m_i gᵀ p_ci (zero at the world origin); scalar or (N,)."""
    (q,), _ = _states(model, q=q)
    return _energy(model, q, np.zeros(q.shape[:-1] + (model.nv,)))[..., 1]


def rnea_trace(model, q, qd, qdd, *, tip_wrench=None):
    """Newton–Euler with every intermediate quantity (one state); see :mod:`.trace`."""
    from .trace import rnea_trace as _trace

    return _trace(model, q, qd, qdd, tip_wrench=tip_wrench)
