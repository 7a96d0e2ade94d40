//! A robot's move for one round (rules file, "A round", 1).

use serde::{Deserialize, Serialize};

/// One robot's move. Row 0 is North (rules file, "A round", 1, ours).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Direction {
    /// One row up, toward row 0.
    North,
    /// One row down, toward higher rows.
    South,
    /// One column right, toward higher columns.
    East,
    /// One column left, toward column 0.
    West,
    /// No move.
    Stay,
}

impl Direction {
    /// The five moves: North, South, East, West, Stay.
    pub const ALL: [Direction; 5] = [
        Direction::North,
        Direction::South,
        Direction::East,
        Direction::West,
        Direction::Stay,
    ];

    /// The letter records write: `N`, `S`, `E`, `W`, or `-` for Stay.
    pub fn letter(self) -> char {
        match self {
            Direction::North => 'N',
            Direction::South => 'S',
            Direction::East => 'E',
            Direction::West => 'W',
            Direction::Stay => '-',
        }
    }

    /// The move a record's letter names ([`Direction::letter`]); `None` for any other
    /// character.
    pub fn from_letter(letter: char) -> Option<Direction> {
        Direction::ALL.into_iter().find(|d| d.letter() == letter)
    }

    /// The move that undoes this one (Stay for Stay).
    pub fn opposite(self) -> Direction {
        match self {
            Direction::North => Direction::South,
            Direction::South => Direction::North,
            Direction::East => Direction::West,
            Direction::West => Direction::East,
            Direction::Stay => Direction::Stay,
        }
    }

    /// The change of (row, column) this move asks for.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Direction::North => (-1, 0),
            Direction::South => (1, 0),
            Direction::East => (0, 1),
            Direction::West => (0, -1),
            Direction::Stay => (0, 0),
        }
    }
}
