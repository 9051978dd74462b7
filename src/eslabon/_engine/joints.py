"""The joint dispatcher: what every kernel does with a joint lives here.

The role of spatial_v2's ``jcalc`` and of Pinocchio's joint visitor. A joint of body ``i``
moves it relative to its parent by its configuration ``q_i`` (``nq`` numbers) at the rate
``v_i`` (``nv`` numbers); its motion subspace S (6 × nv, body coordinates, [angular;
linear]) maps ``v_i`` to the body's motion relative to the parent, and its transpose
projects a wrench on the joint (Featherstone, *Rigid Body Dynamics Algorithms*, §4.1;
Jaramillo, *Dinámica de Manipuladores Robóticos*, the 6 × n_dof H_i of seeds 002/004).

==========  ====  =====  ==============================================================
type        code  nq/nv  placement at q, motion subspace (body coordinates)
==========  ====  =====  ==============================================================
fixed       0     0/0    the fixed placement; S is 6 × 0
revolute    1     1/1    rotation by q about the unit axis s; S = [s; 0]
prismatic   2     1/1    translation by q along s; S = [0; s]
helical     3     1/1    rotation by q about s and translation h q along it; S = [s; h s]
universal   4     2/2    rotation by q₁ about s₁, then by q₂ about s₂; S = [s₁ s₂; 0 0]
planar      5     3/3    translation (x, y) in the joint frame's xy plane, then rotation θ
                         about its z; S = [0 0 e_z; e_x e_y 0]
spherical   6     4/3    rotation by the unit quaternion (x, y, z, w); S = [1; 0]
free_flyer  7     7/6    translation p, then the quaternion; v = (linear, angular) of the
                         body origin in body axes; S = [0 1; 1 0]
==========  ====  =====  ==============================================================

The compiled kernels see one rate per packed row (:func:`.layout.joint_rows`): a joint of
several degrees of freedom is a chain of rows at the identity placement between them,
each row the motion of one column of S. Velocities and forces of such a chain are those
of the joint; its velocity-product accelerations are not quite (each row sees the rates
of the rows before it), which :func:`group_correction` puts right on the first row.

Two joint sets. Every kernel is compiled for one of two sets of rows, as Pinocchio
compiles its algorithms for a collection of joint types: with ``extended`` None, rows of
fixed, revolute and prismatic joints only (every arm of revolute and prismatic joints,
universal and planar joints too, since their rows are such rows); with
:data:`EXTENDED`, also helical rows and the rows a quaternion places (spherical, free
flyer). ``extended`` is an argument of every kernel and of the helpers below, a switch
at compile time: numba drops the code behind ``if extended is not None`` before typing it
when the argument is None, so an arm never compiles the code of the extended joints
(figures: docs/performance.md, "Start-up and compilation"). The packed header says which
set a model needs (:func:`extended_of`).

The compiled helpers (numba, inlined into the kernels unless said, generic over the
scalar type: float64 for one state, lanes for a batch block). A kernel reads a row's
joint once, ``j = joint(P, o)``, and hands it to :func:`placement`,
:func:`outward_motion`, :func:`origin_velocity`, :func:`project_wrench` (and
:func:`wrench_coefficients`, its two vectors),
:func:`articulated_velocity`, :func:`articulated_projection`,
:func:`articulated_acceleration`, :func:`world_axis` and :func:`point_axis`, which take
the +z shortcut (every DH joint) inside; a row a quaternion places (:func:`by_quaternion`,
the one question a recursion asks of a row's kind) gets its placement and correction out
of line, :func:`quaternion_row` or :func:`quaternion_row_placement`.
:func:`angle_index`, :func:`joint_last_row` and :func:`quaternions_are_unit` answer what
the loops around the kernels ask of a row. No kernel or driver outside this module
branches on a joint's type or placement code otherwise (``tests/test_architecture.py``);
the floating base, taken before and after the body loop, is :mod:`.floating_base`'s, and
what each type is in numpy (sizes, S) is :mod:`.joint_types`'s.
"""

from __future__ import annotations

import math

from numba import njit

