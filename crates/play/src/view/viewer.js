// The replay viewer's controls, legend and side panel. It knows no game: each position arrives
// computed by Agon's rules (as patches against the previous one), and the game's drawing module
// (`view.js` in the game's folder, `Agon.games.<game>`) draws it with `draw(view, overlay)`;
// the module may also say how a seat looks on its board, `seatLook(seat, firstView, colours)`
// -> `{ colour, name }` (Breakthrough: White's workers), for the legend; without it a seat is
// its colour in `colours`. Nothing here applies a rule.
"use strict";

const Agon = (window.Agon = window.Agon || { games: {} });


// Builds an SVG or HTML element; text goes in as text, never as markup.
Agon.el = function (tag, attrs, text) {
  const svg = ["svg", "g", "rect", "circle", "line", "path", "polyline", "polygon", "text", "title", "defs", "marker"];
  const node = svg.includes(tag)
    ? document.createElementNS("http://www.w3.org/2000/svg", tag)
    : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== null && v !== undefined) node.setAttribute(k, v);
  }
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
};

// An arrow from (x1, y1) to (x2, y2) in board units, for moves.
Agon.arrow = function (x1, y1, x2, y2, colour, width, dashed) {
  const g = Agon.el("g", { class: "arrow" });
  const dx = x2 - x1, dy = y2 - y1;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len, uy = dy / len, head = Math.min(0.35, len / 2);
  g.appendChild(Agon.el("line", {
    x1, y1, x2: x2 - ux * head * 0.8, y2: y2 - uy * head * 0.8,
    stroke: colour, "stroke-width": width, "stroke-linecap": "round",
    "stroke-dasharray": dashed ? `${width * 2} ${width * 2}` : null,
  }));
  const px = -uy * head * 0.6, py = ux * head * 0.6;
  g.appendChild(Agon.el("polygon", {
    points: `${x2},${y2} ${x2 - ux * head + px},${y2 - uy * head + py} ${x2 - ux * head - px},${y2 - uy * head - py}`,
    fill: colour,
  }));
  return g;
};

// Patches as `agon view` writes them (crates/play/src/view/patch.rs): {"=": v} replaces, {"o": {..},
// "d": [..]} patches an object's keys, {"a": [[i, p], ..], "n": len} an array's elements, {"s":
// [[at, removed, text], ..]} replaces runs of a string, in order.
function applyPatch(value, patch) {
  if ("=" in patch) return patch["="];
  if ("o" in patch) {
    const out = Object.assign({}, value);
    for (const [k, p] of Object.entries(patch.o)) out[k] = applyPatch(value ? value[k] : undefined, p);
    for (const k of patch.d || []) delete out[k];
    return out;
  }
  if ("a" in patch) {
    const out = value.slice(0, patch.n);
    for (const [i, p] of patch.a) out[i] = applyPatch(out[i], p);
    return out;
  }
  if ("s" in patch) {
    let out = value;
    for (const [at, removed, text] of patch.s) out = out.slice(0, at) + text + out.slice(at + removed);
    return out;
  }
  throw new Error("unknown patch " + JSON.stringify(patch));
}

function formatMicros(us) {
  if (us === null || us === undefined) return "-";
  return us >= 1000 ? (us / 1000).toFixed(1) + " ms" : us + " µs";
}

// The data as `agon view` packs it: JSON, gzipped, in base64 (crates/play/src/view/mod.rs).
async function unpackText(text) {
  const bytes = Uint8Array.from(atob(text.trim()), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).text();
}

async function unpack(text) {
  return JSON.parse(await unpackText(text));
}

