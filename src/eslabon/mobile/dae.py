"""An independent formulation of the coupled mobile manipulator: the unconstrained
multibody tree with the rolling constraints as Lagrange multipliers (an index-1 DAE).

The platform becomes an ordinary kinematic tree — prismatic x, prismatic y, revolute
heading θ (the chassis), the steering body (revolute β about z at the pivot), every wheel
spinning about its axle, the arm on the chassis at the mount — whose M(q) and bias h(q, q̇)
come from the compiled Newton–Euler (RNEA) and composite-body (CRBA) kernels, not from
the Gibbs function. The rolling constraints are written directly as Pfaffian rows
A(q) q̇ = 0 (no lateral velocity of the rear axle and of each steered wheel, and
r ψ̇ = v_c·e for each wheel; r ψ̇ = v_c·(e + tan α n) for a wheel with rollers at α), and
the accelerations solve

    [ M   Aᵀ ] [  q̈ ]   [ Q − h             ]
    [ A   0  ] [ −λ ] = [ −Ȧ q̇ − κ A q̇     ]

with Ȧ q̇ by complex step and a small velocity-level Baumgarte term κ. The two models share
only the parameters; agreement along a trajectory checks the coupled Gibbs–Appell
(:func:`eslabon.mobile.coupled_terms`).

A synchronous drive's wheels each get their own steering joint γ_k beside the turret's γ,
tied by the rows γ̇_k = γ̇, so the tree has n_w more coordinates than the platform's
configuration (:func:`expansion`); its parallel wheels' no-skid rows reduce to one wheel's
and θ̇ = 0 (the others are combinations of these, and would make A rank-deficient).
"""

from __future__ import annotations

import numpy as np
from scipy.integrate import solve_ivp

from .._engine.layout import JOINT_NAMES
from ..dynamics.api import bias_forces, mass_matrix
from ..model.builder import ModelBuilder
from .differential import DifferentialDrive
from .omnidirectional import Omnidirectional
from .platforms import Tricycle
from .synchronous import SynchronousDrive
from .terrain import floor_gravity
from .tilted_steering import ground_heading, steering_axis


def _plate(I):
    return np.diag([I / 2, I / 2, I])


def _disc(m, r):
    return np.diag([m * r * r / 4, m * r * r / 2, m * r * r / 4])


def _wheel(b, parent, name, m, r, where, heading=0.0):
    c, s = np.cos(heading), np.sin(heading)
    return b.add_body(
        parent,
        "R",
        axis=(0, 1, 0),
        rotation=((c, -s, 0), (s, c, 0), (0, 0, 1)),
        translation=where,
        mass=m,
        inertia=_disc(m, r),
        name=name,
    )


def expansion(mm) -> np.ndarray:
    """E (n_tree_platform, nc): the tree's platform coordinates = E @ config.

    The identity but for a synchronous drive, whose steering angle γ is copied to every
    wheel's steering joint: tree order [x, y, θ, γ, γ_1 … γ_nw, φ_1 … φ_nw].
    """
    nc = mm.n_config
    if not isinstance(mm.platform, SynchronousDrive):
        return np.eye(nc)
    n = mm.platform.params.wheels
    E = np.zeros((4 + 2 * n, nc))
    E[:4, :4] = np.eye(4)
    E[4 : 4 + n, 3] = 1.0
    E[4 + n :, 4:] = np.eye(n)
    return E


def _platform_part(mm) -> np.ndarray:
    """Indices of the tree's platform coordinates that make up ``config``."""
    E = expansion(mm)
    return np.array([int(np.flatnonzero(E[:, j])[0]) for j in range(E.shape[1])])


