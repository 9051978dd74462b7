"""How each compiled dynamics algorithm is called for one state: from Python, in one
lean call.

The algorithm modules (:mod:`.rnea`, :mod:`.composite_rigid_body`, :mod:`.aba`,
:mod:`.cholesky_forward_dynamics`, :mod:`.derivatives`, :mod:`.coriolis`, :mod:`.energy`)
hold only their kernels
(``*_into``: one state, or one block of lanes, into workspaces and outputs given by the
caller) under their source equations. The ways of driving them for one state live here
(those of the derivatives and the linearization in :mod:`.derivative_drivers`, built the
same way); their batches in :mod:`.batch_drivers` and :mod:`.derivative_batches`:

- ``*_one`` — one state from the general path: Python, allocates the workspace and calls
  the kernel, so that it shares the kernel's compiled code with the C entries;
- ``*_call`` — one state with its lengths checked: allocates, runs the kernel; its C
  entry point ``*_entry`` (:mod:`eslabon._engine.fastcall`: one C signature, a wide one
  for three or more outputs) runs it, inlined where the entry is its only caller.

Every driver takes the joint set ``extended`` last (None or
:data:`~eslabon._engine.joints.EXTENDED`: :func:`~eslabon._engine.joints.extended_of`
the model); each C entry has a twin ``*_entry_extended`` for models that need the
extended set, and the C side calls the one the packed header asks for.

Every function returns a status of :mod:`eslabon._engine.status` (a batch: the worst of
its states). Shapes: q, q̇, q̈, τ (n,) or (N, n); matrices (n, n) or (N, n, n); P the
packed model (:mod:`eslabon._engine.layout`).
"""

from __future__ import annotations

import numpy as np
from numba import carray, njit

from .._engine.compile import lazy_cfunc, subject
from .._engine.fastcall import SIGNATURE, entry_status, packed_model, scratch
from .._engine.fastcall import finite as _finite
from .._engine.fastcall import units_ok as _units_ok
from .._engine.joints import extended_set
from .._engine.layout import H_NB, H_NQ, H_NV
from .._engine.outward_pass import WS_COLS
from .._engine.status import NON_FINITE, NOT_UNIT, WRONG_SHAPE
from . import aba, composite_rigid_body, coriolis
from .aba import aba_into
from .cholesky_forward_dynamics import fd_into
from .composite_rigid_body import crba_into, ne_columns_into
from .coriolis import coriolis_into
from .energy import energy_into
from .rnea import rnea_into


@njit(cache=True, inline="always")
def _rows(P):
    return int(P[H_NB]) + 1


@njit(cache=True, inline="always")
def _lengths_ok(P, q, b, c, d):
    """q has nq entries; b, c, d nv."""
    n = int(P[H_NV])
    return q.shape[0] == int(P[H_NQ]) and b.shape[0] == n and c.shape[0] == n and d.shape[0] == n


@njit(cache=True, inline="always")
def _square_ok(P, A):
    n = int(P[H_NV])
    return A.shape[0] == n and A.shape[1] == n


# --- Newton–Euler: τ, bias, gravity (:mod:`.rnea`) ---------------------------------------


def workspace(P, cols: int) -> np.ndarray:
    """An (nb + 1, cols) workspace for the packed model ``P`` (from Python)."""
    return np.empty((int(P[H_NB]) + 1, cols))


# The ``*_one`` functions of the general path are Python: they allocate the workspace and
# call the kernel itself (``*_into``), the same compiled kernel the C entries and the
# batches link, so that the general path compiles nothing of its own.


def rnea_one(P, q, qd, qdd, gscale, fext, tau, extended):
    return rnea_into(P, q, qd, qdd, gscale, fext, workspace(P, WS_COLS), tau, extended)


@njit(cache=True)
def rnea_trace_one(P, q, qd, qdd, gscale, fext, tau, ws, extended):
    """As :func:`rnea_one`, keeping every intermediate quantity in ``ws``."""
    return rnea_into(P, q, qd, qdd, gscale, fext, ws, tau, extended, True)


# The C entries below take their workspace (and a zero vector) from the scratch buffer
# the C side passes after their outputs (fastcall.scratch; SCRATCH_COLS): a call
# allocates nothing.


