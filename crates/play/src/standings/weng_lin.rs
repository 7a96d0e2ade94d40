//! Weng-Lin ratings (the Bayesian approximation behind OpenSkill), one per build, updated game
//! by game and for any number of seats: the ladder never has a finished set of games to fit at
//! once, as a tournament's Bradley-Terry does. A build is ranked by its conservative rating
//! mu - 3 sigma, which a build with few games cannot top by luck.
//!
//! A slot's new build starts from the mu of the slot's last rated build with the full initial
//! sigma: it probably plays about as well as the build it replaces, but nothing is known yet.

use serde::Serialize;
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;
use std::collections::BTreeMap;

/// How many sigmas the conservative rating subtracts.
pub const CONSERVATIVE_SIGMAS: f64 = 3.0;

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rated {
    pub mu: f64,
    pub sigma: f64,
    pub conservative: f64,
}

#[derive(Debug, Default)]
pub struct Ratings {
    by_build: BTreeMap<(String, u32), WengLinRating>,
    /// Each slot's most recently rated build.
    last_of_slot: BTreeMap<String, u32>,
    config: WengLinConfig,
}

impl Ratings {
    /// Rates one game: `builds[i]` (slot, build number) finished with rank `ranks[i]`, 1 best,
    /// ties sharing the better rank.
    pub fn update(&mut self, builds: &[(&str, u32)], ranks: &[usize]) {
        let before: Vec<[WengLinRating; 1]> = builds
            .iter()
            .map(|&(slot, version)| [self.rating_or_prior(slot, version)])
            .collect();
        let teams: Vec<(&[WengLinRating], MultiTeamOutcome)> = before
            .iter()
            .zip(ranks)
            .map(|(team, &rank)| (&team[..], MultiTeamOutcome::new(rank)))
            .collect();
        let after = weng_lin_multi_team(&teams, &self.config);
        for (&(slot, version), team) in builds.iter().zip(after) {
            self.by_build.insert((slot.to_string(), version), team[0]);
            self.last_of_slot.insert(slot.to_string(), version);
        }
    }

    fn rating_or_prior(&self, slot: &str, version: u32) -> WengLinRating {
        if let Some(r) = self.by_build.get(&(slot.to_string(), version)) {
            return *r;
        }
        let mut prior = WengLinRating::new();
        if let Some(r) = self
            .last_of_slot
            .get(slot)
            .and_then(|v| self.by_build.get(&(slot.to_string(), *v)))
        {
            prior.rating = r.rating;
        }
        prior
    }

    /// The build's rating (its prior when it has played no game yet).
    pub fn of(&self, slot: &str, version: u32) -> Rated {
        let r = self.rating_or_prior(slot, version);
        Rated {
            mu: r.rating,
            sigma: r.uncertainty,
            conservative: r.rating - CONSERVATIVE_SIGMAS * r.uncertainty,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn winners_rise_losers_fall_and_sigma_shrinks() {
        let mut ratings = Ratings::default();
        for _ in 0..20 {
            ratings.update(&[("a", 1), ("b", 1)], &[1, 2]);
        }
        let (a, b) = (ratings.of("a", 1), ratings.of("b", 1));
        assert!(a.mu > 25.0 && b.mu < 25.0, "{a:?} {b:?}");
        assert!(a.sigma < 25.0 / 3.0 && b.sigma < 25.0 / 3.0);
        assert!((a.conservative - (a.mu - 3.0 * a.sigma)).abs() < 1e-9);
    }

    #[test]
    fn draws_move_nobody_between_equals_and_many_seats_are_ranked() {
        let mut ratings = Ratings::default();
        ratings.update(&[("a", 1), ("b", 1)], &[1, 1]);
        assert!((ratings.of("a", 1).mu - ratings.of("b", 1).mu).abs() < 1e-9);
        ratings.update(&[("c", 1), ("d", 1), ("e", 1)], &[2, 1, 3]);
        let (c, d, e) = (ratings.of("c", 1), ratings.of("d", 1), ratings.of("e", 1));
        assert!(d.mu > c.mu && c.mu > e.mu, "{c:?} {d:?} {e:?}");
    }

    #[test]
    fn a_new_build_starts_from_its_slots_strength_with_full_uncertainty() {
        let mut ratings = Ratings::default();
        for _ in 0..10 {
            ratings.update(&[("a", 1), ("b", 1)], &[1, 2]);
        }
        let old = ratings.of("a", 1);
        let new = ratings.of("a", 2);
        assert_eq!(new.mu, old.mu);
        assert_eq!(new.sigma, 25.0 / 3.0);
        assert_eq!(
            ratings.of("z", 1).mu,
            25.0,
            "an unknown slot starts at the default"
        );
    }
}
