"""Plots and animations (matplotlib; optional extra ``eslabon[viz]``, never imported by
the core).

Every plot returns a :class:`matplotlib.figure.Figure` and every animation a
:class:`matplotlib.animation.FuncAnimation`; a file is written only when the keyword
``path=`` is given (atomically: a file of that name appears only when complete), and the
figure or animation is returned all the same. The figures are built without pyplot: none
is kept in pyplot's figure list (nothing to close) and no backend is chosen.

One argument order everywhere: the model first when one is drawn (``plot_overview``'s
may be None), then the trajectory or the data, then options as keywords, ``path``
among them::

    plot_overview(model, traj, *, path=None, title=None)
    plot_joint_history(traj, quantity="q", *, path=None, title=None)
    plot_joint_panels(traj, joint, *, path=None, title=None, compare=None, labels=None)
    plot_eigenvalues(t, eigenvalues, *, path=None, title=None)
    plot_tracking_error(t, error, *, reference=None, path=None, title=None)
    animate_3d(model, traj, *, path=None, every=10, fps=25)
    animate_planar(model, traj, *, path=None, every=20, plane=(0, 1), fps=25, limits=...)

A file name where the model, trajectory or data belongs (the order of earlier releases,
``plot_overview(traj, path, model)``) raises a TypeError that gives the order.
:meth:`eslabon.Trajectory.plot` is :func:`plot_joint_history`. :func:`write_viewer`
writes a self-contained HTML page instead.

In Jupyter a Figure that is a cell's value is drawn in the notebook once the inline
backend is hooked in (``%matplotlib inline``, or ``import matplotlib.pyplot``, once per
kernel); an animation plays as ``IPython.display.HTML(anim.to_jshtml())``.
"""

from .plots import (
    animate_planar,
    plot_eigenvalues,
    plot_joint_history,
    plot_joint_panels,
    plot_tracking_error,
)
from .stick3d import animate_3d, frame_origins, plot_overview
from .viewer import Viewer, write_viewer

__all__ = [
    "Viewer",
    "write_viewer",
    "plot_overview",
    "animate_3d",
    "frame_origins",
    "plot_joint_history",
    "plot_joint_panels",
    "plot_eigenvalues",
    "plot_tracking_error",
    "animate_planar",
]
