"""Running a sweep by chunks: each chunk is one task (serially, on an embedded local Dask
cluster, or on an existing Dask scheduler) that writes one Parquet part and its checksum
(:mod:`eslabon.batch.parts`); reading the data set back, every part checked.

Everything that can fail is checked before anything is written: the libraries, the
folder (and on ``resume`` the spec, the model hash and every part:
:mod:`eslabon.batch.folder`, which also gives the folder's layout), then the scheduler
(:mod:`eslabon.batch.cluster`, which also says how Ctrl-C is handled). A resume
recomputes the missing chunks and the chunks whose part is unsound (moved aside, with a
one-line warning); it refuses a changed spec or model.
"""

from __future__ import annotations

import contextlib
import hashlib
from pathlib import Path

from .._args import whole_number
from .cluster import (
    SCHEDULER_TIMEOUT,
    WORKER_ENV,
    SweepInterrupted,
    connect,
    disconnect,
    lost_errors,
    quiet_dask_logs,
)
from .folder import REJECTED, SPEC_FILE, Plan, plan_run, start, stored_spec
from .parts import (
    SweepNotice,
    check_names,
    check_part,
    one_line,
    part_chunks,
    part_path,
    write_part,
)
from .spec import SweepSpec
from .tasks import column_names, run_chunk

# names that moved to the modules above, still importable from here
__all__ = [
    "REJECTED",
    "SCHEDULER_TIMEOUT",
    "SPEC_FILE",
    "WORKER_ENV",
    "Plan",
    "SweepInterrupted",
    "SweepNotice",
    "plan_run",
    "read_sweep",
    "run_sweep",
    "start",
    "stored_spec",
    "write_chunk",
]


def write_chunk(spec_dict: dict, chunk: int, first: int, end: int, out: str) -> tuple:
    """The task of one chunk: compute it, write its part and checksum; (chunk, ok,
    failed). Takes plain data so that it pickles to any Dask worker.

    Parameters
    ----------
    spec_dict : dict
        :meth:`SweepSpec.to_dict` of the sweep.
    chunk : int
        The chunk's index (names the part ``part-{chunk:05d}.parquet``).
    first, end : int
        The samples first..end−1 of :meth:`SweepSpec.sample_table`.
    out : str
        The sweep's folder (existing).

    Returns
    -------
    tuple of int
        ``(chunk, ok, failed)``: the index, the samples computed and the samples whose
        task raised (recorded in the part's ``error`` column, not raised).

    Raises
    ------
    ValueError
        A ``spec_dict`` that is not a spec of this eslabon; a model that does not hash to
        the spec's ``model_sha256``; an unwritable part.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from eslabon.batch import parse_spec
    >>> from eslabon.batch.folder import plan_run, start
    >>> from eslabon.batch.run import write_chunk
    >>> spec = parse_spec({
    ...     "eslabon_sweep": 1, "model": "planar2", "task": "inverse_dynamics",
    ...     "trajectory": {"goal": [1.0, -0.5], "duration": 0.5, "samples": 11},
    ...     "vary": {"payload_mass": {"values": [0.0, 1.0, 2.0]}}, "chunk_size": 2,
    ... })
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     _ = start(plan_run(spec, folder, resume=False), spec)
    ...     print(write_chunk(spec.to_dict(), 0, 0, 2, folder))
    (0, 2, 0)
    """
    spec = SweepSpec.from_dict(spec_dict)
    rows = run_chunk(spec, first, end)
    write_part(out, chunk, rows, spec_dict)
    failed = sum(e is not None for e in rows["error"])
    return chunk, len(rows["sample"]) - failed, failed


def _require(serial: bool):
    """Refuse, before any work, a missing optional library (one line naming it)."""
    needed = ["pyarrow", "pandas"] + ([] if serial else ["dask.distributed"])
    for name in needed:
        try:
            __import__(name)
        except ImportError:
            raise ValueError(
                f"sweep: needs {name.split('.')[0]} (pip install "
                f"'eslabon[sweep]'); nothing was written"
            ) from None


