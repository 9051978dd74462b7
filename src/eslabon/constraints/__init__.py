"""Closed loops and contacts: holonomic constraints between frames of a model and of
the world, their kinematics (φ, J, γ, rank, coordinate partitioning, assembly) and the
forward dynamics of the constrained system in four formulations that agree
(:func:`constrained_forward_dynamics`), and its inverse dynamics: a parallel robot's
actuator torques, a floating robot's joint torques and contact forces
(:func:`constrained_inverse_dynamics`). :func:`eslabon.simulate` and
:func:`eslabon.rollout` integrate a model under its constraints. See
``docs/constraints.md``."""

from ..model.constraint_types import AXES, PRESETS, Contact, LoopClosure, RollingWheel
from .closure import ClosedState, close_state
from .crosscheck import crosscheck
from .dynamics import CONSTRAINED_ALGORITHMS, ConstrainedAccelerations, constrained_forward_dynamics
from .impact import Impact, impact
from .inverse_dynamics import ConstrainedTorques, constrained_inverse_dynamics
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
from .linearize import ConstrainedLinearization, linearize_constrained
from .mobility import Mobility, Pair, mobility

__all__ = [
    "AXES",
    "PRESETS",
    "LoopClosure",
    "Contact",
    "RollingWheel",
    "constraint_residual",
    "constraint_jacobian",
    "constraint_drift",
    "constraint_names",
    "constraint_rank",
    "RankReport",
    "partition",
    "Partition",
    "assemble",
    "close_state",
    "ClosedState",
    "constrained_inverse_dynamics",
    "ConstrainedTorques",
    "constrained_forward_dynamics",
    "ConstrainedAccelerations",
    "CONSTRAINED_ALGORITHMS",
    "impact",
    "Impact",
    "linearize_constrained",
    "ConstrainedLinearization",
    "crosscheck",
    "mobility",
    "Mobility",
    "Pair",
]
