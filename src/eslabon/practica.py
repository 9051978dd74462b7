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

from functools import lru_cache

import numpy as np

from .spatial.rotations import homogeneous, rot_x, rot_z

Z0 = np.array([0.0, 0.0, 1.0])
G_NOTES = 9.8  # m/s², the gravity the notes' walkerorin functions hard-code

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


# --- Tabla 3.1, one function per equation ---------------------------------------------
def dh(teta, alfa) -> np.ndarray:
    """ⁱ⁻¹Rᵢ, the rotation of a standard Denavit–Hartenberg row: Rz(θ) Rx(α) (notes' ``dh``).

    Parameters
    ----------
    teta, alfa : float
        θᵢ and αᵢ [rad].

    Returns
    -------
    numpy.ndarray (3, 3)

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import practica
    >>> bool(np.allclose(practica.dh(np.pi / 2, 0.0) @ [1, 0, 0], [0, 1, 0]))
    True
    """
    return rot_z(float(teta)) @ rot_x(float(alfa))


def denavit(teta, d, a, alfa) -> np.ndarray:
    """ⁱ⁻¹Aᵢ = Rz(θ) Tz(d) Tx(a) Rx(α), the homogeneous matrix of a standard DH row
    (*Práctica 2*'s ``denavit``, which ``animacion3`` calls).

    Parameters
    ----------
    teta, alfa : float
        θᵢ and αᵢ [rad].
    d, a : float
        dᵢ and aᵢ [m].

    Returns
    -------
    numpy.ndarray (4, 4)

    Examples
    --------
    >>> from eslabon import practica
    >>> practica.denavit(0.0, 0.4, 1.0, 0.0)[:3, 3].tolist()
    [1.0, 0.0, 0.4]
    """
    c, s = np.cos(teta), np.sin(teta)
    return homogeneous(dh(teta, alfa), [a * c, a * s, d])


def ri0pi(a, d, alfa) -> np.ndarray:
    """ⁱR₀ pᵢ* = (a, d sin α, d cos α): the origin Oᵢ seen from Oᵢ₋₁, in frame i.

    Parameters
    ----------
    a, d : float
        aᵢ and dᵢ [m] (dᵢ = qᵢ for a prismatic joint).
    alfa : float
        αᵢ [rad].

    Returns
    -------
    numpy.ndarray (3,)

    Examples
    --------
    >>> from eslabon import practica
    >>> practica.ri0pi(1.0, 0.0, 0.0).tolist()
    [1.0, 0.0, 0.0]
    """
    return np.array([a, d * np.sin(alfa), d * np.cos(alfa)], dtype=float)


def ri0si(a, d, alfa, factor) -> np.ndarray:
    """ⁱR₀ s̄ᵢ = factor · ⁱR₀ pᵢ*: the centre of mass from Oᵢ, in frame i (the notes place
    it with ``factor = −0.5``, halfway between Oᵢ₋₁ and Oᵢ).

    Parameters
    ----------
    a, d, alfa : float
        As :func:`ri0pi`.
    factor : float
        The fraction of pᵢ* [-].

    Returns
    -------
    numpy.ndarray (3,)

    Examples
    --------
    >>> from eslabon import practica
    >>> practica.ri0si(1.0, 0.4, 0.0, -0.5).tolist()
    [-0.5, -0.0, -0.2]
    """
    return factor * ri0pi(a, d, alfa)


def ri0wi(iri_1, i_1r0wi_1, qpi) -> np.ndarray:
    """ⁱR₀ ωᵢ = ⁱRᵢ₋₁ (ⁱ⁻¹R₀ ωᵢ₋₁ + z₀ q̇ᵢ), eq. 3.27 for a revolute joint (a prismatic
    one rotates ωᵢ₋₁ alone: ``iri_1 @ i_1r0wi_1``).

    Parameters
    ----------
    iri_1 : array_like (3, 3)
        ⁱRᵢ₋₁ (the transpose of ``dh``).
    i_1r0wi_1 : array_like (3,)
        ωᵢ₋₁ in frame i−1 [rad/s].
    qpi : float
        q̇ᵢ [rad/s].

    Returns
    -------
    numpy.ndarray (3,)

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import practica
    >>> practica.ri0wi(np.eye(3), np.zeros(3), 2.0).tolist()
    [0.0, 0.0, 2.0]
    """
    return np.asarray(iri_1, float) @ (np.asarray(i_1r0wi_1, float) + Z0 * qpi)


