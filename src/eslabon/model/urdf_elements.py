"""The element readers of the URDF front-end (:mod:`eslabon.model.urdf`): one child
element, decimal numbers from an attribute, an ``<origin>``, an ``<inertial>``, the
``<visual>`` shapes and colours, and unique names. Each refusal names the element and its
source line."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from typing import TYPE_CHECKING, cast

import numpy as np

from ..spatial import rot_x, rot_y, rot_z

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

    # one <visual> shape: (kind, {attribute: sizes} or the mesh file name, origin 4x4)
    Visual = tuple[str, dict[str, list[float]] | str, NDArray[np.float64]]

_NUMBER = re.compile(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_INERTIA_ATTRS = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
_SHAPES = {"box": {"size": 3}, "cylinder": {"radius": 1, "length": 1}, "sphere": {"radius": 1}}


def _at(elem: ET.Element, where: str) -> str:
    return f"{where}: <{elem.tag}> at line {elem.get('_line')}"


def _one(elem: ET.Element | None, tag: str, where: str) -> ET.Element | None:
    """The one ``<tag>`` child of ``elem`` (None if there is none); a second is refused."""
    if elem is None:
        return None
    found = elem.findall(tag)
    if len(found) > 1:
        raise ValueError(
            f"{_at(found[1], where)}: a second <{tag}> in the <{elem.tag}> at "
            f"line {elem.get('_line')} (one is allowed)"
        )
    return found[0] if found else None


def _floats(
    elem: ET.Element | None, attr: str, n: int, default: ArrayLike | None, where: str
) -> NDArray[np.float64]:
    """``n`` finite decimal numbers from attribute ``attr`` (``default`` when it is absent;
    a required attribute has default None)."""
    raw = elem.get(attr) if elem is not None else None
    if raw is None:
        if default is None:  # a required attribute is only asked of an element present
            raise ValueError(
                f"{_at(cast(ET.Element, elem), where)}: {attr}: missing ({n} number"
                f"{'s' if n > 1 else ''} expected)"
            )
        return np.array(default, dtype=float)
    tokens = raw.split()
    vals = np.array([float(t) for t in tokens if _NUMBER.fullmatch(t)])
    if len(tokens) != n or len(vals) != n or not np.isfinite(vals).all():
        raise ValueError(
            f"{_at(cast(ET.Element, elem), where)}: {attr}: expected {n} finite number"
            f"{'s' if n > 1 else ''}, got {raw!r}"
        )
    return vals


def _nonnegative(elem: ET.Element | None, attr: str, where: str) -> float:
    """An optional attribute holding one number >= 0 (0 when absent)."""
    value = float(_floats(elem, attr, 1, (0.0,), where)[0])
    if value < 0.0:  # read from the attribute, so elem is an element
        raise ValueError(
            f"{_at(cast(ET.Element, elem), where)}: {attr}: expected a number >= 0, got {value}"
        )
    return value + 0.0


def rpy_matrix(rpy: Iterable[float]) -> NDArray[np.float64]:
    """R = Rz(yaw) Ry(pitch) Rx(roll) for URDF's fixed-axis roll, pitch, yaw.

    The rotation of an ``<origin rpy="roll pitch yaw">``: roll about x, then pitch about
    the fixed y, then yaw about the fixed z. The inverse is
    :func:`~eslabon.model.urdf_export.matrix_rpy`.

    Parameters
    ----------
    rpy : iterable of float
        Exactly three angles (roll, pitch, yaw) [rad].

    Returns
    -------
    ndarray (3, 3)
        The rotation matrix: the rotated frame's axes (columns) in the original axes.

    Raises
    ------
    ValueError
        When ``rpy`` does not hold exactly three values.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.model.urdf import rpy_matrix
    >>> (rpy_matrix([0.0, 0.0, np.pi / 2]) @ [1.0, 0.0, 0.0]).round(6).tolist()
    [0.0, 1.0, 0.0]
    """
    r, p, y = rpy
    return rot_z(y) @ rot_y(p) @ rot_x(r)


def _origin(elem: ET.Element | None, where: str) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    o = _one(elem, "origin", where) if elem is not None else None
    return (
        rpy_matrix(_floats(o, "rpy", 3, (0, 0, 0), where)),
        _floats(o, "xyz", 3, (0, 0, 0), where),
    )


def _inertial(
    link: ET.Element, where: str
) -> tuple[float, NDArray[np.float64], NDArray[np.float64]]:
    """(mass, COM, inertia about the COM in link axes); zeros without ``<inertial>``."""
    inertial = _one(link, "inertial", where)
    if inertial is None:
        return 0.0, np.zeros(3), np.zeros((3, 3))
    R, p = _origin(inertial, where)
    parts = {tag: _one(inertial, tag, where) for tag in ("mass", "inertia")}
    for tag, elem in parts.items():
        if elem is None:
            raise ValueError(
                f"{_at(inertial, where)}: <{tag}> missing (an <inertial> needs "
                "<mass value> and <inertia ixx ixy ixz iyy iyz izz>)"
            )
    mass = float(_floats(parts["mass"], "value", 1, None, where)[0])
    v = {k: float(_floats(parts["inertia"], k, 1, None, where)[0]) for k in _INERTIA_ATTRS}
    I = np.array(
        [
            [v["ixx"], v["ixy"], v["ixz"]],
            [v["ixy"], v["iyy"], v["iyz"]],
            [v["ixz"], v["iyz"], v["izz"]],
        ]
    )
    return mass, p, R @ I @ R.T


def _visuals(link: ET.Element, where: str) -> list[Visual]:
    out: list[Visual] = []
    for vis in link.findall("visual"):
        R, p = _origin(vis, where)
        T = np.eye(4)
        T[:3, :3], T[:3, 3] = R, p
        geom = _one(vis, "geometry", where)
        for shape in list(geom) if geom is not None else []:
            if shape.tag == "mesh":
                filename = shape.get("filename")
                if not filename:
                    raise ValueError(f"{_at(shape, where)}: filename: missing")
                out.append(("mesh", filename, T))
            elif shape.tag in _SHAPES:
                size: dict[str, list[float]] = {}
                for attr, n in _SHAPES[shape.tag].items():
                    values = _floats(shape, attr, n, None, where)
                    if (values < 0).any():
                        raise ValueError(
                            f"{_at(shape, where)}: {attr}: expected sizes >= 0, "
                            f"got {shape.get(attr)!r}"
                        )
                    size[attr] = values.tolist()
                out.append((shape.tag, size, T))
    return out


def _visual_styles(
    robot: ET.Element, links: dict[str, ET.Element], where: str
) -> tuple[
    dict[str, list[float]],
    dict[tuple[str, str], tuple[float, ...]],
    dict[str, list[tuple[float, ...]]],
]:
    """({link: rgba} of each link's first coloured visual, {(link, mesh file): scale},
    {link: the scale of each of its visuals, in the order of :func:`_visuals`}): the
    last one tells apart one mesh file used twice on a link at two scales.

    A ``<material>`` gives its ``<color rgba>`` in place or by the name of a material
    defined at the robot's top level; a colour that is not four numbers in [0, 1] is
    ignored (it only paints the viewer)."""
    named: dict[str, list[float]] = {}
    for mat in robot.findall("material"):
        rgba = _rgba(mat)
        if mat.get("name") and rgba is not None:
            named[mat.get("name", "")] = rgba
    colors: dict[str, list[float]] = {}
    scales: dict[tuple[str, str], tuple[float, ...]] = {}
    each: dict[str, list[tuple[float, ...]]] = {}
    for name, link in links.items():
        for vis in link.findall("visual"):
            style = vis.find("material")
            if style is not None and name not in colors:
                rgba = _rgba(style)
                rgba = rgba if rgba is not None else named.get(style.get("name", ""))
                if rgba is not None:
                    colors[name] = rgba
            for mesh in vis.iter("mesh"):
                if mesh.get("scale") and mesh.get("filename"):
                    values = _floats(mesh, "scale", 3, None, where)
                    scales[(name, mesh.get("filename", ""))] = tuple(values.tolist())
            geom = vis.find("geometry")
            for shape in list(geom) if geom is not None else []:
                if shape.tag == "mesh" or shape.tag in _SHAPES:
                    one = shape.tag != "mesh" or not shape.get("scale")
                    scale = (1.0, 1.0, 1.0) if one else _floats(shape, "scale", 3, None, where)
                    each.setdefault(name, []).append(tuple(float(x) for x in scale))
    return colors, scales, each


def _rgba(material: ET.Element) -> list[float] | None:
    color = material.find("color")
    if color is None:
        return None
    try:
        values = [float(v) for v in (color.get("rgba") or "").split()]
    except ValueError:
        return None
    ok = len(values) == 4 and all(np.isfinite(v) and 0.0 <= v <= 1.0 for v in values)
    return values if ok else None


def _named(elements: Iterable[ET.Element], kind: str, where: str) -> dict[str, ET.Element]:
    """{name: element} of the ``<link>`` or ``<joint>`` elements; each needs a name that no
    other element of its kind has."""
    named: dict[str, ET.Element] = {}
    for elem in elements:
        name = elem.get("name")
        if not name:
            raise ValueError(f"{_at(elem, where)}: name: missing")
        if name in named:
            raise ValueError(
                f"{_at(elem, where)}: name {name!r} is already the name of the "
                f"<{kind}> at line {named[name].get('_line')}; {kind} names must "
                "differ"
            )
        named[name] = elem
    return named
