"""Malformed and hostile URDF files, and names that could break ``to_urdf`` (issue
"Nothing silently wrong"): each case is refused with a one-line ValueError naming the
element and its line, or accepted as exactly the model its plain spelling gives; every
case also through ``eslabon info``. A massless link that has an inertia keeps it
(Pinocchio as the oracle)."""

from xml.parsers import expat

import numpy as np
import pytest

import eslabon as es
from eslabon.model import from_urdf, read_urdf, save_model, to_urdf
from eslabon.model.files import load_arm_model as load_model
from eslabon.model.urdf import _comment
from hostile import Same, check_case, check_cli, check_real_cli, edit, same_model

URDF = """<?xml version="1.0"?>
<robot name="r">
  <link name="base"/>
  <link name="l1">
    <inertial><origin xyz="0 0 0.1"/><mass value="1"/>
      <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
  </link>
  <link name="l2">
    <inertial><mass value="0.5"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
    <visual><geometry><box size="0.1 0.1 0.3"/></geometry></visual>
  </link>
  <link name="tool"/>
  <joint name="j1" type="revolute">
    <parent link="base"/><child link="l1"/>
    <origin xyz="0 0 0.2" rpy="0 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
  <joint name="j2" type="prismatic">
    <parent link="l1"/><child link="l2"/>
    <origin xyz="0.3 0 0"/><axis xyz="1 0 0"/>
    <limit lower="0" upper="0.5" effort="1" velocity="1"/>
    <dynamics damping="0.1" friction="0.05"/>
  </joint>
  <joint name="tool_joint" type="fixed">
    <parent link="l2"/><child link="tool"/><origin xyz="0 0 0.1"/>
  </joint>
</robot>
"""
END = "</robot>\n"
L1_INERTIA = '<inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/>'
J1_ORIGIN = '<origin xyz="0 0 0.2" rpy="0 0 0"/>'
LOOP = (
    '<link name="a"/><link name="b"/>'
    '<joint name="ab" type="fixed"><parent link="a"/><child link="b"/></joint>'
    '<joint name="ba" type="fixed"><parent link="b"/><child link="a"/></joint>\n'
)


def add(text):
    """URDF with ``text`` added before ``</robot>``."""
    return edit(URDF, END, text + END)


def billion_laughs():
    entities = ['<!ENTITY lol "lol">'] + [
        f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">'
        for i in range(1, 10)
    ]
    return (
        '<?xml version="1.0"?>\n<!DOCTYPE robot [\n'
        + "\n".join(entities)
        + "\n]>\n"
        + URDF.split("\n", 1)[1].replace('name="r"', 'name="&lol9;"')
    )


def line_of(text, needle):
    return text[: text.index(needle)].count("\n") + 1


