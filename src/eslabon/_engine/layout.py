"""Layout of the packed model array that every compiled kernel reads.

The whole model travels into compiled code as one float64 array ``P`` (few arguments
means little call overhead, see DESIGN §5). ``P[:HEADER]`` holds the header; row ``i``
(0 = world, 1..nb) is a record of ``STRIDE`` values at ``P[body_offset(i) :
body_offset(i + 1)]``, ``body_offset(i) = HEADER + i * STRIDE`` (in compiled code
:func:`eslabon._engine.record.row_offset`). Rotations are stored row-major. Every offset below
is a name; no kernel reads the array by number.

The header (``P[h]``):

=============  ====  ============================================================
name           size  meaning
=============  ====  ============================================================
``H_NB``       1     number of rows nb (the world, row 0, excluded)
``H_NQ``       1     configuration size nq (mimic joints' coordinates included)
``H_GRAVITY``  3     gravity (world axes)
``H_NV``       1     tangent size nv: rates, accelerations, torques
``H_MIMIC``    1     1.0 when a joint mimics another (the lean C path declines)
``H_EXTENDED`` 1     1.0 when a row is helical or placed by a quaternion
=============  ====  ============================================================

A row's record (``P[o + f]`` for the row at offset ``o``), one degree of freedom each:

==============  ====  ==========================================================
name            size  meaning
==============  ====  ==========================================================
``PARENT``      1     the parent's row (-1 for the world)
``JTYPE``       1     FIXED, REVOLUTE, PRISMATIC or HELICAL: the row's motion
``VIDX``        1     index of the row's rate in v (q̇, q̈, τ), -1 for none
``AXIS``        3     joint axis in the joint (= body) frame
``Z_AXIS``      1     1.0 when the axis is exactly +z (a shortcut of the kernels)
``ROT``         9     rotation parent <- joint frame at q = 0, row-major
``POS``         3     joint frame origin in the parent frame
``PLACE``       1     BY_AXIS, BY_QUATERNION or BY_POSE: how q places the row
``CFG``         1     index in q of what places the row, -1 for none
``PITCH``       1     helical: translation along the axis per radian
``MASS``        1     the body's mass (on its joint's last row)
``COM``         3     centre of mass in the body frame at q = 0
``INERTIA``     9     rotational inertia about the COM, body axes, row-major
``VISCOUS``     1     viscous friction coefficient of the row's rate
``COULOMB``     1     Coulomb friction of the row's rate
``ARMATURE``    1     rotor inertia added to the row's diagonal of M
``COM_SLIDE``   1     the COM moves by COM_SLIDE · q along the axis; 0 = rigid
``FORK``        1     1.0 when a row after the next has this row as parent
==============  ====  ==========================================================

The joint fields ``JTYPE`` … ``PITCH`` are contiguous: :func:`eslabon._engine.joints.joint`
reads them as one tuple ``j``, indexed by the ``J_`` names (``j[J_PLACE]``, the slice
``j[J_AXIS:J_AXIS_END]``). The C entry reads the header through ``layout.h``, which
``python -m eslabon._engine.layout --c-header`` writes from this module.
"""

from collections.abc import Callable
from typing import NamedTuple

# joint type codes of the model (what each type is: eslabon._engine.joints). The packed
# rows hold only FIXED, REVOLUTE, PRISMATIC and HELICAL at JTYPE: a joint of more than one
# degree of freedom is packed as a short chain of rows, one per degree of freedom.
FIXED = 0
REVOLUTE = 1
PRISMATIC = 2
HELICAL = 3
UNIVERSAL = 4
PLANAR = 5
SPHERICAL = 6
FREE_FLYER = 7


class JointKind(NamedTuple):
    """One joint type, as model building and the packed layout see it: everything a
    joint made of the kernels' row motions (fixed, revolute, prismatic, helical rows)
    needs, in one entry of :data:`JOINT_KINDS`.

    ``code`` is its number in ``Model.joint_type``; ``name`` and ``letter`` name it;
    ``nq`` and ``nv`` are its configuration and tangent sizes; ``rows(axis, axis2)``
    its packed rows (:func:`joint_rows`); ``units`` the unit of each configuration
    coordinate ("rad", "m", or "" for a quaternion's); ``axes`` how many of the body's
    axes it takes (0, 1: ``axis``, 2: ``axis`` and ``axis2``); ``pitch`` whether it
    takes one; ``constant_subspace`` whether its motion subspace S is constant in its
    body's axes (the reference formulations need it); ``q_names`` and ``v_names`` the
    suffixes that name its coordinates and rates after the joint's name
    (``root_joint.qw``: :attr:`eslabon.Model.q_names`), empty for a joint of one
    coordinate (named by the joint alone) and ``q1``, ``q2`` … (``v1`` …) by default."""

    code: int
    name: str
    letter: str
    nq: int
    nv: int
    rows: Callable
    units: tuple
    axes: int = 0
    pitch: bool = False
    constant_subspace: bool = True
    q_names: tuple = ()
    v_names: tuple = ()


