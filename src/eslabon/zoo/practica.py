"""Robots of seed 001, *Práctica 3 Dinámica de Robots* (course notes, MATLAB).

All use **standard DH** (Rz(θ) Tz(d) Tx(a) Rx(α)), the COM of each link halfway between
O_{i−1} and O_i (s̄_i = −0.5 p_i*), inertias about the COM in DH link-frame axes, viscous
friction b_i, and g = 9.8 m/s² as a fictitious base acceleration (seed 001 §3.2.4, the
note after Tabla 3.1: v̇0 = (0, 0, g)): the gravity vector is (0, 0, −9.8) for the arms
(z0 up) and (0, −9.8, 0) for the pendulum, which swings in the x0–y0 plane. The payload is
a fixed body at the last DH frame, the seed's link N+1. Parameters: the ``newtoneuler4``
and ``newtoneuler6`` listings of Ejemplos 3.1 and 3.2. Two sets are not in the document:
the d and a of the 6-DOF arm (lost from its listing) and the pendulum's inertial data
(§3.4 lists neither ``newtoneuler3`` nor ``h3``); they are those of the book's own MATLAB
files (``newtoneuler6.m``/``h6.m``, ``newtoneuler3.m``/``h3.m``), handed out with it.
"""

from __future__ import annotations

import numpy as np

from ..model import from_dh
from ._payload import payload_dict

G = 9.8
SOURCE = "seed 001 (Práctica 3 Dinámica de Robots), Ejemplos 3.1–3.4 and §3.4"


def _rows(joints, theta, d, a, alpha, mass, inertias, viscous):
    rows = []
    for i, jt in enumerate(joints):
        p = np.array([a[i], d[i] * np.sin(alpha[i]), d[i] * np.cos(alpha[i])])
        row = {
            "joint": jt,
            "theta": theta[i],
            "d": d[i],
            "a": a[i],
            "alpha": alpha[i],
            "mass": mass[i],
            "com": -0.5 * p,
            "inertia": np.diag(inertias[i]),
            "viscous": viscous,
        }
        rows.append(row)
    return rows


def practica_4dof(
    payload_mass: float = 0.0, payload_inertia=0.0, book_com: bool = False, friction: bool = True
):
    """4-DOF R-P-P-R arm of seed 001 (Ejemplos 3.1, 3.3; ``newtoneuler4``/``h4``).

    Standard DH: θ = [q1, 0, 0, q4], d = [0.4, q2, q3, 0.2], a = [0, −0.1, 0, 0],
    α = [0, −π/2, 0, 0]; masses 10, 5, 5, 3 kg; b_i = 0.05; gravity (0, 0, −9.8).
    Ejemplo 3.3 uses ``payload_mass=3, payload_inertia=0.05``.

    ``book_com=True`` reproduces the seed's model exactly: the COM of each prismatic link
    is recomputed as −0.5 p_i*(q), so it slides with its joint (``com_slide = −0.5``).
    That link is not a rigid body and the model does not conserve energy (its gravity
    torques are not ∂V/∂q: the book's Newton–Euler does not count the sliding of the COM
    as motion of the link); the default keeps each prismatic link's COM fixed in its frame at
    s̄ = −0.5 p_i*(d = 0).
    """
    rows = _rows(
        "RPPR",
        [0, 0, 0, 0],
        [0.4, 0.0, 0.0, 0.2],
        [0, -0.1, 0, 0],
        [0, -np.pi / 2, 0, 0],
        [10, 5, 5, 3],
        [
            (0.0191, 0.0191, 0.0068),
            (0.0031, 0.0484, 0.0484),
            (0.0606, 0.0053, 0.0606),
            (0.0022, 0.0022, 0.0014),
        ],
        0.05 if friction else 0.0,
    )
    if book_com:
        rows[1]["com_slide"] = -0.5
        rows[2]["com_slide"] = -0.5
    return from_dh(
        rows,
        "standard",
        gravity=(0, 0, -G),
        payload=payload_dict(payload_mass, payload_inertia),
        name="practica_4dof" + ("_book" if book_com else ""),
        source=SOURCE,
    )


def practica_6dof(payload_mass: float = 0.0, payload_inertia=0.0, friction: bool = True):
    """6-DOF revolute arm of seed 001 (Ejemplos 3.2, 3.4; ``newtoneuler6``/``h6``).

    Standard DH: d = [0.315, 0, 0, 0.5, 0, 0.08], a = [0, 0.45, 0, 0, 0, 0] (recovered from
    the book's files; lost in the seed's OCR), α = [−π/2, 0, π/2, −π/2, π/2, 0];
    masses 2.78, 10.25, 0, 5.57, 0, 1.98 kg (links 3 and 5 massless); inertias reused
    from the 4-DOF arm as in the seed; b_i = 0.05; gravity (0, 0, −9.8).
    Ejemplo 3.4 uses ``payload_mass=3, payload_inertia=0.05``.
    """
    z = (0.0, 0.0, 0.0)
    rows = _rows(
        "RRRRRR",
        [0] * 6,
        [0.315, 0, 0, 0.5, 0, 0.08],
        [0, 0.45, 0, 0, 0, 0],
        [-np.pi / 2, 0, np.pi / 2, -np.pi / 2, np.pi / 2, 0],
        [2.78, 10.25, 0, 5.57, 0, 1.98],
        [
            (0.0191, 0.0191, 0.0068),
            (0.0031, 0.0484, 0.0484),
            z,
            (0.0606, 0.0053, 0.0606),
            z,
            (0.0022, 0.0022, 0.0014),
        ],
        0.05 if friction else 0.0,
    )
    return from_dh(
        rows,
        "standard",
        gravity=(0, 0, -G),
        payload=payload_dict(payload_mass, payload_inertia),
        name="practica_6dof",
        source=SOURCE,
    )


def practica_pendulum3(friction: bool = True, payload_mass: float = 0.0, payload_inertia=0.0):
    """3-link planar pendulum of seed 001 §3.4 (``simula3``, ``walkerorinrunge3``).

    Standard DH: a = 1 m, d = 0, α = 0 for all three links; 3 kg slender rods with the
    COM at mid-link and inertia diag(0, 0.25, 0.25) kg·m² about it; b_i = 0.1;
    gravity (0, −9.8, 0): the book's ``r00vp0 = [0; g; 0]``, i.e. −y0 is down and the
    pendulum swings in the x0–y0 plane. Parameters from the book's ``h3.m``/``newtoneuler3.m``,
    which the práctica hands out; the seed itself (§3.4, Tabla 3.2) gives only the DH data.
    A payload (``payload_mass``, ``payload_inertia``) is the book's link 4 at the last
    frame, as ``newtoneuler3``'s ``m4``/``Iexter``; the práctica's runs carry none.
    """
    rows = _rows(
        "RRR",
        [0, 0, 0],
        [0, 0, 0],
        [1, 1, 1],
        [0, 0, 0],
        [3, 3, 3],
        [(0, 0.25, 0.25)] * 3,
        0.1 if friction else 0.0,
    )
    return from_dh(
        rows,
        "standard",
        gravity=(0, -G, 0),
        payload=payload_dict(payload_mass, payload_inertia),
        name="practica_pendulum3",
        source=SOURCE,
    )
