"""Drivers of the analytic derivatives and the linearization (:mod:`.derivatives`) for
one state: the per-call entries (C-level, :mod:`eslabon._engine.fastcall`) and the
one-state calls (a model with spherical or free-flyer joints has its derivatives taken
into the tangent space by :mod:`eslabon._engine.joint_tangent`), as
:mod:`eslabon.dynamics.drivers` does for
Newton–Euler, the mass matrix and the articulated-body algorithm; its shape checks are
shared. Their batches: :mod:`.derivative_batches`."""

from __future__ import annotations

import numpy as np
from numba import carray, njit

from .._engine.argtypes import as_argument
from .._engine.compile import lazy_cfunc, subject
from .._engine.fastcall import SIGNATURE, WIDE_SIGNATURE, entry_status, packed_model, squares
from .._engine.joint_tangent import (
    TANGENT_WORK,
    chain_acceleration_into,
    drift_into,
    tangent_derivatives_into,
)
from .._engine.joints import extended_set
from .._engine.layout import H_NB, H_NQ, H_NV
from .._engine.outward_pass import WS_COLS
from .._engine.status import NON_FINITE, NOT_UNIT, OK, WRONG_SHAPE
from . import aba, derivatives
from .aba import aba_into
from .cholesky_forward_dynamics import spd_inverse
from .derivatives import (
    _times_into,
    fd_derivatives_into,
    linearization_into,
    rnea_derivatives_into,
    state_space_into,
)
from .drivers import _lengths_ok, _rows, _square_ok, _units_ok
from .rnea import rnea_into

# the workspace columns of the C entries' scratch, and its (n, n) blocks after the
# workspace and the (n,) vector (eslabon._engine.fastcall.squares)
SCRATCH_COLS = {"fd_derivatives_entry": derivatives.COLS, "linearize_entry": derivatives.COLS}
SCRATCH_SQUARES = {"fd_derivatives_entry": 3, "linearize_entry": 1}


# --- quaternion joints: the derivatives in the tangent space (_engine.joint_tangent) ---


@njit(cache=True, inline="always")
def tangent_buffers(P):
    """The workspaces of :func:`tangent_id_derivatives_into` for one state: the derivative
    pass's, Newton–Euler's, a_c and τ (nv,), and the chain rule's scratch."""
    n = int(P[H_NV])
    return (
        np.empty((_rows(P), derivatives.COLS)),
        np.empty((_rows(P), WS_COLS)),
        np.empty(n),
        np.empty(n),
        np.empty(TANGENT_WORK),
    )


@njit(cache=True, inline="always")
def fd_buffers(P):
    """The further workspaces of :func:`tangent_fd_derivatives_into`: the articulated-body
    algorithm's, q̈ (nv,) and three (nv, nv) blocks."""
    n = int(P[H_NV])
    return (
        np.empty((_rows(P), aba.COLS)),
        np.empty(n),
        np.empty((n, n)),
        np.empty((n, n)),
        np.empty((n, n)),
    )


@njit(cache=True)
def tangent_id_derivatives_into(P, q, qd, qdd, dq, dv, M, buffers, extended):
    """(∂τ/∂q, ∂τ/∂v) and M of one state of a model with spherical or free-flyer joints:
    the derivative kernel on the chain of rows at a_c = a + c(v), then the chain rule
    (:func:`eslabon._engine.joint_tangent.tangent_derivatives_into`); ``buffers`` from
    :func:`tangent_buffers`.
    Status OK or NON_FINITE."""
    ws, ws_ne, ac, tau, work = buffers
    chain_acceleration_into(P, qd, qdd, ac)
    if rnea_derivatives_into(P, q, qd, ac, ws, dq, dv, M, extended) != OK:
        return NON_FINITE
    if rnea_into(P, q, qd, qdd, 1.0, None, ws_ne, tau, extended) != OK:
        return NON_FINITE
    tangent_derivatives_into(P, qd, qdd, tau, M, dq, dv, ac, work)
    return OK


@njit(cache=True)
def tangent_fd_derivatives_into(P, q, qd, tau, dq, dv, Minv, buffers, more, extended):
    """(∂q̈/∂q, ∂q̈/∂v, M⁻¹) of one state of a model with spherical or free-flyer joints:
    q̈ by the articulated-body algorithm, then ∂q̈/∂x = −M⁻¹ ∂τ/∂x at that q̈ (Carpentier
    and Mansard (2018), eq. 26) with ∂τ/∂x in the tangent space; ``buffers`` from
    :func:`tangent_buffers`, ``more`` from :func:`fd_buffers`. Status OK, NON_FINITE or
    NOT_POSITIVE_DEFINITE."""
    n = int(P[H_NV])
    ws_aba, qdd, W, V, M = more
    st = aba_into(P, q, qd, tau, ws_aba, qdd, extended)
    if st != OK:
        return st
    st = tangent_id_derivatives_into(P, q, qd, qdd, W, V, M, buffers, extended)
    if st != OK:
        return st
    st = spd_inverse(M, Minv, n)
    if st != OK:
        return st
    top = as_argument(0)  # int64 as the other calls' offsets: one compiled _times_into
    _times_into(Minv, W, dq, n, -1.0, top, top)
    _times_into(Minv, V, dv, n, -1.0, top, top)
    return OK


