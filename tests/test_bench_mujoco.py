"""MuJoCo in the speed benchmark (``eslabon bench``): its columns, checks and rollouts.

No timing is asserted, ever: only that the MuJoCo figures are there (or "—" with a note
when MuJoCo is missing), that the twin agrees with eslabon before it is timed, and that
a twin which does not agree fails its check.
"""

from __future__ import annotations

import json
import math
import sys

import pytest

from eslabon import bench
from eslabon.bench import mujoco_twin
from eslabon.bench._core import row, settings
from eslabon.bench.report import MUJOCO_COLUMNS, cells, columns

MJ_HEADER = "| figure | ours | pin | ratio | mujoco | ratio to mujoco | target | met |"
TINY_ROLLOUT = {"rollout_arms": 6, "rollout_seconds": 0.02}


def _run(sections=("per_call", "rollout"), **kw):
    return bench.run(
        quick=True, robots=("planar2",), sections=sections, overrides=TINY_ROLLOUT, **kw
    )


def _positive(x):
    return isinstance(x, float) and math.isfinite(x) and x > 0


def test_mujoco_columns_checks_and_rollouts():
    pytest.importorskip("mujoco")
    results = _run()
    assert results["ok"], [s.get("error") for s in results["sections"].values()]
    assert results["meta"]["mujoco"]
    per_call, roll = results["sections"]["per_call"], results["sections"]["rollout"]
    for op in ("ID", "M", "FD"):
        r = next(r for r in per_call["rows"] if r["figure"] == f"planar2 (2) {op}")
        assert _positive(r["mujoco"]) and _positive(r["ratio_mujoco"]), r
        assert r["stmt_mujoco"].startswith("mj_")
    mj_checks = [c for c in per_call["checks"] if c["against"] == "mujoco"]
    assert len(mj_checks) == 3 and all(c["ok"] and c["tol"] == 1e-9 for c in mj_checks)
    # the rollout section: Puma 560 and Panda, RK4 and semi-implicit Euler; a Solo 12 RK4
    names = [r["figure"].split(" (")[0] for r in roll["rows"]]
    assert names == ["puma560"] * 2 + ["panda"] * 2 + ["solo12"]
    # the four arm rows; Solo 12's, the last, is checked below
    for r, bound in zip(roll["rows"], (0.3, 1.0, 0.3, 1.0), strict=False):
        assert r["target"] == f"≤ {bound}×mujoco" and r["arms"] == 6 and r["seconds"] == 0.02
        assert _positive(r["ours"]) and _positive(r["mujoco"]) and r["met"] in (True, False)
        assert r["ratio_mujoco"] == pytest.approx(r["ours"] / r["mujoco"])
        assert r["pin"] is None and r["max_abs_q_diff_rad"] < 1e-6
    solo = roll["rows"][-1]
    assert solo["arms"] == 2 and _positive(solo["ours"]) and _positive(solo["mujoco"])
    assert len(roll["checks"]) == 5 and all(c["against"] == "mujoco" for c in roll["checks"])
    assert roll["checks"][-1]["max_abs_diff"] < 1e-9  # the floating base: RK4 on charts
    md = bench.render_markdown(results)
    assert md.count(MJ_HEADER) == 2 and "| MuJoCo | " in md
    assert "checks against MuJoCo: 5/5 passed" in md
    json.dumps(results, default=float)


def test_mujoco_missing_shows_dashes_and_a_note(monkeypatch):
    monkeypatch.setitem(sys.modules, "mujoco", None)  # import mujoco now raises ImportError
    results = _run()
    assert results["ok"] and results["meta"]["mujoco"] is None
    per_call, roll = results["sections"]["per_call"], results["sections"]["rollout"]
    for sec in (per_call, roll):
        assert "error" not in sec
        assert any("mujoco does not import" in n for n in sec["notes"]), sec["notes"]
        assert not any(c["against"] == "mujoco" for c in sec["checks"])
    id_row = next(r for r in per_call["rows"] if r["figure"] == "planar2 (2) ID")
    assert id_row["mujoco"] is None and id_row["ratio_mujoco"] is None
    assert cells(id_row, MUJOCO_COLUMNS)[4:6] == ["—", "—"]
    assert all(_positive(r["ours"]) and r["mujoco"] is None for r in roll["rows"])
    assert all(r["met"] is None for r in roll["rows"])  # no MuJoCo figure: nothing to judge
    assert bench.render_markdown(results).count(MJ_HEADER) == 2


