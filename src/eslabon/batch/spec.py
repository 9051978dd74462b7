"""Sweep specifications (YAML, ``eslabon_sweep: 1``; docs/sweeps.md): the model, what
varies (grid or seeded random sampling), the task per sample and the metrics kept.

Everything is checked here, before any work starts: an unknown key or parameter, an
empty range, a metric the task cannot produce, a missing model, a sweep too large (more
than :data:`~eslabon.batch.sizing.MAX_SAMPLES` samples, or histories beyond the memory
budget of :func:`eslabon.simulate`: :mod:`eslabon.batch.sizing`) all raise a ValueError
naming the field.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import numpy as np

from .._yaml import read_yaml
from .sizing import MAX_SAMPLES, check_size

TASKS = ("inverse_dynamics", "simulate", "closed_loop", "linearize", "identification")
# parameter: (lower bound, bound is strict, meaning)
PARAMETERS = {
    "payload_mass": (0.0, False, "payload at the end-effector frame [kg]"),
    "payload_inertia": (0.0, False, "payload inertia s·1 about its COM [kg·m²]"),
    "payload_offset": (None, False, "payload COM along the end-effector z axis [m]"),
    "friction_scale": (0.0, False, "factor on every joint's viscous and Coulomb friction"),
    "trajectory_scale": (None, False, "factor on the motion goal − start"),
    "trajectory_duration": (0.0, True, "duration of the rest-to-rest motion [s]"),
    "initial_error": (
        None,
        False,
        "initial error on every joint (simulate, closed_loop) [rad or m]",
    ),
    "kp": (0.0, True, "proportional gain on every joint [N·m/rad]"),
    "kd": (0.0, False, "derivative gain on every joint [N·m·s/rad]"),
    "noise": (0.0, False, "torque noise std on every joint (identification) [N·m or N]"),
}
METRICS = {
    "peak_torque": TASKS,
    "rms_torque": TASKS,
    "energy": ("inverse_dynamics", "simulate", "closed_loop"),
    "final_state": ("simulate", "closed_loop"),
    "tracking_error": ("simulate", "closed_loop"),
    "stability": ("closed_loop", "linearize"),
    "parameter_error": ("identification",),
    "max_z_score": ("identification",),
    "condition": ("identification",),
    "residual_rms": ("identification",),
}
_KEYS = {
    "eslabon_sweep",
    "name",
    "model",
    "trajectory",
    "task",
    "controller",
    "dt",
    "vary",
    "sampling",
    "chunk_size",
    "metrics",
    "time_series",
}
DEFAULTS = {
    "payload_mass": 0.0,
    "payload_inertia": 0.0,
    "payload_offset": 0.0,
    "friction_scale": 1.0,
    "trajectory_scale": 1.0,
    "initial_error": 0.0,
    "noise": 0.0,
}


@dataclass(frozen=True)
class SweepSpec:
    """A checked sweep. ``vary`` maps each parameter to its grid values or random range;
    ``model_ref`` is a zoo name or an absolute model-file path, ``model_text`` that file's
    text (None for a zoo model) and ``model_sha256`` the model's content hash
    (:mod:`eslabon.batch.models`): the model travels with the spec, by content.

    What :func:`parse_spec` and :func:`load_spec` return, every field checked; frozen.
    docs/sweeps.md describes the YAML keys the fields come from.

    Attributes
    ----------
    name : str
        The sweep's name (``"sweep"`` by default); part of the Dask task keys.
    model_ref : str
        A zoo name, or the absolute path of the model file.
    model_text : str or None
        The model file's text (None for a zoo model).
    model_sha256 : str
        The model's content hash (64 hex digits) that every worker checks.
    start : tuple of float ``(n,)``
        Where the nominal rest-to-rest motion starts (rad or m); zeros by default.
    goal : tuple of float ``(n,)``
        Where it ends (rad or m).
    duration : float
        The motion's duration (s).
    samples : int
        Points along the motion (inverse dynamics, linearization).
    task : str
        One of :data:`TASKS`: ``"inverse_dynamics"``, ``"simulate"``, ``"closed_loop"``,
        ``"linearize"``, ``"identification"`` (:mod:`eslabon.batch.identification_task`).
    kp : float
        The controller's proportional gain on every joint (N·m/rad); 0 when not given.
    kd : float
        The controller's derivative gain on every joint (N·m·s/rad); 0 when not given.
    dt : float
        The RK4 step of ``simulate`` and ``closed_loop`` (s).
    vary : dict
        Parameter name (a key of :data:`PARAMETERS`) → its grid values (list of float)
        or, for random sampling, its range [lo, hi]; in the file's order.
    sampling : dict
        ``{"kind": "grid"}`` or ``{"kind": "random", "n": N, "seed": S}``.
    chunk_size : int
        Samples per chunk (one task, one Parquet part).
    metrics : tuple of str
        The metrics kept (keys of :data:`METRICS`).
    time_series : bool
        Whether the data set keeps t, τ(t) and q(t) of every sample.

    Examples
    --------
    >>> from eslabon.batch import parse_spec
    >>> spec = parse_spec({
    ...     "eslabon_sweep": 1, "model": "planar2", "task": "inverse_dynamics",
    ...     "trajectory": {"goal": [1.0, -0.5], "duration": 0.5, "samples": 11},
    ...     "vary": {"payload_mass": {"values": [0.0, 1.0, 2.0]}}, "chunk_size": 2,
    ... })
    >>> spec.task, spec.goal, spec.vary
    ('inverse_dynamics', (1.0, -0.5), {'payload_mass': [0.0, 1.0, 2.0]})
    >>> spec.chunks()
    [(0, 0, 2), (1, 2, 3)]
    """

    name: str
    model_ref: str
    model_text: str | None
    model_sha256: str
    start: tuple
    goal: tuple
    duration: float
    samples: int
    task: str
    kp: float
    kd: float
    dt: float
    vary: dict
    sampling: dict
    chunk_size: int
    metrics: tuple
    time_series: bool

    def to_dict(self) -> dict:
        """The spec as plain JSON data (tuples become lists), as stored in ``_spec.json``.

        Returns
        -------
        dict
            Field name → value, every value made of str, float, int, bool, None, lists
            and dicts; :meth:`from_dict` reads it back.

        Examples
        --------
        >>> from eslabon.batch import parse_spec
        >>> spec = parse_spec({
        ...     "eslabon_sweep": 1, "model": "planar2", "task": "inverse_dynamics",
        ...     "trajectory": {"goal": [1.0, -0.5], "duration": 0.5, "samples": 11},
        ...     "vary": {"payload_mass": {"values": [0.0, 1.0, 2.0]}}, "chunk_size": 2,
        ... })
        >>> d = spec.to_dict()
        >>> d["goal"], d["metrics"]
        ([1.0, -0.5], ['peak_torque', 'rms_torque'])
        """
        return json.loads(json.dumps(asdict(self)))

    @classmethod
    def from_dict(cls, d, where: str = "spec") -> SweepSpec:
        """The spec of :meth:`to_dict` (``where`` names the source in errors).

        Checks the set of keys and the list-valued fields only; the values are taken as
        they are (they were checked when the spec was parsed).

        Parameters
        ----------
        d : dict
            What :meth:`to_dict` returned (e.g. read back from ``_spec.json``).
        where : str
            The source named in error messages (a file name).

        Returns
        -------
        SweepSpec
            The spec, equal to the one that wrote ``d``.

        Raises
        ------
        ValueError
            ``d`` not a mapping, with keys missing or unknown (a spec of another eslabon
            version), or ``start``, ``goal``, ``metrics`` not lists.
        """
        if not isinstance(d, dict):
            raise ValueError(f"{where}: expected a sweep spec mapping, got {type(d).__name__}")
        expected = {f.name for f in fields(cls)}
        if set(d) != expected:
            missing, unknown = sorted(expected - set(d)), sorted(set(d) - expected)
            raise ValueError(
                f"{where}: not a sweep spec of this eslabon (missing {missing}, unknown {unknown})"
            )
        d = dict(d)
        try:
            d["start"], d["goal"], d["metrics"] = (
                tuple(d[k]) for k in ("start", "goal", "metrics")
            )
        except TypeError:
            raise ValueError(f"{where}: start, goal and metrics must be lists") from None
        return cls(**d)

    def fingerprint(self) -> str:
        """A canonical JSON text of the spec (equal specs, equal text). Keys keep their
        order: the order of ``vary`` is the order of the samples.

        A resume compares it with the stored spec's, and it is what ``_spec.json`` holds.

        Returns
        -------
        str
            ``json.dumps`` of :meth:`to_dict`.
        """
        return json.dumps(self.to_dict())

    def sample_table(self) -> dict:
        """Every sample's parameters: {name: (N,) array}, in a deterministic order (grid:
        row-major over ``vary`` in file order; random: uniform draws from ``seed``).

        Returns
        -------
        dict
            Each varied parameter → ndarray (N,) of its value per sample (its units, see
            :data:`PARAMETERS`), and ``"sample"`` → ndarray (N,) of int, 0..N−1. A grid
            with nothing varied has one sample.

        Raises
        ------
        ValueError
            From numpy, for random sampling with a negative ``seed`` in a spec built
            directly (:func:`parse_spec` refuses it by name).

        Examples
        --------
        >>> from eslabon.batch import parse_spec
        >>> spec = parse_spec({
        ...     "eslabon_sweep": 1, "model": "planar2", "task": "linearize",
        ...     "trajectory": {"goal": [1.0, -0.5]}, "controller": {"kp": 100, "kd": 20},
        ...     "vary": {"kp": {"range": [50, 150], "steps": 3}, "kd": {"values": [10, 20]}},
        ... })
        >>> table = spec.sample_table()
        >>> table["kp"], table["kd"]
        (array([ 50.,  50., 100., 100., 150., 150.]), array([10., 20., 10., 20., 10., 20.]))
        """
        names = list(self.vary)
        if self.sampling["kind"] == "grid":
            rows = list(itertools.product(*(self.vary[k] for k in names))) or [()]
            return {k: np.array([r[i] for r in rows], dtype=float) for i, k in enumerate(names)} | {
                "sample": np.arange(len(rows))
            }
        rng = np.random.default_rng(self.sampling["seed"])
        n = self.sampling["n"]
        table = {}
        for k in names:
            lo, hi = self.vary[k]
            table[k] = rng.uniform(lo, hi, size=n)
        table["sample"] = np.arange(n)
        return table

    def chunks(self) -> list:
        """[(chunk index, first sample, end)], each ``chunk_size`` samples (the last
        may be shorter).

        Returns
        -------
        list of tuple of int
            ``(chunk, first, end)`` for each chunk: it runs the samples first..end−1 of
            :meth:`sample_table` and writes the part ``part-{chunk:05d}.parquet``.
        """
        n = len(self.sample_table()["sample"])
        return [
            (i, a, min(a + self.chunk_size, n)) for i, a in enumerate(range(0, n, self.chunk_size))
        ]


def _number(x, where, *, positive=False, integer=False, nonnegative=False):
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not np.isfinite(x):
        raise ValueError(f"{where}: expected a finite number, got {x!r}")
    if integer and int(x) != x:
        raise ValueError(f"{where}: expected a whole number, got {x!r}")
    if positive and x <= 0:
        raise ValueError(f"{where}: expected > 0, got {x!r}")
    if nonnegative and x < 0:
        raise ValueError(f"{where}: expected >= 0, got {x!r}")
    return int(x) if integer else float(x)


def _check_bound(name, value, where):
    lo, strict, _ = PARAMETERS[name]
    if lo is not None and (value <= lo if strict else value < lo):
        raise ValueError(f"{where}: {name} must be {'>' if strict else '>='} {lo}, got {value}")


def _vary(entry, name, kind, where):
    """Grid values (list) or a random range (lo, hi) for one parameter."""
    if not isinstance(entry, dict) or set(entry) - {"values", "range", "steps"} or not entry:
        raise ValueError(
            f"{where}: expected {{values: [...]}} or {{range: [lo, hi], steps: N}}, got {entry!r}"
        )
    if "values" in entry:
        values = entry["values"]
        if not isinstance(values, list) or not values:
            raise ValueError(f"{where}.values: expected a non-empty list, got {values!r}")
        values = [_number(v, f"{where}.values") for v in values]
        for v in values:
            _check_bound(name, v, where)
        if kind == "random":
            raise ValueError(f"{where}: random sampling takes a range, not values")
        return values
    rng = entry.get("range")
    if not isinstance(rng, list) or len(rng) != 2:
        raise ValueError(f"{where}.range: expected [lo, hi], got {rng!r}")
    lo, hi = (_number(v, f"{where}.range") for v in rng)
    if not lo < hi:
        raise ValueError(f"{where}.range: empty range [{lo}, {hi}] (expected lo < hi)")
    _check_bound(name, lo, where)
    if kind == "random":
        if "steps" in entry:
            raise ValueError(f"{where}.steps: random sampling draws from the range; drop steps")
        return [lo, hi]
    steps = _number(entry.get("steps", 0), f"{where}.steps", positive=True, integer=True)
    if steps < 2:
        raise ValueError(f"{where}.steps: expected at least 2 grid points, got {steps}")
    if steps > MAX_SAMPLES:  # before the grid is built
        raise ValueError(
            f"{where}.steps: expected at most {MAX_SAMPLES} grid points (the samples a "
            f"sweep may have), got {steps}"
        )
    return np.linspace(lo, hi, steps).tolist()


def _vector(x, n, where):
    if not isinstance(x, list) or len(x) != n:
        raise ValueError(f"{where}: expected a list of {n} numbers, got {x!r}")
    return tuple(_number(v, where) for v in x)


def parse_spec(data, base: Path = Path(".")) -> SweepSpec:
    """Check a spec mapping (``base``: the folder model paths are relative to).

    Everything is checked before any work (docs/sweeps.md lists the keys): the version
    key, unknown keys, the model (a zoo name or a model file, read once and hashed; an
    arm with vector coordinates and no mimic joint), the trajectory, the task, the
    controller, the sampling, every varied parameter and its bounds, the metrics against
    the task. Defaults: ``name`` "sweep", ``start`` zeros, ``duration`` 1 s, ``samples``
    201, ``dt`` 1e-3 s, ``sampling`` grid, ``chunk_size`` 16, ``metrics``
    [peak_torque, rms_torque], ``time_series`` false.

    Parameters
    ----------
    data : dict
        The spec as read from YAML: ``eslabon_sweep: 1``, ``model``, ``task``,
        ``trajectory`` (``goal`` required), and optionally the keys above, ``controller``
        ({kp, kd}) and ``vary``.
    base : path-like
        The folder a relative model-file path is taken from (the spec file's folder).

    Returns
    -------
    SweepSpec
        The checked spec.

    Raises
    ------
    ValueError
        Anything wrong, naming the field: a missing or other version, an unknown key or
        parameter, a null value, a model that is neither a zoo name nor a readable model
        file (or is a mobile manipulator, has a quaternion or a mimic joint), a vector of
        the wrong length, an empty range, a grid of fewer than 2 points, a value below a
        parameter's bound, a metric the task cannot produce, a ``closed_loop`` or
        ``linearize`` task without ``kp``.

    Examples
    --------
    >>> from eslabon.batch import parse_spec
    >>> spec = parse_spec({
    ...     "eslabon_sweep": 1, "model": "planar2", "task": "inverse_dynamics",
    ...     "trajectory": {"goal": [1.0, -0.5], "duration": 0.5, "samples": 11},
    ...     "vary": {"payload_mass": {"values": [0.0, 1.0, 2.0]}}, "chunk_size": 2,
    ... })
    >>> spec.model_ref, spec.samples, spec.metrics
    ('planar2', 11, ('peak_torque', 'rms_torque'))
    """
    from .._yaml import check_plain_tree
    from .models import model_sha256, read_model_source

    version = data.get("eslabon_sweep") if isinstance(data, dict) else None
    if type(version) is not int or version != 1:  # true == 1, but is not a version
        raise ValueError("spec: expected a mapping with the version key 'eslabon_sweep: 1'")
    check_plain_tree(data)
    if not isinstance(data.get("name", "sweep"), str) or not data.get("name", "sweep"):
        raise ValueError(f"name: expected a non-empty text, got {data.get('name')!r}")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise ValueError(f"spec: unknown key(s) {unknown}; expected {sorted(_KEYS)}")
    ref = data.get("model")
    if not isinstance(ref, str):
        raise ValueError(f"model: expected a zoo name or a model file, got {ref!r}")
    ref, model_text, model = read_model_source(ref, base)
    if not hasattr(model, "nq"):
        raise ValueError("model: sweeps take an arm model, not a mobile manipulator")
    model.require_vector_space("a sweep (its nominal is a straight line in q)")
    model.require_no_mimic("a sweep")
    n = model.nq
    traj = data.get("trajectory")
    if not isinstance(traj, dict) or set(traj) - {"start", "goal", "duration", "samples"}:
        raise ValueError(
            "trajectory: expected {start: [...], goal: [...], duration: s, samples: K}"
        )
    task = data.get("task")
    if task not in TASKS:
        raise ValueError(f"task: expected one of {TASKS}, got {task!r}")
    controller = data.get("controller") or {}
    if not isinstance(controller, dict) or set(controller) - {"kp", "kd"}:
        raise ValueError(f"controller: expected {{kp: ..., kd: ...}}, got {controller!r}")
    sampling = data.get("sampling") or {"kind": "grid"}
    kind = sampling.get("kind") if isinstance(sampling, dict) else None
    if kind == "grid" and set(sampling) == {"kind"}:
        sampling = {"kind": "grid"}
    elif kind == "random" and set(sampling) <= {"kind", "n", "seed"}:
        sampling = {
            "kind": "random",
            "n": _number(sampling.get("n"), "sampling.n", positive=True, integer=True),
            "seed": _number(
                sampling.get("seed", 0), "sampling.seed", integer=True, nonnegative=True
            ),
        }
    else:
        raise ValueError(
            f"sampling: expected {{kind: grid}} or {{kind: random, n: N, seed: S}}, "
            f"got {sampling!r}"
        )
    vary_in = data.get("vary") or {}
    if not isinstance(vary_in, dict):
        raise ValueError(f"vary: expected a mapping of parameters, got {vary_in!r}")
    bad = sorted(set(vary_in) - set(PARAMETERS))
    if bad:
        raise ValueError(f"vary: unknown parameter(s) {bad}; expected {sorted(PARAMETERS)}")
    vary = {k: _vary(v, k, sampling["kind"], f"vary.{k}") for k, v in vary_in.items()}
    metrics = data.get("metrics") or ["peak_torque", "rms_torque"]
    if not isinstance(metrics, list) or not metrics:
        raise ValueError(f"metrics: expected a non-empty list, got {metrics!r}")
    for m in metrics:
        if m not in METRICS:
            raise ValueError(f"metrics: unknown metric {m!r}; expected {sorted(METRICS)}")
        if task not in METRICS[m]:
            raise ValueError(
                f"metrics: {m} does not apply to task {task} (it needs one of {METRICS[m]})"
            )
    if task in ("closed_loop", "linearize") and "kp" not in controller and "kp" not in vary:
        raise ValueError(f"controller.kp: task {task} needs gains (controller or vary)")
    for k in ("kp", "kd"):
        if k in controller:
            _check_bound(k, _number(controller[k], f"controller.{k}"), f"controller.{k}")
    ts = data.get("time_series", False)
    if not isinstance(ts, bool):
        raise ValueError(f"time_series: expected true or false, got {ts!r}")
    duration = _number(traj.get("duration", 1.0), "trajectory.duration", positive=True)
    dt = _number(data.get("dt", 1e-3), "dt", positive=True)
    samples = _number(traj.get("samples", 201), "trajectory.samples", positive=True, integer=True)
    if task == "identification":
        _check_identification(model, traj, samples)
    chunk_size = _number(data.get("chunk_size", 16), "chunk_size", positive=True, integer=True)
    check_size(task, model, sampling, vary, duration, dt, samples, chunk_size, ts)
    return SweepSpec(
        name=str(data.get("name", "sweep")),
        model_ref=ref,
        model_text=model_text,
        model_sha256=model_sha256(model),
        start=_vector(traj.get("start", [0.0] * n), n, "trajectory.start"),
        goal=_vector(traj.get("goal"), n, "trajectory.goal"),
        duration=duration,
        samples=samples,
        task=task,
        kp=float(controller.get("kp", 0.0)),
        kd=float(controller.get("kd", 0.0)),
        dt=dt,
        vary=vary,
        sampling=sampling,
        chunk_size=chunk_size,
        metrics=tuple(metrics),
        time_series=ts,
    )


def _check_identification(model, traj, samples):
    """An identification sweep needs an excitation range on every joint (goal ≠ start)
    and more torque samples than base parameters."""
    from ..identification import base_parameters

    start = traj.get("start", [0.0] * model.nq)
    goal = traj.get("goal")
    if isinstance(goal, list) and isinstance(start, list) and len(goal) == len(start):
        if any(g == s for g, s in zip(goal, start, strict=True)):
            raise ValueError(
                "trajectory.goal: the identification excitation spans abs(goal − start) "
                "around start on each joint; expected goal ≠ start on every joint"
            )
    count = base_parameters(model).count
    if samples * model.nv <= count:
        raise ValueError(
            f"trajectory.samples: {samples} samples give {samples * model.nv} torques for "
            f"{count} base parameters; expected more"
        )


def load_spec(path) -> SweepSpec:
    """Read and check a spec file.

    Reads the YAML strictly (YAML 1.2 core schema, duplicate keys refused) and checks it
    with :func:`parse_spec`, model-file paths relative to the spec's folder.

    Parameters
    ----------
    path : str or path-like
        The spec file (``.yaml``).

    Returns
    -------
    SweepSpec
        The checked spec.

    Raises
    ------
    ValueError
        No such file; a file that is not valid YAML (naming the line); what
        :func:`parse_spec` refuses.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from eslabon.batch import load_spec
    >>> text = '''
    ... eslabon_sweep: 1
    ... model: planar2
    ... task: inverse_dynamics
    ... trajectory: {goal: [1.0, -0.5], duration: 0.5, samples: 11}
    ... vary:
    ...   payload_mass: {range: [0.0, 2.0], steps: 5}
    ... '''
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "sweep.yaml"
    ...     _ = path.write_text(text, encoding="utf-8")
    ...     spec = load_spec(path)
    >>> spec.vary
    {'payload_mass': [0.0, 0.5, 1.0, 1.5, 2.0]}
    """
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"SPEC: no such sweep spec {str(path)!r}")
    return parse_spec(read_yaml(path), path.parent)