@njit(cache=True)
def tangent_linearization_into(P, q, qd, qdd, W, V, M, L, Minv, A, B, buffers, extended):
    """:func:`.derivatives.linearization_into` for a model with spherical or free-flyer
    joints: W, V in the tangent space, and −ad(v̄) in A's upper-left block (the state's
    motion on the manifold, :func:`eslabon._engine.joint_tangent.drift_into`)."""
    if tangent_id_derivatives_into(P, q, qd, qdd, W, V, M, buffers, extended) != OK:
        return NON_FINITE
    st = state_space_into(W, V, M, L, Minv, A, B)
    if st == OK:
        drift_into(P, qd, A)
    return st


# --- analytic derivatives (:mod:`.derivatives`) -------------------------------------------


@njit(cache=True)
def id_derivatives_call(P, q, qd, qdd, dq, dv, extended):
    n = int(P[H_NV])
    if not (_lengths_ok(P, q, qd, qdd, dq) and _square_ok(P, dq) and _square_ok(P, dv)):
        return WRONG_SHAPE
    M = np.empty((n, n))
    if extended is not None:  # (quaternion joints are in the extended set only)
        if int(P[H_NQ]) != int(P[H_NV]):
            if not _units_ok(P, q, extended):  # the general path names the joint
                return NOT_UNIT
            buffers = tangent_buffers(P)
            return tangent_id_derivatives_into(P, q, qd, qdd, dq, dv, M, buffers, extended)
    ws = np.empty((_rows(P), derivatives.COLS))
    return rnea_derivatives_into(P, q, qd, qdd, ws, dq, dv, M, extended)


@njit(cache=True, inline="always")
def _id_derivatives_entry(p, a, b, c, o0, o1, extended):
    """(q, q̇, q̈) -> (∂τ/∂q, ∂τ/∂q̇)."""
    n = int(p[H_NV])
    q = carray(a, int(p[H_NQ]))
    qd, qdd, dq, dv = carray(b, n), carray(c, n), carray(o0, (n, n)), carray(o1, (n, n))
    return entry_status(id_derivatives_call(packed_model(p), q, qd, qdd, dq, dv, extended))


@lazy_cfunc(SIGNATURE, "inverse dynamics derivatives")
def id_derivatives_entry(p, a, b, c, o0, o1, o2):
    return _id_derivatives_entry(p, a, b, c, o0, o1, None)


@lazy_cfunc(SIGNATURE, "inverse dynamics derivatives (helical and ball joints)")
def id_derivatives_entry_extended(p, a, b, c, o0, o1, o2):
    return _id_derivatives_entry(p, a, b, c, o0, o1, extended_set())


@njit(cache=True, inline="always")
def _fd_derivatives_checked(P, q, qd, tau, dq, dv, Minv, ws, qdd, W, V, L, extended):
    """The forward dynamics derivatives of one state, its lengths checked, into the
    workspaces given (``ws``, q̈ (nv,), W, V, L (nv, nv)): inlined into the C entry (a
    call would pass its thirteen arrays field by field: 3–4 % of a 7-DOF call) and into
    :func:`fd_derivatives_checked`."""
    if not (
        _lengths_ok(P, q, qd, tau, dq)
        and _square_ok(P, dq)
        and _square_ok(P, dv)
        and _square_ok(P, Minv)
    ):
        return WRONG_SHAPE
    if extended is not None:  # (quaternion joints are in the extended set only)
        if int(P[H_NQ]) != int(P[H_NV]):
            if not _units_ok(P, q, extended):  # the general path names the joint
                return NOT_UNIT
            buffers, more = tangent_buffers(P), fd_buffers(P)
            return tangent_fd_derivatives_into(P, q, qd, tau, dq, dv, Minv, buffers, more, extended)
    return fd_derivatives_into(P, q, qd, tau, ws, qdd, W, V, L, dq, dv, Minv, extended)


@njit(cache=True)
def fd_derivatives_checked(P, q, qd, tau, dq, dv, Minv, ws, qdd, W, V, L, extended):
    """:func:`_fd_derivatives_checked`, compiled for the general path."""
    return _fd_derivatives_checked(P, q, qd, tau, dq, dv, Minv, ws, qdd, W, V, L, extended)


def fd_derivatives_call(P, q, qd, tau, dq, dv, Minv, extended):
    """The general path's call (Python): workspaces, then the compiled kernel."""
    n = int(P[H_NV])
    ws, qdd = np.empty((int(P[H_NB]) + 1, derivatives.COLS)), np.empty(n)
    W, V, L = np.empty((n, n)), np.empty((n, n)), np.empty((n, n))
    return fd_derivatives_checked(P, q, qd, tau, dq, dv, Minv, ws, qdd, W, V, L, extended)


