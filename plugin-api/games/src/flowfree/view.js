// Flow Free in the replay viewer: the instance's sources and, once answered, the grid's paths
// (each letter's cells joined to their same-letter neighbours), or the reason the solver gave
// up. A refused grid is drawn faded, its reason in the fault list. Data: flowfree/view.rs.
"use strict";
Agon.games.flowfree = {
  palette: ["#e23b3b", "#2f6fd0", "#2e9e4f", "#e0c21b", "#e07b1b", "#1bb0b0", "#b03bd0", "#8a5a2b",
            "#e060a0", "#6b6b6b", "#7fbf3f", "#3f3fbf", "#bf3f7f", "#3fbf9f", "#9f9f3f", "#5f2f8f"],
  draw(view, overlay) {
    const el = Agon.el;
    // Each of the instance's letters its own colour, in alphabetical order (no two alike up to
    // 16 letters, then the palette repeats).
    const letters = [...new Set(view.sources.join("").replace(/_/g, ""))].sort();
    const colour = (letter) => {
      const i = letters.indexOf(letter);
      return i < 0 ? "#888" : this.palette[i % this.palette.length];
    };
    const { rows, cols } = view;
    const svg = el("svg", { viewBox: `-0.2 -0.2 ${cols + 0.4} ${rows + 1.2}`, role: "img" });
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        svg.appendChild(el("rect", { x: c, y: r, width: 1, height: 1, fill: "#15171c", stroke: "#3a3d45", "stroke-width": 0.04 }));
      }
    }
    const paths = (grid, opacity, into) => {
      grid.forEach((line, r) => {
        [...line].forEach((letter, c) => {
          if (!/[A-Za-z]/.test(letter)) return;
          const tint = colour(letter);
          into.appendChild(el("rect", { x: c + 0.06, y: r + 0.06, width: 0.88, height: 0.88, fill: tint, opacity: 0.22 * opacity }));
          for (const [dr, dc] of [[0, 1], [1, 0]]) {
            const other = grid[r + dr] && grid[r + dr][c + dc];
            if (other === letter) {
              into.appendChild(el("line", { x1: c + 0.5, y1: r + 0.5, x2: c + dc + 0.5, y2: r + dr + 0.5, stroke: tint, "stroke-width": 0.32, "stroke-linecap": "round", opacity }));
            }
          }
        });
      });
    };
    if (view.solution) paths(view.solution, 1, svg);
    for (const f of overlay.refused) {
      if (!f.draw.grid) continue;
      const refused = el("g", { class: "refused" });
      refused.appendChild(el("title", {}, `refused: ${f.detail}`));
      paths(f.draw.grid, 0.45, refused);
      svg.appendChild(refused);
    }
    view.sources.forEach((line, r) => {
      [...line].forEach((letter, c) => {
        if (letter === "_") return;
        const source = el("circle", { cx: c + 0.5, cy: r + 0.5, r: 0.36, fill: colour(letter) });
        source.appendChild(el("title", {}, `source ${letter}`));
        svg.appendChild(source);
      });
    });
    const answer = overlay.move && overlay.move.draw;
    const note = answer && answer.gave_up !== undefined ? `gave up: ${answer.gave_up}` : view.solution ? "solved" : "";
    svg.appendChild(el("text", { x: 0, y: rows + 0.75, "font-size": 0.5, fill: "#1d1f24" }, note));
    return svg;
  },
};
