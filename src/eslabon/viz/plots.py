"""Joint time histories and a planar stick-figure animation (seed 001 ``animacion3``).

Every plot returns a :class:`matplotlib.figure.Figure` built without pyplot, and every
animation a :class:`matplotlib.animation.FuncAnimation`; either is written to a file
only when ``path=`` is given (see :mod:`eslabon.viz` for the argument order)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .._files import atomic_path, savefig_atomic

if TYPE_CHECKING:
    from matplotlib.animation import FuncAnimation
    from matplotlib.figure import Figure


def _figure(**options) -> Figure:
    """A new figure outside pyplot (nothing registered, no backend chosen)."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ValueError("plotting needs matplotlib: pip install 'eslabon[viz]'") from None
    return Figure(**options)


def _finish(fig: Figure, path, dpi: int) -> Figure:
    """Write ``fig`` atomically to ``path`` when given (the folder must exist); return it."""
    if path is not None:
        savefig_atomic(fig, path, dpi=dpi)
    return fig


def _save_animation(anim, path, writer) -> None:
    """Write ``anim`` atomically to ``path`` with ``writer`` (the folder must exist)."""
    with atomic_path(Path(path)) as tmp:
        anim.save(tmp, writer=writer)


def _no_file_in(usage: str, **slots) -> None:
    """Refuse a file name in a data slot: the plots took the file second until the file
    became the keyword ``path=`` (``plot_overview(traj, path, model)`` before)."""
    for name, value in slots.items():
        if isinstance(value, (str, os.PathLike)):
            raise TypeError(
                f"{name}: got the file name {os.fspath(value)!r}; the order is {usage}, "
                "the file the keyword path=..."
            )


def plot_joint_history(traj, quantity: str = "q", *, path=None, title: str | None = None) -> Figure:
    """``traj.q`` (or qd, qdd, tau) against time, one line per joint, as a figure; saved
    to ``path`` (PNG, SVG, PDF …) when given.

    The figure is not registered with pyplot: nothing accumulates in pyplot's figure list
    and no backend is chosen. In Jupyter it shows as a cell's value.

    Parameters
    ----------
    traj : Trajectory
        A simulation's :class:`~eslabon.sim.Trajectory` (or anything with ``t`` (K,) and
        the chosen quantity (K, n); the default title needs ``model_name``).
    quantity : {"q", "qd", "qdd", "tau"}
        What to plot: positions (rad, m), rates (rad/s, m/s), accelerations (rad/s²,
        m/s²) or torques (N·m, N).
    path : str or path-like, optional
        An image file to write (format from the suffix: any matplotlib writes, ``.png``,
        ``.svg``, ``.pdf`` …); its folder must exist; an existing file is replaced. By
        default nothing is written.
    title : str, optional
        The title; by default "<model name>: <quantity>".

    Returns
    -------
    matplotlib.figure.Figure
        The figure (one axes); when ``path`` is given it has been written there
        atomically (a file of that name appears only when complete).

    Raises
    ------
    ValueError
        matplotlib is not installed; an unknown ``quantity``; with ``path``: its folder
        does not exist, it is a folder, or a suffix matplotlib cannot write.
    TypeError
        A file name as ``traj`` or ``quantity`` (the order before the file became
        ``path=``).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import eslabon as es
    >>> from eslabon import viz
    >>> arm = es.zoo.load("planar2")
    >>> traj = es.simulate(arm, None, None, 0.2, 0.01)  # 21 samples of a fall from rest
    >>> fig = viz.plot_joint_history(traj, "qd")  # in a notebook, the cell shows it
    >>> [line.get_label() for line in fig.axes[0].lines]  # the model's v_names
    ['joint1', 'joint2']
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     fig = viz.plot_joint_history(traj, path=Path(folder) / "q.png")
    ...     print((Path(folder) / "q.png").stat().st_size > 0)
    True
    """
    usage = "plot_joint_history(traj, quantity='q', *, path=None, title=None)"
    _no_file_in(usage, traj=traj)
    if isinstance(quantity, os.PathLike) or (isinstance(quantity, str) and "." in quantity):
        _no_file_in(usage, quantity=quantity)
    labels = {
        "q": "joint position",
        "qd": "joint velocity",
        "qdd": "joint acceleration",
        "tau": "joint torque / force",
    }
    if quantity not in labels:
        raise ValueError(f"quantity: expected one of {tuple(labels)}, got {quantity!r}")
    data = getattr(traj, quantity)
    fig = _figure(figsize=(7, 4), layout="tight")
    ax = fig.subplots()
    names = getattr(traj, "q_names" if quantity == "q" else "v_names", ())
    for j in range(data.shape[1]):
        ax.plot(traj.t, data[:, j], label=names[j] if len(names) == data.shape[1] else
                f"{quantity}{j + 1}")  # fmt: skip
    ax.set_xlabel("t [s]")
    units = {"q": "rad | m", "qd": "rad/s | m/s", "qdd": "rad/s² | m/s²", "tau": "N·m | N"}
    ax.set_ylabel(f"{labels[quantity]} [{units[quantity]}]")
    ax.set_title(title or f"{traj.model_name}: {labels[quantity]}")
    ax.grid(True)
    ax.legend()
    return _finish(fig, path, dpi=110)


