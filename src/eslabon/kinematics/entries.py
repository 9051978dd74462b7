"""The C entries of the kinematics of one named frame: one state straight from Python.

:func:`eslabon.jacobian` and :func:`eslabon.kinematics.frame_pose` of a float64 (nq,)
configuration run one of these through the C extension (:mod:`eslabon._engine.entrypoints`,
``frames``): it passes the packed model ``model.packed`` (every body, fixed ones too), q,
the frame's entry of ``model.frame_placements`` (the packed row of its body, then its
placement on it: rotation row-major (9), origin (3); :func:`.kinematic_pass.frame_entry`)
and, for the Jacobian, 1.0 for the frame's own axes, 0.0 for the world's. Each entry runs
the same kernels as the general path's one-state driver (:func:`.drivers.jacobian_one`,
:func:`.drivers.poses_one` with :func:`.drivers.frame_pose_into`), so both give the same
bits, and refuses what the general path would refuse, which then explains it: a
non-finite q, a quaternion not of unit length, a non-finite result.
"""

from __future__ import annotations

from numba import carray, njit

from .._engine.compile import lazy_cfunc
from .._engine.fastcall import SIGNATURE, entry_status, finite, packed_model, scratch, units_ok
from .._engine.joints import extended_set
from .._engine.layout import H_NB, H_NQ, H_NV
from .._engine.outward_pass import WS_COLS, forward_pass
from .._engine.status import NON_FINITE, NOT_UNIT, OK, WRONG_SHAPE
from .drivers import frame_pose_into, poses_finite
from .frame_jacobian import frame_jacobian_into


@njit(cache=True, inline="always")
def _checked_pass(P, q, zeros, frame, ws, extended, path_to):
    """The pass of poses at q after the checks of the general path: OK, or the status
    that sends the call there (non-finite q, a quaternion not of unit length, a row
    outside the packed model). ``path_to``: None, or the frame's row, for the rows from
    the root to it alone (:func:`~eslabon._engine.outward_pass.forward_pass`)."""
    if not finite(q):
        return NON_FINITE
    if not units_ok(P, q, extended):
        return NOT_UNIT
    row = frame[0]
    if not (row >= 0.0 and row <= P[H_NB]):
        return WRONG_SHAPE
    forward_pass(P, q, zeros, zeros, 0.0, ws, extended, poses_only=True, path_to=path_to)
    return OK


@njit(cache=True, inline="always")
def _jacobian_entry(p, a, b, c, o0, o1, extended):
    """q, the frame's entry (13,), local (1,) -> J (6, nv)."""
    P = packed_model(p)
    q, frame = carray(a, int(p[H_NQ])), carray(b, 13)
    ws, zeros = scratch(o1, p, WS_COLS)
    status = _checked_pass(P, q, zeros, frame, ws, extended, int(frame[0]))
    if status != OK:
        return status
    J = carray(o0, (6, int(p[H_NV])))
    return entry_status(
        frame_jacobian_into(P, ws, int(frame[0]), frame[1:], c[0] != 0.0, J, extended)
    )


@lazy_cfunc(SIGNATURE, "the frame Jacobian")
def jacobian_entry(p, a, b, c, o0, o1, o2):
    return _jacobian_entry(p, a, b, c, o0, o1, None)


@lazy_cfunc(SIGNATURE, "the frame Jacobian (helical and ball joints)")
def jacobian_entry_extended(p, a, b, c, o0, o1, o2):
    return _jacobian_entry(p, a, b, c, o0, o1, extended_set())


@njit(cache=True, inline="always")
def _frame_pose_entry(p, a, b, o0, o1, extended):
    """q, the frame's entry (13,) -> W_T_F (4, 4)."""
    P = packed_model(p)
    q, frame = carray(a, int(p[H_NQ])), carray(b, 13)
    ws, zeros = scratch(o1, p, WS_COLS)
    status = _checked_pass(P, q, zeros, frame, ws, extended, None)
    if status != OK:
        return status
    if not poses_finite(ws):  # the general path checks every body's pose
        return NON_FINITE
    frame_pose_into(ws, int(frame[0]), frame[1:], carray(o0, (4, 4)))
    return entry_status(OK)


@lazy_cfunc(SIGNATURE, "a frame's pose")
def frame_pose_entry(p, a, b, c, o0, o1, o2):
    return _frame_pose_entry(p, a, b, o0, o1, None)


@lazy_cfunc(SIGNATURE, "a frame's pose (helical and ball joints)")
def frame_pose_entry_extended(p, a, b, c, o0, o1, o2):
    return _frame_pose_entry(p, a, b, o0, o1, extended_set())


# the workspace columns each entry's scratch buffer holds (fastcall.public's scratch_cols)
SCRATCH_COLS = {"jacobian_entry": WS_COLS, "frame_pose_entry": WS_COLS}
