"use strict";
// Every element is built as DOM nodes: what the log says is only ever a text node or an attribute
// value, never parsed as markup (and the page's Content-Security-Policy runs no other script).
const log = JSON.parse(document.getElementById("log").textContent);
const events = (Array.isArray(log.events) ? log.events : []).filter(e => e && typeof e.event === "string");
const tracks = Array.isArray(log.tracks) ? log.tracks : [];
const board = document.getElementById("board");
const SVG = board.namespaceURI;
function node(ns, tag, attrs, kids) {
  const e = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v != null) e.setAttribute(k, String(v));
  e.append(...(kids || []).filter(k => k != null));
  return e;
}
const svg = (tag, attrs, ...kids) => node(SVG, tag, attrs, kids);
const html = (tag, attrs, ...kids) => node(null, tag, attrs, kids);
// A number from the log (anything else counts as 0), and a point.
const num = v => (typeof v === "number" && Number.isFinite(v) ? v : 0);
const point = p => ({ x: num(p && p.x), y: num(p && p.y) });
const colours = ["#222222", "#c0392b", "#2563a8", "#2e8b57"];
const terrainFill = id => /wood|jungle|forest/.test(id) ? "#5a9e4b" : /water|river|lake/.test(id) ? "#6fa8dc"
  : /hill/.test(id) ? "#b08a5a" : /structure|building/.test(id) ? "#6b6b6b" : "#9e9e86";

function describe(e) {
  const m = i => (models[i] && models[i].name) || ("model " + i);
  // Coordinates to a tenth of an inch, as the narrative gives them.
  const at = p => { const q = point(p); return `(${q.x.toFixed(1)}, ${q.y.toFixed(1)})`; };
  switch (e.event) {
    case "game_start": return `${e.scenario} (${e.ruleset}), seed ${e.seed}`;
    case "deployed": return `${e.name} deploys at ${at(e.at)}`;
    case "turn_start": return `turn ${e.turn} begins`;
    case "activation": return `${m(e.model)} activates with ${e.ap} AP`;
    case "moved": return `${m(e.model)} moves to ${at(e.to)}`;
    case "attack": return `${m(e.model)} fires ${e.weapon} at ${m(e.target)} (${e.distance}", ${e.band || e.mode})`;
    case "roll": return `${m(e.model)} rolls ${e.kind}: ${e.total}` + (e.target != null ? ` vs ${e.target}` : "");
    case "hit": return `hit: MoS ${e.margin} + RAV ${e.rav} vs AV ${e.av}: ` + (e.penetrated ? "penetrates" : "no penetration");
    case "damage_result": return `${m(e.target)}: ${e.row} (${e.damage})`;
    case "damage_applied": return `${m(e.model)} takes ${e.points} (total ${e.total}, column ${e.column})`;
    case "state_gained": return `${m(e.model)} is ${e.state}`;
    case "state_ended": return `${m(e.model)} is no longer ${e.state}`;
    case "state_ignored": return `${m(e.model)} is not ${e.state}: ` + (e.why === "immune" ? "its type is immune" : "a state it has supersedes it");
    case "script_effect": return `[${e.point}] ${m(e.by)}'s ${e.source}: ${e.effect}` + (e.model != null ? ` on ${m(e.model)}` : "")
      + (e.quantity != null ? ` ${e.quantity}` : "") + (e.value != null ? ` ${e.value}` : "") + (e.detail != null ? ` (${e.detail})` : "");
    case "marker_placed": return `marker ${e.id} (${e.source}) lies at ${at(e.at)}`;
    case "marker_removed": return `marker ${e.id} (${e.source}) is taken off the board`;
    case "placed": return `${m(e.model)} is placed at ${at(e.at)}`;
    case "table_result": return `${m(e.model)}: ${e.table} (${e.key}): ${e.result}`;
    case "attribute_changed": return `${m(e.model)}'s ${e.attribute} is now ${e.value}`;
    case "weapon_damaged": return `${m(e.model)}'s ${e.weapon} ` + (e.lost ? "is lost" : `is damaged (${e.modifier} to its rolls)`);
    case "destroyed": return `${m(e.model)} is destroyed`;
    case "out_of_action": return `${m(e.model)} is out of action`;
    case "game_end": return "the game ends" + (e.winner ? `: ${e.winner} wins` : "");
    default: return e.event.replace(/_/g, " ");
  }
}

