"""Legged robots standing on the ground: a quadruped on four point feet and a humanoid on
two flat feet, each a free-flyer tree whose feet are held by
:class:`~eslabon.constraints.Contact` rows (:mod:`eslabon.constraints`).

As in :mod:`eslabon.zoo.linkages`, **q = 0 is the standing pose**: the free flyer's joint
frame is placed at the base's standing height above the ground (the world's z = 0 plane),
so ``es.neutral(model)`` has the base there (its position and quaternion are measured
from that placement), and the joint frames are turned so that every joint's zero is the
crouched stance. The contacts hold the feet where they are at q = 0, so the residual of
``ec.constraint_residual(model, es.neutral(model))`` is round-off. ``contacts=False``
builds the bare tree. Units m, kg, rad; x forward, y left, z up, gravity (0, 0, −9.81).
"""

from __future__ import annotations

import numpy as np

from ..model import ModelBuilder
from ..model.constraint_types import Contact

GRAVITY = (0.0, 0.0, -9.81)


def _ry(angle: float) -> np.ndarray:
    """The rotation by ``angle`` [rad] about y."""
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def _home_pose(model, frame: str) -> tuple:
    """The world pose (rotation, position) of ``frame`` at q = 0, the product of the
    joint frames' placements from the world to its body (every joint is at its zero)."""
    fr = model.frame(frame)
    R, p = fr.rotation, fr.translation
    i = fr.body
    while i > 0:
        R, p = model.tree_rotation[i] @ R, model.tree_rotation[i] @ p + model.tree_translation[i]
        i = int(model.parent[i])
    return R, p


def _standing(b: ModelBuilder, feet: dict, contacts: bool, build: dict):
    """Build the tree; with ``contacts``, again with a Contact of ``axes`` at each foot's
    home pose (``feet``: contact name -> (frame, axes)). The contact's rotation is left
    out (its rows in the world's axes) for a point foot, and for a flat one whose axes
    are the world's to round-off."""
    model = b.build(**build)
    if not contacts:
        return model
    for name, (frame, axes) in feet.items():
        R, p = _home_pose(model, frame)
        flat = axes == "point" or np.allclose(R, np.eye(3), rtol=0.0, atol=1e-12)
        b.add_constraint(Contact(name, frame, axes, tuple(p.tolist()), None if flat else R))
    return b.build(**build)


# Solo 12 (solo12.urdf of example-robot-data): the base, then per leg the bodies moved by
# HAA, HFE, KFE and the foot on a fixed joint. Each link: (mass [kg], COM [m],
# (ixx, iyy, izz, ixy, ixz, iyz) about the COM [kg m²]) as the file gives them for the
# left legs (FL, HL); the right legs mirror them (y -> −y: ixy and iyz change sign; the
# file also turns the sign of the upper legs' COM x, 1.377e-5 m, on the right), and the
# hind shoulders' COM mirrors the front ones' along x.
SOLO_BASE = (1.16115091, (0.0, 0.0, 0.0), (0.00578574, 0.01938108, 0.02476124, 0.0, 0.0, 0.0))
SOLO_SHOULDER = (
    0.14853845,
    (-0.078707, 0.01, 0.0),
    (0.00003024, 0.00041193, 0.00041107, 0.00004671, 0.0, 0.0),
)
SOLO_UPPER_LEG = (
    0.14853845,
    (0.00001377, 0.01935853, -0.078707),
    (0.00041107, 0.00041193, 0.00003024, 0.0, 0.0, 0.00004671),
)
SOLO_LOWER_LEG = (
    0.03070001,
    (0.0, 0.00787644, -0.08928215),
    (0.00012024, 0.00012029, 0.00000216, 0.0, 0.0, 0.00000305),
)
SOLO_FOOT = (0.00693606, (0.0, 0.0, 0.00035767), (0.00000057, 0.00000084, 0.00000053, 0, 0, 0))
SOLO_HIP = (0.1946, 0.0875)  # the HAA joints at (±x, ±y, 0) in the base [m]
SOLO_HFE_Y = 0.014  # HFE from HAA, along y [m]
SOLO_KNEE = (0.03745, 0.16)  # KFE from HFE: y, and the upper leg's length down z [m]
SOLO_ANKLE = (0.008, 0.16)  # the foot from KFE: y, and the lower leg's length [m]
SOLO_STANCE = (0.8, -1.6)  # HFE, KFE of the front legs [rad]; the hind legs' are opposite
LEGS = ("FL", "FR", "HL", "HR")


