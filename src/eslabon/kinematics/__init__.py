"""Kinematics: poses, Jacobians, link velocities and accelerations, and the named
kinematic pass they are read from."""

from .forward import (
    end_effector_pose,
    forward_kinematics,
    frame_pose,
    frame_poses,
    jacobian,
    link_accelerations,
    link_velocities,
)
from .kinematic_pass import BaseMotion, KinematicPass, kinematic_pass

__all__ = [
    "forward_kinematics",
    "frame_pose",
    "frame_poses",
    "end_effector_pose",
    "jacobian",
    "link_velocities",
    "link_accelerations",
    "kinematic_pass",
    "KinematicPass",
    "BaseMotion",
]
