//! Batch Bradley-Terry ratings on the Elo scale, with 95% confidence intervals.
//!
//! Strengths are fitted by Hunter's minorization-maximization algorithm (2004). Every entrant
//! also has one virtual win and one virtual loss against a fixed 1500-rated opponent: without
//! that prior, an entrant that won (or lost) every game has no finite maximum-likelihood
//! rating. Intervals come from the inverse of the observed Fisher information.

/// Rating of the virtual opponent, and the scale: 400 Elo points per factor of 10 in odds.
const ANCHOR: f64 = 1500.0;
const PRIOR_GAMES: f64 = 2.0;
/// The two-sided 95% quantile of the normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

/// `wins[i][j]`: points entrant `i` scored against `j` (a draw is half a point each way);
/// `games[i][j]`: games between them that count.
pub fn bradley_terry(wins: &[Vec<f64>], games: &[Vec<f64>]) -> Vec<Rating> {
    let n = wins.len();
    let total_wins: Vec<f64> = (0..n)
        .map(|i| wins[i].iter().sum::<f64>() + PRIOR_GAMES / 2.0)
        .collect();
    let mut gamma = vec![1.0f64; n];
    for _ in 0..100_000 {
        let mut change = 0.0f64;
        for i in 0..n {
            let mut denominator = PRIOR_GAMES / (gamma[i] + 1.0);
            for j in 0..n {
                if i != j && games[i][j] > 0.0 {
                    denominator += games[i][j] / (gamma[i] + gamma[j]);
                }
            }
            let next = total_wins[i] / denominator;
            change = change.max((next / gamma[i]).ln().abs());
            gamma[i] = next;
        }
        if change < 1e-12 {
            break;
        }
    }
    // Observed information in log-strength units.
    let mut information = vec![vec![0.0f64; n]; n];
    for i in 0..n {
        let p = gamma[i] / (gamma[i] + 1.0);
        information[i][i] += PRIOR_GAMES * p * (1.0 - p);
        for j in 0..n {
            if i != j && games[i][j] > 0.0 {
                let p = gamma[i] / (gamma[i] + gamma[j]);
                let v = games[i][j] * p * (1.0 - p);
                information[i][i] += v;
                information[i][j] -= v;
            }
        }
    }
    let covariance = invert(information);
    let scale = 400.0 / std::f64::consts::LN_10;
    (0..n)
        .map(|i| {
            let elo = ANCHOR + scale * gamma[i].ln();
            let se = covariance
                .as_ref()
                .map_or(f64::NAN, |c| c[i][i].max(0.0).sqrt() * scale);
            Rating {
                elo,
                low: elo - Z95 * se,
                high: elo + Z95 * se,
            }
        })
        .collect()
}

/// Gauss-Jordan inversion with partial pivoting; `None` for a singular matrix.
fn invert(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut inverse: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        inverse.swap(col, pivot);
        let d = a[col][col];
        for k in 0..n {
            a[col][k] /= d;
            inverse[col][k] /= d;
        }
        for row in 0..n {
            if row != col {
                let f = a[row][col];
                if f != 0.0 {
                    for k in 0..n {
                        a[row][k] -= f * a[col][k];
                        inverse[row][k] -= f * inverse[col][k];
                    }
                }
            }
        }
    }
    Some(inverse)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_records_give_equal_ratings_at_the_anchor() {
        let wins = vec![vec![0.0, 5.0], vec![5.0, 0.0]];
        let games = vec![vec![0.0, 10.0], vec![10.0, 0.0]];
        let r = bradley_terry(&wins, &games);
        assert!((r[0].elo - 1500.0).abs() < 1e-6 && (r[1].elo - 1500.0).abs() < 1e-6);
        assert!(r[0].low < 1500.0 && r[0].high > 1500.0);
    }

    #[test]
    fn a_stronger_entrant_rates_higher_and_more_games_narrow_the_interval() {
        let r = |n: f64| {
            bradley_terry(
                &[vec![0.0, 0.75 * n], vec![0.25 * n, 0.0]],
                &[vec![0.0, n], vec![n, 0.0]],
            )
        };
        let few = r(8.0);
        let many = r(800.0);
        assert!(few[0].elo > few[1].elo);
        // 75% expected score is about 191 Elo apart; the prior shrinks small samples.
        let gap = many[0].elo - many[1].elo;
        assert!((gap - 190.8).abs() < 3.0, "{gap}");
        assert!(many[0].high - many[0].low < few[0].high - few[0].low);
    }

    #[test]
    fn a_perfect_record_still_has_a_finite_rating() {
        let r = bradley_terry(
            &[vec![0.0, 6.0], vec![0.0, 0.0]],
            &[vec![0.0, 6.0], vec![6.0, 0.0]],
        );
        assert!(r
            .iter()
            .all(|x| x.elo.is_finite() && x.low.is_finite() && x.high.is_finite()));
        assert!(r[0].elo > 1600.0 && r[1].elo < 1400.0);
    }
}
