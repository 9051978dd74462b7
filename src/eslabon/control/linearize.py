"""Linearization of the robot about a state or along a nominal trajectory.

Seed 000 (Rojas 1987) §5.2–5.4. Keeping first-order terms about a nominal (θ, θ̇, θ̈),

    δf* = U δθ̈ + V δθ̇ + W δθ,    U = M(θ),  V = ∂f*/∂θ̇,  W = ∂f*/∂θ        (5.4.1)

and for the state x = [θ; θ̇], δẋ = A(t) δx + B(t) δf* with

    A = [[0, 1], [−M⁻¹W, −M⁻¹V]],    B = [[0], [M⁻¹]]                         (5.2.3–4)

With a spherical or free-flyer joint, δθ is the tangent-space perturbation (q = q̄ ⊕ δθ,
:func:`eslabon.integrate`), W its derivative (:mod:`eslabon._engine.joint_tangent`), and the
upper-left block of A is −ad(v̄) over the joint's rates (δθ moves with the frame it is
taken in; :func:`eslabon._engine.joint_tangent.tangent_drift`), zero elsewhere.

U, V, W are exact: V and W come from the analytic derivatives of Newton–Euler
(:func:`eslabon.inverse_dynamics_derivatives`, friction included), not from the thesis's
(5.3.5–5.3.25), whose printed W (5.3.18) is wrong: the thesis's W, its K_p and Table
5.6.3 block (a) are wrong in columns 1–4 (joint 1 is vertical, parallel to gravity, so
W's first column must be zero, and K_p₁₁ = 466.33 is printed where U₁₁ = 335.36); its V,
K_d and blocks (b), (c) agree with ours to 4 digits.
``derivatives="central"`` builds the same matrices by central differences of the inverse
dynamics, to check them.

External wrenches (:class:`eslabon.ExternalWrench`, seed 001 §3.3 eq. 3.34, the Kᵀk of
the tip) enter as generalized forces τ_w(q, q̇) = Σ J_fᵀ w_f on the right-hand side,
M q̈ + b = τ + τ_w, so U δq̈ + (V − ∂τ_w/∂q̇) δq̇ + (W − ∂τ_w/∂q) δq = δτ: a wrench fixed
in the world still changes with q through J_f. Its derivatives are central differences
of τ_w in the tangent space (step ``step``): J_f is exact, and differencing only this
term keeps the rest analytic.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._args import explain_nonfinite, finite_number, vectors
from .._deprecation import renamed_keywords
from .._engine.batch import chunk_count
from .._engine.joint_tangent import tangent_drift
from .._engine.joints import extended_of
from .._engine.status import NOT_POSITIVE_DEFINITE, OK
from ..dynamics import derivative_batches as _db
from ..dynamics import derivative_drivers as _d
from ..dynamics import inverse_dynamics, mass_matrix
from ..dynamics.api import inverse_dynamics_derivatives
from ..dynamics.quantity import NOT_PD_MESSAGE, Quantity, public
from ..dynamics.wrenches import external_wrenches, wrench_torques
from ..model.configuration import check_configuration, difference, integrate

DERIVATIVES = ("analytic", "central")  # the derivative schemes


class Linearization(NamedTuple):
    """U, V, W (…, n, n) and A (…, 2n, 2n), B (…, 2n, n); M_inv = U⁻¹ (…, n, n).
    The leading axes are those of the states given (none for one state); along a
    trajectory (:func:`linearize_along`) ``t`` (T,) holds the sample times.

    What :func:`linearize` and :func:`linearize_along` return: the first-order model
    δτ = U δq̈ + V δq̇ + W δq (Rojas 1987, §5.4, eq. 5.4.1) and its state-space form
    δẋ = A δx + B δτ with δx = [δq; δq̇] (eqs 5.2.3–5.2.4). n is the model's ``nv``: for a
    spherical or free-flyer joint δq is the tangent-space perturbation (3 or 6 entries
    where q holds 4 or 7), see :func:`linearize`. A named tuple; ``lin._replace(...)``
    makes a modified copy.

    Attributes
    ----------
    U : ndarray ``(n, n)`` or ``(N, n, n)``
        M(q), the joint-space mass matrix (kg·m², kg); ∂τ/∂q̈.
    V : ndarray ``(n, n)`` or ``(N, n, n)``
        ∂τ/∂q̇ at the nominal state, friction's viscous part included (N·m·s/rad, N·s/m).
    W : ndarray ``(n, n)`` or ``(N, n, n)``
        ∂τ/∂q at the nominal state (N·m/rad, N/m).
    A : ndarray ``(2n, 2n)`` or ``(N, 2n, 2n)``
        [[0, 1], [−U⁻¹W, −U⁻¹V]] (the upper-left block −ad(v̄) over a quaternion joint's
        rates); δẋ = A δx + B δτ.
    B : ndarray ``(2n, n)`` or ``(N, 2n, n)``
        [[0], [U⁻¹]].
    M_inv : ndarray ``(n, n)`` or ``(N, n, n)``
        U⁻¹.
    t : ndarray ``(T,)`` or None
        The sample times (s) of a linearization along a trajectory
        (:func:`linearize_along`, N = T); None for :func:`linearize`.

    Examples
    --------
    >>> import eslabon as es, numpy as np
    >>> arm = es.zoo.load("planar2")
    >>> lin = es.control.linearize(arm, [0.3, 0.2], [0.0, 0.0], [0.0, 0.0])
    >>> lin.U.shape, lin.A.shape, lin.B.shape, lin.t is None
    ((2, 2), (4, 4), (4, 2), True)
    >>> bool(np.allclose(lin.B[2:], lin.M_inv))
    True
    """

    U: np.ndarray
    V: np.ndarray
    W: np.ndarray
    A: np.ndarray
    B: np.ndarray
    M_inv: np.ndarray
    t: np.ndarray | None = None


def _central(model, q, qd, qdd, step):
    n = model.nv
    W = np.empty(qd.shape + (n,))
    V = np.empty(qd.shape + (n,))
    for j in range(n):
        e = np.zeros(n)
        e[j] = step
        qp, qm = integrate(model, q, e), integrate(model, q, -e)  # q ± e in the tangent space
        W[..., :, j] = (
            inverse_dynamics(model, qp, qd, qdd) - inverse_dynamics(model, qm, qd, qdd)
        ) / (2 * step)
        V[..., :, j] = (
            inverse_dynamics(model, q, qd + e, qdd) - inverse_dynamics(model, q, qd - e, qdd)
        ) / (2 * step)
    return V, W


def _wrench_derivatives(model, q, qd, wrenches, t, step):
    """(∂τ_w/∂q, ∂τ_w/∂q̇) (…, n, n) of τ_w = Σ J_fᵀ w_f (:func:`wrench_torques`) by
    central differences in the tangent space; ∂τ_w/∂q̇ is zero unless a wrench is a
    callable of the state."""
    n = model.nv
    dq, dqd = np.zeros(qd.shape + (n,)), np.zeros(qd.shape + (n,))
    state_dependent = any(callable(w.value) for w in wrenches)
    for j in range(n):
        e = np.zeros(n)
        e[j] = step
        qp, qm = integrate(model, q, e), integrate(model, q, -e)
        dq[..., :, j] = (
            wrench_torques(model, qp, wrenches, t, qd) - wrench_torques(model, qm, wrenches, t, qd)
        ) / (2 * step)
        if state_dependent:
            dqd[..., :, j] = (
                wrench_torques(model, q, wrenches, t, qd + e)
                - wrench_torques(model, q, wrenches, t, qd - e)
            ) / (2 * step)
    return dq, dqd


def _with_wrenches(model, lin, q, qd, wrenches, t, step):
    """``lin`` with the wrenches' generalized forces moved into V and W (module doc)."""
    dq, dqd = _wrench_derivatives(model, q, qd, wrenches, t, step)
    U, V, W = lin.U, lin.V - dqd, lin.W - dq
    A, B, M_inv = state_matrices(U, V, W)
    A[..., : model.nv, : model.nv] = lin.A[..., : model.nv, : model.nv]  # the drift block
    return Linearization(U, V, W, A, B, M_inv, lin.t)


