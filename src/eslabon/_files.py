"""Writing user files so that nothing already saved is lost: every writer goes through a
temporary file beside the target, renamed over it only once it is complete."""
from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

TEMPORARY_PREFIX = ".tmp-"   # a file left by a killed writer starts with this


@contextmanager
def atomic_path(path):
    """Yield a temporary name beside ``path``; on success it replaces ``path`` (with the
    usual file mode), on failure it is removed and any existing ``path`` is untouched."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=TEMPORARY_PREFIX, suffix=path.suffix)
    os.close(fd)
    try:
        yield tmp
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def write_text_atomic(path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` through :func:`atomic_path`; returns the path."""
    path = Path(path)
    with atomic_path(path) as tmp:
        Path(tmp).write_text(text, encoding="utf-8")
    return path
