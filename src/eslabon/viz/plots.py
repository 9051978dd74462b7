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
    """Save a PNG/SVG of ``traj.q`` (or qd, qdd, tau) against time, one line per joint.

    The format comes from the suffix of ``path`` (any that matplotlib writes: ``.png``,
    ``.svg``, ``.pdf`` …); matplotlib runs with its non-interactive Agg backend.

    Parameters
    ----------
    traj : Trajectory
        A simulation's :class:`~eslabon.sim.Trajectory` (or anything with ``t`` (K,) and
        the chosen quantity (K, n); the default title needs ``model_name``).
    path : str or path-like
        The image file; its folder must exist; an existing file is replaced.
    quantity : {"q", "qd", "qdd", "tau"}
        What to plot: positions (rad, m), rates (rad/s, m/s), accelerations (rad/s²,
        m/s²) or torques (N·m, N).
    title : str, optional
        The title; by default "<model name>: <quantity>".

    Returns
    -------
    Path
        ``path``, written atomically (a file of that name appears only when complete).

    Raises
    ------
    ValueError
        matplotlib is not installed; the folder of ``path`` does not exist, or ``path``
        is a folder; a suffix matplotlib cannot write; an unknown ``quantity``.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import eslabon as es
    >>> from eslabon import viz
    >>> arm = es.zoo.load("planar2")
    >>> traj = es.simulate(arm, 0.2, 0.01)  # 21 samples of a fall from rest
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = viz.plot_joint_history(traj, Path(folder) / "q.png")
    ...     print(path.name, path.stat().st_size > 0)
    q.png True
    """
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
    beside the nominal one), with ``labels`` (two strings) for the legend.

    Parameters
    ----------
    traj : Trajectory
        A simulation's :class:`~eslabon.sim.Trajectory`: ``t`` (K,) (s), ``q``, ``qd``,
        ``qdd``, ``tau`` (K, n) (the default title needs ``model_name``).
    path : str or path-like
        The image file (format from the suffix); its folder must exist.
    joint : int
        The joint, 0..n−1.
    title : str, optional
        The title; by default "<model name>: joint <joint + 1>".
    compare : Trajectory, optional
        A second trajectory of the same robot, drawn dashed on the same panels.
    labels : sequence of str, optional
        The legend's two names (first, second); shown with ``compare`` only.

    Returns
    -------
    Path
        ``path``, written atomically (a file of that name appears only when complete).

    Raises
    ------
    ValueError
        matplotlib is not installed; the folder of ``path`` does not exist, or ``path``
        is a folder; a suffix matplotlib cannot write; ``joint`` out of range; a
        trajectory whose q and q̇ have different lengths (a quaternion joint).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import eslabon as es
    >>> from eslabon import viz
    >>> arm = es.zoo.load("planar2")
    >>> traj = es.simulate(arm, 0.2, 0.01)  # 21 samples of a fall from rest
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = viz.plot_joint_panels(traj, Path(folder) / "joint1.svg", joint=0)
    ...     print(path.name, path.stat().st_size > 0)
    joint1.svg True
    """
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
    (seed 000 §5.6: the spectrum of A(t) along a trajectory).

    Two panels, Re λ (1/s) above Im λ (rad/s), one dot per eigenvalue and sample.

    Parameters
    ----------
    t : array_like (T,)
        Sample times (s).
    eigenvalues : array_like (T, k)
        Eigenvalues at each sample, e.g. :func:`eslabon.control.frozen_eigenvalues` of a
        :func:`eslabon.control.linearize_along`'s ``A``.
    path : str or path-like
        The image file (format from the suffix); its folder must exist.
    title : str, optional
        The title; by default "frozen-time eigenvalues".

    Returns
    -------
    Path
        ``path``, written atomically (a file of that name appears only when complete).

    Raises
    ------
    ValueError
        matplotlib is not installed; the folder of ``path`` does not exist, or ``path``
        is a folder; a suffix matplotlib cannot write.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import eslabon as es
    >>> from eslabon import viz
    >>> arm = es.zoo.load("planar2")
    >>> traj = es.simulate(arm, 0.2, 0.01)  # 21 samples of a fall from rest
    >>> lin = es.control.linearize_along(arm, traj)
    >>> ev = es.control.frozen_eigenvalues(lin.A)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = viz.plot_eigenvalues(lin.t, ev, Path(folder) / "eigenvalues.png")
    ...     print(ev.shape, path.name)
    (21, 4) eigenvalues.png
    """
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
    drawn dashed (e.g. the assigned linear error model).

    Parameters
    ----------
    t : array_like (K,)
        Sample times (s).
    error : array_like (K, n)
        Tracking errors q − q̄ (rad, m), e.g. :class:`eslabon.control.ClosedLoop`'s
        ``error``.
    path : str or path-like
        The image file (format from the suffix); its folder must exist.
    reference : array_like (K, n), optional
        A reference error to draw dashed in the same colour per joint.
    title : str, optional
        The title; by default "tracking error" (with a note when ``reference`` is given).

    Returns
    -------
    Path
        ``path``, written atomically (a file of that name appears only when complete).

    Raises
    ------
    ValueError
        matplotlib is not installed; the folder of ``path`` does not exist, or ``path``
        is a folder; a suffix matplotlib cannot write.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import eslabon as es
    >>> from eslabon import viz
    >>> arm = es.zoo.load("planar2")
    >>> traj = es.simulate(arm, 0.2, 0.01)  # 21 samples of a fall from rest
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = viz.plot_tracking_error(traj.t, traj.q - traj.q[0], Path(folder) / "e.png")
    ...     print(path.name)
    e.png
    """
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
    """(K, nframes, 2) DH-frame origins dh0..dhN projected on ``plane`` (axis indices).

    Parameters
    ----------
    model : Model
        A model with frames named ``dh0`` … (built from a DH table).
    q_samples : array_like (n,) or (K, n)
        Configurations (rad, m).
    plane : tuple of int
        The two world axes (0 = x, 1 = y, 2 = z) to keep.

    Returns
    -------
    ndarray (K, nframes, 2)
        The frame origins' world coordinates on those axes (m).

    Raises
    ------
    ValueError
        A model without ``dh`` frames; configurations of the wrong length.

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon.viz.plots import planar_polylines
    >>> planar_polylines(es.zoo.load("planar2"), [0.0, 0.0]).round(3).tolist()
    [[[0.0, 0.0], [1.0, 0.0], [1.8, 0.0]]]
    """
    from ..kinematics import frame_poses

    names = [f.name for f in model.frames if f.name.startswith("dh")]
    poses = frame_poses(model, np.atleast_2d(q_samples))
    return np.stack([poses[n][:, list(plane), 3] for n in names], axis=1)


def animate_planar(
    model, traj, path, every: int = 20, plane=(0, 1), fps: int = 25, limits=(-3.2, 3.2, -3.1, 1.0)
) -> Path:
    """Save a GIF of the stick figure through the DH origins (seed 001 ``animacion3``;
    default axes [−3.2, 3.2, −3.1, 1] as the seed).

    One frame per ``every`` samples, the time in the corner; written with Pillow.

    Parameters
    ----------
    model : Model
        A model with frames named ``dh0`` … (built from a DH table, as the zoo's arms).
    traj : Trajectory
        Anything with ``t`` (K,) (s) and ``q`` (K, n) (rad, m).
    path : str or path-like
        The ``.gif`` file (Pillow takes the format from the suffix); its folder must
        exist.
    every : int
        Keep every ``every``-th sample.
    plane : tuple of int
        The two world axes drawn (0 = x, 1 = y, 2 = z).
    fps : int
        Frames per second of the GIF.
    limits : tuple of float
        The axes' range (x_min, x_max, y_min, y_max) in m.

    Returns
    -------
    Path
        ``path``, written atomically (a file of that name appears only when complete).

    Raises
    ------
    ValueError
        matplotlib is not installed; the folder of ``path`` does not exist, or ``path``
        is a folder; a model without ``dh`` frames.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import eslabon as es
    >>> from eslabon import viz
    >>> arm = es.zoo.load("planar2")
    >>> traj = es.simulate(arm, 0.2, 0.01)  # 21 samples of a fall from rest
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = viz.animate_planar(arm, traj, Path(folder) / "fall.gif", every=20)
    ...     print(path.name, path.stat().st_size > 0)
    fall.gif True
    """
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
