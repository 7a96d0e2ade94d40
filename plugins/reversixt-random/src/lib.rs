//! `random`: a uniformly drawn legal move (every special value of a choice or bonus square
//! counts as its own move), from a generator seeded by the match, so games replay exactly.

use agon_plugin_api::games::reversixt::convert::position;
use agon_plugin_api::protocol::reversixt::{Move, Observation, ReversiXt, Setup};
use agon_plugin_api::protocol::{Reply, Start};
use agon_plugin_api::export::WireBot;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Default)]
pub struct RandomReversiXt {
    rng: Option<ChaCha8Rng>,
}

impl WireBot for RandomReversiXt {
    type Game = ReversiXt;

    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        self.rng = Some(ChaCha8Rng::seed_from_u64(start.seed));
        Ok(())
    }

    fn act(&mut self, observation: &Observation) -> Reply<Move> {
        let rng = self.rng.get_or_insert_with(|| ChaCha8Rng::seed_from_u64(0));
        let position = position(observation).expect("the engine sends valid boards");
        let moves = position.legal_moves();
        // A player is only asked when it has a move (rules file, "Phase 1": others are skipped).
        Reply::new(moves[rng.random_range(0..moves.len())].into())
    }
}

agon_plugin_api::export_plugin! {
    team: "Agon staff",
    wire_bots: { "random" => RandomReversiXt: "a uniformly random legal move" },
}
