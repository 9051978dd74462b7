"""Mobile manipulators (seed 003, Araujo 2012): wheeled platforms with rolling
constraints as quasi-velocity maps, an arm on them by Gibbs–Appell in the thesis's
one-way mode or fully coupled, and an independent Lagrange-multiplier check."""

import warnings

from . import gibbs, omnidirectional, steered_cart, synchronous, wheel_kinematics
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
from .one_way_coupling import ThesisOptions, thesis_platform_accelerations
from .platforms import Tricycle, TricycleParams
from .synchronous import SyncDriveParams, SynchronousDrive

__all__ = [
    "gibbs",
    "omnidirectional",
    "steered_cart",
    "synchronous",
    "wheel_kinematics",
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

# the modules' names before they were named by what they compute (one release, then gone):
# `eslabon.mobile.martinenko` read as an attribute warns here; imported by its path, its
# module at the old name warns
_RENAMED = {
    "martinenko": "steered_cart",
    "sheth_uicker": "wheel_kinematics",
    "thesis": "one_way_coupling",
}


def __getattr__(name: str):
    if name in _RENAMED:
        new = _RENAMED[name]
        warnings.warn(
            f"eslabon.mobile.{name} is renamed eslabon.mobile.{new}; import that",
            DeprecationWarning,
            stacklevel=2,
        )
        return globals()[new]  # each imported above (one_way_coupling by its names)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
