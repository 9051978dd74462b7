"""Mobile manipulators (seed 003, Araujo 2012): wheeled platforms with rolling
constraints as quasi-velocity maps, an arm on them by Gibbs–Appell in the thesis's
one-way mode or fully coupled, and an independent Lagrange-multiplier check."""

from . import (
    gibbs,
    omnidirectional,
    steered_cart,
    synchronous,
    terrain,
    tilted_steering,
    tool_constraint,
    transform_derivatives,
    wheel_kinematics,
)
from .differential import DiffDriveParams, DifferentialDrive
from .energy import arm_potential_energy, coupled_kinetic_energy, input_power
from .gibbs import coupled_terms
from .manipulator import (
    MODES,
    MobileManipulator,
    Mount,
    accelerations,
    input_forces,
    state_derivative,
)
from .omnidirectional import Omnidirectional, OmniParams
from .one_way_coupling import ThesisOptions, thesis_platform_accelerations
from .platforms import Tricycle, TricycleParams
from .synchronous import SyncDriveParams, SynchronousDrive
from .terrain import Slope

__all__ = [
    "gibbs",
    "omnidirectional",
    "steered_cart",
    "synchronous",
    "terrain",
    "tilted_steering",
    "tool_constraint",
    "transform_derivatives",
    "wheel_kinematics",
    "Slope",
    "MODES",
    "MobileManipulator",
    "Mount",
    "ThesisOptions",
    "accelerations",
    "coupled_terms",
    "input_power",
    "input_forces",
    "coupled_kinetic_energy",
    "arm_potential_energy",
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

# old names: functions of the whole state y that reused the arm's names
# (eslabon.inverse_dynamics, …), and modules named after people and a thesis before they
# were named by what they compute (an old module imported by its path warns there)
_RENAMED = {
    "inverse_dynamics": "input_forces",
    "kinetic_energy": "coupled_kinetic_energy",
    "potential_energy": "arm_potential_energy",
    "martinenko": "steered_cart",
    "sheth_uicker": "wheel_kinematics",
    "thesis": "one_way_coupling",
}


def __getattr__(name: str):
    if name in _RENAMED:
        from .._deprecation import warn_renamed

        warn_renamed(f"eslabon.mobile.{name}", f"eslabon.mobile.{_RENAMED[name]}")
        return globals()[_RENAMED[name]]  # each imported above
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
