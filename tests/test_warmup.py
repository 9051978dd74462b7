"""``eslabon warmup`` (issue 41, "Warm-up that covers first use"): after it, the calls a
user of each family of robots makes first compile nothing; its groups run after the groups
whose kernels they share; it says which groups were cached and which compiled, with
labelled wall and CPU seconds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import eslabon as es
from eslabon import warmup
from eslabon.cli.main import main

SRC = str(Path(es.__file__).resolve().parents[1])
TUTORIAL = Path(__file__).resolve().parents[1] / "docs" / "tutorial.md"

# What users of each family call first (issue 41): the tutorial (an arm from a DH table:
# dynamics, a batch, simulation, plots, the viewer, tracking, LQR), then a floating base
# (a free flyer, a spherical joint) and a model with a mimic joint, each through ID, M,
# FD, the derivatives, the linearization, crosscheck, simulation and the momentum.
FIRST_USE = """
import re, sys, warnings
import numpy as np
import eslabon as es
from eslabon.control import linearize

text = open(sys.argv[1], encoding="utf-8").read()
namespace = {"__name__": "tutorial"}
for k, code in enumerate(re.findall(r"^```python\\n(.*?)^```", text, flags=re.S | re.M)):
    exec(compile(code, f"tutorial block {k + 1}", "exec"), namespace)

tree = es.zoo.random_tree(2, "RRRR", friction=False)
mimic = tree.replace(  # body 3's joint copies body 1's
    mimic_joint=np.array([-1, -1, -1, 1, -1]),
    mimic_multiplier=np.array([1, 1, 1, 0.5, 1.0]),
    mimic_offset=np.zeros(5),
)
# (without Coulomb friction: on charts its loop compiles under warmup --all only)
ball = es.zoo.random_tree(1, "RSR", friction=False)
for model in (es.zoo.load("space_manipulator"), ball, mimic):
    rng = np.random.default_rng(1)
    q = es.random_configuration(model, rng)
    v, a = rng.uniform(-1, 1, (2, model.nv))
    tau = es.inverse_dynamics(model, q, v, a)
    es.mass_matrix(model, q)
    es.forward_dynamics(model, q, v, tau, algorithm="walker_orin_3")
    if model.mimic is None:
        es.forward_dynamics(model, q, v, tau)
    es.inverse_dynamics_derivatives(model, q, v, a)
    es.forward_dynamics_derivatives(model, q, v, tau)
    linearize(model, q, v, a)
    assert es.crosscheck(model).ok
    es.simulate(model, 0.01, 1e-3, q0=q, qd0=v)
    es.momentum(model, q, v)
print("done")
"""


def _python(args, cache: Path, cwd: Path, timeout: int = 1800, **env):
    environ = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": SRC, **env}
    return subprocess.run(
        [sys.executable, *args],
        env=environ,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_first_use_after_the_warmup_compiles_nothing(tmp_path):
    """From an empty cache: the warm-up compiles every group; then the tutorial and a
    floating-base and a mimic-joint script print no compile notice; a second warm-up
    finds every group cached."""
    cache = tmp_path / "cache"
    first = _python(["-m", "eslabon", "warmup", "--json"], cache, tmp_path)
    assert first.returncode == 0, first.stderr
    data = json.loads(first.stdout)
    assert set(data["tasks"]) == set(warmup.selected())
    assert data["compiled"] == len(data["tasks"])  # from empty: every group compiled
    assert "compiled in" in first.stderr and "s CPU" in first.stderr

    script = tmp_path / "first_use.py"
    script.write_text(FIRST_USE, encoding="utf-8")
    run = _python([str(script), str(TUTORIAL)], cache, tmp_path, ESLABON_COMPILE_NOTICE="1")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().endswith("done")
    notices = [line for line in run.stderr.splitlines() if line.startswith("eslabon: compiling")]
    assert notices == []

    again = _python(["-m", "eslabon", "warmup", "--json"], cache, tmp_path)
    assert again.returncode == 0, again.stderr
    data = json.loads(again.stdout)
    assert data["compiled"] == 0
    assert not any(t["compiled"] for t in data["tasks"].values())
    assert again.stderr.count(": cached (loaded in") == len(data["tasks"])


def test_groups_run_after_the_groups_they_share_kernels_with():
    for everything in (False, True):
        names = warmup.selected(everything)
        ordered = warmup.order(names)
        assert sorted(ordered) == sorted(names)
        for k, name in enumerate(ordered):
            assert all(ordered.index(a) < k for a in warmup.GROUPS[name][1] if a in names)
    assert set(warmup.selected()) < set(warmup.selected(True)) == set(warmup.GROUPS)
    first_use = warmup.selected()
    for family in ("arms", "floating bases"):  # each family's first calls, batches, simulation
        for part in ("first calls", "other one-state calls", "batches", "simulation"):
            assert f"{family}: {part}" in first_use


def test_each_group_says_cached_or_compiled_with_labelled_seconds():
    compiled = {"compiled": True, "wall_s": 12.34, "cpu_s": 20.5}
    cached = {"compiled": False, "wall_s": 0.21, "cpu_s": 0.2}
    assert warmup.describe(compiled) == "compiled in 12.3 s wall, 20.5 s CPU"
    assert warmup.describe(cached) == "cached (loaded in 0.2 s wall)"


def _fake_run(tasks):
    def run(jobs=None, log=None, prune=False, everything=False):
        return {
            "tasks": tasks,
            "compiled": sum(t["compiled"] for t in tasks.values()),
            "jobs": 2,
            "wall_s": 41.5,
            "cpu_s": 80.3,
            "old_cache": {"folders": 0, "bytes": 0, "removed": 0, "not_removed": []},
        }

    return run


def test_the_summary_counts_compiled_and_cached_groups(monkeypatch, capsys):
    one = {"compiled": True, "wall_s": 30.0, "cpu_s": 29.0}
    other = {"compiled": False, "wall_s": 0.3, "cpu_s": 0.3}
    monkeypatch.setattr(warmup, "warmup", _fake_run({"a": one, "b": other}))
    main(["warmup"])
    out = capsys.readouterr().out
    assert "compiled 1 of 2 groups of kernels (1 were cached) in 41.5 s wall, 80.3 s CPU" in out
    monkeypatch.setattr(warmup, "warmup", _fake_run({"a": other, "b": other}))
    main(["warmup"])
    out = capsys.readouterr().out
    assert "all 2 groups of kernels were cached: nothing compiled (checked in 41.5 s wall)" in out