def plot_joint_panels(
    traj, joint: int, *, path=None, title: str | None = None, compare=None, labels=None
) -> Figure:
    """One joint's q, q̇, q̈ and τ against time, four stacked panels (the layout of seed
    000's Figs. 4.4.3–4.4.8 and 5.4.2), as a figure; saved to ``path`` when given.
    ``joint`` counts from 0. ``compare``: a second trajectory drawn on the same panels
    (e.g. a perturbed motion beside the nominal one), with ``labels`` (two strings) for
    the legend.

    Parameters
    ----------
    traj : Trajectory
        A simulation's :class:`~eslabon.sim.Trajectory`: ``t`` (K,) (s), ``q``, ``qd``,
        ``qdd``, ``tau`` (K, n) (the default title needs ``model_name``).
    joint : int
        The joint, 0..n−1.
    path : str or path-like, optional
        An image file to write (format from the suffix); its folder must exist. By
        default nothing is written.
    title : str, optional
        The title; by default "<model name>: joint <joint + 1>".
    compare : Trajectory, optional
        A second trajectory of the same robot, drawn dashed on the same panels.
    labels : sequence of str, optional
        The legend's two names (first, second); shown with ``compare`` only.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (four axes, top to bottom q, q̇, q̈, τ); when ``path`` is given it has
        been written there atomically.

    Raises
    ------
    ValueError
        matplotlib is not installed; ``joint`` out of range; a trajectory whose q and q̇
        have different lengths (a quaternion joint); with ``path``: its folder does not
        exist, it is a folder, or a suffix matplotlib cannot write.
    TypeError
        A file name as ``traj`` or ``joint`` (the order before the file became
        ``path=``).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import eslabon as es
    >>> from eslabon import viz
    >>> arm = es.zoo.load("planar2")
    >>> traj = es.simulate(arm, None, None, 0.2, 0.01)  # 21 samples of a fall from rest
    >>> fig = viz.plot_joint_panels(traj, 0)
    >>> [ax.get_ylabel() for ax in fig.axes]
    ['θ [rad]', 'θ̇ [rad/s]', 'θ̈ [rad/s²]', 'τ [N·m]']
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     fig = viz.plot_joint_panels(traj, 1, path=Path(folder) / "joint2.svg")
    ...     print((Path(folder) / "joint2.svg").stat().st_size > 0)
    True
    """
    _no_file_in(
        "plot_joint_panels(traj, joint, *, path=None, title=None, compare=None, labels=None)",
        traj=traj,
        joint=joint,
    )
    n = traj.q.shape[1]
    if traj.qd.shape[1] != n:
        raise ValueError(
            f"traj: q has {n} columns and the rates {traj.qd.shape[1]} (a quaternion joint): "
            "one joint's q, q̇, q̈, τ do not share an index; use plot_joint_history per quantity"
        )
    if int(joint) != joint or not 0 <= joint < n:
        raise ValueError(f"joint: expected an index in 0..{n - 1}, got {joint!r}")
    panels = (("q", "θ [rad]"), ("qd", "θ̇ [rad/s]"), ("qdd", "θ̈ [rad/s²]"), ("tau", "τ [N·m]"))
    fig = _figure(figsize=(6, 8), layout="tight")
    axes = fig.subplots(4, 1, sharex=True)
    names = tuple(labels) if labels is not None else ("first", "second")
    for ax, (key, label) in zip(axes, panels, strict=True):
        ax.plot(traj.t, getattr(traj, key)[:, joint], "o-", ms=3, label=names[0])
        if compare is not None:
            ax.plot(compare.t, getattr(compare, key)[:, joint], "--", label=names[1])
        ax.set_ylabel(label)
        ax.grid(True)
    if compare is not None:
        axes[0].legend()
    axes[-1].set_xlabel("t [s]")
    axes[0].set_title(title or f"{traj.model_name}: joint {joint + 1}")
    return _finish(fig, path, dpi=100)