def ri0wpi(iri_1, i_1r0wpi_1, i_1r0wi_1, qpi, qppi) -> np.ndarray:
    """ⁱR₀ ω̇ᵢ = ⁱRᵢ₋₁ (ⁱ⁻¹R₀ ω̇ᵢ₋₁ + z₀ q̈ᵢ + ⁱ⁻¹R₀ ωᵢ₋₁ × z₀ q̇ᵢ), eq. 3.28, revolute.

    Parameters
    ----------
    iri_1 : array_like (3, 3)
        ⁱRᵢ₋₁.
    i_1r0wpi_1, i_1r0wi_1 : array_like (3,)
        ω̇ᵢ₋₁ [rad/s²] and ωᵢ₋₁ [rad/s] in frame i−1.
    qpi, qppi : float
        q̇ᵢ [rad/s] and q̈ᵢ [rad/s²].

    Returns
    -------
    numpy.ndarray (3,)

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import practica
    >>> practica.ri0wpi(np.eye(3), np.zeros(3), [1.0, 0, 0], 1.0, 0.0).tolist()
    [0.0, -1.0, 0.0]
    """
    w = np.asarray(i_1r0wi_1, float)
    return np.asarray(iri_1, float) @ (
        np.asarray(i_1r0wpi_1, float) + Z0 * qppi + np.cross(w, Z0 * qpi)
    )


def ri0vpi_r(iri_1, i_1r0vpi_1, ir0wpi, ir0wi, ir0pi) -> np.ndarray:
    """ⁱR₀ v̇ᵢ = ω̇ᵢ × pᵢ* + ωᵢ × (ωᵢ × pᵢ*) + ⁱRᵢ₋₁ ⁱ⁻¹R₀ v̇ᵢ₋₁, eq. 3.29 for a revolute
    joint (every vector but v̇ᵢ₋₁ in frame i).

    Parameters
    ----------
    iri_1 : array_like (3, 3)
        ⁱRᵢ₋₁.
    i_1r0vpi_1 : array_like (3,)
        v̇ᵢ₋₁ in frame i−1 [m/s²] (v̇₀ = (0, 0, g): gravity as a base acceleration).
    ir0wpi, ir0wi, ir0pi : array_like (3,)
        ω̇ᵢ, ωᵢ and pᵢ* in frame i.

    Returns
    -------
    numpy.ndarray (3,)

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import practica
    >>> practica.ri0vpi_r(np.eye(3), [0, 0, 9.8], np.zeros(3), np.zeros(3), [1.0, 0, 0]).tolist()
    [0.0, 0.0, 9.8]
    """
    wp, w, p = (np.asarray(x, float) for x in (ir0wpi, ir0wi, ir0pi))
    return np.cross(wp, p) + np.cross(w, np.cross(w, p)) + np.asarray(iri_1, float) @ i_1r0vpi_1


def ri0vpi_p(iri_1, i_1r0vpi_1, ir0wpi, ir0wi, ir0pi, qpi, qppi) -> np.ndarray:
    """ⁱR₀ v̇ᵢ = ⁱRᵢ₋₁ (z₀ q̈ᵢ + v̇ᵢ₋₁) + ω̇ᵢ × pᵢ* + 2 ωᵢ × (ⁱRᵢ₋₁ z₀ q̇ᵢ) + ωᵢ × (ωᵢ × pᵢ*),
    eq. 3.29 for a prismatic joint.

    Parameters
    ----------
    iri_1 : array_like (3, 3)
        ⁱRᵢ₋₁.
    i_1r0vpi_1 : array_like (3,)
        v̇ᵢ₋₁ in frame i−1 [m/s²].
    ir0wpi, ir0wi, ir0pi : array_like (3,)
        ω̇ᵢ, ωᵢ and pᵢ* in frame i.
    qpi, qppi : float
        q̇ᵢ [m/s] and q̈ᵢ [m/s²].

    Returns
    -------
    numpy.ndarray (3,)

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import practica
    >>> z = np.zeros(3)
    >>> practica.ri0vpi_p(np.eye(3), z, z, z, z, 0.0, 2.0).tolist()
    [0.0, 0.0, 2.0]
    """
    R = np.asarray(iri_1, float)
    wp, w, p = (np.asarray(x, float) for x in (ir0wpi, ir0wi, ir0pi))
    return (
        R @ (Z0 * qppi + np.asarray(i_1r0vpi_1, float))
        + np.cross(wp, p)
        + 2.0 * np.cross(w, R @ (Z0 * qpi))
        + np.cross(w, np.cross(w, p))
    )


