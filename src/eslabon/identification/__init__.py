"""Identification of a robot's parameters: the standard parameters π and their names,
the joint-torque, static and energy regressors, the regressors of closed chains and of
motions v = T w (a mobile manipulator's Gibbs–Appell form), the base parameters
(numerically and by the structural regrouping rules), excitation trajectories (within
position, rate, acceleration and torque limits) and least-squares estimates
(docs/identification.md)."""

from .base_parameters import BaseParameters, base_parameters
from .closed_chain import closed_chain_regressor, projected_regressor
from .consistent import ConsistentEstimate, consistent_estimate, pseudo_inertia
from .data_file import Measurements, read_measurements
from .energy import kinetic_energy_regressor, potential_energy_regressor
from .estimate import Estimate, estimate, joint_accelerations
from .excitation import FourierExcitation, random_excitation
from .excitation_design import OptimizedExcitation, optimize_excitation
from .excitation_limits import DesignedExcitation, JointLimits, design_excitation
from .mobile_regressor import MobileRegressor, mobile_regressor
from .parameters import parameter_count, parameter_names, parameters, with_parameters
from .regressor import joint_torque_regressor, static_regressor
from .regrouping import structural_base_parameters

__all__ = [
    "BaseParameters",
    "ConsistentEstimate",
    "DesignedExcitation",
    "Estimate",
    "FourierExcitation",
    "JointLimits",
    "Measurements",
    "MobileRegressor",
    "OptimizedExcitation",
    "base_parameters",
    "closed_chain_regressor",
    "consistent_estimate",
    "design_excitation",
    "estimate",
    "joint_accelerations",
    "joint_torque_regressor",
    "kinetic_energy_regressor",
    "mobile_regressor",
    "optimize_excitation",
    "parameter_count",
    "parameter_names",
    "parameters",
    "potential_energy_regressor",
    "projected_regressor",
    "pseudo_inertia",
    "random_excitation",
    "read_measurements",
    "static_regressor",
    "structural_base_parameters",
    "with_parameters",
]
