"""Rotations and rigid transforms (numpy, for model building and I/O).

The compiled kernels use their own tuple-based primitives in ``eslabon._engine.tuples``.

Conventions shared by the functions below:

- Rotations are active and right-handed: ``R @ v`` rotates ``v``, and the columns of
  ``A_R_B`` are the axes of frame B written in frame A. Angles are in rad.
- The representations of Rojas (1987) §2.4: the linear invariants λ = vect(R) = e sin φ
  and λ0 = (tr R − 1)/2 = cos φ (e the unit axis, φ ∈ [0, π]); the Euler parameters
  (q0, q) = (cos φ/2, e sin φ/2), scalar FIRST with q0 ≥ 0 (the joint quaternions of
  ``eslabon.model`` are (x, y, z, w), scalar last); the Rodrigues parameters e tan(φ/2);
  ZXZ Euler angles and XYZ Bryant angles. The misprints of §2.4 are corrected (each
  function says which).
- Spatial vectors (Jaramillo Botero (1998), eq. (1.1)) are [angular; linear]: a velocity
  [w; v], a classical (not spatial) acceleration [ẇ; v̇], a force [N; f].
- The functions of ``invariants``, ``euler_parameters``, ``euler_angles`` and ``spatial6``
  take one input or stacks ((..., 3), (..., 3, 3), (..., 6), scalars (...)) whose
  leading axes broadcast, and raise ValueError naming the argument for a wrong shape,
  NaN or inf, or an invalid rotation, mass or inertia. ``rot_x``, ``rot_y``, ``rot_z``,
  ``is_rotation`` and ``homogeneous`` take one input and do not validate it; ``skew`` and
  ``rot_axis`` also take a stack of vectors.
"""

from .euler_angles import Angles, rotation_from_xyz, rotation_from_zxz, xyz_angles, zxz_angles
from .euler_parameters import (
    EulerParameters,
    RodriguesParameters,
    euler_parameters,
    euler_parameters_from_invariants,
    invariants_from_euler_parameters,
    rodrigues_parameters,
    rotation_from_euler_parameters,
    rotation_from_rodrigues,
)
from .invariants import (
    AxisAngle,
    LinearInvariants,
    angular_velocity,
    as_rotation,
    axis_angle,
    invariant_rates,
    linear_invariants,
    rotation_from_axis_angle,
    rotation_from_invariants,
    vect,
)
from .point_masses import PointMassMoments, point_mass_inertia
from .rotations import homogeneous, is_rotation, rot_axis, rot_x, rot_y, rot_z, skew
from .spatial6 import (
    body_force,
    combined_body,
    cuboid_inertia,
    force_cross,
    gyroscopic_force,
    is_spatial_inertia,
    motion_cross,
    parallel_axis,
    power,
    rigid_transform,
    rotation_operator,
    spatial_inertia,
    spatial_inertia_com,
    spatial_vector,
    split_spatial,
    translation_operator,
)

__all__ = [
    "rot_x",
    "rot_y",
    "rot_z",
    "rot_axis",
    "skew",
    "is_rotation",
    "homogeneous",
    "as_rotation",
    "vect",
    "linear_invariants",
    "rotation_from_invariants",
    "axis_angle",
    "rotation_from_axis_angle",
    "euler_parameters",
    "rotation_from_euler_parameters",
    "invariants_from_euler_parameters",
    "euler_parameters_from_invariants",
    "rodrigues_parameters",
    "rotation_from_rodrigues",
    "rotation_from_zxz",
    "zxz_angles",
    "rotation_from_xyz",
    "xyz_angles",
    "angular_velocity",
    "invariant_rates",
    "LinearInvariants",
    "AxisAngle",
    "EulerParameters",
    "RodriguesParameters",
    "Angles",
    "spatial_vector",
    "split_spatial",
    "translation_operator",
    "rotation_operator",
    "rigid_transform",
    "motion_cross",
    "force_cross",
    "spatial_inertia_com",
    "spatial_inertia",
    "combined_body",
    "parallel_axis",
    "cuboid_inertia",
    "point_mass_inertia",
    "PointMassMoments",
    "gyroscopic_force",
    "body_force",
    "power",
    "is_spatial_inertia",
]
