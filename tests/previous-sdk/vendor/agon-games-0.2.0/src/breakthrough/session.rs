//! Breakthrough as an engine game (`docs/games/breakthrough.md`).

use super::convert;
use super::protocol as wire;
use super::{Config, Move, Position, Side};
use crate::contract::{
    Applied, FaultPolicy, GameRules, Outcome, ParamError, ParamFiles, RawParams, Rejection,
    Session, StartInfo, ViewData,
};
use crate::protocol::{self, Reply, Start};

/// Breakthrough's [`GameRules`]: parameters `rows`, `cols`, `first`, `workers_to_base` and
/// `move_limit` ([`Config::from_params`]); two seats, seat 0 White.
pub struct BreakthroughRules;

impl GameRules for BreakthroughRules {
    fn name(&self) -> &'static str {
        "breakthrough"
    }

    fn protocol_version(&self) -> u32 {
        wire::VERSION
    }

    fn seats(&self) -> usize {
        2
    }

    fn parameter_help(&self) -> &'static str {
        "rows=8 cols=8 (8x8, 5x10 or 10x5 boards; at most 64 squares), first=white|black, \
         workers_to_base=1 (the extended rule: 3), move_limit=off (plies, then a draw)"
    }

    /// docs/architecture.md, "Fault policy": Breakthrough forfeits the game.
    fn default_fault_policy(&self) -> FaultPolicy {
        FaultPolicy::Forfeit
    }

    fn game_score_meaning(&self) -> &'static str {
        "Breakthrough: the opponent's workers captured"
    }

    fn view_script(&self) -> &'static str {
        include_str!("view.js")
    }

    fn new_session(
        &self,
        params: &RawParams,
        _files: &dyn ParamFiles,
    ) -> Result<Box<dyn Session>, ParamError> {
        let config = Config::from_params(params)?;
        Ok(Box::new(BreakthroughSession {
            position: Position::start(config),
            last_move: None,
        }))
    }
}

struct BreakthroughSession {
    position: Position,
    last_move: Option<Move>,
}

/// How a passed turn (the skip fault policy) is recorded.
const PASS: &str = "pass";

impl BreakthroughSession {
    fn check_turn(&self, seat: usize) -> Result<(), Rejection> {
        if self.position.outcome().is_some() {
            return Err(Rejection::Illegal("the game is over".into()));
        }
        if Side::from_seat(seat) != Some(self.position.to_move()) {
            return Err(Rejection::Illegal(format!(
                "seat {seat} answered, but {} is to move",
                self.position.to_move()
            )));
        }
        Ok(())
    }

    fn play(&mut self, seat: usize, mv: Move, nodes: Option<u64>) -> Result<Applied, Rejection> {
        self.check_turn(seat)?;
        let notation = self.position.notation(mv);
        let captured = self
            .position
            .play(mv)
            .map_err(|e| Rejection::Illegal(e.to_string()))?;
        self.last_move = Some(mv);
        Ok(Applied {
            notation,
            nodes,
            captures: captured as u32,
        })
    }
}

impl Session for BreakthroughSession {
    fn params(&self) -> RawParams {
        self.position.config().to_params()
    }

    fn to_act(&self) -> Option<usize> {
        match self.position.outcome() {
            Some(_) => None,
            None => Some(self.position.to_move().seat()),
        }
    }

    fn start_message(&self, seat: usize, info: &StartInfo) -> Vec<u8> {
        let you = Side::from_seat(seat).unwrap_or(Side::White);
        protocol::encode(&Start {
            seat: seat as u32,
            seats: 2,
            seed: info.seed,
            start_budget_ms: info.start_budget_ms,
            move_budget_ms: info.move_budget_ms,
            bot_params: info.bot_params.clone(),
            game: convert::setup(self.position.config(), you),
        })
    }

    fn observation(&self, _seat: usize) -> Vec<u8> {
        // Breakthrough is a game of perfect information: every seat sees the whole board.
        protocol::encode(&convert::observation(&self.position, self.last_move))
    }

    fn apply_answer(&mut self, seat: usize, answer: &[u8]) -> Result<Applied, Rejection> {
        let reply: Reply<wire::Move> = protocol::decode(answer)
            .map_err(|e| Rejection::Malformed(format!("not a Breakthrough reply: {e}")))?;
        self.play(seat, reply.action, reply.nodes)
    }

    fn apply_notation(&mut self, seat: usize, action: &str) -> Result<Applied, Rejection> {
        let mv: Move = action
            .parse()
            .map_err(|e: super::ParseSquareError| Rejection::Malformed(e.to_string()))?;
        self.play(seat, mv, None)
    }

    fn skip(&mut self, seat: usize) -> Result<Applied, Rejection> {
        self.check_turn(seat)?;
        self.position.pass();
        self.last_move = None;
        Ok(Applied {
            notation: PASS.to_string(),
            nodes: None,
            captures: 0,
        })
    }

    fn play_random_legal(&mut self, seat: usize, draw: u64) -> Result<Applied, Rejection> {
        self.check_turn(seat)?;
        let moves = self.position.legal_moves();
        if moves.is_empty() {
            return Err(Rejection::Illegal("no legal move to play".into()));
        }
        let mv = moves[(draw % moves.len() as u64) as usize];
        self.play(seat, mv, None)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.position.outcome().map(|o| {
            let reason = match o.winner {
                Some(side) => format!("{side} wins: {}", o.reason.describe()),
                None => format!("draw: {}", o.reason.describe()),
            };
            Outcome::by_rules(2, o.winner.map(Side::seat), reason)
        })
    }

    fn render(&self) -> String {
        self.position.render()
    }

    fn view(&self) -> ViewData {
        super::view::position(&self.position)
    }

    fn view_action(&self, _seat: usize, action: &str) -> Option<ViewData> {
        super::view::action(action)
    }

    fn answer_notation(&self, answer: &[u8]) -> Option<String> {
        let reply: Reply<wire::Move> = protocol::decode(answer).ok()?;
        Some(self.position.notation(reply.action))
    }

    fn game_scores(&self) -> Vec<f64> {
        let start = 2 * self.position.config().cols as u32;
        Side::BOTH
            .iter()
            .map(|side| start.saturating_sub(self.position.workers(side.opponent())) as f64)
            .collect()
    }
}