def _link(data: tuple, side: float, flip_x: bool = False) -> dict:
    """A Solo link's mass, COM and inertia, mirrored to the right (``side`` −1), its
    COM's x negated with ``flip_x``."""
    mass, com, (ixx, iyy, izz, ixy, ixz, iyz) = data
    cx, cy, cz = com
    if flip_x:
        cx = -cx
    ixy, iyz = side * ixy, side * iyz
    inertia = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
    return dict(mass=mass, com=(cx, side * cy, cz), inertia=inertia)


def quadruped(contacts: bool = True):
    """Solo 12, a torque-controlled quadruped of 2.5 kg: a free-flying base, four legs of
    three joints (HAA about the base's x axis, HFE and KFE about y), standing on four
    point feet; 12 contact rows, mobility 6.

    Source: F. Grimminger, A. Meduri, M. Khadiv et al., "An Open Torque-Controlled
    Modular Robot Architecture for Legged Locomotion Research", IEEE Robotics and
    Automation Letters 5(2), 2020, pp. 3650–3657 (the robot); its kinematic and inertial
    description is the file ``solo_description/robots/solo12.urdf`` of the
    example-robot-data package, whose figures are taken here as printed (8 decimals, no
    rounding): the base 1.16115091 kg, each shoulder and upper leg 0.14853845 kg, each
    lower leg 0.03070001 kg and foot 0.00693606 kg, 2.50000279 kg in all; the HAA joints
    at (±0.1946, ±0.0875, 0) m in the base, HFE 0.014 m out along y, the knee (KFE)
    0.16 m below HFE and 0.03745 m out, the foot 0.16 m below the knee and 0.008 m out.
    Bodies, joints and frames carry the file's names (``base_link``, ``FL_HAA``,
    ``FL_FOOT``, …; legs FL, FR, HL, HR) and come in its order, so the rates are the
    file's loaded with a free flyer.

    The stance: the ``straight_standing`` state of the package's ``solo.srdf``, HAA 0,
    the front legs' HFE 0.8 and KFE −1.6 rad, the hind legs' −0.8 and 1.6 rad (knees
    pointing inwards), which puts each foot under its HAA joint, 0.32 cos 0.8 ≈ 0.2229 m
    below it. Here that stance is q = 0: the HFE and KFE joint frames are turned by it
    (a joint angle here is the file's minus the stance's), and the free flyer's frame
    is placed at that height, so the base's position in q is measured from (0, 0,
    0.2229) m in the world. The feet frames (``FL_FOOT``, …, origins at the feet's
    centres) are held by the ``point`` contacts ``FL_foot``, …, at their home positions
    on the ground plane z = 0.

    Configuration (nq = 19, nv = 18): the base's position and unit quaternion (x, y, z,
    w), then HAA, HFE, KFE of FL, FR, HL, HR; rates (v, ω) of the base in its own axes,
    then the joints'. The base is not actuated (:attr:`eslabon.Model.floating_base_rates`).

    Parameters
    ----------
    contacts : bool
        Add the four point contacts (default); False builds the bare tree.

    Returns
    -------
    Model
        nq = 19, nv = 18; with contacts, 12 rows.

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon import constraints as ec
    >>> solo = es.zoo.load("quadruped")
    >>> q = es.neutral(solo)
    >>> rank = ec.constraint_rank(solo, q)
    >>> rank.rank, rank.mobility
    (12, 6)
    >>> round(float(solo.mass.sum()), 8)
    2.50000279
    """
    (hip_x, hip_y), (knee_y, upper), (ankle_y, lower) = SOLO_HIP, SOLO_KNEE, SOLO_ANKLE
    hfe, kfe = SOLO_STANCE
    height = upper * np.cos(hfe) + lower * np.cos(hfe + kfe)
    b = ModelBuilder()
    base = b.add_body(
        0,
        "free_flyer",
        translation=(0.0, 0.0, height),
        name="base_link",
        joint_name="root_joint",
        **_link(SOLO_BASE, 1.0),
    )
    b.add_frame("base_link", base)
    feet = {}
    for leg in LEGS:
        side = 1.0 if leg[1] == "L" else -1.0
        hind = leg[0] == "H"
        sign = -1.0 if hind else 1.0
        shoulder = b.add_body(
            base,
            "R",
            axis=(1.0, 0.0, 0.0),
            translation=(sign * hip_x, side * hip_y, 0.0),
            name=f"{leg}_SHOULDER",
            joint_name=f"{leg}_HAA",
            **_link(SOLO_SHOULDER, side, hind),
        )
        thigh = b.add_body(
            shoulder,
            "R",
            axis=(0.0, 1.0, 0.0),
            translation=(0.0, side * SOLO_HFE_Y, 0.0),
            rotation=_ry(sign * hfe),
            name=f"{leg}_UPPER_LEG",
            joint_name=f"{leg}_HFE",
            **_link(SOLO_UPPER_LEG, side, side < 0),
        )
        shank = b.add_body(
            thigh,
            "R",
            axis=(0.0, 1.0, 0.0),
            translation=(0.0, side * knee_y, -upper),
            rotation=_ry(sign * kfe),
            name=f"{leg}_LOWER_LEG",
            joint_name=f"{leg}_KFE",
            **_link(SOLO_LOWER_LEG, side),
        )
        foot = b.add_body(
            shank,
            "fixed",
            translation=(0.0, side * ankle_y, -lower),
            name=f"{leg}_FOOT",
            joint_name=f"{leg}_ANKLE",
            **_link(SOLO_FOOT, side),
        )
        b.add_frame(f"{leg}_FOOT", foot)
        feet[f"{leg}_foot"] = (f"{leg}_FOOT", "point")
    build = dict(
        gravity=GRAVITY,
        name="quadruped",
        source="Solo 12 (Grimminger et al., IEEE RA-L 5(2), 2020); figures of solo12.urdf, "
        "example-robot-data",
    )
    return _standing(b, feet, contacts, build)


