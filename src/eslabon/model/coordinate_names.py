"""Names of a model's coordinates and rates, and q from values given by name.

Each joint is named (:attr:`eslabon.Model.joint_names`, a URDF joint's own name); a joint of
one coordinate names it, and a joint of several names each after it, ``joint.suffix``, with
the suffixes of its type (:data:`eslabon._engine.layout.JOINT_KINDS`): a free flyer's q is
``root_joint.x``, ``.y``, ``.z``, ``.qx``, ``.qy``, ``.qz``, ``.qw`` and its v
``root_joint.vx`` … ``.wz``; a spherical joint's ``.qx`` … ``.qw`` and ``.wx`` … ``.wz``;
a universal joint's ``.q1``, ``.q2``; a planar joint's ``.x``, ``.y``, ``.theta``. A mimic
joint has no coordinate of its own, so no name in q.

:func:`configuration_from_names` builds q from a name → value mapping, as a ROS
``sensor_msgs/JointState`` gives it (``dict(zip(msg.name, msg.position))``): the order of
the mapping does not matter, and a name the model does not have is an error, not ignored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from .._engine.layout import JOINT_KINDS, JOINT_NQ, JOINT_NV

if TYPE_CHECKING:
    from numpy.typing import NDArray

# (``model`` is a :class:`eslabon.Model`; model.py imports this module, so this one does
# not import it)


def coordinate_names(model: Any, which: str) -> tuple:
    """The names of q (``which`` = ``"q"``) or of v (``"v"``) of ``model``, in order."""
    size, index = (JOINT_NQ, model.q_index) if which == "q" else (JOINT_NV, model.v_index)
    names = [""] * (model.nq if which == "q" else model.nv)
    for i in range(1, model.nb + 1):
        start, n = int(index[i]), size[int(model.joint_type[i])]
        if start < 0 or n == 0:
            continue
        joint = model.joint_names[i]
        kind = JOINT_KINDS[int(model.joint_type[i])]
        suffixes = kind.q_names if which == "q" else kind.v_names
        for k in range(n):
            names[start + k] = joint if n == 1 else f"{joint}.{suffixes[k]}"
    return tuple(names)


def configuration_from_names(
    model: Any, values: Mapping[str, float], q: NDArray | None = None
) -> NDArray[np.float64]:
    """The configuration q of ``model`` with the coordinates named in ``values`` set.

    Parameters
    ----------
    model : Model
    values : mapping of str to float
        Coordinate name (an entry of :attr:`~eslabon.Model.q_names`: a joint's name, or
        ``joint.suffix`` for a joint of several coordinates) → value [rad, m, or a
        quaternion's component]. A ROS ``JointState``: ``dict(zip(msg.name,
        msg.position))``. A mimic joint's name is accepted and its value left out (the
        joint follows the one it copies), as a ``JointState`` lists mimic joints too.
    q : array_like (nq,), optional
        The values of the coordinates ``values`` leaves out; default
        :func:`eslabon.neutral`.

    Returns
    -------
    ndarray (nq,)
        A new array; ``q`` is not changed.

    Raises
    ------
    ValueError
        A name that is not one of the model's coordinates (the message lists them), a
        value that is not a finite number, or a ``q`` of the wrong shape.

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon.model import configuration_from_names
    >>> arm = es.zoo.load("planar2")
    >>> arm.q_names
    ('joint1', 'joint2')
    >>> configuration_from_names(arm, {"joint2": 0.5, "joint1": -0.1}).tolist()
    [-0.1, 0.5]
    """
    from .configuration import neutral

    if not isinstance(values, Mapping):
        raise ValueError(
            f"values: expected a mapping of coordinate names to numbers, got "
            f"{type(values).__name__}"
        )
    out = neutral(model) if q is None else np.array(q, dtype=float)
    if out.shape != (model.nq,):
        raise ValueError(f"q: expected shape ({model.nq},), got {out.shape}")
    position = {name: k for k, name in enumerate(model.q_names)}
    mimics = {model.joint_names[i] for i in range(1, model.nb + 1) if model.mimic_joint[i] >= 0}
    for name, value in values.items():
        if name in mimics and name not in position:
            continue
        if name not in position:
            raise ValueError(
                f"values: {name!r} is not a coordinate of {model.name}; its coordinates "
                f"are {list(model.q_names)}"
            )
        try:
            x = float("nan") if isinstance(value, (bool, np.bool_)) else float(value)
        except (TypeError, ValueError):
            x = float("nan")
        if not np.isfinite(x):
            raise ValueError(f"values[{name!r}]: expected a finite number, got {value!r}")
        out[position[name]] = x
    return out
