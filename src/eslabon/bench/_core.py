"""Shared pieces of the speed benchmark: settings, timing, models, Pinocchio, result rows."""

from __future__ import annotations

import datetime
import importlib.util
import math
import os
import platform
import statistics
import subprocess
import sys
import timeit
from dataclasses import asdict, dataclass
from pathlib import Path

from .._engine.compile import install as _install

_install()  # TBB before numba picks its threading layer (eslabon._engine.compile)
import numba  # noqa: E402
import numpy as np  # noqa: E402

from .. import random_configuration, zoo  # noqa: E402


@dataclass(frozen=True)
class Settings:
    quick: bool = False
    repeats: int = 7  # timeit repeats per call figure (median and min kept)
    min_repeat_s: float = 0.2  # one repeat lasts at least this long
    batch_size: int = 10_000
    batch_runs: int = 5  # whole-batch timings (median kept)
    sim_runs: int = 5  # simulate() runs after a warm-up (best kept)
    cold_start: bool = True  # the start-up with an empty numba cache (slow: compiles)
    threads: int = 2
    rollout_arms: int = 1_000  # batch rollouts against mujoco.rollout
    rollout_seconds: float = 1.0
    rollout_runs: int = 3  # whole-batch rollouts (median kept)


def settings(quick: bool = False, batch_size: int | None = None, **overrides) -> Settings:
    """The settings of a full or ``quick`` run, with ``overrides`` of its fields; threads are
    capped at numba's."""
    s = (
        Settings(
            quick=True,
            repeats=3,
            min_repeat_s=0.02,
            batch_size=1_000,
            batch_runs=3,
            sim_runs=2,
            cold_start=False,
            rollout_arms=50,
            rollout_seconds=0.1,
            rollout_runs=2,
        )
        if quick
        else Settings()
    )
    fields = {**asdict(s), "batch_size": batch_size or s.batch_size}
    unknown = set(overrides) - set(fields)
    if unknown:
        raise ValueError(f"settings: unknown {sorted(unknown)}; expected some of {sorted(fields)}")
    fields.update(overrides)
    fields["threads"] = max(1, min(fields["threads"], numba.config.NUMBA_NUM_THREADS))
    return Settings(**fields)


def log(*args):
    print(*args, file=sys.stderr, flush=True)


# --- timing ----------------------------------------------------------------------------
def _calibrate(timer: timeit.Timer, target: float) -> int:
    """Calls per repeat so that one repeat lasts >= target (autorange, then scaled)."""
    number = 1
    while True:
        elapsed = timer.timeit(number)
        if elapsed >= target / 5 or number >= 10**8:
            break
        number *= 10 if elapsed < target / 100 else 2
    return max(1, math.ceil(number * 1.05 * target / max(elapsed, 1e-9)))


def time_stmts(
    stmts: dict, glb: dict, s: Settings, *, number: int | None = None, repeats: int | None = None
) -> dict:
    """Time statements interleaved: repeat r of every statement runs before repeat r + 1.

    ``stmts`` maps a label to a statement string (None: not timed). Returns
    ``{label: {"median_s", "min_s", "number", "repeats", "stmt"}}`` in seconds per call.
    """
    timers = {k: timeit.Timer(v, globals=glb) for k, v in stmts.items() if v}
    numbers = {k: number or _calibrate(t, s.min_repeat_s) for k, t in timers.items()}
    runs = {k: [] for k in timers}
    for _ in range(repeats or s.repeats):
        for k, t in timers.items():
            runs[k].append(t.timeit(numbers[k]) / numbers[k])
    return {
        k: {
            "median_s": statistics.median(v),
            "min_s": min(v),
            "number": numbers[k],
            "repeats": len(v),
            "stmt": stmts[k],
        }
        for k, v in runs.items()
    }


# --- result rows -----------------------------------------------------------------------
def judge(value, op: str, bound: float, tol: float = 0.0):
    if value is None or not np.isfinite(value):
        return None
    if op == "<=":
        return bool(value <= bound)
    if op == "~":
        return bool(abs(value - bound) <= tol)
    raise ValueError(op)


_NO_COLUMN = object()


