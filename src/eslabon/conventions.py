"""Conventions shared by every layer (see ``docs/conventions.md``).

* SI units inside the library (m, kg, s, rad, N, N·m); degrees only at the I/O edge.
* Spatial vectors are ordered ``[angular; linear]``: a twist is ``[ω; v]``, a wrench ``[n; f]``.
* Gravity is a field of the model: the acceleration of free fall in world coordinates.
  The physical default is ``STANDARD_GRAVITY`` = (0, 0, -9.81) m/s² with world z up.
* Joint types are small integers stored in the model's flat arrays.
"""

from __future__ import annotations

STANDARD_GRAVITY = (0.0, 0.0, -9.81)

# joint type codes are part of the packed layout; what each type does: _engine.joints
from ._engine.layout import FIXED, PRISMATIC, REVOLUTE  # noqa: E402,F401
from ._engine.layout import JOINT_CODES as JOINT_TYPE_CODES  # noqa: E402,F401
from ._engine.layout import JOINT_NAMES as JOINT_TYPE_NAMES  # noqa: E402,F401

DH_CONVENTIONS = ("standard", "modified", "rojas")

# --- one vocabulary for how a quantity is computed (docs/conventions.md, "Keywords") -----
# ``algorithm=``: a dynamics formulation; each name means the same in every function
ALGORITHMS = {
    "aba": "articulated-body algorithm (Featherstone 2008, §7.3), O(n)",
    "crba": "composite rigid body (Walker & Orin 1982, method 3; Featherstone 2008, §6.2)",
    "rnea_columns": "n Newton–Euler columns at unit accelerations (Walker & Orin, method 1)",
    "lagrange": "explicit Euler–Lagrange terms I(θ), C(θ, θ̇), b(θ) (Rojas 1987, §4.3)",
    "soa": "spatial operators (Jaramillo Botero 1998): the constraint-force recursion (FD), "
    "the composite-body expansion (M)",
    "soa_operator": "spatial operators as dense products Hᵀ ρ I ρᵀ H (Jaramillo 1998, 1.71)",
    "gibbs_appell": "Gibbs–Appell, D q̈ + φ = τ from the Gibbs function (Araujo 2012, 3.34–3.36)",
}
# a source's own term for an algorithm: a documented alias, no warning
ALGORITHM_ALIASES = {"walker_orin_3": "crba", "walker_orin_1": "rnea_columns"}
# old names of eslabon's own: they warn (eslabon._deprecation)
DEPRECATED_ALGORITHM_NAMES = {"soa_composite": "soa", "operator": "soa_operator"}
FORWARD_DYNAMICS_ALGORITHMS = ("aba", "crba", "rnea_columns", "lagrange", "soa", "gibbs_appell")
MASS_MATRIX_ALGORITHMS = ("crba", "rnea_columns", "soa", "soa_operator", "lagrange")

# ``integrator=``: time stepping, the same names in eslabon.simulate, rollout,
# control.simulate_closed_loop and mobile.simulate
INTEGRATORS = {
    "rk4": "classical fixed-step Runge–Kutta, 4th order",
    "euler": "fixed-step semi-implicit Euler (q̇⁺ = q̇ + h q̈, q⁺ = q + h q̇⁺)",
    "dop853": "scipy's adaptive Dormand–Prince 8(5,3) (rtol, atol)",
    "rk45": "scipy's adaptive Dormand–Prince 5(4) (rtol, atol)",
}


def algorithm_name(value, allowed: tuple, where: str, field: str = "algorithm") -> str:
    """The canonical name of ``value`` among ``allowed`` (aliases resolved, an old name
    warned once), or a ValueError naming ``field`` and the names ``where`` takes."""
    from ._deprecation import renamed_value

    value = renamed_value(field, value, DEPRECATED_ALGORITHM_NAMES, where)
    name = ALGORITHM_ALIASES.get(value, value) if isinstance(value, str) else value
    if name not in allowed:
        aliases = [a for a, c in ALGORITHM_ALIASES.items() if c in allowed]
        also = f" (or the aliases {', '.join(map(repr, aliases))})" if aliases else ""
        raise ValueError(f"{field}: expected one of {allowed}{also}, got {value!r}")
    return name


def integrator_name(value, allowed: tuple, field: str = "integrator") -> str:
    """``value`` if it is one of ``allowed`` (names of :data:`INTEGRATORS`), else a
    ValueError naming ``field``, what is allowed, and where the others run."""
    if value in allowed:
        return value
    if value in INTEGRATORS:
        raise ValueError(f"{field}: {value!r} is not available here; expected one of {allowed}")
    raise ValueError(f"{field}: expected one of {allowed}, got {value!r}")
