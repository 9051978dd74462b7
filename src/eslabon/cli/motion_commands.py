"""``eslabon simulate``, ``plot`` and ``view``: run a model forward, and draw what was run.

Registered on the ``eslabon`` app by :mod:`.main`; errors in what the user gave are
:class:`~.common.UserError` (one line, exit status 2).
"""

from __future__ import annotations

from pathlib import Path

import typer

from .common import (
    FORCE,
    JSON,
    MODEL_ARG,
    OLD_METHOD,
    OPT,
    UserError,
    emit,
    fmt_vector,
    output_file,
    parse_configuration,
    parse_vector,
    printable,
    renamed_option,
    require_extra,
    resolve_model,
    vector_option,
)

__all__ = ["plot_cmd", "simulate", "view_cmd"]


def simulate(
    model: str = MODEL_ARG,
    t_final: float = typer.Option(1.0, "--t-final", help="Duration [s]."),
    dt: float = typer.Option(1e-3, "--dt", help="Sample / RK4 step [s]."),
    out: Path = typer.Option(
        ..., "--out", help="Result file: .npz or .csv (its folder must exist)."
    ),
    q0: str = vector_option(
        "--q0",
        "Initial joint positions",
        "rad or m",
        "the neutral configuration, assembled onto the model's constraints if any",
    ),
    qd0: str = vector_option("--qd0", "Initial joint velocities", "rad/s or m/s"),
    tau: str = vector_option("--tau", "Constant joint torques", "N·m or N"),
    u: str = typer.Option(
        None,
        "--u",
        metavar="NUMBERS",
        help="Mobile manipulators: constant platform inputs "
        "(tricycle F [N], M [N·m]; differential drive τL, τR [N·m]; "
        "omnidirectional one torque per wheel [N·m]; synchronous drive "
        "τ_drive, τ_steer [N·m]), separated by commas or spaces.",
    ),
    integrator: str | None = typer.Option(
        None,
        "--integrator",
        help="rk4 (default), euler, dop853 or rk45.",
    ),
    algorithm: str | None = typer.Option(
        None, "--algorithm", help="Arms: the forward-dynamics algorithm, as `eslabon fd`."
    ),
    method: str | None = OLD_METHOD,
    opt: list[str] | None = OPT,
    force: bool = FORCE,
    as_json: bool = JSON,
):
    """Simulate from (q0, qd0) under a constant torque and save the trajectory; a model
    with constraints is simulated under them (the .npz keeps λ, the residual and the
    energy, which `eslabon view` draws). A mobile manipulator file (YAML with a `mobile`
    section) starts at rest at the origin with the arm at q0 and takes the platform
    inputs --u."""
    from ..sim import simulate as run

    integrator = renamed_option(method, "--method", integrator, "--integrator")
    output_file(out, force, suffixes=(".npz", ".csv"))
    m = resolve_model(model, opt, mobile_ok=True)
    if not hasattr(m, "nq"):
        if algorithm is not None:
            raise UserError("--algorithm: a mobile manipulator's dynamics are Gibbs–Appell's")
        integrator = integrator or "rk4"  # as before the option was renamed
        return _simulate_mobile(m, t_final, dt, out, q0, qd0, tau, u, integrator, force, as_json)
    if u is not None:
        raise UserError("--u: platform inputs apply to mobile-manipulator models only")
    # unset on a model with constraints: None, which simulate assembles onto them
    x0 = None if q0 is None and m.constraints else parse_configuration(m, q0, "--q0")
    v0 = parse_vector(qd0, m.nv, "--qd0")
    torque = None if tau is None else parse_vector(tau, m.nv, "--tau")
    traj = run(
        m, x0, v0, t_final, dt, torque=torque, integrator=integrator or "rk4", algorithm=algorithm
    )
    traj.save(out, overwrite=force)
    emit(
        {"model": m.name, "out": str(out), "samples": len(traj.t), "q_final": traj.q[-1].tolist()},
        as_json,
        [
            f"model {printable(m.name)}: {len(traj.t)} samples written to {out}",
            f"q(t_final) = {fmt_vector(traj.q[-1])}",
        ],
    )