def run_sweep(
    spec: SweepSpec,
    out,
    *,
    scheduler: str | None = None,
    workers: int = 2,
    resume: bool = False,
    serial: bool = False,
    on_chunk=None,
    client=None,
) -> dict:
    """Run every chunk not yet written soundly; ``serial`` runs them in this process (no
    Dask); ``client`` uses an existing ``dask.distributed.Client`` (left open).
    ``on_chunk(chunk, ok, failed)`` is called as each part lands. Returns a summary:
    chunks, skipped (sound parts kept), ok and failed samples of this run, rejected
    (parts moved aside). A lost scheduler raises a one-line OSError.

    Everything is checked before anything is written: the libraries (pyarrow and
    pandas; dask.distributed unless ``serial`` or ``client``), the folder (another
    sweep's, a changed spec or model, parts without ``resume``, every part on
    ``resume``) and the scheduler. A sample whose task raises is recorded in the data
    set's ``error`` column and counted as failed; it does not stop the sweep. The layout
    of the folder is in :mod:`eslabon.batch.folder` and docs/sweeps.md.

    Parameters
    ----------
    spec : SweepSpec
        The sweep (:func:`parse_spec`, :func:`load_spec`).
    out : str or path-like
        The data set's folder; created (with its parents) if missing.
    scheduler : str, optional
        The address of an existing Dask scheduler (``tcp://host:8786``); by default an
        embedded local cluster of ``workers`` processes.
    workers : int
        Processes of the local cluster (≥ 1).
    resume : bool
        Keep the sound parts of an earlier run of the same spec and compute the rest
        (unsound parts are moved to ``_rejected/``).
    serial : bool
        Run the chunks one after the other in this process, without Dask.
    on_chunk : callable, optional
        ``on_chunk(chunk, ok, failed)``, called in this process as each part is written.
    client : dask.distributed.Client, optional
        A client to submit to (left open); ``scheduler`` and ``workers`` are then unused.

    Returns
    -------
    dict
        ``chunks`` (int, all of the spec), ``skipped`` (int, sound parts kept), ``ok``
        and ``failed`` (int, samples of this run) and ``rejected`` (list of str, parts
        moved aside).

    Raises
    ------
    ValueError
        ``workers`` not a whole number ≥ 1; a missing library; an ``out`` that is a file,
        holds another sweep, another spec or model, or parts without ``resume``; a bad
        or unreachable scheduler address. Nothing is written then.
    OSError
        The Dask scheduler went away, or a chunk's worker died three times (rerun with
        ``resume=True``).
    SweepInterrupted
        Ctrl-C (a KeyboardInterrupt): the cluster is closed, the parts written stay, and
        the message says how many and to rerun with ``resume=True``.
    Exception
        A chunk task's own error, raised as it is.

    Warns
    -----
    SweepNotice
        A part moved aside and recomputed; a scheduler with no workers yet.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from eslabon.batch import parse_spec, read_sweep, run_sweep
    >>> spec = parse_spec({
    ...     "eslabon_sweep": 1, "model": "planar2", "task": "inverse_dynamics",
    ...     "trajectory": {"goal": [1.0, -0.5], "duration": 0.5, "samples": 11},
    ...     "vary": {"payload_mass": {"values": [0.0, 1.0, 2.0]}}, "chunk_size": 2,
    ... })
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     summary = run_sweep(spec, Path(folder) / "sweep", serial=True)
    ...     data = read_sweep(Path(folder) / "sweep")
    >>> summary
    {'chunks': 2, 'skipped': 0, 'ok': 3, 'failed': 0, 'rejected': []}
    >>> data.shape, list(data["payload_mass"])
    ((3, 7), [0.0, 1.0, 2.0])
    """
    if not serial and client is None:
        workers = whole_number(workers, "--workers", 1)
    _require(serial or client is not None)
    plan = plan_run(spec, out, resume)
    total = len(spec.chunks())
    done = {
        "chunks": total,
        "skipped": total - len(plan.todo),
        "ok": 0,
        "failed": 0,
        "rejected": [],
    }
    spec_dict = spec.to_dict()

    def landed(result):
        chunk, ok, failed = result
        done["ok"] += ok
        done["failed"] += failed
        if on_chunk:
            on_chunk(chunk, ok, failed)

    try:
        if serial:
            done["rejected"] = start(plan, spec)
            for c, a, b in plan.todo:
                landed(write_chunk(spec_dict, c, a, b, str(out)))
            return done
        own = client is None
        with quiet_dask_logs():
            if own:  # a Ctrl-C while the local cluster starts is raised once it is up
                client, cluster = connect(scheduler, workers)
            try:
                done["rejected"] = start(plan, spec)
                _run_on(client, spec, spec_dict, plan, landed, done)
            finally:
                if own:
                    disconnect(client, cluster)
    except KeyboardInterrupt:  # parts are written atomically: the folder resumes
        written = len(part_chunks(Path(out))) if Path(out).is_dir() else 0
        raise SweepInterrupted(
            f"sweep: interrupted with {written} of {total} chunks written in {out}; "
            "rerun with --resume to finish"
        ) from None
    return done


