"""Where the model packages are installed, found without importing any of their modules.

A source is a package of robot descriptions that pip installs: its name, the command that
installs it, the format of its files and the folder it puts them in. example-robot-data
(URDF) ships only data: its ``robots`` folder is found from the installed distribution's
file list (:mod:`importlib.metadata`), else under the environment's site-packages
(``<site-packages>/cmeel.prefix/share/example-robot-data/robots``), else under a prefix
(``<prefix>/share/example-robot-data/robots`` for ``sys.prefix`` and the entries of
``AMENT_PREFIX_PATH`` and ``CMAKE_PREFIX_PATH``, where conda, ROS and robotpkg put it).

The MuJoCo Menagerie's pip package (``mujoco-menagerie``, MJCF) is a source eslabon knows
but does not load by name yet: its robots are named in messages, and their MJCF files
load with ``es.load_model``. It can join as one more :class:`Source` whose ``find`` asks
``mujoco_menagerie`` for the file (it downloads its models, which this project's CI
machines cannot reach).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import sys
import sysconfig
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "example_robot_data_root",
    "menagerie_installed",
    "menagerie_names",
    "Source",
    "SOURCES",
    "EXAMPLE_ROBOT_DATA",
    "MENAGERIE",
]

EXAMPLE_ROBOT_DATA = "example-robot-data"
MENAGERIE = "mujoco-menagerie"

_ERD_SHARE = Path("share", "example-robot-data", "robots")


def _absolute(entries) -> list[Path]:
    return [Path(p) for p in entries if isinstance(p, str) and p and os.path.isabs(p)]


def example_robot_data_root() -> Path | None:
    """The ``robots`` folder of an installed example-robot-data, or None.

    Looked for, in order: the installed distribution's own files
    (``importlib.metadata``), ``cmeel.prefix/share/example-robot-data/robots`` in the
    environment's site-packages and the absolute entries of ``sys.path``, then
    ``share/example-robot-data/robots`` under ``sys.prefix`` and the entries of
    ``AMENT_PREFIX_PATH`` and ``CMAKE_PREFIX_PATH``. No module is imported.

    Returns
    -------
    pathlib.Path or None
        The folder that holds ``solo_description``, ``ur_description``, …

    Examples
    --------
    >>> from eslabon.robots.sources import example_robot_data_root
    >>> root = example_robot_data_root()
    >>> root is None or (root / "ur_description").is_dir()
    True
    """
    candidates = []
    try:
        dist = importlib.metadata.distribution(EXAMPLE_ROBOT_DATA)
    except importlib.metadata.PackageNotFoundError:
        pass
    else:
        candidates.append(Path(str(dist.locate_file("cmeel.prefix"))) / _ERD_SHARE)
    paths = sysconfig.get_paths()
    sites = _absolute([paths.get("purelib"), paths.get("platlib"), *sys.path])
    candidates += [site / "cmeel.prefix" / _ERD_SHARE for site in sites]
    prefixes = [sys.prefix]
    for variable in ("AMENT_PREFIX_PATH", "CMAKE_PREFIX_PATH"):
        prefixes += os.environ.get(variable, "").split(os.pathsep)
    candidates += [prefix / _ERD_SHARE for prefix in _absolute(prefixes)]
    return next((c for c in candidates if c.is_dir()), None)


def menagerie_installed() -> bool:
    """Whether the MuJoCo Menagerie's pip package (module ``mujoco_menagerie``) is
    installed; it is not imported.

    Returns
    -------
    bool

    Examples
    --------
    >>> from eslabon.robots.sources import menagerie_installed
    >>> isinstance(menagerie_installed(), bool)
    True
    """
    return importlib.util.find_spec("mujoco_menagerie") is not None


def menagerie_names() -> tuple[str, ...]:
    """The robot names the installed ``mujoco_menagerie`` package lists
    (``mujoco_menagerie.names()``), sorted; empty when it is not installed or cannot
    list them.

    Returns
    -------
    tuple of str

    Examples
    --------
    >>> from eslabon.robots.sources import menagerie_installed, menagerie_names
    >>> menagerie_installed() or menagerie_names() == ()
    True
    """
    if not menagerie_installed():
        return ()
    try:
        import mujoco_menagerie  # type: ignore[import-not-found]

        return tuple(sorted(str(n) for n in mujoco_menagerie.names()))
    except Exception:  # a third-party package's failure must not break a listing
        return ()


@dataclass(frozen=True)
class Source:
    """A package of robot descriptions.

    Parameters
    ----------
    package : str
        Its pip name.
    format : str
        The format of its files (``"URDF"``, ``"MJCF"``).
    readable : bool
        Whether :func:`eslabon.load_model` reads that format.
    root : callable
        () -> the folder of its files, or None when it is not installed.
    """

    package: str
    format: str
    readable: bool
    root: Callable[[], Path | None]

    @property
    def install(self) -> str:
        """The command that installs it."""
        return f"pip install {self.package}"


SOURCES = {
    EXAMPLE_ROBOT_DATA: Source(EXAMPLE_ROBOT_DATA, "URDF", True, example_robot_data_root),
    MENAGERIE: Source(MENAGERIE, "MJCF", False, lambda: None),
}
