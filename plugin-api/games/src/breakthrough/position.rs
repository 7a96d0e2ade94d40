use super::{Config, EndReason, IllegalMove, Move, Outcome, Side, Square};
use std::fmt::Write as _;

/// A Breakthrough position: two bitboards (bit `row * cols + col`), the side to move and the
/// number of plies played. Positions are small `Copy` values; rules are methods that never fail
/// halfway: `play` either applies a legal move completely or changes nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    white: u64,
    black: u64,
    to_move: Side,
    ply: u32,
    config: Config,
    geometry: Geometry,
}

/// Masks derived from the board size once, so move generation is a handful of shifts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Geometry {
    board: u64,
    not_first_col: u64,
    not_last_col: u64,
    /// Row `rows - 1`: Black's home row, where White's workers score.
    white_goal: u64,
    /// Row 0: White's home row, where Black's workers score.
    black_goal: u64,
}

impl Geometry {
    fn new(config: &Config) -> Geometry {
        let cols = config.cols as u32;
        let squares = config.squares();
        let board = if squares == 64 {
            u64::MAX
        } else {
            (1u64 << squares) - 1
        };
        let mut first_col = 0u64;
        for row in 0..config.rows as u32 {
            first_col |= 1u64 << (row * cols);
        }
        let last_col = first_col << (cols - 1);
        let first_row = (1u64 << cols) - 1;
        Geometry {
            board,
            not_first_col: board & !first_col,
            not_last_col: board & !last_col,
            white_goal: first_row << ((config.rows as u32 - 1) * cols),
            black_goal: first_row,
        }
    }
}

