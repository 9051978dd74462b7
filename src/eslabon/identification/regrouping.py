"""Base parameters by the structural regrouping rules, from the joint placements alone.

Gautier & Khalil 1990, "Direct calculation of minimum set of inertial parameters of
serial robots", IEEE Trans. Robotics and Automation 6(3); Khalil & Dombre, *Modeling,
Identification and Control of Robots*, 2002, §9.3. Going from the tip to the base, each
body j hands to its parent the part of its parameters that its own joint cannot reveal,
because that part looks the same at every value of the joint:

- **revolute** joint about e_k (a body axis; i1 < i2 the two others in π's order): the
  part π_s = (m, m c_k e_k, I_{i2 i2} (1 − e_k e_kᵀ)) is invariant under rotation about
  e_k, so it moves rigidly with the parent. Body j keeps I_{i1 i1} − I_{i2 i2}, the
  products, I_kk and m c_{i1}, m c_{i2} (with e_k = z: XXR_j = XX_j − YY_j, and
  Khalil & Dombre's (9.31): M, MZ, YY of j grouped into j − 1);
- **prismatic** joint: the orientation of j relative to its parent is fixed, so the six
  inertia entries move to the parent (rotated only; the kinetic energy ½ ωᵀ I ω does not
  depend on where the origin is);
- **fixed** joint: the whole of π_j moves.

Moving π_s to the parent through the joint's placement (E = parent_R_body, r = the body
origin in the parent frame, at q = 0) is the parallel-axis transfer, linear in π_s:

    m' = m,   h' = E h + m r,
    I' = E I Eᵀ + m (rᵀr 1 − r rᵀ) + 2 (rᵀ E h) 1 − r (E h)ᵀ − (E h) rᵀ

(I about the origin; Featherstone, *Rigid Body Dynamics Algorithms*, 2008, eq. 2.63).
What reaches the fixed world is lost. Then three rules remove what still never acts
(Khalil & Dombre §9.3.3.2, written per body):

- R1: if every revolute joint from the world to j (j's included) is parallel to j's axis,
  ω_j stays along that axis, and the four off-axis inertia terms of j never act;
- R2: if j is the first revolute body (its ancestors fixed), its origin never moves and
  its first moments m c_{i1}, m c_{i2} act only through gravity: dropped when gravity is
  parallel to the axis;
- R3: if no revolute joint lies between the world and j, j never rotates and its first
  moments never act.

Parallelism is decided on the world axes at q = 0 (parallel axes stay parallel under
rotations about a parallel axis): abs(sin) ≤ 1e-9 parallel, ≥ 1e-6 not, a value between is
refused. The rules cover revolute, prismatic and fixed joints with axes along a body
axis; they do not include Khalil & Dombre's further cases (prismatic joints before the
first revolute one, perpendicular prismatic pairs, …): where these apply, the count here
exceeds the rank of :func:`.base_parameters` (tests compare the two).
"""

from __future__ import annotations

import numpy as np

from .base_parameters import BaseParameters
from .parameters import inertia_matrix, inertia_vector, parameter_count, parameter_names

PARALLEL_BELOW = 1e-9  # abs(sin) of the angle between two axes that are parallel
SKEW_ABOVE = 1e-6  # and of two that are not
# a coefficient at most this (relative to the largest) is zero: round-off in the transfers
# reaches about 1e-16 (a cos(π/2) times a length), while a real offset of 10 µm already
# gives 1e-10 (its square); between the two bounds the model is refused
ROUND_OFF = 1e-14
SIGNIFICANT = 1e-12
# the index in π_i of each inertia entry (row, column)
_I = {(0, 0): 4, (0, 1): 5, (0, 2): 6, (1, 1): 7, (1, 2): 8, (2, 2): 9}


def _entry(a, b):
    return _I[(min(a, b), max(a, b))]


