"""Compiled task-space and centroidal quantities: A_G, J_c and a frame's J̇q̇.

The kernels behind the single calls (C entries, :mod:`eslabon._engine.fastcall`) and the
batches (:mod:`.task_batches`) of
:func:`eslabon.centroidal_momentum_matrix`, :func:`eslabon.com_jacobian` and
:func:`eslabon.kinematics.bias_acceleration`. Their numpy forms
(:mod:`eslabon.dynamics.centroidal`, :mod:`.center_of_mass`, :mod:`.frame_motion`) are the
reference these kernels are tested against, and the general path for what the kernels
do not take (mimic joints, a subtree, lists).

**Centroidal momentum matrix** (Orin, Goswami & Lee, "Centroidal dynamics of a humanoid
robot", *Autonomous Robots* 35 (2013) 161–176, §3). After a pass of poses
(:func:`eslabon._engine.outward_pass.forward_pass`), each packed row i holds its mass mᵢ,
its centre cᵢ = pᵢ + Rᵢ c̄ᵢ, the first moment mᵢ cᵢ and the second moment about the world
origin O, Θᵢ = Rᵢ Īᵢ Rᵢᵀ + mᵢ (|cᵢ|² 1 − cᵢ cᵢᵀ); one inward sweep (children before
parents: a parent's row comes first) sums them over each subtree (m_b, h_b, Θ_b, the
composite inertia I^C_b in 10 numbers; Featherstone, RBDA (2008), §2.13). The rate k of
row b, with world-origin column S_k = [ω_k; v_k] (:func:`eslabon._engine.joints.world_axis`),
gives

    l_k = m_b v_k − h_b × ω_k,    k_O,k = Θ_b ω_k + h_b × v_k,    k_G,k = k_O,k − G × l_k

with G = h_0 / m_0: A_G[:, k] = [k_G,k; l_k], and the centre of mass's Jacobian is
J_c[:, k] = l_k / m_0.

**Bias acceleration** of a frame at the offset r on body b (Featherstone 2008, §2.11): the
pass at q̈ = 0 without gravity, over the rows from the root to b alone, gives ω, ω̇ and
the classical acceleration a of the body origin (body axes), and
a_F = a + ω̇ × r + ω × (ω × r), turned to the world's axes (W_R_b) or the frame's own
(b_R_Fᵀ).
"""

from __future__ import annotations

from numba import carray, njit

from .._engine.compile import lazy_cfunc
from .._engine.fastcall import SIGNATURE, entry_status, finite, packed_model, scratch, units_ok
from .._engine.joints import extended_set, joint, world_axis
from .._engine.lanes import all_finite, clear, g1, like, put, s1
from .._engine.layout import COM, COM_SLIDE, H_NB, H_NQ, H_NV, INERTIA, MASS
from .._engine.outward_pass import WS_A, WS_COLS, WS_PW, WS_RW, WS_W, WS_WD, forward_pass
from .._engine.record import parent, rate_index, row_offset
from .._engine.status import NON_FINITE, NOT_UNIT, OK, WRONG_SHAPE
from .._engine.tuples import (
    add,
    cross,
    dot,
    g3,
    g6,
    g9,
    m9,
    mtv,
    mv,
    rotate_s6,
    s3,
    s6,
    sadd,
    scale,
    smv,
    srank1_sub,
    sub,
    sym6,
    v3,
)

# the columns of the kinematic workspace that a pass of poses alone leaves unused (WS_W up
# to the world pose), where the centroidal kernels keep each row's subtree sums
SUB_MASS = WS_W  # 1: m_b, the subtree's mass
SUB_FIRST = WS_W + 1  # 3: h_b = Σ mᵢ cᵢ, world
SUB_SECOND = WS_W + 4  # 6: Θ_b = Σ Rᵢ Īᵢ Rᵢᵀ + mᵢ (|cᵢ|² 1 − cᵢ cᵢᵀ), about O, world
# axes, its upper triangle (xx, xy, xz, yy, yz, zz)
assert SUB_SECOND + 6 <= WS_RW

FRAME = 14  # a frame's input: packed row, rotation (9), origin (3), then 1.0 for local axes


