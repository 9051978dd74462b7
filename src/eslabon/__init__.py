"""eslabon: dynamics of articulated rigid bodies.

>>> import eslabon as es
>>> robot = es.zoo.load("planar2")
>>> es.inverse_dynamics(robot, [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]).shape
(2,)
"""
from . import kinematics, model, zoo
from ._args import get_num_threads, set_num_threads
from .dynamics.crosscheck import crosscheck
from .dynamics import (RneaTrace, bias_forces, coriolis_matrix, forward_dynamics,
                       forward_dynamics_derivatives, gravity_torques, inverse_dynamics,
                       inverse_dynamics_derivatives, kinetic_energy, mass_matrix,
                       potential_energy, rnea_trace)
from .kinematics import end_effector_pose, forward_kinematics, jacobian
from .model import Model, from_dh
from .sim import Trajectory, simulate

__version__ = "0.1.0"

__all__ = ["model", "zoo", "kinematics", "Model", "from_dh", "inverse_dynamics", "rnea_trace",
           "RneaTrace", "mass_matrix", "forward_dynamics", "gravity_torques", "bias_forces",
           "coriolis_matrix", "inverse_dynamics_derivatives", "forward_dynamics_derivatives", "kinetic_energy", "potential_energy", "forward_kinematics",
           "end_effector_pose", "jacobian", "simulate", "Trajectory", "set_num_threads",
           "get_num_threads", "crosscheck", "__version__"]
