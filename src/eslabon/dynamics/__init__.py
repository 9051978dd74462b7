"""Dynamics: one module per algorithm (rnea, walker_orin, forward, coriolis, energy, trace)."""
from .api import (bias_forces, coriolis_matrix, forward_dynamics, gravity_torques,
                  inverse_dynamics, kinetic_energy, mass_matrix, potential_energy, rnea_trace)
from .trace import RneaTrace

__all__ = ["inverse_dynamics", "rnea_trace", "RneaTrace", "mass_matrix", "forward_dynamics",
           "gravity_torques", "bias_forces", "coriolis_matrix", "kinetic_energy",
           "potential_energy"]
