"""``eslabon info --robots``: the robots known by name and which are installed."""

from __future__ import annotations


def robot_listing() -> tuple[dict, list[str]]:
    """(data, lines) of the robots :func:`eslabon.robots.load` reads here, one line each
    (name, category, base, nq, nv, package), then each package that is not installed
    with the command that installs it, and the MuJoCo Menagerie's state."""
    from ..robots import ROBOTS, available
    from ..robots.sources import MENAGERIE, SOURCES, menagerie_installed

    installed = available()
    rows = [ROBOTS[n] for n in installed]
    data = {
        "robots": [
            {
                "name": r.name,
                "category": r.category,
                "base": "floating" if r.floating else "fixed",
                "nq": r.nq,
                "nv": r.nv,
                "ee": r.ee,
                "package": r.package,
                "path": r.path,
            }
            for r in rows
        ],
        "not_installed": {},
    }
    width = max([len(r.name) for r in rows] + [4])
    lines = [f"{len(rows)} robots installed (eslabon.robots.load(name))"] if rows else []
    lines += [
        f"  {r.name:<{width}}  {r.category:<18}  {'floating' if r.floating else 'fixed':<8}  "
        f"nq={r.nq:<3} nv={r.nv:<3}  {r.package}"
        for r in rows
    ]
    for package, source in SOURCES.items():
        missing = [n for n, r in ROBOTS.items() if r.package == package and n not in installed]
        if missing and source.readable:
            data["not_installed"][package] = missing
            lines.append(
                f"not installed: {len(missing)} robots of {package} ({source.install}): "
                + ", ".join(missing)
            )
    data["menagerie"] = menagerie_installed()
    lines.append(
        "MuJoCo Menagerie: "
        + ("installed" if data["menagerie"] else f"not installed ({SOURCES[MENAGERIE].install})")
        + "; its MJCF models are not read by name yet"
    )
    return data, lines
