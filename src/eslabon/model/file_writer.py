"""Writing model files: :func:`save_model` (YAML as a DH table or a body list, or URDF).

The reading side, and the format, is :mod:`eslabon.model.files` (``docs/model-files.md``).
YAML holds a DH table only when that table rebuilds the model bit for bit, so a file written
here reads back to the same arrays.
"""

from __future__ import annotations

import dataclasses
import os
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .._files import write_text_atomic
from .._yaml import dump_yaml
from ..conventions import JOINT_TYPE_NAMES
from .dh import from_dh

if TYPE_CHECKING:
    from .model import Model

PathLike = str | os.PathLike  # a file's path

#: joint kinds a body list writes as one letter
_JOINT_LETTERS = {"revolute": "R", "prismatic": "P", "fixed": "F"}


def _plain(x: object) -> Any:
    """numpy values to plain Python floats and lists (PyYAML writes floats exactly)."""
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if isinstance(x, np.ndarray):
        return _plain(x.tolist())
    if isinstance(x, (np.floating, float)):
        return float(x)
    if isinstance(x, (np.integer,)):
        return int(x)
    return x


def save_model(model: Model, path: PathLike) -> Path:
    """Write ``model`` to a ``.yaml`` / ``.yml`` or ``.urdf`` model file.

    YAML gets its DH table when it was built from one, else its bodies and frames;
    :func:`load_arm_model` reads it back exactly from YAML, and from URDF up to rounding
    (below).

    YAML holds the DH table (with the payload and tool recovered from the model's bodies
    and frames) when that table rebuilds the model bit for bit and it has no mimic
    joint, else the body list with every frame (so a DH model changed after it was
    built, e.g. by :func:`~eslabon.model.variants.with_joint_friction`, keeps the
    change), and the name, source and gravity.
    Floats are written with all their digits, so :func:`load_arm_model` reads the same
    arrays back bit for bit (every zoo model). URDF (:func:`to_urdf`) keeps the bodies,
    joints and frames to about 1e-12 (rpy angles) but not the source; the gravity, which
    URDF has no place for, goes into a comment that :func:`load_arm_model` reads back (other
    readers take their own default). The file is written atomically (a complete file or
    none).

    Parameters
    ----------
    model : Model
        The model to write.
    path : str or path-like
        The file: ``.yaml``, ``.yml`` or ``.urdf`` (in any case), in a folder that exists;
        an existing file is replaced.

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    ValueError
        Another extension; a folder that does not exist, or a ``path`` that is a folder
        (nothing is written); for ``.urdf``, what :func:`to_urdf` refuses (a helical,
        universal or spherical joint, a sliding COM, a name XML cannot hold).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon import load_model
    >>> from eslabon.model import save_model
    >>> arm = es.zoo.load("planar2")
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = save_model(arm, Path(folder) / "planar2.yaml")
    ...     back = load_model(path)
    ...     urdf = load_model(save_model(arm, Path(folder) / "planar2.urdf"))
    >>> path.name, back.name, np.array_equal(back.inertia, arm.inertia)
    ('planar2.yaml', 'planar2', True)
    >>> arm.gravity.tolist(), urdf.gravity.tolist()
    ([0.0, -9.81, 0.0], [0.0, -9.81, 0.0])
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".urdf":
        from .urdf import to_urdf

        to_urdf(model, path)
        return path
    if suffix not in (".yaml", ".yml"):
        raise ValueError(f"path: expected a .yaml, .yml or .urdf file name, got {str(path)!r}")
    data = {"eslabon": 1, "name": model.name, "source": model.source, "gravity": model.gravity}
    table = _dh_form(model) if model.dh is not None and not model.has_mimic else None
    if table is not None:
        data.update(table)
    else:
        data["bodies"] = [_body_entry(model, i) for i in range(1, model.nb + 1)]
        data["frames"] = [
            {"name": f.name, "body": f.body, "rotation": f.rotation, "translation": f.translation}
            for f in model.frames
        ]
    if model.constraints:
        from .constraint_types import constraints_to_entries

        data["constraints"] = constraints_to_entries(model.constraints)
    return write_text_atomic(path, dump_yaml(_plain(data)))


def _body_entry(model: Model, i: int) -> dict[str, Any]:
    """Body ``i`` as an entry of a body list: its joint as R, P or F (revolute, prismatic,
    fixed) or the joint type's name, with the ``axis2`` of a universal joint and the
    ``pitch`` of a helical one."""
    kind = JOINT_TYPE_NAMES[int(model.joint_type[i])]
    entry: dict[str, Any] = {
        "name": model.body_names[i],
        "joint_name": model.joint_names[i],
        "parent": int(model.parent[i]),
        "joint": _JOINT_LETTERS.get(kind, kind),
        "axis": model.axis[i],
    }
    if kind == "universal":
        entry["axis2"] = model.axis2[i]
    if kind == "helical":
        entry["pitch"] = model.pitch[i]
    if model.has_mimic and model.mimic_joint[i] >= 0:
        entry["mimic"] = {
            "body": int(model.mimic_joint[i]),
            "multiplier": model.mimic_multiplier[i],
            "offset": model.mimic_offset[i],
        }
    entry.update(
        rotation=model.tree_rotation[i],
        translation=model.tree_translation[i],
        mass=model.mass[i],
        com=model.com[i],
        inertia=model.inertia[i],
        viscous=model.viscous[i],
        coulomb=model.coulomb[i],
        armature=model.armature[i],
        com_slide=model.com_slide[i],
    )
    return entry


def _dh_extras(model: Model) -> dict[str, Any]:
    """The payload and tool of a DH model, recovered from its bodies and frames."""
    assert model.dh is not None  # called for DH models only
    n = len(model.dh.rows)
    out: dict[str, Any] = {}
    if model.nb > n:
        out["payload"] = {
            "mass": model.mass[n + 1],
            "com": model.com[n + 1],
            "inertia": model.inertia[n + 1],
        }
    dh_n, ee = model.frame(f"dh{n}"), model.frame("ee")
    tool = np.eye(4)
    tool[:3, :3] = dh_n.rotation.T @ ee.rotation
    tool[:3, 3] = dh_n.rotation.T @ (ee.translation - dh_n.translation)
    if not np.allclose(tool, np.eye(4), atol=0.0):
        out["tool"] = tool
    return out


def _dh_form(model: Model) -> dict[str, Any] | None:
    """The DH table, payload and tool of the file, or None when they would not rebuild
    ``model`` bit for bit: a model changed after it was built from its table
    (:meth:`Model.replace`, :func:`~eslabon.model.variants.with_joint_friction`, a
    payload merged into the last link, another name of a body) keeps the table for
    display only, and is written as a body list instead."""
    assert model.dh is not None  # called for DH models only
    n = len(model.dh.rows)
    if not (model.nb in (n, n + 1) and all(model.q_index[i] >= 0 for i in range(1, n + 1))):
        return None
    table: dict[str, Any] = {
        "convention": model.dh.convention,
        "rows": [dict(r) for r in model.dh.rows],
    }
    table.update(_dh_extras(model))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (the model was warned of when it was built)
            rebuilt = from_dh(
                [dict(r) for r in table["rows"]],
                table["convention"],
                gravity=model.gravity,
                payload=table.get("payload"),
                tool=table.get("tool"),
                name=model.name,
                source=model.source,
            )
    except ValueError:
        return None
    return table if _same_model(rebuilt, model) else None


def _same_model(a: Model, b: Model) -> bool:
    """Every field of the two models equal to the last bit (frames included; the
    constraints are written beside the DH table or body list, not compared)."""
    for f in dataclasses.fields(a):
        if not f.init or f.name in ("dh", "source", "name", "constraints"):
            continue
        x, y = getattr(a, f.name), getattr(b, f.name)
        if f.name == "frames":
            if len(x) != len(y) or any(
                u.name != v.name
                or u.body != v.body
                or np.asarray(u.rotation).tobytes() != np.asarray(v.rotation).tobytes()
                or np.asarray(u.translation).tobytes() != np.asarray(v.translation).tobytes()
                for u, v in zip(x, y, strict=True)
            ):
                return False
        elif isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            x, y = np.asarray(x), np.asarray(y)
            if x.shape != y.shape or x.tobytes() != y.tobytes():
                return False
        elif x != y:
            return False
    return True
