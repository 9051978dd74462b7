"""Malformed and hostile YAML model files, DH tables and body lists (issue "Nothing
silently wrong"): each case is refused with a ValueError whose one-line message names the
field (and, for the YAML itself, the line), or accepted as exactly the model its plain
spelling gives. Every case also goes through ``eslabon info``: exit 2 and one ``error:``
line for a refusal, exit 0 for an acceptance, never a traceback."""

import numpy as np
import pytest

from eslabon import load_model
from eslabon.model import save_model
from hostile import Same, check_case, check_cli, check_real_cli, edit

BIG_INT = "1" + "0" * 400  # 10**400: an integer no float holds

DH = """eslabon: 1
name: arm
convention: standard
gravity: [0, 0, -9.81]
rows:
  - {joint: R, theta: 0, d: 0.4, a: 0.1, alpha: 0, mass: 2, com: [0, 0, -0.1],
     inertia: [[0.1, 0, 0], [0, 0.1, 0], [0, 0, 0.1]], viscous: 0.05}
  - {joint: P, theta: 0.5, d: 0.2, a: 0, alpha: 1.5, mass: 1, com: [0, 0, 0],
     inertia: [[0.01, 0, 0], [0, 0.01, 0], [0, 0, 0.01]]}
payload: {mass: 0.5, inertia: [[0.001, 0, 0], [0, 0.001, 0], [0, 0, 0.001]]}
"""
ROW0 = (
    "{joint: R, theta: 0, d: 0.4, a: 0.1, alpha: 0, mass: 2, com: [0, 0, -0.1],\n"
    "     inertia: [[0.1, 0, 0], [0, 0.1, 0], [0, 0, 0.1]], viscous: 0.05}"
)
I1 = "[[0.01, 0, 0], [0, 0.01, 0], [0, 0, 0.01]]"


def bomb(levels=9, width=9):
    """A "billion laughs": each anchor a list of ``width`` aliases of the previous one."""
    lines = ["eslabon: 1", "laugh0: &l0 [ha, ha, ha, ha, ha, ha, ha, ha, ha]"]
    lines += [
        f"laugh{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * width) + "]" for i in range(1, levels)
    ]
    return "\n".join(lines) + "\n"


