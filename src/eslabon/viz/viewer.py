"""A self-contained HTML viewer of trajectories: the robots in 3-D (three.js, inlined, so
the page works offline from a file and inside a notebook), playback in real time with a
speed control, a time scrubber and frame stepping, and the joint curves beside it.

:class:`Viewer` holds one or more robots, each with its trajectory (nominal and perturbed
runs, thesis and coupled models…), draws their URDF visuals (meshes, boxes, cylinders,
spheres, with their colours) or a generated geometry, a ground grid normal to the model's
gravity, world axes, and for a mobile manipulator the platform's body, wheels and path.
A model with constraints also gets its loop closures, contacts and rolling wheels'
contact points marked, and a constrained run's residual and energy a panel of their own
(:mod:`.constraint_marks`, ``page/constraints.js``); a tree's page is as it was.
``Viewer.save(path)`` writes the page; in Jupyter the object shows itself
(``_repr_html_``). :func:`write_viewer` is the one-call form.

The 3-D view fills the window beside the plots and follows its size; the camera follows
a floating base (a "follow" box); the legend is in columns and scrolls.

The page exposes ``window.eslabonViewer`` (``setTime``, ``time``, ``frame``, ``play``,
``pause``, ``setSpeed``, ``clock``, ``meshCount``, ``up``, ``screenUp``,
``canvasSize``, ``viewSize``, ``following``, ``setFollow``, ``baseOnScreen``; with
constraints ``constraintMarks``, ``markPositions``, ``constraintCurve``) so that a
browser test can drive it.
"""

from __future__ import annotations

import html
import json
import re
from importlib import resources
from pathlib import Path

import numpy as np

from .._args import whole_number
from .._files import write_text_atomic
from . import scene
from .constraint_marks import constraint_curves, constraint_frames, constraint_marks

#: curve colours (distinct; a second robot's curves are dashed)
CURVE_COLORS = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#393b79", "#ad494a", "#637939", "#8c6d31", "#843c39", "#7b4173",
    "#3182bd", "#e6550d", "#31a354", "#756bb1",
)  # fmt: skip
DASHES = ("", "6 3", "2 2", "8 3 2 3")


def _asset(name: str) -> str:
    base = resources.files("eslabon.viz")
    folder = "vendor" if name.endswith(".min.js") or name.endswith(".txt") else "page"
    return (base / folder / name).read_text(encoding="utf-8")


#: a placeholder of the page's template: __TITLE__, __THREE__, __DATA__, __SCRIPT__
_PLACEHOLDER = re.compile(r"__([A-Z]+)__")
#: what JSON may hold that HTML reads inside a <script> element (or JavaScript as a line end)
_JSON_IN_SCRIPT = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
                   "\u2028": "\\u2028", "\u2029": "\\u2029"}  # fmt: skip


def _fill_page(template: str, **values: str) -> str:
    """``template`` with each ``__NAME__`` replaced by ``values["NAME"]``, in one pass: a
    value is inserted as is and never scanned for placeholders (a robot named
    ``__DATA__`` stays that text). Each value must already be escaped for where it goes.

    Raises
    ------
    ValueError
        A placeholder without a value, or a value without a placeholder.
    """
    found = set(_PLACEHOLDER.findall(template))
    if found != set(values):
        raise ValueError(
            f"page template: placeholders {sorted(found)}, values for {sorted(values)}"
        )
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], template)


def _script_json(value) -> str:
    """``value`` as a JavaScript literal to put inside ``<script>``: JSON with ``<``, ``>``,
    ``&``, U+2028 and U+2029 escaped as ``\\u003c`` etc., so that neither ``</script>`` nor
    ``<!--`` can appear (those characters only occur inside JSON strings, where the escapes
    read back the same)."""
    text = json.dumps(value)
    return re.sub("[<>&\u2028\u2029]", lambda m: _JSON_IN_SCRIPT[m.group()], text)


def _inline_script(code: str) -> str:
    """A shipped script made safe to inline in ``<script>``: the ``<`` of ``</script`` and of
    ``<!--`` (any case) written ``\\x3c``, which a JavaScript string, template or regular
    expression reads as ``<`` (the bundled scripts hold neither sequence today)."""
    return re.sub(r"<(?=/script|!--)", lambda m: "\\x3c", code, flags=re.IGNORECASE)


