"""Plots and animations (matplotlib; optional extra ``eslabon[viz]``, never imported by
the core)."""

from .plots import (
    animate_planar,
    plot_eigenvalues,
    plot_joint_history,
    plot_joint_panels,
    plot_tracking_error,
)
from .stick3d import animate_3d, frame_origins, plot_overview
from .viewer import write_viewer

__all__ = [
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