DH_CASES = {
    # the YAML itself
    "duplicate_gravity.yaml": (
        DH + "gravity: [0, 0, 9.81]\n",
        "line 11, column 1: duplicate key 'gravity' (first given at line 4)",
    ),
    "duplicate_in_row.yaml": (
        edit(DH, "mass: 2,", "mass: 2, mass: 20,"),
        "duplicate key 'mass' (first given at line 6)",
    ),
    "duplicate_in_units.yaml": (DH + "units: {angle: deg, angle: rad}\n", "duplicate key 'angle'"),
    "empty.yaml": ("", "expected a mapping with the version key 'eslabon: 1', got an empty file"),
    "comment_only.yaml": ("# nothing\n", "got an empty file"),
    "a_list.yaml": (
        "- eslabon: 1\n",
        "expected a mapping with the version key 'eslabon: 1', got a list",
    ),
    "a_scalar.yaml": ("eslabon\n", "got a string"),
    "two_documents.yaml": (
        DH + "---\n" + DH,
        "not valid YAML (line 11, column 1: expected a "
        "single document in the stream, but found another",
    ),
    "truncated.yaml": (DH[:150], "not valid YAML (line 7"),
    "tab_indent.yaml": (DH.replace("  - {joint: P", "\t- {joint: P"), "not valid YAML (line 8"),
    "python_tag.yaml": (
        DH + "source: !!python/object/apply:os.system [echo hi]\n",
        "could not determine a constructor for the tag",
    ),
    "not_utf8.yaml": (DH.encode() + b"name2: \xff\xfe\n", "not valid YAML ("),
    "alias_bomb.yaml": (bomb(), "aliases expand the document past 100000 extra nodes"),
    "recursive_alias.yaml": (
        "eslabon: 1\nrows: &r [*r]\n",
        "an alias refers to a node that contains it",
    ),
    "deep_nesting.yaml": (
        "eslabon: 1\nrows: " + "[" * 200 + "]" * 200 + "\n",
        "line 2, column 70: nested deeper than 64 levels",
    ),
    "huge_integer_literal.yaml": (
        edit(DH, "mass: 2,", "mass: " + "9" * 5000 + ","),
        "line 6, column 58: an integer of 5000 digits is too long",
    ),
    "non_string_key.yaml": (DH + "1: one\n", "top level: key 1: expected a string key"),
    "null_key_in_row.yaml": (
        edit(DH, "mass: 2,", "mass: 2, ~: 3,"),
        "rows[0]: key None: expected a string key",
    ),
    # the version and top-level keys
    "version_true.yaml": (
        edit(DH, "eslabon: 1", "eslabon: true"),
        "eslabon: expected the file format version 1, got True",
    ),
    "version_float.yaml": (
        edit(DH, "eslabon: 1", "eslabon: 1.0"),
        "eslabon: expected the file format version 1, got 1.0",
    ),
    "version_2.yaml": (edit(DH, "eslabon: 1", "eslabon: 2"), "got 2"),
    "no_version.yaml": (edit(DH, "eslabon: 1\n", ""), "eslabon: missing"),
    "unknown_key.yaml": (DH + "colour: red\n", "unknown key(s) ['colour']"),
    "name_number.yaml": (
        edit(DH, "name: arm", "name: 5"),
        "name: expected a non-empty string, got 5",
    ),
    "name_empty.yaml": (
        edit(DH, "name: arm", "name: ''"),
        "name: expected a non-empty string, got ''",
    ),
    "name_null.yaml": (edit(DH, "name: arm", "name:"), "name: expected a value, got null"),
    "source_list.yaml": (DH + "source: [a]\n", "source: expected a string, got ['a']"),
    "gravity_two.yaml": (
        edit(DH, "[0, 0, -9.81]", "[0, -9.81]"),
        "gravity: expected shape (3,), got (2,)",
    ),
    "gravity_bool.yaml": (
        edit(DH, "[0, 0, -9.81]", "[0, 0, true]"),
        "gravity: expected numbers of shape (3,), got [0, 0, True]: True is a boolean",
    ),
    "gravity_string.yaml": (
        edit(DH, "[0, 0, -9.81]", "down"),
        "gravity: expected numbers of shape (3,), got 'down'",
    ),
    "frames_in_dh.yaml": (DH + "frames: []\n", "frames: applies to body lists only"),
    "rows_and_bodies.yaml": (
        DH + "bodies: [{parent: 0}]\n",
        "key(s) ['convention', 'payload', 'rows'] do not apply to a body list",
    ),
    "convention_case.yaml": (
        edit(DH, "convention: standard", "convention: Standard"),
        "convention: expected one of ('standard', 'modified', 'rojas'), got 'Standard'",
    ),
    "convention_missing.yaml": (edit(DH, "convention: standard\n", ""), "convention: missing"),
    "convention_list.yaml": (
        edit(DH, "convention: standard", "convention: [standard]"),
        "convention: expected one of",
    ),
    # units
    "units_km.yaml": (DH + "units: {length: km}\n", "units.length: expected m or mm, got 'km'"),
    "units_extra.yaml": (
        DH + "units: {length: mm, time: s}\n",
        "units: expected {angle: rad|deg, length: m|mm}",
    ),
    "units_scalar.yaml": (
        DH + "units: mm\n",
        "units: expected {angle: rad|deg, length: m|mm}, got 'mm'",
    ),
    "units_null.yaml": (DH + "units:\n", "units: expected a value, got null"),
    "units_angle_bool.yaml": (
        DH + "units: {angle: true}\n",
        "units.angle: expected rad or deg, got True",
    ),
    "units_deg_theta_bool.yaml": (
        edit(DH + "units: {angle: deg}\n", "theta: 0,", "theta: true,"),
        "rows[0].theta: expected a number, got True (a boolean)",
    ),
    "units_mm_com_null.yaml": (
        edit(DH + "units: {length: mm}\n", "[0, 0, -0.1]", "[0, ~, -0.1]"),
        "rows[0].com[1]: expected a value, got null",
    ),
    "units_mm_inertia_bad.yaml": (
        edit(DH + "units: {length: mm}\n", I1, "[[1, 2]]"),
        "rows[1].inertia: expected shape (3, 3), got (1, 2)",
    ),
    # rows
    "rows_empty.yaml": (
        DH.split("rows:")[0] + "rows: []\n",
        "rows: expected a non-empty list of DH rows",
    ),
    "rows_missing.yaml": ("eslabon: 1\nconvention: standard\n", "rows: missing"),
    "rows_not_list.yaml": (
        "eslabon: 1\nconvention: standard\nrows: {a: 1}\n",
        "rows: expected a list of DH rows, got {'a': 1}",
    ),
    "row_scalar.yaml": (edit(DH, "  - " + ROW0, "  - 5"), "rows[0]: expected a mapping"),
    "row_extra_key.yaml": (
        edit(DH, "mass: 2,", "mass: 2, lenght: 1,"),
        "rows[0]: unknown key(s) ['lenght']",
    ),
    "row_missing_alpha.yaml": (edit(DH, "alpha: 0, mass: 2", "mass: 2"), "rows[0].alpha: missing"),
    "joint_true.yaml": (
        edit(DH, "joint: R", "joint: true"),
        "rows[0].joint: expected 'R' or 'P', got True",
    ),
    "joint_list.yaml": (
        edit(DH, "joint: R", "joint: [R]"),
        "rows[0].joint: expected 'R' or 'P', got ['R']",
    ),
    "joint_lowercase.yaml": (
        edit(DH, "joint: R", "joint: r"),
        "rows[0].joint: expected 'R' or 'P', got 'r'",
    ),
    "mass_null.yaml": (
        edit(DH, "mass: 2,", "mass: null,"),
        "rows[0].mass: expected a value, got null",
    ),
    "mass_list.yaml": (
        edit(DH, "mass: 2,", "mass: [2],"),
        "rows[0].mass: expected a number >= 0, got [2]",
    ),
    "mass_bool.yaml": (
        edit(DH, "mass: 2,", "mass: true,"),
        "rows[0].mass: expected a number >= 0, got True (a boolean)",
    ),
    "mass_string.yaml": (
        edit(DH, "mass: 2,", "mass: '2',"),
        "rows[0].mass: expected a number >= 0, got '2' (a string)",
    ),
    "mass_1e400.yaml": (
        edit(DH, "mass: 2,", "mass: 1e400,"),
        "rows[0].mass: expected finite numbers, got inf",
    ),
    "mass_10_400.yaml": (
        edit(DH, "mass: 2,", f"mass: {BIG_INT},"),
        "rows[0].mass: expected a number >= 0, got 1000",
    ),
    "mass_negative.yaml": (
        edit(DH, "mass: 2,", "mass: -2,"),
        "rows[0].mass: expected a number >= 0, got -2.0",
    ),
    "mass_nan.yaml": (
        edit(DH, "mass: 2,", "mass: .nan,"),
        "rows[0].mass: expected finite numbers, got nan",
    ),
    "theta_yes.yaml": (
        edit(DH, "theta: 0,", "theta: yes,"),
        "rows[0].theta: expected a number, got 'yes' (a string)",
    ),
    "d_underscore.yaml": (
        edit(DH, "d: 0.4,", "d: 1_000,"),
        "rows[0].d: expected a number, got '1_000' (a string)",
    ),
    "d_sexagesimal.yaml": (
        edit(DH, "d: 0.4,", "d: 1:30,"),
        "rows[0].d: expected a number, got '1:30' (a string)",
    ),
    "d_date.yaml": (
        edit(DH, "d: 0.4,", "d: 2024-01-01,"),
        "rows[0].d: expected a number, got '2024-01-01'",
    ),
    "com_null_entry.yaml": (
        edit(DH, "[0, 0, -0.1]", "[0, null, -0.1]"),
        "rows[0].com[1]: expected a value, got null",
    ),
    "com_bool_entry.yaml": (
        edit(DH, "[0, 0, -0.1]", "[0, true, -0.1]"),
        "rows[0].com: expected numbers of shape (3,), got [0, True, -0.1]: True is a boolean",
    ),
    "com_big_int.yaml": (edit(DH, "[0, 0, -0.1]", f"[0, {BIG_INT}, 0]"), "(too large for a float)"),
    "inertia_two_rows.yaml": (
        edit(DH, I1, "[[0.01, 0, 0], [0, 0.01, 0]]"),
        "rows[1].inertia: expected shape (3, 3), got (2, 3)",
    ),
    "inertia_ragged.yaml": (
        edit(DH, I1, "[[0.01, 0, 0], [0, 0.01], [0, 0, 0.01]]"),
        "rows[1].inertia: expected numbers of shape (3, 3), got",
    ),
    "inertia_negative.yaml": (
        edit(DH, I1, "[[0.01, 0, 0], [0, -0.01, 0], [0, 0, 0.01]]"),
        "rows[1].inertia: expected a positive semi-definite inertia",
    ),
    "inertia_null.yaml": (edit(DH, I1, "~"), "rows[1].inertia: expected a value, got null"),
    "viscous_negative.yaml": (
        edit(DH, "viscous: 0.05", "viscous: -0.05"),
        "rows[0].viscous: expected a number >= 0",
    ),
    "com_slide_revolute.yaml": (
        edit(DH, "viscous: 0.05", "com_slide: 0.5"),
        "com_slide[1]: only a prismatic joint can move its COM",
    ),
    "row_name_number.yaml": (
        edit(DH, "mass: 2,", "mass: 2, name: 7,"),
        "rows[0].name: expected a non-empty string, got 7",
    ),
    "row_name_empty.yaml": (
        edit(DH, "mass: 2,", "mass: 2, name: '',"),
        "rows[0].name: expected a non-empty string, got ''",
    ),
    "row_names_twice.yaml": (
        edit(edit(DH, "mass: 2,", "mass: 2, name: upper,"), "mass: 1,", "mass: 1, name: upper,"),
        "rows[1].name: 'upper' is already the name of body 1",
    ),
    "row_named_ee.yaml": (
        edit(DH, "mass: 2,", "mass: 2, name: ee,"),
        "frame 'ee': 'ee' is the name of body 1",
    ),
    # payload and tool
    "payload_number.yaml": (DH.split("payload")[0] + "payload: 5\n", "payload: expected a mapping"),
    "payload_negative.yaml": (
        edit(DH, "{mass: 0.5", "{mass: -0.5"),
        "payload.mass: expected a number >= 0, got -0.5",
    ),
    "payload_extra.yaml": (
        edit(DH, "{mass: 0.5", "{colour: red, mass: 0.5"),
        "payload: unknown key(s) ['colour']",
    ),
    "payload_null_inertia.yaml": (
        DH.split("payload")[0] + "payload: {mass: 1, inertia: }\n",
        "payload.inertia: expected a value, got null",
    ),
    "tool_bottom_row.yaml": (
        DH + "tool: [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0.1], [5, 5, 5, 5]]\n",
        "tool: expected a 4x4 homogeneous transform with the bottom row [0, 0, 0, 1], got [5.0, "
        "5.0, 5.0, 5.0]",
    ),
    "tool_not_rotation.yaml": (
        DH + "tool: [[2, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]\n",
        "tool (its rotation, the upper-left 3x3): expected a proper rotation",
    ),
    "tool_shape.yaml": (DH + "tool: [[1, 0, 0]]\n", "tool: expected shape (4, 4), got (1, 3)"),
    "tool_mm_string.yaml": (
        DH + "units: {length: mm}\ntool: eye\n",
        "tool: expected a 4x4 homogeneous transform, got 'eye'",
    ),
}

