"""Spatial parallel robots: Clavel's Delta and the Gough–Stewart platform, each a tree
(the moving platform on a chain from the world, the legs on their own joints) whose legs
are closed to the platform by 3-row ``point`` :class:`~eslabon.constraints.LoopClosure`
rows (ball joints).

As in :mod:`eslabon.zoo.linkages`, **q = 0 is an assembled home pose** (every joint
frame is placed so), ``ec.assemble(model, es.neutral(model))`` polishes it to
‖φ‖ ≤ 1e-12, and ``ec.close_state`` moves the
independent coordinates from there: the actuated joints (the forward kinematics) or the
platform's coordinates (the inverse kinematics). The platform hangs from the world on a
chain of massless joints (three prismatic for the Delta, three prismatic and three
revolute for the Stewart platform), so that nq = nv and the platform's coordinates are
joint coordinates. Units m, kg, rad; z up, gravity (0, 0, −9.81).
"""

from __future__ import annotations

import numpy as np

from ..model import ModelBuilder
from ..model.constraint_types import LoopClosure

GRAVITY = (0.0, 0.0, -9.81)
Z = np.array([0.0, 0.0, 1.0])


def _frame(x, z) -> np.ndarray:
    """The rotation whose columns are x, z × x, z (x and z unit and orthogonal)."""
    x, z = np.asarray(x, float), np.asarray(z, float)
    return np.column_stack([x, np.cross(z, x), z])


def _rod_inertia(mass: float, length: float) -> np.ndarray:
    """About the COM of a uniform slender rod along x (10⁻³ of it about x itself)."""
    return np.diag([1e-3, 1.0, 1.0]) * mass * length**2 / 12.0


def _lumped(parts) -> dict:
    """Mass, COM and inertia about the COM of bodies given as (mass, com, inertia about
    their COM), all in one body frame (parallel-axis theorem)."""
    m = sum(p[0] for p in parts)
    if m == 0.0:
        return dict(mass=0.0, com=(0.0, 0.0, 0.0), inertia=np.zeros((3, 3)))
    c = sum(p[0] * np.asarray(p[1], float) for p in parts) / m
    inertia = np.zeros((3, 3))
    for mi, ci, Ii in parts:
        r = np.asarray(ci, float) - c
        inertia = inertia + Ii + mi * (r @ r * np.eye(3) - np.outer(r, r))
    return dict(mass=float(m), com=tuple(c), inertia=inertia)


def _check(what: str, **values: float) -> None:
    for key, value in values.items():
        if not (np.isfinite(value) and value > 0.0):
            raise ValueError(f"{what} {key}: expected a positive length, got {value!r}")