// A tournament's one viewer page (`games/viewer.html#game=ID`): the game's data file, `ID.js`
// beside the page, loaded with a script element (which works from file://, where fetch does
// not); it calls `Agon.loaded` with what the page shows (crates/play/src/view/mod.rs, `Shown`).
function loadShown() {
  const wanted = /[#&]game=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (!wanted) return Promise.reject(new Error("no game named: open this page as viewer.html#game=ID"));
  // Another game named in the address (a link between games of one tournament changes only the
  // part after #, which loads nothing by itself): show it from a fresh page.
  window.addEventListener("hashchange", () => {
    const now = /[#&]game=([A-Za-z0-9_-]+)/.exec(location.hash);
    if (now && now[1] !== wanted[1]) location.reload();
  });
  return new Promise((resolve, reject) => {
    let handed = false;
    Agon.loaded = (shown) => {
      handed = true;
      // Which game this page shows, for whoever drives it (the browser tests).
      document.body.dataset.gameId = wanted[1];
      resolve(shown);
    };
    const script = document.createElement("script");
    script.src = `${wanted[1]}.js`;
    script.onerror = () => reject(new Error(`no data file ${script.src}`));
    // A file that ran without handing its data over (cut short, not Agon's) is an error, not a
    // page that waits forever.
    script.onload = () => handed || reject(new Error(`${script.src} is not a game's data file`));
    document.head.appendChild(script);
  });
}

// The address of ply `ply` of this page's game (a shared viewer page keeps its `game=ID`).
function plyLink(ply) {
  const game = /[#&](game=[A-Za-z0-9_-]+)/.exec(location.hash);
  return game ? `#${game[1]}&ply=${ply}` : `#ply=${ply}`;
}

// Fills the header, the facts and the chart of a shared viewer page from the game's data file.
async function fillPage(shown) {
  document.title = shown.title;
  const heading = document.querySelector("header h1");
  heading.textContent = shown.title;
  // The heading is cut to one line when long (team names): its tooltip shows it whole.
  heading.title = shown.title;
  document.querySelector("header .sub").textContent = shown.subtitle;
  const facts = document.querySelector("table.facts");
  for (const [name, value] of shown.facts) {
    const row = Agon.el("tr");
    row.appendChild(Agon.el("th", {}, name));
    row.appendChild(Agon.el("td", {}, value));
    facts.appendChild(row);
  }
  // The chart is SVG the engine drew (crates/play/src/charts.rs), its texts escaped there; packed
  // as the data is.
  document.getElementById("chart").innerHTML = await unpackText(shown.chart);
}

async function main() {
  let packed = document.getElementById("agon-data").textContent;
  if (!packed.trim()) {
    const shown = await loadShown();
    await fillPage(shown);
    packed = shown.data;
  }
  const data = await unpack(packed);
  // The seats' colours, the same as the score chart's (crates/play/src/charts.rs).
  Agon.colours = data.colours;
  const frames = [data.frames.first];
  for (const p of data.frames.patches) frames.push(applyPatch(frames[frames.length - 1], p));
  const last = frames.length - 1;
  const game = Agon.games[data.game] || Agon.games._text;
  const $ = (id) => document.getElementById(id);
  const seatName = (s) => (data.seats[s] ? `${s}: ${data.seats[s].bot}` : `seat ${s}`);
  fillLegend(data.seats, game, frames[0].draw);

  // Players.
  const players = $("players");
  data.seats.forEach((s, i) => {
    const row = Agon.el("tr");
    const swatch = Agon.el("td");
    swatch.appendChild(Agon.el("span", { class: "swatch", title: "its line in the score chart", style: `background:${Agon.colours[i % 8]}` }));
    row.appendChild(swatch);
    row.appendChild(Agon.el("td", {}, i));
    row.appendChild(Agon.el("td", { class: "who", title: `${s.team}:${s.bot}` }, `${s.team}:${s.bot}`));
    row.appendChild(Agon.el("td", {}, `${s.plugin} ${s.version}`));
    row.appendChild(Agon.el("td", { class: "hash", title: s.sha256 }, s.sha256.slice(0, 12)));
    row.appendChild(Agon.el("td", { class: "score", id: `score-${i}` }));
    players.appendChild(row);
  });
  $("outcome").textContent = data.outcome;

  // Faults, each a link to its ply.
  const faultList = $("faults");
  const faultItems = data.faults.map((f, k) => {
    const item = Agon.el("li", { class: "fault", "data-ply": f.ply, "data-seat": f.seat, "data-cause": f.cause });
    const link = Agon.el("a", { href: plyLink(f.ply) }, `ply ${f.ply}`);
    link.addEventListener("click", (e) => { e.preventDefault(); show(Math.min(f.ply, last)); });
    item.appendChild(link);
    item.appendChild(document.createTextNode(` ${seatName(f.seat)}: `));
    item.appendChild(Agon.el("b", { class: "cause" }, f.cause));
    if (f.answer) item.appendChild(Agon.el("code", { class: "answer" }, ` ${f.answer}`));
    item.appendChild(Agon.el("div", { class: "detail" }, f.detail));
    faultList.appendChild(item);
    return item;
  });
  if (data.faults.length === 0) faultList.appendChild(Agon.el("li", { class: "none" }, "no faults"));

  // The score chart's cursor: the chart is drawn once, in Rust; only the cursor moves.
  const chart = $("chart");
  const cursor = chart.querySelector("#chart-cursor");
  const area = data.chart_area;

  const slider = $("slider");
  slider.max = last;
  let ply = 0;
  let timer = null;

  function show(k) {
    ply = Math.max(0, Math.min(last, k));
    const frame = frames[ply];
    // Move k-1 led here; an illegal answer refused at this ply is drawn over the position.
    const move = ply > 0 ? data.moves[ply - 1] : null;
    const refused = data.faults.filter((f) => f.ply === ply && f.draw);
    const board = $("board");
    board.replaceChildren(game.draw(frame.draw, {
      move, refused, colours: Agon.colours, seats: data.seats.length,
      previous: ply > 0 ? frames[ply - 1].draw : null,
    }));
    $("position-text").textContent = frame.text;
    slider.value = ply;
    $("ply-label").textContent = `ply ${ply} / ${last}`;
    document.body.dataset.ply = ply;
    document.body.dataset.last = last;
    frame.scores.forEach((s, i) => { const c = $(`score-${i}`); if (c) c.textContent = s; });
    const m = $("move");
    m.replaceChildren();
    if (move) {
      m.appendChild(Agon.el("span", { class: "notation" }, move.action));
      const facts = [seatName(move.seat), formatMicros(move.wall_us)];
      if (move.cpu_us !== undefined && move.cpu_us !== null) facts.push(`cpu ${formatMicros(move.cpu_us)}`);
      if (move.nodes !== undefined && move.nodes !== null) facts.push(`${move.nodes} nodes`);
      if (move.round !== undefined && move.round !== null) facts.push(`round ${move.round}`);
      if (move.forced) facts.push(`forced: ${move.forced}`);
      m.appendChild(Agon.el("span", { class: "facts" }, ` ${facts.join(" · ")}`));
    } else {
      m.appendChild(Agon.el("span", { class: "facts" }, "the start"));
    }
    faultItems.forEach((item, i) => item.classList.toggle("here", data.faults[i].ply === ply));
    if (cursor && area && last > 0) {
      const x = area.left + (area.right - area.left) * (ply / last);
      cursor.setAttribute("x1", x);
      cursor.setAttribute("x2", x);
    }
    // A shared viewer page keeps `game=ID` in the address, so that a reload shows the game.
    if (location.hash !== plyLink(ply)) history.replaceState(null, "", plyLink(ply));
  }

  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
    $("play").textContent = "▶ play";
  }
  function play() {
    if (ply >= last) show(0);
    $("play").textContent = "❚❚ pause";
    timer = setInterval(() => { if (ply >= last) stop(); else show(ply + 1); }, Number($("speed").value));
  }
  $("play").addEventListener("click", () => (timer ? stop() : play()));
  $("speed").addEventListener("change", () => { if (timer) { stop(); play(); } });
  $("first").addEventListener("click", () => { stop(); show(0); });
  $("prev").addEventListener("click", () => { stop(); show(ply - 1); });
  $("next").addEventListener("click", () => { stop(); show(ply + 1); });
  $("last").addEventListener("click", () => { stop(); show(last); });
  slider.addEventListener("input", () => { stop(); show(Number(slider.value)); });
  document.addEventListener("keydown", (e) => {
    if (e.target && e.target.tagName === "SELECT") return;
    const keys = { ArrowLeft: () => show(ply - 1), ArrowRight: () => show(ply + 1), Home: () => show(0), End: () => show(last) };
    if (keys[e.key]) { stop(); keys[e.key](); e.preventDefault(); }
    else if (e.key === " ") { timer ? stop() : play(); e.preventDefault(); }
  });
  const wanted = /[#&]ply=(\d+)/.exec(location.hash);
  show(wanted ? Number(wanted[1]) : 0);
  // How long the page took to be ready, from the start of its navigation (for measurements).
  document.body.dataset.readyMs = Math.round(performance.now());
}

// The legend under the title: per seat, its colour on the board (named when the game's module
// names it), the seat and who plays it.
function fillLegend(seats, game, firstView) {
  const legend = document.getElementById("legend");
  seats.forEach((s, i) => {
    const look = (game.seatLook && game.seatLook(i, firstView, Agon.colours)) || {};
    const colour = look.colour || Agon.colours[i % Agon.colours.length];
    const who = `${s.team}:${s.bot}`;
    const item = Agon.el("li", { "data-seat": i, "data-colour": colour, "data-name": look.name || "" });
    item.appendChild(Agon.el("span", { class: "swatch", style: `background:${colour}` }));
    item.appendChild(Agon.el("span", { class: "seat" }, `seat ${i}`));
    if (look.name) item.appendChild(Agon.el("b", { class: "side" }, look.name));
    item.appendChild(Agon.el("span", { class: "who", title: who }, s.team));
    item.appendChild(Agon.el("span", { class: "bot", title: who }, s.bot));
    legend.appendChild(item);
  });
}

// Games without a drawing module: the position as text, large.
Agon.games._text = {
  draw(view) {
    return Agon.el("p", { class: "text-only" }, "This game has no drawing; its position is below, as text.");
  },
};

document.addEventListener("DOMContentLoaded", () => main().catch((e) => {
  document.body.dataset.error = String(e);
  document.getElementById("board").textContent = `This page could not be shown: ${e}`;
}));
