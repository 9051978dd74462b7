"""Simulation results: times and joint histories, saved to NPZ or CSV."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .._files import atomic_file


@dataclass(frozen=True)
class Trajectory:
    """Sampled motion: ``t`` (K,), ``q``, ``qd``, ``qdd``, ``tau`` (K, n)."""
    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    tau: np.ndarray
    model_name: str = ""

    def save(self, path, *, overwrite: bool = True) -> Path:
        """Write ``.npz`` or ``.csv`` (by extension), atomically: a failed or killed write
        leaves any existing file untouched and no temporary file. The folder must exist;
        ``overwrite=False`` refuses an existing file."""
        path = Path(path)
        suffix = path.suffix.lower()
        if suffix not in (".npz", ".csv"):
            raise ValueError(f"path: expected a .npz or .csv file name, got {str(path)!r}")
        with atomic_file(path, "wb", overwrite=overwrite) as tmp:
            if suffix == ".npz":
                np.savez(tmp, t=self.t, q=self.q, qd=self.qd, qdd=self.qdd, tau=self.tau,
                         model_name=np.array(self.model_name))
            else:
                n = self.q.shape[1]
                header = ",".join(["t"] + [f"{k}{j + 1}" for k in ("q", "qd", "qdd", "tau")
                                           for j in range(n)])
                data = np.column_stack([self.t, self.q, self.qd, self.qdd, self.tau])
                np.savetxt(tmp, data, delimiter=",", header=header, comments="", fmt="%.17g")
        return path

    @classmethod
    def load(cls, path) -> "Trajectory":
        """Read a trajectory written by :meth:`save`."""
        path = Path(path)
        if not path.is_file():
            raise ValueError(f"path: no such file {str(path)!r}")
        if path.suffix.lower() == ".npz":
            with np.load(path) as d:
                return cls(d["t"], d["q"], d["qd"], d["qdd"], d["tau"], str(d["model_name"]))
        if path.suffix.lower() == ".csv":
            data = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
            n = (data.shape[1] - 1) // 4
            return cls(data[:, 0], *(data[:, 1 + k * n:1 + (k + 1) * n] for k in range(4)))
        raise ValueError(f"path: expected a .npz or .csv file, got {str(path)!r}")