def tree_model(mm, *, with_arm: bool = True):
    """The unconstrained tree (coordinates = the platform's config, then the arm's q).

    Parameters
    ----------
    mm : MobileManipulator
    with_arm : bool
        False: the platform's bodies alone (the one-way coupling's Step 2).

    Returns
    -------
    Model
        Prismatic x, y and revolute heading θ at the root, the platform's bodies, then
        the arm at the mount (no constraints: :func:`rolling_constraints` gives them).
    """
    b = ModelBuilder()
    x = b.add_body(0, "P", axis=(1, 0, 0), name="x")
    y = b.add_body(x, "P", axis=(0, 1, 0), name="y")
    pf = mm.platform
    p = pf.params
    if not isinstance(pf, (Tricycle, DifferentialDrive, Omnidirectional, SynchronousDrive)):
        raise ValueError(f"platform: no tree for {type(pf).__name__}")
    ch = b.add_body(
        y,
        "R",
        axis=(0, 0, 1),
        mass=p.chassis_mass,
        com=(p.chassis_com, 0, 0),
        inertia=_plate(p.chassis_inertia),
        name="chassis",
    )
    if isinstance(pf, Tricycle) and p.steering_tilt != 0.0:
        # the joint at the contact point under the pivot, about the tilted axis k; the
        # steering body's centre of mass on k at the hub's height, the wheel's centre
        # r_F above the contact (:mod:`eslabon.mobile.tilted_steering`)
        k = steering_axis(p.steering_tilt)
        r = p.front_wheel_radius
        st = b.add_body(
            ch,
            "R",
            axis=tuple(k),
            translation=(p.wheelbase, 0, -r),
            mass=p.steering_mass,
            com=tuple(r / np.cos(p.steering_tilt) * k),
            inertia=0.5 * p.steering_inertia * (np.eye(3) + np.outer(k, k)),
            name="steering",
        )
        for name, side in (("rear_left", 1), ("rear_right", -1)):
            _wheel(
                b,
                ch,
                name,
                p.rear_wheel_mass,
                p.rear_wheel_radius,
                (0, side * p.rear_half_track, 0),
            )
        _wheel(b, st, "front+0", p.front_wheel_mass, r, (0, 0, r))
    elif isinstance(pf, Tricycle):
        st = b.add_body(
            ch,
            "R",
            axis=(0, 0, 1),
            translation=(p.wheelbase, 0, 0),
            mass=p.steering_mass,
            inertia=_plate(p.steering_inertia),
            name="steering",
        )
        for name, side in (("rear_left", 1), ("rear_right", -1)):
            _wheel(
                b,
                ch,
                name,
                p.rear_wheel_mass,
                p.rear_wheel_radius,
                (0, side * p.rear_half_track, 0),
            )
        sides = (0,) if p.front_wheels == 1 else (1, -1)
        for side in sides:
            _wheel(
                b,
                st,
                f"front{side:+d}",
                p.front_wheel_mass,
                p.front_wheel_radius,
                (0, side * p.front_half_track, 0),
            )
    elif isinstance(pf, DifferentialDrive):
        for name, side in (("left", 1), ("right", -1)):
            _wheel(b, ch, name, p.wheel_mass, p.wheel_radius, (0, side * p.half_track, 0))
    elif isinstance(pf, Omnidirectional):
        for i, (x, y, heading, _) in enumerate(p.wheels):
            _wheel(b, ch, f"wheel_{i + 1}", p.wheel_mass, p.wheel_radius, (x, y, 0), heading)
    else:
        b.add_body(
            ch,
            "R",
            axis=(0, 0, 1),
            mass=p.turret_mass,
            inertia=_plate(p.turret_inertia),
            name="turret",
        )
        forks = [
            b.add_body(ch, "R", axis=(0, 0, 1), translation=where, name=f"steer_{i + 1}")
            for i, where in enumerate(p.wheel_positions())
        ]
        for i, fork in enumerate(forks):
            _wheel(b, fork, f"wheel_{i + 1}", p.wheel_mass, p.wheel_radius, (0, 0, 0))
    arm = mm.arm
    index = {0: ch}
    if not with_arm:
        return b.build(gravity=tuple(floor_gravity(mm)), name=f"{mm.name}_platform",
                       source="eslabon.mobile.dae: the platform's tree")  # fmt: skip
    Rm, tm = mm.mount.rotation, mm.mount.translation
    for i in range(1, arm.nb + 1):
        par = int(arm.parent[i])
        R, t = arm.tree_rotation[i], arm.tree_translation[i]
        if par == 0:
            R, t = Rm @ R, Rm @ t + tm
        index[i] = b.add_body(
            index[par],
            JOINT_NAMES[int(arm.joint_type[i])],
            axis=arm.axis[i],
            rotation=R,
            translation=t,
            mass=arm.mass[i],
            com=arm.com[i],
            inertia=arm.inertia[i],
            viscous=arm.viscous[i],
            coulomb=arm.coulomb[i],
            armature=arm.armature[i],
            name=f"arm_{arm.body_names[i]}",
        )
    return b.build(
        gravity=tuple(floor_gravity(mm)),
        name=f"{mm.name}_tree",
        source="eslabon.mobile.dae: unconstrained tree",
    )