// The game as it stands after event n: replayed from the start (games are short).
let models = {};
function stateAt(n) {
  const s = { board: [48, 48], hexes: null, terrain: [], markers: new Map(), models: {}, roll: null, attack: null, active: null, marks: [] };
  models = s.models;
  for (let i = 0; i <= n && i < events.length; i++) {
    const e = events[i];
    const m = s.models[e.model];
    switch (e.event) {
      case "game_start":
        if (Array.isArray(e.board)) s.board = [num(e.board[0]) || 48, num(e.board[1]) || 48];
        // A hex board: its orientation and hexes across the flats (inches).
        s.hexes = (e.hexes === "flat" || e.hexes === "pointy") && num(e.hex_size) > 0
          ? { pointy: e.hexes === "pointy", size: num(e.hex_size) } : null;
        break;
      case "terrain_placed": s.terrain.push(e); break;
      case "deployed": s.models[e.model] = { name: String(e.name), side: e.side, ...point(e.at), facing: num(e.facing),
        damage: 0, destroyed: false, out: false, states: [] }; break;
      case "moved": if (m) Object.assign(m, point(e.to), { facing: num(e.facing) }); break;
      case "placed": if (m) Object.assign(m, point(e.at)); break;
      // A script's markers, by their script and name.
      case "marker_placed": s.markers.set(`${e.source}\u0000${e.id}`, { id: String(e.id), source: String(e.source), ...point(e.at) }); break;
      case "marker_removed": s.markers.delete(`${e.source}\u0000${e.id}`); break;
      case "activation": s.active = e.model; s.attack = null; s.marks = []; break;
      case "strike_point": case "drift": s.marks.push(e); break;
      case "attack": s.attack = e; break;
      case "roll": s.roll = { e, index: i }; break;
      case "damage_applied": if (m) m.damage = num(e.total); break;
      case "state_gained": if (m) m.states.push(String(e.state)); break;
      case "state_ended": if (m) m.states = m.states.filter(x => x !== e.state); break;
      case "destroyed": if (m) m.destroyed = true; break;
      case "out_of_action": if (m) m.out = true; break;
      case "activation_end": s.attack = null; break;
    }
  }
  return s;
}

// The most hexes the board draws: a log's tiny hexes on a big board draw no grid.
const MAX_HEXES = 5000;
// A hexagon's corners around (cx, cy) in pixels: its circumradius r, flat- or pointy-topped.
const hexagon = (cx, cy, r, pointy) => [0, 1, 2, 3, 4, 5].map(k => {
  const a = (60 * k + (pointy ? 30 : 0)) * Math.PI / 180;
  return `${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`;
}).join(" ");
// A hex board's hexes whose centres lie on it, laid out as the engine's [column, row]: on a
// flat-topped board odd columns sit half a hex further along y, on a pointy one odd rows along x.
function hexGrid(h, bw, bh, px, scale) {
  const step = h.size * Math.sqrt(3) / 2, r = h.size / Math.sqrt(3) * scale;
  const [cols, rows] = h.pointy ? [bw / h.size + 1, bh / step + 1] : [bw / step + 1, bh / h.size + 1];
  if (!(cols * rows <= MAX_HEXES)) return [];
  const out = [];
  for (let c = 0; c < cols; c++) for (let w = 0; w < rows; w++) {
    const x = h.pointy ? (c + 0.5 * (w & 1)) * h.size : c * step;
    const y = h.pointy ? w * step : (w + 0.5 * (c & 1)) * h.size;
    if (x > bw + 1e-9 || y > bh + 1e-9) continue;
    const [cx, cy] = px({ x, y });
    out.push(svg("polygon", { class: "hex", points: hexagon(cx, cy, r, h.pointy), fill: "none", stroke: "#c9ccb6", "stroke-width": 0.6 }));
  }
  return out;
}

