use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A square by row (0 = White's back row) and column (0 = column `a`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Square {
    pub row: u8,
    pub col: u8,
}

impl Square {
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
