"""*Práctica 3*'s MATLAB functions by their own names, for students following the notes.

The laboratory notes *Práctica 3. Dinámica de Robots* (seed 001, ``docs/sources.md``) hand
out one MATLAB function per equation of Luh, Walker and Paul's Newton–Euler table
(Tabla 3.1, eqs 3.27–3.33: ``dh``, ``ri0pi`` … ``t_r``, ``f_p``), per-robot functions that
chain them (``newtoneuler3/4/6``), the composite-body inertia matrix (``h3/4/6``, §3.3),
Walker and Orin's third method (``walkerorin3/4/6``, eq. 3.36), its fourth-order
Runge–Kutta step (``walkerorinrunge3``) and the pendulum's simulation (``simula3``,
``animacion3``, §3.4). This module gives each the same name and argument order, so a
student can run the notes' sessions line by line from Python:

- the equation helpers are the table's formulas, 3-vectors in the link's own frame
  ("ⁱR₀ v", as the notes write them);
- the robot functions call the library on the robots of :mod:`eslabon.zoo.practica`
  (``practica_pendulum3``, ``practica_4dof`` with ``book_com=True``, ``practica_6dof``),
  carrying the payload ``masaext``/``inerciaext`` as the notes' link N+1 and scaling the
  gravity to the ``g`` given.

What differs from MATLAB: vectors are 1-D arrays of shape (n,) where MATLAB has columns
n×1, and ``simula3`` returns ``mat_q`` of shape (3, K) as MATLAB does (one column per
instant), the transpose of :attr:`eslabon.Trajectory.q`. For new work use the library
itself: :func:`eslabon.inverse_dynamics`, :func:`eslabon.mass_matrix`,
:func:`eslabon.forward_dynamics` (``algorithm="crba"`` is Walker–Orin's third method) and
:func:`eslabon.simulate` (``integrator="rk4"``).
"""

from __future__ import annotations

from .equations import (
    denavit,
    dh,
    f_p,
    ri0ai,
    ri0fi,
    ri0fia,
    ri0ni,
    ri0nia,
    ri0pi,
    ri0si,
    ri0vpi_p,
    ri0vpi_r,
    ri0wi,
    ri0wpi,
    t_r,
)
from .programs import (
    animacion3,
    h3,
    h4,
    h6,
    newtoneuler3,
    newtoneuler4,
    newtoneuler6,
    simula3,
    walkerorin3,
    walkerorin4,
    walkerorin6,
    walkerorinrunge3,
)

__all__ = [
    "dh",
    "denavit",
    "ri0pi",
    "ri0si",
    "ri0wi",
    "ri0wpi",
    "ri0vpi_r",
    "ri0vpi_p",
    "ri0ai",
    "ri0fi",
    "ri0ni",
    "ri0fia",
    "ri0nia",
    "t_r",
    "f_p",
    "newtoneuler3",
    "newtoneuler4",
    "newtoneuler6",
    "h3",
    "h4",
    "h6",
    "walkerorin3",
    "walkerorin4",
    "walkerorin6",
    "walkerorinrunge3",
    "simula3",
    "animacion3",
]
