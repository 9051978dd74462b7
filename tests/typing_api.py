"""Type check of the public dynamics signatures (src/eslabon/dynamics/api.pyi).

Not a pytest module (no ``test_`` prefix). Checked with::

    MYPYPATH=src mypy --follow-imports=silent --warn-unused-ignores tests/typing_api.py

Each call must type-check and give the type asserted; each line of ``refused``
at the end is a call the stub must refuse (an unused ``type: ignore`` would mean it is
accepted). ``python tests/typing_api.py`` runs the accepted calls too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

import eslabon as es
from eslabon.dynamics import RneaTrace, api
from eslabon.dynamics.api import FORWARD_METHODS, MASS_MATRIX_METHODS

if TYPE_CHECKING:
    from typing_extensions import assert_type
else:

    def assert_type(value: Any, expected: Any) -> Any:
        """At run time: the value has the type the stub declares."""
        if expected is RneaTrace:
            assert isinstance(value, RneaTrace)
        elif expected == F64:
            assert isinstance(value, np.ndarray) and value.dtype == np.float64, value
        else:  # tuple[F64, ...]
            assert isinstance(value, tuple) and len(value) == len(expected.__args__)
            assert all(v.dtype == np.float64 for v in value), value
        return value


F64 = NDArray[np.float64]


def main() -> None:
    model: es.Model = es.zoo.load("jaramillo_rpr")  # every method works on it
    q, qd, qdd = [0.1, 0.2, 0.3], np.array([0.3, -0.1, 0.2]), (0.0, 1.0, 0.5)
    batch = np.zeros((4, 3))
    assert_type(api.inverse_dynamics(model, q, qd, qdd), F64)
    push = [es.ExternalWrench("ee", [0, 0, 0, 1, 0, 0])]
    assert_type(api.inverse_dynamics(model, q, qd, qdd, wrenches=push), F64)
    assert_type(api.inverse_dynamics(model, batch, batch, batch, wrenches=None), F64)
    assert_type(api.gravity_torques(model, q), F64)
    assert_type(api.bias_forces(model, q, qd), F64)
    assert_type(api.mass_matrix(model, q), F64)
    for method in MASS_MATRIX_METHODS:
        assert_type(api.mass_matrix(model, q, algorithm=method), F64)
    tau = api.inverse_dynamics(model, q, qd, qdd)
    assert_type(api.forward_dynamics(model, q, qd, tau), F64)
    for method in FORWARD_METHODS:
        assert_type(api.forward_dynamics(model, q, qd, tau, algorithm=method), F64)
    assert_type(api.inverse_dynamics_derivatives(model, q, qd, qdd), tuple[F64, F64])
    dq, dv, Minv = api.forward_dynamics_derivatives(model, q, qd, tau)
    assert_type((dq, dv, Minv), tuple[F64, F64, F64])
    assert_type(api.coriolis_matrix(model, q, qd), F64)
    T = api.kinetic_energy(model, q, qd)
    assert_type(T, F64)
    assert_type(api.potential_energy(model, batch), F64)
    print(f"T = {float(T):.6g}")
    assert_type(api.rnea_trace(model, q, qd, qdd, wrenches=push), RneaTrace)
    # the same functions through the package and its lazy top level
    assert_type(es.dynamics.mass_matrix(model, q), F64)
    assert_type(es.inverse_dynamics(model, q=q, qd=qd, qdd=qdd), F64)
    assert_type(es.forward_dynamics_derivatives(model, q, qd, tau)[2], F64)
    assert_type(es.rnea_trace(model, q, qd, qdd), RneaTrace)


def refused(m: es.Model) -> None:
    """Calls the stub must refuse (never run; mypy reports an unused ignore if it accepts)."""
    api.mass_matrix(m, [0.0], "crba")  # type: ignore[call-arg]
    api.forward_dynamics(m, [0.0], [0.0], [0.0], "aba")  # type: ignore[call-arg]
    api.inverse_dynamics(m, [0.0], [0.0])  # type: ignore[call-arg]
    api.gravity_torques(m, [0.0], tip_wrench=None)  # type: ignore[call-arg]
    api.mass_matrix(m, [0.0], algorithm=3)  # type: ignore[arg-type]
    api.bias_forces(m, "q", object())  # type: ignore[arg-type]
    api.kinetic_energy(m, [0.0], [0.0]).upper()  # type: ignore[attr-defined]
    x: float = api.inverse_dynamics_derivatives(m, [0], [0], [0])  # type: ignore[assignment]
    print(x)


if __name__ == "__main__":
    main()
