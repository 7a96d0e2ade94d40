//! What the replay viewer draws of a Flip table; `view.js` draws it.

use super::{Flip, Player, Point};
use crate::contract::ViewData;
use serde_json::json;

/// Coordinates to a thousandth: what `render` prints, and far below a pixel.
fn rounded(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

fn point(p: Point) -> ViewData {
    json!([rounded(p.x), rounded(p.y)])
}

/// Every coin of both players (seat 0 is player 1), the scores and whose turn it is.
pub(super) fn table(game: &Flip) -> ViewData {
    let coins: Vec<Vec<ViewData>> = [Player::One, Player::Two]
        .iter()
        .map(|&p| game.coins(p).iter().map(|&c| point(c)).collect())
        .collect();
    json!({
        "coins": coins,
        "scores": game.scores(),
        "turn": game.turn(),
    })
}

/// A recorded half-turn as paths: each flip from where its coin was to where it went, with
/// the ones the rules skipped (`!`) marked. `moves` are the parsed notation.
pub(super) fn half_turn(game: &Flip, player: Player, moves: &[(bool, u32, Point)]) -> ViewData {
    let mut at: Vec<Point> = game.coins(player).to_vec();
    let paths: Vec<ViewData> = moves
        .iter()
        .filter_map(|&(skipped, id, to)| {
            let from = *at.get(id as usize)?;
            if !skipped {
                at[id as usize] = to;
            }
            Some(json!({ "coin": id, "from": point(from), "to": point(to), "skipped": skipped }))
        })
        .collect();
    json!({ "player": player.index(), "paths": paths })
}
