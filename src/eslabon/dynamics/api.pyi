"""Signatures of :mod:`eslabon.dynamics.api` for type checkers.

api.py declares each compiled quantity once, as a record (:class:`.quantity.Quantity`);
the functions whose record names a C entry become builtins made by
:func:`.quantity.public`, which carry no annotations; this stub gives every public
function of api.py its signature. A state is (n,) or a batch (N, n) and results
follow: (n,)/(N, n) vectors, (n, n)/(N, n, n) matrices. Keep it in step with api.py.
"""

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..model.model import Model
from .quantity import Quantity
from .trace import RneaTrace

MASS_MATRIX_METHODS: tuple[str, ...]
FORWARD_METHODS: tuple[str, ...]
INVERSE_DYNAMICS: Quantity
GRAVITY_TORQUES: Quantity
BIAS_FORCES: Quantity
MASS_MATRIX: Quantity
FORWARD_DYNAMICS: Quantity
INVERSE_DYNAMICS_DERIVATIVES: Quantity
FORWARD_DYNAMICS_DERIVATIVES: Quantity
CORIOLIS_MATRIX: Quantity
ENERGIES: Quantity
QUANTITIES: tuple[Quantity, ...]

def inverse_dynamics(
    model: Model,
    q: ArrayLike,
    qd: ArrayLike,
    qdd: ArrayLike,
    *,
    wrenches: object = None,
    tip_wrench: ArrayLike | None = None,
) -> NDArray[np.float64]: ...
def gravity_torques(model: Model, q: ArrayLike) -> NDArray[np.float64]: ...
def bias_forces(model: Model, q: ArrayLike, qd: ArrayLike) -> NDArray[np.float64]: ...
def mass_matrix(model: Model, q: ArrayLike, *, algorithm: str = "crba") -> NDArray[np.float64]: ...
def forward_dynamics(
    model: Model,
    q: ArrayLike,
    qd: ArrayLike,
    tau: ArrayLike,
    *,
    algorithm: str | None = None,
    wrenches: object = None,
) -> NDArray[np.float64]: ...
def inverse_dynamics_derivatives(
    model: Model,
    q: ArrayLike,
    qd: ArrayLike,
    qdd: ArrayLike,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]: ...
def forward_dynamics_derivatives(
    model: Model,
    q: ArrayLike,
    qd: ArrayLike,
    tau: ArrayLike,
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]: ...
def coriolis_matrix(model: Model, q: ArrayLike, qd: ArrayLike) -> NDArray[np.float64]: ...

# One state gives a 0-d float64 array (usable as a float: float(T), T + 1.0), a batch (N,).
def kinetic_energy(model: Model, q: ArrayLike, qd: ArrayLike) -> NDArray[np.float64]: ...
def potential_energy(model: Model, q: ArrayLike) -> NDArray[np.float64]: ...
def rnea_trace(
    model: Model,
    q: ArrayLike,
    qd: ArrayLike,
    qdd: ArrayLike,
    *,
    wrenches: object = None,
    tip_wrench: ArrayLike | None = None,
) -> RneaTrace: ...