from .argtypes import as_argument
from .lanes import array_getter, at, like, zero_of
from .layout import (
    BY_AXIS,
    BY_POSE,
    BY_QUATERNION,
    FIXED,
    H_EXTENDED,
    H_NB,
    HELICAL,
    J_AXIS,
    J_AXIS_END,
    J_CFG,
    J_PITCH,
    J_PLACE,
    J_POS,
    J_POS_END,
    J_ROT,
    J_ROT_END,
    J_TYPE,
    J_Z_AXIS,
    JOINT_FIELDS,
    JTYPE,
    PLACE,
    PRISMATIC,
    REVOLUTE,
)
from .record import coordinate_index, row_offset
from .sincos import sincos_near
from .tuples import add, cross, dot, mm, mrz, mtv, mv, rot_axis9, scale, smv, sub

EXTENDED = True  # the ``extended`` argument of kernels compiled for the extended joint set


def extended_of(P):
    """The ``extended`` argument the kernels take for the packed model ``P``:
    :data:`EXTENDED` if a row is helical or placed by a quaternion, else None."""
    return EXTENDED if P[H_EXTENDED] != 0.0 else None


@njit(inline="always")
def extended_set():
    """:data:`EXTENDED` for a compiled caller (a C entry of the extended set) to pass on:
    typed ``bool`` as when the general path passes it from Python, not as the constant
    ``Literal[bool](True)``, so that both paths share one compiled specialization of
    every kernel below them instead of compiling each twice."""
    return as_argument(EXTENDED)


# ---- compiled ---------------------------------------------------------------------------
# A kernel reads a body's joint once, ``j = joint(P, o)``: a tuple of its packed fields
# (``j[J_TYPE]``, the axis ``joint_axis(j)``, … : the ``J_`` names of .layout),
# then hands ``j`` to the helpers
# below. The helpers take no array: an array handed to an inlined function costs a
# reference-count round trip per call in compiled code.


@array_getter(JOINT_FIELDS, shift=JTYPE)
def joint(P, o):
    """The joint of the body at offset ``o`` of the packed model ``P``: its fields
    ``JTYPE`` … ``PITCH`` as one tuple of floats, read by the ``J_`` names of
    :mod:`.layout` (type, rate index, axis (3), +z flag, rotation at q = 0 (9), origin
    (3), placement code, q index, pitch)."""
    return tuple(P[o + JTYPE : o + JTYPE + JOINT_FIELDS])


@njit(inline="always")
def joint_axis(j):
    """The joint axis (3-tuple, joint = body frame) of the joint tuple ``j``."""
    return j[J_AXIS:J_AXIS_END]


@njit(inline="always")
def rest_rotation(j):
    """Rotation parent <- joint frame at q = 0 (9-tuple, row-major) of ``j``."""
    return j[J_ROT:J_ROT_END]


@njit(inline="always")
def rest_origin(j):
    """The joint frame's origin in the parent frame (3-tuple) of ``j``."""
    return j[J_POS:J_POS_END]


@njit(inline="always")  # per body in every recursion: no call
def placement(j, qi, extended, q_given):
    """(E, r): rotation parent <- body and origin of body at joint value ``qi`` (a revolute
    angle within the inline sine's range, see ``outward_pass.near_angles``), as the scalar
    type of ``qi``; a row placed by a quaternion takes :func:`quaternion_placement`.
    ``q_given`` is the joint value before that reduction: a helical joint advances
    ``pitch · q_given`` along its axis (the reduced angle turns it the same way)."""
    R = rest_rotation(j)
    p = rest_origin(j)
    if j[J_CFG] < 0.0 or j[J_PLACE] != BY_AXIS:  # a fixed row, a row inside a multi-DOF joint, or
        # one that a quaternion places (quaternion_placement)
        return like(R, qi), like(p, qi)
    if j[J_TYPE] == PRISMATIC:
        return like(R, qi), add(p, mv(R, scale(qi, joint_axis(j))))
    if j[J_TYPE] == FIXED:
        return like(R, qi), like(p, qi)
    s, c = sincos_near(qi)  # revolute or helical (one call site: it is inlined)
    if j[J_Z_AXIS] != 0.0 and j[J_TYPE] == REVOLUTE:
        return like(mrz(R, c, s), qi), like(p, qi)
    E = like(mm(R, rot_axis9(joint_axis(j), c, s)), qi)
    if extended is not None:
        if j[J_TYPE] == HELICAL:
            return E, add(p, mv(R, scale(q_given * j[J_PITCH], joint_axis(j))))
    return E, like(p, qi)