def ri0ai(ir0vpi, ir0wpi, ir0wi, ir0si) -> np.ndarray:
    """ⁱR₀ āᵢ = ω̇ᵢ × s̄ᵢ + ωᵢ × (ωᵢ × s̄ᵢ) + v̇ᵢ: the centre of mass's acceleration, eq. 3.30.

    Parameters
    ----------
    ir0vpi, ir0wpi, ir0wi, ir0si : array_like (3,)
        v̇ᵢ, ω̇ᵢ, ωᵢ and s̄ᵢ in frame i.

    Returns
    -------
    numpy.ndarray (3,)

    Examples
    --------
    >>> from eslabon import practica
    >>> practica.ri0ai([0, 0, 9.8], [0, 0, 0], [0, 0, 0], [-0.5, 0, 0]).tolist()
    [0.0, 0.0, 9.8]
    """
    vp, wp, w, s = (np.asarray(x, float) for x in (ir0vpi, ir0wpi, ir0wi, ir0si))
    return np.cross(wp, s) + np.cross(w, np.cross(w, s)) + vp


def ri0fi(ri0ai, mi) -> np.ndarray:
    """ⁱR₀ Fᵢ = mᵢ āᵢ: the force that accelerates link i's centre of mass.

    Parameters
    ----------
    ri0ai : array_like (3,)
        āᵢ in frame i [m/s²].
    mi : float
        mᵢ [kg].

    Returns
    -------
    numpy.ndarray (3,)

    Examples
    --------
    >>> from eslabon import practica
    >>> practica.ri0fi([0, 0, 9.8], 2.0).tolist()
    [0.0, 0.0, 19.6]
    """
    return mi * np.asarray(ri0ai, float)


def ri0ni(ir0wpi, ir0wi, ir0I_0ri) -> np.ndarray:
    """ⁱR₀ Nᵢ = Iᵢ ω̇ᵢ + ωᵢ × (Iᵢ ωᵢ): Euler's moment about the centre of mass.

    Parameters
    ----------
    ir0wpi, ir0wi : array_like (3,)
        ω̇ᵢ and ωᵢ in frame i.
    ir0I_0ri : array_like (3, 3)
        Iᵢ about the centre of mass in frame i's axes (ⁱR₀ Iᵢ ⁰Rᵢ) [kg·m²].

    Returns
    -------
    numpy.ndarray (3,)

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import practica
    >>> practica.ri0ni([0, 0, 1.0], [0, 0, 0], np.diag([1.0, 2.0, 3.0])).tolist()
    [0.0, 0.0, 3.0]
    """
    I = np.asarray(ir0I_0ri, float)
    w = np.asarray(ir0wi, float)
    return I @ np.asarray(ir0wpi, float) + np.cross(w, I @ w)


def ri0fia(iri1, i1r0fi1a, ir0fi) -> np.ndarray:
    """ⁱR₀ fᵢ = ⁱRᵢ₊₁ ⁱ⁺¹R₀ fᵢ₊₁ + ⁱR₀ Fᵢ: the force link i−1 exerts on link i, eq. 3.31.

    Parameters
    ----------
    iri1 : array_like (3, 3)
        ⁱRᵢ₊₁ (``dh`` of row i+1).
    i1r0fi1a : array_like (3,)
        fᵢ₊₁ in frame i+1 [N].
    ir0fi : array_like (3,)
        Fᵢ in frame i [N].

    Returns
    -------
    numpy.ndarray (3,)

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import practica
    >>> practica.ri0fia(np.eye(3), [0, 0, 1.0], [0, 0, 2.0]).tolist()
    [0.0, 0.0, 3.0]
    """
    return np.asarray(iri1, float) @ np.asarray(i1r0fi1a, float) + np.asarray(ir0fi, float)


