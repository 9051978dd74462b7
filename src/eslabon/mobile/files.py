"""Mobile-manipulator model files: YAML with a ``mobile`` section (docs/model-files.md).

```yaml
eslabon: 1
name: seekur_puma
mobile:
  platform:
    type: tricycle                  # tricycle | differential_drive
    assumed: seekur_jr              # optional: start from the documented assumed set
    params: {chassis_mass: 300}     # every parameter not assumed must be given
  arm: puma560_araujo               # a zoo name, or a model file relative to this one
  mount: {translation: [0.3, 0, 0.5], rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}
  mode: coupled                     # coupled | thesis
  thesis: {lateral_acceleration: false, platform_acceleration: false}
  gravity: 9.81
```
"""

from __future__ import annotations

from dataclasses import asdict, fields
from pathlib import Path

import numpy as np

from .._files import write_text_atomic
from .._yaml import dump_yaml
from ..model.files import load_model, save_model
from ..model.validate import as_float_array, as_int, check_rotation, short_repr
from .manipulator import MODES, MobileManipulator, Mount, ThesisOptions
from .platforms import DiffDriveParams, DifferentialDrive, Tricycle, TricycleParams

PLATFORMS = {
    "tricycle": (Tricycle, TricycleParams),
    "differential_drive": (DifferentialDrive, DiffDriveParams),
}
_KEYS = {"platform", "arm", "mount", "mode", "thesis", "gravity"}


def _mapping(x, where):
    if not isinstance(x, dict):
        raise ValueError(f"{where}: expected a mapping, got {short_repr(x)}")
    return x


def _params(params, params_cls, where):
    """Platform parameters from the file: numbers (no booleans or strings), and
    ``front_wheels`` an integer."""
    names = {f.name for f in fields(params_cls)}
    bad = sorted(set(params) - names)
    if bad:
        raise ValueError(f"{where}: unknown parameter(s) {bad}; expected {sorted(names)}")
    return {
        key: (
            as_int(value, f"{where}.{key}", "an integer (1 or 2)")
            if key == "front_wheels"
            else float(as_float_array(value, (), f"{where}.{key}"))
        )
        for key, value in params.items()
    }


def _platform(spec, where):
    spec = _mapping(spec, where)
    unknown = sorted(set(spec) - {"type", "assumed", "params"})
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {unknown}; expected type, assumed, params")
    kind = spec.get("type")
    if not isinstance(kind, str) or kind not in PLATFORMS:
        raise ValueError(
            f"{where}.type: expected one of {sorted(PLATFORMS)}, got {short_repr(kind)}"
        )
    cls, params_cls = PLATFORMS[kind]
    params = _params(
        _mapping(spec.get("params", {}), f"{where}.params"), params_cls, f"{where}.params"
    )
    assumed = spec.get("assumed")
    if assumed is not None and assumed != "seekur_jr":
        raise ValueError(
            f"{where}.assumed: expected seekur_jr or nothing, got {short_repr(assumed)}"
        )
    made = params_cls.seekur_jr_assumed(**params) if assumed else params_cls(**params)
    return cls(made)


def _arm(spec, path, where, strict):
    from .. import zoo

    if not isinstance(spec, str) or not spec:
        raise ValueError(
            f"{where}: expected a zoo name or a model file name, got {short_repr(spec)}"
        )
    if spec in zoo.names():
        return zoo.load(spec)
    target = (path.parent / spec) if not Path(spec).is_absolute() else Path(spec)
    if not target.is_file():
        raise ValueError(
            f"{where}: {spec!r} is neither a zoo model nor a model file (looked for {target})"
        )
    try:
        return load_model(target, strict=strict)
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None


def _flags(thesis, where):
    """The thesis options: each true or false (a string such as 'no' is not false)."""
    known = {f.name for f in fields(ThesisOptions)}
    bad = sorted(set(thesis) - known)
    if bad:
        raise ValueError(f"{where}: unknown flag(s) {bad}; expected {sorted(known)}")
    for key, value in thesis.items():
        if not isinstance(value, bool):
            raise ValueError(f"{where}.{key}: expected true or false, got {short_repr(value)}")
    return ThesisOptions(**thesis)


def mobile_from_mapping(
    data: dict, path: Path, name: str, *, strict: bool = False
) -> MobileManipulator:
    """A :class:`MobileManipulator` from a file's ``mobile`` section (``strict`` as in
    :func:`eslabon.load_model`, for an arm given as a file)."""
    where = f"{path}: mobile"
    data = _mapping(data, where)
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {unknown}; expected {sorted(_KEYS)}")
    for key in ("platform", "arm"):
        if key not in data:
            raise ValueError(f"{where}.{key}: missing")
    mount = _mapping(data.get("mount", {}), f"{where}.mount")
    bad = sorted(set(mount) - {"translation", "rotation"})
    if bad:
        raise ValueError(f"{where}.mount: unknown key(s) {bad}; expected translation, rotation")
    translation = as_float_array(
        mount.get("translation", (0.0, 0.0, 0.0)), (3,), f"{where}.mount.translation"
    )
    rotation = check_rotation(mount.get("rotation", np.eye(3)), f"{where}.mount.rotation")
    thesis = _flags(_mapping(data.get("thesis", {}), f"{where}.thesis"), f"{where}.thesis")
    mode = data.get("mode", "coupled")
    if not isinstance(mode, str) or mode not in MODES:
        raise ValueError(f"{where}.mode: expected one of {MODES}, got {short_repr(mode)}")
    gravity = float(
        as_float_array(data.get("gravity", 9.81), (), f"{where}.gravity", "a magnitude >= 0")
    )
    if gravity < 0.0:
        raise ValueError(
            f"{where}.gravity: expected a magnitude >= 0 (gravity pulls along "
            f"-z of the floor), got {gravity}"
        )
    return MobileManipulator(
        _platform(data["platform"], f"{where}.platform"),
        _arm(data["arm"], path, f"{where}.arm", strict),
        Mount(translation, rotation),
        mode,
        thesis,
        gravity,
        name,
    )


def mobile_to_mapping(mm: MobileManipulator, arm_file: str) -> dict:
    """The ``mobile`` section for ``mm`` (its arm saved separately as ``arm_file``)."""
    kind = {Tricycle: "tricycle", DifferentialDrive: "differential_drive"}[type(mm.platform)]
    return {
        "platform": {"type": kind, "params": asdict(mm.platform.params)},
        "arm": arm_file,
        "mount": {
            "translation": mm.mount.translation.tolist(),
            "rotation": mm.mount.rotation.tolist(),
        },
        "mode": mm.mode,
        "thesis": asdict(mm.thesis),
        "gravity": mm.gravity,
    }


def save_mobile(mm: MobileManipulator, path) -> Path:
    """Write ``path`` (.yaml) and the arm beside it (``<stem>_arm.yaml``)."""
    path = Path(path)
    if path.suffix.lower() not in (".yaml", ".yml"):
        raise ValueError(f"path: expected a .yaml file name, got {str(path)!r}")
    arm_path = path.with_name(f"{path.stem}_arm.yaml")
    save_model(mm.arm, arm_path)
    text = dump_yaml(
        {"eslabon": 1, "name": mm.name, "mobile": mobile_to_mapping(mm, arm_path.name)}
    )
    return write_text_atomic(path, text)
