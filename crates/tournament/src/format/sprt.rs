//! SPRT: game pairs between the baseline (entrant 0) and the candidate (entrant 1), each pair
//! one seed with the seats swapped, laid out a batch at a time until the test decides
//! (`agon_play::standings::sprt`). The verdict is taken over the pairs in the order they were laid
//! out, stopping at the first that crosses a bound, so it does not depend on which games a
//! busy machine finished first.

use super::super::entry::Entry;
use super::super::plan::{GameSpec, Plan};
use super::{mix, results_by_id, Format, Lineup, Progress, Schedule};
use agon_play::standings::sprt::{SprtBounds, SprtState, Verdict};

pub struct Sprt<'a> {
    pub bounds: &'a SprtBounds,
}

impl Schedule for Sprt<'_> {
    fn known_up_front(&self) -> bool {
        false
    }

    fn games_at_most(&self, _: &Lineup) -> u128 {
        2 * self.bounds.max_pairs as u128
    }

    fn next(&self, lineup: &Lineup, progress: &Progress) -> Vec<GameSpec> {
        let state = SprtState::of(*self.bounds, sprt_pairs(progress));
        let laid = progress.laid_out.len() / 2;
        if state.verdict != Verdict::Continue || laid >= self.bounds.max_pairs as usize {
            return Vec::new();
        }
        // Whole pairs, at least one per game the run plays at once, and the square root of the
        // pairs so far: each step costs the run a fixed setup and a read of the journal, so a
        // step per pair made a long test quadratic (204 pairs took 19 s, the same games in one
        // step 7 s), while the pairs played past the deciding one stay under 1/sqrt(n) of n.
        let batch = progress.batch.div_ceil(2).max(laid.isqrt() + 1);
        let end = (laid + batch).min(self.bounds.max_pairs as usize);
        (laid..end).flat_map(|p| pair(lineup, p)).collect()
    }
}

/// The candidate's points in each pair, in order, up to the first pair not finished.
pub fn sprt_pairs<'a>(progress: &'a Progress) -> impl Iterator<Item = f64> + 'a {
    progress.laid_out.chunks(2).map_while(|pair| {
        let candidate_points = |game: &GameSpec| {
            let result = progress.results.get(game.id.as_str())?;
            let seat = game.seats.iter().position(|&e| e == 1)?;
            Some(result.points(seat))
        };
        match pair {
            [a, b] => Some(candidate_points(a)? + candidate_points(b)?),
            _ => None,
        }
    })
}

/// The test over a tournament's journal, if its format is SPRT.
pub fn sprt_state<'a>(plan: &Plan, entries: impl Iterator<Item = &'a Entry>) -> Option<SprtState> {
    let Format::Sprt(bounds) = &plan.settings.format else {
        return None;
    };
    let results = results_by_id(entries);
    let progress = Progress {
        laid_out: &plan.games,
        results: &results,
        batch: 0,
    };
    Some(SprtState::of(*bounds, sprt_pairs(&progress)))
}

/// Pair `p`: the baseline in the first seat, then the candidate, on one seed (and one board
/// where the Flip course's per-game seed is set).
fn pair(lineup: &Lineup, p: usize) -> [GameSpec; 2] {
    let settings = lineup.settings;
    let seed = mix(settings.seed ^ mix(0x5b47 << 48 ^ p as u64));
    let params = settings
        .game_seed
        .iter()
        .map(|(name, base)| {
            let board = (*base as i32).wrapping_add(p as i32);
            (name.clone(), board.to_string())
        })
        .collect::<agon_games::contract::RawParams>();
    [[0, 1], [1, 0]].map(|seats| GameSpec {
        id: format!(
            "{}-s00-p{p:06}-g{:03}",
            lineup.config_hash,
            usize::from(seats[0] == 1)
        ),
        param_set: 0,
        seats: seats.to_vec(),
        seed,
        params: params.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_field::settings;
    use super::*;
    use agon_play::journal::GameResult;
    use std::collections::HashMap;

    // Hypotheses either side of an even score, so that drawn pairs never decide.
    const BOUNDS: SprtBounds = SprtBounds {
        elo0: -5.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
        max_pairs: 10_000,
    };

    /// Every pair drawn: the test runs to its limit, a batch at a time.
    #[test]
    fn batches_grow_with_the_square_root_of_the_pairs_so_far() {
        let settings = settings(2);
        let names = ["old", "new"];
        let lineup = Lineup {
            config_hash: "h",
            settings: &settings,
            seats: &[2],
            names: &names,
        };
        let sprt = Sprt { bounds: &BOUNDS };
        let mut laid_out: Vec<GameSpec> = Vec::new();
        let mut results: HashMap<String, GameResult> = HashMap::new();
        let mut steps = 0;
        loop {
            let by_id: super::super::Results =
                results.iter().map(|(k, v)| (k.as_str(), v)).collect();
            let progress = Progress {
                laid_out: &laid_out,
                results: &by_id,
                batch: 2,
            };
            let next = sprt.next(&lineup, &progress);
            if next.is_empty() {
                break;
            }
            let pairs_before = laid_out.len() / 2;
            let expected = (pairs_before.isqrt() + 1).min(10_000 - pairs_before);
            assert_eq!(next.len() / 2, expected);
            for game in &next {
                let draw = GameResult::by_rules(&[0.5, 0.5], &[], "draw");
                results.insert(game.id.clone(), draw);
            }
            laid_out.extend(next);
            steps += 1;
        }
        assert_eq!(laid_out.len() / 2, 10_000, "up to max_pairs, not past it");
        assert!(steps < 250, "{steps} steps for 10,000 pairs");
    }
}
