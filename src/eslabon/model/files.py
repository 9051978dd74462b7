"""Model files: YAML (``eslabon: 1``) as a DH table or as a list of bodies, and URDF.
Full format in ``docs/model-files.md``.

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

from pathlib import Path

import numpy as np
import yaml

from .._files import write_text_atomic
from ..conventions import STANDARD_GRAVITY
from .builder import ModelBuilder
from .dh import from_dh

_KEYS = {"eslabon", "name", "convention", "gravity", "rows", "payload", "tool", "source",
         "units", "bodies", "frames", "mobile"}
_ANGLE = {"rad": 1.0, "deg": np.pi / 180.0}
_LENGTH = {"m": 1.0, "mm": 1e-3}
_DH_LENGTHS = ("d", "a", "b")
_DH_ANGLES = ("theta", "alpha")


def load_model(path, *, gravity=None, strict: bool = False):
    """Load a model file: ``.yaml`` / ``.yml`` (a DH table, a body list, or a ``mobile``
    section, which gives an :class:`eslabon.mobile.MobileManipulator`) or ``.urdf``.
    ``gravity`` overrides the file's (URDF has none: the physical default (0, 0, −9.81)
    applies). ``strict`` refuses an inertia no rigid body can have (else a warning)."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"path: no such model file {str(path)!r}")
    if path.suffix.lower() == ".urdf":
        from .urdf import from_urdf
        return from_urdf(path, gravity=STANDARD_GRAVITY if gravity is None else gravity,
                         strict=strict)
    if path.suffix.lower() not in (".yaml", ".yml"):
        raise ValueError(f"path: expected a .yaml, .yml or .urdf model file, got {str(path)!r}")
    try:
        data = yaml.safe_load(path.read_text())
    except yaml.YAMLError as exc:
        raise ValueError(f"{path}: not valid YAML ({str(exc).splitlines()[0]})") from None
    if not isinstance(data, dict) or data.get("eslabon") != 1:
        raise ValueError(f"{path}: expected a mapping with the version key 'eslabon: 1'")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise ValueError(f"{path}: unknown key(s) {unknown}; expected {sorted(_KEYS)}")
    name = data.get("name") or path.stem
    if "mobile" in data:            # a platform carrying an arm (eslabon.mobile)
        extra = sorted(set(data) - {"eslabon", "name", "mobile"})
        if extra:
            raise ValueError(f"{path}: key(s) {extra} do not apply beside 'mobile' (gravity "
                             "and the arm go inside the mobile section)")
        if gravity is not None:
            raise ValueError(f"gravity: {path} is a mobile manipulator; set gravity in its "
                             "mobile section")
        from ..mobile.files import mobile_from_mapping
        return mobile_from_mapping(data["mobile"], path, name, strict=strict)
    gravity = data.get("gravity", STANDARD_GRAVITY) if gravity is None else gravity
    source = data.get("source", str(path))
    if "bodies" in data:
        return _from_bodies(data, gravity, name, source, path, strict)
    if "convention" not in data:
        raise ValueError(f"{path}: convention: missing (standard, modified or rojas)")
    rows, payload, tool = _to_si(data, path)
    return from_dh(rows, data["convention"], gravity=gravity, payload=payload, tool=tool,
                   name=name, source=source, strict=strict)


def _units(data, path):
    units = data.get("units") or {}
    if not isinstance(units, dict) or set(units) - {"angle", "length"}:
        raise ValueError(f"{path}: units: expected {{angle: rad|deg, length: m|mm}}, got {units!r}")
    angle, length = units.get("angle", "rad"), units.get("length", "m")
    if angle not in _ANGLE:
        raise ValueError(f"{path}: units.angle: expected rad or deg, got {angle!r}")
    if length not in _LENGTH:
        raise ValueError(f"{path}: units.length: expected m or mm, got {length!r}")
    return _ANGLE[angle], _LENGTH[length]


def _scaled_inertial(entry, length, where):
    """COM and inertia from the file's length unit to SI (untouched in metres: the
    front-end then checks them and names the field)."""
    out = dict(entry)
    if length == 1.0:
        return out
    for key, power in (("com", 1), ("inertia", 2)):
        if key in out:
            try:
                out[key] = np.asarray(out[key], dtype=float) * length ** power
            except (TypeError, ValueError):
                raise ValueError(f"{where}.{key}: expected numbers, got {out[key]!r}") from None
    return out


