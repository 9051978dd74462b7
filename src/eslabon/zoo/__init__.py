"""Built-in robots, each citing its source and conventions.

>>> from eslabon import zoo
>>> "puma560" in zoo.names() and "panda" in zoo.names()
True

``random_chain(n, seed)`` builds a seeded random serial chain and ``random_tree(seed)`` a
seeded random tree (not registered models).
"""

from __future__ import annotations

from . import (
    andrews,
    araujo,
    arms,
    bennett,
    jaramillo,
    legged,
    linkages,
    parallel,
    practica,
    rojas,
    simple,
    space,
)
from .random_chain import random_chain
from .random_tree import random_tree

_REGISTRY = {
    "practica_4dof": practica.practica_4dof,
    "practica_6dof": practica.practica_6dof,
    "practica_pendulum3": practica.practica_pendulum3,
    "cincinnati_t3": rojas.cincinnati_t3,
    "puma560_araujo": araujo.puma560_araujo,
    "puma560": arms.puma560,
    "panda": arms.panda,
    "planar2": simple.planar2,
    "jaramillo_pendulum": jaramillo.jaramillo_pendulum,
    "jaramillo_rpr": jaramillo.jaramillo_rpr,
    "space_manipulator": space.space_manipulator,
    "andrews_squeezer": andrews.andrews_squeezer,
    "four_bar": linkages.four_bar,
    "slider_crank": linkages.slider_crank,
    "five_bar": linkages.five_bar,
    "bennett": bennett.bennett,
    "delta": parallel.delta,
    "stewart": parallel.stewart,
    "quadruped": legged.quadruped,
    "humanoid": legged.humanoid,
}


def names() -> tuple:
    """Names of the built-in models, sorted.

    Returns
    -------
    tuple of str
        The names :func:`load` and :func:`describe` take (the seeded random models of
        :func:`random_chain` and :func:`random_tree` are not among them).

    Examples
    --------
    >>> from eslabon import zoo
    >>> "planar2" in zoo.names(), "puma560" in zoo.names()
    (True, True)
    """
    return tuple(sorted(_REGISTRY))


def _check_options(name: str, factory, options: dict):
    """Refuse an option whose type is not its default's: a switch (bool default) takes
    True or False only (the string "off" would be true), a number takes a real number."""
    import inspect
    import numbers

    params = inspect.signature(factory).parameters
    for key, value in options.items():
        if key not in params:
            continue  # the call below names it
        default = params[key].default
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise ValueError(f"options: {name} {key}: expected true or false, got {value!r}")
        elif isinstance(default, (int, float)) and (
            isinstance(value, bool) or not isinstance(value, numbers.Real)
        ):
            raise ValueError(f"options: {name} {key}: expected a number, got {value!r}")


def load(name: str, **options):
    """Build a zoo model by name; ``options`` are that model's keyword arguments.

    Each call builds a new :class:`eslabon.Model` (they are cheap); :func:`describe`
    gives a model's source, conventions and options.

    Parameters
    ----------
    name : str
        One of :func:`names` (``"planar2"``, ``"puma560"``, ``"panda"``, …).
    **options
        That model's keyword arguments (e.g. ``l1`` [m] and ``m1`` [kg] of
        ``"planar2"``): a switch takes True or False, a number a real number.

    Returns
    -------
    Model
        The robot.

    Raises
    ------
    ValueError
        An unknown name, an option the model does not take, or an option of the wrong
        type (a string for a switch, a boolean or text for a number); the model's own
        checks of the values.

    Examples
    --------
    >>> import eslabon as es
    >>> es.zoo.load("puma560")
    Model('puma560', nq=6, nv=6, nb=6, joints=RRRRRR, gravity=(0.0, 0.0, -9.81))
    >>> es.zoo.load("planar2", l1=2.0).frame("dh1").translation.tolist()
    [2.0, 0.0, 0.0]
    """
    try:
        factory = _REGISTRY[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"name: unknown zoo model {name!r}; expected one of {', '.join(names())}"
        ) from None
    _check_options(name, factory, options)
    try:
        return factory(**options)
    except TypeError as exc:
        raise ValueError(f"options: {name} does not take {sorted(options)} ({exc})") from None


def describe(name: str) -> str:
    """The docstring of a zoo model (source and conventions).

    Parameters
    ----------
    name : str
        One of :func:`names`.

    Returns
    -------
    str
        The text of the model's factory: what it is, its source (author, year, table),
        its conventions and options.

    Raises
    ------
    ValueError
        An unknown name, or a model that cannot be built with its defaults.

    Examples
    --------
    >>> from eslabon import zoo
    >>> zoo.describe("planar2").splitlines()[0]
    'Two-link planar arm (R-R) moving in the x0–y0 plane, standard DH'
    """
    load(name)
    return (_REGISTRY[name].__doc__ or "").strip()


__all__ = ["names", "load", "describe", "random_chain", "random_tree"]
