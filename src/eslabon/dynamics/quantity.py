"""Each public compiled quantity declared once, and the one call sequence that runs it.

A :class:`Quantity` says what a public function of :mod:`.api` computes: the states it
reads, what its kernels read, its outputs, its drivers for one state and for a batch,
which packed array they take, how a failure shows, how mimic joints map back, and the C
entry of its lean path. :func:`run` is the general path's call sequence, the same for
every quantity:

1. check the states (:func:`eslabon._args.vectors`: lengths, numbers, unit quaternions)
   and whether they are a batch;
2. map mimic joints in: every joint's coordinate and rate (:mod:`eslabon.model.mimic`);
3. pick the packed array (:attr:`Quantity.packed`);
4. allocate the outputs, e.g. (n,) or (n, n) per state;
5. run one state, or the batch in chunks (of lanes where the kernel is a lanes kernel);
6. turn a failure into an error naming the field (:func:`eslabon._args.explain_nonfinite`;
   a mass matrix that is not positive definite);
7. map the outputs back to the model's joints (mimic joints).

:func:`public` makes the public function of a record from its general path: a builtin
that runs the C entry on plain (nq,) float64 states (:mod:`eslabon._engine.entrypoints`).
A new compiled quantity is its kernel, its drivers and one record.
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass

import numpy as np

from .._args import explain_nonfinite, vectors
from .._engine import entrypoints as _entrypoints
from .._engine.lazymodule import lazy_module
from .._engine.status import NOT_POSITIVE_DEFINITE, OK
from ..model.configuration import check_configuration
from ..model.model import Model

_batch = lazy_module("eslabon._engine.batch")
_joints = lazy_module("eslabon._engine.joints")
_lanes = lazy_module("eslabon._engine.lanes")

ZERO = "0"  # in Quantity.kernel_states: a zero vector of rates in that place
NOT_PD_MESSAGE = (
    "q: the mass matrix is not positive definite at this configuration "
    "(a joint moves no mass: give it mass, inertia or armature)"
)
# an output's shape per state (n: the kernels' rates) and its rank for the C entry
_SHAPES = {
    "n": lambda n: (n,),
    "nn": lambda n: (n, n),
    "2n2n": lambda n: (2 * n, 2 * n),
    "2nn": lambda n: (2 * n, n),
    "2": lambda n: (2,),
}
_RANKS = {"n": 1, "nn": 2, "2n2n": 3, "2nn": 4}  # the C entry's codes (entrypoints.public)


@dataclass(frozen=True)
class Quantity:
    """One public compiled quantity.

    Attributes
    ----------
    name : str
        The public function's name, also the one its errors give.
    states : tuple of str
        The state fields it takes, in order: ``"q"`` (nq,), the others (n,).
    outputs : tuple of str
        Each output's shape per state: ``"n"`` (n,), ``"nn"`` (n, n), ``"2n2n"`` (2n, 2n),
        ``"2nn"`` (2n, n) or ``"2"`` (2,; not for a C entry).
    one, many : str or None
        ``"module:function"`` of the driver of one state, ``driver(P, *kernel states,
        *fixed, *outputs, extended)``, and of a batch, ``driver(P, *kernel states,
        *fixed, *outputs, chunks, extended)``; None for a quantity whose general path is
        its own (only its public function comes from the record).
    kernel_states : tuple of str, optional
        What the drivers read, in order: a name of ``states``, or :data:`ZERO` (a zero
        rate vector). Default: ``states``.
    fixed_one, fixed_many : tuple
        What the one-state and the batch drivers take after the states (a gravity scale,
        a mode, a method code); :func:`run` may be given others for one call.
    lanes : bool
        The batch driver takes lanes blocks (its chunks hold whole blocks).
    packed : str
        The model's packed array the kernels read (``packed_dynamics``: fixed joints
        folded, axes on z; ``packed``: every body, for frames and wrenches).
    check : {"status", "outputs"}
        A failure shows as the drivers' status, or as outputs that are not finite.
    finite_q : bool
        Also refuse a non-finite q that left the outputs finite (M does not read the
        first joint's angle).
    mimic_out : {None, "forces", "matrix"}
        How the outputs of every joint map back to the model's joints: generalized forces
        (Gᵀ τ), matrices (Gᵀ X G), or not at all (scalars).
    takes_mimic : bool
        Its kernels take a model with mimic joints, its rates mapped to every joint's
        (False for forward dynamics: τ does not map that way, and the caller solves the
        coupled system itself; :func:`run` then refuses such a model).
    entry : str or None
        ``"module:name"`` of the C entry of the lean path (its twin for the extended
        joint set is ``name + "_extended"``).
    """

    name: str
    states: tuple
    outputs: tuple
    one: str | None = None
    many: str | None = None
    kernel_states: tuple | None = None
    fixed_one: tuple = ()
    fixed_many: tuple = ()
    lanes: bool = True
    packed: str = "packed_dynamics"
    check: str = "status"
    finite_q: bool = False
    mimic_out: str | None = None
    takes_mimic: bool = True
    entry: str | None = None

    def __post_init__(self):
        if self.check not in ("status", "outputs"):
            raise ValueError(f"{self.name}: check: expected 'status' or 'outputs'")
        if self.mimic_out not in (None, "forces", "matrix"):
            raise ValueError(f"{self.name}: mimic_out: expected None, 'forces' or 'matrix'")
        unknown = set(self.outputs) - set(_SHAPES)
        if unknown:
            raise ValueError(f"{self.name}: outputs: unknown shapes {sorted(unknown)}")
        for name in self.kernel_states or ():
            if name != ZERO and name not in self.states:
                raise ValueError(f"{self.name}: kernel_states: {name!r} is not a state")


@functools.cache
def _driver(path: str):
    """The function at ``"module:function"`` (imports the module, and numba, once)."""
    module, name = path.split(":")
    return getattr(importlib.import_module(module), name)


def check_states(model, **fields):
    """The state arguments checked: q of nq entries (unit quaternions where the model's
    joints hold them), the others of nv; and whether they are a batch."""
    values, batched = vectors(model.nv, nq=model.nq, **fields)
    if model.nq != model.nv:
        check_configuration(model, values[0])
    return values, batched


def engine_arrays(model, q, *rates):
    """The compiled kernels' arrays: with mimic joints, every joint's coordinate and rate
    (:mod:`eslabon.model.mimic`); otherwise the arrays themselves."""
    if model.mimic is None:
        return (q, *rates)
    return (
        np.ascontiguousarray(model.mimic.configuration(q)),
        *(np.ascontiguousarray(model.mimic.rates(r)) for r in rates),
    )


def run(quantity: Quantity, model, *, fixed_one=None, fixed_many=None, **states):
    """Run ``quantity`` on the states given by name (:class:`Quantity`'s seven steps).

    ``fixed_one`` and ``fixed_many``: what the one-state and the batch drivers take
    after the states, when not the record's (a tip wrench's body wrenches). Returns the output, or
    the tuple of them when there are several."""
    if model.mimic is not None and not quantity.takes_mimic:
        raise ValueError(f"{quantity.name}: this record does not take mimic joints")
    names = quantity.states
    values, batched = check_states(model, **{k: states[k] for k in names})
    checked = dict(zip(names, values, strict=True))
    q = checked["q"]
    lead = q.shape[:-1]
    mapped = dict(zip(names, engine_arrays(model, *values), strict=True))
    n = model.engine_nv
    zero = None
    ins = []
    for name in quantity.kernel_states or names:
        if name == ZERO:
            zero = np.zeros(lead + (n,)) if zero is None else zero
            ins.append(zero)
        else:
            ins.append(mapped[name])
    P = getattr(model, quantity.packed)
    outs = tuple(np.empty(lead + _SHAPES[s](n)) for s in quantity.outputs)
    extended = _joints.extended_of(P)
    if batched:
        unit = _lanes.WIDTH if quantity.lanes else 1
        chunks = _batch.chunk_count(len(q), unit)
        fixed = quantity.fixed_many if fixed_many is None else fixed_many
        status = _driver(quantity.many)(P, *ins, *fixed, *outs, chunks, extended)
    else:
        fixed = quantity.fixed_one if fixed_one is None else fixed_one
        status = _driver(quantity.one)(P, *ins, *fixed, *outs, extended)
    if quantity.check == "outputs":
        ok = all(np.isfinite(o).all() for o in outs)
    else:
        if status == NOT_POSITIVE_DEFINITE:
            raise ValueError(NOT_PD_MESSAGE)
        ok = status == OK
    if not ok or (quantity.finite_q and not np.isfinite(q).all()):
        explain_nonfinite(quantity.name, **checked)
    if model.mimic is not None and quantity.mimic_out is not None:
        back = model.mimic.forces if quantity.mimic_out == "forces" else model.mimic.matrix
        outs = tuple(back(o) for o in outs)
    return outs[0] if len(outs) == 1 else outs


def public(quantity: Quantity, general, result_type=None):
    """The public function of ``quantity``: a builtin that runs its C entry on one plain
    float64 state and calls ``general`` (the general path, whose name and docstring it
    takes) otherwise (:func:`eslabon._engine.entrypoints.public`)."""
    if general.__name__ != quantity.name:
        raise ValueError(f"{quantity.name}: the general path is named {general.__name__!r}")
    if quantity.entry is None:
        raise ValueError(f"{quantity.name}: the record names no C entry")
    module, name = quantity.entry.split(":")
    wide = len(quantity.outputs) >= 3
    plain, extended, cols, squares = _entrypoints.entry_pair(module, name, wide=wide)
    ranks = tuple(_RANKS[s] for s in quantity.outputs)
    return _entrypoints.public(
        general, plain, len(quantity.states), ranks, Model, extended, cols, squares, result_type
    )
