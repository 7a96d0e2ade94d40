use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// One of the two players. White's home rows are the low rows (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Home rows 0 and 1, moves toward higher rows; seat 0.
    White,
    /// Home rows `rows - 2` and `rows - 1`, moves toward row 0; seat 1.
    Black,
}

impl Side {
    /// Both sides in seat order: White, then Black.
    pub const BOTH: [Side; 2] = [Side::White, Side::Black];

    /// The other side.
    #[inline]
    pub fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// Seat 0 always plays White and seat 1 Black; who moves first is the `first` parameter.
    #[inline]
    pub fn seat(self) -> usize {
        match self {
            Side::White => 0,
            Side::Black => 1,
        }
    }

    /// The side `seat` plays (0 White, 1 Black); `None` for any other seat.
    pub fn from_seat(seat: usize) -> Option<Side> {
        match seat {
            0 => Some(Side::White),
            1 => Some(Side::Black),
            _ => None,
        }
    }

    /// `W` or `B`, as [`super::Position::render`] draws the side's workers.
    pub fn letter(self) -> char {
        match self {
            Side::White => 'W',
            Side::Black => 'B',
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::White => "white",
            Side::Black => "black",
        })
    }
}

impl FromStr for Side {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        match s.to_ascii_lowercase().as_str() {
            "white" | "w" => Ok(Side::White),
            "black" | "b" => Ok(Side::Black),
            _ => Err(()),
        }
    }
}