JOINT_KINDS: dict = {}  # code -> JointKind, filled by register_joint_kind
JOINT_NAMES: dict = {}  # code -> name
JOINT_CODES: dict = {}  # name (and a few aliases) -> code
JOINT_LETTERS: dict = {}  # code -> one letter, for one-line summaries (B: a floating Base)
JOINT_NQ: dict = {}  # code -> configuration size nq
JOINT_NV: dict = {}  # code -> tangent size nv


def register_joint_kind(kind: JointKind) -> None:
    """Add a joint type to every table above (``unregister_joint_kind`` takes it out):
    the whole of what a new joint type made of the existing row motions needs
    (docs/architecture.md, "A new joint type")."""
    if kind.code in JOINT_KINDS or kind.name in JOINT_CODES:
        raise ValueError(f"joint type {kind.code} ({kind.name}): already registered")
    if kind.letter in JOINT_LETTERS.values():
        raise ValueError(f"joint type {kind.name}: the letter {kind.letter!r} is taken")
    if len(kind.units) != kind.nq:
        raise ValueError(f"joint type {kind.name}: {len(kind.units)} units for nq = {kind.nq}")
    if kind.nq > 1 and not kind.q_names:
        kind = kind._replace(q_names=tuple(f"q{k}" for k in range(1, kind.nq + 1)))
    if kind.nv > 1 and not kind.v_names:
        kind = kind._replace(v_names=tuple(f"v{k}" for k in range(1, kind.nv + 1)))
    if len(kind.q_names) != (kind.nq if kind.nq > 1 else 0) or len(kind.v_names) != (
        kind.nv if kind.nv > 1 else 0
    ):
        raise ValueError(f"joint type {kind.name}: q_names, v_names: one per coordinate")
    rows = kind.rows((0.0, 0.0, 1.0), (1.0, 0.0, 0.0))
    moving = sum(motion != FIXED for motion, _, _, _ in rows)
    if moving != kind.nv or not rows:
        raise ValueError(f"joint type {kind.name}: {moving} moving rows for nv = {kind.nv}")
    JOINT_KINDS[kind.code] = kind
    JOINT_NAMES[kind.code] = kind.name
    JOINT_CODES[kind.name] = kind.code
    JOINT_LETTERS[kind.code] = kind.letter
    JOINT_NQ[kind.code] = kind.nq
    JOINT_NV[kind.code] = kind.nv


def unregister_joint_kind(code: int) -> None:
    """Take the joint type ``code`` out of every table (a test's scratch type)."""
    kind = JOINT_KINDS.pop(code)
    for table in (JOINT_NAMES, JOINT_LETTERS, JOINT_NQ, JOINT_NV):
        del table[code]
    del JOINT_CODES[kind.name]


HEADER = 8
H_NB, H_NQ, H_GRAVITY = 0, 1, 2  # gravity occupies 2..4; H_NB counts rows (world excluded)
H_NV = 5  # tangent size: rates, accelerations, torques
H_MIMIC = 6  # 1.0 when a joint mimics another: the lean C path hands such models over
H_EXTENDED = 7  # 1.0 when a row is helical or placed by a quaternion: the kernels for the
# extended joint set serve it (eslabon._engine.joints, "Two joint sets")

