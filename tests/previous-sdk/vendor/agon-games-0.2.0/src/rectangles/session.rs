//! Rectangles as an engine game (`docs/games/rectangles.md`): seat `k` is player `k`; every
//! round asks all seats at once and is applied when the last action is in. A faulty player's
//! robots stay for the round (rules file, "A round", 1, ours).

use super::board::Cell;
use super::game::{Config, End, Game};
use super::protocol::{self as wire, Action};
use super::Direction;
use crate::contract::{
    Applied, FaultPolicy, GameRules, Outcome, ParamError, ParamFiles, ParamReader, RawParams,
    Rejection, Session, StartInfo, ViewData,
};
use crate::protocol::{self, Reply, Start};

/// Rectangles' [`GameRules`]: parameters `n`, `players`, `robots`, `idle_rounds` and
/// `max_rounds`; one seat per player (`players`, 2 to 8), seat `k` player `k`.
pub struct RectanglesRules;

/// Rules file, "Setup": 2..8 players.
const MAX_PLAYERS: usize = 8;
/// Bounds that keep a match's messages and memory reasonable (ours).
const MAX_N: usize = 1000;
const MAX_ROBOTS: usize = 256;

fn config(params: &RawParams) -> Result<Config, ParamError> {
    let mut reader = ParamReader::new(params);
    // Rules file, "Setup" (ours): n = 40, p = 2, b = 8.
    let n: usize = reader.get("n", "a board side from 3 to 1000", 40)?;
    if !(3..=MAX_N).contains(&n) {
        return Err(ParamError::Invalid {
            key: "n".into(),
            value: n.to_string(),
            expected: "a board side from 3 to 1000".into(),
        });
    }
    let players: usize = reader.get("players", "2 to 8 players", 2)?;
    let robots: usize = reader.get("robots", "1 to 256 robots per player", 8)?;
    // Rules file, "End and result" (ours): 4n idle rounds, 40n rounds at most.
    let idle_rounds: u32 = reader.get(
        "idle_rounds",
        "a number of rounds from 1 (default 4n)",
        4 * n as u32,
    )?;
    let max_rounds: u32 = reader.get(
        "max_rounds",
        "a number of rounds from 1 (default 40n)",
        40 * n as u32,
    )?;
    reader.finish()?;
    let invalid = |key: &str, value: String, expected: &str| ParamError::Invalid {
        key: key.into(),
        value,
        expected: expected.into(),
    };
    if !(2..=MAX_PLAYERS).contains(&players) {
        return Err(invalid("players", players.to_string(), "2 to 8 players"));
    }
    if !(1..=MAX_ROBOTS).contains(&robots) {
        return Err(invalid("robots", robots.to_string(), "1 to 256 robots"));
    }
    if idle_rounds == 0 {
        return Err(invalid("idle_rounds", "0".into(), "a number from 1"));
    }
    if max_rounds == 0 {
        return Err(invalid("max_rounds", "0".into(), "a number from 1"));
    }
    Ok(Config {
        n,
        players,
        robots,
        idle_rounds,
        max_rounds,
    })
}

impl GameRules for RectanglesRules {
    fn name(&self) -> &'static str {
        "rectangles"
    }

    fn protocol_version(&self) -> u32 {
        wire::VERSION
    }

    fn seats(&self) -> usize {
        2
    }

    fn seats_for(&self, params: &RawParams, _files: &dyn ParamFiles) -> Result<usize, ParamError> {
        Ok(config(params)?.players)
    }

    fn seats_text(&self) -> String {
        "2-8 (parameter `players`)".into()
    }

    fn parameter_help(&self) -> &'static str {
        "n=40 (board side), players=2 (2 to 8, one seat each), robots=8 (per player), \
         idle_rounds=4n (rounds in a row without a claim that end the game), max_rounds=40n \
         (rounds at most)"
    }

    /// Rules file, "A round", 1 (ours): a missing, malformed or late answer means Stay for
    /// all of that player's robots this round.
    fn default_fault_policy(&self) -> FaultPolicy {
        FaultPolicy::Skip
    }

    fn game_score_meaning(&self) -> &'static str {
        "Rectangles: the cells the player's claims filled"
    }

    fn view_script(&self) -> &'static str {
        include_str!("view.js")
    }

    fn new_session(
        &self,
        params: &RawParams,
        _files: &dyn ParamFiles,
    ) -> Result<Box<dyn Session>, ParamError> {
        let config = config(params)?;
        Ok(Box::new(RectanglesSession::new(config)))
    }
}

/// A match: the game and the actions given for the round in progress.
pub struct RectanglesSession {
    game: Game,
    pending: Vec<Option<Action>>,
}

impl RectanglesSession {
    /// A match under `config` (not checked: [`RectanglesRules`] checks the parameters), waiting
    /// for every player's placement.
    pub fn new(config: Config) -> RectanglesSession {
        RectanglesSession {
            game: Game::new(config),
            pending: vec![None; config.players],
        }
    }

