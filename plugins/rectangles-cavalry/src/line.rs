//! Completing a line with any number of robots (the seed report's "Completing a Line"): each
//! robot on the line takes the contiguous segment around it, split from its neighbours' at the
//! midpoint, and walks to its segment's nearer end, then the farther one, then back home. The
//! costliest robot decides when the line is done; midpoints minimise that maximum.

/// The segment `[lo, hi]` of positions each robot (at `positions`, ascending) covers on the
/// line from `first` to `last`.
pub fn segments(positions: &[usize], first: usize, last: usize) -> Vec<(usize, usize)> {
    let k = positions.len();
    (0..k)
        .map(|i| {
            let lo = if i == 0 {
                first
            } else {
                (positions[i - 1] + positions[i]).div_ceil(2)
            };
            let hi = if i + 1 == k {
                last
            } else {
                (positions[i] + positions[i + 1]) / 2
            };
            (lo.min(positions[i]), hi.max(positions[i]))
        })
        .collect()
}

/// Rounds a robot at `at` needs to cover `[lo, hi]` and come back.
pub fn cost(at: usize, (lo, hi): (usize, usize)) -> usize {
    let (a, b) = (at - lo, hi - at);
    2 * a.min(b) + 2 * a.max(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_cover_the_line_once_and_split_gaps_in_the_middle() {
        let s = segments(&[0, 10, 20], 0, 20);
        assert_eq!(s, vec![(0, 5), (5, 15), (15, 20)]);
        let s = segments(&[3, 4], 0, 9);
        assert_eq!(s, vec![(0, 3), (4, 9)]);
        assert_eq!(cost(10, (5, 15)), 20);
        assert_eq!(cost(3, (0, 3)), 6);
    }
}
