"""Inverse kinematics.

* :func:`newton_gauss` — the redundant 7×6 system (2·vect, trace, position) of Rojas
  Salgado (1987) §3.3 by Householder least squares, or its square 6×6 variant;
  :func:`rates` and :func:`accelerations` reuse its factor; :func:`classify_singularity`
  tells intrinsic from spurious singularities (§3.4).
* :func:`two_point` — the 5-DOF axisymmetric-tool IK by two axis points (Rojas Salgado
  1987, §3.5), with :func:`two_point_rates` and :func:`two_point_accelerations`.
* :func:`approach` and :func:`solve_path` — continuation to a pose and along a task;
  :func:`least_condition_start` — the start that minimises κ(J) (3.3.1.12), and
  :func:`jacobian_condition`.
* :func:`damped_least_squares` — a general solver for any model (redundant arms,
  position-only targets, singular poses).

Every solver returns an :class:`IKResult`; check ``converged`` and ``singular``.
"""

from .conditioning import ConditionedStart, jacobian_condition, least_condition_start
from .continuation import PathSolution, approach, solve_path
from .dls import damped_least_squares
from .gauss import IKResult, QRFactor
from .newton_gauss import EQUATIONS, accelerations, classify_singularity, newton_gauss, rates
from .two_point import two_point, two_point_accelerations, two_point_rates

__all__ = [
    "IKResult",
    "QRFactor",
    "EQUATIONS",
    "newton_gauss",
    "rates",
    "accelerations",
    "classify_singularity",
    "two_point",
    "two_point_rates",
    "two_point_accelerations",
    "approach",
    "solve_path",
    "PathSolution",
    "damped_least_squares",
    "least_condition_start",
    "jacobian_condition",
    "ConditionedStart",
]
