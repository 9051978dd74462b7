"""Measured data for identification read from a file, checked before any estimate.

The format is the one :meth:`eslabon.sim.Trajectory.save` writes, so a simulated run can be
identified as it is:

- CSV: a header ``t,q:<q name>…,qd:<v name>…,tau:<v name>…`` with the names of the model's
  coordinates (``model.q_names``, ``model.v_names``), then one row of numbers per sample.
  Columns ``qdd:<v name>`` are optional (used only when no filter cut-off is given); other
  columns are ignored, and the columns may come in any order.
- NPZ: arrays ``t`` (N,), ``q`` (N, nq), ``qd`` (N, nv), ``tau`` (N, nv), optionally ``qdd``,
  and ``q_names``, ``v_names`` (when present they must be the model's).

Units: seconds, rad and rad/s (m, m/s for prismatic joints), N·m (N). Every check names the
file, the column and the row (row 1 is the first sample, on the line after the header).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import numpy as np

# a revolute joint swept by more than this over a file is taken for degrees [rad]
MAX_REVOLUTE_RANGE = 4.0 * np.pi
# a revolute joint's rate above this is taken for degrees per second [rad/s]
MAX_REVOLUTE_RATE = 100.0
# qd within this fraction of 180/π (or π/180) times dq/dt says one of them is in degrees
DEGREE_MATCH = 0.2
# times are evenly spaced when every step is within this fraction of the median step
STEP_TOLERANCE = 1e-3


@dataclass(frozen=True)
class Measurements:
    """Samples read from a data file (:func:`read_measurements`).

    Attributes
    ----------
    path : pathlib.Path
        The file read.
    t : ndarray ``(N,)``
        Sample times [s], increasing and evenly spaced.
    q : ndarray ``(N, nq)``
        Positions.
    qd : ndarray ``(N, nv)``
        Rates.
    tau : ndarray ``(N, nv)``
        Joint torques [N·m] (forces [N] for prismatic joints).
    qdd : ndarray ``(N, nv)`` or None
        Accelerations when the file has them.
    """

    path: Path
    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    tau: np.ndarray
    qdd: np.ndarray | None = None


def _columns(model) -> dict:
    return {
        "q": [f"q:{n}" for n in model.q_names],
        "qd": [f"qd:{n}" for n in model.v_names],
        "tau": [f"tau:{n}" for n in model.v_names],
        "qdd": [f"qdd:{n}" for n in model.v_names],
    }


def _read_csv(path: Path, model) -> dict:
    wanted = _columns(model)
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            rows = list(csv.reader(fh))
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a text CSV file") from None
    if not rows:
        raise ValueError(f"{path}: empty file; expected a header t,q:…,qd:…,tau:…")
    header = [h.strip() for h in rows[0]]
    required = ["t"] + wanted["q"] + wanted["qd"] + wanted["tau"]
    missing = [c for c in required if c not in header]
    if missing:
        raise ValueError(
            f"{path}: missing column(s) {', '.join(missing)} (header has {', '.join(header)}); "
            "expected t, q:<name>, qd:<name>, tau:<name> with the model's coordinate names"
        )
    values = np.empty((len(rows) - 1, len(header)))
    for k, row in enumerate(rows[1:], start=1):
        if len(row) != len(header):
            raise ValueError(
                f"{path}: row {k} (line {k + 1}): {len(row)} values for {len(header)} columns"
            )
        for j, cell in enumerate(row):
            try:
                values[k - 1, j] = float(cell)
            except ValueError:
                raise ValueError(
                    f"{path}: column {header[j]!r}, row {k} (line {k + 1}): {cell!r} "
                    "is not a number"
                ) from None
    index = {h: j for j, h in enumerate(header)}
    out = {key: values[:, [index[c] for c in cols]] for key, cols in wanted.items() if key != "qdd"}
    out["t"] = values[:, index["t"]]
    if all(c in index for c in wanted["qdd"]):
        out["qdd"] = values[:, [index[c] for c in wanted["qdd"]]]
    return out


def _read_npz(path: Path, model) -> dict:
    import zipfile

    try:
        with np.load(path, allow_pickle=False) as d:
            arrays = {k: d[k] for k in d.files}
    except (zipfile.BadZipFile, EOFError, OSError, ValueError) as exc:
        raise ValueError(f"{path}: not a readable .npz file ({type(exc).__name__})") from None
    missing = [k for k in ("t", "q", "qd", "tau") if k not in arrays]
    if missing:
        raise ValueError(f"{path}: missing array(s) {', '.join(missing)}; expected t, q, qd, tau")
    for key, names in (("q_names", model.q_names), ("v_names", model.v_names)):
        if key in arrays and tuple(str(x) for x in arrays[key]) != tuple(names):
            raise ValueError(
                f"{path}: {key}: {[str(x) for x in arrays[key]]} are not the model's "
                f"coordinates {list(names)}"
            )
    out = {}
    for key, width in (("t", None), ("q", model.nq), ("qd", model.nv), ("tau", model.nv)):
        a = np.asarray(arrays[key], dtype=float)
        expected = (a.shape[0],) if width is None else (a.shape[0], width)
        if a.ndim != len(expected) or a.shape != expected:
            shape = "(N,)" if width is None else f"(N, {width})"
            raise ValueError(f"{path}: column {key!r}: expected shape {shape}, got {a.shape}")
        out[key] = a
    if "qdd" in arrays and np.shape(arrays["qdd"]) == out["qd"].shape:
        out["qdd"] = np.asarray(arrays["qdd"], dtype=float)
    return out


def _names(model, key: str) -> list:
    return list(model.q_names if key == "q" else model.v_names)


def _check(path: Path, model, fields: dict):
    n = fields["t"].shape[0]
    for key in ("q", "qd", "tau", "qdd"):
        if key in fields and fields[key].shape[0] != n:
            raise ValueError(
                f"{path}: column {key!r}: {fields[key].shape[0]} rows, but t has {n} "
                "(unequal lengths)"
            )
    for key in ("t", "q", "qd", "tau", "qdd"):
        if key not in fields:
            continue
        a = fields[key].reshape(n, -1)
        bad = ~np.isfinite(a)
        if bad.any():
            row, col = np.argwhere(bad)[0]
            name = "t" if key == "t" else f"{key}:{_names(model, key)[col]}"
            raise ValueError(
                f"{path}: column {name!r}, row {row + 1}: {a[row, col]} is not finite "
                "(the first bad row)"
            )
    if n < 3:
        raise ValueError(f"{path}: column 't': {n} samples; expected many more")
    t = fields["t"]
    step = np.diff(t)
    if np.any(step <= 0.0):
        row = int(np.flatnonzero(step <= 0.0)[0]) + 2
        raise ValueError(
            f"{path}: column 't', row {row}: time {t[row - 1]:.9g} does not increase "
            f"(previous {t[row - 2]:.9g}); expected increasing times"
        )
    median = float(np.median(step))
    uneven = np.abs(step - median) > STEP_TOLERANCE * median
    if uneven.any():
        row = int(np.flatnonzero(uneven)[0]) + 2
        raise ValueError(
            f"{path}: column 't', row {row}: step {step[row - 2]:.6g} s differs from the "
            f"usual {median:.6g} s; expected evenly spaced times (resample the data)"
        )
    revolute = [j for j, kind in enumerate(model.joint_types) if kind == "revolute"]
    if model.nq == model.nv:  # one coordinate per rate: the q column of rate j is column j
        for j in revolute:
            span = float(np.ptp(fields["q"][:, j]))
            if span > MAX_REVOLUTE_RANGE:
                raise ValueError(
                    f"{path}: column 'q:{model.q_names[j]}': the revolute joint sweeps "
                    f"{span:.4g} over the file, more than 4π rad; degrees? expected radians"
                )
        _check_rate_units(path, model, fields, revolute)
    for j in revolute:
        peak = np.abs(fields["qd"][:, j])
        if peak.max() > MAX_REVOLUTE_RATE:
            row = int(np.argmax(peak > MAX_REVOLUTE_RATE)) + 1
            rate = fields["qd"][row - 1, j]
            raise ValueError(
                f"{path}: column 'qd:{model.v_names[j]}', row {row}: {rate:.4g} "
                f"rad/s is implausibly fast (above {MAX_REVOLUTE_RATE:g}); degrees per second? "
                "expected rad/s"
            )


def _check_rate_units(path: Path, model, fields: dict, revolute: list):
    """Refuse a revolute joint whose qd column is 180/π times (or π/180 times) the time
    derivative of its q column: one of the two is in degrees."""
    t, n = fields["t"], fields["t"].size
    for j in revolute:
        dq = np.gradient(fields["q"][:, j], t)
        scale = float(dq @ dq)
        if not scale > 0.0:
            continue
        ratio = float(fields["qd"][:, j] @ dq) / scale  # qd ≈ ratio · dq/dt
        for factor, hint in (
            (np.degrees(1.0), "qd in degrees per second"),
            (np.radians(1.0), "q in degrees"),
        ):
            if abs(ratio / factor - 1.0) < DEGREE_MATCH:
                raise ValueError(
                    f"{path}: column 'qd:{model.v_names[j]}', rows 1 to {n}: the rates are "
                    f"{ratio:.4g} times the derivative of 'q:{model.q_names[j]}'; {hint}? "
                    "expected rad and rad/s"
                )


def read_measurements(path, model) -> Measurements:
    """Read and check a data file of measured positions, rates and torques (module docstring).

    Parameters
    ----------
    path : str or path-like
        A ``.csv`` or ``.npz`` file, the format :meth:`eslabon.sim.Trajectory.save` writes.
    model : Model
        The robot: its ``q_names`` and ``v_names`` name the columns.

    Returns
    -------
    Measurements
        t, q, qd, tau (and qdd when the file has it), every value finite, times increasing
        and evenly spaced.

    Raises
    ------
    ValueError
        One line naming the file, the column and the row: a missing file or columns (all of
        them listed), rows of unequal length, a value that is not a number or not finite
        (the first bad row), times that do not increase or are unevenly spaced, a revolute
        joint that sweeps more than 4π rad, turns faster than 100 rad/s, or whose rates are
        180/π or π/180 times the derivative of its positions (degrees?).

    Examples
    --------
    >>> import tempfile, numpy as np, eslabon as es
    >>> from pathlib import Path
    >>> from eslabon.identification.data_file import read_measurements
    >>> arm = es.zoo.load("planar2")
    >>> traj = es.simulate(arm, [0.1, 0.2], None, 0.1, 0.01)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     data = read_measurements(traj.save(Path(folder) / "run.csv"), arm)
    >>> data.q.shape, data.tau.shape, bool(np.allclose(data.q, traj.q))
    ((11, 2), (11, 2), True)
    """
    path = Path(path)
    if not path.is_file():
        what = "is a folder" if path.is_dir() else "does not exist"
        raise ValueError(f"{path}: the data file {what}")
    suffix = path.suffix.lower()
    if suffix == ".csv":
        fields = _read_csv(path, model)
    elif suffix == ".npz":
        fields = _read_npz(path, model)
    else:
        raise ValueError(f"{path}: expected a .csv or .npz data file")
    _check(path, model, fields)
    return Measurements(
        path=path,
        t=fields["t"],
        q=fields["q"],
        qd=fields["qd"],
        tau=fields["tau"],
        qdd=fields.get("qdd"),
    )


def check_sample_count(data: Measurements, count: int, nv: int, cutoff: float | None):
    """Refuse data too short for ``count`` base parameters once the filter's start-up
    transient (3 / cutoff s at either end) is dropped.

    Parameters
    ----------
    data : Measurements
        What :func:`read_measurements` read.
    count : int
        The number of base parameters r.
    nv : int
        The model's rates.
    cutoff : float or None
        The filter's cut-off [Hz], or None when the file's accelerations are used.

    Raises
    ------
    ValueError
        Fewer usable samples than 2 r / nv, naming the file.
    """
    from .estimate import TRANSIENT

    t = data.t
    used = t.size
    if cutoff is not None:
        used = int(
            np.count_nonzero((t >= t[0] + TRANSIENT / cutoff) & (t <= t[-1] - TRANSIENT / cutoff))
        )
    needed = int(np.ceil(2 * count / nv))
    if used < needed:
        raise ValueError(
            f"{data.path}: column 't': {used} usable samples"
            + (
                ""
                if cutoff is None
                else f" (after dropping {TRANSIENT / cutoff:.3g} s at either end)"
            )
            + f" for {count} base parameters; expected at least {needed}"
        )
