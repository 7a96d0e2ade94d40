//! Swiss: a fixed number of rounds; each round pairs entrants of like score who have not met
//! (`swiss_pairing`), so a large field is ranked in few rounds. A meeting is the usual
//! `games_per_pairing` games with seats swapped, an even number (the configuration checks it),
//! so every entrant sits in each seat equally often whoever it meets: with single games, no
//! pairing can both avoid rematches and keep seats within one of even in every round. A bye
//! scores as a meeting won. Round `r`'s games are laid out when every game of round `r - 1`
//! has its result.

use super::super::plan::GameSpec;
use super::swiss_pairing::{self, Round, Standing};
use super::{mix, pairs, Lineup, Progress, Schedule};
use std::collections::HashSet;

pub struct Swiss {
    pub rounds: u32,
}

/// The most rounds a Swiss tournament may have.
pub const MAX_ROUNDS: u32 = 1000;

impl Schedule for Swiss {
    fn known_up_front(&self) -> bool {
        false
    }

    fn games_at_most(&self, lineup: &Lineup) -> u128 {
        self.rounds as u128 * games_per_round(lineup) as u128
    }

    fn next(&self, lineup: &Lineup, progress: &Progress) -> Vec<GameSpec> {
        let per_round = games_per_round(lineup);
        let played_rounds = progress.laid_out.len() / per_round.max(1);
        if played_rounds as u32 >= self.rounds || per_round == 0 {
            return Vec::new();
        }
        let record = Record::of(lineup, progress, per_round);
        let round = record.pair(lineup);
        lay_out(lineup, played_rounds, &round)
    }
}

/// Every entrant but the bye meets one other in a round.
fn games_per_round(lineup: &Lineup) -> usize {
    lineup.names.len() / 2 * lineup.settings.games_per_pairing as usize
}

/// What the rounds so far say of each entrant.
pub(super) struct Record {
    pub score: Vec<f64>,
    pub byes: Vec<u32>,
    pub met: HashSet<(usize, usize)>,
}

impl Record {
    pub fn of(lineup: &Lineup, progress: &Progress, per_round: usize) -> Record {
        let n = lineup.names.len();
        let mut record = Record {
            score: vec![0.0; n],
            byes: vec![0; n],
            met: HashSet::new(),
        };
        for round in progress.laid_out.chunks(per_round.max(1)) {
            let mut played = vec![false; n];
            for game in round {
                let [a, b] = game.seats[..] else { continue };
                played[a] = true;
                played[b] = true;
                record.met.insert((a.min(b), a.max(b)));
                if let Some(result) = progress.results.get(game.id.as_str()) {
                    record.score[a] += result.points(0);
                    record.score[b] += result.points(1);
                }
            }
            for e in (0..n).filter(|&e| !played[e]) {
                record.byes[e] += 1;
                record.score[e] += lineup.settings.games_per_pairing as f64;
            }
        }
        record
    }

    /// The next round's pairing: by score, ties in an order drawn from the tournament seed.
    fn pair(&self, lineup: &Lineup) -> Round {
        let mut order: Vec<usize> = (0..self.score.len()).collect();
        order.sort_by(|&a, &b| {
            self.score[b]
                .total_cmp(&self.score[a])
                .then_with(|| tie_break(lineup, a).cmp(&tie_break(lineup, b)))
        });
        let ranked: Vec<Standing> = order
            .iter()
            .map(|&e| Standing {
                entrant: e,
                byes: self.byes[e],
            })
            .collect();
        let met = |a: usize, b: usize| self.met.contains(&(a.min(b), a.max(b)));
        swiss_pairing::pair(&ranked, &met)
    }
}

fn tie_break(lineup: &Lineup, entrant: usize) -> u64 {
    mix(lineup.settings.seed ^ mix(0x5315 << 32 ^ entrant as u64))
}

