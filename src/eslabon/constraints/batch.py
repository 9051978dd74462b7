"""Batches of states for the constrained quantities: a function of one state (q, and
q̇, q̈ or τ) called on (N, ·) arrays runs once per state and stacks its outputs.

The constrained formulations are numpy (a dense solve per state); the loop over the
states is Python's, so a batch costs N single calls. Outputs: an array gains the leading
axis N; a named tuple's array fields do, its tuples of row names stay (and ``redundant``
lists the rows redundant at any of the states).
"""

from __future__ import annotations

import functools

import numpy as np


def batched(n_states: int):
    """Decorate a function ``f(model, s_1, …, s_k, **options)`` of one state so that
    2-D state arrays (N states) run row by row."""

    def decorate(func):
        @functools.wraps(func)
        def wrapper(model, *states, **options):
            try:
                first = np.asarray(states[0], dtype=float) if states else None
            except (TypeError, ValueError):  # the function names the field
                first = None
            if first is None or first.ndim != 2:
                return func(model, *states, **options)
            N = first.shape[0]
            rows = []
            for k, s in enumerate(states[:n_states]):
                a = np.asarray(s, dtype=float)
                if a.ndim != 2 or a.shape[0] != N:
                    names = ("q", "qd", "qdd or tau")
                    raise ValueError(
                        f"{names[min(k, 2)]}: a batch takes one row per state, {N} rows "
                        f"like q; got shape {a.shape}"
                    )
                rows.append(a)
            outs = [func(model, *(r[i] for r in rows), *states[n_states:], **options)
                    for i in range(N)]  # fmt: skip
            return _stack(outs)

        return wrapper

    return decorate


def _stack(outs):
    first = outs[0]
    if isinstance(first, np.ndarray):
        return np.stack(outs)
    if isinstance(first, tuple) and hasattr(first, "_fields"):
        fields: dict = {}
        for name, value in zip(first._fields, first, strict=True):
            if isinstance(value, np.ndarray):
                fields[name] = np.stack([getattr(o, name) for o in outs])
            elif name == "redundant":
                fields[name] = tuple(dict.fromkeys(r for o in outs for r in o.redundant))
            else:
                fields[name] = value
        return type(first)(**fields)
    raise TypeError(f"cannot stack {type(first).__name__}")  # every caller returns the above
