"""Rotations and rigid transforms (numpy, for model building and I/O).

The compiled kernels use their own tuple-based primitives in ``eslabon.spatial._nb``.
"""
from .rotations import rot_x, rot_y, rot_z, rot_axis, skew, is_rotation, homogeneous

__all__ = ["rot_x", "rot_y", "rot_z", "rot_axis", "skew", "is_rotation", "homogeneous"]
