"""The packed layout has one source, eslabon/_engine/layout.py: the C entry's header file
is generated from it and the joint tuple's positions are derived from it.

* ``layout.h`` (included by ``_fastcall.c``) is what ``python -m eslabon._engine.layout
  --c-header`` writes now, so the C entry cannot read the header at stale offsets;
* ``_fastcall.c`` reads the packed header by those names, never by number;
* the ``J_`` positions of the joint tuple pick the same values as the record's fields.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np

from eslabon._engine import layout as L

ENGINE = Path(L.__file__).parent


def test_the_committed_c_header_is_what_the_generator_writes():
    assert (ENGINE / "layout.h").read_text(encoding="utf-8") == L.c_header()


def test_the_generator_writes_the_header_from_the_command_line(tmp_path):
    out = tmp_path / "layout.h"
    subprocess.run(
        [sys.executable, "-m", "eslabon._engine.layout", "--c-header", str(out)],
        check=True,
        capture_output=True,
    )
    assert out.read_text(encoding="utf-8") == L.c_header()


def test_the_c_header_defines_every_header_offset():
    text = L.c_header()
    for name in L.C_HEADER_NAMES:
        assert f"#define ESLABON_{name} {getattr(L, name)}\n" in text


def test_the_c_entry_reads_the_packed_header_by_name():
    source = (ENGINE / "_fastcall.c").read_text(encoding="utf-8")
    assert '#include "layout.h"' in source
    assert re.findall(r"\bpd\[\s*\d", source) == []
    assert re.findall(r"\bpd\[ESLABON_H_\w+\]", source)


def test_joint_tuple_positions_pick_the_record_fields():
    o = L.body_offset(1)
    P = np.zeros(L.body_offset(2))
    P[o : o + L.STRIDE] = np.arange(L.STRIDE) + 100.0  # each field its own value
    j = tuple(P[o + L.JTYPE : o + L.JTYPE + L.JOINT_FIELDS])
    assert j[L.J_TYPE] == P[o + L.JTYPE]
    assert j[L.J_RATE] == P[o + L.VIDX]
    assert j[L.J_AXIS : L.J_AXIS_END] == tuple(P[o + L.AXIS : o + L.AXIS + 3])
    assert j[L.J_Z_AXIS] == P[o + L.Z_AXIS]
    assert j[L.J_ROT : L.J_ROT_END] == tuple(P[o + L.ROT : o + L.ROT + 9])
    assert j[L.J_POS : L.J_POS_END] == tuple(P[o + L.POS : o + L.POS + 3])
    assert j[L.J_PLACE] == P[o + L.PLACE]
    assert j[L.J_CFG] == P[o + L.CFG]
    assert j[L.J_PITCH] == P[o + L.PITCH]
    assert L.J_PITCH == L.JOINT_FIELDS - 1  # the tuple ends at its last field


def test_record_fields_fit_in_the_stride_without_overlap():
    sizes = {"AXIS": 3, "ROT": 9, "POS": 3, "COM": 3, "INERTIA": 9}
    names = [
        "PARENT", "JTYPE", "VIDX", "AXIS", "Z_AXIS", "ROT", "POS", "PLACE", "CFG", "PITCH",
        "MASS", "COM", "INERTIA", "VISCOUS", "COULOMB", "ARMATURE", "COM_SLIDE", "FORK",
    ]  # fmt: skip
    cells = [getattr(L, n) + k for n in names for k in range(sizes.get(n, 1))]
    assert sorted(cells) == list(range(L.STRIDE))
