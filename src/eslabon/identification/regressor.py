"""The joint-torque regressor Y(q, q̇, q̈) with τ = Y π, and the static regressor.

Each body's Newton–Euler wrench about its origin, in body axes, is linear in its
standard parameters π_i = (m, h = m c, I about the origin) (Atkeson, An & Hollerbach 1986,
eq. 5; Featherstone, *Rigid Body Dynamics Algorithms*, 2008, eq. 2.63 f = I a + v ×* I v
written with the classical acceleration a of the origin):

    f_i = m a + (ω̇̃ + ω̃ ω̃) h
    n_i = L(ω̇) I + ω̃ L(ω) I − ã h          L(x) I = I x for I = (Ixx, Ixy, Ixz, Iyy, Iyz, Izz)

so [n_i; f_i] = A_i(ω, ω̇, a) π_i with A_i a 6×10 matrix. Gravity enters as the base's
acceleration (a = v̇ − Rᵀ g, Luh, Walker & Paul 1980). The torque of joint j sums the
wrenches of the bodies it carries, projected on its motion subspace (RBDA eq. 5.20,
τ_j = S_jᵀ Σ_{i ∈ subtree(j)} X f_i), which is the principle of virtual work

    τ = Σ_i J_iᵀ [n_i; f_i] = Σ_i J_iᵀ A_i π_i,

J_i the Jacobian of body i's origin in its own axes (rows [angular; linear]; zero
columns for joints that do not carry it). Hence the block of body i is Y_i = J_iᵀ A_i
for every joint type the kinematic pass and the Jacobian take (revolute, prismatic,
helical, universal, planar, spherical, free flyer, fixed). Friction and armature add
q̇, sign q̇ and q̈ columns on their joint's rates. A mimic joint's rows are carried to the
joint it copies, τ = Gᵀ τ_e (:mod:`eslabon.model.mimic`); its columns stay its own.

A floating base's rows (its six rates) are the floating-base regressor: Y_base π = the
wrench the base joint must exert, zero for a free system.

:func:`joint_torque_regressor` runs the compiled kernel
(:mod:`eslabon.dynamics.regressor_kernel`: the same sums, each joint's projection and each
body's columns taken to one frame); :func:`reference_regressor` is the form above in
numpy, J_iᵀ A_i, kept as its check.
"""

from __future__ import annotations

import numpy as np

from .._args import explain_nonfinite
from .._engine import entrypoints as _entrypoints
from .._engine.batch import chunk_count
from .._engine.joints import extended_of
from .._engine.lanes import WIDTH
from .._engine.status import WRONG_SHAPE
from ..dynamics.quantity import check_states, engine_arrays
from ..dynamics.regressor_kernel import pack_regressor, regressor_many, regressor_one
from ..kinematics.drivers import jacobian_many, jacobian_one
from ..kinematics.kinematic_pass import kinematic_pass
from ..model.model import Model
from .parameters import joint_columns, parameter_count

_BODY_ORIGIN = np.array([1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0])


def _skew(x):
    """(…, 3, 3) cross-product matrices of (…, 3) vectors."""
    out = np.zeros(x.shape + (3,))
    out[..., 0, 1], out[..., 0, 2] = -x[..., 2], x[..., 1]
    out[..., 1, 0], out[..., 1, 2] = x[..., 2], -x[..., 0]
    out[..., 2, 0], out[..., 2, 1] = -x[..., 1], x[..., 0]
    return out


def _lever(x):
    """(…, 3, 6) L(x) with L(x) (Ixx, Ixy, Ixz, Iyy, Iyz, Izz) = I x."""
    out = np.zeros(x.shape[:-1] + (3, 6))
    x0, x1, x2 = x[..., 0], x[..., 1], x[..., 2]
    out[..., 0, 0], out[..., 0, 1], out[..., 0, 2] = x0, x1, x2
    out[..., 1, 1], out[..., 1, 3], out[..., 1, 4] = x0, x1, x2
    out[..., 2, 2], out[..., 2, 4], out[..., 2, 5] = x0, x1, x2
    return out