@njit(cache=True, inline="always")
def subtree_moments(P, ws, second):
    """Each row's subtree mass, first moment and (``second``) second moment about O into
    the columns SUB_* of the workspace of a pass of poses (the module's equations). One
    state, or a lanes block with a 3-D ``ws`` (:mod:`eslabon._engine.lanes`). False when a
    centre of mass slides with its joint (seed 001's book mode), which the general path
    refuses, naming why."""
    nb = int(P[H_NB])
    rigid = True
    for i in range(nb + 1):
        o = row_offset(i)
        m = P[o + MASS]
        rigid &= P[o + COM_SLIDE] == 0.0
        empty = m == 0.0
        if second and empty:
            for k in range(o + INERTIA, o + INERTIA + 9):
                empty &= P[k] == 0.0
        if empty:  # a massless row (a free flyer's first five): nothing to add
            clear(ws, i, SUB_MASS, SUB_SECOND + 6 if second else SUB_FIRST + 3)
            continue
        R = g9(ws, i, WS_RW)
        c = add(g3(ws, i, WS_PW), mv(R, v3(P, o + COM)))
        s1(ws, i, SUB_MASS, like(m, c[0]))
        s3(ws, i, SUB_FIRST, scale(m, c))
        if second:
            turned = rotate_s6(R, sym6(m9(P, o + INERTIA)))  # Rᵢ Īᵢ Rᵢᵀ
            mc2 = m * dot(c, c)
            diagonal = (turned[0] + mc2, turned[1], turned[2], turned[3] + mc2, turned[4])
            s6(ws, i, SUB_SECOND, srank1_sub(diagonal + (turned[5] + mc2,), c, m))
    # the sums of row i are final once its children (later rows) are in; row i - 1's are
    # then final too: a serial chain's (parent i - 1) stay in registers, the others are
    # read back from the workspace
    m_i, h_i, t_i = g1(ws, nb, SUB_MASS), g3(ws, nb, SUB_FIRST), g6(ws, nb, SUB_SECOND)
    for i in range(nb, 0, -1):
        p = parent(P, row_offset(i))
        m_p, h_p = g1(ws, p, SUB_MASS) + m_i, add(g3(ws, p, SUB_FIRST), h_i)
        t_p = sadd(g6(ws, p, SUB_SECOND), t_i) if second else t_i
        s1(ws, p, SUB_MASS, m_p)
        s3(ws, p, SUB_FIRST, h_p)
        if second:
            s6(ws, p, SUB_SECOND, t_p)
        if p == i - 1:
            m_i, h_i, t_i = m_p, h_p, t_p
        else:
            m_i, h_i = g1(ws, i - 1, SUB_MASS), g3(ws, i - 1, SUB_FIRST)
            t_i = g6(ws, i - 1, SUB_SECOND) if second else t_i
    return rigid


@njit(cache=True, inline="always")
def centroidal_into(P, ws, out, linear_only, extended):
    """``out`` (6, nv[, WIDTH]) = A_G, or with ``linear_only`` (3, nv[, WIDTH]) = J_c, from
    the subtree sums of :func:`subtree_moments`; OK, or NON_FINITE when a value is not
    finite (for lanes: in any lane)."""
    m = g1(ws, 0, SUB_MASS)
    G = scale(1.0 / m, g3(ws, 0, SUB_FIRST))
    total = like(0.0, m)
    for i in range(1, int(P[H_NB]) + 1):
        o = row_offset(i)
        k = rate_index(P, o)
        if k < 0:
            continue
        w, v = world_axis(joint(P, o), g9(ws, i, WS_RW), g3(ws, i, WS_PW), extended)
        h = g3(ws, i, SUB_FIRST)
        lin = sub(scale(g1(ws, i, SUB_MASS), v), cross(h, w))
        # (the finiteness sum adds each column's values apart, then one term per column:
        # a single running sum would be one chain of 6 nv dependent additions)
        if linear_only:
            x = (lin[0] / m, lin[1] / m, lin[2] / m)
            for a in range(3):
                s1(out, a, k, x[a])
            total = total + ((x[0] + x[1]) + x[2])
        else:
            ang = sub(add(smv(g6(ws, i, SUB_SECOND), w), cross(h, v)), cross(G, lin))
            for a in range(3):
                s1(out, a, k, ang[a])
                s1(out, 3 + a, k, lin[a])
            total = total + (((ang[0] + ang[1]) + ang[2]) + ((lin[0] + lin[1]) + lin[2]))
    return OK if all_finite(total) else NON_FINITE


@njit(cache=True, inline="always")
def centroidal_state(P, q, zeros, ws, out, linear_only, extended):
    """The pass of poses at q, the subtree sums, then A_G or J_c into ``out``."""
    forward_pass(P, q, zeros, zeros, 0.0, ws, extended, poses_only=True)
    if not subtree_moments(P, ws, not linear_only):
        return WRONG_SHAPE  # a sliding centre of mass: the general path refuses it
    return centroidal_into(P, ws, out, linear_only, extended)


