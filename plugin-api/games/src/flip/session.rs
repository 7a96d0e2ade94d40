//! Flip as an engine game (`docs/games/flip.md`). One action is a half-turn: a list of moves,
//! applied in order, invalid ones skipped (and recorded as such).

use super::convert;
use super::protocol as wire;
use super::{Config, Flip, HalfTurn, Player, Point};
use crate::contract::{
    Applied, FaultPolicy, GameRules, Outcome, ParamError, ParamFiles, RawParams, Rejection,
    Session, StartInfo, ViewData,
};
use crate::contract::{GameType, Seats, SolutionView, Starter};
use crate::protocol::GameProtocol;
use crate::protocol::{self, Reply};

/// Flip's metadata (docs/architecture.md, "Layout": one constant per game).
pub const GAME: GameType = GameType {
    name: <wire::Flip as GameProtocol>::GAME,
    title: "Flip",
    protocol_version: wire::VERSION,
    seats: Seats::Fixed(2),
    file_params: &[],
    parameter_help:
        "n=10 (coins per player), turns=200 (the course tournament: 3000), seed=42 (the \
     java.util.Random board seed)",
    // Rules file, "Turns": a call that times out or fails yields no moves that half-turn.
    default_fault_policy: FaultPolicy::Skip,
    // Rules file, "Score and end": the score is recorded after the player's own half-turn
    // and is sticky, so it is the most coins ever counted, not the count at the end.
    game_score_meaning:
        "Flip: the player's recorded score, the most of its coins fully inside its target third \
     after any of its own half-turns",
    view_script: include_str!("view.js"),
    nodes_meaning: "search nodes",
    solution_shown_as: SolutionView::Answer,
    example_params: &[("turns", "40")],
    starter: Starter {
        source: include_str!("starter.rs"),
        match_params: " --param turns=200",
    },
    instances: &[],
    default_instance: None,
};

/// Flip's [`GameRules`]: parameters `n`, `turns` and `seed` ([`Config::from_params`]); two
/// seats, seat 0 player 1.
pub struct FlipRules;

/// This game's rules under the name the registry reaches every game's by.
pub use FlipRules as Rules;

impl GameRules for FlipRules {
    fn game_type(&self) -> &'static GameType {
        &GAME
    }

    fn new_session(
        &self,
        params: &RawParams,
        _files: &dyn ParamFiles,
    ) -> Result<Box<dyn Session>, ParamError> {
        let config = Config::from_params(params)?;
        let game = Flip::new(config).map_err(|jam| ParamError::Inconsistent {
            detail: jam.to_string(),
        })?;
        Ok(Box::new(FlipSession { game }))
    }
}

struct FlipSession {
    game: Flip,
}

