"""Notebook-friendly plots (issue "See the robot"): every plot returns a matplotlib Figure
and every animation a FuncAnimation, built without pyplot (nothing kept in its figure
list); a file is written only with ``path=``; one argument order (the model, then the
trajectory or data, then keyword options), and the order before it (the file second) is
refused with a TypeError."""

import gc
import os
import subprocess
import sys
import weakref
from pathlib import Path

import numpy as np
import pytest

import eslabon as es

pytest.importorskip("matplotlib")
import matplotlib.pyplot as plt  # noqa: E402  (only to read its figure list)
from matplotlib.animation import FuncAnimation  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from eslabon import viz  # noqa: E402

PNG = b"\x89PNG\r\n\x1a\n"
SRC = str(Path(es.__file__).resolve().parents[1])


@pytest.fixture(scope="module")
def run():
    """planar2 falling from rest, 21 samples, and the frozen-time eigenvalues of A(t)."""
    arm = es.zoo.load("planar2")
    traj = es.simulate(arm, None, None, 0.2, 0.01)
    ev = es.control.frozen_eigenvalues(es.control.linearize_along(arm, traj).A)
    return arm, traj, ev


# each plot: a call taking the keyword options, and its number of axes
PLOTS = {
    "plot_overview": (lambda arm, traj, ev, **kw: viz.plot_overview(arm, traj, **kw), 5),
    "plot_overview without model": (
        lambda arm, traj, ev, **kw: viz.plot_overview(None, traj, **kw),
        4,
    ),
    "plot_joint_history": (lambda arm, traj, ev, **kw: viz.plot_joint_history(traj, **kw), 1),
    "plot_joint_panels": (lambda arm, traj, ev, **kw: viz.plot_joint_panels(traj, 1, **kw), 4),
    "plot_eigenvalues": (lambda arm, traj, ev, **kw: viz.plot_eigenvalues(traj.t, ev, **kw), 2),
    "plot_tracking_error": (
        lambda arm, traj, ev, **kw: viz.plot_tracking_error(traj.t, traj.q - traj.q[0], **kw),
        1,
    ),
    "Trajectory.plot": (lambda arm, traj, ev, **kw: traj.plot("tau", **kw), 1),
}


@pytest.mark.parametrize("name", PLOTS)
def test_a_plot_is_a_figure_written_only_with_a_path(run, name, tmp_path, monkeypatch):
    call, n_axes = PLOTS[name]
    monkeypatch.chdir(tmp_path)
    before = plt.get_fignums()
    fig = call(*run)
    assert isinstance(fig, Figure) and len(fig.axes) == n_axes
    assert list(tmp_path.iterdir()) == []  # no path: no file, not even in the cwd
    path = tmp_path / "figure.png"
    saved = call(*run, path=path, title="saved")
    assert isinstance(saved, Figure) and saved.axes[0].get_title() == "saved"
    assert path.read_bytes()[:8] == PNG
    assert sorted(p.name for p in tmp_path.iterdir()) == ["figure.png"]  # no temporary left
    assert plt.get_fignums() == before
    # nothing else holds the figures (pyplot would): they go with the last reference
    refs = [weakref.ref(fig), weakref.ref(saved)]
    del fig, saved
    gc.collect()
    assert [r() for r in refs] == [None, None]


def test_the_figures_draw_the_data(run):
    arm, traj, ev = run
    fig = traj.plot("qd")
    for j, line in enumerate(fig.axes[0].lines):
        np.testing.assert_array_equal(line.get_xdata(), traj.t)
        np.testing.assert_array_equal(line.get_ydata(), traj.qd[:, j])
    assert len(fig.axes[0].lines) == traj.qd.shape[1]
    panels = viz.plot_joint_panels(traj, 1).axes
    for ax, key in zip(panels, ("q", "qd", "qdd", "tau"), strict=True):
        np.testing.assert_array_equal(ax.lines[0].get_ydata(), getattr(traj, key)[:, 1])
    energy = viz.plot_overview(arm, traj).axes[-1]
    total = [line for line in energy.lines if line.get_label() == "total"]
    expected = es.kinetic_energy(arm, traj.q, traj.qd) + es.potential_energy(arm, traj.q)
    np.testing.assert_array_equal(total[0].get_ydata(), expected)  # the same computation
    re = viz.plot_eigenvalues(traj.t, ev).axes[0]
    np.testing.assert_array_equal(re.lines[2].get_ydata(), ev[:, 2].real)


