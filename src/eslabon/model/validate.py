"""Input checks for models: every error names the field and what was expected.

A number is a real number: an int or a float (numpy's too), never a boolean, a string or
None, which are refused rather than converted (``True`` is not 1.0, ``"1.5"`` is not
1.5); a count or an index is an int.
"""

from __future__ import annotations

import numbers
import reprlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from .._engine.layout import JOINT_KINDS
from ..conventions import FIXED, JOINT_TYPE_NAMES, PRISMATIC
from .mimic import check_mimic_arrays

if TYPE_CHECKING:
    from typing import Protocol

    from numpy.typing import ArrayLike, NDArray

    class ModelData(Protocol):
        """What the checks below read of a :class:`~eslabon.model.Model`, also while it is
        being built (model.py imports this module, so this one cannot import Model)."""

        @property
        def name(self) -> str: ...
        @property
        def nb(self) -> int: ...
        @property
        def parent(self) -> np.ndarray: ...
        @property
        def joint_type(self) -> np.ndarray: ...
        @property
        def joint_names(self) -> tuple: ...
        @property
        def axis(self) -> np.ndarray: ...
        @property
        def tree_rotation(self) -> np.ndarray: ...
        @property
        def tree_translation(self) -> np.ndarray: ...
        @property
        def mass(self) -> np.ndarray: ...
        @property
        def com(self) -> np.ndarray: ...
        @property
        def inertia(self) -> np.ndarray: ...
        @property
        def com_slide(self) -> np.ndarray: ...
        @property
        def axis2(self) -> Any: ...
        @property
        def pitch(self) -> Any: ...
        @property
        def mimic_joint(self) -> Any: ...
        @property
        def mimic_multiplier(self) -> Any: ...
        @property
        def mimic_offset(self) -> Any: ...
        @property
        def gravity(self) -> np.ndarray: ...
        @property
        def body_names(self) -> tuple: ...
        @property
        def frames(self) -> tuple: ...


_SHORT = reprlib.Repr()
_SHORT.maxstring, _SHORT.maxother, _SHORT.maxlong = 60, 60, 40
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = 6
_NUMERIC_KINDS = "iuf"  # numpy dtype kinds of real numbers (bool is "b")


def kinds_with(has: Callable[[Any], bool]) -> str:
    """The names of the joint types for which ``has(kind)`` is true, as "a, b or c" (for
    messages that say which types take a field)."""
    names = [k.name for k in JOINT_KINDS.values() if has(k)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def short_repr(value: object) -> str:
    """``repr(value)`` cut to a readable length (for error messages about file input)."""
    return _SHORT.repr(value)


def _not_a_number(value: object) -> tuple[object, str] | None:
    """The first entry of ``value`` (a number or nested sequences of them) that is not a
    real number, with what it is; None when every entry is one."""
    stack: list[object] = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, np.ndarray):
            if v.dtype.kind in _NUMERIC_KINDS:
                continue
            if v.dtype.kind == "O":
                stack.extend(reversed(v.ravel().tolist()))
                continue
            return v, f"an array of {v.dtype}"
        if isinstance(v, (list, tuple)):
            stack.extend(reversed(v))
        elif isinstance(v, (bool, np.bool_)):
            return v, "a boolean"
        elif isinstance(v, (str, bytes)):
            return v, "a string"
        elif v is None:
            return v, "null"
        elif not isinstance(v, numbers.Real):
            return v, f"a {type(v).__name__}"
    return None


def as_float_array(
    value: ArrayLike, shape: tuple[int, ...], field: str, want: str | None = None
) -> NDArray[np.float64]:
    """``value`` as a finite float64 array of ``shape``, or a ValueError naming ``field``
    and ``want`` (default "a number" or "numbers of shape ...")."""
    shape = tuple(shape)
    want = want or ("a number" if shape == () else f"numbers of shape {shape}")
    bad = _not_a_number(value)
    if bad is not None:
        entry, kind = bad
        what = "" if entry is value else f": {short_repr(entry)} is {kind}"
        kind = f" ({kind})" if entry is value and kind != "null" else ""
        raise ValueError(f"{field}: expected {want}, got {short_repr(value)}{kind}{what}")
    try:
        arr = np.array(value, dtype=np.float64)
    except OverflowError:
        raise ValueError(
            f"{field}: expected {want}, got {short_repr(value)} (too large for a float)"
        ) from None
    except (TypeError, ValueError):
        raise ValueError(f"{field}: expected {want}, got {short_repr(value)}") from None
    if arr.shape != shape:
        if shape == ():
            raise ValueError(f"{field}: expected {want}, got {short_repr(value)}")
        raise ValueError(f"{field}: expected shape {shape}, got {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(
            f"{field}: expected finite numbers, got {short_repr(arr.tolist())} (NaN or inf)"
        )
    return arr


