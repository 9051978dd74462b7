// eslabon's constraint marks, appended to viewer.js in a page whose model or run has
// constraints (eslabon.viz.constraint_marks). Each loop closure: a sphere at frame A's
// origin, a ring (facing the camera) at frame B's and a line between them, which shows
// the residual where the two part; each contact: a disc at its world point, normal to the
// contact's z axis; each rolling wheel: a sphere at its contact point. A key over the view
// names them (textContent); a panel under the joint plot draws the run's residual and
// energy, one at a time (click the key). three.js calls scene.onBeforeRender before it
// draws a frame: the marks then take each robot's current sample.
const markSize = 0.02 * DATA.extent;
const marked = [];
function markMaterial(color) {
  return new THREE.MeshStandardMaterial({ color, emissive: color, emissiveIntensity: 0.4,
                                          depthTest: false, transparent: true, opacity: 0.9 });
}
function onTop(obj) { obj.renderOrder = 10; obj.frustumCulled = false; return obj; }
function circle(radius, n) {
  const pts = [];
  for (let i = 0; i <= n; i++) {
    const a = 2 * Math.PI * i / n;
    pts.push(radius * Math.cos(a), radius * Math.sin(a), 0);
  }
  const g = new THREE.BufferGeometry();
  g.setAttribute("position", new THREE.BufferAttribute(new Float32Array(pts), 3));
  return g;
}
function segment(color) {
  const g = new THREE.BufferGeometry();
  g.setAttribute("position", new THREE.BufferAttribute(new Float32Array(6), 3));
  return onTop(new THREE.Line(g, new THREE.LineBasicMaterial({ color, depthTest: false })));
}
const keyItems = [];
robots.forEach((rb) => {
  const c = rb.r.constraints;
  if (!c) return;
  const group = new THREE.Group();
  scene.add(group);
  const loops = c.loops.map((l) => {
    const a = onTop(new THREE.Mesh(new THREE.SphereGeometry(markSize, 16, 12),
                                   markMaterial(c.colors.loop)));
    const b = onTop(new THREE.Line(circle(1.6 * markSize, 32),
                                   new THREE.LineBasicMaterial({ color: c.colors.loop, depthTest: false })));
    const line = segment(c.colors.loop);
    group.add(a, b, line);
    keyItems.push([c.colors.loop, "loop " + l.name]);
    return { a, b, line, pa: decode(l.a, Float32Array), pb: decode(l.b, Float32Array) };
  });
  for (const k of c.contacts) {
    const disc = onTop(new THREE.Mesh(new THREE.CylinderGeometry(2 * markSize, 2 * markSize,
                                                                 0.15 * markSize, 32),
                                      markMaterial(c.colors.contact)));
    disc.position.set(...k.position);
    disc.quaternion.setFromUnitVectors(Y, new THREE.Vector3(...k.normal).normalize());
    group.add(disc);
    keyItems.push([c.colors.contact, "contact " + k.name]);
  }
  const wheels = c.wheels.map((w) => {
    const s = onTop(new THREE.Mesh(new THREE.SphereGeometry(0.8 * markSize, 12, 8),
                                   markMaterial(c.colors.wheel)));
    group.add(s);
    keyItems.push([c.colors.wheel, "wheel " + w.name]);
    return { s, p: decode(w.points, Float32Array) };
  });
  marked.push({ rb, group, loops, wheels });
});
function placeMarks() {
  for (const m of marked) {
    const k = 3 * m.rb.frame;
    for (const l of m.loops) {
      l.a.position.set(l.pa[k], l.pa[k + 1], l.pa[k + 2]);
      l.b.position.set(l.pb[k], l.pb[k + 1], l.pb[k + 2]);
      l.b.quaternion.copy(camera.quaternion);
      const p = l.line.geometry.attributes.position;
      p.setXYZ(0, l.pa[k], l.pa[k + 1], l.pa[k + 2]);
      p.setXYZ(1, l.pb[k], l.pb[k + 1], l.pb[k + 2]);
      p.needsUpdate = true;
    }
    for (const w of m.wheels) w.s.position.set(w.p[k], w.p[k + 1], w.p[k + 2]);
    m.group.updateMatrixWorld(true);
  }
}
// the key over the view: one line per constraint, its colour and name
if (keyItems.length) {
  const key = document.createElement("div");
  key.id = "constraint-key";
  Object.assign(key.style, { position: "absolute", right: "6px", top: "4px", fontSize: "11px",
                             background: "rgba(255,255,255,0.8)", padding: "2px 4px" });
  for (const [color, name] of keyItems) {
    const row = document.createElement("div"), dot = document.createElement("span");
    dot.textContent = "● ";
    dot.style.color = color;
    row.appendChild(dot);
    row.appendChild(document.createTextNode(name));
    key.appendChild(row);
  }
  view.appendChild(key);
}
// the residual and energy panel: one history at a time on its own axis
const constraintPlot = (() => {
  const series = robots.filter((rb) => rb.r.constraint_curves).flatMap((rb) =>
    rb.r.constraint_curves.curves.map((c) => ({ ...c, t: rb.r.constraint_curves.t, dash: rb.r.dash })));
  if (!series.length) return { cursor() {}, select() {}, shown: () => null };
  const ns = "http://www.w3.org/2000/svg", Wp = 560, Hp = 190, L = 70, R = 12, T = 10, B = 46;
  const svg = document.createElementNS(ns, "svg");
  svg.id = "constraint-plot";
  svg.setAttribute("width", Wp);
  svg.setAttribute("height", Hp);
  svg.setAttribute("viewBox", `0 0 ${Wp} ${Hp}`);
  Object.assign(svg.style, { border: "1px solid #ccc", background: "#fff" });
  (document.getElementById("side") || document.getElementById("main")).appendChild(svg);
  const el = (name, attrs, parent) => {
    const e = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    (parent || svg).appendChild(e);
    return e;
  };
  const names = [...new Set(series.map((c) => c.name))];
  const colors = ["#e6007e", "#444444"];
  const X = (t) => L + (Wp - L - R) * (t - t0) / Math.max(t1 - t0, 1e-12);
  const drawn = el("g", {});
  const cursorLine = el("line", { x1: 0, x2: 0, y1: T, y2: Hp - B, stroke: "#000" });
  let shown = null;
  function select(name) {
    shown = name;
    while (drawn.firstChild) drawn.removeChild(drawn.firstChild);
    const these = series.filter((c) => c.name === name);
    let lo = Math.min(...these.flatMap((c) => c.values)), hi = Math.max(...these.flatMap((c) => c.values));
    if (!isFinite(lo) || !isFinite(hi)) { lo = -1; hi = 1; }
    if (hi - lo < 1e-12 * Math.max(1, Math.abs(hi))) { const d = Math.max(Math.abs(hi) * 1e-6, 1e-12); lo -= d; hi += d; }
    const Yv = (v) => T + (Hp - T - B) * (hi - v) / (hi - lo);
    el("rect", { x: L, y: T, width: Wp - L - R, height: Hp - T - B, fill: "none", stroke: "#888" }, drawn);
    for (const v of [lo, (lo + hi) / 2, hi]) {
      el("text", { x: L - 4, y: Yv(v) + 4, "text-anchor": "end", "font-size": 10 }, drawn)
        .textContent = v !== 0 && Math.abs(v) < 1e-3 ? v.toExponential(2) : Number(v.toPrecision(4)).toString();
    }
    for (const c of these) {
      const pts = c.t.map((t, k) => X(t).toFixed(1) + "," + Yv(c.values[k]).toFixed(1)).join(" ");
      el("polyline", { points: pts, fill: "none", "stroke-width": 1.6,
                       stroke: colors[names.indexOf(name) % colors.length],
                       "stroke-dasharray": c.dash || "" }, drawn);
    }
    items.forEach((g, j) => g.setAttribute("class", "legend-item" + (names[j] === name ? "" : " off")));
  }
  el("text", { x: (L + Wp - R) / 2, y: Hp - B + 14, "text-anchor": "middle", "font-size": 11 })
    .textContent = "time [s]";
  const items = names.map((name, j) => {
    const unit = series.find((c) => c.name === name).unit;
    const g = el("g", { class: "legend-item", transform: `translate(${L + 200 * j}, ${Hp - 10})` });
    el("line", { x1: 0, x2: 18, y1: -4, y2: -4, stroke: colors[j % colors.length], "stroke-width": 3 }, g);
    el("text", { x: 22, y: 0, "font-size": 11 }, g).textContent = name + (unit ? " [" + unit + "]" : "");
    g.addEventListener("click", () => select(name));
    return g;
  });
  select(names[0]);
  return {
    cursor(t) { cursorLine.setAttribute("x1", X(t)); cursorLine.setAttribute("x2", X(t)); },
    select, shown: () => shown,
  };
})();
scene.onBeforeRender = () => { placeMarks(); constraintPlot.cursor(simTime); };
renderer.render(scene, camera);
window.eslabonViewer.constraintMarks = keyItems.length;
window.eslabonViewer.markPositions = () => marked.map((m) => ({
  loops: m.loops.map((l) => [l.a.position.toArray(), l.b.position.toArray()]),
  wheels: m.wheels.map((w) => w.s.position.toArray()),
}));
window.eslabonViewer.constraintCurve = (name) => { if (name) constraintPlot.select(name); return constraintPlot.shown(); };
