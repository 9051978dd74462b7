"""What the commands share: the model argument, vector options, output files and folders,
optional extras, and the one-line user error."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import numpy as np
import typer

from .._files import check_output, write_text_atomic

OUTPUT_MARK = ".eslabon-output"  # in a folder that eslabon's own outputs fill


class UserError(ValueError):
    """An error in the user's input, reported in one line."""


class Interrupted(Exception):
    """Ctrl-C stopped a command that says what it left (one line, exit status 130). Not a
    KeyboardInterrupt: the command framework would turn that into a bare exit 130 and
    drop the message."""


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # C0, DEL, C1 (ESC is C0)


def printable(text: object, keep: str = "") -> str:
    """``text`` safe to print to a terminal: every control character (C0, ESC, DEL, C1)
    but those in ``keep`` is shown as ``\\xNN``, so a name from a model file cannot move
    the cursor, retitle or clear the terminal, or fake a line; other unicode is kept."""
    return _CONTROL.sub(lambda m: m[0] if m[0] in keep else f"\\x{ord(m[0]):02x}", str(text))


def emit(data: dict, as_json: bool, lines: list[str]):
    """Print a command's result: ``data`` as JSON with ``--json`` (JSON escapes control
    characters itself), else ``lines``, each :func:`printable` but for its line breaks
    (names inside them are made printable where they are formatted)."""
    if as_json:
        typer.echo(json.dumps(data, indent=2))
    else:
        typer.echo("\n".join(printable(line, keep="\n") for line in lines))


# ---- options --------------------------------------------------------------------------


def vector_option(flag: str, what: str, unit: str, unset: str = "zeros"):
    """A typer option for a joint vector, with its format in the help."""
    return typer.Option(
        None,
        flag,
        metavar="NUMBERS",
        help=f"{what} [{unit}]: one number per joint, separated by commas "
        f"or spaces, brackets optional: 0.1,0,0.2 or '[0.1 0 0.2]'. "
        f"Unset: {unset}.",
    )


FORCE = typer.Option(
    False,
    "--force",
    help="Replace output files that exist (otherwise "
    "an existing file is refused, not overwritten).",
)
MODEL_ARG = typer.Argument(
    ...,
    help="Zoo name (see `eslabon info --list`), a model file (.yaml, .urdf, MJCF .xml) or a "
    "robot by name (robot:NAME, or NAME where no zoo model has it; see `eslabon info --robots`).",
)
OPT = typer.Option(
    None, "--opt", metavar="KEY=VALUE", help="Zoo model option, e.g. payload_mass=3 (repeatable)."
)
JSON = typer.Option(False, "--json", help="Print the result as JSON on stdout.")


# ---- models and vectors ---------------------------------------------------------------


def _parse_value(text: str):
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return float(text)
    except ValueError:
        return text


def resolve_model(spec: str, options: list[str] | None = None, mobile_ok: bool = False):
    """A zoo name, a model file path or a robot by name (``robot:NAME``, or ``NAME`` where
    no zoo model has it: :func:`eslabon.robots.load`), with ``key=value`` options for zoo
    models (``ee`` for a URDF or a robot). A mobile manipulator file is accepted only
    where ``mobile_ok``."""
    from .. import zoo

    opts = {}
    for item in options or []:
        if "=" not in item:
            raise UserError(f"--opt: expected key=value, got {item!r}")
        key, value = item.split("=", 1)
        opts[key.strip()] = _parse_value(value)
    if spec in zoo.names():
        return zoo.load(spec, **opts)
    if Path(spec).suffix.lower() in (".yaml", ".yml", ".urdf", ".xml") or Path(spec).exists():
        urdf = Path(spec).suffix.lower() == ".urdf"
        unknown = sorted(set(opts) - ({"ee", "root_joint"} if urdf else set()))
        if unknown and not urdf:
            raise UserError("--opt: options apply to zoo models only (and ee, root_joint to URDF)")
        if unknown:
            raise UserError(
                f"--opt: {', '.join(unknown)}: options apply to zoo models; a URDF file "
                "takes ee=LINK and root_joint=free_flyer|planar"
            )
        from ..loader import load_model

        loaded = load_model(
            spec, **{k: (v if isinstance(v, str) else str(v)) for k, v in opts.items()}
        )
        if not hasattr(loaded, "nq") and not mobile_ok:
            raise UserError(
                f"MODEL: {spec!r} is a mobile manipulator; this command takes an "
                "arm (eslabon simulate takes both)"
            )
        return loaded
    from .. import robots

    if spec.startswith("robot:") or spec in robots.names():
        unknown = sorted(set(opts) - {"ee"})
        if unknown:
            raise UserError(f"--opt: {', '.join(unknown)}: a robot by name takes ee=LINK only")
        ee = opts.get("ee")
        return robots.load(spec.removeprefix("robot:"), ee=None if ee is None else str(ee))
    raise UserError(
        f"MODEL: {spec!r} is neither a zoo model ({', '.join(zoo.names())}) nor a model file "
        "nor a robot by name (robot:NAME; eslabon info --robots lists them)"
    )


