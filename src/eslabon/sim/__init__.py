"""Time simulation of the forward dynamics."""

from .rollouts import Rollout, rollout
from .simulate import METHODS, EnergyInjectionWarning, simulate
from .trajectory import Trajectory

__all__ = ["simulate", "rollout", "Rollout", "Trajectory", "METHODS", "EnergyInjectionWarning"]
