"""Helpers shared by the test modules: a comparison, the zoo's one-DOF models, and where
the example-robot-data package's robots are."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import eslabon as es
from eslabon.robots.sources import example_robot_data_root as example_robot_data_folder

# the zoo models whose joints are all revolute, prismatic or fixed: what the formulations
# of the source documents take (the others are tested in test_general_joints.py)
ONE_DOF_ZOO = tuple(n for n in es.zoo.names() if not es.zoo.load(n).has_general_joints)


def check(actual, expected, rtol, scale=None, what=""):
    """max |actual − expected| <= rtol · scale, scale = max(1, max |expected|) by default."""
    actual, expected = np.asarray(actual, float), np.asarray(expected, float)
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    if scale is None:
        scale = max(1.0, float(np.max(np.abs(expected), initial=0.0)))
    err = float(np.max(np.abs(actual - expected), initial=0.0))
    assert err <= rtol * scale, f"{what}: max |error| {err:.3e} > {rtol:.0e} x scale {scale:.3e}"


def assert_printed(value, printed):
    """Match a table printed to 5 significant digits (seed 000): within one unit of the
    5th digit; entries printed at noise level (|x| < 1e-3) must be below 1e-3 too."""
    for x, p in zip(value, printed, strict=True):
        if abs(p) < 1e-3:
            assert abs(x) < 1e-3, (x, p)
        else:
            unit = 10.0 ** (np.floor(np.log10(abs(p))) - 4)
            assert abs(x - p) <= unit, (x, p, unit)


def example_robot_data_root() -> Path | None:
    """The ``robots`` folder of the installed example-robot-data package, or None
    (:func:`eslabon.robots.sources.example_robot_data_root`)."""
    return example_robot_data_folder()


def example_robot_data(relative: str) -> Path:
    """The file ``relative`` of example-robot-data's ``robots`` folder; the test is
    skipped when the package (or that file) is not installed."""
    root = example_robot_data_root()
    if root is None or not (root / relative).is_file():
        pytest.skip(f"example-robot-data ({relative}) is not installed")
    return root / relative