    /// The game as the rounds applied so far left it (actions given for the round in progress
    /// are not in it).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The round's seats: every player still in.
    fn in_round(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.game.config.players).filter(|&p| !self.game.out[p])
    }

    fn check(&self, seat: usize, action: &Action) -> Result<(), Rejection> {
        if self.to_act() != Some(seat) {
            return Err(Rejection::Illegal(format!(
                "player {seat} has no action awaited now"
            )));
        }
        match action {
            Action::Place(cells) => self.game.check_placement(cells),
            Action::Move(moves) => self.game.check_moves(moves),
        }
        .map_err(|e| Rejection::Illegal(e.to_string()))
    }

    /// Takes `seat`'s action for the round; plays the round once every player's is in.
    fn give(
        &mut self,
        seat: usize,
        action: Action,
        nodes: Option<u64>,
    ) -> Result<Applied, Rejection> {
        self.check(seat, &action)?;
        let applied = Applied {
            notation: notation(&action),
            nodes,
            captures: 0,
        };
        self.pending[seat] = Some(action);
        if self.in_round().all(|p| self.pending[p].is_some()) {
            self.play_round();
        }
        Ok(applied)
    }

    /// Applies the round. Players out of the game keep their robots where they are.
    fn play_round(&mut self) {
        let robots = self.game.config.robots;
        let actions: Vec<Option<Action>> = self.pending.iter_mut().map(Option::take).collect();
        let result = if self.game.placed {
            let moves = actions
                .into_iter()
                .map(|a| match a {
                    Some(Action::Move(m)) => m,
                    _ => vec![Direction::Stay; robots],
                })
                .collect();
            self.game.step(moves)
        } else {
            let config = self.game.config;
            let placements = actions
                .into_iter()
                .map(|a| match a {
                    Some(Action::Place(cells)) => cells,
                    _ => default_placement(&config),
                })
                .collect();
            self.game.place(placements)
        };
        result.expect("every action was checked when it was given");
    }

    /// The observation of `seat` (also what bots rebuild their view from).
    pub fn observation_of(&self, seat: usize) -> wire::Observation {
        let g = &self.game;
        wire::Observation {
            you: seat as u8,
            round: g.round(),
            cells: g.board.cells().to_vec(),
            robots: g.robots.clone(),
            scores: g.scores.clone(),
            last_moves: g.last_moves.clone(),
            idle: g.idle,
            out: g.out.clone(),
        }
    }
}

/// Where the robots of a player who gave no placement start (ours): spread along the main
/// diagonal, so a fault at the start costs the choice, not the game.
pub fn default_placement(config: &Config) -> Vec<Cell> {
    (0..config.robots)
        .map(|k| {
            let at = (2 * k + 1) * config.n / (2 * config.robots);
            Cell::new(at, at)
        })
        .collect()
}

/// Records write a placement as `place r,c r,c ...` and moves as one letter per robot
/// (`N`, `S`, `E`, `W`, `-` for Stay).
pub fn notation(action: &Action) -> String {
    match action {
        Action::Place(cells) => {
            let mut text = String::from("place");
            for c in cells {
                text.push_str(&format!(" {},{}", c.row, c.col));
            }
            text
        }
        Action::Move(moves) => moves.iter().map(|m| m.letter()).collect(),
    }
}

/// The action a record's notation names.
pub fn parse_notation(text: &str) -> Option<Action> {
    if let Some(cells) = text.strip_prefix("place") {
        return cells
            .split_whitespace()
            .map(|cell| {
                let (row, col) = cell.split_once(',')?;
                Some(Cell {
                    row: row.parse().ok()?,
                    col: col.parse().ok()?,
                })
            })
            .collect::<Option<Vec<_>>>()
            .map(Action::Place);
    }
    text.chars()
        .map(Direction::from_letter)
        .collect::<Option<Vec<_>>>()
        .map(Action::Move)
}

