"""docs/identification.md runs as written: its ```python blocks, in order, in one
namespace."""

from __future__ import annotations

import re
from pathlib import Path

PAGE = Path(__file__).resolve().parents[1] / "docs" / "identification.md"


def test_the_identification_page_runs(tmp_path, monkeypatch, capsys):
    blocks = re.findall(r"^```python\n(.*?)^```", PAGE.read_text(encoding="utf-8"), re.S | re.M)
    assert len(blocks) >= 1
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "identification_page"}
    for k, code in enumerate(blocks, start=1):
        exec(compile(code, f"docs/identification.md block {k}", "exec"), namespace)
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "('link1.m', 'link1.mx', 'link1.my', 'link1.mz')"
    assert printed[1:3] == ["36", "link6.Izz"]
    assert printed[3].startswith("link1.Izz + link2.Iyy + ")
    # the worked example: planar2's base parameters with friction and armature, and the
    # samples left after the filter's transient (2 periods of 10 s at 200 Hz, less 2 × 0.6 s)
    assert printed[4:6] == ["11", "link1.Izz + link2.m + joint1.Ia"]
    assert printed[6].startswith("11 base parameters from 3760 samples, σ = ")
    assert (tmp_path / "planar2_identified.yaml").is_file()
