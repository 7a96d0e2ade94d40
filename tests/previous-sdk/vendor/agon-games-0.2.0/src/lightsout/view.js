// Lights Out in the replay viewer: the board (black and white lights) and, once answered, the
// clicks marked on it beside the board they leave (computed by the rules), or the reason the
// bot gave for an unsolvable board. Data: lightsout/view.rs.
"use strict";
Agon.games.lightsout = {
  draw(view, overlay) {
    const el = Agon.el;
    const { rows, cols } = view;
    const answer = overlay.move && overlay.move.draw;
    const after = answer && answer.after;
    const gap = 1;
    const width = after ? 2 * cols + gap : cols;
    const svg = el("svg", { viewBox: `-0.3 -1.2 ${width + 0.6} ${rows + 1.5}`, role: "img" });
    const grid = (lights, dx, label) => {
      svg.appendChild(el("text", { x: dx + cols / 2, y: -0.4, "font-size": Math.max(0.3, width / 25), "text-anchor": "middle", fill: "#6a6f7a" }, label));
      lights.forEach((line, r) => {
        [...line].forEach((light, c) => {
          svg.appendChild(el("rect", {
            x: dx + c + 0.04, y: r + 0.04, width: 0.92, height: 0.92, rx: 0.12,
            fill: light === "#" ? "#23252b" : "#f6f3e4", stroke: "#9aa0aa", "stroke-width": 0.03,
          }));
        });
      });
    };
    grid(view.lights, 0, "the board");
    if (answer && answer.clicks) {
      for (const [r, c] of answer.clicks) {
        svg.appendChild(el("circle", { cx: c + 0.5, cy: r + 0.5, r: 0.22, fill: "#f3a712", stroke: "#fff", "stroke-width": 0.05 }));
      }
      grid(after, cols + gap, `after ${answer.clicks.length} clicks`);
    }
    if (answer && answer.unsolvable !== undefined) {
      svg.appendChild(el("text", { x: 0, y: rows + 0.2, "font-size": 0.45, fill: "#1d1f24" }, `unsolvable: ${answer.unsolvable}`));
    }
    return svg;
  },
};