/// The three step directions as bit sets of destination squares.
struct Steps {
    straight: u64,
    /// Toward column `a`.
    left: u64,
    /// Away from column `a`.
    right: u64,
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
            white: two_rows,
            black,
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
            white: 0,
            black: 0,
            to_move,
            ply,
            config,
            geometry: Geometry::new(&config),
        };
        for (square, side) in pieces {
            let bit = position
                .bit(square)
                .ok_or_else(|| format!("{square} is off the board"))?;
            if (position.white | position.black) & bit != 0 {
                return Err(format!("{square} is listed twice"));
            }
            match side {
                Side::White => position.white |= bit,
                Side::Black => position.black |= bit,
            }
        }
        Ok(position)
    }

    /// The game's parameters (board size, `workers_to_base`, move limit).
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The side whose move it is (the side that would move next, once the game is over).
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// Plies played so far.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Whose worker stands on `square`; `None` for an empty square or one off the board.
    pub fn piece_at(&self, square: Square) -> Option<Side> {
        let bit = self.bit(square)?;
        if self.white & bit != 0 {
            Some(Side::White)
        } else if self.black & bit != 0 {
            Some(Side::Black)
        } else {
            None
        }
    }

    /// Workers `side` has left on the board.
    pub fn workers(&self, side: Side) -> u32 {
        self.own(side).count_ones()
    }

    /// Workers of `side` standing on the opponent's home row.
    pub fn workers_at_base(&self, side: Side) -> u32 {
        (self.own(side) & self.goal(side)).count_ones()
    }

    /// Every occupied square with its owner, row by row from row 0.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Side)> + '_ {
        let cols = self.config.cols;
        (0..self.config.squares()).filter_map(move |i| {
            let bit = 1u64 << i;
            let square = Square::new((i / cols as u32) as u8, (i % cols as u32) as u8);
            if self.white & bit != 0 {
                Some((square, Side::White))
            } else if self.black & bit != 0 {
                Some((square, Side::Black))
            } else {
                None
            }
        })
    }

    /// How the game ended, or `None` while it goes on (rules file, "Winning" and "Moves").
    /// A base reached or an army too small decides first; then the move limit; then a player
    /// to move without a legal move loses.
    pub fn outcome(&self) -> Option<Outcome> {
        let needed = self.config.workers_to_base as u32;
        // The side that just moved is checked first: only its move can have changed anything.
        let mover = self.to_move.opponent();
        for side in [mover, self.to_move] {
            if self.workers_at_base(side) >= needed {
                return Some(Outcome {
                    winner: Some(side),
                    reason: EndReason::ReachedBase,
                });
            }
            if self.workers(side.opponent()) < needed {
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
        if self.move_count() == 0 {
            return Some(Outcome {
                winner: Some(mover),
                reason: EndReason::NoLegalMove,
            });
        }
        None
    }

    /// The number of legal moves of the side to move (not checking whether the game is over).
    pub fn move_count(&self) -> u32 {
        let s = self.steps();
        s.straight.count_ones() + s.left.count_ones() + s.right.count_ones()
    }

    /// The legal moves of the side to move, straight steps first, then toward column `a`, then
    /// away from it, each in square order (not checking whether the game is over).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(self.move_count() as usize);
        let s = self.steps();
        for (targets, shift) in [
            (s.straight, self.forward_shift(0)),
            (s.left, self.forward_shift(-1)),
            (s.right, self.forward_shift(1)),
        ] {
            let mut t = targets;
            while t != 0 {
                let to = t.trailing_zeros() as i32;
                moves.push(Move::new(self.square(to - shift), self.square(to)));
                t &= t - 1;
            }
        }
        moves
    }

    /// The `n`th move of [`Position::legal_moves`] without building the list (for playouts).
    /// Returns `None` when `n >= move_count()`.
    pub fn nth_move(&self, n: u32) -> Option<Move> {
        let s = self.steps();
        let mut n = n;
        for (targets, shift) in [
            (s.straight, self.forward_shift(0)),
            (s.left, self.forward_shift(-1)),
            (s.right, self.forward_shift(1)),
        ] {
            let count = targets.count_ones();
            if n < count {
                let mut t = targets;
                for _ in 0..n {
                    t &= t - 1;
                }
                let to = t.trailing_zeros() as i32;
                return Some(Move::new(self.square(to - shift), self.square(to)));
            }
            n -= count;
        }
        None
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
    pub fn apply_unchecked(&mut self, mv: Move) {
        let (Some(from), Some(to)) = (self.bit(mv.from), self.bit(mv.to)) else {
            return;
        };
        match self.to_move {
            Side::White => {
                self.white = (self.white & !from) | to;
                self.black &= !to;
            }
            Side::Black => {
                self.black = (self.black & !from) | to;
                self.white &= !to;
            }
        }
        self.to_move = self.to_move.opponent();
        self.ply += 1;
    }

    /// The side to move passes. The rules have no pass; the engine's `skip` fault policy uses
    /// this when a bot fails to answer, so the other side moves again.
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

    fn own(&self, side: Side) -> u64 {
        match side {
            Side::White => self.white,
            Side::Black => self.black,
        }
    }

    fn goal(&self, side: Side) -> u64 {
        match side {
            Side::White => self.geometry.white_goal,
            Side::Black => self.geometry.black_goal,
        }
    }

    fn bit(&self, square: Square) -> Option<u64> {
        (square.row < self.config.rows && square.col < self.config.cols)
            .then(|| 1u64 << (square.row as u32 * self.config.cols as u32 + square.col as u32))
    }

    fn square(&self, index: i32) -> Square {
        let cols = self.config.cols as i32;
        Square::new((index / cols) as u8, (index % cols) as u8)
    }

    /// The index difference of a forward step toward column `a` (-1), straight (0) or away (1).
    fn forward_shift(&self, col_delta: i32) -> i32 {
        let cols = self.config.cols as i32;
        match self.to_move {
            Side::White => cols + col_delta,
            Side::Black => -cols + col_delta,
        }
    }

    /// Destination sets of the side to move (rules file, "Moves"): straight only onto empty
    /// squares, diagonally onto empty or enemy squares; workers at the base stay put.
    fn steps(&self) -> Steps {
        let g = &self.geometry;
        let empty = g.board & !(self.white | self.black);
        let cols = self.config.cols as u32;
        match self.to_move {
            Side::White => {
                let movers = self.white & !g.white_goal;
                let open = g.board & !self.white;
                Steps {
                    straight: (movers << cols) & empty,
                    left: ((movers & g.not_first_col) << (cols - 1)) & open,
                    right: ((movers & g.not_last_col) << (cols + 1)) & open,
                }
            }
            Side::Black => {
                let movers = self.black & !g.black_goal;
                let open = g.board & !self.black;
                Steps {
                    straight: (movers >> cols) & empty,
                    left: ((movers & g.not_first_col) >> (cols + 1)) & open,
                    right: ((movers & g.not_last_col) >> (cols - 1)) & open,
                }
            }
        }
    }
}
