"""*Práctica 3*'s robot functions (``newtoneuler3/4/6``, ``h3/4/6``, ``walkerorin3/4/6``)
and the pendulum's simulation (``walkerorinrunge3``, ``simula3``, ``animacion3``), each
calling the library on the robots of :mod:`eslabon.zoo.practica`.
:mod:`eslabon.practica` says what the package is for."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

G_NOTES = 9.8  # m/s², the gravity the notes' walkerorin functions hard-code


# --- the robots of the notes, through the library -------------------------------------
@lru_cache(maxsize=32)
def _robot(n: int, g: float, masaext: float, inercia: tuple):
    from ..zoo import practica as robots

    inertia = np.array(inercia).reshape(3, 3)
    if n == 3:
        model = robots.practica_pendulum3(payload_mass=masaext, payload_inertia=inertia)
    elif n == 4:
        model = robots.practica_4dof(masaext, inertia, book_com=True)
    else:
        model = robots.practica_6dof(masaext, inertia)
    return model.replace(gravity=np.asarray(model.gravity) * (g / G_NOTES))


def _model(n: int, g, masaext, inerciaext):
    try:
        g, m = float(g), float(masaext)
    except (TypeError, ValueError):
        raise ValueError(
            f"g and masaext: expected numbers (m/s², kg), got {g!r}, {masaext!r}"
        ) from None
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
    from .. import inverse_dynamics

    model = _model(n, g, masaext, inerciaext)
    return inverse_dynamics(model, _vector(q, n, "q"), _vector(qp, n, "qp"), _vector(qpp, n, "qpp"))


def _h(n, q, masaext, inerciaext):
    from .. import mass_matrix

    return mass_matrix(_model(n, G_NOTES, masaext, inerciaext), _vector(q, n, "q"))


def _walkerorin(n, q, qp, tau, masaext, inerciaext):
    from .. import forward_dynamics

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

    from ..viz import animate_planar

    Q = np.asarray(mat_q, dtype=float)
    if Q.ndim != 2 or Q.shape[0] != 3:
        raise ValueError(f"mat_q: expected 3 rows (one column per instant), got {Q.shape}")
    traj = SimpleNamespace(t=np.arange(Q.shape[1]) * pint, q=Q.T)
    return animate_planar(_model(3, G_NOTES, 0.0, 0.0), traj, path=path, every=every)
