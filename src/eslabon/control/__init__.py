"""Linearization and control design along a trajectory (seed 000 chapter 5).

* :func:`linearize`, :func:`linearize_along`: U, V, W and A(t), B(t) (exact, batched);
  :func:`perturbation_check` (Table 5.4.2); :func:`frozen_eigenvalues`;
  :func:`state_matrices` (A, B of U, V, W); :func:`to_python_control`.
* :func:`model_assignment` (K_p = UΩ² − W, K_d = 2UΨΩ − V), :func:`place_poles` (scipy or
  the Sylvester form), :func:`lqr`, :func:`tvlqr` (backward Riccati ODE).
* :func:`min_norm_place_poles` (Keel, Fleming & Bhattacharyya 1985: the least ‖K‖_F over
  the Sylvester parametrization), :func:`sylvester_gain`, :func:`sylvester_parameter`.
* :class:`Nominal`, control laws (:func:`model_assignment_law`, :func:`gain_schedule_law`,
  :func:`computed_torque_law`, :func:`pd_gravity_law`) and :func:`simulate_closed_loop`;
  :func:`parallel_computed_torque_law` for a closed chain (a parallel robot).

See ``docs/control.md``.
"""

from .design import (
    LQR,
    closed_loop_matrix,
    controllable,
    lqr,
    model_assignment,
    place_poles,
    spd_matrix,
)
from .linearize import (
    Linearization,
    PerturbationCheck,
    frozen_eigenvalues,
    linearize,
    linearize_along,
    perturbation_check,
    sort_eigenvalues,
    state_matrices,
    to_python_control,
)
from .min_norm import MinNormPlacement, min_norm_place_poles, sylvester_gain, sylvester_parameter
from .parallel import parallel_computed_torque_law
from .tracking import (
    ClosedLoop,
    Nominal,
    computed_torque_law,
    gain_schedule_law,
    model_assignment_law,
    pd_gravity_law,
    simulate_closed_loop,
)
from .tvlqr import TVLQR, tvlqr

__all__ = [
    "linearize",
    "linearize_along",
    "Linearization",
    "perturbation_check",
    "PerturbationCheck",
    "frozen_eigenvalues",
    "sort_eigenvalues",
    "state_matrices",
    "to_python_control",
    "model_assignment",
    "place_poles",
    "min_norm_place_poles",
    "MinNormPlacement",
    "sylvester_gain",
    "sylvester_parameter",
    "lqr",
    "LQR",
    "controllable",
    "closed_loop_matrix",
    "spd_matrix",
    "tvlqr",
    "TVLQR",
    "Nominal",
    "model_assignment_law",
    "gain_schedule_law",
    "computed_torque_law",
    "parallel_computed_torque_law",
    "pd_gravity_law",
    "ClosedLoop",
    "simulate_closed_loop",
]

# old names: ``state_space`` built the matrices, ``to_statespace`` python-control's object
_RENAMED = {"state_space": "state_matrices", "to_statespace": "to_python_control"}


def __getattr__(name: str):
    if name in _RENAMED:
        from .._deprecation import warn_renamed

        warn_renamed(f"eslabon.control.{name}", f"eslabon.control.{_RENAMED[name]}")
        return globals()[_RENAMED[name]]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