# Bounds on a model's magnitudes (docs/model-files.md, "Bounds on magnitudes"). Far
# above any real robot (the heaviest cranes and mining machines are ~1e6 kg and ~100 m
# long), yet low enough that what the dynamics multiply stays finite in float64 (largest
# ~1.8e308) with a wide margin: a mass-matrix entry is at most ~ nb·(I + m·L²) ≤ nb·2e21
# kg·m², a gravity torque ~ nb·m·|g|·L ≤ nb·1e18 N·m, the velocity terms ~ M·q̇² stay
# finite for joint rates up to ~1e140 rad/s, and the articulated-body inertias, which
# multiply two such numbers, stay near 1e45. Without a bound, mass 1e308 or gravity 1e300
# loaded and every result was inf or NaN (or an overflow warning deep in a kernel).
MAX_MASS = 1e9  # kg
MAX_LENGTH = 1e6  # m: joint placements, centres of mass; a helical pitch in m/rad
MAX_INERTIA = MAX_MASS * MAX_LENGTH**2  # 1e21 kg·m²: inertias, rotor armatures
MAX_FRICTION = 1e15  # N·m·s/rad or N·s/m (viscous); N·m or N (Coulomb)
MAX_GRAVITY = 1e3  # m/s², the length of g: about 100 g


def check_magnitude(
    value: ArrayLike, bound: float, field: str, unit: str, norm: bool = False
) -> None:
    """Refuse a (finite) ``value`` whose largest entry (its length with ``norm``) exceeds
    ``bound``, naming ``field``, the bound and its unit."""
    arr = np.asarray(value, dtype=np.float64)
    size = float(np.max(np.abs(arr), initial=0.0))  # (no overflow in the norm below)
    if norm and size <= bound:
        size = float(np.linalg.norm(arr))
    if size > bound:
        what = "a length" if norm else "magnitudes"
        raise ValueError(
            f"{field}: expected {what} of at most {bound:g} {unit} (a bound no real robot "
            f"reaches, see docs/model-files.md), got {size:.4g}"
        )


