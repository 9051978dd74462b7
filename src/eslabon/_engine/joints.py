"""The one joint dispatcher: everything that depends on a joint's type lives here.

The role of spatial_v2's ``jcalc`` and of Pinocchio's joint visitor. A joint of body ``i``
moves it relative to its parent by its configuration ``q_i`` (``nq`` numbers) at the rate
``v_i`` (``nv`` numbers; nq = nv for every joint type today); its motion subspace S
(6 × nv, body coordinates, [angular; linear]) maps ``v_i`` to the body's motion relative to
the parent, and its transpose projects a wrench on the joint (Featherstone, *Rigid Body
Dynamics Algorithms*, §4.1; seed 002/004's H_i).

==========  =========  =====  ==========================================================
type        code       nq/nv  placement at q, motion subspace
==========  =========  =====  ==========================================================
fixed       0          0      the fixed placement; S is 6 × 0
revolute    1          1      rotation by q about the unit axis s; S = [s; 0]
prismatic   2          1      translation by q along s; S = [0; s]
==========  =========  =====  ==========================================================

Two families of helpers:

- **compiled** (numba, inlined into the kernels, generic over the scalar type: float64
  for one state, lanes for a batch block): a kernel reads a body's joint once,
  ``j = joint(P, o)``, and hands it to :func:`placement`, :func:`is_angle`,
  :func:`outward_motion`, :func:`origin_velocity`, :func:`project_wrench`,
  :func:`articulated_velocity`, :func:`articulated_projection`,
  :func:`articulated_acceleration` and :func:`world_axis`, which take the +z shortcut
  (every DH joint) inside; each does the operations its kernel did before, in the same
  order.
- **numpy** (model building and the reference formulations): :data:`NAMES`,
  :data:`CODES`, :func:`nq_of`, :func:`rotates`, :func:`slides`, :func:`subspace`,
  :func:`jacobian_column`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .lanes import array_getter, like
from .layout import FIXED, JOINT_CODES, JOINT_FIELDS, JOINT_NAMES, JTYPE, PRISMATIC, REVOLUTE
from .sincos import sincos_near
from .tuples import add, cross, dot, mm, mrz, mtv, mv, rot_axis9, scale, smv

NAMES = JOINT_NAMES  # the codes themselves are part of the packed layout (.layout)
CODES = JOINT_CODES
_NQ = {FIXED: 0, REVOLUTE: 1, PRISMATIC: 1}


# ---- numpy ------------------------------------------------------------------------------


def nq_of(joint_type) -> np.ndarray:
    """Configuration size of each joint (and, today, its tangent size nv)."""
    jt = np.asarray(joint_type)
    return np.vectorize(_NQ.__getitem__, otypes=[np.int64])(jt) if jt.ndim else _NQ[int(jt)]


def rotates(joint_type) -> np.ndarray:
    """True where the joint's coordinate is an angle (a revolute joint)."""
    return np.asarray(joint_type) == REVOLUTE


def slides(joint_type) -> np.ndarray:
    """True where the joint translates its body (a prismatic joint)."""
    return np.asarray(joint_type) == PRISMATIC


def subspace(joint_type: int, axis) -> np.ndarray:
    """The motion subspace S (6 × nv) of one joint in its body's coordinates,
    [angular; linear]."""
    S = np.zeros((6, _NQ[int(joint_type)]))
    if joint_type == REVOLUTE:
        S[:3, 0] = axis
    elif joint_type == PRISMATIC:
        S[3:, 0] = axis
    return S


def jacobian_column(joint_type: int, z, lever) -> np.ndarray:
    """The geometric Jacobian column (6,) [angular; linear] of a 1-DOF joint whose axis is
    ``z`` (world axes), at a point ``lever`` = point − joint origin: [z; z × lever] for a
    revolute joint, [0; z] for a prismatic one (broadcasts over leading axes)."""
    z = np.asarray(z, dtype=float)
    col = np.zeros(z.shape[:-1] + (6,))
    if joint_type == PRISMATIC:
        col[..., 3:] = z
    else:
        col[..., :3] = z
        col[..., 3:] = np.cross(z, lever)
    return col


# ---- compiled ---------------------------------------------------------------------------
# A kernel reads a body's joint once, ``j = joint(P, o)``: a tuple of its packed fields
# (type, q index, axis, +z flag, placement at q = 0), then hands ``j`` to the helpers
# below. The helpers take no array: an array handed to an inlined function costs a
# reference-count round trip per call in compiled code.


@array_getter(JOINT_FIELDS, shift=JTYPE)
def joint(P, o):
    """The joint of the body at offset ``o`` of the packed model ``P``: (type, q index,
    axis (3), +z flag, rotation at q = 0 (9), origin (3)) as one tuple of floats."""
    return tuple(P[o + JTYPE : o + JTYPE + JOINT_FIELDS])


