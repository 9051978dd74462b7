"""Mobile manipulators (seed 003, Araujo 2012): wheeled platforms with rolling
constraints as quasi-velocity maps, an arm on them by Gibbs–Appell in the thesis's
one-way mode or fully coupled, and an independent Lagrange-multiplier check."""

from . import martinenko, sheth_uicker
from .manipulator import (
    MODES,
    MobileManipulator,
    Mount,
    ThesisOptions,
    accelerations,
    coupled_terms,
    input_power,
    inverse_dynamics,
    kinetic_energy,
    potential_energy,
    state_derivative,
)
from .platforms import DiffDriveParams, DifferentialDrive, Tricycle, TricycleParams

__all__ = [
    "martinenko",
    "sheth_uicker",
    "MODES",
    "MobileManipulator",
    "Mount",
    "ThesisOptions",
    "accelerations",
    "coupled_terms",
    "input_power",
    "inverse_dynamics",
    "kinetic_energy",
    "potential_energy",
    "state_derivative",
    "DiffDriveParams",
    "DifferentialDrive",
    "Tricycle",
    "TricycleParams",
]
from .simulate import MobileTrajectory, simulate  # noqa: E402

__all__ += ["MobileTrajectory", "simulate"]
