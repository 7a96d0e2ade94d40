use super::bit_select::nth_set_bit;
use super::geometry::{Geometry, Steps};
use super::{Config, EndReason, IllegalMove, LegalMoves, Move, Outcome, Side, Square};
use std::fmt::Write as _;

/// A Breakthrough position: two bitboards (bit `row * cols + col`), the side to move and the
/// number of plies played. Positions are small `Copy` values; rules are methods that never fail
/// halfway: `play` either applies a legal move completely or changes nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Each side's workers, indexed by [`Side::seat`]: rules index them by the side to move
    /// rather than branch on it.
    workers: [u64; 2],
    to_move: Side,
    ply: u32,
    config: Config,
    geometry: Geometry,
}

impl Position {
    /// The start position: each side fills its two home rows (rules file, "Board and pieces").
    ///
    /// # Panics
    /// If `config` is not valid ([`Config::validated`]); configurations from
    /// [`Config::from_params`] always are.
    pub fn start(config: Config) -> Position {
        if let Err(e) = config.validated() {
            panic!("Position::start with an invalid configuration: {e}");
        }
        let geometry = Geometry::new(&config);
        let cols = config.cols as u32;
        let two_rows = (1u64 << (2 * cols)) - 1;
        let black = two_rows << ((config.rows as u32 - 2) * cols);
        Position {
            workers: [two_rows, black],
            to_move: config.first,
            ply: 0,
            config,
            geometry,
        }
    }

    /// A position from a list of occupied squares, as a bot rebuilds it from an observation.
    /// Fails when the configuration is invalid, or a square is off the board or listed twice.
    pub fn from_pieces(
        config: Config,
        pieces: impl IntoIterator<Item = (Square, Side)>,
        to_move: Side,
        ply: u32,
    ) -> Result<Position, String> {
        let config = config.validated().map_err(|e| e.to_string())?;
        let mut position = Position {
            workers: [0, 0],
            to_move,
            ply,
            config,
            geometry: Geometry::new(&config),
        };
        for (square, side) in pieces {
            let bit = position
                .bit(square)
                .ok_or_else(|| format!("{square} is off the board"))?;
            if position.occupied() & bit != 0 {
                return Err(format!("{square} is listed twice"));
            }
            position.workers[side.seat()] |= bit;
        }
        Ok(position)
    }

    /// The game's parameters (board size, `workers_to_base`, move limit).
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The side whose move it is (the side that would move next, once the game is over).
    #[inline]
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// Plies played so far.
    #[inline]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Whose worker stands on `square`; `None` for an empty square or one off the board.
    #[inline]
    pub fn piece_at(&self, square: Square) -> Option<Side> {
        let bit = self.bit(square)?;
        Side::BOTH
            .into_iter()
            .find(|&side| self.own(side) & bit != 0)
    }

    /// Workers `side` has left on the board.
    #[inline]
    pub fn workers(&self, side: Side) -> u32 {
        self.own(side).count_ones()
    }

    /// Workers of `side` standing on the opponent's home row.
    #[inline]
    pub fn workers_at_base(&self, side: Side) -> u32 {
        (self.own(side) & self.goal(side)).count_ones()
    }