def _run_on(client, spec, spec_dict, plan, landed, done):
    """Submit the chunks of ``plan`` to ``client`` and collect them; a task's own error
    is raised as it is, a lost cluster as one OSError naming the scheduler."""
    from dask.distributed import as_completed
    from distributed.scheduler import KilledWorker

    address = getattr(client.scheduler, "address", None) or "(unknown address)"
    folder = str(plan.out.resolve())
    futures = []
    failure = None
    finished = done["skipped"]
    try:
        # a key of this spec and folder: two sweeps on one cluster never share a task
        run_id = hashlib.sha256((spec.fingerprint() + folder).encode()).hexdigest()[:12]
        futures = [
            client.submit(
                write_chunk,
                spec_dict,
                c,
                a,
                b,
                folder,
                key=f"eslabon-{spec.name}-{run_id}-chunk-{c}",
                pure=False,
                retries=2,
            )
            for c, a, b in plan.todo
        ]
        for fut in as_completed(futures):
            if fut.status == "error":
                failure = fut.exception()
                break
            landed(fut.result())
            finished += 1
    except lost_errors() as exc:
        raise OSError(
            f"sweep: the Dask scheduler at {address} went away after {finished} of "
            f"{done['chunks']} chunks ({one_line(exc, 80)}); rerun with --resume "
            "to finish"
        ) from None
    finally:
        with contextlib.suppress(Exception):
            client.cancel([f for f in futures if f.status == "pending"])
    if isinstance(failure, KilledWorker):
        raise OSError(
            f"sweep: a chunk's worker died 3 times ({one_line(failure)}); "
            "rerun with --resume to finish the others"
        ) from None
    if failure is not None:
        raise failure


def read_sweep(out, *, partial: bool = False):
    """The data set in ``out`` as a pandas DataFrame sorted by sample, every part checked
    (chunk, spec, columns, rows, sample ids, checksum) against ``out/_spec.json``. An
    unsound part raises a ValueError naming it; so do missing chunks, unless ``partial``
    (then the sound parts present are returned).

    Needs pyarrow and pandas (``pip install eslabon[sweep]``).

    Parameters
    ----------
    out : str or path-like
        The folder :func:`run_sweep` wrote.
    partial : bool
        Accept missing chunks (an unfinished sweep) and return the parts present.

    Returns
    -------
    pandas.DataFrame
        One row per sample, sorted by ``sample``: the column ``sample``, the varied
        parameters (in their units, see :data:`PARAMETERS`), the metric columns
        (``peak_torque_1`` …, N·m or N; ``energy`` J; ``tracking_error`` rad or m;
        ``stability`` 1/s; …), ``error`` (missing where the sample ran, else the
        exception's type and message, with NaN metrics), and with ``time_series`` the
        list columns ``t_series``, ``tau_series``, ``q_series``.

    Raises
    ------
    ValueError
        No ``_spec.json`` in ``out``; a part that is not a chunk of the spec or is unsound
        (spec, columns, rows, sample ids, checksum); missing chunks unless ``partial``;
        no part at all.
        pyarrow or pandas is not installed (one line with the install command).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from eslabon.batch import parse_spec, read_sweep, run_sweep
    >>> spec = parse_spec({
    ...     "eslabon_sweep": 1, "model": "planar2", "task": "inverse_dynamics",
    ...     "trajectory": {"goal": [1.0, -0.5], "duration": 0.5, "samples": 11},
    ...     "vary": {"payload_mass": {"values": [0.0, 1.0, 2.0]}}, "chunk_size": 2,
    ... })
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     _ = run_sweep(spec, Path(folder) / "sweep", serial=True)
    ...     data = read_sweep(Path(folder) / "sweep")
    >>> list(data.columns)  # doctest: +NORMALIZE_WHITESPACE
    ['sample', 'payload_mass', 'peak_torque_1', 'peak_torque_2', 'rms_torque_1',
     'rms_torque_2', 'error']
    """
    _require(serial=True)
    import pyarrow as pa

    out = Path(out)
    spec = stored_spec(out) if out.is_dir() else None
    if spec is None:
        raise ValueError(f"DIR: {out} holds no sweep (no {SPEC_FILE})")
    chunks = spec.chunks()
    parts = part_chunks(out)
    extra = sorted(c for c in parts if c >= len(chunks))
    if extra:
        raise ValueError(
            f"{parts[extra[0]]}: is not a chunk of this sweep (it has "
            f"{len(chunks)}); move it out of {out}"
        )
    columns = column_names(spec)
    tables, missing = [], []
    for c, a, b in chunks:
        if c not in parts:
            missing.append(c)
            continue
        check_names(out, c)
        table, problem = check_part(parts[c], spec, c, a, b, columns)
        if problem:
            raise ValueError(
                f"{parts[c]}: {problem}; `eslabon sweep SPEC --out {out} "
                "--resume` moves it aside and recomputes it"
            )
        tables.append(table)
    if missing and not partial:
        raise ValueError(
            f"DIR: {out} lacks {len(missing)} of {len(chunks)} chunks "
            f"({', '.join(part_path(out, c).name for c in missing[:3])}"
            f"{', …' if len(missing) > 3 else ''}); finish it with --resume"
        )
    if not tables:
        raise ValueError(f"DIR: no sweep parts in {out}")
    return pa.concat_tables(tables).to_pandas().sort_values("sample").reset_index(drop=True)
