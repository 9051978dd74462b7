"""Trajectories: joint-space motions between two configurations (:mod:`.joint`), and task
trajectories for inverse kinematics: time laws, paths, Frenet–Serret orientation.

Seed 000 (Rojas 1987) §3.6 "Síntesis de trayectoria" and the T3 tasks of §4.4/§5.4.
Not to be confused with :class:`eslabon.sim.Trajectory`, which
stores simulation results.

>>> from eslabon import trajectory as tr
>>> task = tr.t3_straight_line_task()
>>> state = task.at(0.45)
>>> round(float(state.p[1]), 5), round(float(state.p_dot[1]), 5)
(0.40082, 1.95106)

See ``docs/trajectory.md``.
"""

from .frenet import FrenetFrame, FrenetMotion, frenet_frame, frenet_motion
from .joint import JointTrajectory, joint_trajectory
from .laws import (
    KnotRateLaw,
    LawSample,
    SplineLaw,
    TimeLaw,
    cycloid,
    knot_rate_law,
    quintic,
    spline_law,
)
from .paths import ParametricPath, Path, circle, e2_sphere_cylinder, helix, line
from .task import (
    T3_BETA_KNOTS,
    T3_BETA_LAWS,
    T3_ROTATION,
    T3_X,
    T3_Z,
    Task,
    TaskState,
    straight_line_task,
    t3_beta_law,
    t3_path,
    t3_straight_line_task,
)

__all__ = [
    "JointTrajectory",
    "joint_trajectory",
    "LawSample",
    "TimeLaw",
    "SplineLaw",
    "cycloid",
    "quintic",
    "spline_law",
    "KnotRateLaw",
    "knot_rate_law",
    "Path",
    "ParametricPath",
    "line",
    "circle",
    "helix",
    "e2_sphere_cylinder",
    "FrenetFrame",
    "FrenetMotion",
    "frenet_frame",
    "frenet_motion",
    "TaskState",
    "Task",
    "straight_line_task",
    "t3_path",
    "t3_straight_line_task",
    "t3_beta_law",
    "T3_BETA_KNOTS",
    "T3_BETA_LAWS",
    "T3_X",
    "T3_Z",
    "T3_ROTATION",
]