DH_ACCEPTED = {
    "floats_yaml12.yaml": (
        edit(edit(DH, "mass: 2,", "mass: 2e0,"), "d: 0.4,", "d: 4.0e-1,"),
        Same(DH),
    ),
    "leading_zero.yaml": (edit(DH, "mass: 2,", "mass: 02,"), Same(DH)),
    "hex_integer.yaml": (edit(DH, "mass: 2,", "mass: 0x2,"), Same(DH)),
    "anchors.yaml": (
        edit(
            edit(DH, "inertia: [[0.1", "inertia: &I [[0.1"),
            I1,
            "[[0.01, 0, 0], [0, 0.01, 0], [0, 0, 0.01]]",
        ),
        Same(DH),
    ),
    "merge_key.yaml": (
        edit(DH, "payload: {mass: 0.5, inertia:", "payload: {<<: {mass: 9}, mass: 0.5, inertia:"),
        Same(DH),
    ),
    "crlf_and_bom.yaml": (("\ufeff" + DH).replace("\n", "\r\n").encode(), Same(DH)),
    "mass_negative_zero.yaml": (
        edit(DH, "mass: 2,", "mass: -0.0,"),
        Same(edit(DH, "mass: 2,", "mass: 0,")),
    ),
    "empty_payload.yaml": (
        DH.split("payload")[0] + "payload: {}\n",
        Same(
            DH.split("payload")[0] + "payload: {mass: 0}\n",
            lambda m: (m.nb == 3 and m.mass[3] == 0.0) or pytest.fail("payload"),
        ),
    ),
    "name_yes.yaml": (
        edit(DH, "name: arm", "name: yes"),
        Same(None, lambda m: m.name == "yes" or pytest.fail(m.name)),
    ),
    "name_1e3_quoted.yaml": (
        edit(DH, "name: arm", "name: '1e3'"),
        Same(None, lambda m: m.name == "1e3" or pytest.fail(m.name)),
    ),
}