@njit(inline="always")
def configuration(q, c, j):
    """The joint configuration that places a quaternion row ``j`` from ``q[c:]``, as
    (p_x, p_y, p_z, x, y, z, w) (p = 0 for a spherical joint). Takes the array: called
    for such rows only."""
    if j[J_PLACE] == BY_POSE:
        return (
            at(q, c),
            at(q, c + 1),
            at(q, c + 2),
            at(q, c + 3),
            at(q, c + 4),
            at(q, c + 5),
            at(q, c + 6),
        )
    z = zero_of(q)
    return (z, z, z, at(q, c), at(q, c + 1), at(q, c + 2), at(q, c + 3))


@njit(inline="always")
def quaternion_placement(j, g):
    """(E, r) of a row placed by the configuration ``g`` (:func:`configuration`): the
    joint frame's placement, then the translation (g₀, g₁, g₂) in the joint frame and the
    rotation of the unit quaternion (x, y, z, w) = g[3:7]."""
    x, y, z, w = g[3], g[4], g[5], g[6]
    Q = (
        1.0 - 2.0 * (y * y + z * z),
        2.0 * (x * y - z * w),
        2.0 * (x * z + y * w),
        2.0 * (x * y + z * w),
        1.0 - 2.0 * (x * x + z * z),
        2.0 * (y * z - x * w),
        2.0 * (x * z - y * w),
        2.0 * (y * z + x * w),
        1.0 - 2.0 * (x * x + y * y),
    )
    R = rest_rotation(j)
    return mm(R, Q), add(rest_origin(j), mv(R, (g[0], g[1], g[2])))


@njit(inline="always")
def rates(qd, k, j):
    """The joint rates of a quaternion row ``j`` from ``qd[k:]`` as (u, ω): linear and
    angular velocity in body axes (u = 0 for a spherical joint)."""
    if j[J_PLACE] == BY_POSE:
        return (at(qd, k), at(qd, k + 1), at(qd, k + 2)), (
            at(qd, k + 3),
            at(qd, k + 4),
            at(qd, k + 5),
        )
    z = zero_of(qd)
    return (z, z, z), (at(qd, k), at(qd, k + 1), at(qd, k + 2))


@njit(inline="always")
def group_correction(u, w):
    """What the rows of a spherical or free-flyer joint miss of its velocity-product
    acceleration, as (Δω̇, Δa), for its rates (u, ω) in body axes.

    Row k of the chain adds v_{k−1} × S_k v_k with v_{k−1} including the rates of rows
    1 … k−1, where the joint adds v_parent × S v (Featherstone §4.1, c_J = 0 for a
    constant S in body axes). The difference is Σ_{l<k} (S_l v_l) × (S_k v_k): about the
    axes, (ω_y ω_z, −ω_x ω_z, ω_x ω_y); from the linear rates (first) to the angular ones,
    (0, u × ω). Both a spatial acceleration (articulated body) and the classical one of
    the origin (Newton–Euler) take the same correction: Δω̇ = −(ω_y ω_z, −ω_x ω_z,
    ω_x ω_y), Δa = ω × u."""
    return (-w[1] * w[2], w[0] * w[2], -w[0] * w[1]), cross(w, u)


@njit(inline="always")
def angle_index(P, o, extended):
    """The index in q of the row's coordinate if it is an angle (a revolute or helical
    row's own coordinate), else −1: the coordinates ``near_angles`` may reduce."""
    j = joint(P, o)
    if j[J_CFG] < 0.0:
        return -1
    if j[J_TYPE] == REVOLUTE:
        return int(j[J_CFG])
    if extended is not None:
        if j[J_TYPE] == HELICAL:
            return int(j[J_CFG])
    return -1


