"""Model files: a YAML DH table (``eslabon: 1``). Full format in ``docs/model-files.md``.

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

import yaml

from ..conventions import STANDARD_GRAVITY
from .dh import from_dh

_KEYS = {"eslabon", "name", "convention", "gravity", "rows", "payload", "tool", "source"}


def load_model(path, *, gravity=None):
    """Load a model file: ``.yaml`` / ``.yml`` (a DH table) or ``.urdf``. ``gravity``
    overrides the file's (URDF has none: the physical default (0, 0, −9.81) applies)."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"path: no such model file {str(path)!r}")
    if path.suffix.lower() == ".urdf":
        from .urdf import from_urdf
        return from_urdf(path, gravity=STANDARD_GRAVITY if gravity is None else gravity)
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
    if "convention" not in data:
        raise ValueError(f"{path}: convention: missing (standard, modified or rojas)")
    return from_dh(data.get("rows"), data["convention"],
                   gravity=data.get("gravity", STANDARD_GRAVITY) if gravity is None else gravity,
                   payload=data.get("payload"),
                   tool=data.get("tool"), name=data.get("name") or path.stem,
                   source=data.get("source", str(path)))