def as_int(value: object, field: str, want: str = "an integer", least: int | None = None) -> int:
    """``value`` as an int (a Python or numpy integer, not a bool or a float such as 0.7),
    at least ``least`` when given, or a ValueError naming ``field``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{field}: expected {want}, got {short_repr(value)}")
    if least is not None and value < least:
        raise ValueError(f"{field}: expected {want}, got {int(value)}")
    return int(value)


def check_name(value: object, field: str) -> str:
    """A non-empty string (a model, body or frame name)."""
    if not isinstance(value, str) or not value:
        raise ValueError(f"{field}: expected a non-empty string, got {short_repr(value)}")
    return value


def check_nonnegative(
    value: float, field: str, at_most: float | None = None, unit: str = ""
) -> float:
    """``value`` as a finite float ≥ 0 (−0.0 returned as 0.0), at most ``at_most`` when
    given, or a ValueError naming ``field``: a mass, an inertia, a friction coefficient.

    Parameters
    ----------
    value : float
        The number to check (a Python or numpy number, or a 0-d array; not a bool, a
        string or None).
    field : str
        The name of the field in the error messages (``"links[2].mass"``).
    at_most : float, optional
        An upper bound (a magnitude no real robot reaches, e.g. :data:`MAX_MASS`); none by
        default.
    unit : str
        The unit of ``at_most`` in the error message (``"kg"``).

    Returns
    -------
    float
        ``value`` as a float, +0.0 for −0.0.

    Raises
    ------
    ValueError
        ``value`` is not a finite number, is negative, or exceeds ``at_most``; the
        message names ``field``.

    Examples
    --------
    >>> from eslabon.model.validate import MAX_MASS, check_nonnegative
    >>> check_nonnegative(2, "mass"), check_nonnegative(-0.0, "mass")
    (2.0, 0.0)
    >>> check_nonnegative(-1.5, "links[0].mass")
    Traceback (most recent call last):
        ...
    ValueError: links[0].mass: expected a number >= 0, got -1.5
    >>> check_nonnegative(2e9, "links[0].mass", MAX_MASS, "kg")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    ValueError: links[0].mass: expected magnitudes of at most 1e+09 kg ...
    """
    v = float(as_float_array(value, (), field, "a number >= 0"))
    if v < 0.0:
        raise ValueError(f"{field}: expected a number >= 0, got {v}")
    if at_most is not None:
        check_magnitude(v, at_most, field, unit)
    return v + 0.0  # -0.0 as 0.0


#: A principal moment below zero by at most this fraction of the model's largest principal
#: moment is rounding in the file (a CAD export printing a few significant digits, a
#: placeholder body of 1 mg): it is clipped to 0 with a :class:`NegativeMomentWarning`;
#: a larger negative moment is refused. 1e-6 of the largest moment is below what a
#: mass matrix assembled from these inertias resolves in any quantity eslabon checks
#: (1e-9 relative agreement with Pinocchio needs the largest moments, not these), and far
#: above the eigen-solver's rounding (1e-16 relative); docs/model-files.md.
INERTIA_TOLERANCE = 1e-6


def symmetric_inertia(value: ArrayLike, field: str) -> NDArray[np.float64]:
    """A symmetric 3×3 matrix (symmetrized); its eigenvalues are checked by
    :func:`settle_inertia` once the model's scale is known."""
    inertia = as_float_array(value, (3, 3), field)
    check_magnitude(inertia, MAX_INERTIA, field, "kg·m²")
    scale = max(1.0, float(np.max(np.abs(inertia))))
    if not np.allclose(inertia, inertia.T, atol=1e-9 * scale, rtol=0.0):
        raise ValueError(f"{field}: expected a symmetric 3x3 matrix, got {inertia.tolist()}")
    return 0.5 * (inertia + inertia.T)


# (field, bound, unit) of the joints' friction and rotor inertia
BODY_BOUNDS = (
    ("viscous", MAX_FRICTION, "N·m·s/rad or N·s/m"),
    ("coulomb", MAX_FRICTION, "N·m or N"),
    ("armature", MAX_INERTIA, "kg·m² or kg"),
)


def largest_moment(inertias: ArrayLike) -> float:
    """The largest principal moment of a stack of symmetric (…, 3, 3) inertias (0 for
    none): the scale of :func:`settle_inertia`'s tolerance."""
    arr = np.asarray(inertias, dtype=np.float64).reshape(-1, 3, 3)
    return max(0.0, float(np.linalg.eigvalsh(arr).max())) if len(arr) else 0.0


def settle_inertia(
    inertia: NDArray[np.float64], field: str, scale: float = 0.0, body: str | None = None
) -> NDArray[np.float64]:
    """A symmetric inertia made positive semi-definite: a principal moment below zero by
    at most :data:`INERTIA_TOLERANCE` × the largest principal moment (``scale``, the
    model's; at least the body's own) is clipped to 0 with a
    :class:`NegativeMomentWarning` naming ``body`` (default ``field``) and the moment;
    below that a ValueError naming ``field``. Moments negative by rounding only
    (1e-12 of the scale) are kept as they are, quietly."""
    eig, vec = np.linalg.eigh(inertia)
    ref = max(float(scale), float(eig[-1]), 0.0)
    if eig[0] >= -1e-12 * ref:
        return inertia
    tol = INERTIA_TOLERANCE * ref
    if eig[0] < -tol or ref == 0.0:
        raise ValueError(
            f"{field}: expected a positive semi-definite inertia, got eigenvalues "
            f"{eig.tolist()} (negative beyond {tol:.3g} kg·m², {INERTIA_TOLERANCE:g} of the "
            "model's largest principal moment)"
        )
    import warnings

    from .._args import caller_stacklevel

    warnings.warn(
        f"{body or field}: principal moment {eig[0]:.3g} kg·m² is negative, within "
        f"{INERTIA_TOLERANCE:g} of the model's largest principal moment ({ref:.3g} kg·m²): "
        "taken as rounding and clipped to 0",
        NegativeMomentWarning,
        stacklevel=caller_stacklevel(),
    )
    clipped = (vec * np.maximum(eig, 0.0)) @ vec.T
    return 0.5 * (clipped + clipped.T)


