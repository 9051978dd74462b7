"""Planar closed-loop linkages: the four-bar, the slider-crank and the five-bar parallel
robot, each a tree of revolute (and prismatic) joints whose loop is closed by a
``planar_pin`` :class:`~eslabon.constraints.LoopClosure` (:mod:`eslabon.constraints`).

Conventions shared by the three: the mechanism moves in the world's x–y plane, gravity
(0, −9.81, 0) in that plane, links are uniform slender rods (COM at mid-length, inertia
m l²/12 about the COM's y and z axes and 10⁻³ of that about the rod's own x axis), and
**q = 0 is an assembled home pose**: each joint frame is turned so that the zero of
every joint is the home configuration, whose closure residual is round-off. So
``ec.assemble(model, es.neutral(model))`` returns it polished to ‖φ‖ ≤ 1e-12, and
``ec.close_state(model, es.neutral(model), independent, values)`` moves the independent
joints from there. Joint angles are
measured from home: each docstring says how they map to the textbook angles.
"""

from __future__ import annotations

import numpy as np

from ..model import ModelBuilder
from ..model.constraint_types import LoopClosure

GRAVITY = (0.0, -9.81, 0.0)


def _rz(angle: float) -> np.ndarray:
    """The rotation by ``angle`` [rad] about z."""
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def _rod(mass: float, length: float) -> dict:
    """A uniform slender rod along its body's x axis from the joint: mass, COM, inertia."""
    inertia = np.diag([1e-3, 1.0, 1.0]) * mass * length**2 / 12.0
    return dict(mass=float(mass), com=(length / 2.0, 0.0, 0.0), inertia=inertia)


def _circles(center_a, radius_a, center_b, radius_b, left: bool, what: str) -> np.ndarray:
    """The intersection of two circles in the plane: of the two, the one on the left of
    the line from ``center_a`` to ``center_b`` (or on its right), else a ValueError."""
    a, b = np.asarray(center_a, float), np.asarray(center_b, float)
    d = float(np.linalg.norm(b - a))
    if not abs(radius_a - radius_b) < d < radius_a + radius_b:
        raise ValueError(
            f"{what}: the links cannot close at this pose (distance {d:.6g} m, link lengths "
            f"{radius_a:.6g} and {radius_b:.6g} m)"
        )
    along = (d * d + radius_a**2 - radius_b**2) / (2.0 * d)
    h = np.sqrt(radius_a**2 - along**2)
    e = (b - a) / d
    normal = np.array([-e[1], e[0]])
    return a + along * e + (h if left else -h) * normal


def _angle(v) -> float:
    return float(np.arctan2(v[1], v[0]))


def _positive(what: str, **values: float) -> None:
    for key, value in values.items():
        if not (np.isfinite(value) and value > 0.0):
            raise ValueError(f"{what} {key}: expected a positive length, got {value!r}")


