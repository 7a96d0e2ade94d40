use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A square by row (0 = White's back row) and column (0 = column `a`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Square {
    /// The row from 0, White's back row (notation rank `row + 1`).
    pub row: u8,
    /// The column from 0, column `a`.
    pub col: u8,
}

impl Square {
    /// The square at `row`, `col` (not checked against any board).
    pub const fn new(row: u8, col: u8) -> Square {
        Square { row, col }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.col < 26 {
            write!(f, "{}{}", (b'a' + self.col) as char, self.row as u32 + 1)
        } else {
            write!(f, "?{}:{}", self.col, self.row as u32 + 1)
        }
    }
}

/// Text that is not a square (a lowercase column letter and a row number from 1, like `e2`)
/// or not a move of two such squares; holds the text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a square (expected a column letter and a row number, like `e2`)")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let err = || ParseSquareError(s.to_string());
        let mut chars = s.chars();
        let letter = chars.next().ok_or_else(err)?;
        if !letter.is_ascii_lowercase() {
            return Err(err());
        }
        let number: u32 = chars.as_str().parse().map_err(|_| err())?;
        if number == 0 || number > 256 {
            return Err(err());
        }
        Ok(Square::new((number - 1) as u8, letter as u8 - b'a'))
    }
}
