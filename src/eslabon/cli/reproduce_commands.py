"""``eslabon reproduce``: one command per source document, each writing its worked
examples beside the printed values into a folder."""

from __future__ import annotations

from pathlib import Path

import typer

from .common import FORCE, JSON, emit, output_folder, require_extra

reproduce_app = typer.Typer(
    no_args_is_help=True,
    rich_markup_mode=None,
    help="Reproduce a source document's worked examples.",
)


def _reproduce(name: str, out: Path, force: bool, as_json: bool, needs_plots: bool = True):
    if needs_plots:
        require_extra("viz", f"eslabon reproduce {name}")
    output_folder(out, force)
    import importlib

    from ..reproduce import MODULES

    module = importlib.import_module(f"..reproduce.{MODULES[name]}", __package__)
    data, lines = module.reproduce(out)
    emit(data, as_json, lines)


@reproduce_app.command("practica")
def reproduce_practica(
    out: Path = typer.Option(Path("out/practica"), "--out"),
    force: bool = FORCE,
    as_json: bool = JSON,
):
    """Seed 001: Ejemplos 3.1–3.4 beside the printed values, the pendulum simulation,
    its joint-angle plot (PNG) and animation (GIF)."""
    _reproduce("practica", out, force, as_json)


@reproduce_app.command("jaramillo")
def reproduce_jaramillo(
    out: Path = typer.Option(Path("out/jaramillo"), "--out"),
    force: bool = FORCE,
    as_json: bool = JSON,
):
    """Seeds 002/004: the pendulum, two-link and R-P-R reference cases (τ, M, ξ, q̈ by the
    operator form and the constraint-force method) beside what the document's printed
    formulas would give (Figure 7's sign, Figure 8's step 5); the two forms on trees and
    with loop, contact, coupled-joint and rolling (non-holonomic) constraints against
    eslabon's other methods; and the O(log2 N) claim: step 4 by cyclic reduction against
    the serial recursion, with operation counts and depth for N = 8 to 1024."""
    _reproduce("jaramillo", out, force, as_json, needs_plots=False)


@reproduce_app.command("araujo")
def reproduce_araujo(
    out: Path = typer.Option(Path("out/araujo"), "--out"), force: bool = FORCE, as_json: bool = JSON
):
    """Seed 003 (Araujo 2012): the PUMA 560 on the tricycle, load cases 1 and 2 for 1 s in
    the thesis's one-way coupling and fully coupled; figures 3.4–3.9 (accelerations,
    velocities, displacements of the 8 coordinates), the platform path, the thesis-vs-coupled
    difference, CSV per run, and independently computed reference values checked (the
    thesis prints no numbers); Tables 3.3–3.4 by name, the recommendations' slope and
    tilted steering axis against the multiplier DAE, a tool held on a wall without
    multipliers."""
    _reproduce("araujo", out, force, as_json)


@reproduce_app.command("rojas")
def reproduce_rojas(
    out: Path = typer.Option(Path("out/rojas"), "--out"), force: bool = FORCE, as_json: bool = JSON
):
    """Seed 000: Tables 5.4.1 and 5.6.2 of the Cincinnati T3 beside the printed values
    (IK, rates, accelerations, gravity and total torques by Newton–Euler and Lagrange),
    the 1 s straight-line task with per-joint plots, the 7R loop benchmark and the
    operation counts."""
    _reproduce("rojas", out, force, as_json)
