"""Render benchmark results: rich tables for the terminal, Markdown for benchmarks/RESULTS.md."""

from __future__ import annotations

COLUMNS = ("figure", "ours", "pin", "ratio", "target", "met")
# a section with MuJoCo figures (a row with the key "mujoco") shows two more columns
MUJOCO_COLUMNS = ("figure", "ours", "pin", "ratio", "mujoco", "ratio to mujoco", "target", "met")
LIBRARIES = {"pin": "pin", "mujoco": "MuJoCo"}


def columns(sec: dict) -> tuple:
    """The columns of one section's table."""
    return MUJOCO_COLUMNS if any("mujoco" in r for r in sec["rows"]) else COLUMNS


def _num(x, unit: str = "") -> str:
    if x is None:
        return "n/a"
    if unit == "slope":
        return f"{x:.2f}"
    a = abs(x)
    if a >= 100:
        return f"{x:,.0f}"
    if a >= 10:
        return f"{x:.1f}"
    if a >= 1:
        return f"{x:.2f}"
    return f"{x:.3f}"


def _met(m) -> str:
    return "—" if m is None else ("yes" if m else "no")


def _ratio(x) -> str:
    return "—" if x is None else f"{x:.2f}"


def cells(r: dict, cols=COLUMNS) -> list:
    """The displayed cells of one result row: six, or eight with ``MUJOCO_COLUMNS`` (a row
    without MuJoCo figures shows "—" there)."""
    figure = r["figure"] + (f" [{r['note']}]" if r.get("note") else "")
    unit = r.get("unit", "")
    pin = "—" if r.get("no_pin") else _num(r["pin"], unit)
    out = [figure, _num(r["ours"], unit), pin, _ratio(r["ratio"])]
    if cols is MUJOCO_COLUMNS:
        mj = r.get("mujoco")
        out += ["—" if mj is None else _num(mj, unit), _ratio(r.get("ratio_mujoco"))]
    return out + [r["target"], _met(r["met"])]


def _checks_line(checks) -> str | None:
    """'checks against pin: 8/8 passed (largest difference …); against MuJoCo: …'."""
    if not checks:
        return None
    parts, bad = [], []
    for lib, name in LIBRARIES.items():
        mine = [c for c in checks if c.get("against", "pin") == lib]
        if not mine:
            continue
        ok = [c for c in mine if c["ok"]]
        diffs = [c["max_abs_diff"] for c in mine if c["max_abs_diff"] is not None]
        part = f"against {name}: {len(ok)}/{len(mine)} passed"
        if diffs:
            part += f" (largest difference {max(diffs):.1e})"
        parts.append(part)
        bad += [c["what"] for c in mine if not c["ok"]]
    line = "checks " + "; ".join(parts)
    if bad:
        line += "; FAILED: " + ", ".join(bad)
    return line


def header_lines(results: dict) -> list:
    m, s = results["meta"], results["settings"]
    pin = f"pin {m['pin']}" if m.get("pin") else "pin not used"
    mj = f"mujoco {m['mujoco']}" if m.get("mujoco") else "mujoco not used"
    return [
        f"eslabon {m['eslabon']}{' (' + m['git'] + ')' if m.get('git') else ''} | {pin} | "
        f"{mj} | numba {m['numba']}, numpy {m['numpy']}, Python {m['python']}",
        f"{m['cpu']}, {m['cores']} cores ({m['usable_cores']} usable)"
        f"{', batch lanes of ' + str(m['lanes']) if m.get('lanes') else ''} | {m['platform']} | "
        f"{m['date']}",
        f"timeit: {s['repeats']} repeats ≥ {s['min_repeat_s']:g} s, interleaved "
        f"ours/pin/mujoco, "
        f"median shown (min in the JSON); OPENBLAS_NUM_THREADS="
        f"{m.get('OPENBLAS_NUM_THREADS')}{'; QUICK (rough numbers)' if s['quick'] else ''}",
    ]


