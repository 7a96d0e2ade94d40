//! `random`: a uniformly random legal Breakthrough move, drawn from the seed the engine derives
//! from the match seed, so a seeded match replays exactly.

use agon_sdk::breakthrough::convert;
use agon_sdk::export::{ParamReader, WireBot};
use agon_sdk::protocol::breakthrough::{Breakthrough, Move, Observation, Setup};
use agon_sdk::protocol::{Reply, Start};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Default)]
pub struct RandomBot {
    state: Option<(Setup, ChaCha8Rng)>,
}

impl WireBot for RandomBot {
    type Game = Breakthrough;

    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        ParamReader::new(&start.bot_params)
            .finish()
            .map_err(|e| e.to_string())?;
        self.state = Some((start.game.clone(), ChaCha8Rng::seed_from_u64(start.seed)));
        Ok(())
    }

    fn act(&mut self, observation: &Observation) -> Reply<Move> {
        let (setup, rng) = self.state.as_mut().expect("the engine calls start first");
        let position = convert::position(setup, observation).expect("a valid board");
        let count = position.move_count();
        assert!(count > 0, "asked to move without a legal move");
        let pick = position.nth_move(rng.random_range(0..count));
        Reply::new(pick.expect("index below the move count"))
    }
}

agon_sdk::export_plugin! {
    team: "Agon staff",
    wire_bots: { "random" => RandomBot: "uniformly random legal move (seeded)" },
}