ADDED = line_of(URDF, END)  # the line of text added by add()
DYNAMICS = line_of(URDF, "<dynamics")
MIMIC = line_of(URDF, '<child link="l2"/>')
CASES = {
    # the tree of links and joints
    "cycle_apart.urdf": (
        add(LOOP),
        "link(s) ['a', 'b'] are not connected to the root link 'base': the joints ['ba', 'ab'] "
        "form a loop through the links",
    ),
    "everything_a_loop.urdf": (
        '<robot name="x">' + LOOP + "</robot>",
        "no root link: every link has a parent joint; the joints ['ba', 'ab'] form a loop through "
        "the links ['a', 'b']",
    ),
    "duplicate_link.urdf": (
        add('<link name="l1"><inertial><mass value="50"/>' + L1_INERTIA + "</inertial></link>\n"),
        f"<link> at line {ADDED}: name 'l1' is already the name of the <link> at line 4",
    ),
    "duplicate_joint.urdf": (
        add(
            '<link name="l3"/><joint name="j1" type="fixed"><parent link="l2"/><child '
            'link="l3"/></joint>\n'
        ),
        f"<joint> at line {ADDED}: name 'j1' is already the name of the <joint> at line 14",
    ),
    "no_links.urdf": (
        '<?xml version="1.0"?>\n<robot name="r">\n</robot>\n',
        "<robot> at line 2: no <link> element",
    ),
    "two_roots.urdf": (
        add('<link name="stray"/>\n'),
        "expected one root link (a link that is no joint's child), found 2: 'base' (line 3), "
        f"'stray' (line {ADDED})",
    ),
    "own_parent.urdf": (
        add('<joint name="self" type="fixed"><parent link="l1"/><child link="l1"/></joint>\n'),
        f"<joint> at line {ADDED} 'self': link 'l1' is both its parent and its child",
    ),
    "two_parents.urdf": (
        add('<joint name="j3" type="fixed"><parent link="base"/><child link="l2"/></joint>\n'),
        f"<joint> at line {ADDED} 'j3': link 'l2' already has parent joint 'j2'",
    ),
    "undefined_parent.urdf": (
        edit(URDF, '<parent link="base"/>', '<parent link="nowhere"/>'),
        "<joint> at line 14 'j1': parent link 'nowhere' is not defined",
    ),
    "parent_without_link.urdf": (
        edit(URDF, '<parent link="base"/>', "<parent/>"),
        "<parent> at line 15 in joint 'j1': link: missing",
    ),
    "no_child.urdf": (
        edit(URDF, '<child link="l1"/>', ""),
        "<joint> at line 14 'j1': expected <parent> and <child>",
    ),
    "loop_joint.urdf": (
        add('<loop_joint name="c"/>\n'),
        f"<loop_joint> at line {ADDED}: closed loops are not supported",
    ),
    # names and types
    "joint_without_name.urdf": (
        edit(URDF, '<joint name="j1" type="revolute">', '<joint type="revolute">'),
        "<joint> at line 14: name: missing",
    ),
    "link_without_name.urdf": (
        edit(URDF, '<link name="tool"/>', "<link/>"),
        "<link> at line 13: name: missing",
    ),
    "joint_without_type.urdf": (
        edit(URDF, 'name="j1" type="revolute"', 'name="j1"'),
        "<joint> at line 14 'j1': type: missing",
    ),
    "ball_joint.urdf": (
        edit(URDF, 'type="revolute"', 'type="ball"'),
        "<joint> at line 14 'j1': type 'ball' is not supported (expected revolute, "
        "continuous, prismatic, fixed, floating or planar)",
    ),
    "planar_about_y.urdf": (
        edit(edit(URDF, 'type="revolute"', 'type="planar"'), 'xyz="0 0 1"', 'xyz="0 1 0"'),
        "<joint> at line 14 'j1': axis '0 1 0': a planar joint's axis is the normal of its "
        "plane, and eslabon's planar joint moves in its joint frame's xy plane: expected "
        "axis 0 0 1 (rotate the joint's <origin> so that its z is the normal)",
    ),
    "planar_without_axis.urdf": (
        edit(edit(URDF, 'type="revolute"', 'type="planar"'), '<axis xyz="0 0 1"/>', ""),
        "<joint> at line 14 'j1': no axis (URDF's default is 1 0 0): a planar joint's axis",
    ),
    "mimic_nowhere.urdf": (
        edit(URDF, '<child link="l2"/>', '<child link="l2"/><mimic joint="nope"/>'),
        f"<mimic> at line {MIMIC} in joint 'j2': joint 'nope' is not a moving joint of this robot",
    ),
    "not_robot.urdf": (
        '<robots name="r"><link name="a"/></robots>',
        "expected a <robot> root element, got <robots>",
    ),
    "xacro.urdf": (
        add('<xacro:property name="l" value="1"/>\n'),
        f"<xacro:property> at line {ADDED}: this is a xacro file",
    ),
    # numbers
    "origin_two_numbers.urdf": (
        edit(URDF, J1_ORIGIN, '<origin xyz="0 0.2" rpy="0 0 0"/>'),
        "<origin> at line 16: xyz: expected 3 finite numbers, got '0 0.2'",
    ),
    "rpy_four_numbers.urdf": (
        edit(URDF, J1_ORIGIN, '<origin xyz="0 0 0.2" rpy="0 0 0 0"/>'),
        "<origin> at line 16: rpy: expected 3 finite numbers, got '0 0 0 0'",
    ),
    "xyz_commas.urdf": (
        edit(URDF, J1_ORIGIN, '<origin xyz="0,0,0.2"/>'),
        "xyz: expected 3 finite numbers, got '0,0,0.2'",
    ),
    "two_origins.urdf": (
        edit(URDF, J1_ORIGIN, J1_ORIGIN * 2),
        "<origin> at line 16: a second <origin> in the <joint> at line 14 (one is allowed)",
    ),
    "two_axes.urdf": (
        edit(URDF, '<axis xyz="0 0 1"/>', '<axis xyz="0 0 1"/><axis xyz="1 0 0"/>'),
        "a second <axis> in the <joint> at line 14",
    ),
    "two_inertials.urdf": (
        edit(
            URDF,
            '<link name="tool"/>',
            '<link name="tool"><inertial><mass value="1"/>'
            + L1_INERTIA
            + "</inertial><inertial/></link>",
        ),
        "<inertial> at line 13: a second <inertial> in the <link> at line 13",
    ),
    "axis_zero.urdf": (
        edit(URDF, '<axis xyz="0 0 1"/>', '<axis xyz="0 0 0"/>'),
        "<joint> at line 14 'j1': axis: expected a non-zero vector",
    ),
    "axis_nan.urdf": (
        edit(URDF, '<axis xyz="0 0 1"/>', '<axis xyz="0 nan 1"/>'),
        "<axis> at line 16: xyz: expected 3 finite numbers, got '0 nan 1'",
    ),
    "mass_word.urdf": (
        edit(URDF, '<mass value="1"/>', '<mass value="heavy"/>'),
        "<mass> at line 5: value: expected 1 finite number, got 'heavy'",
    ),
    "mass_underscore.urdf": (
        edit(URDF, '<mass value="1"/>', '<mass value="1_000"/>'),
        "<mass> at line 5: value: expected 1 finite number, got '1_000'",
    ),
    "mass_inf.urdf": (
        edit(URDF, '<mass value="1"/>', '<mass value="inf"/>'),
        "value: expected 1 finite number, got 'inf'",
    ),
    "mass_1e400.urdf": (
        edit(URDF, '<mass value="1"/>', '<mass value="1e400"/>'),
        "<mass> at line 5: value: expected 1 finite number, got '1e400'",
    ),
    "mass_two_numbers.urdf": (
        edit(URDF, '<mass value="1"/>', '<mass value="1 2"/>'),
        "value: expected 1 finite number, got '1 2'",
    ),
    "mass_negative.urdf": (
        edit(URDF, '<mass value="1"/>', '<mass value="-1"/>'),
        "<link> at line 4 'l1'.mass: expected a number >= 0, got -1.0",
    ),
    "mass_without_value.urdf": (
        edit(URDF, '<mass value="1"/>', "<mass/>"),
        "<mass> at line 5: value: missing",
    ),
    "inertial_without_mass.urdf": (
        edit(URDF, '<mass value="1"/>', ""),
        "<inertial> at line 5: <mass> missing (an <inertial> needs <mass value> and <inertia",
    ),
    "inertial_without_inertia.urdf": (
        edit(URDF, L1_INERTIA, ""),
        "<inertial> at line 5: <inertia> missing",
    ),
    "inertia_without_izz.urdf": (
        edit(URDF, L1_INERTIA, L1_INERTIA.replace(' izz="0.1"', "")),
        "<inertia> at line 6: izz: missing (1 number expected)",
    ),
    "inertia_indefinite.urdf": (
        edit(URDF, L1_INERTIA, L1_INERTIA.replace('iyy="0.1"', 'iyy="-0.1"')),
        "<link> at line 4 'l1'.inertia: expected a positive semi-definite inertia",
    ),
    "damping_negative.urdf": (
        edit(URDF, 'damping="0.1"', 'damping="-0.1"'),
        f"<dynamics> at line {DYNAMICS}: damping: expected a number >= 0, got -0.1",
    ),
    "armature_negative.urdf": (
        edit(URDF, "<dynamics damping", '<eslabon armature="-1"/><dynamics damping'),
        f"<eslabon> at line {DYNAMICS}: armature: expected a number >= 0, got -1.0",
    ),
    "limit_word.urdf": (
        edit(URDF, 'lower="-1"', 'lower="minus one"'),
        "<limit> at line 17: lower: expected 1 finite number",
    ),
    # visuals
    "box_two_sizes.urdf": (
        edit(URDF, 'size="0.1 0.1 0.3"', 'size="0.1 0.1"'),
        "<box> at line 11: size: expected 3 finite numbers, got '0.1 0.1'",
    ),
    "box_negative.urdf": (
        edit(URDF, 'size="0.1 0.1 0.3"', 'size="-0.1 0.1 0.3"'),
        "<box> at line 11: size: expected sizes >= 0, got '-0.1 0.1 0.3'",
    ),
    "cylinder_without_length.urdf": (
        edit(URDF, '<box size="0.1 0.1 0.3"/>', '<cylinder radius="0.1"/>'),
        "<cylinder> at line 11: length: missing",
    ),
    "mesh_without_file.urdf": (
        edit(URDF, '<box size="0.1 0.1 0.3"/>', "<mesh/>"),
        "<mesh> at line 11: filename: missing",
    ),
    # the XML itself
    "truncated.urdf": (URDF[:400], "not valid XML (unclosed token: line 11, column 23)"),
    "billion_laughs.urdf": (
        billion_laughs(),
        "<!DOCTYPE robot [...]> at line 2: a document type declaration with an internal subset",
    ),
    "attribute_default.urdf": (
        '<?xml version="1.0"?>\n<!DOCTYPE robot [<!ATTLIST mass value CDATA "50">]>\n'
        + URDF.split("\n", 1)[1],
        "a document type declaration with an internal subset",
    ),
    "not_utf8.urdf": (
        URDF.encode().replace(b'name="r"', b'name="\xff"'),
        "not valid XML (not well-formed",
    ),
    "blank_lines_then_error.urdf": (
        "\n\n" + edit(URDF, 'xyz="0.3 0 0"', 'xyz="0.3 0"'),
        f"<origin> at line {2 + line_of(URDF, 'xyz=' + chr(34) + '0.3 0 0')}: xyz",
    ),
    "blank_lines_then_bad_xml.urdf": (
        "\n\n\n" + URDF.replace("</joint>\n</robot>", "</robot>"),
        f"mismatched tag: line {3 + line_of(URDF, '</joint>' + chr(10) + '</robot>')}",
    ),
}


