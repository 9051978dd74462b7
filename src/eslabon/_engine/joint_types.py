"""What each joint type is, in numpy: names and codes, sizes, motion subspaces.

The numpy half of the joint dispatcher (the compiled half, what each kernel does with a
packed row, is :mod:`.joints`; the table of types is in its docstring). Model building,
the reference formulations and the pictures ask these functions instead of comparing
joint codes themselves: :data:`NAMES`, :data:`CODES`, :func:`nq_of`, :func:`nv_of`,
:func:`rotates`, :func:`slides`, :func:`coordinate_units`, :func:`has_axis`,
:func:`subspace`, :func:`constant_subspace`, :func:`jacobian_column`.
"""

from __future__ import annotations

import numpy as np

from .layout import (
    FIXED,
    FREE_FLYER,
    HELICAL,
    JOINT_CODES,
    JOINT_KINDS,
    JOINT_NAMES,
    JOINT_NQ,
    JOINT_NV,
    PRISMATIC,
    REVOLUTE,
    joint_rows,
)

NAMES = JOINT_NAMES  # the codes themselves are part of the packed layout (.layout)
CODES = JOINT_CODES
ONE_DOF = (REVOLUTE, PRISMATIC)  # the types every formulation of eslabon takes


def _sizes(table, joint_type):
    jt = np.asarray(joint_type)
    return np.vectorize(table.__getitem__, otypes=[np.int64])(jt) if jt.ndim else table[int(jt)]


def nq_of(joint_type) -> np.ndarray:
    """Configuration size nq of each joint."""
    return _sizes(JOINT_NQ, joint_type)


def nv_of(joint_type) -> np.ndarray:
    """Tangent size nv (rates, torques) of each joint."""
    return _sizes(JOINT_NV, joint_type)


def free_flyers(joint_type) -> np.ndarray:
    """True where the joint is a free flyer (a floating base when on the world)."""
    return np.asarray(joint_type) == FREE_FLYER


def rotates(joint_type) -> np.ndarray:
    """True where the joint's coordinate is an angle (a revolute joint)."""
    return np.asarray(joint_type) == REVOLUTE


def slides(joint_type) -> np.ndarray:
    """True where the joint translates its body (a prismatic joint)."""
    return np.asarray(joint_type) == PRISMATIC


def coordinate_units(joint_type: int) -> tuple:
    """The unit of each of the joint's configuration coordinates (q), e.g. ("m", "m",
    "rad") for a planar joint; "" for a quaternion's components."""
    return JOINT_KINDS[int(joint_type)].units


def has_axis(joint_type: int) -> bool:
    """Whether the joint moves about or along an axis of its own (revolute, prismatic,
    helical, universal): what a picture draws as the joint's axis."""
    return JOINT_KINDS[int(joint_type)].axes > 0


def subspace(joint_type: int, axis, axis2=(0.0, 0.0, 0.0), pitch: float = 0.0) -> np.ndarray:
    """The motion subspace S (6 × nv) of one joint in its body's coordinates,
    [angular; linear], at the zero of its coordinates (a universal joint's first column
    turns with q₂): one column per packed row (:func:`.layout.joint_rows`), [s; 0] for a
    revolute row, [0; s] for a prismatic one, [s; h s] for a helical one."""
    jt = int(joint_type)
    S = np.zeros((6, JOINT_NV[jt]))
    k = 0
    for motion, s, _, _ in joint_rows(jt, axis, axis2):
        if motion == FIXED:
            continue
        if motion != PRISMATIC:
            S[:3, k] = s
        if motion == PRISMATIC:
            S[3:, k] = s
        elif motion == HELICAL:
            S[3:, k] = pitch * np.asarray(s, dtype=float)
        k += 1
    return S


def constant_subspace(joint_type) -> bool:
    """True where the joint's motion subspace S is constant in its body's axes: every type
    but universal and planar, whose S turns with their own coordinates."""
    return JOINT_KINDS[int(joint_type)].constant_subspace


def jacobian_column(joint_type: int, z, lever, pitch: float = 0.0) -> np.ndarray:
    """The geometric Jacobian column (6,) [angular; linear] of one rate whose axis is ``z``
    (world axes), at a point ``lever`` = point − a point of the axis: [z; z × lever]
    (revolute), [0; z] (prismatic), [z; z × lever + pitch z] (helical); broadcasts over
    leading axes."""
    z = np.asarray(z, dtype=float)
    col = np.zeros(z.shape[:-1] + (6,))
    if joint_type == PRISMATIC:
        col[..., 3:] = z
    else:
        col[..., :3] = z
        col[..., 3:] = np.cross(z, lever)
        if joint_type == HELICAL:
            col[..., 3:] += pitch * z
    return col
