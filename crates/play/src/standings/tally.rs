//! A participant's record over games (an entrant's in a tournament, a build's in a ladder): the
//! one place where a game's result becomes a win, a draw or a loss and points.

use crate::journal::{GameResult, Outcome};
use serde::Serialize;

#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Tally {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Points (1 / 0.5 / 0 in two-seat games).
    pub points: f64,
}

impl Tally {
    /// Counts the game `result` for the participant in `seat` ([`GameResult::outcome`]).
    pub fn add(&mut self, result: &GameResult, seat: usize) {
        self.games += 1;
        self.points += result.points(seat);
        match result.outcome(seat) {
            Outcome::Win => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Loss => self.losses += 1,
        }
    }

    /// Points per game, in percent (0 before any game).
    pub fn score_pct(&self) -> f64 {
        percent(self.points, self.games)
    }

    /// Wins per game, in percent.
    pub fn win_pct(&self) -> f64 {
        percent(self.wins as f64, self.games)
    }
}

fn percent(part: f64, of: u32) -> f64 {
    if of == 0 {
        0.0
    } else {
        100.0 * part / of as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(scores: &[f64], ranks: &[usize]) -> GameResult {
        GameResult::by_rules(scores, ranks, "")
    }

    #[test]
    fn a_tally_counts_games_outcomes_and_points() {
        let mut tally = Tally::default();
        assert_eq!(tally.score_pct(), 0.0);
        tally.add(&result(&[1.0, 0.0], &[]), 0);
        tally.add(&result(&[0.5, 0.5], &[]), 1);
        tally.add(&result(&[1.0, 0.0, 0.0], &[1, 2, 2]), 2);
        assert_eq!(
            tally,
            Tally {
                games: 3,
                wins: 1,
                draws: 1,
                losses: 1,
                points: 1.5
            }
        );
        assert_eq!(tally.score_pct(), 50.0);
        assert!((tally.win_pct() - 100.0 / 3.0).abs() < 1e-9);
    }
}
