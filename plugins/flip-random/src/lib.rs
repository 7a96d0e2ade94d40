//! `random`: for each allowed move, a random coin flipped at an angle uniform in [-pi/2, pi/2)
//! around the direction of attack, checked for validity before answering (on a copy of the
//! table, so the second move sees the first). Modelled on the course's sample player (COMS W4444
//! F19) but not a port of it: that player draws from its own fixed-seed generator, tries 30
//! times per request in all and checks both moves against the old board, so it answers some
//! invalid moves; this one never does.

use agon_plugin_api::games::flip::convert::table;
use agon_plugin_api::games::flip::{Player, Point};
use agon_plugin_api::protocol::flip::{Flip, FlipMove, Observation, Setup};
use agon_plugin_api::protocol::{Reply, Start};
use agon_plugin_api::export::WireBot;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Random draws per move before giving that move up.
const TRIES: usize = 100;

#[derive(Default)]
pub struct RandomFlip {
    rng: Option<ChaCha8Rng>,
}

impl WireBot for RandomFlip {
    type Game = Flip;

    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        self.rng = Some(ChaCha8Rng::seed_from_u64(start.seed));
        Ok(())
    }

    fn act(&mut self, observation: &Observation) -> Reply<Vec<FlipMove>> {
        let rng = self.rng.get_or_insert_with(|| ChaCha8Rng::seed_from_u64(0));
        let me: Player = observation.you.into();
        let mut board = table(observation);
        let mut moves = Vec::new();
        for _ in 0..observation.moves_allowed {
            for _ in 0..TRIES {
                let id = rng.random_range(0..observation.n);
                let angle =
                    rng.random_range(-std::f64::consts::FRAC_PI_2..std::f64::consts::FRAC_PI_2);
                let from = board.coins(me)[id as usize];
                let to = Point::new(
                    from.x + 2.0 * me.forward() * angle.cos(),
                    from.y + 2.0 * angle.sin(),
                );
                if board.move_coin(me, id, to).is_ok() {
                    moves.push(FlipMove {
                        id,
                        x: to.x,
                        y: to.y,
                    });
                    break;
                }
            }
        }
        Reply::new(moves)
    }
}

agon_plugin_api::export_plugin! {
    team: "COMS W4444 F19 (course sample)",
    wire_bots: { "random" => RandomFlip: "random coin, random forward angle, checked before answering" },
}
