"""Dynamics: one module per algorithm (rnea, walker_orin, aba, forward, derivatives, coriolis,
energy, trace)."""
from .api import (bias_forces, coriolis_matrix, forward_dynamics, gravity_torques,
                  inverse_dynamics, kinetic_energy, mass_matrix, potential_energy, rnea_trace)
from .derivatives import forward_dynamics_derivatives, inverse_dynamics_derivatives
from .trace import RneaTrace

__all__ = ["inverse_dynamics", "rnea_trace", "RneaTrace", "mass_matrix", "forward_dynamics",
           "gravity_torques", "bias_forces", "coriolis_matrix", "kinetic_energy",
           "potential_energy", "inverse_dynamics_derivatives", "forward_dynamics_derivatives"]
