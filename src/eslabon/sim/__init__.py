"""Time simulation of the forward dynamics."""
from .simulate import METHODS, simulate
from .trajectory import Trajectory

__all__ = ["simulate", "Trajectory", "METHODS"]
