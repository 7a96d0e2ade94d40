//! Bots that misbehave on purpose, one bad thing each, so that every fault path of the engine
//! is exercised by a real plugin: `panic`, `panic-start`, `loop`, `sleep`, `malformed`,
//! `illegal`. Each plays Breakthrough.

use agon_plugin_api::protocol::breakthrough::{Breakthrough, Move, Observation, Setup, Square};
use agon_plugin_api::protocol::{Reply, Start};
use agon_plugin_api::sdk::{Bot, RawBot};
use std::time::Duration;

/// A move no rule allows: from the corner to the middle of the board.
fn illegal_move() -> Move {
    Move {
        from: Square { row: 0, col: 0 },
        to: Square { row: 4, col: 4 },
    }
}

#[derive(Default)]
pub struct Panic;

impl Bot for Panic {
    type Game = Breakthrough;
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        panic!("misbehave: deliberate panic in act");
    }
}

#[derive(Default)]
pub struct PanicStart;

impl Bot for PanicStart {
    type Game = Breakthrough;
    fn start(&mut self, _: &Start<Setup>) -> Result<(), String> {
        panic!("misbehave: deliberate panic in start");
    }
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        Reply::new(illegal_move())
    }
}

#[derive(Default)]
pub struct Loop;

impl Bot for Loop {
    type Game = Breakthrough;
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        let mut spins: u64 = 0;
        loop {
            spins = std::hint::black_box(spins.wrapping_add(1));
        }
    }
}

/// Sleeps well past its move budget (10 s when it has none), then answers.
#[derive(Default)]
pub struct Sleep {
    budget_ms: u64,
}

impl Bot for Sleep {
    type Game = Breakthrough;
    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        self.budget_ms = start.move_budget_ms;
        Ok(())
    }
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        let ms = if self.budget_ms == 0 {
            10_000
        } else {
            (self.budget_ms * 2).max(self.budget_ms + 1000)
        };
        std::thread::sleep(Duration::from_millis(ms));
        Reply::new(illegal_move())
    }
}

#[derive(Default)]
pub struct Illegal;

impl Bot for Illegal {
    type Game = Breakthrough;
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        Reply::new(illegal_move())
    }
}

/// Answers bytes that are no Breakthrough reply.
#[derive(Default)]
pub struct Malformed;

impl RawBot for Malformed {
    type Game = Breakthrough;
    fn act(&mut self, _: &[u8]) -> Vec<u8> {
        vec![0xff; 7]
    }
}

agon_plugin_api::export_plugin! {
    team: "Agon staff",
    bots: {
        "panic" => Panic: "panics when asked for a move",
        "panic-start" => PanicStart: "panics in start",
        "loop" => Loop: "spins forever when asked for a move",
        "sleep" => Sleep: "sleeps past its move budget",
        "illegal" => Illegal: "answers a move no rule allows",
    },
    raw_bots: {
        "malformed" => Malformed: "answers bytes that do not decode",
    },
}