def plot_eigenvalues(t, eigenvalues, *, path=None, title: str | None = None) -> Figure:
    """The real and imaginary parts of frozen-time eigenvalues (T, k) against t (T,)
    (seed 000 §5.6: the spectrum of A(t) along a trajectory), as a figure; saved to
    ``path`` when given.

    Two panels, Re λ (1/s) above Im λ (rad/s), one dot per eigenvalue and sample.

    Parameters
    ----------
    t : array_like (T,)
        Sample times (s).
    eigenvalues : array_like (T, k)
        Eigenvalues at each sample, e.g. :func:`eslabon.control.frozen_eigenvalues` of a
        :func:`eslabon.control.linearize_along`'s ``A``.
    path : str or path-like, optional
        An image file to write (format from the suffix); its folder must exist. By
        default nothing is written.
    title : str, optional
        The title; by default "frozen-time eigenvalues".

    Returns
    -------
    matplotlib.figure.Figure
        The figure (two axes, Re λ above Im λ); when ``path`` is given it has been
        written there atomically.

    Raises
    ------
    ValueError
        matplotlib is not installed; with ``path``: its folder does not exist, it is a
        folder, or a suffix matplotlib cannot write.
    TypeError
        A file name as ``t`` or ``eigenvalues`` (the order before the file became
        ``path=``).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import eslabon as es
    >>> from eslabon import viz
    >>> arm = es.zoo.load("planar2")
    >>> traj = es.simulate(arm, None, None, 0.2, 0.01)  # 21 samples of a fall from rest
    >>> lin = es.control.linearize_along(arm, traj)
    >>> ev = es.control.frozen_eigenvalues(lin.A)
    >>> ev.shape
    (21, 4)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     fig = viz.plot_eigenvalues(lin.t, ev, path=Path(folder) / "eigenvalues.png")
    ...     print([ax.get_ylabel() for ax in fig.axes])
    ['Re λ [1/s]', 'Im λ [rad/s]']
    """
    _no_file_in(
        "plot_eigenvalues(t, eigenvalues, *, path=None, title=None)",
        t=t,
        eigenvalues=eigenvalues,
    )
    ev = np.asarray(eigenvalues)
    fig = _figure(figsize=(7, 6), layout="tight")
    ax_re, ax_im = fig.subplots(2, 1, sharex=True)
    for k in range(ev.shape[1]):
        ax_re.plot(t, ev[:, k].real, ".", ms=3, color="tab:blue")
        ax_im.plot(t, ev[:, k].imag, ".", ms=3, color="tab:red")
    ax_re.set_ylabel("Re λ [1/s]")
    ax_im.set_ylabel("Im λ [rad/s]")
    ax_im.set_xlabel("t [s]")
    for ax in (ax_re, ax_im):
        ax.grid(True)
    ax_re.set_title(title or "frozen-time eigenvalues")
    return _finish(fig, path, dpi=100)


