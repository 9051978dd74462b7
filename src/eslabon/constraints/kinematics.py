"""Kinematics of constrained systems: residual φ(q), Jacobian J(q), drift γ = −J̇ q̇, the
rank of the rows, the split into dependent and independent coordinates, and assembly.

For each constraint (:mod:`eslabon.model.constraint_types`) between frame A and frame B,
with d = p_B − p_A and every vector in world axes (ω, v of a frame's origin; ω̇, a its
classical acceleration):

    φ_t = R_Aᵀ d,                  J_t = R_Aᵀ (J_vB − J_vA + [d]× J_ωA)
    φ_r (below),                   J_r = R_Aᵀ (J_ωB − J_ωA)
    J̇ q̇ (t) = R_Aᵀ (a_B − a_A − ω̇_A × d − 2 ω_A × ḋ + ω_A × (ω_A × d))
    J̇ q̇ (r) = R_Aᵀ (ω̇_B − ω̇_A − ω_A × ω_B)

at q̈ = 0, so that φ̈ = J q̈ + J̇ q̇ = 0 reads J q̈ = γ with γ = −J̇ q̇ (Featherstone, *Rigid
Body Dynamics Algorithms* (2008), §8.1–8.3; the drift term of Baumgarte's stabilization
and of the Udwadia–Kalaba equation). The translation rows' J is the exact derivative of
φ_t. Rotation rows come three (a weld: φ_r = log(R_Aᵀ R_B), whose derivative at φ_r = 0
is J_r), two (a hinge about the free axis a: B's axis a held on A's, φ_b = −R[c, a],
φ_c = R[b, a] with R = R_Aᵀ R_B and a, b, c in cyclic order, whose derivative anywhere on
the hinge is J_r) or none: one rotation row alone is not holonomic (two free axes turn
about the third) and is refused. Rows are those of the constraint's mask, in the order
x, y, z, rx, ry, rz.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._args import finite_number
from ..kinematics.forward import forward_kinematics, jacobian, link_accelerations, link_velocities
from ..model.configuration import check_configuration, integrate
from ..model.constraint_types import checked, row_names
from .batch import batched


def _cross(a, b):
    """a × b of two 3-vectors: numpy's ``cross`` costs ~40 µs a call in its axis
    handling, this ~2 µs (it was half the time of a four-bar's constrained dynamics)."""
    a0, a1, a2 = a
    b0, b1, b2 = b
    return np.array([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0])


def _skew(x):
    return np.array([[0.0, -x[2], x[1]], [x[2], 0.0, -x[0]], [-x[1], x[0], 0.0]])


def _rotation_rows(R, mask):
    """The rotation rows of φ for the relative rotation R = R_Aᵀ R_B and the row mask:
    all three, the rotation vector log R (scipy: accurate near 0 and π); two rows (a
    hinge about the free axis a, rows b, c in cyclic order a, b, c), B's axis a held on
    A's, φ_b = −R[c, a], φ_c = R[b, a], whose rates on the hinge are exactly those rows
    of the relative angular velocity in A's axes; none, nothing."""
    rot = mask[3:]
    if rot.all():
        from scipy.spatial.transform import Rotation

        return Rotation.from_matrix(R).as_rotvec()
    out = np.zeros(3)
    if rot.any():
        a = int(np.flatnonzero(~rot)[0])
        b, c = (a + 1) % 3, (a + 2) % 3
        out[b], out[c] = -R[c, a], R[b, a]
    return out


def _indices(x, n: int, field: str) -> np.ndarray:
    """Distinct whole-number rate indices in [0, n), sorted; else a ValueError naming
    ``field``."""
    try:
        a = np.asarray(x, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        raise ValueError(f"{field}: expected rate indices (whole numbers), got {x!r}") from None
    if a.size and (not np.all(np.isfinite(a)) or np.any(a != np.round(a))):
        raise ValueError(f"{field}: expected whole-number rate indices, got {x!r}")
    idx = a.astype(int)
    if idx.size and (idx.min() < 0 or idx.max() >= n or len(set(idx.tolist())) != idx.size):
        raise ValueError(f"{field}: expected distinct rate indices in [0, {n}), got {x!r}")
    return np.sort(idx)


class _Frames:
    """World pose, and optionally velocity and q̈ = 0 acceleration, of named frames at
    one state."""

    def __init__(self, model, q, qd=None):
        self.model, self.q = model, q
        self.T = forward_kinematics(model, q)
        if qd is not None:
            self.V = link_velocities(model, q, qd, reference="world")
            self.A = link_accelerations(model, q, qd, np.zeros(model.nv), reference="world")

    def pose(self, name):
        fr = self.model.frame(name)
        Rb, pb = self.T[fr.body, :3, :3], self.T[fr.body, :3, 3]
        r = Rb @ fr.translation
        return Rb @ fr.rotation, pb + r, fr.body, r

    def motion(self, name):
        """(R, p, ω, v, ω̇, a) of the frame's origin, world axes, at q̈ = 0."""
        R, p, b, r = self.pose(name)
        w, vb, wd, ab = self.V[b, :3], self.V[b, 3:], self.A[b, :3], self.A[b, 3:]
        v = vb + _cross(w, r)
        a = ab + _cross(wd, r) + _cross(w, _cross(w, r))
        return R, p, w, v, wd, a


def _state(model, q, qd=None):
    q = np.asarray(q, dtype=float)
    if q.shape != (model.nq,) or not np.all(np.isfinite(q)):
        raise ValueError(f"q: expected {model.nq} finite numbers (one state), got shape {q.shape}")
    if model.nq != model.nv:
        check_configuration(model, q)
    if qd is None:
        return q, None
    qd = np.asarray(qd, dtype=float)
    if qd.shape != (model.nv,) or not np.all(np.isfinite(qd)):
        raise ValueError(f"qd: expected {model.nv} finite numbers, got shape {qd.shape}")
    return q, qd


@batched(1)
def constraint_residual(model, q, *, constraints=None) -> np.ndarray:
    """φ(q) (m,): each constraint's rows, frame B's offset from A in A's axes [m] and its
    rotation vector relative to A [rad]; zero on the constraint manifold.

    Parameters
    ----------
    model : Model
    q : array_like (nq,) or (N, nq)
        One configuration, or a batch (a loop over the states, :mod:`.batch`; every
        function of one state here takes batches so, its outputs stacked).
    constraints : LoopClosure, Contact or a list of them, optional
        By default the model's own (:attr:`eslabon.Model.constraints`).

    Returns
    -------
    ndarray (m,)
        The rows in the order of :func:`constraint_names`.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon import constraints as ec
    >>> arm = es.zoo.load("planar2")
    >>> rail = ec.Contact("rail", "ee", ["y"], position=[0.0, 1.0, 0.0])  # tip on y = 1 m
    >>> ec.constraint_residual(arm, [0.0, 0.0], constraints=rail)  # the tip at y = 0
    array([-1.])
    """
    rows = checked(model, constraints)
    q, _ = _state(model, q)
    return _residual(rows, _Frames(model, q))


def _residual(rows, f):
    out = []
    for r in rows:
        if r.rolling is not None:  # a velocity-level row has no φ: zero
            out.append(np.zeros(len(r.axes)))
            continue
        Ra, pa = r.pose_a if r.frame_a is None else f.pose(r.frame_a)[:2]
        Rb, pb = f.pose(r.frame_b)[:2]
        full = np.concatenate([Ra.T @ (pb - pa), _rotation_rows(Ra.T @ Rb, r.mask)])
        out.append(full[r.mask])
    return np.concatenate(out)


@batched(1)
def constraint_jacobian(model, q, *, constraints=None) -> np.ndarray:
    """J(q) (m, nv): the rows' rates J q̇ (B's velocity relative to A in A's axes; its
    columns along the rates v, tangent space for quaternion joints).

    Parameters
    ----------
    model : Model
    q : array_like (nq,) or (N, nq)
    constraints : LoopClosure, Contact or a list of them, optional
        By default the model's own (:attr:`eslabon.Model.constraints`).

    Returns
    -------
    ndarray (m, nv)

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon import constraints as ec
    >>> arm = es.zoo.load("planar2")
    >>> rail = ec.Contact("rail", "ee", ["y"], position=[0.0, 1.0, 0.0])  # tip on y = 1 m
    >>> ec.constraint_jacobian(arm, [0.0, 0.0], constraints=rail)
    array([[1.8, 0.8]])
    """
    rows = checked(model, constraints)
    q, _ = _state(model, q)
    return _jacobian(model, rows, q, _Frames(model, q))


def _frame_jacobian(model, q, name):
    J = jacobian(model, q, name, reference="world")
    return J[:3], J[3:]  # [angular; linear]


def _jacobian(model, rows, q, f):
    out = []
    zero = np.zeros((3, model.nv))
    for r in rows:
        if r.rolling is not None:
            out.append(_rolling_jacobian(model, r, q, f))
            continue
        if r.frame_a is None:
            (Ra, pa), (Jwa, Jva) = r.pose_a, (zero, zero)
        else:
            Ra, pa = f.pose(r.frame_a)[:2]
            Jwa, Jva = _frame_jacobian(model, q, r.frame_a)
        pb = f.pose(r.frame_b)[1]
        Jwb, Jvb = _frame_jacobian(model, q, r.frame_b)
        full = np.vstack([Ra.T @ (Jvb - Jva + _skew(pb - pa) @ Jwa), Ra.T @ (Jwb - Jwa)])
        out.append(full[r.mask])
    return np.vstack(out)


@batched(2)
def constraint_drift(model, q, qd, *, constraints=None) -> np.ndarray:
    """γ = −J̇(q, q̇) q̇ (m,): the right side of the acceleration constraint J q̈ = γ.

    Parameters
    ----------
    model : Model
    q : array_like (nq,) or (N, nq)
    qd : array_like (nv,) or (N, nv)
    constraints : LoopClosure, Contact or a list of them, optional
        By default the model's own (:attr:`eslabon.Model.constraints`).

    Returns
    -------
    ndarray (m,)
        m/s² (translation rows), rad/s² (rotation rows).

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon import constraints as ec
    >>> arm = es.zoo.load("planar2")
    >>> rail = ec.Contact("rail", "ee", ["y"], position=[0.0, 1.0, 0.0])  # tip on y = 1 m
    >>> ec.constraint_drift(arm, [0.5, 0.0], [1.0, 0.0], constraints=rail).round(6)
    array([0.862966])
    """
    rows = checked(model, constraints)
    q, qd = _state(model, q, qd)
    return _drift(rows, _Frames(model, q, qd))


def _drift(rows, f):
    out = []
    for r in rows:
        if r.rolling is not None:
            out.append(_rolling_drift(r, f))
            continue
        if r.frame_a is None:
            (Ra, pa), wa, va, wda, aa = r.pose_a, *(np.zeros(3),) * 4
        else:
            Ra, pa, wa, va, wda, aa = f.motion(r.frame_a)
        _, pb, wb, vb, wdb, ab = f.motion(r.frame_b)
        d, dd = pb - pa, vb - va
        trans = ab - aa - _cross(wda, d) - 2.0 * _cross(wa, dd) + _cross(wa, _cross(wa, d))
        rot = wdb - wda - _cross(wa, wb)
        out.append(-np.concatenate([Ra.T @ trans, Ra.T @ rot])[r.mask])
    return np.concatenate(out)


_UP = np.array([0.0, 0.0, 1.0])


def _wheel_directions(r, R):
    """(a, [u_k]): the wheel's unit spin axis in the world and its rows' directions,
    e = a × z (rolling) and a (no skid), or e + tan α·a (rollers at α); refused when the
    axis is not horizontal (the rows assume an upright wheel)."""
    radius, axis, alpha = r.rolling
    a = R @ axis
    if abs(a[2]) > 1e-9:
        raise ValueError(
            f"{r.name}: the wheel's spin axis is not horizontal here (its z component is "
            f"{a[2]:.3g}); a RollingWheel is an upright wheel on the xy plane"
        )
    e = _cross(a, _UP)
    return a, ([e + np.tan(alpha) * a] if alpha is not None else [e, a])


def _rolling_jacobian(model, r, q, f):
    """u_kᵀ (J_v − [ρ]× J_ω): the velocity along u_k of the wheel's material point at
    the contact, ρ = −radius·z below the centre."""
    R = f.pose(r.frame_b)[0]
    _, directions = _wheel_directions(r, R)
    Jw, Jv = _frame_jacobian(model, q, r.frame_b)
    Jc = Jv - _skew(-r.rolling[0] * _UP) @ Jw
    return np.array([u @ Jc for u in directions])


def _rolling_drift(r, f):
    """γ_k = −(u̇_kᵀ v_c + u_kᵀ (a + ω̇ × ρ)) at q̈ = 0 (ρ is constant in the world; the
    axis turns with the wheel, ȧ = ω × a)."""
    R, _, w, v, wd, acc = f.motion(r.frame_b)
    a, directions = _wheel_directions(r, R)
    rho = -r.rolling[0] * _UP
    vc, ac = v + _cross(w, rho), acc + _cross(wd, rho)
    a_dot = _cross(w, a)
    e_dot = _cross(a_dot, _UP)
    alpha = r.rolling[2]
    rates = [e_dot + np.tan(alpha) * a_dot] if alpha is not None else [e_dot, a_dot]
    return -np.array([ud @ vc + u @ ac for u, ud in zip(directions, rates, strict=True)])


def constraint_names(model, *, constraints=None) -> tuple:
    """The rows' names, ``"<constraint>.<axis>"``, in the order of φ, J, γ and λ.

    Parameters
    ----------
    model : Model
    constraints : LoopClosure, Contact or a list of them, optional
        By default the model's own (:attr:`eslabon.Model.constraints`).

    Returns
    -------
    tuple of str

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon import constraints as ec
    >>> arm = es.zoo.load("planar2")
    >>> ec.constraint_names(arm, constraints=ec.Contact("rail", "ee", ["y"]))
    ('rail.y',)
    """
    return row_names(checked(model, constraints))


class RankReport(NamedTuple):
    """What :func:`constraint_rank` finds.

    Attributes
    ----------
    rank : int
        The rank of J (the number of independent rows).
    independent, redundant : tuple of str
        The rows kept in order while they raise the rank, and the others, by name.
    mobility : int
        nv − rank: the degrees of freedom left at this configuration.
    singular_values : ndarray
        J's singular values, largest first (for the record).
    """

    rank: int
    independent: tuple
    redundant: tuple
    mobility: int
    singular_values: np.ndarray


def constraint_rank(model, q, *, constraints=None, rtol: float = 1e-9) -> RankReport:
    """The rank of J(q) and which rows are redundant (a linear combination of those
    before them: an over-constrained linkage, or a singular configuration).

    Rows are taken in order and kept while they raise the rank: a row is redundant when
    its part outside the rows kept before it is below ``rtol`` times ‖J‖₂ (one test for
    the rank, the rows and every formulation; a state within that of a singular one is
    read as singular). The redundant rows carry no independent force, and the forward
    dynamics give them the minimum-norm share. The mobility is nv − rank.

    Parameters
    ----------
    model : Model
    q : array_like (nq,)
    constraints : LoopClosure, Contact or a list of them, optional
        By default the model's own (:attr:`eslabon.Model.constraints`).
    rtol : float
        Relative tolerance, > 0.

    Returns
    -------
    RankReport

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon import constraints as ec
    >>> arm = es.zoo.load("planar2")
    >>> rail = ec.Contact("rail", "ee", ["y"], position=[0.0, 1.0, 0.0])  # tip on y = 1 m
    >>> ec.constraint_names(arm, constraints=rail)
    ('rail.y',)
    """
    rtol = finite_number(rtol, "rtol", positive=True)
    names = constraint_names(model, constraints=constraints)
    J = constraint_jacobian(model, q, constraints=constraints)
    keep = _independent_rows(J, rtol)
    rank = len(keep)
    s = np.linalg.svd(J, compute_uv=False)
    return RankReport(
        rank,
        tuple(names[i] for i in keep),
        tuple(n for i, n in enumerate(names) if i not in keep),
        model.nv - rank,
        s,
    )


def _independent_rows(J, rtol: float = 1e-9) -> list:
    """Indices of rows kept in order while each raises the rank."""
    scale = np.linalg.norm(J, 2) if J.size else 0.0
    keep: list = []
    basis = np.zeros((0, J.shape[1]))
    for i, row in enumerate(J):
        residual = row.copy()
        for _ in range(2):  # Gram–Schmidt twice: the part outside the kept rows, to rounding
            if len(basis):
                residual = residual - basis.T @ (basis @ residual)
        size = float(np.sqrt(residual @ residual))
        if size > rtol * max(scale, 1e-300):
            basis = np.vstack([basis, residual / size])
            keep.append(i)
    return keep


class Partition(NamedTuple):
    """Coordinate partitioning of the rates: v = N v_i (what :func:`partition` returns).

    Attributes
    ----------
    dependent, independent : ndarray of int
        Indices into v (nv,).
    N : ndarray (nv, n_i)
        Maps independent rates to all (J N = 0).
    """

    dependent: np.ndarray
    independent: np.ndarray
    N: np.ndarray


def partition(model, q, *, constraints=None, independent=None, rtol: float = 1e-9) -> Partition:
    """Split the rates into dependent and independent ones and give the map N with
    v = N v_i (J N = 0): the Maggi / coordinate-partitioning form (Wehage and Haug (1982),
    "Generalized coordinate partitioning for dimension reduction in analysis of
    constrained dynamic systems", J. Mech. Des. 104; the null-space form of the sources'
    Gibbs–Appell–Kane family).

    Parameters
    ----------
    model : Model
    q : array_like (nq,)
    constraints : LoopClosure, Contact or a list of them, optional
        By default the model's own (:attr:`eslabon.Model.constraints`).
    independent : sequence of int, optional
        The independent rates (indices into v), e.g. the actuated joints of a parallel
        robot; by default chosen by QR with column pivoting of J (the best conditioned
        dependent block).
    rtol : float

    Returns
    -------
    Partition

    Raises
    ------
    ValueError
        ``independent`` of the wrong count (nv − rank) or leaving a singular dependent
        block (those coordinates cannot be independent at this configuration).

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon import constraints as ec
    >>> arm = es.zoo.load("planar2")
    >>> rail = ec.Contact("rail", "ee", ["y"], position=[0.0, 1.0, 0.0])  # tip on y = 1 m
    >>> q = ec.assemble(arm, [0.5, 0.5], constraints=rail, fixed=[0])
    >>> part = ec.partition(arm, q, constraints=rail, independent=[0])
    >>> part.dependent.tolist(), part.N.round(6).tolist()
    ([1], [[1.0], [-2.444686]])
    """
    from scipy.linalg import qr

    rtol = finite_number(rtol, "rtol", positive=True)
    J = constraint_jacobian(model, q, constraints=constraints)
    J = J[_independent_rows(J, rtol)]
    m, nv = J.shape
    if independent is None:
        _, _, piv = qr(J, pivoting=True)
        dependent = np.sort(piv[:m])
    else:
        ind = _indices(independent, nv, "independent")
        if ind.size != nv - m:
            raise ValueError(
                f"independent: expected {nv - m} distinct rate indices in [0, {nv}) "
                f"(nv − rank of the constraints), got {list(independent)}"
            )
        dependent = np.setdiff1d(np.arange(nv), ind)
    ind = np.setdiff1d(np.arange(nv), dependent)
    Jd, Ji = J[:, dependent], J[:, ind]
    if m and len(_independent_rows(Jd, rtol)) < m:
        raise ValueError(
            f"independent: with rates {ind.tolist()} independent the dependent block of J "
            "is singular at this configuration; choose other independent coordinates"
        )
    N = np.zeros((nv, ind.size))
    N[ind, np.arange(ind.size)] = 1.0
    if m:
        N[dependent] = -np.linalg.solve(Jd, Ji)
    return Partition(dependent, ind, N)


def assemble(model, q, *, constraints=None, fixed=(), tol: float = 1e-12, max_iter: int = 50):
    """A configuration on the constraint manifold near ``q``: damped Newton on φ = 0
    moving only the rates not in ``fixed`` (the position analysis of a closed chain:
    give the actuated joints, find the rest).

    Each step solves (J_fᵀ J_f + μ I) δ = −J_fᵀ φ over the free columns (Levenberg–
    Marquardt: μ shrinks while the residual falls, grows when it does not) and moves
    q ⊕ δ on the configuration space (:func:`eslabon.integrate`).

    Parameters
    ----------
    model : Model
    q : array_like (nq,)
        The start: the fixed coordinates keep their values.
    constraints : LoopClosure, Contact or a list of them, optional
        By default the model's own (:attr:`eslabon.Model.constraints`).
    fixed : sequence of int
        Rate indices (v) held fixed, e.g. the actuated joints.
    tol : float
        ‖φ‖∞ to reach [m, rad].
    max_iter : int

    Returns
    -------
    ndarray (nq,)

    Raises
    ------
    ValueError
        No configuration within ``tol`` found from this start in ``max_iter`` steps
        (the message gives the residual reached and its largest row by name): the
        fixed coordinates put the mechanism out of reach, or the start is too far.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon import constraints as ec
    >>> arm = es.zoo.load("planar2")
    >>> rail = ec.Contact("rail", "ee", ["y"], position=[0.0, 1.0, 0.0])  # tip on y = 1 m
    >>> q = ec.assemble(arm, [0.5, 0.5], constraints=rail, fixed=[0])
    >>> q.round(6).tolist(), round(float(es.kinematics.frame_pose(arm, q, "ee")[1, 3]), 12)
    ([0.5, 0.20853], 1.0)
    """
    rows = tuple(r for r in checked(model, constraints) if r.rolling is None)  # φ's rows
    q, _ = _state(model, q)
    free = np.setdiff1d(np.arange(model.nv), _indices(fixed, model.nv, "fixed"))
    tol = finite_number(tol, "tol", positive=True)
    if not rows:
        return q  # rolling wheels bound the rates only
    names = row_names(rows)
    mu = 1e-6

    def residual(x):
        f = _Frames(model, x)
        return _residual(rows, f), f

    phi, f = residual(q)
    for _ in range(max_iter):
        if np.max(np.abs(phi)) <= tol:
            return q
        J = _jacobian(model, rows, q, f)[:, free]
        A = J.T @ J
        g = J.T @ phi
        while True:
            step = np.zeros(model.nv)
            step[free] = -np.linalg.solve(A + mu * np.eye(len(free)) * max(1.0, np.trace(A)), g)
            trial = integrate(model, q, step, 1.0)
            phi_t, f_t = residual(trial)
            if np.linalg.norm(phi_t) < np.linalg.norm(phi) or mu > 1e6:
                break
            mu *= 10.0
        if np.linalg.norm(phi_t) >= np.linalg.norm(phi):  # no step helps: a local minimum
            break
        q, phi, f, mu = trial, phi_t, f_t, max(mu / 10.0, 1e-12)
    if np.max(np.abs(phi)) <= tol:
        return q
    worst = int(np.argmax(np.abs(phi)))
    moving = _jacobian(model, rows, q, f)[worst]
    scale = max(1e-300, np.abs(moving).max())
    joints = [model.v_names[j] for j in free if abs(moving[j]) > 1e-9 * scale]
    involved = f"the free rates that move it: {', '.join(joints)}" if joints else (
        "no free rate moves it"
    )  # fmt: skip
    raise ValueError(
        f"assemble: no configuration within {tol:g} found in {max_iter} steps: the "
        f"residual is {np.max(np.abs(phi)):.3g} at row {names[worst]!r} ({involved}); "
        "the fixed coordinates may put the mechanism out of reach, or the start is too "
        "far or at a singular configuration"
    )