def state_matrices(U, V, W):
    """(A, B, M⁻¹) of (5.2.3–4) from U, V, W (…, n, n).

    Builds the state-space form of the linearized dynamics (Rojas 1987, §5.2, eqs
    5.2.3–5.2.4): with δx = [δq; δq̇] and u = δτ, A = [[0, 1], [−U⁻¹W, −U⁻¹V]] and
    B = [[0], [U⁻¹]]. The upper-left block is zero (vector coordinates; :func:`linearize`
    replaces it for a quaternion joint). No shape check is made beyond what numpy does.

    Parameters
    ----------
    U : ndarray (n, n) or (…, n, n)
        The mass matrix M(q) (kg·m², kg), invertible.
    V : ndarray (n, n) or (…, n, n)
        ∂τ/∂q̇ (N·m·s/rad, N·s/m).
    W : ndarray (n, n) or (…, n, n)
        ∂τ/∂q (N·m/rad, N/m).

    Returns
    -------
    A : ndarray (2n, 2n) or (…, 2n, 2n)
        The state matrix.
    B : ndarray (2n, n) or (…, 2n, n)
        The input matrix (input δτ: N·m, N).
    M_inv : ndarray (n, n) or (…, n, n)
        U⁻¹.

    Raises
    ------
    numpy.linalg.LinAlgError
        ``U`` is singular.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> A, B, M_inv = es.control.state_matrices(np.array([[2.0]]), np.zeros((1, 1)),
    ...                                      np.array([[8.0]]))
    >>> A
    array([[ 0.,  1.],
           [-4.,  0.]])
    >>> B.ravel()
    array([0. , 0.5])
    """
    n = U.shape[-1]
    lead = U.shape[:-2]
    M_inv = np.linalg.inv(U)
    A = np.zeros(lead + (2 * n, 2 * n))
    A[..., :n, n:] = np.eye(n)
    A[..., n:, :n] = -M_inv @ W
    A[..., n:, n:] = -M_inv @ V
    B = np.zeros(lead + (2 * n, n))
    B[..., n:, :] = M_inv
    return A, B, M_inv