class Viewer:
    """Robots and their trajectories in one scene (module docstring).

    Parameters
    ----------
    model : Model, optional
        A first robot (then ``traj`` is needed); more with :meth:`add`.
    traj : Trajectory, optional
        Its motion: ``t`` (K,) [s] and ``q`` (K, nq).
    title : str, optional
        The page's title.
    max_frames : int
        The most samples kept per trajectory (evenly spaced), ≥ 1.
    autoplay : bool
        Start playing when the page opens.
    max_faces : int
        The most triangles kept per mesh (12,000; more are decimated).
    max_triangles, max_bytes : int
        The page's mesh budget, all meshes together: triangles (600,000) and bytes of
        embedded data (40,000,000); a mesh beyond it is refused, naming the budget.
    max_file_bytes : int
        The largest mesh file read (32 MiB).
    **options
        For the first robot, as :meth:`add` takes them.

    Attributes
    ----------
    robots : list of dict
        What each :meth:`add` put in the scene.
    report : list of str
        The meshes read (triangles before and after decimation) and the page's size.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import eslabon as es
    >>> from eslabon import viz
    >>> arm = es.zoo.load("planar2")
    >>> v = viz.Viewer(arm, es.simulate(arm, None, None, 0.2, 0.01), title="falling")
    >>> v = v.add(arm, es.simulate(arm, [0.1, 0.0], None, 0.2, 0.01), name="perturbed")
    >>> len(v.robots), "<iframe" in v._repr_html_()
    (2, True)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     print(v.save(Path(folder) / "fall.html").name)
    fall.html
    """

    def __init__(self, model=None, traj=None, *, title=None, max_frames=600, autoplay=True,
                 **options):  # fmt: skip
        self.title = title
        self.max_frames = whole_number(max_frames, "max_frames", 1)
        self.autoplay = bool(autoplay)
        self.robots: list = []
        self.meshes = scene.MeshTable(**_budget(options))
        self.report: list = []
        self.up = None
        if model is not None:
            self.add(model, traj, **options)

    def add(self, model, traj, *, name=None, urdf=None, package_dirs=(), opacity=1.0,
            parts=None, curve_names=None, hidden=(), path_body=None, floor=None,
            follow=None) -> Viewer:  # fmt: skip
        """Put a robot and its trajectory in the scene.

        Parameters
        ----------
        model : Model
        traj : Trajectory
            ``t`` (K,) [s], ``q`` (K, model.nq); a constrained run's
            ``constraint_residual`` and ``energy`` (K,), when present, are plotted under
            the joint curves.
        name : str, optional
            The robot's label (default: the model's name).
        urdf : str or path-like, optional
            The URDF whose ``<visual>`` elements to draw; by default the file this model
            object was read from in this process (``load_model``, ``from_urdf``), else a
            generated geometry. A model's ``source`` text (a YAML file's ``source:``
            line) is not followed.
        package_dirs : sequence of path-like
            Folders holding the ``package://`` packages; meshes inside them are read
            too. Meshes are read only from inside the model (docs/viewer.md).
        opacity : float
            In (0, 1]: e.g. 0.4 for a ghost of the nominal run.
        parts : list, optional
            Visual parts per body (nb + 1 lists), overriding the URDF or generated ones.
        curve_names : sequence of str, optional
            One name per column of ``q``.
        hidden : sequence of int
            Columns of ``q`` whose curves start hidden (click the legend to show them).
        path_body : int, optional
            Draw the path of this body's origin on the ground.
        floor : float, optional
            The ground's height along "up" [m] (default: below the lowest body origin).
        follow : int or bool, optional
            The body the camera follows (the page's "follow" box, ticked): by default
            the floating base, the body of a free-flyer joint on the world, if the model
            has one; ``False`` for none. The first robot added with one is followed.

        Returns
        -------
        Viewer
            ``self``.

        Raises
        ------
        ValueError
            ``traj.q`` with another number of columns than ``model.nq``; a mesh file not
            found, outside the model, of another type, not readable or over the budget;
            ``opacity`` outside (0, 1].
        """
        q = np.atleast_2d(np.asarray(traj.q, dtype=float))
        if q.shape[1] != model.nq:
            raise ValueError(
                f"traj.q: expected {model.nq} columns (model {model.name}'s coordinates), "
                f"got {q.shape[1]}"
            )
        if not 0.0 < float(opacity) <= 1.0:
            raise ValueError(f"opacity: expected a number in (0, 1], got {opacity!r}")
        if path_body is not None and not 0 <= int(path_body) <= model.nb:
            raise ValueError(f"path_body: expected a body 0 … {model.nb}, got {path_body!r}")
        follow = _followed_body(model) if follow is None or follow is True else follow
        if (
            follow is not False
            and follow is not None
            and not (isinstance(follow, (int, np.integer)) and 1 <= int(follow) <= model.nb)
        ):
            raise ValueError(f"follow: expected a body 1 … {model.nb} or False, got {follow!r}")
        if any(not 0 <= int(h) < model.nq for h in hidden):
            raise ValueError(f"hidden: expected columns 0 … {model.nq - 1}, got {list(hidden)}")
        t = np.asarray(traj.t, dtype=float)
        idx = np.unique(np.linspace(0, len(t) - 1, min(len(t), self.max_frames)).astype(int))
        if parts is None:
            info, folder = scene.urdf_of(model) if urdf is None else _read_info(Path(urdf))
            has_visuals = info is not None and any(info.visuals.values())
            parts = (
                scene.urdf_parts(model, info, folder, self.meshes, package_dirs)
                if has_visuals
                else scene.generated_parts(model, q[0], constraint_frames(model))
            )
        positions, quats = scene.body_poses(model, q[idx])
        marks = constraint_marks(model, q[idx])  # None for a tree
        extra = constraint_curves(traj, idx)  # a constrained run's residual and energy
        names, units = scene.curves(model, curve_names)
        g = np.asarray(model.gravity, dtype=float)
        if self.up is None:
            self.up = -g / np.linalg.norm(g) if np.linalg.norm(g) > 0 else np.array([0, 0, 1.0])
        robot = {
            "name": name or model.name,
            "t": np.round(t[idx], 9).tolist(),
            "parts": parts,
            "positions": scene.b64(positions, "<f4"),
            "quaternions": scene.b64(quats, "<f4"),
            "opacity": float(opacity),
            "color": CURVE_COLORS[len(self.robots) % len(CURVE_COLORS)],
            "_points": np.vstack([positions.reshape(-1, 3), *_contact_points(marks)]),
            "_start": positions[0],
            "_floor": floor,
            "_curves": (names, units, q[idx], set(int(h) for h in hidden)),
        }
        if follow is not None and follow is not False:
            # the view's size: 1.5 × the widest span of the body origins in one frame (the
            # meshes reach past the origins: a leg's foot past its calf joint)
            span = float(np.ptp(positions[:, 1:], axis=1).max())
            robot["_follow"] = {"body": int(follow), "extent": max(1.5 * span, 0.2)}
        if marks is not None:
            robot["constraints"] = marks
        if extra:
            robot["constraint_curves"] = {"t": robot["t"], "curves": extra}
        if path_body is not None:
            path = positions[:, int(path_body)].copy()
            if floor is not None:  # on the floor, just above it
                up = self.up
                path -= np.outer(path @ up - floor - 1e-3, up)
            robot["path"] = scene.b64(path, "<f4")
        self.robots.append(robot)
        return self

    def add_mobile(self, mm, run, *, name=None, opacity=1.0) -> Viewer:
        """Put a mobile manipulator's run in the scene: chassis, wheels turning and
        steering, the arm, the path on the floor, and named curves (the wheel spins
        hidden; click the legend to show them).

        Parameters
        ----------
        mm : MobileManipulator
        run : MobileTrajectory
            From :func:`eslabon.mobile.simulate`.
        name : str, optional
            The label (default: the model's name and mode).
        opacity : float
            In (0, 1].

        Returns
        -------
        Viewer
            ``self``.

        Examples
        --------
        >>> import eslabon as es
        >>> from eslabon import mobile as mb, viz
        >>> cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
        >>> mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"), mb.Mount.araujo_assumed())
        >>> run = mb.simulate(mm, None, None, 0.1, 0.01, u=[150.0, 0.3])
        >>> len(viz.Viewer().add_mobile(mm, run).robots)
        1
        """
        from .mobile_view import add_mobile

        return add_mobile(self, mm, run, name=name, opacity=opacity)

    def data(self) -> dict:
        """What the page draws (JSON-ready): robots, meshes, curves, camera and ground.

        Returns
        -------
        dict
        """
        if not self.robots:
            raise ValueError("Viewer: no robot; add one with Viewer.add(model, traj)")
        pts = np.vstack([r["_points"] for r in self.robots])
        lo, hi = pts.min(0), pts.max(0)
        extent = max(float((hi - lo).max()), 0.2)
        up = self.up
        floors = [r["_floor"] for r in self.robots if r["_floor"] is not None]
        if floors:
            level = min(floors)
        else:  # under the start pose (a fixed base's links may swing below it later)
            start = np.vstack([r["_start"] for r in self.robots])
            level = min(float((start @ up).min()), 0.0) - 0.01 * extent
        curves = []
        for j, r in enumerate(self.robots):
            names, units, values, hidden = r["_curves"]
            for k, (n, u) in enumerate(zip(names, units, strict=True)):
                curves.append({
                    "name": n,
                    "unit": u, "t": r["t"], "values": np.round(values[:, k], 6).tolist(),
                    "color": CURVE_COLORS[k % len(CURVE_COLORS)],
                    "dash": DASHES[j % len(DASHES)],
                    "visible": k not in hidden,
                })  # fmt: skip
        size = 2 * extent
        followed = [{"robot": j, "on": True, **r["_follow"]}
                    for j, r in enumerate(self.robots) if "_follow" in r]  # fmt: skip
        robots = [
            {**{k: v for k, v in r.items() if not k.startswith("_")}, "dash": DASHES[j % 4]}
            for j, r in enumerate(self.robots)
        ]
        return {
            "up": up.tolist(),
            "extent": extent,
            "centre": ((lo + hi) / 2).tolist(),
            "grid": {"size": round(size, 3), "divisions": 20, "level": level},
            "robots": robots,
            "meshes": self.meshes.meshes,
            "curves": curves,
            "autoplay": self.autoplay,
            "info": self._info(),
            **({"follow": followed[0]} if followed else {}),
        }

    def _info(self) -> str:
        lines = [f"{n}: {a} → {b} triangles" for n, a, b in self.meshes.report]
        size = self.meshes.size()
        self.report = lines + ([f"meshes embedded: {size / 1e6:.2f} MB"] if size else [])
        return "; ".join(self.report)

    def html(self) -> str:
        """The page, one self-contained HTML document.

        Names (robots, links, bodies, the title) are text, never markup: the template is
        filled in one pass, so a value is never read again for another placeholder; the
        title is HTML-escaped; the scene is JSON with ``<``, ``>``, ``&``, U+2028 and
        U+2029 written as ``\\uXXXX`` escapes, so no name can end or comment out its
        ``<script>``; the page's script sets names with ``textContent``.

        Returns
        -------
        str
        """
        title = self.title or " / ".join(r["name"] for r in self.robots)
        return _fill_page(
            _asset("viewer.html"),
            TITLE=html.escape(title, quote=True),
            THREE=_inline_script(_asset("three-eslabon.min.js")),
            DATA=_script_json(self.data()),
            SCRIPT=_inline_script(_asset("viewer.js")) + self._constraint_script(),
        )

    def _constraint_script(self) -> str:
        """The script drawing constraints (page/constraints.js), for a scene with a
        constrained model or run; nothing otherwise, so a tree's page stays as it was."""
        if not any("constraints" in r or "constraint_curves" in r for r in self.robots):
            return ""
        return "\n" + _inline_script(_asset("constraints.js"))

    def save(self, path, *, overwrite: bool = True) -> Path:
        """Write the page to ``path`` (.html).

        Parameters
        ----------
        path : str or path-like
            A ``.html`` or ``.htm`` file; its folder must exist.
        overwrite : bool
            Replace an existing file (default), or refuse it.

        Returns
        -------
        Path
            ``path``, written atomically.

        Raises
        ------
        ValueError
            Another suffix; the folder does not exist; with ``overwrite=False`` an
            existing file (``OutputExistsError``, a ValueError).
        """
        path = Path(path)
        if path.suffix.lower() not in (".html", ".htm"):
            raise ValueError(f"path: expected a .html file name, got {str(path)!r}")
        return write_text_atomic(path, self.html(), overwrite=overwrite)

    def _repr_html_(self) -> str:
        """The page in a sandboxed iframe, for Jupyter: the whole page (:meth:`html`) is
        the ``srcdoc`` attribute, every ``&``, ``<``, ``>`` and quote escaped, so the
        frame reads back exactly that page."""
        doc = html.escape(self.html(), quote=True)
        return (
            f'<iframe srcdoc="{doc}" style="width: 100%; height: 600px; border: 0" '
            'sandbox="allow-scripts"></iframe>'
        )


