//! `random`: robots start on uniformly drawn cells and each takes a uniformly drawn direction
//! (Stay included) every round, from a generator seeded by the match, so games replay exactly.

use agon_plugin_api::protocol::rectangles::{
    Action, Cell, Direction, Observation, Rectangles, Setup,
};
use agon_plugin_api::protocol::{Reply, Start};
use agon_plugin_api::export::WireBot;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Default)]
pub struct RandomRectangles {
    rng: Option<ChaCha8Rng>,
    n: u16,
    robots: usize,
}

impl WireBot for RandomRectangles {
    type Game = Rectangles;

    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        self.rng = Some(ChaCha8Rng::seed_from_u64(start.seed));
        self.n = start.game.n;
        self.robots = start.game.robots as usize;
        Ok(())
    }

    fn act(&mut self, observation: &Observation) -> Reply<Action> {
        let rng = self.rng.get_or_insert_with(|| ChaCha8Rng::seed_from_u64(0));
        let (n, robots) = (self.n.max(1), self.robots);
        Reply::new(if observation.round == 0 {
            Action::Place(
                (0..robots)
                    .map(|_| Cell {
                        row: rng.random_range(0..n),
                        col: rng.random_range(0..n),
                    })
                    .collect(),
            )
        } else {
            Action::Move(
                (0..robots)
                    .map(|_| Direction::ALL[rng.random_range(0..Direction::ALL.len())])
                    .collect(),
            )
        })
    }
}

agon_plugin_api::export_plugin! {
    team: "Agon staff",
    wire_bots: { "random" => RandomRectangles: "robots start anywhere and wander at random" },
}
