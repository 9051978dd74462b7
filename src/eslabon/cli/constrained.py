"""``eslabon fd`` and ``eslabon id`` of a model with constraints: the state checked on
them (an unset --q is the neutral configuration assembled), the answer with the
constraint forces by row name."""

from __future__ import annotations

import numpy as np

from .common import UserError, emit, parse_configuration, parse_vector, printable


def _fmt(v) -> str:
    return "[" + ", ".join(f"{x:.6g}" for x in np.atleast_1d(v)) + "]"


def _state(m, q, qd):
    """(q, q̇) on the constraints: --q given or the neutral configuration assembled,
    --qd with J q̇ = 0; else one line naming the option."""
    from ..constraints import assemble, constraint_jacobian, constraint_residual
    from ..model.configuration import neutral

    x = assemble(m, neutral(m)) if q is None else parse_configuration(m, q, "--q")
    off = float(np.abs(constraint_residual(m, x)).max())
    if off > 1e-8:
        raise UserError(
            f"--q: the configuration is off the constraints (‖φ‖ = {off:.3g}); give one on "
            "them or leave --q unset (the neutral configuration, assembled)"
        )
    v = parse_vector(qd, m.nv, "--qd")
    drift = float(np.abs(constraint_jacobian(m, x) @ v).max())
    if drift > 1e-8:
        raise UserError(
            f"--qd: the rates break the constraints (‖J q̇‖ = {drift:.3g}); give rates the "
            "constraints allow (eslabon.constraints.close_state) or leave --qd unset"
        )
    return x, v


def _forces(out) -> dict:
    return {name: float(f) for name, f in out.forces().items()}


def constrained_forward(m, q, qd, tau, algorithm, as_json) -> None:
    """``eslabon fd``: q̈ and λ by row name."""
    from ..constraints import constrained_forward_dynamics

    x, v = _state(m, q, qd)
    t = parse_vector(tau, m.nv, "--tau")
    out = constrained_forward_dynamics(m, x, v, t, algorithm=algorithm or "kkt")
    forces = _forces(out)
    lines = [f"model {printable(m.name)}  ({m.nv} DOF, {len(out.names)} constraint rows)",
             f"qdd = {_fmt(out.qdd)}"]  # fmt: skip
    lines += [f"λ {printable(name)} = {f:.6g}" for name, f in forces.items()]
    emit(
        {"model": m.name, "q": x.tolist(), "qd": v.tolist(), "tau": t.tolist(),
         "qdd": out.qdd.tolist(), "constraint_forces": forces,
         "redundant_rows": list(out.redundant)},
        as_json,
        lines,
    )  # fmt: skip


def constrained_inverse(m, q, qd, qdd, trace, as_json) -> None:
    """``eslabon id``: the actuators' torques (every rate but a free flyer's, minimum norm)
    and λ by row name for q̈ (which must satisfy J q̈ = γ)."""
    from ..constraints import constrained_inverse_dynamics

    if trace:
        raise UserError("--trace: the Newton–Euler trace is the tree's; a model with "
                        "constraints has none")  # fmt: skip
    x, v = _state(m, q, qd)
    a = parse_vector(qdd, m.nv, "--qdd")
    out = constrained_inverse_dynamics(m, x, v, a)
    forces = _forces(out)
    lines = [f"model {printable(m.name)}  ({m.nv} DOF, {len(out.names)} constraint rows)",
             f"tau = {_fmt(out.tau)}"]  # fmt: skip
    lines += [f"λ {printable(name)} = {f:.6g}" for name, f in forces.items()]
    emit(
        {"model": m.name, "q": x.tolist(), "qd": v.tolist(), "qdd": a.tolist(),
         "tau": np.asarray(out.tau).tolist(), "constraint_forces": forces},
        as_json,
        lines,
    )  # fmt: skip