/// A half-turn as records write it: `id:x,y` per move (`!` before a skipped one), `-` for none.
fn notation(half: &HalfTurn) -> String {
    if half.moves.is_empty() {
        return "-".into();
    }
    half.moves
        .iter()
        .map(|m| {
            format!(
                "{}{}:{},{}",
                if m.result.is_ok() { "" } else { "!" },
                m.id,
                m.to.x,
                m.to.y
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn parse(text: &str) -> Result<Vec<(bool, u32, Point)>, Rejection> {
    if text == "-" {
        return Ok(Vec::new());
    }
    text.split_whitespace()
        .map(|m| {
            let bad = || Rejection::Malformed(format!("`{m}` is not id:x,y"));
            let (skipped, m2) = match m.strip_prefix('!') {
                Some(rest) => (true, rest),
                None => (false, m),
            };
            let (id, xy) = m2.split_once(':').ok_or_else(bad)?;
            let (x, y) = xy.split_once(',').ok_or_else(bad)?;
            Ok((
                skipped,
                id.parse().map_err(|_| bad())?,
                Point::new(x.parse().map_err(|_| bad())?, y.parse().map_err(|_| bad())?),
            ))
        })
        .collect()
}

impl FlipSession {
    fn check_turn(&self, seat: usize) -> Result<Player, Rejection> {
        if self.game.outcome().is_some() {
            return Err(Rejection::Illegal("the game is over".into()));
        }
        let player = self.game.to_move();
        if player.index() != seat {
            return Err(Rejection::Illegal(format!(
                "seat {seat} answered out of turn"
            )));
        }
        Ok(player)
    }

    fn applied(half: &HalfTurn) -> Applied {
        Applied {
            notation: notation(half),
            nodes: None,
            captures: 0,
        }
    }
}

impl Session for FlipSession {
    fn params(&self) -> RawParams {
        self.game.config().to_params()
    }

    fn to_act(&self) -> Option<usize> {
        match self.game.outcome() {
            Some(_) => None,
            None => Some(self.game.to_move().index()),
        }
    }

    fn start_message(&self, seat: usize, info: &StartInfo) -> Vec<u8> {
        let you = if seat == 0 { Player::One } else { Player::Two };
        let c = self.game.config();
        protocol::encode(&info.start(
            seat,
            2,
            wire::Setup {
                n: c.n,
                turns: c.turns,
                you: you.into(),
                board_seed: c.seed,
            },
        ))
    }

    fn observation(&self, seat: usize) -> Vec<u8> {
        let me = if seat == 0 { Player::One } else { Player::Two };
        protocol::encode(&convert::observation(&self.game, me))
    }

    fn apply_answer(&mut self, seat: usize, answer: &[u8]) -> Result<Applied, Rejection> {
        let reply: Reply<Vec<wire::FlipMove>> = protocol::decode(answer)
            .map_err(|e| Rejection::Malformed(format!("not a Flip half-turn: {e}")))?;
        self.check_turn(seat)?;
        let moves: Vec<(u32, Point)> = reply
            .action
            .iter()
            .map(|m| (m.id, Point::new(m.x, m.y)))
            .collect();
        let half = self.game.play(&moves);
        Ok(Applied {
            nodes: reply.nodes,
            ..FlipSession::applied(&half)
        })
    }

    fn apply_notation(&mut self, seat: usize, action: &str) -> Result<Applied, Rejection> {
        let recorded = parse(action)?;
        self.check_turn(seat)?;
        let moves: Vec<(u32, Point)> = recorded.iter().map(|&(_, id, p)| (id, p)).collect();
        let half = self.game.play(&moves);
        let same = half.moves.len() == recorded.len()
            && half
                .moves
                .iter()
                .zip(&recorded)
                .all(|(m, r)| m.result.is_err() == r.0);
        if !same {
            return Err(Rejection::Illegal(format!(
                "the rules judge `{action}` as `{}`",
                notation(&half)
            )));
        }
        Ok(FlipSession::applied(&half))
    }

    fn skip(&mut self, seat: usize) -> Result<Applied, Rejection> {
        self.check_turn(seat)?;
        let half = self.game.play(&[]);
        Ok(FlipSession::applied(&half))
    }

    fn play_random_legal(&mut self, seat: usize, draw: u64) -> Result<Applied, Rejection> {
        let player = self.check_turn(seat)?;
        let n = self.game.config().n as u64;
        // Up to 64 candidate flips drawn from the draw; the first valid one is played.
        let mut candidate = None;
        for k in 0..64u64 {
            let d = draw
                .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                .wrapping_add(k.wrapping_mul(0xd1b5_4a32_d192_ed03));
            let id = (d % n) as u32;
            let angle = ((d >> 20) % 3600) as f64 / 3600.0 * std::f64::consts::TAU;
            let from = self.game.coins(player)[id as usize];
            let to = Point::new(from.x + 2.0 * angle.cos(), from.y + 2.0 * angle.sin());
            if self.game.validate(player, id, to).is_ok() {
                candidate = Some((id, to));
                break;
            }
        }
        let half = self.game.play(candidate.as_slice());
        Ok(FlipSession::applied(&half))
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome().map(|o| {
            let [a, b] = o.scores;
            let reason = match (o.winner, o.early) {
                (Some(p), true) => format!(
                    "player {} brought all {} coins home on turn {}",
                    p.index() + 1,
                    self.game.config().n,
                    self.game.turn()
                ),
                (Some(p), false) => {
                    format!("player {} leads {a}-{b} at the turn limit", p.index() + 1)
                }
                (None, _) => format!("draw {a}-{b} at the turn limit"),
            };
            Outcome::by_rules(2, o.winner.map(Player::index), reason)
        })
    }

    fn view(&self) -> ViewData {
        super::view::table(&self.game)
    }

    fn view_action(&self, seat: usize, action: &str) -> Option<ViewData> {
        let player = [Player::One, Player::Two].get(seat).copied()?;
        let moves = parse(action).ok()?;
        Some(super::view::half_turn(&self.game, player, &moves))
    }

    fn render(&self) -> String {
        let [a, b] = self.game.scores();
        let mut out = format!("turn {}, scores {a}-{b}\n", self.game.turn());
        for p in [Player::One, Player::Two] {
            out.push_str(&format!("player {}:", p.index() + 1));
            for c in self.game.coins(p) {
                out.push_str(&format!(" ({:.3},{:.3})", c.x, c.y));
            }
            out.push('\n');
        }
        out
    }

    fn game_scores(&self) -> Vec<f64> {
        self.game.scores().iter().map(|&s| s as f64).collect()
    }
}
