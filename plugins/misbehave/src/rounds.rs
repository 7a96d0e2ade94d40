//! Rectangles bots for the engine's rounds of simultaneous moves: `rendezvous` proves that the
//! seats of a round are asked at once (on hosts that share a process), `sleep` that one seat's
//! lateness costs only that seat, `illegal` an action the rules refuse
//! (after a legal placement).

use crate::timing::thread_cpu;
use agon_sdk::export::WireBot;
use agon_sdk::protocol::rectangles::{Action, Cell, Direction, Observation, Rectangles, Setup};
use agon_sdk::protocol::{Reply, Start};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// Every robot on the first cell, then Stay: a legal answer for any round.
fn stay(setup: &Setup, observation: &Observation) -> Action {
    if observation.round == 0 {
        Action::Place(vec![Cell { row: 0, col: 0 }; setup.robots as usize])
    } else {
        Action::Move(vec![Direction::Stay; setup.robots as usize])
    }
}

/// Per round, how many `rendezvous` seats have arrived (shared by every seat in this process).
static ARRIVED: Mutex<(u32, u32)> = Mutex::new((0, 0));
static ALL_IN: Condvar = Condvar::new();

/// Waits, up to two seconds, until every player of the round has been asked; answers Stay when
/// all came and an illegal action when they did not (which a test sees as a fault). Asked one
/// after another, the first seat waits in vain.
#[derive(Default)]
pub struct Rendezvous {
    setup: Option<Setup>,
}

impl WireBot for Rendezvous {
    type Game = Rectangles;
    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        self.setup = Some(start.game.clone());
        Ok(())
    }
    fn act(&mut self, observation: &Observation) -> Reply<Action> {
        let setup = self.setup.clone().expect("started");
        let mut arrived = ARRIVED.lock().unwrap_or_else(|e| e.into_inner());
        if arrived.0 != observation.round {
            *arrived = (observation.round, 0);
        }
        arrived.1 += 1;
        ALL_IN.notify_all();
        let (arrived, timeout) = ALL_IN
            .wait_timeout_while(arrived, Duration::from_secs(2), |a| {
                a.0 == observation.round && a.1 < setup.players as u32
            })
            .unwrap_or_else(|e| e.into_inner());
        drop(arrived);
        if timeout.timed_out() {
            return Reply::new(Action::Move(Vec::new()));
        }
        Reply::new(stay(&setup, observation))
    }
}

/// Sleeps in the rounds its `rounds=A,B,..` parameter lists (default: round 2) for `ms`
/// milliseconds (default: twice its move budget, at least 200), and stays in every round. With
/// `cpu=true` it spends those milliseconds of its own CPU time spinning instead.
#[derive(Default)]
pub struct SleepRounds {
    setup: Option<Setup>,
    sleep_ms: u64,
    rounds: Vec<u32>,
    spin: bool,
}

impl WireBot for SleepRounds {
    type Game = Rectangles;
    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        self.setup = Some(start.game.clone());
        self.sleep_ms = match start.bot_params.get("ms") {
            Some(ms) => ms
                .parse()
                .map_err(|_| format!("ms: `{ms}` is not a number"))?,
            None => (start.move_budget_ms * 2).max(200),
        };
        self.rounds = start
            .bot_params
            .get("rounds")
            .map_or("2", String::as_str)
            .split(',')
            .map(|r| {
                r.trim()
                    .parse()
                    .map_err(|_| format!("rounds: `{r}` is not a number"))
            })
            .collect::<Result<_, _>>()?;
        self.spin = start.bot_params.get("cpu").is_some_and(|v| v == "true");
        Ok(())
    }
    fn act(&mut self, observation: &Observation) -> Reply<Action> {
        if self.rounds.contains(&observation.round) {
            let ms = Duration::from_millis(self.sleep_ms);
            if self.spin {
                let start = thread_cpu();
                while thread_cpu().saturating_sub(start) < ms {
                    std::hint::black_box(0u64);
                }
            } else {
                std::thread::sleep(ms);
            }
        }
        Reply::new(stay(self.setup.as_ref().expect("started"), observation))
    }
}

/// Places its robots, then moves one robot too few every round.
#[derive(Default)]
pub struct IllegalRectangles {
    setup: Option<Setup>,
}

impl WireBot for IllegalRectangles {
    type Game = Rectangles;
    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        self.setup = Some(start.game.clone());
        Ok(())
    }
    fn act(&mut self, observation: &Observation) -> Reply<Action> {
        let setup = self.setup.as_ref().expect("started");
        Reply::new(match stay(setup, observation) {
            Action::Move(mut moves) => {
                moves.pop();
                Action::Move(moves)
            }
            place => place,
        })
    }
}
