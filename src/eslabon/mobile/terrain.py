"""A floor that is not level: Araujo (2012), "Recomendaciones" ("superficies que no sean
planas"), for the Gibbs–Appell model of Ch. III.

The thesis's floor frame F has its z perpendicular to the floor (Table 3.1), and gravity
along −z. On a plane with slope α the platform still moves in the plane — x, y, θ are
coordinates in the plane, z its normal — and only gravity changes: with the downhill
direction at the heading h in the plane,

    g_F = g (sin α cos h, sin α sin h, −cos α)          (plane frame),

and in the chassis frame (heading θ) g_R = R_z(θ)ᵀ g_F, which enters the Gibbs function
(2.25) through r̈ − g of every body (the arm's base as Luh's base acceleration).
α = 0 gives (0, 0, −g), the level floor, exactly.

A curved ground z = h(x, y) tilts the chassis as it moves (roll and pitch become
functions of the pose, the wheels touch at different heights): that is not modelled.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._args import finite_number

# floor_gravity, chassis_gravity and is_level are the package's plumbing (mobile.gibbs,
# mobile.dae, mobile.simulate): importable, not part of the API reference
__all__ = ["Slope"]


@dataclass(frozen=True)
class Slope:
    """A plane floor inclined by ``angle`` [rad], descending along ``downhill`` [rad].

    Parameters
    ----------
    angle : float
        α [rad], within [0, 90°): the plane's inclination.
    downhill : float
        h [rad]: the heading, in the plane frame, of the steepest descent (0: down the
        plane's x axis).

    Raises
    ------
    ValueError
        ``angle`` not a finite number within [0, 90°), ``downhill`` not finite.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import mobile as mb
    >>> mb.Slope(0.0).gravity(9.81).tolist()
    [0.0, 0.0, -9.81]
    >>> g = mb.Slope(np.radians(10)).gravity(9.81)
    >>> bool(np.isclose(g[0], 9.81 * np.sin(np.radians(10))))
    True
    """

    angle: float = 0.0
    downhill: float = 0.0

    def __post_init__(self):
        a = finite_number(self.angle, "ground.angle")
        if not 0.0 <= a < np.pi / 2:
            raise ValueError(f"ground.angle: expected an inclination in [0, 90°) [rad], got {a}")
        object.__setattr__(self, "angle", a)
        object.__setattr__(self, "downhill", finite_number(self.downhill, "ground.downhill"))

    def gravity(self, g) -> np.ndarray:
        """g_F (3,) [m/s²] in the plane frame for the magnitude ``g`` (module docstring).

        Parameters
        ----------
        g : float
            [m/s²].

        Returns
        -------
        ndarray (3,)
        """
        s, c = np.sin(self.angle), np.cos(self.angle)
        return g * np.array([s * np.cos(self.downhill), s * np.sin(self.downhill), -c])


def floor_gravity(mm) -> np.ndarray:
    """Gravity (3,) in the floor (plane) frame of ``mm``: (0, 0, −g) without a ground."""
    if mm.ground is None:
        return np.array([0.0, 0.0, -mm.gravity])
    return mm.ground.gravity(mm.gravity)


def chassis_gravity(mm, heading) -> np.ndarray:
    """Gravity (3,) in the chassis frame at the heading θ: R_z(θ)ᵀ g_F."""
    if mm.ground is None:
        return np.array([0.0, 0.0, -mm.gravity])
    g = mm.ground.gravity(mm.gravity)
    c, s = np.cos(heading), np.sin(heading)
    return np.array([c * g[0] + s * g[1], -s * g[0] + c * g[1], g[2]])


def is_level(mm) -> bool:
    """True when the model is the thesis's: no slope, vertical steering axis."""
    level = mm.ground is None or mm.ground.angle == 0.0
    return level and getattr(mm.platform.params, "steering_tilt", 0.0) == 0.0
