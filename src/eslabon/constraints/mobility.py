"""The mobility of a mechanism two ways: the generalized Grübler–Kutzbach count over
Hervé's displacement subgroups, and the rank of the constraint Jacobian.

Rojas (1987) §2.3, after Hervé (1978): the relative motions a lower pair allows form a
subgroup of the rigid-body displacements g_r; when every pair's motion lies in one
subgroup g of dimension d (a *trivial* chain: d = 3 for a planar, spherical or purely
translational mechanism, 4 for Schoenflies motions, 6 in general), the degree of freedom
is

    ℓ = d (n − 1) − Σᵢ rᵢ − m,        rᵢ = d − ℓᵢ,

with n links (the ground included), pair i of dimension ℓᵢ within g, and m the passive
freedoms that move no other link (a binary link between two spherical pairs spins about
the line through their centres: m = 1 each, as the RSSR's coupler).

Here a joint of the tree is a pair between its parent's link and its body's (bodies
welded by fixed joints are one link); a loop closure or a contact is a pair between the
links of its two frames (the ground's, for a contact) whose relative motion is what its
rows leave free, within g. The subgroup is found from the tree joints' motion axes at
the configuration given: every rotation axis parallel and every translation normal to
it (planar, g_E), every axis through one point (spherical, g_S), translations only
(g_T), rotations about parallel axes with any translation (Schoenflies, g_X), else
g_r. Rolling wheels are velocity constraints, outside the count.

The count assumes each constraint independent. The Jacobian's rank does not: nv − rank
J(q) is the mobility at q. The two differ on over-constrained linkages — Bennett's 4R
and Bricard's 6R loops move (mobility 1) where the count gives −2 and 0, because their
geometry makes constraint rows dependent — and at singular configurations.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..model.constraint_types import AXES, _axes

_TOL = 1e-9  # relative: a geometric coincidence (parallel, through a point) to round-off

SUBGROUPS = {
    1: "a one-parameter motion",
    2: "translations in a plane (g_T(e1, e2))",
    3: "",  # named by kind below
    4: "Schoenflies motions (g_X: translations and rotations about one direction)",
    6: "general spatial motion (g_r)",
}


@dataclass(frozen=True)
class Pair:
    """One pair of the count: a joint of the tree, a loop closure or a contact.

    Attributes
    ----------
    name : str
        The joint's or the constraint's name.
    kind : str
        ``"joint"``, ``"loop"`` or ``"contact"``.
    links : tuple of int
        The two links it joins (0 is the ground).
    freedom : int
        ℓᵢ, the dimension of its relative motion within the subgroup.
    """

    name: str
    kind: str
    links: tuple
    freedom: int


@dataclass(frozen=True)
class Mobility:
    """What :func:`mobility` finds.

    Attributes
    ----------
    subgroup : str
        The smallest displacement subgroup found to hold every joint's motion.
    d : int
        Its dimension.
    links : int
        n, the ground included (bodies welded by fixed joints count once).
    pairs : tuple of Pair
        The pairs counted.
    passive : int
        m, binary links between two spherical pairs (each spins freely).
    grubler_kutzbach : int
        ℓ = d (n − 1) − Σ (d − ℓᵢ) − m.
    jacobian_mobility : int
        nv − rank J(q) of the holonomic rows at ``q``.
    rank : int
        rank J(q).
    rows : int
        The holonomic constraint rows.
    redundant_rows : tuple of str
        The rows that add no rank (over-constraint or singularity).
    explanation : str
        Why the two numbers differ, or that they agree.
    """

    subgroup: str
    d: int
    links: int
    pairs: tuple
    passive: int
    grubler_kutzbach: int
    jacobian_mobility: int
    rank: int
    rows: int
    redundant_rows: tuple
    explanation: str


def _twist(axis, point, rotation: bool) -> np.ndarray:
    """The unit twist [ω; v] at the world origin of a rotation about ``axis`` through
    ``point``, or of a translation along ``axis``."""
    axis = np.asarray(axis, dtype=float)
    if rotation:
        return np.concatenate([axis, np.cross(point, axis)])
    return np.concatenate([np.zeros(3), axis])


def _rank(T: np.ndarray, scale: float) -> int:
    if T.size == 0:
        return 0
    s = np.linalg.svd(T, compute_uv=False)
    return int(np.sum(s > _TOL * max(scale, 1.0)))


def _subgroup(T: np.ndarray, scale: float):
    """(d, name, basis (6, d) at the world origin) of the smallest subgroup found to hold
    every column of T (6, k)."""
    tol = _TOL * max(scale, 1.0)
    W, V = T[:3], T[3:]
    rotating = np.linalg.norm(W, axis=0) > tol
    if not np.any(rotating):
        r = _rank(V, scale)
        basis = np.linalg.svd(V)[0][:, : max(r, 1)]
        if r == 0:  # no joint moves: the identity subgroup
            return 0, "no motion (the identity subgroup)", np.zeros((6, 0))
        if r <= 2:
            return r, SUBGROUPS[1] if r == 1 else SUBGROUPS[2], np.vstack([0 * basis, basis])
        return 3, "spatial translations (g_T)", np.vstack([np.zeros((3, 3)), np.eye(3)])
    e = W[:, np.argmax(np.linalg.norm(W, axis=0))]
    e = e / np.linalg.norm(e)
    parallel = np.all(np.linalg.norm(np.cross(W.T, e), axis=1) <= tol)
    if parallel and np.all(np.abs(e @ V) <= tol):
        u = np.linalg.svd(np.eye(3) - np.outer(e, e))[0][:, :2]
        basis = np.column_stack(
            [np.concatenate([e, np.zeros(3)]), *(_twist(a, 0, False) for a in u.T)]
        )
        return 3, "planar motion (g_E)", basis
    if np.all(rotating):
        # every twist a rotation through one point c: v = c × ω, i.e. −ω̃ c = v
        A = np.vstack([-_skew(w) for w in W.T])
        c = np.linalg.lstsq(A, V.T.ravel(), rcond=None)[0]
        if np.all(np.abs(A @ c - V.T.ravel()) <= tol * max(1.0, np.abs(c).max())):
            basis = np.column_stack([_twist(a, c, True) for a in np.eye(3)])
            return 3, "spherical motion (g_S)", basis
    if parallel:
        basis = np.column_stack(
            [np.concatenate([e, np.zeros(3)])] + [_twist(a, 0, False) for a in np.eye(3)]
        )
        return 4, SUBGROUPS[4], basis
    return 6, SUBGROUPS[6], np.eye(6)


def _skew(w):
    return np.array([[0, -w[2], w[1]], [w[2], 0, -w[0]], [-w[1], w[0], 0]])


def _widths(model) -> dict:
    """The number of rates of each body's joint (0 for fixed and mimic joints)."""
    starts = sorted(
        (int(model.v_index[i]), i) for i in range(1, model.nb + 1) if model.v_index[i] >= 0
    )
    ends = [k for k, _ in starts[1:]] + [model.nv]
    widths = dict.fromkeys(range(1, model.nb + 1), 0)
    widths.update({i: end - k for (k, i), end in zip(starts, ends, strict=True)})
    return widths