BODIES = """eslabon: 1
name: tree
gravity: [0, 0, -9.81]
bodies:
  - {name: b1, parent: 0, joint: R, axis: [0, 0, 1], translation: [0, 0, 0.3], mass: 3.0,
     com: [0.1, 0, 0], inertia: [[0.1, 0, 0], [0, 0.1, 0], [0, 0, 0.1]]}
  - {name: b2, parent: 1, joint: P, axis: [1, 0, 0], mass: 1.0,
     inertia: [[0.01, 0, 0], [0, 0.01, 0], [0, 0, 0.01]]}
  - {name: b3, parent: 1, joint: F, translation: [0.2, 0, 0], mass: 0.5}
frames:
  - {name: tool, body: 2, translation: [0, 0, 0.1]}
"""
B2 = "{name: b2, parent: 1,"
TOOL = "{name: tool, body: 2, translation: [0, 0, 0.1]}"

BODY_CASES = {
    "parent_fraction.yaml": (
        edit(BODIES, B2, "{name: b2, parent: 0.7,"),
        "bodies[1].parent: expected a body index in 0..1, got 0.7",
    ),
    "parent_float_integral.yaml": (
        edit(BODIES, B2, "{name: b2, parent: 1.0,"),
        "bodies[1].parent: expected a body index in 0..1, got 1.0",
    ),
    "parent_bool.yaml": (
        edit(BODIES, B2, "{name: b2, parent: true,"),
        "bodies[1].parent: expected a body index in 0..1, got True",
    ),
    "parent_string.yaml": (
        edit(BODIES, B2, "{name: b2, parent: '1',"),
        "bodies[1].parent: expected a body index in 0..1, got '1'",
    ),
    "parent_ahead.yaml": (
        edit(BODIES, B2, "{name: b2, parent: 3,"),
        "bodies[1].parent: expected a body index in 0..1, got 3",
    ),
    "parent_negative.yaml": (
        edit(BODIES, B2, "{name: b2, parent: -1,"),
        "bodies[1].parent: expected a body index in 0..1, got -1",
    ),
    "parent_huge.yaml": (
        edit(BODIES, B2, "{name: b2, parent: " + BIG_INT + ","),
        "bodies[1].parent: expected a body index in 0..1, got 1000",
    ),
    "joint_true.yaml": (
        edit(BODIES, "joint: R", "joint: true"),
        "bodies[0].joint: expected 'R', 'P' or 'F' (revolute, prismatic, fixed) or one of "
        "continuous, helical, universal, planar, spherical, free_flyer, got True",
    ),
    "joint_list.yaml": (
        edit(BODIES, "joint: R", "joint: [R]"),
        "bodies[0].joint: expected 'R', 'P' or 'F'",
    ),
    "joint_unknown.yaml": (edit(BODIES, "joint: R", "joint: ball"), "got 'ball'"),
    "axis_null.yaml": (
        edit(BODIES, "axis: [0, 0, 1]", "axis: null"),
        "bodies[0].axis: expected a value, got null",
    ),
    "axis_zero.yaml": (
        edit(BODIES, "axis: [0, 0, 1]", "axis: [0, 0, 0]"),
        "bodies[0].axis: expected a non-zero joint axis",
    ),
    "axis_short.yaml": (
        edit(BODIES, "axis: [0, 0, 1]", "axis: [0, 1]"),
        "bodies[0].axis: expected shape (3,), got (2,)",
    ),
    "mass_null.yaml": (
        edit(BODIES, "mass: 1.0", "mass: null"),
        "bodies[1].mass: expected a value, got null",
    ),
    "mass_list.yaml": (
        edit(BODIES, "mass: 1.0", "mass: [1]"),
        "bodies[1].mass: expected a number >= 0, got [1]",
    ),
    "mass_big_int.yaml": (
        edit(BODIES, "mass: 1.0", "mass: " + BIG_INT),
        "bodies[1].mass: expected a number >= 0, got 1000",
    ),
    "inertia_null.yaml": (
        edit(
            BODIES,
            "mass: 1.0,\n     inertia: [[0.01, 0, 0], [0, 0.01, 0], [0, 0, 0.01]]",
            "mass: 1.0, inertia: ~",
        ),
        "bodies[1].inertia: expected a value, got null",
    ),
    "rotation_mirror.yaml": (
        edit(BODIES, "joint: F,", "joint: F, rotation: [[1, 0, 0], [0, 1, 0], [0, 0, -1]],"),
        "bodies[2].rotation: expected a proper rotation matrix",
    ),
    "translation_inf.yaml": (
        edit(BODIES, "[0, 0, 0.3]", "[0, 0, .inf]"),
        "bodies[0].translation: expected finite numbers",
    ),
    "coulomb_string.yaml": (
        edit(BODIES, "mass: 0.5}", "mass: 0.5, coulomb: '0.1'}"),
        "bodies[2].coulomb: expected a number >= 0, got '0.1' (a string)",
    ),
    "armature_negative.yaml": (
        edit(BODIES, "mass: 0.5}", "mass: 0.5, armature: -1}"),
        "bodies[2].armature: expected a number >= 0, got -1.0",
    ),
    "com_slide_fixed.yaml": (
        edit(BODIES, "mass: 0.5}", "mass: 0.5, com_slide: 1}"),
        "com_slide[3]: only a prismatic joint can move its COM",
    ),
    "name_duplicate.yaml": (
        edit(BODIES, "{name: b3", "{name: b1"),
        "bodies[2].name: 'b1' is already the name of body 1",
    ),
    "name_number.yaml": (
        edit(BODIES, "{name: b3", "{name: 3"),
        "bodies[2].name: expected a non-empty string, got 3",
    ),
    "name_bool.yaml": (
        edit(BODIES, "{name: b3", "{name: false"),
        "bodies[2].name: expected a non-empty string, got False",
    ),
    "pitch_on_revolute.yaml": (
        edit(BODIES, "joint: R,", "joint: R, pitch: 0.01,"),
        "bodies[0].pitch: a revolute joint has no pitch (joints with one: helical)",
    ),
    "pitch_string.yaml": (
        edit(BODIES, "joint: R,", "joint: helical, pitch: '0.01',"),
        "bodies[0].pitch: expected a number, got '0.01' (a string)",
    ),
    "axis2_on_prismatic.yaml": (
        edit(BODIES, "joint: P,", "joint: P, axis2: [0, 0, 1],"),
        "bodies[1].axis2: a prismatic joint has no second axis (joints with one: universal)",
    ),
    "universal_without_axis2.yaml": (
        edit(BODIES, "joint: R,", "joint: universal,"),
        "bodies[0].axis2: expected the universal joint's second axis",
    ),
    "universal_axis2_zero.yaml": (
        edit(BODIES, "joint: R,", "joint: universal, axis2: [0, 0, 0],"),
        "bodies[0].axis2: expected the universal joint's second axis",
    ),
    "unknown_body_key.yaml": (
        edit(BODIES, "mass: 0.5}", "mass: 0.5, colour: red}"),
        "bodies[2]: unknown key(s) ['colour']",
    ),
    "duplicate_body_key.yaml": (
        edit(BODIES, "mass: 0.5}", "mass: 0.5, mass: 50}"),
        "duplicate key 'mass' (first given at line 9)",
    ),
    "body_scalar.yaml": (
        BODIES.split("bodies:")[0] + "bodies:\n  - b1\n",
        "bodies[0]: expected a mapping, got 'b1'",
    ),
    "bodies_empty.yaml": (
        BODIES.split("bodies:")[0] + "bodies: []\n",
        "bodies: expected a non-empty list, got []",
    ),
    "bodies_mapping.yaml": (
        BODIES.split("bodies:")[0] + "bodies: {b1: 1}\n",
        "bodies: expected a non-empty list, got {'b1': 1}",
    ),
    "units_in_body_list.yaml": (
        BODIES + "units: {length: mm}\n",
        "key(s) ['units'] do not apply to a body list",
    ),
    "payload_in_body_list.yaml": (
        BODIES + "payload: {mass: 5}\n",
        "key(s) ['payload'] do not apply to a body list",
    ),
    "frames_mapping.yaml": (
        edit(BODIES, "frames:\n  - " + TOOL, "frames: {name: tool}"),
        "frames: expected a list of {name, body, rotation, translation}, got {'name': 'tool'}",
    ),
    "frames_null.yaml": (
        edit(BODIES, "frames:\n  - " + TOOL, "frames:"),
        "frames: expected a value, got null",
    ),
    "frame_scalar.yaml": (edit(BODIES, TOOL, "tool"), "frames[0]: expected a mapping, got 'tool'"),
    "frame_no_name.yaml": (
        edit(BODIES, "{name: tool, body: 2", "{body: 2"),
        "frames[0].name: missing",
    ),
    "frame_no_body.yaml": (
        edit(BODIES, "{name: tool, body: 2,", "{name: tool,"),
        "frames[0].body: missing",
    ),
    "frame_extra_key.yaml": (
        edit(BODIES, "body: 2,", "body: 2, parent: 1,"),
        "frames[0]: unknown key(s) ['parent']",
    ),
    "frame_no_such_body.yaml": (
        edit(BODIES, "body: 2,", "body: 9,"),
        "frames[0].body: expected a body index in 0..3, got 9",
    ),
    "frame_body_fraction.yaml": (
        edit(BODIES, "body: 2,", "body: 1.5,"),
        "frames[0].body: expected a body index in 0..3, got 1.5",
    ),
    "frame_body_name.yaml": (
        edit(BODIES, "body: 2,", "body: b2,"),
        "frames[0].body: expected a body index in 0..3, got 'b2'",
    ),
    "frame_name_empty.yaml": (
        edit(BODIES, "{name: tool", "{name: ''"),
        "frames[0].name: expected a non-empty string, got ''",
    ),
    "frame_twice.yaml": (
        BODIES + "  - {name: tool, body: 1}\n",
        "frames[1].name: a frame named 'tool' exists already",
    ),
    "frame_named_other_body.yaml": (
        edit(BODIES, "{name: tool", "{name: b1"),
        "frame 'b1': 'b1' is the name of body 1; a frame of that name must be body 1's own frame",
    ),
    "frame_named_own_body_moved.yaml": (
        edit(BODIES, "{name: tool, body: 2", "{name: b2, body: 2"),
        "frame 'b2': 'b2' is the name of body 2",
    ),
    "frame_rotation_bad.yaml": (
        edit(BODIES, "body: 2,", "body: 2, rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 0]],"),
        "frames[0].rotation: expected a proper rotation matrix",
    ),
    "frame_translation_short.yaml": (
        edit(BODIES, "translation: [0, 0, 0.1]}", "translation: [0, 0.1]}"),
        "frames[0].translation: expected shape (3,), got (2,)",
    ),
}


