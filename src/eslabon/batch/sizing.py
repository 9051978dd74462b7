"""How large a sweep may be, checked when its spec is read (:func:`check_size`, called by
:func:`eslabon.batch.parse_spec`): at most :data:`MAX_SAMPLES` samples, and histories
within the memory budget of :func:`eslabon.simulate` for one sample, one chunk and, with
``time_series``, the whole data set.
"""

from __future__ import annotations

import numpy as np

from .._args import check_history_bytes

# The most samples a sweep may have: its sample table (8 bytes per sample and parameter)
# and its list of chunks are built in memory before any work; 1e7 samples is far beyond a
# day's sweep and far below what those take (sampling.n: 1e10 asked for 80 GB each).
MAX_SAMPLES = 10_000_000


def check_size(task, model, sampling, vary, duration, dt, samples, chunk_size, time_series):
    """Refuse, before any work, a sweep too large to run: more than :data:`MAX_SAMPLES`
    samples (``sampling.n``, or the product of the grid's sizes), or histories beyond the
    budget of :func:`eslabon.simulate` (8 GiB; :func:`eslabon._args.check_history_bytes`).

    A sample's history is K times of (t, q, q̇, q̈, τ), nq + 3 nv + 1 numbers of 8 bytes
    (a ``linearize`` sample also holds A and B, 6 n² more); K is ``trajectory.samples``,
    or for ``simulate`` and ``closed_loop`` the RK4 steps + 1 of the longest
    ``trajectory_duration`` (its largest value or range end) at ``dt``. One chunk's
    samples are held at once; with ``time_series`` the data set keeps t, τ, q (2n + 1
    numbers) of every sample, which :func:`eslabon.batch.read_sweep` loads whole.
    Counts are floats: no overflow for absurd values."""
    if sampling["kind"] == "random":
        count, field = sampling["n"], "sampling.n"
    else:
        count, field = 1, "vary"
        for values in vary.values():
            count *= len(values)
    if count > MAX_SAMPLES:
        sizes = " × ".join(str(len(v)) for v in vary.values())
        grid = "" if field == "sampling.n" else f" (a grid of {sizes})"
        raise ValueError(
            f"{field}: {count:g} samples{grid}, more than the {MAX_SAMPLES} a sweep may have; "
            "split it into several sweeps"
        )
    n = model.nv
    per_sample = model.nq + 3 * n + 1 + (6 * n * n if task == "linearize" else 0)
    if task in ("simulate", "closed_loop"):
        longest = max([duration, *vary.get("trajectory_duration", [])])
        K = float(np.ceil(longest / dt - 1e-9)) + 1.0
        fields, why = "trajectory.duration, dt", f"{longest:g} s every {dt:g} s is {K:.4g} samples"
        hint = "use a larger dt or a shorter trajectory.duration"
    else:
        K = float(samples)
        fields, why = "trajectory.samples", f"{samples} points along the motion"
        hint = "use fewer trajectory.samples"
    check_history_bytes(K * per_sample * 8.0, fields, f"{why}, whose histories", hint)
    chunk = min(chunk_size, count)
    check_history_bytes(
        chunk * K * per_sample * 8.0,
        "chunk_size",
        f"{chunk} samples per chunk of {K:.4g} times each, whose histories",
        f"use a smaller chunk_size (or {hint[4:]})",
    )
    if time_series:
        check_history_bytes(
            float(count) * K * (2 * n + 1) * 8.0,
            "time_series",
            f"{count:g} samples of {K:.4g} times (t, τ, q kept for every sample)",
            "turn time_series off, or sweep fewer samples or times",
        )