def _followed_body(model):
    """The floating base: the first body whose joint is a free flyer on the world, else
    None."""
    from .._engine.joint_types import free_flyers

    on_world = np.flatnonzero((np.asarray(model.parent) == 0) & free_flyers(model.joint_type))
    on_world = on_world[on_world > 0]
    return int(on_world[0]) if len(on_world) else None


def _contact_points(marks) -> list:
    """The contacts' world points (within the view's extent), as (1, 3) arrays."""
    if marks is None:
        return []
    return [np.reshape(c["position"], (1, 3)) for c in marks["contacts"]]


def _read_info(path: Path):
    from ..model.urdf import read_urdf

    if not path.is_file():
        raise ValueError(f"urdf: no file {path}")
    return read_urdf(path)[1], path.parent


def _budget(options: dict) -> dict:
    """The mesh budget taken out of ``options`` (``max_faces``, ``max_triangles``,
    ``max_bytes``, ``max_file_bytes``, ``min_silhouette``), checked."""
    defaults = {"max_faces": scene.MAX_FACES, "max_triangles": scene.MAX_TRIANGLES,
                "max_bytes": scene.MAX_BYTES, "max_file_bytes": scene.MAX_FILE_BYTES}  # fmt: skip
    budget = {k: whole_number(options.pop(k, v), k, 1) for k, v in defaults.items()}
    agreement = options.pop("min_silhouette", scene.MIN_SILHOUETTE)
    try:
        budget["min_silhouette"] = float(agreement)
    except (TypeError, ValueError):
        budget["min_silhouette"] = float("nan")
    if not 0.0 <= budget["min_silhouette"] <= 1.0:
        raise ValueError(f"min_silhouette: expected a number in [0, 1], got {agreement!r}")
    return budget


