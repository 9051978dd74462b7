"""``eslabon excitation``: a Fourier excitation for identification, designed within the
robot's position, rate, acceleration and torque limits, written as a trajectory a
controller can play (docs/identification.md)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import typer

from .common import FORCE, JSON, MODEL_ARG, OPT, UserError, emit, output_folder, parse_vector

OUTPUTS = ("excitation.csv", "excitation.npz", "excitation.json")


def _limit(text: str | None, n: int, field: str):
    """One number for every joint, or n numbers; None when unset."""
    if text is None:
        return None
    pieces = text.replace(",", " ").split()
    values = parse_vector(text, 1 if len(pieces) == 1 else n, field)
    if np.any(values <= 0.0):
        raise UserError(f"{field}: expected positive limits, got {text!r}")
    return np.broadcast_to(values, (n,)).copy()


def _urdf_of(spec: str):
    """The URDF a model spec names, when it names one (a .urdf file or a robot)."""
    if Path(spec).suffix.lower() == ".urdf":
        return Path(spec)
    from .. import robots, zoo

    name = spec.removeprefix("robot:")
    if spec not in zoo.names() and name in robots.names():
        try:
            file = robots.path(name)
        except ValueError:
            return None
        return file if Path(file).suffix.lower() == ".urdf" else None
    return None


def excitation(
    model: str = typer.Option(..., "--model", help=MODEL_ARG.help),
    opt: list[str] | None = OPT,
    out: Path = typer.Option(Path("out/excitation"), "--out", help="Folder for the outputs."),
    period: float = typer.Option(10.0, "--period", metavar="S", help="Period T [s]."),
    harmonics: int = typer.Option(5, "--harmonics", help="Harmonics L per joint."),
    samples: int = typer.Option(100, "--samples", help="Design times M per period."),
    rate: int = typer.Option(
        1000, "--rate", metavar="HZ", help="Samples per second of the written trajectory."
    ),
    periods: int = typer.Option(1, "--periods", help="Whole periods in the written file."),
    q_lower: str | None = typer.Option(
        None, "--q-lower", metavar="X1,…,Xn", help="Lower position limits [rad, m], one per joint."
    ),
    q_upper: str | None = typer.Option(
        None, "--q-upper", metavar="X1,…,Xn", help="Upper position limits [rad, m], one per joint."
    ),
    qd_max: str | None = typer.Option(
        None, "--qd-max", metavar="X|X1,…,Xn", help="Rate limits [rad/s, m/s]."
    ),
    qdd_max: str | None = typer.Option(
        None, "--qdd-max", metavar="X|X1,…,Xn", help="Acceleration limits [rad/s², m/s²]."
    ),
    tau_max: str | None = typer.Option(
        None, "--tau-max", metavar="X|X1,…,Xn", help="Torque limits [N·m, N]."
    ),
    iterations: int = typer.Option(100, "--iterations", help="SLSQP iterations per solve."),
    seed: int = typer.Option(0, "--seed", help="Seed of the random start."),
    force: bool = FORCE,
    as_json: bool = JSON,
):
    """Design a periodic Fourier excitation (Swevers et al. 1997) of small condition number
    of the base regressor within position, rate, acceleration and torque limits (torques by
    inverse dynamics), starting and ending at rest. Limits: those given (one number for
    all joints or one per joint), else a URDF's <limit lower upper velocity effort>, else
    ±π rad and 2 rad/s. Writes OUT/excitation.csv (t,q:…,qd:…,qdd:…,tau:…, tau the
    feed-forward), OUT/excitation.npz and OUT/excitation.json (coefficients, condition
    number, fraction of each limit used)."""
    from .common import resolve_model

    m = resolve_model(model, opt)
    if m.nq != m.nv:
        raise UserError(f"--model: expected a fixed-base robot (nq = nv), got nq {m.nq}, nv {m.nv}")
    for flag, value, low in (("--harmonics", harmonics, 2), ("--samples", samples, 2),
                             ("--rate", rate, 1), ("--periods", periods, 1),
                             ("--iterations", iterations, 1)):  # fmt: skip
        if value < low:
            raise UserError(f"{flag}: expected at least {low}, got {value}")
    if not (np.isfinite(period) and period > 0.0):
        raise UserError(f"--period: expected a positive time in s, got {period}")
    n = m.nv
    from ..identification import JointLimits, design_excitation

    given = {
        "q_lower": None if q_lower is None else parse_vector(q_lower, n, "--q-lower"),
        "q_upper": None if q_upper is None else parse_vector(q_upper, n, "--q-upper"),
        "qd_max": _limit(qd_max, n, "--qd-max"),
        "qdd_max": _limit(qdd_max, n, "--qdd-max"),
        "tau_max": _limit(tau_max, n, "--tau-max"),
    }
    try:
        limits = JointLimits.of(m, urdf=_urdf_of(model), **given)
    except ValueError as exc:
        raise UserError(f"limits: {exc}") from None
    if out.exists() and not out.is_dir():
        raise UserError(f"--out: {str(out)!r} is a file, expected a folder")
    from rich.console import Console

    with Console(stderr=True).status("designing the excitation", spinner="dots"):
        try:
            found = design_excitation(
                m, limits, period=period, harmonics=harmonics, samples=samples,
                max_iterations=iterations, seed=seed,
            )  # fmt: skip
        except ValueError as exc:
            raise UserError(str(exc)) from None
    output_folder(out, force)
    traj = found.trajectory(m, samples=max(2, int(round(rate * period))), periods=periods)
    written = [str(traj.save(out / name, overwrite=True)) for name in OUTPUTS[:2]]
    e = found.excitation
    summary = {
        "model": m.name,
        "period": e.period,
        "harmonics": int(harmonics),
        "condition": found.condition,
        "start_condition": found.start_condition,
        "base_parameters": found.base.count,
        "design_times": len(found.times),
        "joints": list(m.v_names),
        "q0": e.q0.tolist(),
        "a": e.a.tolist(),
        "b": e.b.tolist(),
        "limits": {
            k: getattr(limits, k).tolist()
            for k in ("q_lower", "q_upper", "qd_max", "qdd_max", "tau_max")
        },  # fmt: skip
        "usage": {k: v.tolist() for k, v in found.usage.items()},
    }
    import json

    from .._files import write_text_atomic

    summary = _json_safe(summary)  # strict JSON: no Infinity or NaN tokens
    text = json.dumps(summary, indent=2, allow_nan=False) + "\n"
    write_text_atomic(out / OUTPUTS[2], text, overwrite=True, follow_symlinks=False)
    written.append(str(out / OUTPUTS[2]))
    summary["written"] = written
    lines = [
        f"{m.name}: excitation of period {e.period:.4g} s, {harmonics} harmonics, "
        f"{found.base.count} base parameters",
        f"condition number {found.condition:.4g} (start {found.start_condition:.4g}) at "
        f"{len(found.times)} times of a period",
        "largest fraction of a limit used: "
        + ", ".join(f"{k} {float(np.max(v)):.3f}" for k, v in found.usage.items()),
        "wrote " + ", ".join(written),
    ]
    emit(summary, as_json, lines)


def _json_safe(value):
    """``value`` with every non-finite float written as the string "inf", "-inf" or "nan"
    (JSON has no token for them), through dicts and lists."""
    if isinstance(value, dict):
        return {k: _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    if isinstance(value, float) and not np.isfinite(value):
        return "nan" if np.isnan(value) else ("inf" if value > 0 else "-inf")
    return value
