// Breakthrough in the replay viewer: the board with its coordinates, the workers, the last
// move as an arrow, and a refused answer as a dashed red arrow; for the legend, the side each
// seat plays (`sides`, by the letter of its workers). Data: breakthrough/view.rs.
"use strict";
Agon.games.breakthrough = {
  workers: {
    W: { name: "White", fill: "#fbfbf8", stroke: "#55555c" },
    B: { name: "Black", fill: "#26262b", stroke: "#000" },
  },
  seatLook(seat, view) {
    const worker = Agon.games.breakthrough.workers[view.sides && view.sides[seat]];
    return worker && { colour: worker.fill, name: worker.name };
  },
  draw(view, overlay) {
    const { rows, cols, board } = view;
    const el = Agon.el;
    const svg = el("svg", { viewBox: `-0.7 -0.2 ${cols + 0.9} ${rows + 0.9}`, role: "img" });
    // Screen row r shows board row rows-1-r: the board's row 0 is at the bottom.
    const x = (col) => col + 0.5;
    const y = (row) => rows - 1 - row + 0.5;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        svg.appendChild(el("rect", {
          x: c, y: r, width: 1, height: 1,
          fill: (r + c) % 2 === 0 ? "#efe3cc" : "#c9a97e",
        }));
      }
      svg.appendChild(el("text", { x: -0.35, y: r + 0.62, "font-size": 0.35, "text-anchor": "middle", fill: "#6a6f7a" }, rows - r));
    }
    for (let c = 0; c < cols; c++) {
      svg.appendChild(el("text", { x: c + 0.5, y: rows + 0.45, "font-size": 0.35, "text-anchor": "middle", fill: "#6a6f7a" }, String.fromCharCode(97 + c)));
    }
    const move = overlay.move && overlay.move.draw;
    if (move) {
      for (const [row, col] of [move.from, move.to]) {
        svg.appendChild(el("rect", { x: col, y: rows - 1 - row, width: 1, height: 1, fill: "#f3d34a", opacity: 0.55 }));
      }
    }
    board.forEach((line, r) => {
      [...line].forEach((piece, c) => {
        if (piece === ".") return;
        const worker = Agon.games.breakthrough.workers[piece];
        if (!worker) return;
        const g = el("g", { class: "piece" });
        g.appendChild(el("circle", {
          cx: c + 0.5, cy: r + 0.5, r: 0.36,
          fill: worker.fill, stroke: worker.stroke, "stroke-width": 0.04,
        }));
        g.appendChild(el("title", {}, `${worker.name.toLowerCase()} worker`));
        svg.appendChild(g);
      });
    });
    if (move) svg.appendChild(Agon.arrow(x(move.from[1]), y(move.from[0]), x(move.to[1]), y(move.to[0]), "#2f6fd0", 0.09, false));
    for (const f of overlay.refused) {
      const d = f.draw;
      const arrow = Agon.arrow(x(d.from[1]), y(d.from[0]), x(d.to[1]), y(d.to[0]), "#d02f2f", 0.09, true);
      arrow.appendChild(el("title", {}, `refused: ${f.answer}: ${f.detail}`));
      arrow.classList.add("refused");
      svg.appendChild(arrow);
    }
    return svg;
  },
};
