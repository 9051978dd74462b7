"""A free-flying space manipulator: a satellite that carries a 6-DOF arm, no gravity.

Jaramillo, *Dinámica de Manipuladores Robóticos* (seed 002), chapter 1, with eqs. (1.86)–
(1.88), develops the constraint-force decomposition for the forward dynamics of floating
("flotantes") multibody systems and names its application: the modelling and simulation
of space manipulators ("manipuladores espaciales"). This model is such a system, built
from a cited arm on a base whose numbers are ours (stated below).
"""

from __future__ import annotations

import numpy as np

from ..model import ModelBuilder
from ._published import published_inertias
from .arms import puma560

# the satellite: a uniform cube of side 1 m and 400 kg (our choice, a small satellite)
SATELLITE_SIDE = 1.0
SATELLITE_MASS = 400.0


@published_inertias
def space_manipulator(satellite_mass: float = SATELLITE_MASS):
    """A satellite on a free-flyer joint carrying the Puma 560 arm of
    :func:`~eslabon.zoo.arms.puma560`, in free fall (gravity zero).

    Source: the free-flying multibody systems and space manipulators of Jaramillo,
    *Dinámica de Manipuladores Robóticos* (seed 002), chapter 1, eqs. (1.86)–(1.88); the
    arm's kinematic and inertial data are those of Corke and Armstrong-Hélouvry (ICRA
    1994) as :func:`~eslabon.zoo.arms.puma560` cites them. The satellite is ours: a
    uniform cube of side 1 m and ``satellite_mass`` (default 400 kg), inertia
    m s²/6 about each axis, its centre at the origin of body ``satellite``; the arm's base
    (the Puma's DH frame 0) sits at the centre of the cube's top face, (0, 0, 0.5) m, with
    the same axes.

    Configuration (nq = 13, nv = 12): the satellite's position and unit quaternion
    (x, y, z, w) in the world, then the six arm angles; rates (v, ω) of the satellite in
    its own axes, then the arm's. With no external force the total linear and angular
    momentum are conserved, so moving the arm turns and shifts the satellite. The arm's
    link 3 keeps the published inertia that breaks the triangle inequality (as
    :func:`~eslabon.zoo.arms.puma560` says).
    """
    arm = puma560(gravity=(0.0, 0.0, 0.0))
    side = SATELLITE_SIDE
    m = float(satellite_mass)
    b = ModelBuilder()
    sat = b.add_body(
        0,
        "free_flyer",
        mass=m,
        inertia=np.eye(3) * m * side**2 / 6.0,
        name="satellite",
        where="satellite",
    )
    mount = np.array([0.0, 0.0, side / 2])
    body = {0: sat}
    for i in range(1, arm.nb + 1):
        p = int(arm.parent[i])
        body[i] = b.add_body(
            body[p],
            arm.joint_types[int(arm.v_index[i])] if arm.joint_type[i] else "fixed",
            axis=arm.axis[i],
            rotation=arm.tree_rotation[i],
            translation=arm.tree_translation[i] + (mount if p == 0 else 0.0),
            mass=arm.mass[i],
            com=arm.com[i],
            inertia=arm.inertia[i],
            name=arm.body_names[i],
        )
    for fr in arm.frames:
        offset = mount if fr.body == 0 else np.zeros(3)
        b.add_frame(fr.name, body[fr.body], fr.rotation, fr.translation + offset)
    return b.build(
        gravity=(0.0, 0.0, 0.0),
        name="space_manipulator",
        source="Jaramillo, Dinámica de Manipuladores Robóticos (seed 002), ch. 1, "
        "eqs. (1.86)-(1.88); arm: Corke & Armstrong-Hélouvry, ICRA 1994",
    )
