//! What the replay viewer draws of a Rectangles position; `view.js` draws it.

use super::board::paint_char;
use super::claimed_by::ClaimedBy;
use super::protocol::Action;
use super::{Cell, Game};
use crate::contract::ViewData;
use serde_json::json;

fn cell(c: Cell) -> ViewData {
    json!([c.row, c.col])
}

/// The board as `render` writes it (`.` unpainted, `#` filled, `a`.. a player's paint), who
/// filled each filled cell (`claimed`: `a`.. the claimer's letter, `.` elsewhere), every robot,
/// the scores and who is out.
pub(super) fn position(game: &Game, claimed_by: &ClaimedBy) -> ViewData {
    let n = game.config.n;
    let rows: Vec<String> = game
        .board
        .cells()
        .chunks(n.max(1))
        .map(|row| row.iter().map(|&p| paint_char(p)).collect())
        .collect();
    let robots: Vec<Vec<ViewData>> = game
        .robots
        .iter()
        .map(|rs| rs.iter().map(|&c| cell(c)).collect())
        .collect();
    json!({
        "n": n,
        "board": rows,
        "claimed": claimed_by.rows(),
        "robots": robots,
        "scores": game.scores,
        "out": game.out,
        "round": game.rounds,
        "players": game.config.players,
    })
}

/// A placement as its cells; a round's moves as each robot's step (the rules' own step: a
/// robot that would leave the board stays).
pub(super) fn action(game: &Game, seat: usize, action: &Action) -> Option<ViewData> {
    Some(match action {
        Action::Place(cells) => json!({
            "place": cells.iter().map(|&c| cell(c)).collect::<Vec<_>>(),
        }),
        Action::Move(directions) => {
            let robots = game.robots.get(seat)?;
            let steps: Vec<ViewData> = robots
                .iter()
                .zip(directions)
                .map(|(&from, &d)| json!([cell(from), cell(from.stepped(d, game.config.n))]))
                .collect();
            json!({ "steps": steps })
        }
    })
}