def _limits(expected):
    def check(model):
        info = read_urdf(model.source.removeprefix("URDF "))[1]
        assert info.limits == expected, info.limits

    return check


def _joints(types, limits):
    def check(model):
        assert model.joint_types == types, model.joint_types
        info = read_urdf(model.source.removeprefix("URDF "))[1]
        assert info.limits == limits and info.joint_names == ["j1", "j2"], info

    return check


LEAF = (
    '<link name="tool"><inertial><origin xyz="0.05 0 0"/><mass value="0"/>'
    '<inertia ixx="0.1" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.03"/></inertial></link>'
)
ACCEPTED = {
    "blank_line_before_declaration.urdf": ("\n" + URDF, Same(URDF)),
    "spaces_before_declaration.urdf": ("  \n\t " + URDF, Same(URDF)),
    "bom_before_declaration.urdf": (b"\xef\xbb\xbf\n" + URDF.encode(), Same(URDF)),
    "latin1_declared.urdf": (
        edit(URDF, '<?xml version="1.0"?>', '<?xml version="1.0" encoding="ISO-8859-1"?>')
        .replace('"tool"', '"t\u00e9"')
        .encode("latin-1"),
        Same(URDF.replace('"tool"', '"t\u00e9"')),
    ),
    "lower_above_upper.urdf": (
        edit(URDF, 'lower="-1" upper="1"', 'lower="0" upper="-1"'),
        Same(URDF, _limits({"j2": (0.0, 0.5)})),
    ),
    "lower_equals_upper.urdf": (
        edit(URDF, 'lower="-1" upper="1"', 'lower="0" upper="0"'),
        Same(URDF, _limits({"j2": (0.0, 0.5)})),
    ),
    "number_spellings.urdf": (
        edit(
            edit(URDF, '<mass value="1"/>', '<mass value=" +1.0E0 "/>'),
            'xyz="0 0 0.2"',
            'xyz="0. -0 .2"',
        ),
        Same(edit(URDF, 'xyz="0 0 0.2"', 'xyz="0 -0.0 0.2"')),
    ),
    "extra_elements.urdf": (
        add(
            '<gazebo reference="l1"><material>x</material></gazebo>'
            '<transmission name="t"/><material name="m"/>\n'
        ),
        Same(URDF),
    ),
    "doctype_without_subset.urdf": (
        edit(URDF, "<robot", "<!DOCTYPE robot>\n<robot").replace("\n<robot", "<robot", 1),
        Same(URDF),
    ),
    "floating.urdf": (
        edit(URDF, 'type="revolute"', 'type="floating"'),  # its <axis> and <limit> ignored
        Same(None, _joints(("free_flyer",) * 6 + ("prismatic",), {"j2": (0.0, 0.5)})),
    ),
    "planar.urdf": (
        edit(edit(URDF, 'type="revolute"', 'type="planar"'), 'xyz="0 0 1"', 'xyz="0 0 2"'),
        Same(
            edit(URDF, 'type="revolute"', 'type="planar"'),
            _joints(("planar",) * 3 + ("prismatic",), {"j2": (0.0, 0.5)}),
        ),
    ),
    "massless_leaf_frame.urdf": (
        edit(
            URDF,
            '<link name="tool"/>',
            '<link name="tool"><inertial><mass value="0"/><inertia ixx="0" ixy="0" ixz="0" '
            'iyy="0" iyz="0" izz="0"/></inertial></link>',
        ),
        Same(URDF, lambda m: (m.nb, m.frame("tool").body) == (2, 2) or pytest.fail(str(m))),
    ),
    "massless_leaf_with_inertia.urdf": (
        edit(URDF, '<link name="tool"/>', LEAF),
        Same(
            None,
            lambda m: (
                (m.nb, m.body_names[3], m.inertia[3][0, 0]) == (3, "tool", 0.1)
                or pytest.fail(str(m.body_names))
            ),
        ),
    ),
}

