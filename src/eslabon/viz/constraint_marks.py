"""What the HTML viewer draws of a model's constraints (docs/viewer.md, "Constraints"):
each loop closure's two frame origins per sample (they coincide on the constraint
manifold; the page joins them with a line, which shows the residual where they part),
each contact's fixed world point and normal, each rolling wheel's contact point per
sample; and a constrained run's residual and energy as curves.

Positions are in the world [m], per sample as base64 little-endian float32 (K, 3), as
the bodies' poses are (:mod:`.scene`). Names are data: the page gets them as escaped
JSON and shows them with ``textContent``. A model without constraints gets none of this,
and its page is the same as before constraints were drawn.
"""

from __future__ import annotations

import numpy as np

from ..model.constraint_types import Contact, LoopClosure, RollingWheel
from .scene import b64

#: colours of the marks: loop closures, contacts, rolling wheels' contact points
COLORS = {"loop": "#e6007e", "contact": "#2a9d8f", "wheel": "#f08c00"}


def constraint_frames(model) -> tuple:
    """The frames a model's constraints name (loop closures' two ends, contacts' and
    wheels' frames), each once, in order: the generated geometry draws a link from each
    frame's body to it, so that a four-bar's rocker reaches its pin.

    Parameters
    ----------
    model : Model

    Returns
    -------
    tuple of str
        Empty for a model without constraints.

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon.viz.constraint_marks import constraint_frames
    >>> constraint_frames(es.zoo.load("four_bar"))
    ('ground_pivot', 'rocker_end')
    >>> constraint_frames(es.zoo.load("planar2"))
    ()
    """
    names: list = []
    for c in model.constraints:
        if isinstance(c, LoopClosure):
            names += [c.frame_a, c.frame_b]
        elif isinstance(c, Contact):
            names.append(c.frame)
        else:
            names.append(c.wheel)
    return tuple(dict.fromkeys(names))


def constraint_marks(model, q_samples) -> dict | None:
    """The marks of ``model``'s constraints along the configurations ``q_samples``, as the
    page reads them (JSON-ready), or None for a model without constraints.

    Parameters
    ----------
    model : Model
    q_samples : array_like (K, nq)
        The configurations drawn (rad, m).

    Returns
    -------
    dict or None
        ``"loops"``: per :class:`~eslabon.constraints.LoopClosure` its ``name``, frames
        ``frame_a``, ``frame_b``, and the world positions of their origins ``a`` and
        ``b`` (base64 float32, (K, 3) [m]); ``"contacts"``: per
        :class:`~eslabon.constraints.Contact` its ``name``, ``frame``, world
        ``position`` [m] and ``normal`` (the contact pose's z axis); ``"wheels"``: per
        :class:`~eslabon.constraints.RollingWheel` its ``name``, ``frame`` and
        ``points``, the contact point (``radius`` below the wheel's centre along the
        world's z), base64 float32 (K, 3) [m]; ``"colors"``: :data:`COLORS`.

    Examples
    --------
    >>> import base64
    >>> import numpy as np, eslabon as es
    >>> from eslabon.viz.constraint_marks import constraint_marks
    >>> bar = es.zoo.load("four_bar")
    >>> marks = constraint_marks(bar, np.zeros((2, bar.nq)))
    >>> [(m["name"], m["frame_a"], m["frame_b"]) for m in marks["loops"]]
    [('pin', 'ground_pivot', 'rocker_end')]
    >>> a = np.frombuffer(base64.b64decode(marks["loops"][0]["a"]), "<f4").reshape(-1, 3)
    >>> b = np.frombuffer(base64.b64decode(marks["loops"][0]["b"]), "<f4").reshape(-1, 3)
    >>> a.shape, bool(np.allclose(a, b, atol=1e-6))  # assembled: the two ends meet
    ((2, 3), True)
    >>> constraint_marks(es.zoo.load("planar2"), np.zeros((2, 2))) is None
    True
    """
    if not model.constraints:
        return None
    from ..kinematics import frame_pose

    q = np.atleast_2d(np.asarray(q_samples, dtype=float))

    def origin(frame):
        return frame_pose(model, q, frame).reshape(len(q), 4, 4)[:, :3, 3]

    loops, contacts, wheels = [], [], []
    for c in model.constraints:
        if isinstance(c, LoopClosure):
            loops.append({"name": c.name, "frame_a": c.frame_a, "frame_b": c.frame_b,
                          "a": b64(origin(c.frame_a), "<f4"),
                          "b": b64(origin(c.frame_b), "<f4")})  # fmt: skip
        elif isinstance(c, Contact):
            R = np.eye(3) if c.rotation is None else np.asarray(c.rotation, dtype=float)
            contacts.append({"name": c.name, "frame": c.frame,
                             "position": np.asarray(c.position, dtype=float).tolist(),
                             "normal": R[:, 2].tolist()})  # fmt: skip
        elif isinstance(c, RollingWheel):
            points = origin(c.wheel) - np.array([0.0, 0.0, float(c.radius)])
            wheels.append({"name": c.name, "frame": c.wheel, "points": b64(points, "<f4")})
    return {"loops": loops, "contacts": contacts, "wheels": wheels, "colors": dict(COLORS)}


def constraint_curves(traj, idx) -> list:
    """A constrained run's residual ‖φ‖∞ [m, rad] and energy T + V [J] at the samples
    ``idx``, as curves of the viewer's constraint panel (six significant digits); empty
    when ``traj`` carries neither (a tree's run).

    Parameters
    ----------
    traj : Trajectory
        Its ``constraint_residual`` and ``energy`` (K,), either may be None or absent.
    idx : array_like of int
        The samples drawn.

    Returns
    -------
    list of dict
        ``{"name", "unit", "values"}`` per history present.

    Examples
    --------
    >>> import types
    >>> import numpy as np
    >>> from eslabon.viz.constraint_marks import constraint_curves
    >>> run = types.SimpleNamespace(constraint_residual=np.array([0.0, 1.234567e-7]),
    ...                             energy=np.array([58.8189956, 58.8189951]))
    >>> [(c["name"], c["values"]) for c in constraint_curves(run, [0, 1])]
    [('residual ‖φ‖∞', [0.0, 1.23457e-07]), ('energy T + V', [58.819, 58.819])]
    >>> constraint_curves(types.SimpleNamespace(), [0, 1])
    []
    """
    out = []
    for key, name, unit in (("constraint_residual", "residual ‖φ‖∞", "m, rad"),
                            ("energy", "energy T + V", "J")):  # fmt: skip
        values = getattr(traj, key, None)
        if values is None:
            continue
        picked = np.asarray(values, dtype=float)[np.asarray(idx, dtype=int)]
        out.append({"name": name, "unit": unit,
                    "values": [float(f"{v:.6g}") for v in picked]})  # fmt: skip
    return out