@njit(cache=True, inline="always")  # one caller each: its C entry
def rnea_call(P, q, qd, qdd, tau, ws, extended):
    if not _lengths_ok(P, q, qd, qdd, tau):
        return WRONG_SHAPE
    if not _units_ok(P, q, extended):
        return NOT_UNIT
    return rnea_into(P, q, qd, qdd, 1.0, None, ws, tau, extended)


@njit(cache=True, inline="always")
def bias_call(P, q, qd, tau, ws, zero, extended):
    if not _lengths_ok(P, q, qd, tau, tau):
        return WRONG_SHAPE
    if not _units_ok(P, q, extended):
        return NOT_UNIT
    return rnea_into(P, q, qd, zero, 1.0, None, ws, tau, extended)


@njit(cache=True, inline="always")
def gravity_call(P, q, tau, ws, zero, extended):
    if not _lengths_ok(P, q, tau, tau, tau):
        return WRONG_SHAPE
    if not _units_ok(P, q, extended):
        return NOT_UNIT
    return rnea_into(P, q, zero, zero, 1.0, None, ws, tau, extended)


@njit(cache=True, inline="always")
def _id_entry(p, a, b, c, o0, o1, extended):
    """(q, q̇, q̈) -> τ."""
    n = int(p[H_NV])
    q = carray(a, int(p[H_NQ]))
    P = packed_model(p)
    ws, _ = scratch(o1, p, WS_COLS)
    return entry_status(rnea_call(P, q, carray(b, n), carray(c, n), carray(o0, n), ws, extended))


@lazy_cfunc(SIGNATURE, "inverse dynamics")
def inverse_dynamics_entry(p, a, b, c, o0, o1, o2):
    return _id_entry(p, a, b, c, o0, o1, None)


@lazy_cfunc(SIGNATURE, "inverse dynamics (helical and ball joints)")
def inverse_dynamics_entry_extended(p, a, b, c, o0, o1, o2):
    return _id_entry(p, a, b, c, o0, o1, extended_set())


@njit(cache=True, inline="always")
def _bias_entry(p, a, b, o0, o1, extended):
    """(q, q̇) -> NE(q, q̇, 0)."""
    n = int(p[H_NV])
    q = carray(a, int(p[H_NQ]))
    ws, zero = scratch(o1, p, WS_COLS)
    return entry_status(
        bias_call(packed_model(p), q, carray(b, n), carray(o0, n), ws, zero, extended)
    )


@lazy_cfunc(SIGNATURE, "bias forces")
def bias_forces_entry(p, a, b, c, o0, o1, o2):
    return _bias_entry(p, a, b, o0, o1, None)


@lazy_cfunc(SIGNATURE, "bias forces (helical and ball joints)")
def bias_forces_entry_extended(p, a, b, c, o0, o1, o2):
    return _bias_entry(p, a, b, o0, o1, extended_set())


@njit(cache=True, inline="always")
def _gravity_entry(p, a, o0, o1, extended):
    """q -> NE(q, 0, 0)."""
    q = carray(a, int(p[H_NQ]))
    ws, zero = scratch(o1, p, WS_COLS)
    tau = carray(o0, int(p[H_NV]))
    return entry_status(gravity_call(packed_model(p), q, tau, ws, zero, extended))


@lazy_cfunc(SIGNATURE, "gravity torques")
def gravity_torques_entry(p, a, b, c, o0, o1, o2):
    return _gravity_entry(p, a, o0, o1, None)


@lazy_cfunc(SIGNATURE, "gravity torques (helical and ball joints)")
def gravity_torques_entry_extended(p, a, b, c, o0, o1, o2):
    return _gravity_entry(p, a, o0, o1, extended_set())


# --- mass matrix: composite body and Newton–Euler columns (:mod:`.composite_rigid_body`) ----------


def crba_one(P, q, H, extended):
    return crba_into(P, q, workspace(P, composite_rigid_body.COLS), H, extended)


@njit(cache=True, inline="always")
def crba_call(P, q, H, cw, extended):
    if not (q.shape[0] == int(P[H_NQ]) and _square_ok(P, H)):
        return WRONG_SHAPE
    if not _units_ok(P, q, extended):
        return NOT_UNIT
    if not _finite(q):  # M does not depend on every q (e.g. the first joint's)
        return NON_FINITE
    return crba_into(P, q, cw, H, extended)


@njit(cache=True, inline="always")
def _mass_matrix_entry(p, a, o0, o1, extended):
    """q -> M."""
    n = int(p[H_NV])
    q = carray(a, int(p[H_NQ]))
    cw, _ = scratch(o1, p, composite_rigid_body.COLS)
    return entry_status(crba_call(packed_model(p), q, carray(o0, (n, n)), cw, extended))