def check_inertia(value: ArrayLike, field: str, scale: float = 0.0) -> NDArray[np.float64]:
    """A symmetric positive semi-definite 3×3 inertia (singular, rod-like inertias are legal;
    a negative moment within the tolerance of :func:`settle_inertia` is clipped to 0)."""
    return settle_inertia(symmetric_inertia(value, field), field, scale)


def check_rotation(value: ArrayLike, field: str) -> NDArray[np.float64]:
    R = as_float_array(value, (3, 3), field)
    if not (np.allclose(R.T @ R, np.eye(3), atol=1e-9) and abs(np.linalg.det(R) - 1.0) < 1e-9):
        raise ValueError(f"{field}: expected a proper rotation matrix (orthonormal, det +1)")
    return R


def check_body_arrays(model: ModelData) -> dict[str, NDArray[Any]]:
    """Convert and check every per-body array of ``model``; returns the arrays to store."""
    parent = np.asarray(model.parent, dtype=np.int64)
    if parent.ndim != 1 or len(parent) < 1:
        raise ValueError("parent: expected a 1-D array with the world as entry 0")
    n = len(parent)
    if parent[0] != -1:
        raise ValueError("parent[0]: the world body has parent -1")
    for i in range(1, n):
        if not 0 <= parent[i] < i:
            raise ValueError(f"parent[{i}]: expected 0 <= parent < {i}, got {parent[i]}")
    jtype = np.asarray(model.joint_type, dtype=np.int64)
    if jtype.shape != (n,) or not np.all(np.isin(jtype, list(JOINT_TYPE_NAMES))):
        codes = ", ".join(f"{c} ({name})" for c, name in JOINT_TYPE_NAMES.items())
        raise ValueError(
            f"joint_type: expected {n} codes among {codes}, "
            f"got {np.asarray(model.joint_type).tolist()}"
        )
    if jtype[0] != FIXED:
        raise ValueError("joint_type[0]: the world body has no joint (0, fixed)")
    out: dict[str, NDArray[Any]] = {"parent": parent, "joint_type": jtype}
    axis = as_float_array(model.axis, (n, 3), "axis")
    axis2 = as_float_array(
        np.zeros((n, 3)) if model.axis2 is None else model.axis2, (n, 3), "axis2"
    )
    for i in range(1, n):
        name = JOINT_TYPE_NAMES[int(jtype[i])]
        for key, arr, needed in (
            ("axis", axis, JOINT_KINDS[int(jtype[i])].axes >= 1),
            ("axis2", axis2, JOINT_KINDS[int(jtype[i])].axes == 2),
        ):
            norm = np.linalg.norm(arr[i])
            if needed:
                if norm < 1e-12:
                    raise ValueError(f"{key}[{i}]: expected a non-zero axis ({name} joint)")
                arr[i] /= norm
    out["axis"] = axis
    out["axis2"] = axis2
    pitch = as_float_array(np.zeros(n) if model.pitch is None else model.pitch, (n,), "pitch")
    takes_pitch = np.array([JOINT_KINDS[int(t)].pitch for t in jtype])
    bad = np.flatnonzero((pitch != 0.0) & ~takes_pitch)
    if len(bad):
        raise ValueError(
            f"pitch[{bad[0]}]: a {JOINT_KINDS[int(jtype[bad[0]])].name} joint has no pitch "
            f"(joints with one: {kinds_with(lambda k: k.pitch)})"
        )
    for i in map(int, np.flatnonzero(pitch)):
        check_magnitude(pitch[i], MAX_LENGTH, f"pitch[{i}]", "m/rad")
    out["pitch"] = pitch
    out.update(check_mimic_arrays(model, jtype))
    rot = as_float_array(model.tree_rotation, (n, 3, 3), "tree_rotation")
    for i in range(n):
        check_rotation(rot[i], f"tree_rotation[{i}]")
    out["tree_rotation"] = rot
    out["tree_translation"] = as_float_array(model.tree_translation, (n, 3), "tree_translation")
    mass = as_float_array(model.mass, (n,), "mass")
    out["com"] = as_float_array(model.com, (n, 3), "com")
    for i in range(n):
        where = f"[{i}] ({_name(model, i)})"
        check_nonnegative(mass[i], f"mass{where}", MAX_MASS, "kg")
        check_magnitude(out["tree_translation"][i], MAX_LENGTH, f"tree_translation{where}", "m")
        check_magnitude(out["com"][i], MAX_LENGTH, f"com{where}", "m")
    out["mass"] = mass
    inertia = as_float_array(model.inertia, (n, 3, 3), "inertia")
    for i in range(n):
        inertia[i] = symmetric_inertia(inertia[i], f"inertia[{i}] ({_name(model, i)})")
    scale = largest_moment(inertia)
    for i in range(n):
        field = f"inertia[{i}] ({_name(model, i)})"
        inertia[i] = settle_inertia(inertia[i], field, scale, f"{model.name}: {field}")
    out["inertia"] = inertia
    for key, bound, unit in BODY_BOUNDS:
        arr = as_float_array(getattr(model, key), (n,), key)
        for i in range(n):
            check_nonnegative(arr[i], f"{key}[{i}]", bound, unit)
        out[key] = arr
    slide = as_float_array(model.com_slide, (n,), "com_slide")
    bad = np.flatnonzero((slide != 0.0) & (jtype != PRISMATIC))
    if len(bad):
        raise ValueError(f"com_slide[{bad[0]}]: only a prismatic joint can move its COM")
    out["com_slide"] = slide
    out["gravity"] = check_gravity(model.gravity)
    return out


