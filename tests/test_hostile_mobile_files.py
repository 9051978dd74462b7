"""Malformed and hostile mobile-manipulator files (a ``mobile`` section; issue "Nothing
silently wrong"): refused with a one-line ValueError naming the field, or accepted as
exactly the manipulator the plain spelling gives; every case also through ``eslabon
info`` (which refuses a mobile file it cannot show, so an accepted one is checked by
the API only)."""

import pytest

import eslabon as es
from eslabon import load_model
from eslabon.mobile.files import save_mobile
from eslabon.model import save_model
from hostile import Same, check_case, check_cli, check_real_cli, edit

BIG_INT = "1" + "0" * 400

MOBILE = """eslabon: 1
name: mm
mobile:
  platform: {type: tricycle, assumed: seekur_jr, params: {wheelbase: 0.9}}
  arm: puma560_araujo
  mount: {translation: [0.3, 0, 0.5]}
  mode: coupled
  gravity: 9.81
"""
PARAMS = "params: {wheelbase: 0.9}"

CASES = {
    "gravity_negative.yaml": (
        edit(MOBILE, "gravity: 9.81", "gravity: -9.81"),
        "mobile.gravity: expected a magnitude >= 0 (gravity pulls along -z of the floor), got "
        "-9.81",
    ),
    "gravity_bool.yaml": (
        edit(MOBILE, "gravity: 9.81", "gravity: true"),
        "mobile.gravity: expected a magnitude >= 0, got True (a boolean)",
    ),
    "gravity_vector.yaml": (
        edit(MOBILE, "gravity: 9.81", "gravity: [0, 0, -9.81]"),
        "mobile.gravity: expected a magnitude >= 0, got [0, 0, -9.81]",
    ),
    "gravity_string.yaml": (
        edit(MOBILE, "gravity: 9.81", "gravity: '9.81'"),
        "mobile.gravity: expected a magnitude >= 0, got '9.81' (a string)",
    ),
    "gravity_nan.yaml": (
        edit(MOBILE, "gravity: 9.81", "gravity: .nan"),
        "mobile.gravity: expected finite numbers",
    ),
    "gravity_null.yaml": (
        edit(MOBILE, "gravity: 9.81", "gravity:"),
        "mobile.gravity: expected a value, got null",
    ),
    "wheelbase_bool.yaml": (
        edit(MOBILE, PARAMS, "params: {wheelbase: true}"),
        "mobile.platform.params.wheelbase: expected a number, got True (a boolean)",
    ),
    "wheelbase_string.yaml": (
        edit(MOBILE, PARAMS, "params: {wheelbase: '0.9'}"),
        "mobile.platform.params.wheelbase: expected a number, got '0.9' (a string)",
    ),
    "wheelbase_negative.yaml": (
        edit(MOBILE, PARAMS, "params: {wheelbase: -0.9}"),
        "TricycleParams.wheelbase: expected > 0, got -0.9",
    ),
    "chassis_mass_huge.yaml": (
        edit(MOBILE, PARAMS, "params: {chassis_mass: " + BIG_INT + "}"),
        "mobile.platform.params.chassis_mass: expected a number, got 1000",
    ),
    "front_wheels_fraction.yaml": (
        edit(MOBILE, PARAMS, "params: {front_wheels: 1.5}"),
        "mobile.platform.params.front_wheels: expected an integer (1 or 2), got 1.5",
    ),
    "front_wheels_bool.yaml": (
        edit(MOBILE, PARAMS, "params: {front_wheels: true}"),
        "mobile.platform.params.front_wheels: expected an integer (1 or 2), got True",
    ),
    "front_wheels_three.yaml": (
        edit(MOBILE, PARAMS, "params: {front_wheels: 3}"),
        "TricycleParams.front_wheels: expected 1 or 2, got 3",
    ),
    "params_unknown.yaml": (
        edit(MOBILE, PARAMS, "params: {wheel_base: 0.9}"),
        "mobile.platform.params: unknown parameter(s) ['wheel_base']",
    ),
    "params_null.yaml": (
        edit(MOBILE, PARAMS, "params: "),
        "mobile.platform.params: expected a value, got null",
    ),
    "params_list.yaml": (
        edit(MOBILE, PARAMS, "params: [0.9]"),
        "mobile.platform.params: expected a mapping, got [0.9]",
    ),
    "params_missing.yaml": (
        edit(MOBILE, "assumed: seekur_jr, ", ""),
        "TricycleParams.rear_half_track: missing",
    ),
    "assumed_bool.yaml": (
        edit(MOBILE, "assumed: seekur_jr", "assumed: true"),
        "mobile.platform.assumed: expected seekur_jr or nothing, got True",
    ),
    "type_list.yaml": (
        edit(MOBILE, "type: tricycle", "type: [tricycle]"),
        "mobile.platform.type: expected one of ['differential_drive', 'omnidirectional', "
        "'synchronous_drive', 'tricycle'], got "
        "['tricycle']",
    ),
    "platform_scalar.yaml": (
        edit(MOBILE, "{type: tricycle, assumed: seekur_jr, " + PARAMS + "}", "tricycle"),
        "mobile.platform: expected a mapping, got 'tricycle'",
    ),
    "thesis_yes.yaml": (
        MOBILE + "  thesis: {lateral_acceleration: yes}\n",
        "mobile.thesis.lateral_acceleration: expected true or false, got 'yes'",
    ),
    "thesis_one.yaml": (
        MOBILE + "  thesis: {lateral_acceleration: 1}\n",
        "mobile.thesis.lateral_acceleration: expected true or false, got 1",
    ),
    "thesis_unknown.yaml": (
        MOBILE + "  thesis: {lateral: true}\n",
        "mobile.thesis: unknown flag(s) ['lateral']",
    ),
    "mount_bool.yaml": (
        edit(MOBILE, "[0.3, 0, 0.5]", "[0.3, true, 0.5]"),
        "mobile.mount.translation: expected numbers of shape (3,), got [0.3, True, 0.5]: True is "
        "a boolean",
    ),
    "mount_mirror.yaml": (
        edit(
            MOBILE, "[0.3, 0, 0.5]}", "[0.3, 0, 0.5], rotation: [[1, 0, 0], [0, 1, 0], [0, 0, -1]]}"
        ),
        "mobile.mount.rotation: expected a proper rotation matrix",
    ),
    "mount_null.yaml": (
        edit(MOBILE, "mount: {translation: [0.3, 0, 0.5]}", "mount:"),
        "mobile.mount: expected a value, got null",
    ),
    "mount_extra.yaml": (
        edit(MOBILE, "{translation:", "{yaw: 1, translation:"),
        "mobile.mount: unknown key(s) ['yaw']",
    ),
    "mode_null.yaml": (
        edit(MOBILE, "mode: coupled", "mode: ~"),
        "mobile.mode: expected a value, got null",
    ),
    "mode_list.yaml": (
        edit(MOBILE, "mode: coupled", "mode: [coupled]"),
        "mobile.mode: expected one of ('coupled', 'thesis'), got ['coupled']",
    ),
    "thesis_constants_typo.yaml": (
        edit(MOBILE, "mode: coupled", "mode: thesis\n  thesis: {constants: printed}"),
        "mobile.thesis.constants: expected one of ('martinenko', 'platform'), got 'printed'",
    ),
    "omni_ragged_wheels.yaml": (
        edit(
            edit(MOBILE, "type: tricycle", "type: omnidirectional"),
            PARAMS,
            "params: {wheels: [[0, 1, 0, 0], [1, 0]]}",
        ),
        "mobile.platform.params.wheels: expected a list of rows [x, y, heading, roller_angle]",
    ),
    "synchro_wrong_assumed.yaml": (
        edit(
            edit(MOBILE, "type: tricycle", "type: synchronous_drive"),
            PARAMS,
            "params: {}",
        ),
        "mobile.platform.assumed: expected three_wheel or nothing, got 'seekur_jr'",
    ),
    "arm_number.yaml": (
        edit(MOBILE, "arm: puma560_araujo", "arm: 5"),
        "mobile.arm: expected a zoo name or a model file name, got 5",
    ),
    "arm_itself.yaml": (
        edit(MOBILE, "arm: puma560_araujo", "arm: arm_itself.yaml"),
        "arm_itself.yaml: is a mobile manipulator, not an arm model",
    ),
    "arm_missing_file.yaml": (
        edit(MOBILE, "arm: puma560_araujo", "arm: nowhere.yaml"),
        "mobile.arm: 'nowhere.yaml' is neither a zoo model nor a model file",
    ),
    "duplicate_mode.yaml": (
        MOBILE + "  mode: thesis\n",
        "duplicate key 'mode' (first given at line 7)",
    ),
    "mobile_list.yaml": (
        "eslabon: 1\nmobile: [tricycle]\n",
        "mobile: expected a mapping, got ['tricycle']",
    ),
    "mobile_null.yaml": ("eslabon: 1\nmobile:\n", "mobile: expected a value, got null"),
    "name_false.yaml": (
        edit(MOBILE, "name: mm", "name: false"),
        "name: expected a non-empty string, got False",
    ),
    "gravity_beside.yaml": (
        "gravity: [0, 0, -1.62]\n" + MOBILE,
        "key(s) ['gravity'] do not apply beside 'mobile'",
    ),
}