def _links(model) -> np.ndarray:
    """The link of each body: bodies welded by fixed joints share their parent's."""
    widths = _widths(model)
    link = np.zeros(model.nb + 1, dtype=int)
    for i in range(1, model.nb + 1):
        link[i] = link[int(model.parent[i])] if widths[i] == 0 else i
    return link


def _joint_twists(model, q):
    """Per moving joint: (name, parent link, body link, twists (6, nv_i) at the origin)."""
    from ..kinematics import jacobian

    link, widths = _links(model), _widths(model)
    out = []
    for i in range(1, model.nb + 1):
        k, nv_i = int(model.v_index[i]), widths[i]
        if link[i] != i:
            continue
        J = jacobian(model, q, model.body_names[i], reference="world")[:, k : k + nv_i]
        origin = _pose(model, q, model.body_names[i])[:3, 3]
        T = np.vstack([J[:3], J[3:] + np.cross(origin, J[:3].T).T])  # v at the world origin
        out.append((model.joint_names[i], int(link[int(model.parent[i])]), i, T))
    return out


def _pose(model, q, name: str) -> np.ndarray:
    from ..kinematics import frame_pose

    return np.eye(4) if name == "world" else frame_pose(model, q, name)


def _free_twists(rows, R, p) -> np.ndarray:
    """The motions a constraint's ``rows`` leave free, at the world origin: translations
    along A's free axes and rotations about A's free axes through its origin."""
    free = [a for a in AXES if a not in rows]
    cols = [_twist(R[:, AXES.index(a) % 3], p, a.startswith("r")) for a in free]
    return np.column_stack(cols) if cols else np.zeros((6, 0))


def _within(T, G, scale) -> int:
    """dim(span T ∩ span G)."""
    return _rank(T, scale) + _rank(G, scale) - _rank(np.hstack([T, G]), scale)


