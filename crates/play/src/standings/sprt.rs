//! The sequential probability ratio test between two builds, on game pairs (the same seed,
//! seats swapped), as engine testers run it: a pair scores 0, 1/2, 1, 3/2 or 2 points for the
//! candidate (the pentanomial model, which counts the pairs' correlation that per-game models
//! ignore), and the generalized log-likelihood ratio of "the candidate is `elo1` stronger"
//! against "`elo0` stronger" is compared with the bounds `alpha` and `beta` give. Each
//! hypothesis's distribution is the maximum-likelihood one over the five outcomes whose mean is
//! that hypothesis's expected score (logistic Elo).

use serde::{Deserialize, Serialize};

/// What an SPRT decides between, and how sure it must be: a configuration's `[sprt]` table
/// (only `elo1` required) and a plan's format.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SprtBounds {
    /// H0: the candidate is this much stronger (logistic Elo), usually 0.
    #[serde(default)]
    pub elo0: f64,
    /// H1: the candidate is this much stronger.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    #[serde(default = "default_error_rate")]
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    #[serde(default = "default_error_rate")]
    pub beta: f64,
    /// Game pairs after which the test stops undecided.
    #[serde(default = "default_max_pairs")]
    pub max_pairs: u32,
}

/// The error rates engine testers use.
pub const DEFAULT_ERROR_RATE: f64 = 0.05;
/// Enough pairs to tell a 5-Elo gain from none in most tests.
pub const DEFAULT_MAX_PAIRS: u32 = 20_000;

fn default_error_rate() -> f64 {
    DEFAULT_ERROR_RATE
}

fn default_max_pairs() -> u32 {
    DEFAULT_MAX_PAIRS
}

impl SprtBounds {
    /// The log-likelihood ratio below which H0 is accepted, and above which H1 is.
    pub fn llr_bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Whether the bounds describe a test: `elo0 < elo1`, error rates in (0, 1/2).
    pub fn check(&self) -> Result<(), BadBounds> {
        if !(self.elo0.is_finite() && self.elo1.is_finite() && self.elo0 < self.elo1) {
            return Err(BadBounds::Elo {
                elo0: self.elo0,
                elo1: self.elo1,
            });
        }
        for (name, rate) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(rate > 0.0 && rate < 0.5) {
                return Err(BadBounds::ErrorRate { name, rate });
            }
        }
        if self.max_pairs == 0 {
            return Err(BadBounds::NoPairs);
        }
        Ok(())
    }
}

/// How many pairs ended with each score for the candidate: 0, 1/2, 1, 3/2, 2 points.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Counts a pair in which the candidate scored `points` (0 to 2).
    pub fn add(&mut self, points: f64) {
        let i = (points.clamp(0.0, 2.0) * 2.0).round() as usize;
        self.0[i] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// The log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`).
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        if self.pairs() == 0 {
            return 0.0;
        }
        // An outcome never seen would pin a hypothesis's distribution to the edge of its
        // range; a thousandth of a pair keeps every outcome possible (as fishtest does).
        let counts = self.0.map(|c| if c == 0 { 1e-3 } else { c as f64 });
        let total: f64 = counts.iter().sum();
        let observed = counts.map(|c| c / total);
        let log_likelihood = |score: f64| -> f64 {
            let fitted = fitted_distribution(&observed, score);
            counts
                .iter()
                .zip(fitted)
                .map(|(&c, p)| c * p.max(f64::MIN_POSITIVE).ln())
                .sum()
        };
        log_likelihood(expected_score(elo1)) - log_likelihood(expected_score(elo0))
    }

    /// The Elo difference the pairs show, with its 95% confidence interval.
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return (0.0, f64::NEG_INFINITY, f64::INFINITY);
        }
        let mean: f64 = (0..5).map(|i| self.0[i] as f64 * SCORES[i]).sum::<f64>() / n;
        let variance: f64 = (0..5)
            .map(|i| self.0[i] as f64 * (SCORES[i] - mean).powi(2))
            .sum::<f64>()
            / n;
        let margin = 1.96 * (variance / n).sqrt();
        (
            elo_of(mean),
            elo_of(mean - margin),
            elo_of((mean + margin).min(1.0)),
        )
    }
}

/// A pair's score as a share of its two games' points.
const SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The expected share of points of a player `elo` stronger (logistic Elo).
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