def transfer_matrix(E, r) -> np.ndarray:
    """T (10, 10): the parameters of a part placed at (E, r) in another frame, T π.

    Parameters
    ----------
    E : array_like (3, 3)
        The part's axes in the other frame.
    r : array_like (3,)
        The part's origin in the other frame.

    Returns
    -------
    ndarray (10, 10)
        m' = m, h' = E h + m r, I' = E I Eᵀ + m (rᵀr 1 − r rᵀ) + 2 (rᵀ E h) 1 − r (E h)ᵀ −
        (E h) rᵀ (module docstring), columns and rows in π_i's order.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.identification.regrouping import transfer_matrix
    >>> pi = np.array([2.0, 0, 0, 0, 0, 0, 0, 0, 0, 0])  # a point mass at the origin
    >>> (transfer_matrix(np.eye(3), [0.0, 0.0, 0.5]) @ pi)[[0, 3, 4, 9]].tolist()
    [2.0, 1.0, 0.5, 0.0]
    """
    E = np.asarray(E, dtype=float)
    r = np.asarray(r, dtype=float)
    T = np.zeros((10, 10))
    for k in range(10):
        unit = np.zeros(10)
        unit[k] = 1.0
        m, h, inertia = unit[0], unit[1:4], inertia_matrix(unit[4:])
        Eh = E @ h
        moved = (
            E @ inertia @ E.T
            + m * (r @ r * np.eye(3) - np.outer(r, r))
            + 2.0 * (r @ Eh) * np.eye(3)
            - np.outer(r, Eh)
            - np.outer(Eh, r)
        )
        T[:, k] = np.concatenate([[m], Eh + m * r, inertia_vector(moved)])
    return T


def _axis_index(model, i):
    axis = np.asarray(model.axis[i], dtype=float)
    k = int(np.argmax(np.abs(axis)))
    if np.max(np.abs(np.delete(axis, k))) > PARALLEL_BELOW:
        raise ValueError(
            f"model: joint {model.joint_names[i]!r} has the axis {axis.tolist()}, not along "
            "a body axis; the structural rules need one (use base_parameters)"
        )
    return k


def _parallel(u, v, what):
    sine = float(np.linalg.norm(np.cross(u, v)) / (np.linalg.norm(u) * np.linalg.norm(v)))
    if PARALLEL_BELOW < sine < SKEW_ABOVE:
        raise ValueError(f"model: {what} are neither clearly parallel nor not (sin {sine:.2e})")
    return sine <= PARALLEL_BELOW