STRIDE = 40
PARENT = 0  # the parent's row
# the joint's fields, contiguous: what joints.joint reads as one tuple
JTYPE = 1  # FIXED, REVOLUTE, PRISMATIC or HELICAL: the motion of this row's one rate
VIDX = 2  # index of the row's rate in v (q̇, q̈, τ), -1 for none
AXIS = 3  # 3 values: joint axis in the joint (= body) frame
Z_AXIS = 6  # 1.0 when the joint axis is exactly +z (every DH joint): kernels take a shortcut
ROT = 7  # 9 values: rotation parent <- joint frame at q = 0
POS = 16  # 3 values: joint frame origin in the parent frame
PLACE = 19  # how q places the row: BY_AXIS, BY_QUATERNION (spherical) or BY_POSE (free)
CFG = 20  # index in q of what places the row (its angle, or its quaternion / pose), -1 none
PITCH = 21  # helical: translation along the axis per radian
JOINT_FIELDS = 21  # JTYPE .. PITCH
# the body's
MASS = 22
COM = 23  # 3 values: centre of mass in the body frame (at q = 0)
INERTIA = 26  # 9 values: rotational inertia about the COM, body axes
VISCOUS = 35
COULOMB = 36
ARMATURE = 37
COM_SLIDE = 38  # COM moves by COM_SLIDE * q along the axis (seed 001 book mode); 0 = rigid
# the tree's
FORK = 39  # 1.0 when a row after the next has this row as parent (mark_forks): a recursion
# that keeps the parent's pose in registers along a chain stores this row's for later

# the joint tuple ``j = joints.joint(P, o)`` = P[o + JTYPE : o + JTYPE + JOINT_FIELDS],
# by position: ``j[J_TYPE]``, and the vectors as slices ``j[J_AXIS:J_AXIS_END]``
J_TYPE = JTYPE - JTYPE  # the row's motion (FIXED, REVOLUTE, PRISMATIC, HELICAL)
J_RATE = VIDX - JTYPE  # index of the row's rate in v, -1 for none
J_AXIS, J_AXIS_END = AXIS - JTYPE, AXIS - JTYPE + 3  # the axis (3)
J_Z_AXIS = Z_AXIS - JTYPE  # 1.0 when the axis is exactly +z
J_ROT, J_ROT_END = ROT - JTYPE, ROT - JTYPE + 9  # rotation at q = 0 (9, row-major)
J_POS, J_POS_END = POS - JTYPE, POS - JTYPE + 3  # origin in the parent frame (3)
J_PLACE = PLACE - JTYPE  # BY_AXIS, BY_QUATERNION or BY_POSE
J_CFG = CFG - JTYPE  # index in q of what places the row, -1 for none
J_PITCH = PITCH - JTYPE  # helical: translation per radian

# PLACE codes
BY_AXIS = 0  # rotation about / translation along the axis by q[CFG] (none when CFG < 0)
BY_QUATERNION = 1  # rotation by the unit quaternion q[CFG : CFG + 4] (x, y, z, w)
BY_POSE = 2  # translation q[CFG : CFG + 3], then the quaternion q[CFG + 3 : CFG + 7]

_EYE = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)
_X, _Y, _Z = (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)


def body_offset(i: int) -> int:
    """Offset in ``P`` of packed row ``i``."""
    return HEADER + i * STRIDE


def joint_rows(jtype: int, axis, axis2) -> list:
    """The packed rows of one joint: (motion, axis, place, q offset or -1) for each of its
    degrees of freedom, in order (one row for a fixed joint). A joint of several degrees of
    freedom is a chain of rows, each with one rate, all but the first at the identity
    placement: universal = revolute about ``axis`` then about ``axis2``; planar =
    prismatic x, prismatic y, revolute z of the joint frame; spherical = rates about body
    x, y, z after the quaternion placement; free flyer = rates along body x, y, z then
    about them after the pose placement. The body (mass, frames, children) is the last
    row. (The velocity-product terms of the chain are corrected on the first row so the
    rows together move as the one joint: ``joints.group_correction``.)"""
    kind = JOINT_KINDS.get(int(jtype))
    if kind is None:
        raise ValueError(f"joint type {jtype}: unknown")
    return kind.rows(axis, axis2)


