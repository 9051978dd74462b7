"""*Práctica 3*'s Newton–Euler table (Tabla 3.1, eqs 3.27–3.33) as the notes' MATLAB
helpers give it, one function per equation: 3-vectors in the link's own frame ("ⁱR₀ v",
as the notes write them). :mod:`eslabon.practica` says what the package is for."""

from __future__ import annotations

import numpy as np

from ..spatial.rotations import homogeneous, rot_x, rot_z

Z0 = np.array([0.0, 0.0, 1.0])


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
