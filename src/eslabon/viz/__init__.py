"""Plots and animations (matplotlib; optional extra ``eslabon[viz]``, never imported by the core)."""
from .plots import animate_planar, plot_joint_history

__all__ = ["plot_joint_history", "animate_planar"]