def _compiled(model, q, qd, qdd):
    """U, V, W, A, B, M⁻¹ in one compiled call per state, or one parallel call for a
    batch (:func:`eslabon.dynamics.derivatives.linearization_into`)."""
    P = model.packed_dynamics
    n, lead = model.nv, q.shape[:-1]
    q, qd, qdd = (np.ascontiguousarray(x, dtype=float) for x in (q, qd, qdd))
    W, V, U, M_inv = (np.empty(lead + (n, n)) for _ in range(4))
    A, B = np.empty(lead + (2 * n, 2 * n)), np.empty(lead + (2 * n, n))
    if q.ndim == 1:
        status = _d.linearize_one(P, q, qd, qdd, W, V, U, M_inv, A, B, extended_of(P))
    else:
        chunks = chunk_count(len(q))
        status = _db.linearize_many(P, q, qd, qdd, W, V, U, M_inv, A, B, chunks, extended_of(P))
    if status == NOT_POSITIVE_DEFINITE:
        raise ValueError(NOT_PD_MESSAGE)
    if status != OK:
        explain_nonfinite("linearize", q=q, qd=qd, qdd=qdd)
    return Linearization(U, V, W, A, B, M_inv)


@renamed_keywords(method="derivatives")
def linearize(
    model,
    q,
    qd,
    qdd,
    *,
    derivatives: str = "analytic",
    step: float = 1e-6,
    wrenches=None,
    t: float | None = None,
):
    """The dynamics linearized about a state: δτ = U δq̈ + V δq̇ + W δq, and in state space
    ẋ = A x + B u with x = [δq; δq̇] (2n,) and u = δτ (n,) (seed 000, Rojas 1987, §5.3).

    Parameters
    ----------
    model : Model
    q : array_like (nq,) or (N, nq)
        Configuration about which to linearize (rad or m).
    qd, qdd : array_like (n,) or (N, n)
        Rates and accelerations about which to linearize; the nominal torque is
        τ̄ = ID(q, q̇, q̈), so A and B hold for τ = τ̄ + u.
    derivatives : {"analytic", "central"}
        The analytic derivatives (default) or central differences of step ``step``
        (``method=`` is its old name).
    step : float
        The central differences' step (``derivatives="central"``, and the wrenches'
        term).
    wrenches : list of ExternalWrench, optional
        What the environment applies to the robot (:class:`eslabon.ExternalWrench`: a
        frame, [moment; force] in N·m and N, world or local axes, constant or a callable
        of (t, q, q̇)), as :func:`eslabon.forward_dynamics` takes them. The nominal torque
        is then τ̄ = ID(q, q̇, q̈) − Σ J_fᵀ w_f, and V, W include the wrenches' change
        with q and q̇ (module docstring).
    t : float, optional
        The time (s) at which a callable wrench is evaluated; needed only then.

    Returns
    -------
    Linearization
        Named fields ``U`` = M(q) (n, n); ``V`` = ∂τ/∂q̇ and ``W`` = ∂τ/∂q (n, n);
        ``A`` = [[D, 1], [−U⁻¹W, −U⁻¹V]] (2n, 2n); ``B`` = [[0], [U⁻¹]] (2n, n);
        ``M_inv`` = U⁻¹ (n, n). With a batch every field has the leading axis N. For a
        spherical or free-flyer joint δq lives in the tangent space (nv entries) and
        moves with its frame: D, A's upper-left block, is −ad(v̄) over that joint's rates
        (a floating base's included; :func:`eslabon._engine.joint_tangent.tangent_drift`)
        and zero over vector coordinates: D = 0 only without such joints.

    Raises
    ------
    ValueError
        A state of the wrong length or not finite (naming the field), an unknown
        ``derivatives``;
        a wrench on an unknown frame or not 6 finite numbers; a callable wrench without
        ``t`` or with a batch of states.

    Examples
    --------
    >>> import eslabon as es, numpy as np
    >>> arm = es.zoo.load("puma560")
    >>> lin = es.control.linearize(arm, np.zeros(6), np.zeros(6), np.zeros(6))
    >>> lin.A.shape, lin.B.shape
    ((12, 12), (12, 6))

    A constant 10 N push along the world's x axis at the end effector stiffens or
    softens the arm through J(q) (W changes, U does not):

    >>> push = es.ExternalWrench("ee", [0, 0, 0, 10.0, 0, 0])
    >>> q = [0.0, 0.5, -0.5, 0.0, 0.3, 0.0]
    >>> pushed = es.control.linearize(arm, q, np.zeros(6), np.zeros(6), wrenches=[push])
    >>> free = es.control.linearize(arm, q, np.zeros(6), np.zeros(6))
    >>> bool(np.allclose(pushed.U, free.U)), bool(np.allclose(pushed.W, free.W))
    (True, False)
    """
    if derivatives not in DERIVATIVES:
        raise ValueError(f"derivatives: expected one of {DERIVATIVES}, got {derivatives!r}")
    (q, qd, qdd), _ = vectors(model.nv, nq=model.nq, q=q, qd=qd, qdd=qdd)
    if wrenches is not None:
        checked = external_wrenches(model, wrenches)
        step = finite_number(step, "step", positive=True)
        if any(callable(w.value) for w in checked):
            if q.ndim != 1:
                raise ValueError(
                    "wrenches: a callable wrench is evaluated at one state; linearize the "
                    "states one by one (linearize_along does)"
                )
            if t is None:
                raise ValueError("t: a callable wrench needs the time (s) to evaluate it at")
            t = finite_number(t, "t")
        lin = linearize(model, q, qd, qdd, derivatives=derivatives, step=step)
        return _with_wrenches(model, lin, q, qd, checked, t, step)
    if derivatives == "analytic" and model.mimic is None and q.ndim <= 2:
        if model.nq != model.nv:
            check_configuration(model, q)  # unit quaternions, else the joint is named
        return _compiled(model, q, qd, qdd)
    U = mass_matrix(model, q)
    if derivatives == "analytic":
        W, V = inverse_dynamics_derivatives(model, q, qd, qdd)
    else:
        V, W = _central(model, q, qd, qdd, finite_number(step, "step", positive=True))
    A, B, M_inv = state_matrices(U, V, W)
    if model.nq != model.nv:  # δq in the tangent space: ξ̇ = δv − ad(v̄) ξ
        A[..., : model.nv, : model.nv] = tangent_drift(model, qd)
    return Linearization(U, V, W, A, B, M_inv)


