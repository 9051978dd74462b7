"""The robots :func:`eslabon.robots.load` knows by name: which package ships each, its file,
its base, its end effector and its size.

Names are example-robot-data's own where it has one (``solo12``, ``talos``, ``ur5``, …),
so a Pinocchio user's ``example_robot_data.load("solo12")`` is ``robots.load("solo12")``
here; files example-robot-data ships under no name got one (``g1_with_hands``,
``so100``, ``so101``, ``xarm7``, ``centauro``, ``alexander``). A robot is floating when
example-robot-data's own loader gives it a free-flyer root joint (Pinocchio's
``JointModelFreeFlyer``), and fixed otherwise: TIAGo's wheels and Baxter's pedestal
stand on the ground, as there.

``nq`` and ``nv`` are eslabon's: a continuous joint is one angle (Pinocchio writes it as
(cos, sin), one more coordinate), a ``<mimic>`` joint has no coordinate of its own (it
copies another), and a free flyer is 7 coordinates and 6 rates.
"""

from __future__ import annotations

from dataclasses import dataclass

from .sources import EXAMPLE_ROBOT_DATA

#: what the categories mean, in the order listings use
CATEGORIES = (
    "arm",
    "dual arm",
    "hand",
    "mobile manipulator",
    "quadruped",
    "biped",
    "humanoid",
    "aerial",
    "pendulum",
)


@dataclass(frozen=True)
class Robot:
    """One robot known by name.

    Parameters
    ----------
    name : str
        The name :func:`eslabon.robots.load` takes.
    package : str
        The pip package that ships it (:data:`eslabon.robots.sources.SOURCES`).
    path : str
        Its file, relative to the package's robots folder.
    floating : bool
        True: read with a free-flyer root joint (``root_joint="free_flyer"``).
    ee : str
        The link that is the model's end effector ``"ee"``: an arm's tool or flange, a
        legged robot's front-left (quadruped) or left (biped, humanoid) foot, an arm's
        end on a legged robot or a drone.
    category : str
        One of :data:`CATEGORIES`.
    maker : str
        Who designed the robot (or the model, for the generic ones), as the package's
        README says.
    nq, nv : int
        Its number of coordinates and of rates in eslabon.
    note : str
        What differs from what the name might suggest, or "".
    """

    name: str
    package: str
    path: str
    floating: bool
    ee: str
    category: str
    maker: str
    nq: int
    nv: int
    note: str = ""

    @property
    def root_joint(self) -> str | None:
        """``"free_flyer"`` for a floating robot, else None (:func:`eslabon.load_model`)."""
        return "free_flyer" if self.floating else None


def _erd(name, path, floating, ee, category, maker, nq, nv, note=""):
    return Robot(name, EXAMPLE_ROBOT_DATA, path, floating, ee, category, maker, nq, nv, note)


_UNITREE, _ODRI, _PAL, _UR = (
    "Unitree Robotics",
    "Open Dynamic Robot Initiative",
    "PAL Robotics",
    "Universal Robots",
)
_ALLEGRO, _ANYBOTICS, _IIT, _LAAS = "Wonik Robotics", "ANYbotics", "IIT", "LAAS-CNRS"
_UR_URDF = "ur_description/urdf/"
_TALOS_FULL = "the grippers' finger joints move, each a mimic of its motor"