def write_viewer(model, traj, path, title: str | None = None, max_frames: int = 600, *,
                 overwrite: bool = True, **options) -> Path:  # fmt: skip
    """Write the viewer of ``traj`` on ``model`` to ``path`` (.html): :class:`Viewer`
    with one robot, saved.

    Parameters
    ----------
    model : Model
        The robot.
    traj : Trajectory
        Anything with ``t`` (K,) (s) and ``q`` (K, nq) (rad, m).
    path : str or path-like
        A ``.html`` or ``.htm`` file; its folder must exist.
    title : str, optional
        The page's title (HTML-escaped); by default the model's name.
    max_frames : int
        The most samples kept (≥ 1).
    overwrite : bool
        Replace an existing file (default), or refuse it.
    **options
        As :meth:`Viewer.add` takes them (``urdf``, ``package_dirs``, ``opacity``…), and
        the mesh budget as :class:`Viewer` takes it (``max_faces``, ``max_triangles``…).

    Returns
    -------
    Path
        ``path``, written atomically.

    Raises
    ------
    ValueError
        A suffix other than ``.html``, ``.htm``; ``traj.q`` with another number of
        columns than ``model.nq``; the folder of ``path`` does not exist; with
        ``overwrite=False`` an existing file (``OutputExistsError``, a ValueError).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import eslabon as es
    >>> from eslabon import viz
    >>> arm = es.zoo.load("planar2")
    >>> traj = es.simulate(arm, None, None, 0.2, 0.01)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = viz.write_viewer(arm, traj, Path(folder) / "fall.html")
    ...     print(path.name, "eslabonViewer" in path.read_text(encoding="utf-8"))
    fall.html True
    """
    path = Path(path)
    if path.suffix.lower() not in (".html", ".htm"):
        raise ValueError(f"path: expected a .html file name, got {str(path)!r}")
    viewer = Viewer(title=title or f"{model.name}: trajectory", max_frames=max_frames,
                    **_budget(options))  # fmt: skip
    return viewer.add(model, traj, **options).save(path, overwrite=overwrite)
