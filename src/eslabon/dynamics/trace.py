"""Newton–Euler with every intermediate quantity, as seed 001 asks students to identify.

For a DH model each link's quantities are given in its own DH frame i (the seed's
``^iR_0(·)`` form): ω, ω̇, v̇ (acceleration of the frame origin, gravity included as the
fictitious base acceleration), ā (COM acceleration), F, N (net force and moment at the
COM), f, n (force and moment exerted on link i by link i−1). Moments n are taken about
O_{i−1} for standard/Rojas DH (seed 001 §2.3) and about O_i for modified DH. Bodies
without a DH frame (a payload, a tree built by hand) use their body frame and origin.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._args import explain_nonfinite, pad, vectors
from .._engine.joints import extended_of
from .._engine.status import OK
from ..model.configuration import check_configuration
from .drivers import rnea_trace_one
from .rnea import trace_workspace, traced_quantities
from .wrenches import body_wrench_array, external_wrenches, tip_wrench_array

QUANTITIES = ("w", "wd", "vd", "ac", "F", "N", "f", "n")
LABELS = {"w": "ω", "wd": "ω̇", "vd": "v̇", "ac": "ā", "F": "F", "N": "N", "f": "f", "n": "n"}


@dataclass(frozen=True)
class RneaTrace:
    """Per-body intermediate quantities; each array has shape (nb, 3), rows = bodies 1..nb;
    ``tau`` (nv,) the joint torques as :func:`eslabon.inverse_dynamics` gives them (with
    mimic joints: of the independent joints, their mimics' loads included).

    What :func:`eslabon.rnea_trace` returns: the quantities of Práctica 3's Newton–Euler
    (Tabla 3.1, eqs 3.27–3.33), each row in the frame named in ``frames`` (module
    docstring: a DH model's link frames, else the body frame). ``str(trace)`` is
    :meth:`table`.

    Attributes
    ----------
    bodies : tuple of str ``(nb,)``
        The bodies' names, bodies 1..nb (``model.body_names[1:]``).
    frames : tuple of str ``(nb,)``
        The frame each body's row is expressed in: ``"dh<i>"`` (DH frame i) or ``"body"``.
    tau : ndarray ``(n,)``
        Joint torques: N·m (revolute), N (prismatic).
    w, wd : ndarray ``(nb, 3)``
        ω [rad/s] and ω̇ [rad/s²] of each link.
    vd : ndarray ``(nb, 3)``
        v̇ [m/s²], the acceleration of the frame's origin, gravity included as the
        fictitious base acceleration (so a robot at rest reads −g).
    ac : ndarray ``(nb, 3)``
        ā [m/s²], the acceleration of the link's centre of mass (gravity included).
    F, N : ndarray ``(nb, 3)``
        Net force [N] and moment [N·m] on the link at its centre of mass: F = m ā,
        N = Ī ω̇ + ω × Ī ω.
    f, n : ndarray ``(nb, 3)``
        Force [N] and moment [N·m] exerted on link i by link i−1; n about O_{i−1} for
        standard and Rojas DH, about O_i for modified DH and for bodies without a DH frame.

    Examples
    --------
    >>> import eslabon as es
    >>> tr = es.rnea_trace(es.zoo.load("planar2"), [0.0, 0.0], [0.0, 0.0], [0.0, 0.0])
    >>> tr.bodies, tr.tau.round(3).tolist()
    (('link1', 'link2'), [30.411, 5.886])
    """

    bodies: tuple
    frames: tuple
    tau: np.ndarray
    w: np.ndarray
    wd: np.ndarray
    vd: np.ndarray
    ac: np.ndarray
    F: np.ndarray
    N: np.ndarray
    f: np.ndarray
    n: np.ndarray

    def table(self) -> str:
        """A plain-text table, one block of rows per body.

        Returns
        -------
        str
            A header line, then for each body one line per quantity (body, frame,
            quantity, x, y, z to 6 significant digits) and a last line ``tau = [...]``.
        """
        lines = [f"{'body':<10}{'frame':<9}{'qty':<5}{'x':>14}{'y':>14}{'z':>14}"]
        for b, (name, frame) in enumerate(zip(self.bodies, self.frames, strict=True)):
            for key in QUANTITIES:
                x, y, z = getattr(self, key)[b]
                # padded by display width: ω̇ is two characters (ω, a combining dot), one column
                label = pad(name, 10) + pad(frame, 9) + pad(LABELS[key], 5)
                lines.append(f"{label}{x:>14.6g}{y:>14.6g}{z:>14.6g}")
        lines.append("tau = " + np.array2string(self.tau, precision=6))
        return "\n".join(lines)

    __str__ = table


def _frame_for(model, i):
    """(frame name, rotation body<-frame, origin in body, moment point in body coords)."""
    names = {f.name: f for f in model.frames}
    fr = names.get(f"dh{i}") if model.dh is not None else None
    if fr is None or fr.body != i:
        return "body", np.eye(3), np.zeros(3), None
    point = fr.translation
    if model.dh.convention != "modified":
        prev = names.get(f"dh{i - 1}")
        point = ("prev", prev)
    return fr.name, fr.rotation, fr.translation, point


def rnea_trace(model, q, qd, qdd, *, wrenches=None, tip_wrench=None) -> RneaTrace:
    """The :class:`RneaTrace` of one state: what :func:`eslabon.rnea_trace` runs and
    documents (arguments, units, errors)."""
    (q, qd, qdd), batched = vectors(model.nv, nq=model.nq, q=q, qd=qd, qdd=qdd)
    if batched:
        raise ValueError("q: rnea_trace takes one state of shape (n,)")
    if model.nq != model.nv:
        check_configuration(model, q)
    fext = None if tip_wrench is None else tip_wrench_array(model, tip_wrench)
    if wrenches is not None:
        if fext is not None:
            raise TypeError("rnea_trace: give wrenches= alone (tip_wrench= is deprecated)")
        fext = body_wrench_array(model, q, external_wrenches(model, wrenches))
    ws = trace_workspace(int(model.body_row[-1]))
    P = model.packed
    qe, qde, qdde = q, qd, qdd
    if model.mimic is not None:  # every joint's own motion (eslabon.model.mimic)
        qe, qde, qdde = (
            np.ascontiguousarray(f(x))
            for f, x in (
                (model.mimic.configuration, q),
                (model.mimic.rates, qd),
                (model.mimic.rates, qdd),
            )
        )
    tau = np.empty(model.engine_nv)
    if rnea_trace_one(P, qe, qde, qdde, 1.0, fext, tau, ws, extended_of(P)) != OK:
        explain_nonfinite("rnea_trace", q=q, qd=qd, qdd=qdd)
    if model.mimic is not None:  # τ of the independent joints, mimic loads included
        tau = model.mimic.forces(tau)
    body = traced_quantities(ws[model.body_row])  # the rows of the bodies
    out = {k: np.zeros((model.nb, 3)) for k in QUANTITIES}
    frames = []
    for i in range(1, model.nb + 1):
        name, Rf, pf, point = _frame_for(model, i)
        w, wd, a = body["w"][i], body["wd"][i], body["vd"][i]
        f, n = body["f"][i], body["n"][i]
        if isinstance(point, tuple):  # O_{i-1}, a point of the parent's DH frame
            point = body["E"][i].T @ (point[1].translation - body["r"][i])
        if point is not None:
            n = n - np.cross(point, f)  # moment about that point
        vd = a + np.cross(wd, pf) + np.cross(w, np.cross(w, pf))
        vals = dict(w=w, wd=wd, vd=vd, ac=body["ac"][i], F=body["F"][i], N=body["N"][i], f=f, n=n)
        for key in QUANTITIES:
            out[key][i - 1] = Rf.T @ vals[key]
        frames.append(name)
    return RneaTrace(bodies=tuple(model.body_names[1:]), frames=tuple(frames), tau=tau, **out)
