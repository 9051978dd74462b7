"""External wrenches: as the Newton–Euler kernels take them, and as generalized forces.

Seed 001 eq. 3.34 starts the inward pass of Tabla 3.1 with the force and moment that the
last link exerts on its environment (f_{n+1}, n_{n+1}); the kernels take such a wrench
for every body, in body coordinates, moment about the body origin
(:func:`tip_wrench_array`, the ``tip_wrench`` of inverse dynamics).

A wrench w = [n; f] that the environment applies to the robot at a frame (moment n about
the frame's origin) does the work of the generalized force

    τ_w = J_f(q)ᵀ w                                                  (virtual work)

with J_f the frame's geometric Jacobian in the axes w is given in ([angular; linear],
:func:`eslabon.jacobian`), so forward dynamics with wrenches is q̈ = FD(q, q̇, τ + Σ τ_w)
for every method (Jaramillo Botero (1998) writes the same external force into step ➊ of
the Macro Algoritmo, eq. (1.78)). :class:`ExternalWrench` says where, in which axes and
how much: a constant, or a callable of the time and the state (simulation).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._args import frozen_copy, real_array

AXES = ("world", "local")


def tip_wrench_array(model, tip_wrench, frame: str = "ee"):
    """(rows, 6) wrenches, one per packed row of the model (its bodies at
    ``model.body_row``), from a (6,) [moment; force] the frame exerts on the world,
    expressed in that frame's axes, moment about its origin."""
    w = np.asarray(tip_wrench, dtype=float)
    if w.shape != (6,) or not np.all(np.isfinite(w)):
        raise ValueError(f"tip_wrench: expected 6 finite numbers [moment; force], got {w.shape}")
    fr = model.frame(frame)
    f_b = fr.rotation @ w[3:]
    n_b = fr.rotation @ w[:3] + np.cross(fr.translation, f_b)
    out = np.zeros((int(model.body_row[-1]) + 1, 6))  # one per packed row
    out[model.body_row[fr.body], :3] = n_b
    out[model.body_row[fr.body], 3:] = f_b
    return out


@dataclass(frozen=True)
class ExternalWrench:
    """A wrench [moment; force] the environment applies to the robot at ``frame``.

    Parameters
    ----------
    frame : str
        A named frame of the model (``"ee"``, ``"dh3"``, …) or a body's name; the moment
        is about its origin.
    value : array_like (6,) or callable
        [n; f] in N·m and N, or ``value(t, q, qd) -> (6,)`` (time in s, the state).
    axes : {"world", "local"}
        The axes ``value`` is expressed in: the world's, or the frame's own (a force that
        turns with the body, e.g. a thruster).

    Examples
    --------
    A push of 1 N along the world's y axis at the tip of the planar arm adds J_eeᵀ w to
    the torques:

    >>> import numpy as np
    >>> import eslabon as es
    >>> arm = es.zoo.load("planar2")
    >>> q, qd, tau = [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]
    >>> push = es.ExternalWrench("ee", [0.0, 0.0, 0.0, 0.0, 1.0, 0.0])
    >>> qdd = es.forward_dynamics(arm, q, qd, tau, wrenches=[push])
    >>> np.allclose(qdd, es.forward_dynamics(arm, q, qd, [1.8, 0.8]))
    True
    """

    frame: str
    value: Any
    axes: str = "world"


