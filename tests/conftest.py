"""Shared test helpers: seeded random serial chains and random states.

Both are exposed as fixtures returning a function, so a test (or another fixture) calls
``random_chain(seed, n, convention)`` and ``random_states(model, seed, count)``.
"""
from __future__ import annotations

import numpy as np
import pytest

import eslabon as es

CONVENTIONS = ("standard", "modified", "rojas")

# The DH keys of each convention, as from_dh expects them in a row.
DH_KEYS = {"standard": ("theta", "d", "a", "alpha"),
           "modified": ("alpha", "a", "theta", "d"),
           "rojas": ("theta", "b", "d", "alpha")}


def random_rotation(rng) -> np.ndarray:
    """A random proper rotation (QR of a Gaussian matrix, signs fixed)."""
    Q, R = np.linalg.qr(rng.normal(size=(3, 3)))
    Q = Q * np.sign(np.diag(R))
    if np.linalg.det(Q) < 0:
        Q[:, 0] = -Q[:, 0]
    return Q


def random_inertia(rng, mass: float) -> np.ndarray:
    """A physical inertia about the COM: a solid box of random size, randomly rotated."""
    a, b, c = rng.uniform(0.05, 0.5, size=3)
    principal = mass / 12.0 * np.array([b * b + c * c, a * a + c * c, a * a + b * b])
    R = random_rotation(rng)
    inertia = R @ np.diag(principal) @ R.T
    return 0.5 * (inertia + inertia.T)


def _dh_values(rng, joint: str) -> dict:
    """Standard-named DH values of one row (θ and d are offsets for R and P rows)."""
    if rng.random() < 0.3:      # the special twists real tables are full of
        alpha = float(rng.choice([0.0, np.pi / 2, -np.pi / 2, np.pi]))
    else:
        alpha = rng.uniform(-np.pi, np.pi)
    return {"theta": rng.uniform(-np.pi, np.pi), "d": rng.uniform(-0.4, 0.4),
            "a": rng.uniform(-0.5, 0.5), "alpha": alpha}


def _rename(dh: dict, convention: str) -> dict:
    if convention == "rojas":   # thesis names: d = link length, b = offset
        return {"theta": dh["theta"], "b": dh["d"], "d": dh["a"], "alpha": dh["alpha"]}
    return dict(dh)


def make_random_chain(seed: int, n: int, convention: str, *, friction: bool = True,
                      payload: bool | None = None, tool: bool | None = None,
                      joints: str | None = None):
    """A seeded random serial chain of ``n`` R/P joints in a DH ``convention``.

    Random DH values, masses in [0.5, 5] kg, COMs within 0.3 m of each DH frame, random
    physical (box) inertias in random orientations, viscous and Coulomb friction and
    armature on some joints (none if ``friction`` is False), a random gravity of 9.81
    m/s² in a random direction. ``payload``/``tool`` (default: seed even / seed % 3 == 0) add
    a random rigid payload at the last frame and a random tool transform. ``joints``
    forces the joint types (e.g. "RPR"); otherwise they are random with both kinds
    present when n >= 2; for n = 1 it is P when seed % 3 == 2, else R.
    """
    if convention not in CONVENTIONS:
        raise ValueError(f"convention: expected one of {CONVENTIONS}, got {convention!r}")
    rng = np.random.default_rng(seed)
    if joints is None:
        kinds = np.where(rng.random(n) < 0.35, "P", "R")
        if n == 1:
            kinds[0] = "P" if seed % 3 == 2 else "R"
        elif len(set(kinds)) == 1:
            k = rng.integers(n)
            kinds[k] = "P" if kinds[k] == "R" else "R"
        joints = "".join(kinds)
    if len(joints) != n:
        raise ValueError(f"joints: expected {n} letters, got {joints!r}")
    rows = []
    for jt in joints:
        mass = rng.uniform(0.5, 5.0)
        row = {"joint": jt, **_rename(_dh_values(rng, jt), convention),
               "mass": mass, "com": rng.uniform(-0.3, 0.3, size=3),
               "inertia": random_inertia(rng, mass)}
        viscous, coulomb, armature = rng.uniform(0, 0.5), rng.uniform(0, 0.3), rng.uniform(0, 0.05)
        use = rng.random(3) < 0.6
        if friction:
            row.update(viscous=viscous * use[0], coulomb=coulomb * use[1],
                       armature=armature * use[2])
        rows.append(row)
    direction = rng.normal(size=3)
    gravity = 9.81 * direction / np.linalg.norm(direction)
    pay = None
    if payload if payload is not None else seed % 2 == 0:
        pm = rng.uniform(0.2, 2.0)
        pay = {"mass": pm, "inertia": random_inertia(rng, pm),
               "com": rng.uniform(-0.2, 0.2, size=3)}
    T = None
    if tool if tool is not None else seed % 3 == 0:
        T = np.eye(4)
        T[:3, :3] = random_rotation(rng)
        T[:3, 3] = rng.uniform(-0.3, 0.3, size=3)
    kwargs = {} if T is None else {"tool": T}
    model = es.from_dh(rows, convention, gravity=gravity, payload=pay,
                       name=f"random-{convention}-{n}-s{seed}", **kwargs)
    assert model.nq == n
    return model


def make_random_states(model, seed: int, count: int = 5):
    """``count`` random states (q, q̇, q̈), each (count, n): revolute q in [−π, π],
    prismatic q in [−0.5, 0.5] m, q̇ in [−2, 2], q̈ in [−3, 3]."""
    rng = np.random.default_rng(seed)
    n = model.nq
    prismatic = np.array([t == "prismatic" for t in model.joint_types])
    q = np.where(prismatic, rng.uniform(-0.5, 0.5, size=(count, n)),
                 rng.uniform(-np.pi, np.pi, size=(count, n)))
    qd = rng.uniform(-2.0, 2.0, size=(count, n))
    qdd = rng.uniform(-3.0, 3.0, size=(count, n))
    return q, qd, qdd


@pytest.fixture(scope="session")
def random_chain():
    """``random_chain(seed, n, convention, **options)`` -> a random eslabon Model."""
    return make_random_chain


@pytest.fixture(scope="session")
def random_states():
    """``random_states(model, seed, count=5)`` -> (q, q̇, q̈), each (count, n)."""
    return make_random_states
