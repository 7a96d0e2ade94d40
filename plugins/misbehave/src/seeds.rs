//! Bots that attack the seeds: `seed-thief` inverts its own seat seed as the engine once
//! derived it (an unkeyed, invertible mix of the match seed) and says on stderr what it found;
//! `validation-cheat` plays clean only when its seed is the one the ladder's validation game
//! once used, and answers illegal moves in every other game.

use crate::illegal_move;
use crate::timing::first_legal_move;
use agon_sdk::export::WireBot;
use agon_sdk::protocol::breakthrough::{Breakthrough, Move, Observation, Setup};
use agon_sdk::protocol::{Reply, Start};

const GOLDEN_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;
const MUL_1: u64 = 0xbf58_476d_1ce4_e5b9;
const MUL_2: u64 = 0x94d0_49bb_1331_11eb;

/// The seat seed the engine derived before it keyed the derivation.
fn unkeyed_seat_seed(match_seed: u64, seat: u32) -> u64 {
    let mut z = match_seed.wrapping_add(GOLDEN_GAMMA.wrapping_mul(seat as u64 + 1));
    z = (z ^ (z >> 30)).wrapping_mul(MUL_1);
    z = (z ^ (z >> 27)).wrapping_mul(MUL_2);
    z ^ (z >> 31)
}

fn undo_xorshift(y: u64, shift: u32) -> u64 {
    let mut x = y;
    for _ in 0..(64 / shift + 1) {
        x = y ^ (x >> shift);
    }
    x
}

/// The inverse of an odd number modulo 2^64 (Newton's iteration).
fn inverse(a: u64) -> u64 {
    let mut x = a;
    for _ in 0..6 {
        x = x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)));
    }
    x
}

/// The match seed the unkeyed derivation would have started from.
fn inverted_match_seed(seat_seed: u64, seat: u32) -> u64 {
    let mut z = undo_xorshift(seat_seed, 31);
    z = undo_xorshift(z.wrapping_mul(inverse(MUL_2)), 27);
    z = undo_xorshift(z.wrapping_mul(inverse(MUL_1)), 30);
    z.wrapping_sub(GOLDEN_GAMMA.wrapping_mul(seat as u64 + 1))
}

/// Prints `seed-thief: seat S seed X guess G other Y` on stderr at start (G: the match seed the
/// old inversion gives, Y: the other seat's seed it predicts), then plays legal moves.
#[derive(Default)]
pub struct SeedThief {
    setup: Option<Setup>,
}

impl WireBot for SeedThief {
    type Game = Breakthrough;
    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        let guess = inverted_match_seed(start.seed, start.seat);
        let other = unkeyed_seat_seed(guess, 1 - start.seat.min(1));
        eprintln!(
            "seed-thief: seat {} seed {} guess {guess} other {other}",
            start.seat, start.seed
        );
        self.setup = Some(start.game.clone());
        Ok(())
    }
    fn act(&mut self, observation: &Observation) -> Reply<Move> {
        match &self.setup {
            Some(setup) => Reply::new(first_legal_move(setup, observation)),
            None => Reply::new(illegal_move()),
        }
    }
}

/// The match seed of the ladder's validation game before it was drawn at random.
const OLD_VALIDATION_SEED: u64 = 0x5eed;

/// Plays legal moves only in a game that looks like the old validation game.
#[derive(Default)]
pub struct ValidationCheat {
    setup: Option<Setup>,
    validating: bool,
}

impl WireBot for ValidationCheat {
    type Game = Breakthrough;
    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        self.validating = start.seed == unkeyed_seat_seed(OLD_VALIDATION_SEED, start.seat);
        self.setup = Some(start.game.clone());
        Ok(())
    }
    fn act(&mut self, observation: &Observation) -> Reply<Move> {
        match &self.setup {
            Some(setup) if self.validating => Reply::new(first_legal_move(setup, observation)),
            _ => Reply::new(illegal_move()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_inversion_undoes_the_unkeyed_derivation() {
        for seed in [0, 1, 0x5eed, u64::MAX] {
            for seat in 0..2 {
                assert_eq!(
                    inverted_match_seed(unkeyed_seat_seed(seed, seat), seat),
                    seed
                );
            }
        }
    }
}
