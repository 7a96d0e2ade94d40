use super::Bits;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// The largest side and the most cells an instance may have (memory stays in megabytes).
pub const MAX_SIDE: usize = 4096;
pub const MAX_CELLS: usize = 16 << 20;

/// A click outside the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("click ({}, {}) is off the {rows} x {cols} board", click.row, click.col)]
pub struct OffBoard {
    /// The click refused.
    pub click: Click,
    /// The board's rows.
    pub rows: usize,
    /// The board's columns.
    pub cols: usize,
}

/// A Lights Out board: `true` is black (lit).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    rows: usize,
    cols: usize,
    lights: Vec<Bits>,
}

/// A click, by row and column from the top left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Click {
    /// The row, from 0 at the top.
    pub row: u32,
    /// The column, from 0 at the left.
    pub col: u32,
}

/// Why a text is not a board: where, and what was expected.
pub type ParseError = crate::text_error::TextError;

impl Board {
    /// An all-white board.
    pub fn new(rows: usize, cols: usize) -> Board {
        Board {
            rows,
            cols,
            lights: vec![Bits::zeros(cols); rows],
        }
    }

    /// The board that clicking every cell `clicked` chooses leaves (so it is solvable): how
    /// tests and benchmarks make random solvable boards.
    pub fn clicked(
        rows: usize,
        cols: usize,
        mut clicked: impl FnMut(usize, usize) -> bool,
    ) -> Board {
        let mut board = Board::new(rows, cols);
        for r in 0..rows {
            for c in 0..cols {
                if clicked(r, c) {
                    board
                        .click(Click {
                            row: r as u32,
                            col: c as u32,
                        })
                        .expect("on the board");
                }
            }
        }
        board
    }

    /// A board from rows of bits (all of length `cols`).
    pub fn from_rows(cols: usize, lights: Vec<Bits>) -> Board {
        assert!(
            lights.iter().all(|r| r.len() == cols),
            "rows of {cols} bits"
        );
        Board {
            rows: lights.len(),
            cols,
            lights,
        }
    }

    /// Parses the instance format (module docs).
    pub fn parse(text: &str) -> Result<Board, ParseError> {
        let lines: Vec<&str> = text
            .trim_end_matches(['\n', '\r', ' ', '\t'])
            .split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .collect();
        if lines.len() == 1 && lines[0].is_empty() {
            return Err(ParseError {
                line: 1,
                column: 1,
                problem: "the board is empty".into(),
            });
        }
        let cols = lines[0].chars().count();
        if lines.len() > MAX_SIDE || cols > MAX_SIDE || lines.len() * cols > MAX_CELLS {
            return Err(ParseError {
                line: 1,
                column: 1,
                problem: format!(
                    "{} x {cols} is larger than the supported {MAX_SIDE} x {MAX_SIDE} (at most {MAX_CELLS} cells)",
                    lines.len()
                ),
            });
        }
        let mut board = Board::new(lines.len(), cols);
        for (r, line) in lines.iter().enumerate() {
            let n = line.chars().count();
            if n != cols {
                return Err(ParseError {
                    line: r + 1,
                    column: n.min(cols) + 1,
                    problem: format!("this row has {n} cells, the first row {cols}"),
                });
            }
            for (c, ch) in line.chars().enumerate() {
                match ch {
                    '.' | '0' => {}
                    '#' | '1' => board.lights[r].set(c, true),
                    other => {
                        return Err(ParseError {
                            line: r + 1,
                            column: c + 1,
                            problem: format!(
                                "`{other}` is not a cell (expected `.` or `0` for white, `#` or `1` for black)"
                            ),
                        })
                    }
                }
            }
        }
        Ok(board)
    }

    /// Rows of the board.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns of the board.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Row `r` as bits, bit `c` the cell in column `c` (`true` black); panics off the board.
    pub fn row(&self, r: usize) -> &Bits {
        &self.lights[r]
    }

    /// Whether cell (`r`, `c`) is black; the cell must be on the board (as for [`Bits::get`]).
    pub fn get(&self, r: usize, c: usize) -> bool {
        self.lights[r].get(c)
    }

    /// Makes cell (`r`, `c`) black (`true`) or white, without flipping its neighbours (that is
    /// [`Board::click`]); the cell must be on the board (as for [`Bits::set`]).
    pub fn set(&mut self, r: usize, c: usize, value: bool) {
        self.lights[r].set(c, value);
    }

    /// Clicks a cell: it and its orthogonal neighbours flip. Off-board clicks are refused.
    pub fn click(&mut self, click: Click) -> Result<(), OffBoard> {
        let (r, c) = (click.row as usize, click.col as usize);
        if r >= self.rows || c >= self.cols {
            return Err(OffBoard {
                click,
                rows: self.rows,
                cols: self.cols,
            });
        }
        self.lights[r].flip(c);
        if c > 0 {
            self.lights[r].flip(c - 1);
        }
        if c + 1 < self.cols {
            self.lights[r].flip(c + 1);
        }
        if r > 0 {
            self.lights[r - 1].flip(c);
        }
        if r + 1 < self.rows {
            self.lights[r + 1].flip(c);
        }
        Ok(())
    }

    /// Whether every cell is white: the goal (rules file, "Lights Out").
    pub fn is_clear(&self) -> bool {
        self.lights.iter().all(Bits::is_zero)
    }

    /// The number of black cells (for a click pattern: the number of clicks).
    pub fn black_cells(&self) -> usize {
        self.lights.iter().map(Bits::count_ones).sum()
    }

    /// The set cells as clicks, row by row.
    pub fn cells(&self) -> Vec<Click> {
        self.lights
            .iter()
            .enumerate()
            .flat_map(|(r, bits)| {
                bits.ones().map(move |c| Click {
                    row: r as u32,
                    col: c as u32,
                })
            })
            .collect()
    }

    /// The `cols x rows` board with cell (r, c) of this one at (c, r). A board is solvable
    /// exactly when its transpose is: the grid is the same, its cells renamed.
    pub fn transpose(&self) -> Board {
        let mut t = Board::new(self.cols, self.rows);
        for (r, bits) in self.lights.iter().enumerate() {
            for c in bits.ones() {
                t.lights[c].set(r, true);
            }
        }
        t
    }

    /// The board in the instance format.
    pub fn render(&self) -> String {
        let mut out = String::with_capacity(self.rows * (self.cols + 1));
        for bits in &self.lights {
            for c in 0..self.cols {
                out.push(if bits.get(c) { '#' } else { '.' });
            }
            out.push('\n');
        }
        out
    }

    /// A compact summary for messages: size and black cells.
    pub fn describe(&self) -> String {
        let mut s = String::new();
        let _ = write!(
            s,
            "{} x {} board, {} black",
            self.rows,
            self.cols,
            self.black_cells()
        );
        s
    }
}