def row(
    figure: str,
    ours=None,
    pin=None,
    *,
    mujoco=_NO_COLUMN,
    unit: str = "µs",
    target: str = "—",
    on: str | None = None,
    op: str = "<=",
    bound: float | None = None,
    tol: float = 0.0,
    note: str | None = None,
    **extra,
) -> dict:
    """One table row; ``met`` judges ``on`` ('ratio', 'ratio_mujoco' or 'ours') against
    ``op bound``. Passing ``mujoco`` (a time, or None when MuJoCo could not time it) gives
    the row the keys ``mujoco`` and ``ratio_mujoco`` (ours / mujoco)."""
    ratio = ours / pin if ours is not None and pin not in (None, 0) else None
    mj = {}
    if mujoco is not _NO_COLUMN:
        mj["mujoco"] = mujoco
        mj["ratio_mujoco"] = ours / mujoco if ours is not None and mujoco not in (None, 0) else None
    met = None
    if on is not None and bound is not None:
        value = {"ratio": ratio, "ratio_mujoco": mj.get("ratio_mujoco")}.get(on, ours)
        met = judge(value, op, bound, tol)
    out = {
        "figure": figure,
        "unit": unit,
        "ours": ours,
        "pin": pin,
        "ratio": ratio,
        "target": target,
        "met": met,
        **mj,
    }
    if note:
        out["note"] = note
    out.update(extra)
    return out


def check(
    what: str,
    got,
    ref,
    tol: float = 1e-8,
    *,
    relative: bool = False,
    against: str = "pin",
    quiet: bool = False,
) -> dict:
    """Max abs difference (scaled by max(1, max|ref|) if ``relative``) against ``tol``;
    ``against`` names the library of ``ref`` ('pin' or 'mujoco'). Logged unless ``quiet``."""
    got, ref = np.asarray(got, dtype=float), np.asarray(ref, dtype=float)
    if got.shape != ref.shape:
        out = {
            "what": what,
            "against": against,
            "max_abs_diff": None,
            "tol": tol,
            "ok": False,
            "error": f"shape {got.shape} != {ref.shape}",
        }
        log(f"check {what}: {out['error']} FAILED")
        return out
    diff = float(np.max(np.abs(got - ref))) if got.size else 0.0
    if relative:
        diff /= max(1.0, float(np.max(np.abs(ref))) if ref.size else 1.0)
    out = {"what": what, "against": against, "max_abs_diff": diff, "tol": tol}
    out["ok"] = bool(diff < tol)
    if relative:
        out["relative"] = True
    if not quiet:
        log(
            f"check {what}: max|diff|{'/max(1,|ref|)' if relative else ''} {diff:.2e} "
            f"{'ok' if out['ok'] else 'FAILED'} (< {tol:g})"
        )
    return out


def failed(r: dict, ok: bool) -> dict:
    """``r`` marked not met when the check of what it times failed."""
    if not ok:
        r["met"], r["note"] = False, "check FAILED"
    return r


def pair(res: dict, *, scale: float = 1.0) -> dict:
    """Medians and mins of ours / pin / mujoco from a :func:`time_stmts` result, in µs per
    ``scale``; ``mujoco`` only when it was timed."""
    o, p, mj = res.get("ours"), res.get("pin"), res.get("mujoco")
    f = lambda t, k: None if t is None else t[k] * 1e6 / scale
    out = {
        "ours": f(o, "median_s"),
        "pin": f(p, "median_s"),
        "ours_min": f(o, "min_s"),
        "pin_min": f(p, "min_s"),
        "ratio_min": (o["min_s"] / p["min_s"]) if o and p else None,
        "stmt_ours": o and o["stmt"],
        "stmt_pin": p and p["stmt"],
    }
    if mj is not None:
        out.update(
            mujoco=f(mj, "median_s"),
            mujoco_min=f(mj, "min_s"),
            ratio_mujoco_min=(o["min_s"] / mj["min_s"]) if o else None,
            stmt_mujoco=mj["stmt"],
        )
    return out


def details(p: dict, *timed) -> dict:
    """The entries of a :func:`pair` result other than the ``timed`` figures."""
    return {k: v for k, v in p.items() if k not in timed}


STATE_SEED = 0  # the fixed state of the per-call and scaling sections


# --- models ----------------------------------------------------------------------------
def zoo_model(spec):
    """(model, label, note) for a zoo name, ``"erd:<name>"`` (a robot of
    :mod:`eslabon.robots`, e.g. ``erd:solo12``; model None and a note when its package is
    not installed) or a Model."""
    if not isinstance(spec, str):
        return spec, spec.name, None
    if spec.startswith("erd:"):
        from .. import robots

        name = spec[4:]
        if name not in robots.available():
            return None, name, f"{name}: example-robot-data is not installed (bench extra)"
        return robots.load(name), name, None
    return zoo.load(spec), spec, None