# the public linearize: one state as float64 arrays runs the compiled entry straight from
# C (eslabon._engine.fastcall), anything else the function above
LINEARIZE = Quantity(
    "linearize",
    ("q", "qd", "qdd"),
    ("nn", "nn", "nn", "2n2n", "2nn", "nn"),  # U, V, W, A, B, M⁻¹
    entry=_d.__name__ + ":linearize_entry",
)
linearize = public(LINEARIZE, linearize, Linearization)


@renamed_keywords(method="derivatives")
def linearize_along(
    model, trajectory, *, derivatives: str = "analytic", step: float = 1e-6, wrenches=None
):
    """:class:`Linearization` (with ``t``) at every sample of ``trajectory`` (anything
    with ``t`` (T,) and ``q``, ``qd``, ``qdd`` (T, n): a simulation
    :class:`~eslabon.sim.Trajectory`, an IK :class:`~eslabon.kinematics.ik.PathSolution`,
    a :class:`~eslabon.control.Nominal`), in one batched call.

    The linearization about a nominal motion of Rojas (1987), §5.2–5.4: A(t), B(t)
    sampled at the trajectory's times, as :func:`linearize` gives them for the batch of
    states (T, ·); the result's ``t`` is the trajectory's. Feed it to
    :func:`model_assignment`, :func:`tvlqr` or :func:`frozen_eigenvalues`.

    Parameters
    ----------
    model : Model
    trajectory : object
        Anything with attributes ``t`` (T,) (s), ``q`` (T, nq) (rad or m; a quaternion
        (x, y, z, w) for a spherical or free-flyer joint) and ``qd``, ``qdd`` (T, n)
        (rad/s, m/s and rad/s², m/s²), e.g. :func:`eslabon.joint_trajectory`'s result.
    derivatives : {"analytic", "central"}
        As in :func:`linearize`.
    step : float
        The central differences' step (``derivatives="central"``, and the wrenches'
        term).
    wrenches : list of ExternalWrench, optional
        As in :func:`linearize`; a callable one is evaluated at each sample's time.

    Returns
    -------
    Linearization
        ``U``, ``V``, ``W``, ``M_inv`` (T, n, n), ``A`` (T, 2n, 2n), ``B`` (T, 2n, n) and
        ``t`` (T,) the trajectory's sample times (s).

    Raises
    ------
    ValueError
        A ``trajectory`` without ``t``, ``q``, ``qd`` and ``qdd``, with ``q`` not 2-D or
        ``t`` not of shape (T,); what :func:`linearize` refuses (a state of the wrong
        length or not finite, an unknown ``derivatives``).

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> traj = es.joint_trajectory([0.0, 0.0], [1.0, -0.5], np.linspace(0.0, 1.0, 11))
    >>> lin = es.control.linearize_along(arm, traj)
    >>> lin.A.shape, lin.B.shape, lin.t.shape
    ((11, 4, 4), (11, 4, 2), (11,))
    """
    try:
        t, q, qd, qdd = (
            np.asarray(getattr(trajectory, k), dtype=float) for k in ("t", "q", "qd", "qdd")
        )
    except AttributeError as exc:
        raise ValueError(f"trajectory: expected t, q, qd and qdd samples ({exc})") from None
    if q.ndim != 2 or t.shape != (len(q),):
        raise ValueError(f"trajectory: expected t (T,) and q (T, n), got {t.shape} and {q.shape}")
    if wrenches is not None and any(callable(w.value) for w in external_wrenches(model, wrenches)):
        each = [
            linearize(model, *x, derivatives=derivatives, step=step, wrenches=wrenches, t=tk)
            for *x, tk in zip(q, qd, qdd, t, strict=True)
        ]
        return Linearization(*(np.stack(f) for f in zip(*(e[:6] for e in each), strict=True)), t)
    return linearize(
        model, q, qd, qdd, derivatives=derivatives, step=step, wrenches=wrenches
    )._replace(t=t)