def ri0nia(iri1, i1r0ni1a, i1r0fi1a, ir0ni, ir0fi, i1r0pi, ir0pi, ir0si) -> np.ndarray:
    """ⁱR₀ nᵢ = ⁱRᵢ₊₁ [nᵢ₊₁ + (ⁱ⁺¹R₀ pᵢ*) × fᵢ₊₁] + (pᵢ* + s̄ᵢ) × Fᵢ + Nᵢ: the moment link
    i−1 exerts on link i about Oᵢ₋₁, eq. 3.32.

    Parameters
    ----------
    iri1 : array_like (3, 3)
        ⁱRᵢ₊₁.
    i1r0ni1a, i1r0fi1a : array_like (3,)
        nᵢ₊₁ [N·m] and fᵢ₊₁ [N] in frame i+1.
    ir0ni, ir0fi : array_like (3,)
        Nᵢ [N·m] and Fᵢ [N] in frame i.
    i1r0pi : array_like (3,)
        pᵢ* in frame i+1 (``iri1.T @ ir0pi``).
    ir0pi, ir0si : array_like (3,)
        pᵢ* and s̄ᵢ in frame i.

    Returns
    -------
    numpy.ndarray (3,)

    Examples
    --------
    A link hanging its weight F at s̄ = −p*/2 from the joint: the moment is p*/2 × F.

    >>> import numpy as np
    >>> from eslabon import practica
    >>> z = np.zeros(3)
    >>> p = np.array([1.0, 0, 0])
    >>> practica.ri0nia(np.eye(3), z, z, z, [0, 0, 10.0], p, p, -0.5 * p).tolist()
    [0.0, -5.0, 0.0]
    """
    f1 = np.asarray(i1r0fi1a, float)
    inner = np.asarray(i1r0ni1a, float) + np.cross(np.asarray(i1r0pi, float), f1)
    return (
        np.asarray(iri1, float) @ inner
        + np.cross(np.asarray(ir0pi, float) + np.asarray(ir0si, float), np.asarray(ir0fi, float))
        + np.asarray(ir0ni, float)
    )


def t_r(iri_1, ir0nia, qpi, bi) -> float:
    """τᵢ = nᵢᵀ (ⁱRᵢ₋₁ z₀) + bᵢ q̇ᵢ: a revolute joint's torque, eq. 3.33.

    Parameters
    ----------
    iri_1 : array_like (3, 3)
        ⁱRᵢ₋₁.
    ir0nia : array_like (3,)
        nᵢ in frame i [N·m].
    qpi : float
        q̇ᵢ [rad/s].
    bi : float
        The viscous friction coefficient bᵢ [N·m·s/rad].

    Returns
    -------
    float
        [N·m]

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import practica
    >>> practica.t_r(np.eye(3), [0, 0, 2.0], 1.0, 0.05)
    2.05
    """
    return float(np.asarray(ir0nia, float) @ (np.asarray(iri_1, float) @ Z0) + bi * qpi)


def f_p(iri_1, ir0fia, qpi, bi) -> float:
    """τᵢ = fᵢᵀ (ⁱRᵢ₋₁ z₀) + bᵢ q̇ᵢ: a prismatic joint's force, eq. 3.33 (the notes' ``T_p``).

    Parameters
    ----------
    iri_1 : array_like (3, 3)
        ⁱRᵢ₋₁.
    ir0fia : array_like (3,)
        fᵢ in frame i [N].
    qpi : float
        q̇ᵢ [m/s].
    bi : float
        The viscous friction coefficient bᵢ [N·s/m].

    Returns
    -------
    float
        [N]

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import practica
    >>> practica.f_p(np.eye(3), [0, 0, 156.8], 0.0, 0.05)
    156.8
    """
    return float(np.asarray(ir0fia, float) @ (np.asarray(iri_1, float) @ Z0) + bi * qpi)


# --- the robots of the notes, through the library -------------------------------------
@lru_cache(maxsize=32)
def _robot(n: int, g: float, masaext: float, inercia: tuple):
    from .zoo import practica as robots

    inertia = np.array(inercia).reshape(3, 3)
    if n == 3:
        model = robots.practica_pendulum3(payload_mass=masaext, payload_inertia=inertia)
    elif n == 4:
        model = robots.practica_4dof(masaext, inertia, book_com=True)
    else:
        model = robots.practica_6dof(masaext, inertia)
    return model.replace(gravity=np.asarray(model.gravity) * (g / G_NOTES))


