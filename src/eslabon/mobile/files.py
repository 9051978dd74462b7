"""Mobile-manipulator model files: YAML with a ``mobile`` section (docs/model-files.md).

```yaml
eslabon: 1
name: seekur_puma
mobile:
  platform:
    type: tricycle                  # tricycle | differential_drive | omnidirectional
                                    # | synchronous_drive
    assumed: seekur_jr              # optional: start from a documented assumed set
                                    # (ASSUMED below lists them per platform)
    params: {chassis_mass: 300}     # every parameter not assumed must be given
  arm: puma560_araujo               # a zoo name, or a model file relative to this one
  mount: {translation: [0.3, 0, 0.5], rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}
  mode: coupled                     # coupled | thesis
  thesis: {lateral_acceleration: false, platform_acceleration: false, constants: martinenko}
  gravity: 9.81
  ground: {angle: 0.14, downhill: 0.0}   # optional: a slope [rad] (mobile.Slope)
```
"""

from __future__ import annotations

from dataclasses import asdict, fields
from pathlib import Path

import numpy as np

from .._files import write_text_atomic
from .._yaml import dump_yaml
from ..model.file_writer import save_model
from ..model.files import load_arm_model
from ..model.validate import as_float_array, as_int, check_rotation, short_repr
from .differential import DiffDriveParams, DifferentialDrive
from .manipulator import MODES, MobileManipulator, Mount
from .omnidirectional import Omnidirectional, OmniParams
from .one_way_coupling import THESIS_CONSTANTS, ThesisOptions
from .platforms import Tricycle, TricycleParams
from .synchronous import SyncDriveParams, SynchronousDrive
from .terrain import Slope

PLATFORMS = {
    "tricycle": (Tricycle, TricycleParams),
    "differential_drive": (DifferentialDrive, DiffDriveParams),
    "omnidirectional": (Omnidirectional, OmniParams),
    "synchronous_drive": (SynchronousDrive, SyncDriveParams),
}
#: the documented assumed parameter sets a file may start from, per platform type
ASSUMED = {
    "tricycle": {"seekur_jr": "seekur_jr_assumed"},
    "differential_drive": {"seekur_jr": "seekur_jr_assumed"},
    "omnidirectional": {"mecanum": "mecanum_assumed", "three_wheel": "three_wheel_assumed"},
    "synchronous_drive": {"three_wheel": "three_wheel_assumed"},
}
#: integer parameters (the rest are numbers, and an omnidirectional platform's wheel rows)
_INTEGERS = {"front_wheels": "an integer (1 or 2)", "wheels": "an integer >= 2"}
_KEYS = {"platform", "arm", "mount", "mode", "thesis", "gravity", "ground"}


def _mapping(x, where):
    if not isinstance(x, dict):
        raise ValueError(f"{where}: expected a mapping, got {short_repr(x)}")
    return x


def _params(params, params_cls, where):
    """Platform parameters from the file: numbers (no booleans or strings), the wheel
    counts integers, an omnidirectional platform's ``wheels`` rows of four numbers."""
    names = {f.name for f in fields(params_cls)}
    bad = sorted(set(params) - names)
    if bad:
        raise ValueError(f"{where}: unknown parameter(s) {bad}; expected {sorted(names)}")
    out = {}
    for key, value in params.items():
        if params_cls is OmniParams and key == "wheels":
            out[key] = _wheel_rows(value, f"{where}.{key}")
        elif key in _INTEGERS:
            out[key] = as_int(value, f"{where}.{key}", _INTEGERS[key])
        else:
            out[key] = float(as_float_array(value, (), f"{where}.{key}"))
    return out


def _wheel_rows(value, where):
    want = "a list of rows [x, y, heading, roller_angle]"
    try:
        shape = np.shape(value) if isinstance(value, list) else ()
    except ValueError:  # ragged rows
        shape = ()
    if len(shape) != 2 or shape[1] != 4:
        raise ValueError(f"{where}: expected {want}, got {short_repr(value)}")
    return as_float_array(value, shape, where, want)


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
    sets = ASSUMED[kind]
    if assumed is not None and (not isinstance(assumed, str) or assumed not in sets):
        raise ValueError(
            f"{where}.assumed: expected {' or '.join(sets)} or nothing, got {short_repr(assumed)}"
        )
    try:
        made = getattr(params_cls, sets[assumed])(**params) if assumed else params_cls(**params)
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None
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
        return load_arm_model(target, strict=strict)
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None


def _flags(thesis, where):
    """The thesis options: each flag true or false (a string such as 'no' is not false),
    ``constants`` one of :data:`THESIS_CONSTANTS`."""
    known = {f.name for f in fields(ThesisOptions)}
    bad = sorted(set(thesis) - known)
    if bad:
        raise ValueError(f"{where}: unknown flag(s) {bad}; expected {sorted(known)}")
    for key, value in thesis.items():
        if key == "constants":
            if not isinstance(value, str) or value not in THESIS_CONSTANTS:
                raise ValueError(
                    f"{where}.{key}: expected one of {THESIS_CONSTANTS}, got {short_repr(value)}"
                )
        elif not isinstance(value, bool):
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
    ground = None
    if "ground" in data:
        spec = _mapping(data["ground"], f"{where}.ground")
        bad = sorted(set(spec) - {"angle", "downhill"})
        if bad:
            raise ValueError(f"{where}.ground: unknown key(s) {bad}; expected angle, downhill")
        ground = Slope(
            *(
                float(as_float_array(spec.get(k, 0.0), (), f"{where}.ground.{k}", "radians"))
                for k in ("angle", "downhill")
            )
        )
    return MobileManipulator(
        _platform(data["platform"], f"{where}.platform"),
        _arm(data["arm"], path, f"{where}.arm", strict),
        Mount(translation, rotation),
        mode,
        thesis,
        gravity,
        name,
        ground,
    )


def mobile_to_mapping(mm: MobileManipulator, arm_file: str) -> dict:
    """The ``mobile`` section for ``mm`` (its arm saved separately as ``arm_file``)."""
    kind = mm.platform.kind
    params = asdict(mm.platform.params)
    if isinstance(params.get("wheels"), tuple):  # an omnidirectional platform's rows
        params["wheels"] = [list(row) for row in params["wheels"]]
    return {
        "platform": {"type": kind, "params": params},
        "arm": arm_file,
        "mount": {
            "translation": mm.mount.translation.tolist(),
            "rotation": mm.mount.rotation.tolist(),
        },
        "mode": mm.mode,
        "thesis": asdict(mm.thesis),
        "gravity": mm.gravity,
    } | ({} if mm.ground is None else {"ground": asdict(mm.ground)})


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
