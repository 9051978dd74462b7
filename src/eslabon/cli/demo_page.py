"""The demo's ``index.html``: one card per viewer (a thumbnail, what it shows, a link),
then one section per source document with thumbnails of its figures, its report (the
printed-against-computed tables as ``reproduce`` prints them) and links to its files,
then the cross-check table. Plain HTML and CSS, no script: it opens from the folder."""

from __future__ import annotations

import html
from pathlib import Path
from urllib.parse import quote

from .._files import write_text_atomic

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 1180px; padding: 12px;
       color: #222; background: #fafafa; }
h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 28px; border-bottom: 1px solid #ddd; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; }
.card { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 8px; width: 270px; }
.card img { width: 100%; height: 180px; object-fit: contain; background: #fff; }
.card p { font-size: 13px; margin: 6px 0 0 0; }
.thumbs { display: flex; flex-wrap: wrap; gap: 8px; }
.thumbs a { display: block; width: 180px; font-size: 11px; color: #333; text-decoration: none; }
.thumbs img { width: 180px; height: 130px; object-fit: contain; background: #fff;
              border: 1px solid #ddd; }
pre { background: #fff; border: 1px solid #ddd; padding: 8px; font-size: 11.5px;
      overflow-x: auto; max-height: 420px; }
table { border-collapse: collapse; background: #fff; }
td, th { border: 1px solid #ccc; padding: 4px 10px; font-size: 13px; text-align: left; }
.files { font-size: 12px; color: #555; }
"""


def _rel(out: Path, path) -> str:
    """A file under ``out`` as a relative URL, percent-encoded (a file name holding ``#``,
    ``?``, quotes or ``<`` still links to itself) and escaped for an attribute."""
    relative = Path(path).resolve().relative_to(out.resolve()).as_posix()
    return html.escape(quote(relative), quote=True)


def write_index(out, viewers, sections, rows) -> Path:
    """Write ``out/index.html``.

    Parameters
    ----------
    out : Path
        The demo's folder; every path below lies in it.
    viewers : list of (html path, thumbnail png path or None, title, caption)
    sections : list of (title, {name: file path}, report lines)
    rows : list of (robot, verdict, comparisons)
        The cross-check table.

    Returns
    -------
    Path
        ``out / "index.html"``.
    """
    out = Path(out)
    e = html.escape
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>eslabon demo</title><style>{_STYLE}</style></head><body>",
        "<h1>eslabon demo</h1>",
        "<p>Every number below was recomputed by this run; each report prints the source "
        "document's values beside eslabon's. The viewers open in the browser, offline.</p>",
        "<h2>Viewers</h2><div class='cards'>",
    ]
    for page, thumb, title, caption in viewers:
        img = f'<img src="{_rel(out, thumb)}" alt="{e(title)}">' if thumb else ""
        parts.append(
            f'<div class="card"><a href="{_rel(out, page)}">{img}<b>{e(title)}</b></a>'
            f"<p>{e(caption)}</p></div>"
        )
    parts.append("</div>")
    for title, files, report in sections:
        parts.append(f"<h2>{e(title)}</h2>")
        images = [(k, p) for k, p in files.items() if str(p).endswith(".png") and Path(p).exists()]
        if images:
            parts.append("<div class='thumbs'>")
            parts += [
                f'<a href="{_rel(out, p)}"><img src="{_rel(out, p)}" alt="{e(k)}">'
                f"{e(Path(p).name)}</a>"
                for k, p in images
            ]
            parts.append("</div>")
        if report:
            text = e("\n".join(report))
            parts.append(f"<details open><summary>report</summary><pre>{text}</pre></details>")
        others = [p for p in files.values() if not str(p).endswith(".png") and Path(p).exists()]
        if others:
            links = ", ".join(f'<a href="{_rel(out, p)}">{e(Path(p).name)}</a>' for p in others)
            parts.append(f"<p class='files'>files: {links}</p>")
    parts.append(
        "<h2>Cross-check: every formulation on each robot</h2><table>"
        "<tr><th>robot</th><th>verdict</th><th>comparisons</th></tr>"
    )
    parts += [f"<tr><td>{e(n)}</td><td>{e(v)}</td><td>{e(str(k))}</td></tr>" for n, v, k in rows]
    parts.append("</table></body></html>")
    path = out / "index.html"
    write_text_atomic(path, "\n".join(parts))
    return path
