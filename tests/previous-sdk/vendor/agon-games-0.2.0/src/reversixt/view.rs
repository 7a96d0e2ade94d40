//! What the replay viewer draws of a ReversiXT position; `view.js` draws it.

use super::{Map, Move, Phase, Position};
use crate::contract::ViewData;
use serde_json::json;

/// The board as one token per square, row by row (the map file's tokens: `0` empty, `-` hole,
/// `c` `i` `b` `x` special squares, `1`..`8` stones; rules file, "Map format"), the
/// transitions, and each player's stock and standing.
pub(super) fn position(position: &Position) -> ViewData {
    let map: &Map = &position.map;
    let rows: Vec<String> = map
        .squares
        .chunks(map.width.max(1))
        .map(|row| row.iter().map(|s| s.token()).collect())
        .collect();
    let transitions: Vec<ViewData> = map
        .transitions
        .iter()
        .map(|t| {
            let (fx, fy) = t.from_dir.offset();
            let (tx, ty) = t.to_dir.offset();
            json!([t.from.0, t.from.1, fx, fy, t.to.0, t.to.1, tx, ty])
        })
        .collect();
    let players = map.players as usize;
    json!({
        "width": map.width,
        "height": map.height,
        "board": rows,
        "transitions": transitions,
        "stones": map.stones(),
        "overrides": position.overrides,
        "bombs": position.bombs,
        "bomb_strength": map.bomb_strength,
        "disqualified": position.disqualified,
        "players": players,
        "phase": match position.phase {
            Phase::Building => "building",
            Phase::Bombing => "bombing",
            Phase::Over => "over",
        },
        "to_move": (position.phase != Phase::Over).then_some(position.to_move),
    })
}

/// A move: its square, its special value and whether it throws a bomb.
pub(super) fn action(position: &Position, m: Move) -> ViewData {
    json!({
        "x": m.x,
        "y": m.y,
        "special": m.special,
        "bomb": position.phase == Phase::Bombing,
    })
}
