"""docs/tutorial.md, parallel-robots.md, task-space.md and legged.md run as written: their
```python blocks, in order, in one namespace, in a temporary folder (the files they write
land there)."""

from __future__ import annotations

import re
from pathlib import Path

TUTORIAL = Path(__file__).resolve().parents[1] / "docs" / "tutorial.md"
PARALLEL = TUTORIAL.with_name("parallel-robots.md")


def _blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


def test_the_tutorial_runs(tmp_path, monkeypatch):
    blocks = _blocks(TUTORIAL.read_text(encoding="utf-8"))
    assert len(blocks) >= 8
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "tutorial"}
    for k, code in enumerate(blocks, start=1):
        exec(compile(code, f"docs/tutorial.md block {k}", "exec"), namespace)
    for name in ("my-arm.urdf", "fall.png", "fall.html"):
        assert (tmp_path / name).stat().st_size > 0, name


def test_the_parallel_robot_tutorial_runs(tmp_path, monkeypatch):
    blocks = _blocks(PARALLEL.read_text(encoding="utf-8"))
    assert len(blocks) >= 7
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "tutorial"}
    for k, code in enumerate(blocks, start=1):
        exec(compile(code, f"docs/parallel-robots.md block {k}", "exec"), namespace)


TASK_SPACE = TUTORIAL.with_name("task-space.md")


def test_the_task_space_page_runs(tmp_path, monkeypatch):
    """docs/task-space.md: frame motion, centroidal momentum, an operational-space
    controller that must bring the hand within 1 mm of its target, a whole-body step."""
    blocks = _blocks(TASK_SPACE.read_text(encoding="utf-8"))
    assert len(blocks) >= 4
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "tutorial"}
    for k, code in enumerate(blocks, start=1):
        exec(compile(code, f"docs/task-space.md block {k}", "exec"), namespace)


LEGGED = TUTORIAL.with_name("legged.md")


def test_the_legged_robot_page_runs(tmp_path, monkeypatch):
    """docs/legged.md: robots by name, the centre of mass and centroidal momentum of
    Talos, Solo 12 held standing on its feet, a viewer page."""
    from checks import example_robot_data

    example_robot_data("solo_description/robots/solo12.urdf")  # skips without the package
    blocks = _blocks(LEGGED.read_text(encoding="utf-8"))
    assert len(blocks) >= 5
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "tutorial"}
    for k, code in enumerate(blocks, start=1):
        exec(compile(code, f"docs/legged.md block {k}", "exec"), namespace)
    assert (tmp_path / "stance.html").stat().st_size > 0
