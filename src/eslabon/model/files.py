"""Model files: YAML (``eslabon: 1``) as a DH table or as a list of bodies, and URDF.
Full format in ``docs/model-files.md``.

A file may instead hold a ``mobile`` section (an arm on a wheeled platform): this module
checks the file around it but builds no mobile manipulator, so that :mod:`eslabon.model`
imports nothing above itself; :func:`eslabon.load_model` (:mod:`eslabon.loader`) reads
files of either kind.

```yaml
eslabon: 1
name: my-arm
convention: standard        # required: standard | modified | rojas
gravity: [0, 0, -9.81]
rows:
  - {joint: R, theta: 0, d: 0.4, a: 0, alpha: 0, mass: 10, com: [0, 0, -0.2],
     inertia: [[0.1, 0, 0], [0, 0.1, 0], [0, 0, 0.05]], viscous: 0.05}
payload: {mass: 3, inertia: [[0.05, 0, 0], [0, 0.05, 0], [0, 0, 0.05]]}
```
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .._yaml import check_plain_tree, read_yaml
from ..conventions import STANDARD_GRAVITY
from .builder import ModelBuilder
from .dh import from_dh
from .validate import as_float_array, check_name, short_repr

_COMMON_KEYS = {"eslabon", "name", "gravity", "source"}
_DH_TABLE_KEYS = {"convention", "rows", "payload", "tool", "units"}
_BODY_LIST_KEYS = {"bodies", "frames"}
_KEYS = _COMMON_KEYS | _DH_TABLE_KEYS | _BODY_LIST_KEYS | {"mobile", "constraints"}
_BODY_KEYS = {
    "name",
    "joint_name",
    "parent",
    "joint",
    "axis",
    "axis2",
    "pitch",
    "rotation",
    "translation",
    "mass",
    "com",
    "inertia",
    "viscous",
    "coulomb",
    "armature",
    "com_slide",
    "mimic",
}
_MIMIC_KEYS = {"body", "multiplier", "offset"}
_FRAME_KEYS = {"name", "body", "rotation", "translation"}
if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from .model import Model

PathLike = str | os.PathLike  # a file's path
#: builds the object of a file's ``mobile`` section: (section, path, name, strict=…)
ReadMobile = Callable[..., Any]

_ANGLE = {"rad": 1.0, "deg": np.pi / 180.0}
_LENGTH = {"m": 1.0, "mm": 1e-3}
_DH_LENGTHS = ("d", "a", "b")
_DH_ANGLES = ("theta", "alpha")


def load_arm_model(
    path: PathLike,
    *,
    gravity: ArrayLike | None = None,
    strict: bool = False,
    root_joint: str | None = None,
    ee: str | None = None,
) -> Model:
    """Load an arm model file: ``.yaml`` / ``.yml`` (a DH table or a body list), ``.urdf``
    or ``.xml`` (MJCF, through MuJoCo's compiler: :func:`~eslabon.model.mjcf.read_mjcf`).

    ``gravity`` overrides the file's (URDF has none: the physical default (0, 0, −9.81)
    applies, or the gravity :func:`to_urdf` wrote in its comment). ``strict`` refuses an
    inertia no rigid body can have (else a warning).
    ``root_joint`` ("free_flyer" or "planar", URDF only) hangs the URDF's root link from
    the world on that joint, and ``ee`` (URDF only) names the link that is the end
    effector (:func:`~eslabon.model.read_urdf`). A mobile-manipulator file (a ``mobile``
    section) is refused: :func:`eslabon.load_model`, the public loader, reads files of
    either kind through this one.

    Anything wrong in the file raises a ValueError that names the file and the field (or
    the element and its line); see docs/model-files.md for what is checked. The
    extension (in any case) chooses the reader: a YAML DH table goes through
    :func:`~eslabon.model.from_dh` (after converting its ``units`` to SI), a YAML body
    list and a URDF through :class:`~eslabon.model.ModelBuilder`.

    Parameters
    ----------
    path : str or path-like
        The model file: ``.yaml`` or ``.yml`` (``eslabon: 1``, a DH table or a body list),
        ``.urdf`` or ``.xml`` (MJCF; needs ``pip install 'eslabon[mjcf]'``).
    gravity : array_like (3,), optional
        Free-fall acceleration in world coordinates [m/s²], overriding the file's. By
        default a YAML file's ``gravity`` key, else (0, 0, −9.81); a URDF, which has none,
        gets the gravity eslabon's writer left in its comment (``<!-- written by eslabon;
        gravity [...] is not part of URDF -->``), else (0, 0, −9.81).
    strict : bool
        Refuse (ValueError) an inertia no rigid body can have (principal moments breaking
        the triangle inequality); by default an ``ImplausibleInertiaWarning`` names the
        body and the model loads.
    root_joint : {None, "free_flyer", "planar"}
        URDF only: hang the root link from the world on this joint, named
        ``"root_joint"`` (a floating or planar base, as Pinocchio's
        ``buildModel(urdf, root_joint)``); None keeps the root link as the fixed world.
        Refused for a YAML file, whose root body gives its joint itself.
    ee : str, optional
        URDF only: the link that is the end effector ``"ee"``. By default the URDF's tool
        frame, the first of ``tool0``, ``ee_link``, ``tool_frame``, ``end_effector``,
        ``tcp`` it has, else its last link (:func:`~eslabon.model.read_urdf`); a link
        named ``ee`` is the end effector itself. Refused for a YAML file, which names its
        frame ``ee`` itself (a DH table places it with ``tool``).

    Returns
    -------
    Model
        The arm. Its name is the file's ``name`` (default: the file name without its
        extension) or the URDF robot's name; its ``source`` the file's ``source`` (default:
        the path), or ``"URDF <path>"``.

    Raises
    ------
    ValueError
        A missing file; an extension other than ``.yaml``, ``.yml``, ``.urdf`` or ``.xml``;
        ``ee`` or ``root_joint`` given for a YAML or MJCF file, or a ``root_joint`` other than None,
        ``"free_flyer"`` and ``"planar"``; a file with a ``mobile`` section; anything
        wrong in the file, the message starting with the path and naming the field
        (``rows[0].mass: expected a number >= 0, …``) or the URDF element and its line;
        and, with ``strict``, an implausible inertia.

    Warns
    -----
    ImplausibleInertiaWarning
        Without ``strict``, for each body whose inertia no rigid body can have.

    Examples
    --------
    A one-body list (a vertical slider of 2 kg) written to a temporary folder, then read
    with the file's gravity and with another:

    >>> import tempfile
    >>> from pathlib import Path
    >>> import eslabon as es
    >>> from eslabon.model.files import load_arm_model as load_model
    >>> text = '''
    ... eslabon: 1
    ... name: slider
    ... gravity: [0, 0, -9.81]
    ... bodies:
    ...   - {name: cart, joint: P, axis: [0, 0, 1], mass: 2.0}
    ... '''
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "slider.yaml"
    ...     _ = path.write_text(text, encoding="utf-8")
    ...     model = load_model(path)
    ...     moon = load_model(path, gravity=[0, 0, -1.62])
    >>> model.name, model.body_names, model.nq
    ('slider', ('world', 'cart'), 1)
    >>> es.gravity_torques(model, [0.0]).round(4).tolist()
    [19.62]
    >>> es.gravity_torques(moon, [0.0]).round(4).tolist()
    [3.24]
    """
    return read_model_file(path, gravity=gravity, strict=strict, root_joint=root_joint, ee=ee)


def read_model_file(
    path: PathLike,
    *,
    gravity: ArrayLike | None = None,
    strict: bool = False,
    read_mobile: ReadMobile | None = None,
    root_joint: str | None = None,
    ee: str | None = None,
) -> Any:
    """Read a model file as :func:`load_arm_model` does, or hand its ``mobile`` section on.

    As :func:`load_arm_model`, with ``read_mobile(section, path, name, strict=strict)``
    building the object of a file's ``mobile`` section once the file around it is checked
    (:func:`eslabon.load_model` gives :func:`eslabon.mobile.files.mobile_from_mapping`);
    without it such a file is refused. Its errors are named after the file too.

    Beside a ``mobile`` section a file may hold only ``eslabon`` and ``name``; ``gravity``
    is refused for it (a mobile manipulator sets gravity in its ``mobile`` section).

    Parameters
    ----------
    path : str or path-like
        The model file (``.yaml``, ``.yml``, ``.urdf`` or ``.xml``).
    gravity : array_like (3,), optional
        Free-fall acceleration in world coordinates [m/s²], overriding the file's
        (:func:`load_arm_model`).
    strict : bool
        Refuse an implausible inertia instead of warning.
    read_mobile : callable, optional
        ``read_mobile(section, path, name, strict=strict)``: builds the object of a
        ``mobile`` section (the section's mapping, the file's ``pathlib.Path``, the file's
        ``name`` or its stem); its ValueErrors are prefixed with the path too.
    root_joint : {None, "free_flyer", "planar"}
        URDF only, as in :func:`load_arm_model`.
    ee : str, optional
        URDF only, as in :func:`load_arm_model`.

    Returns
    -------
    Model or object
        The arm :class:`Model`, or what ``read_mobile`` returns for a file with a
        ``mobile`` section.

    Raises
    ------
    ValueError
        As :func:`load_arm_model`, except that a file with a ``mobile`` section goes to
        ``read_mobile``: it is refused when ``read_mobile`` is None, when it has a key
        other than ``eslabon``, ``name`` and ``mobile``, or when ``gravity`` is given.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import eslabon as es
    >>> from eslabon.model.files import read_model_file
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "m.yaml"
    ...     _ = path.write_text("{eslabon: 1, mobile: {}}", encoding="utf-8")
    ...     read_model_file(path, read_mobile=lambda section, path, name, strict: name)
    'm'
    """
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"path: no such model file {str(path)!r}")
    suffix = path.suffix.lower()
    if suffix not in (".yaml", ".yml", ".urdf", ".xml"):
        raise ValueError(
            f"path: expected a .yaml, .yml, .urdf or .xml (MJCF) model file, got {str(path)!r}"
        )
    try:
        if suffix == ".xml":
            for key, value in (("ee", ee), ("root_joint", root_joint)):
                if value is not None:
                    raise ValueError(
                        f"{key}: applies to URDF files only (an MJCF names its sites and "
                        f"gives its root body's joint itself), got {short_repr(value)}"
                    )
            from .mjcf import from_mjcf

            return from_mjcf(path, gravity=gravity, strict=strict)
        if suffix == ".urdf":
            from .urdf import from_urdf

            return from_urdf(
                path,
                gravity=gravity,
                strict=strict,
                root_joint=root_joint,
                ee=ee,
            )
        if ee is not None:
            raise ValueError(
                "ee: applies to URDF files only (a YAML file names its frame 'ee' itself), "
                f"got {short_repr(ee)}"
            )
        if root_joint is not None:
            raise ValueError(
                "root_joint: applies to URDF files only (a YAML body list gives its root "
                f"body's joint itself, e.g. joint: free_flyer), got {short_repr(root_joint)}"
            )
        return _from_yaml(path, read_yaml(path), gravity, strict, read_mobile)
    except ValueError as exc:  # every message names the file it is about
        message = str(exc)
        if message.startswith(f"{path}:"):
            raise
        raise ValueError(f"{path}: {message}") from None


def _kind(value: object) -> str:
    if value is None:
        return "an empty file"
    return {
        list: "a list",
        str: "a string",
        bool: "a boolean",
        int: "a number",
        float: "a number",
    }.get(type(value), type(value).__name__)


def _from_yaml(
    path: Path,
    data: object,
    gravity: ArrayLike | None,
    strict: bool,
    read_mobile: ReadMobile | None,
) -> Any:
    if not isinstance(data, dict):
        raise ValueError(f"expected a mapping with the version key 'eslabon: 1', got {_kind(data)}")
    check_plain_tree(data)
    if "eslabon" not in data:
        raise ValueError("eslabon: missing; expected a mapping with the version key 'eslabon: 1'")
    version = data["eslabon"]
    if type(version) is not int or version != 1:
        raise ValueError(f"eslabon: expected the file format version 1, got {short_repr(version)}")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise ValueError(f"unknown key(s) {unknown}; expected {sorted(_KEYS)}")
    name = check_name(data["name"], "name") if "name" in data else path.stem
    if "mobile" in data:  # a platform carrying an arm (eslabon.mobile)
        extra = sorted(set(data) - {"eslabon", "name", "mobile"})
        if extra:
            raise ValueError(
                f"key(s) {extra} do not apply beside 'mobile' (gravity "
                "and the arm go inside the mobile section)"
            )
        if gravity is not None:
            raise ValueError(
                f"gravity: {path} is a mobile manipulator; set gravity in its mobile section"
            )
        if read_mobile is None:
            raise ValueError("is a mobile manipulator, not an arm model")
        return read_mobile(data["mobile"], path, name, strict=strict)
    gravity = data.get("gravity", STANDARD_GRAVITY) if gravity is None else gravity
    source = data.get("source", str(path))
    if not isinstance(source, str):
        raise ValueError(f"source: expected a string, got {short_repr(source)}")
    if "bodies" in data:
        extra = sorted(set(data) & _DH_TABLE_KEYS)
        if extra:
            raise ValueError(
                f"key(s) {extra} do not apply to a body list (they belong to "
                "DH tables; a body list is in SI units, its frames under "
                "'frames')"
            )
        return _with_constraints(_from_bodies(data, gravity, name, source, strict), data)
    if "frames" in data:
        raise ValueError(
            "frames: applies to body lists only (a DH table's frames are "
            "dh0..dhN and ee; place ee with 'tool')"
        )
    if "convention" not in data:
        raise ValueError("convention: missing (standard, modified or rojas)")
    rows, payload, tool = _to_si(data)
    model = from_dh(
        rows,
        data["convention"],
        gravity=gravity,
        payload=payload,
        tool=tool,
        name=name,
        source=source,
        strict=strict,
    )
    return _with_constraints(model, data)


def _with_constraints(model: Model, data: dict[str, Any]) -> Model:
    """The model with the file's ``constraints:`` section (closed loops, contacts)."""
    if "constraints" not in data:
        return model
    from .constraint_types import constraints_from_entries

    return model.replace(constraints=constraints_from_entries(data["constraints"]))


