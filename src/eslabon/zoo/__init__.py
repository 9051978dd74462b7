"""Built-in robots, each citing its source and conventions.

>>> from eslabon import zoo
>>> "puma560" in zoo.names() and "panda" in zoo.names()
True

``random_chain(n, seed)`` builds a seeded random serial chain and ``random_tree(seed)`` a
seeded random tree (not registered models).
"""

from __future__ import annotations

from . import araujo, arms, jaramillo, practica, rojas, simple, space
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
}


def names() -> tuple:
    """Names of the built-in models, sorted."""
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
    """Build a zoo model by name; ``options`` are that model's keyword arguments."""
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
    """The docstring of a zoo model (source and conventions)."""
    load(name)
    return (_REGISTRY[name].__doc__ or "").strip()


__all__ = ["names", "load", "describe", "random_chain", "random_tree"]