# Winter, Biomechanics and Motor Control of Human Movement (4th ed. 2009): Table 4.1, per
# segment the mass as a fraction of the body's, the COM's distance from the proximal end
# and the radius of gyration about the COM as fractions of the segment's length; Fig.
# 4.1, lengths as fractions of the height H.
WINTER_SEGMENTS = {  # segment: (mass fraction, COM from proximal, radius of gyration)
    "trunk_head_neck": (0.578, 0.66, 0.503),  # greater trochanter / glenohumeral joint
    "thigh": (0.100, 0.433, 0.323),  # greater trochanter / femoral condyles
    "leg": (0.0465, 0.433, 0.302),  # femoral condyles / medial malleolus
    "foot": (0.0145, 0.50, 0.475),  # lateral malleolus / head of metatarsal II
    "upper_arm": (0.028, 0.436, 0.322),  # glenohumeral axis / elbow axis
    "forearm_hand": (0.022, 0.682, 0.468),  # elbow axis / ulnar styloid
}
WINTER_HEIGHTS = {"ankle": 0.039, "knee": 0.285, "hip": 0.530, "shoulder": 0.818}  # × H
WINTER_LENGTHS = {  # × H
    "hip_width": 0.191,
    "shoulder_width": 0.259,
    "upper_arm": 0.186,
    "forearm": 0.146,
    "foot": 0.152,
}
HUMANOID_CROUCH = 0.3  # the stance: hip pitch −α, knee 2α, ankle pitch −α [rad] (ours)
LONG_AXIS = 0.1  # the moment about a segment's long axis, × the transverse one (ours)
ARMATURE = 0.01  # each joint's rotor inertia [kg m²] (ours)


def _segment(total: float, name: str, length: float, along: np.ndarray) -> dict:
    """Winter's segment ``name`` of a body of mass ``total``: its mass, its COM at its
    fraction of ``length`` along the unit vector ``along`` from the proximal joint, its
    inertia about the COM (the radius of gyration's about the transverse axes,
    :data:`LONG_AXIS` of that about ``along``)."""
    fraction, com, gyration = WINTER_SEGMENTS[name]
    mass = fraction * total
    transverse = mass * (gyration * length) ** 2
    inertia = transverse * (np.eye(3) - (1.0 - LONG_AXIS) * np.outer(along, along))
    return dict(mass=mass, com=tuple(com * length * along), inertia=inertia)


