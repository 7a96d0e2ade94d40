//! Gauntlet: the candidates (the builds a team is about to submit) each play the field (every
//! other entrant); candidates never meet each other, nor field members each other.

use super::super::plan::GameSpec;
use super::round_robin::{binomial, rotations, subsets};
use super::FieldError;
use super::{pairs, Lineup, Progress, Schedule};

pub struct Gauntlet<'a> {
    pub candidates: &'a [String],
}

impl Gauntlet<'_> {
    /// Candidate and field entrant indices.
    fn sides(&self, names: &[&str]) -> (Vec<usize>, Vec<usize>) {
        (0..names.len()).partition(|&e| self.candidates.iter().any(|c| c == names[e]))
    }
}

impl Schedule for Gauntlet<'_> {
    fn games_at_most(&self, lineup: &Lineup) -> u128 {
        let (candidates, others) = self.sides(lineup.names);
        let per_meeting = lineup.settings.games_per_pairing as u128;
        lineup
            .seats
            .iter()
            .map(|&k| {
                let groups = binomial(others.len() as u128, k.saturating_sub(1) as u128);
                let rotations = if k > 2 { k as u128 } else { 1 };
                (candidates.len() as u128)
                    .saturating_mul(groups)
                    .saturating_mul(rotations)
                    .saturating_mul(per_meeting)
            })
            .fold(0, u128::saturating_add)
    }

    fn next(&self, lineup: &Lineup, progress: &Progress) -> Vec<GameSpec> {
        if !progress.laid_out.is_empty() {
            return Vec::new();
        }
        let (candidates, others) = self.sides(lineup.names);
        let mut games = Vec::new();
        for (set, &k) in lineup.seats.iter().enumerate() {
            if k > 2 {
                // Each candidate with every (k-1)-subset of the field, in every rotation.
                let others = &others;
                let groups: Vec<Vec<usize>> = candidates
                    .iter()
                    .flat_map(|&c| {
                        subsets(others.len(), k - 1).into_iter().map(move |s| {
                            let mut group = vec![c];
                            group.extend(s.iter().map(|&i| others[i]));
                            group
                        })
                    })
                    .collect();
                if !groups.is_empty() {
                    let n = lineup.names.len();
                    games.extend(rotations(
                        k,
                        lineup.config_hash,
                        lineup.settings,
                        set,
                        n,
                        &groups,
                    ));
                }
                continue;
            }
            for &c in &candidates {
                for &f in &others {
                    let prefix = format!("{}-s{set:02}-e{c:02}e{f:02}", lineup.config_hash);
                    let key = pairs::seed_key(set, c.min(f), c.max(f));
                    games.extend(pairs::meeting(lineup.settings, &prefix, set, (c, f), key));
                }
            }
        }
        games
    }
}

/// Every candidate is an entrant that can play, and the field is not empty; `seats` is the
/// game's seat count under each parameter set.
pub fn check_field(
    candidates: &[String],
    names: &[&str],
    seats: &[usize],
) -> Result<(), FieldError> {
    if candidates.is_empty() {
        return Err(FieldError::NoCandidates);
    }
    if let Some(c) = candidates.iter().find(|c| !names.contains(&c.as_str())) {
        return Err(FieldError::NotAnEntrant {
            candidate: c.clone(),
            entrants: names.join(", "),
        });
    }
    // Counted, not subtracted: a plan edited by hand may name a candidate twice.
    let field = names
        .iter()
        .filter(|n| !candidates.iter().any(|c| c == *n))
        .count();
    let most = seats.iter().copied().max().unwrap_or(2);
    if field + 1 < most.max(2) {
        return Err(FieldError::FieldTooSmall { field, seats: most });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::test_field::settings;
    use super::*;
    use std::collections::HashMap;

    fn lay_out(names: &[&str], candidates: &[&str], seats: &[usize]) -> Vec<GameSpec> {
        let candidates: Vec<String> = candidates.iter().map(|s| s.to_string()).collect();
        let settings = settings(2);
        let lineup = Lineup {
            config_hash: "h",
            settings: &settings,
            seats,
            names,
        };
        let gauntlet = Gauntlet {
            candidates: &candidates,
        };
        let start = Progress {
            laid_out: &[],
            results: &HashMap::new(),
            batch: 1,
        };
        let games = gauntlet.next(&lineup, &start);
        assert_eq!(games.len() as u128, gauntlet.games_at_most(&lineup));
        assert!(gauntlet
            .next(
                &lineup,
                &Progress {
                    laid_out: &games,
                    results: &HashMap::new(),
                    batch: 1
                }
            )
            .is_empty());
        games
    }

    #[test]
    fn candidates_play_only_the_field() {
        let names = ["a", "new1", "b", "new2", "c"];
        let games = lay_out(&names, &["new1", "new2"], &[2]);
        // Two candidates x three field members x two games.
        assert_eq!(games.len(), 12);
        for g in &games {
            let candidates = g.seats.iter().filter(|&&e| e == 1 || e == 3).count();
            assert_eq!(candidates, 1, "{:?}", g.seats);
        }
        for candidate in [1, 3] {
            for seat in 0..2 {
                let in_seat = games.iter().filter(|g| g.seats[seat] == candidate).count();
                assert_eq!(in_seat, 3, "each candidate sits in each seat equally");
            }
        }
        let mut ids: Vec<&str> = games.iter().map(|g| g.id.as_str()).collect();
        ids.dedup();
        assert_eq!(ids.len(), games.len());
    }

    #[test]
    fn in_games_of_more_seats_a_candidate_sits_with_field_members_only() {
        let names = ["a", "b", "c", "new"];
        let games = lay_out(&names, &["new"], &[3]);
        // One candidate x three 2-subsets of the field x three rotations x two games.
        assert_eq!(games.len(), 18);
        for g in &games {
            assert_eq!(g.seats.iter().filter(|&&e| e == 3).count(), 1);
        }
    }

    #[test]
    fn a_field_too_small_or_an_unknown_candidate_is_refused() {
        let names = ["a", "new"];
        let e = check_field(&["newer".into()], &names, &[2]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "candidate `newer` is not an entrant that can play (entrants: a, new)"
        );
        assert!(check_field(&["new".into()], &names, &[2]).is_ok());
        let e = check_field(&["new".into(), "a".into()], &names, &[2]).unwrap_err();
        assert_eq!(e, FieldError::FieldTooSmall { field: 0, seats: 2 });
        let e = check_field(&["new".into()], &names, &[3]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the field (the entrants that are not candidates) has 1 entrant(s); games of 3 \
             seats need at least 2"
        );
        assert_eq!(
            check_field(&[], &names, &[2]),
            Err(FieldError::NoCandidates)
        );
        let thrice = vec!["new".to_string(); 3];
        assert_eq!(
            check_field(&thrice, &names, &[2]),
            Ok(()),
            "a field of one ('a') plays a candidate named three times"
        );
    }
}