def sort_eigenvalues(ev):
    """Eigenvalues (…, k) sorted by real part, then imaginary part.

    Each row along the last axis is sorted on its own (``numpy.lexsort``: real part
    first, ties broken by the imaginary part), so that eigenvalues computed at successive
    instants can be compared column by column.

    Parameters
    ----------
    ev : array_like (k,) or (…, k)
        Eigenvalues, real or complex (1/s for those of a state matrix A).

    Returns
    -------
    ndarray of complex (k,) or (…, k)
        The same values, sorted along the last axis.

    Examples
    --------
    >>> import eslabon as es
    >>> es.control.sort_eigenvalues([1 + 1j, -2.0, 1 - 1j])
    array([-2.+0.j,  1.-1.j,  1.+1.j])
    """
    ev = np.asarray(ev, dtype=complex)
    order = np.lexsort((ev.imag, ev.real), axis=-1)
    return np.take_along_axis(ev, order, axis=-1)


def frozen_eigenvalues(A):
    """Eigenvalues of A (…, 2n, 2n) frozen in time, sorted by real then imaginary part.

    The spectrum of A(t) at each instant taken on its own ("frozen"), as Rojas (1987),
    §5.6, plots it along a trajectory. A frozen spectrum in the left half-plane does not
    by itself make a time-varying system stable.

    Parameters
    ----------
    A : array_like (m, m) or (…, m, m)
        State matrices, e.g. a :class:`Linearization`'s ``A`` (m = 2n), one or a stack
        along a trajectory.

    Returns
    -------
    ndarray of complex (m,) or (…, m)
        The eigenvalues (1/s) of each matrix, sorted as :func:`sort_eigenvalues`.

    Raises
    ------
    numpy.linalg.LinAlgError
        A matrix that is not square or whose eigenvalues do not converge.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> lin = es.control.linearize(arm, [0.3, 0.2], [0.0, 0.0], [0.0, 0.0])
    >>> np.round(es.control.frozen_eigenvalues(lin.A).real, 4)
    array([-4.6403, -1.6532,  1.6532,  4.6403])
    """
    return sort_eigenvalues(np.linalg.eigvals(np.asarray(A, dtype=float)))


