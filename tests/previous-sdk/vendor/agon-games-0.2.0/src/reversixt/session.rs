//! ReversiXT as an engine game (`docs/games/reversixt.md`): seat `k` is player `k + 1`, as
//! many seats as the map has players. A faulty player is disqualified and the game goes on
//! without it (rules file, "Faults"); each player's time account is kept here (rules file,
//! "Time and depth limits").

use super::convert;
use super::protocol as wire;
use super::{Map, Move, Phase, Position};
use crate::contract::{
    Applied, FaultPolicy, GameRules, Outcome, ParamError, ParamFiles, ParamReader, RawParams,
    Rejection, Session, StartInfo, ViewData,
};
use crate::protocol::{self, Reply, Start};
use std::time::Duration;

/// ReversiXT's [`GameRules`]: parameters `map` (or `instance`), `time`, `depth` and
/// `lenient_map`; one seat per player of the map, seat `k` player `k + 1`.
pub struct ReversiXtRules;

/// The map and the limits of one match.
struct Setup {
    text: String,
    map: Map,
    /// Milliseconds added to each account before a request; 0: no time limit.
    time_ms: u64,
    depth: u32,
}

impl Setup {
    fn from_params(params: &RawParams, files: &dyn ParamFiles) -> Result<Setup, ParamError> {
        let mut reader = ParamReader::new(params);
        let path: String = reader.get("map", "a map file", String::new())?;
        let inline: String = reader.get("instance", "a map's text", String::new())?;
        let seconds: f64 = reader.get(
            "time",
            "seconds added to the time account before each move (0: no limit)",
            0.0,
        )?;
        let depth: u32 = reader.get("depth", "a depth limit in plies (0: none)", 0)?;
        let lenient: bool = reader.get(
            "lenient_map",
            "accept transition ends that face the board (refused by default, as by the course \
             server)",
            false,
        )?;
        reader.finish()?;
        if !(0.0..=86_400.0).contains(&seconds) {
            return Err(ParamError::Invalid {
                key: "time".into(),
                value: seconds.to_string(),
                expected: "0 to 86400 seconds".into(),
            });
        }
        let text = match (path.is_empty(), inline.is_empty()) {
            (false, true) => files
                .read_text("map", &path)
                .map_err(|e| ParamError::Invalid {
                    key: "map".into(),
                    value: path.clone(),
                    expected: format!("a readable map file ({e})"),
                })?,
            (true, false) => inline,
            (false, false) => {
                return Err(ParamError::Inconsistent {
                    detail: "`map` and `instance` are both given; give one".into(),
                })
            }
            (true, true) => {
                return Err(ParamError::Inconsistent {
                    detail: "`map=FILE` (or `instance=TEXT`) is required".into(),
                })
            }
        };
        // Rules file, "Map file": an end must face the edge or a hole; the course server refuses
        // a map where one does not, and so does the engine unless asked.
        let parsed = if lenient {
            Map::parse_lenient(&text)
        } else {
            Map::parse(&text)
        };
        let map = parsed.map_err(|e| ParamError::Invalid {
            key: "map".into(),
            value: if path.is_empty() {
                "(the instance)".into()
            } else {
                path
            },
            expected: format!("a valid map: {e}"),
        })?;
        Ok(Setup {
            text,
            map,
            time_ms: (seconds * 1000.0).round() as u64,
            depth,
        })
    }
}