def _model(n: int, g, masaext, inerciaext):
    g, m = float(g), float(masaext)
    if not (np.isfinite(g) and np.isfinite(m) and m >= 0):
        raise ValueError(
            f"g and masaext: expected finite numbers, masaext ≥ 0 [kg]; got {g!r}, {m!r}"
        )
    I = np.asarray(inerciaext, dtype=float)
    I = I * np.eye(3) if I.ndim == 0 else I
    if I.shape != (3, 3):
        raise ValueError(f"inerciaext: expected a number or a 3×3 matrix, got shape {I.shape}")
    return _robot(n, g, m, tuple(I.ravel().tolist()))


def _vector(x, n: int, name: str) -> np.ndarray:
    v = np.asarray(x, dtype=float).reshape(-1)
    if v.shape != (n,):
        raise ValueError(f"{name}: expected {n} numbers (a {n}×1 vector), got {v.size}")
    return v


def _newtoneuler(n, q, qp, qpp, g, masaext, inerciaext):
    from . import inverse_dynamics

    model = _model(n, g, masaext, inerciaext)
    return inverse_dynamics(model, _vector(q, n, "q"), _vector(qp, n, "qp"), _vector(qpp, n, "qpp"))


def _h(n, q, masaext, inerciaext):
    from . import mass_matrix

    return mass_matrix(_model(n, G_NOTES, masaext, inerciaext), _vector(q, n, "q"))


def _walkerorin(n, q, qp, tau, masaext, inerciaext):
    from . import forward_dynamics

    model = _model(n, G_NOTES, masaext, inerciaext)
    return forward_dynamics(
        model, _vector(q, n, "q"), _vector(qp, n, "qp"), _vector(tau, n, "tau"), algorithm="crba"
    )


_NE_DOC = """τ = newtoneuler{n}(q, qp, qpp, g, {m}, Iexter): inverse dynamics of {robot}
    by Newton–Euler (*Práctica 3* {where}), viscous friction bᵢ q̇ᵢ included.

    Parameters
    ----------
    q, qp, qpp : array_like ({n},)
        Joint coordinates, rates and accelerations [rad, m; /s; /s²].
    g : float
        The gravity's magnitude [m/s²] (the notes use 9.8).
    {m} : float
        The payload's mass [kg], the notes' link {n1}.
    Iexter : float or array_like (3, 3)
        The payload's inertia about its centre of mass [kg·m²]; a number s means s·I.

    Returns
    -------
    numpy.ndarray ({n},)
        τ [N·m, N].

    Raises
    ------
    ValueError
        A vector of the wrong length, a negative or non-finite mass.

    Examples
    --------
    {example}
    """

_H_DOC = """H = h{n}(q, masaext, inerciaext): the inertia matrix of {robot} by composite
    rigid bodies (Walker and Orin's third method, *Práctica 3* §3.3, eqs 3.37–3.40).

    Parameters
    ----------
    q : array_like ({n},)
        Joint coordinates [rad, m].
    masaext : float
        The payload's mass [kg].
    inerciaext : float or array_like (3, 3)
        The payload's inertia about its centre of mass [kg·m²].

    Returns
    -------
    numpy.ndarray ({n}, {n})
        H(q), symmetric positive definite [kg·m², kg·m, kg].

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import practica
    >>> H = practica.h{n}(np.zeros({n}), 0, 0)
    >>> H.shape, bool(np.allclose(H, H.T))
    (({n}, {n}), True)
    """

_WO_DOC = """q̈ = walkerorin{n}(q, qp, tau, masaext, inerciaext): forward dynamics of {robot}
    by Walker and Orin's third method, H q̈ = τ − b (*Práctica 3* eq. 3.36; g = 9.8 m/s²
    as the notes hard-code it).

    Parameters
    ----------
    q, qp : array_like ({n},)
        Joint coordinates and rates.
    tau : array_like ({n},)
        Joint torques [N·m, N].
    masaext : float
        The payload's mass [kg].
    inerciaext : float or array_like (3, 3)
        The payload's inertia about its centre of mass [kg·m²].

    Returns
    -------
    numpy.ndarray ({n},)
        q̈ [rad/s², m/s²].

    Examples
    --------
    The round trip of the notes' Ejemplo {example}:

    >>> import numpy as np
    >>> from eslabon import practica
    >>> q, qp, qpp = np.full({n}, 0.3), np.full({n}, 0.2), np.full({n}, 0.1)
    >>> tau = practica.newtoneuler{n}(q, qp, qpp, 9.8, 3, 0.05)
    >>> bool(np.allclose(practica.walkerorin{n}(q, qp, tau, 3, 0.05), qpp))
    True
    """

