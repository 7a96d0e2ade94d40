//! The seed team's "Cavalry" players (the team's report, summed up in
//! `docs/games/rectangles.md`, "The seed's vocabulary"; Columbia COMS W4444, Fall 2003, group 5): `annealing` (the Annealing Cavalry) and `cavalry` (the Royal Cavalry with the
//! Rectmania end game). See [`cavalry`] for the strategy, [`rectmania`] for the end game,
//! [`path`] and [`line`] for the algorithms they share, [`orientation`] for the eight-fold
//! re-orientation.

pub mod cavalry;
pub mod line;
pub mod orientation;
pub mod path;
pub mod rectmania;
pub mod view;

use agon_sdk::export::WireBot;
use agon_sdk::protocol::rectangles::{Action, Direction, Observation, Rectangles, Setup};
use agon_sdk::protocol::{Reply, Start};
use cavalry::{Cavalry, Style};

/// One cavalry bot of either style.
pub struct CavalryBot<const ROYAL: bool> {
    cavalry: Option<Cavalry>,
    robots: usize,
}

impl<const ROYAL: bool> Default for CavalryBot<ROYAL> {
    fn default() -> Self {
        CavalryBot {
            cavalry: None,
            robots: 0,
        }
    }
}

impl<const ROYAL: bool> WireBot for CavalryBot<ROYAL> {
    type Game = Rectangles;
    const PARAMS: &'static [&'static str] = &["ring"];

    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        let style = if ROYAL {
            Style::Royal
        } else {
            Style::Annealing
        };
        let g = &start.game;
        if g.n < 3 || g.robots == 0 {
            return Err(format!(
                "a {} x {} board with {} robots is too small",
                g.n, g.n, g.robots
            ));
        }
        self.robots = g.robots as usize;
        let ring = match start.bot_params.get("ring") {
            Some(text) => text
                .parse()
                .map_err(|_| format!("ring: `{text}` is not a number of robots"))?,
            None => cavalry::DEFAULT_RING_ROBOTS,
        };
        self.cavalry = Some(
            Cavalry::new(style, g.n as usize, self.robots, g.you as usize, start.seed)
                .with_ring(ring),
        );
        Ok(())
    }

    fn act(&mut self, observation: &Observation) -> Reply<Action> {
        let Some(cavalry) = self.cavalry.as_mut() else {
            return Reply::new(Action::Move(vec![Direction::Stay; self.robots]));
        };
        if observation.round == 0 {
            return Reply::new(Action::Place(cavalry.placement()));
        }
        if !cavalry.fits(observation) {
            // Not the game this bot was started for: stand still rather than guess.
            return Reply::new(Action::Move(vec![Direction::Stay; self.robots]));
        }
        Reply::new(Action::Move(cavalry.act(observation)))
    }
}

agon_sdk::export_plugin! {
    team: "Agon staff, after Feng, Mohammed, Nicksay and Vespe (COMS W4444 F03, group 5)",
    wire_bots: {
        "annealing" => CavalryBot<false>: "Annealing Cavalry: blind sweeps closing rectangles, spacing shrinking every scan",
        "cavalry" => CavalryBot<true>: "Royal Cavalry: an opening ring (`ring=ROBOTS`, default 8), adaptive sweeps with damage and danger detection, repairs, anti-chasers, Rectmania end game",
    },
}
