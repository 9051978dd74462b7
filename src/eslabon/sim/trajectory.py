"""Simulation results: times and joint histories, saved to NPZ or CSV."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .._files import atomic_file


@dataclass(frozen=True)
class Trajectory:
    """Sampled motion: ``t`` (K,), ``q``, ``qd``, ``qdd``, ``tau`` (K, n).

    What :func:`eslabon.simulate` returns; :meth:`save` writes it to ``.npz`` or ``.csv``
    and :meth:`load` reads it back. Row k of every array is sample k; K samples, n
    rates, nq coordinates.

    Attributes
    ----------
    t : ndarray ``(K,)``
        Sample times [s], increasing (from 0 for a simulation).
    q : ndarray ``(K, nq)``
        Configurations: rad (revolute), m (prismatic), unit quaternions (x, y, z, w) for
        spherical and free-flyer joints.
    qd : ndarray ``(K, n)``
        Joint rates [rad/s, m/s].
    qdd : ndarray ``(K, n)``
        Joint accelerations [rad/s², m/s²] at each sample.
    tau : ndarray ``(K, n)``
        Joint torques [N·m, N] applied at each sample (without the wrenches' share).
    model_name : str
        The simulated model's name (``""`` when read from CSV, which does not store it).
    q_names, v_names : tuple of str
        The names of q's columns and of the rates' (:attr:`eslabon.Model.q_names`,
        ``v_names``), as :func:`eslabon.simulate` gives them; empty when unknown (a
        trajectory built by hand, or a CSV file with a numbered header).
    constraint_names : tuple of str
        A constrained run's rows, ``"<constraint>.<axis>"``
        (:func:`eslabon.constraints.constraint_names`); empty for a tree.
    constraint_force : ndarray ``(K, m)`` or None
        λ of each row at each sample [N, N·m]: what frame A exerts on frame B (a contact:
        the world on the robot) at B's origin, in A's axes; a rolling wheel's row, the
        ground's force on the wheel at its contact point along the row's direction.
    constraint_residual : ndarray ``(K,)`` or None
        ‖φ‖∞ at each sample [m, rad]: how far the integration strayed from the
        constraints.
    energy : ndarray ``(K,)`` or None
        T + V at each sample [J] of a constrained run; the constraints do no work, so
        without torques and friction it stays at its start up to the integrator's error.

    Examples
    --------
    >>> import eslabon as es
    >>> traj = es.simulate(es.zoo.load("planar2"), None, None, 0.05, 0.01)
    >>> traj.model_name, traj.t.round(6).tolist()
    ('planar2', [0.0, 0.01, 0.02, 0.03, 0.04, 0.05])
    >>> traj.q.shape, traj.qd.shape, traj.qdd.shape, traj.tau.shape
    ((6, 2), (6, 2), (6, 2), (6, 2))
    """

    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    tau: np.ndarray
    model_name: str = ""
    q_names: tuple = ()
    v_names: tuple = ()
    constraint_names: tuple = ()
    constraint_force: np.ndarray | None = None
    constraint_residual: np.ndarray | None = None
    energy: np.ndarray | None = None

    def save(self, path, *, overwrite: bool = True) -> Path:
        """Write ``.npz`` or ``.csv`` (by extension), atomically: a failed or killed write
        leaves any existing file untouched and no temporary file. The folder must exist;
        ``overwrite=False`` refuses an existing file.

        NPZ holds the arrays ``t``, ``q``, ``qd``, ``qdd``, ``tau`` and ``model_name``
        bit for bit, ``q_names``, ``v_names`` when known and a constrained run's
        ``constraint_names``, ``constraint_force``, ``constraint_residual`` and
        ``energy``; CSV (joint histories only) one row per sample at
        17 significant digits (exact round trip), without the model's name, under the
        header ``t,q:<q name>…,qd:<v name>…,qdd:<v name>…,tau:<v name>…`` (``q:FL_HAA``,
        ``q:root_joint.qw``; UTF-8) when the names are known and hold no comma, quote or
        line break and no space at either end, else
        ``t,q1..q<nq>,qd1..qd<n>,qdd1..qdd<n>,tau1..tau<n>``.

        Parameters
        ----------
        path : str or path-like
            The file to write, ending in ``.npz`` or ``.csv`` (any case).
        overwrite : bool
            Replace an existing file (default); False refuses it.

        Returns
        -------
        pathlib.Path
            ``path``, as written.

        Raises
        ------
        ValueError
            Another extension, a folder that does not exist, ``path`` naming a folder, or
            (``overwrite=False``) an existing file (``OutputExistsError``, a ValueError).
        """
        path = Path(path)
        suffix = path.suffix.lower()
        if suffix not in (".npz", ".csv"):
            raise ValueError(f"path: expected a .npz or .csv file name, got {str(path)!r}")
        with atomic_file(path, "wb", overwrite=overwrite) as tmp:
            if suffix == ".npz":
                names: dict[str, Any] = {}
                if self.q_names and self.v_names:
                    names = {
                        "q_names": np.array(self.q_names, dtype=str),
                        "v_names": np.array(self.v_names, dtype=str),
                    }
                if self.constraint_force is not None:
                    names.update(
                        constraint_names=np.array(self.constraint_names, dtype=str),
                        constraint_force=self.constraint_force,
                        constraint_residual=self.constraint_residual,
                        energy=self.energy,
                    )
                np.savez(
                    tmp,
                    t=self.t,
                    q=self.q,
                    qd=self.qd,
                    qdd=self.qdd,
                    tau=self.tau,
                    model_name=np.array(self.model_name),
                    **names,
                )
            else:
                header = ",".join(["t"] + _csv_columns(self))
                data = np.column_stack([self.t, self.q, self.qd, self.qdd, self.tau])
                np.savetxt(
                    tmp, data, delimiter=",", header=header, comments="", fmt="%.17g",
                    encoding="utf-8",
                )  # fmt: skip
        return path

    def plot(self, quantity: str = "q", *, path=None, title: str | None = None):
        """The joint histories of one quantity against time, one line per joint, as a
        matplotlib figure (:func:`eslabon.viz.plot_joint_history`; needs the extra
        ``eslabon[viz]``). In a notebook the cell shows it; ``path`` also writes it.

        Parameters
        ----------
        quantity : {"q", "qd", "qdd", "tau"}
            Positions (rad, m), rates (rad/s, m/s), accelerations (rad/s², m/s²) or
            torques (N·m, N).
        path : str or path-like, optional
            An image file to write (``.png``, ``.svg``, ``.pdf`` …), atomically; its
            folder must exist. By default nothing is written.
        title : str, optional
            The title; by default "<model name>: <quantity>".

        Returns
        -------
        matplotlib.figure.Figure
            The figure, not registered with pyplot (nothing to close).

        Raises
        ------
        ValueError
            matplotlib is not installed; an unknown ``quantity``; with ``path``: its
            folder does not exist, it is a folder, or a suffix matplotlib cannot write.

        Examples
        --------
        >>> import eslabon as es
        >>> traj = es.simulate(es.zoo.load("planar2"), None, None, 0.05, 0.01)
        >>> fig = traj.plot("tau", title="torques")
        >>> fig.axes[0].get_title(), len(fig.axes[0].lines)
        ('torques', 2)
        """
        from ..viz.plots import plot_joint_history

        return plot_joint_history(self, quantity, path=path, title=title)

    @classmethod
    def load(cls, path) -> Trajectory:
        """Read a trajectory written by :meth:`save`. Anything else — a missing or extra
        array, a wrong header, ragged or non-numeric rows, shapes that disagree, times that
        do not increase, NaN or inf — is refused with a ValueError naming the file and
        the field.

        Parameters
        ----------
        path : str or path-like
            A ``.npz`` or ``.csv`` file, at most 2 GiB.

        Returns
        -------
        Trajectory
            The arrays as float64 (``model_name`` ``""`` from a CSV file).

        Raises
        ------
        ValueError
            No such file, another extension, a file over 2 GiB, or a content that is not
            a trajectory (as above).

        Examples
        --------
        >>> import tempfile
        >>> from pathlib import Path
        >>> import numpy as np
        >>> import eslabon as es
        >>> traj = es.simulate(es.zoo.load("planar2"), None, None, 0.05, 0.01)
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     path = traj.save(Path(folder) / "run.csv")
        ...     back = es.Trajectory.load(path)
        >>> bool(np.array_equal(back.q, traj.q)), back.model_name
        (True, '')
        """
        path = Path(path)
        if not path.is_file():
            raise ValueError(f"path: no such file {str(path)!r}")
        suffix = path.suffix.lower()
        if suffix not in (".npz", ".csv"):
            raise ValueError(f"path: expected a .npz or .csv file, got {str(path)!r}")
        if path.stat().st_size > MAX_FILE_BYTES:
            raise ValueError(
                f"{path}: {path.stat().st_size / 2**20:.0f} MiB is more than "
                f"{MAX_FILE_BYTES // 2**20} MiB, the limit for a trajectory file"
            )
        fields = _read_npz(path) if suffix == ".npz" else _read_csv(path)
        return cls(**_checked_names(_checked(fields, path), path))


MAX_FILE_BYTES = 2 * 2**30
_ARRAYS = ("t", "q", "qd", "qdd", "tau")
_NAMES = ("q_names", "v_names")
_CONSTRAINED = ("constraint_force", "constraint_residual", "energy")  # with constraint_names
_CSV_UNSAFE = re.compile(r'[,"\r\n\u2028\u2029]|^\s|\s$')  # a name a header cannot hold


def _columns(nq: int, n: int, names=None) -> list[str]:
    """The CSV header's columns after ``t``: by the names (q_names, v_names) given
    (``q:FL_HAA``), else numbered (``q1``)."""
    if names is not None:
        qn, vn = names
        return [f"q:{x}" for x in qn] + [f"{k}:{x}" for k in _ARRAYS[2:] for x in vn]
    return [f"q{j + 1}" for j in range(nq)] + [f"{k}{j + 1}" for k in _ARRAYS[2:] for j in range(n)]


def _csv_columns(traj) -> list[str]:
    """:func:`_columns` of a trajectory: by name when it has names a header can hold."""
    nq, n = traj.q.shape[1], traj.qd.shape[1]  # nq > n: quaternions in q
    qn, vn = tuple(traj.q_names), tuple(traj.v_names)
    if len(qn) == nq and len(vn) == n and not any(_CSV_UNSAFE.search(x) for x in qn + vn):
        return _columns(nq, n, (qn, vn))
    return _columns(nq, n)


def _checked_names(fields: dict, path) -> dict:
    """q_names (nq,) and v_names (nv,) as tuples of text, or both empty."""
    out = dict(fields)
    qn, vn = tuple(out.get("q_names", ())), tuple(out.get("v_names", ()))
    if (qn or vn) and (len(qn) != out["q"].shape[1] or len(vn) != out["qd"].shape[1]):
        raise ValueError(
            f"{path}: q_names, v_names: expected {out['q'].shape[1]} and "
            f"{out['qd'].shape[1]} names, got {len(qn)} and {len(vn)}"
        )
    out["q_names"], out["v_names"] = qn, vn
    return out


def _read_npz(path: Path) -> dict:
    import zipfile

    if not zipfile.is_zipfile(path):
        raise ValueError(f"{path}: not a readable .npz file (not a zip archive)")
    try:
        with np.load(path, allow_pickle=False) as d:
            names = set(d.files)
            missing = [k for k in _ARRAYS if k not in names]
            if missing:
                raise ValueError(
                    f"{path}: missing array(s) {missing}; a trajectory holds "
                    f"{list(_ARRAYS)} and model_name"
                )
            known = set(_ARRAYS) | {"model_name", "constraint_names"} | set(_NAMES)
            extra = sorted(names - known - set(_CONSTRAINED))
            if extra:
                raise ValueError(
                    f"{path}: unexpected array(s) {extra} (not a trajectory "
                    "written by eslabon simulate?)"
                )
            out = {k: d[k] for k in _ARRAYS}
            name = d["model_name"] if "model_name" in names else np.array("")
            if "constraint_force" in names:
                out.update({k: d[k] for k in _CONSTRAINED if k in names})
            for k in _NAMES + ("constraint_names",):
                if k in names:
                    a = d[k]
                    if a.ndim != 1 or a.dtype.kind != "U":
                        raise ValueError(f"{path}: {k}: expected a list of names, got {a!r}")
                    out[k] = tuple(str(x) for x in a)
    except (zipfile.BadZipFile, EOFError, OSError) as exc:
        raise ValueError(
            f"{path}: not a readable .npz file ({type(exc).__name__}: "
            f"{str(exc).splitlines()[0] if str(exc) else 'truncated'})"
        ) from None
    except ValueError as exc:
        if str(exc).startswith(str(path)):
            raise
        raise ValueError(f"{path}: not a trajectory .npz file ({exc})") from None
    if name.shape != () or name.dtype.kind != "U":
        raise ValueError(f"{path}: model_name: expected one text value, got {name!r}")
    out["model_name"] = str(name)
    return out


def _read_csv(path: Path) -> dict:
    import warnings

    try:
        with open(path, encoding="utf-8") as fh, warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # "no data": said below
            header = fh.readline().rstrip("\r\n").split(",")
            data = np.loadtxt(fh, delimiter=",", ndmin=2)
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a text file") from None
    except ValueError as exc:
        raise ValueError(
            f"{path}: expected rows of numbers after the header ({str(exc).splitlines()[0]})"
        ) from None
    cols = len(header) - 1
    named = len(header) > 1 and header[1].startswith("q:")
    nq = sum(1 for h in header if (h.startswith("q:") if named else re.fullmatch(r"q[0-9]+", h)))
    n = (cols - nq) // 3
    qn, vn = (
        tuple(h[2:] for h in header[1 : 1 + nq]),
        tuple(h[3:] for h in header[1 + nq : 1 + nq + n]),
    )
    expected = ["t"] + _columns(nq, n, (qn, vn) if named else None)
    if cols < 4 or n < 1 or nq < n or header != expected:
        raise ValueError(
            f"{path}: header: expected t,q1..qn,qd1..qdn,qdd1..qddn,tau1..taun or "
            f"t,q:<name>..,qd:<name>..,qdd:<name>..,tau:<name>.., got "
            f"{','.join(header)[:80]!r}"
        )
    if data.size == 0:
        raise ValueError(f"{path}: no samples after the header")
    if data.shape[1] != len(header):
        raise ValueError(
            f"{path}: expected {len(header)} columns as the header, got {data.shape[1]}"
        )
    out: dict[str, Any] = {"t": data[:, 0], "q": data[:, 1 : 1 + nq]}
    out.update(
        {k: data[:, 1 + nq + i * n : 1 + nq + (i + 1) * n] for i, k in enumerate(_ARRAYS[2:])}
    )
    out["model_name"] = ""
    if named:
        out["q_names"], out["v_names"] = qn, vn
    return out


def _checked(fields: dict, path: Path) -> dict:
    """Shapes that agree, real finite numbers, times increasing."""
    out = dict(fields)
    for k in _ARRAYS:
        a = np.asarray(fields[k])
        if a.dtype.kind not in "fiu":
            raise ValueError(f"{path}: {k}: expected real numbers, got dtype {a.dtype}")
        out[k] = np.ascontiguousarray(a, dtype=np.float64)
    t, q = out["t"], out["q"]
    if t.ndim != 1 or len(t) < 1:
        raise ValueError(f"{path}: t: expected a 1-D array of sample times, got shape {t.shape}")
    if q.ndim != 2 or q.shape[0] != len(t) or q.shape[1] < 1:
        raise ValueError(
            f"{path}: q: expected shape ({len(t)}, n), one row per time, got {q.shape}"
        )
    qd = out["qd"]
    if qd.ndim != 2 or qd.shape[0] != len(t) or not 1 <= qd.shape[1] <= q.shape[1]:
        raise ValueError(
            f"{path}: qd: expected shape ({len(t)}, nv) with nv <= nq = {q.shape[1]} "
            f"(nq > nv when q holds quaternions), got {qd.shape}"
        )
    for k in _ARRAYS[3:]:
        if out[k].shape != qd.shape:
            raise ValueError(
                f"{path}: {k}: expected the shape of qd, {qd.shape}, got {out[k].shape}"
            )
    for k in _ARRAYS:
        bad = ~np.isfinite(out[k])
        if bad.any():
            idx = tuple(int(i) for i in np.argwhere(bad)[0])
            raise ValueError(
                f"{path}: {k}: expected finite values, got {out[k][bad][0]} at "
                f"index {idx[0] if len(idx) == 1 else idx}"
            )
    if "constraint_force" in fields:
        _check_constrained(out, path)
    if len(t) > 1 and not np.all(np.diff(t) > 0):
        i = int(np.flatnonzero(np.diff(t) <= 0)[0])
        raise ValueError(f"{path}: t: expected increasing times, got {t[i]} then {t[i + 1]}")
    return out


def _check_constrained(out: dict, path) -> None:
    """A constrained run's λ (K, m), residual (K,) and energy (K,), finite, and its m
    row names."""
    K = len(out["t"])
    names = tuple(out.get("constraint_names", ()))
    shapes = {"constraint_force": (K, len(names)), "constraint_residual": (K,), "energy": (K,)}
    for k, shape in shapes.items():
        if k not in out:
            raise ValueError(f"{path}: {k}: missing beside constraint_force")
        a = np.asarray(out[k])
        if a.dtype.kind not in "fiu" or a.shape != shape or not np.all(np.isfinite(a)):
            raise ValueError(f"{path}: {k}: expected finite numbers of shape {shape}")
        out[k] = np.ascontiguousarray(a, dtype=np.float64)
    out["constraint_names"] = names