def _to_si(data, path):
    """DH rows, payload and tool in SI from the file's units (the edge)."""
    angle, length = _units(data, path)
    rows = data.get("rows")
    if not isinstance(rows, list):
        raise ValueError(f"{path}: rows: expected a list of DH rows")
    out = []
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            out.append(row)                  # from_dh names the bad row
            continue
        r = _scaled_inertial(row, length, f"rows[{i}]")
        for keys, factor in ((_DH_LENGTHS, length), (_DH_ANGLES, angle)):
            for key in keys:
                if key in r and factor != 1.0:
                    try:
                        r[key] = float(r[key]) * factor
                    except (TypeError, ValueError):
                        raise ValueError(f"rows[{i}].{key}: expected a number, "
                                         f"got {r[key]!r}") from None
        out.append(r)
    payload = data.get("payload")
    if isinstance(payload, dict):
        payload = _scaled_inertial(payload, length, "payload")
    tool = data.get("tool")
    if tool is not None and length != 1.0:
        try:
            tool = np.array(tool, dtype=float)
        except (TypeError, ValueError):
            raise ValueError(f"tool: expected a 4x4 transform, got {tool!r}") from None
        if tool.shape == (4, 4):
            tool[:3, 3] *= length
    return out, payload, tool


def _from_bodies(data, gravity, name, source, path, strict):
    b = ModelBuilder()
    bodies = data["bodies"]
    if not isinstance(bodies, list) or not bodies:
        raise ValueError(f"{path}: bodies: expected a non-empty list")
    for i, body in enumerate(bodies, start=1):
        if not isinstance(body, dict):
            raise ValueError(f"{path}: bodies[{i - 1}]: expected a mapping")
        keys = {"name", "parent", "joint", "axis", "rotation", "translation", "mass", "com",
                "inertia", "viscous", "coulomb", "armature", "com_slide"}
        unknown = sorted(set(body) - keys)
        if unknown:
            raise ValueError(f"{path}: bodies[{i - 1}]: unknown key(s) {unknown}")
        b.add_body(body.get("parent", i - 1), body.get("joint", "R"),
                   **{k: body[k] for k in keys - {"parent", "joint"} if k in body},
                   where=f"{path}: bodies[{i - 1}]")
    for fr in data.get("frames") or []:
        b.add_frame(fr["name"], fr["body"], fr.get("rotation"), fr.get("translation", (0, 0, 0)))
    return b.build(gravity=gravity, name=name, source=source, strict=strict)


def _plain(x):
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


def save_model(model, path) -> Path:
    """Write ``model`` to ``.yaml`` / ``.yml`` (its DH table when it was built from one,
    else its bodies and frames) or ``.urdf``; :func:`load_model` reads it back exactly."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".urdf":
        from .urdf import to_urdf
        to_urdf(model, path)
        return path
    if suffix not in (".yaml", ".yml"):
        raise ValueError(f"path: expected a .yaml, .yml or .urdf file name, got {str(path)!r}")
    data = {"eslabon": 1, "name": model.name, "source": model.source,
            "gravity": model.gravity}
    if model.dh is not None and _dh_reproduces(model):
        data.update(convention=model.dh.convention, rows=[dict(r) for r in model.dh.rows])
        data.update(_dh_extras(model))
    else:
        data["bodies"] = [{"name": model.body_names[i], "parent": int(model.parent[i]),
                           "joint": "FRP"[int(model.joint_type[i])], "axis": model.axis[i],
                           "rotation": model.tree_rotation[i],
                           "translation": model.tree_translation[i], "mass": model.mass[i],
                           "com": model.com[i], "inertia": model.inertia[i],
                           "viscous": model.viscous[i], "coulomb": model.coulomb[i],
                           "armature": model.armature[i], "com_slide": model.com_slide[i]}
                          for i in range(1, model.nb + 1)]
        data["frames"] = [{"name": f.name, "body": f.body, "rotation": f.rotation,
                           "translation": f.translation} for f in model.frames]
    return write_text_atomic(path, yaml.safe_dump(_plain(data), sort_keys=False))


def _dh_extras(model):
    """The payload and tool of a DH model, recovered from its bodies and frames."""
    n = len(model.dh.rows)
    out = {}
    if model.nb > n:
        out["payload"] = {"mass": model.mass[n + 1], "com": model.com[n + 1],
                          "inertia": model.inertia[n + 1]}
    dh_n, ee = model.frame(f"dh{n}"), model.frame("ee")
    tool = np.eye(4)
    tool[:3, :3] = dh_n.rotation.T @ ee.rotation
    tool[:3, 3] = dh_n.rotation.T @ (ee.translation - dh_n.translation)
    if not np.allclose(tool, np.eye(4), atol=0.0):
        out["tool"] = tool
    return out


def _dh_reproduces(model) -> bool:
    """True when the model is exactly its DH table (plus payload and tool)."""
    n = len(model.dh.rows)
    return model.nb in (n, n + 1) and all(model.q_index[i] >= 0 for i in range(1, n + 1))