@lazy_cfunc(SIGNATURE, "mass matrix")
def mass_matrix_entry(p, a, b, c, o0, o1, o2):
    return _mass_matrix_entry(p, a, o0, o1, None)


@lazy_cfunc(SIGNATURE, "mass matrix (helical and ball joints)")
def mass_matrix_entry_extended(p, a, b, c, o0, o1, o2):
    return _mass_matrix_entry(p, a, o0, o1, extended_set())


def ne_columns_one(P, q, H, extended):
    nq = int(P[H_NV])
    z, unit, col = np.zeros(nq), np.zeros(nq), np.empty(nq)
    return ne_columns_into(P, q, workspace(P, WS_COLS), z, unit, col, H, extended)


# --- forward dynamics: articulated body (:mod:`.aba`), mass matrix and Cholesky ----------


@njit(cache=True, inline="always")
def _aba_checked(P, q, qd, tau, qdd, ws, extended):
    if not _lengths_ok(P, q, qd, tau, qdd):
        return WRONG_SHAPE
    if not _units_ok(P, q, extended):
        return NOT_UNIT
    return aba_into(P, q, qd, tau, ws, qdd, extended)


@njit(cache=True)
def aba_call(P, q, qd, tau, qdd, extended):
    return _aba_checked(P, q, qd, tau, qdd, np.empty((_rows(P), aba.COLS)), extended)


def aba_one(P, q, qd, tau, qdd, extended):
    """q̈ of one state checked by the general path (lengths, unit quaternions)."""
    return aba_into(P, q, qd, tau, workspace(P, aba.COLS), qdd, extended)


@njit(cache=True, inline="always")
def _fd_entry(p, a, b, c, o0, o1, extended):
    """(q, q̇, τ) -> q̈."""
    n = int(p[H_NV])
    q = carray(a, int(p[H_NQ]))
    P = packed_model(p)
    ws, _ = scratch(o1, p, aba.COLS)
    return entry_status(_aba_checked(P, q, carray(b, n), carray(c, n), carray(o0, n), ws, extended))


@lazy_cfunc(SIGNATURE, "forward dynamics")
def forward_dynamics_entry(p, a, b, c, o0, o1, o2):
    return _fd_entry(p, a, b, c, o0, o1, None)


@lazy_cfunc(SIGNATURE, "forward dynamics (helical and ball joints)")
def forward_dynamics_entry_extended(p, a, b, c, o0, o1, o2):
    return _fd_entry(p, a, b, c, o0, o1, extended_set())


# the workspace columns each entry's scratch buffer holds (fastcall.public's scratch_cols)
SCRATCH_COLS = {
    "inverse_dynamics_entry": WS_COLS,
    "bias_forces_entry": WS_COLS,
    "gravity_torques_entry": WS_COLS,
    "mass_matrix_entry": composite_rigid_body.COLS,
    "forward_dynamics_entry": aba.COLS,
}


def fd_one(P, q, qd, tau, method, out, extended):
    nq = int(P[H_NV])
    ws, cw = workspace(P, WS_COLS), workspace(P, composite_rigid_body.COLS)
    H, zero, unit, col = np.empty((nq, nq)), np.zeros(nq), np.zeros(nq), np.empty(nq)
    return fd_into(P, q, qd, tau, method, ws, cw, H, zero, unit, col, out, extended)


# --- Coriolis matrix and energies (:mod:`.coriolis`, :mod:`.energy`) ----------------------


def coriolis_one(P, q, qd, C, extended):
    return coriolis_into(P, q, qd, workspace(P, coriolis.COLS), C, extended)


def energy_one(P, q, qd, out, extended):
    return energy_into(P, q, qd, workspace(P, WS_COLS), out, extended)


# what the compile notice calls each kernel the general path calls from Python
subject("Newton–Euler dynamics", rnea_into)
subject("the Newton–Euler trace", rnea_trace_one)
subject("the mass matrix (composite body)", crba_into)
subject("the mass matrix (Newton–Euler columns)", ne_columns_into)
subject("forward dynamics (articulated body)", aba_call, aba_into)
subject("forward dynamics (mass matrix and Cholesky)", fd_into)
subject("the Coriolis matrix", coriolis_into)
subject("energies", energy_into)
