//! From what travels to the rules' own state, so a bot can simulate rounds with the engine's
//! rules instead of writing its own.

use super::board::Board;
use super::game::{Config, Game};
use super::protocol::{Observation, Setup};

/// The game's parameters as the start message gives them.
pub fn config(setup: &Setup) -> Config {
    Config {
        n: setup.n as usize,
        players: setup.players as usize,
        robots: setup.robots as usize,
        idle_rounds: setup.idle_rounds,
        max_rounds: setup.max_rounds,
    }
}

/// The game as `observation` shows it; `None` when the observation does not fit `setup` (a
/// board of the wrong size or with unknown paint, robots off the board or of the wrong count).
pub fn game(setup: &Setup, observation: &Observation) -> Option<Game> {
    let config = config(setup);
    let board = Board::from_cells(config.n, config.players, observation.cells.clone())?;
    let placed = observation.round > 0;
    let robots_fit = observation.robots.len() == config.players
        && observation.robots.iter().all(|r| {
            (!placed || r.len() == config.robots)
                && r.iter()
                    .all(|c| (c.row as usize) < config.n && (c.col as usize) < config.n)
        });
    let sizes_fit =
        observation.scores.len() == config.players && observation.out.len() == config.players;
    if !robots_fit || !sizes_fit {
        return None;
    }
    Some(Game {
        config,
        board,
        robots: observation.robots.clone(),
        scores: observation.scores.clone(),
        placed,
        rounds: observation.round.saturating_sub(1),
        idle: observation.idle,
        last_moves: observation.last_moves.clone(),
        out: observation.out.clone(),
    })
}