def _units(data: dict[str, Any]) -> tuple[float, float]:
    units = data.get("units", {})
    if not isinstance(units, dict) or set(units) - {"angle", "length"}:
        raise ValueError(
            f"units: expected {{angle: rad|deg, length: m|mm}}, got {short_repr(units)}"
        )
    angle, length = units.get("angle", "rad"), units.get("length", "m")
    if not isinstance(angle, str) or angle not in _ANGLE:
        raise ValueError(f"units.angle: expected rad or deg, got {short_repr(angle)}")
    if not isinstance(length, str) or length not in _LENGTH:
        raise ValueError(f"units.length: expected m or mm, got {short_repr(length)}")
    return _ANGLE[angle], _LENGTH[length]


def _scaled_inertial(entry: Mapping[str, Any], length: float, where: str) -> dict[str, Any]:
    """COM and inertia from the file's length unit to SI (untouched in metres: the
    front-end then checks them and names the field)."""
    out = dict(entry)
    if length == 1.0:
        return out
    for key, shape, power in (("com", (3,), 1), ("inertia", (3, 3), 2)):
        if key in out:
            out[key] = as_float_array(out[key], shape, f"{where}.{key}") * length**power
    return out


def _to_si(data: dict[str, Any]) -> tuple[list[Any], Any, Any]:
    """DH rows, payload and tool in SI from the file's units (the edge)."""
    angle, length = _units(data)
    if "rows" not in data:
        raise ValueError("rows: missing (a list of DH rows)")
    rows = data["rows"]
    if not isinstance(rows, list):
        raise ValueError(f"rows: expected a list of DH rows, got {short_repr(rows)}")
    out = []
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            out.append(row)  # from_dh names the bad row
            continue
        r = _scaled_inertial(row, length, f"rows[{i}]")
        for keys, factor in ((_DH_LENGTHS, length), (_DH_ANGLES, angle)):
            for key in keys:
                if key in r and factor != 1.0:
                    r[key] = float(as_float_array(r[key], (), f"rows[{i}].{key}")) * factor
        out.append(r)
    payload = data.get("payload")
    if isinstance(payload, dict):
        payload = _scaled_inertial(payload, length, "payload")
    tool = data.get("tool")
    if tool is not None and length != 1.0:
        tool = as_float_array(tool, (4, 4), "tool", "a 4x4 homogeneous transform").copy()
        tool[:3, 3] *= length
    return out, payload, tool