def body_wrench_matrix(w, wd, a) -> np.ndarray:
    """A (…, 6, 10): the wrench [n; f] about a body's origin, in body axes, is A π_i.

    Parameters
    ----------
    w, wd, a : ndarray (…, 3)
        The body's angular velocity and acceleration and the classical acceleration of
        its origin (gravity included as −g), all in body axes.

    Returns
    -------
    ndarray (…, 6, 10)
        Columns in the order of π_i (m, mx, my, mz, Ixx, Ixy, Ixz, Iyy, Iyz, Izz).
    """
    A = np.zeros(w.shape[:-1] + (6, 10))
    W = _skew(w)
    A[..., 3:, 0] = a
    A[..., 3:, 1:4] = _skew(wd) + W @ W
    A[..., :3, 1:4] = -_skew(a)
    A[..., :3, 4:] = _lever(wd) + W @ _lever(w)
    return A


def _engine_states(model, q, qd, qdd):
    """q, q̇, q̈ of every joint's own coordinate (mimic joints expanded)."""
    if model.mimic is None:
        return q, qd, qdd
    mm = model.mimic
    return tuple(
        np.ascontiguousarray(x) for x in (mm.configuration(q), mm.rates(qd), mm.rates(qdd))
    )


def body_jacobians(model, q_engine, batched) -> np.ndarray:
    """(…, nb+1, 6, engine_nv): each body's origin Jacobian in its own axes (row 0 zero)."""
    P = model.packed
    extended = extended_of(P)
    lead = q_engine.shape[:-1]
    out = np.zeros(lead + (model.nb + 1, 6, model.engine_nv))
    zeros = np.zeros(model.engine_nv)
    for i in range(1, model.nb + 1):
        row = int(model.body_row[i])
        J = np.empty(lead + (6, model.engine_nv))
        if batched:
            nchunks = chunk_count(len(q_engine), WIDTH)
            jacobian_many(P, q_engine, row, _BODY_ORIGIN, True, J, nchunks, extended)
        else:
            jacobian_one(P, q_engine, zeros, row, _BODY_ORIGIN, True, J, extended)
        out[..., i, :, :] = J
    return out


def _check_model(model, what):
    if model.has_moving_com:
        raise ValueError(
            f"model: {what} needs rigid bodies; {model.name!r} has a centre of mass that "
            "slides with a prismatic joint (com_slide, seed 001 book mode)"
        )


def packed_regressor(model) -> np.ndarray:
    """The packed model the compiled regressor reads (:func:`.pack_regressor` of
    :mod:`eslabon.dynamics.regressor_kernel`), made on first use and kept on the model as
    ``model.packed_regressor`` (models are immutable), where the C entry finds it.

    Parameters
    ----------
    model : Model
        A model whose bodies are rigid.

    Returns
    -------
    ndarray
        The read-only packed model (block and friction columns, p as its last value).

    Raises
    ------
    ValueError
        A model with a sliding centre of mass (seed 001's book mode).
    """
    _check_model(model, "the regressor")
    found = getattr(model, "packed_regressor", None)
    if found is None:
        rates = np.full(model.engine_nv, -1.0)
        jc = joint_columns(model)
        rates[jc.rates] = jc.columns
        found = pack_regressor(model.packed, model.body_row, rates, parameter_count(model))
        object.__setattr__(model, "packed_regressor", found)
    return found