ACCEPTED = {
    "gravity_zero.yaml": (
        edit(MOBILE, "gravity: 9.81", "gravity: 0"),
        Same(None, lambda mm: mm.gravity == 0.0 or pytest.fail(str(mm.gravity))),
    ),
    "gravity_exponent.yaml": (edit(MOBILE, "gravity: 9.81", "gravity: 981e-2"), Same(MOBILE)),
    "wheelbase_integer.yaml": (
        edit(MOBILE, PARAMS, "params: {wheelbase: 1}"),
        Same(edit(MOBILE, PARAMS, "params: {wheelbase: 1.0}")),
    ),
    "front_wheels_two.yaml": (
        edit(MOBILE, PARAMS, "params: {front_wheels: 2, front_half_track: 0.3}"),
        Same(None, lambda mm: mm.platform.params.front_wheels == 2 or pytest.fail("front_wheels")),
    ),
    "thesis_flags.yaml": (
        edit(MOBILE, "mode: coupled", "mode: thesis") + "  thesis: {lateral_acceleration: true}\n",
        Same(
            None,
            lambda mm: (
                (mm.mode, mm.thesis.lateral_acceleration) == ("thesis", True)
                or pytest.fail(str(mm.thesis))
            ),
        ),
    ),
}

ALL = {**CASES, **ACCEPTED}