def test_a_twin_that_disagrees_fails_its_check(monkeypatch):
    """The twin is checked against eslabon before timing: heavier links fail the check."""
    pytest.importorskip("mujoco")
    real = mujoco_twin.mujoco_twin
    monkeypatch.setattr(
        "eslabon.bench.mujoco_twin.mujoco_twin",
        lambda mj, model: real(mj, model.replace(mass=model.mass * 1.01)),
    )
    results = _run(sections=("per_call",))
    assert results["ok"] is False
    per_call = results["sections"]["per_call"]
    bad = [c for c in per_call["checks"] if not c["ok"]]
    assert len(bad) == 3 and all(c["against"] == "mujoco" for c in bad)
    for op in ("ID", "M", "FD"):
        r = next(r for r in per_call["rows"] if r["figure"] == f"planar2 (2) {op}")
        assert r["mujoco"] is None and r["note"] == "MuJoCo check FAILED"


def test_rows_and_tables_with_and_without_mujoco():
    r = row("x", 2.0, 4.0, mujoco=8.0, target="≤ 0.3×mujoco", on="ratio_mujoco", bound=0.3)
    assert r["ratio"] == 0.5 and r["ratio_mujoco"] == 0.25 and r["met"] is True
    assert cells(r, MUJOCO_COLUMNS) == ["x", "2.00", "4.00", "0.50", "8.00", "0.25"] + [
        "≤ 0.3×mujoco",
        "yes",
    ]
    plain = row("y", 2.0, 4.0)
    assert "mujoco" not in plain and len(cells(plain)) == 6
    assert columns({"rows": [plain]}) == bench.report.COLUMNS
    assert columns({"rows": [plain, r]}) == MUJOCO_COLUMNS
    assert cells(plain, MUJOCO_COLUMNS)[4:6] == ["—", "—"]
    missing = row("z", 2.0, mujoco=None, on="ratio_mujoco", bound=1.0)
    assert missing["ratio_mujoco"] is None and missing["met"] is None


def test_settings_overrides_and_the_rollout_section_name():
    s = settings(True, rollout_arms=7)
    assert s.rollout_arms == 7 and s.rollout_seconds == 0.1
    assert settings().rollout_arms == 1000 and settings().rollout_seconds == 1.0
    with pytest.raises(ValueError, match="settings: unknown \\['arms'\\]"):
        settings(arms=3)
    assert bench.parse_sections("rollout") == ("rollout",)
    assert "rollout" in bench.SECTIONS


def test_the_twin_meets_mujocos_inertia_rules():
    import numpy as np

    import eslabon as es

    ready = mujoco_twin.mujoco_ready(es.zoo.load("puma560"))
    assert ready.mass[1:].min() >= mujoco_twin.MIN_MASS
    for inertia in ready.inertia[1:]:
        w = np.linalg.eigvalsh(inertia)
        assert w[0] >= mujoco_twin.MIN_MOMENT and w[0] + w[1] >= w[2]


def test_floating_twin_state_gives_mujoco_our_forward_dynamics():
    """The floating twin (the URDF's ``floating`` root read as a free joint) at the state
    :func:`~eslabon.bench.mujoco_twin.twin_state` maps: MuJoCo's q̈ of the joints and
    ω̇ of the base equal eslabon's; its linear q̈ is that of world-axes velocity."""
    mujoco = pytest.importorskip("mujoco")
    import numpy as np

    import eslabon as es

    tree = es.zoo.random_tree(3, "BRRPR", friction=False, armature_chance=0.0)
    model = mujoco_twin.mujoco_ready(tree)
    rotation, translation = model.tree_rotation.copy(), model.tree_translation.copy()
    rotation[1], translation[1] = np.eye(3), 0.0  # the free joint on the world frame
    model = model.replace(tree_rotation=rotation, tree_translation=translation)
    mj = mujoco_twin.mujoco_twin(mujoco, model, floating=True)
    rng = np.random.default_rng(0)
    q = es.integrate(model, es.neutral(model), rng.uniform(-0.5, 0.5, model.nv))
    v = rng.uniform(-0.5, 0.5, model.nv)
    data = mujoco.MjData(mj)
    data.qpos[:], data.qvel[:] = mujoco_twin.twin_state(model, q, v)
    mujoco.mj_forward(mj, data)
    ours = es.forward_dynamics(model, q, v, np.zeros(model.nv))
    _, ours_mj = mujoco_twin.twin_state(model, q, ours)  # rotated like a velocity
    scale = max(1.0, np.abs(ours).max())
    assert np.abs(data.qacc[3:] - ours_mj[3:]).max() < 1e-9 * scale
    with pytest.raises(ValueError, match="fixed bases only"):
        mujoco_twin.mujoco_twin(mujoco, model)
