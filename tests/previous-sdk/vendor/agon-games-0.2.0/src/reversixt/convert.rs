//! Conversions between the ReversiXT protocol and the rules in `agon_games`: the engine builds
//! observations with [`observation`], bots rebuild the position with [`position`], so both read
//! the same state the same way.

use super::protocol as wire;
use super::{Map, MapError, Move, Phase, Position};

impl From<wire::Move> for Move {
    fn from(m: wire::Move) -> Move {
        Move {
            x: m.x as usize,
            y: m.y as usize,
            special: m.special,
        }
    }
}

impl From<Move> for wire::Move {
    /// Coordinates are at most 1000 (rules file, "Map file"), so they fit the course's u16.
    fn from(m: Move) -> wire::Move {
        wire::Move {
            x: m.x as u16,
            y: m.y as u16,
            special: m.special,
        }
    }
}

/// What `you` sees of `position` before its move. `None` once the game is over.
pub fn observation(
    position: &Position,
    you: u8,
    ply: u32,
    time_account_ms: u64,
    depth: u32,
) -> Option<wire::Observation> {
    let phase = match position.phase {
        Phase::Building => wire::Phase::Building,
        Phase::Bombing => wire::Phase::Bombing,
        Phase::Over => return None,
    };
    Some(wire::Observation {
        you,
        phase,
        board: position.map.to_text(),
        overrides: position.overrides.clone(),
        bombs: position.bombs.clone(),
        disqualified: position.disqualified.clone(),
        ply,
        time_account_ms,
        depth,
    })
}

/// The position an observation shows, `you` to move; an error when the board text is not a map
/// or the per-player lists do not match its number of players.
pub fn position(observation: &wire::Observation) -> Result<Position, MapError> {
    let map = Map::parse_lenient(&observation.board)?;
    let n = map.players as usize;
    let fits = |len: usize, what: &str| {
        if len == n {
            Ok(())
        } else {
            Err(MapError {
                line: 1,
                column: 1,
                problem: format!("{len} {what} entries for {n} players"),
            })
        }
    };
    fits(observation.overrides.len(), "override")?;
    fits(observation.bombs.len(), "bomb")?;
    fits(observation.disqualified.len(), "disqualified")?;
    if observation.you == 0 || observation.you as usize > n {
        return Err(MapError {
            line: 1,
            column: 1,
            problem: format!("player {} on a {n}-player map", observation.you),
        });
    }
    let phase = match observation.phase {
        wire::Phase::Building => Phase::Building,
        wire::Phase::Bombing => Phase::Bombing,
    };
    Ok(Position::resume(
        map,
        observation.overrides.clone(),
        observation.bombs.clone(),
        observation.disqualified.clone(),
        phase,
        observation.you,
    ))
}
