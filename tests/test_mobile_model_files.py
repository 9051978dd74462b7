"""Mobile-manipulator model files and `eslabon simulate` on them (seed 003, Araujo 2012:
the platform data the thesis omits must be given or taken from the documented assumed
set; docs/model-files.md)."""

from pathlib import Path

import numpy as np
import pytest

from eslabon import load_model
from eslabon import mobile as mb
from eslabon.cli.main import main
from eslabon.mobile.files import save_mobile

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "seekur_puma.yaml"


def _write(tmp_path, text):
    p = tmp_path / "m.yaml"
    p.write_text("eslabon: 1\nmobile:\n" + text)
    return p


def test_example_loads_and_round_trips(tmp_path):
    """The shipped example is the seed's PUMA on the assumed Seekur Jr.; saved and reloaded
    it gives the same platform, mount, mode and arm (packed model bit for bit) and the same
    accelerations."""
    mm = load_model(EXAMPLE)
    assert isinstance(mm, mb.MobileManipulator)
    assert mm.platform.params == mb.TricycleParams.seekur_jr_assumed()
    out = save_mobile(mm.with_mode("thesis", lateral_acceleration=True), tmp_path / "mm.yaml")
    back = load_model(out)
    assert back.platform == mm.platform and back.mode == "thesis"
    assert back.thesis.lateral_acceleration
    np.testing.assert_array_equal(back.arm.packed, mm.arm.packed)
    y = mm.state(q=[0.1] * 6, nu=[0.5, 0.1], config=[0, 0, 0, 0.2, 0, 0, 0])
    np.testing.assert_array_equal(
        mb.accelerations(back.with_mode("coupled"), y, [10, 0.1]),
        mb.accelerations(mm, y, [10, 0.1]),
    )


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "  platform: {type: hovercraft}\n  arm: puma560_araujo\n",
            r"platform\.type: expected one of",
        ),
        (
            "  platform: {type: tricycle, params: {wheelbase: 0.9}}\n  arm: puma560_araujo\n",
            r"TricycleParams\.rear_half_track: missing",
        ),
        (
            "  platform: {type: tricycle, assumed: seekur_jr, params: {wheel_base: 1}}\n"
            "  arm: puma560_araujo\n",
            r"params: unknown parameter\(s\) \['wheel_base'\]",
        ),
        (
            "  platform: {type: tricycle, assumed: seekur_jr}\n  arm: nowhere.yaml\n",
            r"mobile\.arm: 'nowhere\.yaml' is neither a zoo model nor a model file",
        ),
        ("  platform: {type: tricycle, assumed: seekur_jr}\n", r"mobile\.arm: missing"),
        (
            "  platform: {type: tricycle, assumed: seekur_jr}\n  arm: puma560_araujo\n"
            "  mode: free\n",
            r"mobile\.mode: expected one of",
        ),
        (
            "  platform: {type: tricycle, assumed: seekur_jr}\n  arm: puma560_araujo\n"
            "  mount: {translation: [0, 0]}\n",
            r"mount\.translation",
        ),
        (
            "  platform: {type: tricycle, assumed: seekur_jr}\n  arm: puma560_araujo\n"
            "  thesis: {lateral: true}\n",
            r"thesis: unknown flag",
        ),
        (
            "  platform: {type: tricycle, assumed: seekur_jr}\n  arm: puma560_araujo\n"
            "  wheels: 3\n",
            r"mobile: unknown key\(s\) \['wheels'\]",
        ),
        (
            "  platform: {type: tricycle, assumed: seekur_jr}\n  arm: puma560_araujo\n"
            "  ground: {slope: 0.1}\n",
            r"mobile\.ground: unknown key",
        ),
        (
            "  platform: {type: tricycle, assumed: seekur_jr}\n  arm: puma560_araujo\n"
            "  ground: {angle: 2.0}\n",
            r"ground\.angle",
        ),
    ],
)
def test_bad_mobile_files_are_named(tmp_path, text, message):
    with pytest.raises(ValueError, match=message):
        load_model(_write(tmp_path, text))


def test_gravity_outside_the_mobile_section_is_refused(tmp_path):
    """Gravity belongs to the mobile section: a top-level key or a load_model override
    would otherwise be ignored without a word."""
    body = "  platform: {type: tricycle, assumed: seekur_jr}\n  arm: puma560_araujo\n"
    p = tmp_path / "g.yaml"
    p.write_text("eslabon: 1\ngravity: [0, 0, -1.62]\nmobile:\n" + body)
    with pytest.raises(ValueError, match=r"\['gravity'\] do not apply beside 'mobile'"):
        load_model(p)
    with pytest.raises(ValueError, match=r"gravity: .* set gravity in its mobile section"):
        load_model(_write(tmp_path, body), gravity=[0, 0, -1.62])


def test_saving_over_a_file_replaces_it_whole(tmp_path):
    """save_mobile writes through a temporary file: the old file stays until the new one
    is complete, and no temporary is left behind."""
    target = tmp_path / "mm.yaml"
    target.write_text("old\n")
    save_mobile(load_model(EXAMPLE), target)
    assert load_model(target).platform == load_model(EXAMPLE).platform
    assert sorted(x.name for x in tmp_path.iterdir()) == ["mm.yaml", "mm_arm.yaml"]


def test_cli_simulates_a_mobile_manipulator(tmp_path, capsys):
    """`eslabon simulate FILE --u F,M --tau …` writes the mobile trajectory; a platform
    input on an arm, or a mobile file given to an arm-only command, is one line, exit 2."""
    out = tmp_path / "run.csv"
    assert main(
        [
            "simulate",
            str(EXAMPLE),
            "--out",
            str(out),
            "--u",
            "150,0.3",
            "--tau",
            "6,50,10,-0.1,-0.5,-0.1",
            "--t-final",
            "0.2",
            "--dt",
            "0.01",
            "--integrator",
            "dop853",
        ]
    ) in (0, None)
    header = out.read_text().splitlines()[0].split(",")
    assert {"t", "x", "y", "heading", "steering", "V", "q1", "qdd6", "F", "M"} <= set(header)
    assert len(out.read_text().splitlines()) == 22
    for argv in (
        ["simulate", "planar2", "--out", str(out), "--u", "1,2"],
        ["id", str(EXAMPLE)],
        ["simulate", str(EXAMPLE), "--out", str(out), "--u", "1"],
    ):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("error: ") and "\n" not in err


@pytest.mark.source("Araujo (2012)", "Recomendaciones")
def test_slope_and_steering_tilt_round_trip(tmp_path):
    """A slope and a tilted steering axis survive save and load (same accelerations)."""
    p = mb.TricycleParams.seekur_jr_assumed(steering_tilt=0.3)
    mm = mb.MobileManipulator(
        mb.Tricycle(p),
        load_model(EXAMPLE).arm,
        mb.Mount.araujo_assumed(),
        ground=mb.Slope(0.1, 1.2),
    )
    back = load_model(save_mobile(mm, tmp_path / "slope.yaml"))
    assert back.ground == mm.ground and back.platform == mm.platform
    y = mm.state(q=[0.1] * 6, nu=[0.5, 0.1], config=[0, 0, 0.4, 0.2, 0, 0, 0])
    np.testing.assert_array_equal(
        mb.accelerations(back, y, [10, 0.1]), mb.accelerations(mm, y, [10, 0.1])
    )
