"""Base parameters: the identifiable combinations of the standard parameters, named.

τ = Y π does not determine π: some columns of Y are zero (a parameter that never acts)
and others are linear combinations of earlier ones (Mayeda, Yoshida & Osuka 1990; Gautier
1990, "Numerical calculation of the base inertial parameters of robots", J. Robotic
Systems 8(4)). With W the regressors of many random states stacked, the base parameters
are β = π_b + K π_d, where π_b are the columns of W kept as independent, π_d the others
and W_d = W_b K, so that

    τ = W π = W_b β.

Numerically (Gautier 1990, §3): W (S·nv × p) is built from S random states (q from
:func:`eslabon.random_configuration`, q̇, q̈ standard normal; seed fixed, S documented
below), its columns scaled to unit norm, and factored W = Q R **without pivoting**, in
the order of π. abs(R_jj) is then the distance of column j from the span of the columns
before it, so column j is dependent when abs(R_jj) is zero; the standard parameters kept
are the first independent ones in the order of π (bodies from the base out), so a
regrouped parameter collects the later (outer) bodies' ones, as in Khalil & Dombre,
*Modeling, Identification and Control of Robots*, 2002, §9.3.

The decision never rests on round-off; each test has a gap of decades between its two
answers, far from both the round-off (~1e-15) and the geometry of real robots, and a
value inside a gap is refused (ValueError naming the parameter):

- a column whose norm is below 1e-13 of the largest never acts (unidentifiable), one
  above 1e-8 acts;
- a column is dependent when abs(R_jj) ≤ 1e-10 and independent when abs(R_jj) ≥ 1e-5
  (the zoo's models: every kept column above 0.3, every dropped one below 2e-15);
- K is solved by least squares; an entry scaled by the column norms,
  abs(K_ij) · ‖W_b,i‖ / ‖W_d,j‖, below 1e-9 is an exact zero of the structure, one
  above 1e-6 a term.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.linalg

from ..model.configuration import random_configuration
from .parameters import parameter_count, parameter_names
from .regressor import joint_torque_regressor

DEPENDENT_BELOW = 1e-8  # abs(R_jj) of a dependent column (columns of unit norm)
KEPT_ABOVE = 1e-5  # every independent column must stand at least this far out
DROPPED_BELOW = 1e-10  # and every dependent one this close to the span
ZERO_COLUMN = 1e-13  # a column this small (relative to the largest) never acts
ACTING_COLUMN = 1e-8  # and one acts only when at least this large
ZERO_COEFFICIENT = 1e-9  # |K_ij| · ‖W_b,i‖ / ‖W_d,j‖ below this is a structural zero
CLEAR_COEFFICIENT = 1e-6  # and above this a term; in between is refused


@dataclass(frozen=True)
class BaseParameters:
    """The base parameters of a model: β = π[independent] + K π[dependent].

    Attributes
    ----------
    names : tuple of str ``(p,)``
        The standard parameters' names (:func:`eslabon.identification.parameter_names`).
    independent : ndarray of int ``(r,)``
        Indices into π of the standard parameter each base parameter starts from.
    dependent : ndarray of int ``(d,)``
        Indices into π of the parameters regrouped into others (dependent columns).
    unidentifiable : ndarray of int ``(z,)``
        Indices into π of the parameters τ never depends on (zero columns).
    K : ndarray ``(r, d)``
        The regrouping coefficients: W_d = W_b K.
    map : ndarray ``(r, p)``
        β = map @ π.
    expressions : tuple of str ``(r,)``
        Each base parameter written out, e.g. ``link2.Izz + link3.Iyy + 0.1866·link3.m``
        (coefficients to 4 significant digits; the exact ones are in ``K``).
    ratios : ndarray ``(p,)``
        abs(R_jj) of each column scaled to unit norm (0 for a zero column).
    samples : int
        The number of random states stacked.
    """

    names: tuple
    independent: np.ndarray
    dependent: np.ndarray
    unidentifiable: np.ndarray
    K: np.ndarray
    map: np.ndarray
    expressions: tuple
    ratios: np.ndarray
    samples: int

    @property
    def count(self) -> int:
        """r, the number of base parameters (the rank of the stacked regressor)."""
        return len(self.independent)

    def regressor(self, Y) -> np.ndarray:
        """The base regressor W_b of a regressor Y: τ = W_b β.

        Parameters
        ----------
        Y : array_like ``(…, nv, p)``
            A joint-torque (or static) regressor of the same model and columns.

        Returns
        -------
        ndarray (…, nv, r)
            Its columns of the kept parameters, ``independent``.
        """
        return np.asarray(Y)[..., self.independent]

    def values(self, pi) -> np.ndarray:
        """The base parameters β of standard parameters π.

        Parameters
        ----------
        pi : array_like ``(p,)``
            Standard parameters (:func:`eslabon.identification.parameters`).

        Returns
        -------
        ndarray (r,)
            β = ``map`` @ π = π_b + K π_d.
        """
        return self.map @ np.asarray(pi, dtype=float)

    def __str__(self) -> str:
        total = self.count + len(self.unidentifiable) + len(self.dependent)
        lines = [
            f"{self.count} base parameters of {total} standard ones "
            f"({len(self.unidentifiable)} never act on τ, {len(self.dependent)} regrouped "
            "into others):"
        ]
        lines += [f"  β{k + 1} = {e}" for k, e in enumerate(self.expressions)]
        return "\n".join(lines)


def _term(coefficient, name, first):
    sign = "-" if coefficient < 0 else "+"
    size = abs(coefficient)
    text = name if abs(size - 1.0) <= 1e-9 else f"{size:.4g}·{name}"
    if first:
        return ("-" if sign == "-" else "") + text
    return f" {sign} {text}"


def _expression(names, kept, dependent, coefficients):
    text = _term(1.0, names[kept], True)
    for j, c in zip(dependent, coefficients, strict=True):
        if c != 0.0:
            text += _term(c, names[j], False)
    return text


def base_parameters(model, *, joint_terms: bool = True, samples=None, seed: int = 0):
    """The base parameters of a model, numerically (module docstring).

    Parameters
    ----------
    model : Model
        Any model whose bodies are rigid.
    joint_terms : bool
        Include the friction and armature columns (True) or only the bodies' inertial
        parameters (False: the joint columns count as neither kept nor regrouped).
    samples : int, optional
        Random states to stack; default max(20, 4·⌈p / nv⌉), p the number of columns.
    seed : int
        Seed of the random states (the result does not depend on it when the gap holds).

    Returns
    -------
    BaseParameters
        The kept, regrouped and unidentifiable parameters, K, the map π ↦ β and the named
        expressions.

    Raises
    ------
    ValueError
        A model with no moving joint; when a column's norm lies between 1e-13 and 1e-8
        of the largest, its abs(R_jj) between 1e-10 and 1e-5, or a scaled coefficient of
        K between 1e-9 and 1e-6 (neither clearly one thing nor the other; naming the
        parameter), or when W_d = W_b K does not hold to 1e-9.

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon.identification import base_parameters
    >>> base = base_parameters(es.zoo.load("planar2"), joint_terms=False)
    >>> base.count
    6
    >>> base.expressions[:2]
    ('link1.mx + link2.m', 'link1.my')
    """
    if model.nv == 0:
        raise ValueError("model: no moving joint, so τ is empty and has no base parameters")
    names = parameter_names(model)
    p = parameter_count(model)
    columns = np.arange(p) if joint_terms else np.arange(10 * model.nb)
    nv = model.nv
    if samples is None:
        samples = max(20, 4 * -(-len(columns) // nv))
    rng = np.random.default_rng(seed)
    q = np.stack([random_configuration(model, rng) for _ in range(samples)])
    qd = rng.standard_normal((samples, nv))
    qdd = rng.standard_normal((samples, nv))
    W = joint_torque_regressor(model, q, qd, qdd)[..., columns].reshape(samples * nv, -1)
    norms = np.linalg.norm(W, axis=0)
    relative = norms / max(float(np.max(norms)), np.finfo(float).tiny)
    faint = (relative > ZERO_COLUMN) & (relative < ACTING_COLUMN)
    if faint.any():
        j = int(np.flatnonzero(faint)[0])
        raise ValueError(
            f"model: parameter {names[columns[j]]} is neither clearly acting nor clearly "
            f"idle (its column is {relative[j]:.2e} of the largest, between {ZERO_COLUMN:g} "
            f"and {ACTING_COLUMN:g}): a near-singular geometry; the base parameters would "
            "hang on round-off"
        )
    nonzero = relative >= ACTING_COLUMN
    ratios = np.zeros(len(columns))
    if nonzero.any():
        Wn = W[:, nonzero] / norms[nonzero]
        R = scipy.linalg.qr(Wn, mode="r")[0]
        ratios[nonzero] = np.abs(np.diag(R))[: int(nonzero.sum())]
    unclear = nonzero & (ratios > DROPPED_BELOW) & (ratios < KEPT_ABOVE)
    if unclear.any():
        j = int(np.flatnonzero(unclear)[0])
        raise ValueError(
            f"model: parameter {names[columns[j]]} is neither clearly independent nor "
            f"clearly regrouped (abs(R_jj) = {ratios[j]:.2e}, between {DROPPED_BELOW:g} and "
            f"{KEPT_ABOVE:g}): a near-singular geometry; the base parameters would hang on "
            "round-off"
        )
    kept = nonzero & (ratios > DEPENDENT_BELOW)
    regrouped = nonzero & ~kept
    Wb, Wd = W[:, kept], W[:, regrouped]
    K = np.linalg.lstsq(Wb, Wd, rcond=None)[0] if regrouped.any() else np.zeros((kept.sum(), 0))
    residual = np.linalg.norm(Wd - Wb @ K, axis=0)
    if residual.size and np.max(residual / norms[regrouped]) > 1e-9:
        raise ValueError("model: the regrouped columns are not combinations of the kept ones")
    contribution = np.abs(K) * norms[kept][:, None] / norms[regrouped][None, :]
    faint_terms = (contribution > ZERO_COEFFICIENT) & (contribution < CLEAR_COEFFICIENT)
    if faint_terms.any():
        k, j = (int(x[0]) for x in np.nonzero(faint_terms))
        raise ValueError(
            f"model: the coefficient of {names[columns[regrouped][j]]} in the base parameter "
            f"of {names[columns[kept][k]]} is neither clearly zero nor clearly not "
            f"({contribution[k, j]:.2e} scaled): a near-singular geometry"
        )
    K = np.where(contribution < ZERO_COEFFICIENT, 0.0, K)
    independent, dependent = columns[kept], columns[regrouped]
    mapping = np.zeros((len(independent), p))
    mapping[np.arange(len(independent)), independent] = 1.0
    mapping[:, dependent] = K
    expressions = tuple(
        _expression(names, independent[k], dependent, K[k]) for k in range(len(independent))
    )
    full_ratios = np.zeros(p)
    full_ratios[columns] = ratios
    return BaseParameters(
        names=names,
        independent=independent,
        dependent=dependent,
        unidentifiable=columns[~nonzero],
        K=K,
        map=mapping,
        expressions=expressions,
        ratios=full_ratios,
        samples=samples,
    )