def rolling_constraints(mm) -> list:
    """The platform's rolling constraints as :class:`~eslabon.constraints.RollingWheel`
    rows on :func:`tree_model`'s wheels: every wheel of a tricycle or differential drive
    rolls without slip or skid (the two rear wheels' skid rows repeat each other, as do
    a steered axle's: the rank report names the repeats), an omnidirectional platform's
    wheels roll along their rollers. The general constrained formulations
    (:mod:`eslabon.constraints`) on the tree with these rows give the coupled model's
    accelerations. A synchronous drive's belt (γ̇_k = γ̇) and its θ̇ = 0 tie joint
    coordinates, not frames: it has no such set.

    Parameters
    ----------
    mm : MobileManipulator
        With a Tricycle, DifferentialDrive or Omnidirectional platform.

    Returns
    -------
    list of RollingWheel

    Raises
    ------
    ValueError
        A synchronous drive; a tricycle with a tilted steering axis.

    Examples
    --------
    >>> from eslabon import mobile as mb
    >>> from eslabon.mobile import dae
    >>> from eslabon.zoo.araujo import puma560_araujo
    >>> drive = mb.DifferentialDrive(mb.DiffDriveParams.seekur_jr_assumed())
    >>> mm = mb.MobileManipulator(drive, puma560_araujo(), mb.Mount((0.3, 0.0, 0.5)))
    >>> [w.name for w in dae.rolling_constraints(mm)]
    ['left', 'right']
    """
    from ..model.constraint_types import RollingWheel

    pf, p = mm.platform, mm.platform.params
    if isinstance(pf, Tricycle) and p.steering_tilt != 0.0:
        raise ValueError(
            "platform: a tilted steering axis's contact is taken at the axis's foot, not "
            "at a point of the wheel; it has no rolling-wheel set (use constraint_matrix)"
        )
    if isinstance(pf, Tricycle):
        sides = ("front+0",) if p.front_wheels == 1 else ("front+1", "front-1")
        return [RollingWheel(w, w, p.rear_wheel_radius) for w in ("rear_left", "rear_right")] + [
            RollingWheel(w, w, p.front_wheel_radius) for w in sides
        ]
    if isinstance(pf, DifferentialDrive):
        return [RollingWheel(w, w, p.wheel_radius) for w in ("left", "right")]
    if isinstance(pf, Omnidirectional):
        return [
            RollingWheel(f"wheel_{i + 1}", f"wheel_{i + 1}", p.wheel_radius, rollers=float(alpha))
            for i, (_, _, _, alpha) in enumerate(p.wheels)
        ]
    raise ValueError(
        f"platform: a {type(pf).__name__}'s couplings tie joint coordinates, not frames; it "
        "has no rolling-wheel set (use constraint_matrix)"
    )