def plot_tracking_error(t, error, *, reference=None, path=None, title: str | None = None) -> Figure:
    """Joint tracking errors (K, n) against t, with an optional reference (K, n) drawn
    dashed (e.g. the assigned linear error model), as a figure; saved to ``path`` when
    given.

    Parameters
    ----------
    t : array_like (K,)
        Sample times (s).
    error : array_like (K, n)
        Tracking errors q − q̄ (rad, m), e.g. :class:`eslabon.control.ClosedLoop`'s
        ``error``.
    reference : array_like (K, n), optional
        A reference error to draw dashed in the same colour per joint.
    path : str or path-like, optional
        An image file to write (format from the suffix); its folder must exist. By
        default nothing is written.
    title : str, optional
        The title; by default "tracking error" (with a note when ``reference`` is given).

    Returns
    -------
    matplotlib.figure.Figure
        The figure (one axes); when ``path`` is given it has been written there
        atomically.

    Raises
    ------
    ValueError
        matplotlib is not installed; with ``path``: its folder does not exist, it is a
        folder, or a suffix matplotlib cannot write.
    TypeError
        A file name as ``t`` or ``error`` (the order before the file became ``path=``).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import eslabon as es
    >>> from eslabon import viz
    >>> arm = es.zoo.load("planar2")
    >>> traj = es.simulate(arm, None, None, 0.2, 0.01)  # 21 samples of a fall from rest
    >>> fig = viz.plot_tracking_error(traj.t, traj.q - traj.q[0], reference=0 * traj.q)
    >>> len(fig.axes[0].lines)  # two errors, two dashed references
    4
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     fig = viz.plot_tracking_error(traj.t, traj.q, path=Path(folder) / "e.png")
    ...     print((Path(folder) / "e.png").is_file())
    True
    """
    _no_file_in(
        "plot_tracking_error(t, error, *, reference=None, path=None, title=None)",
        t=t,
        error=error,
    )
    error = np.asarray(error)
    fig = _figure(figsize=(7, 4), layout="tight")
    ax = fig.subplots()
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
    return _finish(fig, path, dpi=110)


def planar_polylines(model, q_samples, *, plane=(0, 1)) -> np.ndarray:
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
    model,
    traj,
    *,
    path=None,
    every: int = 20,
    plane=(0, 1),
    fps: int = 25,
    limits=(-3.2, 3.2, -3.1, 1.0),
) -> FuncAnimation:
    """The stick figure through the DH origins along ``traj`` as an animation (seed 001
    ``animacion3``; default axes [−3.2, 3.2, −3.1, 1] as the seed); saved as a GIF to
    ``path`` when given.

    One frame per ``every`` samples, the time in the corner. In a notebook,
    ``IPython.display.HTML(anim.to_jshtml())`` plays it; ``path`` writes it with Pillow.

    Parameters
    ----------
    model : Model
        A model with frames named ``dh0`` … (built from a DH table, as the zoo's arms).
    traj : Trajectory
        Anything with ``t`` (K,) (s) and ``q`` (K, n) (rad, m).
    path : str or path-like, optional
        A ``.gif`` file to write (Pillow takes the format from the suffix); its folder
        must exist. By default nothing is written.
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
    matplotlib.animation.FuncAnimation
        The animation (its figure is not registered with pyplot); when ``path`` is
        given it has been written there atomically (a file of that name appears only
        when complete).

    Raises
    ------
    ValueError
        matplotlib is not installed; a model without ``dh`` frames; with ``path``: its
        folder does not exist, or it is a folder.
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
    >>> traj = es.simulate(arm, None, None, 0.2, 0.01)  # 21 samples of a fall from rest
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     anim = viz.animate_planar(arm, traj, path=Path(folder) / "fall.gif", every=20)
    ...     print((Path(folder) / "fall.gif").stat().st_size > 0)
    True
    >>> "<script" in anim.to_jshtml()  # the same frames, for a notebook
    True
    """
    _no_file_in(
        "animate_planar(model, traj, *, path=None, every=20, plane=(0, 1), fps=25, limits=...)",
        model=model,
        traj=traj,
    )
    fig = _figure(figsize=(5, 3.5))
    from matplotlib.animation import FuncAnimation, PillowWriter

    idx = np.arange(0, len(traj.t), max(1, int(every)))
    pts = planar_polylines(model, traj.q[idx], plane=plane)
    ax = fig.subplots()
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

    anim = FuncAnimation(fig, draw, frames=len(idx), interval=1000 / fps, blit=True)
    if path is not None:
        _save_animation(anim, path, PillowWriter(fps=fps))
    return anim
