//! [`Bot`]: the trait a team implements, one impl per game a bot plays, in the rules' own types.

use crate::game::{Game, MoveOf, StateOf};
use crate::guard::{guarded, protocol_failure, refused};
use crate::params::refuse_undeclared;
use crate::protocol::{self, Reply, Start};
use crate::turn::Turn;
use abi_stable::std_types::{RResult, RSlice, RVec};
use agon_abi::{BotFailure, BotObject, FailureKind};
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

    /// The bot parameters this bot takes (`FILE:BOT?key=value&...`, read with
    /// [`Turn::param`] or from `Start::bot_params`). The SDK refuses a match whose spec gives
    /// any other before [`Bot::start`] is called, naming these: a misspelt or unknown parameter
    /// is an error, not silently ignored. By default a bot takes none.
    const PARAMS: &'static [&'static str] = &[];

    /// Called once before the first move with the match's setup (its parameters are among
    /// [`Bot::PARAMS`]). Return an error to decline (a bad parameter value, say); the engine
    /// records it as a fault of this bot.
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
            refuse_undeclared(&start.bot_params, B::PARAMS).map_err(refused)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::breakthrough::{Breakthrough, Config, Move, Position, Side};
    use agon_games::breakthrough::convert;
    use rand::Rng;
    use std::collections::BTreeMap;

    /// Records what its turn said, and answers the first legal move.
    #[derive(Default)]
    struct Probe {
        draws: Vec<u64>,
        budget: Option<Duration>,
        left: Option<Duration>,
        depth: Option<String>,
    }

    impl Bot for Probe {
        type Game = Breakthrough;
        const PARAMS: &'static [&'static str] = &["depth"];

        fn play(&mut self, position: &Position, turn: &mut Turn<'_, Breakthrough>) -> Move {
            self.draws.push(turn.rng().random());
            self.budget = turn.budget();
            self.left = turn.time_left();
            self.depth = turn.param("depth").map(str::to_string);
            turn.report_nodes(42);
            if position.ply() > 0 {
                panic!("asked twice");
            }
            position.legal_moves()[0]
        }
    }

    fn start_message(seed: u64, move_budget_ms: u64) -> Vec<u8> {
        start_with(seed, move_budget_ms, &[("depth", "3")])
    }

    fn start_with(seed: u64, move_budget_ms: u64, params: &[(&str, &str)]) -> Vec<u8> {
        protocol::encode(&Start {
            seat: 0,
            seats: 2,
            seed,
            start_budget_ms: 0,
            move_budget_ms,
            bot_params: params
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect::<BTreeMap<_, _>>(),
            game: convert::setup(&Config::STANDARD, Side::White),
        })
    }

    fn observation(position: &Position) -> Vec<u8> {
        protocol::encode(&convert::observation(position, None))
    }

    #[test]
    fn a_bot_gets_the_rules_state_its_turn_and_answers_on_the_wire() {
        let start = Position::start(Config::STANDARD);
        let mut bot = Played::<Probe>::new();
        assert!(bot.start(start_message(9, 250).as_slice().into()).is_ok());
        let answer = bot.act(observation(&start).as_slice().into()).unwrap();
        let reply: Reply<Move> = protocol::decode(&answer).unwrap();
        assert_eq!(reply.action, start.legal_moves()[0]);
        assert_eq!(reply.nodes, Some(42));
        assert_eq!(bot.bot.budget, Some(Duration::from_millis(250)));
        assert!(bot
            .bot
            .left
            .is_some_and(|left| left <= Duration::from_millis(250)));
        assert_eq!(bot.bot.depth.as_deref(), Some("3"));

        // The same seed gives the same draws; another seed others.
        let mut again = Played::<Probe>::new();
        let _ = again.start(start_message(9, 0).as_slice().into());
        let _ = again.act(observation(&start).as_slice().into());
        assert_eq!(again.bot.draws, bot.bot.draws);
        assert_eq!(again.bot.budget, None, "no budget without one");
        let mut other = Played::<Probe>::new();
        let _ = other.start(start_message(10, 0).as_slice().into());
        let _ = other.act(observation(&start).as_slice().into());
        assert_ne!(other.bot.draws, bot.bot.draws);
    }

    #[test]
    fn panics_garbage_and_a_call_before_start_are_failures_not_crashes() {
        let start = Position::start(Config::STANDARD);
        let mut unstarted = Played::<Probe>::new();
        let failure = unstarted
            .act(observation(&start).as_slice().into())
            .unwrap_err();
        assert_eq!(failure.kind, FailureKind::Protocol);

        let mut bot = Played::<Probe>::new();
        let _ = bot.start(start_message(1, 0).as_slice().into());
        let garbage = bot.act([200u8, 1].as_slice().into()).unwrap_err();
        assert_eq!(garbage.kind, FailureKind::Protocol);

        let mut later = start;
        later.play(start.legal_moves()[0]).unwrap();
        let panic = bot.act(observation(&later).as_slice().into()).unwrap_err();
        assert_eq!(panic.kind, FailureKind::Panic);
        assert!(panic.message.contains("asked twice"), "{}", panic.message);
    }

    /// A parameter the bot does not declare is refused before its `start`, naming the ones it
    /// takes; a bot that declares none takes none (the SDK's sparring bot here).
    #[test]
    fn an_undeclared_parameter_is_refused_naming_the_declared_ones() {
        let mut bot = Played::<Probe>::new();
        let refused = bot
            .start(
                start_with(1, 0, &[("depth", "2"), ("dept", "3")])
                    .as_slice()
                    .into(),
            )
            .unwrap_err();
        assert_eq!(refused.kind, FailureKind::Refused);
        assert_eq!(
            refused.message.as_str(),
            "unknown parameter `dept` (known: depth)"
        );

        let mut sparring = Played::<crate::breakthrough::RandomBot>::new();
        let refused = sparring
            .start(start_with(1, 0, &[("depth", "3")]).as_slice().into())
            .unwrap_err();
        assert_eq!(refused.kind, FailureKind::Refused);
        assert!(
            refused.message.contains("takes no parameters"),
            "{}",
            refused.message
        );
        assert!(sparring
            .start(start_with(1, 0, &[]).as_slice().into())
            .is_ok());
    }
}
