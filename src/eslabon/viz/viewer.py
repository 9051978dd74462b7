"""A self-contained HTML viewer of a trajectory: the robot as a 3-D stick figure (drag to
turn it), play / pause and a time scrubber, and the joint angles beside it with a cursor
at the current time. One file, no network: the data and a small script are embedded.

The page exposes ``window.eslabonViewer`` (``frame``, ``setFrame(k)``, ``frames``,
``pose()``: the drawn 2-D points) so that a browser test can drive it.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

import numpy as np

from .._args import whole_number
from .._files import write_text_atomic
from .stick3d import frame_origins

_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>__TITLE__</title>
<style>
body { font-family: sans-serif; margin: 12px; }
#wrap { display: flex; gap: 16px; flex-wrap: wrap; }
canvas, svg { border: 1px solid #ccc; background: #fff; }
#controls { margin: 8px 0; }
#scrub { width: 480px; }
</style></head><body>
<h3>__TITLE__</h3>
<div id="controls"><button id="play">play</button>
<input id="scrub" type="range" min="0" max="0" value="0"> <span id="time"></span></div>
<div id="wrap"><canvas id="robot" width="480" height="480"></canvas>
<svg id="plot" width="480" height="480"></svg></div>
<script>
"use strict";
const DATA = __DATA__;
const canvas = document.getElementById("robot"), ctx = canvas.getContext("2d");
const scrub = document.getElementById("scrub"), label = document.getElementById("time");
const play = document.getElementById("play"), svg = document.getElementById("plot");
scrub.max = DATA.t.length - 1;
let frame = 0, azimuth = -0.6, elevation = 0.4, timer = null, drawn = [];
function project(p) {
  const c = Math.cos(azimuth), s = Math.sin(azimuth), ce = Math.cos(elevation), se = Math.sin(elevation);
  const x = c * (p[0] - DATA.centre[0]) - s * (p[1] - DATA.centre[1]);
  const y = s * (p[0] - DATA.centre[0]) + c * (p[1] - DATA.centre[1]);
  const z = p[2] - DATA.centre[2];
  const k = 0.8 * canvas.width / DATA.span;
  return [canvas.width / 2 + k * x, canvas.height / 2 - k * (ce * z - se * y)];
}
function drawRobot() {
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  const pts = DATA.points[frame].map(project);
  drawn = pts;
  ctx.lineWidth = 4; ctx.strokeStyle = "#1f77b4"; ctx.fillStyle = "#d62728";
  for (const [a, b] of DATA.segments) {
    ctx.beginPath(); ctx.moveTo(pts[a][0], pts[a][1]); ctx.lineTo(pts[b][0], pts[b][1]); ctx.stroke();
  }
  for (const p of pts) { ctx.beginPath(); ctx.arc(p[0], p[1], 4, 0, 2 * Math.PI); ctx.fill(); }
}
const colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"];
function plotX(t) { return 40 + (svg.width.baseVal.value - 50) * (t - DATA.t[0]) / Math.max(1e-12, DATA.t[DATA.t.length - 1] - DATA.t[0]); }
function plotY(v) { return 20 + (svg.height.baseVal.value - 40) * (DATA.qmax - v) / Math.max(1e-12, DATA.qmax - DATA.qmin); }
function drawPlot() {
  const ns = "http://www.w3.org/2000/svg";
  DATA.q[0].forEach((_, j) => {
    const line = document.createElementNS(ns, "polyline");
    line.setAttribute("points", DATA.t.map((t, k) => plotX(t) + "," + plotY(DATA.q[k][j])).join(" "));
    line.setAttribute("fill", "none"); line.setAttribute("stroke", colors[j % colors.length]);
    svg.appendChild(line);
    const text = document.createElementNS(ns, "text");
    text.setAttribute("x", 44 + 40 * j); text.setAttribute("y", 14);
    text.setAttribute("fill", colors[j % colors.length]); text.textContent = "q" + (j + 1);
    svg.appendChild(text);
  });
  const cursor = document.createElementNS(ns, "line");
  cursor.setAttribute("id", "cursor"); cursor.setAttribute("stroke", "#000");
  cursor.setAttribute("y1", 20); cursor.setAttribute("y2", svg.height.baseVal.value - 20);
  svg.appendChild(cursor);
}
function setFrame(k) {
  frame = Math.max(0, Math.min(DATA.t.length - 1, k | 0));
  scrub.value = frame;
  label.textContent = "t = " + DATA.t[frame].toFixed(3) + " s";
  const x = plotX(DATA.t[frame]);
  const cursor = document.getElementById("cursor");
  cursor.setAttribute("x1", x); cursor.setAttribute("x2", x);
  drawRobot();
}
scrub.addEventListener("input", () => setFrame(Number(scrub.value)));
play.addEventListener("click", () => {
  if (timer) { clearInterval(timer); timer = null; play.textContent = "play"; return; }
  play.textContent = "pause";
  timer = setInterval(() => setFrame(frame + 1 < DATA.t.length ? frame + 1 : 0), 1000 / 30);
});
let drag = null;
canvas.addEventListener("mousedown", e => { drag = [e.clientX, e.clientY]; });
window.addEventListener("mouseup", () => { drag = null; });
canvas.addEventListener("mousemove", e => {
  if (!drag) return;
  azimuth += (e.clientX - drag[0]) * 0.01; elevation += (e.clientY - drag[1]) * 0.01;
  drag = [e.clientX, e.clientY]; drawRobot();
});
drawPlot();
setFrame(0);
window.eslabonViewer = { setFrame, get frame() { return frame; }, frames: DATA.t.length,
                         pose: () => drawn.map(p => p.slice()) };
</script></body></html>
"""