impl GameRules for ReversiXtRules {
    fn name(&self) -> &'static str {
        "reversixt"
    }

    fn protocol_version(&self) -> u32 {
        wire::VERSION
    }

    /// The fewest players a map has (rules file, "Map file": 2..8).
    fn seats(&self) -> usize {
        2
    }

    fn seats_for(&self, params: &RawParams, files: &dyn ParamFiles) -> Result<usize, ParamError> {
        Ok(Setup::from_params(params, files)?.map.players as usize)
    }

    fn file_params(&self) -> &'static [&'static str] {
        &["map"]
    }

    fn seats_text(&self) -> String {
        "2-8 (the map's players)".into()
    }

    fn parameter_help(&self) -> &'static str {
        "map=FILE (a course map; or instance=TEXT), time=0 (seconds added to each player's time \
         account before each move, unused time carries over; 0: the match's move budget \
         applies), depth=0 (a depth limit in plies passed to the bots; 0: none)"
    }

    /// Rules file, "Faults": the course server disqualifies and plays on.
    fn default_fault_policy(&self) -> FaultPolicy {
        FaultPolicy::Disqualify
    }

    fn game_score_meaning(&self) -> &'static str {
        "ReversiXT: the player's stones at the end"
    }

    fn view_script(&self) -> &'static str {
        include_str!("view.js")
    }

    fn new_session(
        &self,
        params: &RawParams,
        files: &dyn ParamFiles,
    ) -> Result<Box<dyn Session>, ParamError> {
        let setup = Setup::from_params(params, files)?;
        let players = setup.map.players as usize;
        Ok(Box::new(ReversiXtSession {
            position: Position::new(setup.map.clone()),
            accounts_ms: vec![0; players],
            ply: 0,
            max_plies: ply_cap(&setup.map),
            setup,
        }))
    }
}

struct ReversiXtSession {
    setup: Setup,
    position: Position,
    /// Per seat, the time account in milliseconds (rules file, "Time and depth limits").
    accounts_ms: Vec<u64>,
    ply: u32,
    /// See [`ply_cap`].
    max_plies: u32,
}

/// A bound no game on `map` can reach, as a safety (every game must end, whatever its map):
/// a building move fills a square for good (a bomb's hole is never filled) or spends an
/// override stone, a bombing move spends a bomb, and a bonus square hands out at most one
/// more of either (rules file, "Phase 1", "Phase 2"). Twice that, so that it only ever stops a
/// game the rules as implemented here would let run on.
fn ply_cap(map: &Map) -> u32 {
    use super::Square;
    let squares = map.squares.iter().filter(|&&s| s != Square::Hole).count() as u64;
    let bonus = map.count(Square::Bonus) as u64;
    let players = map.players as u64;
    let bound = squares + players * (map.overrides as u64 + map.bombs as u64) + 2 * bonus + 1;
    bound.saturating_mul(2).min(u32::MAX as u64) as u32
}

/// Records write a move as `x,y`, with `:special` when the special value is not 0.
fn notation(m: Move) -> String {
    if m.special == 0 {
        format!("{},{}", m.x, m.y)
    } else {
        format!("{},{}:{}", m.x, m.y, m.special)
    }
}

/// The move a record's notation names.
pub fn parse_notation(text: &str) -> Option<Move> {
    let (xy, special) = match text.split_once(':') {
        Some((xy, s)) => (xy, s.parse().ok()?),
        None => (text, 0),
    };
    let (x, y) = xy.split_once(',')?;
    Some(Move {
        x: x.parse().ok()?,
        y: y.parse().ok()?,
        special,
    })
}

fn parse(text: &str) -> Result<Move, Rejection> {
    parse_notation(text)
        .ok_or_else(|| Rejection::Malformed(format!("`{text}` is not x,y or x,y:special")))
}

impl ReversiXtSession {
    fn player(seat: usize) -> u8 {
        seat as u8 + 1
    }

    fn play(&mut self, seat: usize, m: Move) -> Result<Applied, Rejection> {
        let player = ReversiXtSession::player(seat);
        let captures = match self.position.phase {
            Phase::Building if m.x < self.setup.map.width && m.y < self.setup.map.height => {
                let target = self.position.map.index(m.x, m.y);
                self.position.captures(player, target).len()
            }
            _ => 0,
        };
        self.position
            .play(player, m)
            .map_err(|e| Rejection::Illegal(e.to_string()))?;
        self.ply += 1;
        Ok(Applied {
            notation: notation(m),
            nodes: None,
            captures: captures as u32,
        })
    }
}

