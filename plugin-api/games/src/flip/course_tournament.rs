//! The Flip course's tournament format (docs/games/flip.md, "The course tournament format"):
//! which board each game of a pairing is played on.

/// The board seed of game `i` (from 0) of a pairing: game r = i + 1 is on board
/// `base + floor(r / 2)`, so games 2-3, 4-5, ... are mirrored pairs on one board, computed as
/// the course's Java code does, in 32-bit `int` arithmetic that wraps at 2^31.
pub fn course_board_seed(base: i64, i: u32) -> i64 {
    let round = (i as i64 + 1) / 2;
    (base as i32).wrapping_add(round as i32) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn course_board_seeds_wrap_like_java_ints() {
        assert_eq!(course_board_seed(42, 0), 42);
        assert_eq!(course_board_seed(42, 1), 43);
        assert_eq!(course_board_seed(42, 2), 43);
        assert_eq!(course_board_seed(42, 19), 52);
        // Java: Integer.MAX_VALUE + 1 == Integer.MIN_VALUE.
        assert_eq!(course_board_seed(i32::MAX as i64, 1), i32::MIN as i64);
        assert_eq!(
            course_board_seed(i32::MAX as i64 - 1, 5),
            i32::MIN as i64 + 1
        );
    }
}
