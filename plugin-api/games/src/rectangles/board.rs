//! The grid: each cell unpainted, painted in one player's colour, or filled (rules file,
//! "Setup").

use serde::{Deserialize, Serialize};

/// A cell by row (0 is North) and column (0 is West).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Cell {
    /// The row from 0, the North edge; South is toward higher rows.
    pub row: u16,
    /// The column from 0, the West edge; East is toward higher columns.
    pub col: u16,
}

impl Cell {
    /// The cell at `row`, `col` (not checked against any board; each is cut to 16 bits).
    pub fn new(row: usize, col: usize) -> Cell {
        Cell {
            row: row as u16,
            col: col as u16,
        }
    }

    /// The first step of a shortest walk to `to`: along the longer axis first, Stay when there.
    pub fn step_toward(self, to: Cell) -> super::Direction {
        use super::Direction::*;
        let (dr, dc) = (
            to.row as i32 - self.row as i32,
            to.col as i32 - self.col as i32,
        );
        match (dr.signum(), dc.signum()) {
            (0, 0) => Stay,
            (r, c) if dr.abs() >= dc.abs() && r != 0 || c == 0 => {
                if r > 0 {
                    South
                } else {
                    North
                }
            }
            (_, c) => {
                if c > 0 {
                    East
                } else {
                    West
                }
            }
        }
    }

    /// The cell one step in `direction`, or this one when the step would leave an n x n board.
    pub fn stepped(self, direction: super::Direction, n: usize) -> Cell {
        let (dr, dc) = direction.delta();
        let (row, col) = (self.row as i32 + dr, self.col as i32 + dc);
        if row >= 0 && col >= 0 && (row as usize) < n && (col as usize) < n {
            Cell::new(row as usize, col as usize)
        } else {
            self
        }
    }

    /// City-block distance, the number of rounds a robot needs to go from one to the other.
    pub fn distance(self, other: Cell) -> usize {
        (self.row as i32 - other.row as i32).unsigned_abs() as usize
            + (self.col as i32 - other.col as i32).unsigned_abs() as usize
    }
}

/// What a cell holds, as one byte (the protocol sends the board this way): `UNPAINTED`,
/// `1 + player` for a player's colour, or `FILLED`.
pub type Paint = u8;
/// A cell in no colour: never painted, or left by robots of several players (rules file, "A
/// round", 3).
pub const UNPAINTED: Paint = 0;
/// A claimed interior cell ("black"): it takes no paint any more and never scores again (rules
/// file, "Setup" and "A round", 4).
pub const FILLED: Paint = 255;

/// The colour byte of `player` (0-based).
pub fn colour(player: usize) -> Paint {
    1 + player as Paint
}

/// An n x n board of paint.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    n: usize,
    cells: Vec<Paint>,
}

impl Board {
    /// An n x n board with every cell unpainted.
    pub fn new(n: usize) -> Board {
        Board {
            n,
            cells: vec![UNPAINTED; n * n],
        }
    }

    /// A board from its cells in row-major order; `None` unless there are n x n of them and
    /// each is unpainted, filled or a colour of one of `players`.
    pub fn from_cells(n: usize, players: usize, cells: Vec<Paint>) -> Option<Board> {
        let valid = |&p: &Paint| p == UNPAINTED || p == FILLED || (p as usize) <= players;
        (cells.len() == n * n && cells.iter().all(valid)).then_some(Board { n, cells })
    }

    /// The board's side: it has n rows and n columns.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Every cell's paint in row-major order, row 0 (North) first: cell (r, c) is at
    /// `r * n + c`.
    pub fn cells(&self) -> &[Paint] {
        &self.cells
    }

    /// The paint at `row`, `col`, which must be on the board: not checked, a row off the board
    /// panics and a column off it reads a later row's cell (or panics past the last).
    pub fn at(&self, row: usize, col: usize) -> Paint {
        self.cells[row * self.n + col]
    }

    /// The paint on `cell`, which must be on the board (as for [`Board::at`]).
    pub fn get(&self, cell: Cell) -> Paint {
        self.at(cell.row as usize, cell.col as usize)
    }

    /// Puts `paint` on `cell`, whatever it held (filled cells included: no rule is applied);
    /// `cell` must be on the board (as for [`Board::at`]).
    pub fn set(&mut self, cell: Cell, paint: Paint) {
        let n = self.n;
        self.cells[cell.row as usize * n + cell.col as usize] = paint;
    }

    /// The board as text, one line per row: `.` unpainted, `#` filled, `a`, `b`, ... a player's
    /// colour.
    pub fn render(&self) -> String {
        let mut text = String::with_capacity(self.n * (self.n + 1));
        for row in self.cells.chunks(self.n.max(1)) {
            text.extend(row.iter().map(|&p| paint_char(p)));
            text.push('\n');
        }
        text
    }
}

/// One cell as `render` writes it.
pub fn paint_char(paint: Paint) -> char {
    match paint {
        UNPAINTED => '.',
        FILLED => '#',
        p => (b'a' + (p - 1)) as char,
    }
}