def _frame_on(name, body):
    def check(model):
        assert model.frame(name).body == body, [(f.name, f.body) for f in model.frames]

    return check


def _joints(types):
    def check(model):
        assert model.joint_types == types, model.joint_types

    return check


BODY_ACCEPTED = {
    "own_body_frame.yaml": (BODIES + "  - {name: b1, body: 1}\n", Same(None, _frame_on("b1", 1))),
    "default_parent.yaml": (edit(BODIES, B2, "{name: b2,"), Same(BODIES)),
    "body_named_ee.yaml": (edit(BODIES, "{name: b1", "{name: ee"), Same(None, _frame_on("ee", 1))),
    "mass_negative_zero.yaml": (
        edit(BODIES, "mass: 0.5}", "mass: -0.0}"),
        Same(edit(BODIES, "mass: 0.5}", "mass: 0}")),
    ),
    "exponent_floats.yaml": (edit(BODIES, "mass: 3.0", "mass: 3e0"), Same(BODIES)),
    "free_flyer_root.yaml": (
        edit(BODIES, "joint: R, axis: [0, 0, 1]", "joint: free_flyer"),
        Same(None, _joints(("free_flyer",) * 6 + ("prismatic",))),
    ),
    "universal_and_helical.yaml": (
        edit(
            edit(BODIES, "joint: R,", "joint: universal, axis2: [1, 0, 0],"),
            "joint: P,",
            "joint: helical, pitch: 0.02,",
        ),
        Same(None, _joints(("universal",) * 2 + ("helical",))),
    ),
    "planar_and_spherical.yaml": (
        edit(edit(BODIES, "joint: R,", "joint: planar,"), "joint: P,", "joint: spherical,"),
        Same(None, _joints(("planar",) * 3 + ("spherical",) * 3)),
    ),
    "world_named_body.yaml": (
        edit(BODIES, "{name: b3", "{name: world"),
        Same(None, lambda m: m.body_names[3] == "world" or pytest.fail(str(m.body_names))),
    ),
}

