"""Seeded random serial chains, for tests, benchmarks and experiments.

>>> from eslabon.zoo import random_chain
>>> random_chain(24, seed=3).nq
24
"""

from __future__ import annotations

import numpy as np

from ..conventions import DH_CONVENTIONS
from ..model import from_dh
from ..model.validate import as_int

__all__ = ["random_chain", "random_rotation", "random_inertia"]


def random_rotation(rng: np.random.Generator) -> np.ndarray:
    """A random proper rotation (QR of a Gaussian matrix, signs fixed)."""
    Q, R = np.linalg.qr(rng.normal(size=(3, 3)))
    Q = Q * np.sign(np.diag(R))
    if np.linalg.det(Q) < 0:
        Q[:, 0] = -Q[:, 0]
    return Q


def random_inertia(rng: np.random.Generator, mass: float) -> np.ndarray:
    """A physical inertia about the COM: a solid box of random size, randomly rotated."""
    a, b, c = rng.uniform(0.05, 0.5, size=3)
    principal = mass / 12.0 * np.array([b * b + c * c, a * a + c * c, a * a + b * b])
    R = random_rotation(rng)
    inertia = R @ np.diag(principal) @ R.T
    return 0.5 * (inertia + inertia.T)


def _dh_values(rng: np.random.Generator) -> dict:
    """Standard-named DH values of one row (θ and d are offsets for R and P rows)."""
    if rng.random() < 0.3:  # the special twists real tables are full of
        alpha = float(rng.choice([0.0, np.pi / 2, -np.pi / 2, np.pi]))
    else:
        alpha = rng.uniform(-np.pi, np.pi)
    return {
        "theta": rng.uniform(-np.pi, np.pi),
        "d": rng.uniform(-0.4, 0.4),
        "a": rng.uniform(-0.5, 0.5),
        "alpha": alpha,
    }


def _rename(dh: dict, convention: str) -> dict:
    if convention == "rojas":  # thesis names: d = link length, b = offset
        return {"theta": dh["theta"], "b": dh["d"], "d": dh["a"], "alpha": dh["alpha"]}
    return dict(dh)


def random_chain(
    n: int,
    seed: int = 0,
    convention: str = "standard",
    *,
    friction: bool = False,
    payload: bool | None = None,
    tool: bool | None = None,
    joints: str | None = None,
):
    """A seeded random serial chain of ``n`` revolute/prismatic joints, compiled by
    :func:`~eslabon.from_dh` in the DH ``convention`` ("standard", "modified" or "rojas").

    Each row: random DH values (θ, α in [−π, π], with α one of 0, ±π/2, π on ~30 % of the
    rows; d in [−0.4, 0.4] m; a in [−0.5, 0.5] m), a mass in [0.5, 5] kg, a COM within
    0.3 m of its DH frame along each axis, and the inertia of a solid box (sides 0.05–0.5 m)
    about its COM in a random orientation. Gravity is 9.81 m/s² in a random direction.

    The same arguments give the same model (numpy ``default_rng(seed)``).

    Parameters
    ----------
    n : int
        Number of joints, ≥ 1.
    seed : int
        Seed of numpy's ``default_rng``, ≥ 0.
    convention : {"standard", "modified", "rojas"}
        The DH convention of the table (the same random values, renamed for "rojas").
    friction : bool
        Also set viscous (≤ 0.5 N·m·s/rad or N·s/m), Coulomb (≤ 0.3 N·m or N) friction
        and armature (≤ 0.05 kg·m² or kg), each present on ~60 % of the joints. The values
        are drawn whatever ``friction`` is, so a chain differs from its friction-free
        twin in friction only.
    payload : bool or None
        Add a random rigid payload (0.2–2 kg) at the last DH frame; None (default): when
        ``seed`` is even.
    tool : bool or None
        Add a random tool transform to ``ee`` (a rotation and up to 0.3 m along each
        axis); None (default): when ``seed % 3 == 0``.
    joints : str, optional
        The joint letters, e.g. "RPR" (length ``n``). By default they are random (P with
        probability 0.35) with both kinds present when n >= 2; for n = 1 the joint is P
        when ``seed % 3 == 2``, else R.

    Returns
    -------
    Model
        The chain, named ``random-{convention}-{n}-s{seed}``, with nq = nv = n (a
        payload is a fixed body).

    Raises
    ------
    ValueError
        ``n`` not a positive integer, ``seed`` not a non-negative integer, an unknown
        convention, ``joints`` not ``n`` letters R or P.

    Examples
    --------
    >>> from eslabon.zoo import random_chain
    >>> arm = random_chain(4, seed=1)
    >>> arm.name, arm.joint_letters, arm.nq
    ('random-standard-4-s1', 'RRPR', 4)
    >>> random_chain(3, seed=2, joints="RPR", friction=True).joint_letters
    'RPR'
    """
    n = as_int(n, "n", "a positive integer", least=1)
    if convention not in DH_CONVENTIONS:
        raise ValueError(f"convention: expected one of {DH_CONVENTIONS}, got {convention!r}")
    seed = as_int(seed, "seed", "a non-negative integer", least=0)
    rng = np.random.default_rng(seed)
    if joints is None:
        kinds = np.where(rng.random(n) < 0.35, "P", "R")
        if n == 1:
            kinds[0] = "P" if seed % 3 == 2 else "R"
        elif len(set(kinds)) == 1:
            k = rng.integers(n)
            kinds[k] = "P" if kinds[k] == "R" else "R"
        joints = "".join(kinds)
    if not isinstance(joints, str) or len(joints) != n or set(joints) - {"R", "P"}:
        raise ValueError(f"joints: expected {n} letters R or P, got {joints!r}")
    rows = []
    for jt in joints:
        mass = rng.uniform(0.5, 5.0)
        row = {
            "joint": jt,
            **_rename(_dh_values(rng), convention),
            "mass": mass,
            "com": rng.uniform(-0.3, 0.3, size=3),
            "inertia": random_inertia(rng, mass),
        }
        viscous, coulomb, armature = rng.uniform(0, 0.5), rng.uniform(0, 0.3), rng.uniform(0, 0.05)
        use = rng.random(3) < 0.6
        if friction:
            row.update(
                viscous=viscous * use[0], coulomb=coulomb * use[1], armature=armature * use[2]
            )
        rows.append(row)
    direction = rng.normal(size=3)
    gravity = 9.81 * direction / np.linalg.norm(direction)
    pay = None
    if payload if payload is not None else seed % 2 == 0:
        pm = rng.uniform(0.2, 2.0)
        pay = {
            "mass": pm,
            "inertia": random_inertia(rng, pm),
            "com": rng.uniform(-0.2, 0.2, size=3),
        }
    T = None
    if tool if tool is not None else seed % 3 == 0:
        T = np.eye(4)
        T[:3, :3] = random_rotation(rng)
        T[:3, 3] = rng.uniform(-0.3, 0.3, size=3)
    model = from_dh(
        rows,
        convention,
        gravity=gravity,
        payload=pay,
        tool=T,
        name=f"random-{convention}-{n}-s{seed}",
        source=f"eslabon.zoo.random_chain({n}, seed={seed})",
    )
    if model.nq != n:  # pragma: no cover - from_dh adds one dof per row
        raise AssertionError(f"random_chain: built nq={model.nq}, expected {n}")
    return model