def print_results(results: dict, console=None) -> None:
    """Print one rich table per section. Every text is escaped: rich reads ``[...]`` as
    markup, which ate the ``[bench]`` of ``pip install 'eslabon[bench]'``."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    if console is None:
        console = Console()
        if not console.is_terminal:  # a pipe or a file: do not wrap at 80 columns
            console = Console(width=120)
    for line in header_lines(results):
        console.print(escape(line), highlight=False)
    for sec in results["sections"].values():
        table = Table(title=escape(sec["title"]), title_justify="left", show_lines=False)
        cols = columns(sec)
        for c in cols:
            table.add_column(
                escape(c),
                justify="left" if c in ("figure", "target") else "right",
                no_wrap=c != "figure",
            )
        for r in sec["rows"]:
            row = [escape(c) for c in cells(r, cols)]
            if r["met"] is not None:
                row[-1] = f"[{'green' if r['met'] else 'red'}]{row[-1]}[/]"
            table.add_row(*row)
        console.print()
        console.print(table)
        extra = (
            ([sec["error"]] if sec.get("error") else [])
            + [x for x in [_checks_line(sec.get("checks"))] if x]
            + sec.get("notes", [])
        )
        for line in extra:
            console.print(f"  {escape(line)}", style="dim", highlight=False)


def render_markdown(results: dict) -> str:
    """The results as Markdown (for benchmarks/RESULTS.md)."""
    m, s = results["meta"], results["settings"]
    cmd = (
        "eslabon bench"
        + (" --against pin" if m.get("pin") else "")
        + (" --quick" if s["quick"] else "")
    )
    out = [
        "# eslabon speed benchmark",
        "",
        f"Generated by `{cmd}` on {m['date']}.",
        "",
        "| machine | |",
        "|---|---|",
        f"| CPU | {m['cpu']} ({m['cores']} cores, {m['usable_cores']} usable) |",
        f"| platform | {m['platform']} |",
        f"| eslabon | {m['eslabon']}{' @ ' + m['git'] if m.get('git') else ''} |",
        f"| Python / numpy / numba | {m['python']} / {m['numpy']} / {m['numba']} |",
        f"| pin (Pinocchio) | {m.get('pin') or 'not used'} |",
        f"| MuJoCo | {m.get('mujoco') or 'not used'} |",
        f"| OPENBLAS_NUM_THREADS | {m.get('OPENBLAS_NUM_THREADS')} |",
        *([f"| batch lanes | {m['lanes']} states per block |"] if m.get("lanes") else []),
        "",
        f"Method: `timeit` statement strings, calls per repeat scaled so one repeat lasts "
        f"≥ {s['min_repeat_s']:g} s, {s['repeats']} repeats, ours, pin and MuJoCo interleaved "
        f"repeat by repeat; the table shows medians (minimums are in the JSON). Batches: "
        f"{s['batch_size']:,} states, median of {s['batch_runs']} whole-batch runs; rollouts: "
        f"{s['rollout_arms']:,} arms × {s['rollout_seconds']:g} s, median of "
        f"{s['rollout_runs']}. Ratio = ours / pin, ratio to mujoco = ours / MuJoCo (below 1: "
        f"eslabon faster). On a shared machine treat differences under about 30 % as noise.",
    ]
    if s["quick"]:
        out += ["", "**Quick run (`--quick`): short repeats, rough numbers.**"]
    for sec in results["sections"].values():
        cols = columns(sec)
        align = ["---" if c in ("figure", "target", "met") else "---:" for c in cols]
        out += [
            "",
            f"## {sec['title']}",
            "",
            "| " + " | ".join(cols) + " |",
            "|" + "|".join(align) + "|",
        ]
        for r in sec["rows"]:
            out.append("| " + " | ".join(c.replace("|", "\\|") for c in cells(r, cols)) + " |")
        extra = (
            ([f"**error**: {sec['error']}"] if sec.get("error") else [])
            + [x for x in [_checks_line(sec.get("checks"))] if x]
            + sec.get("notes", [])
        )
        if extra:
            out.append("")
            out += [f"- {x}" for x in extra]
    return "\n".join(out) + "\n"