def constraint_matrix(mm, q):
    """Pfaffian rows A(q) (m, n) of the rolling constraints, written from the geometry."""
    pf, p = mm.platform, mm.platform.params
    n = len(q)
    th = q[2]
    c, s = np.cos(th), np.sin(th)
    rows = []

    def row(entries):
        r = np.zeros(n, dtype=q.dtype)
        for j, v in entries.items():
            r[j] = v
        rows.append(r)

    if isinstance(pf, (Tricycle, DifferentialDrive)):
        # the (rear) axle midpoint has no lateral velocity: −sin θ ẋ + cos θ ẏ = 0
        row({0: -s, 1: c})
    if isinstance(pf, Tricycle):
        # rear wheels roll: r ψ̇ = cos θ ẋ + sin θ ẏ ∓ l θ̇ (left at +l)
        for j, side in ((4, 1), (5, -1)):
            row({0: c, 1: s, 2: -side * p.rear_half_track, j: -p.rear_wheel_radius})
        # the front wheel's heading on the floor: γ = θ + β, or θ + δ(β) with a tilted
        # axis (tan δ = cos σ tan β, the contact at the axis's foot under the pivot)
        tilt = p.steering_tilt
        g = th + (q[3] if tilt == 0.0 else ground_heading(q[3], tilt))
        cg, sg = np.cos(g), np.sin(g)
        sides = (0,) if p.front_wheels == 1 else (1, -1)
        for k, side in enumerate(sides):
            lf = side * p.front_half_track
            # wheel centre c = (x, y) + b (cos θ, sin θ) + lf (−sin γ, cos γ); its rates
            dcx = {0: 1.0, 2: -p.wheelbase * s - lf * cg, 3: -lf * cg}
            dcy = {1: 1.0, 2: p.wheelbase * c - lf * sg, 3: -lf * sg}
            rolling = {6 + k: -p.front_wheel_radius}  # r ψ̇ = v_c · e, e = (cos γ, sin γ)
            lateral = {}  # no skid: v_c · n = 0
            for j in set(dcx) | set(dcy):
                lateral[j] = -sg * dcx.get(j, 0.0) + cg * dcy.get(j, 0.0)
                rolling[j] = rolling.get(j, 0.0) + cg * dcx.get(j, 0.0) + sg * dcy.get(j, 0.0)
            if k == 0:  # wheels on one rigid steered axle share this row
                row(lateral)
            row(rolling)
    elif isinstance(pf, DifferentialDrive):
        for j, side in ((3, 1), (4, -1)):
            row({0: c, 1: s, 2: -side * p.half_track, j: -p.wheel_radius})
    elif isinstance(pf, Omnidirectional):
        # nothing stops the chassis sliding: only the rollers' rolling
        for i, (px, py, heading, alpha) in enumerate(p.wheels):
            g = th + heading
            e, nrm = np.array([np.cos(g), np.sin(g)]), np.array([-np.sin(g), np.cos(g)])
            w = e + np.tan(alpha) * nrm
            zxp = np.array([-(s * px + c * py), c * px - s * py])  # z × R(θ) p
            row({0: w[0], 1: w[1], 2: w @ zxp, 3 + i: -p.wheel_radius})
    else:
        nw = p.wheels
        row({2: 1.0})  # parallel wheels at different places: no yaw
        for k, (px, py, _) in enumerate(p.wheel_positions()):
            g = th + q[4 + k]
            e, nrm = np.array([np.cos(g), np.sin(g)]), np.array([-np.sin(g), np.cos(g)])
            zxp = np.array([-(s * px + c * py), c * px - s * py])
            if k == 0:  # no skid; the other wheels' rows follow from this and θ̇ = 0
                row({0: nrm[0], 1: nrm[1], 2: nrm @ zxp})
            row({0: e[0], 1: e[1], 2: e @ zxp, 4 + nw + k: -p.wheel_radius})
            row({4 + k: 1.0, 3: -1.0})  # the belt: γ̇_k = γ̇
    return np.array(rows)


