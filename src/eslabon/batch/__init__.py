"""Parameter sweeps and data sets (docs/sweeps.md): a YAML spec, chunks of samples run
through the batch kernels, executed serially or on Dask, written as a Parquet data set
that can be resumed."""

from .run import SweepNotice, read_sweep, run_sweep
from .spec import METRICS, PARAMETERS, TASKS, SweepSpec, load_spec, parse_spec

__all__ = [
    "METRICS",
    "PARAMETERS",
    "TASKS",
    "SweepNotice",
    "SweepSpec",
    "load_spec",
    "parse_spec",
    "read_sweep",
    "run_sweep",
]
