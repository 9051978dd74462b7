"""A mobile manipulator in the viewer: the platform's chassis as a box, its wheels as
discs with a spoke (so that their spin shows) turning and steering, the steering body or
turret, the arm's generated geometry on its mount, and the platform's path on the floor.

The scene is the unconstrained tree of :func:`eslabon.mobile.dae.tree_model` (x, y,
heading, steering, wheels, then the arm), posed along the run by
:func:`eslabon.mobile.dae.tree_trajectory`.
"""

from __future__ import annotations

import numpy as np

from . import scene

TYRE, SPOKE, CHASSIS, STEER = "#333333", "#f0a030", "#9fb8d0", "#555555"


def _radius(params, body_name):
    for attr in ("wheel_radius", "rear_wheel_radius"):
        if hasattr(params, attr) and not body_name.startswith("front"):
            return float(getattr(params, attr))
    return float(getattr(params, "front_wheel_radius", getattr(params, "wheel_radius", 0.1)))


def _box(size, centre, color):
    T = np.eye(4)
    T[:3, 3] = centre
    return {"kind": "box", "size": list(map(float, size)), "color": color,
            "T": T.T.ravel().tolist()}  # fmt: skip


def platform_parts(mm, tree):
    """Parts per body of the tree: platform bodies drawn as such, the arm generated."""
    parts = scene.generated_parts(tree, np.zeros(tree.nq))
    names = list(tree.body_names)
    params = mm.platform.params
    wheels = [i for i, n in enumerate(names) if _is_wheel(n)]
    chassis = names.index("chassis")
    # wheel centres in the chassis frame at the neutral pose: the chassis box spans them
    from ..kinematics import forward_kinematics

    T = forward_kinematics(tree, np.zeros(tree.nq))
    inv = np.linalg.inv(T[chassis])
    centres = np.array([(inv @ T[i])[:3, 3] for i in wheels])
    r = max(_radius(params, names[i]) for i in wheels)
    lo, hi = centres.min(0) - 0.6 * r, centres.max(0) + 0.6 * r
    height = 0.6 * r
    for i, name in enumerate(names):
        if name.startswith("arm_"):
            continue
        parts[i] = []
        if i == chassis:
            size = [hi[0] - lo[0], hi[1] - lo[1], height]
            parts[i].append(_box(size, [(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, r], CHASSIS))
            top = r + height / 2
            mount = mm.mount.translation
            if mount[2] > top:  # a post from the deck to the arm's base
                post = {"kind": "capsule", "from": [mount[0], mount[1], top],
                        "to": mount.tolist(), "radius": 0.25 * r, "color": STEER}  # fmt: skip
                parts[i].append(post)
        elif i in wheels:
            rw = _radius(params, name)
            axle = scene._along(np.array([0.0, 1.0, 0.0]))
            parts[i].append(scene._cylinder(axle, rw, 0.5 * rw, TYRE))
            parts[i].append(_box([1.9 * rw, 0.56 * rw, 0.25 * rw], [0.0, 0.0, 0.0], SPOKE))
        elif name in ("steering", "turret"):
            parts[i].append(scene._cylinder(np.eye(4), 0.35 * r, 2.2 * r, STEER))
    return parts, chassis, r


def _is_wheel(name):
    return name in ("left", "right", "rear_left", "rear_right") or name.startswith(
        ("front", "wheel_")
    )


def add_mobile(viewer, mm, run, *, name=None, opacity=1.0):
    """Put a mobile manipulator's run (:func:`eslabon.mobile.simulate`) in ``viewer``.

    Parameters
    ----------
    viewer : Viewer
    mm : MobileManipulator
    run : MobileTrajectory
    name : str, optional
        The label (default ``mm.name`` and its mode).
    opacity : float
        In (0, 1].

    Returns
    -------
    Viewer
        ``viewer``.
    """
    from ..mobile.dae import expansion, tree_trajectory

    tree, traj = tree_trajectory(mm, run)
    parts, chassis, r = platform_parts(mm, tree)
    names = list(mm.platform.config_names) + [f"q{i + 1}" for i in range(mm.n_arm)]
    E = expansion(mm)
    tree_names = [""] * tree.nq
    for j in range(E.shape[1]):  # the tree's platform coordinates carry the config's names
        for i in np.flatnonzero(E[:, j]):
            tree_names[int(i)] = names[j] if E[:, j].sum() == 1 else f"{names[j]} ({i})"
    for k in range(mm.n_arm):
        tree_names[E.shape[0] + k] = names[E.shape[1] + k]
    hidden = [i for i, n in enumerate(tree_names) if n.startswith("phi") or "(" in n]
    return viewer.add(
        tree,
        traj,
        name=name or f"{mm.name} ({mm.mode})",
        parts=parts,
        curve_names=tree_names,
        hidden=hidden,
        path_body=chassis,
        floor=-r,
        opacity=opacity,
    )
