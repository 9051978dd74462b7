"""Robots by name, from the model packages installed here.

>>> from eslabon import robots
>>> "solo12" in robots.names() and "ur5" in robots.names()
True

``robots.load("solo12")`` reads example-robot-data's ``solo12.urdf`` on a free-flyer root
joint, as Pinocchio users write ``example_robot_data.load("solo12")``; ``names()`` lists
every robot known, ``available()`` the ones installed, ``info(name)`` a robot's entry in
the table (package, file, base, end effector, category, nq, nv) and ``path(name)`` its
file. The packages are found without importing them (:mod:`eslabon.robots.sources`);
``docs/robots.md`` lists the robots.
"""

from __future__ import annotations

from .lookup import available, info, load, names, path
from .table import CATEGORIES, NOT_OFFERED, ROBOTS, Robot

__all__ = [
    "load",
    "names",
    "available",
    "info",
    "path",
    "Robot",
    "ROBOTS",
    "NOT_OFFERED",
    "CATEGORIES",
]
