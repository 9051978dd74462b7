"""``eslabon identify``: the base parameters of a robot from a measured data file, their
physically consistent model, a torque plot and a summary (docs/identification.md)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import typer

from .common import (
    FORCE,
    JSON,
    MODEL_ARG,
    OPT,
    OUTPUT_MARK,
    UserError,
    emit,
    output_folder,
    printable,
)

OUTPUTS = ("identified.yaml", "report.png", "summary.json")


def _checked_folder(out: Path, force: bool):
    """Refuse, before any work and without creating anything, an ``--out`` that is a link
    or a file, a folder of other files, or one holding the outputs (unless ``force``)."""
    from .._files import check_output

    if out.is_symlink():
        raise UserError(f"--out: {str(out)!r} is a link; eslabon writes only into a real folder")
    if not out.exists():
        return
    if not out.is_dir():
        raise UserError(f"--out: {str(out)!r} is a file, expected a folder")
    if not force and not (out / OUTPUT_MARK).exists() and any(out.iterdir()):
        raise UserError(
            f"--out: {str(out)!r} holds files eslabon did not write; "
            "choose a new or empty folder, or pass --force to write into it"
        )
    for name in OUTPUTS:
        check_output(out / name, overwrite=force, field="--out")


def _accelerations(data, cutoff):
    """(q, qd, qdd, tau) to fit: the filtered rates and their derivative (the transient at
    either end dropped), or the file's own qdd without a cut-off."""
    from ..identification.estimate import TRANSIENT, joint_accelerations

    if cutoff is None:
        return data.q, data.qd, data.qdd, data.tau
    qd, qdd = joint_accelerations(data.t, data.qd, cutoff, rates=True)
    t = data.t
    keep = (t >= t[0] + TRANSIENT / cutoff) & (t <= t[-1] - TRANSIENT / cutoff)
    return data.q[keep], qd[keep], qdd[keep], data.tau[keep]


def _plot(path: Path, names, t_tau, measured, predicted, rms, title, force):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .._files import savefig_atomic

    nv = measured.shape[1]
    fig, axes = plt.subplots(nv, 1, figsize=(8, 2.2 * nv), sharex=True, squeeze=False)
    for j, ax in enumerate(axes[:, 0]):
        ax.plot(t_tau, measured[:, j], lw=0.8, label="measured")
        ax.plot(t_tau, predicted[:, j], lw=0.8, label="predicted")
        ax.set_title(f"{names[j]}: RMS residual {rms[j]:.3g}", fontsize=9)
        ax.set_ylabel("τ [N·m, N]")
    axes[0, 0].legend(fontsize=8)
    axes[-1, 0].set_xlabel("t [s]")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    savefig_atomic(fig, path, overwrite=force, follow_symlinks=False, dpi=100)
    plt.close(fig)


