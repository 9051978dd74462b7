"""Rotations and rigid transforms (numpy, for model building and I/O).

The compiled kernels use their own tuple-based primitives in ``eslabon._engine.tuples``.
"""
from .rotations import rot_x, rot_y, rot_z, rot_axis, skew, is_rotation, homogeneous
from .invariants import (
    as_rotation, vect, linear_invariants, rotation_from_invariants, axis_angle, rotation_from_axis_angle,
    euler_parameters, rotation_from_euler_parameters, invariants_from_euler_parameters,
    euler_parameters_from_invariants, rodrigues_parameters, rotation_from_rodrigues,
    rotation_from_zxz, zxz_angles, rotation_from_xyz, xyz_angles, angular_velocity,
    invariant_rates, LinearInvariants, AxisAngle, EulerParameters, RodriguesParameters, Angles,
)
from .spatial6 import (
    spatial_vector, split_spatial, translation_operator, rotation_operator, rigid_transform,
    motion_cross, force_cross, spatial_inertia_com, spatial_inertia, parallel_axis,
    cuboid_inertia, gyroscopic_force, body_force, power, is_spatial_inertia,
)

__all__ = ["rot_x", "rot_y", "rot_z", "rot_axis", "skew", "is_rotation", "homogeneous",
           "as_rotation", "vect", "linear_invariants", "rotation_from_invariants", "axis_angle",
           "rotation_from_axis_angle", "euler_parameters", "rotation_from_euler_parameters",
           "invariants_from_euler_parameters", "euler_parameters_from_invariants",
           "rodrigues_parameters", "rotation_from_rodrigues", "rotation_from_zxz",
           "zxz_angles", "rotation_from_xyz", "xyz_angles", "angular_velocity",
           "invariant_rates", "LinearInvariants", "AxisAngle", "EulerParameters",
           "RodriguesParameters", "Angles",
           "spatial_vector", "split_spatial", "translation_operator", "rotation_operator",
           "rigid_transform", "motion_cross", "force_cross", "spatial_inertia_com",
           "spatial_inertia", "parallel_axis", "cuboid_inertia", "gyroscopic_force",
           "body_force", "power", "is_spatial_inertia"]
