//! The replay viewer (`cav replay LOG --html FILE`): one self-contained HTML file — the event
//! log embedded as JSON, a small script, no network and no build step — that steps through a
//! game event by event: the board as it stands (terrain, models with facing and damage, the
//! attack being made), the current roll with its dice, modifiers and their sources, each
//! model's damage, and a timeline to jump around (slider, buttons, arrow keys, the event list;
//! `#N` in the address opens event N). It reads the same JSONL every other tool reads.

/// The page for `events` (the log's records in order; a header record, if any, is skipped by
/// the script as it has no `event` key); `tracks[i]`: model i's damage tracks, for its bar.
pub fn html(title: &str, events: &[serde_json::Value], tracks: &[u32]) -> String {
    let data = serde_json::json!({ "events": events, "tracks": tracks }).to_string();
    // Inside a script element, `</script` ends it and `<!--` starts a comment state that can
    // swallow the rest of the page: no `<` is left in the JSON (it only occurs in strings, where
    // `\u003c` is the same character).
    let data = data.replace('<', "\\u003c");
    PAGE.replace("{{TITLE}}", &esc(title)).replace("{{EVENTS}}", &data)
}

use cav_format::xml::escape as esc;

const PAGE: &str = r##"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{TITLE}}</title>
<style>
  body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 12px; color: #222; background: #fafaf7; }
  h1 { font-size: 18px; margin: 0 0 8px; }
  #main { display: flex; gap: 16px; align-items: flex-start; }
  #board { border: 1px solid #555; background: #eef0e2; }
  #side { width: 420px; }
  .panel { background: white; border: 1px solid #ccc; border-radius: 6px; padding: 8px 10px; margin-bottom: 10px; }
  .panel h2 { font-size: 13px; margin: 0 0 6px; text-transform: uppercase; color: #555; }
  #controls { display: flex; gap: 6px; align-items: center; margin: 8px 0; }
  #timeline { flex: 1; }
  #events { height: 260px; overflow-y: auto; font-size: 12px; font-family: monospace; }
  #events div { cursor: pointer; padding: 1px 3px; white-space: nowrap; }
  #events div.current { background: #ffe9a8; }
  .die { display: inline-block; width: 22px; height: 22px; line-height: 22px; text-align: center; border: 1px solid #333;
         border-radius: 4px; margin-right: 3px; font-weight: bold; background: #fff; }
  .mods td { padding: 0 6px 0 0; font-size: 12px; }
  .ok { color: #2e8b57; font-weight: bold; } .fail { color: #c0392b; font-weight: bold; }
  .track { height: 10px; background: #e4e4e4; border-radius: 3px; margin: 2px 0 6px; }
  .track div { height: 10px; background: #c0392b; border-radius: 3px; }
</style>
</head>
<body>
<h1>{{TITLE}}</h1>
<div id="controls">
  <button id="first">|◀</button><button id="prev">◀</button>
  <input id="timeline" type="range" min="0" value="0">
  <button id="next">▶</button><button id="last">▶|</button>
  <span>event <span id="event-index">0</span> / <span id="event-count">0</span></span>
</div>
<div id="main">
  <svg id="board" width="600" height="600" viewBox="0 0 600 600"></svg>
  <div id="side">
    <div class="panel"><h2>Event</h2><div id="event-text"></div></div>
    <div class="panel" id="roll"><h2>Roll</h2><div id="roll-body">no roll yet</div></div>
    <div class="panel"><h2>Damage</h2><div id="damage"></div></div>
    <div class="panel"><h2>Timeline</h2><div id="events"></div></div>
  </div>
</div>
<script id="log" type="application/json">{{EVENTS}}</script>
<script>
"use strict";
const log = JSON.parse(document.getElementById("log").textContent);
const events = log.events.filter(e => e && typeof e.event === "string");
const tracks = log.tracks;
const colours = ["#222222", "#c0392b", "#2563a8", "#2e8b57"];
const terrainFill = id => /wood|jungle|forest/.test(id) ? "#5a9e4b" : /water|river|lake/.test(id) ? "#6fa8dc"
  : /hill/.test(id) ? "#b08a5a" : /structure|building/.test(id) ? "#6b6b6b" : "#9e9e86";
const esc = s => String(s).replace(/[&<>"]/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;"}[c]));

function describe(e) {
  const m = i => (models[i] && models[i].name) || ("model " + i);
  switch (e.event) {
    case "game_start": return `${e.scenario} (${e.ruleset}), seed ${e.seed}`;
    case "deployed": return `${e.name} deploys at (${e.at.x}, ${e.at.y})`;
    case "turn_start": return `turn ${e.turn} begins`;
    case "activation": return `${m(e.model)} activates with ${e.ap} AP`;
    case "moved": return `${m(e.model)} moves to (${e.to.x}, ${e.to.y})`;
    case "attack": return `${m(e.model)} fires ${e.weapon} at ${m(e.target)} (${e.distance}", ${e.band || e.mode})`;
    case "roll": return `${m(e.model)} rolls ${e.kind}: ${e.total}` + (e.target != null ? ` vs ${e.target}` : "");
    case "hit": return `hit: MoS ${e.margin} + RAV ${e.rav} vs AV ${e.av}: ` + (e.penetrated ? "penetrates" : "no penetration");
    case "damage_result": return `${m(e.target)}: ${e.row} (${e.damage})`;
    case "damage_applied": return `${m(e.model)} takes ${e.points} (total ${e.total}, column ${e.column})`;
    case "state_gained": return `${m(e.model)} is ${e.state}`;
    case "destroyed": return `${m(e.model)} is destroyed`;
    case "game_end": return "the game ends" + (e.winner ? `: ${e.winner} wins` : "");
    default: return e.event.replace(/_/g, " ");
  }
}

// The game as it stands after event n: replayed from the start (games are short).
let models = {};
function stateAt(n) {
  const s = { board: [48, 48], terrain: [], models: {}, roll: null, attack: null, active: null, marks: [] };
  models = s.models;
  for (let i = 0; i <= n && i < events.length; i++) {
    const e = events[i];
    switch (e.event) {
      case "game_start": if (Array.isArray(e.board)) s.board = e.board; break;
      case "terrain_placed": s.terrain.push(e); break;
      case "deployed": s.models[e.model] = { name: e.name, side: e.side, x: e.at.x, y: e.at.y, facing: e.facing,
        damage: 0, destroyed: false, states: [] }; break;
      case "moved": if (s.models[e.model]) Object.assign(s.models[e.model], { x: e.to.x, y: e.to.y, facing: e.facing }); break;
      case "activation": s.active = e.model; s.attack = null; s.marks = []; break;
      case "strike_point": case "drift": s.marks.push(e); break;
      case "attack": s.attack = e; break;
      case "roll": s.roll = { e, index: i }; break;
      case "damage_applied": if (s.models[e.model]) s.models[e.model].damage = e.total; break;
      case "state_gained": if (s.models[e.model]) s.models[e.model].states.push(e.state); break;
      case "state_ended": if (s.models[e.model]) s.models[e.model].states = s.models[e.model].states.filter(x => x !== e.state); break;
      case "destroyed": if (s.models[e.model]) s.models[e.model].destroyed = true; break;
      case "activation_end": s.attack = null; break;
    }
  }
  return s;
}

function draw(n) {
  n = Math.max(0, Math.min(events.length - 1, n | 0));
  const s = stateAt(n);
  const [bw, bh] = s.board, scale = 600 / Math.max(bw, bh);
  const px = p => [p.x * scale, (bh - p.y) * scale];
  let svg = "";
  for (const t of s.terrain) {
    const [cx, cy] = px(t.center);
    svg += `<g class="terrain" data-terrain="${esc(t.terrain)}"><circle cx="${cx}" cy="${cy}" r="${t.radius * scale}"` +
      ` fill="${terrainFill(t.terrain)}" fill-opacity="0.5"/><text x="${cx}" y="${cy + 3}" font-size="9" text-anchor="middle">${esc(t.terrain)}</text></g>`;
  }
  const sides = [...new Set(Object.values(s.models).map(m => m.side))];
  if (s.attack && s.models[s.attack.model] && s.models[s.attack.target]) {
    const [ax, ay] = px(s.models[s.attack.model]), [tx, ty] = px(s.models[s.attack.target]);
    svg += `<line id="attack-line" x1="${ax}" y1="${ay}" x2="${tx}" y2="${ty}" stroke="#e67e22" stroke-width="2.5" stroke-dasharray="6 3"/>`;
  }
  for (const k of s.marks) {
    if (k.event === "strike_point") {
      const [x, y] = px(k.at);
      svg += `<g class="strike-point" stroke="#8e44ad" stroke-width="2"><line x1="${x - 6}" y1="${y - 6}" x2="${x + 6}" y2="${y + 6}"/>` +
        `<line x1="${x - 6}" y1="${y + 6}" x2="${x + 6}" y2="${y - 6}"/></g>`;
    } else {
      const [fx, fy] = px(k.from), [tx, ty] = px(k.to);
      svg += `<g class="drift"><line x1="${fx}" y1="${fy}" x2="${tx}" y2="${ty}" stroke="#8e44ad" stroke-dasharray="4 2"/>` +
        `<circle cx="${tx}" cy="${ty}" r="4" fill="#8e44ad"/><text x="${tx}" y="${ty - 7}" font-size="10" fill="#8e44ad"` +
        ` text-anchor="middle">drifted ${(+k.inches).toFixed(1)}"</text></g>`;
    }
  }
  for (const [i, m] of Object.entries(s.models)) {
    const [cx, cy] = px(m), r = 1.2 * scale, a = m.facing * Math.PI / 180;
    const colour = colours[sides.indexOf(m.side) % colours.length];
    const active = String(s.active) === i ? ` stroke="#f1c40f" stroke-width="3"` : ` stroke="white"`;
    svg += `<g class="model" data-name="${esc(m.name)}" data-x="${m.x}" data-y="${m.y}" data-damage="${m.damage}"` +
      ` data-destroyed="${m.destroyed}" opacity="${m.destroyed ? 0.35 : 1}"><circle cx="${cx}" cy="${cy}" r="${r}" fill="${colour}"${active}/>` +
      `<line x1="${cx}" y1="${cy}" x2="${cx + Math.sin(a) * (r + 8)}" y2="${cy - Math.cos(a) * (r + 8)}" stroke="${colour}" stroke-width="2.5"/>` +
      `<text x="${cx}" y="${cy + r + 12}" font-size="11" text-anchor="middle">${esc(m.name)} (${m.damage})</text></g>`;
  }
  document.getElementById("board").innerHTML = svg;
  const e = events[n];
  document.getElementById("event-index").textContent = n;
  document.getElementById("event-text").innerHTML = `<b>#${n}</b> ${esc(describe(e))}`;
  const roll = document.getElementById("roll-body");
  if (s.roll) {
    const r = s.roll.e, mods = r.mods || [];
    const verdict = r.success == null ? "" : r.success ? `<span class="ok">success</span>` : `<span class="fail">failure</span>`;
    roll.innerHTML = `<div id="roll-kind" data-index="${s.roll.index}">${esc(describe(r))}</div>` +
      `<div id="roll-dice" style="margin:4px 0">${(r.natural || []).map(d => `<span class="die">${d}</span>`).join("")} <small>${esc(r.dice)}</small></div>` +
      `<table class="mods">${mods.map(m => `<tr><td>${m.value > 0 ? "+" : ""}${m.value}</td><td>${esc(m.source)}</td></tr>`).join("")}</table>` +
      `<div>total <b id="roll-total">${r.total}</b>` + (r.target != null ? ` vs target <b id="roll-target">${r.target}</b>` : "") +
      (r.margin != null ? `, margin ${r.margin}` : "") + ` ${verdict}${r.critical ? " (critical " + esc(r.critical) + ")" : ""}</div>`;
  } else {
    roll.textContent = "no roll yet";
  }
  let dmg = "";
  for (const [i, m] of Object.entries(s.models)) {
    const of = tracks[i] || 0, pct = of ? Math.min(100, m.damage * 100 / of) : 0;
    dmg += `<div class="damage-row" data-name="${esc(m.name)}">${esc(m.name)}: ${m.damage}${of ? " of " + of : ""} damage` +
      (m.states.length ? ", " + m.states.map(esc).join(", ") : "") + (m.destroyed ? ", destroyed" : "") +
      `<div class="track"><div style="width:${pct}%"></div></div></div>`;
  }
  document.getElementById("damage").innerHTML = dmg;
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
  const div = document.createElement("div");
  div.dataset.i = i;
  div.textContent = `${i} ${describe(e)}`;
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
</script>
</body>
</html>
"##;

#[cfg(test)]
mod tests {
    /// A log's text cannot end the page's script or open a comment in it: the embedded JSON holds
    /// no `<`, and the page has exactly its own two script elements.
    #[test]
    fn log_text_never_becomes_markup() {
        let event = serde_json::json!({"event": "deployed", "name": "<!--<script>alert(1)</script>", "at": [1, 2]});
        let page = super::html("</title><script>", &[event], &[3]);
        assert_eq!(page.matches("<script").count(), 2, "only the page's own: the log data and the code");
        assert!(!page.contains("<!--"), "no comment opened by the log");
        assert!(page.contains("\\u003c!--\\u003cscript>alert(1)\\u003c/script>"), "the name is kept, escaped");
    }
}
