"""Running a sweep by chunks: each chunk is one task (serially, on an embedded local Dask
cluster, or on an existing Dask scheduler) that writes one Parquet part atomically.

Layout of the output folder::

    DIR/_spec.json          the checked spec (resuming requires the same one)
    DIR/part-00000.parquet  one part per chunk; its metadata holds the spec and versions

A part is written to a temporary name and renamed into place, so a part that exists is
complete. ``resume`` skips the chunks whose part exists: after a killed process or a
lost worker, rerunning computes only the rest, and no sample is lost or written twice
(a chunk computed twice by a retried task renames the same rows onto the same name).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

from .._files import atomic_file, remove_stale_temporaries, write_text_atomic
from .spec import SweepSpec
from .tasks import run_chunk

SPEC_FILE = "_spec.json"
# one compiled thread per local worker process: the processes are the parallelism
WORKER_ENV = {"NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}


def part_path(out: Path, chunk: int) -> Path:
    return Path(out) / f"part-{chunk:05d}.parquet"


def versions() -> dict:
    import dask
    import numba
    import pyarrow

    from .. import __version__
    return {"eslabon": __version__, "numpy": np.__version__, "numba": numba.__version__,
            "dask": dask.__version__, "pyarrow": pyarrow.__version__}


def write_chunk(spec_dict: dict, chunk: int, first: int, end: int, out: str) -> tuple:
    """The task of one chunk: compute it, write its part atomically; (chunk, ok, failed).
    Takes plain data so that it pickles to any Dask worker."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    spec = SweepSpec.from_dict(spec_dict)
    rows = run_chunk(spec, first, end)
    kinds = {"sample": pa.int64(), "error": pa.string()}
    kinds.update({k: pa.list_(pa.float64()) for k in ("t_series", "tau_series", "q_series")})
    table = pa.table(rows, schema=pa.schema([(k, kinds.get(k, pa.float64())) for k in rows]))
    meta = {b"eslabon.spec": json.dumps(spec_dict).encode(),
            b"eslabon.versions": json.dumps(versions(), sort_keys=True).encode(),
            b"eslabon.chunk": str(chunk).encode()}
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), **meta})
    final = part_path(Path(out), chunk)
    with atomic_file(final) as fh:
        pq.write_table(table, fh)
    failed = sum(e is not None for e in rows["error"])
    return chunk, len(rows["sample"]) - failed, failed


_ADDRESS = re.compile(r"^(tcp|tls|inproc|ws|wss)://[^\s:/]+(:\d+)?$|^[^\s:/]+:\d+$")


def _client(scheduler, workers):
    """A Dask client: an embedded local cluster of ``workers`` processes, or the
    scheduler at ``scheduler`` (checked before any work: one clear error)."""
    from dask.distributed import Client, LocalCluster
    if scheduler is None:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None, env=WORKER_ENV)
        return Client(cluster), cluster
    if not _ADDRESS.match(str(scheduler)):
        raise ValueError(f"--scheduler: expected an address like tcp://host:8786, got "
                         f"{scheduler!r}")
    try:
        return Client(scheduler, timeout="5s"), None
    except (OSError, TimeoutError) as exc:
        raise ValueError(f"--scheduler: no Dask scheduler answers at {scheduler} "
                         f"({type(exc).__name__})") from None


def prepare(spec: SweepSpec, out, resume: bool) -> list:
    """Check the output folder; the chunks still to run."""
    out = Path(out)
    spec_file = out / SPEC_FILE
    parts = sorted(out.glob("part-*.parquet")) if out.is_dir() else []
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out: {out} is a file, expected a folder")
    if spec_file.exists() or parts:
        if not resume:
            raise ValueError(f"--out: {out} already holds a sweep; pass --resume to finish it, "
                             "or choose another folder (nothing was overwritten)")
        if not spec_file.exists() or json.loads(spec_file.read_text()) != json.loads(
                spec.fingerprint()):
            raise ValueError(f"--resume: the spec differs from the one {out} was started with")
    out.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(out)          # named writes cut short by a kill, ours only
    if not spec_file.exists():
        write_text_atomic(spec_file, spec.fingerprint())
    return [c for c in spec.chunks() if not part_path(out, c[0]).exists()]


def run_sweep(spec: SweepSpec, out, *, scheduler: str | None = None, workers: int = 2,
              resume: bool = False, serial: bool = False, on_chunk=None, client=None) -> dict:
    """Run every chunk not yet written; ``serial`` runs them in this process (no Dask);
    ``client`` uses an existing ``dask.distributed.Client`` (left open). ``on_chunk(chunk,
    ok, failed)`` is called as each part lands. Returns a summary."""
    if not serial and (not isinstance(workers, int) or workers < 1):
        raise ValueError(f"--workers: expected a whole number >= 1, got {workers!r}")
    todo = prepare(spec, out, resume)
    total = len(spec.chunks())
    done = {"chunks": total, "skipped": total - len(todo), "ok": 0, "failed": 0}
    spec_dict = spec.to_dict()

    def landed(result):
        chunk, ok, failed = result
        done["ok"] += ok
        done["failed"] += failed
        if on_chunk:
            on_chunk(chunk, ok, failed)
    if serial:
        for c, a, b in todo:
            landed(write_chunk(spec_dict, c, a, b, str(out)))
        return done
    from dask.distributed import as_completed
    own = client is None
    if own:
        client, cluster = _client(scheduler, workers)
    try:
        futures = [client.submit(write_chunk, spec_dict, c, a, b, str(Path(out).resolve()),
                                 key=f"eslabon-{spec.name}-chunk-{c}", pure=False, retries=2)
                   for c, a, b in todo]
        for fut in as_completed(futures):
            landed(fut.result())
    finally:
        if own:
            client.close()
            if cluster is not None:
                cluster.close()
    return done


def read_sweep(out):
    """The data set as a pandas DataFrame sorted by sample."""
    import pyarrow.parquet as pq
    parts = sorted(Path(out).glob("part-*.parquet"))
    if not parts:
        raise ValueError(f"DIR: no sweep parts in {out}")
    import pyarrow as pa
    return pa.concat_tables([pq.read_table(p) for p in parts]).to_pandas() \
        .sort_values("sample").reset_index(drop=True)
