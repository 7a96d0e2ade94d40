/// One of the eight directions, numbered clockwise from up (rules file, "Map file"):
/// 0 up, 1 up-right, 2 right, 3 down-right, 4 down, 5 down-left, 6 left, 7 up-left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Direction(u8);

impl Direction {
    /// The eight directions in index order, 0 (up) to 7 (up-left).
    pub const ALL: [Direction; 8] = [
        Direction(0),
        Direction(1),
        Direction(2),
        Direction(3),
        Direction(4),
        Direction(5),
        Direction(6),
        Direction(7),
    ];

    /// The direction numbered `index`; `None` unless `index` is 0 to 7.
    pub fn new(index: u8) -> Option<Direction> {
        (index < 8).then_some(Direction(index))
    }

    /// The direction's number, 0 to 7, as maps write it.
    pub fn index(self) -> u8 {
        self.0
    }

    /// The opposite direction: a transition entered through an end in direction r continues
    /// in direction (r + 4) mod 8 (rules file, "Map file").
    pub fn reverse(self) -> Direction {
        Direction((self.0 + 4) % 8)
    }

    /// The step (dx, dy) with y growing downward (row 0 is the top).
    pub fn offset(self) -> (i64, i64) {
        match self.0 {
            0 => (0, -1),
            1 => (1, -1),
            2 => (1, 0),
            3 => (1, 1),
            4 => (0, 1),
            5 => (-1, 1),
            6 => (-1, 0),
            _ => (-1, -1),
        }
    }
}

impl std::fmt::Display for Direction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}