def structural_base_parameters(model) -> BaseParameters:
    """The base inertial parameters by the structural rules (module docstring).

    Parameters
    ----------
    model : Model
        A fixed-base tree of revolute, prismatic and fixed joints (no mimic joints), each
        axis along a body axis, rigid bodies.

    Returns
    -------
    BaseParameters
        Over the bodies' inertial parameters (the joint columns are left out, as
        ``base_parameters(model, joint_terms=False)``): ``independent`` the parameter each
        base parameter starts from (coefficient 1), ``dependent`` the ones regrouped into
        others, ``unidentifiable`` those that never act, ``map`` (β = map π) and
        ``K`` = ``map[:, dependent]`` with coefficients from the geometry (exact up to
        round-off; below 1e-12 of the largest set to 0), ``expressions`` written out.
        ``ratios`` is NaN and ``samples`` 0: no random state is used.

    Raises
    ------
    ValueError
        Another joint type, a mimic joint, an axis off the body axes, two axes neither
        clearly parallel nor clearly not, or a coefficient neither clearly zero nor not
        (between 1e-14 and 1e-12 of the largest: a sub-micrometre offset in the geometry).

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon.identification import structural_base_parameters
    >>> base = structural_base_parameters(es.zoo.load("puma560"))
    >>> base.count
    36
    >>> base.expressions[1]
    'link2.mx + 0.4318·link3.m + 0.4318·link4.m + 0.4318·link5.m + 0.4318·link6.m'
    """
    from .._engine.joint_types import nv_of, rotates, slides

    if model.has_mimic:
        raise ValueError("model: the structural rules take no mimic joints (use base_parameters)")
    if model.has_moving_com:
        raise ValueError("model: the structural rules need rigid bodies (no com_slide)")
    nb = model.nb
    turning, sliding = rotates(model.joint_type), slides(model.joint_type)
    moving = nv_of(model.joint_type) > 0
    other = moving & ~turning & ~sliding
    if other[1:].any():
        i = int(np.flatnonzero(other)[0])
        raise ValueError(
            f"model: joint {model.joint_names[i]!r} is {model.joint_types[i - 1]}; the "
            "structural rules take revolute, prismatic and fixed joints (use base_parameters)"
        )
    # world rotation of each body at q = 0
    R = np.zeros((nb + 1, 3, 3))
    R[0] = np.eye(3)
    for i in range(1, nb + 1):
        R[i] = R[model.parent[i]] @ np.asarray(model.tree_rotation[i], dtype=float)
    p = parameter_count(model)
    A = np.zeros((nb + 1, 10, p))  # A[i] π: body i's accumulated parameters
    for i in range(1, nb + 1):
        A[i, :, 10 * (i - 1) : 10 * i] = np.eye(10)
    kept: list[list[int]] = [
        [] for _ in range(nb + 1)
    ]  # entries of each body that stay as base parameters
    for i in range(nb, 0, -1):
        S = np.zeros((10, 10))
        if not moving[i]:
            S = np.eye(10)
            keep = []
        elif sliding[i]:
            S[4:, 4:] = np.eye(6)
            keep = [0, 1, 2, 3]
        else:
            k = _axis_index(model, i)
            i1, i2 = (x for x in range(3) if x != k)
            S[0, 0] = S[1 + k, 1 + k] = 1.0
            S[_entry(i1, i1), _entry(i2, i2)] = 1.0  # I_{i2 i2} on both perpendicular axes
            S[_entry(i2, i2), _entry(i2, i2)] = 1.0
            keep = [1 + i1, 1 + i2] + [_entry(a, b) for a in range(3) for b in range(a, 3)]
            keep.remove(_entry(i2, i2))
        parent = int(model.parent[i])
        moved = S @ A[i]
        if parent > 0:
            T = transfer_matrix(model.tree_rotation[i], model.tree_translation[i])
            A[parent] += T @ moved
        A[i] -= moved
        kept[i] = keep
    g = np.asarray(model.gravity, dtype=float)
    for i in range(1, nb + 1):
        if not moving[i]:
            continue
        chain = []
        j = i
        while j > 0:
            chain.append(j)
            j = int(model.parent[j])
        revolute = [j for j in chain if turning[j]]
        if sliding[i] and not revolute:  # R3
            kept[i] = [0]
            continue
        if not turning[i]:
            continue
        k = _axis_index(model, i)
        u = R[i] @ np.eye(3)[k]
        i1, i2 = (x for x in range(3) if x != k)
        if all(
            _parallel(u, R[j] @ np.asarray(model.axis[j], dtype=float),
                      f"the axes of {model.joint_names[i]!r} and {model.joint_names[j]!r}")
            for j in revolute
        ):  # R1  # fmt: skip
            kept[i] = [e for e in kept[i] if e not in (_entry(i1, i1), _entry(i1, i2),
                                                      _entry(i1, k), _entry(i2, k))]  # fmt: skip
        if all(not moving[j] for j in chain[1:]):  # R2: the first revolute body
            if not np.any(g) or _parallel(
                u, g, f"gravity and the axis of {model.joint_names[i]!r}"
            ):
                kept[i] = [e for e in kept[i] if e not in (1 + i1, 1 + i2)]
    rows = [A[i, e] for i in range(1, nb + 1) for e in sorted(kept[i])]
    leads = [10 * (i - 1) + e for i in range(1, nb + 1) for e in sorted(kept[i])]
    mapping = np.array(rows).reshape(len(rows), p)
    size = np.abs(mapping) / max(1.0, float(np.max(np.abs(mapping))))
    grey = (size > ROUND_OFF) & (size <= SIGNIFICANT)
    if np.any(grey):  # which coefficients vanish decides the structure: as _parallel
        row, column = np.argwhere(grey)[0]
        raise ValueError(
            f"model: the coefficient of {parameter_names(model)[column]} in base parameter "
            f"{row} is neither clearly zero nor not ({size[row, column]:.2e} of the largest); "
            "round the model's offsets"
        )
    mapping[size <= ROUND_OFF] = 0.0
    names = parameter_names(model)
    acting = np.any(mapping != 0.0, axis=0)
    lead_set = set(leads)
    dependent = np.array([j for j in np.flatnonzero(acting) if j not in lead_set], dtype=int)
    body_columns = np.arange(10 * nb)
    unidentifiable = body_columns[~acting[: 10 * nb]]
    expressions = tuple(
        _expression(names, lead, row) for lead, row in zip(leads, mapping, strict=True)
    )
    return BaseParameters(
        names=names,
        independent=np.array(leads, dtype=int),
        dependent=dependent,
        unidentifiable=unidentifiable,
        K=mapping[:, dependent],
        map=mapping,
        expressions=expressions,
        ratios=np.full(p, np.nan),
        samples=0,
    )


def _expression(names, lead, row):
    from .base_parameters import _term

    text = _term(row[lead], names[lead], True)
    for j in np.flatnonzero(row):
        if j != lead:
            text += _term(row[j], names[j], False)
    return text
