"""A trajectory at a glance: every joint history with the energy, and a 3-D stick figure
animated (to a notebook, a GIF, or an MP4 when ffmpeg is on the PATH). matplotlib only;
figures are built without pyplot."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .plots import _figure, _finish, _no_file_in, _save_animation

if TYPE_CHECKING:
    from matplotlib.animation import FuncAnimation
    from matplotlib.figure import Figure


def plot_overview(model, traj, *, path=None, title: str | None = None) -> Figure:
    """One figure: q, q̇, q̈ and τ per joint against time, and with ``model`` the kinetic,
    potential and total energy (seed 001/000's joint plots, on one page); saved to
    ``path`` when given.

    Stacked panels sharing the time axis, one line per joint; the energies come from
    :func:`eslabon.kinetic_energy` and :func:`eslabon.potential_energy`.

    Parameters
    ----------
    model : Model or None
        The robot of ``traj``; adds the energy panel (J). None: the four joint panels
        only.
    traj : Trajectory
        A simulation's :class:`~eslabon.sim.Trajectory`: ``t`` (K,) (s), ``q``, ``qd``,
        ``qdd``, ``tau`` (K, n) and ``model_name``.
    path : str or path-like, optional
        An image file to write (format from the suffix); its folder must exist. By
        default nothing is written.
    title : str, optional
        The title; by default the trajectory's model name.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (four axes, five with ``model``); when ``path`` is given it has been
        written there atomically.

    Raises
    ------
    ValueError
        matplotlib is not installed; a ``model`` that does not fit ``traj``; with
        ``path``: its folder does not exist, it is a folder, or a suffix matplotlib
        cannot write.
    TypeError
        A file name as ``model`` or ``traj`` (the order before the file became
        ``path=``).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import eslabon as es
    >>> from eslabon import viz
    >>> arm = es.zoo.load("planar2")
    >>> traj = es.simulate(arm, None, None, 0.2, 0.01)
    >>> fig = viz.plot_overview(arm, traj)  # in a notebook, the cell shows it
    >>> fig.axes[-1].get_ylabel()
    'energy [J]'
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     fig = viz.plot_overview(None, traj, path=Path(folder) / "overview.png")
    ...     print(len(fig.axes), (Path(folder) / "overview.png").stat().st_size > 0)
    4 True
    """
    _no_file_in("plot_overview(model, traj, *, path=None, title=None)", model=model, traj=traj)
    rows = [
        ("q", "q [rad | m]"),
        ("qd", "q̇ [rad/s | m/s]"),
        ("qdd", "q̈ [rad/s² | m/s²]"),
        ("tau", "τ [N·m | N]"),
    ]
    fig = _figure(figsize=(8, 2.2 * (len(rows) + 1)), layout="tight")
    axes = fig.subplots(len(rows) + (model is not None), 1, sharex=True)
    # with a model, one more axis than rows: the energy panel below, drawn apart
    for ax, (key, label) in zip(axes, rows, strict=False):
        data = getattr(traj, key)
        for j in range(data.shape[1]):
            ax.plot(traj.t, data[:, j], label=f"{j + 1}")
        ax.set_ylabel(label)
        ax.grid(True)
    axes[0].legend(title="joint", ncol=min(7, traj.q.shape[1]), fontsize="small")
    if model is not None:
        from ..dynamics import kinetic_energy, potential_energy

        T = kinetic_energy(model, traj.q, traj.qd)
        V = potential_energy(model, traj.q)
        ax = axes[-1]
        for values, label in ((T, "kinetic"), (V, "potential"), (T + V, "total")):
            ax.plot(traj.t, values, label=label)
        ax.set_ylabel("energy [J]")
        ax.legend(fontsize="small")
        ax.grid(True)
    axes[-1].set_xlabel("t [s]")
    axes[0].set_title(title or f"{traj.model_name or 'trajectory'}")
    return _finish(fig, path, dpi=100)


def frame_origins(model, q_samples) -> np.ndarray:
    """(K, m, 3) world positions of the chain's points: the world origin, each body origin
    and the end effector ``ee``, for each configuration (K, n).

    The points the stick figures of :func:`animate_3d` and :func:`write_viewer` join:
    m = nb + 2 (world, bodies 1..nb, ``ee``). Needs only numpy.

    Parameters
    ----------
    model : Model
        A model with an end-effector frame ``"ee"``.
    q_samples : array_like (nq,) or (K, nq)
        Configurations (rad, m).

    Returns
    -------
    ndarray (K, nb + 2, 3)
        Positions in the world frame (m); K = 1 for a single configuration.

    Raises
    ------
    ValueError
        Configurations of the wrong length; a model without an ``"ee"`` frame.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon.viz import frame_origins
    >>> arm = es.zoo.load("planar2")  # links of 1 m and 0.8 m
    >>> frame_origins(arm, [[0.0, 0.0], [np.pi / 2, 0.0]]).round(6)[:, -1]
    array([[1.8, 0. , 0. ],
           [0. , 1.8, 0. ]])
    """
    from ..kinematics import forward_kinematics, frame_pose

    q_samples = np.atleast_2d(np.asarray(q_samples, dtype=float))
    bodies = forward_kinematics(model, q_samples)[:, :, :3, 3]  # (K, nb+1, 3)
    ee = frame_pose(model, q_samples, "ee")[:, None, :3, 3]
    return np.concatenate([bodies, ee], axis=1)


def animate_3d(model, traj, *, path=None, every: int = 10, fps: int = 25) -> FuncAnimation:
    """A 3-D stick figure of the robot along ``traj`` (links from parent to child body
    origin, the end effector last) as an animation; saved as ``.gif`` (Pillow) or
    ``.mp4`` (ffmpeg) to ``path`` when given.

    The points are :func:`frame_origins`; the axes are equal, fitted to the whole
    motion; the title shows the model's name and the time. In a notebook,
    ``IPython.display.HTML(anim.to_jshtml())`` plays it.

    Parameters
    ----------
    model : Model
        The robot, with an end-effector frame ``"ee"``.
    traj : Trajectory
        Anything with ``t`` (K,) (s) and ``q`` (K, nq) (rad, m).
    path : str or path-like, optional
        A ``.gif`` or ``.mp4`` file to write; its folder must exist. By default nothing
        is written.
    every : int
        Keep every ``every``-th sample.
    fps : int
        Frames per second.

    Returns
    -------
    matplotlib.animation.FuncAnimation
        The animation (its figure is not registered with pyplot); when ``path`` is
        given it has been written there atomically.

    Raises
    ------
    ValueError
        matplotlib is not installed; with ``path``: a suffix other than ``.gif``,
        ``.mp4``, ``.mp4`` without ffmpeg on the PATH, or a folder that does not exist.
    TypeError
        A file name as ``model`` or ``traj`` (the order before the file became
        ``path=``).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import eslabon as es
    >>> from eslabon import viz
    >>> arm = es.zoo.load("planar2")
    >>> traj = es.simulate(arm, None, None, 0.2, 0.01)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     anim = viz.animate_3d(arm, traj, path=Path(folder) / "fall.gif", every=20)
    ...     print((Path(folder) / "fall.gif").stat().st_size > 0)
    True
    >>> "<script" in anim.to_jshtml()  # the same frames, for a notebook
    True
    """
    _no_file_in("animate_3d(model, traj, *, path=None, every=10, fps=25)", model=model, traj=traj)
    fig = _figure(figsize=(5, 5))
    from matplotlib.animation import FFMpegWriter, FuncAnimation, PillowWriter

    if path is not None:
        path = Path(path)
        if path.suffix.lower() not in (".gif", ".mp4"):
            raise ValueError(f"path: expected a .gif or .mp4 file name, got {str(path)!r}")
        if path.suffix.lower() == ".mp4" and shutil.which("ffmpeg") is None:
            raise ValueError("path: writing .mp4 needs ffmpeg on the PATH; write a .gif instead")
    idx = np.arange(0, len(traj.t), max(1, int(every)))
    pts = frame_origins(model, traj.q[idx])
    ee_body = model.frame("ee").body
    segments = [(int(model.parent[i]), i) for i in range(1, model.nb + 1)] + [
        (ee_body, model.nb + 1)
    ]
    span = max(float(np.ptp(pts, axis=(0, 1)).max()), 1e-3)
    centre = pts.reshape(-1, 3).mean(axis=0)
    ax = fig.add_subplot(projection="3d")
    for setter, c in zip((ax.set_xlim, ax.set_ylim, ax.set_zlim), centre, strict=True):
        setter(c - span / 2, c + span / 2)
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    ax.set_zlabel("z [m]")
    lines = [ax.plot([], [], [], "o-", lw=3, color="tab:blue")[0] for _ in segments]
    label = ax.set_title("")

    def draw(k):
        for line, (a, b) in zip(lines, segments, strict=True):
            xyz = pts[k, [a, b]]
            line.set_data(xyz[:, 0], xyz[:, 1])
            line.set_3d_properties(xyz[:, 2])
        label.set_text(f"{model.name}  t = {traj.t[idx[k]]:.3f} s")
        return lines

    anim = FuncAnimation(fig, draw, frames=len(idx), interval=1000 / fps)
    if path is not None:
        gif = path.suffix.lower() == ".gif"
        _save_animation(anim, path, PillowWriter(fps=fps) if gif else FFMpegWriter(fps=fps))
    return anim