def check_gravity(value: ArrayLike, field: str = "gravity") -> NDArray[np.float64]:
    """Free-fall acceleration: 3 finite numbers, of length at most :data:`MAX_GRAVITY`."""
    g = as_float_array(value, (3,), field)
    check_magnitude(g, MAX_GRAVITY, field, "m/s²", norm=True)
    return g


def _distinct_names(
    names: Any, n: int, field: str, first: str, owner: str, plural: str
) -> dict[str, int]:
    """``names``: a tuple of n non-empty strings, entries 1.. all different (entry 0 is
    the world's); {name: its first index}. ``owner`` says whose name an index is
    ("body {i}"), ``plural`` what needs different names."""
    if not isinstance(names, tuple) or len(names) != n:
        raise ValueError(
            f"{field}: expected a tuple of {n} names ({first}), got {short_repr(names)}"
        )
    index: dict[str, int] = {}
    for i, name in enumerate(names):
        check_name(name, f"{field}[{i}]")
        if i and name in index:
            raise ValueError(
                f"{field}[{i}]: {name!r} is already the name of "
                f"{owner.format(i=index[name])}; {plural} need different names"
            )
        if i:
            index.setdefault(name, i)
    return index


def check_names_and_frames(model: ModelData) -> None:
    """Body names: one non-empty string per body, bodies 1..nb named differently. Frames:
    a name (each once), a body, a rotation and a translation. A frame may carry a body's
    name only as that body's own frame (on it, at the identity), so a name never means two
    places (a URDF link is both a body and a frame; :func:`~eslabon.model.to_urdf` writes
    each name once)."""
    n = len(model.parent)
    check_name(model.name, "name")
    first = _distinct_names(model.body_names, n, "body_names", "world first", "body {i}",
                            "bodies")  # fmt: skip
    _distinct_names(model.joint_names, n, "joint_names", "the world's first",
                    "body {i}'s joint", "joints")  # fmt: skip
    frames = model.frames
    for k, fr in enumerate(frames):
        check_name(getattr(fr, "name", None), f"frames[{k}].name")
        body = as_int(fr.body, f"frame {fr.name!r}.body", f"a body index in 0..{n - 1}")
        if not 0 <= body < n:
            raise ValueError(
                f"frame {fr.name!r}.body: expected a body index in 0..{n - 1}, "
                f"got {short_repr(body)}"
            )
    if frames:  # every placement at once; a bad one is then named
        try:
            R = np.array([fr.rotation for fr in frames], dtype=np.float64)
            p = np.array([fr.translation for fr in frames], dtype=np.float64)
            placed = bool(
                R.shape == (len(frames), 3, 3)
                and p.shape == (len(frames), 3)
                and np.isfinite(R).all()
                and np.isfinite(p).all()
            )
        except (TypeError, ValueError, OverflowError):
            placed = False
        if placed:
            error = np.abs(np.swapaxes(R, 1, 2) @ R - np.eye(3)).max(axis=(1, 2))
            placed = bool((error <= 1e-9).all() and (np.abs(np.linalg.det(R) - 1.0) < 1e-9).all())
        if not placed:
            for fr in frames:
                check_rotation(fr.rotation, f"frame {fr.name!r}.rotation")
                as_float_array(fr.translation, (3,), f"frame {fr.name!r}.translation")
    seen = set()
    for fr in frames:
        if fr.name in seen:
            raise ValueError(f"frame {fr.name!r}: two frames have this name")
        seen.add(fr.name)
        owner = first.get(fr.name)
        if owner is not None and (
            owner != fr.body
            or not np.array_equal(fr.rotation, np.eye(3))
            or np.any(np.asarray(fr.translation) != 0.0)
        ):
            raise ValueError(
                f"frame {fr.name!r}: {fr.name!r} is the name of body {owner}; a "
                f"frame of that name must be body {owner}'s own frame (on body "
                f"{owner}, no rotation or translation)"
            )


