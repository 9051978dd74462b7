"""Compiled drivers of the kinematic recursion for one state and for a batch."""

from __future__ import annotations

import numpy as np
from numba import njit

from .._engine.batch import run_batch
from .._engine.compile import batch_kernel, subject
from .._engine.layout import H_NB
from .._engine.status import OK
from .recursion import WS_COLS, forward_pass


@njit(cache=True)
def kinematics_one(P, q, qd, qdd, ws, extended):
    forward_pass(P, q, qd, qdd, 0.0, ws, extended, poses=True)


@njit(cache=True)
def kinematics_moving_base(P, q, qd, qdd, ws, extended):
    """As :func:`kinematics_one` for a base whose ω, ω̇, v̇ (gravity included) and v are
    preset in ``ws[0]`` (in the base frame)."""
    forward_pass(P, q, qd, qdd, 0.0, ws, extended, poses=True, moving_base=True)


@njit(cache=True)
def kinematics_chunk(P, ins, outs, extra, lo, hi):
    Q, QD, QDD = ins
    (WS,) = outs
    (extended,) = extra
    for s in range(lo, hi):
        forward_pass(P, Q[s], QD[s], QDD[s], 0.0, WS[s], extended, poses=True)
    return OK


@batch_kernel
def kinematics_many(P, Q, QD, QDD, WS, nchunks, extended):
    """The pass over a batch (:func:`eslabon._engine.batch.run_batch`); ``WS`` is
    (N, nb+1, WS_COLS)."""
    return run_batch(kinematics_chunk, P, (Q, QD, QDD), (WS,), (extended,), nchunks, 1)


def workspace(P, batch: int | None = None) -> np.ndarray:
    rows = int(P[H_NB]) + 1
    return np.empty((rows, WS_COLS) if batch is None else (batch, rows, WS_COLS))


subject("kinematics", kinematics_one, kinematics_many, kinematics_chunk, kinematics_moving_base)
