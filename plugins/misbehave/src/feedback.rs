//! Bots whose faults and output a student reads in `agon match`'s summary: one that writes to
//! stderr while playing legal moves, and one that reads a file of its own (an "opening book")
//! and panics when the sandbox denies it, as a bot unwrapping an I/O error would.

use agon_sdk::breakthrough::convert;
use agon_sdk::export::WireBot;
use agon_sdk::protocol::breakthrough::{Breakthrough, Move, Observation, Setup};
use agon_sdk::protocol::{Reply, Start};

/// Writes `chatty: move N` to stderr with `eprintln!` on every move, then plays its first legal
/// move.
#[derive(Default)]
pub struct Chatty {
    setup: Option<Setup>,
    moves: u32,
}

impl WireBot for Chatty {
    type Game = Breakthrough;
    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        self.setup = Some(start.game.clone());
        Ok(())
    }
    fn act(&mut self, observation: &Observation) -> Reply<Move> {
        self.moves += 1;
        eprintln!("chatty: move {}", self.moves);
        let setup = self.setup.as_ref().expect("start comes first");
        let position = convert::position(setup, observation).expect("a valid board");
        Reply::new(position.nth_move(0).expect("a move to make"))
    }
}

/// Reads /etc/passwd as its opening book and unwraps the result with `expect`: under the
/// process host the sandbox denies the file, and the bot panics with the I/O error.
#[derive(Default)]
pub struct ReadBook;

impl WireBot for ReadBook {
    type Game = Breakthrough;
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        let book = std::fs::read("/etc/passwd").expect("reading my opening book");
        panic!("escaped: read {} bytes of /etc/passwd", book.len());
    }
}
