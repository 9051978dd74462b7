"""The geometric Jacobian of a frame, compiled for one state or a lanes block.

For the rate of each joint row j on the path from the frame's body to the root, with z_j
= W_R_j · a_j the row's axis in world axes, p_j its origin and p_f the frame's origin
(Siciliano, Sciavicco, Villani & Oriolo, *Robotics: Modelling, Planning and Control*,
2009, §3.1.3, eq. 3.30; docs/conventions.md for the row order):

    revolute   [z_j; z_j × (p_f − p_j)]
    prismatic  [0;   z_j]
    helical    [z_j; z_j × (p_f − p_j) + h_j z_j]      (h_j the pitch, m/rad)

and zero for every rate off that path. With ``local`` both blocks are expressed in the
frame's own axes, W_R_fᵀ J. The poses are those of the kinematic pass
(:func:`eslabon._engine.outward_pass.forward_pass`), read from its workspace.
Generic over lanes (:mod:`eslabon._engine.lanes`): ``ws`` (rows, WS_COLS[, WIDTH]) and
``J`` (6, nv[, WIDTH]).
"""

from __future__ import annotations

from numba import njit

from .._engine.joints import joint, point_axis
from .._engine.lanes import all_finite, clear, g3, g9, like, s1
from .._engine.layout import H_NV
from .._engine.outward_pass import WS_PW, WS_RW
from .._engine.record import parent, rate_index, row_offset
from .._engine.status import NON_FINITE, OK
from .._engine.tuples import add, m9, mm, mtv, mv, v3


@njit(cache=True)
def frame_jacobian_into(P, ws, row, frame, local, J, extended):
    """J (6, nv) of the frame placed in packed row ``row`` at ``frame`` (12,): its
    rotation in the row's body (row-major, 9) then its origin (3); from the kinematic
    workspace ``ws`` of the same state; ``local`` True for the frame's own axes. Rows
    [angular; linear]. Status OK, or NON_FINITE when the sum of the columns is not
    finite (for lanes: in any lane)."""
    Rb = g9(ws, row, WS_RW)
    point = add(g3(ws, row, WS_PW), mv(Rb, v3(frame, 9)))
    Rf = mm(Rb, m9(frame, 0))
    for a in range(6):
        clear(J, a, 0, int(P[H_NV]))
    total = like(0.0, Rb[0])
    r = row
    while r > 0:
        o = row_offset(r)
        k = rate_index(P, o)
        if k >= 0:
            ang, lin = point_axis(joint(P, o), g9(ws, r, WS_RW), g3(ws, r, WS_PW), point, extended)
            if local:
                ang = mtv(Rf, ang)
                lin = mtv(Rf, lin)
            for a in range(3):
                s1(J, a, k, ang[a])
                s1(J, 3 + a, k, lin[a])
                total = total + ang[a] + lin[a]
        r = parent(P, o)
    return OK if all_finite(total) else NON_FINITE
