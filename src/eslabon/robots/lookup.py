"""Robots by name: their files found in the installed packages, read as eslabon models."""

from __future__ import annotations

import difflib
from pathlib import Path

from ..loader import load_model
from ..model.validate import short_repr
from .sources import MENAGERIE, SOURCES, menagerie_installed, menagerie_names
from .table import MENAGERIE_MODELS, NOT_OFFERED, ROBOTS, Robot


def names() -> tuple[str, ...]:
    """The names of every robot :func:`load` knows, installed or not, in listing order
    (arms, dual arms, hands, mobile manipulators, quadrupeds, bipeds, humanoids, aerial
    robots, pendulums).

    Returns
    -------
    tuple of str

    Examples
    --------
    >>> from eslabon import robots
    >>> {"solo12", "panda", "go2", "talos", "ur5"} <= set(robots.names())
    True
    """
    return tuple(ROBOTS)


def available() -> tuple[str, ...]:
    """The names of the robots whose files are installed here, in :func:`names`' order.

    Returns
    -------
    tuple of str

    Examples
    --------
    >>> from eslabon import robots
    >>> set(robots.available()) <= set(robots.names())
    True
    """
    roots = {package: source.root() for package, source in SOURCES.items()}
    found = []
    for name, robot in ROBOTS.items():
        root = roots[robot.package]
        if root is not None and (root / robot.path).is_file():
            found.append(name)
    return tuple(found)


def _key(name: object) -> str:
    if not isinstance(name, str):
        raise ValueError(f"robots: name: expected a robot name (a str), got {short_repr(name)}")
    return name.strip().lower().replace("-", "_")


def _menagerie_model(key: str) -> str | None:
    """The Menagerie model a name means (its folder name, or the folder's last words:
    ``h1`` is ``unitree_h1``), or None."""
    known = sorted(set(MENAGERIE_MODELS) | set(menagerie_names()))
    return next((m for m in known if m == key or m.endswith("_" + key)), None)


def info(name: str) -> Robot:
    """The table entry of a robot: its package, file, base, end effector, category, maker,
    nq and nv.

    Parameters
    ----------
    name : str
        A name of :func:`names` (case and ``-`` / ``_`` do not matter).

    Returns
    -------
    Robot
        A frozen record (``eslabon.robots.Robot``) with the fields ``name``,
        ``package``, ``path`` (relative to the package's robots folder), ``floating``,
        ``ee`` (the end-effector link), ``category``, ``maker``, ``nq``, ``nv``,
        ``note``, and ``root_joint`` ("free_flyer" or None).

    Raises
    ------
    ValueError
        An unknown name (the closest known names first, then all of them), a name not
        offered (saying why), or a MuJoCo Menagerie model (not loaded by name yet).

    Examples
    --------
    >>> from eslabon import robots
    >>> r = robots.info("solo12")
    >>> r.package, r.path, r.floating, r.category, (r.nq, r.nv)
    ('example-robot-data', 'solo_description/robots/solo12.urdf', True, 'quadruped', (19, 18))
    """
    key = _key(name)
    if key in ROBOTS:
        return ROBOTS[key]
    if key in NOT_OFFERED:
        raise ValueError(f"robots: {name!r} is not offered: {NOT_OFFERED[key]}")
    menagerie = _menagerie_model(key)
    if menagerie is not None:
        has = (
            ": its pip package is installed here, but"
            if menagerie_installed()
            else f" ({SOURCES[MENAGERIE].install} ships it), but"
        )
        same = [n for n in ROBOTS if menagerie.endswith("_" + n)]
        instead = (
            f"example-robot-data's {same[0]!r} is the same robot in URDF"
            if same
            else "robots.names() lists the robots it loads by name"
        )
        raise ValueError(
            f"robots: {name!r} is the MuJoCo Menagerie model {menagerie!r}{has} eslabon "
            f"does not load Menagerie models by name yet (give its MJCF file to "
            f"es.load_model); {instead}"
        )
    close = difflib.get_close_matches(key, list(ROBOTS), n=4, cutoff=0.6)
    rest = [n for n in ROBOTS if n not in close]
    hint = f"did you mean {', '.join(map(repr, close))}? " if close else ""
    raise ValueError(
        f"robots: unknown robot {short_repr(name)}; {hint}known robots: " + ", ".join(rest)
    )


def path(name: str) -> Path:
    """The installed file of a robot (a URDF), e.g. for Pinocchio's
    ``buildModelFromUrdf``.

    Parameters
    ----------
    name : str
        A name of :func:`names`.

    Returns
    -------
    pathlib.Path

    Raises
    ------
    ValueError
        As :func:`info`; and a robot whose package is not installed, naming the
        command that installs it.

    Examples
    --------
    >>> from eslabon import robots
    >>> "ur5" not in robots.available() or robots.path("ur5").name == "ur5_robot.urdf"
    True
    """
    robot = info(name)
    source = SOURCES[robot.package]
    root = source.root()
    if root is None:
        raise ValueError(
            f"robots: {robot.name!r} comes with the {robot.package} package, which is not "
            f"installed here ({source.install})"
        )
    file = root / robot.path
    if not file.is_file():
        raise ValueError(
            f"robots: {robot.name!r}: the installed {robot.package} ({root}) has no "
            f"{robot.path} (another version of the package; {source.install} --upgrade)"
        )
    return file


def load(name: str, *, ee: str | None = None, gravity=None):
    """A robot by name, read from its installed package as an eslabon model, meshes
    included (the viewer finds them from the file: ``package://`` names resolve in the
    package's folder).

    The file is read by :func:`eslabon.load_model` with ``root_joint="free_flyer"`` for a
    floating-base robot (legged robots, drones, the PR2), as Pinocchio's
    ``buildModelFromUrdf(path, JointModelFreeFlyer())``, and the table's end-effector link
    (:func:`info`) as ``"ee"``. Warnings about the file's inertias are the file's.

    Parameters
    ----------
    name : str
        A name of :func:`names` (``"solo12"``, ``"panda"``, ``"go2"``, ``"talos"``,
        ``"ur5"``, …); :func:`available` says which are installed.
    ee : str, optional
        Another link as the end effector.
    gravity : array_like, (3,), optional
        Overrides the default (0, 0, −9.81) [m/s²].

    Returns
    -------
    Model

    Raises
    ------
    ValueError
        An unknown name (the closest names first, then all), a name not offered, a
        MuJoCo Menagerie model, or a robot whose package is not installed (naming
        ``pip install example-robot-data``).

    Examples
    --------
    >>> import eslabon as es
    >>> if "solo12" in es.robots.available():
    ...     solo = es.robots.load("solo12")
    ...     assert (solo.nq, solo.nv, solo.joint_types[0]) == (19, 18, "free_flyer")
    """
    robot = info(name)
    return load_model(
        path(robot.name), root_joint=robot.root_joint, ee=robot.ee if ee is None else ee,
        gravity=gravity,
    )  # fmt: skip