class PerturbationCheck(NamedTuple):
    """Table 5.4.2: the linear terms W δθ, V δθ̇, U δθ̈, their sum (the predicted δf*),
    the true torque difference and the residual predicted − true, each (n,).

    What :func:`perturbation_check` returns (the columns of Rojas 1987, Table 5.4.2).
    Every field is in joint torque units: N·m (revolute), N (prismatic).

    Attributes
    ----------
    W_dq : ndarray ``(n,)``
        W δq, δq the perturbation of the configuration (in the tangent space for a
        quaternion joint).
    V_dqd : ndarray ``(n,)``
        V δq̇.
    U_dqdd : ndarray ``(n,)``
        U δq̈.
    predicted : ndarray ``(n,)``
        W δq + V δq̇ + U δq̈, the linear prediction of δτ (eq. 5.4.1).
    actual : ndarray ``(n,)``
        ID(perturbed) − ID(nominal), the true torque difference.
    residual : ndarray ``(n,)``
        ``predicted - actual``: second order in the perturbation.

    Examples
    --------
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> chk = es.control.perturbation_check(
    ...     arm, ([0.3, 0.2], [0.1, 0.0], [0.0, 0.0]), ([0.301, 0.2], [0.1, 0.001], [0.001, 0.0])
    ... )
    >>> chk.predicted.shape, bool(abs(chk.residual).max() < 1e-4)
    ((2,), True)
    """

    W_dq: np.ndarray
    V_dqd: np.ndarray
    U_dqdd: np.ndarray
    predicted: np.ndarray
    actual: np.ndarray
    residual: np.ndarray


