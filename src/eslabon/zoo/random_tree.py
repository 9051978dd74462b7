"""Seeded random kinematic trees, for tests, benchmarks and experiments.

>>> from eslabon.zoo import random_tree
>>> random_tree(3).nq
7
"""

from __future__ import annotations

import numbers

import numpy as np

from ..model import ModelBuilder
from ..model.validate import as_int
from .random_chain import random_inertia, random_rotation

__all__ = ["random_tree"]

# one letter per joint type: R revolute, P prismatic, F fixed, H helical, U universal,
# L planar, S spherical, B free flyer (a floating Base)
JOINT_LETTERS = {
    "R": "revolute",
    "P": "prismatic",
    "F": "fixed",
    "H": "helical",
    "U": "universal",
    "L": "planar",
    "S": "spherical",
    "B": "free_flyer",
}


def _axis_random_or_z(rng: np.random.Generator):
    """A random direction on 60 % of the joints, +z on the rest."""
    return rng.normal(size=3) if rng.random() < 0.6 else (0.0, 0.0, 1.0)


def _gravity_random_direction(rng: np.random.Generator) -> np.ndarray:
    """9.81 m/s² in a random direction."""
    g = rng.normal(size=3)
    return 9.81 * g / np.linalg.norm(g)


def random_tree(
    seed=0,
    joints: str = "RFPRRFPRR",
    *,
    friction: bool = True,
    armature_chance: float = 1.0,
    axis=None,
    rotation=None,
    inertia=None,
    gravity=None,
    name: str | None = None,
):
    """A seeded random kinematic tree: branches, arbitrary joint axes and placements,
    fixed bodies (also with children of their own), random inertial data.

    Body 1 hangs from the world, body 2 from body 1, body 3 from body 2, and every later
    body from a random earlier body or the world, so the tree branches (and a fixed body
    2 carries children when ``joints`` starts "RF"). For each body, in this order, the
    generator draws its parent (bodies 4 on), its joint axis, a mass in [0.3, 4] kg, the
    rotation of its joint frame, a translation within 0.5 m along each axis, a COM within
    0.2 m, its inertia about the COM, then viscous (≤ 0.4) and Coulomb (≤ 0.3) friction
    and armature (≤ 0.05); gravity last.

    Parameters
    ----------
    seed : int or numpy.random.Generator
        The seed of numpy's ``default_rng``, or a generator, used as it is (a caller may
        draw from it first, e.g. to shuffle ``joints``).
    joints : str
        One letter per body: R (revolute), P (prismatic), F (fixed), H (helical, with a
        pitch in [−0.3, 0.3] m/rad), U (universal, a second random axis), L (planar), S
        (spherical) or B (free flyer: a floating base).
    friction : bool
        Draw viscous and Coulomb friction for each body. Without it no friction is drawn
        (the later draws move up the random stream).
    armature_chance : float
        The chance, in [0, 1], that a body has armature (one uniform draw per body
        decides); 1 gives every body armature without that draw.
    axis : callable, optional
        ``axis(rng) -> (3,)``, the draw of a joint axis (need not be unit). Default: a
        random direction on 60 % of the joints, +z on the rest.
    rotation : callable, optional
        ``rotation(rng) -> (3, 3)``, the draw of a joint frame's rotation. Default:
        :func:`~eslabon.zoo.random_chain.random_rotation`.
    inertia : callable, optional
        ``inertia(rng, mass) -> (3, 3)``, the draw of an inertia about the COM. Default:
        :func:`~eslabon.zoo.random_chain.random_inertia` (a solid box).
    gravity : callable, optional
        ``gravity(rng) -> (3,)`` [m/s²]. Default: 9.81 m/s² in a random direction.
    name : str, optional
        The model's name; default ``random-tree-s{seed}`` (``random-tree`` for a
        generator).

    Returns
    -------
    Model
        The same arguments give the same model.

    Raises
    ------
    ValueError
        ``seed`` neither a non-negative integer nor a Generator, ``joints`` empty or with
        another letter, ``armature_chance`` not a number in [0, 1]; a draw the model
        refuses (e.g. a custom ``inertia`` that is not positive semi-definite).

    Examples
    --------
    >>> from eslabon.zoo import random_tree
    >>> tree = random_tree(0, "RSB")  # revolute, spherical, free flyer
    >>> tree.name, tree.nq, tree.nv
    ('random-tree-s0', 12, 10)
    >>> random_tree(3).joint_letters  # the default "RFPRRFPRR": fixed bodies add no joint
    'RPRRPRR'
    """
    if isinstance(seed, np.random.Generator):
        rng, label = seed, ""
    else:
        seed = as_int(seed, "seed", "a non-negative integer or a numpy Generator", least=0)
        rng, label = np.random.default_rng(seed), f"-s{seed}"
    if not isinstance(joints, str) or not joints or set(joints) - set(JOINT_LETTERS):
        raise ValueError(
            f"joints: expected letters among {''.join(JOINT_LETTERS)} (one per body), "
            f"got {joints!r}"
        )
    if (
        isinstance(armature_chance, bool)
        or not isinstance(armature_chance, numbers.Real)
        or not 0.0 <= armature_chance <= 1.0
    ):
        raise ValueError(f"armature_chance: expected a number in [0, 1], got {armature_chance!r}")
    axis = _axis_random_or_z if axis is None else axis
    rotation = random_rotation if rotation is None else rotation
    inertia = random_inertia if inertia is None else inertia
    gravity = _gravity_random_direction if gravity is None else gravity
    builder = ModelBuilder()
    for i, joint in enumerate(joints, start=1):
        parent = 0 if i == 1 else (1 if i == 2 else 2 if i == 3 else int(rng.integers(0, i)))
        joint_axis = axis(rng)
        mass = rng.uniform(0.3, 4.0)
        body = {
            "rotation": rotation(rng),
            "translation": rng.uniform(-0.5, 0.5, 3),
            "mass": mass,
            "com": rng.uniform(-0.2, 0.2, 3),
        }
        body["inertia"] = inertia(rng, mass)
        if friction:
            body["viscous"] = rng.uniform(0.0, 0.4)
            body["coulomb"] = rng.uniform(0.0, 0.3)
        if armature_chance >= 1.0 or rng.random() < armature_chance:
            body["armature"] = rng.uniform(0.0, 0.05)
        if joint == "U":  # draws past the R, P, F ones: their trees stay what they were
            body["axis2"] = rng.normal(size=3)
        if joint == "H":
            body["pitch"] = rng.uniform(-0.3, 0.3)
        builder.add_body(parent, JOINT_LETTERS[joint], axis=joint_axis, **body)
    g = gravity(rng)
    return builder.build(
        gravity=g,
        name=f"random-tree{label}" if name is None else name,
        source=f"eslabon.zoo.random_tree({seed if label else 'a Generator'}, {joints!r})",
    )
