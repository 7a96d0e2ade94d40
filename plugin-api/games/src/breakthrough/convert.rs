//! Conversions between the Breakthrough protocol and the rules in `agon_games`, so a bot can
//! search with the engine's own rules.

use super::protocol as wire;
use super::{Config, Move, Position, Side, Square};

/// The rules configuration a setup describes.
pub fn config(setup: &wire::Setup) -> Config {
    Config {
        rows: setup.rows,
        cols: setup.cols,
        first: setup.first,
        workers_to_base: setup.workers_to_base,
        move_limit: setup.move_limit,
    }
}

/// The setup for `seat` in a game under `config`.
pub fn setup(config: &Config, you: Side) -> wire::Setup {
    wire::Setup {
        rows: config.rows,
        cols: config.cols,
        you,
        first: config.first,
        workers_to_base: config.workers_to_base,
        move_limit: config.move_limit,
    }
}

/// What a bot sees of `position`.
pub fn observation(position: &Position, last_move: Option<Move>) -> wire::Observation {
    let config = position.config();
    let mut board = vec![wire::Cell::Empty; config.squares() as usize];
    for (square, side) in position.pieces() {
        board[square.row as usize * config.cols as usize + square.col as usize] = match side {
            Side::White => wire::Cell::White,
            Side::Black => wire::Cell::Black,
        };
    }
    wire::Observation {
        board,
        to_move: position.to_move(),
        ply: position.ply(),
        last_move,
    }
}

/// The position an observation shows, for searching with the rules.
pub fn position(setup: &wire::Setup, observation: &wire::Observation) -> Result<Position, String> {
    let config = config(setup)
        .validated()
        .map_err(|e| format!("invalid setup: {e}"))?;
    if observation.board.len() != config.squares() as usize {
        return Err(format!(
            "board has {} cells, a {}x{} board needs {}",
            observation.board.len(),
            config.rows,
            config.cols,
            config.squares()
        ));
    }
    let cols = config.cols as usize;
    let pieces = observation
        .board
        .iter()
        .enumerate()
        .filter_map(|(i, cell)| {
            let square = Square::new((i / cols) as u8, (i % cols) as u8);
            match cell {
                wire::Cell::Empty => None,
                wire::Cell::White => Some((square, Side::White)),
                wire::Cell::Black => Some((square, Side::Black)),
            }
        });
    Position::from_pieces(config, pieces, observation.to_move, observation.ply)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol;

    #[test]
    fn observation_round_trips_through_the_wire() {
        let mut p = Position::start(Config::STANDARD);
        let mv = p.legal_moves()[5];
        p.play(mv).unwrap();
        let setup = setup(p.config(), Side::Black);
        let obs = observation(&p, Some(mv));
        let bytes = protocol::encode(&obs);
        let back: wire::Observation = protocol::decode(&bytes).unwrap();
        assert_eq!(position(&setup, &back), Ok(p));
        assert_eq!(back.last_move, Some(mv));
    }

    /// The wire format of version 1, byte for byte: if this fails, the protocol changed and
    /// `protocol::VERSION` must be bumped (and this golden updated).
    #[test]
    fn wire_format_is_stable() {
        let config = Config {
            rows: 4,
            cols: 2,
            ..Config::STANDARD
        };
        let p = Position::start(config);
        let obs = observation(&p, None);
        assert_eq!(protocol::encode(&obs), [8, 1, 1, 1, 1, 2, 2, 2, 2, 0, 0, 0]);
        let reply = protocol::Reply::new(wire::Move {
            from: wire::Square { row: 1, col: 0 },
            to: wire::Square { row: 2, col: 1 },
        })
        .with_nodes(300);
        assert_eq!(protocol::encode(&reply), [1, 0, 2, 1, 1, 251, 44, 1]);
        assert_eq!(wire::VERSION, 1);
    }

    #[test]
    fn decoding_refuses_garbage_and_trailing_bytes() {
        assert!(protocol::decode::<wire::Observation>(&[200, 1]).is_err());
        let mut bytes = protocol::encode(&wire::Side::Black);
        assert_eq!(
            protocol::decode::<wire::Side>(&bytes),
            Ok(wire::Side::Black)
        );
        bytes.push(0);
        let e = protocol::decode::<wire::Side>(&bytes).unwrap_err();
        assert!(e.0.contains("trailing"), "{e}");
        // A length prefix claiming 2^60 elements is refused, not allocated.
        let huge = [253, 0, 0, 0, 0, 0, 0, 0, 16];
        assert!(protocol::decode::<wire::Observation>(&huge).is_err());
    }
}
