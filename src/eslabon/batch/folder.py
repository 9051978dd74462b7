"""A sweep's output folder: its layout, the checks before a run or a resume
(:func:`plan_run`, which changes nothing) and the making of the folder into a sweep
(:func:`start`).

Layout::

    DIR/_spec.json              the checked spec, model text and hash included
    DIR/part-00000.parquet      one part per chunk; its metadata holds the spec, the
                                versions and the chunk number
    DIR/_part-00000.sha256      the part's checksum, written after it
    DIR/_rejected/              parts a resume found unsound, moved aside

:func:`plan_run` refuses a folder that holds another sweep, another spec or model, or
(without ``resume``) any part, and checks every part; :func:`start` writes the spec,
removes stale temporaries of killed writers and moves the unsound parts aside (with a
one-line warning each), so that the run recomputes them. A start that fails leaves at
most ``_spec.json``, and the same command with the same spec then runs.

No file of the folder is read or written through a symbolic link, and none that is a
FIFO, a device or larger than its cap is read (:mod:`eslabon.batch.parts`): such a name
(``_rejected`` a link included) is refused before anything is written.
"""

from __future__ import annotations

import json
import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from .._args import caller_stacklevel
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
    SweepNotice,
    check_names,
    check_part,
    checksum_path,
    differing_keys,
    part_chunks,
)
from .spec import SweepSpec
from .tasks import column_names

SPEC_FILE = "_spec.json"
REJECTED = "_rejected"
_MODEL_KEYS = ("model_ref", "model_text", "model_sha256")


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
    >>> from eslabon.batch.folder import stored_spec
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
    >>> from eslabon.batch.folder import plan_run, start
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
    >>> from eslabon.batch.folder import plan_run, start
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