@pytest.mark.parametrize("animate", [viz.animate_3d, viz.animate_planar])
def test_an_animation_plays_in_a_notebook_and_is_written_only_with_a_path(
    run, animate, tmp_path, monkeypatch
):
    from PIL import Image

    arm, traj, _ = run
    monkeypatch.chdir(tmp_path)
    before = plt.get_fignums()
    anim = animate(arm, traj, every=10)  # samples 0, 10, 20
    assert isinstance(anim, FuncAnimation)
    assert anim.to_jshtml().count("data:image/png;base64,") == 3  # one image per frame
    assert list(tmp_path.iterdir()) == []
    path = tmp_path / "robot.gif"
    saved = animate(arm, traj, path=path, every=10)
    assert isinstance(saved, FuncAnimation)
    with Image.open(path) as im:
        assert im.n_frames == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["robot.gif"]
    assert plt.get_fignums() == before


def test_the_order_before_path_became_a_keyword_is_refused(run, tmp_path, monkeypatch):
    arm, traj, ev = run
    monkeypatch.chdir(tmp_path)
    named = [
        (
            lambda: viz.plot_overview(traj, "o.png"),
            r"traj: got the file name 'o.png'; the order is plot_overview\(model, traj, \*, "
            r"path=None",
        ),
        (
            lambda: viz.plot_joint_history(traj, Path("q.png")),
            r"quantity: got the file name 'q.png'; the order is plot_joint_history\(traj, "
            r"quantity='q', \*, path=None",
        ),
        (lambda: viz.plot_joint_history(traj, "q.svg"), "quantity: got the file name"),
        (
            lambda: viz.plot_joint_panels(traj, "j.png"),
            r"joint: got the file name 'j.png'; the order is plot_joint_panels\(traj, joint",
        ),
        (lambda: viz.plot_eigenvalues("e.png", ev), r"t: got the file name .*plot_eigenvalues"),
        (lambda: viz.animate_3d("a.gif", traj), r"model: got the file name .*animate_3d\(model"),
        (lambda: viz.animate_planar(arm, "a.gif"), r"traj: got the file name .*animate_planar"),
    ]
    for call, message in named:
        with pytest.raises(TypeError, match=message):
            call()
    # the file third: Python's own TypeError, path being keyword-only
    for call in (
        lambda: viz.plot_overview(traj, "o.png", arm),
        lambda: viz.plot_joint_history(traj, "q.png", "q"),
        lambda: viz.plot_joint_panels(traj, "j.png", 0),
        lambda: viz.plot_eigenvalues(traj.t, ev, "e.png"),
        lambda: viz.plot_tracking_error(traj.t, traj.q, "e.png"),
        lambda: viz.animate_3d(arm, traj, "a.gif"),
        lambda: viz.animate_planar(arm, traj, "a.gif"),
    ):
        with pytest.raises(TypeError, match="positional argument"):
            call()
    with pytest.raises(TypeError, match="multiple values for argument 'model'"):
        viz.plot_overview(traj, "o.png", model=arm)
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(ValueError, match="quantity: expected one of"):
        traj.plot("speed")  # not a file name: the usual error


def test_plotting_does_not_load_pyplot(tmp_path):
    """In a fresh interpreter the plots, the animations and their files need no pyplot
    (so no backend is chosen and no figure registered)."""
    code = (
        "import sys, eslabon as es, eslabon.viz as viz\n"
        "arm = es.zoo.load('planar2')\n"
        "traj = es.simulate(arm, 0.1, 0.01)\n"
        f"out = {str(tmp_path)!r}\n"
        "viz.plot_overview(arm, traj, path=out + '/o.svg')\n"
        "traj.plot(path=out + '/q.pdf')\n"
        "viz.animate_planar(arm, traj, path=out + '/p.gif', every=5).to_jshtml()\n"
        "viz.animate_3d(arm, traj, path=out + '/r.gif', every=5)\n"
        "print(sorted(m for m in sys.modules if m.startswith('matplotlib.pyplot')))\n"
    )
    env = {**os.environ, "PYTHONPATH": SRC}
    r = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.svg", "p.gif", "q.pdf", "r.gif"]
