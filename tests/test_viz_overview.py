"""Plots and the 3-D animation (issue "Models in, pictures out"): files are written, the
stick figure follows the kinematics, the CLI names bad arguments."""

import numpy as np
import pytest

import eslabon as es

pytest.importorskip("matplotlib")
from eslabon.viz import animate_3d, frame_origins, plot_overview  # noqa: E402


@pytest.fixture(scope="module")
def run():
    model = es.zoo.load("puma560")
    return model, es.simulate(model, [0, 0.3, 0.2, 0, 0.4, 0], None, 0.2, 0.01)


def test_overview_and_gif_are_written(run, tmp_path):
    model, traj = run
    png, gif = tmp_path / "o.png", tmp_path / "a.gif"
    plot_overview(model, traj, path=png)
    animate_3d(model, traj, path=gif, every=5)
    assert png.stat().st_size > 10_000 and gif.stat().st_size > 5_000
    from PIL import Image

    with Image.open(gif) as im:
        assert im.n_frames == 5  # samples 0, 5, 10, 15, 20
    with pytest.raises(ValueError, match="path: expected a .gif or .mp4"):
        animate_3d(model, traj, path=tmp_path / "a.avi")


def test_stick_figure_points_are_the_kinematics(run):
    model, traj = run
    pts = frame_origins(model, traj.q[[0, -1]])
    assert pts.shape == (2, model.nb + 2, 3)
    T = es.forward_kinematics(model, traj.q[-1])
    np.testing.assert_allclose(pts[1, 1:-1], T[1:, :3, 3], atol=1e-12)
    np.testing.assert_allclose(
        pts[1, -1], es.end_effector_pose(model, traj.q[-1])[:3, 3], atol=1e-12
    )


def test_cli_plot(run, tmp_path, capsys):
    from eslabon.cli.main import main

    model, traj = run
    path = traj.save(tmp_path / "t.npz")
    main(["plot", str(path), "--model", "puma560", "--out", str(tmp_path / "p.png")])
    assert (tmp_path / "p.png").stat().st_size > 0
    with pytest.raises(SystemExit) as exc:
        main(["plot", str(path), "--model", "planar2", "--out", str(tmp_path / "p.png"), "--force"])
    assert exc.value.code == 2
    assert "--model: planar2 has 2 joints, the trajectory 6" in capsys.readouterr().err


def test_demo_tour(tmp_path, capsys):
    """`eslabon demo`: the short tour (seed 001's examples and pendulum, three arms
    cross-checked, the pendulum's viewer, an index), each stage a line on stderr."""
    import json

    from eslabon.cli.main import main

    main(["demo", "--out", str(tmp_path), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["crosscheck"] == {"practica_6dof": True, "puma560": True, "panda": True}
    assert (tmp_path / "practica" / "summary.json").is_file()
    assert "window.eslabonViewer" in (tmp_path / "pendulum.html").read_text()
    index = (tmp_path / "index.html").read_text()
    for link in ("pendulum.html", "practica/pendulum.gif", "practica/pendulum_q.png"):
        assert f'href="{link}"' in index, link
    # a thumbnail per viewer and per figure, and the report with printed-vs-computed values
    assert '<img src="pendulum.png"' in index and (tmp_path / "pendulum.png").is_file()
    assert '<img src="practica/pendulum_q.png"' in index
    assert "printed" in index and "<pre>" in index
    main(["demo", "--out", str(tmp_path)])  # a rerun replaces its own outputs
    err = capsys.readouterr().err.splitlines()
    assert [line.split("] ", 1)[1] for line in err] == [
        "reproduce practica",
        "crosscheck practica_6dof",
        "crosscheck puma560",
        "crosscheck panda",
        "viewer pendulum",
        "index",
    ]


def test_full_demo_tour(tmp_path):
    """`eslabon demo --full`: the seeds reproduced, every robot cross-checked, three
    viewers (the pendulum, the T3 task, the mobile manipulator)."""
    import json

    from eslabon.cli.main import main

    main(["demo", "--full", "--out", str(tmp_path), "--json"])
    for name in ("practica", "rojas", "jaramillo", "araujo"):
        assert (tmp_path / name / "summary.json").is_file()
    for name in ("pendulum.html", "t3_task.html", "mobile.html"):
        assert "window.eslabonViewer" in (tmp_path / name).read_text()
    index = (tmp_path / "index.html").read_text()
    for link in (
        "pendulum.html",
        "t3_task.html",
        "mobile.html",
        "rojas/t3_joint2.png",
        "practica/pendulum.gif",
        "jaramillo/summary.json",
        "rojas/seven_r.csv",
        "araujo/fig3_4_case1_accelerations.png",
    ):
        assert f'href="{link}"' in index, link
    assert json.loads((tmp_path / "rojas" / "summary.json").read_text())["table_5_6_2"]


INERTIAL = (
    '<inertial><mass value="1"/>'
    '<inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>'
)
HOPPER = f"""<robot name="hopper">
  <link name="base">{INERTIAL}</link>
  <link name="leg">{INERTIAL}</link>
  <joint name="hip" type="revolute"><parent link="base"/><child link="leg"/>
    <origin xyz="0 0 -0.1"/><axis xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="10" velocity="10"/></joint>
</robot>
"""


def test_cli_view_of_a_floating_base_trajectory_names_the_root_option(tmp_path, capsys):
    """A free-flyer trajectory viewed with the URDF read without its root joint: one line
    saying that the 7 more coordinates are a free-flyer root joint's and which option
    adds it; with that option the viewer is written."""
    from eslabon.cli.main import main

    urdf = tmp_path / "hopper.urdf"
    urdf.write_text(HOPPER)
    model = es.load_model(urdf, root_joint="free_flyer")
    traj = es.simulate(model, None, None, 0.02, 0.01)
    path = traj.save(tmp_path / "t.npz")
    out = tmp_path / "v.html"
    with pytest.raises(SystemExit) as exc:
        main(["view", str(path), "--model", str(urdf), "--out", str(out)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(
        f"error: --model: hopper has {model.nq - 7} joints, the trajectory {model.nq}; its 7 "
        "more coordinates are those of a free_flyer root joint: add --opt "
        "root_joint=free_flyer to read the URDF with it"
    ), err
    main(["view", str(path), "--model", str(urdf), "--opt", "root_joint=free_flyer",
          "--out", str(out)])  # fmt: skip
    assert out.stat().st_size > 0