impl Session for ReversiXtSession {
    fn params(&self) -> RawParams {
        RawParams::from([
            ("instance".to_string(), self.setup.text.clone()),
            (
                "time".to_string(),
                (self.setup.time_ms as f64 / 1000.0).to_string(),
            ),
            ("depth".to_string(), self.setup.depth.to_string()),
        ])
    }

    fn to_act(&self) -> Option<usize> {
        (self.position.phase != Phase::Over && self.ply < self.max_plies)
            .then(|| self.position.to_move as usize - 1)
    }

    fn start_message(&self, seat: usize, info: &StartInfo) -> Vec<u8> {
        protocol::encode(&Start {
            seat: seat as u32,
            seats: self.setup.map.players as u32,
            seed: info.seed,
            start_budget_ms: info.start_budget_ms,
            move_budget_ms: info.move_budget_ms,
            bot_params: info.bot_params.clone(),
            game: wire::Setup {
                you: ReversiXtSession::player(seat),
                players: self.setup.map.players,
                map: self.setup.text.clone(),
                time_ms: self.setup.time_ms,
                depth: self.setup.depth,
            },
        })
    }

    fn observation(&self, seat: usize) -> Vec<u8> {
        let observation = convert::observation(
            &self.position,
            ReversiXtSession::player(seat),
            self.ply,
            self.accounts_ms[seat],
            self.setup.depth,
        )
        .expect("only asked while the game goes on");
        protocol::encode(&observation)
    }

    fn apply_answer(&mut self, seat: usize, answer: &[u8]) -> Result<Applied, Rejection> {
        let reply: Reply<wire::Move> = protocol::decode(answer)
            .map_err(|e| Rejection::Malformed(format!("not a ReversiXT move: {e}")))?;
        let applied = self.play(seat, reply.action.into())?;
        Ok(Applied {
            nodes: reply.nodes,
            ..applied
        })
    }

    fn apply_notation(&mut self, seat: usize, action: &str) -> Result<Applied, Rejection> {
        let m = parse(action)?;
        self.play(seat, m)
    }

    fn view(&self) -> ViewData {
        super::view::position(&self.position)
    }

    fn view_action(&self, _seat: usize, action: &str) -> Option<ViewData> {
        let m = parse_notation(action)?;
        Some(super::view::action(&self.position, m))
    }

    fn answer_notation(&self, answer: &[u8]) -> Option<String> {
        let reply: Reply<wire::Move> = protocol::decode(answer).ok()?;
        Some(notation(reply.action.into()))
    }

    /// The rules have no pass: a player to move always has a legal move.
    fn skip(&mut self, _seat: usize) -> Result<Applied, Rejection> {
        Err(Rejection::Illegal(
            "ReversiXT has no passing move (rules file, \"Phase 1\")".into(),
        ))
    }

    fn play_random_legal(&mut self, seat: usize, draw: u64) -> Result<Applied, Rejection> {
        let moves = self.position.legal_moves();
        if moves.is_empty() {
            return Err(Rejection::Illegal("no legal move".into()));
        }
        self.play(seat, moves[(draw % moves.len() as u64) as usize])
    }

    fn outcome(&self) -> Option<Outcome> {
        let capped = self.position.phase != Phase::Over && self.ply >= self.max_plies;
        if self.position.phase != Phase::Over && !capped {
            return None;
        }
        let stones = self.position.map.stones();
        let ranks = self.position.ranks();
        let mut reason = format!(
            "stones {}",
            stones
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join("-")
        );
        let out: Vec<String> = (0..stones.len())
            .filter(|&p| self.position.disqualified[p])
            .map(|p| (p + 1).to_string())
            .collect();
        if !out.is_empty() {
            reason.push_str(&format!("; disqualified: player {}", out.join(", ")));
        }
        let firsts: Vec<String> = (0..ranks.len())
            .filter(|&p| ranks[p] == 1)
            .map(|p| (p + 1).to_string())
            .collect();
        let head = if firsts.len() == 1 {
            format!("player {} ranks first", firsts[0])
        } else {
            format!("players {} share the first rank", firsts.join(", "))
        };
        if capped {
            reason.push_str(&format!("; stopped by the ply cap of {}", self.max_plies));
        }
        Some(Outcome::ranked(ranks, format!("{head} ({reason})")))
    }