def identify(
    data: Path = typer.Argument(
        ..., metavar="DATA", help="Measured data: .csv or .npz (as Trajectory.save writes)."
    ),
    model: str = typer.Option(..., "--model", help=MODEL_ARG.help),
    opt: list[str] | None = OPT,
    out: Path = typer.Option(Path("out/identify"), "--out", help="Folder for the outputs."),
    consistent: bool = typer.Option(
        True, "--consistent/--no-consistent", help="Also fit the physically consistent model."
    ),
    cutoff: float | None = typer.Option(
        None,
        "--cutoff",
        metavar="HZ",
        help="Low-pass cut-off [Hz] for the accelerations from qd. Unset: the file's qdd columns.",
    ),
    validate: Path | None = typer.Option(
        None, "--validate", metavar="DATA2", help="Another data file to check the estimate on."
    ),
    force: bool = FORCE,
    as_json: bool = JSON,
):
    """Estimate the base parameters from measured q, qd, tau (weighted least squares): a
    table with each one's std and relative std, the RMS torque residual per joint and the
    condition number; with --consistent, the physically consistent model in
    OUT/identified.yaml; OUT/report.png (measured vs predicted torques) and OUT/summary.json.
    A trajectory to record DATA along, within the robot's limits: eslabon excitation."""
    from .common import require_extra, resolve_model

    require_extra("viz", "eslabon identify", modules=("matplotlib",))
    m = resolve_model(model, opt)
    if cutoff is not None and not (np.isfinite(cutoff) and cutoff > 0.0):
        raise UserError(f"--cutoff: expected a positive frequency in Hz, got {cutoff}")
    from ..identification import base_parameters, consistent_estimate, estimate
    from ..identification.data_file import check_sample_count, read_measurements

    base = base_parameters(m)
    files = [read_measurements(data, m)] + ([read_measurements(validate, m)] if validate else [])
    for d in files:
        if cutoff is None and d.qdd is None:
            raise UserError(f"--cutoff: required: {d.path} has no qdd columns to use instead")
        check_sample_count(d, base.count, m.nv, cutoff)
    _checked_folder(out, force)

    from rich.console import Console
    from rich.table import Table

    console = Console(stderr=True)
    with console.status("estimating the base parameters", spinner="dots") as status:
        q, qd, qdd, tau = _accelerations(files[0], cutoff)
        weighting = "joint"
        try:
            try:
                result = estimate(m, q, qd, tau, qdd=qdd, weighting=weighting, base=base)
            except ValueError as exc:
                if not str(exc).startswith("weighting:"):  # a joint's residual is zero
                    raise
                weighting = "ordinary"
                result = estimate(m, q, qd, tau, qdd=qdd, weighting=weighting, base=base)
        except ValueError as exc:
            hint = ""
            if "do not determine" in str(exc):
                hint = " (a record that excites every joint is needed: not a rest nor a free swing)"
            raise UserError(f"{data}: {exc}{hint}") from None
        fitted = None
        if consistent:
            status.update("fitting the physically consistent model")
            fitted = consistent_estimate(result)
    shown = files[-1]
    vq, vqd, vqdd, vtau = _accelerations(shown, cutoff) if validate else (q, qd, qdd, tau)
    predicted = result.predict(vq, vqd, vqdd)
    shown_rms = np.sqrt(np.mean((vtau - predicted) ** 2, axis=0))
    t_shown = shown.t
    if cutoff is not None:
        from ..identification.estimate import TRANSIENT

        t = shown.t
        t_shown = t[(t >= t[0] + TRANSIENT / cutoff) & (t <= t[-1] - TRANSIENT / cutoff)]
    output_folder(out, force)
    written = []
    if fitted is not None:
        written.append(str(fitted.save(out / "identified.yaml")))
    on = "validation" if validate else "fit"
    _plot(
        out / "report.png",
        list(m.v_names),
        t_shown,
        vtau,
        predicted,
        shown_rms,
        f"{printable(m.name)}: measured vs predicted torques ({on} data {shown.path.name})",
        force,
    )
    written.append(str(out / "report.png"))
    summary = {
        "model": m.name,
        "data": str(data),
        "samples": result.samples,
        "weighting": weighting,
        "condition": result.condition,
        "sigma": result.sigma,
        "joints": list(m.v_names),
        "rms": result.rms.tolist(),
        "parameters": [
            {"name": n, "value": float(v), "std": float(s), "relative_std": float(r)}
            for n, v, s, r in zip(
                result.names, result.values, result.std, result.relative_std, strict=True
            )
        ],
    }
    if validate:
        summary["validation"] = {"data": str(validate), "rms": shown_rms.tolist()}
    if fitted is not None:
        summary["consistent"] = {
            "model_file": str(out / "identified.yaml"),
            "rms": fitted.rms.tolist(),
            "values": fitted.values.tolist(),
        }
    import json

    from .._files import write_text_atomic

    summary_path = out / "summary.json"
    write_text_atomic(
        summary_path, json.dumps(summary, indent=2) + "\n", overwrite=force, follow_symlinks=False
    )
    written.append(str(summary_path))
    summary["written"] = written
    if as_json:
        emit(summary, True, [])
        return
    table = Table(title=f"{result.base.count} base parameters, {result.samples} samples")
    for col in ("base parameter", "estimate", "std", "rel. std %"):
        table.add_column(col, justify="left" if col == "base parameter" else "right")
    from rich.markup import escape

    for n, v, s, r in zip(
        result.names, result.values, result.std, result.relative_std, strict=True
    ):
        table.add_row(escape(printable(n)), f"{v:.6g}", f"{s:.3g}", f"{r:.3g}")
    Console(width=140).print(table)
    lines = [
        "RMS torque residual per joint (fit data): "
        + ", ".join(f"{n} {x:.4g}" for n, x in zip(m.v_names, result.rms, strict=True)),
        f"condition number {result.condition:.4g}, σ (weighted) {result.sigma:.4g}",
    ]
    if validate:
        lines.append(
            "RMS torque residual per joint (validation data): "
            + ", ".join(f"{n} {x:.4g}" for n, x in zip(m.v_names, shown_rms, strict=True))
        )
    if fitted is not None:
        lines.append(
            "consistent model: RMS "
            + ", ".join(f"{n} {x:.4g}" for n, x in zip(m.v_names, fitted.rms, strict=True))
        )
    lines.append("wrote " + ", ".join(written))
    emit(summary, False, lines)