def joint_torque_regressor(model, q, qd, qdd) -> np.ndarray:
    """Y(q, q̇, q̈), the joint-torque regressor: τ = Y π (module docstring).

    Compiled (:mod:`eslabon.dynamics.regressor_kernel`); a batch runs on every thread.

    Parameters
    ----------
    model : Model
        Any model whose bodies are rigid (no sliding centre of mass).
    q : array_like (nq,) or (N, nq)
        Configuration (rad, m; unit quaternions (x, y, z, w)).
    qd, qdd : array_like (nv,) or (N, nv)
        Joint rates and accelerations (rad/s, m/s; rad/s², m/s²).

    Returns
    -------
    ndarray (nv, p) or (N, nv, p)
        Columns in the order of :func:`eslabon.identification.parameter_names`; ``Y @
        parameters(model)`` is :func:`eslabon.inverse_dynamics` (friction, armature,
        gravity and mimic joints included).

    Raises
    ------
    ValueError
        A state of the wrong shape or not finite, a quaternion whose norm is not 1, or a
        model with a sliding centre of mass.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon.identification import joint_torque_regressor, parameters
    >>> arm = es.zoo.load("puma560")
    >>> q, qd, qdd = np.full(6, 0.3), np.full(6, -0.2), np.full(6, 0.5)
    >>> Y = joint_torque_regressor(arm, q, qd, qdd)
    >>> Y.shape
    (6, 78)
    >>> bool(np.allclose(Y @ parameters(arm), es.inverse_dynamics(arm, q, qd, qdd)))
    True
    """
    return regressor_into(model, q, qd, qdd)


def regressor_into(model, q, qd, qdd, out=None) -> np.ndarray:
    """:func:`joint_torque_regressor`, a batch written into ``out`` (N, nv, p) when given
    and the model has no mimic joint (a buffer reused chunk after chunk: fresh memory
    costs a page fault per 4 kB, more than the regressor itself on a shared machine).

    Parameters
    ----------
    model : Model
        A model whose bodies are rigid.
    q, qd, qdd : array_like
        As :func:`joint_torque_regressor`.
    out : ndarray ``(N, nv, p)``, optional
        A writeable, C-contiguous float64 buffer for a batch; used when its shape is the
        batch's and the model has no mimic joint, else a new array is returned.

    Returns
    -------
    ndarray ``(nv, p)`` or ``(N, nv, p)``
        Y; ``out`` itself when it was used.

    Raises
    ------
    ValueError
        As :func:`joint_torque_regressor`, or an ``out`` that is not a writeable,
        C-contiguous, aligned float64 array.
    """
    _check_model(model, "the regressor")
    if out is not None and not (
        isinstance(out, np.ndarray)
        and out.dtype == np.float64
        and out.flags.c_contiguous
        and out.flags.aligned
        and out.flags.writeable
    ):
        raise ValueError(
            "out: expected a writeable, C-contiguous, aligned float64 array, got "
            + (
                f"{out.dtype} (contiguous {out.flags.c_contiguous}, aligned "
                f"{out.flags.aligned}, writeable {out.flags.writeable})"
                if isinstance(out, np.ndarray)
                else type(out).__name__
            )
        )
    (q, qd, qdd), batched = check_states(model, q=q, qd=qd, qdd=qdd)
    qe, qde, qdde = engine_arrays(model, q, qd, qdd)
    P = packed_regressor(model)
    p = parameter_count(model)
    extended = extended_of(P)
    if batched:
        shape = (len(q), model.engine_nv, p)
        usable = out is not None and model.mimic is None and out.shape == shape
        Y = out if usable else np.empty(shape)
        status = regressor_many(P, qe, qde, qdde, Y, chunk_count(len(q), WIDTH), extended)
    else:
        Y = np.empty((model.engine_nv, p))
        status = regressor_one(P, qe, qde, qdde, Y, extended)
    if status == WRONG_SHAPE:
        raise ValueError("model: the regressor's packed model does not fit its columns")
    if status != 0:
        explain_nonfinite("the regressor", q=q, qd=qd, qdd=qdd)
    if model.mimic is not None:  # τ = Gᵀ τ_e
        Y = np.einsum("ej,...ep->...jp", model.mimic.G, Y)
    return Y


