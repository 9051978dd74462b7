"""Smoke test of the speed benchmark (``eslabon bench``): it runs and returns numbers.

No timing is asserted here, ever: only that every section runs in --quick mode on a small
model and returns rows with the expected keys (and, with Pinocchio, that the outputs it
times agree with Pinocchio's).
"""

from __future__ import annotations

import json
import math

import pytest

from eslabon import bench
from eslabon.cli.main import main as cli_main

ROW_KEYS = {"figure", "unit", "ours", "pin", "ratio", "target", "met"}
SECTION_KEYS = {"title", "rows", "checks", "notes"}


def _small_run(**kw):
    return bench.run(
        quick=True,
        robots=("planar2",),
        sim_robot="planar2",
        chain_sizes=(2, 3),
        long_chain_sizes=(3, 4),
        batch_size=64,
        **kw,
    )


def _check_shape(results, sections):
    assert set(results) >= {"meta", "settings", "sections", "ok"}
    assert tuple(results["sections"]) == sections
    for name, sec in results["sections"].items():
        assert "error" not in sec, f"{name}: {sec.get('error')}"
        assert SECTION_KEYS <= set(sec)
        assert sec["rows"], name
        for row in sec["rows"]:
            assert ROW_KEYS <= set(row), row
            for key in ("ours", "pin", "ratio"):
                value = row[key]
                assert value is None or (isinstance(value, float) and math.isfinite(value))
                if value is not None and row["unit"] != "slope":
                    assert value > 0, row
            assert row["met"] in (None, True, False)
    for key in ("platform", "cpu", "cores", "python", "numpy", "numba", "date"):
        assert key in results["meta"]
    json.dumps(results, default=float)  # what --json writes
    md = bench.render_markdown(results)
    assert "| figure | ours | pin | ratio | target | met |" in md


def test_quick_run_without_pin():
    results = _small_run(against_pin=False)
    _check_shape(results, bench.SECTIONS)
    secs = results["sections"]
    ours = [r["ours"] for r in secs["per_call"]["rows"] if r["figure"].endswith(" ID")]
    assert ours and ours[0] is not None
    assert all(
        r["pin"] is None
        for s in secs.values()
        for r in s["rows"]
        if not r["figure"].startswith("import eslabon")
    )
    assert {r["figure"] for r in secs["scaling"]["rows"]} >= {
        "ID n=2",
        "FD n=3",
        "M n=3",
        "M n=4 (long)",
        "M slope n=3–4 (long chains)",
    }
    assert secs["simulate"]["rows"][0]["ours"] is not None
    assert secs["startup"]["rows"][0]["ours"] is not None


def test_quick_run_against_pin():
    pytest.importorskip("pinocchio")
    sections = ("per_call", "batch", "scaling")
    results = _small_run(against_pin=True, sections=sections)
    _check_shape(results, sections)
    assert results["meta"]["pin"]
    checks = [c for s in results["sections"].values() for c in s["checks"]]
    assert checks and all(c["ok"] for c in checks), [c for c in checks if not c["ok"]]
    id_row = next(r for r in results["sections"]["per_call"]["rows"] if r["figure"].endswith(" ID"))
    assert id_row["pin"] is not None and id_row["ratio"] is not None
    figures = {r["figure"]: r for s in results["sections"].values() for r in s["rows"]}
    new_rows = {
        "planar2 (2) FD derivatives": "≤ 0.6×pin",
        "planar2 (2) linearize (A, B)": "≤ 0.7×pin",
        "planar2 (2) M batch 64, 2 thr": "≤ 0.25×pin",
        "planar2 (2) dID/dq,dqd batch 64, 2 thr": "≤ 0.25×pin",
        "planar2 (2) FD derivatives batch 64, 2 thr": "≤ 0.25×pin",
    }
    for figure, target in new_rows.items():
        r = figures[figure]
        assert r["target"] == target and r["pin"] is not None and r["met"] is not None, r
    whats = " | ".join(c["what"] for c in checks)
    for part in ("FD derivatives: vs pin", "linearize (A, B): vs pin", "M batch 64, 2 thr: 3"):
        assert part in whats