for _kind in (
    JointKind(FIXED, "fixed", "F", 0, 0, lambda a, b: [(FIXED, (0.0, 0.0, 0.0), BY_AXIS, -1)], ()),
    JointKind(
        REVOLUTE, "revolute", "R", 1, 1, lambda a, b: [(REVOLUTE, tuple(a), BY_AXIS, 0)],
        ("rad",), axes=1,
    ),
    JointKind(
        PRISMATIC, "prismatic", "P", 1, 1, lambda a, b: [(PRISMATIC, tuple(a), BY_AXIS, 0)],
        ("m",), axes=1,
    ),
    JointKind(
        HELICAL, "helical", "H", 1, 1, lambda a, b: [(HELICAL, tuple(a), BY_AXIS, 0)],
        ("rad",), axes=1, pitch=True,
    ),
    JointKind(
        UNIVERSAL, "universal", "U", 2, 2,
        lambda a, b: [(REVOLUTE, tuple(a), BY_AXIS, 0), (REVOLUTE, tuple(b), BY_AXIS, 1)],
        ("rad", "rad"), axes=2, constant_subspace=False,
        q_names=("q1", "q2"), v_names=("v1", "v2"),
    ),
    JointKind(
        PLANAR, "planar", "L", 3, 3,
        lambda a, b: [
            (PRISMATIC, _X, BY_AXIS, 0), (PRISMATIC, _Y, BY_AXIS, 1), (REVOLUTE, _Z, BY_AXIS, 2)
        ],
        ("m", "m", "rad"), constant_subspace=False,
        q_names=("x", "y", "theta"), v_names=("vx", "vy", "wz"),
    ),
    JointKind(
        SPHERICAL, "spherical", "S", 4, 3,
        lambda a, b: [
            (REVOLUTE, _X, BY_QUATERNION, 0), (REVOLUTE, _Y, BY_AXIS, -1),
            (REVOLUTE, _Z, BY_AXIS, -1),
        ],
        ("", "", "", ""), q_names=("qx", "qy", "qz", "qw"), v_names=("wx", "wy", "wz"),
    ),
    JointKind(
        FREE_FLYER, "free_flyer", "B", 7, 6,
        lambda a, b: (
            [(PRISMATIC, _X, BY_POSE, 0)]
            + [(PRISMATIC, e, BY_AXIS, -1) for e in (_Y, _Z)]
            + [(REVOLUTE, e, BY_AXIS, -1) for e in (_X, _Y, _Z)]
        ),
        ("m", "m", "m", "", "", "", ""),
        q_names=("x", "y", "z", "qx", "qy", "qz", "qw"),
        v_names=("vx", "vy", "vz", "wx", "wy", "wz"),
    ),
):  # fmt: skip
    register_joint_kind(_kind)
JOINT_CODES.update({"F": FIXED, "R": REVOLUTE, "P": PRISMATIC, "continuous": REVOLUTE})


def body_rows(model) -> list:
    """The row of each body (0 = world) in the packed array: its joint's last row."""
    rows, r = [0], 0
    for i in range(1, model.nb + 1):
        r += len(joint_rows(int(model.joint_type[i]), model.axis[i], model.axis2[i]))
        rows.append(r)
    return rows


def pack(model):
    """The packed array of ``model`` (anything with the :class:`eslabon.Model` arrays:
    ``parent``, ``joint_type``, ``engine_q_index``, ``engine_v_index``, ``axis``, ``axis2``,
    ``pitch``, ``tree_rotation``, …, ``gravity``, ``nb``, ``engine_nq``, ``engine_nv``):
    every joint with coordinates of its own, a mimic joint too (its coupling is applied
    outside the kernels, :mod:`eslabon.model.mimic`)."""
    import numpy as np

    rows = body_rows(model)
    P = np.zeros(HEADER + (rows[-1] + 1) * STRIDE)
    P[H_NB] = rows[-1]
    P[H_NQ] = model.engine_nq  # mimic joints have coordinates of their own here
    P[H_NV] = model.engine_nv
    P[H_MIMIC] = float(model.mimic is not None)
    P[H_EXTENDED] = float(
        any(
            motion == HELICAL or place != BY_AXIS
            for i in range(1, model.nb + 1)
            for motion, _, place, _ in joint_rows(
                int(model.joint_type[i]), model.axis[i], model.axis2[i]
            )
        )
    )
    P[H_GRAVITY : H_GRAVITY + 3] = model.gravity
    P[body_offset(0) + ROT : body_offset(0) + ROT + 9] = _EYE
    P[body_offset(0) + PARENT] = -1
    for i in range(1, model.nb + 1):
        parts = joint_rows(int(model.joint_type[i]), model.axis[i], model.axis2[i])
        first = rows[i] - len(parts) + 1
        for d, (motion, axis, place, qoff) in enumerate(parts):
            o = body_offset(first + d)
            P[o + PARENT] = rows[int(model.parent[i])] if d == 0 else first + d - 1
            P[o + JTYPE] = motion
            P[o + VIDX] = model.engine_v_index[i] + d if motion != FIXED else -1
            P[o + AXIS : o + AXIS + 3] = axis
            P[o + Z_AXIS] = float(tuple(axis) == _Z)
            P[o + ROT : o + ROT + 9] = model.tree_rotation[i].ravel() if d == 0 else _EYE
            P[o + POS : o + POS + 3] = model.tree_translation[i] if d == 0 else 0.0
            P[o + PLACE] = place
            P[o + CFG] = model.engine_q_index[i] + qoff if qoff >= 0 else -1
            P[o + PITCH] = model.pitch[i]
            if motion != FIXED:
                P[o + VISCOUS] = model.viscous[i]
                P[o + COULOMB] = model.coulomb[i]
                P[o + ARMATURE] = model.armature[i]
        o = body_offset(rows[i])
        P[o + MASS] = model.mass[i]
        P[o + COM : o + COM + 3] = model.com[i]
        P[o + INERTIA : o + INERTIA + 9] = model.inertia[i].ravel()
        P[o + COM_SLIDE] = model.com_slide[i]
    return mark_forks(P)


