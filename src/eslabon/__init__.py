"""eslabon: dynamics of articulated rigid bodies.

>>> import eslabon as es
>>> robot = es.zoo.load("planar2")
>>> es.inverse_dynamics(robot, [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]).shape
(2,)

``import eslabon`` loads nothing but this file: each name below is imported on its first
use (PEP 562), numba only with the first compiled kernel, and each kernel compiles on
its first use (see :func:`compile_notice`, ``eslabon warmup``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

__version__ = "0.1.0"

# name -> the module that defines it
_ATTRIBUTES = {
    "Model": "eslabon.model",
    "from_dh": "eslabon.model",
    "inverse_dynamics": "eslabon.dynamics",
    "rnea_trace": "eslabon.dynamics",
    "RneaTrace": "eslabon.dynamics",
    "mass_matrix": "eslabon.dynamics",
    "forward_dynamics": "eslabon.dynamics",
    "gravity_torques": "eslabon.dynamics",
    "bias_forces": "eslabon.dynamics",
    "coriolis_matrix": "eslabon.dynamics",
    "inverse_dynamics_derivatives": "eslabon.dynamics",
    "forward_dynamics_derivatives": "eslabon.dynamics",
    "kinetic_energy": "eslabon.dynamics",
    "potential_energy": "eslabon.dynamics",
    "momentum": "eslabon.dynamics",
    "centroidal_momentum_matrix": "eslabon.dynamics",
    "centroidal_momentum": "eslabon.dynamics",
    "Centroidal": "eslabon.dynamics",
    "operational_space": "eslabon.dynamics",
    "OperationalSpace": "eslabon.dynamics",
    "ExternalWrench": "eslabon.dynamics.wrenches",
    "crosscheck": "eslabon.dynamics.crosscheck",
    "forward_kinematics": "eslabon.kinematics",
    "end_effector_pose": "eslabon.kinematics",
    "jacobian": "eslabon.kinematics",
    "jacobian_time_derivative": "eslabon.kinematics",
    "center_of_mass": "eslabon.kinematics",
    "com_jacobian": "eslabon.kinematics",
    "CenterOfMass": "eslabon.kinematics",
    "simulate": "eslabon.sim",
    "rollout": "eslabon.sim",
    "Trajectory": "eslabon.sim",
    "set_num_threads": "eslabon._args",
    "get_num_threads": "eslabon._args",
    "compile_notice": "eslabon._engine.compile",
    "load_model": "eslabon.loader",
    "integrate": "eslabon.model.configuration",
    "difference": "eslabon.model.configuration",
    "neutral": "eslabon.model.configuration",
    "random_configuration": "eslabon.model.configuration",
    "normalize": "eslabon.model.configuration",
    "with_payload": "eslabon.model.variants",
    "with_joint_friction": "eslabon.model.variants",
    "joint_trajectory": "eslabon.trajectory.joint",
    "JointTrajectory": "eslabon.trajectory.joint",
}
_SUBPACKAGES = (
    "model",
    "zoo",
    "kinematics",
    "dynamics",
    "sim",
    "constraints",
    "spatial",
    "control",
    "mobile",
    "identification",
    "practica",
    "trajectory",
    "batch",
    "viz",
    "interop",
    "robots",
    "bench",
    "cli",
    "warmup",
)

__all__ = [
    "model",
    "zoo",
    "robots",
    "kinematics",
    "constraints",
    "Model",
    "from_dh",
    "inverse_dynamics",
    "rnea_trace",
    "RneaTrace",
    "mass_matrix",
    "forward_dynamics",
    "gravity_torques",
    "bias_forces",
    "coriolis_matrix",
    "inverse_dynamics_derivatives",
    "forward_dynamics_derivatives",
    "kinetic_energy",
    "potential_energy",
    "momentum",
    "centroidal_momentum_matrix",
    "centroidal_momentum",
    "Centroidal",
    "operational_space",
    "OperationalSpace",
    "ExternalWrench",
    "forward_kinematics",
    "end_effector_pose",
    "jacobian",
    "jacobian_time_derivative",
    "center_of_mass",
    "com_jacobian",
    "CenterOfMass",
    "simulate",
    "rollout",
    "Trajectory",
    "set_num_threads",
    "get_num_threads",
    "crosscheck",
    "compile_notice",
    "load_model",
    "integrate",
    "difference",
    "neutral",
    "random_configuration",
    "normalize",
    "with_payload",
    "with_joint_friction",
    "joint_trajectory",
    "JointTrajectory",
    "__version__",
]


def __getattr__(name: str):
    if name in _ATTRIBUTES:
        value = getattr(importlib.import_module(_ATTRIBUTES[name]), name)
        globals()[name] = value
        return value
    if name in _SUBPACKAGES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'eslabon' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_ATTRIBUTES) | set(_SUBPACKAGES))


if TYPE_CHECKING:  # what the names are, for type checkers and IDEs
    from . import kinematics, model, robots, zoo  # noqa: F401
    from ._args import get_num_threads, set_num_threads  # noqa: F401
    from ._engine.compile import compile_notice  # noqa: F401
    from .dynamics import (  # noqa: F401
        Centroidal,
        OperationalSpace,
        RneaTrace,
        bias_forces,
        centroidal_momentum,
        centroidal_momentum_matrix,
        coriolis_matrix,
        forward_dynamics,
        forward_dynamics_derivatives,
        gravity_torques,
        inverse_dynamics,
        inverse_dynamics_derivatives,
        kinetic_energy,
        mass_matrix,
        momentum,
        operational_space,
        potential_energy,
        rnea_trace,
    )
    from .dynamics.crosscheck import crosscheck  # noqa: F401
    from .dynamics.wrenches import ExternalWrench  # noqa: F401
    from .kinematics import (  # noqa: F401
        CenterOfMass,
        center_of_mass,
        com_jacobian,
        end_effector_pose,
        forward_kinematics,
        jacobian,
        jacobian_time_derivative,
    )
    from .loader import load_model  # noqa: F401
    from .model import Model, from_dh  # noqa: F401
    from .model.configuration import (  # noqa: F401
        difference,
        integrate,
        neutral,
        normalize,
        random_configuration,
    )
    from .model.variants import with_joint_friction, with_payload  # noqa: F401
    from .sim import Trajectory, simulate  # noqa: F401
    from .trajectory.joint import JointTrajectory, joint_trajectory  # noqa: F401
