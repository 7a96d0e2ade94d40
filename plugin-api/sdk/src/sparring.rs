//! Every game's sparring bot (its `RandomBot`, written in the game's folder against
//! [`agon_games::contract::Sparring`]) is a [`Bot`], drawing from the bot's seeded generator.

use crate::game::{MoveOf, StateOf};
use crate::turn::Turn;
use crate::Bot;
use agon_games::contract::{Draw, Sparring};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

impl<S: Sparring> Bot for S {
    type Game = S::Game;

    fn play(&mut self, state: &StateOf<S::Game>, turn: &mut Turn<'_, S::Game>) -> MoveOf<S::Game> {
        let mut draw = SeededDraw(turn.rng);
        S::play(state, &turn.start.game, turn.observation, &mut draw)
    }
}

/// The draws as the `rand` calls of the same types, so a sparring bot's stream of numbers is
/// what it was when each game's bot called `rand` itself.
struct SeededDraw<'a>(&'a mut ChaCha8Rng);

impl Draw for SeededDraw<'_> {
    fn below(&mut self, n: usize) -> usize {
        self.0.random_range(0..n)
    }

    fn below_u32(&mut self, n: u32) -> u32 {
        self.0.random_range(0..n)
    }

    fn below_u16(&mut self, n: u16) -> u16 {
        self.0.random_range(0..n)
    }

    fn between(&mut self, low: f64, high: f64) -> f64 {
        self.0.random_range(low..high)
    }
}