    /// Every occupied square with its owner, row by row from row 0.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Side)> + '_ {
        (0..self.config.squares()).filter_map(move |i| {
            let bit = 1u64 << i;
            let square = self.geometry.square(i);
            Side::BOTH
                .into_iter()
                .find(|&side| self.own(side) & bit != 0)
                .map(|side| (square, side))
        })
    }

    /// How the game ended, or `None` while it goes on (rules file, "Winning" and "Moves").
    /// A base reached or an army too small decides first; then the move limit; then a player
    /// to move without a legal move loses.
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        let needed = self.config.workers_to_base as u32;
        // The side that just moved is checked first: only its move can have changed anything.
        let mover = self.to_move.opponent();
        for side in [mover, self.to_move] {
            if at_least(self.own(side) & self.goal(side), needed) {
                return Some(Outcome {
                    winner: Some(side),
                    reason: EndReason::ReachedBase,
                });
            }
            if !at_least(self.own(side.opponent()), needed) {
                return Some(Outcome {
                    winner: Some(side),
                    reason: EndReason::TooFewWorkers,
                });
            }
        }
        if self
            .config
            .move_limit
            .is_some_and(|limit| self.ply >= limit)
        {
            return Some(Outcome {
                winner: None,
                reason: EndReason::MoveLimit,
            });
        }
        if !self.steps().any() {
            return Some(Outcome {
                winner: Some(mover),
                reason: EndReason::NoLegalMove,
            });
        }
        None
    }

    /// The number of legal moves of the side to move (not checking whether the game is over).
    #[inline]
    pub fn move_count(&self) -> u32 {
        self.steps().count()
    }

    /// The legal moves of the side to move, straight steps first, then toward column `a`, then
    /// away from it, each in square order (not checking whether the game is over).
    #[inline]
    pub fn legal_moves(&self) -> Vec<Move> {
        self.moves().collect()
    }

    /// The moves of [`Position::legal_moves`], in the same order, without building a list: a
    /// search that walks them once allocates nothing.
    #[inline]
    pub fn moves(&self) -> LegalMoves {
        LegalMoves::new(self.steps(), self.geometry)
    }

    /// The `n`th move of [`Position::legal_moves`] without building the list (for playouts).
    /// Returns `None` when `n >= move_count()`.
    #[inline]
    pub fn nth_move(&self, n: u32) -> Option<Move> {
        let steps = self.steps();
        // The same running counts as `move_count`'s (computed once when both are inlined into
        // a playout); the direction by comparisons that compile to conditional moves and the
        // bit by a broadword select, not a loop: the pick is random, so a branch on it is
        // mispredicted.
        let [straight, left, right] = steps.running_counts();
        let [t0, t1, t2] = steps.targets;
        let [r0, r1, r2] = steps.rotations;
        let (c0, c1) = (straight.total(), left.total());
        if n >= c0 + c1 + right.total() {
            return None;
        }
        let (targets, counts, rotation, skipped) = if n < c0 {
            (t0, straight, r0, 0)
        } else if n < c0 + c1 {
            (t1, left, r1, c0)
        } else {
            (t2, right, r2, c0 + c1)
        };
        let to = nth_set_bit(targets, counts, n - skipped);
        Some(self.geometry.step(to, rotation))
    }

    /// Why `mv` is illegal here, or `Ok(capture)` when it is legal (rules file, "Moves").
    pub fn check(&self, mv: Move) -> Result<bool, IllegalMove> {
        if self.outcome().is_some() {
            return Err(IllegalMove::GameOver);
        }
        let mover = self.to_move;
        let off_board = |square| IllegalMove::OffBoard {
            square,
            rows: self.config.rows,
            cols: self.config.cols,
        };
        let from = self.bit(mv.from).ok_or(off_board(mv.from))?;
        let to = self.bit(mv.to).ok_or(off_board(mv.to))?;
        if self.own(mover) & from == 0 {
            return Err(IllegalMove::NoWorker {
                mover,
                square: mv.from,
            });
        }
        // Rules file, "Winning": workers that reached the last row can no longer move.
        if self.goal(mover) & from != 0 {
            return Err(IllegalMove::WorkerAtBase {
                mover,
                square: mv.from,
            });
        }
        let forward: i16 = match mover {
            Side::White => 1,
            Side::Black => -1,
        };
        let dr = mv.to.row as i16 - mv.from.row as i16;
        let dc = mv.to.col as i16 - mv.from.col as i16;
        if dr != forward || dc.abs() > 1 {
            return Err(IllegalMove::NotAForwardStep { mover, mv });
        }
        if self.own(mover) & to != 0 {
            return Err(IllegalMove::OntoOwnWorker { mover, mv });
        }
        let capture = self.own(mover.opponent()) & to != 0;
        if dc == 0 && capture {
            return Err(IllegalMove::StraightOntoPiece { mv });
        }
        Ok(capture)
    }

    /// Plays `mv` if it is legal; returns whether it captured. On error nothing changes.
    pub fn play(&mut self, mv: Move) -> Result<bool, IllegalMove> {
        let capture = self.check(mv)?;
        self.apply_unchecked(mv);
        Ok(capture)
    }

    /// Plays a move known to be legal (from [`Position::legal_moves`] or
    /// [`Position::nth_move`]); an illegal move leaves a position the rules cannot reach.
    #[inline]
    pub fn apply_unchecked(&mut self, mv: Move) {
        let (Some(from), Some(to)) = (self.bit(mv.from), self.bit(mv.to)) else {
            return;
        };
        let mover = self.to_move.seat();
        self.workers[mover] = (self.workers[mover] & !from) | to;
        self.workers[mover ^ 1] &= !to;
        self.to_move = self.to_move.opponent();
        self.ply += 1;
    }

    /// The side to move passes. The rules have no pass; the engine's `skip` fault policy uses
    /// this when a bot fails to answer, so the other side moves again.
    #[inline]
    pub fn pass(&mut self) {
        self.to_move = self.to_move.opponent();
        self.ply += 1;
    }

    /// `mv` as text: `b2-b3`, or `b2xc3` when it captures here.
    pub fn notation(&self, mv: Move) -> String {
        let capture = self
            .bit(mv.to)
            .is_some_and(|to| self.own(self.to_move.opponent()) & to != 0);
        format!("{}{}{}", mv.from, if capture { 'x' } else { '-' }, mv.to)
    }

    /// The board as text, highest row on top, with coordinates.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for row in (0..self.config.rows).rev() {
            let _ = write!(out, "{:>2} ", row as u32 + 1);
            for col in 0..self.config.cols {
                out.push(match self.piece_at(Square::new(row, col)) {
                    Some(side) => side.letter(),
                    None => '.',
                });
            }
            out.push('\n');
        }
        out.push_str("   ");
        for col in 0..self.config.cols {
            out.push((b'a' + col) as char);
        }
        out.push('\n');
        out
    }

    #[inline]
    fn own(&self, side: Side) -> u64 {
        self.workers[side.seat()]
    }

    #[inline]
    fn occupied(&self) -> u64 {
        self.workers[0] | self.workers[1]
    }

    #[inline]
    fn goal(&self, side: Side) -> u64 {
        self.geometry.goal(side)
    }

    #[inline]
    fn bit(&self, square: Square) -> Option<u64> {
        (square.row < self.config.rows && square.col < self.config.cols)
            .then(|| 1u64 << (square.row as u32 * self.config.cols as u32 + square.col as u32))
    }

    #[inline]
    fn steps(&self) -> Steps {
        let mover = self.to_move;
        self.geometry
            .steps(mover, self.own(mover), self.own(mover.opponent()))
    }
}

/// Whether `bits` has at least `needed` bits set, without counting them: the check runs twice
/// per side every ply of a playout, and the standard rule's `needed` of 1 then costs one test.
#[inline]
fn at_least(bits: u64, needed: u32) -> bool {
    if needed == 0 {
        return true;
    }
    let mut rest = bits;
    for _ in 1..needed {
        rest &= rest.wrapping_sub(1);
    }
    rest != 0
}
