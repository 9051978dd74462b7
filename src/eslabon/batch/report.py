"""``eslabon sweep report DIR``: what a sweep's data set says — samples, failures, each
metric's range, and torque envelopes (the largest peak torque per joint against each
varied parameter, over all the other parameters), as text, JSON and PNG."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .._files import check_regular, savefig_atomic, write_text_atomic
from .parts import part_chunks, part_path
from .run import read_sweep, stored_spec


def summarize(out, *, plots: bool = True) -> tuple[dict, list]:
    """(data, lines) for the sweep in ``out``, every part checked (an unsound part is an
    error naming it; missing chunks are listed); writes report.json (and envelope_*.png).
    A report or plot name that is a link, a FIFO or a device is refused before anything
    is written (never written through)."""
    out = Path(out)
    df = read_sweep(out, partial=True)
    spec = stored_spec(out)
    varied = list(spec.vary)
    for name in ["report.json"] + [f"envelope_{p}.png" for p in varied] * plots:
        check_regular(out / name)
    failed = df[df["error"].notna()]
    ok = df[df["error"].isna()]
    expected = len(spec.sample_table()["sample"])
    present = part_chunks(out)
    missing = [part_path(out, c).name for c, _, _ in spec.chunks() if c not in present]
    data = {
        "folder": str(out),
        "name": spec.name,
        "task": spec.task,
        "model": spec.model_ref,
        "model_sha256": spec.model_sha256,
        "samples": int(len(df)),
        "expected": expected,
        "failed": int(len(failed)),
        "duplicates": int(df["sample"].duplicated().sum()),
        "missing_parts": missing,
        "failures": [
            {"sample": int(r.sample), "error": r.error} for r in failed.head(20).itertuples()
        ],
        "metrics": {},
        "envelopes": {},
    }
    metric_cols = [
        c
        for c in df.columns
        if c not in {"sample", "error", "t_series", "tau_series", "q_series", *varied}
    ]
    for c in metric_cols:
        v = ok[c].to_numpy(dtype=float)
        if len(v):
            data["metrics"][c] = {
                "min": float(np.nanmin(v)),
                "max": float(np.nanmax(v)),
                "mean": float(np.nanmean(v)),
            }
    peaks = [c for c in metric_cols if c.startswith("peak_torque_")]
    for p in varied:
        env = ok.groupby(p)[peaks].max() if peaks else None
        if env is not None and len(env):
            data["envelopes"][p] = {
                "values": env.index.tolist(),
                **{c: env[c].tolist() for c in peaks},
            }
    lines = [
        f"sweep {data['name']} ({data['task']}) in {out}",
        f"model {spec.model_ref} (sha256 {spec.model_sha256[:12]}…)",
        f"samples {data['samples']} of {expected}, failed {data['failed']}, "
        f"duplicates {data['duplicates']}",
    ]
    if missing:
        lines.append(
            f"missing parts {len(missing)}: {', '.join(missing[:5])}"
            f"{', …' if len(missing) > 5 else ''} (finish with --resume)"
        )
    for f in data["failures"][:5]:
        lines.append(f"  sample {f['sample']}: {f['error']}")
    lines.append(f"{'metric':<18} {'min':>12} {'max':>12} {'mean':>12}")
    for c, s in data["metrics"].items():
        lines.append(f"{c:<18} {s['min']:>12.6g} {s['max']:>12.6g} {s['mean']:>12.6g}")
    if plots and data["envelopes"]:
        data["plots"] = [str(_plot(out, p, env, peaks)) for p, env in data["envelopes"].items()]
        lines += [f"plot: {p}" for p in data["plots"]]
    path = out / "report.json"
    write_text_atomic(path, json.dumps(data, indent=2), follow_symlinks=False)
    lines.append(f"report: {path}")
    return data, lines


def _plot(out, param, env, peaks):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for c in peaks:
        ax.plot(env["values"], env[c], marker="o", label=f"joint {c.rsplit('_', 1)[1]}")
    ax.set_xlabel(param)
    ax.set_ylabel("peak |τ| over the other parameters [N·m or N]")
    ax.set_title(f"torque envelope against {param}")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small", ncol=2)
    fig.tight_layout()
    path = out / f"envelope_{param}.png"
    savefig_atomic(fig, path, dpi=110, follow_symlinks=False)
    plt.close(fig)
    return path
