"""How many states a lanes block holds (:data:`eslabon._engine.lanes.WIDTH`): chosen once
per process, before any kernel compiles, without importing numba.

Why a choice: a block of ``WIDTH`` states is one ``<WIDTH x double>`` LLVM vector per
scalar of the recursion. 4 doubles fill an AVX2 register; on a CPU with AVX-512 a
vector of 8 fills one 512-bit register: on an AMD Zen 4, inverse and forward dynamics,
the mass matrix and the derivatives of fixed-base arms ran 6–24 % faster per state with
8 than with 4 (benchmarks/RESULTS.md, "Lanes of 4 or 8 doubles"). On a CPU with AVX2
alone an 8-wide vector takes two registers and doubles the recursion's register
pressure (not measured), so 4 stays there. Each lane computes the same IEEE operations
in the same order at either width, so a batch is bit for bit the single calls at both
(tests/test_lanes.py).

The rule (:func:`choose`):

- ``ESLABON_LANES=4`` or ``ESLABON_LANES=8`` in the environment: that width (8 is
  correct on any CPU, LLVM splits the vectors it cannot hold; it was measured faster
  with AVX-512 only);
- else 8 when the code numba generates may use AVX-512F: ``NUMBA_CPU_FEATURES`` names
  ``+avx512f``, or, without ``NUMBA_CPU_FEATURES``, the CPU has it (the ``avx512f`` flag of
  ``/proc/cpuinfo`` on Linux, LLVM's host features elsewhere), ``NUMBA_CPU_NAME`` is not
  ``generic`` and ``NUMBA_ENABLE_AVX`` is not 0 (the settings numba itself reads to pick
  the target's features);
- else 4.

The width is part of the name of the kernels' cache folder
(:func:`eslabon._engine.cachedir._code_hash`), so kernels compiled for one width are
never loaded by a process of the other (numba's own cache index is keyed by the CPU and
its features, not by an environment variable of eslabon's).
"""

from __future__ import annotations

import os
import sys

ENV = "ESLABON_LANES"
WIDTHS = (4, 8)

_chosen: list = []  # [width] once chosen


def _host_flags() -> set | None:
    """The instruction-set flags of the first CPU in ``/proc/cpuinfo`` (Linux); None
    when there is no such file."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if not line.strip():
                    break
                name, _, value = line.partition(":")
                if name.strip() in ("flags", "Features"):
                    return set(value.split())
    except OSError:
        return None
    return set()


def _host_has_avx512f() -> bool:
    flags = _host_flags()
    if flags is not None:
        return "avx512f" in flags
    try:  # not Linux: LLVM's view of the host (what numba asks too)
        import llvmlite.binding as llvm

        return bool(llvm.get_host_cpu_features().get("avx512f", False))
    except Exception:
        return False


def _features_have_avx512f(features: str) -> bool:
    """Whether an LLVM feature string (``+avx2,+avx512f,-sse4a``) enables AVX-512F."""
    tokens = [t.strip() for t in features.split(",")]
    return "+avx512f" in tokens and "-avx512f" not in tokens


def targets_avx512(environ=None, host_has_avx512f=None) -> bool:
    """Whether numba's target for this process may use AVX-512F (see the module's rule).
    ``environ`` and ``host_has_avx512f`` (a callable) stand in for ``os.environ`` and
    the CPU in tests."""
    env = os.environ if environ is None else environ
    host = _host_has_avx512f if host_has_avx512f is None else host_has_avx512f
    features = env.get("NUMBA_CPU_FEATURES")
    if features is not None:
        return _features_have_avx512f(features)
    if env.get("NUMBA_CPU_NAME", "").strip().lower() == "generic":
        return False  # numba compiles for a baseline x86-64 (no features)
    if env.get("NUMBA_ENABLE_AVX", "").strip() == "0":
        return False
    return host()


def choose(environ=None, host_has_avx512f=None) -> int:
    """The lanes width for these settings and this CPU (the module's rule); an
    ``ESLABON_LANES`` that is not 4 or 8 is ignored with one line on stderr."""
    env = os.environ if environ is None else environ
    asked = env.get(ENV, "").strip()
    if asked:
        if asked in ("4", "8"):
            return int(asked)
        stream = sys.stderr
        if stream is not None:
            try:
                print(
                    f"eslabon: {ENV}={asked!r} is not 4 or 8; the width is chosen for "
                    f"this CPU instead",
                    file=stream,
                    flush=True,
                )
            except (OSError, ValueError):
                pass
    return 8 if targets_avx512(env, host_has_avx512f) else 4


def width() -> int:
    """This process's lanes width, chosen once (:func:`choose`)."""
    if not _chosen:
        _chosen.append(choose())
    return _chosen[0]