/// The games of `round`: the higher-ranked entrant of a meeting takes the first seat of its
/// first game on even rounds, the other on odd ones.
fn lay_out(lineup: &Lineup, round: usize, pairing: &Round) -> Vec<GameSpec> {
    let mut games = Vec::new();
    for &(high, low) in &pairing.meetings {
        let (first, second) = if round.is_multiple_of(2) {
            (high, low)
        } else {
            (low, high)
        };
        let prefix = format!(
            "{}-s00-r{round:02}-e{first:02}e{second:02}",
            lineup.config_hash
        );
        let key = pairs::seed_key(0, first.min(second), first.max(second)) ^ (round as u64) << 56;
        games.extend(pairs::meeting(
            lineup.settings,
            &prefix,
            0,
            (first, second),
            key,
        ));
    }
    games
}

#[cfg(test)]
mod tests {
    use super::super::test_field::settings;
    use super::*;
    use agon_play::journal::GameResult;
    use proptest::prelude::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    use std::collections::HashMap;

    /// Plays `rounds` Swiss rounds among `n` entrants; `winner(game, a, b)` gives seat 0's
    /// points. Checks every round as it is laid out, and returns the games and their results.
    fn tournament(
        n: usize,
        rounds: u32,
        games_per_pairing: u32,
        winner: &mut dyn FnMut(usize, usize) -> f64,
    ) -> (Vec<GameSpec>, HashMap<String, GameResult>) {
        let names: Vec<String> = (0..n).map(|e| format!("team{e}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let settings = settings(games_per_pairing);
        let lineup = Lineup {
            config_hash: "h",
            settings: &settings,
            seats: &[2],
            names: &names,
        };
        let swiss = Swiss { rounds };
        let mut laid_out: Vec<GameSpec> = Vec::new();
        let mut results: HashMap<String, GameResult> = HashMap::new();
        let per_round = games_per_round(&lineup);
        // The next games, with the record they were paired from.
        let step = |laid_out: &[GameSpec], results: &HashMap<String, GameResult>| {
            let by_id: HashMap<&str, &GameResult> =
                results.iter().map(|(k, v)| (k.as_str(), v)).collect();
            let progress = Progress {
                laid_out,
                results: &by_id,
                batch: 1,
            };
            let before = Record::of(&lineup, &progress, per_round);
            (before, swiss.next(&lineup, &progress))
        };
        for round in 0..rounds as usize {
            let (before, next) = step(&laid_out, &results);
            assert_eq!(next.len(), per_round, "round {round}");
            check_round(&before, &next, n, games_per_pairing, round);
            for game in &next {
                let points = winner(game.seats[0], game.seats[1]);
                let result = GameResult::by_rules(&[points, 1.0 - points], &[], "test");
                results.insert(game.id.clone(), result);
            }
            laid_out.extend(next);
        }
        assert!(step(&laid_out, &results).1.is_empty(), "then it is over");
        (laid_out, results)
    }

    /// Every entrant plays once or has the bye; no bye twice while some have none; no rematch
    /// while a pairing without one exists; each entrant as often in each seat.
    fn check_round(before: &Record, games: &[GameSpec], n: usize, per: u32, round: usize) {
        let mut meetings: Vec<(usize, usize)> = Vec::new();
        for meeting in games.chunks(per as usize) {
            let [a, b] = meeting[0].seats[..] else {
                panic!("two seats")
            };
            assert!(meeting.iter().all(|g| {
                let mut s = g.seats.clone();
                s.sort();
                s == [a.min(b), a.max(b)]
            }));
            meetings.push((a, b));
        }
        let mut count = vec![0; n];
        for &(a, b) in &meetings {
            count[a] += 1;
            count[b] += 1;
        }
        assert!(count.iter().all(|&c| c <= 1), "round {round}: {count:?}");
        let byes: Vec<usize> = (0..n).filter(|&e| count[e] == 0).collect();
        assert_eq!(byes.len(), n % 2, "round {round}");
        let fewest = before.byes.iter().min().copied().unwrap_or(0);
        for &b in &byes {
            assert_eq!(
                before.byes[b], fewest,
                "round {round}: a second bye for {b}"
            );
        }
        let rematches = meetings
            .iter()
            .filter(|&&(a, b)| before.met.contains(&(a.min(b), a.max(b))))
            .count();
        if rematches > 0 {
            // Within nine rounds of a large field a fresh pairing always exists.
            assert!(n <= 20, "round {round}: a rematch in a field of {n}");
            let candidates: Vec<usize> = (0..n).filter(|&e| before.byes[e] == fewest).collect();
            assert!(
                !fresh_pairing_exists(n, &before.met, &candidates),
                "round {round}: a rematch although a pairing without one exists"
            );
        }
        let mut balance = vec![0i64; n];
        for game in games {
            balance[game.seats[0]] += 1;
            balance[game.seats[1]] -= 1;
        }
        assert!(
            balance.iter().all(|&b| b == 0),
            "round {round}: seats {balance:?}"
        );
    }

    /// Whether the entrants can be paired with no rematch (one of `bye_candidates` sitting
    /// out when their number is odd): an exhaustive search over subsets, memoised.
    fn fresh_pairing_exists(
        n: usize,
        met: &HashSet<(usize, usize)>,
        bye_candidates: &[usize],
    ) -> bool {
        fn pairable(
            mask: u32,
            met: &HashSet<(usize, usize)>,
            memo: &mut HashMap<u32, bool>,
        ) -> bool {
            if mask == 0 {
                return true;
            }
            if let Some(&known) = memo.get(&mask) {
                return known;
            }
            let a = mask.trailing_zeros() as usize;
            let rest = mask & !(1 << a);
            let found = (0..32).filter(|&b| rest & (1 << b) != 0).any(|b| {
                !met.contains(&(a.min(b), a.max(b))) && pairable(rest & !(1 << b), met, memo)
            });
            memo.insert(mask, found);
            found
        }
        let all: u32 = (1u32 << n) - 1;
        let mut memo = HashMap::new();
        if n.is_multiple_of(2) {
            return pairable(all, met, &mut memo);
        }
        bye_candidates
            .iter()
            .any(|&b| pairable(all & !(1 << b), met, &mut memo))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn rounds_pair_by_the_rules(
            n in 2usize..=14,
            rounds in 1u32..=13,
            per in prop::sample::select(vec![2u32, 4]),
            seed in any::<u64>(),
        ) {
            let rounds = rounds.min(n as u32 - 1).max(1);
            let mut rng = SmallRng::seed_from_u64(seed);
            let mut winner = |_: usize, _: usize| [0.0, 0.5, 1.0][rng.random_range(0..3)];
            tournament(n, rounds, per, &mut winner);
        }
    }

    #[test]
    fn a_field_of_200_is_ranked_in_9_rounds() {
        // Entrant e's strength is e: the stronger wins three games in four.
        let mut rng = SmallRng::seed_from_u64(7);
        let mut winner = |a: usize, b: usize| {
            let stronger_wins = rng.random::<f64>() < 0.75;
            if (a > b) == stronger_wins {
                1.0
            } else {
                0.0
            }
        };
        let (games, results) = tournament(200, 9, 2, &mut winner);
        let mut points = vec![0.0; 200];
        for game in &games {
            let result = &results[&game.id];
            points[game.seats[0]] += result.points(0);
            points[game.seats[1]] += result.points(1);
        }
        // Rank correlation of points with strength (Spearman's rho over rank positions).
        let mut order: Vec<usize> = (0..200).collect();
        order.sort_by(|&a, &b| points[a].total_cmp(&points[b]).then(a.cmp(&b)));
        let d2: f64 = order
            .iter()
            .enumerate()
            .map(|(rank, &e)| (rank as f64 - e as f64).powi(2))
            .sum();
        let rho = 1.0 - 6.0 * d2 / (200.0 * (200.0f64.powi(2) - 1.0));
        assert!(rho > 0.8, "rank correlation {rho}");
    }
}