fn elo_of(score: f64) -> f64 {
    if score <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if score >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The distribution closest to `observed` (maximum likelihood) whose mean score is `score`:
/// `p_i = q_i / (1 + l (a_i - score))`, with `l` the root of `sum q_i (a_i - score) / (1 + l
/// (a_i - score)) = 0`, which decreases in `l` on the interval where every `p_i` is positive.
fn fitted_distribution(observed: &[f64; 5], score: f64) -> [f64; 5] {
    let gap = |l: f64| -> f64 {
        (0..5)
            .map(|i| observed[i] * (SCORES[i] - score) / (1.0 + l * (SCORES[i] - score)))
            .sum()
    };
    let (mut low, mut high) = (-1.0 / (1.0 - score), 1.0 / score);
    let shrink = 1e-9 * (high - low);
    (low, high) = (low + shrink, high - shrink);
    for _ in 0..100 {
        let mid = 0.5 * (low + high);
        if gap(mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    let l = 0.5 * (low + high);
    let fitted: [f64; 5] = std::array::from_fn(|i| observed[i] / (1.0 + l * (SCORES[i] - score)));
    let total: f64 = fitted.iter().sum();
    fitted.map(|p| p / total)
}

/// What the test concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The candidate is not `elo1` stronger (H0 accepted).
    H0,
    /// The candidate is `elo1` stronger than the baseline, not just `elo0` (H1 accepted).
    H1,
    /// Neither bound reached yet.
    Continue,
    /// `max_pairs` pairs played without a decision.
    Undecided,
}

/// The state of a test after some pairs, in the order they were laid out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SprtState {
    pub bounds: SprtBounds,
    pub pentanomial: Pentanomial,
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub verdict: Verdict,
}

impl SprtState {
    /// The test over `pairs` (the candidate's points in each pair), stopped at the first pair
    /// at which a bound is crossed: pairs played after it (in flight when it was decided) do
    /// not change the verdict.
    pub fn of(bounds: SprtBounds, pairs: impl IntoIterator<Item = f64>) -> SprtState {
        let (lower, upper) = bounds.llr_bounds();
        let mut state = SprtState {
            bounds,
            pentanomial: Pentanomial::default(),
            llr: 0.0,
            lower,
            upper,
            verdict: Verdict::Continue,
        };
        for points in pairs {
            state.pentanomial.add(points);
            state.llr = state.pentanomial.llr(bounds.elo0, bounds.elo1);
            state.verdict = if state.llr <= lower {
                Verdict::H0
            } else if state.llr >= upper {
                Verdict::H1
            } else if state.pentanomial.pairs() >= bounds.max_pairs as u64 {
                Verdict::Undecided
            } else {
                Verdict::Continue
            };
            if state.verdict != Verdict::Continue {
                break;
            }
        }
        state
    }
}

impl SprtState {
    /// Two lines for people: the verdict, then the ratio against its bounds, the pairs and
    /// the Elo difference they show.
    pub fn describe(&self, baseline: &str, candidate: &str) -> [String; 2] {
        let b = &self.bounds;
        let verdict = match self.verdict {
            Verdict::H1 => format!(
                "H1 accepted: {candidate} is stronger than {baseline} (by elo1 = {}, not elo0 = {})",
                b.elo1, b.elo0
            ),
            Verdict::H0 => format!(
                "H0 accepted: {candidate} is not elo1 = {} stronger than {baseline}",
                b.elo1
            ),
            Verdict::Undecided => format!("undecided after {} pairs (max_pairs)", b.max_pairs),
            Verdict::Continue => "not decided yet: `agon tournament resume` plays on".to_string(),
        };
        let (elo, low, high) = self.pentanomial.elo();
        [
            format!(
                "SPRT [{}, {}] alpha {} beta {}: {verdict}",
                b.elo0, b.elo1, b.alpha, b.beta
            ),
            format!(
                "LLR {:.2} (bounds {:.2}, {:.2}) after {} pairs {:?}; Elo {} (95%: {} to {})",
                self.llr,
                self.lower,
                self.upper,
                self.pentanomial.pairs(),
                self.pentanomial.0,
                elo_text(elo),
                elo_text(low),
                elo_text(high)
            ),
        ]
    }
}

/// An Elo difference; one side winning every game is beyond any number.
fn elo_text(elo: f64) -> String {
    if elo.is_finite() {
        format!("{elo:+.1}")
    } else if elo > 0.0 {
        "+inf (every point won)".into()
    } else {
        "-inf (every point lost)".into()
    }
}

/// Bounds that do not describe a test.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BadBounds {
    #[error("expected elo0 < elo1, got elo0 = {elo0} and elo1 = {elo1}")]
    Elo { elo0: f64, elo1: f64 },
    #[error("{name} = {rate}: expected an error rate in (0, 0.5)")]
    ErrorRate { name: &'static str, rate: f64 },
    #[error("max_pairs must be at least 1")]
    NoPairs,
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    const BOUNDS: SprtBounds = SprtBounds {
        elo0: 0.0,
        elo1: 20.0,
        alpha: 0.05,
        beta: 0.05,
        max_pairs: 100_000,
    };

    /// One game's points for a player `elo` stronger, a third of games drawn.
    fn game(rng: &mut SmallRng, elo: f64) -> f64 {
        let draw = 1.0 / 3.0;
        let win = expected_score(elo) - draw / 2.0;
        match rng.random::<f64>() {
            x if x < win => 1.0,
            x if x < win + draw => 0.5,
            _ => 0.0,
        }
    }

    /// How often `runs` seeded tests of a candidate `elo` stronger accept H1.
    fn accepted_h1(elo: f64, runs: u64) -> u64 {
        (0..runs)
            .filter(|&run| {
                let mut rng = SmallRng::seed_from_u64(run);
                let pairs = std::iter::from_fn(|| Some(game(&mut rng, elo) + game(&mut rng, elo)));
                let state = SprtState::of(BOUNDS, pairs);
                assert_ne!(state.verdict, Verdict::Continue);
                state.verdict == Verdict::H1
            })
            .count() as u64
    }

    #[test]
    fn seeded_tests_decide_with_about_the_stated_error_rates() {
        let runs = 300;
        // At elo0 a wrong H1 should come about alpha = 5% of the time; at elo1 a wrong H0
        // beta = 5% of the time; half way between, either about half the time.
        let false_h1 = accepted_h1(BOUNDS.elo0, runs);
        let false_h0 = runs - accepted_h1(BOUNDS.elo1, runs);
        let between = accepted_h1((BOUNDS.elo0 + BOUNDS.elo1) / 2.0, runs);
        assert!(
            (1..=30).contains(&false_h1),
            "false H1 {false_h1} of {runs}"
        );
        assert!(
            (1..=30).contains(&false_h0),
            "false H0 {false_h0} of {runs}"
        );
        assert!(
            (75..=225).contains(&between),
            "H1 half way: {between} of {runs}"
        );
        // A strong candidate is found out quickly, a weak one rejected.
        assert_eq!(accepted_h1(200.0, 20), 20);
        assert_eq!(accepted_h1(-200.0, 20), 0);
    }

    #[test]
    fn the_ratio_and_the_estimate_follow_the_pairs() {
        let mut even = Pentanomial::default();
        for points in [0.0, 0.5, 1.0, 1.5, 2.0, 1.0, 1.0] {
            even.add(points);
        }
        assert_eq!(even.0, [1, 1, 3, 1, 1]);
        assert!(even.llr(0.0, 20.0) < 0.0, "an even score favours elo0");
        let (elo, low, high) = even.elo();
        assert!(elo.abs() < 1e-9 && low < 0.0 && high > 0.0);
        let mut ahead = Pentanomial::default();
        for _ in 0..50 {
            ahead.add(1.5);
            ahead.add(1.0);
        }
        assert!(ahead.llr(0.0, 20.0) > 0.0);
        assert!((ahead.elo().0 - elo_of(0.625)).abs() < 1e-9);
        // The fitted distribution has the hypothesis's mean.
        let fitted = fitted_distribution(&[0.1, 0.2, 0.4, 0.2, 0.1], 0.6);
        let mean: f64 = (0..5).map(|i| fitted[i] * SCORES[i]).sum();
        assert!((mean - 0.6).abs() < 1e-9, "{mean}");
    }

    #[test]
    fn the_test_stops_at_the_first_crossing_and_at_its_limit() {
        let decided = SprtState::of(BOUNDS, std::iter::repeat_n(2.0, 1000));
        assert_eq!(decided.verdict, Verdict::H1);
        assert!(decided.pentanomial.pairs() < 100, "{decided:?}");
        let limited = SprtBounds {
            max_pairs: 10,
            ..BOUNDS
        };
        let state = SprtState::of(limited, std::iter::repeat_n(1.0, 1000));
        assert_eq!(state.verdict, Verdict::Undecided);
        assert_eq!(state.pentanomial.pairs(), 10);
        let bad = SprtBounds {
            elo1: -5.0,
            ..BOUNDS
        };
        assert_eq!(
            bad.check(),
            Err(BadBounds::Elo {
                elo0: BOUNDS.elo0,
                elo1: -5.0
            })
        );
        let careless = SprtBounds {
            alpha: 0.5,
            ..BOUNDS
        };
        assert_eq!(
            careless.check().unwrap_err().to_string(),
            "alpha = 0.5: expected an error rate in (0, 0.5)"
        );
        assert!(BOUNDS.check().is_ok());
    }
}
