"""Kinematics: poses, Jacobians, link velocities and accelerations."""
from .forward import (end_effector_pose, forward_kinematics, frame_pose, frame_poses, jacobian,
                      link_accelerations, link_velocities)

__all__ = ["forward_kinematics", "frame_pose", "frame_poses", "end_effector_pose", "jacobian",
           "link_velocities", "link_accelerations"]
