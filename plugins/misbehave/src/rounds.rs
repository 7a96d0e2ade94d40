//! Rectangles bots for the engine's rounds of simultaneous moves: `rendezvous` proves that the
//! seats of a round are asked at once (on hosts that share a process), `sleep` that one seat's
//! lateness costs only that seat, `illegal` an action the rules refuse
//! (after a legal placement).

use crate::params::number_list_param;
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

/// A Rectangles bot that answers from the game's setup, which [`Seated`] keeps for it.
pub trait RoundsBot: Default + Send + 'static {
    /// The parameters it takes (`WireBot::PARAMS`; default: none).
    const PARAMS: &'static [&'static str] = &[];
    /// Reads the bot's parameters.
    fn start(&mut self, _start: &Start<Setup>) -> Result<(), String> {
        Ok(())
    }
    /// The answer to one round.
    fn act(&mut self, setup: &Setup, observation: &Observation) -> Reply<Action>;
}

/// The bot of a [`RoundsBot`]: keeps the setup from `start` for every round.
#[derive(Default)]
pub struct Seated<B> {
    setup: Option<Setup>,
    bot: B,
}

impl<B: RoundsBot> WireBot for Seated<B> {
    type Game = Rectangles;
    const PARAMS: &'static [&'static str] = B::PARAMS;
    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        self.setup = Some(start.game.clone());
        self.bot.start(start)
    }
    fn act(&mut self, observation: &Observation) -> Reply<Action> {
        let setup = self.setup.as_ref().expect("started");
        self.bot.act(setup, observation)
    }
}

/// Per round, how many `rendezvous` seats have arrived (shared by every seat in this process).
static ARRIVED: Mutex<(u32, u32)> = Mutex::new((0, 0));
static ALL_IN: Condvar = Condvar::new();

/// Waits, up to two seconds, until every player of the round has been asked; answers Stay when
/// all came and an illegal action when they did not (which a test sees as a fault). Asked one
/// after another, the first seat waits in vain.
#[derive(Default)]
pub struct Rendezvous;

impl RoundsBot for Rendezvous {
    fn act(&mut self, setup: &Setup, observation: &Observation) -> Reply<Action> {
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
        Reply::new(stay(setup, observation))
    }
}

/// Sleeps in the rounds its `rounds=A,B,..` parameter lists (default: round 2) for `ms`
/// milliseconds (default: twice its move budget, at least 200), and stays in every round. With
/// `cpu=true` it spends those milliseconds of its own CPU time spinning instead.
#[derive(Default)]
pub struct SleepRounds {
    sleep_ms: u64,
    rounds: Vec<u32>,
    spin: bool,
}

impl RoundsBot for SleepRounds {
    const PARAMS: &'static [&'static str] = &["ms", "rounds", "cpu"];
    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        self.sleep_ms = match start.bot_params.get("ms") {
            Some(ms) => ms
                .parse()
                .map_err(|_| format!("ms: `{ms}` is not a number"))?,
            None => (start.move_budget_ms * 2).max(200),
        };
        self.rounds = number_list_param(start, "rounds", "2")?;
        self.spin = start.bot_params.get("cpu").is_some_and(|v| v == "true");
        Ok(())
    }
    fn act(&mut self, setup: &Setup, observation: &Observation) -> Reply<Action> {
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
        Reply::new(stay(setup, observation))
    }
}

/// Places its robots, then moves one robot too few every round.
#[derive(Default)]
pub struct IllegalRectangles;

impl RoundsBot for IllegalRectangles {
    fn act(&mut self, setup: &Setup, observation: &Observation) -> Reply<Action> {
        Reply::new(match stay(setup, observation) {
            Action::Move(mut moves) => {
                moves.pop();
                Action::Move(moves)
            }
            place => place,
        })
    }
}
