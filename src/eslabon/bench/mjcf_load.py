"""The MJCF load row of ``eslabon bench`` (section e): ``eslabon.load_model`` of a humanoid's
MJCF against MuJoCo's own compile of the same file, ``mujoco.MjModel.from_xml_path``.

eslabon's reader runs MuJoCo's compiler first, then builds and checks its own model, so
the ratio is at least 1; the figure is reported, with no target. The humanoid is
gymnasium's ``humanoid.xml`` (installed with the ``test`` and ``bench`` extras)."""

from __future__ import annotations

import warnings
from pathlib import Path

from ._core import log, pair, row, time_stmts


def humanoid_xml() -> Path | None:
    """gymnasium's humanoid MJCF, or None when gymnasium is not installed."""
    import importlib.util

    spec = importlib.util.find_spec("gymnasium")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "envs/mujoco/assets/humanoid.xml"
    return path if path.is_file() else None


def mjcf_load_row(s) -> dict:
    """One row: ms per load of the humanoid, ours against MuJoCo's compile (the MuJoCo
    column), no target."""
    figure = "MJCF load, gymnasium humanoid (ms)"
    try:
        import mujoco
    except ImportError:
        return row(figure, unit="ms", note="mujoco is not installed (bench extra)", no_pin=True)
    path = humanoid_xml()
    if path is None:
        return row(figure, unit="ms", note="gymnasium is not installed (bench extra)", no_pin=True)
    import eslabon as es

    glb = {"es": es, "mujoco": mujoco, "path": str(path), "warnings": warnings}
    ours = (
        "with warnings.catch_warnings():\n"
        "    warnings.simplefilter('ignore')\n"
        "    es.load_model(path)"
    )
    exec(ours, glb)  # the reader's imports, before timing
    log(f"timing {figure}")
    res = time_stmts({"ours": ours, "mujoco": "mujoco.MjModel.from_xml_path(path)"}, glb, s)
    p = pair(res, scale=1e3)
    return row(
        figure,
        p["ours"],
        unit="ms",
        mujoco=p.get("mujoco"),
        target="(report)",
        no_pin=True,
        note="MuJoCo column: mujoco.MjModel.from_xml_path of the same file",
    )
