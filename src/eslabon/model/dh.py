"""Denavit–Hartenberg front-end: compile a DH table into the one tree model.

Three conventions, always named explicitly:

* ``"standard"`` (distal, seed 001): ``{i-1}_T_i = Rz(θ) Tz(d) Tx(a) Rx(α)``; joint i moves
  along/about z_{i-1}; frame i sits at the distal end of link i.
* ``"modified"`` (Craig; Khalil–Kleinfinger): ``{i-1}_T_i = Rx(α) Tx(a) Rz(θ) Tz(d)`` with
  row i holding (α_{i-1}, a_{i-1}, θ_i, d_i); frame i sits on joint i.
* ``"rojas"`` (seed 000): the standard transform with the thesis's names, ``d`` = link
  length (standard ``a``) and ``b`` = offset (standard ``d``).

For a revolute row ``theta`` is an offset added to q; for a prismatic row ``d`` (``b``) is.
Each row's ``com`` and ``inertia`` (about the COM) are given in that row's DH frame i.

Compilation (exact, no second algorithm for DH models): a standard row i becomes body i
whose frame is DH frame i-1 turned by Rz(θ_i) and shifted by Tz(d_i) — placed in the
previous body by Tx(a_{i-1}) Rx(α_{i-1}) — and DH frame i is the fixed offset
Tx(a_i) Rx(α_i) on body i, through which the inertial data are transformed. The DH frames
are kept as named frames ``dh0 … dhN``; ``ee`` is ``dhN`` (times ``tool`` if given).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..conventions import DH_CONVENTIONS, STANDARD_GRAVITY
from ..spatial import rot_x, rot_z
from .builder import ModelBuilder
from .model import DHTable, Model
from .validate import (
    as_float_array,
    check_nonnegative,
    check_rotation,
    short_repr,
    symmetric_inertia,
)

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

_DH_KEYS = {
    "standard": ("theta", "d", "a", "alpha"),
    "modified": ("alpha", "a", "theta", "d"),
    "rojas": ("theta", "b", "d", "alpha"),
}
_INERTIAL_KEYS = ("mass", "com", "inertia", "viscous", "coulomb", "armature", "com_slide", "name")


def _row_values(row: object, i: int, convention: str) -> tuple[str, dict[str, float]]:
    where = f"rows[{i}]"
    if not isinstance(row, Mapping):
        raise ValueError(
            f"{where}: expected a mapping with keys 'joint', "
            f"{', '.join(map(repr, _DH_KEYS[convention]))}, 'mass', ..."
        )
    allowed = {"joint", *_DH_KEYS[convention], *_INERTIAL_KEYS}
    unknown = sorted(set(row) - allowed)
    if unknown:
        raise ValueError(
            f"{where}: unknown key(s) {unknown} for the {convention!r} convention; "
            f"expected {sorted(allowed)}"
        )
    joint = row.get("joint")
    if not isinstance(joint, str) or joint not in ("R", "P"):
        raise ValueError(f"{where}.joint: expected 'R' or 'P', got {short_repr(joint)}")
    dh: dict[str, float] = {}
    for key in _DH_KEYS[convention]:
        if key not in row:
            raise ValueError(
                f"{where}.{key}: missing ({convention} DH rows need "
                f"{', '.join(_DH_KEYS[convention])})"
            )
        dh[key] = float(as_float_array(row[key], (), f"{where}.{key}"))
    if convention == "rojas":  # thesis names -> standard names
        dh = {"theta": dh["theta"], "d": dh["b"], "a": dh["d"], "alpha": dh["alpha"]}
    return joint, dh


def _inertial(row: Mapping[str, Any], where: str) -> dict[str, Any]:
    return dict(
        mass=check_nonnegative(row.get("mass", 0.0), f"{where}.mass"),
        com=as_float_array(row.get("com", (0.0, 0.0, 0.0)), (3,), f"{where}.com"),
        inertia=symmetric_inertia(row.get("inertia", np.zeros((3, 3))), f"{where}.inertia"),
        viscous=check_nonnegative(row.get("viscous", 0.0), f"{where}.viscous"),
        coulomb=check_nonnegative(row.get("coulomb", 0.0), f"{where}.coulomb"),
        armature=check_nonnegative(row.get("armature", 0.0), f"{where}.armature"),
        com_slide=float(as_float_array(row.get("com_slide", 0.0), (), f"{where}.com_slide")),
    )


def _transform(value: ArrayLike, field: str) -> NDArray[np.float64]:
    """A 4×4 homogeneous transform: a proper rotation, a translation, bottom row 0 0 0 1."""
    T = as_float_array(value, (4, 4), field, "a 4x4 homogeneous transform")
    if not np.array_equal(T[3], [0.0, 0.0, 0.0, 1.0]):
        raise ValueError(
            f"{field}: expected a 4x4 homogeneous transform with the bottom row "
            f"[0, 0, 0, 1], got {T[3].tolist()}"
        )
    check_rotation(T[:3, :3], f"{field} (its rotation, the upper-left 3x3)")
    return T


def from_dh(
    rows: Sequence[Mapping[str, Any]],
    convention: str,
    *,
    gravity: ArrayLike = STANDARD_GRAVITY,
    payload: Mapping[str, Any] | None = None,
    tool: ArrayLike | None = None,
    name: str | None = None,
    source: str = "",
    strict: bool = False,
) -> Model:
    """Compile a DH table into a :class:`~eslabon.model.Model`.

    Parameters
    ----------
    rows : sequence of mappings
        One per joint: ``joint`` ("R" or "P"), the convention's DH values (angles in rad,
        lengths in m; theta, d, a, alpha for standard), ``mass`` [kg], ``com`` (3,) [m],
        ``inertia`` (3, 3) [kg·m²] about the COM in that DH frame, and optionally
        ``viscous``, ``coulomb``, ``armature``, ``name`` and ``com_slide`` (the COM moves
        by ``com_slide * q`` along a prismatic axis: seed 001's book model; 0 = rigid).
    convention : {"standard", "modified", "rojas"}
        Required, never guessed (module docstring: each one's transform).
    gravity : array_like (3,), optional
        Free-fall acceleration in the base frame, m/s².
    payload : mapping, optional
        ``{"mass": m, "inertia": (3, 3), "com": (3,)}`` rigidly attached at the last DH
        frame (COM and inertia in that frame), as seed 001's extra link N+1.
    tool : array_like (4, 4), optional
        Transform of the end effector ``ee`` in the last DH frame.
    name, source : str, optional
        The model's name and where its data come from.
    strict : bool, optional
        Refuse (instead of warning about) an inertia no rigid body can have.

    Returns
    -------
    Model
        One body per row (named ``link1`` … unless a row gives ``name``; a fixed body
        ``payload`` after them when given), the frames ``dh0`` … ``dhN`` and ``ee``, the
        table kept as ``model.dh``; named ``name`` or ``"dh-<n>dof"``.

    Raises
    ------
    ValueError
        An unknown convention, no rows, a row that is not a mapping, a missing or unknown
        key, a joint other than "R" or "P", a value that is not a finite number of the
        right shape, a negative mass or friction, an inertia that is not symmetric
        positive semi-definite, a ``tool`` that is not a homogeneous transform, a bad
        ``payload``: naming the row and field. With ``strict``, also an inertia no rigid
        body can have.

    Examples
    --------
    >>> import eslabon as es
    >>> arm = es.from_dh([{"joint": "R", "a": 1.0, "alpha": 0.0, "d": 0.0, "theta": 0.0,
    ...                    "mass": 1.0, "com": [-0.5, 0, 0], "inertia": [[0.01, 0, 0],
    ...                    [0, 0.1, 0], [0, 0, 0.1]]}], "standard")
    >>> arm.nq
    1
    """
    if convention not in DH_CONVENTIONS:
        raise ValueError(f"convention: expected one of {DH_CONVENTIONS}, got {convention!r}")
    if isinstance(rows, (str, bytes)) or not isinstance(rows, Sequence) or len(rows) == 0:
        raise ValueError("rows: expected a non-empty list of DH rows")
    parsed = [_row_values(row, i, convention) for i, row in enumerate(rows)]
    b = ModelBuilder()
    b.add_frame("dh0", 0)
    prev_rot, prev_pos = np.eye(3), np.zeros(3)  # previous body -> DH frame i-1
    for i, ((joint, dh), row) in enumerate(zip(parsed, rows, strict=True)):
        where = f"rows[{i}]"
        inert = _inertial(row, where)
        if convention == "modified":
            # {i-1}T_i = Rx(α) Tx(a) Rz(θ) Tz(d); body frame = DH frame i.
            Ra = rot_x(dh["alpha"])
            rot = Ra @ rot_z(dh["theta"])
            pos = np.array([dh["a"], 0.0, 0.0]) + Ra @ np.array([0.0, 0.0, dh["d"]])
            off_rot, off_pos = np.eye(3), np.zeros(3)
        else:
            # Body frame = DH frame i-1 · Rz(θ) Tz(d); DH frame i = body · Tx(a) Rx(α).
            rot = prev_rot @ rot_z(dh["theta"])
            pos = prev_pos + prev_rot @ np.array([0.0, 0.0, dh["d"]])
            off_rot, off_pos = rot_x(dh["alpha"]), np.array([dh["a"], 0.0, 0.0])
        body = b.add_body(
            i,
            joint,
            axis=(0.0, 0.0, 1.0),
            rotation=rot,
            translation=pos,
            mass=inert["mass"],
            com=off_pos + off_rot @ inert["com"],
            inertia=off_rot @ inert["inertia"] @ off_rot.T,
            viscous=inert["viscous"],
            coulomb=inert["coulomb"],
            armature=inert["armature"],
            com_slide=inert["com_slide"],
            name=row["name"] if "name" in row else f"link{i + 1}",
            where=where,
        )
        b.add_frame(f"dh{i + 1}", body, off_rot, off_pos)
        prev_rot, prev_pos = off_rot, off_pos
    n = len(rows)
    tool_T = np.eye(4) if tool is None else _transform(tool, "tool")
    ee_rot, ee_pos = prev_rot @ tool_T[:3, :3], prev_pos + prev_rot @ tool_T[:3, 3]
    b.add_frame("ee", n, ee_rot, ee_pos)
    if payload is not None:
        if not isinstance(payload, Mapping):
            raise ValueError(
                "payload: expected a mapping with 'mass', 'inertia' and optional 'com'"
            )
        unknown = sorted(set(payload) - {"mass", "inertia", "com"})
        if unknown:
            raise ValueError(f"payload: unknown key(s) {unknown}; expected mass, inertia, com")
        pay = _inertial(payload, "payload")
        b.add_body(
            n,
            "F",
            rotation=prev_rot,
            translation=prev_pos,
            mass=pay["mass"],
            com=pay["com"],
            inertia=pay["inertia"],
            name="payload",
            where="payload",
        )
    table = DHTable(convention, tuple(dict(r) for r in rows))
    return b.build(
        gravity=gravity, name=name or f"dh-{n}dof", dh=table, source=source, strict=strict
    )
