"""Named reads of a row's record in the packed model, for compiled code.

The layout itself (what each field holds, where) is :mod:`.layout`, which imports no
numba; these are its compiled getters. A kernel finds row ``i``'s record at
``o = row_offset(i)`` (the next row's at ``next_row(o)``) and reads its integer fields
with :func:`parent`, :func:`rate_index` and :func:`coordinate_index`; its float fields as
``P[o + MASS]`` and the like, its joint as one tuple
(:func:`eslabon._engine.joints.joint`). Each getter is inlined where it is called (numba
``inline="always"``) and is the very expression the kernels wrote by hand before, so it
lowers to the same address arithmetic and loads (the machine code of the ID, M and FD
entries is the same instruction for instruction).
"""

from __future__ import annotations

from numba import njit

from .layout import CFG, HEADER, PARENT, STRIDE, VIDX


@njit(inline="always")
def row_offset(i):
    """Offset in ``P`` of the record of packed row ``i`` (0 = world)."""
    return HEADER + i * STRIDE


@njit(inline="always")
def next_row(o):
    """Offset of the record after the one at offset ``o`` (the next row)."""
    return o + STRIDE


@njit(inline="always")
def parent(P, o):
    """The row of the parent of the record at offset ``o`` (-1 for the world)."""
    return int(P[o + PARENT])


@njit(inline="always")
def rate_index(P, o):
    """Index in v (q̇, q̈, τ) of the rate of the record at offset ``o``, -1 for none."""
    return int(P[o + VIDX])


@njit(inline="always")
def coordinate_index(P, o):
    """Index in q of what places the record at offset ``o`` (its angle or displacement,
    its quaternion or pose), -1 for none."""
    return int(P[o + CFG])