@njit(cache=True, inline="always")
def _centroidal_entry(p, a, o0, o1, linear_only, extended):
    """q -> A_G (6, nv) or J_c (3, nv); a status that hands over to the general path for
    a non-finite q, a quaternion not of unit length, a sliding centre of mass, no mass."""
    P = packed_model(p)
    q = carray(a, int(p[H_NQ]))
    ws, zeros = scratch(o1, p, WS_COLS)
    if not finite(q):
        return NON_FINITE
    if not units_ok(P, q, extended):
        return NOT_UNIT
    out = carray(o0, (3 if linear_only else 6, int(p[H_NV])))
    status = centroidal_state(P, q, zeros, ws, out, linear_only, extended)
    if not ws[0, SUB_MASS] > 0.0:
        return WRONG_SHAPE
    return entry_status(status)


@lazy_cfunc(SIGNATURE, "the centroidal momentum matrix")
def momentum_matrix_entry(p, a, b, c, o0, o1, o2):
    return _centroidal_entry(p, a, o0, o1, False, None)


@lazy_cfunc(SIGNATURE, "the centroidal momentum matrix (helical and ball joints)")
def momentum_matrix_entry_extended(p, a, b, c, o0, o1, o2):
    return _centroidal_entry(p, a, o0, o1, False, extended_set())


@lazy_cfunc(SIGNATURE, "the centre of mass's Jacobian")
def com_jacobian_entry(p, a, b, c, o0, o1, o2):
    return _centroidal_entry(p, a, o0, o1, True, None)


@lazy_cfunc(SIGNATURE, "the centre of mass's Jacobian (helical and ball joints)")
def com_jacobian_entry_extended(p, a, b, c, o0, o1, o2):
    return _centroidal_entry(p, a, o0, o1, True, extended_set())


@njit(cache=True, inline="always")
def bias_into(ws, row, frame, out):
    """``out`` (6,) = [ω̇; a_F] of the frame ``frame`` (:data:`FRAME` values) on packed
    row ``row``, from the workspace of the full pass at q̈ = 0 (the module's equation);
    OK, or NON_FINITE. One state, or a lanes block (``ws`` 3-D, ``out`` (6, WIDTH))."""
    w, wd, r = g3(ws, row, WS_W), g3(ws, row, WS_WD), v3(frame, 10)
    a = add(add(g3(ws, row, WS_A), cross(wd, r)), cross(w, cross(w, r)))
    if frame[13] != 0.0:
        R = m9(frame, 1)
        ang, lin = mtv(R, wd), mtv(R, a)
    else:
        R = g9(ws, row, WS_RW)
        ang, lin = mv(R, wd), mv(R, a)
    total = like(0.0, ang[0])
    for k in range(3):
        put(out, k, ang[k])
        put(out, 3 + k, lin[k])
        total = total + ang[k] + lin[k]
    return OK if all_finite(total) else NON_FINITE


@njit(cache=True, inline="always")
def _bias_entry(p, a, b, c, o0, o1, extended):
    """q, q̇, the frame (:data:`FRAME`) -> [ω̇; a_F] (6,)."""
    P = packed_model(p)
    q, qd, frame = carray(a, int(p[H_NQ])), carray(b, int(p[H_NV])), carray(c, FRAME)
    ws, zeros = scratch(o1, p, WS_COLS)
    if not (finite(q) and finite(qd)):
        return NON_FINITE
    if not units_ok(P, q, extended):
        return NOT_UNIT
    row = frame[0]
    if not (row >= 0.0 and row <= P[H_NB]):
        return WRONG_SHAPE
    forward_pass(P, q, qd, zeros, 0.0, ws, extended, path_to=int(row))
    return entry_status(bias_into(ws, int(row), frame, carray(o0, 6)))


@lazy_cfunc(SIGNATURE, "a frame's bias acceleration")
def bias_entry(p, a, b, c, o0, o1, o2):
    return _bias_entry(p, a, b, c, o0, o1, None)


@lazy_cfunc(SIGNATURE, "a frame's bias acceleration (helical and ball joints)")
def bias_entry_extended(p, a, b, c, o0, o1, o2):
    return _bias_entry(p, a, b, c, o0, o1, extended_set())


# the workspace columns each entry's scratch buffer holds (fastcall.public's scratch_cols)
SCRATCH_COLS = {
    "momentum_matrix_entry": WS_COLS,
    "com_jacobian_entry": WS_COLS,
    "bias_entry": WS_COLS,
}
