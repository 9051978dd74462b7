"""Dynamics: one module per algorithm (rnea, walker_orin, aba, cholesky_fd, derivatives,
coriolis, energy, momentum; the numpy formulations lagrange, soa, gibbs_appell; trace), the ways
each compiled one is called (drivers) and the public functions (api)."""

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

# imported on first use: they need the compiled kernels (and numba), the functions above
# only when a call takes their general path (eslabon._engine.startlib)
_LAZY = {"momentum": ".momentum", "RneaTrace": ".trace"}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    "inverse_dynamics_derivatives",
    "forward_dynamics_derivatives",
]
