"""Per-call entry points: one state straight from Python into the compiled kernels.

Calling a numba dispatcher costs about 0.1 µs per array argument plus the allocation of
the result (docs/performance.md, "Per call"), which is most of a 6-DOF inverse dynamics.
So each lean quantity below is a numba ``@cfunc`` (C calling convention, no boxing) over
the same ``*_call`` kernel the general path uses, wrapped in a ``Kernel`` of the small C
extension ``eslabon._fastcall``, which checks the numpy arguments, allocates the result
and calls the function pointer.

Every entry has the form ``entry(P, x1[, x2[, x3]])`` with ``P = model.packed`` and
returns the result, or ``None`` when an argument is not a float64 C-contiguous (nq,)
array or the kernel reports anything but success (non-finite input, no mass, ...). The
public functions then take their general path, which converts, runs batches and raises
an error naming the field. Without the C extension (no compiler at install time) every
entry returns ``None``: same results, slower calls.

All cfuncs share one C signature, ``int64 f(P, a, b, c, out0, out1, out2)`` (pointers to
float64; unused ones are NULL), so one C wrapper serves them all.
"""
from __future__ import annotations

from numba import carray, cfunc, njit, types

from ..model.layout import H_NB, H_NQ, HEADER, STRIDE
from .aba import aba_call
from .derivatives import fd_derivatives_call, id_derivatives_call
from .rnea import bias_call, gravity_call, rnea_call
from .walker_orin import crba_call

try:
    from .. import _fastcall
except ImportError:           # built without a C compiler: the dispatcher path is used
    _fastcall = None

AVAILABLE = _fastcall is not None

_PTR = types.CPointer(types.float64)
_SIGNATURE = types.int64(_PTR, _PTR, _PTR, _PTR, _PTR, _PTR, _PTR)


@njit(cache=True, inline="always")
def _model(p):
    """The packed model array behind the pointer (its length is in its header)."""
    return carray(p, HEADER + (int(p[H_NB]) + 1) * STRIDE)


@cfunc(_SIGNATURE, cache=True)
def _inverse_dynamics(p, a, b, c, o0, o1, o2):
    n = int(p[H_NQ])
    return rnea_call(_model(p), carray(a, n), carray(b, n), carray(c, n), carray(o0, n))


@cfunc(_SIGNATURE, cache=True)
def _bias_forces(p, a, b, c, o0, o1, o2):
    n = int(p[H_NQ])
    return bias_call(_model(p), carray(a, n), carray(b, n), carray(o0, n))


@cfunc(_SIGNATURE, cache=True)
def _gravity_torques(p, a, b, c, o0, o1, o2):
    n = int(p[H_NQ])
    return gravity_call(_model(p), carray(a, n), carray(o0, n))


@cfunc(_SIGNATURE, cache=True)
def _mass_matrix(p, a, b, c, o0, o1, o2):
    n = int(p[H_NQ])
    return crba_call(_model(p), carray(a, n), carray(o0, (n, n)))


@cfunc(_SIGNATURE, cache=True)
def _forward_dynamics(p, a, b, c, o0, o1, o2):
    n = int(p[H_NQ])
    return aba_call(_model(p), carray(a, n), carray(b, n), carray(c, n), carray(o0, n))


@cfunc(_SIGNATURE, cache=True)
def _id_derivatives(p, a, b, c, o0, o1, o2):
    n = int(p[H_NQ])
    return id_derivatives_call(_model(p), carray(a, n), carray(b, n), carray(c, n),
                               carray(o0, (n, n)), carray(o1, (n, n)))


@cfunc(_SIGNATURE, cache=True)
def _fd_derivatives(p, a, b, c, o0, o1, o2):
    n = int(p[H_NQ])
    return fd_derivatives_call(_model(p), carray(a, n), carray(b, n), carray(c, n),
                               carray(o0, (n, n)), carray(o1, (n, n)), carray(o2, (n, n)))


def _unavailable(*args):
    return None


def _entry(kernel, n_in: int, out_ndims: tuple):
    if _fastcall is None:
        return _unavailable
    return _fastcall.Kernel(kernel.address, n_in, out_ndims, HEADER, STRIDE, kernel)


# name(P, inputs...) -> outputs, or None (then the general path)
inverse_dynamics = _entry(_inverse_dynamics, 3, (1,))            # (q, q̇, q̈) -> τ
bias_forces = _entry(_bias_forces, 2, (1,))                      # (q, q̇) -> b
gravity_torques = _entry(_gravity_torques, 1, (1,))              # (q,) -> g
mass_matrix = _entry(_mass_matrix, 1, (2,))                      # (q,) -> M
forward_dynamics = _entry(_forward_dynamics, 3, (1,))            # (q, q̇, τ) -> q̈ (ABA)
inverse_dynamics_derivatives = _entry(_id_derivatives, 3, (2, 2))    # -> (∂τ/∂q, ∂τ/∂q̇)
forward_dynamics_derivatives = _entry(_fd_derivatives, 3, (2, 2, 2))  # -> (∂q̈/∂q, ∂q̈/∂q̇, M⁻¹)