_ENTRIES = (
    # arms
    _erd("panda", "panda_description/urdf/panda.urdf", False, "panda_hand_tcp", "arm",
         "Franka Emika", 8, 8, "the second finger mimics the first"),
    _erd("panda_collision", "panda_description/urdf/panda_collision.urdf", False,
         "panda_hand_tcp", "arm", "Franka Emika", 8, 8,
         "spheres and cylinders as collision shapes"),
    _erd("ur3", _UR_URDF + "ur3_robot.urdf", False, "tool0", "arm", _UR, 6, 6,
         "the UR3's file (example-robot-data's own loader gives 'ur3' the UR5's)"),
    _erd("ur3_gripper", _UR_URDF + "ur3_gripper.urdf", False, "tool0", "arm", _UR, 6, 6),
    _erd("ur3_limited", _UR_URDF + "ur3_joint_limited_robot.urdf", False, "tool0", "arm", _UR,
         6, 6),
    _erd("ur5", _UR_URDF + "ur5_robot.urdf", False, "tool0", "arm", _UR, 6, 6),
    _erd("ur5_gripper", _UR_URDF + "ur5_gripper.urdf", False, "tool0", "arm", _UR, 6, 6),
    _erd("ur5_limited", _UR_URDF + "ur5_joint_limited_robot.urdf", False, "tool0", "arm", _UR,
         6, 6),
    _erd("ur10", _UR_URDF + "ur10_robot.urdf", False, "tool0", "arm", _UR, 6, 6),
    _erd("ur10_limited", _UR_URDF + "ur10_joint_limited_robot.urdf", False, "tool0", "arm",
         _UR, 6, 6),
    _erd("kinova", "kinova_description/robots/kinova.urdf", False, "j2s6s200_end_effector",
         "arm", "Kinova", 6, 6),
    _erd("z1", "z1_description/urdf/z1.urdf", False, "gripperStator", "arm", _UNITREE, 7, 7),
    _erd("xarm7", "xarm_description/urdf/xarm7.urdf", False, "link_eef", "arm", "UFACTORY",
         7, 7),
    _erd("so100", "so_arm_description/urdf/so100.urdf", False, "gripper", "arm",
         "TheRobotStudio", 6, 6),
    _erd("so101", "so_arm_description/urdf/so101.urdf", False, "gripper_frame_link", "arm",
         "TheRobotStudio", 6, 6),
    _erd("talos_arm", "talos_data/robots/talos_left_arm.urdf", False, "gripper_left_base_link",
         "arm", _PAL, 7, 7, "Talos' left arm alone, on a fixed shoulder"),
    _erd("finger_edu", "finger_edu_description/robots/finger_edu.urdf", False,
         "finger_tip_link", "arm", _ODRI, 3, 3),
    _erd("asr_twodof", "asr_twodof_description/urdf/TwoDofs.urdf", False, "Tip", "arm",
         "qbrobotics (qbmove actuators)", 2, 2),
    _erd("baxter", "baxter_description/urdf/baxter.urdf", False, "left_gripper", "dual arm",
         "Rethink Robotics", 17, 17),
    _erd("alex_nub_hands", "alex_description/urdf/alex_nub_hands.urdf", False,
         "LeftGripperYawLink", "dual arm", "Boardwalk Robotics", 19, 19,
         "the Alex upper body on a fixed pelvis"),
    _erd("alex_sake_hands", "alex_description/urdf/alex_sake_hands.urdf", False,
         "LeftGripperYawLink", "dual arm", "Boardwalk Robotics", 23, 23,
         "the Alex upper body on a fixed pelvis"),
    # hands
    _erd("allegro_right_hand", "allegro_hand_description/urdf/allegro_right_hand.urdf", False,
         "link_15.0_tip", "hand", _ALLEGRO, 16, 16),
    _erd("allegro_left_hand", "allegro_hand_description/urdf/allegro_left_hand.urdf", False,
         "link_15.0_tip", "hand", _ALLEGRO, 16, 16),
    # mobile manipulators
    _erd("tiago", "tiago_description/robots/tiago.urdf", False, "arm_tool_link",
         "mobile manipulator", _PAL, 48, 48),
    _erd("tiago_dual", "tiago_description/robots/tiago_dual.urdf", False,
         "arm_left_tool_link", "mobile manipulator", _PAL, 101, 101),
    _erd("tiago_no_hand", "tiago_description/robots/tiago_no_hand.urdf", False,
         "arm_tool_link", "mobile manipulator", _PAL, 12, 12),
    _erd("tiago_pro", "tiago_pro_description/robots/tiago_pro.urdf", False,
         "arm_left_tool_link", "mobile manipulator", _PAL, 23, 23),
    _erd("pr2", "pr2_description/urdf/pr2.urdf", True, "l_gripper_tool_frame",
         "mobile manipulator", "Willow Garage", 27, 26),
    # quadrupeds
    _erd("solo8", "solo_description/robots/solo.urdf", True, "FL_FOOT", "quadruped", _ODRI,
         15, 14),
    _erd("solo12", "solo_description/robots/solo12.urdf", True, "FL_FOOT", "quadruped", _ODRI,
         19, 18),
    _erd("go1", "go1_description/urdf/go1.urdf", True, "FL_foot", "quadruped", _UNITREE, 19, 18),
    _erd("go2", "go2_description/urdf/go2.urdf", True, "FL_foot", "quadruped", _UNITREE, 19, 18),
    _erd("a1", "a1_description/urdf/a1.urdf", True, "FL_foot", "quadruped", _UNITREE, 19, 18),
    _erd("b1", "b1_description/urdf/b1.urdf", True, "FL_foot", "quadruped", _UNITREE, 19, 18),
    _erd("b1_z1", "b1_description/urdf/b1-z1.urdf", True, "gripperStator", "quadruped",
         _UNITREE, 26, 25, "the B1 carrying a Z1 arm"),
    _erd("laikago", "laikago_description/urdf/laikago.urdf", True, "FL_foot", "quadruped",
         _UNITREE, 19, 18),
    _erd("anymal", "anymal_b_simple_description/robots/anymal.urdf", True, "LF_FOOT",
         "quadruped", _ANYBOTICS, 19, 18, "ANYmal B"),
    _erd("anymal_c", "anymal_c_simple_description/urdf/anymal.urdf", True, "LF_FOOT",
         "quadruped", _ANYBOTICS, 19, 18),
    _erd("anymal_kinova", "anymal_b_simple_description/robots/anymal-kinova.urdf", True,
         "j2s6s200_end_effector", "quadruped", _ANYBOTICS, 25, 24,
         "ANYmal B carrying a Kinova arm"),
    _erd("hyq", "hyq_description/robots/hyq_no_sensors.urdf", True, "lf_foot", "quadruped",
         _IIT, 19, 18),
    _erd("quadruped", "quadruped_description/urdf/quadruped.urdf", True, "FL_contact",
         "quadruped", _LAAS, 15, 14, "a simple 8-joint model from TSID's examples"),
    _erd("centauro", "centauro_description/urdf/centauro.urdf", True, "arm1_8", "quadruped",
         _IIT, 46, 45, "four wheeled legs and two arms"),
    # bipeds and humanoids
    _erd("bolt", "bolt_description/robots/bolt.urdf", True, "FL_FOOT", "biped", _ODRI, 13, 12),
    _erd("alexander", "alexander_description/urdf/alexander_v1.lowerBodyOnly.urdf", True,
         "LEFT_FOOT", "biped", "IHMC", 20, 19, "the Alexander's lower body"),
    _erd("talos", "talos_data/robots/talos_reduced.urdf", True, "left_sole_link", "humanoid",
         _PAL, 39, 38),
    _erd("talos_box", "talos_data/robots/talos_reduced_box.urdf", True, "left_sole_link",
         "humanoid", _PAL, 39, 38, "example-robot-data's box variant of the file"),
    _erd("talos_full", "talos_data/robots/talos_full_v2.urdf", True, "left_sole_link",
         "humanoid", _PAL, 39, 38, _TALOS_FULL),
    _erd("talos_full_box", "talos_data/robots/talos_full_v2_box.urdf", True, "left_sole_link",
         "humanoid", _PAL, 39, 38, "the box variant of talos_full; " + _TALOS_FULL),
    _erd("icub", "icub_description/robots/icub.urdf", True, "l_sole", "humanoid", _IIT, 39, 38),
    _erd("icub_reduced", "icub_description/robots/icub_reduced.urdf", True, "l_sole",
         "humanoid", _IIT, 36, 35),
    _erd("romeo", "romeo_description/urdf/romeo.urdf", True, "l_sole", "humanoid",
         "Aldebaran Robotics", 40, 39),
    _erd("g1", "g1_description/urdf/g1_29dof_rev_1_0.urdf", True, "left_ankle_roll_link",
         "humanoid", _UNITREE, 36, 35),
    _erd("g1_with_hands", "g1_description/urdf/g1_29dof_with_hand_rev_1_0.urdf", True,
         "left_ankle_roll_link", "humanoid", _UNITREE, 50, 49),
    _erd("simple_humanoid", "simple_humanoid_description/urdf/simple_humanoid.urdf", True,
         "l_ankle", "humanoid", _LAAS, 36, 35),
    _erd("simple_humanoid_classical",
         "simple_humanoid_description/urdf/simple_humanoid_classical.urdf", True, "l_ankle",
         "humanoid", _LAAS, 36, 35),
    _erd("human", "human_description/robots/human.urdf", True, "left_foot", "humanoid",
         "Gepetto team, LAAS-CNRS", 43, 42, "a human body model"),
    # aerial
    _erd("hector", "hector_description/robots/quadrotor_base.urdf", True, "base_link",
         "aerial", "TU Darmstadt (hector_models)", 7, 6, "a quadrotor: one rigid body"),
    _erd("iris", "iris_description/robots/iris_simple.urdf", True, "iris__base_link", "aerial",
         "ETH Zurich ASL (rotors_simulator)", 7, 6, "a quadrotor, rotors fixed"),
    _erd("borinot", "borinot_description/urdf/borinot_flying_arm_2.urdf", True,
         "flying_arm_2__ee", "aerial", "hidro_robots", 9, 8, "a drone carrying a 2-joint arm"),
    _erd("hextilt", "hextilt_description/urdf/hextilt_flying_arm_5.urdf", True,
         "flying_arm_5__gripper", "aerial", "hidro_robots", 12, 11,
         "a hexarotor carrying a 5-joint arm"),
    # pendulums
    _erd("double_pendulum", "double_pendulum_description/urdf/double_pendulum.urdf", False,
         "link2", "pendulum", "example-robot-data", 2, 2),
    _erd("double_pendulum_continuous",
         "double_pendulum_description/urdf/double_pendulum_continuous.urdf", False, "link2",
         "pendulum", "example-robot-data", 2, 2, "continuous joints"),
    _erd("double_pendulum_simple",
         "double_pendulum_description/urdf/double_pendulum_simple.urdf", False, "link3",
         "pendulum", "example-robot-data", 2, 2, "no meshes"),
)  # fmt: skip

