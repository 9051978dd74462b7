"""A trajectory at a glance: every joint history with the energy, and a 3-D stick figure
animated to GIF (or MP4 when ffmpeg is on the PATH). matplotlib only."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np

from .._files import atomic_path
from .plots import _pyplot, _save


def plot_overview(traj, path, model=None, title: str | None = None) -> Path:
    """One figure: q, q̇, q̈ and τ per joint against time, and with ``model`` the kinetic,
    potential and total energy (seed 001/000's joint plots, on one page)."""
    plt = _pyplot()
    rows = [
        ("q", "q [rad | m]"),
        ("qd", "q̇ [rad/s | m/s]"),
        ("qdd", "q̈ [rad/s² | m/s²]"),
        ("tau", "τ [N·m | N]"),
    ]
    fig, axes = plt.subplots(
        len(rows) + (model is not None), 1, figsize=(8, 2.2 * (len(rows) + 1)), sharex=True
    )
    for ax, (key, label) in zip(axes, rows):
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
    return _save(plt, fig, path, dpi=100)


def frame_origins(model, q_samples) -> np.ndarray:
    """(K, m, 3) world positions of the chain's points: the world origin, each body origin
    and the end effector ``ee``, for each configuration (K, n)."""
    from ..kinematics import forward_kinematics, frame_pose

    q_samples = np.atleast_2d(np.asarray(q_samples, dtype=float))
    bodies = forward_kinematics(model, q_samples)[:, :, :3, 3]  # (K, nb+1, 3)
    ee = frame_pose(model, q_samples, "ee")[:, None, :3, 3]
    return np.concatenate([bodies, ee], axis=1)


def animate_3d(model, traj, path, every: int = 10, fps: int = 25) -> Path:
    """Save a 3-D stick figure of the robot along ``traj`` (links from parent to child
    body origin, the end effector last) as ``.gif`` (Pillow) or ``.mp4`` (ffmpeg)."""
    plt = _pyplot()
    from matplotlib.animation import FFMpegWriter, FuncAnimation, PillowWriter

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
    fig = plt.figure(figsize=(5, 5))
    ax = fig.add_subplot(projection="3d")
    for setter, c in zip((ax.set_xlim, ax.set_ylim, ax.set_zlim), centre):
        setter(c - span / 2, c + span / 2)
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    ax.set_zlabel("z [m]")
    lines = [ax.plot([], [], [], "o-", lw=3, color="tab:blue")[0] for _ in segments]
    label = ax.set_title("")

    def draw(k):
        for line, (a, b) in zip(lines, segments):
            xyz = pts[k, [a, b]]
            line.set_data(xyz[:, 0], xyz[:, 1])
            line.set_3d_properties(xyz[:, 2])
        label.set_text(f"{model.name}  t = {traj.t[idx[k]]:.3f} s")
        return lines

    anim = FuncAnimation(fig, draw, frames=len(idx))
    try:
        with atomic_path(path) as tmp:
            anim.save(
                tmp,
                writer=PillowWriter(fps=fps)
                if path.suffix.lower() == ".gif"
                else FFMpegWriter(fps=fps),
            )
    finally:
        plt.close(fig)
    return path