_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


def parse_configuration(m, text: str | None, field: str):
    """A configuration of ``m`` (nq numbers) from ``text``; unset, the neutral one (zeros,
    and unit quaternions (0, 0, 0, 1) where the model has them)."""
    if text is None:
        from ..model.configuration import neutral

        return neutral(m)
    return parse_vector(text, m.nq, field)


def parse_vector(text: str | None, n: int, field: str, default_zero: bool = True):
    """``n`` finite numbers from ``text``: separated by commas and/or spaces, optionally
    in one pair of brackets; anything else is refused saying why."""
    if text is None:
        if default_zero:
            return np.zeros(n)
        raise UserError(f"{field}: required ({n} numbers, one per joint)")
    body = text.strip()
    opens, closes = body[:1] in ("[", "("), body[-1:] in ("]", ")")
    if opens or closes:
        if not (opens and closes) or {"[": "]", "(": ")"}[body[0]] != body[-1]:
            raise UserError(f"{field}: unmatched brackets in {text!r}")
        body = body[1:-1].strip()
    if any(c in body for c in "[]()"):
        raise UserError(f"{field}: expected one flat list of numbers, got {text!r}")
    pieces = [p.strip() for p in body.split(",")] if "," in body else body.split()
    if "," in body:
        if any(p == "" for p in pieces):
            raise UserError(f"{field}: an empty value between commas in {text!r}")
        pieces = [q for p in pieces for q in p.split()]
    values = []
    for p in pieces:
        if not _NUMBER.match(p):
            low = p.lower().lstrip("+-")
            why = "not finite" if low in ("nan", "inf", "infinity") else "not a number"
            raise UserError(f"{field}: {p!r} is {why} (in {text!r})")
        values.append(float(p))
    if len(values) != n:
        raise UserError(
            f"{field}: expected {n} numbers (one per joint), got {len(values)} in {text!r}"
        )
    out = np.array(values)
    if not np.all(np.isfinite(out)):
        raise UserError(f"{field}: expected finite numbers, got {text!r}")
    return out


# ---- outputs --------------------------------------------------------------------------


def output_file(path: Path, force: bool, field: str = "--out", suffixes=None) -> Path:
    """A file the command will write: its folder exists, it has one of ``suffixes``, and
    it does not exist unless ``force``. Checked before any work is done."""
    path = Path(path)
    if suffixes and path.suffix.lower() not in suffixes:
        raise UserError(f"{field}: expected a {', '.join(suffixes)} file name, got {str(path)!r}")
    return check_output(path, overwrite=force, field=field)


def output_folder(path: Path, force: bool, field: str = "--out") -> Path:
    """A folder the command fills with its own files: created if missing (with its
    parents: the user named it); an existing folder must be empty or hold an earlier
    eslabon run's outputs (marked by :data:`OUTPUT_MARK`), unless ``force``."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise UserError(f"{field}: {str(path)!r} is a file, expected a folder")
    if path.is_dir() and not force and not (path / OUTPUT_MARK).exists():
        if any(path.iterdir()):
            raise UserError(
                f"{field}: {str(path)!r} holds files eslabon did not write; "
                "choose a new or empty folder, or pass --force to write into it"
            )
    try:
        path.mkdir(parents=True, exist_ok=True)
        write_text_atomic(
            path / OUTPUT_MARK, "Written by eslabon: a rerun may replace the files it wrote here.\n"
        )
    except OSError as exc:
        raise UserError(f"{field}: cannot write into {str(path)!r} ({exc.strerror})") from None
    return path


# ---- optional extras ------------------------------------------------------------------

EXTRAS = {
    "viz": ("matplotlib", "PIL"),
    "sweep": ("dask", "distributed", "pyarrow", "pandas"),
    "bench": ("pinocchio",),
    "control": ("control",),
}


def require_extra(extra: str, command: str, modules=None):
    """Refuse, before any work, a command whose optional dependencies are missing, naming
    the extra that installs them."""
    missing = [m for m in (modules or EXTRAS[extra]) if importlib.util.find_spec(m) is None]
    if missing:
        raise UserError(f"{command} needs {', '.join(missing)}: pip install 'eslabon[{extra}]'")


# the old name of --integrator (simulate) and --algorithm (fd): hidden, it warns
OLD_METHOD = typer.Option(None, "--method", hidden=True)


def fmt_vector(v) -> str:
    """A vector as ``[1.5, -2, …]`` with six significant digits, for one-line output."""
    return "[" + ", ".join(f"{x:.6g}" for x in np.atleast_1d(v)) + "]"


def renamed_option(old_value, old: str, value, new: str):
    """The value of option ``new``, or of its deprecated name ``old`` with a one-line
    warning on stderr."""
    if old_value is None:
        return value
    if value is not None:
        raise UserError(f"{old}: give {new} alone ({old} is its old name)")
    print(f"warning: {old} is deprecated; use {new}", file=sys.stderr)
    return old_value
