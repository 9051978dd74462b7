"""``eslabon`` command: info, id, fd, crosscheck, linearize, bench, sweep, demo, warmup
here; simulate, plot and view in :mod:`.motion_commands`; identify and excitation in
:mod:`.identify` and :mod:`.excitation`; reproduce in :mod:`.reproduce_commands`.

Errors in what the user gave (a bad model name, a wrong vector length, NaN, a missing
file) print one line ``error: ...`` on stderr and exit with status 2, no traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import typer
from typer.exceptions import TyperException
from typer.main import get_command

from .common import (
    FORCE,
    JSON,
    MODEL_ARG,
    OLD_METHOD,
    OPT,
    Interrupted,
    UserError,
    emit,
    fmt_vector,
    output_file,
    output_folder,
    parse_configuration,
    parse_vector,
    printable,
    renamed_option,
    require_extra,
    resolve_model,
    vector_option,
)
from .excitation import excitation
from .identify import identify
from .motion_commands import plot_cmd, simulate, view_cmd
from .reproduce_commands import reproduce_app

__all__ = ["app", "main", "UserError", "parse_vector", "resolve_model"]

# rich_markup_mode=None: help texts are plain text, so "[s]" and "[rad]" stay visible
app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Dynamics of articulated rigid bodies (eslabon).",
)
app.add_typer(reproduce_app, name="reproduce")


@app.command()
def info(
    model: str | None = typer.Argument(None, help="Zoo name or model file."),
    opt: list[str] | None = OPT,
    as_json: bool = JSON,
    list_models: bool = typer.Option(False, "--list", help="List the zoo models."),
    robots: bool = typer.Option(
        False, "--robots", help="List the robots installed for eslabon.robots.load(name)."
    ),
):
    """DH table with its convention, masses, degrees of freedom."""
    if robots:
        if model is not None or list_models:
            raise UserError("--robots: lists the installed robots; give no MODEL nor --list")
        from .robot_list import robot_listing

        data, lines = robot_listing()
        emit(data, as_json, lines)
        return
    if list_models or model is None:
        from .. import zoo

        emit({"models": list(zoo.names())}, as_json, list(zoo.names()))
        return
    from .tables import model_info

    chosen = [o.split("=", 1)[1].strip() for o in opt or [] if o.split("=", 1)[0].strip() == "ee"]
    data, lines = model_info(resolve_model(model, opt), chosen[-1] if chosen else None)
    emit(data, as_json, lines)


@app.command("id")
def inverse(
    model: str = MODEL_ARG,
    q: str = vector_option("--q", "Joint positions q", "rad or m"),
    qd: str = vector_option("--qd", "Joint velocities q̇", "rad/s or m/s"),
    qdd: str = vector_option("--qdd", "Joint accelerations q̈", "rad/s² or m/s²"),
    opt: list[str] | None = OPT,
    as_json: bool = JSON,
    trace: bool = typer.Option(False, "--trace", help="Print every NE quantity."),
):
    """Inverse dynamics τ = NE(q, q̇, q̈) (unset vectors are zero); a model with
    constraints: the actuators' torques and the constraint forces of that motion (unset
    --q: the neutral configuration, assembled)."""
    from .. import inverse_dynamics, rnea_trace

    m = resolve_model(model, opt)
    if m.constraints:
        from .constrained import constrained_inverse

        return constrained_inverse(m, q, qd, qdd, trace, as_json)
    x = parse_configuration(m, q, "--q")
    v, a = (parse_vector(s, m.nv, f) for s, f in ((qd, "--qd"), (qdd, "--qdd")))
    tau = inverse_dynamics(m, x, v, a)
    lines = [f"model {printable(m.name)}  ({m.nv} DOF)", f"tau = {fmt_vector(tau)}"]
    if trace:
        lines.append(rnea_trace(m, x, v, a).table())
    emit(
        {
            "model": m.name,
            "q": x.tolist(),
            "qd": v.tolist(),
            "qdd": a.tolist(),
            "tau": tau.tolist(),
        },
        as_json,
        lines,
    )


@app.command("fd")
def forward(
    model: str = MODEL_ARG,
    q: str = vector_option("--q", "Joint positions q", "rad or m"),
    qd: str = vector_option("--qd", "Joint velocities q̇", "rad/s or m/s"),
    tau: str = vector_option("--tau", "Joint torques τ", "N·m or N"),
    opt: list[str] | None = OPT,
    as_json: bool = JSON,
    algorithm: str | None = typer.Option(
        None,
        "--algorithm",
        help="aba, crba, rnea_columns, lagrange, soa or gibbs_appell "
        "(default: aba; crba with a mimic joint); a model with constraints: kkt, schur, "
        "null_space, udwadia_kalaba or soa (default: kkt).",
    ),
    method: str | None = OLD_METHOD,
):
    """Forward dynamics q̈ = M⁻¹(τ − b) (unset vectors are zero); a model with
    constraints: under them, with their forces (unset --q: the neutral configuration
    assembled; --algorithm kkt, schur, null_space, udwadia_kalaba or soa)."""
    from .. import forward_dynamics

    algorithm = renamed_option(method, "--method", algorithm, "--algorithm")
    m = resolve_model(model, opt)
    if m.constraints:
        from .constrained import constrained_forward

        return constrained_forward(m, q, qd, tau, algorithm, as_json)
    x = parse_configuration(m, q, "--q")
    v, t = (parse_vector(s, m.nv, f) for s, f in ((qd, "--qd"), (tau, "--tau")))
    qdd = forward_dynamics(m, x, v, t, algorithm=algorithm)
    emit(
        {
            "model": m.name,
            "q": x.tolist(),
            "qd": v.tolist(),
            "tau": t.tolist(),
            "qdd": qdd.tolist(),
        },
        as_json,
        [f"model {printable(m.name)}  ({m.nv} DOF)", f"qdd = {fmt_vector(qdd)}"],
    )


app.command()(simulate)
app.command("plot")(plot_cmd)
app.command("view")(view_cmd)
app.command("identify")(identify)
app.command("excitation")(excitation)


@app.command("crosscheck")
def crosscheck_cmd(
    model: str = MODEL_ARG,
    q: str = vector_option("--q", "Joint positions q", "rad or m", "drawn from --seed"),
    qd: str = vector_option("--qd", "Joint velocities q̇", "rad/s or m/s", "drawn from --seed"),
    qdd: str = vector_option(
        "--qdd", "Joint accelerations q̈", "rad/s² or m/s²", "drawn from --seed"
    ),
    seed: int = typer.Option(0, "--seed", help="Seed for unset vectors."),
    rtol: float = typer.Option(1e-9, "--rtol", help="Relative tolerance."),
    opt: list[str] | None = OPT,
    as_json: bool = JSON,
):
    """Every formulation at one state (inverse dynamics, mass matrix, forward dynamics)
    and the identities, in one table; exit status 1 when any difference exceeds its
    tolerance. Unset vectors are drawn in [−1, 1] from --seed. A model with closed loops
    or contacts adds the constrained table, at an assembled state drawn from --seed."""
    from ..dynamics.crosscheck import crosscheck

    m = resolve_model(model, opt)
    x = None if q is None else parse_vector(q, m.nq, "--q")
    v, a = (
        None if s is None else parse_vector(s, m.nv, f) for s, f in ((qd, "--qd"), (qdd, "--qdd"))
    )
    report = crosscheck(m, x, v, a, seed=seed, rtol=rtol)
    data, lines, ok = report.to_dict(), report.table().splitlines(), report.ok
    if m.constraints:
        from ..constraints.crosscheck import crosscheck as constrained

        closed = constrained(m, seed=seed, rtol=rtol)
        data["constrained"] = closed.to_dict()
        lines += ["", "closed loops and contacts, at an assembled state:"]
        lines += closed.table().splitlines()
        ok = ok and closed.ok
    emit(data, as_json, lines)
    return 0 if ok else 1


@app.command("linearize")
def linearize_cmd(
    model: str = MODEL_ARG,
    trajectory: Path = typer.Option(
        ...,
        "--trajectory",
        help="Trajectory file (.npz or .csv) with t, q, qd, qdd, as `simulate` writes.",
    ),
    t: float = typer.Option(..., "--t", help="Time to linearize at [s]."),
    psi: float | None = typer.Option(
        None, "--psi", help="Damping Ψ (scalar) for model-assignment gains."
    ),
    omega: float | None = typer.Option(None, "--omega", help="Natural frequency Ω [rad/s]."),
    opt: list[str] | None = OPT,
    as_json: bool = JSON,
):
    """U, V, W and A(t), B(t) along a trajectory at time T (seed 000 §5.2–5.4), the frozen
    eigenvalues, and with --psi/--omega the gains K_p = UΩ² − W, K_d = 2UΨΩ − V."""
    from .. import control as ctl
    from ..sim import Trajectory

    m = resolve_model(model, opt)
    if m.constraints:
        raise UserError(
            f"MODEL: {printable(m.name)} has constraints; linearize takes trees (use "
            "eslabon.constraints.linearize_constrained in the independent coordinates)"
        )
    traj = Trajectory.load(trajectory)
    if traj.q.ndim != 2 or traj.q.shape[1] != m.nq:
        raise UserError(
            f"--trajectory: expected {m.nq} joints for {m.name}, the file has {traj.q.shape[-1]}"
        )
    q, qd, qdd = ctl.Nominal.from_trajectory(traj)(t)
    lin = ctl.linearize(m, q, qd, qdd)
    ev = ctl.frozen_eigenvalues(lin.A)
    data = {
        "model": m.name,
        "t": t,
        "q": q.tolist(),
        "qd": qd.tolist(),
        "qdd": qdd.tolist(),
        **{k: getattr(lin, k).tolist() for k in ("U", "V", "W", "A", "B")},
        "eigenvalues": [[float(e.real), float(e.imag)] for e in ev],
    }
    np.set_printoptions(precision=5, linewidth=160, suppress=False)
    lines = [f"model {printable(m.name)}  t = {t} s  (x = [q; q̇], δẋ = A δx + B δτ)"]
    for key in ("U", "V", "W"):
        lines += [f"{key} =", str(getattr(lin, key))]
    lines.append("eigenvalues of A: " + ", ".join(f"{e.real:.6g}{e.imag:+.6g}j" for e in ev))
    if (psi is None) != (omega is None):
        raise UserError("--psi, --omega: give both for model-assignment gains")
    if psi is not None:
        Kp, Kd = ctl.model_assignment(lin, psi, omega)
        cl = ctl.frozen_eigenvalues(ctl.closed_loop_matrix(lin, np.hstack([Kp, Kd])))
        data.update(
            Kp=Kp.tolist(),
            Kd=Kd.tolist(),
            closed_loop_eigenvalues=[[float(e.real), float(e.imag)] for e in cl],
        )
        lines += [
            "K_p =",
            str(Kp),
            "K_d =",
            str(Kd),
            "closed-loop eigenvalues: " + ", ".join(f"{e.real:.6g}{e.imag:+.6g}j" for e in cl),
        ]
    emit(data, as_json, lines)


@app.command()
def bench(
    against: str | None = typer.Option(
        None, "--against", help="Also time this library side by side: pin (Pinocchio)."
    ),
    json_path: Path | None = typer.Option(
        None, "--json", help="Write all numbers and the machine info to this file."
    ),
    markdown: Path | None = typer.Option(
        None, "--markdown", help="Write the results as Markdown (benchmarks/RESULTS.md)."
    ),
    quick: bool = typer.Option(False, "--quick", help="Short repeats (CI smoke run)."),
    only: str | None = typer.Option(
        None,
        "--only",
        help="Sections, comma-separated: per_call,batch,scaling,simulate,startup,rollout.",
    ),
    force: bool = FORCE,
):
    """Speed benchmark: per call, batch, scaling, simulation, start-up, rollouts (vs pin,
    MuJoCo)."""
    from .. import bench as harness

    try:
        harness.check_against(against)
        harness.parse_sections(only)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    for field, path in (("--json", json_path), ("--markdown", markdown)):
        if path is not None:
            output_file(path, force, field)
    if os.environ.get("OPENBLAS_NUM_THREADS") != "1":
        # numpy is loaded already: rerun in a child whose BLAS is single-threaded from the start
        argv = [
            f"--{k}={v}"
            for k, v in (
                ("against", against),
                ("json", json_path),
                ("markdown", markdown),
                ("only", only),
            )
            if v
        ]
        argv += (["--quick"] if quick else []) + (["--force"] if force else [])
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
        return subprocess.call([sys.executable, "-m", "eslabon.bench", *argv], env=env)
    return harness.execute(
        against=against, json_path=json_path, markdown=markdown, quick=quick, only=only, force=force
    )


@app.command("sweep")
def sweep_cmd(
    target: str = typer.Argument(..., help="A sweep spec (YAML), or 'report'."),
    folder: Path | None = typer.Argument(None, help="With 'report': the sweep's output folder."),
    out: Path | None = typer.Option(None, "--out", help="Output folder (Parquet parts)."),
    scheduler: str | None = typer.Option(
        None, "--scheduler", help="Address of an existing Dask scheduler (tcp://host:port)."
    ),
    resume: bool = typer.Option(
        False,
        "--resume",
        help="Finish an interrupted sweep: "
        "keep the sound parts; recompute missing or unsound "
        "ones (moved to DIR/_rejected/).",
    ),
    workers: int = typer.Option(2, "--workers", help="Local Dask worker processes."),
    serial: bool = typer.Option(False, "--serial", help="Run in this process, no Dask."),
    as_json: bool = JSON,
):
    """Parameter sweep (docs/sweeps.md): `eslabon sweep SPEC --out DIR` runs the spec's
    samples by chunks on Dask (a local cluster, or --scheduler) into a Parquet data set;
    `eslabon sweep report DIR` summarizes one. A progress bar on stderr while it works."""
    if target == "report":
        require_extra("sweep", "eslabon sweep report", ("pyarrow", "pandas", "matplotlib"))
        from ..batch.report import summarize

        if folder is None:
            raise UserError("DIR: `eslabon sweep report DIR` needs the sweep's folder")
        data, lines = summarize(folder)
        emit(data, as_json, lines)
        return 0
    require_extra("sweep", "eslabon sweep", ("pyarrow", "pandas") if serial else None)
    from ..batch import load_spec, run_sweep
    from ..batch.cluster import SweepInterrupted
    from ..batch.report import summarize

    if folder is not None:
        raise UserError(f"unexpected argument {str(folder)!r}; did you mean --out?")
    if out is None:
        raise UserError("--out: required (the folder for the Parquet data set)")
    spec = load_spec(target)
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import Progress

    console = Console(stderr=True)
    with Progress(console=console, transient=True, disable=not console.is_terminal) as progress:
        task = progress.add_task(escape(f"sweep {printable(spec.name)}"), total=len(spec.chunks()))

        def landed(chunk, ok, failed):
            progress.advance(task)

        try:
            summary = run_sweep(
                spec,
                out,
                scheduler=scheduler,
                workers=workers,
                resume=resume,
                serial=serial,
                on_chunk=landed,
            )
        except SweepInterrupted as exc:  # Ctrl-C: the parts written stay, --resume ends it
            raise Interrupted(str(exc)) from None
        progress.update(task, completed=len(spec.chunks()))
    data, lines = summarize(out, plots=False)
    data["run"] = summary
    lines.insert(
        1,
        f"chunks {summary['chunks']} (skipped, already written: "
        f"{summary['skipped']}; rejected and recomputed: "
        f"{len(summary.get('rejected', []))}); this run: {summary['ok']} ok, "
        f"{summary['failed']} failed",
    )
    emit(data, as_json, lines)
    return 0


@app.command("demo")
def demo(
    out: Path = typer.Option(Path("out"), "--out", help="Folder for every output."),
    full: bool = typer.Option(
        False, "--full", help="The whole tour: every source document reproduced (several minutes)."
    ),
    force: bool = FORCE,
    as_json: bool = JSON,
):
    """A short tour (under a minute once compiled): inverse and forward dynamics on the
    built-in arms, every formulation cross-checked, the seed 001 pendulum simulated,
    plotted and in an HTML viewer, and `index.html` linking it all. With --full: every
    source document reproduced (practica, rojas, jaramillo, araujo), every built-in robot
    cross-checked and three viewers. Each stage is printed as a line on stderr."""
    require_extra("viz", "eslabon demo")
    output_folder(out, force)
    from .demo import run_demo

    data, lines = run_demo(out, full=full)
    emit(data, as_json, lines)
    return 0 if all(data["crosscheck"].values()) else 1


@app.command("warmup")
def warmup_cmd(
    jobs: int = typer.Option(0, "--jobs", help="Processes compiling at once (0: one per core)."),
    prune: bool = typer.Option(
        False,
        "--prune",
        help="Then remove this install's cache folders of other versions of its sources.",
    ),
    everything: bool = typer.Option(
        False,
        "--all",
        help="Also the other batches, the trace and the wrenches (what the tests use).",
    ),
    as_json: bool = JSON,
):
    """Compile the kernels of the calls each family of robots makes first, for this
    machine, now (numba caches them on disk), so that those calls do not wait for a
    compilation: ID, M, FD, their derivatives, the linearization, crosscheck, kinematics,
    momentum, simulation, and the batches of energies and poses (and of ID, M and FD for
    arms), for arms and floating bases.
    Run it after installing or upgrading eslabon, or in a container build. Progress on
    stderr: each group compiled (with its wall and CPU seconds) or cached. Says how many
    cache folders of earlier versions this install left (up to 40-60 MB each); --prune
    removes them."""
    from ..warmup import summary, warmup

    data = warmup(
        jobs=jobs or None,
        log=lambda line: typer.echo(line, err=True),
        prune=prune,
        everything=everything,
    )
    lines = summary(data, prune)
    emit(data, as_json, lines)


def _one_line_warning(message, category, filename, lineno, file=None, line=None):
    print(f"warning: {printable(message)}", file=sys.stderr)


def main(argv=None):
    """Entry point: run the app, turning user errors into one line and exit status 2."""
    import warnings

    warnings.showwarning = _one_line_warning
    try:
        result = get_command(app)(args=argv, standalone_mode=False, prog_name="eslabon")
    except TyperException as exc:  # usage errors: unknown option, missing value
        message = exc.format_message()
        if not message:  # bare `eslabon`: the help was printed
            sys.exit(0)
        typer.echo(f"error: {printable(message)}", err=True)
        sys.exit(2)
    except typer.Abort:
        typer.echo("error: aborted", err=True)
        sys.exit(1)
    except (Interrupted, KeyboardInterrupt) as exc:  # Ctrl-C: one line, 128 + SIGINT
        typer.echo(f"error: {printable(exc) or 'interrupted'}", err=True)
        sys.exit(130)
    except (ValueError, OSError) as exc:
        typer.echo(f"error: {printable(exc)}", err=True)
        sys.exit(2)
    except Exception as exc:  # a bug: still one line (ESLABON_DEBUG=1 shows it)
        if os.environ.get("ESLABON_DEBUG"):
            raise
        typer.echo(
            f"error: internal error ({type(exc).__name__}: {printable(exc)}); please report it "
            "(ESLABON_DEBUG=1 shows the traceback)",
            err=True,
        )
        sys.exit(3)
    if result == 130:  # a Ctrl-C inside a command: typer returns 130 without a word
        typer.echo("error: interrupted", err=True)
    if isinstance(result, int) and result:
        sys.exit(result)


def _end_process(code: int):
    """End the process with ``code``.

    Once pyarrow has run (sweeps write and read Parquet parts), the interpreter's own
    exit can abort in Arrow's thread pools' C++ destructors, after the command has done
    its work and printed its result ("terminate called without an active exception",
    SIGABRT; apache/arrow issue 34314). So, with pyarrow loaded, the exit steps that
    matter here are run — the non-daemon threads joined, the exit handlers (Dask's
    cluster shutdown, temporary folders), the streams flushed — and the process ends
    without the C++ destructors."""
    if "pyarrow" not in sys.modules:
        sys.exit(code)
    import atexit
    import threading

    shutdown = getattr(threading, "_shutdown", None)  # what the interpreter's exit calls
    if shutdown is not None:
        shutdown()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more can be said
            pass
    os._exit(code)


def _exit_code(exc: SystemExit) -> int:
    """The status ``sys.exit`` would give: 0 for None, the int, 1 for a message."""
    if exc.code is None or isinstance(exc.code, int):
        return exc.code or 0
    print(exc.code, file=sys.stderr)
    return 1


def run(argv=None):
    """The ``eslabon`` command as a process (the console script, ``python -m eslabon``):
    :func:`main`, then the process ends (:func:`_end_process`). Call :func:`main` to
    run a command inside a Python process that goes on."""
    try:
        main(argv)
        code = 0
    except SystemExit as exc:
        code = _exit_code(exc)
    _end_process(code)


if __name__ == "__main__":
    run()