def _name(model: ModelData, i: int) -> str:
    names = getattr(model, "body_names", ())
    return names[i] if i < len(names) else f"body{i}"


class ImplausibleInertiaWarning(UserWarning):
    """A body's inertia is legal (symmetric, positive semi-definite) but no rigid body has
    it: its principal moments break the triangle inequality I₁ + I₂ ≥ I₃."""


class NegativeMomentWarning(ImplausibleInertiaWarning):
    """A principal moment of a body's inertia is negative, but by no more than
    :data:`INERTIA_TOLERANCE` of the model's largest principal moment (rounding in the
    file): it is clipped to 0 and the body named."""


def triangle_violation(inertia: NDArray[np.float64], mass: float) -> NDArray[np.float64] | None:
    """The sorted principal moments of a body's centroidal inertia when they break the
    triangle inequality I₁ + I₂ ≥ I₃ (no rigid body has them), else None. Massless
    bodies and zero inertias are not checked."""
    if mass <= 0.0:
        return None
    e = np.sort(np.linalg.eigvalsh(inertia))
    if e[2] <= 0.0 or e[0] + e[1] >= e[2] * (1.0 - 1e-9):
        return None
    return e


def implausible_bodies(model: ModelData) -> list[str]:
    """Names of the bodies of ``model`` whose inertia breaks the triangle inequality."""
    return [
        model.body_names[i]
        for i in range(1, model.nb + 1)
        if triangle_violation(model.inertia[i], model.mass[i]) is not None
    ]


def check_plausible(
    inertia: NDArray[np.float64], mass: float, where: str, strict: bool = False
) -> None:
    """Warn (or, with ``strict``, raise) when a body's centroidal inertia breaks the
    triangle inequality of principal moments (:func:`triangle_violation`), as the seed
    000 T3's and the classic Puma 560's tables do."""
    import warnings

    from .._args import caller_stacklevel

    e = triangle_violation(inertia, mass)
    if e is None:
        return
    msg = (
        f"{where}: principal moments {e.round(6).tolist()} break the triangle inequality "
        f"I1 + I2 >= I3 (no rigid body has this inertia)"
    )
    if strict:
        raise ValueError(msg)
    warnings.warn(msg, ImplausibleInertiaWarning, stacklevel=caller_stacklevel())
