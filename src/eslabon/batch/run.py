"""Running a sweep by chunks: each chunk is one task (serially, on an embedded local Dask
cluster, or on an existing Dask scheduler) that writes one Parquet part and its checksum
(:mod:`eslabon.batch.parts`).

Layout of the output folder::

    DIR/_spec.json              the checked spec, model text and hash included
    DIR/part-00000.parquet      one part per chunk; its metadata holds the spec, the
                                versions and the chunk number
    DIR/_part-00000.sha256      the part's checksum, written after it
    DIR/_rejected/              parts a resume found unsound, moved aside

Everything that can fail is checked before anything is written: the libraries, the
folder (and on ``resume`` the spec, the model hash and every part), then the scheduler.
A resume recomputes the missing chunks and the chunks whose part is unsound (moved
aside, with a one-line warning); it refuses a changed spec or model. A start that fails
leaves at most ``_spec.json``, and the same command with the same spec then runs.

No file of the folder is read or written through a symbolic link, and none that is a
FIFO, a device or larger than its cap is read (:mod:`eslabon.batch.parts`): such a name
(``_rejected`` a link included) is refused before anything is written.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import warnings
from concurrent.futures import CancelledError
from dataclasses import dataclass, field
from pathlib import Path

from .._args import caller_stacklevel, whole_number
from .._files import (
    OutputExistsError,
    check_regular,
    managed_folder,
    read_regular,
    remove_stale_temporaries,
    write_text_atomic,
)
from .parts import (
    MAX_SPEC_BYTES,
    check_names,
    check_part,
    checksum_path,
    differing_keys,
    one_line,
    part_chunks,
    part_path,
    write_part,
)
from .spec import SweepSpec
from .tasks import column_names, run_chunk

SPEC_FILE = "_spec.json"
REJECTED = "_rejected"
# one compiled thread per local worker process: the processes are the parallelism
WORKER_ENV = {"NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
_MODEL_KEYS = ("model_ref", "model_text", "model_sha256")


class SweepNotice(UserWarning):
    """Something a sweep repaired on its own (a part moved aside and recomputed)."""


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
    >>> from eslabon.batch.run import plan_run, start, write_chunk
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


def stored_spec(out: Path) -> SweepSpec | None:
    """The spec in ``out/_spec.json`` (None when there is none); a file that is not a
    spec of this eslabon is refused.

    Parameters
    ----------
    out : path-like
        A sweep's folder.

    Returns
    -------
    SweepSpec or None
        The stored spec, or None when the folder holds no ``_spec.json``.

    Raises
    ------
    ValueError
        A ``_spec.json`` that cannot be read as JSON or is not a spec of this eslabon;
        one that is a symbolic link, a FIFO, a device or larger than
        :data:`~eslabon.batch.parts.MAX_SPEC_BYTES` (refused by name, never read).

    Examples
    --------
    >>> import tempfile
    >>> from eslabon.batch.run import stored_spec
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     print(stored_spec(folder))
    None
    """
    path = Path(out) / SPEC_FILE
    if check_regular(path) is None:  # a link, a FIFO or a device is refused by name
        return None
    try:
        raw = read_regular(path, MAX_SPEC_BYTES, what="sweep spec")  # refused by name
    except OSError as exc:
        raise ValueError(
            f"{path}: not a readable sweep spec ({type(exc).__name__}); choose another folder"
        ) from None
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise ValueError(
            f"{path}: not a readable sweep spec ({type(exc).__name__}); choose another folder"
        ) from None
    return SweepSpec.from_dict(data, str(path))


def _spec_change(old: SweepSpec, new: SweepSpec, out: Path) -> str:
    """One clause saying how ``new`` differs from ``old`` (the spec ``out`` holds)."""
    keys = differing_keys(old.to_dict(), new.to_dict())
    if old.model_sha256 != new.model_sha256:
        return (
            f"the model changed since {out} was started (model {new.model_ref}: sha256 "
            f"{new.model_sha256[:12]}… now, {old.model_sha256[:12]}… in {SPEC_FILE})"
        )
    if old.model_ref != new.model_ref:
        return (
            f"the spec names another model than the one {out} was started with "
            f"({new.model_ref} now, {old.model_ref} in {SPEC_FILE}; the same numbers, "
            f"sha256 {new.model_sha256[:12]}…)"
        )
    if any(k in _MODEL_KEYS for k in keys):
        return (
            f"the model file {new.model_ref} changed since {out} was started (its text; "
            f"not its numbers, sha256 {new.model_sha256[:12]}…)"
        )
    return f"the spec differs from the one {out} was started with (in {', '.join(keys)})"


@dataclass
class Plan:
    """What a run will do in its folder: write the spec, move unsound parts aside, run
    the chunks in ``todo`` (index, first sample, end).

    Attributes
    ----------
    out : Path
        The sweep's folder.
    write_spec : bool
        Whether ``_spec.json`` is still to be written (a new sweep).
    todo : list of tuple of int
        The chunks to compute, ``(chunk, first, end)``.
    unsound : list of tuple
        ``(part path, problem, chunk or None)`` for each part to move aside.
    """

    out: Path
    write_spec: bool
    todo: list
    unsound: list = field(default_factory=list)  # (part, problem, chunk or None)


def plan_run(spec: SweepSpec, out, resume: bool) -> Plan:
    """Check the output folder without changing it: refuse a folder that holds another
    sweep, another spec or model, or (without ``resume``) any part; check every part.

    Parameters
    ----------
    spec : SweepSpec
        The sweep to run.
    out : path-like
        Its folder (need not exist yet).
    resume : bool
        Whether parts already written may be kept.

    Returns
    -------
    Plan
        What :func:`start` and the run will do.

    Raises
    ------
    ValueError
        ``out`` is a file; it holds parts but no spec, parts without ``resume``, or a
        spec or model other than ``spec``'s (saying what changed).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from eslabon.batch import parse_spec
    >>> from eslabon.batch.run import plan_run, start, write_chunk
    >>> spec = parse_spec({
    ...     "eslabon_sweep": 1, "model": "planar2", "task": "inverse_dynamics",
    ...     "trajectory": {"goal": [1.0, -0.5], "duration": 0.5, "samples": 11},
    ...     "vary": {"payload_mass": {"values": [0.0, 1.0, 2.0]}}, "chunk_size": 2,
    ... })
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     plan = plan_run(spec, Path(folder) / "sweep", resume=False)
    >>> plan.write_spec, plan.todo, plan.unsound
    (True, [(0, 0, 2), (1, 2, 3)], [])
    """
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out: {out} is a file, expected a folder")
    parts = part_chunks(out) if out.is_dir() else {}
    old = stored_spec(out) if out.is_dir() else None
    if old is None and parts:
        raise ValueError(
            f"--out: {out} holds parts but no {SPEC_FILE}; it is not a sweep "
            "this can resume (choose another folder)"
        )
    if parts and not resume:
        raise ValueError(
            f"--out: {out} already holds a sweep; pass --resume to finish it, "
            "or choose another folder (nothing was overwritten)"
        )
    if old is not None and old.fingerprint() != spec.fingerprint():
        hint = "" if parts else f" (no part written yet: remove {out / SPEC_FILE} to reuse it)"
        raise ValueError(
            f"{'--resume' if resume else '--out'}: {_spec_change(old, spec, out)}{hint}"
        )
    chunks = spec.chunks()
    columns = column_names(spec)
    if out.is_dir():  # nothing is read or written through a link or a special file
        managed_folder(out / REJECTED)
        for c in sorted(set(parts) | {c for c, _, _ in chunks}):
            check_names(out, c)
    unsound = [
        (p, f"is not a chunk of this spec (it has {len(chunks)})", None)
        for c, p in sorted(parts.items())
        if c >= len(chunks)
    ]
    todo = []
    for c, a, b in chunks:
        if c not in parts:
            todo.append((c, a, b))
            continue
        _, problem = check_part(parts[c], spec, c, a, b, columns)
        if problem:
            unsound.append((parts[c], problem, c))
            todo.append((c, a, b))
    return Plan(out, old is None, todo, unsound)


def _move_aside(part: Path) -> Path:
    """Move ``part`` (and its checksum file) into ``_rejected/`` under a free name; a
    ``_rejected`` that is not a real folder (a link) is refused."""
    folder = managed_folder(part.parent / REJECTED, create=True)
    target, n = folder / part.name, 1
    while os.path.lexists(target) or os.path.lexists(checksum_path(target)):
        n += 1
        target = folder / f"{part.stem}-{n}{part.suffix}"
    checksum = checksum_path(part)
    # renames relative to the folders opened now: _rejected swapped for a link after
    # the check above is not followed (O_NOFOLLOW), and a rename moves a name only
    src = os.open(part.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        dst = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            os.rename(part.name, target.name, src_dir_fd=src, dst_dir_fd=dst)
            if os.path.lexists(checksum):
                name = checksum_path(target).name
                os.rename(checksum.name, name, src_dir_fd=src, dst_dir_fd=dst)
        finally:
            os.close(dst)
    finally:
        os.close(src)
    return target


def start(plan: Plan, spec: SweepSpec) -> list:
    """Make the folder a sweep of ``spec``: the spec file, stale temporaries of killed
    writers removed (eslabon's only), unsound parts moved aside with a warning each;
    returns the names moved aside.

    Parameters
    ----------
    plan : Plan
        From :func:`plan_run`.
    spec : SweepSpec
        The sweep.

    Returns
    -------
    list of str
        The file names of the parts moved to ``_rejected/``.

    Raises
    ------
    ValueError
        Another run wrote a different ``_spec.json`` in the folder meanwhile.

    Warns
    -----
    SweepNotice
        For each part moved aside.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from eslabon.batch import parse_spec
    >>> from eslabon.batch.run import plan_run, start, write_chunk
    >>> spec = parse_spec({
    ...     "eslabon_sweep": 1, "model": "planar2", "task": "inverse_dynamics",
    ...     "trajectory": {"goal": [1.0, -0.5], "duration": 0.5, "samples": 11},
    ...     "vary": {"payload_mass": {"values": [0.0, 1.0, 2.0]}}, "chunk_size": 2,
    ... })
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     out = Path(folder) / "sweep"
    ...     moved = start(plan_run(spec, out, resume=False), spec)
    ...     print(moved, [p.name for p in out.iterdir()])
    [] ['_spec.json']
    """
    out = plan.out
    out.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(out)
    if plan.write_spec:
        try:
            write_text_atomic(out / SPEC_FILE, spec.fingerprint(), overwrite=False)
        except OutputExistsError:  # another run started in this folder meanwhile
            old = stored_spec(out)
            if old is None:
                raise ValueError(
                    f"--out: {out / SPEC_FILE} came and went while this run started; run again"
                ) from None
            if old.fingerprint() != spec.fingerprint():
                raise ValueError(f"--out: {_spec_change(old, spec, out)}") from None
    moved = []
    for part, problem, chunk in plan.unsound:
        target = _move_aside(part)
        moved.append(part.name)
        redo = f"recomputing chunk {chunk}" if chunk is not None else "not part of this sweep"
        warnings.warn(
            f"sweep: {part} {problem}; moved to {target}, {redo}",
            SweepNotice,
            stacklevel=caller_stacklevel(),
        )
    return moved


_ADDRESS = re.compile(r"^(tcp|tls|inproc|ws|wss)://[^\s:/]+(:\d+)?$|^[^\s:/]+:\d+$")


def _client(scheduler, workers):
    """A Dask client: an embedded local cluster of ``workers`` processes, or the
    scheduler at ``scheduler`` (checked before any work: one clear error)."""
    from dask.distributed import Client, LocalCluster

    if scheduler is None:
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            env=WORKER_ENV,
        )
        return Client(cluster), cluster
    if not _ADDRESS.match(str(scheduler)):
        raise ValueError(
            f"--scheduler: expected an address like tcp://host:8786, got {scheduler!r}"
        )
    try:
        client = Client(scheduler, timeout="5s")
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        raise ValueError(
            f"--scheduler: no Dask scheduler answers at {scheduler} "
            f"({one_line(exc)}); nothing was written"
        ) from None
    try:
        idle = not client.scheduler_info().get("workers")
    except (OSError, TimeoutError) as exc:
        client.close()
        raise ValueError(
            f"--scheduler: the Dask scheduler at {scheduler} stopped answering "
            f"({one_line(exc)}); nothing was written"
        ) from None
    if idle:
        warnings.warn(
            f"sweep: the Dask scheduler at {scheduler} has no workers yet; the chunks wait for one",
            SweepNotice,
            stacklevel=caller_stacklevel(),
        )
    return client, None


@contextlib.contextmanager
def _quiet_dask_logs():
    """Keep distributed's and tornado's log records below CRITICAL off stderr while a
    sweep runs: a lost scheduler is reported once, as one line, by :func:`run_sweep`."""
    names = [
        n
        for n in list(logging.root.manager.loggerDict)
        if n.split(".")[0] in ("distributed", "tornado")
    ] + ["distributed", "tornado"]
    saved = {n: logging.getLogger(n).level for n in names}
    for n in names:
        logging.getLogger(n).setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for n, level in saved.items():
            logging.getLogger(n).setLevel(level)


def _lost_errors() -> tuple:
    """The exception types that mean the connection to the Dask cluster is gone."""
    from distributed.client import FutureCancelledError
    from distributed.comm.core import CommClosedError

    return (CommClosedError, OSError, TimeoutError, CancelledError, FutureCancelledError)


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
    of the folder is in this module's docstring and docs/sweeps.md.

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

    if serial:
        done["rejected"] = start(plan, spec)
        for c, a, b in plan.todo:
            landed(write_chunk(spec_dict, c, a, b, str(out)))
        return done
    own = client is None
    cluster = None
    with _quiet_dask_logs():
        if own:
            client, cluster = _client(scheduler, workers)
        try:
            done["rejected"] = start(plan, spec)
            _run_on(client, spec, spec_dict, plan, landed, done)
        finally:
            if own:
                with contextlib.suppress(Exception):
                    client.close(timeout=5)
                if cluster is not None:
                    with contextlib.suppress(Exception):
                        cluster.close(timeout=5)
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
    except _lost_errors() as exc:
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