@njit(cache=True, inline="always")
def _fd_derivatives_entry(p, a, b, c, o0, o1, o2, w, extended):
    """(q, q̇, τ) -> (∂q̈/∂q, ∂q̈/∂q̇, M⁻¹); ``w`` the scratch (three (n, n) blocks)."""
    n = int(p[H_NV])
    q = carray(a, int(p[H_NQ]))
    qd, tau = carray(b, n), carray(c, n)
    dq, dv, Minv = carray(o0, (n, n)), carray(o1, (n, n)), carray(o2, (n, n))
    ws, qdd, blocks = squares(w, p, derivatives.COLS, 3)
    return entry_status(
        _fd_derivatives_checked(
            packed_model(p),
            q,
            qd,
            tau,
            dq,
            dv,
            Minv,
            ws,
            qdd,
            blocks[0],
            blocks[1],
            blocks[2],
            extended,
        )
    )


@lazy_cfunc(WIDE_SIGNATURE, "forward dynamics derivatives")
def fd_derivatives_entry(p, a, b, c, o0, o1, o2, o3, o4, o5, w):
    return _fd_derivatives_entry(p, a, b, c, o0, o1, o2, w, None)


@lazy_cfunc(WIDE_SIGNATURE, "forward dynamics derivatives (helical and ball joints)")
def fd_derivatives_entry_extended(p, a, b, c, o0, o1, o2, o3, o4, o5, w):
    return _fd_derivatives_entry(p, a, b, c, o0, o1, o2, w, extended_set())


# --- linearization (:func:`.derivatives.linearization_into`) ------------------------------


@njit(cache=True, inline="always")
def _linearize_checked(P, q, qd, qdd, W, V, M, L, Minv, A, B, ws, extended):
    """The linearization of one state into the workspaces given (``ws``; L (nv, nv)),
    in the tangent space for quaternion joints: inlined into the C entry (a call would
    pass its eleven arrays field by field) and into :func:`linearize_checked`."""
    if extended is not None:  # (quaternion joints are in the extended set only)
        if int(P[H_NQ]) != int(P[H_NV]):  # the tangent space
            buffers = tangent_buffers(P)
            return tangent_linearization_into(
                P, q, qd, qdd, W, V, M, L, Minv, A, B, buffers, extended
            )
    return linearization_into(P, q, qd, qdd, ws, W, V, M, L, Minv, A, B, extended)


@njit(cache=True)
def linearize_checked(P, q, qd, qdd, W, V, M, L, Minv, A, B, ws, extended):
    """:func:`_linearize_checked`, compiled for the general path."""
    return _linearize_checked(P, q, qd, qdd, W, V, M, L, Minv, A, B, ws, extended)


def linearize_one(P, q, qd, qdd, W, V, M, Minv, A, B, extended):
    """The general path's call (Python): workspaces, then the compiled kernel."""
    L = np.empty((int(P[H_NV]), int(P[H_NV])))
    ws = np.empty((int(P[H_NB]) + 1, derivatives.COLS))
    return linearize_checked(P, q, qd, qdd, W, V, M, L, Minv, A, B, ws, extended)


@njit(cache=True, inline="always")
def _linearize_entry(p, a, b, c, o0, o1, o2, o3, o4, o5, w, extended):
    """(q, q̇, q̈) -> (U, V, W, A, B, M⁻¹), the fields of
    :class:`eslabon.control.Linearization`; ``w`` the scratch (one (n, n) block)."""
    n = int(p[H_NV])
    P = packed_model(p)
    q = carray(a, int(p[H_NQ]))
    qd, qdd = carray(b, n), carray(c, n)
    U, V, W = carray(o0, (n, n)), carray(o1, (n, n)), carray(o2, (n, n))
    A, B, Minv = carray(o3, (2 * n, 2 * n)), carray(o4, (2 * n, n)), carray(o5, (n, n))
    ws, _, blocks = squares(w, p, derivatives.COLS, 1)
    if extended is not None:  # (quaternion joints are in the extended set only)
        if int(p[H_NQ]) != n and not _units_ok(P, q, extended):  # the general path
            return NOT_UNIT  # names the joint
    return entry_status(
        _linearize_checked(P, q, qd, qdd, W, V, U, blocks[0], Minv, A, B, ws, extended)
    )


@lazy_cfunc(WIDE_SIGNATURE, "linearization")
def linearize_entry(p, a, b, c, o0, o1, o2, o3, o4, o5, w):
    return _linearize_entry(p, a, b, c, o0, o1, o2, o3, o4, o5, w, None)


@lazy_cfunc(WIDE_SIGNATURE, "linearization (helical and ball joints)")
def linearize_entry_extended(p, a, b, c, o0, o1, o2, o3, o4, o5, w):
    return _linearize_entry(p, a, b, c, o0, o1, o2, o3, o4, o5, w, extended_set())


subject("inverse dynamics derivatives", id_derivatives_call)
subject("forward dynamics derivatives", fd_derivatives_checked)
subject("the linearization", linearize_checked)