def four_bar(
    crank: float = 1.0,
    coupler: float = 2.5,
    rocker: float = 2.0,
    ground: float = 3.0,
    crank_mass: float = 1.0,
    coupler_mass: float = 2.5,
    rocker_mass: float = 2.0,
    crank_angle: float = np.pi / 2,
):
    """Planar four-bar linkage: a crank, a coupler and a rocker on revolute joints about
    z, the rocker's end pinned to the ground; mobility 1.

    The mechanism is the four-bar of F. Grashof, *Theoretische Maschinenlehre*, vol. 2
    (1883), and of J. J. Uicker, G. R. Pennock and J. E. Shigley, *Theory of Machines and
    Mechanisms* (Oxford University Press, 4th ed. 2011), §1.9 (Grashof's law), ch. 2 (the
    loop-closure equation, position analysis) and ch. 3 (velocity). The dimensions and
    masses are ours.

    Geometry: the crank turns about the world origin O, the rocker about the ground
    pivot D = (``ground``, 0, 0) (frame ``ground_pivot``); the crank's tip A carries the
    coupler, whose end B carries the rocker, whose end (frame ``rocker_end``) is held at
    D by the loop closure ``pin`` (rows ``pin.x``, ``pin.y``, a planar pin). Bodies
    ``crank``, ``coupler``, ``rocker``; q = (crank, coupler, rocker), each from home.

    Grashof's condition: with s and l the shortest and the longest of the four lengths
    and p, q the others, some link turns fully relative to the others if and only if
    s + l ≤ p + q (equality: a change-point mechanism, which passes through a
    configuration with all four pivots in line). The defaults (1, 2.5, 2, 3 m: s + l = 4
    < p + q = 4.5, the crank the shortest, next to the ground) make a crank-rocker: the
    crank turns fully, with no singular configuration on the way. A parallelogram
    (crank = rocker, coupler = ground) is a change-point linkage: it flattens at crank
    angles 0 and π.

    Home (q = 0): the crank at ``crank_angle`` [rad] from the ground line OD, and B on
    the left of the line from A to D (the "open" assembly). The crank's angle from OD is
    ``crank_angle + q[0]``; the coupler's and the rocker's are relative to their parent
    link, from their home angles. Gravity (0, −9.81, 0): the plane is vertical.

    Parameters
    ----------
    crank, coupler, rocker, ground : float
        The link lengths OA, AB, BD and OD [m].
    crank_mass, coupler_mass, rocker_mass : float
        Masses of the three moving links [kg] (uniform rods).
    crank_angle : float
        The crank's angle from the ground line at home [rad].

    Returns
    -------
    Model
        nq = nv = 3, one LoopClosure of two rows.

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon import constraints as ec
    >>> bar = es.zoo.load("four_bar")
    >>> q = ec.assemble(bar, es.neutral(bar), fixed=[0])
    >>> rank = ec.constraint_rank(bar, q)
    >>> rank.rank, rank.mobility
    (2, 1)
    """
    _positive("four_bar", crank=crank, coupler=coupler, rocker=rocker, ground=ground)
    A = crank * np.array([np.cos(crank_angle), np.sin(crank_angle)])
    D = np.array([ground, 0.0])
    B = _circles(A, coupler, D, rocker, left=True, what="four_bar crank_angle")
    th_crank, th_coupler, th_rocker = float(crank_angle), _angle(B - A), _angle(D - B)
    b = ModelBuilder()
    c1 = b.add_body(
        0, "R", rotation=_rz(th_crank), name="crank", joint_name="crank", **_rod(crank_mass, crank)
    )
    c2 = b.add_body(
        c1,
        "R",
        translation=(crank, 0, 0),
        rotation=_rz(th_coupler - th_crank),
        name="coupler",
        joint_name="coupler",
        **_rod(coupler_mass, coupler),
    )
    c3 = b.add_body(
        c2,
        "R",
        translation=(coupler, 0, 0),
        rotation=_rz(th_rocker - th_coupler),
        name="rocker",
        joint_name="rocker",
        **_rod(rocker_mass, rocker),
    )
    b.add_frame("rocker_end", c3, translation=(rocker, 0, 0))
    b.add_frame("ground_pivot", 0, translation=(ground, 0, 0))
    b.add_constraint(LoopClosure("pin", "ground_pivot", "rocker_end", "planar_pin"))
    return b.build(
        gravity=GRAVITY,
        name="four_bar",
        source="planar four-bar linkage (Grashof 1883; Uicker, Pennock & Shigley 2011, §1.9)",
    )


def slider_crank(
    crank: float = 0.5,
    rod_length: float = 1.5,
    offset: float = 0.0,
    crank_mass: float = 1.0,
    rod_mass: float = 1.5,
    slider_mass: float = 2.0,
    crank_angle: float = np.pi / 2,
):
    """Planar slider-crank: a crank and a connecting rod on revolute joints about z, a
    slider on a prismatic joint along x, the rod's end pinned to the slider; mobility 1.

    The mechanism of an engine or a compressor: Uicker, Pennock and Shigley, *Theory of
    Machines and Mechanisms* (4th ed. 2011), ch. 1 and ch. 2 (position analysis); E. J.
    Haug, *Computer-Aided Kinematics and Dynamics of Mechanical Systems*, vol. 1 (Allyn
    and Bacon, 1989), which treats it among its planar examples of constrained
    dynamics. The dimensions and masses are ours.

    Geometry: the crank turns about the world origin, its tip A carries the rod; the
    slider moves along the line y = ``offset`` (a body ``slider`` on a prismatic joint
    along x); the rod's end (frame ``rod_end``) is pinned to the slider's wrist pin
    (frame ``wrist_pin``, the slider's origin) by the loop closure ``pin`` (rows
    ``pin.x``, ``pin.y``). q = (crank, rod, slider) from home.

    Home (q = 0): the crank at ``crank_angle`` [rad] from +x, the slider on the +x side
    of the crank. The crank's angle is ``crank_angle + q[0]``; the slider's x is its
    home x plus ``q[2]`` [m]. The crank turns fully when ``crank + |offset| < rod_length``.
    Gravity (0, −9.81, 0).

    Parameters
    ----------
    crank, rod_length : float
        Crank radius and connecting-rod length [m].
    offset : float
        The slider line's distance from the crank's pivot, along y [m].
    crank_mass, rod_mass, slider_mass : float
        Masses [kg]; the slider is a uniform cube of side 0.1 m.
    crank_angle : float
        The crank's angle at home [rad].

    Returns
    -------
    Model
        nq = nv = 3, one LoopClosure of two rows.

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon import constraints as ec
    >>> engine = es.zoo.load("slider_crank")
    >>> ec.constraint_rank(engine, es.neutral(engine)).mobility
    1
    """
    _positive("slider_crank", crank=crank, rod_length=rod_length)
    A = crank * np.array([np.cos(crank_angle), np.sin(crank_angle)])
    rise = offset - A[1]
    if abs(rise) >= rod_length:
        raise ValueError(
            f"slider_crank crank_angle: the rod ({rod_length} m) cannot reach the slider's "
            f"line at this crank angle"
        )
    B = np.array([A[0] + np.sqrt(rod_length**2 - rise**2), offset])
    th_rod = _angle(B - A)
    side = 0.1
    b = ModelBuilder()
    c1 = b.add_body(
        0,
        "R",
        rotation=_rz(crank_angle),
        name="crank",
        joint_name="crank",
        **_rod(crank_mass, crank),
    )
    c2 = b.add_body(
        c1,
        "R",
        translation=(crank, 0, 0),
        rotation=_rz(th_rod - crank_angle),
        name="rod",
        joint_name="rod",
        **_rod(rod_mass, rod_length),
    )
    sl = b.add_body(
        0,
        "P",
        axis=(1, 0, 0),
        translation=(B[0], B[1], 0.0),
        name="slider",
        joint_name="slider",
        mass=float(slider_mass),
        inertia=np.eye(3) * slider_mass * side**2 / 6.0,
    )
    b.add_frame("rod_end", c2, translation=(rod_length, 0, 0))
    b.add_frame("wrist_pin", sl)
    b.add_constraint(LoopClosure("pin", "wrist_pin", "rod_end", "planar_pin"))
    return b.build(
        gravity=GRAVITY,
        name="slider_crank",
        source="slider-crank (Uicker, Pennock & Shigley 2011, ch. 2; Haug 1989)",
    )