ALL = {**CASES, **ACCEPTED}


@pytest.mark.parametrize("name", sorted(ALL))
def test_case_through_the_api(name, tmp_path):
    text, outcome = ALL[name]
    check_case(tmp_path, name, text, outcome)


def test_representative_cases_through_a_real_cli_process(tmp_path):
    check_real_cli(tmp_path, CASES, ["cycle_apart.urdf", "duplicate_link.urdf"])


def test_every_case_through_the_cli(tmp_path):
    check_cli(tmp_path, ALL)


def test_oversized_file_is_refused_before_reading(tmp_path):
    path = tmp_path / "big.urdf"
    with open(path, "wb") as f:
        f.truncate(50 * 2**20 + 1)
    with pytest.raises(ValueError, match=r"big\.urdf: 52428801 bytes is larger than the 52428800"):
        load_model(path)


def test_massless_leaf_keeps_its_inertia_as_pinocchio_does():
    """A zero-mass leaf link on a fixed joint with a rotational inertia (a real file's
    mass matrix was off by 0.10 kg·m²) is a body: the mass matrix and inverse dynamics
    equal Pinocchio's, equal those of the same link placed mid-chain, and differ from
    the model without that inertia by the inertia's moment about the joint axis."""
    pin = pytest.importorskip("pinocchio")
    text = edit(URDF, '<link name="tool"/>', LEAF)
    model = from_urdf(text, gravity=(0, 0, -9.81))
    model = model.replace(viscous=np.zeros(model.nb + 1), coulomb=np.zeros(model.nb + 1))
    pmodel = pin.buildModelFromXML(text)
    data = pmodel.createData()
    without = from_urdf(URDF).replace(viscous=np.zeros(3), coulomb=np.zeros(3))
    # the same link with a child of its own: never a frame, so the reference
    mid = from_urdf(
        add(
            '<link name="tip"/><joint name="jt" type="revolute"><parent link="tool"/>'
            '<child link="tip"/></joint>\n'
        ).replace('<link name="tool"/>', LEAF)
    )
    for q in np.random.default_rng(3).uniform(-1, 1, (4, 2)):
        M = pin.crba(pmodel, data, q)
        M = np.triu(M) + np.triu(M, 1).T
        np.testing.assert_allclose(es.mass_matrix(model, q), M, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(
            es.inverse_dynamics(model, q, q, q),
            pin.rnea(pmodel, data, q, q, q),
            rtol=1e-12,
            atol=1e-12,
        )
        np.testing.assert_allclose(
            es.mass_matrix(mid, np.r_[q, 0.0])[:2, :2], M, rtol=1e-12, atol=1e-14
        )
        # joint 1 turns about z: the leaf's izz (0.03) is all it adds to M[0, 0]
        added = es.mass_matrix(model, q)[0, 0] - es.mass_matrix(without, q)[0, 0]
        np.testing.assert_allclose(added, 0.03, rtol=1e-12)


HOSTILE = (
    'x"/><link name="evil"><inertial><mass value="50"/><inertia ixx="1" ixy="0" ixz="0" '
    'iyy="1" iyz="0" izz="1"/></inertial></link><joint name="e" type="fixed"><parent '
    'link="world"/><child link="evil"/></joint><robot name="y'
)
NAMES = [HOSTILE, "<&>", "a'b\"c", "tab\there", "new\nline", "-- not a comment end -->", "world"]


@pytest.mark.parametrize("name", NAMES)
def test_hostile_names_round_trip_through_to_urdf(name, tmp_path):
    """A model, body or frame name with quotes, markup, ampersands, white space or a
    comment end reads back as the same model: same name, bodies, frames, packed array."""
    base = load_model(_write(tmp_path, "m.urdf", URDF))
    names = list(base.body_names)
    names[1] = name
    frames = tuple(
        f if f.name != "tool" else type(f)(name + " tool", f.body, f.rotation, f.translation)
        for f in base.frames
        if f.name != "l1"
    )
    model = base.replace(name=name, body_names=tuple(names), frames=frames)
    text = to_urdf(model)
    back = from_urdf(text, gravity=model.gravity)
    assert back.name == name and back.nb == model.nb and back.nq == model.nq
    assert back.packed.tobytes() == model.packed.tobytes()
    assert back.body_names == model.body_names
    assert {f.name for f in back.frames} == {f.name for f in model.frames} | {name}
    same_model(back, from_urdf(to_urdf(back, tmp_path / "again.urdf"), gravity=model.gravity))
    as_yaml = load_model(save_model(model, tmp_path / "m.yaml"))
    assert as_yaml.packed.tobytes() == model.packed.tobytes() and as_yaml.name == name


def test_a_character_xml_cannot_hold_is_refused():
    model = es.zoo.load("planar2")
    with pytest.raises(
        ValueError,
        match=r"^name: 'bad\\x01name' holds '\\x01', a character XML "
        "cannot hold",
    ):
        to_urdf(model.replace(name="bad\x01name"))


@pytest.mark.parametrize("text", ["a -- b", "ends with -", "--->", "-", "x\x00y"])
def test_comments_cannot_be_broken(text):
    """No text ends a comment early or makes it illegal (``--`` inside, ``-`` last)."""
    seen = []
    parser = expat.ParserCreate()
    parser.CommentHandler = seen.append
    parser.Parse(f"<r>{_comment(text)}</r>", True)
    assert len(seen) == 1 and "--" not in seen[0]


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path