/// A well-spread number from an engine draw and an index (SplitMix64's finaliser), so a
/// random-legal action is fixed by the draw alone.
fn mix(draw: u64, index: u64) -> u64 {
    let mut z = draw ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Session for RectanglesSession {
    fn params(&self) -> RawParams {
        let c = &self.game.config;
        RawParams::from([
            ("n".to_string(), c.n.to_string()),
            ("players".to_string(), c.players.to_string()),
            ("robots".to_string(), c.robots.to_string()),
            ("idle_rounds".to_string(), c.idle_rounds.to_string()),
            ("max_rounds".to_string(), c.max_rounds.to_string()),
        ])
    }

    fn to_act(&self) -> Option<usize> {
        if self.game.end().is_some() {
            return None;
        }
        self.in_round().find(|&p| self.pending[p].is_none())
    }

    fn round(&self) -> Option<u32> {
        Some(self.game.round())
    }

    fn round_seats(&self) -> Vec<usize> {
        if self.game.end().is_some() {
            return Vec::new();
        }
        self.in_round().collect()
    }

    fn start_message(&self, seat: usize, info: &StartInfo) -> Vec<u8> {
        let c = &self.game.config;
        protocol::encode(&Start {
            seat: seat as u32,
            seats: c.players as u32,
            seed: info.seed,
            start_budget_ms: info.start_budget_ms,
            move_budget_ms: info.move_budget_ms,
            bot_params: info.bot_params.clone(),
            game: wire::Setup {
                you: seat as u8,
                players: c.players as u8,
                n: c.n as u16,
                robots: c.robots as u16,
                idle_rounds: c.idle_rounds,
                max_rounds: c.max_rounds,
            },
        })
    }

    fn observation(&self, seat: usize) -> Vec<u8> {
        protocol::encode(&self.observation_of(seat))
    }

    fn apply_answer(&mut self, seat: usize, answer: &[u8]) -> Result<Applied, Rejection> {
        let reply: Reply<Action> = protocol::decode(answer)
            .map_err(|e| Rejection::Malformed(format!("not a Rectangles action: {e}")))?;
        self.give(seat, reply.action, reply.nodes)
    }

    fn view(&self) -> ViewData {
        super::view::position(&self.game)
    }

    fn view_action(&self, seat: usize, action: &str) -> Option<ViewData> {
        super::view::action(&self.game, seat, &parse_notation(action)?)
    }

    fn answer_notation(&self, answer: &[u8]) -> Option<String> {
        let reply: Reply<Action> = protocol::decode(answer).ok()?;
        Some(notation(&reply.action))
    }

    fn apply_notation(&mut self, seat: usize, action: &str) -> Result<Applied, Rejection> {
        let action = parse_notation(action).ok_or_else(|| {
            Rejection::Malformed(format!(
                "`{action}` is neither `place r,c ...` nor one of N, S, E, W, - per robot"
            ))
        })?;
        self.give(seat, action, None)
    }

    /// Rules file, "A round", 1 (ours): the player's robots stay; at the start, they are
    /// placed as [`default_placement`] says.
    fn skip(&mut self, seat: usize) -> Result<Applied, Rejection> {
        let c = self.game.config;
        let action = if self.game.placed {
            Action::Move(vec![Direction::Stay; c.robots])
        } else {
            Action::Place(default_placement(&c))
        };
        self.give(seat, action, None)
    }

    fn play_random_legal(&mut self, seat: usize, draw: u64) -> Result<Applied, Rejection> {
        let c = self.game.config;
        let action = if self.game.placed {
            Action::Move(
                (0..c.robots)
                    .map(|k| Direction::ALL[(mix(draw, k as u64) % 5) as usize])
                    .collect(),
            )
        } else {
            Action::Place(
                (0..c.robots)
                    .map(|k| {
                        let cell = mix(draw, k as u64) % (c.n * c.n) as u64;
                        Cell::new(cell as usize / c.n, cell as usize % c.n)
                    })
                    .collect(),
            )
        };
        self.give(seat, action, None)
    }

    fn outcome(&self) -> Option<Outcome> {
        let end = self.game.end()?;
        let g = &self.game;
        let scores = g
            .scores
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join("-");
        let why = match end {
            End::Idle => format!("no claim in {} rounds", g.config.idle_rounds),
            End::RoundCap => format!("the round limit of {} was reached", g.config.max_rounds),
            End::Deserted => "fewer than two players are left".to_string(),
        };
        let ranks = g.ranks();
        let firsts: Vec<String> = (0..ranks.len())
            .filter(|&p| ranks[p] == 1)
            .map(|p| p.to_string())
            .collect();
        let head = if firsts.len() == 1 {
            format!("player {} ranks first", firsts[0])
        } else {
            format!("players {} share the first rank", firsts.join(", "))
        };
        Some(Outcome::ranked(
            ranks,
            format!("{head} (cells claimed {scores}; {why})"),
        ))
    }

    fn render(&self) -> String {
        let g = &self.game;
        let mut out = g.board.render();
        for p in 0..g.config.players {
            let robots: Vec<String> = g.robots[p]
                .iter()
                .map(|c| format!("{},{}", c.row, c.col))
                .collect();
            out.push_str(&format!(
                "player {p} ({}): {} claimed{}; robots {}\n",
                super::board::paint_char(super::board::colour(p)),
                g.scores[p],
                if g.out[p] { ", out" } else { "" },
                robots.join(" ")
            ));
        }
        out.push_str(&format!("after round {}\n", g.rounds));
        out
    }

    fn game_scores(&self) -> Vec<f64> {
        self.game.scores.iter().map(|&s| s as f64).collect()
    }

    /// Under `disqualify`: the player is out, its robots stay where they are for the rest of
    /// the game (they still paint the cells they stand on), and it ranks after every player
    /// still in.
    fn disqualify(&mut self, seat: usize) -> bool {
        self.game.out[seat] = true;
        self.pending[seat] = None;
        if self.game.end().is_none() && self.in_round().all(|p| self.pending[p].is_some()) {
            self.play_round();
        }
        true
    }
}