def delta(
    base_radius: float = 0.2,
    platform_radius: float = 0.05,
    arm: float = 0.35,
    forearm: float = 0.8,
    arm_mass: float = 0.6,
    forearm_mass: float = 0.15,
    platform_mass: float = 0.4,
    arm_angle: float = 0.5,
    lumped: bool = False,
):
    """Clavel's Delta robot: three actuated upper arms at 120°, three forearms on
    universal joints at the elbows, ball-jointed to a translating platform; mobility 3.

    Source: R. Clavel, "DELTA, a fast robot with parallel geometry", Proc. 18th Int.
    Symp. on Industrial Robots, Lausanne (1988), pp. 91–100: the architecture (three
    revolute actuators on the base, their axes tangent to a circle at 120°, each arm
    carrying a forearm whose parallelogram keeps the platform's orientation fixed). The
    dimensions and masses are ours, of the order of a small pick-and-place Delta.

    The model: arm i (body ``arm{i}``, rate i, i = 0, 1, 2, the actuated joints) turns
    about the tangent (−sin φᵢ, cos φᵢ, 0) at the shoulder ``base_radius``·uᵢ, uᵢ =
    (cos φᵢ, sin φᵢ, 0), φᵢ = 0, 2π/3, 4π/3; its angle below the horizontal is
    ``arm_angle + q[i]`` (positive down). The platform (body ``platform``, frame ``ee``
    at its centre) hangs on three massless prismatic joints along x, y, z (bodies
    ``platform_x``, ``platform_y``, ``platform``; rates 3, 4, 5, its displacement from
    home in the world), which carry it in pure translation as the parallelograms do.
    Forearm i (body ``forearm{i}``, rates 6 + 2i, 7 + 2i) is a rod of length
    ``forearm`` on a universal joint at the elbow (first axis the arm's, then the one
    across it); its end (frame ``forearm{i}_end``) is held at the platform's attachment
    point (frame ``attach{i}``, ``platform_radius``·uᵢ from the centre) by the loop
    closure ``ball{i}`` (``point``: rows x, y, z in the platform's axes, i.e. the
    world's). So nv = 12, 9 rows of rank 9 away from singularities.

    Home (q = 0): every arm at ``arm_angle`` and the platform on the axis below the
    base. Links are uniform rods (arms pivoting at one end). With ``lumped`` each
    forearm's mass is split as two point masses at its ends, a common simplification of
    Delta dynamics (here in equal halves): one on the arm at the elbow, one at the
    forearm's far end (which moves with the platform); the forearm then has inertia only
    through that far point mass, off its joint's centre, so M stays positive definite and
    the actuator torques have a closed form (tests/test_linkages.py).

    Parameters
    ----------
    base_radius, platform_radius : float
        Distances of the shoulders and of the attachment points from the centre [m].
    arm, forearm : float
        Upper-arm and forearm lengths [m].
    arm_mass, forearm_mass, platform_mass : float
        Each arm's, each forearm's and the platform's mass [kg].
    arm_angle : float
        The arms' angle below the horizontal at home [rad].
    lumped : bool
        Forearms as point masses at their two ends (see above).

    Returns
    -------
    Model
        nq = nv = 12, three LoopClosures of three rows.

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon import constraints as ec
    >>> robot = es.zoo.load("delta")
    >>> report = ec.constraint_rank(robot, es.neutral(robot))
    >>> report.rank, report.mobility
    (9, 3)
    """
    _check(
        "delta", base_radius=base_radius, platform_radius=platform_radius, arm=arm, forearm=forearm
    )
    reach = base_radius + arm * np.cos(arm_angle) - platform_radius
    if abs(reach) >= forearm:
        raise ValueError(
            f"delta forearm: {forearm} m cannot reach the platform (horizontal offset "
            f"{reach:.6g} m at arm_angle {arm_angle})"
        )
    height = arm * np.sin(arm_angle) + np.sqrt(forearm**2 - reach**2)
    platform = np.array([0.0, 0.0, -height])
    b = ModelBuilder()
    arms, forearm_rotations = [], []
    near = forearm_mass / 2.0 if lumped else 0.0
    arm_parts = [(arm_mass, (arm / 2, 0, 0), _rod_inertia(arm_mass, arm))]
    if near:
        arm_parts.append((near, (arm, 0, 0), np.zeros((3, 3))))
    for i in range(3):
        phi = 2.0 * np.pi * i / 3.0
        u = np.array([np.cos(phi), np.sin(phi), 0.0])
        t = np.array([-np.sin(phi), np.cos(phi), 0.0])
        R_arm = _frame(np.cos(arm_angle) * u - np.sin(arm_angle) * Z, t)
        elbow = base_radius * u + arm * R_arm[:, 0]
        f = (platform + platform_radius * u - elbow) / forearm
        forearm_rotations.append(R_arm.T @ _frame(f, t))
        arms.append(
            b.add_body(
                0,
                "R",
                translation=base_radius * u,
                rotation=R_arm,
                name=f"arm{i}",
                joint_name=f"arm{i}",
                **_lumped(arm_parts),
            )
        )
    px = b.add_body(0, "P", axis=(1, 0, 0), name="platform_x", joint_name="platform_x")
    py = b.add_body(px, "P", axis=(0, 1, 0), name="platform_y", joint_name="platform_y")
    disc = np.diag([0.25, 0.25, 0.5]) * platform_mass * platform_radius**2
    pz = b.add_body(
        py,
        "P",
        axis=(0, 0, 1),
        translation=platform,
        name="platform",
        joint_name="platform_z",
        mass=float(platform_mass),
        inertia=disc,
    )
    b.add_frame("ee", pz)
    for i in range(3):
        if lumped:
            body = dict(mass=forearm_mass / 2.0, com=(forearm, 0, 0), inertia=np.zeros((3, 3)))
        else:
            body = dict(
                mass=float(forearm_mass),
                com=(forearm / 2, 0, 0),
                inertia=_rod_inertia(forearm_mass, forearm),
            )
        fa = b.add_body(
            arms[i],
            "universal",
            axis=(0, 0, 1),
            axis2=(0, 1, 0),
            translation=(arm, 0, 0),
            rotation=forearm_rotations[i],
            name=f"forearm{i}",
            joint_name=f"forearm{i}",
            **body,
        )
        phi = 2.0 * np.pi * i / 3.0
        b.add_frame(f"forearm{i}_end", fa, translation=(forearm, 0, 0))
        b.add_frame(
            f"attach{i}",
            pz,
            translation=platform_radius * np.array([np.cos(phi), np.sin(phi), 0.0]),
        )
        b.add_constraint(LoopClosure(f"ball{i}", f"attach{i}", f"forearm{i}_end", "point"))
    return b.build(
        gravity=GRAVITY,
        name="delta",
        source="Clavel 1988, DELTA, a fast robot with parallel geometry (18th ISIR)",
    )


