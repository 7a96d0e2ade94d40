// Rectangles in the replay viewer: the n x n board of paint (a player's paint in a light tint
// of its colour, a filled cell solid in the colour of the player whose claim filled it, cells
// filled by the last round's claims outlined), every robot, and the robots' steps or placement
// of the action shown. Data: rectangles/view.rs.
"use strict";
Agon.games.rectangles = {
  draw(view, overlay) {
    const el = Agon.el;
    const n = view.n;
    const legend = 1.6;
    const svg = el("svg", { viewBox: `-0.3 -0.3 ${n + 0.6} ${n + 0.6 + legend}`, role: "img" });
    const previous = overlay.previous && overlay.previous.board;
    svg.appendChild(el("rect", { x: 0, y: 0, width: n, height: n, fill: "#fbfbfb", stroke: "#b8bcc4", "stroke-width": 0.05 }));
    view.board.forEach((row, r) => {
      [...row].forEach((paint, c) => {
        if (paint === ".") return;
        const filled = paint === "#";
        // A filled cell's claimer: its letter in `claimed` (dark grey if the data has none).
        const owner = filled ? (view.claimed && view.claimed[r] ? view.claimed[r][c] : ".") : paint;
        const p = owner.charCodeAt(0) - 97;
        const colour = p >= 0 && p < 26 ? overlay.colours[p % 8] : "#3b3f47";
        svg.appendChild(el("rect", {
          x: c, y: r, width: 1, height: 1, fill: colour, opacity: filled ? 0.9 : 0.35,
          class: filled ? "claimed" : "paint", "data-player": p >= 0 && p < 26 ? p : null,
        }));
        if (filled && previous && previous[r] && previous[r][c] !== "#") {
          svg.appendChild(el("rect", { x: c + 0.08, y: r + 0.08, width: 0.84, height: 0.84, fill: "none", stroke: "#f3d34a", "stroke-width": 0.12 }));
        }
      });
    });
    const action = overlay.move && overlay.move.draw;
    view.robots.forEach((robots, p) => {
      robots.forEach(([r, c], i) => {
        const robot = el("circle", { cx: c + 0.5, cy: r + 0.5, r: 0.36, fill: overlay.colours[p % 8], stroke: view.out[p] ? "#b02a2a" : "#fff", "stroke-width": 0.1 });
        robot.appendChild(el("title", {}, `player ${p}, robot ${i}: ${r},${c}`));
        svg.appendChild(robot);
      });
    });
    const show = (a, colour, dashed) => {
      const g = el("g", { class: dashed ? "refused" : "move" });
      svg.appendChild(g);
      if (a.place) for (const [r, c] of a.place) {
        g.appendChild(el("rect", { x: c + 0.1, y: r + 0.1, width: 0.8, height: 0.8, fill: "none", stroke: colour, "stroke-width": 0.1, "stroke-dasharray": dashed ? "0.15 0.1" : null }));
      }
      if (a.steps) for (const [[r1, c1], [r2, c2]] of a.steps) {
        if (r1 !== r2 || c1 !== c2) g.appendChild(Agon.arrow(c1 + 0.5, r1 + 0.5, c2 + 0.5, r2 + 0.5, colour, 0.12, dashed));
      }
    };
    if (action) show(action, "#1d1f24", false);
    for (const f of overlay.refused) show(f.draw, "#d02f2f", true);
    for (let p = 0; p < view.players; p++) {
      const x = p * (n / Math.max(view.players, 2));
      svg.appendChild(el("rect", { x, y: n + 0.5, width: 0.7, height: 0.7, fill: overlay.colours[p % 8] }));
      svg.appendChild(el("text", { x: x + 0.9, y: n + 1.1, "font-size": 0.7, fill: view.out[p] ? "#b02a2a" : "#1d1f24" },
        `${view.scores[p]}${view.out[p] ? " out" : ""}`));
    }
    return svg;
  },
};