@njit(cache=True, fastmath=False)
def quaternion_row_placement(P, o, q, c):
    """(E, r) of the row at offset ``o`` placed by the quaternion at ``q[c:]``. A called
    function, not inlined: the loops of models without quaternions stay as small as
    before (inlined, this code made the Puma's inverse dynamics 7 % slower)."""
    j = joint(P, o)
    return quaternion_placement(j, configuration(q, c, j))


@njit(cache=True, fastmath=False)
def quaternion_row(P, o, q, qd, k, c):
    """:func:`quaternion_row_placement` and the row's velocity-product correction
    (Δω̇, Δa) for the rates at ``qd[k:]`` (:func:`group_correction`); called, not
    inlined. ``fastmath=False`` stated: the regressor, which calls it, is compiled with
    products and sums fused, and numba would compile this function with its caller's
    flags for every later caller (:mod:`.outward_pass`)."""
    E, r = quaternion_row_placement(P, o, q, c)
    u, wj = rates(qd, k, joint(P, o))
    dwd, da = group_correction(u, wj)
    return E, r, dwd, da


@njit(inline="always")
def by_quaternion(j):
    """True for a row a quaternion places (the first row of a spherical or free-flyer
    joint): the one question a recursion asks of a row's kind, to call
    :func:`quaternion_row` or :func:`quaternion_row_placement` for it out of line. Not a
    helper taking the arrays instead: an array handed to a function numba inlines costs a
    reference-count round trip per row, and a call per row is not inlined by LLVM
    (Newton–Euler of a Solo 12 14 % and 40 % slower, measured; docs/performance.md)."""
    return j[J_PLACE] != BY_AXIS


@njit(inline="always")
def inside_group(j):
    """True for a row inside a spherical or free-flyer joint after its first: no
    coordinate of its own (its placement is the first row's), not fixed; its rotation
    at q = 0 is 1 and its origin 0 (:func:`.layout.joint_rows`), so it sits at its
    parent's pose."""
    return j[J_CFG] < 0.0 and j[J_TYPE] != FIXED


@njit(inline="always")
def joint_last_row(P, o, i, extended):
    """The last packed row of the joint whose first row is ``i`` (offset ``o``) when
    that row is placed by a quaternion: its body's row, whose axes its rates' axes turn
    with (i + 2 for a spherical joint, i + 5 for a free flyer); ``i`` for any other row."""
    if extended is not None:
        if P[o + PLACE] == BY_QUATERNION:
            return i + 2
        if P[o + PLACE] == BY_POSE:
            return i + 5
    return i


@njit(inline="always")
def quaternions_are_unit(P, q, extended, tol):
    """Every quaternion of ``q`` of unit length within ``tol`` (|‖x‖ − 1| ≤ tol)."""
    if extended is None:
        return True
    for i in range(1, int(P[H_NB]) + 1):
        o = row_offset(i)
        if P[o + PLACE] != BY_AXIS:
            c = coordinate_index(P, o) + (3 if P[o + PLACE] == BY_POSE else 0)
            x = q[c] * q[c] + q[c + 1] * q[c + 1] + q[c + 2] * q[c + 2] + q[c + 3] * q[c + 3]
            if not abs(math.sqrt(x) - 1.0) <= tol:
                return False
    return True


