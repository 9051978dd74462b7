"""A warning of the Python API points at the caller's line (the first frame outside the
eslabon package), not at eslabon's own source, however deep the call that warns."""

from __future__ import annotations

import warnings

import numpy as np

import eslabon as es
from eslabon.model.validate import ImplausibleInertiaWarning
from eslabon.sim import EnergyInjectionWarning

ODD_ROW = dict(
    joint="R", theta=0.0, d=0.0, a=0.4, alpha=0.0, mass=4.8, com=[0.0, 0.0, 0.0],
    inertia=[[0.066, 0.0, 0.0], [0.0, 0.086, 0.0], [0.0, 0.0, 0.0125]],
)  # fmt: skip
ODD_YAML = (
    "eslabon: 1\nconvention: standard\nrows:\n  - {joint: R, theta: 0, d: 0, "
    "a: 0.4, alpha: 0, mass: 4.8, com: [0, 0, 0], inertia: [[0.066, 0, 0], "
    "[0, 0.086, 0], [0, 0, 0.0125]]}\n"
)


def _caught(category, call):
    """(filename, line) of each warning of ``category`` that ``call`` gives."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        call()
    return [(w.filename, w.lineno) for w in seen if issubclass(w.category, category)]


def _line_of(text):
    import inspect

    lines, first = inspect.getsourcelines(inspect.currentframe().f_back)
    return first + next(i for i, line in enumerate(lines) if text in line)


def test_implausible_inertia_of_from_dh_points_here():
    where = _caught(ImplausibleInertiaWarning, lambda: es.from_dh([ODD_ROW], "standard"))
    assert where == [(__file__, _line_of("lambda: es.from_dh([ODD_ROW]"))]


def test_implausible_inertia_of_a_model_builder_points_here():
    b = es.model.ModelBuilder()
    b.add_body(0, "R", mass=1.0, inertia=np.diag([0.01, 0.01, 0.05]))
    where = _caught(ImplausibleInertiaWarning, lambda: b.build())
    assert where == [(__file__, _line_of("lambda: b.build()"))]


def test_implausible_inertia_of_a_model_file_points_here(tmp_path):
    path = tmp_path / "odd.yaml"
    path.write_text(ODD_YAML)
    where = _caught(ImplausibleInertiaWarning, lambda: es.load_model(path))
    assert where == [(__file__, _line_of("lambda: es.load_model(path)"))]


def test_friction_warnings_of_simulate_point_here():
    """Both warnings of the check after a run with Coulomb friction. The step cannot
    resolve a torque that flips beyond F_c every step (FrictionStepWarning); a callable
    torque that is zero at every sample and 50 N·m between them does work the sampled
    torques do not show, which the check reads as injected energy."""
    from eslabon.sim import FrictionStepWarning

    p = es.zoo.load("jaramillo_pendulum")
    model = p.replace(coulomb=np.array([0.0, 1.0]), viscous=np.zeros(2), gravity=(0.0, 0.0, 0.0))
    flips = 5.0 * (-1.0) ** np.arange(101)[:, None]
    where = _caught(
        FrictionStepWarning,
        lambda: es.simulate(model, None, [-2.5e-3], 0.1, 1e-3, torque=flips),
    )
    assert where == [(__file__, _line_of("lambda: es.simulate(model, None, [-2.5e-3]"))]

    def between(t, q, qd):
        return np.full(1, 50.0 * np.sin(np.pi * t / 1e-3) ** 2)

    where = _caught(
        EnergyInjectionWarning,
        lambda: es.simulate(model, None, [2.0], 0.1, 1e-3, torque=between),
    )
    assert where == [(__file__, _line_of("lambda: es.simulate(model, None, [2.0]"))]