def rigid(model):
    """The model without joint friction (Pinocchio's rnea/crba/aba have none)."""
    z = np.zeros(model.nb + 1)
    return model.replace(viscous=z, coulomb=z)


def bench_robot(spec, notes: list):
    """(frictionless model, label) of a robot to compare with Pinocchio (:func:`rigid`);
    model None, with a note, when it is not installed."""
    model, label, note = zoo_model(spec)
    if model is None:
        notes.append(note)
        return None, label
    return rigid(model), label


def random_chain(n: int, seed: int = 0):
    """(model, source) of the scaling chains."""
    return zoo.random_chain(n, seed=seed), "eslabon.zoo.random_chain"


def robot_states(model, count: int | None, seed: int):
    """(q, q̇, q̈) of ``model``: :func:`random_states` for revolute and prismatic joints;
    with quaternion joints, q from ``eslabon.random_configuration`` and rates of nv."""
    if model.nq == model.nv:
        return random_states(model.nq, count, seed)
    rng = np.random.default_rng(seed)
    rows = 1 if count is None else count
    q = np.array([random_configuration(model, rng) for _ in range(rows)])
    shape = (model.nv,) if count is None else (count, model.nv)
    qd, qdd = rng.uniform(-2.0, 2.0, shape), rng.uniform(-5.0, 5.0, shape)
    return (q[0] if count is None else q), qd, qdd


def random_states(n: int, count: int | None, seed: int):
    """q ~ U(-pi, pi), qd ~ U(-2, 2), qdd ~ U(-5, 5); shape (n,) or (count, n)."""
    rng = np.random.default_rng(seed)
    shape = (n,) if count is None else (count, n)
    return (
        rng.uniform(-np.pi, np.pi, shape),
        rng.uniform(-2.0, 2.0, shape),
        rng.uniform(-5.0, 5.0, shape),
    )


# --- Pinocchio (never a runtime dependency: imported only when asked for) --------------
def pin_available() -> bool:
    return importlib.util.find_spec("pinocchio") is not None


def load_pin():
    """(pinocchio module, to_pinocchio, where to_pinocchio came from)."""
    import pinocchio as pin

    from ..interop.pinocchio import to_pinocchio

    return pin, to_pinocchio, "eslabon.interop.pinocchio"


def sym(H):
    """A symmetric matrix from its upper triangle (Pinocchio fills only that of M, M⁻¹)."""
    H = np.asarray(H)
    return np.triu(H) + np.triu(H, 1).T


def pin_twin(pc, model, notes, label):
    """(pin model, data) or (None, None) with a note when the model has no Pinocchio twin."""
    if pc is None:
        return None, None
    pin, to_pinocchio, _ = pc
    try:
        pm = to_pinocchio(model)
    except (ValueError, AssertionError) as exc:
        notes.append(f"{label}: no Pinocchio model ({exc})")
        return None, None
    return pm, pm.createData()


def pin_orders(model):
    """(rates, coordinates) of ``model`` in the order of its Pinocchio twin: the identity
    for a chain, depth-first for a tree (:func:`eslabon.interop.pinocchio.dof_order`)."""
    from ..interop.pinocchio import configuration_order, dof_order

    return dof_order(model), configuration_order(model)


# --- machine ---------------------------------------------------------------------------
def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _git_revision():
    here = Path(__file__).resolve().parents[3]
    if not (here / ".git").exists():
        return None
    try:
        rev = subprocess.run(
            ["git", "-C", str(here), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(here), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=5,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return f"{rev}{'+dirty' if dirty else ''}" if rev else None


def machine_info(pin=None) -> dict:
    from .. import __version__
    from .._engine.lanewidth import width

    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "platform": platform.platform(),
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "usable_cores": usable,
        "lanes": width(),  # states per batch block (4, or 8 with AVX-512F)
        "python": platform.python_version(),
        "eslabon": __version__,
        "git": _git_revision(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "numba_threads": numba.config.NUMBA_NUM_THREADS,
        "pin": getattr(pin, "__version__", None) if pin is not None else None,
        "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS"),
    }