def external_wrenches(model, wrenches, field: str = "wrenches") -> tuple:
    """The checked wrenches: a sequence of :class:`ExternalWrench` or ``(frame, value[,
    axes])`` tuples, each frame the model's, each constant value 6 finite numbers."""
    if isinstance(wrenches, ExternalWrench):
        wrenches = [wrenches]  # one wrench given alone
    try:
        items = list(wrenches)
    except TypeError:
        raise ValueError(
            f"{field}: expected a list of ExternalWrench(frame, value, axes), got "
            f"{type(wrenches).__name__}"
        ) from None
    out = []
    for k, w in enumerate(items):
        where = f"{field}[{k}]"
        if isinstance(w, tuple) and len(w) in (2, 3):
            w = ExternalWrench(*w)
        if not isinstance(w, ExternalWrench):
            raise ValueError(
                f"{where}: expected an ExternalWrench or (frame, value[, axes]), got {w!r}"
            )
        if w.axes not in AXES:
            raise ValueError(f"{where}.axes: expected one of {AXES}, got {w.axes!r}")
        model.frame(w.frame)  # names an unknown frame
        if not callable(w.value):
            v = real_array(w.value, f"{where}.value", "6 real numbers [moment; force]")
            if v.shape[-1:] != (6,) or not np.all(np.isfinite(v)):
                raise ValueError(
                    f"{where}.value: expected 6 finite numbers [moment; force], got shape {v.shape}"
                )
            w = ExternalWrench(w.frame, v, w.axes)
        out.append(w)
    return tuple(out)


def wrench_torques(model, q, wrenches, t: float | None = None, qd=None) -> np.ndarray:
    """τ_w = Σ J_fᵀ w of checked ``wrenches`` (:func:`external_wrenches`) at q (nq,) or a
    batch (N, nq): (nv,) or (N, nv). A callable value is evaluated at (t, q, qd) (one
    state)."""
    from ..kinematics.forward import jacobian

    q = np.asarray(q, dtype=float)
    tau = np.zeros(q.shape[:-1] + (model.nv,))
    for k, w in enumerate(wrenches):
        value = w.value
        if callable(value):
            if t is None:
                raise ValueError(
                    f"wrenches[{k}].value: a callable needs the time and state of a "
                    "simulation (eslabon.simulate); forward and inverse dynamics take 6 "
                    "numbers"
                )
            # read-only copies: the callable cannot edit the integrator's state
            got = value(t, frozen_copy(q), None if qd is None else frozen_copy(qd))
            field = f"wrenches[{k}].value (the callable's value at t = {t})"
            value = real_array(got, field, "6 finite real numbers [moment; force]")
            if value.shape != (6,) or not np.all(np.isfinite(value)):
                raise ValueError(
                    f"wrenches[{k}].value: the callable returned {value!r} at t = {t}; "
                    "expected 6 finite numbers"
                )
        J = jacobian(model, q, w.frame, reference=w.axes)
        tau += np.einsum("...ji,...j->...i", J, np.broadcast_to(value, q.shape[:-1] + (6,)))
    return tau


def body_wrench_array(model, q, wrenches) -> np.ndarray:
    """(rows, 6) wrenches, one per packed row, as the Newton–Euler kernels take them
    (:func:`tip_wrench_array`: what each body exerts on the environment, body axes,
    moment about its origin) from checked constant ``wrenches`` the environment applies
    (:func:`external_wrenches`) at one configuration q (nq,)."""
    from ..kinematics.forward import forward_kinematics

    out = np.zeros((int(model.body_row[-1]) + 1, 6))
    world_T = None
    for k, w in enumerate(wrenches):
        if callable(w.value):
            raise ValueError(
                f"wrenches[{k}].value: a callable needs the time and state of a simulation "
                "(eslabon.simulate); give 6 numbers"
            )
        fr = model.frame(w.frame)
        n_f, f_f = np.asarray(w.value[:3], float), np.asarray(w.value[3:], float)
        if w.axes == "world":  # into the frame's axes at q
            if world_T is None:
                world_T = forward_kinematics(model, q)
            R_wf = world_T[fr.body, :3, :3] @ fr.rotation
            n_f, f_f = R_wf.T @ n_f, R_wf.T @ f_f
        f_b = fr.rotation @ f_f
        n_b = fr.rotation @ n_f + np.cross(fr.translation, f_b)
        out[model.body_row[fr.body], :3] -= n_b  # exerted on the world: the opposite
        out[model.body_row[fr.body], 3:] -= f_b
    return out