    fn render(&self) -> String {
        let mut out = self.position.map.to_text();
        for p in 0..self.position.players() as usize {
            out.push_str(&format!(
                "player {}: {} stones, {} overrides, {} bombs{}\n",
                p + 1,
                self.position.map.stones()[p],
                self.position.overrides[p],
                self.position.bombs[p],
                if self.position.disqualified[p] {
                    ", disqualified"
                } else {
                    ""
                }
            ));
        }
        out
    }

    fn game_scores(&self) -> Vec<f64> {
        self.position
            .map
            .stones()
            .iter()
            .map(|&s| s as f64)
            .collect()
    }

    fn request_budget(&mut self, seat: usize) -> Option<Duration> {
        if self.setup.time_ms == 0 {
            return None;
        }
        self.accounts_ms[seat] += self.setup.time_ms;
        Some(Duration::from_millis(self.accounts_ms[seat]))
    }

    fn charge(&mut self, seat: usize, spent: Duration) {
        if self.setup.time_ms > 0 {
            let ms = spent.as_millis().min(u64::MAX as u128) as u64;
            self.accounts_ms[seat] = self.accounts_ms[seat].saturating_sub(ms);
        }
    }

    /// Rules file, "Result": the stones stay, the player ranks last, the others play on.
    fn disqualify(&mut self, seat: usize) -> bool {
        self.position.disqualify(ReversiXtSession::player(seat));
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(map: &str) -> ReversiXtSession {
        let params = RawParams::from([("instance".to_string(), map.to_string())]);
        let setup = Setup::from_params(&params, &crate::transcript::PlainFiles).unwrap();
        ReversiXtSession {
            position: Position::new(setup.map.clone()),
            accounts_ms: vec![0; setup.map.players as usize],
            ply: 0,
            max_plies: ply_cap(&setup.map),
            setup,
        }
    }

    /// Plays random legal moves to the end; the plies played.
    fn play_out(s: &mut ReversiXtSession, seed: u64) -> u32 {
        let mut draw = seed;
        while let Some(seat) = s.to_act() {
            draw = draw
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s.play_random_legal(seat, draw >> 11).unwrap();
        }
        s.ply
    }

    #[test]
    fn no_game_on_a_course_map_comes_near_the_ply_cap() {
        let dir = crate::transcript::shared_data("reversixt/maps/initialMaps");
        for name in [
            "heart.map",
            "window.map",
            "checkerboard.map",
            "infinity.map",
        ] {
            let text = std::fs::read_to_string(dir.join(name)).unwrap();
            for seed in 0..3 {
                let mut s = session(&text);
                let plies = play_out(&mut s, seed);
                assert!(s.position.phase == Phase::Over, "{name}");
                assert!(
                    plies * 2 <= s.max_plies,
                    "{name}: {plies} of {}",
                    s.max_plies
                );
            }
        }
    }

    #[test]
    fn a_game_stopped_by_the_ply_cap_ends_ranked_and_says_so() {
        let mut s = session("2\n0\n0 0\n4 4\n0 0 0 0\n0 1 2 0\n0 2 1 0\n0 0 0 0\n");
        s.max_plies = 2;
        assert_eq!(play_out(&mut s, 1), 2);
        assert_eq!(s.position.phase, Phase::Building, "the rules would go on");
        let outcome = s.outcome().expect("over at the cap");
        assert!(
            outcome.reason.contains("ply cap of 2"),
            "{}",
            outcome.reason
        );
        assert_eq!(outcome.ranks.len(), 2);
    }
}