def _A_dot_qd(mm, q, qd, h=1e-30):
    """Ȧ q̇ = d/dε A(q + ε q̇) q̇ by complex step (exact to rounding)."""
    return (constraint_matrix(mm, q + 1j * h * qd).imag / h) @ qd


def generalized_forces(mm, q, u, tau):
    """Q on the tree's coordinates from the platform inputs and the arm torques."""
    pf = mm.platform
    Q = np.zeros(len(q))
    nc = mm.n_config
    if isinstance(pf, Tricycle):
        Q[0], Q[1] = u[0] * np.cos(q[2]), u[0] * np.sin(q[2])  # F along the heading at R
        Q[3] = u[1]  # M on the steering joint
    elif isinstance(pf, SynchronousDrive):
        n = pf.params.wheels
        nc = 4 + 2 * n
        Q[4 + n : nc] = u[0] / n  # the belt shares the drive: any split does the same work
        Q[3] = u[1]  # the steering torque on the turret
    else:
        Q[3 : 3 + len(u)] = u  # wheel torques
    Q[nc:] = tau
    return Q


def accelerations(mm, tree, q, qd, u, tau, kappa=0.0):
    """q̈ (n,) and λ (m,) of the constrained tree."""
    M = mass_matrix(tree, q)
    h = bias_forces(tree, q, qd)
    A = constraint_matrix(mm, q)
    m = A.shape[0]
    K = np.block([[M, A.T], [A, np.zeros((m, m))]])
    rhs = np.concatenate(
        [generalized_forces(mm, q, u, tau) - h, -_A_dot_qd(mm, q, qd) - kappa * A @ qd]
    )
    sol = np.linalg.solve(K, rhs)
    return sol[: len(q)], -sol[len(q) :]


def simulate(mm, t_eval, y0, u, tau=None, *, rtol=1e-11, atol=1e-12, kappa=10.0):
    """Integrate the DAE (DOP853) from the mobile state y0 (same layout as the coupled
    model); returns (config+q history (K, nc+n), its rates (K, nc+n)) in the mobile
    layout (a synchronous drive's wheel steering joints dropped: they follow γ)."""
    tree = tree_model(mm)
    config, q, nu, qd = mm.split(y0)
    rates = mm.platform.motion(config, nu).rates
    E = expansion(mm)
    x0 = np.concatenate([E @ config, q, E @ rates, qd])
    n = tree.nq
    tau = np.zeros(mm.n_arm) if tau is None else np.asarray(tau, float)

    def f(t, x):
        qdd, _ = accelerations(mm, tree, x[:n], x[n:], u, tau, kappa)
        return np.concatenate([x[n:], qdd])

    sol = solve_ivp(
        f, (t_eval[0], t_eval[-1]), x0, method="DOP853", t_eval=t_eval, rtol=rtol, atol=atol
    )
    if not sol.success:
        raise RuntimeError(f"DAE integration failed: {sol.message}")
    keep = np.r_[_platform_part(mm), E.shape[0] + np.arange(mm.n_arm)]
    return sol.y[:n][keep].T, sol.y[n:][keep].T


def tree_trajectory(mm, run):
    """(tree model, :class:`~eslabon.sim.Trajectory`) of a mobile run, for the plots and
    the HTML viewer: the platform's configuration and the arm's joints as the tree's
    coordinates (τ holds the arm torques; the platform's entries are zero)."""
    from ..sim import Trajectory

    tree = tree_model(mm)
    E = expansion(mm)
    q = np.hstack([run.config @ E.T, run.q])
    qd = np.hstack([run.config_rates @ E.T, run.qd])
    qdd = np.gradient(qd, run.t, axis=0) if len(run.t) > 1 else np.zeros_like(qd)
    tau = np.hstack([np.zeros((len(run.t), E.shape[0])), run.tau])
    return tree, Trajectory(t=run.t, q=q, qd=qd, qdd=qdd, tau=tau, model_name=tree.name)
