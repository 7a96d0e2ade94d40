// Flip in the replay viewer: the 120 x 40 table in its real geometry, the thirds' goal lines,
// every coin as a disc of diameter 2, and the last half-turn's flips as paths (a flip the
// rules skipped is dashed). Data: flip/view.rs. Player 1 (seat 0) attacks toward -x.
"use strict";
Agon.games.flip = {
  // The board and its texts number the players from 1: seat 0 is player 1.
  seatLook(seat, view, colours) {
    return { colour: colours[seat % colours.length], name: `player ${seat + 1}` };
  },
  draw(view, overlay) {
    const el = Agon.el;
    const [colourOne, colourTwo] = overlay.colours;
    // y grows upward on the table and downward on screen.
    const svg = el("svg", { viewBox: "-62 -23 124 46", role: "img" });
    svg.appendChild(el("rect", { x: -60, y: -20, width: 120, height: 40, fill: "#f4f1e8", stroke: "#8a8f99", "stroke-width": 0.25 }));
    // The target thirds: player 1's is the left, player 2's the right.
    svg.appendChild(el("rect", { x: -60, y: -20, width: 40, height: 40, fill: colourOne, opacity: 0.07 }));
    svg.appendChild(el("rect", { x: 20, y: -20, width: 40, height: 40, fill: colourTwo, opacity: 0.07 }));
    for (const gx of [-20, 20]) {
      svg.appendChild(el("line", { x1: gx, y1: -20, x2: gx, y2: 20, stroke: "#555", "stroke-width": 0.3, "stroke-dasharray": "1 0.6" }));
    }
    svg.appendChild(el("text", { x: -40, y: -20.8, "font-size": 1.6, "text-anchor": "middle", fill: colourOne }, `player 1's goal · ${view.scores[0]}`));
    svg.appendChild(el("text", { x: 40, y: -20.8, "font-size": 1.6, "text-anchor": "middle", fill: colourTwo }, `player 2's goal · ${view.scores[1]}`));
    view.coins.forEach((coins, player) => {
      coins.forEach(([x, y], id) => {
        if (x === null || y === null) return;
        const coin = el("circle", { cx: x, cy: -y, r: 1, fill: overlay.colours[player], stroke: "#222", "stroke-width": 0.12, opacity: 0.9 });
        coin.appendChild(el("title", {}, `player ${player + 1}, coin ${id}: (${x}, ${y})`));
        svg.appendChild(coin);
      });
    });
    const half = overlay.move && overlay.move.draw;
    if (half) {
      for (const p of half.paths) {
        if (p.to[0] === null || p.to[1] === null) continue;
        const arrow = Agon.arrow(p.from[0], -p.from[1], p.to[0], -p.to[1], p.skipped ? "#d02f2f" : "#1d1f24", 0.3, p.skipped);
        arrow.appendChild(el("title", {}, `coin ${p.coin}${p.skipped ? " (skipped by the rules)" : ""}`));
        svg.appendChild(arrow);
      }
    }
    return svg;
  },
};