def perturbation_check(model, nominal, perturbed) -> PerturbationCheck:
    """Compare the linear prediction (5.4.1) with the true torque difference between a
    nominal and a perturbed state, each given as (q, qd, qdd).

    The check of Rojas (1987), §5.4 (Table 5.4.2): linearize at the nominal state
    (:func:`linearize`, analytic), form W δq, V δq̇, U δq̈ and compare their sum with
    ID(perturbed) − ID(nominal) (:func:`eslabon.inverse_dynamics`). δq is
    :func:`eslabon.difference` (q_perturbed − q_nominal for vector coordinates, the
    tangent-space difference for a quaternion joint). One state each, not a batch.

    Parameters
    ----------
    model : Model
    nominal : tuple of array_like
        (q, qd, qdd): q (nq,) (rad or m), qd (n,) (rad/s, m/s), qdd (n,) (rad/s², m/s²).
    perturbed : tuple of array_like
        (q, qd, qdd) of the perturbed state, same shapes and units.

    Returns
    -------
    PerturbationCheck
        The three linear terms, their sum, the true difference and the residual, each
        (n,) in N·m (revolute) or N (prismatic).

    Raises
    ------
    ValueError
        ``nominal`` or ``perturbed`` not a (q, qd, qdd) triple; a state of the wrong
        length or not finite (from :func:`linearize`, :func:`eslabon.inverse_dynamics`).

    Examples
    --------
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> nominal = ([0.3, 0.2], [0.1, 0.0], [0.0, 0.0])
    >>> perturbed = ([0.301, 0.2], [0.1, 0.001], [0.001, 0.0])
    >>> chk = es.control.perturbation_check(arm, nominal, perturbed)
    >>> bool(abs(chk.residual).max() < 1e-2 * abs(chk.actual).max())
    True
    """
    try:
        (q, qd, qdd), (pq, pqd, pqdd) = nominal, perturbed
    except (TypeError, ValueError):
        raise ValueError("nominal, perturbed: expected two (q, qd, qdd) triples") from None
    lin = linearize(model, q, qd, qdd)
    dqd, dqdd = (np.asarray(b, float) - np.asarray(a, float) for a, b in ((qd, pqd), (qdd, pqdd)))
    dq = difference(model, q, pq)  # in the tangent space (q − q̄ for vector coordinates)
    terms = [lin.W @ dq, lin.V @ dqd, lin.U @ dqdd]
    predicted = terms[0] + terms[1] + terms[2]
    actual = inverse_dynamics(model, pq, pqd, pqdd) - inverse_dynamics(model, q, qd, qdd)
    return PerturbationCheck(*terms, predicted, actual, predicted - actual)


def to_python_control(A, B):
    """A python-control ``StateSpace`` with the full state as output (C = 1, D = 0).

    For the tools of python-control (step responses, Bode plots, …) on the linearized
    robot at one instant. Needs the optional ``control`` package (``pip install
    eslabon[control]``), imported when called.

    Parameters
    ----------
    A : array_like (m, m)
        The state matrix at one instant, e.g. ``lin.A`` of :func:`linearize` (m = 2n,
        state δx = [δq; δq̇] in rad and rad/s, or m and m/s).
    B : array_like (m, k)
        The input matrix, e.g. ``lin.B`` (k = n inputs δτ, N·m or N).

    Returns
    -------
    control.StateSpace
        ẋ = A x + B u, y = x: C the (m, m) identity, D (m, k) zero.

    Raises
    ------
    ValueError
        python-control is not installed; ``A`` not square, ``B`` not 2-D or with another
        number of rows (e.g. a stack of matrices along a trajectory).

    Examples
    --------
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> lin = es.control.linearize(arm, [0.3, 0.2], [0.0, 0.0], [0.0, 0.0])
    >>> try:
    ...     sys = es.control.to_python_control(lin.A, lin.B)
    ... except ValueError:  # python-control is not installed
    ...     sys = None
    >>> sys is None or (sys.nstates, sys.ninputs, sys.noutputs) == (4, 2, 4)
    True
    """
    try:
        import control
    except ImportError:
        raise ValueError("to_python_control needs python-control: pip install control") from None
    A = np.asarray(A, dtype=float)
    B = np.asarray(B, dtype=float)
    if A.ndim != 2 or B.ndim != 2 or A.shape[0] != A.shape[1] or B.shape[0] != A.shape[0]:
        raise ValueError(
            f"A, B: expected (2n, 2n) and (2n, n) for one instant, got {A.shape} and {B.shape}"
        )
    return control.ss(A, B, np.eye(A.shape[0]), np.zeros((A.shape[0], B.shape[1])))