_ROBOTS = {
    3: ("the 3-link pendulum", "§3.4", "m4", "4"),
    4: (
        "the 4-DOF R-P-P-R arm (the notes' model: each prismatic link's centre of mass "
        "slides with its joint)",
        "Ejemplo 3.1",
        "m5",
        "5",
    ),
    6: ("the 6-DOF revolute arm", "Ejemplo 3.2", "m7", "7"),
}
_NE_EXAMPLES = {
    3: ">>> from eslabon import practica\n    >>> "
    "bool(abs(practica.newtoneuler3([0, 0, 0], [0, 0, 0], [0, 0, 0], 9.8, 0, 0)).max() > 0)"
    "\n    True",
    4: "Joint 2 holds the weight of links 2–4 and a 3 kg payload, (5 + 5 + 3 + 3)·9.8 N\n"
    "    (Ejemplo 3.1):\n\n    >>> from eslabon import practica\n"
    "    >>> round(float(practica.newtoneuler4([0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0],"
    " 9.8, 3, 0.05)[1]), 6)\n    156.8",
    6: ">>> from eslabon import practica\n    >>> "
    "practica.newtoneuler6([0] * 6, [0] * 6, [0] * 6, 9.8, 0, 0).shape\n    (6,)",
}


def _define(n: int):
    robot, where, m, n1 = _ROBOTS[n]

    def newtoneuler(q, qp, qpp, g=G_NOTES, masaext=0.0, Iexter=0.0):
        return _newtoneuler(n, q, qp, qpp, g, masaext, Iexter)

    def h(q, masaext=0.0, inerciaext=0.0):
        return _h(n, q, masaext, inerciaext)

    def walkerorin(q, qp, tau, masaext=0.0, inerciaext=0.0):
        return _walkerorin(n, q, qp, tau, masaext, inerciaext)

    ex = {3: "3.3 on the pendulum", 4: "3.3", 6: "3.4"}[n]
    for f, name, doc in (
        (
            newtoneuler,
            f"newtoneuler{n}",
            _NE_DOC.format(n=n, robot=robot, where=where, m=m, n1=n1, example=_NE_EXAMPLES[n]),
        ),
        (h, f"h{n}", _H_DOC.format(n=n, robot=robot)),
        (walkerorin, f"walkerorin{n}", _WO_DOC.format(n=n, robot=robot, example=ex)),
    ):
        f.__name__ = f.__qualname__ = name
        f.__doc__ = doc
        f.__module__ = __name__
    return newtoneuler, h, walkerorin


newtoneuler3, h3, walkerorin3 = _define(3)
newtoneuler4, h4, walkerorin4 = _define(4)
newtoneuler6, h6, walkerorin6 = _define(6)


def walkerorinrunge3(qini, qpini, par, t0, tf, masaext=0.0, inerciaext=0.0):
    """[qfin, qpfin] = walkerorinrunge3(...): one classical fourth-order Runge–Kutta step
    of the pendulum from t0 to tf with the torque ``par`` held (*Práctica 3* §3.4).

    As the notes' listing, the result is rounded to 1e-13 ("to avoid numerical
    oscillation"); the change is below the step's own error.

    Parameters
    ----------
    qini, qpini : array_like (3,)
        q and q̇ at t0 [rad, rad/s].
    par : array_like (3,)
        Joint torques [N·m].
    t0, tf : float
        The step's start and end [s].
    masaext : float
        The payload's mass [kg].
    inerciaext : float or array_like (3, 3)
        The payload's inertia [kg·m²].

    Returns
    -------
    tuple of numpy.ndarray (3,)
        (q, q̇) at tf.

    Examples
    --------
    >>> from eslabon import practica
    >>> q, qp = practica.walkerorinrunge3([0, 0, 0], [0, 0, 0], [0, 0, 0], 0.0, 0.001)
    >>> bool(q[0] < 0 and qp[0] < 0)  # the pendulum starts to fall
    True
    """
    q0, v0 = _vector(qini, 3, "qini"), _vector(qpini, 3, "qpini")
    tau = _vector(par, 3, "par")
    h = float(tf) - float(t0)
    acc = lambda q, v: walkerorin3(q, v, tau, masaext, inerciaext)
    v1, w1 = h * v0, h * acc(q0, v0)
    v2, w2 = h * (v0 + 0.5 * w1), h * acc(q0 + 0.5 * v1, v0 + 0.5 * w1)
    v3, w3 = h * (v0 + 0.5 * w2), h * acc(q0 + 0.5 * v2, v0 + 0.5 * w2)
    v4, w4 = h * (v0 + w3), h * acc(q0 + v3, v0 + w3)
    qfin = q0 + (v1 + 2 * v2 + 2 * v3 + v4) / 6
    qpfin = v0 + (w1 + 2 * w2 + 2 * w3 + w4) / 6
    return np.round(qfin * 1e13) / 1e13, np.round(qpfin * 1e13) / 1e13