def humanoid(height: float = 1.2, mass: float = 30.0, contacts: bool = True):
    """A small humanoid standing on two flat feet: a free-flying pelvis that carries the
    torso, two legs of six joints (hip yaw, roll, pitch, knee, ankle pitch, roll) and two
    arms of two (shoulder and elbow pitch); two ``weld`` contacts at the soles, 12 rows,
    mobility nv − 12 = 10.

    Source of the proportions and masses: D. A. Winter, *Biomechanics and Motor Control
    of Human Movement*, 4th ed. (Wiley, 2009), ch. 4: Table 4.1 (Dempster's segment
    data) and Fig. 4.1 (segment lengths as fractions of the height H, after Drillis and
    Contini), scaled to ``height`` (default 1.2 m) and ``mass`` M (default 30 kg, a
    child-sized robot). Taken from them:

    - masses, as fractions of M: trunk, head and neck 0.578 (one rigid body, the
      pelvis), thigh 0.100, leg (shank) 0.0465, foot 0.0145, upper arm 0.028, forearm
      and hand 0.022 — 1.000 in all;
    - the joints' heights above the ground when standing straight: ankle 0.039 H, knee
      0.285 H, hip (greater trochanter) 0.530 H, shoulder (glenohumeral) 0.818 H; the
      hip width 0.191 H and the shoulder width 0.259 H (between the joints here); the
      upper arm 0.186 H, the forearm 0.146 H, the foot's length 0.152 H;
    - each segment's COM at Table 4.1's fraction of its length from the proximal joint
      (trunk–head–neck 0.66 from the hips to the shoulders, thigh and leg 0.433,
      upper arm 0.436, forearm and hand 0.682 of the forearm's length) and its moment
      m (ρ L)² about the axes across it, ρ the radius of gyration (0.503, 0.323, 0.302,
      0.322, 0.468; the foot's 0.475 of the foot's length).

    Ours: the moment about a segment's long axis (Table 4.1 has none), a tenth of the
    transverse one; the foot's COM, a quarter of its length ahead of the ankle and half
    the ankle's height below it; the joints' layout (the hip's three axes and the
    ankle's two meet at a point, on massless links between them); a rotor inertia
    (armature) of 0.01 kg m² on each joint, as a geared motor has, which also keeps the
    mass matrix well conditioned where the hip's yaw and pitch axes line up (hip roll
    ±π/2: the massless links between them would leave a motion without inertia); and
    the stance, a slight crouch with the feet flat: hip pitch −0.3, knee 0.6, ankle
    pitch −0.3 rad.
    That stance is q = 0 (the joint frames are turned by it; a joint angle here is
    measured from it), and the free flyer's frame is placed at the hips' standing
    height, 0.039 H + 0.491 H cos 0.3 above the ground, so the pelvis's position in q
    is measured from there.

    Frames: x forward, y left, z up. The pelvis's origin is midway between the hips;
    the sole frames ``left_sole`` and ``right_sole`` lie 0.039 H under the ankles with
    the feet's axes, held by the ``weld`` contacts ``left_foot`` and ``right_foot`` at
    their home poses on the ground z = 0. Configuration (nq = 23, nv = 22): the pelvis's
    position and unit quaternion (x, y, z, w), then the left leg's six angles, the
    right's, the left arm's two and the right's; rates (v, ω) of the pelvis in its own
    axes, then the joints'. The pelvis is not actuated
    (:attr:`eslabon.Model.floating_base_rates`).

    Parameters
    ----------
    height : float
        The standing height H [m] the figures scale with.
    mass : float
        The total mass M [kg].
    contacts : bool
        Add the two foot contacts (default); False builds the bare tree.

    Returns
    -------
    Model
        nq = 23, nv = 22; with contacts, 12 rows.

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon import constraints as ec
    >>> robot = es.zoo.load("humanoid")
    >>> rank = ec.constraint_rank(robot, es.neutral(robot))
    >>> rank.rank, rank.mobility
    (12, 10)
    >>> round(float(robot.mass.sum()), 9)
    30.0
    """
    H, M = float(height), float(mass)
    for key, value in (("height", H), ("mass", M)):
        if not (np.isfinite(value) and value > 0.0):
            raise ValueError(f"humanoid {key}: expected a positive number, got {value!r}")
    h, w = WINTER_HEIGHTS, WINTER_LENGTHS
    thigh, shank = (h["hip"] - h["knee"]) * H, (h["knee"] - h["ankle"]) * H
    ankle, trunk = h["ankle"] * H, (h["shoulder"] - h["hip"]) * H
    foot_length = w["foot"] * H
    a = HUMANOID_CROUCH
    up, down, forward = np.array([0.0, 0.0, 1.0]), np.array([0.0, 0.0, -1.0]), np.eye(3)[0]
    x_axis, y_axis, z_axis = (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)
    b = ModelBuilder()
    pelvis = b.add_body(
        0,
        "free_flyer",
        translation=(0.0, 0.0, ankle + (thigh + shank) * np.cos(a)),
        name="pelvis",
        joint_name="root_joint",
        **_segment(M, "trunk_head_neck", trunk, up),
    )
    feet = {}
    for side, s in (("left", 1.0), ("right", -1.0)):
        yaw = b.add_body(
            pelvis,
            "R",
            armature=ARMATURE,
            axis=z_axis,
            translation=(0.0, s * w["hip_width"] * H / 2, 0.0),
            name=f"{side}_hip_yaw_link",
            joint_name=f"{side}_hip_yaw",
        )
        roll = b.add_body(
            yaw,
            "R",
            armature=ARMATURE,
            axis=x_axis,
            name=f"{side}_hip_roll_link",
            joint_name=f"{side}_hip_roll",
        )
        femur = b.add_body(
            roll,
            "R",
            armature=ARMATURE,
            axis=y_axis,
            rotation=_ry(-a),
            name=f"{side}_thigh",
            joint_name=f"{side}_hip_pitch",
            **_segment(M, "thigh", thigh, down),
        )
        tibia = b.add_body(
            femur,
            "R",
            armature=ARMATURE,
            axis=y_axis,
            translation=(0.0, 0.0, -thigh),
            rotation=_ry(2 * a),
            name=f"{side}_shank",
            joint_name=f"{side}_knee",
            **_segment(M, "leg", shank, down),
        )
        pitch = b.add_body(
            tibia,
            "R",
            armature=ARMATURE,
            axis=y_axis,
            translation=(0.0, 0.0, -shank),
            rotation=_ry(-a),
            name=f"{side}_ankle_link",
            joint_name=f"{side}_ankle_pitch",
        )
        foot = _segment(M, "foot", foot_length, forward)
        foot["com"] = (foot_length / 4, 0.0, -ankle / 2)
        sole = b.add_body(
            pitch,
            "R",
            armature=ARMATURE,
            axis=x_axis,
            name=f"{side}_foot",
            joint_name=f"{side}_ankle_roll",
            **foot,
        )
        b.add_frame(f"{side}_sole", sole, translation=(0.0, 0.0, -ankle))
        feet[f"{side}_foot"] = (f"{side}_sole", "weld")
    for side, s in (("left", 1.0), ("right", -1.0)):
        upper = w["upper_arm"] * H
        arm = b.add_body(
            pelvis,
            "R",
            armature=ARMATURE,
            axis=y_axis,
            translation=(0.0, s * w["shoulder_width"] * H / 2, trunk),
            name=f"{side}_upper_arm",
            joint_name=f"{side}_shoulder",
            **_segment(M, "upper_arm", upper, down),
        )
        b.add_body(
            arm,
            "R",
            armature=ARMATURE,
            axis=y_axis,
            translation=(0.0, 0.0, -upper),
            name=f"{side}_forearm",
            joint_name=f"{side}_elbow",
            **_segment(M, "forearm_hand", w["forearm"] * H, down),
        )
    build = dict(
        gravity=GRAVITY,
        name="humanoid",
        source="segment data of Winter, Biomechanics and Motor Control of Human Movement "
        "(4th ed. 2009), Table 4.1 and Fig. 4.1",
    )
    return _standing(b, feet, contacts, build)
