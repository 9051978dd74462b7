"""Plots and animations (matplotlib; optional extra ``eslabon[viz]``, never imported by the core)."""
from .plots import animate_planar, plot_joint_history, plot_joint_panels

__all__ = ["plot_joint_history", "plot_joint_panels", "animate_planar"]