def reference_regressor(model, q, qd, qdd) -> np.ndarray:
    """:func:`joint_torque_regressor` in numpy: each body's Jacobian in its own axes times
    its matrix A_i (module docstring), Y_i = J_iᵀ A_i; the compiled kernel's check.

    Parameters
    ----------
    model : Model
        Any model whose bodies are rigid.
    q, qd, qdd : array_like
        As :func:`joint_torque_regressor`.

    Returns
    -------
    ndarray (nv, p) or (N, nv, p)
        Y.

    Raises
    ------
    ValueError
        As :func:`joint_torque_regressor`.
    """
    _check_model(model, "the regressor")
    motion = kinematic_pass(model, q, qd, qdd)  # checks the states
    batched = motion.batched
    q = np.asarray(q, dtype=float)
    qd = np.asarray(qd, dtype=float)
    qdd = np.asarray(qdd, dtype=float)
    qe, qde, qdde = _engine_states(model, q, qd, qdd)
    R = motion.world_rotation
    g = np.asarray(model.gravity, dtype=float)
    a = motion.linear_acceleration - np.einsum("...ji,j->...i", R, g)
    A = body_wrench_matrix(motion.angular_velocity, motion.angular_acceleration, a)
    J = body_jacobians(model, np.ascontiguousarray(qe), batched)
    nb = model.nb
    lead = q.shape[:-1]
    Y = np.zeros(lead + (model.engine_nv, parameter_count(model)))
    body_cols = np.swapaxes(J[..., 1:, :, :], -1, -2) @ A[..., 1:, :, :]  # (…, nb, nv, 10)
    body_cols = np.swapaxes(body_cols, -3, -2)  # (…, nv, nb, 10)
    Y[..., : 10 * nb] = body_cols.reshape(lead + (model.engine_nv, 10 * nb))
    jc = joint_columns(model)
    Y[..., jc.rates, jc.columns] = qde[..., jc.rates]
    Y[..., jc.rates, jc.columns + 1] = np.sign(qde[..., jc.rates])
    Y[..., jc.rates, jc.columns + 2] = qdde[..., jc.rates]
    if model.mimic is not None:  # τ = Gᵀ τ_e
        Y = np.einsum("ej,...ep->...jp", model.mimic.G, Y)
    return Y


def static_regressor(model, q) -> np.ndarray:
    """The static (gravity) regressor: ``gravity_torques(model, q) = Y_s(q) π``.

    Parameters
    ----------
    model : Model
        Any model whose bodies are rigid.
    q : array_like (nq,) or (N, nq)
        Configuration.

    Returns
    -------
    ndarray (nv, p) or (N, nv, p)
        :func:`joint_torque_regressor` at rest (q̇ = q̈ = 0): the friction and armature
        columns are zero.

    Raises
    ------
    ValueError
        As :func:`joint_torque_regressor`.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon.identification import parameters, static_regressor
    >>> arm = es.zoo.load("planar2")
    >>> Ys = static_regressor(arm, [0.3, -0.4])
    >>> bool(np.allclose(Ys @ parameters(arm), es.gravity_torques(arm, [0.3, -0.4])))
    True
    """
    q = np.asarray(q, dtype=float)
    zeros = np.zeros(q.shape[:-1] + (model.nv,))
    return joint_torque_regressor(model, q, zeros, zeros)


# one plain float64 state straight into the C entry (eslabon._engine.entrypoints); a
# batch, other types, mimic joints or a refused state take the function above
_plain, _extended, _cols, _squares = _entrypoints.entry_pair(
    "eslabon.dynamics.regressor_kernel", "regressor_entry"
)
joint_torque_regressor = _entrypoints.public(
    joint_torque_regressor,
    _plain,
    3,
    (9,),  # (nv, p): p kept as packed_regressor's last value
    Model,
    _extended,
    _cols,
    _squares,
    packed="packed_regressor",
)
