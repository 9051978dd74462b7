"""Instrumented operation counts of the compiled kernels (run by :mod:`.opcount`).

Run as ``NUMBA_DISABLE_JIT=1 python -m eslabon.dynamics._opcount_probe METHOD N...``:
with the JIT off the kernels are plain Python, so feeding them object arrays of
:class:`Counted` numbers counts every floating-point operation the kernel source does —
the very code that runs compiled, not a second transcription. Prints JSON
``{N: {"mul": …, "add": …, "div": …, "sqrt": …, "trig": …, "result": …}}``, the result
being what the counted run computed (τ at q = q̇ = q̈, or M), so a test can check that
the counted code is the kernel that runs compiled.

The chain for N is an N-joint revolute chain in standard DH (z joint axes, like the
seed's robots) with full inertial data and no friction, payload or tool.
"""
from __future__ import annotations

import json
import math
import sys

import numpy as np

COUNT = {"mul": 0, "add": 0, "div": 0, "sqrt": 0, "trig": 0}


class Counted(float):
    """A float that counts the arithmetic done on it."""

    def __mul__(a, b):
        COUNT["mul"] += 1
        return Counted(float(a) * float(b))

    __rmul__ = __mul__

    def __add__(a, b):
        COUNT["add"] += 1
        return Counted(float(a) + float(b))

    __radd__ = __add__

    def __sub__(a, b):
        COUNT["add"] += 1
        return Counted(float(a) - float(b))

    def __rsub__(a, b):
        COUNT["add"] += 1
        return Counted(float(b) - float(a))

    def __truediv__(a, b):
        COUNT["div"] += 1
        return Counted(float(a) / float(b))

    def __rtruediv__(a, b):
        COUNT["div"] += 1
        return Counted(float(b) / float(a))

    def __neg__(a):
        return Counted(-float(a))


class _CountingMath:
    """Stands in for ``math`` inside the kernels: counts sin, cos and sqrt."""

    def __getattr__(self, name):
        return getattr(math, name)

    @staticmethod
    def sin(x):
        COUNT["trig"] += 1
        return Counted(math.sin(x))

    @staticmethod
    def cos(x):
        COUNT["trig"] += 1
        return Counted(math.cos(x))

    @staticmethod
    def sqrt(x):
        COUNT["sqrt"] += 1
        return Counted(math.sqrt(x))


def _objects(a):
    out = np.empty(np.shape(a), dtype=object)
    for idx, x in np.ndenumerate(np.asarray(a, dtype=float)):
        out[idx] = Counted(x)
    return out


def chain_model(n: int):
    """The N-joint revolute chain the counts are taken on."""
    from eslabon.zoo import random_chain
    return random_chain(n, seed=1, joints="R" * n, payload=False, tool=False)


def probe_state(n: int):
    """The configuration (and rate, acceleration) the kernels are run at."""
    return np.linspace(0.1, 0.7, n)


def count(method: str, n: int) -> dict:
    """Operation counts and the kernel's result (τ, M's rows, or q̈ at τ = q) for an
    n-joint chain."""
    from eslabon.kinematics import recursion
    from eslabon.kinematics.recursion import WS_COLS
    from . import aba, rnea, walker_orin
    recursion.math = _CountingMath()
    model = chain_model(n)
    P = _objects(model.packed)
    q = _objects(probe_state(n))
    out = _objects(np.zeros(n))
    for k in COUNT:
        COUNT[k] = 0
    if method == "rnea":
        ws = _objects(np.zeros((model.nb + 1, WS_COLS)))
        rnea.rnea_into(P, q, q, q, Counted(1.0), None, ws, out)
    elif method == "walker_orin_3":
        cw = _objects(np.zeros((model.nb + 1, walker_orin._COLS)))
        out = _objects(np.zeros((n, n)))
        walker_orin.crba_into(P, q, cw, out)
    elif method == "aba":
        ws = _objects(np.zeros((model.nb + 1, aba.COLS)))
        aba.aba_into(P, q, q, q, ws, out)
    else:
        raise ValueError(f"method: expected 'rnea', 'walker_orin_3' or 'aba', got {method!r}")
    return dict(COUNT, result=np.asarray(out, dtype=float).tolist())


def main(argv):
    method, sizes = argv[0], [int(x) for x in argv[1:]]
    print(json.dumps({n: count(method, n) for n in sizes}))


if __name__ == "__main__":
    main(sys.argv[1:])
