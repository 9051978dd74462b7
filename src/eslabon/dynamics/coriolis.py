"""A Coriolis matrix C(q, q̇) with C q̇ = the velocity-product torques and Ṁ − 2C skew.

Built in world coordinates from the body Jacobians (Echeandia & Wensing 2021, the
spatial form of the Christoffel construction). With J_b the 6×n world Jacobian of body b
(columns S_k = the world motion axis of each ancestor joint), J̇_b columns V_k × S_k, M_b
the body's 6×6 spatial inertia about the world origin and V_b its spatial velocity:

    C = Σ_b J_bᵀ (M_b J̇_b + B_b J_b),      B_b = ½ (V_b×* M_b − M_b V_b× + (M_b V_b)×̄)

where h×̄ is the matrix with V×* h = (h×̄) V. Then C q̇ = Σ J_bᵀ(M_b J̇_b q̇ + V_b×* M_b V_b)
and Ṁ − 2C = Σ (J̇ᵀMJ − JᵀMJ̇) − Jᵀ (M V)×̄ J, which is skew-symmetric.
Spatial vectors are [angular; linear]. Rigid links only (no seed-001 sliding COM).

Entry by entry, without forming a 6×6 matrix: for ancestor joints a and c of body b,
C_ac gets S_aᵀ X_c with X_c = (M_b J̇_b + B_b J_b) e_c, i.e.

    X_c = M_b (Ṡ_c − ½ V_b × S_c) + ½ (V_b ×* (M_b S_c) + S_c ×* h_b),    h_b = M_b V_b,

and M_b applied to x = [x_n; x_f] as [I_c x_n + c × f; f] with f = m (x_f + x_n × c)
(I_c the rotational inertia about the COM c, in world axes).

A spherical or free-flyer joint is a short chain of rows in the kernels
(:func:`eslabon._engine.layout.joint_rows`) whose axes are all fixed in the joint's body:
every column of such a joint turns with the body, S_k̇ = V_body × S_k, not with the
velocity its row would have in the chain (which lacks the rates of the rows after it).
With that J̇, the same C gives C v = the velocity-product torques and Ṁ − 2C skew in the
tangent space (v the joints' rates in body axes).

One state, or a block of :data:`~eslabon._engine.lanes.WIDTH` states in lanes
(:mod:`eslabon._engine.lanes`): q, q̇ (n,) or (n, WIDTH), the workspace (rows, COLS) or
(rows, COLS, WIDTH), C (n, n) or (n, n, WIDTH).
"""

from __future__ import annotations

from numba import njit

from .._engine.joints import joint, joint_last_row, world_axis
from .._engine.lanes import all_finite, g1, g3, g6, g9, s1, s6, zero_of
from .._engine.layout import (
    H_NB,
    H_NV,
    INERTIA,
    MASS,
)
from .._engine.outward_pass import WS_C, WS_COLS, WS_PW, WS_RW, WS_V, WS_W, forward_pass
from .._engine.record import parent, rate_index, row_offset
from .._engine.status import NON_FINITE, OK
from .._engine.tracing import tuple_function
from .._engine.tuples import add, cross, dot, m9, mv, rotate_s6, scale, smv, sub, sym6

# workspace columns after the kinematic ones (world coordinates, [angular; linear]):
# each row's spatial velocity V, its joint's motion axis S and the rate Ṡ of that axis
_V, _S, _SD = WS_COLS, WS_COLS + 6, WS_COLS + 12
COLS = WS_COLS + 18


@tuple_function
def _inertia_times(Ic, m, c, xn, xf):
    """M x for the spatial inertia about the world origin of a body of mass m, COM c and
    rotational inertia Ic about it (a symmetric 6-tuple): (Ic xn + c × f, f),
    f = m (xf + xn × c)."""
    f = scale(m, add(xf, cross(xn, c)))
    return add(smv(Ic, xn), cross(c, f)), f


@tuple_function
def _motion_cross(w, v, xn, xf):
    """V × x of motion vectors, V = [w; v]."""
    return cross(w, xn), add(cross(w, xf), cross(v, xn))


@tuple_function
def _force_cross(w, v, n, f):
    """V ×* h of a motion V = [w; v] and a force h = [n; f]."""
    return add(cross(w, n), cross(v, f)), cross(w, f)


