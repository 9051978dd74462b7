"""Closed loops and contacts: holonomic constraints between frames of a model and of
the world, their kinematics (φ, J, γ, rank, coordinate partitioning, assembly) and the
forward dynamics of the constrained system in four formulations that agree
(:func:`constrained_forward_dynamics`). See ``docs/constraints.md``."""

from ..model.constraint_types import AXES, PRESETS, Contact, LoopClosure
from .dynamics import CONSTRAINED_ALGORITHMS, ConstrainedAccelerations, constrained_forward_dynamics
from .kinematics import (
    Partition,
    RankReport,
    assemble,
    constraint_drift,
    constraint_jacobian,
    constraint_names,
    constraint_rank,
    constraint_residual,
    partition,
)

__all__ = [
    "AXES",
    "PRESETS",
    "LoopClosure",
    "Contact",
    "constraint_residual",
    "constraint_jacobian",
    "constraint_drift",
    "constraint_names",
    "constraint_rank",
    "RankReport",
    "partition",
    "Partition",
    "assemble",
    "constrained_forward_dynamics",
    "ConstrainedAccelerations",
    "CONSTRAINED_ALGORITHMS",
]