ALL = {**DH_CASES, **DH_ACCEPTED, **BODY_CASES, **BODY_ACCEPTED}


@pytest.mark.parametrize("name", sorted(ALL))
def test_case_through_the_api(name, tmp_path):
    text, outcome = ALL[name]
    check_case(tmp_path, name, text, outcome)


def test_representative_cases_through_a_real_cli_process(tmp_path):
    check_real_cli(
        tmp_path, ALL, ["duplicate_gravity.yaml", "alias_bomb.yaml", "parent_fraction.yaml"]
    )


def test_every_case_through_the_cli(tmp_path):
    check_cli(tmp_path, ALL)


def test_oversized_file_is_refused_before_reading(tmp_path):
    path = tmp_path / "big.yaml"
    with open(path, "wb") as f:
        f.truncate(10 * 2**20 + 1)  # sparse: nothing to read
    with pytest.raises(
        ValueError,
        match=r"big\.yaml: 10485761 bytes is larger than the "
        r"10485760 bytes a YAML file may have",
    ):
        load_model(path)


def test_hostile_names_survive_a_yaml_round_trip(tmp_path):
    """Names a YAML 1.1 or 1.2 reader could take for something else, or that hold YAML
    syntax, are written quoted and read back as the same strings."""
    names = ["yes", "1e3", "010", "null", "1:30", "a: b", "- x", "#c", "x\ny", "'\"", "~"]
    text = BODIES
    for i, n in enumerate(names[:3]):
        text = edit(text, f"{{name: b{i + 1}", "{name: " + repr(n).replace("'", '"'))
    model = load_model(_write(tmp_path, "in.yaml", text))
    for n in names:
        model = model.replace(name=n)
        back = load_model(save_model(model, tmp_path / "out.yaml"))
        assert back.name == n and back.body_names == model.body_names
        assert back.packed.tobytes() == model.packed.tobytes()


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_dh_table_saved_with_a_hostile_name_reloads(tmp_path):
    model = load_model(_write(tmp_path, "dh.yaml", DH)).replace(name="on: [x]")
    back = load_model(save_model(model, tmp_path / "dh_out.yaml"))
    assert back.name == "on: [x]" and back.dh is not None
    np.testing.assert_array_equal(back.packed, model.packed)