def five_bar(
    base: float = 0.6,
    proximal: float = 1.0,
    distal: float = 1.2,
    proximal_mass: float = 1.0,
    distal_mass: float = 1.2,
    home_x: float = 0.0,
    home_y: float = 1.5,
):
    """Planar five-bar parallel robot: two actuated revolutes on the base, a proximal and
    a distal link on each side, the distal links meeting at a pin (the end effector);
    mobility 2.

    The "RR-RR-R" planar parallel manipulator (with the fixed base the fifth bar) of
    J.-P. Merlet, *Parallel Robots* (Springer, 2nd ed. 2006); the kinds of singularity of
    such closed chains are those of C. Gosselin and J. Angeles, "Singularity analysis of
    closed-loop kinematic chains", IEEE Trans. Robotics and Automation 6(3):281–290
    (1990). The dimensions and masses are ours.

    Geometry: the base joints at (∓``base``/2, 0, 0) (bodies ``left_proximal``,
    ``right_proximal``, rates 0 and 1, the actuated joints), each carrying its distal
    link (``left_distal``, ``right_distal``, rates 2 and 3). The distal links' ends
    (frames ``ee`` on the left, ``right_tip`` on the right) are held together by the
    loop closure ``pin`` (rows ``pin.x``, ``pin.y``).

    Home (q = 0): the pin at (``home_x``, ``home_y``), the elbows outward (the left one
    on the left of the line from its base joint to the pin, the right one on the right),
    the working mode whose home is far from both kinds of singularity. Angles are from
    home. Gravity (0, −9.81, 0).

    Parameters
    ----------
    base : float
        Distance between the two base joints [m].
    proximal, distal : float
        Link lengths [m], the same on both sides.
    proximal_mass, distal_mass : float
        Masses of each proximal and each distal link [kg] (uniform rods).
    home_x, home_y : float
        The pin's position at home [m].

    Returns
    -------
    Model
        nq = nv = 4, one LoopClosure of two rows.

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon import constraints as ec
    >>> robot = es.zoo.load("five_bar")
    >>> s = ec.close_state(robot, es.neutral(robot), [0, 1], [0.1, -0.05])
    >>> ec.constraint_rank(robot, s.q).mobility
    2
    """
    _positive("five_bar", base=base, proximal=proximal, distal=distal)
    P = np.array([home_x, home_y], dtype=float)
    b = ModelBuilder()
    sides = (("left", -0.5 * base, True), ("right", 0.5 * base, False))
    proximal_bodies, abs_angles = [], []
    for side, x, left in sides:
        A = np.array([x, 0.0])
        E = _circles(A, proximal, P, distal, left=left, what=f"five_bar home ({side})")
        th_p, th_d = _angle(E - A), _angle(P - E)
        abs_angles.append((th_p, th_d))
        proximal_bodies.append(
            b.add_body(
                0,
                "R",
                translation=(x, 0, 0),
                rotation=_rz(th_p),
                name=f"{side}_proximal",
                joint_name=f"{side}_proximal",
                **_rod(proximal_mass, proximal),
            )
        )
    for (side, _, _), body, (th_p, th_d) in zip(sides, proximal_bodies, abs_angles, strict=True):
        d = b.add_body(
            body,
            "R",
            translation=(proximal, 0, 0),
            rotation=_rz(th_d - th_p),
            name=f"{side}_distal",
            joint_name=f"{side}_distal",
            **_rod(distal_mass, distal),
        )
        b.add_frame("ee" if side == "left" else "right_tip", d, translation=(distal, 0, 0))
    b.add_constraint(LoopClosure("pin", "ee", "right_tip", "planar_pin"))
    return b.build(
        gravity=GRAVITY,
        name="five_bar",
        source="planar five-bar parallel robot (Merlet 2006; Gosselin & Angeles 1990)",
    )
