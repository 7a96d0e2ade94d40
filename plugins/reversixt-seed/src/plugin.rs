//! The bot `seed` as the engine (or `agon reversixt connect`) runs it: how much of the time
//! account each move may spend, the depth limit, the search mode.
//!
//! Bot parameters: `mode=paranoid|maxn` (default paranoid), `ms=N` (spend at most N ms a move),
//! `depth=N` (search at most N plies).

use crate::search::{choose, Limits, Mode};
use agon_sdk::export::{ParamReader, WireBot};
use agon_sdk::protocol::reversixt::{Move, Observation, ReversiXt, Setup};
use agon_sdk::protocol::{Reply, Start};
use agon_sdk::reversixt::convert::position;
use std::time::{Duration, Instant};

pub struct Seed {
    mode: Mode,
    cap_ms: Option<u64>,
    depth: Option<u32>,
    /// Per-move allowance of the game's time account (0: no time limit).
    allowance_ms: u64,
    /// The engine's plain per-move budget, used when the game keeps no account.
    move_budget_ms: u64,
}

impl Default for Seed {
    fn default() -> Seed {
        Seed {
            mode: Mode::Paranoid,
            cap_ms: None,
            depth: None,
            allowance_ms: 0,
            move_budget_ms: 0,
        }
    }
}

/// Kept back from every budget for encoding, the host's round trip and the network.
const SAFETY: Duration = Duration::from_millis(15);

impl Seed {
    /// The time this move may take. With a time account (rules file, "Time and depth
    /// limits"): about the allowance, plus a tenth of what earlier moves saved, never more
    /// than half the account; when the allowance is unknown (a course server only sends the
    /// account), 45% of the account, which settles where each move spends about the
    /// allowance. Without an account: under half the engine's per-move budget.
    fn budget(&self, account_ms: u64) -> Option<Duration> {
        let ms = if account_ms > 0 && self.allowance_ms == 0 {
            Some(account_ms * 45 / 100)
        } else if account_ms > 0 {
            let saved = account_ms.saturating_sub(self.allowance_ms);
            let wanted = self.allowance_ms * 9 / 10 + saved / 10;
            Some(wanted.min(account_ms / 2))
        } else if self.move_budget_ms > 0 {
            Some(self.move_budget_ms * 45 / 100)
        } else {
            None
        };
        let ms = match (ms, self.cap_ms) {
            (Some(a), Some(c)) => Some(a.min(c)),
            (a, c) => a.or(c),
        }?;
        Some(Duration::from_millis(ms).saturating_sub(SAFETY))
    }
}

impl WireBot for Seed {
    type Game = ReversiXt;
    const PARAMS: &'static [&'static str] = &["mode", "ms", "depth"];

    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        let mut params = ParamReader::new(&start.bot_params);
        let mode: String = params
            .get("mode", "paranoid or maxn", "paranoid".to_string())
            .map_err(|e| e.to_string())?;
        let cap: u64 = params
            .get("ms", "milliseconds per move (0: as the clock allows)", 0)
            .map_err(|e| e.to_string())?;
        let depth: u32 = params
            .get("depth", "a depth limit in plies (0: none)", 0)
            .map_err(|e| e.to_string())?;
        params.finish().map_err(|e| e.to_string())?;
        self.mode = match mode.as_str() {
            "paranoid" => Mode::Paranoid,
            "maxn" => Mode::MaxN,
            other => return Err(format!("mode `{other}`: expected paranoid or maxn")),
        };
        self.cap_ms = (cap > 0).then_some(cap);
        self.depth = (depth > 0).then_some(depth);
        self.allowance_ms = start.game.time_ms;
        self.move_budget_ms = start.move_budget_ms;
        Ok(())
    }

    fn act(&mut self, observation: &Observation) -> Reply<Move> {
        let started = Instant::now();
        let position = position(observation).expect("the engine sends valid boards");
        let max_depth = depth_limit(
            self.depth,
            observation.depth,
            observation.time_account_ms > 0,
        );
        let limits = Limits {
            deadline: self
                .budget(observation.time_account_ms)
                .map(|b| started + b),
            max_depth,
        };
        let result = choose(&position, self.mode, &limits);
        Reply::new(result.best.into()).with_nodes(result.nodes)
    }
}

/// The bot's own depth limit and the game's, whichever is lower. The game's applies only when
/// the game sets no time limit (rules file, "Time and depth limits": clients respect the depth
/// limit "when no time limit is set"); a course server run with `-t` alone sends depth 1.
fn depth_limit(own: Option<u32>, game: u32, time_limited: bool) -> Option<u32> {
    let game = (game > 0 && !time_limited).then_some(game);
    match (own, game) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed(allowance_ms: u64, move_budget_ms: u64, cap_ms: Option<u64>) -> Seed {
        Seed {
            allowance_ms,
            move_budget_ms,
            cap_ms,
            ..Seed::default()
        }
    }

    fn ms(d: Option<Duration>) -> Option<u128> {
        d.map(|d| d.as_millis())
    }

    #[test]
    fn the_games_depth_limit_applies_only_without_a_time_limit() {
        assert_eq!(depth_limit(None, 1, true), None);
        assert_eq!(depth_limit(None, 1, false), Some(1));
        assert_eq!(depth_limit(None, 0, false), None);
        assert_eq!(depth_limit(Some(4), 1, true), Some(4));
        assert_eq!(depth_limit(Some(4), 2, false), Some(2));
        assert_eq!(depth_limit(Some(4), 0, false), Some(4));
    }

    #[test]
    fn the_budget_follows_the_account_and_never_spends_half_of_it() {
        // First move: the account holds one allowance, so half of it.
        assert_eq!(ms(seed(200, 0, None).budget(200)), Some(100 - 15));
        // 800 ms saved: the allowance less a tenth, plus a tenth of the savings.
        assert_eq!(ms(seed(200, 0, None).budget(1000)), Some(180 + 80 - 15));
        // A course server sends the account alone.
        assert_eq!(ms(seed(0, 0, None).budget(1000)), Some(450 - 15));
        // No account: the engine's per-move budget; none at all: no deadline.
        assert_eq!(ms(seed(0, 1000, None).budget(0)), Some(450 - 15));
        assert_eq!(ms(seed(0, 0, None).budget(0)), None);
        // The bot's own cap wins when lower, and alone when nothing else limits.
        assert_eq!(ms(seed(200, 0, Some(50)).budget(1000)), Some(50 - 15));
        assert_eq!(ms(seed(0, 0, Some(50)).budget(0)), Some(50 - 15));
    }
}
