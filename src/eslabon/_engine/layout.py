"""Layout of the packed model array that every compiled kernel reads.

The whole model travels into compiled code as one float64 array ``P`` (few arguments
means little call overhead, see DESIGN §5). ``P[:HEADER]`` holds the header; body ``i``
(0 = world, 1..nb) occupies ``P[HEADER + i*STRIDE : HEADER + (i+1)*STRIDE]``.
Rotations are stored row-major.
"""
HEADER = 8
H_NB, H_NQ, H_GRAVITY = 0, 1, 2          # gravity occupies 2..4

STRIDE = 36
PARENT = 0
JTYPE = 1
QIDX = 2
AXIS = 3        # 3 values: joint axis in the joint (= body) frame
ROT = 6         # 9 values: rotation parent <- joint frame at q = 0
POS = 15        # 3 values: joint frame origin in the parent frame
MASS = 18
COM = 19        # 3 values: centre of mass in the body frame (at q = 0)
INERTIA = 22    # 9 values: rotational inertia about the COM, body axes
VISCOUS = 31
COULOMB = 32
ARMATURE = 33
COM_SLIDE = 34  # COM moves by COM_SLIDE * q along the axis (seed 001 book mode); 0 = rigid
Z_AXIS = 35     # 1.0 when the joint axis is exactly +z (every DH joint): kernels take a shortcut


def body_offset(i: int) -> int:
    return HEADER + i * STRIDE
