"""``eslabon demo``: the headline examples of the seeds, cross-checks and viewers, with an
``index.html`` that links every table, plot, animation and viewer written.

The short tour (the default) reproduces seed 001's worked examples and pendulum,
cross-checks every formulation on three arms and writes the pendulum's viewer; ``--full``
reproduces every source document, cross-checks every built-in robot and writes three
viewers. Each stage is printed as one line on stderr, terminal or not."""

from __future__ import annotations

import html
import sys
import time
from pathlib import Path

from .. import zoo
from .._files import write_text_atomic
from ..dynamics.crosscheck import crosscheck
from ..reproduce import cincinnati_t3 as rojas
from ..reproduce import mobile_manipulator as araujo
from ..reproduce import newton_euler_examples as practica
from ..reproduce import spatial_operators as jaramillo
from ..sim import Trajectory
from ..viz import write_viewer

SHORT_CROSSCHECK = ("practica_6dof", "puma560", "panda")
SEEDS = (
    ("practica", practica, "Seed 001 — Práctica 3: Newton–Euler, Walker–Orin, the pendulum"),
    ("rojas", rojas, "Seed 000 — Rojas 1987: Cincinnati T3 tables, task, control, 7R loop"),
    ("jaramillo", jaramillo, "Seeds 002/004 — Jaramillo 1998: spatial operators"),
    ("araujo", araujo, "Seed 003 — Araujo 2012: a PUMA on a tricycle, thesis vs coupled"),
)
VIEWS = {
    "pendulum": (
        "practica_pendulum3",
        Path("practica") / "pendulum.npz",
        "the seed 001 pendulum falling for 1 s",
    ),
    "t3_task": (
        "cincinnati_t3",
        Path("rojas") / "t3_task.npz",
        "the Cincinnati T3 straight-line task",
    ),
}


def _say(line: str):
    print(line, file=sys.stderr, flush=True)


def run_demo(out, full: bool = False, say=_say) -> tuple[dict, list]:
    """Run the tour into ``out`` (the short one, or every stage with ``full``), saying each
    stage as a line with ``say``; (data, lines)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    seeds = SEEDS if full else SEEDS[:1]
    robots = zoo.names() if full else SHORT_CROSSCHECK
    views = VIEWS if full else {"pendulum": VIEWS["pendulum"]}
    total = len(seeds) + len(robots) + len(views) + (1 if full else 0) + 1
    step = iter(range(1, total + 1))
    t0 = time.perf_counter()

    def stage(what):
        say(f"eslabon demo [{next(step)}/{total}, {time.perf_counter() - t0:.0f} s] {what}")

    data, lines, sections = {}, [], []
    for key, module, title in seeds:
        stage(f"reproduce {key}")
        data[key], more = module.reproduce(out / key)
        lines += more + [""]
        files = dict(data[key].get("files", {}), summary=str(out / key / "summary.json"))
        sections.append((title, files))
    data["crosscheck"] = {}
    lines.append(
        "crosscheck: every formulation on "
        + ("every built-in robot" if full else ", ".join(robots))
    )
    rows = []
    for name in robots:
        stage(f"crosscheck {name}")
        report = crosscheck(zoo.load(name))
        ran = [c for c in report.checks if not c.skipped]
        data["crosscheck"][name] = report.ok
        verdict = "all agree" if report.ok else "DIFFERENCES"
        lines.append(
            f"  {name:<20} {verdict} ({len(ran)} comparisons, "
            f"{len(report.checks) - len(ran)} not applicable)"
        )
        rows.append((name, verdict, len(ran)))
    data["viewers"] = {}
    for key, (model_name, traj, what) in views.items():
        stage(f"viewer {key}")
        path = write_viewer(
            zoo.load(model_name),
            Trajectory.load(out / traj),
            out / f"{key}.html",
            title=f"{model_name}: {what}",
        )
        data["viewers"][key] = str(path)
        lines.append(f"viewer: {path}")
    if full:
        stage("viewer mobile manipulator")
        path = _mobile_viewer(out)
        data["viewers"]["mobile"] = str(path)
        lines.append(f"viewer: {path}")
    stage("index")
    index = _index(out, sections, rows, data["viewers"])
    data["index"] = str(index)
    lines.append(
        f"index: {index}"
        + ("" if full else "   (eslabon demo --full: every source document reproduced)")
    )
    return data, lines


def _mobile_viewer(out) -> Path:
    """Seed 003's PUMA on the tricycle, load case 1 coupled, 1 s, in the HTML viewer."""
    from .. import mobile as mb
    from ..mobile.dae import tree_trajectory

    mm = mb.MobileManipulator(
        mb.Tricycle(mb.TricycleParams.seekur_jr_assumed()),
        zoo.load("puma560_araujo"),
        mb.Mount.araujo_assumed(),
    )
    run = mb.simulate(mm, 1.0, 0.02, torque=[6.0, 50.0, 10.0, -0.1, -0.5, -0.1], u=[150.0, 0.3])
    tree, traj = tree_trajectory(mm, run)
    return write_viewer(
        tree,
        traj,
        out / "mobile.html",
        title="seed 003: PUMA 560 on the tricycle, load case 1, coupled (assumed platform masses)",
    )


def _link(out, path):
    rel = Path(path).resolve().relative_to(out.resolve())
    return f'<a href="{html.escape(str(rel))}">{html.escape(rel.name)}</a>'


def _index(out, sections, rows, viewers) -> Path:
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<title>eslabon demo</title></head><body><h1>eslabon demo</h1>",
        "<h2>Viewers</h2><ul>",
    ]
    parts += [f"<li>{_link(out, p)}</li>" for p in viewers.values()]
    parts.append("</ul>")
    for title, files in sections:
        parts.append(f"<h2>{html.escape(title)}</h2><ul>")
        parts += [f"<li>{_link(out, p)}</li>" for p in files.values() if Path(p).exists()]
        parts.append("</ul>")
    parts.append(
        "<h2>crosscheck</h2><table border='1' cellpadding='4'><tr><th>robot</th>"
        "<th>verdict</th><th>comparisons</th></tr>"
    )
    parts += [f"<tr><td>{n}</td><td>{v}</td><td>{k}</td></tr>" for n, v, k in rows]
    parts.append("</table></body></html>")
    path = out / "index.html"
    write_text_atomic(path, "\n".join(parts))
    return path
