"""Bennett's linkage: the over-constrained spatial four-bar that moves.

G. T. Bennett, "A new mechanism", *Engineering* 76 (1903), p. 777: a closed loop of four
revolute joints whose opposite links are equal (lengths a, b; twists α, β between
successive axes, in standard Denavit–Hartenberg form) moves with one degree of freedom
when a / sin α = b / sin β, although the Grübler–Kutzbach count over spatial motion gives
6 · 3 − 4 · 5 = −2. Its joint angles obey θ₃ = 2π − θ₁, θ₄ = 2π − θ₂ and
tan(θ₁/2) tan(θ₂/2) = sin((β + α)/2) / sin((β − α)/2) (Baker, "The Bennett, Goldberg and
Myard linkages — in perspective", *Mechanism and Machine Theory* 14 (1979)), which this
module uses to place the home pose.
"""

from __future__ import annotations

import numpy as np

from ..model import ModelBuilder
from ..model.constraint_types import LoopClosure


def _dh(theta: float, a: float, alpha: float) -> np.ndarray:
    """Standard DH, d = 0: Rz(θ) Tx(a) Rx(α)."""
    c, s, ca, sa = np.cos(theta), np.sin(theta), np.cos(alpha), np.sin(alpha)
    return np.array(
        [[c, -s * ca, s * sa, a * c], [s, c * ca, -c * sa, a * s], [0, sa, ca, 0], [0, 0, 0, 1]]
    )


def bennett(
    a: float = 0.3,
    alpha: float = np.pi / 6,
    beta: float = np.pi / 3,
    theta1: float = 0.7,
    link_mass: float = 1.0,
):
    """Bennett's 4R linkage: three revolute joints of a tree and the fourth a revolute
    loop closure (``hinge``, 5 rows); mobility 1, though its rows have rank 2.

    Links 1 and 3 have length ``a`` and twist ``alpha``, links 2 and 4 length
    b = a sin β / sin α and twist ``beta`` (Bennett's condition), offsets d = 0. Body
    ``link{i}`` turns about joint i (rate i − 1, i = 1, 2, 3); the frame ``link3_end`` on
    link 3 is the fourth joint's frame, held in the ground frame ``ground_hinge`` by the
    hinge closure about its z axis. q = 0 is assembled, with joint 1 at ``theta1`` and
    the others from Bennett's relation (module docstring). Links are uniform rods along
    their common normals.

    Parameters
    ----------
    a : float
        The length of links 1 and 3 [m], > 0.
    alpha, beta : float
        The twists of links 1, 3 and of links 2, 4 [rad], in (0, π), α ≠ β.
    theta1 : float
        Joint 1's angle at home [rad], in (0, 2π).
    link_mass : float
        Each moving link's mass [kg], > 0.

    Returns
    -------
    Model

    Raises
    ------
    ValueError
        A non-positive length or mass, twists outside (0, π) or equal.

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon.constraints import mobility
    >>> m = mobility(es.zoo.load("bennett"))
    >>> m.grubler_kutzbach, m.jacobian_mobility, m.rank, m.rows
    (-2, 1, 2, 5)
    """
    if not (a > 0 and link_mass > 0):
        raise ValueError(f"bennett: a and link_mass must be > 0, got {a}, {link_mass}")
    if not (0 < alpha < np.pi and 0 < beta < np.pi and abs(alpha - beta) > 1e-6):
        raise ValueError(
            f"bennett: alpha and beta must lie in (0, π) and differ, got {alpha}, {beta}"
        )
    if not 0 < theta1 < 2 * np.pi:
        raise ValueError(f"bennett: theta1 must lie in (0, 2π), got {theta1}")
    b = a * np.sin(beta) / np.sin(alpha)
    k = np.sin((beta + alpha) / 2) / np.sin((beta - alpha) / 2)
    theta2 = 2 * np.arctan(k / np.tan(theta1 / 2))
    thetas = (theta1, theta2, 2 * np.pi - theta1)
    lengths, twists = (a, b, a), (alpha, beta, alpha)

    def rod(length):
        inertia = np.diag([1e-3, 1.0, 1.0]) * link_mass * length**2 / 12.0
        return dict(mass=link_mass, com=(length / 2, 0.0, 0.0), inertia=inertia)

    builder = ModelBuilder()
    parent, placement = 0, np.eye(4)
    for i in range(3):
        X = placement @ _dh(thetas[i], 0.0, 0.0)  # the joint's frame turned to home
        parent = builder.add_body(
            parent,
            "R",
            rotation=X[:3, :3],
            translation=X[:3, 3],
            name=f"link{i + 1}",
            joint_name=f"joint{i + 1}",
            **rod(lengths[i]),
        )
        placement = _dh(0.0, lengths[i], twists[i])  # along the common normal, then twist
    builder.add_frame("link3_end", parent, rotation=placement[:3, :3], translation=placement[:3, 3])
    home = np.eye(4)
    for i in range(3):
        home = home @ _dh(thetas[i], lengths[i], twists[i])
    builder.add_frame("ground_hinge", 0, rotation=home[:3, :3], translation=home[:3, 3])
    builder.add_constraint(LoopClosure("hinge", "ground_hinge", "link3_end", "revolute"))
    return builder.build(
        gravity=(0.0, 0.0, -9.81),
        name="bennett",
        source="Bennett's over-constrained 4R linkage (Bennett 1903; Baker 1979)",
    )