@njit(inline="always")
def outward_motion(j, qdi, qddi, w, wd, a, dwd, da, extended):
    """Add the joint's motion to the parent's carried into the body (seed 001 Tabla 3.1,
    (3.27)–(3.29)): ω += s q̇, ω̇ += s q̈ + ω × s q̇ (revolute); v̇ += s q̈ + 2 ω × s q̇
    (prismatic); a row a quaternion places adds its correction (Δω̇, Δa)
    (:func:`quaternion_row`). Returns (ω, ω̇, v̇)."""
    if j[J_TYPE] == REVOLUTE and j[J_Z_AXIS] != 0.0:
        wd = (wd[0] + w[1] * qdi, wd[1] - w[0] * qdi, wd[2] + qddi)
        w = (w[0], w[1], w[2] + qdi)
    elif j[J_TYPE] == REVOLUTE:
        s = scale(qdi, joint_axis(j))
        wd = add(wd, add(scale(qddi, joint_axis(j)), cross(w, s)))
        w = add(w, s)
    elif j[J_TYPE] == PRISMATIC:
        ax = joint_axis(j)
        s = scale(qdi, ax)
        a = add(a, add(scale(qddi, ax), scale(2.0, cross(w, s))))
    elif extended is not None:
        if j[J_TYPE] == HELICAL:  # the revolute motion, and the prismatic one at h q̇, h q̈
            ax = joint_axis(j)
            s = scale(qdi, ax)
            a = add(a, scale(j[J_PITCH], add(scale(qddi, ax), scale(2.0, cross(w, s)))))
            wd = add(wd, add(scale(qddi, ax), cross(w, s)))
            w = add(w, s)
    if extended is not None:
        if j[J_PLACE] != BY_AXIS:
            wd = add(wd, dwd)
            a = add(a, da)
    return w, wd, a


@njit(inline="always")
def origin_velocity(j, qdi, v, extended):
    """The body origin's velocity ``v`` (from the parent's motion) plus the joint's own
    linear rate s q̇ (prismatic)."""
    if j[J_TYPE] == PRISMATIC:
        return add(v, scale(qdi, joint_axis(j)))
    if extended is not None:
        if j[J_TYPE] == HELICAL:
            return add(v, scale(qdi * j[J_PITCH], joint_axis(j)))
    return v


@njit(inline="always")
def project_wrench(j, f, n, extended):
    """Sᵀ [n; f]: the joint's share of the wrench the body transmits (seed 001 (3.33):
    sᵀ n for a revolute joint, sᵀ f for a prismatic one)."""
    if j[J_TYPE] == PRISMATIC:
        return dot(joint_axis(j), f)
    if extended is not None:
        if j[J_TYPE] == HELICAL:
            return dot(joint_axis(j), add(n, scale(j[J_PITCH], f)))
    if j[J_Z_AXIS] != 0.0:
        return n[2]
    return dot(joint_axis(j), n)


@njit(inline="always")
def wrench_coefficients(j, extended):
    """(s_n, s_f): :func:`project_wrench` as two 3-vectors, Sᵀ [n; f] = s_n · n + s_f · f
    ((s, 0) revolute, (0, s) prismatic, (s, h s) helical), without its six calls on the
    unit wrenches."""
    ax = joint_axis(j)
    z = 0.0 * ax[0]
    zero = (z, z, z)
    if j[J_TYPE] == PRISMATIC:
        return zero, ax
    if extended is not None:
        if j[J_TYPE] == HELICAL:
            return ax, scale(j[J_PITCH], ax)
    if j[J_Z_AXIS] != 0.0:
        return (z, z, 1.0 + z), zero
    return ax, zero


@njit(inline="always")
def articulated_velocity(j, qdk, w, v, zero3, dwd, da, extended):
    """Articulated-body algorithm, pass 1: the body's (ω, v) plus the joint's S q̇ (joint
    rate ``qdk``), and the velocity-product acceleration c = v ×ᵐ S q̇ as (cw, cv), plus
    a quaternion row's correction (Δω̇, Δa) (:func:`quaternion_row`);
    ``zero3`` the zero 3-tuple of the scalar type. Returns (w, v, cw, cv)."""
    cw = zero3
    cv = zero3
    if j[J_TYPE] == REVOLUTE:
        sj = scale(qdk, joint_axis(j))
        w = add(w, sj)
        cw = cross(w, sj)  # c = v × S q̇ for S = [s; 0]
        cv = cross(v, sj)
    elif j[J_TYPE] == PRISMATIC:
        sj = scale(qdk, joint_axis(j))
        v = add(v, sj)
        cv = cross(w, sj)  # c = v × S q̇ for S = [0; s]
    elif extended is not None:
        if j[J_TYPE] == HELICAL:
            sj = scale(qdk, joint_axis(j))
            hj = scale(j[J_PITCH], sj)
            w = add(w, sj)
            v = add(v, hj)
            cw = cross(w, sj)  # c = v × S q̇ for S = [s; h s]
            cv = add(cross(v, sj), cross(w, hj))
    if extended is not None:
        if j[J_PLACE] != BY_AXIS:
            cw = add(cw, dwd)
            cv = add(cv, da)
    return w, v, cw, cv


