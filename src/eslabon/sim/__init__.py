"""Time simulation of the forward dynamics."""

from .simulate import METHODS, EnergyInjectionWarning, simulate
from .trajectory import Trajectory

__all__ = ["simulate", "Trajectory", "METHODS", "EnergyInjectionWarning"]
