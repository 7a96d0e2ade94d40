//! The rules as pure state changes (`docs/games/rectangles.md`): placement, a round of
//! simultaneous moves, painting by occupancy, claims, and the end.

use super::board::{colour, Board, Cell, UNPAINTED};
use super::claims::{rectangles_through, resolve, Claim, Rect};
use super::Direction;

/// The parameters of one game (rules file, "Setup" and "End and result").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// The board's side: an n x n grid.
    pub n: usize,
    /// Players, one per seat (the rules allow 2 to 8).
    pub players: usize,
    /// Robots per player.
    pub robots: usize,
    /// Consecutive move rounds without a claim that end the game.
    pub idle_rounds: u32,
    /// Move rounds after which the game ends whatever happens.
    pub max_rounds: u32,
}

impl Config {
    /// Rules file, "Setup" (ours): n = 40, p = 2, b = 8; "End and result" (ours): idle rounds
    /// 4n, round cap 40n.
    pub fn with(n: usize, players: usize, robots: usize) -> Config {
        Config {
            n,
            players,
            robots,
            idle_rounds: 4 * n as u32,
            max_rounds: 40 * n as u32,
        }
    }
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// `idle_rounds` move rounds in a row without a claim.
    Idle,
    /// `max_rounds` move rounds were played.
    RoundCap,
    /// Fewer than two players are left in the game (the others were disqualified).
    Deserted,
}

/// A game in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// The game's parameters.
    pub config: Config,
    /// Every cell's paint.
    pub board: Board,
    /// Per player, per robot.
    pub robots: Vec<Vec<Cell>>,
    /// Per player, the cells claimed so far (rules file, "End and result": score = cells
    /// claimed).
    pub scores: Vec<u32>,
    /// Whether the robots have been placed (the placement round is round 0).
    pub placed: bool,
    /// Move rounds played.
    pub rounds: u32,
    /// Move rounds in a row without a claim.
    pub idle: u32,
    /// The last move round's moves, per player (empty before the first).
    pub last_moves: Vec<Vec<Direction>>,
    /// Players taken out of the game (their robots stay where they are).
    pub out: Vec<bool>,
}

/// What a round did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RoundReport {
    /// The claims made after the round's painting, in the order they were resolved.
    pub claims: Vec<Claim>,
}

/// Why a player's answer cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Invalid {
    /// A list of the wrong length: one start cell or one move per robot, one entry per player.
    #[error("expected {expected} {what}, got {got}")]
    Count {
        /// What was counted, in words (e.g. "moves (one per robot)").
        what: &'static str,
        /// The number the rules want.
        expected: usize,
        /// The number given.
        got: usize,
    },
    /// A start cell off the board.
    #[error("cell ({row}, {col}) is off the {n} x {n} board")]
    OffBoard {
        /// The cell's row.
        row: u16,
        /// The cell's column.
        col: u16,
        /// The board's side.
        n: usize,
    },
    /// A placement after the robots were placed: every round but round 0 wants moves.
    #[error("the robots are placed at the start only; this round wants moves")]
    NotPlacement,
    /// Moves in round 0, before the robots were placed.
    #[error("the robots must be placed first")]
    NotPlaced,
}

impl Game {
    /// A game before placement: an unpainted board, no robots, no scores, every player in.
    /// `config` is not checked (the session's parameters are).
    pub fn new(config: Config) -> Game {
        Game {
            board: Board::new(config.n),
            robots: vec![Vec::new(); config.players],
            scores: vec![0; config.players],
            placed: false,
            rounds: 0,
            idle: 0,
            last_moves: Vec::new(),
            out: vec![false; config.players],
            config,
        }
    }

    /// The round in progress: 0 is placement, move rounds count from 1.
    pub fn round(&self) -> u32 {
        if self.placed {
            self.rounds + 1
        } else {
            0
        }
    }

    /// Checks one player's placement (rules file, "Setup": one start cell per robot, shared
    /// cells allowed).
    pub fn check_placement(&self, cells: &[Cell]) -> Result<(), Invalid> {
        if self.placed {
            return Err(Invalid::NotPlacement);
        }
        if cells.len() != self.config.robots {
            return Err(Invalid::Count {
                what: "start cells",
                expected: self.config.robots,
                got: cells.len(),
            });
        }
        match cells.iter().find(|c| !self.on_board(**c)) {
            Some(c) => Err(Invalid::OffBoard {
                row: c.row,
                col: c.col,
                n: self.config.n,
            }),
            None => Ok(()),
        }
    }

    /// Checks one player's moves: one per robot.
    pub fn check_moves(&self, moves: &[Direction]) -> Result<(), Invalid> {
        if !self.placed {
            return Err(Invalid::NotPlaced);
        }
        if moves.len() != self.config.robots {
            return Err(Invalid::Count {
                what: "moves (one per robot)",
                expected: self.config.robots,
                got: moves.len(),
            });
        }
        Ok(())
    }