@pytest.mark.parametrize("name", sorted(ALL))
def test_case_through_the_api(name, tmp_path):
    text, outcome = ALL[name]
    check_case(tmp_path, name, text, outcome, load=load_model)


def test_representative_cases_through_a_real_cli_process(tmp_path):
    check_real_cli(tmp_path, CASES, ["arm_itself.yaml"])


def test_refused_cases_through_the_cli(tmp_path):
    check_cli(tmp_path, CASES)


def test_arm_file_errors_name_both_files(tmp_path):
    """A bad arm file is named after the mobile file's field that points to it."""
    arm = tmp_path / "arm.yaml"
    save_model(es.zoo.load("planar2"), arm)
    arm.write_text(edit(arm.read_text(), "mass: 2.0", "mass: true"))
    mobile = tmp_path / "m.yaml"
    mobile.write_text(edit(MOBILE, "arm: puma560_araujo", "arm: arm.yaml"))
    with pytest.raises(ValueError) as exc:
        load_model(mobile)
    message = str(exc.value)
    assert message.startswith(
        f"{mobile}: mobile.arm: {arm}: rows[0].mass: expected a number >= 0, got True (a boolean)"
    ), message


def test_an_arm_given_as_a_file_is_the_same_arm(tmp_path):
    save_model(es.zoo.load("puma560_araujo"), tmp_path / "puma.yaml")
    path = tmp_path / "m.yaml"
    path.write_text(edit(MOBILE, "arm: puma560_araujo", "arm: puma.yaml"))
    mm = load_model(path)
    assert mm.arm.packed.tobytes() == es.zoo.load("puma560_araujo").packed.tobytes()


@pytest.mark.parametrize("name", ["yes", "1e3", "on: [x]", 'x"/>', "~"])
def test_a_hostile_name_survives_save_mobile(name, tmp_path):
    mm = load_model(_write(tmp_path, "m.yaml", MOBILE))
    mm = type(mm)(mm.platform, mm.arm, mm.mount, mm.mode, mm.thesis, mm.gravity, name)
    back = load_model(save_mobile(mm, tmp_path / "out.yaml"))
    assert back.name == name and back.platform == mm.platform and back.gravity == mm.gravity


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path
