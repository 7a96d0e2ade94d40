//! [`Bot`]: the trait a team implements, one impl per game a bot plays, in the rules' own types.

use crate::abi::{BotFailure, BotObject, FailureKind};
use crate::export::{guarded, protocol_failure};
use crate::game::{Game, MoveOf, StateOf};
use crate::protocol::{self, Reply, Start};
use crate::turn::Turn;
use abi_stable::std_types::{RResult, RSlice, RVec};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

/// A bot for one game. A fresh value (`Default`) plays each match.
///
/// The SDK decodes what the engine sends, hands [`Bot::play`] the rules' own state, and encodes
/// the move it returns. A panic in either method becomes a recorded fault of this bot (never a
/// crash of the engine): see `docs/writing-a-bot.md`.
pub trait Bot: Default + Send + 'static {
    /// The game, as its marker in this crate's per-game module (e.g.
    /// [`crate::breakthrough::Breakthrough`]).
    type Game: Game;

    /// Called once before the first move with the match's setup. Return an error to decline
    /// (a bad bot parameter, say); the engine records it as a fault of this bot.
    fn start(
        &mut self,
        start: &Start<<Self::Game as crate::protocol::GameProtocol>::Setup>,
    ) -> Result<(), String> {
        let _ = start;
        Ok(())
    }

    /// This bot's move in `state`. `turn` tells the time left, hands out seeded random numbers
    /// and takes the nodes searched.
    fn play(
        &mut self,
        state: &StateOf<Self::Game>,
        turn: &mut Turn<'_, Self::Game>,
    ) -> MoveOf<Self::Game>;
}

/// A [`Bot`] behind the ABI: what it was started with, and its random numbers.
pub(crate) struct Played<B: Bot> {
    bot: B,
    started: Option<(
        Start<<B::Game as crate::protocol::GameProtocol>::Setup>,
        ChaCha8Rng,
    )>,
}

impl<B: Bot> Played<B> {
    pub(crate) fn new() -> Played<B> {
        Played {
            bot: B::default(),
            started: None,
        }
    }
}

impl<B: Bot> BotObject for Played<B> {
    fn start(&mut self, start: RSlice<'_, u8>) -> RResult<(), BotFailure> {
        guarded(|| {
            let start: Start<_> = protocol::decode(&start).map_err(protocol_failure)?;
            let refused = |message: String| BotFailure {
                kind: FailureKind::Refused,
                message: message.into(),
            };
            self.bot.start(&start).map_err(refused)?;
            let rng = ChaCha8Rng::seed_from_u64(start.seed);
            self.started = Some((start, rng));
            Ok(())
        })
    }

    fn act(&mut self, observation: RSlice<'_, u8>) -> RResult<RVec<u8>, BotFailure> {
        let received = Instant::now();
        guarded(|| {
            let observation = protocol::decode(&observation).map_err(protocol_failure)?;
            let Some((start, rng)) = self.started.as_mut() else {
                return Err(BotFailure {
                    kind: FailureKind::Protocol,
                    message: "asked to move before the match started".into(),
                });
            };
            let state = B::Game::state(&start.game, &observation).map_err(|e| BotFailure {
                kind: FailureKind::Protocol,
                message: format!("the observation is not a position of the rules: {e}").into(),
            })?;
            let per_move = (start.move_budget_ms > 0).then_some(start.move_budget_ms);
            let budget = match (per_move, B::Game::call_budget_ms(&observation)) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            let mut turn = Turn {
                start,
                observation: &observation,
                received,
                budget: budget.map(Duration::from_millis),
                rng,
                nodes: None,
            };
            let mv = self.bot.play(&state, &mut turn);
            let reply = Reply {
                action: B::Game::answer(mv),
                nodes: turn.nodes,
            };
            Ok(protocol::encode(&reply).into())
        })
    }
}