@njit(inline="always")
def articulated_projection(j, A, B, C, pn, pf, extended):
    """Articulated-body algorithm, pass 2: U = I^A S as (un, uf), D = Sᵀ U and Sᵀ p^A, for
    the articulated inertia [[A, B], [Bᵀ, C]] (A, C symmetric 6-tuples, B a 9-tuple) and
    bias force p^A = (pn, pf). Returns (un, uf, D, Sᵀp)."""
    if j[J_TYPE] == REVOLUTE and j[J_Z_AXIS] != 0.0:  # S = [e_z; 0]
        return (A[2], A[4], A[5]), (B[6], B[7], B[8]), A[5], pn[2]
    ax = joint_axis(j)
    if j[J_TYPE] == REVOLUTE:  # S = [s; 0]
        un = smv(A, ax)
        return un, mtv(B, ax), dot(ax, un), dot(ax, pn)
    if extended is not None:
        if j[J_TYPE] == HELICAL:  # S = [s; h s]
            hx = scale(j[J_PITCH], ax)
            un = add(smv(A, ax), mv(B, hx))
            uf = add(mtv(B, ax), smv(C, hx))
            return un, uf, dot(ax, un) + dot(hx, uf), dot(ax, pn) + dot(hx, pf)
    uf = smv(C, ax)  # S = [0; s]
    return mv(B, ax), uf, dot(ax, uf), dot(ax, pf)


@njit(inline="always")
def articulated_acceleration(j, x, aw, av, extended):
    """Articulated-body algorithm, pass 3: the body's acceleration plus S q̈ for the
    joint acceleration ``x``. Returns (aw, av)."""
    if j[J_TYPE] == REVOLUTE:
        return add(aw, scale(x, joint_axis(j))), av
    if extended is not None:
        if j[J_TYPE] == HELICAL:
            return add(aw, scale(x, joint_axis(j))), add(av, scale(x * j[J_PITCH], joint_axis(j)))
    return aw, add(av, scale(x, joint_axis(j)))


@njit(inline="always")
def point_axis(j, R, pw, point, extended):
    """The joint's geometric Jacobian column at ``point`` (world) for a body at world
    rotation ``R`` and origin ``pw``, s = R · axis: [s; s × (point − pw)] (revolute),
    [0; s] (prismatic), [s; s × (point − pw) + h s] (helical of pitch h). Returns
    (angular, linear) 3-tuples."""
    s = mv(R, joint_axis(j))
    if j[J_TYPE] == PRISMATIC:
        return like((0.0, 0.0, 0.0), s[0]), s
    lin = cross(s, sub(point, pw))
    if extended is not None:
        if j[J_TYPE] == HELICAL:
            lin = add(lin, scale(j[J_PITCH], s))
    return s, lin


@njit(inline="always")
def world_axis(j, R, pw, extended):
    """The joint's spatial axis in world coordinates (Plücker, about the world origin) for
    a body at world rotation ``R`` and origin ``pw``: S = [s; pw × s] (revolute) or [0; s]
    (prismatic), s = R · axis. Returns (sn, sf)."""
    if j[J_Z_AXIS] != 0.0:
        s = (R[2], R[5], R[8])
    else:
        s = mv(R, joint_axis(j))
    if j[J_TYPE] == REVOLUTE:
        return s, cross(pw, s)
    if extended is not None:
        if j[J_TYPE] == HELICAL:
            return s, add(cross(pw, s), scale(j[J_PITCH], s))
    return like((0.0, 0.0, 0.0), s[0]), s  # (zeros of s's type: float or lanes)
