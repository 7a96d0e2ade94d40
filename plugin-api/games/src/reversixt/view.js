// ReversiXT in the replay viewer, for any map: holes left empty, the special squares lettered
// (c choice, i inversion, b bonus, x expansion), each transition's two ends numbered alike,
// stones in up to 8 colours, disqualified players' stones crossed out, the last move ringed
// and a bomb's target marked. Data: reversixt/view.rs.
"use strict";
Agon.games.reversixt = {
  // The board and its texts number the players from 1: seat 0 is player 1.
  seatLook(seat, view, colours) {
    return { colour: colours[seat % colours.length], name: `player ${seat + 1}` };
  },
  draw(view, overlay) {
    const el = Agon.el;
    const { width, height, board } = view;
    const legend = 0.8 + view.players * 0.8;
    const svg = el("svg", { viewBox: `-0.6 -0.6 ${width + 1.2} ${height + 1.2 + legend}`, role: "img" });
    const specials = { c: "#f3e7b3", i: "#d9e7f7", b: "#f7d9d9", x: "#dcefd9" };
    board.forEach((row, y) => {
      [...row].forEach((token, x) => {
        if (token === "-") return;
        svg.appendChild(el("rect", {
          x, y, width: 1, height: 1, fill: specials[token] || "#eef0f2", stroke: "#b8bcc4", "stroke-width": 0.04,
        }));
        if (specials[token]) {
          svg.appendChild(el("text", { x: x + 0.5, y: y + 0.68, "font-size": 0.5, "text-anchor": "middle", fill: "#555" }, token));
        } else if (token >= "1" && token <= "8") {
          const p = Number(token) - 1;
          const stone = el("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.38, fill: overlay.colours[p], stroke: "#222", "stroke-width": 0.04 });
          stone.appendChild(el("title", {}, `player ${p + 1}`));
          svg.appendChild(stone);
          if (view.disqualified[p]) {
            svg.appendChild(el("path", { d: `M${x + 0.25},${y + 0.25}L${x + 0.75},${y + 0.75}M${x + 0.75},${y + 0.25}L${x + 0.25},${y + 0.75}`, stroke: "#fff", "stroke-width": 0.08 }));
          }
        }
      });
    });
    // A transition joins two squares' edges, often far apart: each end is drawn as a short
    // link out of its edge, both ends numbered alike, so no line crosses the board.
    view.transitions.forEach(([fx, fy, fdx, fdy, tx, ty, tdx, tdy], k) => {
      for (const [x, y, dx, dy, ox, oy] of [[fx, fy, fdx, fdy, tx, ty], [tx, ty, tdx, tdy, fx, fy]]) {
        const ax = x + 0.5 + dx * 0.5, ay = y + 0.5 + dy * 0.5;
        const end = el("g", { class: "transition" });
        end.appendChild(el("line", { x1: ax, y1: ay, x2: ax + dx * 0.35, y2: ay + dy * 0.35, stroke: "#7b5fb0", "stroke-width": 0.09 }));
        end.appendChild(el("text", { x: ax + dx * 0.55, y: ay + dy * 0.55 + 0.13, "font-size": 0.36, "text-anchor": "middle", fill: "#7b5fb0" }, k + 1));
        end.appendChild(el("title", {}, `transition ${k + 1}: (${x},${y}) <-> (${ox},${oy})`));
        svg.appendChild(end);
      }
    });
    const mark = (m, colour, dashed, label) => {
      const g = el("g", { class: dashed ? "refused" : "move" });
      if (m.bomb) {
        const r = view.bomb_strength + 0.5;
        g.appendChild(el("rect", { x: m.x + 0.5 - r, y: m.y + 0.5 - r, width: 2 * r, height: 2 * r, fill: "none", stroke: colour, "stroke-width": 0.08, "stroke-dasharray": "0.25 0.15" }));
        g.appendChild(el("text", { x: m.x + 0.5, y: m.y + 0.72, "font-size": 0.7, "text-anchor": "middle" }, "💣"));
      }
      g.appendChild(el("rect", { x: m.x + 0.05, y: m.y + 0.05, width: 0.9, height: 0.9, fill: "none", stroke: colour, "stroke-width": 0.12, "stroke-dasharray": dashed ? "0.15 0.1" : null }));
      g.appendChild(el("title", {}, label));
      svg.appendChild(g);
    };
    const move = overlay.move && overlay.move.draw;
    if (move) mark(move, "#1d1f24", false, `last move ${overlay.move.action}`);
    for (const f of overlay.refused) mark(f.draw, "#d02f2f", true, `refused: ${f.answer}: ${f.detail}`);
    // The players' stock, under the board.
    for (let p = 0; p < view.players; p++) {
      const lx = 0, ly = height + 0.9 + p * 0.8;
      svg.appendChild(el("circle", { cx: lx + 0.3, cy: ly, r: 0.26, fill: overlay.colours[p] }));
      const out = view.disqualified[p] ? " · out" : "";
      const moving = view.to_move === p + 1 ? "▸ " : "";
      svg.appendChild(el("text", { x: lx + 0.75, y: ly + 0.18, "font-size": 0.5, fill: view.disqualified[p] ? "#b02a2a" : "#1d1f24" },
        `${moving}player ${p + 1}: ${view.stones[p]} stones, ${view.overrides[p]} overrides, ${view.bombs[p]} bombs${out}`));
    }
    svg.appendChild(el("text", { x: width, y: -0.15, "font-size": 0.5, "text-anchor": "end", fill: "#6a6f7a" }, `phase: ${view.phase}`));
    return svg;
  },
};