#: every robot known by name, in listing order (by category, then as above)
ROBOTS: dict[str, Robot] = {r.name: r for c in CATEGORIES for r in _ENTRIES if r.category == c}

#: names of example-robot-data's that are not offered, and why
NOT_OFFERED: dict[str, str] = {
    "cassie": (
        "example-robot-data ships Cassie as SDF only, a format eslabon does not read (the "
        "MuJoCo Menagerie has it in MJCF, as 'agility_cassie')"
    ),
    "talos_legs": (
        "it is Talos with the arms, torso and head removed from the model in code, and "
        "eslabon has no function that locks joints yet; 'talos' is the whole robot"
    ),
    "alex_psyonic_hands": (
        "its URDF's <mimic> joints name joints the file does not have ('index_q1' for "
        "'Left_index_q2'), which eslabon's URDF reader refuses; 'alex_nub_hands' and "
        "'alex_sake_hands' load"
    ),
}

#: model folders of the MuJoCo Menagerie (MJCF only), named in the message of a name
#: that is only there; the installed ``mujoco_menagerie`` package's names join them
MENAGERIE_MODELS = (
    "agility_cassie",
    "anybotics_anymal_b",
    "anybotics_anymal_c",
    "apptronik_apollo",
    "berkeley_humanoid",
    "boston_dynamics_spot",
    "franka_emika_panda",
    "franka_fr3",
    "google_barkour_v0",
    "google_barkour_vb",
    "kinova_gen3",
    "kuka_iiwa_14",
    "pal_talos",
    "rethink_robotics_sawyer",
    "robotis_op3",
    "shadow_hand",
    "ufactory_lite6",
    "ufactory_xarm7",
    "unitree_a1",
    "unitree_g1",
    "unitree_go1",
    "unitree_go2",
    "unitree_h1",
    "unitree_z1",
    "universal_robots_ur10e",
    "universal_robots_ur5e",
    "wonik_allegro",
)