@njit(inline="always")  # per body in every recursion: no call
def placement(j, qi):
    """(E, r): rotation parent <- body and origin of body at joint value ``qi`` (a revolute
    angle within the inline sine's range, see ``recursion.near_angles``), as the scalar
    type of ``qi``."""
    R = j[6:15]
    p = j[15:18]
    if j[0] == REVOLUTE:
        s, c = sincos_near(qi)
        if j[5] != 0.0:
            return like(mrz(R, c, s), qi), like(p, qi)
        return like(mm(R, rot_axis9(j[2:5], c, s)), qi), like(p, qi)
    if j[0] == PRISMATIC:
        return like(R, qi), add(p, mv(R, scale(qi, j[2:5])))
    return like(R, qi), like(p, qi)


@njit(inline="always")
def is_angle(j):
    """True if the joint moves and its coordinate is an angle (revolute)."""
    return j[1] >= 0.0 and j[0] == REVOLUTE


@njit(inline="always")
def outward_motion(j, qdi, qddi, w, wd, a):
    """Add the joint's motion to the parent's carried into the body (seed 001 Tabla 3.1,
    (3.27)–(3.29)): ω += s q̇, ω̇ += s q̈ + ω × s q̇ (revolute); v̇ += s q̈ + 2 ω × s q̇
    (prismatic). Returns (ω, ω̇, v̇)."""
    if j[0] == REVOLUTE and j[5] != 0.0:
        wd = (wd[0] + w[1] * qdi, wd[1] - w[0] * qdi, wd[2] + qddi)
        w = (w[0], w[1], w[2] + qdi)
    elif j[0] == REVOLUTE:
        s = scale(qdi, j[2:5])
        wd = add(wd, add(scale(qddi, j[2:5]), cross(w, s)))
        w = add(w, s)
    elif j[0] == PRISMATIC:
        ax = j[2:5]
        s = scale(qdi, ax)
        a = add(a, add(scale(qddi, ax), scale(2.0, cross(w, s))))
    return w, wd, a


@njit(inline="always")
def origin_velocity(j, qdi, v):
    """The body origin's velocity ``v`` (from the parent's motion) plus the joint's own
    linear rate s q̇ (prismatic)."""
    if j[0] == PRISMATIC:
        return add(v, scale(qdi, j[2:5]))
    return v


@njit(inline="always")
def project_wrench(j, f, n):
    """Sᵀ [n; f]: the joint's share of the wrench the body transmits (seed 001 (3.33):
    sᵀ n for a revolute joint, sᵀ f for a prismatic one)."""
    if j[0] == PRISMATIC:
        return dot(j[2:5], f)
    if j[5] != 0.0:
        return n[2]
    return dot(j[2:5], n)


@njit(inline="always")
def articulated_velocity(j, qdk, w, v, zero3):
    """Articulated-body algorithm, pass 1: the body's (ω, v) plus the joint's S q̇ (joint
    rate ``qdk``), and the velocity-product acceleration c = v ×ᵐ S q̇ as (cw, cv);
    ``zero3`` the zero 3-tuple of the scalar type. Returns (w, v, cw, cv)."""
    cw = zero3
    cv = zero3
    if j[0] == REVOLUTE:
        sj = scale(qdk, j[2:5])
        w = add(w, sj)
        cw = cross(w, sj)  # c = v × S q̇ for S = [s; 0]
        cv = cross(v, sj)
    elif j[0] == PRISMATIC:
        sj = scale(qdk, j[2:5])
        v = add(v, sj)
        cv = cross(w, sj)  # c = v × S q̇ for S = [0; s]
    return w, v, cw, cv


@njit(inline="always")
def articulated_projection(j, A, B, C, pn, pf):
    """Articulated-body algorithm, pass 2: U = I^A S as (un, uf), D = Sᵀ U and Sᵀ p^A, for
    the articulated inertia [[A, B], [Bᵀ, C]] (A, C symmetric 6-tuples, B a 9-tuple) and
    bias force p^A = (pn, pf). Returns (un, uf, D, Sᵀp)."""
    if j[0] == REVOLUTE and j[5] != 0.0:  # S = [e_z; 0]
        return (A[2], A[4], A[5]), (B[6], B[7], B[8]), A[5], pn[2]
    ax = j[2:5]
    if j[0] == REVOLUTE:  # S = [s; 0]
        un = smv(A, ax)
        return un, mtv(B, ax), dot(ax, un), dot(ax, pn)
    uf = smv(C, ax)  # S = [0; s]
    return mv(B, ax), uf, dot(ax, uf), dot(ax, pf)


@njit(inline="always")
def articulated_acceleration(j, x, aw, av):
    """Articulated-body algorithm, pass 3: the body's acceleration plus S q̈ for the
    joint acceleration ``x``. Returns (aw, av)."""
    if j[0] == REVOLUTE:
        return add(aw, scale(x, j[2:5])), av
    return aw, add(av, scale(x, j[2:5]))


@njit(inline="always")
def world_axis(j, R, pw):
    """The joint's spatial axis in world coordinates (Plücker, about the world origin) for
    a body at world rotation ``R`` and origin ``pw``: S = [s; pw × s] (revolute) or [0; s]
    (prismatic), s = R · axis. Returns (sn, sf)."""
    if j[5] != 0.0:
        s = (R[2], R[5], R[8])
    else:
        s = mv(R, j[2:5])
    if j[0] == REVOLUTE:
        return s, cross(pw, s)
    return (0.0, 0.0, 0.0), s