def _perturbed(fn, factor=1.0 + 1e-6):
    """``fn`` whose outputs (arrays, tuples of them, or a Linearization's A and B) are
    scaled: what a wrong kernel would return."""

    def wrong(*args, **kw):
        out = fn(*args, **kw)
        if hasattr(out, "A"):
            return out._replace(A=out.A * factor, B=out.B * factor)
        if isinstance(out, tuple):
            return tuple(x * factor for x in out)
        return out * factor

    return wrong


@pytest.mark.parametrize(
    "section, name, figure",
    [
        ("per_call", "forward_dynamics_derivatives", "planar2 (2) FD derivatives"),
        ("per_call", "control.linearize", "planar2 (2) linearize (A, B)"),
        ("batch", "mass_matrix", "planar2 (2) M batch 64, 2 thr"),
        ("batch", "forward_dynamics_derivatives", "planar2 (2) FD derivatives batch 64, 2 thr"),
    ],
)
def test_a_wrong_output_fails_its_check(monkeypatch, section, name, figure):
    """The checks compare eslabon's output with Pinocchio's: a slightly wrong one fails."""
    pytest.importorskip("pinocchio")
    import eslabon

    owner, attr = (eslabon.control, "linearize") if "." in name else (eslabon, name)
    monkeypatch.setattr(owner, attr, _perturbed(getattr(owner, attr)))
    results = _small_run(against_pin=True, sections=(section,), mujoco=False)
    sec = results["sections"][section]
    bad = [c["what"] for c in sec["checks"] if not c["ok"]]
    assert bad and all(w.startswith(figure + ":") for w in bad), bad
    r = next(r for r in sec["rows"] if r["figure"] == figure)
    assert r["met"] is False and r["note"] == "check FAILED"
    assert results["ok"] is False


def test_cli_rejects_unknown_library(capsys):
    with pytest.raises(SystemExit) as exc:
        cli_main(["bench", "--against", "mujoco"])
    assert exc.value.code == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        "error: --against: expected 'pin', got 'mujoco'"
    ]


def test_cli_pin_missing_is_one_line(capsys, monkeypatch):
    monkeypatch.setattr(bench, "pin_available", lambda: False)
    with pytest.raises(SystemExit) as exc:
        cli_main(["bench", "--against", "pin", "--quick"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not installed" in err[0]


def test_printed_hints_keep_their_brackets():
    """rich reads [bench] as markup: the MuJoCo hint printed "pip install 'eslabon'".
    Every line print_results prints keeps its brackets (notes, header, figures)."""
    import io

    from rich.console import Console

    from eslabon.bench.mujoco_twin import load_mujoco

    meta = dict(eslabon="0", pin=None, mujoco=None, numba="0", numpy="0", python="3",
                cpu="[cpu]", cores=2, usable_cores=2, platform="p", date="d",
                OPENBLAS_NUM_THREADS="1")  # fmt: skip
    settings = dict(repeats=1, min_repeat_s=0.1, quick=True)
    row = dict(figure="ID [n=6]", unit="us", ours=1.0, pin=None, ratio=None, target="[x]",
               met=None, note="a note")  # fmt: skip
    hint = "MuJoCo columns show —: mujoco does not import; pip install 'eslabon[bench]'"
    sec = dict(title="a [section]", rows=[row], checks=[], notes=[hint])
    out = io.StringIO()
    bench.print_results(
        dict(meta=meta, settings=settings, sections={"a": sec}, ok=True),
        Console(file=out, width=200),
    )
    text = out.getvalue()
    wanted = ("pip install 'eslabon[bench]'", "[cpu]", "a [section]", "ID [n=6] [a note]", "[x]")
    for kept in wanted:
        assert kept in text, text
    mj, note = load_mujoco()
    assert note is None or note.endswith("pip install 'eslabon[bench]'")
