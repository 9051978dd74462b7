"""``eslabon demo``: the headline examples of the seeds, cross-checks and viewers, with an
``index.html`` that links every table, plot, animation and viewer written.

The short tour (the default) reproduces seed 001's worked examples and pendulum,
cross-checks every formulation on three arms and writes the pendulum's viewer; ``--full``
reproduces every source document, cross-checks every built-in robot and writes three
viewers. Each stage is printed as one line on stderr, terminal or not."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from .. import zoo
from ..dynamics.crosscheck import crosscheck
from ..reproduce import cincinnati_t3 as rojas
from ..reproduce import mobile_manipulator as araujo
from ..reproduce import newton_euler_examples as practica
from ..reproduce import spatial_operators as jaramillo
from ..sim import Trajectory
from ..viz import Viewer
from .demo_page import write_index

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
        sections.append((title, files, more))
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
    data["viewers"], cards = {}, []
    for key, (model_name, traj, what) in views.items():
        stage(f"viewer {key}")
        model, trajectory = zoo.load(model_name), Trajectory.load(out / traj)
        title = f"{model_name}: {what}"
        path = Viewer(model, trajectory, title=title).save(out / f"{key}.html")
        cards.append((path, _thumbnail(model, trajectory, out / f"{key}.png"), model_name, what))
        data["viewers"][key] = str(path)
        lines.append(f"viewer: {path}")
    if full:
        stage("viewer mobile manipulator")
        path, thumb = _mobile_viewer(out)
        what = "load case 1 from V = 1 m/s, coupled (solid) and the thesis's model (ghost)"
        cards.append((path, thumb, "seed 003: a PUMA 560 on the tricycle", what))
        data["viewers"]["mobile"] = str(path)
        lines.append(f"viewer: {path}")
    stage("index")
    index = write_index(out, cards, sections, rows)
    data["index"] = str(index)
    lines.append(
        f"index: {index}"
        + ("" if full else "   (eslabon demo --full: every source document reproduced)")
    )
    return data, lines


def _thumbnail(model, traj, path):
    """A still of the motion for the index: the stick figure at six times, darker as time
    goes on, seen from the viewer's corner with "up" against gravity (matplotlib), or
    None without the plotting extra."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        return None
    import numpy as np

    from .._files import savefig_atomic
    from ..viz import frame_origins

    g = np.asarray(model.gravity, dtype=float)
    up = -g / np.linalg.norm(g) if np.linalg.norm(g) > 0 else np.array([0.0, 0.0, 1.0])
    side = np.cross(up, [1.0, 0.0, 0.0] if abs(up[0]) < 0.9 else [0.0, 1.0, 0.0])
    side /= np.linalg.norm(side)
    depth = np.cross(up, side)
    idx = np.linspace(0, len(traj.t) - 1, 6).astype(int)
    pts = frame_origins(model, traj.q[idx])  # (6, m, 3)
    fig = Figure(figsize=(3.2, 2.4), dpi=100)
    ax = fig.add_axes((0, 0, 1, 1))
    for k, shape in enumerate(pts):
        x, y = shape @ (side + 0.35 * depth), shape @ (up + 0.2 * depth)
        shade = 0.75 - 0.6 * k / (len(pts) - 1)
        ax.plot(x, y, "-o", color=(shade, shade, 0.35 + shade / 2), lw=2.5, ms=3)
    ax.set_aspect("equal")
    ax.margins(0.1)
    ax.axis("off")
    return savefig_atomic(fig, path, dpi=100)


def _mobile_viewer(out):
    """Seed 003's PUMA on the tricycle, load case 1 for 2 s from V = 1 m/s, coupled and in
    the thesis's model, in one viewer; (page, thumbnail)."""
    from .. import mobile as mb
    from ..mobile.dae import tree_trajectory

    mm = mb.MobileManipulator(
        mb.Tricycle(mb.TricycleParams.seekur_jr_assumed()),
        zoo.load("puma560_araujo"),
        mb.Mount.araujo_assumed(),
    )
    load = dict(torque=[6.0, 50.0, 10.0, -0.1, -0.5, -0.1], u=[150.0, 0.3], nu0=[1.0, 0.0])
    coupled = mb.simulate(mm, None, None, 2.0, 0.01, integrator="rk4", **load)
    thesis = mb.simulate(mm.with_mode("thesis"), None, None, 2.0, 0.01, integrator="rk4", **load)
    viewer = Viewer(
        title="seed 003: PUMA 560 on the tricycle, load case 1 (assumed platform masses)"
    )
    viewer.add_mobile(mm, coupled).add_mobile(mm.with_mode("thesis"), thesis, opacity=0.35)
    path = viewer.save(out / "mobile.html")
    tree, traj = tree_trajectory(mm, coupled)
    return path, _thumbnail(tree, traj, out / "mobile.png")
