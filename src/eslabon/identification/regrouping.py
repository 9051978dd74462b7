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
What reaches the fixed world is lost. Then rules on each moving body j, tip to base,
remove what its motion still never reveals (Khalil & Dombre §9.3.3.2 list such cases by
joint type and axis; here each rule is derived per body from where the parameters act).
T_h = v·(ω × R h) and −g·R h are the only terms in which the first moments h act (v the
origin's velocity); a body "turns about u" when every revolute joint from the world to it
is parallel to u, so that ω = θ̇ u:

- R1: j revolute, turning about its own axis e_k: the four off-axis inertia terms never
  act (½ ωᵀ I ω = ½ θ̇² I_kk);
- R2: j revolute, turning about its axis, its origin on the axis line of every revolute
  joint before it and every prismatic joint before it parallel to that axis: v ∥ u, so
  T_h = 0; with gravity along the axis (or none) its first moments never act (for the
  first moving joint this is Khalil & Dombre's rule on MX_1, MY_1);
- R3: no revolute joint from the world to j: j only translates, only m acts;
- R4: j prismatic, turning about u not parallel to its own axis: the first moment along
  u never acts (ω × u = 0, g·R u constant); with u_b = u in j's axes and x the last axis
  with abs(u_b,x) > 0.3, the others become h_y − (u_b,y / u_b,x) h_x;
- R5: j prismatic along u, p its nearest moving ancestor, r the nearest revolute one
  (about u), c the part of j's origin relative to p's perpendicular to u, in j's axes:
  v_j = v_p + θ̇ u × R c + ṡ u, so T_h(j) = v_p·(ω × R h) + θ̇² c·h, and j's h moves to p
  (rotated, h_p += E h) while 2 c·h joins I_kk of r (½ θ̇² I_kk has the same motion);
- R6: no gravity, j revolute with no prismatic joint before it, and a point δ e_k of its
  axis on every revolute axis before it (so that point never moves): about that point
  v = 0, so h_{i1}, h_{i2} join the products: I_{i1 k} += δ h_{i1}, I_{i2 k} += δ h_{i2}.

Parallelism is decided on the world axes at q = 0 (parallel axes stay parallel under
rotations about a parallel axis): abs(sin) ≤ 1e-9 parallel, ≥ 1e-6 not, a value between is
refused; a distance (an origin from an axis line, two axes at their closest points) is zero
at most 1e-14 of the model's size (at least 1 m), not zero above 1e-12, refused between.
The rules cover fixed-base trees of revolute, prismatic and fixed joints with axes along
a body axis; the tests compare the count with the rank of :func:`.base_parameters` on
every such model of the zoo, on seven robots of the robot library (the test lists
them), and on random chains with parallel, perpendicular and intersecting axes. A
geometry the rules decide only through round-off (a near-parallel pair, a
sub-micrometre offset) is refused with a ValueError; use :func:`.base_parameters` there.
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
# R4 regroups the first moment along the last body axis with a component above this in
# the turning axis (a unit vector has one above 0.577)
LEAD_ABOVE = 0.3
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
        No moving joint, another joint type, a mimic joint, an axis off the body axes,
        two axes neither clearly parallel nor clearly not, a distance (an origin from an
        axis, two axes apart) or a coefficient neither clearly zero nor not (between
        1e-14 and 1e-12 of the model's size or of the largest coefficient: a
        sub-micrometre offset).

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

    if model.nv == 0:
        raise ValueError("model: no moving joint, so τ is empty and has no base parameters")
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
    origin = np.zeros((nb + 1, 3))  # world position of each body origin at q = 0
    for i in range(1, nb + 1):
        origin[i] = origin[model.parent[i]] + R[model.parent[i]] @ model.tree_translation[i]
    scale = max(1.0, float(np.max(np.abs(origin))))
    for i in range(nb, 0, -1):  # children first: R5 hands a body's first moments up
        if moving[i]:
            _reduce(model, i, turning, sliding, moving, R, origin, scale, g, A, kept)
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


def _world_axis(model, R, j):
    axis = R[j] @ np.asarray(model.axis[j], dtype=float)
    return axis / np.linalg.norm(axis)


def _vanishes(length, scale, what):
    """A length [m] is zero (≤ 1e-14 of the model's size) or not (> 1e-12); between is
    refused, as the coefficients are."""
    if ROUND_OFF * scale < length <= SIGNIFICANT * scale:
        raise ValueError(
            f"model: {what} is neither clearly zero nor not ({length:.2e} m); round the "
            "model's offsets, or use base_parameters"
        )
    return length <= ROUND_OFF * scale


def _on_line(point, through, u, scale, what):
    offset = point - through
    distance = float(np.linalg.norm(offset - (offset @ u) * u))
    return _vanishes(distance, scale, f"the distance between {what}")


def _fixed_point(model, i, revolute, R, origin, scale):
    """δ such that the point δ e_k of body i (e_k its axis) lies on every revolute axis
    from the world to i, so never moves; None when there is no such point."""
    u = _world_axis(model, R, i)
    found = []
    for j in revolute[1:]:
        w = _world_axis(model, R, j)
        what = f"the axes of {model.joint_names[i]!r} and {model.joint_names[j]!r}"
        if _parallel(u, w, what):
            if not _on_line(origin[i], origin[j], w, scale, what):
                return None
            continue
        ts = np.linalg.lstsq(np.column_stack([u, -w]), origin[j] - origin[i], rcond=None)[0]
        gap = origin[i] + ts[0] * u - origin[j] - ts[1] * w
        if not _vanishes(float(np.linalg.norm(gap)), scale, f"the distance between {what}"):
            return None  # skew axes
        found.append(ts[0])
    if any(
        not _vanishes(
            abs(t - found[0]),
            scale,
            f"the gap between the points where axes meet {model.joint_names[i]!r}",
        )
        for t in found
    ):
        return None  # the axes meet it at different points
    k = _axis_index(model, i)
    return (found[0] if found else 0.0) * float(np.asarray(model.axis[i], dtype=float)[k])


def _reduce(model, i, turning, sliding, moving, R, origin, scale, g, A, kept):
    """Rules R1–R6 on the moving body i (module docstring): drop from ``kept[i]`` what
    body i's motion never reveals; R4–R6 rewrite rows of ``A`` in place."""
    chain = []
    j = i
    while j > 0:
        chain.append(j)
        j = int(model.parent[j])
    revolute = [j for j in chain if turning[j]]
    if not revolute:  # R3: body i only translates
        kept[i] = [0]
        return
    names = model.joint_names
    if turning[i] and not np.any(g) and not any(sliding[j] for j in chain):
        delta = _fixed_point(model, i, revolute, R, origin, scale)
        if delta is not None:  # R6: a point of the axis never moves, and nothing weighs
            k = _axis_index(model, i)
            for x in (y for y in range(3) if y != k):
                A[i, _entry(x, k)] += delta * A[i, 1 + x]
            kept[i] = [e for e in kept[i] if e not in (1, 2, 3)]
    r = revolute[0]  # the nearest revolute body (i itself when its joint turns)
    u = _world_axis(model, R, r)
    if not all(
        _parallel(u, _world_axis(model, R, j), f"the axes of {names[r]!r} and {names[j]!r}")
        for j in revolute[1:]
    ):
        return  # body i turns about two directions: every parameter left acts
    # body i turns about one fixed direction u only
    if turning[i]:
        k = _axis_index(model, i)
        i1, i2 = (x for x in range(3) if x != k)
        off_axis = (_entry(i1, i1), _entry(i1, i2), _entry(i1, k), _entry(i2, k))
        kept[i] = [e for e in kept[i] if e not in off_axis]  # R1: only I_kk acts
        level = not np.any(g) or _parallel(u, g, f"gravity and the axis of {names[i]!r}")
        if level and all(
            _parallel(u, _world_axis(model, R, j), f"the axes of {names[i]!r} and {names[j]!r}")
            for j in chain
            if sliding[j]
        ) and all(
            _on_line(origin[i], origin[j], u, scale,
                     f"the origin of body {model.body_names[i]!r} and the axis of {names[j]!r}")
            for j in revolute
        ):  # R2: the origin slides along the axis at most, and gravity does no work  # fmt: skip
            kept[i] = [e for e in kept[i] if e not in (1, 2, 3)]
        return
    if _parallel(u, _world_axis(model, R, i), f"the axes of {names[r]!r} and {names[i]!r}"):
        # R5: body i moves as its nearest moving ancestor p, plus a slide along the axis
        p = next(j for j in chain[1:] if moving[j])
        offset = origin[i] - origin[p]
        d_b = R[i].T @ (offset - (offset @ u) * u)
        k = _axis_index(model, r)
        A[p, 1:4] += R[p].T @ R[i] @ A[i, 1:4]
        A[r, _entry(k, k)] += 2.0 * d_b @ A[i, 1:4]
        kept[i] = [e for e in kept[i] if e not in (1, 2, 3)]
    else:  # R4: the first moment along the axis never acts
        a_b = R[i].T @ u
        a_b[np.abs(a_b) <= PARALLEL_BELOW] = 0.0
        last = max(x for x in range(3) if abs(a_b[x]) > LEAD_ABOVE)
        for x in range(3):
            if x != last:
                A[i, 1 + x] -= a_b[x] / a_b[last] * A[i, 1 + last]
        kept[i] = [e for e in kept[i] if e != 1 + last]
