"""An optimised excitation: Fourier coefficients that make the base regressor well
conditioned, within position and rate limits.

Swevers, Ganseman, Tükel, De Schutter & Van Brussel 1997, "Optimal robot excitation and
identification", IEEE TRA 13(5), §IV, choose the coefficients of the Fourier excitation
(:mod:`.excitation`) to minimise the condition number of the stacked base regressor
W_b over one period (Gautier & Khalil 1992, "Exciting trajectories for the identification
of base inertial parameters of robots", IJRR 11(4), use the same criterion), since the
parameters' relative errors are bounded by cond(W_b) times the relative error of the data.

Here each joint's coefficients are scaled as in :func:`.random_excitation` (one factor per
joint, so that the amplitude bounds meet the tighter of its position and rate limits);
the limits then hold for every candidate and the search is unconstrained: L-BFGS-B on
log cond(W_b) over the unscaled coefficients, gradient by forward differences, W_b at
``samples`` evenly spaced times of one period, starting from :func:`.random_excitation`'s
coefficients of the same seed.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import scipy.optimize

from .base_parameters import BaseParameters, base_parameters
from .excitation import FourierExcitation, random_excitation
from .regressor import joint_torque_regressor


class OptimizedExcitation(NamedTuple):
    """The result of :func:`optimize_excitation`.

    Attributes
    ----------
    excitation : FourierExcitation
        The optimised excitation.
    condition : float
        The condition number of its stacked base regressor.
    start_condition : float
        That of the start.
    evaluations : int
        Evaluations of the objective.
    """

    excitation: FourierExcitation
    condition: float
    start_condition: float
    evaluations: int


def _scaled(shape, center, q_range, qd_max, frequency):
    unit = FourierExcitation(frequency, center, shape[0], shape[1])
    q_bound, qd_bound, _ = unit.bounds()
    scale = np.minimum(q_range / q_bound, qd_max / qd_bound)[:, None]
    return FourierExcitation(frequency, center, shape[0] * scale, shape[1] * scale)


def optimize_excitation(
    model,
    q_center,
    q_range,
    qd_max,
    *,
    frequency: float,
    harmonics: int = 5,
    samples: int = 100,
    base: BaseParameters | None = None,
    max_iterations: int = 30,
    seed: int = 0,
) -> OptimizedExcitation:
    """A Fourier excitation of small cond(W_b) within position and rate limits.

    Parameters
    ----------
    model : Model
        The robot (fixed-base, nq = nv).
    q_center, q_range, qd_max : array_like ``(nv,)``
        The middle of each joint's range, the largest abs(q − q_center) and abs(q̇).
    frequency : float
        ω_f [rad/s].
    harmonics : int
        L.
    samples : int
        Times per period at which W_b is stacked (≥ the number of base parameters / nv).
    base : BaseParameters, optional
        Default ``base_parameters(model)``.
    max_iterations : int
        L-BFGS-B's iterations.
    seed : int
        Seed of the start (:func:`.random_excitation`).

    Returns
    -------
    OptimizedExcitation
        The excitation (within the limits by construction), its condition number and the
        start's.

    Raises
    ------
    ValueError
        What :func:`.random_excitation` refuses; nq ≠ nv; too few samples.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon.identification import optimize_excitation
    >>> arm = es.zoo.load("planar2")
    >>> found = optimize_excitation(arm, [0, 0], [1.5, 1.5], [2, 2], frequency=0.6,
    ...                             harmonics=3, max_iterations=5)
    >>> bool(found.condition <= found.start_condition)
    True
    """
    if model.nq != model.nv:
        raise ValueError(f"model: expected nq = nv (a fixed base), got {model.nq} and {model.nv}")
    start = random_excitation(
        q_center, q_range, qd_max, frequency=frequency, harmonics=harmonics, seed=seed
    )
    base = base_parameters(model) if base is None else base
    if samples * model.nv <= base.count:
        raise ValueError(
            f"samples: {samples} times give {samples * model.nv} rows for {base.count} base "
            "parameters; expected more"
        )
    center = np.asarray(q_center, dtype=float)
    limits = np.asarray(q_range, dtype=float), np.asarray(qd_max, dtype=float)
    t = np.arange(samples) * (start.period / samples)
    shape = (start.a.shape[0], start.a.shape[1])
    count = [0]

    def condition(x):
        count[0] += 1
        e = _scaled(x.reshape(2, *shape), center, *limits, float(frequency))
        W = base.regressor(joint_torque_regressor(model, *e.sample(t)))
        return float(np.log(np.linalg.cond(W.reshape(-1, base.count))))

    x0 = np.concatenate([start.a.ravel(), start.b.ravel()])
    first = condition(x0)
    solution = scipy.optimize.minimize(
        condition, x0, method="L-BFGS-B", options={"maxiter": int(max_iterations)}
    )
    # the figure of the point returned (L-BFGS-B's fun can be another point's after a
    # failed line search)
    last = condition(solution.x)
    best, value = (solution.x, last) if last < first else (x0, first)
    found = _scaled(best.reshape(2, *shape), center, *limits, float(frequency))
    return OptimizedExcitation(found, float(np.exp(value)), float(np.exp(first)), count[0])
