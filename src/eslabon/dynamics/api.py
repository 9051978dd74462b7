"""Public dynamics functions. Each takes one state (n,) or a batch (N, n).

Shapes: q (nq,) or (N, nq); qd, qdd, tau (n,) or (N, n); mass and Coriolis matrices
(n, n) or (N, n, n). The parameter texts the functions share are written once
(:data:`eslabon._args.STATE_DOCS`, filled in by :func:`eslabon._args.state_docs`).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .._args import state_docs, vector
from .._deprecation import renamed_keywords, warn_renamed
from ..conventions import FORWARD_DYNAMICS_ALGORITHMS, MASS_MATRIX_ALGORITHMS, algorithm_name
from .codes import COMPOSITE, MODE_BIAS, MODE_GRAVITY, MODE_ID, NE_COLUMNS
from .quantity import NOT_PD_MESSAGE, ZERO, Quantity, check_states, public, run
from .wrenches import tip_wrench_array

# the algorithm names each function takes (eslabon.conventions.ALGORITHMS)
MASS_MATRIX_METHODS = MASS_MATRIX_ALGORITHMS
FORWARD_METHODS = FORWARD_DYNAMICS_ALGORITHMS

# --- the compiled quantities (eslabon.dynamics.quantity): each declared once -------------
_D, _B = "eslabon.dynamics.drivers:", "eslabon.dynamics.batch_drivers:"
_DD, _DB = "eslabon.dynamics.derivative_drivers:", "eslabon.dynamics.derivative_batches:"

INVERSE_DYNAMICS = Quantity(
    "inverse_dynamics",
    ("q", "qd", "qdd"),
    ("n",),
    _D + "rnea_one",
    _B + "rnea_many",
    fixed_one=(1.0, None),  # gravity scale, the bodies' wrenches
    fixed_many=(1.0, None, MODE_ID),  # and what Newton–Euler computes
    mimic_out="forces",
    entry=_D + "inverse_dynamics_entry",
)
_TIP_WRENCH = replace(INVERSE_DYNAMICS, packed="packed")  # a wrench per body: every body
GRAVITY_TORQUES = replace(
    INVERSE_DYNAMICS,
    name="gravity_torques",
    states=("q",),
    kernel_states=("q", ZERO, ZERO),
    fixed_many=(1.0, None, MODE_GRAVITY),
    entry=_D + "gravity_torques_entry",
)
BIAS_FORCES = replace(
    INVERSE_DYNAMICS,
    name="bias_forces",
    states=("q", "qd"),
    kernel_states=("q", "qd", ZERO),
    fixed_many=(1.0, None, MODE_BIAS),
    entry=_D + "bias_forces_entry",
)
MASS_MATRIX = Quantity(
    "mass_matrix",
    ("q",),
    ("nn",),
    _D + "crba_one",
    _B + "crba_many",
    finite_q=True,
    mimic_out="matrix",
    entry=_D + "mass_matrix_entry",
)
_MASS_MATRIX_COLUMNS = replace(
    MASS_MATRIX, one=_D + "ne_columns_one", many=_B + "ne_columns_many", lanes=False
)
FORWARD_DYNAMICS = Quantity(  # a mimic model: _coupled_forward_dynamics
    "forward_dynamics",
    ("q", "qd", "tau"),
    ("n",),
    _D + "aba_one",
    _B + "aba_many",
    takes_mimic=False,
    entry=_D + "forward_dynamics_entry",
)
_FD_COMPOSITE = replace(  # through M and Cholesky
    FORWARD_DYNAMICS, one=_D + "fd_one", many=_B + "fd_many", lanes=False,
    fixed_one=(COMPOSITE,), fixed_many=(COMPOSITE,),
)  # fmt: skip
_FD_COLUMNS = replace(_FD_COMPOSITE, fixed_one=(NE_COLUMNS,), fixed_many=(NE_COLUMNS,))
INVERSE_DYNAMICS_DERIVATIVES = Quantity(
    "inverse_dynamics_derivatives",
    ("q", "qd", "qdd"),
    ("nn", "nn"),
    _DD + "id_derivatives_call",
    _DB + "id_derivatives_many",
    mimic_out="matrix",
    entry=_DD + "id_derivatives_entry",
)
FORWARD_DYNAMICS_DERIVATIVES = Quantity(
    "forward_dynamics_derivatives",
    ("q", "qd", "tau"),
    ("nn", "nn", "nn"),
    _DD + "fd_derivatives_call",
    _DB + "fd_derivatives_many",
    takes_mimic=False,  # a mimic model: from the inverse dynamics' derivatives
    entry=_DD + "fd_derivatives_entry",
)
CORIOLIS_MATRIX = Quantity(
    "coriolis_matrix",
    ("q", "qd"),
    ("nn",),
    _D + "coriolis_one",
    _B + "coriolis_many",
    check="outputs",
    mimic_out="matrix",
)
ENERGIES = Quantity(  # (T, V); every body (a body fixed to the world would leave V's constant)
    "energy", ("q", "qd"), ("2",), _D + "energy_one", _B + "energy_many", packed="packed",
    check="outputs",
)  # fmt: skip
_POTENTIAL = replace(ENERGIES, states=("q",), kernel_states=("q", ZERO))
QUANTITIES = (
    INVERSE_DYNAMICS,
    GRAVITY_TORQUES,
    BIAS_FORCES,
    MASS_MATRIX,
    FORWARD_DYNAMICS,
    INVERSE_DYNAMICS_DERIVATIVES,
    FORWARD_DYNAMICS_DERIVATIVES,
    CORIOLIS_MATRIX,
    ENERGIES,
)


# The functions below are the general paths. The public functions of the same names are
# made from them at the end of this module by :func:`eslabon._engine.entrypoints.public`:
# a plain float64 (n,) state goes straight into one compiled call, anything else comes
# here.


@state_docs
def inverse_dynamics(model, q, qd, qdd, *, wrenches=None, tip_wrench=None):
    """Joint torques for a motion: τ = M(q) q̈ + C(q, q̇) q̇ + g(q) + friction − Σ J_fᵀ w_f.

    Recursive Newton–Euler (Práctica 3, Tabla 3.1, Luh's form). Friction is the model's
    viscous·q̇ + Coulomb·sign(q̇) (zero unless set: :func:`eslabon.with_joint_friction`).
    Armature (rotor inertia) adds J_a q̈ to its joint. Gravity is the model's ``gravity``,
    entering as Luh's fictitious base acceleration. One float64 (nq,) state without a
    keyword takes a single compiled call; anything else (lists, batches, ``wrenches``)
    is converted and checked first, then runs the same kernels.

    Parameters
    ----------
    $model
    $q
    $qd
    $qdd
    wrenches : list of ExternalWrench, optional
        What the environment applies to the robot, as in :func:`forward_dynamics`
        (:class:`~eslabon.dynamics.wrenches.ExternalWrench`: a frame, a constant
        [moment; force], world or local axes): the torques then hold the motion with
        those wrenches acting, τ − Σ J_fᵀ w_f.
    tip_wrench : array_like (6,), optional
        Deprecated (it warns): the wrench the end effector ``ee`` exerts on the
        environment, in its own axes (Práctica 3's f_{n+1}, n_{n+1}, eq. 3.34), the
        opposite of an applied wrench: ``tip_wrench=w`` is
        ``wrenches=[ExternalWrench("ee", -w, "local")]``.

    Returns
    -------
    ndarray (n,) or (N, n)
        τ: N·m (revolute), N (prismatic).

    Raises
    ------
    $state_errors
    ValueError
        A wrench that is not an ExternalWrench on a frame of the model with 6 finite
        numbers (a callable value needs a simulation's time).

    Examples
    --------
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> es.inverse_dynamics(arm, [0.0, 0.0], [0.0, 0.0], [1.0, 0.0]).shape
    (2,)
    """
    if tip_wrench is not None:
        _warn_tip_wrench("inverse_dynamics")
        if wrenches is not None:
            raise TypeError("inverse_dynamics: give wrenches= alone (tip_wrench= is deprecated)")
        fixed = (1.0, tip_wrench_array(model, tip_wrench))  # gravity scale, bodies' wrenches
        return run(
            _TIP_WRENCH, model, fixed_one=fixed, fixed_many=fixed + (MODE_ID,), q=q, qd=qd, qdd=qdd
        )
    if wrenches is None:
        return run(INVERSE_DYNAMICS, model, q=q, qd=qd, qdd=qdd)
    from .wrenches import external_wrenches, wrench_torques

    checked = external_wrenches(model, wrenches)
    (q, qd, qdd), _ = check_states(model, q=q, qd=qd, qdd=qdd)
    return run(INVERSE_DYNAMICS, model, q=q, qd=qd, qdd=qdd) - wrench_torques(model, q, checked)


def _warn_tip_wrench(where: str) -> None:
    """The deprecation of ``tip_wrench=``, with its sign stated."""
    warn_renamed(
        f"{where}(tip_wrench=w) (the wrench the end effector exerts on the world, in its own axes)",
        f'{where}(wrenches=[ExternalWrench("ee", -w, "local")]) (what the world applies '
        "to the robot)",
    )


@state_docs
def gravity_torques(model, q):
    """g(q): the torques that hold the robot still (Newton–Euler at q̇ = q̈ = 0).

    The g(q) of τ = M q̈ + C q̇ + g + friction (Práctica 3, eqs 3.34–3.36): the model's
    ``gravity`` as Luh's fictitious base acceleration, every rate and acceleration zero,
    so no friction (sign(0) = 0). Equal to ``bias_forces(model, q, 0)``.

    Parameters
    ----------
    $model
    $q

    Returns
    -------
    ndarray (n,) or (N, n)
        g(q): N·m (revolute), N (prismatic); what the joints must apply to hold q.

    Raises
    ------
    $state_errors

    Examples
    --------
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> es.gravity_torques(arm, [0.0, 0.0]).round(4).tolist()
    [30.411, 5.886]
    """
    return run(GRAVITY_TORQUES, model, q=q)


@state_docs
def bias_forces(model, q, qd):
    """b(q, q̇) = C(q, q̇) q̇ + g(q) + friction: Newton–Euler at q̈ = 0 (Práctica 3, eq.
    3.35), so that τ = M q̈ + b.

    Práctica 3's b includes the viscous friction; here it is the model's whole friction,
    viscous·q̇ + Coulomb·sign(q̇). With the mass matrix it gives the forward dynamics
    q̈ = M⁻¹(τ − b) (eq. 3.36).

    Parameters
    ----------
    $model
    $q
    $qd

    Returns
    -------
    ndarray (n,) or (N, n)
        b: N·m (revolute), N (prismatic).

    Raises
    ------
    $state_errors

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> q, qd, qdd = [0.3, -0.2], [0.5, 1.0], [1.0, -2.0]
    >>> b = es.bias_forces(arm, q, qd)
    >>> np.allclose(es.mass_matrix(arm, q) @ qdd + b, es.inverse_dynamics(arm, q, qd, qdd))
    True
    """
    return run(BIAS_FORCES, model, q=q, qd=qd)


@renamed_keywords(method="algorithm")
@state_docs
def mass_matrix(model, q, *, algorithm: str = "crba"):
    """The joint-space mass (inertia) matrix M(q), symmetric positive definite.

    The M of τ = M(q) q̈ + C q̇ + g + friction, with the armature (rotor inertia) on the
    diagonal. Every algorithm gives the same matrix to rounding
    (:func:`eslabon.crosscheck` compares them).

    Parameters
    ----------
    $model
    $q
    algorithm : str
        How (names: ``eslabon.conventions.ALGORITHMS``): ``"crba"`` (default): the
        compiled composite-rigid-body kernel (Featherstone, *Rigid Body Dynamics
        Algorithms* (2008), §6.2; Walker–Orin method 3, Práctica 3 eqs 3.37–3.40, whose
        name ``"walker_orin_3"`` is an alias); ``"rnea_columns"``: n Newton–Euler
        columns, compiled (alias ``"walker_orin_1"``); ``"soa"``: the composite-body
        expansion of the spatial-operator form (Jaramillo Botero (1998),
        :func:`.soa.composite_mass_matrix`); ``"soa_operator"``: Hᵀ ρ I ρᵀ H as dense
        products (1.71); ``"lagrange"``: Σ mRᵀR + AᵀIA (Rojas (1987), 4.3.12). The last
        three are numpy reference formulations: the two operator forms take serial chains
        of joints fixed in their body (no universal, planar or mimic joint), Lagrange
        only revolute, prismatic and fixed joints. ``method=`` is its old name.

    Returns
    -------
    ndarray (n, n) or (N, n, n)
        kg·m² (revolute rows and columns), kg (prismatic), kg·m (mixed); the armature on
        the diagonal.

    Raises
    ------
    $state_errors
    ValueError
        An unknown ``algorithm``; one the model's joints or shape do not allow (naming
        the joint).

    Examples
    --------
    >>> import eslabon as es
    >>> M = es.mass_matrix(es.zoo.load("puma560"), [0.0] * 6)
    >>> M.shape, bool((M == M.T).all())
    ((6, 6), True)
    """
    algorithm = algorithm_name(algorithm, MASS_MATRIX_ALGORITHMS, "mass_matrix")
    if algorithm in ("soa", "soa_operator"):
        from . import soa

        soa.require_joints(model, f"mass_matrix(algorithm={algorithm!r})")
        if algorithm == "soa":
            return soa.composite_mass_matrix(model, q)
        (q,), _ = check_states(model, q=q)
        return soa.operator_terms(model, q, np.zeros(q.shape[:-1] + (model.nv,)))[0]
    if algorithm == "lagrange":
        from . import lagrange

        model.require_one_dof_joints(f"mass_matrix(algorithm={algorithm!r})")
        q, _ = vector(q, model.nq, "q")
        return lagrange.lagrange_terms(model, q, np.zeros_like(q)).mass_matrix
    return run(_MASS_MATRIX_COLUMNS if algorithm == "rnea_columns" else MASS_MATRIX, model, q=q)


@renamed_keywords(method="algorithm")
@state_docs
def forward_dynamics(model, q, qd, tau, *, algorithm: str | None = None, wrenches=None):
    """Joint accelerations under given torques: q̈ = M(q)⁻¹ (τ + Σ J_fᵀ w_f − b(q, q̇)).

    The inverse of :func:`inverse_dynamics`: ``forward_dynamics(model, q, qd,
    inverse_dynamics(model, q, qd, qdd))`` is ``qdd`` to rounding.

    Parameters
    ----------
    $model
    $q
    $qd
    $tau
    algorithm : str, optional
        How (Notes): ``"aba"``, ``"crba"``, ``"rnea_columns"``, ``"lagrange"``,
        ``"soa"`` or ``"gibbs_appell"`` (``eslabon.conventions.ALGORITHMS``; aliases
        ``"walker_orin_3"``, ``"walker_orin_1"``). Default: ``"aba"``, or ``"crba"`` for
        a model with a mimic joint (which the articulated-body recursion cannot take).
        ``method=`` is its old name.
    wrenches : list of ExternalWrench, optional
        What the environment applies to the robot (Notes): ExternalWrench objects or
        ``(frame, value[, axes])`` tuples, or one ExternalWrench; constant values only (a
        callable value needs the time of a simulation, :func:`eslabon.simulate`).

    Returns
    -------
    ndarray (n,) or (N, n)
        q̈: rad/s² (revolute), m/s² (prismatic).

    Raises
    ------
    $state_errors
    ValueError
        An unknown ``algorithm`` or one the model does not allow (``"aba"`` with a mimic
        joint; the numpy formulations with joints they do not take); a mass matrix that
        is not positive definite (a joint that moves no mass); a wrench that is not an
        :class:`~eslabon.dynamics.wrenches.ExternalWrench` on a frame of the model with
        6 finite numbers.

    Notes
    -----
    ``aba``: articulated-body algorithm, O(n) (:mod:`.aba`); ``crba`` / ``rnea_columns``:
    the mass matrix by composite rigid bodies or by n Newton–Euler columns (Walker–Orin
    methods 3 and 1), then a Cholesky solve (Práctica 3, eq. 3.36); ``lagrange``: the
    explicit I(θ), C(θ, θ̇), b(θ) of Rojas (1987) (4.3.33) and a Cholesky solve
    (:mod:`.lagrange`, numpy, O(n³)); ``soa``: the constraint-force Macro Algoritmo of
    Jaramillo Botero (1998) (:mod:`.soa`, numpy, O(n); serial chains whose bodies all have
    invertible inertia, no armature); ``gibbs_appell``: D q̈ + φ = τ from the Gibbs
    function of Araujo (2012) (3.34–3.36, :mod:`.gibbs_appell`, numpy). All agree to
    rounding.

    ``wrenches``: what the environment applies to the robot, a list of
    :class:`~eslabon.dynamics.wrenches.ExternalWrench` (frame, [moment; force], "world" or
    "local" axes); each adds its generalized force J_fᵀ w to τ, for every method
    (:mod:`.wrenches`); :func:`inverse_dynamics` takes the same wrenches.

    Examples
    --------
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> tau = es.inverse_dynamics(arm, [0.1, 0.2], [0.0, 0.0], [1.0, -1.0])
    >>> es.forward_dynamics(arm, [0.1, 0.2], [0.0, 0.0], tau).round(12).tolist()
    [1.0, -1.0]
    """
    if algorithm is None:  # ABA; a mimic joint (which ABA cannot take): CRBA
        algorithm = "crba" if model.has_mimic else "aba"
    method = algorithm_name(algorithm, FORWARD_DYNAMICS_ALGORITHMS, "forward_dynamics")
    if wrenches is not None:
        from .wrenches import external_wrenches, wrench_torques

        checked = external_wrenches(model, wrenches)
        (q, qd, tau), _ = check_states(model, q=q, qd=qd, tau=tau)
        tau = tau + wrench_torques(model, q, checked)
    if method in ("gibbs_appell", "lagrange"):
        model.require_one_dof_joints(f"forward_dynamics(algorithm={method!r})")
    if method == "gibbs_appell":
        from . import gibbs_appell

        return gibbs_appell.forward_dynamics(model, q, qd, tau)
    if method == "lagrange":
        from . import lagrange

        return lagrange.forward_dynamics(model, q, qd, tau)
    if method == "soa":
        from . import soa

        soa.require_joints(model, f"forward_dynamics(algorithm={method!r})")
        return soa.forward_dynamics(model, q, qd, tau)
    if method not in ("aba", "crba", "rnea_columns"):
        raise AssertionError(method)  # every listed algorithm has a branch above
    if model.mimic is not None:
        (q, qd, tau), _ = check_states(model, q=q, qd=qd, tau=tau)
        return _coupled_forward_dynamics(model, q, qd, tau, method)
    if method == "aba":
        return run(FORWARD_DYNAMICS, model, q=q, qd=qd, tau=tau)
    record = _FD_COMPOSITE if method == "crba" else _FD_COLUMNS
    return run(record, model, q=q, qd=qd, tau=tau)


def _coupled_forward_dynamics(model, q, qd, tau, method):
    """q̈ of a model with mimic joints: M q̈ = τ − b with M = Gᵀ M_e G and b = Gᵀ b_e
    (:mod:`eslabon.model.mimic`), by Cholesky. The articulated-body recursion cannot
    take a joint coupled to another, so ``"aba"`` refuses the model."""
    if method == "aba":
        i = int(np.flatnonzero(model.mimic_joint >= 0)[0])
        raise ValueError(
            "forward_dynamics: the articulated-body algorithm (algorithm='aba') cannot take "
            f"the mimic joint of body {model.body_names[i]!r}; use algorithm='crba'"
        )
    M = mass_matrix(model, q, algorithm=method)
    rhs = tau - bias_forces(model, q, qd)
    try:
        L = np.linalg.cholesky(M)
    except np.linalg.LinAlgError:
        raise ValueError(NOT_PD_MESSAGE) from None
    y = np.linalg.solve(L, rhs[..., None])
    return np.linalg.solve(np.swapaxes(L, -1, -2), y)[..., 0]


@state_docs
def inverse_dynamics_derivatives(model, q, qd, qdd):
    """The derivatives of :func:`eslabon.inverse_dynamics`: (∂τ/∂q, ∂τ/∂q̇), analytic
    (:mod:`.derivatives`; ∂τ/∂q̈ is :func:`eslabon.mass_matrix`).

    Differentiates the Newton–Euler recursion in world coordinates (after Carpentier and
    Mansard, "Analytical derivatives of rigid body dynamics algorithms", RSS 2018): exact
    to rounding, no finite differences. Viscous friction adds its coefficient to
    ∂τ_i/∂q̇_i; Coulomb friction is taken as locally constant (zero derivative away from
    q̇ = 0). No external wrenches.

    Parameters
    ----------
    $model
    $q
    $qd
    $qdd

    Returns
    -------
    (ndarray, ndarray), each (n, n) or (N, n, n)
        Entry [i, j] is ∂τ_i/∂q_j (N·m/rad, N/m, …) and ∂τ_i/∂q̇_j (N·m·s/rad, …). For
        a spherical or free-flyer joint q moves in the tangent space, along q ⊕ ε e_j
        (n columns: docs/conventions.md).

    Raises
    ------
    $state_errors

    Examples
    --------
    >>> import eslabon as es
    >>> dq, dv = es.inverse_dynamics_derivatives(es.zoo.load("planar2"), [0, 0], [0, 0], [0, 0])
    >>> dq.shape, dv.shape
    ((2, 2), (2, 2))
    """
    # with mimic joints, q_e = G q + o: Gᵀ (∂τ_e/∂x_e) G
    return run(INVERSE_DYNAMICS_DERIVATIVES, model, q=q, qd=qd, qdd=qdd)


@state_docs
def forward_dynamics_derivatives(model, q, qd, tau):
    """The derivatives of :func:`eslabon.forward_dynamics`: (∂q̈/∂q, ∂q̈/∂q̇, ∂q̈/∂τ = M⁻¹),
    analytic (:mod:`.derivatives`).

    Differentiating ID(q, q̇, FD(q, q̇, τ)) = τ: ∂q̈/∂x = −M⁻¹ ∂τ/∂x at q̈ = FD(q, q̇, τ)
    (Carpentier and Mansard (2018), eq. 26), with the model's friction as in
    :func:`inverse_dynamics_derivatives`. No external wrenches.

    Parameters
    ----------
    $model
    $q
    $qd
    $tau

    Returns
    -------
    (ndarray, ndarray, ndarray), each (n, n) or (N, n, n)
        Entry [i, j] of each is ∂q̈_i/∂x_j (x = q, q̇, τ); the third is M(q)⁻¹ (1/kg,
        1/(kg·m²), …). For a spherical or free-flyer joint q moves in the tangent space.

    Raises
    ------
    $state_errors
    ValueError
        A mass matrix that is not positive definite (a joint that moves no mass).

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> q, qd, tau = [0.3, -0.2], [0.5, 1.0], [1.0, 0.0]
    >>> dq, dv, Minv = es.forward_dynamics_derivatives(arm, q, qd, tau)
    >>> dq.shape, np.allclose(Minv, np.linalg.inv(es.mass_matrix(arm, q)))
    ((2, 2), True)
    """
    if model.mimic is not None:
        # from the inverse dynamics' derivatives at q̈ = FD: ∂q̈/∂x = −M⁻¹ ∂τ/∂x
        (q, qd, tau), _ = check_states(model, q=q, qd=qd, tau=tau)
        qdd = forward_dynamics(model, q, qd, tau, algorithm="crba")
        dq, dv = inverse_dynamics_derivatives(model, q, qd, qdd)
        Minv = np.linalg.inv(mass_matrix(model, q))
        return -Minv @ dq, -Minv @ dv, Minv
    return run(FORWARD_DYNAMICS_DERIVATIVES, model, q=q, qd=qd, tau=tau)


inverse_dynamics = public(INVERSE_DYNAMICS, inverse_dynamics)
gravity_torques = public(GRAVITY_TORQUES, gravity_torques)
bias_forces = public(BIAS_FORCES, bias_forces)
mass_matrix = public(MASS_MATRIX, mass_matrix)
forward_dynamics = public(FORWARD_DYNAMICS, forward_dynamics)
inverse_dynamics_derivatives = public(INVERSE_DYNAMICS_DERIVATIVES, inverse_dynamics_derivatives)
forward_dynamics_derivatives = public(FORWARD_DYNAMICS_DERIVATIVES, forward_dynamics_derivatives)


@state_docs
def coriolis_matrix(model, q, qd):
    """A Coriolis matrix C(q, q̇): C q̇ = b − g − friction and Ṁ − 2C skew-symmetric.

    C is not unique (any C + S with S q̇ = 0 gives the same C q̇); this is the one built
    from the body Jacobians, the spatial form of the Christoffel symbols (Echeandia and
    Wensing (2021); :mod:`.coriolis`), for which Ṁ − 2C is skew-symmetric (the passivity
    property). With a spherical or free-flyer joint it is taken in the tangent space.

    Parameters
    ----------
    $model
    $q
    $qd

    Returns
    -------
    ndarray (n, n) or (N, n, n)
        C: N·m·s/rad (revolute rows and columns), N·s/m (prismatic), ….

    Raises
    ------
    $state_errors
    ValueError
        A model whose COM slides with a prismatic joint (seed 001's book mode: the
        links are not rigid bodies).

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> q, qd = [0.3, -0.2], [0.5, 1.0]
    >>> C = es.coriolis_matrix(arm, q, qd)
    >>> b, g = es.bias_forces(arm, q, qd), es.gravity_torques(arm, q)
    >>> C.shape, np.allclose(C @ qd, b - g)
    ((2, 2), True)
    """
    model.require_rigid_links("coriolis_matrix")
    return run(CORIOLIS_MATRIX, model, q=q, qd=qd)


@state_docs
def kinetic_energy(model, q, qd):
    """T(q, q̇) = ½ q̇ᵀ M(q) q̇, from the body motions; scalar or (N,).

    Summed over the bodies, T = Σ ½ (m_i ‖v_ci‖² + ω_iᵀ I_i ω_i) + Σ ½ J_a q̇² (v_ci the
    velocity of body i's centre of mass, I_i its inertia about it, J_a each joint's
    armature), computed from the outward kinematic pass without forming M (:mod:`.energy`).

    Parameters
    ----------
    $model
    $q
    $qd

    Returns
    -------
    ndarray () or (N,)
        T in J: a 0-d array for one state (``float(T)`` gives the number), one value per
        state of a batch.

    Raises
    ------
    $state_errors

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> q, qd = np.array([0.3, -0.2]), np.array([0.5, 1.0])
    >>> T = es.kinetic_energy(arm, q, qd)
    >>> round(float(T), 6), bool(np.isclose(T, 0.5 * qd @ es.mass_matrix(arm, q) @ qd))
    (1.071863, True)
    """
    return run(ENERGIES, model, q=q, qd=qd)[..., 0]


@state_docs
def potential_energy(model, q):
    """V(q) = −Σ m_i gᵀ p_ci (zero at the world origin); scalar or (N,).

    The gravitational potential energy of the bodies in the model's ``gravity`` field g,
    with p_ci the world position of body i's centre of mass; every body counts, also those
    fixed to a moving one (a payload). For rigid links its gradient ∂V/∂q is
    :func:`gravity_torques`.

    Parameters
    ----------
    $model
    $q

    Returns
    -------
    ndarray () or (N,)
        V in J: a 0-d array for one state (``float(V)`` gives the number), one value per
        state of a batch.

    Raises
    ------
    $state_errors

    Examples
    --------
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> round(float(es.potential_energy(arm, [0.0, 0.0])), 6)
    0.0
    >>> round(float(es.potential_energy(arm, [1.5707963267948966, 0.0])), 6)
    30.411
    """
    return run(_POTENTIAL, model, q=q)[..., 1]


@state_docs
def rnea_trace(model, q, qd, qdd, *, wrenches=None, tip_wrench=None):
    """Newton–Euler with every intermediate quantity (one state); see :mod:`.trace`.

    The quantities Práctica 3 (Tabla 3.1, eqs 3.27–3.33) asks to identify, link by link:
    ω, ω̇, v̇ of the frame origin (gravity included as the fictitious base acceleration),
    ā of the centre of mass, the net force F and moment N at the COM, and the force f and
    moment n link i−1 exerts on link i; each in link i's DH frame for a DH model (moments
    about O_{i−1} for standard and Rojas DH, about O_i for modified DH), else in the body
    frame about its origin. The torques equal :func:`inverse_dynamics`'s.

    Parameters
    ----------
    $model
    q : array_like (nq,)
        One configuration (a batch is refused), units as in :func:`inverse_dynamics`.
    qd, qdd : array_like (n,)
        Joint rates (rad/s, m/s) and accelerations (rad/s², m/s²) of that state.
    wrenches : list of ExternalWrench, optional
        What the environment applies to the robot, constant values, as in
        :func:`inverse_dynamics`; the forces f and moments n then include them.
    tip_wrench : array_like (6,), optional
        Deprecated (it warns): the wrench ``ee`` exerts on the environment in its own
        axes, ``wrenches=[ExternalWrench("ee", -w, "local")]``.

    Returns
    -------
    RneaTrace
        Arrays (nb, 3), one row per body 1..nb, and ``tau`` (n,); ``table()`` prints them.

    Raises
    ------
    $state_errors
    ValueError
        A batch of states; a bad wrench (as :func:`inverse_dynamics`).

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> tr = es.rnea_trace(arm, [0.1, 0.2], [0.3, 0.4], [1.0, 0.0])
    >>> tr.frames, tr.w.shape
    (('dh1', 'dh2'), (2, 3))
    >>> np.allclose(tr.tau, es.inverse_dynamics(arm, [0.1, 0.2], [0.3, 0.4], [1.0, 0.0]))
    True
    """
    from .trace import rnea_trace as _trace

    if tip_wrench is not None:
        _warn_tip_wrench("rnea_trace")
    return _trace(model, q, qd, qdd, wrenches=wrenches, tip_wrench=tip_wrench)
