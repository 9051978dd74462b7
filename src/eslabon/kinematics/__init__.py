"""Kinematics: poses, Jacobians, link velocities and accelerations, and the named
kinematic pass they are read from; frame velocities and classical accelerations, the
Jacobian's time derivative, the centre of mass and its Jacobian."""

from .center_of_mass import CenterOfMass, center_of_mass, com_jacobian
from .forward import (
    end_effector_pose,
    forward_kinematics,
    frame_pose,
    frame_poses,
    jacobian,
    link_accelerations,
    link_velocities,
)
from .frame_motion import bias_acceleration, frame_acceleration, frame_velocity
from .jacobian_derivative import jacobian_time_derivative
from .kinematic_pass import BaseMotion, KinematicPass, kinematic_pass

__all__ = [
    "forward_kinematics",
    "frame_pose",
    "frame_poses",
    "end_effector_pose",
    "jacobian",
    "link_velocities",
    "link_accelerations",
    "frame_velocity",
    "frame_acceleration",
    "bias_acceleration",
    "jacobian_time_derivative",
    "center_of_mass",
    "com_jacobian",
    "CenterOfMass",
    "kinematic_pass",
    "KinematicPass",
    "BaseMotion",
]
