"""Constraints on a model: loop closures between two frames and contacts of a frame with
the world (holonomic, each a set of rows in the first frame's axes), and rolling wheels
(velocity-level rows, not integrable: nonholonomic).

A constraint says that frame B stays fixed in frame A along some of A's axes: the
translation rows ``"x"``, ``"y"``, ``"z"`` hold B's origin on A's planes, the rotation
rows ``"rx"``, ``"ry"``, ``"rz"`` hold B's orientation about A's axes. A point joint
(3-D) is ``("x", "y", "z")``, a weld (6-D) all six, a revolute loop joint about A's z axis
the five others, a planar linkage's pin ``("x", "y")``. A :class:`Contact` is the same
with B a pose fixed in the world. Each row has a name, ``"<constraint>.<axis>"``, which
names its force λ (Featherstone, *Rigid Body Dynamics Algorithms* (2008), §8.1: loop
joints and their constraint forces).

A :class:`RollingWheel` is an upright wheel rolling on a horizontal ground (z up)
without slipping: the material point of the wheel at the contact has no velocity along
the wheel's heading (row ``"roll"``) nor, for a standard wheel, along its axle (row
``"skid"``); a wheel with free rollers at angle α (omnidirectional, mecanum) keeps only
the rolling row along e + tan α·a. These are Pfaffian rows A(q) q̇ = 0 with no position
residual φ (Neimark and Fufaev, *Dynamics of Nonholonomic Systems* (1972), ch. I: the
rolling disc).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

AXES = ("x", "y", "z", "rx", "ry", "rz")
PRESETS = {
    "point": ("x", "y", "z"),
    "weld": AXES,
    "revolute": ("x", "y", "z", "rx", "ry"),  # a hinge about frame A's z axis
    "planar_pin": ("x", "y"),  # a pin of a linkage in A's xy plane
}


def _axes(axes: Any, where: str) -> tuple:
    """The rows of ``axes`` (a preset name or a sequence of AXES), in AXES order."""
    if isinstance(axes, str):
        if axes not in PRESETS:
            raise ValueError(
                f"{where}.axes: expected one of the presets {tuple(PRESETS)} or a list of "
                f"{AXES}, got {axes!r}"
            )
        return PRESETS[axes]
    try:
        given = list(axes)
    except TypeError:
        raise ValueError(f"{where}.axes: expected a preset or a list of {AXES}") from None
    unknown = [a for a in given if a not in AXES]
    if unknown or not given or len(set(given)) != len(given):
        raise ValueError(
            f"{where}.axes: expected 1–6 distinct names of {AXES}, got {tuple(given)!r}"
        )
    rows = tuple(a for a in AXES if a in given)
    if sum(a.startswith("r") for a in rows) == 1:
        raise ValueError(
            f"{where}.axes: one rotation row alone is not a holonomic constraint (two free "
            "axes turn about the third); give two (a hinge about the third axis), three "
            f"or none, got {rows!r}"
        )
    return rows


@dataclass(frozen=True)
class LoopClosure:
    """Frame ``frame_b`` held fixed in ``frame_a`` along ``axes`` (both named frames
    of the model, or bodies; ``"world"`` is body 0).

    Parameters
    ----------
    name : str
        Names the constraint and its rows (``"<name>.x"`` …).
    frame_a, frame_b : str
        The two frames the loop closes between; rows are expressed in ``frame_a``'s
        axes, moments about its origin.
    axes : str or sequence of str
        A preset (``"point"``, ``"weld"``, ``"revolute"``, ``"planar_pin"``) or the
        rows among ``"x", "y", "z", "rx", "ry", "rz"``.
    """

    name: str
    frame_a: str
    frame_b: str
    axes: tuple | str = "point"


@dataclass(frozen=True)
class Contact:
    """A frame held at a fixed world pose along ``axes`` (bilateral): a foot on the
    ground, a tool on a fixture.

    Parameters
    ----------
    name : str
        Names the constraint and its rows.
    frame : str
        The robot's frame in contact.
    axes : str or sequence of str
        As :class:`LoopClosure` (rows in the contact pose's axes): ``"point"`` for a
        point foot, ``"weld"`` for a flat foot or a gripper on a fixture.
    position : array_like (3,)
        The contact point in the world [m].
    rotation : array_like (3, 3), optional
        The contact pose's axes in the world (columns); the identity by default.
    """

    name: str
    frame: str
    axes: tuple | str = "point"
    position: tuple = (0.0, 0.0, 0.0)
    rotation: object = None


@dataclass(frozen=True)
class RollingWheel:
    """An upright wheel rolling without slipping on a horizontal ground (z up): two
    velocity rows (``"roll"``: no slip along the heading e = a × z; ``"skid"``: none
    along the axle a), or one (``"roll"``, along e + tan α·a) for a wheel with free
    rollers at angle α.

    The wheel's frame has its origin at the wheel's centre; its spin axis must stay
    horizontal (a wheel on a planar base), else the rows are refused at that state. The
    contact point is ``radius`` below the centre; the ground's height is not checked
    (the rows bound velocities only).

    Parameters
    ----------
    name : str
        Names the constraint and its rows (``"<name>.roll"``, ``"<name>.skid"``).
    wheel : str
        The wheel's frame or body (origin at its centre).
    radius : float
        The wheel's radius [m], > 0; the contact point is ``radius`` below the centre.
    axis : array_like (3,)
        The spin axis in the wheel's frame (non-zero; made unit). Default +y.
    rollers : float, optional
        The rollers' angle α [rad] of an omnidirectional (0) or mecanum (±π/4) wheel,
        ``|α| < π/2``; None (default) for a standard wheel.
    """

    name: str
    wheel: str
    radius: float
    axis: tuple = (0.0, 1.0, 0.0)
    rollers: float | None = None


KINDS = (LoopClosure, Contact, RollingWheel)  # what a model's constraints may hold


@dataclass(frozen=True)
class Row:
    """One checked constraint, as the kinematics read it: frame A (a model frame, or the
    world pose ``pose_a`` when ``frame_a`` is None), frame B, and the row mask."""

    name: str
    frame_a: str | None
    pose_a: tuple | None  # (rotation (3, 3), position (3,)) of a contact's world pose
    frame_b: str
    axes: tuple
    rolling: tuple | None = None  # a RollingWheel's (radius, unit axis (3,), α or None)

    @property
    def mask(self) -> np.ndarray:
        return np.array([a in self.axes for a in AXES])


def checked_constraints(model: Any, constraints: Any, field: str = "constraints") -> tuple:
    """``constraints`` as a Model keeps them: a tuple of LoopClosure and Contact, each
    checked (:func:`checked`) with its axes as a tuple in AXES order and a contact's pose
    as plain numbers; empty for none."""
    if constraints is None or (isinstance(constraints, (list, tuple)) and not constraints):
        return ()
    rows = checked(model, constraints, field)
    items = [constraints] if isinstance(constraints, KINDS) else constraints
    out: list[LoopClosure | Contact | RollingWheel] = []
    for c, r in zip(items, rows, strict=True):
        if isinstance(c, LoopClosure):
            out.append(LoopClosure(c.name, c.frame_a, c.frame_b, r.axes))
        elif isinstance(c, RollingWheel):
            radius, axis, alpha = r.rolling
            out.append(RollingWheel(c.name, c.wheel, radius, tuple(axis.tolist()), alpha))
        else:
            R, p = r.pose_a
            rotation = None if c.rotation is None else tuple(map(tuple, R.tolist()))
            out.append(Contact(c.name, c.frame, r.axes, tuple(p.tolist()), rotation))
    return tuple(out)


class CheckedRows(tuple):
    """The :class:`Row` sets :func:`checked` made for one model object: given back as
    ``constraints`` with that same model, they are not checked again (a simulation
    checks its constraint set once, not at every stage)."""

    model: Any

    def __new__(cls, rows: Any, model: Any) -> CheckedRows:
        out = super().__new__(cls, rows)
        out.model = model
        return out


def checked(model: Any, constraints: Any, field: str = "constraints") -> tuple:
    """The :class:`Row` sets of ``constraints`` (a LoopClosure or Contact, or a sequence
    of them), each frame the model's, names distinct; else a ValueError naming it. None
    takes the model's own (:attr:`eslabon.Model.constraints`); the result of an earlier
    call for this same model object is returned as it is."""
    if isinstance(constraints, CheckedRows) and constraints.model is model:
        return constraints
    if constraints is None:
        constraints = model.constraints
        if not constraints:
            raise ValueError(
                "constraints: the model has none; give constraints=[LoopClosure(...), "
                "Contact(...)] or build the model with them"
            )
    if isinstance(constraints, KINDS):
        constraints = [constraints]
    try:
        items = list(constraints)
    except TypeError:
        raise ValueError(
            f"{field}: expected a list of LoopClosure or Contact, got {type(constraints).__name__}"
        ) from None
    if not items:
        raise ValueError(f"{field}: expected at least one LoopClosure or Contact")
    out, seen = [], set()
    for k, c in enumerate(items):
        where = f"{field}[{k}]"
        if not isinstance(c, KINDS):
            raise ValueError(f"{where}: expected a LoopClosure, Contact or RollingWheel, got {c!r}")
        if not isinstance(c.name, str) or not c.name or c.name in seen:
            raise ValueError(f"{where}.name: expected a new non-empty name, got {c.name!r}")
        seen.add(c.name)
        if isinstance(c, RollingWheel):
            out.append(_rolling_row(model, c, where))
            continue
        axes = _axes(c.axes, where)
        if isinstance(c, LoopClosure):
            for end in ("frame_a", "frame_b"):
                _frame(model, getattr(c, end), f"{where}.{end}")
            if c.frame_a == c.frame_b:
                raise ValueError(f"{where}: frame_a and frame_b are the same frame")
            out.append(Row(c.name, c.frame_a, None, c.frame_b, axes))
        else:
            _frame(model, c.frame, f"{where}.frame")
            try:
                p = np.asarray(c.position, dtype=float)
            except (TypeError, ValueError):
                p = np.full(1, np.nan)
            if p.shape != (3,) or not np.all(np.isfinite(p)):
                raise ValueError(f"{where}.position: expected 3 finite numbers, got {c.position}")
            try:
                R = np.eye(3) if c.rotation is None else np.asarray(c.rotation, dtype=float)
            except (TypeError, ValueError):
                R = np.full(1, np.nan)
            if R.shape != (3, 3) or not np.allclose(R.T @ R, np.eye(3), atol=1e-9):
                raise ValueError(f"{where}.rotation: expected a 3×3 rotation matrix")
            if not np.isclose(np.linalg.det(R), 1.0, atol=1e-9):
                raise ValueError(
                    f"{where}.rotation: expected a rotation (det +1), not a reflection"
                )
            out.append(Row(c.name, None, (R, p), c.frame, axes))
    return CheckedRows(out, model)


def _rolling_row(model: Any, c: RollingWheel, where: str) -> Row:
    """The Row of a RollingWheel, its numbers checked."""
    _frame(model, c.wheel, f"{where}.wheel")
    try:
        radius = float(c.radius)
    except (TypeError, ValueError):
        radius = float("nan")
    if not (np.isfinite(radius) and radius > 0):
        raise ValueError(f"{where}.radius: expected a positive number [m], got {c.radius!r}")
    try:
        axis = np.asarray(c.axis, dtype=float)
    except (TypeError, ValueError):
        axis = np.full(1, np.nan)
    if axis.shape != (3,) or not np.all(np.isfinite(axis)) or np.linalg.norm(axis) < 1e-12:
        raise ValueError(f"{where}.axis: expected 3 finite numbers, not all zero, got {c.axis}")
    alpha = c.rollers
    if alpha is not None:
        try:
            alpha = float(alpha)
        except (TypeError, ValueError):
            alpha = float("nan")
        if not (np.isfinite(alpha) and abs(alpha) < np.pi / 2 - 1e-6):
            raise ValueError(
                f"{where}.rollers: expected an angle in (−π/2, π/2) [rad] or None, got "
                f"{c.rollers!r}"
            )
    axes = ("roll",) if alpha is not None else ("roll", "skid")
    return Row(c.name, None, None, c.wheel, axes, (radius, axis / np.linalg.norm(axis), alpha))


def _frame(model: Any, name: Any, where: str) -> None:
    if not isinstance(name, str):
        raise ValueError(f"{where}: expected a frame's name, got {name!r}")
    try:
        model.frame(name)
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None


def forces_by_name(names: tuple, force: Any) -> dict:
    """{row name: λ of that row} (a number, or (N,) for a batch): what the results'
    ``forces()`` give."""
    return {name: force[..., k] for k, name in enumerate(names)}


def row_names(rows: Any) -> tuple:
    """``"<constraint>.<axis>"`` for every row, in order."""
    return tuple(f"{r.name}.{a}" for r in rows for a in r.axes)


_LOOP_KEYS = {"loop", "frame_a", "frame_b", "axes"}
_CONTACT_KEYS = {"contact", "frame", "axes", "position", "rotation"}
_WHEEL_KEYS = {"wheel", "frame", "radius", "axis", "rollers"}


def constraints_from_entries(entries: Any, field: str = "constraints") -> list:
    """The ``constraints:`` section of a model file: a list of ``{loop: NAME, frame_a,
    frame_b, axes}``, ``{contact: NAME, frame, axes, position, rotation}`` and ``{wheel:
    NAME, frame, radius, axis, rollers}`` mappings (``axes`` a preset or a list; a
    contact's ``position`` [m] and ``rotation`` (3×3) in the world; a wheel as
    :class:`RollingWheel`)."""
    if not isinstance(entries, list) or not entries:
        raise ValueError(f"{field}: expected a non-empty list of loop, contact and wheel entries")
    out: list[LoopClosure | Contact | RollingWheel] = []
    for k, e in enumerate(entries):
        where = f"{field}[{k}]"
        if not isinstance(e, dict) or sum(k in e for k in ("loop", "contact", "wheel")) != 1:
            raise ValueError(
                f"{where}: expected a mapping with one of 'loop: NAME' (frame_a, frame_b, "
                "axes), 'contact: NAME' (frame, axes, position, rotation) or 'wheel: NAME' "
                "(frame, radius, axis, rollers)"
            )
        keys = _LOOP_KEYS if "loop" in e else _CONTACT_KEYS if "contact" in e else _WHEEL_KEYS
        unknown = sorted(set(e) - keys)
        if unknown:
            raise ValueError(f"{where}: unknown key(s) {unknown}; expected {sorted(keys)}")
        axes = e.get("axes", "point")
        if "loop" in e:
            for key in ("frame_a", "frame_b"):
                if key not in e:
                    raise ValueError(f"{where}.{key}: missing")
            out.append(LoopClosure(e["loop"], e["frame_a"], e["frame_b"], axes))
        elif "wheel" in e:
            for key in ("frame", "radius"):
                if key not in e:
                    raise ValueError(f"{where}.{key}: missing")
            out.append(RollingWheel(e["wheel"], e["frame"], e["radius"],
                                    e.get("axis", (0.0, 1.0, 0.0)), e.get("rollers")))  # fmt: skip
        else:
            if "frame" not in e:
                raise ValueError(f"{where}.frame: missing")
            position = e.get("position", (0.0, 0.0, 0.0))
            out.append(Contact(e["contact"], e["frame"], axes, position, e.get("rotation")))
    return out


def constraints_to_entries(constraints: Any) -> list:
    """The model's constraints as :func:`constraints_from_entries` reads them."""
    out: list = []
    for c in constraints:
        if isinstance(c, LoopClosure):
            out.append({"loop": c.name, "frame_a": c.frame_a, "frame_b": c.frame_b,
                        "axes": list(c.axes)})  # fmt: skip
        elif isinstance(c, RollingWheel):
            wheel = {"wheel": c.name, "frame": c.wheel, "radius": c.radius, "axis": list(c.axis)}
            if c.rollers is not None:
                wheel["rollers"] = c.rollers
            out.append(wheel)
        else:
            entry = {"contact": c.name, "frame": c.frame, "axes": list(c.axes),
                     "position": list(c.position)}  # fmt: skip
            if c.rotation is not None:
                entry["rotation"] = [list(r) for r in c.rotation]
            out.append(entry)
    return out
