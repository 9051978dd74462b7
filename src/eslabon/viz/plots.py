"""Joint time histories and a planar stick-figure animation (seed 001 ``animacion3``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .._files import atomic_path, savefig_atomic


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise ValueError("plotting needs matplotlib: pip install 'eslabon[viz]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(plt, fig, path, dpi) -> Path:
    """Lay out, write atomically (the folder must exist) and close a figure."""
    fig.tight_layout()
    try:
        return savefig_atomic(fig, path, dpi=dpi)
    finally:
        plt.close(fig)


def plot_joint_history(traj, path, quantity: str = "q", title: str | None = None) -> Path:
    """Save a PNG/SVG of ``traj.q`` (or qd, qdd, tau) against time, one line per joint."""
    plt = _pyplot()
    labels = {
        "q": "joint position",
        "qd": "joint velocity",
        "qdd": "joint acceleration",
        "tau": "joint torque / force",
    }
    if quantity not in labels:
        raise ValueError(f"quantity: expected one of {tuple(labels)}, got {quantity!r}")
    data = getattr(traj, quantity)
    fig, ax = plt.subplots(figsize=(7, 4))
    for j in range(data.shape[1]):
        ax.plot(traj.t, data[:, j], label=f"{quantity}{j + 1}")
    ax.set_xlabel("t [s]")
    units = {"q": "rad | m", "qd": "rad/s | m/s", "qdd": "rad/s² | m/s²", "tau": "N·m | N"}
    ax.set_ylabel(f"{labels[quantity]} [{units[quantity]}]")
    ax.set_title(title or f"{traj.model_name}: {labels[quantity]}")
    ax.grid(True)
    ax.legend()
    return _save(plt, fig, path, dpi=110)


def plot_joint_panels(
    traj, path, joint: int, title: str | None = None, *, compare=None, labels=None
) -> Path:
    """Save a PNG/SVG of one joint's q, q̇, q̈ and τ against time, four stacked panels
    (the layout of seed 000's Figs. 4.4.3–4.4.8 and 5.4.2). ``joint`` counts from 0.
    ``compare``: a second trajectory drawn on the same panels (e.g. a perturbed motion
    beside the nominal one), with ``labels`` (two strings) for the legend."""
    plt = _pyplot()
    n = traj.q.shape[1]
    if traj.qd.shape[1] != n:
        raise ValueError(
            f"traj: q has {n} columns and the rates {traj.qd.shape[1]} (a quaternion joint): "
            "one joint's q, q̇, q̈, τ do not share an index; use plot_joint_history per quantity"
        )
    if int(joint) != joint or not 0 <= joint < n:
        raise ValueError(f"joint: expected an index in 0..{n - 1}, got {joint!r}")
    panels = (("q", "θ [rad]"), ("qd", "θ̇ [rad/s]"), ("qdd", "θ̈ [rad/s²]"), ("tau", "τ [N·m]"))
    fig, axes = plt.subplots(4, 1, figsize=(6, 8), sharex=True)
    names = tuple(labels) if labels is not None else ("first", "second")
    for ax, (key, label) in zip(axes, panels):
        ax.plot(traj.t, getattr(traj, key)[:, joint], "o-", ms=3, label=names[0])
        if compare is not None:
            ax.plot(compare.t, getattr(compare, key)[:, joint], "--", label=names[1])
        ax.set_ylabel(label)
        ax.grid(True)
    if compare is not None:
        axes[0].legend()
    axes[-1].set_xlabel("t [s]")
    axes[0].set_title(title or f"{traj.model_name}: joint {joint + 1}")
    return _save(plt, fig, path, dpi=100)


def plot_eigenvalues(t, eigenvalues, path, title: str | None = None) -> Path:
    """Save the real and imaginary parts of frozen-time eigenvalues (T, k) against t (T,)
    (seed 000 §5.6: the spectrum of A(t) along a trajectory)."""
    plt = _pyplot()
    ev = np.asarray(eigenvalues)
    fig, (ax_re, ax_im) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    for k in range(ev.shape[1]):
        ax_re.plot(t, ev[:, k].real, ".", ms=3, color="tab:blue")
        ax_im.plot(t, ev[:, k].imag, ".", ms=3, color="tab:red")
    ax_re.set_ylabel("Re λ [1/s]")
    ax_im.set_ylabel("Im λ [rad/s]")
    ax_im.set_xlabel("t [s]")
    for ax in (ax_re, ax_im):
        ax.grid(True)
    ax_re.set_title(title or "frozen-time eigenvalues")
    return _save(plt, fig, path, dpi=100)


def plot_tracking_error(t, error, path, reference=None, title: str | None = None) -> Path:
    """Save joint tracking errors (K, n) against t, with an optional reference (K, n)
    drawn dashed (e.g. the assigned linear error model)."""
    plt = _pyplot()
    error = np.asarray(error)
    fig, ax = plt.subplots(figsize=(7, 4))
    for j in range(error.shape[1]):
        (line,) = ax.plot(t, error[:, j], label=f"δq{j + 1}")
        if reference is not None:
            ax.plot(t, np.asarray(reference)[:, j], "--", color=line.get_color(), lw=1)
    ax.set_xlabel("t [s]")
    ax.set_ylabel("error [rad | m]")
    ax.set_title(
        title or "tracking error" + (" (dashed: reference)" if reference is not None else "")
    )
    ax.grid(True)
    ax.legend(ncol=3, fontsize="small")
    return _save(plt, fig, path, dpi=110)


def planar_polylines(model, q_samples, plane=(0, 1)) -> np.ndarray:
    """(K, nframes, 2) DH-frame origins dh0..dhN projected on ``plane`` (axis indices)."""
    from ..kinematics import frame_poses

    names = [f.name for f in model.frames if f.name.startswith("dh")]
    poses = frame_poses(model, np.atleast_2d(q_samples))
    return np.stack([poses[n][:, list(plane), 3] for n in names], axis=1)


def animate_planar(
    model, traj, path, every: int = 20, plane=(0, 1), fps: int = 25, limits=(-3.2, 3.2, -3.1, 1.0)
) -> Path:
    """Save a GIF of the stick figure through the DH origins (seed 001 ``animacion3``;
    default axes [−3.2, 3.2, −3.1, 1] as the seed)."""
    plt = _pyplot()
    from matplotlib.animation import FuncAnimation, PillowWriter

    idx = np.arange(0, len(traj.t), max(1, int(every)))
    pts = planar_polylines(model, traj.q[idx], plane)
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.set_xlim(limits[0], limits[1])
    ax.set_ylim(limits[2], limits[3])
    ax.set_aspect("equal")
    ax.grid(True)
    (line,) = ax.plot([], [], "o-", lw=3, color="tab:blue")
    label = ax.text(0.02, 0.95, "", transform=ax.transAxes, va="top")

    def draw(k):
        line.set_data(pts[k, :, 0], pts[k, :, 1])
        label.set_text(f"t = {traj.t[idx[k]]:.3f} s")
        return line, label

    anim = FuncAnimation(fig, draw, frames=len(idx), blit=True)
    path = Path(path)
    try:
        with atomic_path(path) as tmp:
            anim.save(tmp, writer=PillowWriter(fps=fps))
    finally:
        plt.close(fig)
    return path
