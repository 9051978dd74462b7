"""The body tree of a compiled MuJoCo model (``mujoco.MjModel``) as eslabon bodies.

MuJoCo places body b at (``body_pos``, ``body_quat``) in its parent and then applies its
joints in order, each about or along its own axis in the body frame as moved so far:
a hinge turns by q − qpos0 about ``jnt_axis`` through the anchor ``jnt_pos``, a ball by
the quaternion q about that anchor, a slide translates by q − qpos0 along ``jnt_axis``,
and a free joint sets the body's world pose to q (E. Todorov, T. Erez, Y. Tassa, "MuJoCo:
A physics engine for model-based control", IROS 2012; MuJoCo's documentation,
"Computation: forward kinematics"). eslabon's joint i moves body i about or along an axis
through its joint frame's origin (``docs/conventions.md``), so each MuJoCo joint becomes
one eslabon body on one joint:

- the joint frame is the MuJoCo frame so far shifted to the anchor (a hinge or ball) or
  left where it is (a slide); after a hinge or ball the MuJoCo frame is the eslabon body
  shifted back by −anchor;
- a body with several joints becomes a chain of bodies, the first ones massless and
  named after their joints (the same kinematics and dynamics: a massless body adds
  nothing to M or the bias forces);
- a body without joints, or whose last joint left an anchor offset, gets a body on a
  fixed joint at the MuJoCo frame (fixed joints are folded into their parents for the
  dynamics: no cost); so every MuJoCo body is an eslabon body **with the same frame**,
  carrying its inertia (``body_ipos``, ``body_iquat``, ``body_inertia``, ``body_mass``).

Bodies are added in MuJoCo's body order, so the coordinates come in MuJoCo's joint order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .builder import ModelBuilder

Array = NDArray[np.float64]

# mujoco.mjtJoint values (fixed by MuJoCo's file format: free, ball, slide, hinge)
FREE, BALL, SLIDE, HINGE = 0, 1, 2, 3
JOINT_KIND = {FREE: "free", BALL: "ball", SLIDE: "slide", HINGE: "hinge"}
_ESLABON_JOINT = {FREE: "free_flyer", BALL: "spherical", SLIDE: "prismatic", HINGE: "revolute"}
NQ = {FREE: 7, BALL: 4, SLIDE: 1, HINGE: 1}
NV = {FREE: 6, BALL: 3, SLIDE: 1, HINGE: 1}


def quat_matrix(quat: Any) -> Array:
    """Rotation matrix of MuJoCo quaternions (w, x, y, z), shape (…, 4) -> (…, 3, 3)."""
    q = np.asarray(quat, dtype=float)
    q = q / np.linalg.norm(q, axis=-1, keepdims=True)
    w, x, y, z = np.moveaxis(q, -1, 0)
    R = np.stack(
        [
            1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
            2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
            2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
        ],
        axis=-1,
    )  # fmt: skip
    return R.reshape(q.shape[:-1] + (3, 3))


def object_name(m: Any, kind: str, i: int) -> str:
    """The name of object ``i`` of ``kind`` ("body", "joint", "site", "geom", "key",
    "eq", "mesh", "actuator", "tendon", "sensor") in ``m``, "" when unnamed."""
    return str(getattr(m, kind)(i).name)


@dataclass
class TreeMap:
    """Where the MuJoCo objects went: the eslabon body of each MuJoCo body (the one with
    its frame) and of each joint, and the names given."""

    body_of: list[int] = field(default_factory=list)  # MuJoCo body -> eslabon body
    joint_body: list[int] = field(default_factory=list)  # MuJoCo joint -> eslabon body
    body_names: list[str] = field(default_factory=list)  # MuJoCo body -> eslabon name
    joint_names: list[str] = field(default_factory=list)  # MuJoCo joint -> eslabon name
    taken: set[str] = field(default_factory=set)  # body and frame names in use


def unique(name: str, taken: set[str]) -> str:
    """``name``, or ``name_2``, ``name_3`` … when it is taken; recorded in ``taken``."""
    out, k = name, 1
    while out in taken:
        k += 1
        out = f"{name}_{k}"
    taken.add(out)
    return out


def _per_joint(m: Any, j: int, values: Array, what: str, jname: str) -> float:
    """The one value of a per-DOF array for joint ``j`` (equal over its DOFs)."""
    adr, n = int(m.jnt_dofadr[j]), NV[int(m.jnt_type[j])]
    chunk = values[adr : adr + n]
    if not np.all(chunk == chunk[0]):
        raise ValueError(
            f"joint {jname!r}: {what} differs between its degrees of freedom "
            f"({chunk.tolist()}); eslabon keeps one value per joint"
        )
    return float(chunk[0])


def build_tree(m: Any) -> tuple[ModelBuilder, TreeMap]:
    """A :class:`ModelBuilder` holding the bodies of compiled model ``m`` (module
    docstring), and the :class:`TreeMap` of where each MuJoCo body and joint went. A
    ValueError names the joint it cannot read; the caller prefixes the file."""
    b = ModelBuilder()
    tree = TreeMap(body_of=[0], body_names=["world"], taken={"world"})
    tree.joint_body = [-1] * int(m.njnt)
    tree.joint_names = [""] * int(m.njnt)
    for i in range(1, int(m.nbody)):  # MuJoCo's body names first, so they keep them
        tree.body_names.append(unique(object_name(m, "body", i) or f"body{i}", tree.taken))
    joint_taken: set[str] = set()
    for j in range(int(m.njnt)):  # MuJoCo's joint names first, so they keep them
        name = object_name(m, "joint", j)
        if name:
            tree.joint_names[j] = unique(name, joint_taken)
    for mb in range(1, int(m.nbody)):
        body_name = tree.body_names[mb]
        parent = tree.body_of[int(m.body_parentid[mb])]
        # the MuJoCo frame so far, in the frame of eslabon body `parent`
        R, p = quat_matrix(m.body_quat[mb]), np.array(m.body_pos[mb], dtype=float)
        first, count = int(m.body_jntadr[mb]), int(m.body_jntnum[mb])
        mass = float(m.body_mass[mb])
        Ri = quat_matrix(m.body_iquat[mb])
        inertia = Ri @ np.diag(m.body_inertia[mb]) @ Ri.T
        com = np.array(m.body_ipos[mb], dtype=float)
        for n, j in enumerate(range(first, first + count)):
            kind = int(m.jnt_type[j])
            jname = tree.joint_names[j] or unique(f"{body_name}_joint{n}", joint_taken)
            tree.joint_names[j] = jname
            if kind == FREE and (int(m.body_parentid[mb]) != 0 or count != 1):
                raise ValueError(
                    f"joint {jname!r}: a free joint is read only as the one joint of a body "
                    "whose parent is the world (its q is the body's world pose)"
                )
            anchor = np.array(m.jnt_pos[j], dtype=float)
            if kind == FREE:
                R, p = np.eye(3), np.zeros(3)
            elif kind in (HINGE, BALL):
                p = p + R @ anchor
            last = n == count - 1
            shifted = kind in (HINGE, BALL) and bool(np.any(anchor != 0.0))
            carries = last and not shifted  # this body's frame is the MuJoCo body's
            friction = _per_joint(m, j, m.dof_frictionloss, "frictionloss", jname)
            if kind == FREE and friction != 0.0:
                raise ValueError(
                    f"joint {jname!r}: frictionloss on a free joint acts on its world-axis "
                    "velocities, which eslabon's Coulomb friction (per rate, in body axes) "
                    "cannot represent"
                )
            name = body_name if carries else unique(jname, tree.taken)
            parent = b.add_body(
                parent,
                _ESLABON_JOINT[kind],
                axis=m.jnt_axis[j] if kind in (HINGE, SLIDE) else (0.0, 0.0, 1.0),
                rotation=R,
                translation=p,
                mass=mass if carries else 0.0,
                com=com if carries else (0.0, 0.0, 0.0),
                inertia=inertia if carries else None,
                viscous=_per_joint(m, j, m.dof_damping, "damping", jname),
                coulomb=friction,
                armature=_per_joint(m, j, m.dof_armature, "armature", jname),
                name=name,
                where=f"joint {jname!r}",
                joint_name=jname,
            )
            tree.joint_body[j] = parent
            R = np.eye(3)
            p = -anchor if kind in (HINGE, BALL) else np.zeros(3)
            if carries:
                tree.body_of.append(parent)
        if len(tree.body_of) == mb:  # no joint, or an anchor offset left: a fixed body
            tree.body_of.append(
                b.add_body(
                    parent,
                    "fixed",
                    rotation=R,
                    translation=p,
                    mass=mass,
                    com=com,
                    inertia=inertia,
                    name=body_name,
                    where=f"body {body_name!r}",
                    joint_name=unique(f"{body_name}_fixed", joint_taken),
                )
            )
    return b, tree
