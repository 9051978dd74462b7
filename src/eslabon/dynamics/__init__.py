"""Dynamics: one module per algorithm (rnea, composite_rigid_body, aba,
cholesky_forward_dynamics, derivatives, coriolis, energy, momentum, centroidal,
operational_space; the numpy formulations
lagrange, soa, newton_euler_body_frames, gibbs_appell; trace), the ways each compiled one
is called (drivers) and the public functions (api)."""

from typing import TYPE_CHECKING

from .._engine.lazymodule import lazy_attributes
from .api import (
    bias_forces,
    coriolis_matrix,
    forward_dynamics,
    forward_dynamics_derivatives,
    gravity_torques,
    inverse_dynamics,
    inverse_dynamics_derivatives,
    kinetic_energy,
    mass_matrix,
    potential_energy,
    rnea_trace,
)
from .centroidal import Centroidal, centroidal_momentum, centroidal_momentum_matrix
from .momentum import body_momenta, momentum
from .operational_space import OperationalSpace, operational_space

# imported on first use: it needs the compiled kernels (and numba), the functions above
# only when a call takes their general path (eslabon._engine.startlib). (Not a name a
# submodule has: importing the submodule would set the package's attribute to it.)
_LAZY = {"RneaTrace": ".trace", "gibbs_function": ".gibbs_appell"}


__getattr__ = lazy_attributes(globals(), _LAZY)

if TYPE_CHECKING:
    from .gibbs_appell import gibbs_function  # noqa: F401
    from .trace import RneaTrace  # noqa: F401


__all__ = [
    "inverse_dynamics",
    "rnea_trace",
    "RneaTrace",
    "mass_matrix",
    "forward_dynamics",
    "gravity_torques",
    "bias_forces",
    "coriolis_matrix",
    "kinetic_energy",
    "potential_energy",
    "momentum",
    "body_momenta",
    "gibbs_function",
    "centroidal_momentum_matrix",
    "centroidal_momentum",
    "Centroidal",
    "operational_space",
    "OperationalSpace",
    "inverse_dynamics_derivatives",
    "forward_dynamics_derivatives",
]
