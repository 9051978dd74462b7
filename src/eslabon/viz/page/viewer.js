// eslabon's trajectory viewer: three.js scene, playback and joint plot. DATA (from
// eslabon.viz.viewer) holds the robots' parts, meshes (base64), body poses per sample and
// the curves. window.eslabonViewer is the hook a browser test drives.
function decode(text, Type) {
  const bin = atob(text), bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return new Type(bytes.buffer);
}
const view = document.getElementById("view");
// the canvas fills #view, which fills the window beside the plots (page CSS), and
// follows its size (fit, on every resize of #view)
let W = Math.max(view.clientWidth, 1), H = Math.max(view.clientHeight, 1);
const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(window.devicePixelRatio || 1);
renderer.setSize(W, H);
view.insertBefore(renderer.domElement, view.firstChild);
const scene = new THREE.Scene();
scene.background = new THREE.Color("#ffffff");
const up = new THREE.Vector3(...DATA.up).normalize();
const camera = new THREE.PerspectiveCamera(40, W / H, DATA.extent / 200, DATA.extent * 50);
camera.up.copy(up);
scene.add(new THREE.HemisphereLight("#ffffff", "#777777", 2.2));
const sun = new THREE.DirectionalLight("#ffffff", 1.6);
scene.add(sun);
// ground grid normal to "up" (against gravity), through the lowest point of the motion
const grid = new THREE.GridHelper(DATA.grid.size, DATA.grid.divisions, "#999999", "#dddddd");
grid.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), up);
grid.position.copy(up.clone().multiplyScalar(DATA.grid.level));
scene.add(grid);
scene.add(new THREE.AxesHelper(DATA.extent / 4));
const Y = new THREE.Vector3(0, 1, 0);
const meshGeometries = DATA.meshes.map((m) => {
  const g = new THREE.BufferGeometry();
  g.setAttribute("position", new THREE.BufferAttribute(decode(m.positions, Float32Array), 3));
  g.setIndex(new THREE.BufferAttribute(decode(m.indices, Uint32Array), 1));
  g.computeVertexNormals();
  return g;
});
let meshCount = 0, partCount = 0;
function makePart(p, opacity) {
  const material = new THREE.MeshStandardMaterial({
    color: p.color, metalness: 0.1, roughness: 0.65,
    transparent: opacity < 1, opacity: opacity, side: THREE.DoubleSide });
  let obj;
  if (p.kind === "capsule") {
    const a = new THREE.Vector3(...p.from), b = new THREE.Vector3(...p.to);
    const d = b.clone().sub(a), len = d.length();
    obj = new THREE.Mesh(new THREE.CapsuleGeometry(p.radius, len, 6, 16), material);
    obj.position.copy(a.clone().add(b).multiplyScalar(0.5));
    obj.quaternion.setFromUnitVectors(Y, d.normalize());
  } else {
    let g;
    if (p.kind === "box") g = new THREE.BoxGeometry(...p.size);
    else if (p.kind === "sphere") g = new THREE.SphereGeometry(p.radius[0], 24, 16);
    else if (p.kind === "cylinder") {
      g = new THREE.CylinderGeometry(p.radius[0], p.radius[0], p.length[0], 32);
      g.rotateX(Math.PI / 2);  // URDF cylinders lie along z, three.js's along y
    } else if (p.kind === "mesh") { g = meshGeometries[p.mesh]; meshCount++; }
    obj = new THREE.Mesh(g, material);
    obj.matrixAutoUpdate = false;
    obj.matrix.fromArray(p.T);
  }
  partCount++;
  return obj;
}
const robots = DATA.robots.map((r) => {
  const bodies = r.parts.map((parts) => {
    const group = new THREE.Group();
    for (const p of parts) group.add(makePart(p, r.opacity));
    scene.add(group);
    return group;
  });
  const pos = decode(r.positions, Float32Array), quat = decode(r.quaternions, Float32Array);
  if (r.path) {
    const g = new THREE.BufferGeometry();
    g.setAttribute("position", new THREE.BufferAttribute(decode(r.path, Float32Array), 3));
    scene.add(new THREE.Line(g, new THREE.LineBasicMaterial({ color: r.color })));
  }
  return { r, bodies, pos, quat, nb1: r.parts.length, frame: 0 };
});
const t0 = Math.min(...robots.map((x) => x.r.t[0]));
const t1 = Math.max(...robots.map((x) => x.r.t[x.r.t.length - 1]));
function frameAt(t, times) {  // the last sample at or before t
  let lo = 0, hi = times.length - 1;
  if (t >= times[hi]) return hi;
  while (hi - lo > 1) { const mid = (lo + hi) >> 1; if (times[mid] <= t) lo = mid; else hi = mid; }
  return lo;
}
function pose(rb, k) {
  rb.frame = k;
  const base = k * rb.nb1;
  rb.bodies.forEach((g, i) => {
    const j = base + i;
    g.position.set(rb.pos[3 * j], rb.pos[3 * j + 1], rb.pos[3 * j + 2]);
    g.quaternion.set(rb.quat[4 * j], rb.quat[4 * j + 1], rb.quat[4 * j + 2], rb.quat[4 * j + 3]);
  });
}
// camera: look at the motion's centre from a corner, "up" kept up; with "follow" (a
// floating base, DATA.follow), at the base and moved with it, the orbit kept
const centre = new THREE.Vector3(...DATA.centre);
const controls = new THREE.OrbitControls(camera, renderer.domElement);
const follow = DATA.follow ? { rb: null, body: DATA.follow.body, extent: DATA.follow.extent,
                               on: !!DATA.follow.on, at: new THREE.Vector3() } : null;