def _simulate_mobile(mm, t_final, dt, out, q0, qd0, tau, u, integrator, force, as_json):
    from ..mobile import simulate as run_mobile

    n, k = mm.n_arm, len(mm.platform.input_names)
    traj = run_mobile(
        mm,
        parse_vector(q0, n, "--q0"),
        parse_vector(qd0, n, "--qd0"),
        t_final,
        dt,
        torque=parse_vector(tau, n, "--tau"),
        integrator=integrator,
        u=parse_vector(u, k, "--u"),
    )
    traj.save(out, overwrite=force)
    pose = traj.config[-1, :3]
    emit(
        {
            "model": mm.name,
            "mode": mm.mode,
            "out": str(out),
            "samples": len(traj.t),
            "pose_final": pose.tolist(),
            "q_final": traj.q[-1].tolist(),
        },
        as_json,
        [
            f"model {printable(mm.name)} ({mm.platform.kind}, mode {mm.mode}): "
            f"{len(traj.t)} samples written to {out}",
            f"platform x, y, heading (t_final) = {fmt_vector(pose)}",
            f"q(t_final) = {fmt_vector(traj.q[-1])}",
        ],
    )


def plot_cmd(
    trajectory: Path = typer.Argument(..., help="Trajectory file (.npz or .csv)."),
    model: str | None = typer.Option(
        None, "--model", help="Zoo name or model file (adds energy, needed for --gif)."
    ),
    out: Path = typer.Option(..., "--out", help="Figure file (.png, .svg, .pdf)."),
    gif: Path | None = typer.Option(
        None, "--gif", help="Also animate a 3-D stick figure (.gif, or .mp4 with ffmpeg)."
    ),
    opt: list[str] | None = OPT,
    force: bool = FORCE,
    as_json: bool = JSON,
):
    """Plot a saved trajectory: q, q̇, q̈, τ per joint (and the energy with --model)."""
    require_extra("viz", "eslabon plot")
    output_file(out, force, suffixes=(".png", ".svg", ".pdf"))
    if gif is not None:
        output_file(gif, force, "--gif", suffixes=(".gif", ".mp4"))
    from ..sim import Trajectory
    from ..viz import animate_3d, plot_overview

    traj = Trajectory.load(trajectory)
    m = resolve_model(model, opt) if model is not None else None
    if m is not None:
        _check_joint_count(m, traj, model)
    if gif is not None and m is None:
        raise UserError("--gif: needs --model to draw the robot")
    plot_overview(m, traj, path=out)
    files = [str(out)]
    if gif is not None:
        animate_3d(m, traj, path=gif)
        files.append(str(gif))
    emit({"files": files}, as_json, [f"wrote {f}" for f in files])


def _check_joint_count(m, traj, spec: str):
    """Refuse a trajectory whose q does not fit the model; when the difference is the
    coordinates of a root joint (a floating-base trajectory, the model read without its
    root joint), say how to add it: ``--opt root_joint=...`` for a URDF."""
    nq = traj.q.shape[1]
    names = tuple(getattr(traj, "q_names", ()))
    if nq == m.nq and names and names != m.q_names:  # same size, another order or robot
        first = next(k for k in range(nq) if names[k] != m.q_names[k])
        raise UserError(
            f"--model: the trajectory's coordinates are named otherwise than {m.name}'s "
            f"(column {first + 1}: {names[first]!r}, the model's {m.q_names[first]!r}): "
            "another robot, or a file saved when URDF trees were numbered breadth first"
        )
    if nq == m.nq:
        return
    message = f"--model: {m.name} has {m.nq} joints, the trajectory {nq}"
    root = {7: "free_flyer", 3: "planar"}.get(nq - m.nq)
    if root is not None:
        message += f"; its {nq - m.nq} more coordinates are those of a {root} root joint: " + (
            f"add --opt root_joint={root} to read the URDF with it"
            if str(spec).lower().endswith(".urdf")
            else f"read the robot's URDF with --opt root_joint={root}, or give the "
            f"model's first body the joint {root}"
        )
    raise UserError(message)


def view_cmd(
    trajectory: Path = typer.Argument(..., help="Trajectory file (.npz or .csv)."),
    model: str = typer.Option(..., "--model", help="Zoo name or model file."),
    out: Path = typer.Option(Path("view.html"), "--out", help="HTML file to write."),
    opt: list[str] | None = OPT,
    force: bool = FORCE,
    as_json: bool = JSON,
):
    """A self-contained HTML viewer: the robot in 3-D (drag to turn), play/pause, a time
    scrubber and the joint plots beside it. Open the file in any browser."""
    output_file(out, force, suffixes=(".html", ".htm"))
    from ..sim import Trajectory
    from ..viz import write_viewer

    traj = Trajectory.load(trajectory)
    m = resolve_model(model, opt)
    _check_joint_count(m, traj, model)
    path = write_viewer(m, traj, out, overwrite=force)
    emit({"file": str(path)}, as_json, [f"wrote {path}"])