def write_viewer(
    model, traj, path, title: str | None = None, max_frames: int = 600, *, overwrite: bool = True
) -> Path:
    """Write the viewer of ``traj`` on ``model`` to ``path`` (.html); at most
    ``max_frames`` samples are kept (evenly spaced). ``overwrite=False`` refuses an
    existing file.

    The page (one file, no network) draws the stick figure of :func:`frame_origins`, a
    time scrubber and the joint positions; see this module's docstring. Needs only
    numpy (no matplotlib).

    Parameters
    ----------
    model : Model
        The robot, with an end-effector frame ``"ee"``.
    traj : Trajectory
        Anything with ``t`` (K,) (s) and ``q`` (K, nq) (rad, m).
    path : str or path-like
        A ``.html`` or ``.htm`` file; its folder must exist.
    title : str, optional
        The page's title (HTML-escaped); by default "<model name>: trajectory".
    max_frames : int
        The most samples kept (≥ 1).
    overwrite : bool
        Replace an existing file (default), or refuse it.

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
    >>> traj = es.simulate(arm, 0.2, 0.01)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = viz.write_viewer(arm, traj, Path(folder) / "fall.html")
    ...     print(path.name, "eslabonViewer" in path.read_text(encoding="utf-8"))
    fall.html True
    """
    path = Path(path)
    if path.suffix.lower() not in (".html", ".htm"):
        raise ValueError(f"path: expected a .html file name, got {str(path)!r}")
    max_frames = whole_number(max_frames, "max_frames", 1)
    if traj.q.shape[1] != model.nq:
        raise ValueError(
            f"model: {model.name} has {model.nq} joints, the trajectory {traj.q.shape[1]}"
        )
    idx = np.unique(np.linspace(0, len(traj.t) - 1, min(len(traj.t), max_frames)).astype(int))
    pts = frame_origins(model, traj.q[idx])
    ee_body = model.frame("ee").body
    segments = [[int(model.parent[i]), i] for i in range(1, model.nb + 1)] + [
        [ee_body, model.nb + 1]
    ]
    q = traj.q[idx]
    data = {
        "t": np.round(traj.t[idx], 9).tolist(),
        "points": np.round(pts, 6).tolist(),
        "segments": segments,
        "q": np.round(q, 6).tolist(),
        "qmin": float(q.min()),
        "qmax": float(q.max()),
        "centre": pts.reshape(-1, 3).mean(axis=0).tolist(),
        "span": max(float(np.ptp(pts, axis=(0, 1)).max()), 1e-3),
    }
    name = html.escape(title or f"{model.name}: trajectory")
    page = _PAGE.replace("__TITLE__", name).replace("__DATA__", json.dumps(data))
    return write_text_atomic(path, page, overwrite=overwrite)
