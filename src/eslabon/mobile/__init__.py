"""Mobile manipulators (seed 003, Araujo 2012): wheeled platforms with rolling
constraints as quasi-velocity maps, an arm on them by Gibbs–Appell in the thesis's
one-way mode or fully coupled, and an independent Lagrange-multiplier check."""

from . import gibbs, martinenko, omnidirectional, sheth_uicker, synchronous
from .differential import DiffDriveParams, DifferentialDrive
from .energy import input_power, kinetic_energy, potential_energy
from .gibbs import coupled_terms
from .manipulator import (
    MODES,
    MobileManipulator,
    Mount,
    accelerations,
    inverse_dynamics,
    state_derivative,
)
from .omnidirectional import Omnidirectional, OmniParams
from .platforms import Tricycle, TricycleParams
from .synchronous import SyncDriveParams, SynchronousDrive
from .thesis import ThesisOptions, thesis_platform_accelerations

__all__ = [
    "gibbs",
    "martinenko",
    "omnidirectional",
    "sheth_uicker",
    "synchronous",
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
    "thesis_platform_accelerations",
    "DiffDriveParams",
    "DifferentialDrive",
    "Tricycle",
    "TricycleParams",
    "Omnidirectional",
    "OmniParams",
    "SynchronousDrive",
    "SyncDriveParams",
]
from . import control  # noqa: E402
from .simulate import MobileTrajectory, simulate  # noqa: E402

__all__ += ["MobileTrajectory", "simulate", "control"]