function draw(n) {
  if (!events.length) return;
  n = Math.max(0, Math.min(events.length - 1, n | 0));
  const s = stateAt(n);
  const [bw, bh] = s.board, scale = 600 / Math.max(bw, bh);
  const px = p => { const q = point(p); return [q.x * scale, (bh - q.y) * scale]; };
  const shapes = s.hexes ? hexGrid(s.hexes, bw, bh, px, scale) : [];
  for (const t of s.terrain) {
    const [cx, cy] = px(t.center), id = String(t.terrain), r = num(t.radius) * scale;
    // On a hex board a piece is a hex: drawn as one, named by its title (a label per hex would
    // cover the board).
    shapes.push(s.hexes
      ? svg("g", { class: "terrain", "data-terrain": id },
        svg("polygon", { points: hexagon(cx, cy, r, s.hexes.pointy), fill: terrainFill(id), "fill-opacity": 0.5 }),
        svg("title", {}, id))
      : svg("g", { class: "terrain", "data-terrain": id },
        svg("circle", { cx, cy, r, fill: terrainFill(id), "fill-opacity": 0.5 }),
        svg("text", { x: cx, y: cy + 3, "font-size": 9, "text-anchor": "middle" }, id)));
  }
  for (const k of s.markers.values()) {
    const [x, y] = px(k);
    shapes.push(svg("g", { class: "marker", "data-marker": k.id },
      svg("polygon", { points: `${x},${y - 6} ${x + 6},${y} ${x},${y + 6} ${x - 6},${y}`, fill: "#8e44ad", stroke: "white" },
        svg("title", {}, `marker ${k.id} (${k.source})`))));
  }
  const sides = [...new Set(Object.values(s.models).map(m => m.side))];
  if (s.attack && s.models[s.attack.model] && s.models[s.attack.target]) {
    const [x1, y1] = px(s.models[s.attack.model]), [x2, y2] = px(s.models[s.attack.target]);
    shapes.push(svg("line", { id: "attack-line", x1, y1, x2, y2, stroke: "#e67e22", "stroke-width": 2.5, "stroke-dasharray": "6 3" }));
  }
  for (const k of s.marks) {
    if (k.event === "strike_point") {
      const [x, y] = px(k.at);
      shapes.push(svg("g", { class: "strike-point", stroke: "#8e44ad", "stroke-width": 2 },
        svg("line", { x1: x - 6, y1: y - 6, x2: x + 6, y2: y + 6 }), svg("line", { x1: x - 6, y1: y + 6, x2: x + 6, y2: y - 6 })));
    } else {
      const [x1, y1] = px(k.from), [x2, y2] = px(k.to);
      shapes.push(svg("g", { class: "drift" },
        svg("line", { x1, y1, x2, y2, stroke: "#8e44ad", "stroke-dasharray": "4 2" }),
        svg("circle", { cx: x2, cy: y2, r: 4, fill: "#8e44ad" }),
        svg("text", { x: x2, y: y2 - 7, "font-size": 10, fill: "#8e44ad", "text-anchor": "middle" },
          `drifted ${num(k.inches).toFixed(1)}"`)));
    }
  }
  for (const [i, m] of Object.entries(s.models)) {
    // A model fits in its hex on a hex board.
    const [cx, cy] = px(m), r = (s.hexes ? Math.min(1.2, 0.35 * s.hexes.size) : 1.2) * scale, a = m.facing * Math.PI / 180;
    const colour = colours[sides.indexOf(m.side) % colours.length];
    const ring = String(s.active) === i ? { stroke: "#f1c40f", "stroke-width": 3 } : { stroke: "white" };
    shapes.push(svg("g", { class: "model", "data-name": m.name, "data-x": m.x, "data-y": m.y, "data-damage": m.damage,
      "data-destroyed": m.destroyed, opacity: m.destroyed ? 0.35 : m.out ? 0.6 : 1 },
      svg("circle", { cx, cy, r, fill: colour, ...ring }),
      svg("line", { x1: cx, y1: cy, x2: cx + Math.sin(a) * (r + 8), y2: cy - Math.cos(a) * (r + 8), stroke: colour, "stroke-width": 2.5 }),
      svg("text", { x: cx, y: cy + r + 12, "font-size": 11, "text-anchor": "middle" }, `${m.name} (${m.damage})`)));
  }
  board.replaceChildren(...shapes);
  const e = events[n];
  document.getElementById("event-index").textContent = n;
  document.getElementById("event-text").replaceChildren(html("b", {}, `#${n}`), " " + describe(e));
  const roll = document.getElementById("roll-body");
  if (s.roll) {
    const r = s.roll.e, mods = Array.isArray(r.mods) ? r.mods : [];
    const verdict = r.success == null ? "" : r.success ? html("span", { class: "ok" }, "success") : html("span", { class: "fail" }, "failure");
    const total = [" total ", html("b", { id: "roll-total" }, num(r.total))];
    if (r.target != null) total.push(" vs target ", html("b", { id: "roll-target" }, num(r.target)));
    if (r.margin != null) total.push(`, margin ${num(r.margin)}`);
    total.push(" ", verdict, r.critical ? ` (critical ${r.critical})` : "");
    roll.replaceChildren(
      html("div", { id: "roll-kind", "data-index": s.roll.index }, describe(r)),
      html("div", { id: "roll-dice" },
        ...(Array.isArray(r.natural) ? r.natural : []).map(d => html("span", { class: "die" }, num(d))), " ", html("small", {}, String(r.dice))),
      html("table", { class: "mods" }, ...mods.map(m => html("tr", {},
        html("td", {}, `${num(m && m.value) > 0 ? "+" : ""}${num(m && m.value)}`), html("td", {}, String(m && m.source))))),
      html("div", {}, ...total));
  } else {
    roll.textContent = "no roll yet";
  }
  const rows = [];
  for (const [i, m] of Object.entries(s.models)) {
    const of = num(tracks[i]), pct = of ? Math.min(100, m.damage * 100 / of) : 0;
    const bar = html("div");
    bar.style.width = `${pct}%`;
    rows.push(html("div", { class: "damage-row", "data-name": m.name },
      `${m.name}: ${m.damage}${of ? " of " + of : ""} damage` + (m.states.length ? ", " + m.states.join(", ") : "") +
      (m.destroyed ? ", destroyed" : m.out ? ", out of action" : ""), html("div", { class: "track" }, bar)));
  }
  document.getElementById("damage").replaceChildren(...rows);
  for (const el of document.querySelectorAll("#events div")) el.classList.toggle("current", +el.dataset.i === n);
  const cur = document.querySelector("#events div.current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
  document.getElementById("timeline").value = n;
  if (location.hash !== "#" + n) history.replaceState(null, "", "#" + n);
  current = n;
}

let current = 0;
const list = document.getElementById("events");
events.forEach((e, i) => {
  stateAt(i);
  const div = html("div", {}, `${i} ${describe(e)}`);
  div.dataset.i = i;
  div.onclick = () => draw(i);
  list.appendChild(div);
});
const timeline = document.getElementById("timeline");
timeline.max = events.length - 1;
document.getElementById("event-count").textContent = events.length - 1;
timeline.oninput = () => draw(+timeline.value);
document.getElementById("first").onclick = () => draw(0);
document.getElementById("prev").onclick = () => draw(current - 1);
document.getElementById("next").onclick = () => draw(current + 1);
document.getElementById("last").onclick = () => draw(events.length - 1);
document.addEventListener("keydown", k => {
  if (k.key === "ArrowRight") draw(current + 1);
  if (k.key === "ArrowLeft") draw(current - 1);
});
draw(parseInt(location.hash.slice(1), 10) || 0);