def _check_entry(entry: object, where: str, keys: set[str]) -> None:
    """An entry of a list in the file: a mapping with no key outside ``keys``."""
    if not isinstance(entry, dict):
        raise ValueError(f"{where}: expected a mapping, got {short_repr(entry)}")
    unknown = sorted(set(entry) - keys)
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {unknown}; expected {sorted(keys)}")


def _from_bodies(
    data: dict[str, Any], gravity: ArrayLike, name: str, source: str, strict: bool
) -> Model:
    b = ModelBuilder()
    bodies = data["bodies"]
    if not isinstance(bodies, list) or not bodies:
        raise ValueError(f"bodies: expected a non-empty list, got {short_repr(bodies)}")
    mimics = {}
    for i, body in enumerate(bodies):
        where = f"bodies[{i}]"
        _check_entry(body, where, _BODY_KEYS)
        b.add_body(
            body.get("parent", i),
            body.get("joint", "R"),
            **{k: body[k] for k in _BODY_KEYS - {"parent", "joint", "mimic"} if k in body},
            where=where,
        )
        if "mimic" in body:
            mimics[i + 1] = _mimic_entry(body["mimic"], f"{where}.mimic", len(bodies))
    frames = data.get("frames", [])
    if not isinstance(frames, list):
        raise ValueError(
            f"frames: expected a list of {{name, body, rotation, translation}}, "
            f"got {short_repr(frames)}"
        )
    for k, fr in enumerate(frames):
        where = f"frames[{k}]"
        _check_entry(fr, where, _FRAME_KEYS)
        for key in ("name", "body"):
            if key not in fr:
                raise ValueError(f"{where}.{key}: missing")
        b.add_frame(
            fr["name"],
            fr["body"],
            fr.get("rotation"),
            fr.get("translation", (0, 0, 0)),
            where=where,
        )
    model = b.build(gravity=gravity, name=name, source=source, strict=strict)
    return _with_mimics(model, mimics) if mimics else model


