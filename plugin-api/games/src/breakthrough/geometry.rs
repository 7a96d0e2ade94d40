use super::bit_select::RunningCounts;
use super::{Config, Move, Side, Square};

/// Masks and rotations derived from the board size once, so move generation is a handful of
/// rotations without a branch on the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct Geometry {
    cols: u32,
    board: u64,
    not_first_col: u64,
    not_last_col: u64,
    /// Per seat, the opponent's home row, where the seat's workers score: White's is row
    /// `rows - 1`, Black's row 0.
    goal: [u64; 2],
    /// Per seat, the left rotations that move a worker one step forward: straight, toward
    /// column `a`, away from it. Black steps to lower indices: a rotation by `64 - d` is a shift
    /// right by `d`, and no worker that may step wraps around (see [`Geometry::steps`]).
    forward: [[u32; 3]; 2],
}

/// `SQUARES[cols][index]`: the square of bit `index` on a board of `cols` columns, for every
/// column count the notation allows (up to 26; the table has 32 so a mask keeps the index in
/// range). A playout turns two bit indices into squares every ply; a division there costs
/// several times a load.
static SQUARES: [[Square; 64]; 32] = square_tables();

const fn square_tables() -> [[Square; 64]; 32] {
    let mut tables = [[Square::new(0, 0); 64]; 32];
    let mut cols = 1;
    while cols < 32 {
        let mut index = 0;
        while index < 64 {
            tables[cols][index] = Square::new((index / cols) as u8, (index % cols) as u8);
            index += 1;
        }
        cols += 1;
    }
    tables
}

/// The destinations of the side to move, as bit sets per direction (straight, toward column
/// `a`, away from it), with the left rotation that took each origin to its destination.
#[derive(Debug, Clone, Copy)]
pub(super) struct Steps {
    pub(super) targets: [u64; 3],
    pub(super) rotations: [u32; 3],
}

impl Steps {
    /// Running counts of each direction's destinations (straight, toward column `a`, away from
    /// it), shared by counting and selecting; all three at once, so a playout's chain from one
    /// ply to the next does not wait for the chosen direction before counting.
    #[inline]
    pub(super) fn running_counts(&self) -> [RunningCounts; 3] {
        let [straight, left, right] = self.targets;
        [
            RunningCounts::of(straight),
            RunningCounts::of(left),
            RunningCounts::of(right),
        ]
    }

    #[inline]
    pub(super) fn count(&self) -> u32 {
        let [straight, left, right] = self.running_counts();
        straight.total() + left.total() + right.total()
    }

    #[inline]
    pub(super) fn any(&self) -> bool {
        let [straight, left, right] = self.targets;
        straight | left | right != 0
    }
}

impl Geometry {
    pub(super) fn new(config: &Config) -> Geometry {
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
            cols,
            board,
            not_first_col: board & !first_col,
            not_last_col: board & !last_col,
            goal: [first_row << ((config.rows as u32 - 1) * cols), first_row],
            forward: [
                [cols, cols - 1, cols + 1],
                [64 - cols, 64 - (cols + 1), 64 - (cols - 1)],
            ],
        }
    }

    /// The square of bit `index` (0 to 63).
    #[inline]
    pub(super) fn square(&self, index: u32) -> Square {
        SQUARES[self.cols as usize & 31][index as usize & 63]
    }

    /// The move onto bit `to` by a worker that got there by a left rotation of `rotation`.
    #[inline]
    pub(super) fn step(&self, to: u32, rotation: u32) -> Move {
        let from = to.wrapping_sub(rotation) % 64;
        Move::new(self.square(from), self.square(to))
    }

    /// The opponent's home row, where `side`'s workers score.
    #[inline]
    pub(super) fn goal(&self, side: Side) -> u64 {
        self.goal[side.seat()]
    }

    /// Destination sets of `mover`'s workers `own` against `other` (rules file, "Moves"):
    /// straight only onto empty squares, diagonally onto empty or enemy squares; workers at the
    /// base stay put. Workers that may step are off the goal row (and off the edge column a
    /// diagonal leaves), so their step stays on the board and a rotation acts as a shift.
    #[inline]
    pub(super) fn steps(&self, mover: Side, own: u64, other: u64) -> Steps {
        let empty = self.board & !(own | other);
        let open = self.board & !own;
        let movers = own & !self.goal(mover);
        let rotations = self.forward[mover.seat()];
        let [straight, left, right] = rotations;
        Steps {
            targets: [
                movers.rotate_left(straight) & empty,
                (movers & self.not_first_col).rotate_left(left) & open,
                (movers & self.not_last_col).rotate_left(right) & open,
            ],
            rotations,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table stands in for a division: it must agree on every square of every board shape
    /// the bitboard admits.
    #[test]
    fn square_of_an_index_matches_division_on_every_board() {
        for cols in 2u8..=16 {
            let rows = 64 / cols;
            let config = Config {
                rows,
                cols,
                ..Config::STANDARD
            };
            let g = Geometry::new(&config);
            for index in 0..64u32 {
                let expected =
                    Square::new((index / cols as u32) as u8, (index % cols as u32) as u8);
                assert_eq!(g.square(index), expected, "index {index}, {cols} columns");
            }
        }
    }
}