@tuple_function
def _christoffel_column(Ic, m, c, w, v, hn, hf, sn, sf, sdn, sdf):
    """X_c = M (Ṡ − ½ V × S) + ½ (V ×* (M S) + S ×* h) of body (Ic, m, c) at velocity
    V = [w; v] with momentum h = [hn; hf], for a column S = [sn; sf], Ṡ = [sdn; sdf]."""
    an, af = _motion_cross(w, v, sn, sf)
    yn, yf = _inertia_times(Ic, m, c, sub(sdn, scale(0.5, an)), sub(sdf, scale(0.5, af)))
    pn, pf = _inertia_times(Ic, m, c, sn, sf)
    qn, qf = _force_cross(w, v, pn, pf)
    rn, rf = _force_cross(sn, sf, hn, hf)
    return add(yn, scale(0.5, add(qn, rn))), add(yf, scale(0.5, add(qf, rf)))


@njit(cache=True)
def coriolis_into(P, q, qd, ws, C, extended):
    """C(q, q̇) into ``C``; ``ws`` a workspace of :data:`COLS` columns (the kinematic
    ones first); ``extended`` the joint set (:mod:`eslabon._engine.joints`). Status OK or
    NON_FINITE (:mod:`eslabon._engine.status`; for lanes, NON_FINITE if any lane is)."""
    nb = int(P[H_NB])
    nq = int(P[H_NV])
    forward_pass(P, q, qd, qd, 0.0, ws, extended)
    # world velocity V per row; world motion axis S and its rate V × S for every joint
    for i in range(1, nb + 1):
        Rw = g9(ws, i, WS_RW)
        w = mv(Rw, g3(ws, i, WS_W))
        v = add(mv(Rw, g3(ws, i, WS_V)), cross(g3(ws, i, WS_PW), w))
        s6(ws, i, _V, (w[0], w[1], w[2], v[0], v[1], v[2]))
    group_end = 0  # the last row (the body) of the quaternion joint being walked
    for i in range(1, nb + 1):
        o = row_offset(i)
        # the row whose velocity turns the axis: a quaternion joint's axes turn with its
        # body, the joint's last row
        group_end = max(group_end, joint_last_row(P, o, i, extended))
        row = max(i, group_end)
        if rate_index(P, o) < 0:
            continue
        V = g6(ws, row, _V)
        w = (V[0], V[1], V[2])
        v = (V[3], V[4], V[5])
        s_ang, s_lin = world_axis(joint(P, o), g9(ws, i, WS_RW), g3(ws, i, WS_PW), extended)
        sd_ang = cross(w, s_ang)
        sd_lin = add(cross(w, s_lin), cross(v, s_ang))
        s6(ws, i, _S, (s_ang[0], s_ang[1], s_ang[2], s_lin[0], s_lin[1], s_lin[2]))
        s6(ws, i, _SD, (sd_ang[0], sd_ang[1], sd_ang[2], sd_lin[0], sd_lin[1], sd_lin[2]))
    C[:] = 0.0
    for b in range(1, nb + 1):
        o = row_offset(b)
        m = P[o + MASS]
        Rw = g9(ws, b, WS_RW)
        c = add(g3(ws, b, WS_PW), mv(Rw, g3(ws, b, WS_C)))
        Ic = rotate_s6(Rw, sym6(m9(P, o + INERTIA)))  # about the COM, world axes
        V = g6(ws, b, _V)
        w = (V[0], V[1], V[2])
        v = (V[3], V[4], V[5])
        hn, hf = _inertia_times(Ic, m, c, w, v)
        # C_ac += S_aᵀ X_c for every pair (a, c) of joints on b's way to the root
        kc = b
        while kc > 0:
            jc = rate_index(P, row_offset(kc))
            if jc >= 0:
                S = g6(ws, kc, _S)
                Sd = g6(ws, kc, _SD)
                xn, xf = _christoffel_column(
                    Ic,
                    m,
                    c,
                    w,
                    v,
                    hn,
                    hf,
                    (S[0], S[1], S[2]),
                    (S[3], S[4], S[5]),
                    (Sd[0], Sd[1], Sd[2]),
                    (Sd[3], Sd[4], Sd[5]),
                )
                ka = b
                while ka > 0:
                    ja = rate_index(P, row_offset(ka))
                    if ja >= 0:
                        sa = g6(ws, ka, _S)
                        val = dot((sa[0], sa[1], sa[2]), xn) + dot((sa[3], sa[4], sa[5]), xf)
                        s1(C, ja, jc, g1(C, ja, jc) + val)
                    ka = parent(P, row_offset(ka))
            kc = parent(P, row_offset(kc))
    total = zero_of(qd)
    for a in range(nq):
        for k in range(nq):
            total += g1(C, a, k)
    return OK if all_finite(total) else NON_FINITE
