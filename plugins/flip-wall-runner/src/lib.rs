//! `wall-runner`: the Flip seed team's player (COMS W4444 F19 seed report, sections 3 to 9),
//! with the part the team could not finish completed.
//!
//! - n < 12 (section 8): no wall of our own; race with the most advanced coins first, straight
//!   when possible, else, in order: around our own coins, home coins forward out of the way,
//!   around opponent coins when two moves are free or our centre-of-mass lead exceeds 1; a move
//!   is never wasted. Our addition: each racer heads (assigned once by minimum-weight matching)
//!   for a spot on the opponent's front line x = -+21, which already counts as home, so the
//!   arrivals shut in the opponent's coins that have not left yet.
//! - n >= 12 (sections 4 to 7): runners first (2 for n < 25, else 1) while no opponent coin has
//!   crossed the middle (closer than 28 to scoring); then an 11-coin wall just behind our goal
//!   line, builders assigned by minimum-weight bipartite matching (Kuhn-Munkres), built nearest
//!   the most advanced opponent first, with exact two-flip placement within 4; a spot an
//!   opponent coin holds counts as walled and its builder stages instead. Once the wall stands,
//!   further runners are released over it, each replaced in the same turn by a coin staged
//!   behind it (the part the seed team could not finish).
//! - Parameter `runners`: how many runners go before the wall (default: the seed's 2 for
//!   n < 25, else 1; `runners=0` builds the wall first).
//! - Runners (section 6): straight to the middle, then toward the least crowded free landing
//!   point just past the goal line (our own arrivals count, so later runners do not queue
//!   behind them), scoring at once when a flip can; 1-degree fan-out around whatever blocks.
//!   The first runners are given up after 100 moves and the next one sent; any runner that has
//!   not come 0.5 closer in 24 moves is stuck (in the opponent's pile in front of our wall) and
//!   gives up, so its moves go to the next release.

pub mod geometry;
mod strategy;

use agon_sdk::export::{ParamReader, WireBot};
use agon_sdk::protocol::flip::{Flip, FlipMove, Observation, Setup};
use agon_sdk::protocol::{Reply, Start};

#[derive(Default)]
pub struct WallRunner {
    state: strategy::State,
}

impl WireBot for WallRunner {
    type Game = Flip;
    const PARAMS: &'static [&'static str] = &["runners"];

    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        let mut reader = ParamReader::new(&start.bot_params);
        let runners: usize = reader
            .get(
                "runners",
                "a number of runners sent before the wall",
                usize::MAX,
            )
            .map_err(|e| e.to_string())?;
        let runners = (runners != usize::MAX).then_some(runners);
        reader.finish().map_err(|e| e.to_string())?;
        self.state = strategy::State::new(start.game.n);
        if let Some(r) = runners {
            self.state = std::mem::take(&mut self.state).with_initial_runners(r);
        }
        Ok(())
    }

    fn act(&mut self, observation: &Observation) -> Reply<Vec<FlipMove>> {
        Reply::new(self.state.half_turn(observation))
    }
}

agon_sdk::export_plugin! {
    team: "COMS W4444 F19 seed (wall and runners)",
    wire_bots: { "wall-runner" => WallRunner: "runners first, an 11-coin wall, runners released over it" },
}
