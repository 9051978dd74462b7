"""Layout of the packed model array that every compiled kernel reads.

The whole model travels into compiled code as one float64 array ``P`` (few arguments
means little call overhead, see DESIGN §5). ``P[:HEADER]`` holds the header; body ``i``
(0 = world, 1..nb) occupies ``P[HEADER + i*STRIDE : HEADER + (i+1)*STRIDE]``.
Rotations are stored row-major.
"""

# joint type codes, stored at JTYPE (what each type does: eslabon._engine.joints)
FIXED = 0
REVOLUTE = 1
PRISMATIC = 2
JOINT_NAMES = {FIXED: "fixed", REVOLUTE: "revolute", PRISMATIC: "prismatic"}
JOINT_CODES = {
    "fixed": FIXED,
    "revolute": REVOLUTE,
    "prismatic": PRISMATIC,
    "F": FIXED,
    "R": REVOLUTE,
    "P": PRISMATIC,
}

HEADER = 8
H_NB, H_NQ, H_GRAVITY = 0, 1, 2  # gravity occupies 2..4

STRIDE = 36
PARENT = 0
# the joint's fields, contiguous: what joints.joint reads as one tuple
JTYPE = 1
QIDX = 2
AXIS = 3  # 3 values: joint axis in the joint (= body) frame
Z_AXIS = 6  # 1.0 when the joint axis is exactly +z (every DH joint): kernels take a shortcut
ROT = 7  # 9 values: rotation parent <- joint frame at q = 0
POS = 16  # 3 values: joint frame origin in the parent frame
JOINT_FIELDS = 18  # JTYPE .. POS
# the body's
MASS = 19
COM = 20  # 3 values: centre of mass in the body frame (at q = 0)
INERTIA = 23  # 9 values: rotational inertia about the COM, body axes
VISCOUS = 32
COULOMB = 33
ARMATURE = 34
COM_SLIDE = 35  # COM moves by COM_SLIDE * q along the axis (seed 001 book mode); 0 = rigid


def body_offset(i: int) -> int:
    return HEADER + i * STRIDE


def pack(model):
    """The packed array of ``model`` (anything with the :class:`eslabon.Model` arrays:
    ``parent``, ``joint_type``, ``q_index``, ``axis``, ``tree_rotation``, …, ``gravity``,
    ``nb``, ``nq``)."""
    import numpy as np

    nb = model.nb
    P = np.zeros(HEADER + (nb + 1) * STRIDE)
    P[H_NB] = nb
    P[H_NQ] = model.nq
    P[H_GRAVITY : H_GRAVITY + 3] = model.gravity
    for i in range(nb + 1):
        o = body_offset(i)
        P[o + PARENT] = model.parent[i]
        P[o + JTYPE] = model.joint_type[i]
        P[o + QIDX] = model.q_index[i]
        P[o + AXIS : o + AXIS + 3] = model.axis[i]
        P[o + ROT : o + ROT + 9] = model.tree_rotation[i].ravel()
        P[o + POS : o + POS + 3] = model.tree_translation[i]
        P[o + MASS] = model.mass[i]
        P[o + COM : o + COM + 3] = model.com[i]
        P[o + INERTIA : o + INERTIA + 9] = model.inertia[i].ravel()
        P[o + VISCOUS] = model.viscous[i]
        P[o + COULOMB] = model.coulomb[i]
        P[o + ARMATURE] = model.armature[i]
        P[o + COM_SLIDE] = model.com_slide[i]
        P[o + Z_AXIS] = float(tuple(model.axis[i]) == (0.0, 0.0, 1.0))
    return P