def _stewart_points(radius: float, spread: float, platform: bool) -> np.ndarray:
    """The six attachment points on a circle, in pairs ``spread`` [rad] apart: the base's
    pairs centred at 0, 120°, 240°, the platform's at 60°, 180°, 300°, leg k joining base
    point k to platform point k (neighbours on the base go to different pairs)."""
    out = []
    for k in range(6):
        j, odd = divmod(k, 2)
        centre = 2.0 * np.pi * j / 3.0
        if platform:
            angle = centre + (np.pi / 3 - spread / 2 if odd else -np.pi / 3 + spread / 2)
        else:
            angle = centre + (spread / 2 if odd else -spread / 2)
        out.append(radius * np.array([np.cos(angle), np.sin(angle), 0.0]))
    return np.array(out)


def stewart(
    base_radius: float = 1.0,
    platform_radius: float = 0.6,
    height: float = 1.2,
    base_spread: float = 0.35,
    platform_spread: float = 0.35,
    cylinder_mass: float = 1.5,
    piston_mass: float = 1.0,
    platform_mass: float = 10.0,
    platform_com: float = 0.0,
    free_flyer: bool = False,
):
    """Gough–Stewart platform: six legs, each a universal joint on the base, an actuated
    prismatic joint and a ball joint on the platform; mobility 6.

    Sources: V. E. Gough, contribution to the discussion of papers on research in
    automobile stability, control and tyre performance, Proc. Automobile Division, Inst.
    Mech. Eng. (1956–57), his tyre-testing machine; D. Stewart, "A platform with six
    degrees of freedom", Proc. Inst. Mech. Eng. 180(1), no. 15, pp. 371–386 (1965). The
    6-6 geometry in pairs is the usual one (J.-P. Merlet, *Parallel Robots*, 2nd ed.
    2006); the dimensions and masses are ours.

    The model: the platform (body ``platform``, frame ``ee`` at its centre) hangs on a
    massless chain from the world: prismatic x, y, z, then revolute z, y, x (yaw, pitch,
    roll about its centre; rates 0–5, from home; the chain's only singularity is at
    pitch ±π/2). With ``free_flyer`` it is a free body instead (q: its position from home
    and its unit quaternion (x, y, z, w), rates 0–5 its (v, ω) in its own axes; nq = 25,
    so every coordinate below sits one further in q than in v, and ``close_state``,
    which takes nq = nv, gives way to ``assemble`` and ``partition``).

    Leg k (k = 0..5) is a ``cylinder{k}`` on a universal joint at the base point (frame
    ``base{k}``; rates 6 + 2k, 7 + 2k; first axis across the leg, then the one across
    both) and a ``piston{k}`` on the prismatic joint along the leg (rate 18 + k, the
    actuated joints; the leg's length is its home length plus q). The piston's end
    (frame ``leg{k}_end``) is held at the platform's point (frame ``attach{k}``) by the
    loop closure ``ball{k}`` (``point``: rows x, y, z in the platform's axes). nv = 24,
    18 rows of rank 18 away from singularities.

    Attachment points: on circles of ``base_radius`` and ``platform_radius``, in pairs
    ``base_spread`` and ``platform_spread`` [rad] apart, the base's pairs centred at 0°,
    120°, 240° and the platform's at 60°, 180°, 300°; leg k joins base point k to
    platform point k, neighbours on the base going to different platform pairs.

    Home (q = 0): the platform level, its centre ``height`` above the base's. Each
    cylinder is a uniform rod of half the leg's home length from the base point, each
    piston one of the same length whose COM is three quarters of the home length from
    the base point at q = 0; the platform a uniform disc, its COM ``platform_com`` [m]
    above its centre along its z axis (a payload).

    Parameters
    ----------
    base_radius, platform_radius, height : float
        [m].
    base_spread, platform_spread : float
        The angle between the two points of a pair [rad].
    cylinder_mass, piston_mass, platform_mass : float
        [kg]; legs may be massless (then M is singular and only the formulations that
        do not invert M apply, e.g. the inverse dynamics).
    platform_com : float
        The platform's COM above its centre [m].
    free_flyer : bool
        The platform on a free-flyer joint rather than the chain.

    Returns
    -------
    Model
        nq = nv = 24 (nq = 25 with ``free_flyer``), six LoopClosures of three rows.

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon import constraints as ec
    >>> robot = es.zoo.load("stewart")
    >>> report = ec.constraint_rank(robot, es.neutral(robot))
    >>> report.rank, report.mobility
    (18, 6)
    """
    _check("stewart", base_radius=base_radius, platform_radius=platform_radius, height=height)
    base = _stewart_points(base_radius, base_spread, platform=False)
    top = _stewart_points(platform_radius, platform_spread, platform=True)
    centre = np.array([0.0, 0.0, height])
    b = ModelBuilder()
    r = platform_radius
    inertial = dict(
        mass=float(platform_mass),
        com=(0.0, 0.0, platform_com),
        inertia=np.diag([0.25, 0.25, 0.5]) * platform_mass * r**2,  # a uniform disc
    )
    if free_flyer:
        plat = b.add_body(
            0, "free_flyer", translation=centre, name="platform", joint_name="platform", **inertial
        )
    else:
        chain = (
            ("platform_x", "P", (1, 0, 0)),
            ("platform_y", "P", (0, 1, 0)),
            ("platform_z", "P", (0, 0, 1)),
            ("platform_yaw", "R", (0, 0, 1)),
            ("platform_pitch", "R", (0, 1, 0)),
        )
        parent = 0
        for name, joint, axis in chain:
            where = centre if name == "platform_z" else np.zeros(3)
            parent = b.add_body(
                parent, joint, axis=axis, translation=where, name=name, joint_name=name
            )
        plat = b.add_body(
            parent, "R", axis=(1, 0, 0), name="platform", joint_name="platform_roll", **inertial
        )
    b.add_frame("ee", plat)
    lengths, cylinders = [], []
    for k in range(6):
        leg = centre + top[k] - base[k]
        length = float(np.linalg.norm(leg))
        n = leg / length
        across = np.cross(Z, n)
        across = across / np.linalg.norm(across)
        lengths.append(length)
        half = length / 2.0
        cylinders.append(
            b.add_body(
                0,
                "universal",
                axis=(0, 0, 1),
                axis2=(0, 1, 0),
                translation=base[k],
                rotation=_frame(n, across),
                name=f"cylinder{k}",
                joint_name=f"cylinder{k}",
                mass=float(cylinder_mass),
                com=(half / 2, 0, 0),
                inertia=_rod_inertia(cylinder_mass, half),
            )
        )
        b.add_frame(f"base{k}", 0, translation=base[k])
        b.add_frame(f"attach{k}", plat, translation=top[k])
    for k in range(6):
        half = lengths[k] / 2.0
        piston = b.add_body(
            cylinders[k],
            "P",
            axis=(1, 0, 0),
            name=f"piston{k}",
            joint_name=f"piston{k}",
            mass=float(piston_mass),
            com=(1.5 * half, 0, 0),
            inertia=_rod_inertia(piston_mass, half),
        )
        b.add_frame(f"leg{k}_end", piston, translation=(lengths[k], 0, 0))
        b.add_constraint(LoopClosure(f"ball{k}", f"attach{k}", f"leg{k}_end", "point"))
    return b.build(
        gravity=GRAVITY,
        name="stewart",
        source="Gough 1956-57; Stewart 1965, A platform with six degrees of freedom",
    )