def simula3(tsim, pint) -> np.ndarray:
    """mat_q = simula3(tsim, pint): the pendulum falling from rest with no torque, one
    Runge–Kutta step per ``pint`` (*Práctica 3* §3.4; the notes run ``simula3(1, 0.001)``).

    Parameters
    ----------
    tsim : float
        The duration [s].
    pint : float
        The integration period [s]; the instants are 0, pint, 2 pint, … up to tsim, as
        MATLAB's ``0:pint:tsim``.

    Returns
    -------
    numpy.ndarray (3, K)
        One column of joint angles per instant [rad], as the notes' ``mat_q``.

    Raises
    ------
    ValueError
        A ``tsim`` or ``pint`` that is not a positive finite number, or more than 10⁷
        instants.

    Examples
    --------
    >>> from eslabon import practica
    >>> practica.simula3(0.01, 0.001).shape
    (3, 11)
    """
    tsim, pint = float(tsim), float(pint)
    if not (np.isfinite(tsim) and np.isfinite(pint) and tsim > 0 and pint > 0):
        raise ValueError(f"tsim, pint: expected positive finite times [s], got {tsim}, {pint}")
    steps = int(np.floor(tsim / pint * (1 + 1e-12)))
    if steps > 10**7:
        raise ValueError(f"tsim/pint: {steps} steps, more than 10^7")
    mat_q = np.zeros((3, steps + 1))
    q, qp, zero = np.zeros(3), np.zeros(3), np.zeros(3)
    for i in range(1, steps + 1):
        q, qp = walkerorinrunge3(q, qp, zero, (i - 1) * pint, i * pint)
        mat_q[:, i] = q
    return mat_q


def animacion3(mat_q, path=None, *, pint: float = 1e-3, every: int = 20):
    """animacion3(mat_q): the pendulum's stick figure along ``mat_q`` (*Práctica 3*
    §3.4, Figura 3.5: axes [−3.2, 3.2] × [−3.1, 1]), through
    :func:`eslabon.viz.animate_planar`.

    Parameters
    ----------
    mat_q : array_like (3, K)
        One column of joint angles per instant, as :func:`simula3` returns.
    path : str or path-like, optional
        A ``.gif`` file to write.
    pint : float
        The time between columns [s], for the clock in the corner.
    every : int
        Draw every ``every``-th column.

    Returns
    -------
    matplotlib.animation.FuncAnimation

    Raises
    ------
    ValueError
        ``mat_q`` not of 3 rows, or matplotlib not installed.

    Examples
    --------
    >>> from eslabon import practica
    >>> anim = practica.animacion3(practica.simula3(0.05, 0.001), every=10)
    >>> "<script" in anim.to_jshtml()
    True
    """
    from types import SimpleNamespace

    from .viz import animate_planar

    Q = np.asarray(mat_q, dtype=float)
    if Q.ndim != 2 or Q.shape[0] != 3:
        raise ValueError(f"mat_q: expected 3 rows (one column per instant), got {Q.shape}")
    traj = SimpleNamespace(t=np.arange(Q.shape[1]) * pint, q=Q.T)
    return animate_planar(_model(3, G_NOTES, 0.0, 0.0), traj, path=path, every=every)
