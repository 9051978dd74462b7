"""Built-in robots, each citing its source and conventions.

>>> from eslabon import zoo
>>> zoo.names()[:3]
('cincinnati_t3', 'panda', 'planar2')

``random_chain(n, seed)`` builds a seeded random serial chain (not a registered model).
"""
from __future__ import annotations

from . import araujo, arms, jaramillo, practica, rojas, simple
from .random_chain import random_chain

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
}


def names() -> tuple:
    """Names of the built-in models, sorted."""
    return tuple(sorted(_REGISTRY))


def load(name: str, **options):
    """Build a zoo model by name; ``options`` are that model's keyword arguments."""
    try:
        factory = _REGISTRY[name]
    except (KeyError, TypeError):
        raise ValueError(f"name: unknown zoo model {name!r}; expected one of "
                         f"{', '.join(names())}") from None
    try:
        return factory(**options)
    except TypeError as exc:
        raise ValueError(f"options: {name} does not take {sorted(options)} ({exc})") from None


def describe(name: str) -> str:
    """The docstring of a zoo model (source and conventions)."""
    load(name)
    return (_REGISTRY[name].__doc__ or "").strip()


__all__ = ["names", "load", "describe", "random_chain"]