    fn on_board(&self, c: Cell) -> bool {
        (c.row as usize) < self.config.n && (c.col as usize) < self.config.n
    }

    /// Places every player's robots at once (rules file, "Setup": all choices revealed at
    /// once), then paints and resolves claims as after any round (ours: placement is round 0).
    pub fn place(&mut self, placements: Vec<Vec<Cell>>) -> Result<RoundReport, Invalid> {
        for cells in &placements {
            self.check_placement(cells)?;
        }
        if placements.len() != self.config.players {
            return Err(Invalid::Count {
                what: "players' placements",
                expected: self.config.players,
                got: placements.len(),
            });
        }
        self.robots = placements;
        self.placed = true;
        let changed = self.paint();
        Ok(RoundReport {
            claims: self.claim(changed),
        })
    }

    /// Plays one move round with every player's moves at once (rules file, "A round").
    pub fn step(&mut self, moves: Vec<Vec<Direction>>) -> Result<RoundReport, Invalid> {
        if moves.len() != self.config.players {
            return Err(Invalid::Count {
                what: "players' moves",
                expected: self.config.players,
                got: moves.len(),
            });
        }
        for m in &moves {
            self.check_moves(m)?;
        }
        // 2. Moves apply at once; a move off the board leaves the robot where it is.
        for (robots, moves) in self.robots.iter_mut().zip(&moves) {
            for (robot, m) in robots.iter_mut().zip(moves) {
                *robot = robot.stepped(*m, self.config.n);
            }
        }
        self.last_moves = moves;
        let changed = self.paint();
        let claims = self.claim(changed);
        // 5. The round counter advances; "End and result": idle rounds count rounds without
        // a claim.
        self.rounds += 1;
        self.idle = if claims.is_empty() { self.idle + 1 } else { 0 };
        Ok(RoundReport { claims })
    }

    /// Painting by occupancy ("A round", 3): every occupied, paintable cell takes the colour of
    /// the one player whose robots stand on it, or becomes unpainted when several players'
    /// robots do. Returns the cells that took a colour they did not have, with its player.
    fn paint(&mut self) -> Vec<(usize, Cell)> {
        let mut occupied: Vec<(Cell, usize)> = self
            .robots
            .iter()
            .enumerate()
            .flat_map(|(p, robots)| robots.iter().map(move |&c| (c, p)))
            .collect();
        occupied.sort_unstable();
        occupied.dedup();
        let mut changed = Vec::new();
        for group in occupied.chunk_by(|a, b| a.0 == b.0) {
            let cell = group[0].0;
            let before = self.board.get(cell);
            if before == super::board::FILLED {
                continue;
            }
            let after = match group {
                [(_, player)] => colour(*player),
                _ => UNPAINTED,
            };
            if after != before {
                self.board.set(cell, after);
                if let [(_, player)] = group {
                    changed.push((*player, cell));
                }
            }
        }
        changed
    }

    /// Claims ("A round", 4) through the cells painted this round, resolved until none remains; scores.
    fn claim(&mut self, changed: Vec<(usize, Cell)>) -> Vec<Claim> {
        let mut candidates = Vec::new();
        let mut rects: Vec<Rect> = Vec::new();
        for (player, cell) in changed {
            rects.clear();
            rectangles_through(&self.board, player, cell, &mut rects);
            candidates.extend(rects.iter().map(|&r| (player, r)));
        }
        if candidates.is_empty() {
            return Vec::new();
        }
        let claims = resolve(&mut self.board, candidates);
        for claim in &claims {
            self.scores[claim.player] += claim.cells;
        }
        claims
    }

    /// Why the game is over, if it is (rules file, "End and result").
    pub fn end(&self) -> Option<End> {
        if self.out.iter().filter(|o| !**o).count() < 2 {
            Some(End::Deserted)
        } else if !self.placed {
            None
        } else if self.idle >= self.config.idle_rounds {
            Some(End::Idle)
        } else if self.rounds >= self.config.max_rounds {
            Some(End::RoundCap)
        } else {
            None
        }
    }

    /// Ranks by score, 1 best, equal scores sharing the better rank (rules file, "End and
    /// result", ours); players taken out rank after every player still in, among themselves by
    /// score.
    pub fn ranks(&self) -> Vec<usize> {
        let key = |p: usize| (self.out[p], std::cmp::Reverse(self.scores[p]));
        (0..self.config.players)
            .map(|p| {
                1 + (0..self.config.players)
                    .filter(|&q| key(q) < key(p))
                    .count()
            })
            .collect()
    }
}
