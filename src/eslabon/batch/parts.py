"""The Parquet parts of a sweep and their checks: what makes a part belong to a data set.

A chunk ``c`` of samples ``first..end−1`` is stored as ``part-ccccc.parquet``; its schema
metadata holds the spec (``eslabon.spec``), the library versions and the chunk number
(``eslabon.chunk``). Once the part is in place, a checksum file ``_part-ccccc.sha256``
(the ``sha256sum`` format: ``<hex>  part-ccccc.parquet``) is written beside it; both
writes are atomic. The leading underscore keeps the checksum files out of Parquet
data-set readers (pyarrow and pandas skip ``_`` and ``.`` names).

:func:`check_part` says what is wrong with a part, if anything: unreadable, another
chunk's or another spec's, other columns, other rows or sample ids, no checksum, or bytes
that differ from its checksum. Every byte of the file is covered by the checksum.

Every file of the folder is read with :func:`eslabon._files.read_regular` and written
with ``follow_symlinks=False``: a part, checksum or spec that is a symbolic link, a FIFO,
a device or larger than its cap (:data:`MAX_PART_BYTES`, :data:`MAX_CHECKSUM_BYTES`,
:data:`MAX_SPEC_BYTES`) is refused by name (:class:`~eslabon._files.UnsafeFileError`, a
ValueError), never read, written through or moved aside.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from pathlib import Path

import numpy as np

from .._files import atomic_file, check_regular, read_regular
from .spec import SweepSpec
from .tasks import SERIES

PART_NAME = re.compile(r"^part-(\d{5,})\.parquet$")
MAX_PART_BYTES = 2 * 2**30
"""Largest part read (2 GiB; a part is read whole, and a chunk is meant to be far smaller)."""
MAX_CHECKSUM_BYTES = 1024
"""Largest checksum file read (its one line is about 90 bytes)."""
MAX_SPEC_BYTES = 128 * 2**20
"""Largest ``_spec.json`` read (it carries the model's text: a URDF may have 50 MiB)."""
_CHECKSUM_LINE = re.compile(r"^([0-9a-f]{64})  (\S+)\n?$")


class SweepNotice(UserWarning):
    """Something a sweep repaired on its own (a part moved aside and recomputed)."""


def part_path(out, chunk: int) -> Path:
    """The part of chunk ``chunk`` in the folder ``out``."""
    return Path(out) / f"part-{chunk:05d}.parquet"


def checksum_path(part: Path) -> Path:
    """The checksum file of ``part`` (``_<stem>.sha256`` beside it)."""
    return part.with_name(f"_{part.stem}.sha256")


def part_chunks(out) -> dict:
    """{chunk number: path} of every file named like a part in ``out``."""
    found = {}
    for p in Path(out).glob("part-*.parquet"):
        m = PART_NAME.match(p.name)
        if m:
            found[int(m[1])] = p
    return found


def versions() -> dict:
    """Versions of the libraries that computed a part (None for one not installed)."""
    import numba
    import pyarrow

    from .. import __version__

    try:
        import dask

        dask_version = dask.__version__
    except ImportError:
        dask_version = None
    return {
        "eslabon": __version__,
        "numpy": np.__version__,
        "numba": numba.__version__,
        "dask": dask_version,
        "pyarrow": pyarrow.__version__,
    }


def write_part(out, chunk: int, rows: dict, spec_dict: dict) -> Path:
    """Write the columns ``rows`` of chunk ``chunk`` as its part, then its checksum file
    (the sha256 of exactly the bytes written); returns the part's path."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    kinds = {"sample": pa.int64(), "error": pa.string()}
    kinds.update({k: pa.list_(pa.float64()) for k in SERIES})
    table = pa.table(rows, schema=pa.schema([(k, kinds.get(k, pa.float64())) for k in rows]))
    meta = {
        b"eslabon.spec": json.dumps(spec_dict).encode(),
        b"eslabon.versions": json.dumps(versions(), sort_keys=True).encode(),
        b"eslabon.chunk": str(chunk).encode(),
    }
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), **meta})
    buffer = io.BytesIO()
    pq.write_table(table, buffer)
    data = buffer.getvalue()
    part = part_path(out, chunk)
    with atomic_file(part, follow_symlinks=False) as fh:
        fh.write(data)
    with atomic_file(checksum_path(part), "w", follow_symlinks=False) as fh:
        fh.write(f"{hashlib.sha256(data).hexdigest()}  {part.name}\n")
    return part


def one_line(exc: BaseException, width: int = 120) -> str:
    """``Type: first line of the message`` of an exception, at most ``width`` characters."""
    text = str(exc).strip().splitlines()
    line = f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__
    return line if len(line) <= width else line[: width - 1] + "…"


def differing_keys(a, b) -> list:
    """The keys whose values differ between the spec mappings ``a`` and ``b`` (mappings
    in the same order: the order of ``vary`` is the order of the samples)."""
    if not isinstance(a, dict) or not isinstance(b, dict):
        return ["(the whole spec)"]
    return sorted(k for k in set(a) | set(b) if json.dumps(a.get(k)) != json.dumps(b.get(k)))


def _recorded_checksum(part: Path):
    """(sha256 recorded for ``part``, problem): one of them is None."""
    path = checksum_path(part)
    try:
        text = read_regular(path, MAX_CHECKSUM_BYTES, what="checksum file").decode("utf-8")
    except FileNotFoundError:
        return None, f"has no checksum file {path.name}"
    except (OSError, UnicodeDecodeError) as exc:
        return None, f"has an unreadable checksum file {path.name} ({type(exc).__name__})"
    m = _CHECKSUM_LINE.match(text)
    if m is None:
        return None, (f"has a checksum file {path.name} that is not '<sha256>  {part.name}'")
    if m[2] != part.name:
        return None, f"has a checksum file {path.name} that names {m[2]}"
    return m[1], None


def check_part(part: Path, spec: SweepSpec, chunk: int, first: int, end: int, columns: list):
    """(table, problem) of the part of chunk ``chunk`` (samples ``first..end−1``, columns
    ``columns``): the table when the part is sound (problem None), else None and one
    clause saying what is wrong. The bytes are read once: the checksum and the table are
    of the same bytes. A part or checksum file that is a link, a special file or too
    large raises :class:`~eslabon._files.UnsafeFileError` (nothing to move aside: the
    folder needs a look)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        data = read_regular(part, MAX_PART_BYTES, what="sweep part")
    except OSError as exc:
        return None, f"is unreadable ({exc.strerror or type(exc).__name__})"
    try:
        table = pq.read_table(pa.BufferReader(data))
        meta = table.schema.metadata or {}
        written_chunk = int(meta[b"eslabon.chunk"])
        written_spec = json.loads(meta[b"eslabon.spec"])
        written_columns = table.column_names
        samples = (
            table.column("sample").to_numpy(zero_copy_only=False)
            if "sample" in written_columns
            else None
        )
    except Exception as exc:  # any damage: Arrow, metadata, JSON, names
        return None, f"is not a readable part ({one_line(exc, 100)})"
    if written_chunk != chunk:
        return None, f"holds chunk {written_chunk}, expected chunk {chunk}"
    keys = differing_keys(written_spec, spec.to_dict())
    if keys:
        return None, f"was written by another spec (differs in {', '.join(keys)})"
    if written_columns != columns:
        missing = [c for c in columns if c not in written_columns]
        unexpected = [c for c in written_columns if c not in columns]
        how = (
            f"missing {missing}, unexpected {unexpected}"
            if missing or unexpected
            else "in another order"
        )
        return None, f"has other columns than the spec's ({how})"
    if table.num_rows != end - first:
        return (
            None,
            f"holds {table.num_rows} row(s), expected {end - first} (samples {first}..{end - 1})",
        )
    if not np.array_equal(samples, np.arange(first, end)):
        return (
            None,
            f"holds samples {samples.min()}..{samples.max()} in another set or "
            f"order, expected {first}..{end - 1}",
        )
    recorded, problem = _recorded_checksum(part)
    if problem:
        return None, problem
    found = hashlib.sha256(data).hexdigest()
    if found != recorded:
        return None, f"fails its checksum (sha256 {found[:12]}…, recorded {recorded[:12]}…)"
    return table, None


def check_names(out, chunk: int) -> None:
    """Refuse (:class:`~eslabon._files.UnsafeFileError`) a part or checksum name of
    chunk ``chunk`` in ``out`` that exists and is not a regular file: before a part is
    written there."""
    part = part_path(out, chunk)
    check_regular(part)
    check_regular(checksum_path(part))
