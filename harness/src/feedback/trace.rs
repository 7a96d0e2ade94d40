//! `agon match --trace`: as the match runs, each position a seat is sent (the game's own
//! rendering of it; in a round of simultaneous moves, the one position all its seats are sent),
//! then each answer in the game's notation with the time it took, one line per action, and the
//! faults as they happen. Printed on stdout, a line at a time.

use agon_engine::MatchObserver;
use agon_engine::{Fault, Phase};
use agon_engine::{Forced, MoveRecord};
use agon_games::contract::Session;
use agon_play::console::{name, outln};

/// Prints the trace of a match whose seats hold `bots` (their names, in seat order).
pub struct TracePrinter {
    bots: Vec<String>,
    /// The round being asked, in a game of simultaneous moves (faults do not carry it).
    round: Option<u32>,
}

impl TracePrinter {
    pub fn new(bots: Vec<String>) -> TracePrinter {
        TracePrinter { bots, round: None }
    }

    /// `0 (alphabeta)`.
    fn numbered(&self, seat: usize) -> String {
        let bot = self.bots.get(seat).map_or("?".into(), |bot| name(bot));
        format!("{seat} ({bot})")
    }

    /// `seat 0 (alphabeta)`.
    fn seat(&self, seat: usize) -> String {
        format!("seat {}", self.numbered(seat))
    }
}

/// When an action was played: its ply, and its round in a game of simultaneous moves.
fn when(ply: u32, round: Option<u32>) -> String {
    match round {
        Some(round) => format!("round {round}, ply {ply}"),
        None => format!("ply {ply}"),
    }
}

fn ms(micros: u64) -> String {
    format!("{:.3} ms", micros as f64 / 1000.0)
}

impl MatchObserver for TracePrinter {
    fn asking(&mut self, ply: u32, round: Option<u32>, seats: &[usize], session: &dyn Session) {
        self.round = round;
        let asked = match seats {
            [one] => self.seat(*one),
            many => {
                let names: Vec<String> = many.iter().map(|&s| self.numbered(s)).collect();
                format!("seats {}", names.join(", "))
            }
        };
        outln!("trace: {}: position sent to {asked}:", when(ply, round));
        for line in session.render().lines() {
            outln!("    {line}");
        }
    }

    fn moved(&mut self, played: &MoveRecord) {
        let when = when(played.ply, played.round);
        let seat = self.seat(played.seat);
        match played.forced {
            None => {
                let cpu = played
                    .cpu_us
                    .map_or(String::new(), |cpu| format!(", CPU {}", ms(cpu)));
                outln!(
                    "trace: {when}: {seat} plays {} ({}{cpu})",
                    played.action,
                    ms(played.wall_us)
                );
            }
            Some(forced) => {
                let policy = match forced {
                    Forced::Skip => "skip",
                    Forced::RandomLegal => "random-legal",
                };
                outln!(
                    "trace: {when}: {seat} is given {} by the fault policy ({policy})",
                    played.action
                );
            }
        }
    }

    fn faulted(&mut self, fault: &Fault) {
        let when = match fault.phase {
            Phase::Start if fault.ply == 0 => "start".to_string(),
            Phase::Start => format!("start before ply {}", fault.ply),
            Phase::Move => when(fault.ply, self.round),
        };
        outln!(
            "trace: {when}: {} faults: {}: {}",
            self.seat(fault.seat),
            fault.cause,
            name(&fault.detail)
        );
    }

    fn disqualified(&mut self, seat: usize) {
        outln!(
            "trace: {} is disqualified; the game goes on without it",
            self.seat(seat)
        );
    }
}
