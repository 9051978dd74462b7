"""Operation counts of the compiled kernels, instrumented: for Rojas (1987) eqs 4.4.3–4, 4.5.2.

:mod:`.opcount` runs it and sets its counts beside those Rojas Salgado (1987) §4.4–4.5
and *Práctica 3* §3.3 state.

Run as ``NUMBA_DISABLE_JIT=1 python -m eslabon.dynamics.opcount_instrumented METHOD N...``:
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

import dataclasses
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


def _counted_sincos(x):
    """Stands in for the kernels' inline sin and cos (:mod:`eslabon._engine.sincos`):
    one sine and one cosine, counted as two trig calls like any library's, not as the
    polynomial arithmetic that computes them."""
    COUNT["trig"] += 2
    return Counted(math.sin(x)), Counted(math.cos(x))


def _count_trig_as_calls():
    from eslabon._engine import joints

    joints.sincos_near = _counted_sincos  # type: ignore[assignment]  # a counting stand-in


NUMPY_COUNT = {
    "mul": 0,
    "add": 0,
    "div": 0,
    "sqrt": 0,
    "trig": 0,
    "solve": 0,
    "basis": 0,
    "check": 0,
}


class Counting(np.ndarray):
    """A float array that counts the floating-point work numpy does on it: element-wise
    ufuncs by output size, matmul as m·n·k products and m·n·(k − 1) sums, cross products
    as 6 products and 3 sums per vector, linear solves and inverses as LU (n³/3 products
    and sums, plus n² per right-hand side), eigenvalue checks and the SVD that picks the
    constraint basis W in their own categories."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        args = [np.asarray(x) if isinstance(x, Counting) else x for x in inputs]
        if "out" in kwargs:  # in place (a += b): the plain array under the view
            kwargs["out"] = tuple(np.asarray(x) for x in kwargs["out"])
        out = getattr(ufunc, method)(*args, **kwargs)
        size = np.size(out)
        name = ufunc.__name__
        if method == "reduce":
            size = np.size(args[0]) - size  # a reduction of k terms costs k − 1
        if name == "matmul":
            k = np.shape(args[0])[-1]
            NUMPY_COUNT["mul"] += size * k
            NUMPY_COUNT["add"] += size * (k - 1)
        elif name in ("add", "subtract"):
            NUMPY_COUNT["add"] += size
        elif name == "multiply":
            NUMPY_COUNT["mul"] += size
        elif name in ("true_divide", "divide", "reciprocal"):
            NUMPY_COUNT["div"] += size
        elif name == "sqrt":
            NUMPY_COUNT["sqrt"] += size
        elif name in ("sin", "cos"):
            NUMPY_COUNT["trig"] += size
        return out.view(Counting) if isinstance(out, np.ndarray) and out.dtype.kind == "f" else out

    def __array_function__(self, func, types, args, kwargs):
        def plain(x):
            if isinstance(x, Counting):
                return np.asarray(x)
            if isinstance(x, (list, tuple)):
                return type(x)(plain(y) for y in x)
            return x

        args = plain(args)
        out = func(*args, **kwargs)
        name = func.__name__
        if name == "cross":
            vectors = np.size(out) // 3
            NUMPY_COUNT["mul"] += 6 * vectors
            NUMPY_COUNT["add"] += 3 * vectors
        elif name in ("solve", "inv"):
            m = np.shape(args[0])[-1]
            rhs = m if name == "inv" else (np.size(args[1]) // m)
            lu = (m**3 - m) // 3
            NUMPY_COUNT["mul"] += lu + rhs * m * m
            NUMPY_COUNT["add"] += lu + rhs * m * (m - 1)
            NUMPY_COUNT["solve"] += 1
        elif name in ("svd",):
            NUMPY_COUNT["basis"] += 1
        elif name in ("eigvalsh",):
            NUMPY_COUNT["check"] += 1
        elif name in ("outer",):
            NUMPY_COUNT["mul"] += np.size(out)
        elif name == "sum":
            NUMPY_COUNT["add"] += np.size(args[0]) - np.size(out)
        elif name == "einsum":
            _count_einsum(args, out)
        elif name in ("trace",):
            NUMPY_COUNT["add"] += np.shape(args[0])[-1] - 1
        if isinstance(out, np.ndarray) and out.dtype.kind == "f":
            return out.view(Counting)
        if isinstance(out, tuple):
            return tuple(o.view(Counting) if isinstance(o, np.ndarray) else o for o in out)
        return out


def _count_einsum(args, out):
    """An einsum as written, without reordering: every term of the full index space is a
    product of the operands (operands − 1 multiplications), and the terms of each output
    entry are summed."""
    subscripts, operands = args[0], args[1:]
    inputs = subscripts.split("->")[0].split(",")
    sizes: dict[str, int] = {}
    for letters, operand in zip(inputs, operands, strict=True):
        shape = np.shape(operand)
        if "..." in letters:
            lead = len(shape) - (len(letters) - 3)
            letters = "".join(chr(0x100 + k) for k in range(lead)) + letters.replace("...", "")
        sizes.update(zip(letters, shape, strict=True))
    terms = int(np.prod(list(sizes.values())))
    NUMPY_COUNT["mul"] += terms * (len(operands) - 1)
    NUMPY_COUNT["add"] += terms - np.size(out)


def _cholesky_counts(n):
    """A Cholesky factor (column by column, as LINPACK's DPOFA) and the two triangular
    solves of one right-hand side: Σ_j j(n − j) products and sums, n(n − 1)/2
    divisions and n square roots to factor; n(n − 1) products and sums and 2n divisions
    to solve."""
    work = sum(j * (n - j) for j in range(n))
    NUMPY_COUNT["mul"] += work + n * (n - 1)
    NUMPY_COUNT["add"] += work + n * (n - 1)
    NUMPY_COUNT["div"] += n * (n - 1) // 2 + 2 * n
    NUMPY_COUNT["sqrt"] += n
    NUMPY_COUNT["solve"] += 1


class _CountingNumpy:
    """numpy for a counted module: the arrays it creates (zeros, diag) count the work done
    on them too, so a product of two arrays the module built is not missed."""

    def __getattr__(self, name):
        return getattr(np, name)

    @staticmethod
    def zeros(*args, **kwargs):
        return np.zeros(*args, **kwargs).view(Counting)

    @staticmethod
    def diag(*args, **kwargs):
        return np.diag(*args, **kwargs).view(Counting)


def _reference_count(model, q, module, run):
    """Counts of a numpy reference formulation (the Lagrange model, the Gibbs function):
    the outward kinematic pass it starts from (the compiled kernel's source on counting
    scalars), then its own numpy work on :class:`Counting` arrays, its Cholesky solve
    counted by :func:`_cholesky_counts`."""
    from eslabon._engine import outward_pass
    from eslabon._engine.outward_pass import WS_COLS

    _count_trig_as_calls()
    n = model.nq
    parts = {}
    P, qc = _objects(model.packed), _objects(q)
    for k in COUNT:
        COUNT[k] = 0
    ws = _objects(np.zeros((model.nb + 1, WS_COLS)))
    outward_pass.forward_pass(P, qc, qc, _objects(np.zeros(n)), 0.0, ws, None)
    parts["kinematics"] = dict(COUNT)
    for k in NUMPY_COUNT:
        NUMPY_COUNT[k] = 0
    real_pass, real_solve, real_factor = module.kinematic_pass, module.cho_solve, module.cho_factor

    def counted_pass(*a, **kw):
        motion = real_pass(*a, **kw)
        return dataclasses.replace(
            motion,
            **{f.name: getattr(motion, f.name).view(Counting) for f in dataclasses.fields(motion)},
        )

    def counted_solve(factor, rhs):
        _cholesky_counts(len(rhs))
        return real_solve(factor, np.asarray(rhs))

    real = {name: getattr(module, name) for name in ("np", "skew") if hasattr(module, name)}
    module.kinematic_pass = counted_pass
    module.cho_solve = counted_solve
    module.cho_factor = lambda a: real_factor(np.asarray(a))
    module.np = _CountingNumpy()
    if "skew" in real:
        module.skew = lambda v: real["skew"](np.asarray(v)).view(Counting)
    try:
        result = run(model, q, q, q)
    finally:
        module.kinematic_pass, module.cho_solve, module.cho_factor = (
            real_pass,
            real_solve,
            real_factor,
        )
        for name, value in real.items():
            setattr(module, name, value)
    parts["formulation"] = dict(NUMPY_COUNT)
    total = {
        k: sum(p.get(k, 0) for p in parts.values()) for k in ("mul", "add", "div", "sqrt", "trig")
    }
    return dict(total, parts=parts, result=np.asarray(result, dtype=float).tolist())


def _soa_count(model, q):
    """Counts of the constraint-force forward dynamics (:mod:`.soa`): its kinematic pass
    and its step ➊ inverse dynamics (the compiled kernels' source on counting scalars) plus
    its numpy operator work (on :class:`Counting` arrays)."""
    from eslabon._engine import outward_pass
    from eslabon._engine.outward_pass import WS_COLS

    from . import rnea, soa

    _count_trig_as_calls()
    n = model.nq
    parts = {}
    P, qc = _objects(model.packed), _objects(q)
    for k in COUNT:
        COUNT[k] = 0
    ws = _objects(np.zeros((model.nb + 1, WS_COLS)))
    outward_pass.forward_pass(P, qc, qc, _objects(np.zeros(n)), 0.0, ws, None)
    parts["kinematics"] = dict(COUNT)
    for k in COUNT:
        COUNT[k] = 0
    rnea.rnea_into(
        P,
        qc,
        qc,
        _objects(np.zeros(n)),
        1.0,
        None,
        _objects(np.zeros((model.nb + 1, WS_COLS))),
        _objects(np.zeros(n)),
        None,
    )
    parts["bias (step 1)"] = dict(COUNT)
    for k in NUMPY_COUNT:
        NUMPY_COUNT[k] = 0
    real_pass, real_bias, real_data = soa.kinematic_pass, soa.step_one_bias, soa.chain_data

    def counted(x):
        if isinstance(x, list):
            return [counted(y) for y in x]
        return np.asarray(x).view(Counting) if np.asarray(x).dtype.kind == "f" else x

    def counted_pass(*a):
        motion = real_pass(*a)
        return dataclasses.replace(
            motion,
            **{f.name: getattr(motion, f.name).view(Counting) for f in dataclasses.fields(motion)},
        )

    soa.kinematic_pass = counted_pass  # type: ignore[assignment]  # a counting stand-in
    soa.chain_data = lambda *a: soa.ChainData(*(counted(x) for x in real_data(*a)))
    soa.step_one_bias = lambda m, x, v: np.asarray(real_bias(m, x, v)).view(Counting)
    try:
        qdd = soa.forward_dynamics(model, q, q, q)
    finally:
        soa.kinematic_pass, soa.step_one_bias, soa.chain_data = real_pass, real_bias, real_data
    parts["operators (steps 2-6)"] = dict(NUMPY_COUNT)
    total = {
        k: sum(p.get(k, 0) for p in parts.values()) for k in ("mul", "add", "div", "sqrt", "trig")
    }
    return dict(total, parts=parts, result=np.asarray(qdd, dtype=float).tolist())


#: the numpy reference formulations counted: forward dynamics, and inverse with "_id"
REFERENCE = ("lagrange", "lagrange_id", "gibbs_appell", "gibbs_appell_id")


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
    from eslabon._engine.outward_pass import WS_COLS

    from . import aba, composite_rigid_body, rnea

    _count_trig_as_calls()
    model = chain_model(n)
    P = _objects(model.packed)
    q = _objects(probe_state(n))
    out = _objects(np.zeros(n))
    for k in COUNT:
        COUNT[k] = 0
    if method == "rnea":
        ws = _objects(np.zeros((model.nb + 1, WS_COLS)))
        rnea.rnea_into(P, q, q, q, Counted(1.0), None, ws, out, None)
    elif method == "walker_orin_3":
        cw = _objects(np.zeros((model.nb + 1, composite_rigid_body.COLS)))
        out = _objects(np.zeros((n, n)))
        composite_rigid_body.crba_into(P, q, cw, out, None)
    elif method == "walker_orin_1":  # n Newton–Euler columns at q̇ = 0, q̈ = e_j, g = 0
        ws = _objects(np.zeros((model.nb + 1, WS_COLS)))
        out = _objects(np.zeros((n, n)))
        zero, unit, col = (_objects(np.zeros(n)) for _ in range(3))
        composite_rigid_body.ne_columns_into(P, q, ws, zero, unit, col, out, None)
    elif method == "aba":
        ws = _objects(np.zeros((model.nb + 1, aba.COLS)))
        aba.aba_into(P, q, q, q, ws, out, None)
    elif method == "soa":
        return _soa_count(model, probe_state(n))
    elif method in REFERENCE:
        from . import gibbs_appell, lagrange

        module = {"lagrange": lagrange, "gibbs_appell": gibbs_appell}[method.split("_id")[0]]
        run = module.inverse_dynamics if method.endswith("_id") else module.forward_dynamics
        return _reference_count(model, probe_state(n), module, run)
    else:
        raise ValueError(f"method: expected one of the counted methods, got {method!r}")
    return dict(COUNT, result=np.asarray(out, dtype=float).tolist())


def main(argv):
    method, sizes = argv[0], [int(x) for x in argv[1:]]
    print(json.dumps({n: count(method, n) for n in sizes}))


if __name__ == "__main__":
    main(sys.argv[1:])