function followed() {  // the followed body's position now
  const rb = follow.rb, j = rb.frame * rb.nb1 + follow.body;
  return new THREE.Vector3(rb.pos[3 * j], rb.pos[3 * j + 1], rb.pos[3 * j + 2]);
}
function track() {  // move the camera and its target by the base's move since last time
  if (!follow || !follow.rb) return;
  const now = followed();
  if (follow.on) {
    const shift = now.clone().sub(follow.at);
    camera.position.add(shift);
    controls.target.add(shift);
    sun.position.add(shift);
  }
  follow.at.copy(now);
}
function resetView() {
  const onBase = follow && follow.rb && follow.on;
  const look = onBase ? followed() : centre, size = onBase ? follow.extent : DATA.extent;
  const side = new THREE.Vector3(1, -1.4, 0.8);
  side.sub(up.clone().multiplyScalar(side.dot(up))).normalize();
  camera.position.copy(look).add(side.multiplyScalar(1.75 * size))
    .add(up.clone().multiplyScalar(0.7 * size));
  controls.target.copy(look);
  controls.update();
  sun.position.copy(camera.position).add(up.clone().multiplyScalar(size));
  if (follow && follow.rb) follow.at.copy(followed());
}
function fit() {  // the canvas takes #view's size
  const w = Math.max(view.clientWidth, 1), h = Math.max(view.clientHeight, 1);
  if (w === W && h === H) return;
  W = w; H = h;
  renderer.setSize(W, H);
  camera.aspect = W / H;
  camera.updateProjectionMatrix();
  renderer.render(scene, camera);
}
if (window.ResizeObserver) new ResizeObserver(fit).observe(view);
window.addEventListener("resize", fit);
// --- playback: simulation time runs at `speed` × wall time ---
let simTime = t0, playing = false, speed = 1, lastWall = null, played = 0;
const scrub = document.getElementById("scrub"), label = document.getElementById("time");
const playButton = document.getElementById("play");
function setTime(t) {
  simTime = Math.min(Math.max(t, t0), t1);
  for (const rb of robots) pose(rb, frameAt(simTime, rb.r.t));
  track();
  scrub.value = Math.round(1000 * (simTime - t0) / Math.max(t1 - t0, 1e-12));
  label.textContent = "t = " + simTime.toFixed(3) + " s";
  plot.cursor(simTime);
  renderer.render(scene, camera);
}
function setPlaying(on) {
  playing = on; lastWall = null;
  playButton.textContent = on ? "❚❚" : "▶";
}
function step(direction) {
  setPlaying(false);
  const times = robots[0].r.t, k = frameAt(simTime + 1e-12, times);
  setTime(times[Math.min(Math.max(k + direction, 0), times.length - 1)]);
}
function loop(now) {
  if (playing) {
    if (lastWall !== null) {
      const dt = speed * (now - lastWall) / 1000;
      played += dt;
      let t = simTime + dt;
      if (t > t1) t = t0 + ((t - t0) % Math.max(t1 - t0, 1e-9));  // loop
      setTime(t);
    }
    lastWall = now;
  }
  controls.update();
  renderer.render(scene, camera);
  requestAnimationFrame(loop);
}
// --- joint plot: axes with units; legend (HTML, scrolls, in columns), hover
// highlights, click hides ---
const plot = (() => {
  const svg = document.getElementById("plot"), ns = "http://www.w3.org/2000/svg";
  const legend = document.getElementById("legend");
  const Wp = 560, Hp = 380, L = 58, R = 12, T = 14, B = 46;
  svg.setAttribute("viewBox", `0 0 ${Wp} ${Hp}`);
  const el = (name, attrs, parent) => {
    const e = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    (parent || svg).appendChild(e);
    return e;
  };
  const shown = DATA.curves.filter((c) => c.visible);
  let lo = Infinity, hi = -Infinity;
  for (const c of shown) for (const v of c.values) { if (v < lo) lo = v; if (v > hi) hi = v; }
  if (!isFinite(lo)) { lo = -1; hi = 1; }
  if (hi - lo < 1e-9) { lo -= 0.5; hi += 0.5; }
  const pad = 0.05 * (hi - lo); lo -= pad; hi += pad;
  const X = (t) => L + (Wp - L - R) * (t - t0) / Math.max(t1 - t0, 1e-12);
  const Yv = (v) => T + (Hp - T - B) * (hi - v) / (hi - lo);
  function ticks(a, b, n) {
    const raw = (b - a) / n, mag = Math.pow(10, Math.floor(Math.log10(raw)));
    const stepv = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw);
    const out = [];
    for (let v = Math.ceil(a / stepv) * stepv; v <= b + 1e-12; v += stepv) out.push(+v.toFixed(10));
    return out;
  }
  for (const v of ticks(lo, hi, 6)) {
    el("line", { x1: L, x2: Wp - R, y1: Yv(v), y2: Yv(v), stroke: "#eee" });
    el("text", { x: L - 6, y: Yv(v) + 4, "text-anchor": "end", "font-size": 11 }).textContent = v;
  }
  for (const v of ticks(t0, t1, 6)) {
    el("line", { x1: X(v), x2: X(v), y1: T, y2: Hp - B, stroke: "#eee" });
    el("text", { x: X(v), y: Hp - B + 14, "text-anchor": "middle", "font-size": 11 }).textContent = v;
  }
  el("rect", { x: L, y: T, width: Wp - L - R, height: Hp - T - B, fill: "none", stroke: "#888" });
  el("text", { x: (L + Wp - R) / 2, y: Hp - B + 30, "text-anchor": "middle", "font-size": 12 })
    .textContent = "time [s]";
  const units = [...new Set(shown.map((c) => c.unit).filter((u) => u))];
  el("text", { x: 14, y: (T + Hp - B) / 2, "text-anchor": "middle", "font-size": 12,
               transform: `rotate(-90 14 ${(T + Hp - B) / 2})` })
    .textContent = "joint position" + (units.length ? " [" + units.join(", ") + "]" : "");
  const lines = DATA.curves.map((c) => {
    const pts = c.t.map((t, k) => X(t).toFixed(1) + "," + Yv(c.values[k]).toFixed(1)).join(" ");
    return el("polyline", { points: pts, fill: "none", stroke: c.color, "stroke-width": 1.6,
                            "stroke-dasharray": c.dash || "", display: c.visible ? "" : "none" });
  });
  // the legend: one entry per coordinate (shared by the robots, which differ by dash), a
  // grid of columns as wide as the panel allows, scrolling past a third of the window;
  // a name too long for its column ends in "…" and shows whole on hover (title)
  function legendItem(label, color, dash, cls) {
    const item = document.createElement("div");
    item.className = cls;
    const swatch = el("svg", { width: 24, height: 8 }, item);
    el("line", { x1: 0, x2: 24, y1: 4, y2: 4, stroke: color, "stroke-width": dash ? 2 : 3,
                 "stroke-dasharray": dash || "" }, swatch);
    const text = document.createElement("span");
    text.className = "label";
    text.textContent = label;
    item.appendChild(text);
    item.setAttribute("title", label);
    legend.appendChild(item);
    return item;
  }
  const entry = {};
  const items = DATA.curves.map((c) => {
    const label = c.name + (c.unit ? " [" + c.unit + "]" : "");
    if (!entry[label]) entry[label] = legendItem(label, c.color, "", "legend-item" + (c.visible ? "" : " off"));
    return entry[label];
  });
  if (DATA.robots.length > 1) {  // the key of the dashes
    DATA.robots.forEach((r) => legendItem(r.name, "#444", r.dash, "legend-item legend-robot"));
  }
  function highlight(j) {
    lines.forEach((l, i) => {
      l.setAttribute("stroke-width", j === null || i !== j ? 1.6 : 3.2);
      l.setAttribute("opacity", j === null || i === j ? 1 : 0.15);
    });
  }
  function highlightItem(item) {  // every curve of a legend entry
    lines.forEach((l, i) => {
      const on = item === null || items[i] === item;
      l.setAttribute("stroke-width", item !== null && on ? 3.2 : 1.6);
      l.setAttribute("opacity", on ? 1 : 0.15);
    });
  }
  DATA.curves.forEach((c, j) => {
    lines[j].addEventListener("mouseenter", () => highlight(j));
    lines[j].addEventListener("mouseleave", () => highlight(null));
  });
  for (const item of new Set(items)) {
    item.addEventListener("mouseenter", () => highlightItem(item));
    item.addEventListener("mouseleave", () => highlightItem(null));
    item.addEventListener("click", () => {
      const members = DATA.curves.map((c, i) => i).filter((i) => items[i] === item);
      const visible = !DATA.curves[members[0]].visible;
      for (const i of members) {
        DATA.curves[i].visible = visible;
        lines[i].setAttribute("display", visible ? "" : "none");
      }
      item.className = "legend-item" + (visible ? "" : " off");
    });
  }
  const cursorLine = el("line", { x1: 0, x2: 0, y1: T, y2: Hp - B, stroke: "#000" });
  return {
    cursor(t) { cursorLine.setAttribute("x1", X(t)); cursorLine.setAttribute("x2", X(t)); },
    highlight, lines,
  };
})();
scrub.addEventListener("input", () => { setPlaying(false); setTime(t0 + (t1 - t0) * scrub.value / 1000); });
playButton.addEventListener("click", () => setPlaying(!playing));
document.getElementById("back").addEventListener("click", () => step(-1));
document.getElementById("fwd").addEventListener("click", () => step(1));
document.getElementById("speed").addEventListener("change", (e) => { speed = Number(e.target.value); });
document.getElementById("reset").addEventListener("click", resetView);
const followBox = document.getElementById("follow");
function setFollow(on) {
  if (!follow) return;
  follow.on = !!on;
  followBox.checked = follow.on;
  if (follow.on) resetView();
  renderer.render(scene, camera);
}
if (follow) {
  follow.rb = robots[DATA.follow.robot];
  document.getElementById("follow-label").hidden = false;
  followBox.checked = follow.on;
  followBox.addEventListener("change", () => setFollow(followBox.checked));
}
window.addEventListener("keydown", (e) => {
  if (e.key === " ") { setPlaying(!playing); e.preventDefault(); }
  else if (e.key === "ArrowRight") step(1);
  else if (e.key === "ArrowLeft") step(-1);
});
document.getElementById("info").textContent = DATA.info;
setTime(t0);
resetView();
setPlaying(DATA.autoplay);
requestAnimationFrame(loop);
window.eslabonViewer = {
  ready: true, meshCount, partCount, frames: robots[0].r.t.length, t0, t1,
  up: up.toArray(), cameraUp: () => camera.up.toArray(),
  setTime, time: () => simTime, frame: () => robots[0].frame,
  play: () => setPlaying(true), pause: () => setPlaying(false),
  setSpeed: (s) => { speed = s; },
  clock: () => ({ wall: performance.now(), played }),
  highlight: (j) => plot.highlight(j),
  screenUp: () => {  // where "up" points on the screen (pixels, y down), from the centre
    const a = centre.clone().project(camera), b = centre.clone().add(up).project(camera);
    return [(b.x - a.x) * W / 2, -(b.y - a.y) * H / 2];
  },
  canvasSize: () => [renderer.domElement.clientWidth, renderer.domElement.clientHeight],
  viewSize: () => [view.clientWidth, view.clientHeight],
  following: () => !!(follow && follow.on),
  setFollow,
  baseOnScreen: () => {  // the followed body on the screen (pixels from the top left)
    if (!follow) return null;
    const p = followed().project(camera);
    return [(p.x + 1) * W / 2, (1 - p.y) * H / 2];
  },
};