def mark_forks(P):
    """``P`` with the FORK field of every row set: 1.0 where a row other than the next
    one is a child of it (a branch starts there), else 0.0. Along a chain a recursion
    carries the parent's pose in registers; only at a fork does it need the pose again
    later, from its workspace (the composite-body M stores no other pose: storing every
    body's cost 8 % of a quadruped's M)."""
    nb = int(P[H_NB])
    for i in range(nb + 1):
        P[body_offset(i) + FORK] = 0.0
    for i in range(1, nb + 1):
        p = int(P[body_offset(i) + PARENT])
        if p != i - 1:
            P[body_offset(p) + FORK] = 1.0
    return P


def on_own_axis(P, o: int) -> bool:
    """True for the packed row at offset ``o`` of ``P`` that its own revolute, prismatic
    or helical value places about or along its axis (not a quaternion row, not a row
    inside a spherical or free-flyer joint): its frame may be turned so that the axis
    is +z (:func:`eslabon.model.reframe.axes_on_z`). Here, not in ``joints``: the model
    imports it, and building a model imports no numba."""
    return bool(
        P[o + PLACE] == BY_AXIS
        and P[o + CFG] >= 0
        and P[o + VIDX] >= 0
        and P[o + JTYPE] in (REVOLUTE, PRISMATIC, HELICAL)
    )


# ---- the C entry's view of the header ----------------------------------------------------
# (eslabon/_engine/_fastcall.c includes layout.h; tests/test_layout_header.py checks that
# the committed file is what c_header() writes now)

C_HEADER_NAMES = ("HEADER", "STRIDE", "H_NB", "H_NQ", "H_GRAVITY", "H_NV", "H_MIMIC", "H_EXTENDED")


def c_header() -> str:
    """The text of ``layout.h``: the header offsets and sizes above as C macros
    ``ESLABON_<NAME>``, for the C entry (``_fastcall.c``) to read the packed header by
    name."""
    lines = [
        "/* The packed model's header offsets, for the C entry (_fastcall.c).",
        " * Generated from eslabon/_engine/layout.py by",
        " *     python -m eslabon._engine.layout --c-header",
        " * Do not edit: a test checks that this file is what the generator writes. */",
        "#ifndef ESLABON_LAYOUT_H",
        "#define ESLABON_LAYOUT_H",
        "",
    ]
    lines += [f"#define ESLABON_{name} {globals()[name]}" for name in C_HEADER_NAMES]
    return "\n".join(lines + ["", "#endif /* ESLABON_LAYOUT_H */", ""])


C_HEADER_PATH = __file__.rsplit(".", 1)[0] + ".h"  # layout.h beside this module


def main(argv=None) -> int:
    """``python -m eslabon._engine.layout --c-header [PATH]``: write :func:`c_header` to
    PATH (default: ``layout.h`` beside this module)."""
    import sys

    args = sys.argv[1:] if argv is None else list(argv)
    if not args or args[0] != "--c-header" or len(args) > 2:
        print("usage: python -m eslabon._engine.layout --c-header [PATH]", file=sys.stderr)
        return 2
    path = args[1] if len(args) == 2 else C_HEADER_PATH
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(c_header())
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
