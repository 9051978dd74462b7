"""Time simulation of the forward dynamics: one run (:func:`simulate`) or many at once
(:func:`rollout`, with the compiled feedback laws :class:`PD` and :class:`ComputedTorque`)."""

from .laws import PD, ComputedTorque
from .rollouts import ConstrainedRollout, Rollout, rollout, rollout_with_failures
from .simulate import METHODS, EnergyInjectionWarning, FrictionStepWarning, simulate
from .trajectory import Trajectory

__all__ = [
    "simulate",
    "rollout",
    "rollout_with_failures",
    "Rollout",
    "ConstrainedRollout",
    "PD",
    "ComputedTorque",
    "Trajectory",
    "METHODS",
    "EnergyInjectionWarning",
    "FrictionStepWarning",
]
