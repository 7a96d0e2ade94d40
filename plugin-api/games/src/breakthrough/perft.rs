use super::Position;

/// The number of move sequences of length `depth` from `position` ("perft"). Sequences stop at
/// finished games, as in the rules file's check values ("Move-generation check values").
pub fn perft(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if position.outcome().is_some() {
        return 0;
    }
    if depth == 1 {
        return position.move_count() as u64;
    }
    position
        .moves()
        .map(|mv| {
            let mut next = *position;
            next.apply_unchecked(mv);
            perft(&next, depth - 1)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::breakthrough::Config;

    /// Rules file, "Move-generation check values": 8x8, White first.
    #[test]
    fn perft_standard_board_matches_the_rules_file() {
        let start = Position::start(Config::STANDARD);
        assert_eq!(perft(&start, 1), 22);
        assert_eq!(perft(&start, 2), 484);
        assert_eq!(perft(&start, 3), 11_132);
        assert_eq!(perft(&start, 4), 256_036);
    }

    /// The extended boards have no published counts; depth 1 and 2 follow from the geometry
    /// (each of the `cols` front workers has 3 steps, the two edge workers 2).
    #[test]
    fn perft_extended_boards_follow_the_geometry() {
        for (rows, cols) in [(5u8, 10u8), (10, 5)] {
            let config = Config {
                rows,
                cols,
                ..Config::STANDARD
            };
            let start = Position::start(config);
            let first = 3 * cols as u64 - 2;
            assert_eq!(perft(&start, 1), first, "{rows}x{cols}");
            // On 5 rows the fronts are one empty row apart: each White step blocks exactly one
            // straight Black step.
            let second = if rows > 5 {
                first * first
            } else {
                first * (first - 1)
            };
            assert_eq!(perft(&start, 2), second, "{rows}x{cols}");
        }
    }
}