def mobility(model, q=None, *, constraints=None) -> Mobility:
    """The mechanism's degrees of freedom by the generalized Grübler–Kutzbach formula and
    by the rank of its constraint Jacobian, with why they differ (module docstring).

    Rojas (1987) §2.3: ℓ = d (n − 1) − Σ rᵢ − m over Hervé's displacement subgroups.

    Parameters
    ----------
    model : Model
        A tree with loop closures or contacts (a bare tree gives ℓ = nv).
    q : array_like (nq,), optional
        An assembled configuration (φ(q) = 0); by default the neutral configuration
        assembled onto the constraints (:func:`eslabon.constraints.assemble`).
    constraints : list, optional
        By default the model's own.

    Returns
    -------
    Mobility

    Raises
    ------
    ValueError
        A model with mimic joints (a gear coupling is not a pair of the count).

    Examples
    --------
    The planar four-bar: 3 (4 − 1) − 4 · 2 = 1, as the Jacobian's rank says.

    >>> import eslabon as es
    >>> from eslabon.constraints import mobility
    >>> m = mobility(es.zoo.load("four_bar"))
    >>> m.d, m.links, m.grubler_kutzbach, m.jacobian_mobility
    (3, 4, 1, 1)
    """
    from ..model.configuration import neutral
    from .kinematics import assemble, constraint_rank

    if np.any(np.asarray(model.mimic_joint) >= 0):
        raise ValueError(
            f"{model.name}: has mimic joints; a gear coupling is not a pair of the "
            "Grübler–Kutzbach count"
        )
    given = model.constraints if constraints is None else constraints
    given = list(given) if isinstance(given, (list, tuple)) else [given]
    holonomic = [c for c in given if not hasattr(c, "wheel")]
    if q is None:
        q = assemble(model, neutral(model), constraints=holonomic) if holonomic else neutral(model)
    q = np.asarray(q, dtype=float)
    scale = 1.0 + float(np.abs(model.tree_translation).max(initial=0.0))
    joints = _joint_twists(model, q)
    T = np.hstack([t for *_, t in joints]) if joints else np.zeros((6, 0))
    d, name, G = _subgroup(T, scale)
    link = _links(model)
    pairs, spherical = [], set()
    for jname, a, b, t in joints:
        f = _within(t, G, scale)
        pairs.append(Pair(jname, "joint", (a, b), f))
        if t.shape[1] == 3 and np.linalg.norm(t[:3]) > 0 and _rank(t[:3], scale) == 3:
            spherical.add(len(pairs) - 1)
    for c in holonomic:
        rows = _axes(c.axes, c.name)
        frame_a = getattr(c, "frame_a", None)
        if frame_a is None:  # a contact: the world pose is frame A
            R = np.eye(3) if c.rotation is None else np.asarray(c.rotation, dtype=float)
            p, la, lb = np.asarray(c.position, dtype=float), 0, link[model.frame(c.frame).body]
        else:
            X = _pose(model, q, frame_a)
            R, p = X[:3, :3], X[:3, 3]
            la, lb = link[_body(model, frame_a)], link[_body(model, c.frame_b)]
        free = _free_twists(rows, R, p)
        pairs.append(
            Pair(
                c.name,
                "loop" if frame_a else "contact",
                (int(la), int(lb)),
                _within(free, G, scale),
            )
        )
        if set(rows) == {"x", "y", "z"}:
            spherical.add(len(pairs) - 1)
    n = len(set(link.tolist()))
    passive = 0
    if d == 6:
        for lk in set(link.tolist()) - {0}:
            at = [k for k, pr in enumerate(pairs) if lk in pr.links]
            passive += len(at) == 2 and all(k in spherical for k in at)
    ell = d * (n - 1) - sum(d - pr.freedom for pr in pairs) - passive
    if holonomic:
        report = constraint_rank(model, q, constraints=holonomic)
        rank, redundant = report.rank, report.redundant
        rows_n = len(report.independent) + len(report.redundant)
    else:
        rank, rows_n, redundant = 0, 0, ()
    true = model.nv - rank
    explanation = _explain(ell, true, d, rank, rows_n, redundant, name, int(passive))
    return Mobility(
        name,
        d,
        n,
        tuple(pairs),
        int(passive),
        int(ell),
        int(true),
        rank,
        rows_n,
        tuple(redundant),
        explanation,
    )


def _body(model, name: str) -> int:
    return 0 if name == "world" else int(model.frame(name).body)


def _explain(ell, true, d, rank, rows, redundant, name, passive) -> str:
    if ell == true:
        return f"the count and the Jacobian agree ({name}, d = {d})"
    if passive and ell + passive == true:
        return (
            f"the Jacobian also counts the {passive} passive spin(s) the formula subtracts "
            "(a link between two spherical pairs turns about the line of their centres "
            "and moves nothing else)"
        )
    if ell < true:
        return (
            f"over-constrained: the count takes every constraint as independent, but only "
            f"{rank} of the {rows} rows are ({', '.join(redundant) or 'none named'} add no "
            "rank): the geometry makes them dependent (as Bennett's and Bricard's loops, "
            "or a configuration where the mechanism is singular)"
        )
    return (
        f"the Jacobian leaves {true} free where the count allows {ell}: the configuration "
        "is singular or locked, or a pair's axes are special in a way the subgroup test "
        "did not detect"
    )