def _mimic_entry(entry: object, where: str, n: int) -> tuple[int, float, float]:
    """A body's ``mimic: {body, multiplier, offset}``: its joint's value is multiplier ·
    (the joint of body ``body``, 1..n) + offset (:mod:`eslabon.model.mimic`)."""
    _check_entry(entry, where, _MIMIC_KEYS)
    assert isinstance(entry, dict)  # _check_entry refuses anything else
    if "body" not in entry:
        raise ValueError(f"{where}.body: missing (the index of the body whose joint it copies)")
    k = entry["body"]
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= n:
        raise ValueError(f"{where}.body: expected a body index 1..{n}, got {short_repr(k)}")
    values = []
    for key, default in (("multiplier", 1.0), ("offset", 0.0)):
        x = entry.get(key, default)
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not np.isfinite(x):
            raise ValueError(f"{where}.{key}: expected a finite number, got {short_repr(x)}")
        values.append(float(x))
    return k, values[0], values[1]


def _with_mimics(model: Model, mimics: dict[int, tuple[int, float, float]]) -> Model:
    n = model.nb + 1
    joint, mult, off = np.full(n, -1, dtype=np.int64), np.ones(n), np.zeros(n)
    for i, (k, m, o) in mimics.items():
        joint[i], mult[i], off[i] = k, m, o
    try:
        return model.replace(mimic_joint=joint, mimic_multiplier=mult, mimic_offset=off)
    except ValueError as err:  # a loop, or a mimic of another joint type: both named
        # the model's array index i is the file's bodies[i − 1]
        text = re.sub(
            r"^mimic_(?:joint|multiplier|offset)\[(\d+)\]",
            lambda m: f"bodies[{int(m.group(1)) - 1}].mimic",
            str(err),
        )
        raise ValueError(text if text != str(err) else f"bodies: {err}") from None


def __getattr__(name: str) -> Any:
    if name == "save_model":  # written by eslabon.model.file_writer, importable here too
        from .file_writer import save_model

        return save_model
    if name == "load_model":  # the old name of load_arm_model in this module
        from .._deprecation import warn_renamed

        warn_renamed("eslabon.model.files.load_model", "eslabon.load_model (files of either kind)")
        return load_arm_model
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
