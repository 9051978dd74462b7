"""Geometric paths p(γ) with analytic derivatives up to the 4th (seed 000, Rojas 1987, §3.6).

A path is a point p(γ) ∈ R³ as a function of a scalar parameter γ. The Frenet–Serret
synthesis of §3.6 needs p′, p″, p‴ (frame, κ, τ) and p⁗ (the rate τ′ of the torsion, used
by the angular acceleration (3.6.26)), so every path gives

    path.derivatives(gamma, order=4) -> array (order + 1, *gamma.shape, 3)
                                        = [p, p′, p″, p‴, p⁗][: order + 1]

where ′ = d/dγ. Derivatives are analytic, never finite differences: a
:class:`ParametricPath` is built from user callables for p and each derivative.

Paths here:

- :func:`line` — p = p0 + γ(p1 − p0), γ ∈ [0, 1] (curvature 0: no Frenet frame).
- :func:`circle` — p = c + r(cos γ u + sin γ v), γ ∈ [0, 2π], (u, v, n) right-handed.
- :func:`helix` — p = [r cos γ, r sin γ, hγ/2π] (κ = r/(r² + c²), τ = c/(r² + c²), c = h/2π).
- :func:`e2_sphere_cylinder` — the Argonne E2 task curve of seed 000 §3.6,
  p(β) = [−a cos β, a√(14 − 2cos β) − b, a sin β], β ∈ [0, 2π]: the upper branch of the
  intersection of the cylinder x² + z² = a² with the sphere (x − a)² + (y + b)² + z² = 16a².
  (The thesis prints the cylinder as x² + y² = a² and the sphere with (y − b)² and (c − z)²;
  those are inconsistent with its own p(β), which is used here.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from .._args import finite_array, finite_number

__all__ = ["Path", "ParametricPath", "line", "circle", "helix", "e2_sphere_cylinder"]

MAX_ORDER = 4


def _params(gamma) -> np.ndarray:
    return finite_array(gamma, "gamma")


def _point(x, field: str) -> np.ndarray:
    return finite_array(x, field, (3,))


def _positive(x, field: str) -> float:
    return finite_number(x, field, positive=True)


def _xyz(x, y, z) -> np.ndarray:
    """Stack three broadcastable components into (..., 3)."""
    x, y, z = np.broadcast_arrays(x, y, z)
    return np.stack([x, y, z], axis=-1).astype(np.float64)


class Path:
    """Base class of paths: subclasses provide :meth:`derivatives`.

    A path is a point p(γ) ∈ R³ [m] as a function of a scalar parameter γ (Rojas
    Salgado (1987), §3.6). Its points are expressed in whatever frame the user's
    coordinates are; in a :class:`~eslabon.trajectory.Task` that is the robot's base
    frame. Calling a path, ``path(gamma)``, gives p(γ). Build paths with :func:`line`,
    :func:`circle`, :func:`helix`, :func:`e2_sphere_cylinder` or :class:`ParametricPath`.

    Attributes
    ----------
    order : int
        The highest derivative available analytically (4 for the built-in paths; a
        fixed-orientation task needs 2, the Frenet orientation 4).
    domain : tuple of float
        The nominal parameter interval (lo, hi); informative, evaluation is not
        restricted to it.
    name : str
        A label used in error messages and ``repr``.
    """

    #: highest derivative order available analytically
    order: int = MAX_ORDER
    #: the nominal parameter interval (informative; evaluation is not restricted to it)
    domain: tuple = (0.0, 1.0)
    name: str = "path"

    def derivatives(self, gamma, order: int = MAX_ORDER) -> np.ndarray:
        """[p, p′, …, p^(order)] at γ: array ``(order + 1, *np.shape(gamma), 3)``.

        Parameters
        ----------
        gamma : float or array_like (...)
            Path parameter values (the path's units, e.g. rad for a circle).
        order : int
            The highest derivative wanted, 0 to 4.

        Returns
        -------
        ndarray (order + 1, ..., 3)
            p [m], then p′ = dp/dγ, p″, … [m per unit of γ to the power k].

        Raises
        ------
        NotImplementedError
            Always, in this base class: subclasses implement it.
        """
        raise NotImplementedError

    def __call__(self, gamma) -> np.ndarray:
        """p(γ), shape (*np.shape(gamma), 3).

        Parameters
        ----------
        gamma : float or array_like (...)
            Path parameter values.

        Returns
        -------
        ndarray (..., 3)
            The points [m].
        """
        return self.derivatives(gamma, order=0)[0]

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, domain={self.domain})"


class ParametricPath(Path):
    """A path from analytic callables: ``func(γ) -> (..., 3)`` and ``derivs = [p′, p″, …]``.

    ``derivs`` holds 1 to 4 callables [p′, p″, p‴, p⁗] with ``func``'s signature. The
    callables receive a float array γ of any shape and must return an array of shape
    γ.shape + (3,) (vectorized). Derivatives must be analytic: this class does not
    differentiate numerically. With fewer than 4 derivatives, ``order`` is limited
    accordingly: a fixed-orientation task needs p′ and p″; the Frenet orientation needs
    all four (τ′ uses p⁗). The built-in paths are ParametricPaths.

    Parameters
    ----------
    func : callable
        p(γ): float array (...) → array (..., 3) [m].
    derivs : sequence of callable
        1 to 4 callables p′, p″, p‴, p⁗ (′ = d/dγ), same signature as ``func``.
    domain : tuple of float
        The nominal parameter interval (lo, hi), lo < hi (informative only).
    name : str
        A label for error messages and ``repr``.

    Attributes
    ----------
    order : int
        ``len(derivs)``.
    domain : tuple of float
        (lo, hi) as floats.
    name : str
        As given.

    Raises
    ------
    ValueError
        ``func`` or an entry of ``derivs`` not callable, not 1 to 4 derivatives, or a
        domain with lo ≥ hi or not finite.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import trajectory as tr
    >>> parabola = tr.ParametricPath(
    ...     lambda g: np.stack([g, g**2, 0 * g], axis=-1),
    ...     [lambda g: np.stack([1 + 0 * g, 2 * g, 0 * g], axis=-1),
    ...      lambda g: np.stack([0 * g, 2 + 0 * g, 0 * g], axis=-1)],
    ...     name="parabola",
    ... )
    >>> parabola.order, parabola(2.0).tolist()
    (2, [2.0, 4.0, 0.0])
    """

    def __init__(
        self, func: Callable, derivs: Sequence[Callable], domain=(0.0, 1.0), name: str = "path"
    ):
        if not callable(func):
            raise ValueError(f"func: expected a callable p(gamma), got {func!r}")
        try:
            derivs = list(derivs)
        except TypeError:
            raise ValueError(
                f"derivs: expected a list of 1 to 4 callables, got {derivs!r}"
            ) from None
        if not 1 <= len(derivs) <= MAX_ORDER:
            raise ValueError(
                f"derivs: expected 1 to 4 callables [p′, p″, p‴, p⁗], got {len(derivs)}"
            )
        for k, d in enumerate(derivs):
            if not callable(d):
                raise ValueError(f"derivs[{k}]: expected a callable, got {d!r}")
        lo, hi = (float(v) for v in domain)
        if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi):
            raise ValueError(f"domain: expected (lo, hi) with lo < hi, got {domain!r}")
        self._funcs = [func, *derivs]
        self.order = len(derivs)
        self.domain = (lo, hi)
        self.name = str(name)

    def derivatives(self, gamma, order: int = MAX_ORDER) -> np.ndarray:
        """[p, p′, …, p^(order)] at γ from the user's callables.

        Parameters
        ----------
        gamma : float or array_like (...)
            Path parameter values, finite.
        order : int
            The highest derivative wanted, 0 to ``self.order``.

        Returns
        -------
        ndarray (order + 1, ..., 3)
            p [m], then p′ = dp/dγ, p″, … [m per unit of γ to the power k].

        Raises
        ------
        ValueError
            ``order`` not an integer in 0 to 4 or above ``self.order``; ``gamma`` not
            finite; a callable that fails (TypeError or ValueError), returns another shape
            than γ.shape + (3,) or a non-finite value (naming it and the γ).

        Examples
        --------
        >>> from eslabon import trajectory as tr
        >>> tr.line([0, 0, 0], [1, 2, 0]).derivatives([0.0, 0.5], order=2).shape
        (3, 2, 3)
        """
        if not isinstance(order, (int, np.integer)) or not 0 <= order <= MAX_ORDER:
            raise ValueError(f"order: expected an integer in 0..{MAX_ORDER}, got {order!r}")
        if order > self.order:
            raise ValueError(
                f"order: path {self.name!r} has analytic derivatives up to "
                f"order {self.order}, {order} requested"
            )
        g = _params(gamma)
        out = np.empty((order + 1, *g.shape, 3))
        for k in range(order + 1):
            field = "func" if k == 0 else f"derivs[{k - 1}]"
            try:
                v = np.asarray(self._funcs[k](g), dtype=np.float64)
            except (TypeError, ValueError) as exc:
                raise ValueError(
                    f"{field}: could not evaluate at gamma of shape {g.shape}: {exc}"
                ) from None
            if v.shape != g.shape + (3,):
                raise ValueError(
                    f"{field}: expected shape {g.shape + (3,)} for gamma of "
                    f"shape {g.shape}, got {v.shape}"
                )
            if not np.all(np.isfinite(v)):
                i = np.argwhere(~np.isfinite(v))[0][:-1]
                raise ValueError(
                    f"{field}: non-finite value at gamma = {g[tuple(i)] if g.ndim else float(g)}"
                )
            out[k] = v
        return out


def line(p0, p1) -> ParametricPath:
    """Segment p(γ) = p0 + γ(p1 − p0), γ ∈ [0, 1]; p′ = p1 − p0, higher derivatives 0.

    Its curvature is zero, so it has no Frenet frame: use it with a fixed orientation
    (:func:`~eslabon.trajectory.straight_line_task`).

    Parameters
    ----------
    p0, p1 : array_like (3,)
        Start and end points [m], in the frame of the task (the base frame).

    Returns
    -------
    ParametricPath
        Named ``"line"``, order 4, domain (0, 1); γ is dimensionless.

    Raises
    ------
    ValueError
        A point not 3 finite numbers, or p1 equal to p0.

    Examples
    --------
    >>> from eslabon import trajectory as tr
    >>> tr.line([0.0, 0.0, 0.0], [1.0, 2.0, 0.0])(0.5).tolist()
    [0.5, 1.0, 0.0]
    """
    a, b = _point(p0, "p0"), _point(p1, "p1")
    if np.array_equal(a, b):
        raise ValueError("p1: expected a point different from p0")
    d = b - a

    def zero(g):
        return np.zeros(np.shape(g) + (3,))

    return ParametricPath(
        lambda g: a + np.asarray(g)[..., None] * d,
        [lambda g: np.broadcast_to(d, np.shape(g) + (3,)).copy(), zero, zero, zero],
        (0.0, 1.0),
        "line",
    )


def _perpendicular_basis(n: np.ndarray):
    """Unit u ⟂ n (from the coordinate axis least aligned with n) and v = n × u."""
    e = np.zeros(3)
    e[int(np.argmin(np.abs(n)))] = 1.0
    u = e - (e @ n) * n
    u /= np.linalg.norm(u)
    return u, np.cross(n, u)


def circle(center=(0.0, 0.0, 0.0), radius=1.0, normal=(0.0, 0.0, 1.0)) -> ParametricPath:
    """p(γ) = c + r(cos γ u + sin γ v), γ ∈ [0, 2π], counterclockwise about ``normal``.

    u is the coordinate axis least aligned with the normal, projected onto its plane
    (normal = z gives u = x, v = y), and v = n × u. p^(k) = r(cos(γ + kπ/2) u +
    sin(γ + kπ/2) v). κ = 1/r, τ = 0.

    Parameters
    ----------
    center : array_like (3,)
        c [m].
    radius : float
        r [m], > 0.
    normal : array_like (3,)
        The axis n of the circle (normalized here; nonzero).

    Returns
    -------
    ParametricPath
        Named ``"circle"``, order 4, domain (0, 2π); γ in rad.

    Raises
    ------
    ValueError
        A vector not 3 finite numbers, a radius not a positive finite number, a zero
        normal.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import trajectory as tr
    >>> np.round(tr.circle(radius=2.0)(np.pi / 2), 6).tolist()
    [0.0, 2.0, 0.0]
    """
    c = _point(center, "center")
    r = _positive(radius, "radius")
    n = _point(normal, "normal")
    if not np.linalg.norm(n) > 0:
        raise ValueError("normal: expected a nonzero vector")
    n = n / np.linalg.norm(n)
    u, v = _perpendicular_basis(n)

    def deriv(k):
        def f(g):
            a = np.asarray(g)[..., None] + k * np.pi / 2
            return (c if k == 0 else 0.0) + r * (np.cos(a) * u + np.sin(a) * v)

        return f

    return ParametricPath(deriv(0), [deriv(k) for k in range(1, 5)], (0.0, 2 * np.pi), "circle")


def helix(radius=1.0, pitch=1.0) -> ParametricPath:
    """p(γ) = [r cos γ, r sin γ, cγ], c = pitch/(2π), about +z.

    κ = r/(r² + c²), τ = c/(r² + c²) (constant), handy for checking the Frenet quantities.

    Parameters
    ----------
    radius : float
        r [m], > 0.
    pitch : float
        The rise per turn [m]; negative gives a left-handed helix, 0 a circle.

    Returns
    -------
    ParametricPath
        Named ``"helix"``, order 4, domain (0, 2π) (one turn); γ in rad.

    Raises
    ------
    ValueError
        A radius not a positive finite number, a pitch not a finite number.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import trajectory as tr
    >>> frame = tr.frenet_frame(tr.helix(radius=1.0, pitch=2 * np.pi), 0.3)
    >>> round(float(frame.kappa), 6), round(float(frame.tau), 6)  # r = c = 1
    (0.5, 0.5)
    """
    r = _positive(radius, "radius")
    try:
        c = float(pitch) / (2 * np.pi)
    except (TypeError, ValueError):
        raise ValueError(f"pitch: expected a number, got {pitch!r}") from None
    if not np.isfinite(c):
        raise ValueError(f"pitch: expected a finite number, got {pitch}")

    def deriv(k):
        def f(g):
            g = np.asarray(g, dtype=np.float64)
            a = g + k * np.pi / 2
            z = c * g if k == 0 else (np.full_like(g, c) if k == 1 else np.zeros_like(g))
            return _xyz(r * np.cos(a), r * np.sin(a), z)

        return f

    return ParametricPath(deriv(0), [deriv(k) for k in range(1, 5)], (0.0, 2 * np.pi), "helix")


def e2_sphere_cylinder(a, b) -> ParametricPath:
    """The Argonne E2 task curve (thesis §3.6), β ∈ [0, 2π]:

        p(β) = [−a cos β, a√W − b, a sin β],  W = 14 − 2cos β.

    Derivatives (′ = d/dβ): x^(k) = −a cos(β + kπ/2), z^(k) = a sin(β + kπ/2), and for
    u = √W, with W′ = 2 sin β, W″ = 2cos β, W‴ = −2 sin β, W⁗ = −2cos β (Faà di Bruno):

        u′ = W′/(2u)
        u″ = W″/(2u) − W′²/(4u³)
        u‴ = W‴/(2u) − 3W′W″/(4u³) + 3W′³/(8u⁵)
        u⁗ = W⁗/(2u) − (4W′W‴ + 3W″²)/(4u³) + 9W′²W″/(4u⁵) − 15W′⁴/(16u⁷)

    and y^(k) = a u^(k). Hence y″ = (a/√W)(14cos β − cos²β − 1)/W, the thesis's p̈_y with
    its bracket put right. The values of a and b are not given in the thesis.

    The thesis is Rojas Salgado (1987), §3.6. The curve is the upper branch of the
    intersection of the cylinder x² + z² = a² with the sphere (x − a)² + (y + b)² + z² =
    16a² (the thesis prints other cylinder and sphere equations, inconsistent with its own
    p(β); this p(β) is used).

    Parameters
    ----------
    a : float
        The cylinder's radius [m], > 0.
    b : float
        The offset of the sphere's centre along −y [m] (any finite number).

    Returns
    -------
    ParametricPath
        Named ``"e2_sphere_cylinder"``, order 4, domain (0, 2π); β in rad.

    Raises
    ------
    ValueError
        ``a`` not a positive finite number, ``b`` not a finite number.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import trajectory as tr
    >>> a, b = 1.0, 0.5
    >>> x, y, z = tr.e2_sphere_cylinder(a, b)(np.linspace(0.0, 2 * np.pi, 9)).T
    >>> on_cylinder = np.allclose(x**2 + z**2, a**2)
    >>> on_sphere = np.allclose((x - a) ** 2 + (y + b) ** 2 + z**2, 16 * a**2)
    >>> bool(on_cylinder), bool(on_sphere)
    (True, True)
    """
    a = _positive(a, "a")
    try:
        b = float(b)
    except (TypeError, ValueError):
        raise ValueError(f"b: expected a number, got {b!r}") from None
    if not np.isfinite(b):
        raise ValueError(f"b: expected a finite number, got {b}")

    def y_derivs(beta):
        s, c = np.sin(beta), np.cos(beta)
        W = 14 - 2 * c
        u = np.sqrt(W)
        W1, W2, W3, W4 = 2 * s, 2 * c, -2 * s, -2 * c
        return (
            u,
            W1 / (2 * u),
            W2 / (2 * u) - W1**2 / (4 * u**3),
            W3 / (2 * u) - 3 * W1 * W2 / (4 * u**3) + 3 * W1**3 / (8 * u**5),
            W4 / (2 * u)
            - (4 * W1 * W3 + 3 * W2**2) / (4 * u**3)
            + 9 * W1**2 * W2 / (4 * u**5)
            - 15 * W1**4 / (16 * u**7),
        )

    def deriv(k):
        def f(beta):
            beta = np.asarray(beta, dtype=np.float64)
            ph = beta + k * np.pi / 2
            y = a * y_derivs(beta)[k] - (b if k == 0 else 0.0)
            return _xyz(-a * np.cos(ph), y, a * np.sin(ph))

        return f

    return ParametricPath(
        deriv(0), [deriv(k) for k in range(1, 5)], (0.0, 2 * np.pi), "e2_sphere_cylinder"
    )
